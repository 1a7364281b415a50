#!/usr/bin/env python3
"""Trains the small models shipped in samples/bpe/ on the project's own text
(samples/sample.txt and samples/bpe/training.txt), with the reference libraries:

    pip install tokenizers==0.23.3 sentencepiece==0.2.3 tiktoken==0.14.0
    python3 tests/bpe_data/make_samples.py

Writes samples/bpe/{gpt2/vocab.json,gpt2/merges.txt,tokenizer.json,split-tokenizer.json,
sample.tiktoken,sample-spm.model,sample-wordpiece.txt}. Then run gen_expected.py for the ids
the tests compare against.
"""
import base64, json, os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "samples", "bpe")
TEXTS = [os.path.join(ROOT, "samples", "sample.txt"), os.path.join(OUT, "training.txt")]

from tokenizers import Tokenizer, models, pre_tokenizers, decoders, trainers, Regex
from tokenizers.implementations import ByteLevelBPETokenizer, BertWordPieceTokenizer
import sentencepiece as spm

# 1. Byte-level BPE with GPT-2's pre-tokenizer: GPT-2 folder and tokenizer.json.
bl = ByteLevelBPETokenizer()
bl.train(TEXTS, vocab_size=700, min_frequency=2, special_tokens=["<|endoftext|>"], show_progress=False)
os.makedirs(os.path.join(OUT, "gpt2"), exist_ok=True)
bl.save_model(os.path.join(OUT, "gpt2"))
bl.save(os.path.join(OUT, "tokenizer.json"))

# 2. The same kind of model behind a Split with cl100k's pattern (as Llama 3's tokenizer.json).
CL100K = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.Sequence([
    pre_tokenizers.Split(Regex(CL100K), behavior="isolated"),
    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
])
tok.decoder = decoders.ByteLevel()
tok.train(TEXTS, trainers.BpeTrainer(vocab_size=700, min_frequency=2, special_tokens=["<|endoftext|>"],
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
tok.save(os.path.join(OUT, "split-tokenizer.json"))

# 3. A tiktoken rank file from the byte-level vocabulary (rank = id; the special token left out).
vocab = json.load(open(os.path.join(OUT, "gpt2", "vocab.json"), encoding="utf-8"))
byte_of = {}
printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
n = 0
for b in range(256):
    if b in printable:
        byte_of[chr(b)] = b
    else:
        byte_of[chr(256 + n)] = b
        n += 1
with open(os.path.join(OUT, "sample.tiktoken"), "w", newline="\n") as f:
    for piece, rank in sorted(vocab.items(), key=lambda kv: kv[1]):
        if piece == "<|endoftext|>":
            continue
        raw = bytes(byte_of[c] for c in piece)
        f.write(base64.b64encode(raw).decode() + " " + str(rank) + "\n")

# 4. SentencePiece BPE with byte fallback, two user-defined pieces (matched whole, never merged)
#    and no normalization rule (keeps the file small).
spm.SentencePieceTrainer.train(input=",".join(TEXTS), model_prefix=os.path.join(OUT, "sample-spm"),
                               model_type="bpe", vocab_size=600, byte_fallback=True,
                               user_defined_symbols=["::", "<br>"],
                               normalization_rule_name="identity", character_coverage=1.0,
                               num_threads=1, minloglevel=2)
os.remove(os.path.join(OUT, "sample-spm.vocab"))

# 5. A WordPiece vocabulary.
wp = BertWordPieceTokenizer(lowercase=True)
wp.train(TEXTS, vocab_size=500, min_frequency=1, show_progress=False)
wp.save_model(OUT)
os.replace(os.path.join(OUT, "vocab.txt"), os.path.join(OUT, "sample-wordpiece.txt"))
print("samples written to", OUT)
