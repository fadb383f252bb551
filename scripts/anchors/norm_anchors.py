"""Peer baselines for the row-wise LLM kernels of examples/bench_rows.rs, at the same shapes, in one process:
QuACK 0.6.5 (CuTe DSL: rmsnorm fwd/bwd, layernorm bwd, softmax fwd/bwd, cross entropy fwd/bwd), torch.compile,
torch eager, and Triton fused kernels (one row per program, tutorial style) where Triton has one, each next to a
device copy of the same bytes (`y.copy_(x)` over half the bytes: read + write = the workload's bytes).

Run it on the GPU machine right after `target/release/examples/bench_rows` in the same call, so both are measured
on one machine in one run. QuACK is not installed there: carry its wheels as ../shared/gpu.md describes, then put
the unpacked site folder on PYTHONPATH (e.g. PYTHONPATH=/opt/fa/site).
    python3 scripts/anchors/norm_anchors.py                     # every section (a few minutes: torch.compile)
    python3 scripts/anchors/norm_anchors.py rmsnorm softmax     # a subset: rmsnorm rmsnorm_bwd layernorm softmax ce
WEFT_ROWS_M=4096 sets the rows (default 16384). Each line: workload | implementation | median ms | GB/s.
Every implementation's output is compared with torch's in f32 before it is timed; a mismatch prints FAILED.
Each section is guarded: a failure (QuACK missing, an API that moved) prints and the next one runs.
"""
import os
import sys
import traceback

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

F = torch.nn.functional
M = int(os.environ.get("WEFT_ROWS_M", "16384"))


def bench(fn):
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def row(workload, impl, ms, nbytes):
    print(f"{workload:36s} | {impl:40s} | {ms:9.4f} ms | {nbytes / (ms * 1e-3) / 1e9:9.1f} GB/s", flush=True)


def guarded(workload, impl, fn, nbytes, check=None):
    """Checks `fn`'s output against `check` (a (got -> None or raise) function), then times it."""
    try:
        out = fn()
        torch.cuda.synchronize()
        if check is not None:
            check(out)
        row(workload, impl, bench(fn), nbytes)
    except Exception as e:
        print(f"{workload} | {impl}: FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
        traceback.print_exc(limit=2)


def close(want, atol, rtol):
    def check(got):
        g = got[0] if isinstance(got, (tuple, list)) else got
        torch.testing.assert_close(g.float(), want.float(), atol=atol, rtol=rtol)
    return check


def copy_row(workload, nbytes):
    src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda").fill_(0x3C)
    dst = torch.empty_like(src)
    row(workload, "D2D copy (same bytes)", bench(lambda: dst.copy_(src)), nbytes)
    del src, dst


def quack(module, name):
    try:
        mod = __import__(f"quack.{module}", fromlist=[name])
        return getattr(mod, name)
    except Exception as e:
        print(f"quack.{module}.{name} unavailable: {type(e).__name__}: {e}", flush=True)
        return None


@triton.jit
def tl_rmsnorm(x, y, w, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0).to(tl.int64)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    v = tl.load(x + r * n_cols + c, mask=m, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(v * v, 0) / n_cols + eps)
    out = v * rstd * tl.load(w + c, mask=m).to(tl.float32)
    tl.store(y + r * n_cols + c, out.to(y.dtype.element_ty), mask=m)


@triton.jit
def tl_softmax(x, y, n_cols, BLOCK: tl.constexpr):
    r = tl.program_id(0).to(tl.int64)
    c = tl.arange(0, BLOCK)
    v = tl.load(x + r * n_cols + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
    e = tl.exp(v - tl.max(v, 0))
    tl.store(y + r * n_cols + c, (e / tl.sum(e, 0)).to(y.dtype.element_ty), mask=c < n_cols)


@triton.jit
def tl_softmax_bwd(y, dy, dx, n_cols, BLOCK: tl.constexpr):
    r = tl.program_id(0).to(tl.int64)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    yv = tl.load(y + r * n_cols + c, mask=m, other=0.0).to(tl.float32)
    g = tl.load(dy + r * n_cols + c, mask=m, other=0.0).to(tl.float32)
    out = yv * (g - tl.sum(yv * g, 0))
    tl.store(dx + r * n_cols + c, out.to(dx.dtype.element_ty), mask=m)


@triton.jit
def tl_layernorm(x, y, w, b, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0).to(tl.int64)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    v = tl.load(x + r * n_cols + c, mask=m, other=0.0).to(tl.float32)
    d = tl.where(m, v - tl.sum(v, 0) / n_cols, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, 0) / n_cols + eps)
    out = d * rstd * tl.load(w + c, mask=m) + tl.load(b + c, mask=m)
    tl.store(y + r * n_cols + c, out.to(y.dtype.element_ty), mask=m)


def warps(n):
    return 32 if n >= 16384 else 16 if n >= 8192 else 8


def rmsnorm_ref(x, w, eps=1e-6):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float())


