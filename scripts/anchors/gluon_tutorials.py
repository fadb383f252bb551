"""Gluon's own tutorial kernels at the sizes weft's `examples/tutorial_*.rs` use, timed on the GPU
machine (torch + Triton with Gluon), so weft and Gluon are compared in one run:

    cargo build --release --features llvm,cuda --example tutorial_01_intro ... --example tutorial_08_warp_specialization
    for e in target/release/examples/tutorial_0?_*; do timeout 300 "$e"; done   # `result weft NAME MS SIZE` lines
    python3 scripts/anchors/gluon_tutorials.py            # every workload, each in its own process
    python3 scripts/anchors/gluon_tutorials.py tma wgmma  # a subset
    python3 scripts/anchors/gluon_tutorials.py --compile  # no GPU: compile every kernel for cuda:90

Workloads, and which tutorial of triton-lang/triton `python/tutorials/gluon/` each reproduces:
  intro                01-intro.py: the scalar `memcpy_kernel`, autotuned over XBLOCK 256..8192, 2^31 f32
  layouts              02-layouts.py: `memcpy_1d_kernel` with BlockedLayout([R], [32], [4], [0]), R = 1, 2, 4,
                       XBLOCK 2048, 2^32 f32; and a 64x64-tiled transpose through `convert_layout`, 16384^2
                       f32 (the kernel of ../shared/bench/gluon_anchors.py with weft's tile and layouts)
  async_copy           03-async-copy.py: `elementwise_add_pipelined_kernel`, 32768^2 f32, 32x64, 2 buffers
  tma                  04-tma.py: `elementwise_add_tma_kernel`, 32768^2 f32: 32x64 with 2 and 3 buffers, 64x128x3
  wgmma                05-wgmma.py: `blocked_mma_kernel` (f16 in, f32 out), 8192^3, 128x128x64, 4 warps,
                       OVERLAP_MMA
  persistence          07-persistence.py: `persistent_matmul_kernel` (WGMMA, PersistentTileScheduler),
                       8192 x 8192 x 16384 f16, 128x256x64, 3 buffers, 8 warps
  warp_specialization  08-warp-specialization.py: `elementwise_add_warp_specialized_kernel`, 32768^2 f32,
                       64x128, 3 load buffers, 1 store buffer, 4 warps, maxnreg 128
Each line: workload | implementation | median ms | GB/s or TFLOP/s (do_bench, median), printed as soon as it is
known, followed by `result gluon NAME MS SIZE` with the NAME weft's example prints in its `result weft NAME MS
SIZE` line for the same workload. Every output is checked against torch before it is timed. Each workload runs in a process of its own (an
illegal address poisons the CUDA context of the process that made it), under a time limit; one that fails prints
`# <workload> failed: ...` and the rest go on. `--compile` needs neither a GPU nor torch: it compiles every kernel
at the workloads' arguments for cuda:90 through Triton's own JIT entry (`warmup`) with stand-in tensors.

The Gluon kernels below are the tutorials' own code (triton-lang/triton, python/tutorials/gluon/,
MIT licence, Copyright 2018-2020 Philippe Tillet, 2020-2025 OpenAI), copied with their comments
shortened and the helpers they import from earlier tutorials inlined; the names that changed between
Triton 3.6 and 3.9 (async copies, the async wgmma accumulator) are picked at import. Every kernel here
compiles to PTX with Triton 3.6.0 and 3.9.0 for cuda:90 (`--compile`, without a GPU).

One change from the tutorials' code: 01's `memcpy_kernel` and 02's `memcpy_1d_kernel` compute the
program's start in 64 bits (`pid.to(gl.int64) * XBLOCK`). As written, `pid * XBLOCK` is 32-bit, and at
the sizes the tutorials themselves time (2^31 and 2^32 f32) it overflows: in 01, `start + XBLOCK` of
the last program wraps negative, so `min(..., xnumel)` is negative and the last block is never copied
(the check `torch.equal(x, y)` fails); in 02, every program past 2^20 gets a negative offset, and the
masked load (`offsets < xnumel` holds for a negative offset) reads before the buffer: an illegal
address. weft's kernels use 64-bit offsets there too.
"""
import os
import subprocess
import sys

try:
    import torch
except ImportError:  # `--compile` needs no torch
    torch = None
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
from triton.experimental.gluon.language.nvidia.ampere import async_copy as cp
from triton.experimental.gluon.language.nvidia.hopper import (
    tma,
    mbarrier,
    fence_async_shared,
    warpgroup_mma,
    warpgroup_mma_wait,
)
from triton.experimental.gluon.language.nvidia import hopper as _hopper

# Triton 3.6's names for the async copies; later versions call them `async_load` / `async_store`
# (same arguments) and keep the old names only to raise an error.
cp_async_load = getattr(cp, "async_load", None) or cp.async_copy_global_to_shared
tma_load = getattr(tma, "async_load", None) or tma.async_copy_global_to_shared
tma_store = getattr(tma, "async_store", None) or tma.async_copy_shared_to_global
# Later versions keep an async wgmma's accumulator in a type of its own, which a loop must carry
# from its start (`warpgroup_mma_init`); where that does not exist, the tensor itself is carried.
if hasattr(_hopper, "warpgroup_mma_init"):
    acc_init = _hopper.warpgroup_mma_init
