#!/usr/bin/env bash
# Runs tokenize_folder.py on a local Spark (local[2]) over the KJV text and checks that its
# JSON lines are byte for byte what one `toklab tokenize` process writes.
#
#   examples/spark/run_local.sh [SPEC [SHIPPED_FILE]]
#
# Default: the web-en finite-state grammar, fst:{web-en.fst}, shipping
# ../shared/conformance/fst/web-en.fst. Sets up (once, with install_pyspark.sh) a virtual
# environment with pyspark from PyPI in $SPARK_VENV (default ~/.cache/toklab/spark, as
# tests/spark.rs; about 480 MB) and needs Java 17 (Debian: apt-get install
# openjdk-17-jre-headless; installed here if apt-get can). TOKLAB names the toklab binary (default: target/release/toklab, built if missing); TOKLAB_SHARED the shared
# folder (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/../.."
shared=${TOKLAB_SHARED:-../shared}
spec=${1:-'fst:{web-en.fst}'}
ship=${2:-$shared/conformance/fst/web-en.fst}
kjv=$shared/corpora/kjv-en.txt
venv=${SPARK_VENV:-$HOME/.cache/toklab/spark}
[ -f "$kjv" ] || { echo "run_local.sh: $kjv not found (set TOKLAB_SHARED)" >&2; exit 2; }

if ! java -version 2>&1 | grep -q '"17\.'; then
  if command -v apt-get >/dev/null; then
    apt-get install -y openjdk-17-jre-headless >/dev/null
  else
    echo "run_local.sh: needs Java 17 (openjdk-17-jre-headless)" >&2
    exit 2
  fi
fi
examples/spark/install_pyspark.sh "$venv" >/dev/null
toklab=${TOKLAB:-target/release/toklab}
[ -x "$toklab" ] || cargo build --release --bin toklab
toklab=$(realpath "$toklab")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The same spec for one local process: the shipped file's own path in place of {NAME}.
local_spec=${spec//\{$(basename "$ship")\}/$(realpath "$ship")}

echo "spark:  $("$venv/bin/python" -c 'import pyspark; print("pyspark", pyspark.__version__)'), $(java -version 2>&1 | head -1)"
echo "input:  $kjv ($(wc -l <"$kjv") lines, $(wc -c <"$kjv") bytes), spec $spec"
start=$(date +%s%N)
"$toklab" tokenize --threads 1 -f json --with "$local_spec" "$kjv" >"$work/one-process.jsonl"
one=$(( ($(date +%s%N) - start) / 1000000 ))
start=$(date +%s%N)
PYSPARK_PYTHON="$venv/bin/python" "$venv/bin/spark-submit" --master 'local[2]' \
  --conf spark.ui.enabled=false \
  examples/spark/tokenize_folder.py --toklab "$toklab" --ship "$ship" --spec "$spec" \
  --partitions 4 "$kjv" "$work/out" 2>"$work/spark.log" ||
  { tail -30 "$work/spark.log" >&2; exit 1; }
spark=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$work"/out/part-* >"$work/spark.jsonl"
parts=$(ls "$work"/out/part-* | wc -l)
echo "one toklab process: $(wc -l <"$work/one-process.jsonl") JSON lines in ${one} ms wall"
echo "spark local[2]:     $(wc -l <"$work/spark.jsonl") JSON lines in $parts part files in ${spark} ms wall (JVM start included)"
if cmp -s "$work/one-process.jsonl" "$work/spark.jsonl"; then
  echo "check: identical ($(sha256sum <"$work/spark.jsonl" | cut -c1-16))"
else
  echo "check: DIFFERENT" >&2
  cmp "$work/one-process.jsonl" "$work/spark.jsonl" >&2 || true
  exit 1
fi
