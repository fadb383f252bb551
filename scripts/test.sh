#!/usr/bin/env bash
# The whole test suite (README command 2, and what .ci/run runs): installs what is missing, then runs every
# test with every feature that builds anywhere (LLVM codegen for NVPTX and AMDGPU, CUDA and HIP launchers,
# the CLI, the proptest strategies, serde), the algebra alone with no features, and the Python package (its
# wheel built with maturin, its pytest suite). GPU tests skip with a printed reason when no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PTXAS="${PTXAS:-/opt/cuda-nvcc/nvidia/cu13/bin/ptxas}"
export PROPTEST_CASES="${PROPTEST_CASES:-256}"
FEATURES=llvm,amdgpu,cuda,hip,cli,proptest,serde
echo "== cargo test --no-default-features (the algebra alone: no LLVM, no CUDA)"
cargo test --no-default-features --lib --tests
echo "== cargo test --features $FEATURES"
cargo test --features "$FEATURES" --all-targets
cargo test --features "$FEATURES" --doc
echo "== Python package: maturin wheel + pytest (bindings/python)"
bash bindings/python/test.sh