else:

    @gluon.jit
    def acc_init(x):
        return x


def bench(fn):
    from triton.testing import do_bench
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def row(workload, impl, ms, amount, unit, name, size):
    """The human-readable row, then `result gluon NAME MS SIZE`: the line weft's tutorial examples
    print as `result weft NAME MS SIZE` (and their same-run baselines as `result d2d ...` or
    `result gemm_kernel ...`), so the ratio table is a join on NAME."""
    rate = amount / (ms * 1e-3) / (1e9 if unit == "GB/s" else 1e12)
    print(f"{workload:44s} | {impl:44s} | {ms:9.4f} ms | {rate:9.1f} {unit}", flush=True)
    print(f"result gluon {name} {ms:.4f} {size}", flush=True)


# --- 01-intro.py ---------------------------------------------------------------------------------
@gluon.jit
def memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK: gl.constexpr):
    pid = gl.program_id(0)
    start = pid.to(gl.int64) * XBLOCK  # the tutorial's `pid * XBLOCK` overflows at 2^31 elements
    end = min(start + XBLOCK, xnumel)
    for i in range(start, end):
        value = gl.load(in_ptr + i)
        gl.store(out_ptr + i, value)


def intro():
    xnumel = 2 << 30
    x = torch.randn(xnumel, device="cuda")
    y = torch.empty_like(x)
    best = None
    for i in range(8, 14):
        xblock = 2**i
        fn = lambda: memcpy_kernel[(triton.cdiv(xnumel, xblock), )](x, y, xnumel, xblock, num_warps=1)
        y.zero_()
        fn()
        torch.cuda.synchronize()
        assert torch.equal(x, y), f"memcpy_kernel XBLOCK={xblock}: y differs from x"
        ms = bench(fn)
        if best is None or ms < best[0]:
            best = (ms, xblock)
    row("01 scalar memcpy 2^31 f32", f"gluon memcpy_kernel best XBLOCK={best[1]}", best[0], 2 * xnumel * 4, "GB/s",
        "01_memcpy_best", "2^31xf32")


# --- 02-layouts.py -------------------------------------------------------------------------------
@gluon.jit
def memcpy_1d_kernel(in_ptr, out_ptr, xnumel, XBLOCK: gl.constexpr, layout: gl.constexpr):
    pid = gl.program_id(0)
    start = pid.to(gl.int64) * XBLOCK  # the tutorial's `pid * XBLOCK` overflows at 2^32 elements
    indices = gl.arange(0, XBLOCK, layout=layout)
    offsets = start + indices
    in_ptrs = in_ptr + offsets
    mask = offsets < xnumel
    value = gl.load(in_ptrs, mask=mask)
    out_ptrs = out_ptr + offsets
    gl.store(out_ptrs, value, mask=mask)


@gluon.jit
def transpose_kernel(src, dst, M, N, layout_in: gl.constexpr, layout_out: gl.constexpr, XBLOCK: gl.constexpr,
                     YBLOCK: gl.constexpr):
    ix = gl.program_id(0) * XBLOCK + gl.arange(0, XBLOCK, layout=gl.SliceLayout(1, layout_in))
    iy = gl.program_id(1) * YBLOCK + gl.arange(0, YBLOCK, layout=gl.SliceLayout(0, layout_in))
    v = gl.load(src + ix[:, None] * N + iy[None, :])
    v = gl.convert_layout(v, layout_out)
    ox = gl.program_id(0) * XBLOCK + gl.arange(0, XBLOCK, layout=gl.SliceLayout(1, layout_out))
    oy = gl.program_id(1) * YBLOCK + gl.arange(0, YBLOCK, layout=gl.SliceLayout(0, layout_out))
    gl.store(dst + oy[None, :] * M + ox[:, None], v)


