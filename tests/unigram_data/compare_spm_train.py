"""Compares `toklab unigram train` with sentencepiece's trainer on the same corpus and size:
vocabulary overlap and tokens per word (both models encoded by sentencepiece, which also
checks that toklab's .model loads there).

    /tmp/spmvenv/bin/python tests/unigram_data/compare_spm_train.py CORPUS TOKLAB.model VOCAB_SIZE

spm_train runs as `--model_type=unigram --normalization_rule_name=identity
--character_coverage=1.0` (toklab's trainer keeps every character and does not normalize)."""

import sys
import tempfile

import sentencepiece as spm


def main():
    corpus, ours, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    prefix = tempfile.mkdtemp() + "/spm"
    spm.SentencePieceTrainer.train(
        input=corpus, model_prefix=prefix, vocab_size=size, model_type="unigram",
        normalization_rule_name="identity", character_coverage=1.0, minloglevel=2)
    theirs = spm.SentencePieceProcessor(model_file=prefix + ".model")
    mine = spm.SentencePieceProcessor(model_file=ours)
    vocab = lambda sp: {sp.id_to_piece(i) for i in range(sp.get_piece_size())}
    a, b = vocab(mine), vocab(theirs)
    print(f"vocabulary: toklab {len(a)}, spm_train {len(b)}, shared {len(a & b)} "
          f"({100 * len(a & b) / len(b):.1f}%)")
    words = 0
    tokens = {"toklab": 0, "spm_train": 0}
    with open(corpus, encoding="utf-8") as f:
        for line in f:
            words += len(line.split())
            tokens["toklab"] += len(mine.encode(line))
            tokens["spm_train"] += len(theirs.encode(line))
    for name, count in tokens.items():
        print(f"{name}: {count} tokens, {count / words:.4f} tokens per word ({words} words)")


if __name__ == "__main__":
    main()
