#!/usr/bin/env bash
# Times two builds of toklab against each other on the same work, interleaved by hyperfine in
# one run, and prints the ratio per engine: for checking that a refactor or a change left every
# engine's speed where it was (the machine is shared and noisy, so only the ratio of two builds
# timed side by side means anything).
#
#   benches/builds.sh OLD_TOKLAB NEW_TOKLAB [RUNS]
#
# OLD_FLAGS and NEW_FLAGS (environment) are added to each build's `tokenize`, e.g.
# NEW_FLAGS='--threads 1' to time a build that has --threads on one thread like an old one.
#
# e.g. build the old commit in a worktree (`git worktree add /tmp/old COMMIT && cd /tmp/old &&
# cargo build --release`), then `benches/builds.sh /tmp/old/target/release/toklab
# target/release/toklab`. Needs hyperfine (Debian: apt-get install hyperfine) and the shared
# folder (../shared or TOKLAB_SHARED) for the corpora and the reference models.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 runs=${3:-10}
shared=${TOKLAB_SHARED:-../shared}
kjv=$shared/corpora/kjv-en.txt
zh=$shared/corpora/udhr-zh.txt
bpe=$shared/conformance/bpe/data
command -v hyperfine >/dev/null || { echo "builds.sh: needs hyperfine" >&2; exit 2; }
[ -f "$kjv" ] || { echo "builds.sh: $kjv not found (set TOKLAB_SHARED)" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-34s %10s %10s %8s  %s\n' "engine (tokenize, whole corpus)" "old ms" "new ms" "new/old" "json output"
bench() {
  local name=$1 spec=$2 input=$3
  local json=$out/$RANDOM.json same=same
  "$old" tokenize ${OLD_FLAGS:-} -f json --with "$spec" "$input" >"$out/old.jsonl" 2>/dev/null || true
  "$new" tokenize ${NEW_FLAGS:-} -f json --with "$spec" "$input" >"$out/new.jsonl" 2>/dev/null || true
  cmp -s "$out/old.jsonl" "$out/new.jsonl" || same=DIFFERENT
  hyperfine -N --warmup 1 --runs "$runs" --export-json "$json" \
    "$old tokenize ${OLD_FLAGS:-} --with '$spec' $input" "$new tokenize ${NEW_FLAGS:-} --with '$spec' $input" >/dev/null 2>&1 ||
    { printf '%-34s failed\n' "$name"; return; }
  python3 - "$json" "$name" "$same" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
old, new = (sorted(r["times"])[len(r["times"]) // 2] * 1000 for r in results)
print(f"{sys.argv[2]:<34} {old:10.1f} {new:10.1f} {new / old:8.3f}  {sys.argv[3]}")
EOF
}
bench "ws" "ws" "$kjv"
bench "rules (ours, eng)" "rules:rules?lang=eng" "$kjv"
bench "rules (utoken's files, eng)" "rules:$shared/conformance/utoken/data?lang=eng" "$kjv"
bench "fst english.fst, matrix" "fst:samples/fst/english.fst" "$kjv"
bench "fst english.fst, double array" "fst:samples/fst/english.fst?repr=da" "$kjv"
bench "bpe GPT-2" "bpe:$bpe/gpt2" "$kjv"
bench "tiktoken cl100k" "tiktoken:$bpe/tiktoken/cl100k_base.tiktoken" "$kjv"
bench "spm BPE (kjv 8000)" "spm:$bpe/sentencepiece/kjv_bpe_8000.model" "$kjv"
bench "spm unigram (botchan 1000)" "spm:$bpe/sentencepiece/botchan_en_unigram_1000.model" "$kjv"
bench "wordpiece (BERT uncased)" "wordpiece:$bpe/bert/vocab.txt" "$kjv"
bench "maxmatch (zh sample words)" "maxmatch:samples/maxmatch/zh-words.txt" "$zh"