def layouts():
    xnumel = 4 << 30
    x = torch.randn(xnumel, device="cuda")
    y = torch.empty_like(x)
    for r in (1, 2, 4):
        layout = gl.BlockedLayout([r], [32], [4], [0])
        fn = lambda: memcpy_1d_kernel[(triton.cdiv(xnumel, 2048), )](x, y, xnumel, 2048, layout, num_warps=4)
        y.zero_()
        fn()
        torch.cuda.synchronize()
        assert torch.equal(x, y), f"memcpy_1d_kernel R={r}: y differs from x"
        row("02 memcpy_1d 2^32 f32", f"gluon memcpy_1d_kernel R={r}", bench(fn), 2 * xnumel * 4, "GB/s",
            f"02_memcpy_1d_R{r}", "2^32xf32")
    del x, y
    torch.cuda.empty_cache()
    s = 16384
    a = torch.randn((s, s), device="cuda")
    b = torch.empty((s, s), device="cuda")
    rows = gl.BlockedLayout([1, 4], [2, 16], [4, 1], [1, 0])
    cols = gl.BlockedLayout([4, 1], [16, 2], [1, 4], [0, 1])
    fn = lambda: transpose_kernel[(s // 64, s // 64)](a, b, s, s, rows, cols, 64, 64, num_warps=4)
    fn()
    torch.cuda.synchronize()
    assert torch.equal(b, a.t()), "transpose_kernel: b differs from a.t()"
    row("02 transpose 16384^2 f32", "gluon convert_layout 64x64", bench(fn), 2 * s * s * 4, "GB/s", "02_transpose",
        "16384x16384xf32")


# --- 03-async-copy.py ----------------------------------------------------------------------------
@gluon.jit
def elementwise_add_pipelined_kernel(  #
        a_ptr, b_ptr, c_ptr, xnumel, ynumel,  #
        xstride_a, ystride_a, xstride_b, ystride_b, xstride_c, ystride_c,  #
        XBLOCK: gl.constexpr, YBLOCK: gl.constexpr,  #
        smem_layout: gl.constexpr, num_buffers: gl.constexpr,  #
):
    pid = gl.program_id(0)
    layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])
    xoffs = pid * XBLOCK + gl.arange(0, XBLOCK, gl.SliceLayout(1, layout))
    a_ptrs = a_ptr + xstride_a * xoffs[:, None]
    b_ptrs = b_ptr + xstride_b * xoffs[:, None]
    c_ptrs = c_ptr + xstride_c * xoffs[:, None]

    y_idx = gl.arange(0, YBLOCK, gl.SliceLayout(0, layout))
    xmask = (xoffs < xnumel)[:, None]

    dtype: gl.constexpr = a_ptr.dtype.element_ty
    a_smem = gl.allocate_shared_memory(dtype, [num_buffers, XBLOCK, YBLOCK], layout=smem_layout)
    b_smem = gl.allocate_shared_memory(dtype, [num_buffers, XBLOCK, YBLOCK], layout=smem_layout)
    copy_idx = 0
    read_idx = 0

    for _ in gl.static_range(num_buffers - 1):
        yoffs = copy_idx * YBLOCK + y_idx
        mask = xmask & (yoffs < ynumel)[None, :]
        cp_async_load(a_smem.index(copy_idx % num_buffers),  #
                                       a_ptrs + ystride_a * yoffs[None, :], mask)
        cp_async_load(b_smem.index(copy_idx % num_buffers),  #
                                       b_ptrs + ystride_b * yoffs[None, :], mask)
        cp.commit_group()
        copy_idx += 1

    for _ in range(gl.cdiv(ynumel, YBLOCK) - (num_buffers - 1)):
        yoffs = copy_idx * YBLOCK + y_idx
        mask = xmask & (yoffs < ynumel)[None, :]
        cp_async_load(a_smem.index(copy_idx % num_buffers),  #
                                       a_ptrs + ystride_a * yoffs[None, :], mask)
        cp_async_load(b_smem.index(copy_idx % num_buffers),  #
                                       b_ptrs + ystride_b * yoffs[None, :], mask)
        cp.commit_group()
        copy_idx += 1

        cp.wait_group(num_buffers - 1)

        a_val = a_smem.index(read_idx % num_buffers).load(layout)
        b_val = b_smem.index(read_idx % num_buffers).load(layout)
        c_val = a_val + b_val
        yoffs = read_idx * YBLOCK + y_idx
        mask = xmask & (yoffs < ynumel)[None, :]
        gl.store(c_ptrs + ystride_c * yoffs[None, :], c_val, mask=mask)
        read_idx += 1

    for i in gl.static_range(num_buffers - 1):
        cp.wait_group(num_buffers - 2 - i)

        a_val = a_smem.index(read_idx % num_buffers).load(layout)
        b_val = b_smem.index(read_idx % num_buffers).load(layout)
        c_val = a_val + b_val
        yoffs = read_idx * YBLOCK + y_idx
        mask = xmask & (yoffs < ynumel)[None, :]
        gl.store(c_ptrs + ystride_c * yoffs[None, :], c_val, mask=mask)
        read_idx += 1


def add_inputs():
    n = 32 * 1024
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    return a, b, torch.empty_like(a), 3 * n * n * 4


def async_copy():
    a, b, c, nbytes = add_inputs()
    xnumel, ynumel = a.shape
    smem_layout = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])
    fn = lambda: elementwise_add_pipelined_kernel[(triton.cdiv(xnumel, 32), )](
        a, b, c, xnumel, ynumel, *a.stride(), *b.stride(), *c.stride(), 32, 64, smem_layout, 2)
    fn()
    torch.cuda.synchronize()
    assert torch.equal(c, a + b), "elementwise_add_pipelined: c differs from a + b"
    row("03 elementwise add 32768^2 f32", "gluon elementwise_add_pipelined 32x64x2", bench(fn), nbytes, "GB/s",
        "03_add_pipelined", "32768x32768xf32")