def rmsnorm():
    fwd = quack("rmsnorm", "rmsnorm_fwd")
    for N in (4096, 8192, 16384):
        x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
        w = (1 + torch.randn(N, device="cuda") / 8).to(torch.bfloat16)
        nb = 2 * x.numel() * 2 + N * 2
        wl = f"rmsnorm {M}x{N} bf16"
        want = rmsnorm_ref(x, w)
        chk = close(want, 2e-2, 1e-2)
        if fwd:
            guarded(wl, "QuACK rmsnorm_fwd", lambda: fwd(x, w, eps=1e-6), nb, chk)
        comp = torch.compile(lambda a: F.rms_norm(a, (N,), w, 1e-6))
        guarded(wl, "torch.compile rms_norm", lambda: comp(x), nb, chk)
        guarded(wl, "torch F.rms_norm", lambda: F.rms_norm(x, (N,), w, 1e-6), nb, chk)
        y = torch.empty_like(x)
        guarded(wl, f"triton fused nw={warps(N)}",
                lambda: (tl_rmsnorm[(M,)](x, y, w, N, 1e-6, triton.next_power_of_2(N), num_warps=warps(N)), y)[1], nb, chk)
        copy_row(wl, nb)
        if N == 8192:
            r = torch.randn_like(x)
            nbr = 4 * x.numel() * 2 + N * 2
            wr = f"rmsnorm +residual {M}x{N} bf16"
            want_r = rmsnorm_ref((x.float() + r.float()).to(torch.bfloat16), w)
            chk_r = close(want_r, 2e-2, 1e-2)
            if fwd:
                guarded(wr, "QuACK rmsnorm_fwd residual", lambda: fwd(x, w, residual=r, eps=1e-6), nbr, chk_r)

            def fused(a, b):
                h = a + b
                return F.rms_norm(h, (N,), w, 1e-6), h
            compr = torch.compile(fused)
            guarded(wr, "torch.compile add + rms_norm", lambda: compr(x, r), nbr, chk_r)
            copy_row(wr, nbr)
            nb8 = x.numel() * 2 + x.numel() + N * 2 + 4 * M

            def fp8(a):
                y = F.rms_norm(a, (N,), w, 1e-6).float()
                s = y.abs().amax(-1, keepdim=True) / 448.0
                return (y / s.clamp_min(1e-30)).to(torch.float8_e4m3fn), s
            comp8 = torch.compile(fp8)
            w8 = f"rmsnorm ->fp8 per row {M}x{N} bf16"
            guarded(w8, "torch.compile rms_norm + fp8 per row", lambda: comp8(x), nb8,
                    lambda got: torch.testing.assert_close(got[0].float() * got[1], want, atol=0.1, rtol=0.07))
            copy_row(w8, nb8)
        del x, y


def norm_bwd_ref(x, w, dy, layer, eps):
    xf = x.float().requires_grad_(True)
    wf = w.float().requires_grad_(True)
    if layer:
        y = F.layer_norm(xf, (x.shape[1],), wf, None, eps)
    else:
        y = F.rms_norm(xf, (x.shape[1],), wf, eps)
    y.backward(dy.float())
    return xf.grad, wf.grad


