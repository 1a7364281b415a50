#!/usr/bin/env python3
"""utoken 0.1.8 and toklab on every corpus of ../shared/corpora/, in all three outputs of the
conformance test (tests/rules_conformance.rs): the default text, `--simple`, and the chart.
Prints, per corpus and output, how many lines are identical; exit status 1 on any difference.
utoken takes about a minute of CPU per output on the KJV, so this is a script, not a test.

    python3 -m venv /tmp/toklab-utoken && /tmp/toklab-utoken/bin/pip install utoken==0.1.8
    python3 tests/rules_data/corpora_vs_utoken.py /tmp/toklab-utoken/bin/python target/release/toklab [SHARED]
"""
import json
import os
import subprocess
import sys
import tempfile


def lines(path):
    with open(path, encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    python, toklab = sys.argv[1], sys.argv[2]
    shared = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "../../../shared")
    data = os.path.join(shared, "conformance/utoken/data")
    spec = f"rules:{data}?lang=eng"
    env = dict(os.environ, PYTHONIOENCODING="UTF-8")
    corpora = sorted(f for f in os.listdir(os.path.join(shared, "corpora")) if f.endswith(".txt"))
    total, different = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in corpora:
            corpus = os.path.join(shared, "corpora", name)
            ut, uts, chart = (os.path.join(tmp, f) for f in ("ut.txt", "uts.txt", "chart.json"))
            utokenize = [python, "-m", "utoken.utokenize", "--lc", "eng", "-d", data, "-i", corpus]
            subprocess.run(utokenize + ["-o", ut, "-a", chart], env=env, check=True, stderr=subprocess.DEVNULL)
            subprocess.run(utokenize + ["--simple", "-o", uts], env=env, check=True, stderr=subprocess.DEVNULL)
            with open(chart, encoding="utf-8") as f:
                utoken_chart = [json.dumps(obj, ensure_ascii=False) for obj in json.load(f)]
            outputs = {
                "text": (lines(ut), [spec, "text"]),
                "simple": (lines(uts), [spec + "&simple=true", "text"]),
                "chart": (utoken_chart, [spec, "chart"]),
            }
            for output, (expected, (s, fmt)) in outputs.items():
                got = subprocess.run([toklab, "tokenize", "--with", s, "--format", fmt, corpus],
                                     capture_output=True, check=True).stdout.decode("utf-8").split("\n")[:-1]
                same = sum(a == b for a, b in zip(got, expected))
                n = max(len(got), len(expected))
                print(f"{name:<16} {output:<7} {same}/{n} lines identical", flush=True)
                different += n - same
            total += len(lines(corpus))
    print(f"{total} lines in {len(corpora)} corpora; {different} different output lines")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
