"""Whole-process CPU time of commands run side by side, for the reference comparisons
(fst_vs_datok.py, rules_vs_utoken.py, spm_process.py, leads.py): interleaved rounds, medians, peak
memory.

CPU time (user + system, from wait4) rather than wall clock: the machine is shared, and wall
clock also counts the time other processes had the core. Needs GNU time (/usr/bin/time,
Debian's `time` package) for the peak memory.
"""

import os
import statistics
import subprocess
import sys
import time


def cpu_and_peak(argv, stdin_path):
    """CPU seconds (user + system) and peak resident KiB of one run, stdout discarded.

    The command runs under GNU time for its peak (%M): a child forked from this Python keeps
    Python's peak across exec, so wait4's own peak would be Python's for small programs. The
    CPU time is wait4's for GNU time, which includes the command it waited for (microseconds,
    where GNU time prints hundredths)."""
    with open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as null:
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "--"] + argv, stdin=stdin,
                                stdout=null, stderr=subprocess.PIPE)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.stderr.close()
    if status != 0:
        sys.exit(f"{' '.join(argv)} failed: {err.decode(errors='replace')}")
    peak = int(err.decode(errors="replace").split()[-1])
    return usage.ru_utime + usage.ru_stime, peak


def wall_and_cpu(argv, stdin_path=None, env=None):
    """Wall-clock and CPU seconds (user + system of the process and its threads, from wait4)
    of one whole run, stdout discarded; stops the script with the command's error if it fails.
    For comparisons that report both: wall clock is what a user waits, CPU what the work cost
    on a machine shared with others."""
    with open(stdin_path or os.devnull, "rb") as stdin, open(os.devnull, "wb") as null:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=null, stderr=subprocess.PIPE, env=env)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.stderr.close()
    if status != 0:
        sys.exit(f"{' '.join(argv)} failed: {err.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime


def interleaved(commands, stdin_path, rounds):
    """Runs every command once per round, in turn, for `rounds` rounds. Returns, per name,
    the median CPU seconds and the largest peak memory in MiB."""
    times = {name: [] for name in commands}
    peaks = {name: [] for name in commands}
    for _ in range(rounds):
        for name, argv in commands.items():
            cpu, peak = cpu_and_peak(argv, stdin_path)
            times[name].append(cpu)
            peaks[name].append(peak)
    return {name: (statistics.median(times[name]), max(peaks[name]) / 1024) for name in commands}


def stdout_of(argv, stdin_path):
    with open(stdin_path, "rb") as stdin:
        return subprocess.run(argv, stdin=stdin, capture_output=True, check=True).stdout
