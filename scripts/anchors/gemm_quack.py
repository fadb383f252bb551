"""QuACK (CuTe DSL) beside weft's GEMMs on the GPU machine: its dense Hopper GEMM at the square and skinny shapes
weft times (examples/gemm.rs, examples/gemm_skinny.rs), and its int4 weight-only GEMM (`gemm_w4a16`, format "int4":
uint4b8 nibbles, the low one the even k, a bf16 scale per 128 k, the format of weft's `gemm_w4_kernel`) at M 1-128.
Every output is checked against torch before it is timed. Needs QuACK 0.6.5 and the CUTLASS DSL, carried as wheels
as for FlashAttention-4 (../shared/gpu.md); each section is guarded: a failure prints FAILED and the rest runs.

PYTHONPATH=$S:$S/nvidia_cutlass_dsl/dsl_packages python3 scripts/anchors/gemm_quack.py [dense] [skinny] [w4]
"""
import sys

import torch

from gemm_harness import bench, guarded, row


def check(name, got, want):
    err = ((got.float() - want.float()).norm() / want.float().norm().clamp(min=1e-30)).item()
    if not err < 2e-2:
        raise AssertionError(f"{name}: relative error {err:.3e}")


dev = "cuda"
print(torch.cuda.get_device_name(), torch.__version__, flush=True)
what = set(sys.argv[1:]) or {"dense", "skinny", "w4"}
SKINNY = [(m, n, k) for m in (1, 16, 64, 128) for (n, k) in ((8192, 8192), (28672, 4096))]

from quack.gemm_interface import gemm as quack_gemm  # noqa: E402


def dense(m, n, k, dt, label):
    a = torch.randn(m, k, device=dev, dtype=dt) / 4
    w = torch.randn(n, k, device=dev, dtype=dt) / 4  # weights as a linear layer keeps them: A · Wᵀ
    check(label, quack_gemm(a, w.t()), a @ w.t())
    ms = bench(lambda: quack_gemm(a, w.t()))
    row(label, "QuACK gemm", ms, 2.0 * m * n * k, n * k * dt.itemsize if m <= 128 else None)


if "dense" in what:
    for s in (4096, 8192):
        for dt, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
            guarded(f"dense {name} {s}", lambda: dense(s, s, s, dt, f"{name} {s}x{s}x{s} A·Bᵀ"))

if "skinny" in what:
    for m, n, k in SKINNY:
        guarded(f"skinny {m}", lambda: dense(m, n, k, torch.bfloat16, f"skinny bf16 M{m} N{n} K{k}"))

if "w4" in what:
    from quack.blockscaled.nvfp4_utils import dequant_int4_reference, quantize_int4_reference
    from quack.gemm_w4 import gemm_w4a16, prepare_w4_weight

    def w4(m, n, k):
        w = torch.randn(n, k, device=dev)
        q, sf = quantize_int4_reference(w, group=128)
        blob, sfb = prepare_w4_weight(q, sf, wformat="int4")
        act = (torch.randn(m, k, device=dev) / 4).to(torch.bfloat16)
        want = act.float() @ dequant_int4_reference(q, sf, group=128).t()
        run = lambda: gemm_w4a16(act, blob, sfb, n_out=n, wformat="int4")
        check(f"w4 M{m}", run(), want)
        ms = bench(run)
        row(f"int4 · bf16 M{m} N{n} K{k}", "QuACK gemm_w4a16 (int4 g128)", ms, 2.0 * m * n * k,
            n * k // 2 + n * (k // 128) * 2)

    for m, n, k in SKINNY:
        guarded(f"w4 {m}x{n}x{k}", lambda: w4(m, n, k))
