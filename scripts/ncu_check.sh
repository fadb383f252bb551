#!/usr/bin/env bash
# Checks Kernel::report()'s predictions against Nsight Compute on a GPU (examples/report_check.rs): each
# case runs under `ncu --target-processes all`, and the shared-memory instructions, bank conflicts,
# wavefronts and global access instructions it counts are compared with the report's figures times the
# launch's warps and CTAs. Prints one table; exits 1 on a mismatch, 0 with "SKIP" lines without ncu or a GPU.
#
#   bash scripts/ncu_check.sh                      # builds the release binary if cargo is here, then runs it
#   bash scripts/ncu_check.sh path/to/report_check # a binary built elsewhere (cargo build --release
#                                                  #   --example report_check --features llvm,cuda)
# ncu must be on the PATH (or set NCU=/path/to/ncu); profiling counters need root or
# NVreg_RestrictProfilingToAdminUsers=0.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/examples/report_check}"
if [ ! -x "$BIN" ]; then
  if command -v cargo >/dev/null; then
    cargo build --release --example report_check --features llvm,cuda
  else
    echo "report_check: no binary at $BIN and no cargo to build it" >&2
    exit 2
  fi
fi
exec "$BIN"
