"""What a second thread costs: total CPU time (user + system, whole process) of `toklab tokenize
--threads 2` over `--threads 1` on the same 16 MB, for every kind of tokenizer.

Work handed to a second thread should cost no more CPU than on one: the bar is 1.10x. A ratio
above it means spinning, a model set up twice, batches cut too fine or allocator contention.
The output of both is checked to be byte for byte the same first. Then each round runs both
thread counts back to back, in turns (1 then 2, then 2 then 1), so a change of the machine's
load touches both runs of a round alike; the figure is the median of the rounds' own ratios,
with their smallest and largest beside it as the spread. When `perf` is installed the runs go
through `perf stat`, which adds its task-clock ratio (CPU time in nanoseconds, every thread)
and the median context switches, migrations and page faults of each thread count.

The reference column runs, in the same round, two single-thread processes at once on the same
text: each one's CPU time over the one-thread run's. It is what the machine alone charges for
keeping both cores busy (shared caches and memory bandwidth, a clock that drops, other users),
with no coordination between threads at all; a `--threads 2` ratio near it is the machine's,
one well above it is toklab's.

A round of a fast kind takes a tenth of a second, which a noisy machine moves by a third, so
each kind runs at least ROUNDS rounds and more until its one-thread runs add up to
MIN_SECONDS of CPU (at most 40 rounds).

    python3 benches/threads_cpu.py TOKLAB [ROUNDS] [MIN_SECONDS]

TOKLAB is a release build. TOKLAB_SHARED points to the shared folder (default ../shared); the
text is the KJV (corpora/kjv-en.txt) repeated to 16 MB. Kinds whose model file is missing are
named and left out.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from cputime import stdout_of

COUNTERS = ["task-clock", "context-switches", "cpu-migrations", "page-faults"]


def run_once(argv, stdin_path, perf):
    """CPU seconds (user + system, from wait4) of one run, stdout discarded, and perf stat's
    counters by name (empty without perf)."""
    counters = {}
    with tempfile.NamedTemporaryFile("r", suffix=".perf") as stat, \
            open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as null:
        prefix = ([perf, "stat", "-x,", "-o", stat.name, "-e", ",".join(COUNTERS), "--"]
                  if perf else [])
        proc = subprocess.Popen(prefix + argv, stdin=stdin, stdout=null, stderr=subprocess.PIPE)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.stderr.close()
        if status != 0:
            sys.exit(f"{' '.join(argv)} failed: {err.decode(errors='replace')}")
        for line in stat.read().splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[2] in COUNTERS and fields[0].replace(".", "").isdigit():
                counters[fields[2]] = float(fields[0])
    return usage.ru_utime + usage.ru_stime, counters


MAX_ROUNDS = 40


def two_at_once(argv, stdin_path):
    """The mean CPU seconds of two copies of `argv` started together, each on its own stdin."""
    with open(stdin_path, "rb") as a, open(stdin_path, "rb") as b, \
            open(os.devnull, "wb") as null:
        procs = [subprocess.Popen(argv, stdin=f, stdout=null, stderr=null) for f in (a, b)]
        seconds = []
        for proc in procs:
            _, status, usage = os.wait4(proc.pid, 0)
            if status != 0:
                sys.exit(f"{' '.join(argv)} failed when run twice at once")
            seconds.append(usage.ru_utime + usage.ru_stime)
    return sum(seconds) / 2


def paired_rounds(argv, stdin_path, rounds, min_seconds, perf):
    """Per round, the CPU time of one thread, of two threads and of each of two one-thread
    processes run at once (in turns); returns the lists of seconds by key (1, 2, "pair") and the
    counter dictionaries of 1 and 2. Runs `rounds` rounds, then more until the one-thread runs
    add up to `min_seconds`."""
    cpu = {1: [], 2: [], "pair": []}
    counters = {1: [], 2: []}
    r = 0
    while r < rounds or (sum(cpu[1]) < min_seconds and r < MAX_ROUNDS):
        for j in ((1, 2, "pair") if r % 2 == 0 else ("pair", 2, 1)):
            if j == "pair":
                cpu[j].append(two_at_once(argv[1], stdin_path))
                continue
            seconds, counted = run_once(argv[j], stdin_path, perf)
            cpu[j].append(seconds)
            counters[j].append(counted)
        r += 1
    return cpu, counters


def spread(ratios):
    return f"{statistics.median(ratios):5.3f} [{min(ratios):5.3f}-{max(ratios):5.3f}]"


def counter_summary(counters, name):
    values = [c[name] for c in counters if name in c]
    return statistics.median(values) if values else None


def kinds(shared, repo):
    """(name, spec, model file or None) of each kind: models from the shared folder and the
    repository's samples."""
    bpe = os.path.join(shared, "conformance/bpe/data")
    return [
        ("ws", "ws", None),
        ("rules (utoken's English)",
         f"rules:{os.path.join(shared, 'conformance/utoken/data')}?lang=eng",
         os.path.join(shared, "conformance/utoken/data")),
        ("fst (web-en .matok)", f"fst:{os.path.join(shared, 'conformance/fst/web-en.matok')}",
         os.path.join(shared, "conformance/fst/web-en.matok")),
        ("bpe (GPT-2)", f"bpe:{os.path.join(bpe, 'gpt2')}", os.path.join(bpe, "gpt2")),
        ("tiktoken (cl100k)", f"tiktoken:{os.path.join(bpe, 'tiktoken/cl100k_base.tiktoken')}",
         os.path.join(bpe, "tiktoken/cl100k_base.tiktoken")),
        ("spm (unigram, botchan)",
         f"spm:{os.path.join(bpe, 'sentencepiece/botchan_en_unigram_1000.model')}",
         os.path.join(bpe, "sentencepiece/botchan_en_unigram_1000.model")),
        ("wordpiece (BERT)", f"wordpiece:{os.path.join(bpe, 'bert/vocab.txt')}",
         os.path.join(bpe, "bert/vocab.txt")),
        ("hf (tokenizer.json)", f"hf:{os.path.join(repo, 'samples/bpe/tokenizer.json')}",
         os.path.join(repo, "samples/bpe/tokenizer.json")),
    ]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    toklab = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    min_seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 4.0
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    shared = os.environ.get("TOKLAB_SHARED", os.path.join(repo, "../shared"))
    kjv = open(os.path.join(shared, "corpora/kjv-en.txt"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "kjv-16mb.txt")
        with open(text, "wb") as f:
            f.write((kjv * (16_000_000 // len(kjv) + 1))[:16_000_000])
        perf = shutil.which("perf")
        print(f"CPU time (user+sys), at least {rounds} paired rounds and {min_seconds:g} s of one"
              " thread's CPU per kind, 16 MB; ratio = 2 threads / 1 thread, median"
              " [smallest-largest] of the rounds' ratios (bar: 1.10); two processes = each of two"
              " one-thread processes run at once / 1 thread, the machine's own share")
        if perf:
            print("task-clock: perf stat's ratio of the same runs; cs/mig/pf: median context"
                  " switches, migrations, page faults, 1 thread / 2 threads")
        worst = 0.0
        for name, spec, model in kinds(shared, repo):
            if model is not None and not os.path.exists(model):
                print(f"{name:<28} left out: {model} is missing", flush=True)
                continue
            argv = {j: [toklab, "tokenize", "--threads", str(j), "--with", spec, "-"]
                    for j in (1, 2)}
            same = stdout_of(argv[1], text) == stdout_of(argv[2], text)
            cpu, counters = paired_rounds(argv, text, rounds, min_seconds, perf)
            one, two = statistics.median(cpu[1]), statistics.median(cpu[2])
            ratios = [b / a for a, b in zip(cpu[1], cpu[2])]
            worst = max(worst, statistics.median(ratios))
            line = (f"{name:<28} {len(ratios):2} rounds   1 thread {one * 1e3:8.1f} ms   "
                    f"2 threads {two * 1e3:8.1f} ms   ratio {spread(ratios)}   two processes "
                    f"{spread([b / a for a, b in zip(cpu[1], cpu['pair'])])}")
            clocks = [(a.get("task-clock"), b.get("task-clock"))
                      for a, b in zip(counters[1], counters[2])]
            if perf and all(a and b for a, b in clocks):
                line += f"   task-clock {spread([b / a for a, b in clocks])}"
                line += "   cs/mig/pf " + " ".join(
                    f"{counter_summary(counters[1], c):.0f}/{counter_summary(counters[2], c):.0f}"
                    for c in COUNTERS[1:])
            print(f"{line}   output {'same' if same else 'DIFFERENT'}", flush=True)
        print(f"worst ratio {worst:5.3f}")


if __name__ == "__main__":
    main()
