#!/usr/bin/env python3
"""Writes tests/align_data/editops_pairs.tsv (pairs of texts made here from a seeded random
generator: no outside text) and, beside it, what rapidfuzz's Levenshtein.editops gives for
each pair in the form `toklab align --pairs FILE --format ops` prints: editops_expected.ops.
tests/align_editops.rs compares toklab's output with it byte for byte (and `--format json`
with it field for field).

The pairs cover the choices rapidfuzz makes among equally cheap alignments: short pairs over a
two- or three-letter alphabet (many ties), pairs with non-ASCII code points, empty sides, and
long pairs whose band is large enough for rapidfuzz to split them by Hirschberg's method.

Run from the repository root with a Python that has rapidfuzz:
    python3 -m venv /tmp/toklab-rapidfuzz
    /tmp/toklab-rapidfuzz/bin/pip install rapidfuzz==3.14.6
    /tmp/toklab-rapidfuzz/bin/python tools/gen_editops_expected.py
"""
import random

import rapidfuzz
from rapidfuzz.distance import Levenshtein

OUT = "tests/align_data/"
ALPHABETS = ["ab", "abc", "aé語 ", "xyz\u0301", "the quick"]


def edited(rng, text, alphabet, rate):
    """`text` with about `rate` of its positions replaced, deleted or given an insertion."""
    out = []
    for ch in text:
        roll = rng.random()
        if roll < rate / 3:
            out.append(rng.choice(alphabet))
        elif roll < 2 * rate / 3:
            pass
        elif roll < rate:
            out.append(ch)
            out.append(rng.choice(alphabet))
        else:
            out.append(ch)
    return "".join(out)


def pairs():
    rng = random.Random(26)
    found = [("", ""), ("", "xy"), ("xy", ""), ("intention", "execution"), ("ab", "ba")]
    for _ in range(300):
        alphabet = rng.choice(ALPHABETS)
        a = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        found.append((a, b))
    for _ in range(40):
        alphabet = rng.choice(ALPHABETS)
        a = "".join(rng.choice(alphabet) for _ in range(rng.randrange(60, 700)))
        found.append((a, edited(rng, a, alphabet, rng.choice([0.02, 0.1, 0.4]))))
    # Bands of a megabyte and more: rapidfuzz splits these.
    for n, rate in [(3000, 0.5), (5000, 0.3), (8000, 0.2), (2500, 0.9)]:
        alphabet = "abcdefgh "
        a = "".join(rng.choice(alphabet) for _ in range(n))
        found.append((a, edited(rng, a, alphabet, rate)))
    return found


def main():
    with open(OUT + "editops_pairs.tsv", "w", encoding="utf-8", newline="\n") as tsv, \
         open(OUT + "editops_expected.ops", "w", encoding="utf-8", newline="\n") as ops:
        for a, b in pairs():
            assert "\t" not in a and "\n" not in a + b
            tsv.write(f"{a}\t{b}\n")
            listed = Levenshtein.editops(a, b).as_list()
            distance = Levenshtein.distance(a, b)
            assert distance == len(listed)
            ops.write("".join([str(distance)] + [f"\t{k} {s} {d}" for k, s, d in listed]) + "\n")
    print(f"rapidfuzz {rapidfuzz.__version__}: wrote {OUT}editops_*")


if __name__ == "__main__":
    main()
