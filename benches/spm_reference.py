"""Reference timings for benches/spm.rs: the same lines encoded by the sentencepiece library,
timed in the same run. Reads the tasks the bench wrote (JSON: name, model, lines), prints one
JSON object per task: its name, the median seconds to encode all the lines (one call, one
thread), and the ids' count and checksum (for the check that both sides agree).

Run by the bench with the interpreter of a venv that has sentencepiece (never by cargo test):
    python3 -m venv /tmp/toklab-rapidfuzz
    /tmp/toklab-rapidfuzz/bin/pip install sentencepiece==0.2.3
"""

import json
import statistics
import sys
import timeit

import sentencepiece


def checksum(rows):
    """The ids' count and a position-weighted sum mod 2^64, as benches/spm.rs computes it."""
    count, total = 0, 0
    for ids in rows:
        for id_ in ids:
            count += 1
            total = (total + id_ * count) % (1 << 64)
    return count, total


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tasks = json.load(f)
    for task in tasks:
        sp = sentencepiece.SentencePieceProcessor(model_file=task["model"])
        lines = task["lines"]
        encode = lambda: sp.encode(lines, out_type=int, num_threads=1)
        count, total = checksum(encode())
        times = timeit.repeat(encode, number=1, repeat=task["runs"])
        print(
            json.dumps(
                {
                    "name": task["name"],
                    "seconds": statistics.median(times),
                    "count": count,
                    "checksum": total,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
