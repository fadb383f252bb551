#!/usr/bin/env bash
# Runs every example on a machine without a GPU driver: each must say what it did or skipped and exit
# 0, never panic. (On a machine with a driver this proves nothing and the examples would run for
# minutes, so it only says so.) Builds the examples with `$EXAMPLE_FEATURES` (default llvm,cuda: what
# they need).
set -euo pipefail
cd "$(dirname "$0")/.."
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so'; then
  echo "a CUDA driver is installed: the no-GPU run of the examples is skipped"
  exit 0
fi
cargo build --quiet --features "${EXAMPLE_FEATURES:-llvm,cuda}" --examples
dir="${CARGO_TARGET_DIR:-target}/debug/examples"
failed=0
count=0
for src in examples/*.rs; do
  name=$(basename "$src" .rs)
  count=$((count + 1))
  # compile_probe and report_check are tools: without arguments they print their usage.
  if out=$(timeout 300 "$dir/$name" 2>&1); then rc=0; else rc=$?; fi
  last=$(tail -n 1 <<<"$out")
  if [ "$rc" -ne 0 ] || grep -q 'panicked' <<<"$out"; then
    echo "FAIL: $name exited $rc without a GPU: $last" >&2
    failed=$((failed + 1))
  else
    echo "ok: $name: ${last:0:150}"
  fi
done
echo "$((count - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
