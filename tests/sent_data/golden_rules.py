#!/usr/bin/env python3
"""The English "golden rules" of the Pragmatic Segmenter, as pySBD's tests state them, and the
pass rates of pySBD and NLTK's Punkt on them, for toklab's `sent` test (tests/sent_golden.rs).

Usage:  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pysbd nltk
        /tmp/venv/bin/python tests/sent_data/golden_rules.py PYSBD_TEST_ENGLISH [SHARED]

PYSBD_TEST_ENGLISH is pySBD's tests/lang/test_english.py (github.com/nipunsadvilkar/pySBD,
MIT licence; the cases come from the Pragmatic Segmenter, MIT licence, by Kevin S. Dias).
Writes next to this script:
  golden-en.jsonl        {"text", "sentences", "xfail"} per case, in pySBD's order
  references.json        pass counts of pysbd (clean=False, as pySBD's own test) and of
                         NLTK's PunktSentenceTokenizer trained on SHARED/corpora/kjv-en.txt
                         (NLTK's pretrained English model cannot be downloaded here)
A case passes when the stripped segments equal the expected sentences.
"""
import ast
import json
import os
import sys

import nltk
import pysbd
from nltk.tokenize.punkt import PunktSentenceTokenizer

HERE = os.path.dirname(os.path.abspath(__file__))


class Param:
    """Stands for pytest.param: the case and whether it is marked xfail."""

    def __init__(self, text, sentences, marks=None):
        self.case = (text, sentences, marks is not None)


def read_cases(path):
    source = open(path, encoding="utf-8").read()
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "GOLDEN_EN_RULES_TEST_CASES":
            cases = []
            for element in node.value.elts:
                if isinstance(element, ast.Call):  # pytest.param(text, sentences, marks=...)
                    text, sentences = (ast.literal_eval(a) for a in element.args)
                    cases.append((text, sentences, True))
                else:
                    text, sentences = ast.literal_eval(element)
                    cases.append((text, sentences, False))
            return cases
    raise SystemExit(f"{path}: no GOLDEN_EN_RULES_TEST_CASES")


def passes(segment, cases):
    return sum(1 for text, sentences, _ in cases if [s.strip() for s in segment(text)] == sentences)


def main():
    cases = read_cases(sys.argv[1])
    shared = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "..", "shared")
    with open(os.path.join(HERE, "golden-en.jsonl"), "w", encoding="utf-8") as out:
        for text, sentences, xfail in cases:
            out.write(json.dumps({"text": text, "sentences": sentences, "xfail": xfail}, ensure_ascii=False) + "\n")
    sbd = pysbd.Segmenter(language="en", clean=False)
    kjv = open(os.path.join(shared, "corpora", "kjv-en.txt"), encoding="utf-8").read()
    punkt = PunktSentenceTokenizer(kjv)
    figures = {
        "cases": len(cases),
        "pysbd": {"version": pysbd.__version__ if hasattr(pysbd, "__version__") else "0.3.4",
                  "pass": passes(sbd.segment, cases)},
        "nltk_punkt_trained_on_kjv": {"version": nltk.__version__, "pass": passes(punkt.tokenize, cases)},
    }
    with open(os.path.join(HERE, "references.json"), "w", encoding="utf-8") as out:
        json.dump(figures, out, indent=1)
        out.write("\n")
    print(json.dumps(figures), file=sys.stderr)


if __name__ == "__main__":
    main()
