"""SentencePiece as a user runs it: the whole `toklab tokenize --format ids` process (start,
model load, reading, encoding, writing) against the sentencepiece library's in-process batch
encode (`sp.encode(lines)`, its default threads), timed in the same run, interleaved.

Two cases: the unigram botchan model on the KJV (4 MB of English), and Mistral v1's
byte-fallback BPE on Chinese and Japanese text (the UDHR in both, repeated to 4 MB, written
to a temporary file). The ids of both sides are compared line by line before timing.

Prints, per case, the median wall-clock seconds of each side, the process CPU seconds
(toklab's from wait4, the library's from `time.process_time`, which counts its threads), and
the ratio sentencepiece / toklab on wall clock: above 1, the whole toklab process is faster.

    python3 -m venv /tmp/spm-venv && /tmp/spm-venv/bin/pip install sentencepiece==0.2.3
    cargo build --release
    TOKLAB_SHARED=/work/shared /tmp/spm-venv/bin/python benches/spm_process.py [ROUNDS]

Environment: TOKLAB_SHARED (corpora, the botchan model), TOKLAB_MODELS (the realworld cache,
default ~/.cache/toklab/realworld), TOKLAB_BIN (default target/release/toklab).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import sentencepiece

from cputime import wall_and_cpu

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("TOKLAB_SHARED", os.path.join(HERE, "..", "..", "shared"))
MODELS = os.environ.get(
    "TOKLAB_MODELS", os.path.expanduser("~/.cache/toklab/realworld"))
TOKLAB = os.environ.get("TOKLAB_BIN", os.path.join(HERE, "..", "target", "release", "toklab"))
SIZE = 4 << 20


def cjk_file(folder):
    """The Chinese and Japanese UDHR, repeated to SIZE bytes, as a file in `folder`."""
    parts = []
    for name in ("udhr-zh.txt", "udhr-ja.txt"):
        with open(os.path.join(SHARED, "corpora", name), encoding="utf-8") as f:
            parts.append(f.read().rstrip("\n") + "\n")
    unit = "".join(parts)
    path = os.path.join(folder, "udhr-zh-ja.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(unit * max(1, SIZE // len(unit.encode())))
    return path


def toklab_run(model, text_path):
    """Wall and CPU seconds of one whole `toklab tokenize --format ids` process."""
    return wall_and_cpu([TOKLAB, "tokenize", "--with", f"spm:{model}", "--format", "ids", text_path])


def same_ids(sp, model, lines, text_path):
    """Whether toklab's ids equal the library's on every line; the first difference if not."""
    out = subprocess.run(
        [TOKLAB, "tokenize", "--with", f"spm:{model}", "--format", "ids", text_path],
        check=True, capture_output=True).stdout.decode().split("\n")[:-1]
    theirs = sp.encode(lines, out_type=int)
    if len(out) != len(theirs):
        return f"{len(out)} lines against {len(theirs)}"
    for number, (ours, ref) in enumerate(zip(out, theirs), 1):
        if ours != " ".join(map(str, ref)):
            return f"line {number}: toklab {ours[:80]!r}, sentencepiece {ref[:20]}"
    return None


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as folder:
        cases = [
            ("unigram botchan-1000, kjv-en 4 MB",
             os.path.join(SHARED, "conformance/bpe/data/sentencepiece/botchan_en_unigram_1000.model"),
             os.path.join(SHARED, "corpora/kjv-en.txt")),
            ("bpe+bytes mistral-v1, udhr zh+ja 4 MB",
             os.path.join(MODELS, "mistral-v1.model"),
             cjk_file(folder)),
        ]
        print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores, {rounds} rounds")
        for name, model, text_path in cases:
            if not os.path.exists(model):
                print(f"{name}: skipped, {model} is missing")
                continue
            sp = sentencepiece.SentencePieceProcessor(model_file=model)
            with open(text_path, encoding="utf-8", newline="") as f:
                lines = [line.rstrip("\n").removesuffix("\r") for line in f]
            difference = same_ids(sp, model, lines, text_path)
            if difference:
                sys.exit(f"{name}: the ids differ: {difference}")
            ours_wall, ours_cpu, ref_wall, ref_cpu = [], [], [], []
            for _ in range(rounds):
                wall, cpu = toklab_run(model, text_path)
                ours_wall.append(wall)
                ours_cpu.append(cpu)
                cpu0, wall0 = time.process_time(), time.perf_counter()
                sp.encode(lines, out_type=int)
                ref_wall.append(time.perf_counter() - wall0)
                ref_cpu.append(time.process_time() - cpu0)
            m = statistics.median
            print(f"{name}: toklab whole process {m(ours_wall):.3f} s wall, {m(ours_cpu):.3f} s CPU; "
                  f"sentencepiece encode(lines) {m(ref_wall):.3f} s wall, {m(ref_cpu):.3f} s CPU; "
                  f"ratio {m(ref_wall) / m(ours_wall):.2f}x wall, {m(ref_cpu) / m(ours_cpu):.2f}x CPU; "
                  f"ids identical on {len(lines)} lines")


if __name__ == "__main__":
    main()
