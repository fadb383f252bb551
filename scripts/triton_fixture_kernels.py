"""Small Triton and Gluon kernels compiled (without a GPU) by triton_fixtures.py to produce TTGIR dumps.

Each entry of KERNELS: (name, kind, jit function, signature, constexprs, options).
"""

import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
try:  # Triton 3.9's Gluon; an older Triton (`triton_dumps.py --dumps-only`) compiles the Triton kernels only
    from triton.experimental.gluon.language.nvidia.ampere import mma_v2
    from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, warpgroup_mma
except ImportError:
    mma_v2 = fence_async_shared = warpgroup_mma = None


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """fp16 GEMM: on sm_90 Triton picks wgmma (nvidia_mma v3) and NVMMA shared operands, pipelined."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a), tl.load(b))
        a += BK
        b += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, BR: tl.constexpr, BC: tl.constexpr):
    """Row softmax: blocked layouts and their slices (reductions)."""
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :]).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + rows[:, None] * stride + cols[None, :], y.to(tl.float16))


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale, BM: tl.constexpr, BN: tl.constexpr,
                     HEAD: tl.constexpr):
    """Flash-attention forward (one head per program on axis 1): S = Q K^T, online softmax, O += P V."""
    base = tl.program_id(1) * n_ctx * HEAD
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, HEAD)
    q = tl.load(q_ptr + base + rm[:, None] * HEAD + rd[None, :])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, HEAD], tl.float32)
    scale = sm_scale * 1.44269504
    for start in range(0, n_ctx, BN):
        kt = tl.load(k_ptr + base + (start + rn)[None, :] * HEAD + rd[:, None])
        s = tl.dot(q, kt) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + (start + rn)[:, None] * HEAD + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * HEAD + rd[None, :], acc.to(tl.float16))


@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, n, eps, BR: tl.constexpr, BC: tl.constexpr):
    """Row layer norm over BR rows of at most BC columns (masked): mean, variance, scale and shift."""
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    cols = tl.arange(0, BC)
    mask = cols[None, :] < n
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / n
    xc = tl.where(mask, x - mean[:, None], 0.0)
    rstd = 1 / tl.sqrt(tl.sum(xc * xc, axis=1) / n + eps)
    w = tl.load(w_ptr + cols, mask=cols < n)
    b = tl.load(b_ptr + cols, mask=cols < n)
    y = xc * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + rows[:, None] * stride + cols[None, :], y.to(tl.float16), mask=mask)


@triton.jit
def reduce_kernel(x_ptr, sum_ptr, max_ptr, arg_ptr, BR: tl.constexpr, BC: tl.constexpr):
    """Reductions along both axes of one tile: column sums, row maxima and row argmax."""
    rows = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rows[:, None] * BC + cols[None, :])
    tl.store(sum_ptr + cols, tl.sum(x, axis=0))
    tl.store(max_ptr + rows, tl.max(x, axis=1))
    tl.store(arg_ptr + rows, tl.argmax(x, axis=1))


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, z_ptr, BR: tl.constexpr, BC: tl.constexpr):
    """Inclusive scans: tl.cumsum along rows and along columns of one tile."""
    rows = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rows[:, None] * BC + cols[None, :])
    tl.store(y_ptr + rows[:, None] * BC + cols[None, :], tl.cumsum(x, axis=1))
    tl.store(z_ptr + rows[:, None] * BC + cols[None, :], tl.cumsum(x, axis=0))


@gluon.jit
def gluon_mma_kernel(a_ptr, b_ptr, c_ptr, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    """Gluon with explicit layouts: blocked loads, swizzled and NVMMA shared memory, mma.sync operands."""
    ld: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    st: gl.constexpr = gl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    acc_l: gl.constexpr = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    a_sh: gl.constexpr = gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])
    b_sh: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    rm = gl.arange(0, BM, layout=gl.SliceLayout(1, ld))
    rk = gl.arange(0, BK, layout=gl.SliceLayout(0, ld))
    rkb = gl.arange(0, BK, layout=gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, layout=gl.SliceLayout(0, ld))
    a = gl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = gl.load(b_ptr + rkb[:, None] * BN + rn[None, :])
    a_bufs = gl.allocate_shared_memory(gl.float16, [2, BM, BK], a_sh)  # double buffer: memdesc with alloc shape
    a_s = a_bufs.index(1)
    a_s.store(a)
    b_s = gl.allocate_shared_memory(gl.float16, [BK, BN], b_sh, b)
    a_r = a_s.load(gl.DotOperandLayout(operand_index=0, parent=acc_l, k_width=2))
    b_r = b_s.load(gl.DotOperandLayout(operand_index=1, parent=acc_l, k_width=2))
    acc = gl.zeros([BM, BN], gl.float32, acc_l)
    acc = mma_v2(a_r, b_r, acc)
    out = gl.convert_layout(acc.to(gl.float16), st)
    rmo = gl.arange(0, BM, layout=gl.SliceLayout(1, st))
    rno = gl.arange(0, BN, layout=gl.SliceLayout(0, st))
    gl.store(c_ptr + rmo[:, None] * BN + rno[None, :], out)


@gluon.jit
def gluon_wgmma_kernel(a_ptr, b_ptr, c_ptr, r_ptr, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    """Gluon wgmma: NVMMA shared operands (one a subslice of a wider buffer), v3 accumulator, row sums."""
    ld: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    acc_l: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BN, 16])
    a_sh: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    b_sh: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True)
    rm = gl.arange(0, BM, layout=gl.SliceLayout(1, ld))
    rk = gl.arange(0, BK, layout=gl.SliceLayout(0, ld))
    rkb = gl.arange(0, BK, layout=gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, layout=gl.SliceLayout(0, ld))
    a = gl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = gl.load(b_ptr + rkb[:, None] * BN + rn[None, :])
    a_wide = gl.allocate_shared_memory(gl.float16, [BM, 2 * BK], a_sh)
    a_s = a_wide.slice(BK, BK, dim=1)
    a_s.store(a)
    b_s = gl.allocate_shared_memory(gl.float16, [BK, BN], b_sh, b)
    fence_async_shared()
    acc = gl.zeros([BM, BN], gl.float32, acc_l)
    acc = warpgroup_mma(a_s, b_s, acc)
    rows = gl.sum(acc, axis=1)
    rmo = gl.arange(0, BM, layout=gl.SliceLayout(1, acc_l))
    rno = gl.arange(0, BN, layout=gl.SliceLayout(0, acc_l))
    gl.store(c_ptr + rmo[:, None] * BN + rno[None, :], acc.to(gl.float16))
    gl.store(r_ptr + rmo, rows)


@gluon.jit
def bank_conflicts_probe(REG_TY: gl.constexpr, SH_TY: gl.constexpr):
    """Evaluates gl.bank_conflicts at compile time (the builder binding segfaults when called outside a kernel)."""
    n: gl.constexpr = gl.bank_conflicts(REG_TY, SH_TY)
    gl.static_assert(n >= 0)


KERNELS = [
    ("matmul_sm90", "triton", matmul_kernel, {
        "a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
        "BN": "constexpr", "BK": "constexpr"
    }, {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 4, "num_stages": 3}),
    ("softmax_sm90", "triton", softmax_kernel, {
        "x_ptr": "*fp16", "y_ptr": "*fp16", "stride": "i32", "BR": "constexpr", "BC": "constexpr"
    }, {"BR": 4, "BC": 256}, {"num_warps": 4}),
    ("attention", "triton", attention_kernel, {
        "q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "n_ctx": "i32", "sm_scale": "fp32",
        "BM": "constexpr", "BN": "constexpr", "HEAD": "constexpr"
    }, {"BM": 128, "BN": 64, "HEAD": 64}, {"num_warps": 4, "num_stages": 2}),
    ("layernorm", "triton", layernorm_kernel, {
        "x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32", "stride": "i32", "n": "i32",
        "eps": "fp32", "BR": "constexpr", "BC": "constexpr"
    }, {"BR": 2, "BC": 1024}, {"num_warps": 8}),
    ("reduce", "triton", reduce_kernel, {
        "x_ptr": "*fp32", "sum_ptr": "*fp32", "max_ptr": "*fp32", "arg_ptr": "*i32", "BR": "constexpr",
        "BC": "constexpr"
    }, {"BR": 64, "BC": 128}, {"num_warps": 4}),
    ("cumsum", "triton", cumsum_kernel, {
        "x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32", "BR": "constexpr", "BC": "constexpr"
    }, {"BR": 32, "BC": 256}, {"num_warps": 4}),
    ("matmul_2cta", "triton", matmul_kernel, {
        "a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
        "BN": "constexpr", "BK": "constexpr"
    }, {"BM": 128, "BN": 256, "BK": 64}, {"num_warps": 4, "num_stages": 3, "num_ctas": 2}),
    ("gluon_mma_v2_sm90", "gluon", gluon_mma_kernel, {
        "a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"
    }, {"BM": 64, "BN": 64, "BK": 32}, {"num_warps": 4}),
    ("gluon_wgmma_sm90", "gluon", gluon_wgmma_kernel, {
        "a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "r_ptr": "*fp32", "BM": "constexpr", "BN": "constexpr",
        "BK": "constexpr"
    }, {"BM": 64, "BN": 64, "BK": 64}, {"num_warps": 4}),
]
