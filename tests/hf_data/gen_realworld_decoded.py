#!/usr/bin/env python3
"""Decodes the reference ids of the realworld tokenizer.json models (../shared/realworld) with
HuggingFace tokenizers and records the texts that differ from the input line (the decoder is
lossy there: lowercasing, unknown tokens, prefix spaces...). Lines not listed decode to the
input itself.

    /tmp/hfvenv/bin/python tests/hf_data/gen_realworld_decoded.py [MODELS_DIR]
MODELS_DIR defaults to $TOKLAB_MODELS or ~/.cache/toklab/realworld. Writes
tests/hf_data/realworld_decoded.jsonl: {"id", "i", "decoded"} per differing line.
"""
import json
import os
import sys

from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "realworld")


def main():
    models_dir = (sys.argv[1] if len(sys.argv) > 1 else
                  os.environ.get("TOKLAB_MODELS",
                                 os.path.expanduser("~/.cache/toklab/realworld")))
    models = json.load(open(os.path.join(SHARED, "models.json"), encoding="utf-8"))
    texts = open(os.path.join(SHARED, "texts.txt"), encoding="utf-8",
                 newline="").read()[:-1].split("\n")
    with open(os.path.join(HERE, "realworld_decoded.jsonl"), "w", encoding="utf-8") as out:
        for model in models:
            if model["format"] != "tokenizer.json":
                continue
            tok = Tokenizer.from_file(os.path.join(models_dir, model["file"]))
            expected = os.path.join(SHARED, "expected", model["id"] + ".jsonl")
            for line in open(expected, encoding="utf-8"):
                record = json.loads(line)
                decoded = tok.decode(record["ids"], skip_special_tokens=False)
                if decoded != texts[record["i"]]:
                    out.write(json.dumps({"id": model["id"], "i": record["i"],
                                          "decoded": decoded}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
