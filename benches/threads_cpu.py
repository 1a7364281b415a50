"""What a second thread costs: total CPU time (user + system, whole process) of `toklab tokenize
--threads 2` over `--threads 1` on the same 16 MB, for every kind of tokenizer.

Work handed to a second thread should cost no more CPU than on one: the bar is 1.10x. A ratio
above it means spinning, a model set up twice, batches cut too fine or allocator contention.
Each kind runs both thread counts in interleaved rounds (cputime.py); the output of both is
checked to be byte for byte the same first.

    python3 benches/threads_cpu.py TOKLAB [ROUNDS]

TOKLAB is a release build. TOKLAB_SHARED points to the shared folder (default ../shared); the
text is the KJV (corpora/kjv-en.txt) repeated to 16 MB. Kinds whose model file is missing are
named and left out.
"""

import os
import sys
import tempfile

from cputime import interleaved, stdout_of


def kinds(shared, repo):
    """(name, spec, model file or None) of each kind: models from the shared folder and the
    repository's samples."""
    bpe = os.path.join(shared, "conformance/bpe/data")
    return [
        ("ws", "ws", None),
        ("rules (utoken's English)",
         f"rules:{os.path.join(shared, 'conformance/utoken/data')}?lang=eng",
         os.path.join(shared, "conformance/utoken/data")),
        ("fst (web-en .matok)", f"fst:{os.path.join(shared, 'conformance/fst/web-en.matok')}",
         os.path.join(shared, "conformance/fst/web-en.matok")),
        ("bpe (GPT-2)", f"bpe:{os.path.join(bpe, 'gpt2')}", os.path.join(bpe, "gpt2")),
        ("tiktoken (cl100k)", f"tiktoken:{os.path.join(bpe, 'tiktoken/cl100k_base.tiktoken')}",
         os.path.join(bpe, "tiktoken/cl100k_base.tiktoken")),
        ("spm (unigram, botchan)",
         f"spm:{os.path.join(bpe, 'sentencepiece/botchan_en_unigram_1000.model')}",
         os.path.join(bpe, "sentencepiece/botchan_en_unigram_1000.model")),
        ("wordpiece (BERT)", f"wordpiece:{os.path.join(bpe, 'bert/vocab.txt')}",
         os.path.join(bpe, "bert/vocab.txt")),
        ("hf (tokenizer.json)", f"hf:{os.path.join(repo, 'samples/bpe/tokenizer.json')}",
         os.path.join(repo, "samples/bpe/tokenizer.json")),
    ]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    toklab = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    shared = os.environ.get("TOKLAB_SHARED", os.path.join(repo, "../shared"))
    kjv = open(os.path.join(shared, "corpora/kjv-en.txt"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "kjv-16mb.txt")
        with open(text, "wb") as f:
            f.write((kjv * (16_000_000 // len(kjv) + 1))[:16_000_000])
        print(f"CPU time (user+sys), median of {rounds} interleaved rounds, 16 MB;"
              " ratio = 2 threads / 1 thread (bar: 1.10)")
        worst = 0.0
        for name, spec, model in kinds(shared, repo):
            if model is not None and not os.path.exists(model):
                print(f"{name:<28} left out: {model} is missing", flush=True)
                continue
            argv = {j: [toklab, "tokenize", "--threads", str(j), "--with", spec, "-"]
                    for j in (1, 2)}
            same = stdout_of(argv[1], text) == stdout_of(argv[2], text)
            medians = interleaved({"1": argv[1], "2": argv[2]}, text, rounds)
            one, two = medians["1"][0], medians["2"][0]
            worst = max(worst, two / one)
            print(f"{name:<28} 1 thread {one * 1e3:8.1f} ms   2 threads {two * 1e3:8.1f} ms   "
                  f"ratio {two / one:5.3f}   output {'same' if same else 'DIFFERENT'}",
                  flush=True)
        print(f"worst ratio {worst:5.3f}")


if __name__ == "__main__":
    main()