# --- 04-tma.py -----------------------------------------------------------------------------------
@gluon.jit
def elementwise_add_tma_kernel(  #
        a_desc, b_desc, c_desc, xnumel, ynumel,  #
        XBLOCK: gl.constexpr, YBLOCK: gl.constexpr, num_buffers: gl.constexpr):
    pid = gl.program_id(0)
    layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])
    xoff = pid * XBLOCK

    dtype: gl.constexpr = a_desc.type.block_type.element_ty
    a_smem = gl.allocate_shared_memory(dtype, [num_buffers, XBLOCK, YBLOCK], a_desc.layout)
    b_smem = gl.allocate_shared_memory(dtype, [num_buffers, XBLOCK, YBLOCK], b_desc.layout)

    c_smem = gl.allocate_shared_memory(dtype, [XBLOCK, YBLOCK], c_desc.layout)

    bars = gl.allocate_shared_memory(gl.int64, [num_buffers, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(num_buffers):
        mbarrier.init(bars.index(i), count=1)

    copy_index = 0
    read_index = 0

    for _ in gl.static_range(num_buffers - 1):
        yoff = copy_index * YBLOCK
        bar = bars.index(copy_index % num_buffers)
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma_load(a_desc, [xoff, yoff], bar, a_smem.index(copy_index % num_buffers))
        tma_load(b_desc, [xoff, yoff], bar, b_smem.index(copy_index % num_buffers))
        copy_index += 1

    for _ in range(gl.cdiv(ynumel, YBLOCK) - (num_buffers - 1)):
        yoff = copy_index * YBLOCK
        bar = bars.index(copy_index % num_buffers)
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma_load(a_desc, [xoff, yoff], bar, a_smem.index(copy_index % num_buffers))
        tma_load(b_desc, [xoff, yoff], bar, b_smem.index(copy_index % num_buffers))
        copy_index += 1

        read_phase = read_index // num_buffers & 1
        mbarrier.wait(bars.index(read_index % num_buffers), read_phase)
        a_val = a_smem.index(read_index % num_buffers).load(layout)
        b_val = b_smem.index(read_index % num_buffers).load(layout)
        c_val = a_val + b_val
        yoff = read_index * YBLOCK
        tma.store_wait(pendings=0)
        c_smem.store(c_val)
        fence_async_shared()
        tma_store(c_desc, [xoff, yoff], c_smem)
        read_index += 1

    for _ in gl.static_range(num_buffers - 1):
        read_phase = read_index // num_buffers & 1
        mbarrier.wait(bars.index(read_index % num_buffers), read_phase)
        a_val = a_smem.index(read_index % num_buffers).load(layout)
        b_val = b_smem.index(read_index % num_buffers).load(layout)
        c_val = a_val + b_val
        yoff = read_index * YBLOCK
        tma.store_wait(pendings=0)
        c_smem.store(c_val)
        fence_async_shared()
        tma_store(c_desc, [xoff, yoff], c_smem)
        read_index += 1

    for i in gl.static_range(num_buffers):
        mbarrier.invalidate(bars.index(i))

    tma.store_wait(pendings=0)


def descs(tensors, block_shape):
    layout = gl.NVMMASharedLayout.get_default_for(block_shape, gl.float32)
    return [TensorDescriptor(t, t.shape, t.stride(), block_shape, layout) for t in tensors]


def tma_():
    a, b, c, nbytes = add_inputs()
    xnumel, ynumel = a.shape
    for xb, yb, nbuf in ((32, 64, 2), (32, 64, 3), (64, 128, 3)):
        a_d, b_d, c_d = descs((a, b, c), [xb, yb])
        fn = lambda: elementwise_add_tma_kernel[(triton.cdiv(xnumel, xb), )](a_d, b_d, c_d, xnumel, ynumel, xb, yb,
                                                                              nbuf)
        c.zero_()
        fn()
        torch.cuda.synchronize()
        assert torch.equal(c, a + b), f"elementwise_add_tma {xb}x{yb}x{nbuf}: c differs from a + b"
        row("04 elementwise add 32768^2 f32", f"gluon elementwise_add_tma {xb}x{yb}x{nbuf}", bench(fn), nbytes, "GB/s",
            f"04_add_tma_{xb}x{yb}x{nbuf}", "32768x32768xf32")


# --- 05-wgmma.py ---------------------------------------------------------------------------------
@gluon.constexpr_function
def get_warps_per_cta(BLOCK_M, BLOCK_N, num_warps):
    warps_per_cta = [4, 1]
    m = 16
    while warps_per_cta[0] * warps_per_cta[1] != num_warps:
        if BLOCK_M > m * warps_per_cta[0]:
            warps_per_cta[0] *= 2
        else:
            warps_per_cta[1] *= 2
    return warps_per_cta


@gluon.constexpr_function
def get_instr_shape_n(BLOCK_M, BLOCK_N, num_warps):
    m = 16
    mReps = triton.cdiv(BLOCK_M, m)
    nReps = triton.cdiv(num_warps, mReps)
    maxN = max(BLOCK_N // nReps, 8)
    n = 256
    while n > maxN or BLOCK_N % n != 0:
        n -= 8
    assert n >= 8, "expected to find a valid n"
    return n


@gluon.constexpr_function
def pick_wgmma_layout(dtype, BLOCK_M, BLOCK_N, num_warps):
    m = 16
    k = 256 // dtype.primitive_bitwidth
    n = get_instr_shape_n(BLOCK_M, BLOCK_N, num_warps)
    warps_per_cta = get_warps_per_cta(BLOCK_M, BLOCK_N, num_warps)
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=warps_per_cta, instr_shape=[m, n, k])


@gluon.jit
def blocked_mma_kernel(a_desc, b_desc, c_desc,  #
                       TRANSPOSE_B: gl.constexpr, OVERLAP_MMA: gl.constexpr, num_warps: gl.constexpr):
    BLOCK_M: gl.constexpr = c_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = c_desc.block_type.shape[1]
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    K = a_desc.shape[1]

    a_smem = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_smem = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)

    pid_m = gl.program_id(axis=0)
    pid_n = gl.program_id(axis=1)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N

    mma_layout: gl.constexpr = pick_wgmma_layout(a_desc.dtype, BLOCK_M, BLOCK_N, num_warps)
    acc = gl.zeros((BLOCK_M, BLOCK_N), dtype=c_desc.dtype, layout=mma_layout)
    if OVERLAP_MMA:
        acc = acc_init(acc)

    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    phase = 0

    for k in range(0, K, BLOCK_K):
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma_load(a_desc, [off_m, k], bar, a_smem)
        if TRANSPOSE_B:
            tma_load(b_desc, [off_n, k], bar, b_smem)
        else:
            tma_load(b_desc, [k, off_n], bar, b_smem)
        mbarrier.wait(bar, phase=phase)
        phase ^= 1

        if TRANSPOSE_B:
            b = b_smem.permute((1, 0))
        else:
            b = b_smem

        if OVERLAP_MMA:
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))

        acc = warpgroup_mma(a_smem, b, acc, is_async=OVERLAP_MMA)

    if OVERLAP_MMA:
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))

    mbarrier.invalidate(bar)

    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(acc)
    fence_async_shared()
    tma_store(c_desc, [off_m, off_n], c_smem)
    tma.store_wait(pendings=0)


