#!/usr/bin/env bash
# Builds the toklab binary to copy to Spark executors: stripped, no debug information
# (profile release-cluster), linked against glibc 2.17 so it runs on every x86-64 Linux since
# 2012 (RHEL 7 and 8, Amazon Linux 2, Ubuntu 20.04), and checks both before saying so.
#
#   examples/spark/build_executor_binary.sh [OUT]      (default OUT: target/toklab-executor)
#
# It links with cargo-zigbuild (zig as the linker, with glibc 2.17's symbol lists), both from
# PyPI: `pip install ziglang cargo-zigbuild` (the script uses $SPARK_VENV's, else the PATH's).
# A fully static musl build (x86_64-unknown-linux-musl) needs Rust's musl standard library,
# which only `rustup target add` provides; where that works, `cargo build --profile
# release-cluster --target x86_64-unknown-linux-musl` is the alternative.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/toklab-executor}
venv=${SPARK_VENV:-$HOME/.cache/toklab/spark}
[ -x "$venv/bin/cargo-zigbuild" ] && export PATH="$venv/bin:$PATH"
if ! command -v cargo-zigbuild >/dev/null; then
  echo "build_executor_binary.sh: needs cargo-zigbuild and zig: pip install ziglang cargo-zigbuild" >&2
  exit 2
fi
target=x86_64-unknown-linux-gnu
cargo zigbuild --locked --profile release-cluster --target "$target.2.17" --bin toklab
built=${CARGO_TARGET_DIR:-target}/$target/release-cluster/toklab
# The newest glibc symbol version the binary asks for must be 2.17 or older.
newest=$(objdump -T "$built" | grep -o 'GLIBC_[0-9.]*' | sort -t. -k1,1 -k2,2n -k3,3n -u | tail -1)
case "$newest" in
  GLIBC_2.[0-9] | GLIBC_2.1[0-7] | GLIBC_2.[0-9].* | GLIBC_2.1[0-7].*) ;;
  *) echo "build_executor_binary.sh: $built needs $newest, newer than 2.17" >&2; exit 1 ;;
esac
if objdump -h "$built" | grep -q '\.debug_\|\.symtab'; then
  echo "build_executor_binary.sh: $built still has symbols or debug information" >&2
  exit 1
fi
"$built" --version >/dev/null
cp "$built" "$out"
echo "$out: $(du -k "$out" | cut -f1) KB, newest glibc symbol $newest, stripped"
