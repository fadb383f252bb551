"""The PTX Triton 3.9 emits for a float division, written to tests/fixtures/division.json.

For `a / b` and `tl.math.div_rn(a, b)` on fp16, bf16, fp32 and fp64 tiles (128 elements, 4 warps,
`cuda:90`), the division and conversion instructions of the PTX (`div.*`, `cvt.*`, `rcp.*`), or
the first line of Triton's error where it rejects the type. `tests/codegen_division.rs` builds the
same kernels with weft and compares. Compiles only (no GPU); run with the Triton 3.9 venv:

    TRITON_DEFAULT_FP_FUSION=1 TRITON_PTXAS_PATH=/opt/cuda-nvcc/nvidia/cu13/bin/ptxas \\
        /opt/triton-venv/bin/python scripts/triton_division.py > tests/fixtures/division.json
"""

import json
import re

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def div_kernel(x, y, o, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(o + i, tl.load(x + i) / tl.load(y + i))


@triton.jit
def div_rn_kernel(x, y, o, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(o + i, tl.math.div_rn(tl.load(x + i), tl.load(y + i)))


def main():
    out = {"triton": triton.__version__, "target": "cuda:90", "kernels": {}}
    for name, fn in [("div", div_kernel), ("div_rn", div_rn_kernel)]:
        for dt in ["fp16", "bf16", "fp32", "fp64"]:
            sig = {"x": "*" + dt, "y": "*" + dt, "o": "*" + dt, "N": "constexpr"}
            src = ASTSource(fn=fn, signature=sig, constexprs={"N": 128})
            try:
                k = triton.compile(src, target=GPUTarget("cuda", 90, 32))
                ptx = k.asm["ptx"].splitlines()
                found = [l.split()[0] for l in ptx if re.match(r"\s*(div|cvt|rcp)\.", l)]
            except Exception as e:  # Triton's own rejection, recorded as such
                found = "rejected: " + str(e).strip().splitlines()[-1][:160]
            out["kernels"].setdefault(name, {})[dt] = found
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
