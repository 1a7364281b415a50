#!/usr/bin/env python3
"""Expected ids for the models ../shared/conformance/bpe has no expected file for.

Run from the repository root with the shared folder beside it:
    pip install tokenizers==0.23.3 sentencepiece==0.2.3
    python3 tests/bpe_data/gen_expected.py
Writes, for lines.txt (split on "\n", each line without its terminator, no special tokens):
  expected-spm-botchan-unigram1000.jsonl  sentencepiece 0.2.3, default options
  expected-bert-uncased.jsonl             tokenizers 0.23.3 BertWordPieceTokenizer(lowercase)
  expected-sample-*.jsonl                 the shipped samples (samples/bpe/, made by
                                          make_samples.py) under their reference libraries
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

import base64, tiktoken
SAMPLES = os.path.join(ROOT, "samples", "bpe")
for name, path in [("gpt2", "tokenizer.json"), ("split", "split-tokenizer.json")]:
    hf = Tokenizer.from_file(os.path.join(SAMPLES, path))
    write(f"expected-sample-{name}.jsonl", [hf.encode(l, add_special_tokens=False).ids for l in lines])
ranks = {}
for row in open(os.path.join(SAMPLES, "sample.tiktoken"), "rb"):
    token, rank = row.split()
    ranks[base64.b64decode(token)] = int(rank)
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
enc = tiktoken.Encoding(name="sample", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens={})
write("expected-sample-tiktoken.jsonl", [enc.encode_ordinary(l) for l in lines])
sp = spm.SentencePieceProcessor(model_file=os.path.join(SAMPLES, "sample-spm.model"))
write("expected-sample-spm.jsonl", [sp.encode(l) for l in lines])
wp = BertWordPieceTokenizer(os.path.join(SAMPLES, "sample-wordpiece.txt"), lowercase=True)
write("expected-sample-wordpiece.jsonl", [wp.encode(l, add_special_tokens=False).ids for l in lines])
print("written to", OUT, file=sys.stderr)
