#!/bin/sh
# Compiles every XFST source in this folder with foma into the .fst beside it
# (foma's `save stack`: gzip-compressed text). The .fst files are committed so
# that toklab's tests need no foma; tests/fst_samples.rs checks that they are
# what these sources compile to.
set -eu
cd "$(dirname "$0")"
command -v foma >/dev/null || { echo "build.sh: foma is not installed (Debian package foma)" >&2; exit 1; }
for source in *.xfst; do
    target="${source%.xfst}.fst"
    foma -e "source $source" -e "save stack $target" -q -s >/dev/null
    echo "$source -> $target"
done
