#!/usr/bin/env bash
# Builds the ahead-of-time example (examples/aot: kernels built by its build.rs, embedded, launched by
# weft's runtime alone) and checks what a framework shipping it gets: no LLVM symbol in the binary,
# under 10 MB stripped, and on a machine without a GPU a clean exit with a message (no panic).
# Prints the stripped binary's path last (scripts/gpu_framework.sh carries it to a GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."
# weft's own target folder: the dependencies weft's other builds compiled are reused.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --quiet --manifest-path examples/aot/Cargo.toml
bin="$CARGO_TARGET_DIR/debug/framework"
symbols=$(nm "$bin" | wc -l)
weft_symbols=$(nm "$bin" | grep -c weft || true)
# LLVM's C API (LLVMContextCreate…), its C++ namespace (_ZN4llvm…) and the Rust bindings; not the
# `.llvm.NNN` suffix rustc gives local symbols of any binary.
llvm_pattern='LLVM[A-Z]|_ZN[KS0-9]*4llvm|inkwell|llvm_sys'
llvm_symbols=$(nm "$bin" | grep -cE "$llvm_pattern" || true)
# The check can only fail if the symbols are there to read: weft's own must show.
if [ "$weft_symbols" -eq 0 ]; then
  echo "FAIL: $bin has no weft symbol ($symbols in all): cannot check for LLVM" >&2; exit 1
fi
if [ "$llvm_symbols" -ne 0 ]; then
  echo "FAIL: $bin links LLVM ($llvm_symbols symbols):" >&2
  nm "$bin" | grep -E "$llvm_pattern" | head -5 >&2; exit 1
fi
stripped="$CARGO_TARGET_DIR/debug/framework.stripped"
strip -o "$stripped" "$bin"
bytes=$(stat -c %s "$stripped")
if [ "$bytes" -ge $((10 * 1024 * 1024)) ]; then
  echo "FAIL: the stripped runtime-only binary is $bytes bytes (limit 10 MB)" >&2; exit 1
fi
echo "runtime-only binary: $symbols symbols, $weft_symbols of weft, 0 of LLVM; stripped $bytes bytes"
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so'; then
  out=$("$stripped" 2>&1) || { echo "FAIL: exits non-zero without a GPU: $out" >&2; exit 1; }
  if ! grep -q '^skipped: no CUDA driver' <<<"$out" || grep -q panicked <<<"$out"; then
    echo "FAIL: without a GPU it should say it skipped: $out" >&2; exit 1
  fi
  echo "without a driver: $(tail -1 <<<"$out")"
fi
echo "$stripped"
