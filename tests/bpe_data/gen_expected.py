#!/usr/bin/env python3
"""Expected ids for the models ../shared/conformance/bpe has no expected file for.

Run from the repository root with the shared folder beside it:
    pip install tokenizers==0.23.3 sentencepiece==0.2.3
    python3 tests/bpe_data/gen_expected.py
Writes, for lines.txt (split on "\n", each line without its terminator, no special tokens):
  expected-spm-botchan-unigram1000.jsonl  sentencepiece 0.2.3, default options
  expected-bert-uncased.jsonl             tokenizers 0.23.3 BertWordPieceTokenizer(lowercase)
  expected-sample-hf.jsonl                tokenizers 0.23.3 on samples/bpe/tokenizer.json
"""
import json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("TOKLAB_SHARED", os.path.join(ROOT, "..", "shared"))
BPE = os.path.join(SHARED, "conformance", "bpe")
OUT = os.path.dirname(os.path.abspath(__file__))

import sentencepiece as spm
from tokenizers import Tokenizer
from tokenizers.implementations import BertWordPieceTokenizer

raw = open(os.path.join(BPE, "lines.txt"), encoding="utf-8", newline="").read()
lines = raw[:-1].split("\n")


def write(name, ids):
    with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as f:
        for row in ids:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")


uni = spm.SentencePieceProcessor(model_file=os.path.join(BPE, "data/sentencepiece/botchan_en_unigram_1000.model"))
write("expected-spm-botchan-unigram1000.jsonl", [uni.encode(l) for l in lines])

bert = BertWordPieceTokenizer(os.path.join(BPE, "data/bert/vocab.txt"), lowercase=True)
write("expected-bert-uncased.jsonl", [bert.encode(l, add_special_tokens=False).ids for l in lines])

sample = os.path.join(ROOT, "samples", "bpe", "tokenizer.json")
if os.path.exists(sample):
    hf = Tokenizer.from_file(sample)
    write("expected-sample-hf.jsonl", [hf.encode(l, add_special_tokens=False).ids for l in lines])
print("written to", OUT, file=sys.stderr)
