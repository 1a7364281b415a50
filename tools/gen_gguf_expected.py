#!/usr/bin/env python3
"""Writes the ids llama.cpp gives the texts of tests/gguf_data/*.gguf.inp into the .out file
beside each, in the form of llama.cpp's own test files (texts separated by
`\\n__ggml_vocab_test__\\n`; one line of ids per text, each id after a space).
tests/gguf_conformance.rs reads them for the vocabularies llama.cpp ships without texts
(aquila, baichuan, gpt-neox, and nomic-bert-moe, a `t5` vocabulary). The tests never run this script.

The reference is llama.cpp itself, from the source llama-cpp-python's archive on PyPI vendors
(the version tools/fetch_llama_vocabs.sh takes the vocabularies from): this script downloads
the archive, builds libllama (CPU only, no network code, one job at a time), compiles
tools/llama_ids.c against it, and runs it on every text with `add_special = false,
parse_special = true`.

Run from the repository root (needs pip, cmake, a C and C++ compiler):
    python3 tools/gen_gguf_expected.py [WORK_DIR]
WORK_DIR (default /tmp/toklab-llamacpp) keeps the source and the build, so a second run only
tokenizes. The vocabularies are read from $TOKLAB_MODELS/llama-vocabs
(default ~/.cache/toklab/realworld/llama-vocabs).
"""
import glob
import os
import subprocess
import sys
import tarfile

VERSION = "0.3.36"
SEP = "\n__ggml_vocab_test__\n"
DATA = "tests/gguf_data"


def run(args, **kw):
    print("+", " ".join(args), file=sys.stderr)
    subprocess.run(args, check=True, **kw)


def source(work):
    """The vendored llama.cpp source, downloaded and unpacked once."""
    src = os.path.join(work, f"llama_cpp_python-{VERSION}", "vendor", "llama.cpp")
    if os.path.isdir(src):
        return src
    archive = os.path.join(work, f"llama_cpp_python-{VERSION}.tar.gz")
    if not os.path.exists(archive):
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary",
             "llama-cpp-python", f"llama-cpp-python=={VERSION}", "-d", work])
    with tarfile.open(archive) as tar:
        tar.extractall(work, filter="data")
    return src


def build(work, src):
    """libllama and its ggml libraries, static, then the llama_ids driver linked to them."""
    out = os.path.join(work, "build")
    driver = os.path.join(out, "llama_ids")
    if os.path.exists(driver):
        return driver
    run(["cmake", "-S", src, "-B", out, "-DCMAKE_BUILD_TYPE=Release", "-DGGML_NATIVE=OFF",
         "-DLLAMA_CURL=OFF", "-DLLAMA_OPENSSL=OFF", "-DGGML_OPENMP=OFF",
         "-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
         "-DLLAMA_BUILD_SERVER=OFF", "-DLLAMA_BUILD_TOOLS=OFF", "-DLLAMA_BUILD_COMMON=OFF"])
    run(["nice", "-n", "10", "cmake", "--build", out, "--target", "llama", "-j", "1"])
    libs = [os.path.join(out, "src", "libllama.a")]
    for name in ["ggml", "ggml-cpu", "ggml-base"]:
        libs += glob.glob(os.path.join(out, "ggml", "src", f"lib{name}.a"))
    run(["c++", "-O2", "-x", "c", os.path.join("tools", "llama_ids.c"), "-x", "none",
         "-I", os.path.join(src, "include"), "-I", os.path.join(src, "ggml", "include"),
         *libs, "-lpthread", "-lm", "-o", driver])
    return driver


def texts(inp):
    """The texts of an .inp file, split as llama.cpp's test-tokenizer-0 splits them."""
    raw = open(inp, encoding="utf-8", newline="").read()
    assert raw.endswith(SEP), f"{inp} must end with the separator"
    return raw[: -len(SEP)].split(SEP)


def main():
    work = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "/tmp/toklab-llamacpp")
    os.makedirs(work, exist_ok=True)
    models = os.environ.get("TOKLAB_MODELS", os.path.expanduser("~/.cache/toklab/realworld"))
    driver = build(work, source(work))
    for inp in sorted(glob.glob(os.path.join(DATA, "*.gguf.inp"))):
        name = os.path.basename(inp)[: -len(".inp")]
        vocab = os.path.join(models, "llama-vocabs", name)
        records = b"".join(
            b"%d\n%s" % (len(t.encode()), t.encode()) for t in texts(inp)
        )
        result = subprocess.run([driver, vocab], input=records, capture_output=True, check=True)
        lines = result.stdout.decode().splitlines()
        assert len(lines) == len(texts(inp)), (inp, len(lines))
        out = inp[: -len(".inp")] + ".out"
        with open(out, "w", encoding="utf-8", newline="") as f:
            f.write("".join(line + "\n" for line in lines))
        print(f"{out}: {len(lines)} texts", file=sys.stderr)


if __name__ == "__main__":
    main()
