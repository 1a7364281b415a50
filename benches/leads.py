"""toklab's leads over the reference implementations, re-measured in one run: tiktoken, HuggingFace
tokenizers' `encode_batch`, BPE and unigram training, loading a large tokenizer.json, and utoken.

toklab always runs as a whole process (start, model load, reading, work, writing); the Python
references run in this process on text already read, with their model already loaded (except
where loading is what is measured). Both sides run in interleaved rounds; each figure is the
median with [smallest–largest] of wall-clock seconds and CPU seconds (user + system: toklab's
from wait4, the references' from `time.process_time`, which counts all their threads). The ratio
is the reference's median over toklab's: above 1, toklab is ahead. Before timing, the ids of both
sides are compared line by line (training is only timed: the two trainers learn different
vocabularies by design).

    python3 -m venv /tmp/leads-venv && /tmp/leads-venv/bin/pip install tiktoken tokenizers sentencepiece
    python3 -m venv /tmp/toklab-utoken && /tmp/toklab-utoken/bin/pip install utoken==0.1.8
    cargo build --release
    TOKLAB_SHARED=/work/shared /tmp/leads-venv/bin/python benches/leads.py target/release/toklab \\
        [--rounds 5] [--utokenize /tmp/toklab-utoken/bin/utokenize] [--only tiktoken,hf,train,load,utoken]

Environment: TOKLAB_SHARED (the corpora), TOKLAB_MODELS (the realworld models, default
~/.cache/toklab/realworld). A missing Python package, model or utokenize is named and its
comparison skipped. toklab's cache of parsed models goes to a temporary folder (filled by the
ids check, so timed runs read it, as a user's second run does), except in the load comparison.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Set before tokenizers is imported: its encode_batch and trainer use this many threads.
os.environ["RAYON_NUM_THREADS"] = "2"

import rules_vs_utoken  # noqa: E402
from cputime import wall_and_cpu  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("TOKLAB_SHARED", os.path.join(HERE, "..", "..", "shared"))
MODELS = os.environ.get("TOKLAB_MODELS", os.path.expanduser("~/.cache/toklab/realworld"))
KJV = os.path.join(SHARED, "corpora", "kjv-en.txt")
# tiktoken's cl100k_base pattern, which Llama 3's rank file is used with.
CL100K = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
          r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
SUMMARY = []


def package(name, what):
    """The imported package, or None after saying that `what` is skipped without it."""
    try:
        return __import__(name)
    except ImportError:
        print(f"skipped {what}: the Python package {name} is not installed in {sys.executable}")
        return None


def present(path, what):
    if os.path.exists(path):
        return True
    print(f"skipped {what}: {path} is missing")
    return False


def in_process(call):
    """Wall-clock and CPU seconds of `call()` in this process (CPU of all its threads)."""
    cpu, wall = time.process_time(), time.perf_counter()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def interleave(sides, rounds):
    """Runs each side once per round, in turn. Returns per side the lists of wall and CPU seconds."""
    samples = {name: ([], []) for name in sides}
    for _ in range(rounds):
        for name, run in sides.items():
            wall, cpu = run()
            samples[name][0].append(wall)
            samples[name][1].append(cpu)
    return samples


def spread(values):
    return f"{statistics.median(values):.3f} s [{min(values):.3f}–{max(values):.3f}]"


def report(title, samples):
    """Prints every side's figures and each reference's ratio to each toklab side (the sides
    whose name starts with "toklab")."""
    print(title)
    for name, (walls, cpus) in samples.items():
        print(f"  {name:<34} wall {spread(walls)}  CPU {spread(cpus)}")
    m = statistics.median
    ours = [name for name in samples if name.startswith("toklab")]
    for name, (walls, cpus) in samples.items():
        for mine in [] if name in ours else ours:
            wall = m(walls) / m(samples[mine][0])
            cpu = m(cpus) / m(samples[mine][1])
            print(f"  {name} / {mine}: x{wall:.2f} wall, x{cpu:.2f} CPU")
            SUMMARY.append((f"{title.split(':')[0]}: {name} / {mine}", wall, cpu))


def lines_of(path):
    with open(path, encoding="utf-8", newline="") as f:
        return [line.removesuffix("\n") for line in f]


def check_ids(argv, theirs, env):
    """Stops the script unless toklab's `--format ids` lines equal the reference's id lists."""
    out = subprocess.run(argv, capture_output=True, env=env, stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed: {out.stderr.decode(errors='replace')}")
    ours = out.stdout.decode().split("\n")[:-1]
    if len(ours) != len(theirs):
        sys.exit(f"{argv[-1]}: toklab wrote {len(ours)} lines, the reference {len(theirs)}")
    for number, (mine, ref) in enumerate(zip(ours, theirs), 1):
        if mine != " ".join(map(str, ref)):
            sys.exit(f"{argv[-1]} line {number}: toklab {mine[:80]!r}, reference {ref[:20]}")
    return sum(len(ids) for ids in theirs)


def tiktoken_lead(toklab, env, rounds):
    tiktoken = package("tiktoken", "tiktoken")
    model = os.path.join(MODELS, "llama3.tiktoken.model")
    if tiktoken is None or not present(model, "tiktoken"):
        return
    from tiktoken.load import load_tiktoken_bpe
    encoding = tiktoken.Encoding(name="llama3-ranks", pat_str=CL100K,
                                 mergeable_ranks=load_tiktoken_bpe(model), special_tokens={})
    lines = lines_of(KJV)
    argv = [toklab, "tokenize", "--threads", "2", "--format", "ids",
            "--with", f"tiktoken:{model}?pattern=cl100k", KJV]
    tokens = check_ids(argv, encoding.encode_ordinary_batch(lines), env)
    samples = interleave({
        "toklab": lambda: wall_and_cpu(argv, env=env),
        "tiktoken encode_ordinary_batch": lambda: in_process(
            lambda: encoding.encode_ordinary_batch(lines)),
    }, rounds)
    report(f"tiktoken: KJV {len(lines)} lines, Llama 3 ranks with the cl100k pattern, {tokens} ids "
           f"identical; toklab --threads 2, tiktoken's default 8 threads", samples)


def hf_lead(toklab, env, rounds, kjv3):
    tokenizers = package("tokenizers", "HuggingFace encode_batch")
    model = os.path.join(MODELS, "llama3.tokenizer.json")
    if tokenizers is None or not present(model, "HuggingFace encode_batch"):
        return
    hf = tokenizers.Tokenizer.from_file(model)
    lines = lines_of(kjv3)
    argv = [toklab, "tokenize", "--threads", "2", "--format", "ids", "--with", f"hf:{model}", kjv3]
    tokens = check_ids(argv, [e.ids for e in hf.encode_batch(lines, add_special_tokens=False)], env)
    sides = {
        "toklab": lambda: wall_and_cpu(argv, env=env),
        "tokenizers encode_batch": lambda: in_process(
            lambda: hf.encode_batch(lines, add_special_tokens=False)),
    }
    if hasattr(hf, "encode_batch_fast"):
        sides["tokenizers encode_batch_fast"] = lambda: in_process(
            lambda: hf.encode_batch_fast(lines, add_special_tokens=False))
    report(f"HF encode_batch: KJV x3 {len(lines)} lines, Llama 3 tokenizer.json, {tokens} ids "
           f"identical (no special tokens added); 2 threads each", interleave(sides, rounds))


def training_leads(toklab, env, rounds, kjv3, scratch):
    tokenizers = package("tokenizers", "BPE training")
    spm = package("sentencepiece", "unigram training")
    if tokenizers is not None:
        from tokenizers import models, pre_tokenizers, trainers

        def hf_train():
            hf = tokenizers.Tokenizer(models.BPE())
            hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
            hf.train([kjv3], trainers.BpeTrainer(
                vocab_size=256 + 8000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                show_progress=False))
        argv = [toklab, "bpe", "train", "--merges", "8000", "--bytes", "--pretok", "gpt2", "--force", kjv3,
                "-o", os.path.join(scratch, "bpe")]
        samples = interleave({"toklab": lambda: wall_and_cpu(argv, env=env),
                              "tokenizers BpeTrainer": lambda: in_process(hf_train)}, rounds)
        report(f"BPE training: 8,000 merges on KJV x3 ({os.path.getsize(kjv3) / 1e6:.1f} MB), bytes, "
               f"GPT-2 pre-tokenization; HF on 2 threads; time only (vocabularies differ)", samples)
    if spm is not None:
        prefix = os.path.join(scratch, "spm")
        argv = [toklab, "unigram", "train", "--vocab-size", "8000", "--force", KJV,
                "-o", os.path.join(scratch, "unigram.model")]
        samples = interleave({
            "toklab": lambda: wall_and_cpu(argv, env=env),
            "sentencepiece train (unigram)": lambda: in_process(
                lambda: spm.SentencePieceTrainer.train(
                    input=KJV, model_prefix=prefix, vocab_size=8000, model_type="unigram",
                    normalization_rule_name="identity", character_coverage=1.0, minloglevel=2)),
        }, rounds)
        report("unigram training: vocabulary 8000 on the KJV, identity normalizer; sentencepiece "
               "with its default num_threads (16); time only (vocabularies differ)", samples)


def load_lead(toklab, env, rounds, scratch):
    tokenizers = package("tokenizers", "loading")
    model = os.path.join(MODELS, "gemma.tokenizer.json")
    if tokenizers is None or not present(model, "loading"):
        return
    sample = os.path.join(scratch, "kjv-head.txt")
    with open(sample, "w", encoding="utf-8") as f:
        f.write("\n".join(lines_of(KJV)[:500]) + "\n")
    hf = tokenizers.Tokenizer.from_file(model)
    off = dict(env, TOKLAB_NO_CACHE="1")
    argv = [toklab, "tokenize", "--format", "ids", "--with", f"hf:{model}"]
    ids = [e.ids for e in hf.encode_batch(lines_of(sample), add_special_tokens=False)]
    check_ids(argv + [sample], ids, off)
    check_ids(argv + [sample], ids, env)
    samples = interleave({
        "toklab": lambda: wall_and_cpu(argv, env=off),
        "tokenizers Tokenizer.from_file": lambda: in_process(
            lambda: tokenizers.Tokenizer.from_file(model)),
        "toklab second load (cache on)": lambda: wall_and_cpu(argv, env=env),
    }, rounds)
    report(f"load: Gemma tokenizer.json ({os.path.getsize(model) / 1e6:.1f} MB); toklab whole "
           "process on an empty input, cache off (TOKLAB_NO_CACHE=1); ids of 500 lines identical",
           samples)


def utoken_lead(toklab, utokenize, rounds):
    if not present(utokenize, "utoken (give --utokenize)"):
        return
    print("utoken: benches/rules_vs_utoken.py (CPU time only)")
    per_token, whole = rules_vs_utoken.measure(utokenize, toklab, rounds, 3000)
    SUMMARY.append(("utoken, per token with loading subtracted (CPU)", None, per_token))
    SUMMARY.append(("utoken, whole process on 3,000 lines (CPU)", None, whole))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("toklab")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--utokenize", default="/tmp/toklab-utoken/bin/utokenize")
    parser.add_argument("--only", default="tiktoken,hf,train,load,utoken")
    args = parser.parse_args()
    only = set(args.only.split(","))
    toklab = os.path.abspath(args.toklab)
    scratch = tempfile.mkdtemp(prefix="toklab-leads-")
    try:
        env = dict(os.environ, TOKLAB_CACHE_DIR=os.path.join(scratch, "cache"))
        env.pop("TOKLAB_NO_CACHE", None)
        kjv3 = os.path.join(scratch, "kjv-x3.txt")
        with open(KJV, "rb") as f, open(kjv3, "wb") as out:
            out.write(f.read() * 3)
        print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} cores, "
              f"{args.rounds} interleaved rounds")
        if "tiktoken" in only:
            tiktoken_lead(toklab, env, args.rounds)
        if "hf" in only:
            hf_lead(toklab, env, args.rounds, kjv3)
        if "train" in only:
            training_leads(toklab, env, args.rounds, kjv3, scratch)
        if "load" in only:
            load_lead(toklab, env, args.rounds, scratch)
        if "utoken" in only:
            utoken_lead(toklab, args.utokenize, args.rounds)
    finally:
        shutil.rmtree(scratch)
    print("summary (reference / toklab, medians; below 1 toklab is behind):")
    if not SUMMARY:
        print("  nothing measured: every comparison was skipped (see above)")
    for name, wall, cpu in SUMMARY:
        flag = "  BEHIND" if min(x for x in (wall, cpu) if x is not None) < 1 else ""
        wall_text = f"x{wall:.2f} wall, " if wall is not None else ""
        print(f"  {name}: {wall_text}x{cpu:.2f} CPU{flag}")


if __name__ == "__main__":
    main()
