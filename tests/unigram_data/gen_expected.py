"""Expected n-best segmentations and sample counts of SentencePiece unigram models, for
tests/unigram_nbest.rs. Run with the sentencepiece Python library (0.2.3 was used):

    python3 -m venv /tmp/spmvenv && /tmp/spmvenv/bin/pip install sentencepiece==0.2.3 protobuf
    /tmp/spmvenv/bin/python tests/unigram_data/gen_expected.py

Models: the botchan unigram model of ../shared/conformance and the real-world models that
../shared/realworld/fetch.sh puts in ~/.cache/toklab/realworld ($TOKLAB_MODELS). The texts
are written for toklab."""

import collections
import json
import os
import sys

import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("TOKLAB_SHARED", os.path.join(HERE, "../../../shared"))
MODELS = os.environ.get("TOKLAB_MODELS", os.path.expanduser("~/.cache/toklab/realworld"))

MODELS_USED = {
    "botchan_en_unigram_1000.model": os.path.join(
        SHARED, "conformance/bpe/data/sentencepiece/botchan_en_unigram_1000.model"),
    "kyoto_ja_unigram_8000.model": os.path.join(MODELS, "kyoto_ja_unigram_8000.model"),
    "ai21-j2.model": os.path.join(MODELS, "ai21-j2.model"),
}

NBEST_TEXTS = {
    "botchan_en_unigram_1000.model": [
        "hello", "unbelievable", "the teacher walked home", "Mississippi",
        "re-reading tokenizers", "42 apples", "naïve café", "Ω",
    ],
    "kyoto_ja_unigram_8000.model": ["東京都に住んでいます", "日本語の文章", "こんにちは"],
    "ai21-j2.model": ["hello", "unbelievable tokenization", "rewriting 2026"],
}

# (model, text, nbest, alpha): sampled 10,000 times each.
SAMPLES = [
    ("botchan_en_unigram_1000.model", "hello", -1, 0.5),
    ("botchan_en_unigram_1000.model", "teacher", -1, 0.2),
    ("botchan_en_unigram_1000.model", "walked", 5, 0.3),
    ("botchan_en_unigram_1000.model", "mountain", 10, 1.0),
    ("kyoto_ja_unigram_8000.model", "東京都", -1, 0.3),
]
SAMPLE_COUNT = 10_000


def main():
    nbest_out = []
    sample_out = []
    for name, path in MODELS_USED.items():
        if not os.path.exists(path):
            sys.exit(f"missing model {path}")
    for name, texts in NBEST_TEXTS.items():
        sp = spm.SentencePieceProcessor(model_file=MODELS_USED[name])
        for text in texts:
            proto = sp.nbest_encode_as_proto(text, 10)
            nbest_out.append({
                "model": name,
                "text": text,
                "n": 10,
                "nbest": [
                    {"pieces": [p.piece for p in nb.pieces], "ids": [p.id for p in nb.pieces],
                     "score": nb.score}
                    for nb in proto.nbests
                ],
            })
    for name, text, nbest, alpha in SAMPLES:
        sp = spm.SentencePieceProcessor(model_file=MODELS_USED[name])
        spm.set_random_generator_seed(1)
        counts = collections.Counter(
            " ".join(sp.sample_encode_as_pieces(text, nbest, alpha)) for _ in range(SAMPLE_COUNT))
        sample_out.append({
            "model": name, "text": text, "nbest": nbest, "alpha": alpha,
            "samples": SAMPLE_COUNT, "counts": dict(counts.most_common()),
        })
    with open(os.path.join(HERE, "expected-nbest.jsonl"), "w") as f:
        for case in nbest_out:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "expected-samples.jsonl"), "w") as f:
        for case in sample_out:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
