#!/usr/bin/env python3
"""A tokenizer.json whose pieces come from the UnicodeScripts pre-tokenizer, and what the
reference library gives on mixed-script texts (written for this file). The model is WordLevel
over the pieces UnicodeScripts makes of gen_fixtures.py's corpus and texts, less a few, so the
ids show exactly where it cut (a piece cut differently is [UNK] or another id). Deterministic
(no training). Run as gen_fixtures.py says (tokenizers 0.23.3):
    /tmp/hfvenv/bin/python tests/hf_data/gen_scripts_fixture.py
Writes tests/hf_data/unicode_scripts.json and tests/hf_data/expected_scripts.jsonl."""
import json
import os

from tokenizers import Tokenizer, decoders, models, pre_tokenizers

from gen_fixtures import CORPUS, HERE, TEXTS

MIXED = [
    "Tokyo means 東京 and よこはま is Yokohama",
    "カタカナーとひらがな、漢字mixed",
    "Αθήνα and Київ and Москва1984!",
    "שלום world مرحبا",
    "x\u0301y 👍🏽 ok",
    "  spaces   between  日本  ",
    "\U0010FFFD private, \U00010D50\U00010D70 Garay (Unicode 16) 語",
]


def main():
    scripts = pre_tokenizers.UnicodeScripts()
    vocab = {"[UNK]": 0}
    for text in CORPUS + TEXTS + MIXED:
        for piece, _ in scripts.pre_tokenize_str(text):
            vocab.setdefault(piece, len(vocab))
    # Leave some pieces out so unknown pieces are part of the test too.
    for gone in ["!", "ok"]:
        vocab.pop(gone, None)
    vocab = {piece: i for i, piece in enumerate(vocab)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = scripts
    tok.decoder = decoders.Fuse()
    tok.save(os.path.join(HERE, "unicode_scripts.json"), pretty=False)
    with open(os.path.join(HERE, "expected_scripts.jsonl"), "w", encoding="utf-8") as out:
        for text in TEXTS + MIXED:
            ids = tok.encode(text, add_special_tokens=False).ids
            record = {"file": "unicode_scripts.json", "text": text, "ids": ids,
                      "ids_special": tok.encode(text, add_special_tokens=True).ids,
                      "decoded": tok.decode(ids, skip_special_tokens=False)}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
