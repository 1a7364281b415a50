"""Reference timings for benches/align.rs: the same distances and token alignments computed by
rapidfuzz, timed in the same run. Reads the tasks the bench wrote (JSON), prints one JSON
object per task: its name, the median seconds per call, and the value (for a sanity check).

Run by the bench with the interpreter of a venv that has rapidfuzz (never by cargo test):
    python3 -m venv /tmp/toklab-rapidfuzz
    /tmp/toklab-rapidfuzz/bin/pip install rapidfuzz==3.14.6
"""

import json
import statistics
import sys
import timeit

from rapidfuzz.distance import Levenshtein


def median_seconds(call, min_total=0.2, repeats=15):
    """Median time of one call: calls are batched until a batch takes min_total / repeats."""
    number = 1
    while True:
        elapsed = timeit.timeit(call, number=number)
        if elapsed >= min_total / repeats or number >= 1 << 20:
            break
        number *= 2
    times = timeit.repeat(call, number=number, repeat=repeats)
    return statistics.median(times) / number


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tasks = json.load(f)
    for task in tasks["distance"]:
        a, b, weights = task["a"], task["b"], tuple(task["weights"])
        value = Levenshtein.distance(a, b, weights=weights)
        seconds = median_seconds(lambda: Levenshtein.distance(a, b, weights=weights))
        print(json.dumps({"name": task["name"], "seconds": seconds, "value": value}), flush=True)
    for task in tasks["editops"]:
        a, b = task["a"], task["b"]
        value = len(Levenshtein.editops(a, b))
        seconds = median_seconds(lambda: Levenshtein.editops(a, b), repeats=7)
        print(json.dumps({"name": task["name"], "seconds": seconds, "value": value}), flush=True)


if __name__ == "__main__":
    main()
