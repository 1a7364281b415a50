"""The rule engine against utoken 0.1.8 on utoken's own English files, whole process, same
text, same run: CPU time per token with loading subtracted, and whole-process.

Each program runs in interleaved rounds on the text and on an empty input (its loading alone);
per-token cost = (median CPU on the text - median CPU on the empty input) / its tokens. The
ratio is utoken's per-token cost over toklab's. The text is the first LINES lines of the KJV
(utoken does about 40,000 tokens per CPU-second, so the whole Bible would take half a minute a
round).

    python3 -m venv /tmp/toklab-utoken && /tmp/toklab-utoken/bin/pip install utoken==0.1.8
    python3 benches/rules_vs_utoken.py /tmp/toklab-utoken/bin/utokenize target/release/toklab [ROUNDS [LINES]]
"""

import json
import os
import sys
import tempfile

from cputime import interleaved, stdout_of


def measure(utokenize, toklab, rounds=5, lines=5000):
    """Prints the comparison and returns toklab's lead as (per token with loading subtracted,
    whole process), each utoken's CPU time over toklab's; leads.py calls it too."""
    shared = os.environ.get("TOKLAB_SHARED", os.path.join(os.path.dirname(__file__), "../../shared"))
    data = os.path.join(shared, "conformance/utoken/data")
    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "kjv-head.txt")
        with open(os.path.join(shared, "corpora/kjv-en.txt"), encoding="utf-8") as f, \
                open(text, "w", encoding="utf-8") as out:
            for _, line in zip(range(lines), f):
                out.write(line)
        empty = os.path.join(tmp, "empty.txt")
        open(empty, "w").close()
        commands = {
            "utoken": [utokenize, "--lc", "eng"],
            "toklab": [toklab, "tokenize", "--threads", "1", "--with", f"rules:{data}?lang=eng"],
        }
        tokens = {
            "utoken": sum(len(l.split()) for l in stdout_of(commands["utoken"], text).decode().splitlines()),
            "toklab": sum(len(json.loads(l)["tokens"]) for l in
                          stdout_of(commands["toklab"] + ["-f", "json"], text).decode().splitlines()),
        }
        on_text = interleaved(commands, text, rounds)
        on_empty = interleaved(commands, empty, rounds)
    print(f"KJV, first {lines} lines; CPU time, medians of {rounds} interleaved rounds")
    per_token = {}
    for name in commands:
        whole, load = on_text[name][0], on_empty[name][0]
        per_token[name] = (whole - load) / tokens[name]
        print(f"  {name:<7} {tokens[name]:>7} tokens  whole {whole * 1e3:8.1f} ms  load {load * 1e3:7.1f} ms  "
              f"{per_token[name] * 1e9:8.0f} ns/token  {1 / per_token[name]:>10.0f} tokens/CPU-s")
    print(f"  per token, loading subtracted: toklab {per_token['utoken'] / per_token['toklab']:.1f}x utoken")
    whole = on_text["utoken"][0] / on_text["toklab"][0]
    print(f"  whole process: toklab {whole:.1f}x utoken")
    return per_token["utoken"] / per_token["toklab"], whole


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    lines = int(sys.argv[4]) if len(sys.argv) > 4 else 5000
    measure(sys.argv[1], sys.argv[2], rounds, lines)


if __name__ == "__main__":
    main()
