"""Opening a model the second time, through the cache of parsed models: whole-process CPU time
(user + system) of `toklab tokenize --with SPEC --format ids` on an empty input, per model, with
the cache off (TOKLAB_NO_CACHE=1: the file parsed), on a first load into an empty cache folder
(parsed, and the entry written) and on a second load (the entry read back). Medians of ROUNDS
interleaved rounds; the ids of a short text are checked to be the same all three ways first.
Then the workbench opened on five real models, without and with the cache: CPU time of the
process until the frame shows every row loaded (tmux, a server of its own per run).

    python3 benches/model_cache.py TOKLAB [ROUNDS]

TOKLAB is a release build. The models are read from $TOKLAB_MODELS or ~/.cache/toklab/realworld
(../shared/realworld/fetch.sh fills it); missing ones are named and left out. The bars: a second
load under 50 ms, the workbench with five models under a second.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from cputime import cpu_and_peak

MODELS = [
    ("gemma tokenizer.json (17.5 MB, BPE)", "hf:{}/gemma.tokenizer.json"),
    ("qwen3 tokenizer.json (11.4 MB, BPE)", "hf:{}/qwen3.tokenizer.json"),
    ("llama3 tokenizer.json (9.1 MB, BPE)", "hf:{}/llama3.tokenizer.json"),
    ("nepali tokenizer.json (2.3 MB, Unigram)", "hf:{}/nepali-unigram.tokenizer.json"),
    ("minilm tokenizer.json (0.5 MB, WordPiece)", "hf:{}/minilm-l6.tokenizer.json"),
    ("ai21-j2.model (6.7 MB, unigram)", "spm:{}/ai21-j2.model"),
    ("mistral-v7.model (0.6 MB, BPE)", "spm:{}/mistral-v7.model"),
    ("qwen.tiktoken (151k ranks)", "tiktoken:{}/qwen.tiktoken?pattern=cl100k"),
    ("llama3.tiktoken.model (128k ranks)", "tiktoken:{}/llama3.tiktoken.model?pattern=cl100k"),
    ("ggml-vocab-gemma-4.gguf (15.8 MB)", "gguf:{}/llama-vocabs/ggml-vocab-gemma-4.gguf"),
    ("ggml-vocab-nomic-bert-moe.gguf (6.8 MB, t5)", "gguf:{}/llama-vocabs/ggml-vocab-nomic-bert-moe.gguf"),
    ("mistral-tekken_240718.json (14.8 MB)", "tekken:{}/mistral-tekken_240718.json"),
]

WORKBENCH = [
    "hf:{}/gemma.tokenizer.json",
    "hf:{}/qwen3.tokenizer.json",
    "hf:{}/llama3.tokenizer.json",
    "spm:{}/ai21-j2.model",
    "tiktoken:{}/qwen.tiktoken?pattern=cl100k",
]

SAMPLE = "Loading twice: 12,345 tokens — naïve façade, 日本語の文章, русский текст.\n"


def environment(cache):
    """The process environment with the cache in `cache`, or off when `cache` is None."""
    env = dict(os.environ)
    env.pop("TOKLAB_NO_CACHE", None)
    if cache is None:
        env["TOKLAB_NO_CACHE"] = "1"
    else:
        env["TOKLAB_CACHE_DIR"] = cache
    return env


def with_env(env, run):
    """Runs `run()` with `env` as this process's environment (cputime.py's children inherit it)."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        return run()
    finally:
        os.environ.clear()
        os.environ.update(saved)


def ids(toklab, spec, env):
    out = subprocess.run([toklab, "tokenize", "--with", spec, "--format", "ids"],
                         input=SAMPLE.encode(), capture_output=True, env=env)
    if out.returncode != 0:
        sys.exit(f"{spec}: {out.stderr.decode(errors='replace')}")
    return out.stdout


