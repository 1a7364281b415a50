#!/usr/bin/env python3
"""Writes the shipped samples of the formats that have no small model of their own:
samples/bpe/sample-tekken.json (Mistral tekken), samples/bpe/sample-claude.json (the tiktoken
JSON of npm @anthropic-ai/tokenizer) and samples/bpe/sample-rwkv.txt (an RWKV world vocabulary).
All three hold the vocabulary of samples/bpe/sample.tiktoken (trained on the project's own text
by tests/bpe_data/make_samples.py), in rank order, so the fuzzing harness and the tests have a
model of every kind without the fetched real-world models. Standard library only.
Usage: python3 tools/make_format_samples.py   (from the repository root)"""
import base64, json

# Our own pre-tokenization pattern: letters with one leading non-letter, numbers in threes,
# punctuation runs with their line ends, whitespace.
PATTERN = r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+"

ranks = []
with open('samples/bpe/sample.tiktoken', encoding='ascii') as f:
    for line in f:
        if line.strip():
            token, rank = line.split()
            ranks.append((int(rank), base64.b64decode(token)))
ranks.sort()
tokens = [t for _, t in ranks]


def is_utf8(b):
    try:
        b.decode('utf-8')
        return True
    except UnicodeDecodeError:
        return False


specials = ['<unk>', '<s>', '</s>']
tekken = {
    'config': {
        'pattern': PATTERN,
        'num_vocab_tokens': len(tokens),
        'default_vocab_size': len(tokens) + len(specials),
        'default_num_special_tokens': len(specials),
        'version': 'v7',
    },
    'vocab': [
        {'rank': i, 'token_bytes': base64.b64encode(t).decode('ascii'),
         'token_str': t.decode('utf-8') if is_utf8(t) else None}
        for i, t in enumerate(tokens)
    ],
    'special_tokens': [
        {'rank': i, 'token_str': s, 'is_control': True} for i, s in enumerate(specials)
    ],
}
with open('samples/bpe/sample-tekken.json', 'w', encoding='utf-8') as f:
    json.dump(tekken, f, ensure_ascii=False, indent=1)
    f.write('\n')

# claude.json: `! OFFSET TOKEN…` lines of base64 tokens, then the specials after the ranks.
lines = []
for start in range(0, len(tokens), 64):
    chunk = tokens[start:start + 64]
    lines.append(' '.join(['!', str(start)] + [base64.b64encode(t).decode('ascii') for t in chunk]))
claude = {
    'explicit_n_vocab': len(tokens) + 1,
    'pat_str': PATTERN,
    'special_tokens': {'<EOT>': len(tokens)},
    'bpe_ranks': '\n'.join(lines),
}
with open('samples/bpe/sample-claude.json', 'w', encoding='utf-8') as f:
    json.dump(claude, f, ensure_ascii=False, indent=1)
    f.write('\n')

# RWKV: `ID LITERAL LENGTH`, the literal as Python's repr (str when UTF-8, else bytes), ids
# from 1 as the world vocabulary numbers them.
with open('samples/bpe/sample-rwkv.txt', 'w', encoding='utf-8') as f:
    for i, t in enumerate(tokens):
        literal = repr(t.decode('utf-8')) if is_utf8(t) else repr(t)
        f.write(f'{i + 1} {literal} {len(t)}\n')
