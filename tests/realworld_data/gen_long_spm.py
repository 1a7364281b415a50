#!/usr/bin/env python3
"""Reference ids of two SentencePiece unigram models on one long line each, so the Viterbi
totals pass +-100,000 and SentencePiece shifts them (kScoreResetThreshold): the KJV text's first
150,000 characters (lines joined by spaces) with ai21-j2.model, and the Japanese UDHR's lines
joined with kyoto_ja_unigram_8000.model. Needs sentencepiece 0.2.3 (pip) and the models folder
(../shared/realworld/fetch.sh). Writes tests/realworld_data/long_spm.jsonl.
Usage (from the repository root): python3 tests/realworld_data/gen_long_spm.py [MODELS]"""
import json, os, sys
import sentencepiece as spm

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get('TOKLAB_SHARED', os.path.join(here, '..', '..', '..', 'shared'))
models = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    'TOKLAB_MODELS', os.path.expanduser('~/.cache/toklab/realworld'))
cases = [('ai21-j2.model', 'kjv-en.txt', 150_000), ('kyoto_ja_unigram_8000.model', 'udhr-ja.txt', None)]
print('sentencepiece', spm.__version__, file=sys.stderr)
with open(os.path.join(here, 'long_spm.jsonl'), 'w', encoding='utf-8') as out:
    for model, corpus, limit in cases:
        with open(os.path.join(shared, 'corpora', corpus), encoding='utf-8') as f:
            text = ' '.join(line.strip() for line in f if line.strip())
        if limit:
            text = text[:limit]
        ids = spm.SentencePieceProcessor(model_file=os.path.join(models, model)).encode(text)
        out.write(json.dumps({'model': model, 'corpus': corpus, 'chars': len(text),
                              'ids': ' '.join(map(str, ids))}) + '\n')
