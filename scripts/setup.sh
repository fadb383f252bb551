#!/usr/bin/env bash
# Installs what weft's `llvm` feature and its tests need on a fresh Debian 12, idempotently (gcc and g++ also
# build the C ABI's C and C++ examples):
# LLVM 22 (static libraries, Polly, lld) and ptxas 13.0 (the CUDA 13.0 driver's PTX level, ISA <= 9.0).
# Run as root (or through sudo). Safe to run again: it only installs what is missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PKGS="llvm-22-dev libpolly-22-dev lld-22 zlib1g-dev libzstd-dev libffi-dev libxml2-dev g++ gcc"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing
else
  echo "setup: LLVM 22 packages present"
fi

PTXAS_DIR=/opt/cuda-nvcc
PTXAS="$PTXAS_DIR/nvidia/cu13/bin/ptxas"
if [ -x "$PTXAS" ] && "$PTXAS" --version | grep -q "V13.0.88"; then
  echo "setup: ptxas 13.0 present at $PTXAS"
else
  echo "setup: installing ptxas 13.0 into $PTXAS_DIR"
  # --no-deps: otherwise pip pulls unpinned nvidia-cuda-{crt,runtime} and nvvm 13.x that are not needed.
  $SUDO python3 -m pip install -q --no-deps --target "$PTXAS_DIR" nvidia-cuda-nvcc==13.0.88
fi
echo "setup: done (export PTXAS=$PTXAS for the tests)"
