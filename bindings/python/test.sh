#!/usr/bin/env bash
# Builds the `weft` Python wheel (maturin, debug profile: the tests need no speed) and runs its pytest
# suite in a virtual environment under target/, installing what is missing first (idempotent). Called by
# scripts/test.sh; runs alone too.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=target/pyvenv
MATURIN=maturin==1.16.0
PYTEST=pytest==9.2.0
if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
  echo "python: installing python3-venv"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv
fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -m pip show -q maturin pytest 2>/dev/null \
  || ! "$VENV/bin/maturin" --version | grep -q "${MATURIN#maturin==}" \
  || ! "$VENV/bin/python" -m pytest --version 2>&1 | grep -q "${PYTEST#pytest==}"; then
  "$VENV/bin/python" -m pip install -q "$MATURIN" "$PYTEST"
fi
rm -f target/wheels/weft-*.whl
"$VENV/bin/maturin" build -m bindings/python/Cargo.toml --out target/wheels
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps target/wheels/weft-*.whl
# From the tests folder, so `import weft` is the installed wheel and not a source folder.
cd bindings/python/tests
"../../../$VENV/bin/python" -m pytest -q -p no:cacheprovider .
