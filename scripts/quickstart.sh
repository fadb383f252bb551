#!/usr/bin/env bash
# The main job (README command 1): installs what is missing, then builds a kernel with weft, prints its
# layout, LLVM IR and PTX, and runs it when a GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo run --release --features llvm,cuda --example quickstart
