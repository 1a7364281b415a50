"""Whole-process CPU time of commands run side by side, for the reference comparisons
(fst_vs_datok.py, rules_vs_utoken.py): interleaved rounds, medians, peak memory.

CPU time (user + system, from wait4) rather than wall clock: the machine is shared, and wall
clock also counts the time other processes had the core. Needs GNU time (/usr/bin/time,
Debian's `time` package) for the peak memory.
"""

import os
import statistics
import subprocess
import sys


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
