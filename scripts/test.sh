#!/usr/bin/env bash
# The whole test suite (README command 2, and what .ci/run runs): installs what is missing, then runs every
# test with every feature that builds anywhere (LLVM codegen for NVPTX and AMDGPU, CUDA and HIP launchers,
# the CLI, the proptest strategies, serde), and the algebra alone with no features. The kernel suites (tests/gpu_*.rs)
# run their kernels in the interpreter (the CPU backend) on reduced sizes, and their GPU halves skip with a printed
# reason when no GPU is present. Then the C ABI (`bindings/c`), whose tests build its C and C++ examples,
# clippy (warnings are errors), each example with exactly the features it declares, the Python package (its
# wheel built with maturin, its pytest suite), the runtime-only example, every example without a GPU, and
# cargo deny.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Test binaries link libLLVM-22.so rather than LLVM's static archives (a third of the size: about 130
# binaries in a full run), and nothing is built incrementally (a clean clone gains nothing from it and
# it would double what target/ holds). A full run then writes about 9 GB under target/: say what the
# disk holds, so a run that fills it is explained.
export WEFT_LLVM_LINK="${WEFT_LLVM_LINK:-dynamic}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
echo "== disk: $(df -h . | awk 'NR==2 {print $4 " free of " $2}')"
export PTXAS="${PTXAS:-/opt/cuda-nvcc/nvidia/cu13/bin/ptxas}"
export PROPTEST_CASES="${PROPTEST_CASES:-256}"
FEATURES=llvm,amdgpu,cuda,cudarc,hip,cli,proptest,serde
echo "== cargo test --no-default-features (the algebra alone: no LLVM, no CUDA)"
cargo test --no-default-features --lib --tests
echo "== cargo test --features $FEATURES"
cargo test --features "$FEATURES" --all-targets
cargo test --features "$FEATURES" --doc
echo "== cargo test -p weft-c (the C ABI: C and C++ examples, threads, hostile input), then its header"
cargo test -p weft-c
cargo test -p weft-c-header
echo "== cargo clippy -D warnings (every feature, then none)"
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo clippy --all-targets --features "$FEATURES" -- -D warnings
cargo clippy --all-targets -- -D warnings
echo "== examples with exactly their declared features"
python3 scripts/check_examples.py
echo "== Python package: maturin wheel + pytest (bindings/python)"
bash bindings/python/test.sh
echo "== the runtime-only ahead-of-time example (no LLVM linked, < 10 MB, clean exit without a GPU)"
bash scripts/check_runtime_only.sh
echo "== every example without a GPU: its kernels run in the interpreter and are checked against the host (the tools: a message and a clean exit)"
# The same features as the test build above: its example binaries are reused, not built and linked again.
EXAMPLE_FEATURES="$FEATURES" bash scripts/run_examples_without_gpu.sh
echo "== cargo deny check (licences, bans, sources, advisories)"
# A first install builds cargo-deny from source: 27 minutes on 2 cores shared with other builds, once per
# machine.
command -v cargo-deny >/dev/null 2>&1 || cargo install --locked cargo-deny
cargo deny check licenses bans sources
# The advisory database is a git repository on GitHub: checked when it can be fetched (or is already
# on this machine), otherwise said so.
if git ls-remote https://github.com/rustsec/advisory-db HEAD >/dev/null 2>&1; then
  cargo deny check advisories
elif ls -d "${CARGO_HOME:-$HOME/.cargo}"/advisory-dbs/advisory-db-*/crates >/dev/null 2>&1; then
  cargo deny --offline check advisories
else
  echo "advisories NOT checked: the RustSec database cannot be fetched from this machine"
fi
