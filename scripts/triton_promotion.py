"""The element type Triton 3.9 gives the result of each binary op on each pair of operand types,
written to tests/fixtures/promotion.json.

For every pair of the element types weft has (i8, i16, i32, i64, fp16, bf16, fp32, fp64, fp8 e4m3
and e5m2), every operation (`+ - * / // %`, `<`, `==`, `tl.minimum`, `tl.maximum`, `tl.where`)
and every form (tile with tile, tile with a 0-d scalar, scalar with scalar; and each type's tile
with a Python int literal `3` and a float literal `1.5`), the element type of the result as the
TTIR says, or the last line of Triton's error where it refuses the program.
`tests/codegen_promotion_triton.rs` builds the same operations with weft and compares.

The result is converted to fp32 and stored, so the TTIR casts it there; the type is read off the
first of those casts (the op's own result type; fp32 where there is none). Only the TTIR is made (`ASTSource.make_ir`, the
first stage of `triton.compile`, for cuda:90), so no GPU, no ptxas. Run with the Triton 3.9 venv:

    /opt/triton-venv/bin/python scripts/triton_promotion.py > tests/fixtures/promotion.json
"""

import json
import re

import triton
import triton.language as tl
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.compiler.compiler import make_backend

TYPES = ["i8", "i16", "i32", "i64", "fp16", "bf16", "fp32", "fp64", "fp8e4nv", "fp8e5"]
OPS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "lt", "eq", "minimum", "maximum", "where"]


@triton.jit
def apply(a, b, c, OP: tl.constexpr):
    if OP == "add":
        r = a + b
    elif OP == "sub":
        r = a - b
    elif OP == "mul":
        r = a * b
    elif OP == "truediv":
        r = a / b
    elif OP == "floordiv":
        r = a // b
    elif OP == "mod":
        r = a % b
    elif OP == "lt":
        r = a < b
    elif OP == "eq":
        r = a == b
    elif OP == "minimum":
        r = tl.minimum(a, b)
    elif OP == "maximum":
        r = tl.maximum(a, b)
    else:
        r = tl.where(c, a, b)
    # Stored as fp32, so every result type reaches the store through casts that name it.
    return r.to(tl.float32)


@triton.jit
def tile_tile(x, y, o, OP: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(o + i, apply(tl.load(x + i), tl.load(y + i), i % 2 == 0, OP))


@triton.jit
def tile_scalar(x, y, o, OP: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(o + i, apply(tl.load(x + i), tl.load(y), i % 2 == 0, OP))


@triton.jit
def scalar_scalar(x, y, o, OP: tl.constexpr, N: tl.constexpr):
    tl.store(o, apply(tl.load(x), tl.load(y), tl.program_id(0) == 0, OP))


@triton.jit
def tile_int(x, y, o, OP: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(o + i, apply(tl.load(x + i), 3, i % 2 == 0, OP))


@triton.jit
def tile_float(x, y, o, OP: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(o + i, apply(tl.load(x + i), 1.5, i % 2 == 0, OP))


FORMS = {"tile_tile": tile_tile, "tile_scalar": tile_scalar, "scalar_scalar": scalar_scalar}
LITERALS = {"tile_int": tile_int, "tile_float": tile_float}

# MLIR element types to Triton's names.
MLIR = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "f16": "fp16", "bf16": "bf16",
        "f32": "fp32", "f64": "fp64", "f8E4M3FN": "fp8e4nv", "f8E5M2": "fp8e5"}


def result_type(ttir):
    """The element type `apply` computes, before the casts that bring it to fp32."""
    # `apply`'s own function (SSA names restart in each function).
    body = next(f for f in ttir.split("tt.func")[1:] if re.match(r"\s*(private\s+)?@\S*apply", f))
    defs = {}
    for line in body.splitlines():
        m = re.match(r"\s*(%[\w#]+) = ([\w.]+) (.*)", line)
        if m:
            defs[m.group(1)] = (m.group(2), m.group(3))
    value = re.search(r"tt\.return (%[\w#]+)", body).group(1)
    found = "fp32"
    casts = ("arith.trunci", "arith.extsi", "arith.extui", "arith.fptosi", "arith.fptoui", "arith.truncf",
             "arith.extf", "tt.fp_to_fp", "arith.sitofp", "arith.uitofp", "tt.bitcast")
    while value in defs and defs[value][0] in casts:
        rest = defs[value][1]
        src = re.match(r"(%[\w#]+)", rest).group(1)
        ty = re.search(r":\s*(?:tensor<\d+x)?(\w+)>?\s+(?:to|->)\s", rest).group(1)
        found = MLIR.get(ty, ty)
        value = src
    return found


def refusal(e):
    """The innermost message of Triton's error (its outer ones show the source line)."""
    while e.__cause__ is not None:
        e = e.__cause__
    msg = getattr(e, "error_message", None) or str(e)
    lines = [l.strip() for l in str(msg).splitlines() if l.strip()]
    return "rejected: " + (lines[-1][:160] if lines else type(e).__name__)


def main():
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    options = backend.parse_options({})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    codegen_fns = backend.get_codegen_implementation(options)
    module_map = backend.get_module_map()

    def ttir(fn, a, b, op):
        sig = {"x": "*" + a, "y": "*" + b, "o": "*fp32", "OP": "constexpr", "N": "constexpr"}
        src = ASTSource(fn=fn, signature=sig, constexprs={"OP": op, "N": 128})
        try:
            return result_type(str(src.make_ir(target, options, codegen_fns, module_map, context)))
        except Exception as e:  # Triton's own refusal, recorded as such
            return refusal(e)

    out = {"triton": triton.__version__, "target": "cuda:90", "types": TYPES, "ops": OPS, "results": {}}
    for form, fn in FORMS.items():
        for op in OPS:
            for a in TYPES:
                for b in TYPES:
                    out["results"][f"{form} {op} {a} {b}"] = ttir(fn, a, b, op)
    for form, fn in LITERALS.items():
        for op in OPS:
            for a in TYPES:
                out["results"][f"{form} {op} {a}"] = ttir(fn, a, "i32", op)
    print(json.dumps(out, indent=0, sort_keys=False))


if __name__ == "__main__":
    main()
