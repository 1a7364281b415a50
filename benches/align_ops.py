#!/usr/bin/env python3
"""Whole-process `toklab align --pairs FILE --format ops` against rapidfuzz's in-process
`Levenshtein.editops` over the same pairs, in the same run; the outputs are compared first.

Pairs: 1,000 and 10,000 code points of the KJV (from $TOKLAB_SHARED/corpora/kjv-en.txt, each
pair from its own offset) against a copy with one edit in ten, made by the same xorshift
sequence as benches/align.rs. toklab's time is the median CPU time (user + system, from wait4)
of whole runs (start, reading the pairs, aligning, writing every operation); rapidfuzz's is the
median CPU time of this process over the loop of `editops` calls alone (no process start, no
reading, no printing). CPU time rather than wall clock, as benches/cputime.py explains: the
machine is shared, and wall clock also counts the time other processes had the core (the
medians of wall time are printed too).

    cargo build --release
    python3 -m venv /tmp/toklab-rapidfuzz && /tmp/toklab-rapidfuzz/bin/pip install rapidfuzz==3.14.6
    TOKLAB_SHARED=/work/shared /tmp/toklab-rapidfuzz/bin/python benches/align_ops.py
Environment: TOKLAB_BIN (default target/release/toklab), ALIGN_OPS_RUNS (default 7).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from rapidfuzz.distance import Levenshtein

MASK = (1 << 64) - 1


def edited(a, seed):
    """`a` with one edit in ten (substitution, deletion or insertion of a letter)."""
    state = seed
    out = []
    for c in a:
        state ^= (state << 13) & MASK
        state ^= state >> 7
        state ^= (state << 17) & MASK
        other = chr(ord("a") + (state >> 40) % 256 % 26)
        roll = state % 30
        if roll == 0:
            out.append(other)
        elif roll == 1:
            pass
        elif roll == 2:
            out.append(other)
            out.append(c)
        else:
            out.append(c)
    return "".join(out)


def pairs(text, n, count):
    """`count` pairs of `n` code points, from offsets spread over `text` (lines joined)."""
    flat = text.replace("\n", " ").replace("\t", " ")
    step = max(1, (len(flat) - n) // count)
    return [(a, edited(a, 0x2545F4914F6CDD1D + k))
            for k in range(count)
            for a in [flat[k * step:k * step + n]]]


def ops_line(a, b):
    listed = Levenshtein.editops(a, b).as_list()
    return "\t".join([str(len(listed))] + [f"{k} {s} {d}" for k, s, d in listed])


def main():
    shared = os.environ.get("TOKLAB_SHARED", "../shared")
    binary = os.environ.get("TOKLAB_BIN", "target/release/toklab")
    runs = int(os.environ.get("ALIGN_OPS_RUNS", "7"))
    with open(os.path.join(shared, "corpora/kjv-en.txt"), encoding="utf-8") as f:
        kjv = f.read()
    print(f"load average {os.getloadavg()[0]:.1f}; {runs} runs each; {binary}")
    print(f"{'n':>6} {'pairs':>6} {'toklab CPU (process)':>24} {'rapidfuzz CPU':>18} {'speed ratio':>12}")
    for n, count in [(1_000, 1_000), (10_000, 100)]:
        todo = pairs(kjv, n, count)
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", encoding="utf-8", delete=False) as f:
            f.writelines(f"{a}\t{b}\n" for a, b in todo)
            path = f.name
        try:
            command = [binary, "align", "--pairs", path, "--format", "ops"]
            out = subprocess.run(command, capture_output=True, check=True, text=True).stdout
            expected = "".join(ops_line(a, b) + "\n" for a, b in todo)
            if out != expected:
                sys.exit(f"n={n}: toklab's operations differ from rapidfuzz's")
            ours, ours_wall, theirs, theirs_wall = [], [], [], []
            for _ in range(runs):
                start = time.perf_counter()
                with open(os.devnull, "wb") as null:
                    child = subprocess.Popen(command, stdout=null)
                    _, status, usage = os.wait4(child.pid, 0)
                ours_wall.append(time.perf_counter() - start)
                if status != 0:
                    sys.exit(f"{' '.join(command)} failed")
                ours.append(usage.ru_utime + usage.ru_stime)
                start, cpu = time.perf_counter(), time.process_time()
                for a, b in todo:
                    Levenshtein.editops(a, b)
                theirs.append(time.process_time() - cpu)
                theirs_wall.append(time.perf_counter() - start)
        finally:
            os.unlink(path)
        t, r = statistics.median(ours), statistics.median(theirs)
        walls = f"(wall {statistics.median(ours_wall) * 1e3:.0f} / {statistics.median(theirs_wall) * 1e3:.0f} ms)"
        print(f"{n:>6} {count:>6} {t * 1e3:>21.1f} ms {r * 1e3:>15.1f} ms {r / t:>11.2f}x  {walls}")
    print("speed ratio = rapidfuzz's time / toklab's: at least 1 means the whole process is as fast")


if __name__ == "__main__":
    main()
