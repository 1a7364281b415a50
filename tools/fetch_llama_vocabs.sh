#!/usr/bin/env bash
# llama.cpp's test vocabularies (models/ggml-vocab-*.gguf with their .inp/.out expected
# tokenizations), taken from llama-cpp-python's source archive on PyPI, which vendors llama.cpp,
# into ${TOKLAB_MODELS:-$HOME/.cache/toklab/realworld}/llama-vocabs/ (tests/gguf_conformance.rs).
# The folder is its own cache: a second run needs no network.
set -euo pipefail
VERSION=0.3.36
MODELS=${1:-${TOKLAB_MODELS:-$HOME/.cache/toklab/realworld}}
DEST="$MODELS/llama-vocabs"
if [ -f "$DEST/.complete-$VERSION" ]; then
  exit 0
fi
PIP=$(command -v pip || command -v pip3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Only llama-cpp-python itself comes as source; its build tools may come as wheels, so pip
# does not compile cmake to read the archive's metadata.
"$PIP" download --quiet --no-deps --no-binary llama-cpp-python "llama-cpp-python==$VERSION" -d "$work"
mkdir -p "$DEST"
tar xzf "$work/llama_cpp_python-$VERSION.tar.gz" -C "$work" --wildcards \
  "llama_cpp_python-$VERSION/vendor/llama.cpp/models/ggml-vocab-*"
cp "$work/llama_cpp_python-$VERSION/vendor/llama.cpp/models/"ggml-vocab-* "$DEST/"
touch "$DEST/.complete-$VERSION"
echo "llama.cpp test vocabularies in $DEST"