def wgmma():
    M = N = K = 8192
    BM, BN, BK = 128, 128, 64
    A = torch.randn(M, K, device="cuda", dtype=torch.float16)
    B = torch.randn(K, N, device="cuda", dtype=torch.float16)
    C = torch.empty(M, N, device="cuda", dtype=torch.float32)
    a_desc = TensorDescriptor(A, A.shape, A.stride(), [BM, BK], gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float16))
    b_desc = TensorDescriptor(B, B.shape, B.stride(), [BK, BN], gl.NVMMASharedLayout.get_default_for([BK, BN], gl.float16))
    c_desc = TensorDescriptor(C, C.shape, C.stride(), [BM, BN], gl.NVMMASharedLayout.get_default_for([BM, BN], gl.float32))
    fn = lambda: blocked_mma_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a_desc, b_desc, c_desc, False, True,
                                                                               num_warps=4)
    fn()
    torch.cuda.synchronize()
    torch.testing.assert_close(C, (A @ B).float(), rtol=1e-2, atol=1e-1)
    row("05 gemm 8192^3 f16->f32", "gluon blocked_mma 128x128x64 overlap", bench(fn), 2 * M * N * K, "TFLOP/s",
        "05_gemm", "8192x8192x8192xf16")


# --- 07-persistence.py (Hopper: the WGMMA wrapper) -----------------------------------------------
@gluon.jit
def issue_loads(producer, a_desc, b_desc, off_m, off_n, k, bars, a_bufs, b_bufs, num_buffers: gl.constexpr, pred=True):
    index = producer % num_buffers
    producer += 1
    bar = bars.index(index)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes, pred=pred)
    tma_load(a_desc, [off_m, k], bar, a_bufs.index(index), pred)
    tma_load(b_desc, [k, off_n], bar, b_bufs.index(index), pred)
    return producer


@gluon.jit
def issue_mma(consumer, acc, use_acc, bars, a_bufs, b_bufs, num_buffers: gl.constexpr):
    index = consumer % num_buffers
    phase = consumer // num_buffers & 1
    consumer += 1
    mbarrier.wait(bars.index(index), phase)
    acc = warpgroup_mma_wait(0, (acc, ))
    acc = warpgroup_mma(a_bufs.index(index), b_bufs.index(index), acc, is_async=True, use_acc=use_acc)
    return consumer, acc


