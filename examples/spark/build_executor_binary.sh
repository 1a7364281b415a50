#!/usr/bin/env bash
# Builds the toklab binary to copy to Spark executors: stripped, no debug information
# (profile release-cluster), and checks its linking before saying so.
#
#   examples/spark/build_executor_binary.sh [--static] [OUT]   (default OUT: target/toklab-executor)
#
# Without --static it is linked against glibc 2.17, so it runs on every x86-64 Linux since 2012
# (RHEL 7 and 8, Amazon Linux 2, Ubuntu 20.04). With --static it is a fully static
# x86_64-unknown-linux-musl binary that needs no C library at all.
#
# Both link with zig through cargo-zigbuild, from PyPI: `pip install ziglang cargo-zigbuild`
# (the script uses $SPARK_VENV's, else the PATH's). --static also needs Rust's musl standard
# library, which it builds from source with Debian's rustc-web (Debian packages no prebuilt
# one): `apt-get install rustc-web cargo-web rust-web-src musl-tools`; the rustup toolchain
# is left alone. zig supplies musl's startup files and LLVM's libunwind (which Rust's musl std
# links statically), musl-gcc compiles the C in dependencies (ring).
set -euo pipefail
cd "$(dirname "$0")/../.."
static=0
if [ "${1:-}" = --static ]; then
  static=1
  shift
fi
out=${1:-target/toklab-executor}
venv=${SPARK_VENV:-$HOME/.cache/toklab/spark}
[ -x "$venv/bin/cargo-zigbuild" ] && export PATH="$venv/bin:$PATH"
if ! command -v cargo-zigbuild >/dev/null; then
  echo "build_executor_binary.sh: needs cargo-zigbuild and zig: pip install ziglang cargo-zigbuild" >&2
  exit 2
fi
targets=${CARGO_TARGET_DIR:-target}

if [ $static = 0 ]; then
  target=x86_64-unknown-linux-gnu
  cargo zigbuild --locked --profile release-cluster --target "$target.2.17" --bin toklab
  built=$targets/$target/release-cluster/toklab
  # The newest glibc symbol version the binary asks for must be 2.17 or older.
  newest=$(objdump -T "$built" | grep -o 'GLIBC_[0-9.]*' | sort -t. -k1,1 -k2,2n -k3,3n -u | tail -1)
  case "$newest" in
    GLIBC_2.[0-9] | GLIBC_2.1[0-7] | GLIBC_2.[0-9].* | GLIBC_2.1[0-7].*) ;;
    *) echo "build_executor_binary.sh: $built needs $newest, newer than 2.17" >&2; exit 1 ;;
  esac
  linking="newest glibc symbol $newest"
else
  target=x86_64-unknown-linux-musl
  rustc_web=${TOKLAB_RUSTC_WEB:-/usr/bin/rustc}
  cargo_web=${TOKLAB_CARGO_WEB:-/usr/bin/cargo}
  need="apt-get install rustc-web cargo-web rust-web-src musl-tools"
  for tool in "$rustc_web" "$cargo_web" musl-gcc; do
    command -v "$tool" >/dev/null || { echo "build_executor_binary.sh: --static needs $tool: $need" >&2; exit 2; }
  done
  library=$("$rustc_web" --print sysroot)/lib/rustlib/src/rust/library
  if [ ! -f "$library/std/Cargo.toml" ]; then
    echo "build_executor_binary.sh: --static needs the standard library's source at $library: $need" >&2
    exit 2
  fi
  # Its own target folder: another compiler, and a standard library built with the program.
  targets=$targets/musl
  mkdir -p "$targets"
  # The linker cargo is given must be one file; its path is part of every crate's fingerprint,
  # so it stays the same from run to run and is only rewritten when its text changes. rustc
  # names musl's startup files bare (it looks for them beside a rustup std, absent here) and
  # asks for none of the linker's own: zig is left to add its own, built for musl.
  linker=$targets/zig-musl-cc
  text=$(
    cat <<EOF
#!/usr/bin/env bash
args=()
for arg in "\$@"; do
  case "\$arg" in
    rcrt1.o | crt1.o | Scrt1.o | crti.o | crtn.o | crtbegin*.o | crtend*.o | -nostartfiles) ;;
    *) args+=("\$arg") ;;
  esac
done
exec $(command -v cargo-zigbuild) zig cc -- -target x86_64-linux-musl "\${args[@]}"
EOF
  )
  if [ ! -x "$linker" ] || [ "$(cat "$linker")" != "$text" ]; then
    printf '%s\n' "$text" >"$linker"
    chmod +x "$linker"
  fi
  # -Zbuild-std is unstable: RUSTC_BOOTSTRAP lets this stable compiler take it.
  env RUSTC="$rustc_web" RUSTC_BOOTSTRAP=1 CC_x86_64_unknown_linux_musl=musl-gcc \
    CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_LINKER="$linker" \
    RUSTFLAGS='-C target-feature=+crt-static' \
    "$cargo_web" build --locked -Zbuild-std=std,panic_abort --target "$target" \
    --profile release-cluster --bin toklab --target-dir "$targets"
  built=$targets/$target/release-cluster/toklab
  # Static: no program interpreter and no shared libraries asked for.
  if readelf -l "$built" | grep -q INTERP || readelf -d "$built" | grep -q NEEDED; then
    echo "build_executor_binary.sh: $built is not static:" >&2
    readelf -d "$built" | grep NEEDED >&2 || true
    exit 1
  fi
  linking="static (musl)"
fi
if objdump -h "$built" | grep -q '\.debug_\|\.symtab'; then
  echo "build_executor_binary.sh: $built still has symbols or debug information" >&2
  exit 1
fi
"$built" --version >/dev/null
cp "$built" "$out"
echo "$out: $(du -k "$out" | cut -f1) KB, $linking, stripped"