def norm_bwd(layer):
    name = "layernorm" if layer else "rmsnorm"
    for N in (4096, 8192, 16384):
        x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
        w = (1 + torch.randn(N, device="cuda") / 8).to(torch.bfloat16)
        dy = torch.randn_like(x)
        nb = 3 * x.numel() * 2 + N * 2
        wl = f"{name} bwd {M}x{N} bf16"
        eps = 1e-5 if layer else 1e-6
        dx_want, _ = norm_bwd_ref(x, w, dy, layer, eps)
        chk = close(dx_want, 5e-2, 2e-2)
        xf = x.float()
        if layer:
            mean = xf.mean(-1)
            rstd = torch.rsqrt(xf.var(-1, unbiased=False) + eps)
            qb = quack("rmsnorm", "layernorm_bwd")
            if qb:
                wf = w.float()
                guarded(wl, "QuACK layernorm_bwd", lambda: qb(x, wf, dy, rstd, mean), nb, chk)
        else:
            rstd = torch.rsqrt(xf.pow(2).mean(-1) + eps)
            qb = quack("rmsnorm", "rmsnorm_bwd")
            if qb:
                guarded(wl, "QuACK rmsnorm_bwd", lambda: qb(x, w, dy, rstd), nb, chk)

        def grads(a, g, wt, rs, mu):
            af = a.float()
            xhat = (af - mu[:, None]) * rs[:, None] if layer else af * rs[:, None]
            gw = g.float() * wt.float()
            c1 = (gw * xhat).mean(-1, keepdim=True)
            c2 = gw.mean(-1, keepdim=True) if layer else 0.0
            dx = ((gw - xhat * c1 - c2) * rs[:, None]).to(a.dtype)
            return dx, (g.float() * xhat).sum(0).to(wt.dtype)
        comp = torch.compile(grads)
        mu = xf.mean(-1) if layer else torch.zeros(M, device="cuda")
        guarded(wl, "torch.compile (formula, rstd given)", lambda: comp(x, dy, w, rstd, mu), nb, chk)
        del xf
        copy_row(wl, nb)
        del x, dy


def layernorm():
    N = 16384
    x = torch.randn(M, N, device="cuda")
    w = torch.randn(N, device="cuda")
    b = torch.randn(N, device="cuda")
    nb = 2 * x.numel() * 4
    wl = f"layernorm {M}x{N} f32"
    chk = close(F.layer_norm(x, (N,), w, b, 1e-5), 1e-4, 1e-4)
    y = torch.empty_like(x)
    guarded(wl, "triton fused nw=16", lambda: (tl_layernorm[(M,)](x, y, w, b, N, 1e-5, N, num_warps=16), y)[1], nb, chk)
    comp = torch.compile(lambda a: F.layer_norm(a, (N,), w, b, 1e-5))
    guarded(wl, "torch.compile layer_norm", lambda: comp(x), nb, chk)
    guarded(wl, "torch layer_norm", lambda: F.layer_norm(x, (N,), w, b, 1e-5), nb, chk)
    copy_row(wl, nb)
    del x, y
    qf = quack("rmsnorm", "layernorm_fwd")
    for N in (4096, 8192, 16384):
        x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
        w = (1 + torch.randn(N, device="cuda") / 8).to(torch.bfloat16)
        b = (torch.randn(N, device="cuda") / 4).to(torch.bfloat16)
        nb = 2 * x.numel() * 2 + 2 * N * 2
        wl = f"layernorm {M}x{N} bf16"
        chk = close(F.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5), 3e-2, 1e-2)
        if qf:
            wf, bf = w.float(), b.float()
            guarded(wl, "QuACK layernorm_fwd (w, b f32)", lambda: qf(x, wf, bf, eps=1e-5), nb, chk)
        comp = torch.compile(lambda a: F.layer_norm(a, (N,), w, b, 1e-5))
        guarded(wl, "torch.compile layer_norm", lambda: comp(x), nb, chk)
        y = torch.empty_like(x)
        guarded(wl, f"triton fused nw={warps(N)}",
                lambda: (tl_layernorm[(M,)](x, y, w, b, N, 1e-5, N, num_warps=warps(N)), y)[1], nb, chk)
        copy_row(wl, nb)
        del x, y
    norm_bwd(True)


