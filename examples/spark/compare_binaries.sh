#!/usr/bin/env bash
# Checks that two toklab binaries write the same bytes: the executor build
# (build_executor_binary.sh, static musl or glibc 2.17) against an ordinary build, on the
# corpora in $TOKLAB_SHARED/corpora with rules, FST, tokenizer.json, tiktoken, SentencePiece and
# GGUF specs, in several output formats, and on input that is not UTF-8 (standard error and exit
# status compared too). A model that is missing is named, and the check fails unless
# TOKLAB_COMPARE_ALLOW_MISSING=1 says that is expected.
#
#   examples/spark/compare_binaries.sh REFERENCE CANDIDATE
#
# Real-world models come from $TOKLAB_MODELS (default ~/.cache/toklab/realworld, filled by
# $TOKLAB_SHARED/realworld/fetch.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 2 ]; then
  echo "usage: examples/spark/compare_binaries.sh REFERENCE CANDIDATE" >&2
  exit 2
fi
ref=$1 cand=$2
shared=${TOKLAB_SHARED:-../shared}
models=${TOKLAB_MODELS:-$HOME/.cache/toklab/realworld}
corpora=$shared/corpora
for f in "$ref" "$cand"; do
  [ -x "$f" ] || { echo "compare_binaries.sh: $f is not an executable file" >&2; exit 2; }
done
[ -d "$corpora" ] || { echo "compare_binaries.sh: no corpora in $corpora (set TOKLAB_SHARED)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Input that is not UTF-8 on its third line, and a byte-order mark and a lone \r before it.
printf '\xef\xbb\xbfFirst line.\nSecond\rline.\nbad \xff byte\nlast\n' >"$work/bad.txt"

# Each case: SPEC|INPUT|FORMAT[|--lossy or |fails]. A case succeeds with output in the reference
# build unless marked `fails` (then it must fail there), so a case that tests nothing is caught.
# Specs name files relative to the checkout.
cases=(
  "rules:rules?lang=eng|$corpora/kjv-en.txt|json"
  "rules:rules?lang=eng|$corpora/code-rust.txt|chart"
  "rules:rules|$corpora/udhr-de.txt|text"
  "fst:samples/fst/english.fst|$corpora/kjv-en.txt|datok"
  "fst:samples/fst/english.fst|$corpora/emoji-test.txt|offsets"
  "hf:samples/bpe/tokenizer.json|$corpora/udhr-de.txt|json"
  "tiktoken:samples/bpe/sample.tiktoken?pattern=cl100k|$corpora/code-rust.txt|ids"
  "spm:samples/bpe/sample-spm.model|$corpora/udhr-ja.txt|json"
  "gguf:samples/bpe/sample.gguf|$corpora/udhr-zh.txt|ids"
  "hf:$models/llama3.tokenizer.json|$corpora/kjv-en.txt|ids"
  "hf:$models/qwen3.tokenizer.json|$corpora/udhr-zh.txt|json"
  "hf:$models/minilm-l6.tokenizer.json|$corpora/emoji-test.txt|json"
  "tiktoken:$models/qwen.tiktoken?pattern=cl100k|$corpora/udhr-ja.txt|ids"
  "spm:$models/mistral-v3.model|$corpora/emoji-test.txt|json"
  "fst:samples/fst/english.fst|$work/bad.txt|json|fails"
  "hf:samples/bpe/tokenizer.json|$work/bad.txt|json|--lossy"
)

same=0 differ=0 missing=()
for case in "${cases[@]}"; do
  IFS='|' read -r spec input format extra <<<"$case"
  file=${spec#*:}
  file=${file%%\?*}
  if [ ! -e "$file" ]; then
    missing+=("$file")
    continue
  fi
  for side in ref cand; do
    bin=$ref
    [ $side = cand ] && bin=$cand
    status=0
    lossy=()
    [ "$extra" = --lossy ] && lossy=(--lossy)
    # Each build its own model cache, so neither reads what the other parsed.
    TOKLAB_CACHE_DIR=$work/cache-$side "$bin" tokenize --threads 2 -w "$spec" -f "$format" "${lossy[@]}" "$input" \
      >"$work/$side.out" 2>"$work/$side.err" || status=$?
    echo "exit status $status" >>"$work/$side.err"
  done
  if [ "$extra" = fails ]; then
    grep -qx 'exit status 0' "$work/ref.err" && { echo "compare_binaries.sh: $spec on $input should fail and did not" >&2; exit 1; }
  elif ! grep -qx 'exit status 0' "$work/ref.err" || [ ! -s "$work/ref.out" ]; then
    echo "compare_binaries.sh: $spec on $input: the reference build fails or writes nothing:" >&2
    cat "$work/ref.err" >&2
    exit 1
  fi
  if cmp -s "$work/ref.out" "$work/cand.out" && cmp -s "$work/ref.err" "$work/cand.err"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "DIFFERENT: $spec on $input (-f $format $extra):" >&2
    cmp "$work/ref.out" "$work/cand.out" >&2 || true
    diff "$work/ref.err" "$work/cand.err" >&2 || true
  fi
done
echo "compare_binaries.sh: $same cases identical, $differ different, ${#missing[@]} models missing"
for m in "${missing[@]}"; do echo "  missing: $m" >&2; done
[ "$differ" -eq 0 ] || exit 1
if [ ${#missing[@]} -gt 0 ] && [ "${TOKLAB_COMPARE_ALLOW_MISSING:-0}" != 1 ]; then
  echo "compare_binaries.sh: models missing (run $shared/realworld/fetch.sh, or set TOKLAB_COMPARE_ALLOW_MISSING=1)" >&2
  exit 1
fi