def load_times(toklab, spec, rounds, scratch):
    """Median CPU seconds of: no cache, first load, second load."""
    argv = [toklab, "tokenize", "--with", spec, "--format", "ids"]
    empty = os.path.join(scratch, "empty-input")
    open(empty, "wb").close()
    kept = os.path.join(scratch, "kept")
    shutil.rmtree(kept, ignore_errors=True)
    parsed = ids(toklab, spec, environment(None))
    if ids(toklab, spec, environment(kept)) != parsed or ids(toklab, spec, environment(kept)) != parsed:
        sys.exit(f"{spec}: cached ids differ from parsed ids")
    times = {"off": [], "first": [], "second": []}
    for k in range(rounds):
        fresh = os.path.join(scratch, f"fresh-{k}")
        for name, cache in (("off", None), ("first", fresh), ("second", kept)):
            cpu, _ = with_env(environment(cache), lambda: cpu_and_peak(argv, empty))
            times[name].append(cpu)
        shutil.rmtree(fresh, ignore_errors=True)
    return {name: statistics.median(t) for name, t in times.items()}


def workbench_cpu(toklab, specs, text, env, scratch):
    """CPU seconds of the workbench process until no row shows `loading…`."""
    socket = tempfile.mktemp(prefix="tmux-", dir=scratch)
    tmux = ["tmux", "-S", socket, "-f", "/dev/null"]
    argv = [toklab, "tui", "--no-mouse"]
    for spec in specs:
        argv += ["--with", spec]
    argv.append(text)
    subprocess.run(tmux + ["new-session", "-d", "-x", "200", "-y", "60"] + argv,
                   env=env, check=True)
    try:
        pid = subprocess.run(tmux + ["list-panes", "-F", "#{pane_pid}"], capture_output=True,
                             text=True, check=True).stdout.split()[0]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            screen = subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True,
                                    text=True).stdout
            loaded = (f"{len(specs)} tokenizers" in screen and "loading…" not in screen
                      and re.search(r"· [1-9][0-9]* tokens ·", screen))
            if loaded:
                break
            time.sleep(0.02)
        else:
            sys.exit("the workbench did not finish loading in 120 s")
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    toklab = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    models = os.environ.get("TOKLAB_MODELS") or os.path.expanduser("~/.cache/toklab/realworld")
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {rounds} rounds, CPU ms "
          "(user + system, whole process)")
    print(f"{'model':44} {'no cache':>9} {'first':>9} {'second':>9} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        for name, spec in MODELS:
            path = spec.split(":", 1)[1].split("?")[0].format(models)
            if not os.path.isfile(path):
                print(f"{name:44} missing: {path}")
                continue
            t = load_times(toklab, spec.format(models), rounds, scratch)
            print(f"{name:44} {t['off'] * 1000:9.1f} {t['first'] * 1000:9.1f} "
                  f"{t['second'] * 1000:9.1f} {t['off'] / max(t['second'], 1e-9):6.1f}x")
        specs = [s.format(models) for s in WORKBENCH]
        if all(os.path.isfile(s.split(":", 1)[1].split("?")[0]) for s in specs):
            if shutil.which("tmux") is None:
                print("workbench: tmux is not installed, not measured")
                return
            text = os.path.join(scratch, "text.txt")
            with open(text, "w") as f:
                f.write(SAMPLE * 20)
            kept = os.path.join(scratch, "workbench-cache")
            off, on = [], []
            for spec in specs:
                ids(toklab, spec, environment(kept))
            for _ in range(rounds):
                off.append(workbench_cpu(toklab, specs, text, environment(None), scratch))
                on.append(workbench_cpu(toklab, specs, text, environment(kept), scratch))
            print(f"workbench, five models: no cache {statistics.median(off) * 1000:.0f} ms, "
                  f"cached {statistics.median(on) * 1000:.0f} ms CPU "
                  f"({statistics.median(off) / max(statistics.median(on), 1e-9):.1f}x)")


if __name__ == "__main__":
    main()