def softmax():
    fwd = quack("softmax", "softmax_fwd")
    bwd = quack("softmax", "softmax_bwd")
    N = 16384
    for dt, size in ((torch.float32, 4), (torch.bfloat16, 2)):
        x = torch.randn(M, N, device="cuda", dtype=dt)
        nb = 2 * x.numel() * size
        wl = f"softmax {M}x{N} {str(dt)[6:]}"
        want = torch.softmax(x.float(), -1)
        chk = close(want, 1e-5 if size == 4 else 1e-3, 1e-4 if size == 4 else 1e-2)
        if fwd:
            guarded(wl, "QuACK softmax_fwd", lambda: fwd(x), nb, chk)
        y = torch.empty_like(x)
        guarded(wl, "triton fused nw=16", lambda: (tl_softmax[(M,)](x, y, N, N, num_warps=16), y)[1], nb, chk)
        comp = torch.compile(lambda a: torch.softmax(a, -1))
        guarded(wl, "torch.compile softmax", lambda: comp(x), nb, chk)
        copy_row(wl, nb)
        yv = want.to(dt)
        dy = torch.randn_like(x)
        nbb = 3 * x.numel() * size
        wb = f"softmax bwd {M}x{N} {str(dt)[6:]}"
        yf = yv.float()
        chk_b = close(yf * (dy.float() - (yf * dy.float()).sum(-1, keepdim=True)), 1e-5 if size == 4 else 1e-3, 1e-2)
        if bwd:
            guarded(wb, "QuACK softmax_bwd", lambda: bwd(dy, yv), nbb, chk_b)
        dx = torch.empty_like(x)
        guarded(wb, "triton fused nw=16", lambda: (tl_softmax_bwd[(M,)](yv, dy, dx, N, N, num_warps=16), dx)[1], nbb, chk_b)
        compb = torch.compile(lambda yy, g: (yy.float() * (g.float() - (yy.float() * g.float()).sum(-1, keepdim=True))).to(yy.dtype))
        guarded(wb, "torch.compile (formula)", lambda: compb(yv, dy), nbb, chk_b)
        copy_row(wb, nbb)
        del x, y, yv, dy, dx, want, yf


def ce():
    fwd = quack("cross_entropy", "cross_entropy_fwd")
    bwd = quack("cross_entropy", "cross_entropy_bwd")
    V = 131072
    x = torch.randn(M, V, device="cuda", dtype=torch.bfloat16)
    t = torch.randint(0, V, (M,), device="cuda", dtype=torch.int64)
    t[3::7] = -100
    nb = x.numel() * 2
    wl = f"cross entropy fwd {M}x{V} bf16"
    # The reference in chunks of rows (a float copy of all logits is 8 GiB).
    want = torch.cat([F.cross_entropy(x[i:i + 1024].float(), t[i:i + 1024], reduction="none") for i in range(0, M, 1024)])
    chk = close(want, 1e-3, 1e-4)
    if fwd:
        guarded(wl, "QuACK cross_entropy_fwd", lambda: fwd(x, t), nb, chk)
    comp = torch.compile(lambda a, b: F.cross_entropy(a.float(), b, reduction="none"))
    guarded(wl, "torch.compile cross_entropy", lambda: comp(x, t), nb, chk)
    copy_row(wl, nb)
    lse = torch.cat([torch.logsumexp(x[i:i + 1024].float(), -1) for i in range(0, M, 1024)])
    dloss = torch.rand(M, device="cuda")
    nbb = 2 * x.numel() * 2
    wb = f"cross entropy bwd {M}x{V} bf16"
    rows = [0, M // 2, M - 1]
    ref = torch.softmax(x[rows].float(), -1)
    tr = t[rows]
    for i, ti in enumerate(tr.tolist()):
        if ti >= 0:
            ref[i, ti] -= 1
    ref = ref * torch.where(tr >= 0, dloss[rows], 0.0)[:, None]

    def chk_b(got):
        torch.testing.assert_close(got[rows].float(), ref, atol=1e-3, rtol=2e-2)
    if bwd:
        guarded(wb, "QuACK cross_entropy_bwd", lambda: bwd(x, t, dloss, lse), nbb, chk_b)

    def grad(a, b, lse_, dl):
        p = torch.exp(a.float() - lse_[:, None])
        hit = torch.arange(a.shape[1], device=a.device)[None, :] == b[:, None]
        return ((p - hit.float()) * torch.where(b >= 0, dl, 0.0)[:, None]).to(a.dtype)
    compb = torch.compile(grad)
    guarded(wb, "torch.compile (formula, lse given)", lambda: compb(x, t, lse, dloss), nbb, chk_b)
    copy_row(wb, nbb)


steps = sys.argv[1:] or ["rmsnorm", "rmsnorm_bwd", "layernorm", "softmax", "ce"]
print(f"# norm anchors on {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}, M={M}", flush=True)
for s in steps:
    try:
        {"rmsnorm": rmsnorm, "rmsnorm_bwd": lambda: norm_bwd(False), "layernorm": layernorm, "softmax": softmax, "ce": ce}[s]()
    except Exception as e:
        print(f"section {s}: FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
        traceback.print_exc(limit=3)
    torch.cuda.empty_cache()
