#!/usr/bin/env python3
"""What HuggingFace's decode(ids, skip_special_tokens=True) gives for the ids with special
tokens of every fixture (expected.jsonl's ids_special), for `toklab decode --skip-special`.
Reads the fixtures as they are (no training). Run as gen_fixtures.py says (tokenizers 0.23.3):
    /tmp/hfvenv/bin/python tests/hf_data/gen_decode_skip.py
Writes tests/hf_data/expected_decode_skip.jsonl ({"file", "ids", "decoded"})."""
import json
import os

from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))

loaded = {}
with open(os.path.join(HERE, "expected.jsonl"), encoding="utf-8") as cases, \
        open(os.path.join(HERE, "expected_decode_skip.jsonl"), "w", encoding="utf-8") as out:
    for line in cases:
        case = json.loads(line)
        name = case["file"]
        if name not in loaded:
            loaded[name] = Tokenizer.from_file(os.path.join(HERE, name))
        ids = case["ids_special"]
        decoded = loaded[name].decode(ids, skip_special_tokens=True)
        out.write(json.dumps({"file": name, "ids": ids, "decoded": decoded},
                             ensure_ascii=False) + "\n")
