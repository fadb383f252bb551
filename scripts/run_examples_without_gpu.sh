#!/usr/bin/env bash
# Runs every example on a machine without a GPU driver. Each example that launches kernels must run
# them in the interpreter and end with the line `checked in the interpreter (no GPU): …` (its host
# check passed); the tools (compile_probe, report_check: usage or a message; row_occupancy: a table from ptxas) and bench_gpu (a GPU
# bandwidth benchmark) must exit 0 with a message. None may panic or print `SKIP`. (On a machine
# with a driver this proves nothing and the examples would run for minutes, so it only says so.)
# Builds the examples with `$EXAMPLE_FEATURES` (default llvm,cuda: what they need; `llvm` alone
# runs the same interpreter path) in the debug profile, as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so'; then
  echo "a CUDA driver is installed: the no-GPU run of the examples is skipped"
  exit 0
fi
features="${EXAMPLE_FEATURES:-llvm,cuda}"
cargo build --quiet --features "$features" --examples
dir="${CARGO_TARGET_DIR:-target}/debug/examples"
# Examples that launch no kernel of their own.
tools=" compile_probe report_check bench_gpu row_occupancy "
failed=0
count=0
start=$SECONDS
# The examples whose required features (Cargo.toml) are all in $features: the others were not built
# (a binary of theirs in $dir is stale).
built=$(FEATURES="$features" python3 - <<'PY'
import os, tomllib
with open("Cargo.toml", "rb") as f:
    declared = {e["name"]: set(e.get("required-features", [])) for e in tomllib.load(f).get("example", [])}
have = set(filter(None, os.environ["FEATURES"].split(",")))
for f in sorted(os.listdir("examples")):
    if f.endswith(".rs"):
        name = f[:-3]
        print(name if declared.get(name, set()) <= have else "-" + name)
PY
)
for name in $built; do
  if [[ "$name" == -* ]]; then
    echo "not built with [$features]: ${name#-}"
    continue
  fi
  count=$((count + 1))
  t0=$SECONDS
  if out=$(timeout 300 "$dir/$name" 2>&1); then rc=0; else rc=$?; fi
  last=$(tail -n 1 <<<"$out")
  why=""
  if [ "$rc" -ne 0 ]; then
    why="exited $rc"
  elif grep -q 'panicked' <<<"$out"; then
    why="panicked"
  elif grep -q '^SKIP' <<<"$out" && [[ "$tools" != *" $name "* ]]; then
    why="printed SKIP"
  elif [[ "$tools" != *" $name "* ]] && [[ "$last" != "checked in the interpreter (no GPU): "* ]]; then
    why="did not end with its interpreter check"
  fi
  if [ -n "$why" ]; then
    echo "FAIL: $name $why without a GPU: $last" >&2
    failed=$((failed + 1))
  else
    echo "ok ($((SECONDS - t0)) s): $name: ${last:0:160}"
  fi
done
echo "$((count - failed)) passed, $failed failed, in $((SECONDS - start)) s"
[ "$failed" -eq 0 ]
