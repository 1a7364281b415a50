#!/usr/bin/env python3
"""A small SentencePiece unigram model for two regression tests, and its reference ids.

Run from the repository root (needs sentencepiece 0.2.3 and protobuf):
    python3 -m venv /tmp/sp && /tmp/sp/bin/pip install sentencepiece==0.2.3 protobuf
    /tmp/sp/bin/python tests/bpe_data/make_unigram_regressions.py
Writes tests/bpe_data/unigram-regressions.model and expected-unigram-regressions.jsonl
(one {"text", "ids"} per case, ids from SentencePieceProcessor.encode).

The model: byte fallback with all 256 byte pieces, identity normalizer, no dummy prefix, and
pieces whose scores are exact multiples of one another (`a`, `aa`, `aaaa`, `▁`, `▁▁`, `▁▁▁▁`), so
that many segmentations of a run tie and the winner is decided by float32 rounding of the
path totals; plus a user-defined `,` whose score is computed from FLT_MIN (see unigram.rs).
"""
import json, os
import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as pb

OUT = os.path.dirname(os.path.abspath(__file__))
P = pb.ModelProto.SentencePiece

m = pb.ModelProto()
def add(piece, score, kind=P.NORMAL):
    p = m.pieces.add(); p.piece = piece; p.score = score; p.type = kind

add("<unk>", 0.0, P.UNKNOWN)
add("<s>", 0.0, P.CONTROL)
add("</s>", 0.0, P.CONTROL)
for b in range(256):
    add("<0x%02X>" % b, 0.0, P.BYTE)
unit = -2.1716766357421875  # a score whose multiples round differently as totals grow
for piece, times in [("a", 1), ("aa", 2), ("aaaa", 4), ("▁", 1), ("▁▁", 2), ("▁▁▁▁", 4)]:
    add(piece, unit * times)
for piece, score in [("b", -3.5), ("ab", -5.25), ("▁a", -3.0), ("x", -4.0), ("3", -6.0)]:
    add(piece, score)
add(",", 0.0, P.USER_DEFINED)
m.trainer_spec.model_type = pb.TrainerSpec.UNIGRAM
m.trainer_spec.byte_fallback = True
m.trainer_spec.vocab_size = len(m.pieces)
m.normalizer_spec.name = "identity"
m.normalizer_spec.add_dummy_prefix = False
m.normalizer_spec.remove_extra_whitespaces = False
m.normalizer_spec.escape_whitespaces = True

model_path = os.path.join(OUT, "unigram-regressions.model")
with open(model_path, "wb") as f:
    f.write(m.SerializeToString())

sp = spm.SentencePieceProcessor(model_file=model_path)
cases = ["倚", "a倚b", "倚倚", "a" * 500, "a" * 499, "a" * 77, "ab" * 100 + "a" * 333,
         " " * 300, "x, " * 40 + " " * 9, "a" * 200 + "," + "a" * 301]
with open(os.path.join(OUT, "expected-unigram-regressions.jsonl"), "w", encoding="utf-8") as f:
    for text in cases:
        f.write(json.dumps({"text": text, "ids": sp.encode(text)}, ensure_ascii=False) + "\n")
print("sentencepiece", spm.__version__, "cases", len(cases))