@gluon.jit
def persistent_matmul_kernel(a_desc, b_desc, c_desc, num_buffers: gl.constexpr, num_warps: gl.constexpr):
    BLOCK_M: gl.constexpr = c_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = c_desc.block_type.shape[1]
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    dtype: gl.constexpr = a_desc.dtype
    K = a_desc.shape[1]

    bars = gl.allocate_shared_memory(gl.int64, [num_buffers, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(num_buffers):
        mbarrier.init(bars.index(i), count=1)
    producer = 0
    consumer = 0

    mma_layout: gl.constexpr = pick_wgmma_layout(dtype, BLOCK_M, BLOCK_N, num_warps)
    acc = gl.zeros((BLOCK_M, BLOCK_N), dtype=gl.float32, layout=mma_layout)
    # PersistentTileScheduler: a contiguous range of tiles per program, delinearised along M.
    num_pid_m = gl.cdiv(c_desc.shape[0], BLOCK_M)
    num_pid = num_pid_m * gl.cdiv(c_desc.shape[1], BLOCK_N)
    pid_per_kernel = gl.cdiv(num_pid, gl.num_programs(axis=0))
    pid_start = gl.program_id(axis=0) * pid_per_kernel
    pid_end = min(pid_start + pid_per_kernel, num_pid)
    for idx in range(pid_end - pid_start):
        pid = pid_start + idx
        off_m = (pid % num_pid_m) * BLOCK_M
        off_n = (pid // num_pid_m) * BLOCK_N

        a_bufs = gl.allocate_shared_memory(dtype, [num_buffers] + a_desc.block_type.shape, a_desc.layout)
        b_bufs = gl.allocate_shared_memory(dtype, [num_buffers] + b_desc.block_type.shape, b_desc.layout)
        for k in gl.static_range(0, BLOCK_K * (num_buffers - 2), BLOCK_K):
            producer = issue_loads(producer, a_desc, b_desc, off_m, off_n, k, bars, a_bufs, b_bufs, num_buffers)

        use_acc = gl.to_tensor(False)
        acc = acc_init(acc)
        for k in range(BLOCK_K * (num_buffers - 2), K, BLOCK_K):
            producer = issue_loads(producer, a_desc, b_desc, off_m, off_n, k, bars, a_bufs, b_bufs, num_buffers)
            consumer, acc = issue_mma(consumer, acc, use_acc, bars, a_bufs, b_bufs, num_buffers)
            use_acc = gl.to_tensor(True)

        for _ in gl.static_range(num_buffers - 2):
            consumer, acc = issue_mma(consumer, acc, True, bars, a_bufs, b_bufs, num_buffers)

        acc = warpgroup_mma_wait(0, (acc, ))
        c_smem = gl.allocate_shared_memory(dtype, c_desc.block_type.shape, c_desc.layout)
        c_smem.store(acc.to(dtype))
        fence_async_shared()
        tma_store(c_desc, [off_m, off_n], c_smem)
        tma.store_wait(pendings=0)


def persistence():
    M, N, K = 8192, 8192, 16 * 1024
    BM, BN, BK, nbuf, nw = 128, 256, 64, 3, 8
    A = torch.randn(M, K, device="cuda", dtype=torch.float16)
    B = torch.randn(K, N, device="cuda", dtype=torch.float16)
    C = torch.empty(M, N, device="cuda", dtype=torch.float16)
    layout = lambda shape: gl.NVMMASharedLayout.get_default_for(shape, gl.float16)
    a_desc = TensorDescriptor.from_tensor(A, [BM, BK], layout([BM, BK]))
    b_desc = TensorDescriptor.from_tensor(B, [BK, BN], layout([BK, BN]))
    c_desc = TensorDescriptor.from_tensor(C, [BM, BN], layout([BM, BN]))
    sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    grid = (min(sms, triton.cdiv(M, BM) * triton.cdiv(N, BN)), )
    fn = lambda: persistent_matmul_kernel[grid](a_desc, b_desc, c_desc, nbuf, num_warps=nw)
    fn()
    torch.cuda.synchronize()
    torch.testing.assert_close(C, A @ B, rtol=1e-2, atol=1.0)
    row("07 gemm 8192x8192x16384 f16", "gluon persistent_matmul 128x256x64x3 nw8", bench(fn), 2 * M * N * K, "TFLOP/s",
        "07_gemm_persistent", "8192x8192x16384xf16")


# --- 08-warp-specialization.py -------------------------------------------------------------------
@gluon.jit
def load_partition(descs, barriers, buffers, xoff, numel, YBLOCK: gl.constexpr):
    a_desc, b_desc, c_desc = descs
    load_empty_bars, load_ready_bars, c_empty_bars, c_ready_bars = barriers
    a_bufs, b_bufs, c_bufs = buffers
    xnumel, ynumel = numel
    num_buffers: gl.constexpr = a_bufs.type.shape[0]
    for i in range(gl.cdiv(ynumel, YBLOCK)):
        index = i % num_buffers
        phase = i // num_buffers & 1
        a_buf = a_bufs.index(index)
        b_buf = b_bufs.index(index)
        load_empty_bar = load_empty_bars.index(index)
        load_ready_bar = load_ready_bars.index(index)
        mbarrier.wait(load_empty_bar, phase ^ 1)
        yoff = i * YBLOCK
        mbarrier.expect(load_ready_bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma_load(a_desc, [xoff, yoff], load_ready_bar, a_buf)
        tma_load(b_desc, [xoff, yoff], load_ready_bar, b_buf)


@gluon.jit
def store_partition(descs, barriers, buffers, xoff, numel, YBLOCK: gl.constexpr):
    a_desc, b_desc, c_desc = descs
    load_empty_bars, load_ready_bars, c_empty_bars, c_ready_bars = barriers
    a_bufs, b_bufs, c_bufs = buffers
    xnumel, ynumel = numel
    num_buffers: gl.constexpr = c_bufs.type.shape[0]
    outstanding_stores: gl.constexpr = num_buffers - 1
    for i in range(gl.cdiv(ynumel, YBLOCK)):
        index = i % num_buffers
        phase = i // num_buffers & 1
        c_buf = c_bufs.index(index)
        c_ready_bar = c_ready_bars.index(index)
        mbarrier.wait(c_ready_bar, phase)
        yoff = i * YBLOCK
        tma_store(c_desc, [xoff, yoff], c_buf)
        tma.store_wait(outstanding_stores)
        c_empty_bar = c_empty_bars.index((i - outstanding_stores) % num_buffers)
        mbarrier.arrive(c_empty_bar, count=1, pred=i >= outstanding_stores)
    tma.store_wait(0)


@gluon.jit
def compute_partition(barriers, buffers, ynumel, YBLOCK: gl.constexpr, layout: gl.constexpr):
    load_empty_bars, load_ready_bars, c_empty_bars, c_ready_bars = barriers
    a_bufs, b_bufs, c_bufs = buffers
    num_load_buffers: gl.constexpr = a_bufs.type.shape[0]
    num_store_buffers: gl.constexpr = c_bufs.type.shape[0]
    for i in range(gl.cdiv(ynumel, YBLOCK)):
        load_index = i % num_load_buffers
        load_phase = i // num_load_buffers & 1
        a_buf = a_bufs.index(load_index)
        b_buf = b_bufs.index(load_index)
        load_ready_bar = load_ready_bars.index(load_index)
        load_empty_bar = load_empty_bars.index(load_index)
        mbarrier.wait(load_ready_bar, load_phase)
        a_val = a_buf.load(layout)
        b_val = b_buf.load(layout)
        fence_async_shared()
        mbarrier.arrive(load_empty_bar, count=1)
        c_val = a_val + b_val
        store_idx = i % num_store_buffers
        store_phase = i // num_store_buffers & 1
        c_buf = c_bufs.index(store_idx)
        c_empty_bar = c_empty_bars.index(store_idx)
        c_ready_bar = c_ready_bars.index(store_idx)
        mbarrier.wait(c_empty_bar, store_phase ^ 1)
        c_buf.store(c_val)
        fence_async_shared()
        mbarrier.arrive(c_ready_bar, count=1)


@gluon.jit
def elementwise_add_warp_specialized_kernel(  #
        a_desc, b_desc, c_desc,  #
        xnumel, ynumel, XBLOCK: gl.constexpr, YBLOCK: gl.constexpr,  #
        num_load_buffers: gl.constexpr, num_store_buffers: gl.constexpr, num_warps: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, num_warps], [1, 0])
    a_bufs = gl.allocate_shared_memory(a_desc.dtype, [num_load_buffers] + a_desc.block_type.shape, a_desc.layout)
    b_bufs = gl.allocate_shared_memory(b_desc.dtype, [num_load_buffers] + b_desc.block_type.shape, b_desc.layout)
    c_bufs = gl.allocate_shared_memory(c_desc.dtype, [num_store_buffers] + c_desc.block_type.shape, c_desc.layout)
    load_empty_bars = gl.allocate_shared_memory(gl.int64, [num_load_buffers, 1], mbarrier.MBarrierLayout())
    load_ready_bars = gl.allocate_shared_memory(gl.int64, [num_load_buffers, 1], mbarrier.MBarrierLayout())
    c_empty_bars = gl.allocate_shared_memory(gl.int64, [num_store_buffers, 1], mbarrier.MBarrierLayout())
    c_ready_bars = gl.allocate_shared_memory(gl.int64, [num_store_buffers, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(num_load_buffers):
        mbarrier.init(load_empty_bars.index(i), count=1)
        mbarrier.init(load_ready_bars.index(i), count=1)
    for i in gl.static_range(num_store_buffers):
        mbarrier.init(c_empty_bars.index(i), count=1)
        mbarrier.init(c_ready_bars.index(i), count=1)
    descs = (a_desc, b_desc, c_desc)
    barriers = (load_empty_bars, load_ready_bars, c_empty_bars, c_ready_bars)
    buffers = (a_bufs, b_bufs, c_bufs)
    numel = (xnumel, ynumel)
    pid = gl.program_id(0)
    xoff = pid * XBLOCK
    gl.warp_specialize([
        (compute_partition, (barriers, buffers, ynumel, YBLOCK, layout)),
        (load_partition, (descs, barriers, buffers, xoff, numel, YBLOCK)),
        (store_partition, (descs, barriers, buffers, xoff, numel, YBLOCK)),
    ], [1, 1], [24, 24])


def warp_specialization():
    a, b, c, nbytes = add_inputs()
    xnumel, ynumel = a.shape
    xb, yb = 64, 128
    a_d, b_d, c_d = descs((a, b, c), [xb, yb])
    fn = lambda: elementwise_add_warp_specialized_kernel[(triton.cdiv(xnumel, xb), )](
        a_d, b_d, c_d, xnumel, ynumel, xb, yb, 3, 1, num_warps=4, maxnreg=128)
    c.zero_()
    fn()
    torch.cuda.synchronize()
    assert torch.equal(c, a + b), "elementwise_add_warp_specialized: c differs from a + b"
    row("08 elementwise add 32768^2 f32", "gluon elementwise_add_warp_specialized", bench(fn), nbytes, "GB/s",
        "08_add_ws", "32768x32768xf32")


ALL = {
    "intro": intro,
    "layouts": layouts,
    "async_copy": async_copy,
    "tma": tma_,
    "wgmma": wgmma,
    "persistence": persistence,
    "warp_specialization": warp_specialization,
}


# --- compiling without a GPU ---------------------------------------------------------------------
class _Dtype:
    """A stand-in for a torch dtype: Triton reads only its name."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


def _compile_all():
    """Compiles every kernel at its workload's arguments for cuda:90, as `kernel[grid](...)` would, but
    through `warmup` with stand-in tensors (Triton's `MockTensor`) and a driver that only names the
    target; prints each kernel's PTX size and whether it was compiled."""
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    from triton.runtime.jit import MockTensor

    class TargetOnly:
        def get_current_device(self):
            return 0

        def get_current_stream(self, device=None):
            return 0

        def get_current_target(self):
            return GPUTarget("cuda", 90, 32)

    driver.set_active(TargetOnly())
    f32, f16 = _Dtype("float32"), _Dtype("float16")
    t = lambda dtype, shape: MockTensor(dtype, list(shape))

    def desc(dtype, gdtype, shape, block):
        base = t(dtype, shape)
        layout = gl.NVMMASharedLayout.get_default_for(block, gdtype)
        return TensorDescriptor(base, list(shape), list(base.stride()), block, layout)

    n = 32 * 1024
    sq = (n, n)
    st = (n, 1)
    plain = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])
    jobs = [("memcpy_kernel XBLOCK=%d" % xb, lambda xb=xb: memcpy_kernel.warmup(
        t(f32, [2 << 30]), t(f32, [2 << 30]), 2 << 30, xb, grid=(1, ), num_warps=1)) for xb in (256, 8192)]
    jobs += [("memcpy_1d_kernel R=%d" % r, lambda r=r: memcpy_1d_kernel.warmup(
        t(f32, [4 << 30]), t(f32, [4 << 30]), 4 << 30, 2048, gl.BlockedLayout([r], [32], [4], [0]), grid=(1, ),
        num_warps=4)) for r in (1, 2, 4)]
    jobs.append(("transpose_kernel", lambda: transpose_kernel.warmup(
        t(f32, [16384, 16384]), t(f32, [16384, 16384]), 16384, 16384, gl.BlockedLayout([1, 4], [2, 16], [4, 1], [1, 0]),
        gl.BlockedLayout([4, 1], [16, 2], [1, 4], [0, 1]), 64, 64, grid=(1, ), num_warps=4)))
    jobs.append(("elementwise_add_pipelined_kernel", lambda: elementwise_add_pipelined_kernel.warmup(
        t(f32, sq), t(f32, sq), t(f32, sq), n, n, *st, *st, *st, 32, 64, plain, 2, grid=(1, ))))
    for xb, yb, nbuf in ((32, 64, 2), (32, 64, 3), (64, 128, 3)):
        jobs.append((f"elementwise_add_tma_kernel {xb}x{yb}x{nbuf}", lambda xb=xb, yb=yb, nbuf=nbuf:
                     elementwise_add_tma_kernel.warmup(*(desc(f32, gl.float32, sq, [xb, yb]) for _ in range(3)), n, n,
                                                       xb, yb, nbuf, grid=(1, ))))
    jobs.append(("blocked_mma_kernel", lambda: blocked_mma_kernel.warmup(
        desc(f16, gl.float16, (8192, 8192), [128, 64]), desc(f16, gl.float16, (8192, 8192), [64, 128]),
        desc(f32, gl.float32, (8192, 8192), [128, 128]), False, True, num_warps=4, grid=(1, ))))
    jobs.append(("persistent_matmul_kernel", lambda: persistent_matmul_kernel.warmup(
        desc(f16, gl.float16, (8192, 16384), [128, 64]), desc(f16, gl.float16, (16384, 8192), [64, 256]),
        desc(f16, gl.float16, (8192, 8192), [128, 256]), 3, num_warps=8, grid=(1, ))))
    jobs.append(("elementwise_add_warp_specialized_kernel", lambda: elementwise_add_warp_specialized_kernel.warmup(
        *(desc(f32, gl.float32, sq, [64, 128]) for _ in range(3)), n, n, 64, 128, 3, 1, num_warps=4, maxnreg=128,
        grid=(1, ))))
    failed = 0
    for name, job in jobs:
        try:
            k = job()
            print(f"# compiled {name} for cuda:90 with triton {triton.__version__}: {len(k.asm['ptx'])} bytes of PTX")
        except Exception as e:
            failed += 1
            print(f"# {name} failed to compile: {type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}")
    return failed


def _isolated(names, limit_s):
    """Runs each workload in a process of its own (its lines appear as they are printed), so that an
    illegal address, which poisons the CUDA context, or a hang costs that workload only."""
    for name in names:
        cmd = [sys.executable, os.path.abspath(__file__), "--one", name]
        try:
            p = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, timeout=limit_s)
        except subprocess.TimeoutExpired:
            print(f"# {name} failed: no result within {limit_s} s", flush=True)
            continue
        if p.returncode != 0:
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            print(f"# {name} failed (exit {p.returncode}): {lines[-1][:200] if lines else ''}", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--compile"]:
        sys.exit(1 if _compile_all() else 0)
    if args[:1] == ["--one"]:
        torch.manual_seed(0)
        ALL[args[1]]()
        sys.exit(0)
    unknown = [a for a in args if a not in ALL]
    if unknown:
        sys.exit(f"unknown workloads {unknown}; known: {' '.join(ALL)}")
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} triton {triton.__version__}", flush=True)
    _isolated(args or list(ALL), limit_s=int(os.environ.get("GLUON_TUTORIALS_LIMIT_S", "300")))
