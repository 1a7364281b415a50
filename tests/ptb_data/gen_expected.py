#!/usr/bin/env python3
"""Expected outputs of NLTK's TreebankWordTokenizer and TreebankWordDetokenizer for toklab's
`ptb` conformance test (tests/ptb_conformance.rs).

Usage:  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install nltk
        /tmp/venv/bin/python tests/ptb_data/gen_expected.py [SHARED]

SHARED is the reference-data folder (default ../shared beside the checkout). Writes, next to
this script:
  expected-own.jsonl     one object per line of lines.txt (text written for toklab):
                         {"text", "tokens", "parens", "detok", "detok_parens"}
  expected-shared.jsonl  one object per chosen line of the shared corpora, by file and line
                         number only (the text stays in ../shared):
                         {"file", "line", "tokens", "parens", "detok", "detok_parens"}
"parens" are the tokens with convert_parentheses=True; "detok" is the detokenizer applied to
"tokens", "detok_parens" to "parens" with convert_parentheses=True.
"""
import json
import os
import sys

import nltk
from nltk.tokenize.treebank import TreebankWordDetokenizer, TreebankWordTokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "shared")

# (file under SHARED, every n-th line): natural English of several registers, and German.
CHOSEN = [
    ("conformance/utoken/sentences.txt", 1),
    ("corpora/kjv-en.txt", 100),
    ("corpora/udhr-de.txt", 1),
]

tok = TreebankWordTokenizer()
detok = TreebankWordDetokenizer()


def record(text):
    tokens = tok.tokenize(text)
    parens = tok.tokenize(text, convert_parentheses=True)
    return {
        "tokens": tokens,
        "parens": parens,
        "detok": detok.detokenize(tokens),
        "detok_parens": detok.detokenize(parens, convert_parentheses=True),
    }


def main():
    with open(os.path.join(HERE, "lines.txt"), encoding="utf-8") as f:
        own = [line.rstrip("\n") for line in f]
    with open(os.path.join(HERE, "expected-own.jsonl"), "w", encoding="utf-8") as out:
        for text in own:
            out.write(json.dumps({"text": text, **record(text)}, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "expected-shared.jsonl"), "w", encoding="utf-8") as out:
        for name, step in CHOSEN:
            with open(os.path.join(SHARED, name), encoding="utf-8") as f:
                lines = [line.rstrip("\n") for line in f]
            for number, text in enumerate(lines, start=1):
                if (number - 1) % step == 0:
                    obj = {"file": name, "line": number, **record(text)}
                    out.write(json.dumps(obj, ensure_ascii=False) + "\n")
    print(f"nltk {nltk.__version__}: {len(own)} own lines and the shared lines written", file=sys.stderr)


if __name__ == "__main__":
    main()
