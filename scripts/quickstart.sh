#!/usr/bin/env bash
# The main job (README command 1): installs what is missing, then builds a kernel with weft, prints its
# layout, tile IR, LLVM IR and PTX, and runs it: on a GPU when one is present, else in the interpreter,
# checked against the host either way.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo run --release --features llvm,cuda --example quickstart
