"""More Triton kernels for the TTGIR dumps of ``triton_dumps.py``: the kinds real compilers meet that the first set
lacks — a persistent TMA matmul, fp8 and block-scaled dots, a grouped GEMM, attention forward and backward,
layer-norm backward, sort and top-k, gather, histogram, 3-D reductions and split/join chains. Written for these
dumps (only compiled, never run). Each entry is ``(name, "triton", fn, signature, constexprs, options)`` as in
``triton_fixture_kernels.KERNELS``.
"""

import triton
import triton.language as tl


@triton.jit
def tma_persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr, BM: tl.constexpr,
                                 BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=True):
        pm = tile // tiles_n
        pn = tile % tiles_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in tl.range(0, tl.cdiv(K, BK)):
            a = a_desc.load([pm * BM, k * BK])
            b = b_desc.load([pn * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pm * BM, pn * BN], acc.to(tl.float16))


@triton.jit
def fp8_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def block_scaled_matmul_kernel(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                               BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rs = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        sa = tl.load(as_ptr + rm[:, None] * (K // 32) + (k // 32 + rs)[None, :])
        sb = tl.load(bs_ptr + rn[:, None] * (K // 32) + (k // 32 + rs)[None, :])
        acc = tl.dot_scaled(a, sa, "e4m3", b, sb, "e4m3", acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def grouped_matmul_kernel(a_ptrs, b_ptrs, c_ptrs, sizes_ptr, GROUPS: tl.constexpr, BM: tl.constexpr,
                          BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    last = 0
    for g in range(GROUPS):
        m = tl.load(sizes_ptr + g * 3)
        n = tl.load(sizes_ptr + g * 3 + 1)
        k = tl.load(sizes_ptr + g * 3 + 2)
        tiles_n = tl.cdiv(n, BN)
        tiles = tl.cdiv(m, BM) * tiles_n
        if tile >= last and tile < last + tiles:
            a_ptr = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float16))
            t = tile - last
            rm = (t // tiles_n) * BM + tl.arange(0, BM)
            rn = (t % tiles_n) * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kk in range(0, k, BK):
                a = tl.load(a_ptr + rm[:, None] * k + (kk + rk)[None, :], mask=rm[:, None] < m, other=0.0)
                b = tl.load(b_ptr + (kk + rk)[:, None] * n + rn[None, :], mask=rn[None, :] < n, other=0.0)
                acc += tl.dot(a, b)
            tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.float16),
                     mask=(rm[:, None] < m) & (rn[None, :] < n))
        last += tiles


@triton.jit
def attention_bwd_kernel(q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, dk_ptr, dv_ptr, n_ctx, sm_scale,
                         BM: tl.constexpr, BN: tl.constexpr, HEAD: tl.constexpr):
    """dK and dV for one block of keys (FlashAttention-2's outer loop over keys)."""
    start_n = tl.program_id(0) * BN
    rn = start_n + tl.arange(0, BN)
    rd = tl.arange(0, HEAD)
    k = tl.load(k_ptr + rn[:, None] * HEAD + rd[None, :])
    v = tl.load(v_ptr + rn[:, None] * HEAD + rd[None, :])
    dk = tl.zeros((BN, HEAD), dtype=tl.float32)
    dv = tl.zeros((BN, HEAD), dtype=tl.float32)
    for start_m in range(0, n_ctx, BM):
        rm = start_m + tl.arange(0, BM)
        q = tl.load(q_ptr + rm[:, None] * HEAD + rd[None, :])
        do = tl.load(do_ptr + rm[:, None] * HEAD + rd[None, :])
        lse = tl.load(lse_ptr + rm)
        delta = tl.load(delta_ptr + rm)
        qk_t = tl.dot(k, tl.trans(q)) * sm_scale
        p_t = tl.math.exp2(qk_t - lse[None, :])
        dv += tl.dot(p_t.to(tl.float16), do)
        dp_t = tl.dot(v, tl.trans(do))
        ds_t = p_t * (dp_t - delta[None, :])
        dk += tl.dot(ds_t.to(tl.float16), q)
    tl.store(dk_ptr + rn[:, None] * HEAD + rd[None, :], (dk * sm_scale).to(tl.float16))
    tl.store(dv_ptr + rn[:, None] * HEAD + rd[None, :], dv.to(tl.float16))


@triton.jit
def layernorm_bwd_kernel(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_ptr, db_ptr, rows, n,
                         BR: tl.constexpr, BC: tl.constexpr):
    """dX row by row, and dW, dB accumulated over a block of rows (a 2-D tile reduced along rows)."""
    pid = tl.program_id(0)
    rr = pid * BR + tl.arange(0, BR)
    cols = tl.arange(0, BC)
    mask = (rr[:, None] < rows) & (cols[None, :] < n)
    x = tl.load(x_ptr + rr[:, None] * n + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + rr[:, None] * n + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=cols < n, other=0.0)
    mean = tl.load(mean_ptr + rr, mask=rr < rows, other=0.0)
    rstd = tl.load(rstd_ptr + rr, mask=rr < rows, other=0.0)
    xhat = (x - mean[:, None]) * rstd[:, None]
    wdy = w[None, :] * dy
    c1 = tl.sum(xhat * wdy, axis=1) / n
    c2 = tl.sum(wdy, axis=1) / n
    dx = (wdy - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
    tl.store(dx_ptr + rr[:, None] * n + cols[None, :], dx.to(tl.float16), mask=mask)
    tl.atomic_add(dw_ptr + cols, tl.sum(dy * xhat, axis=0), mask=cols < n)
    tl.atomic_add(db_ptr + cols, tl.sum(dy, axis=0), mask=cols < n)


@triton.jit
def sort_topk_kernel(x_ptr, sorted_ptr, top_ptr, BR: tl.constexpr, BC: tl.constexpr, K: tl.constexpr):
    rr = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rr[:, None] * BC + cols[None, :])
    s = tl.sort(x, dim=1)
    tl.store(sorted_ptr + rr[:, None] * BC + cols[None, :], s)
    t = tl.topk(x, K, dim=1)
    tk = tl.arange(0, K)
    tl.store(top_ptr + rr[:, None] * K + tk[None, :], t)


@triton.jit
def gather_kernel(x_ptr, idx_ptr, y_ptr, BR: tl.constexpr, BC: tl.constexpr):
    rr = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rr[:, None] * BC + cols[None, :])
    idx = tl.load(idx_ptr + rr[:, None] * BC + cols[None, :])
    y = tl.gather(x, idx, axis=1)
    tl.store(y_ptr + rr[:, None] * BC + cols[None, :], y)


@triton.jit
def histogram_kernel(x_ptr, h_ptr, N: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    h = tl.histogram(x, BINS)
    tl.atomic_add(h_ptr + tl.arange(0, BINS), h)


@triton.jit
def reduce3d_kernel(x_ptr, s0_ptr, m1_ptr, s2_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ra = tl.arange(0, A)
    rb = tl.arange(0, B)
    rc = tl.arange(0, C)
    offs = ra[:, None, None] * (B * C) + rb[None, :, None] * C + rc[None, None, :]
    x = tl.load(x_ptr + offs)
    s0 = tl.sum(x, axis=0)
    tl.store(s0_ptr + rb[:, None] * C + rc[None, :], s0)
    m1 = tl.max(x, axis=1)
    tl.store(m1_ptr + ra[:, None] * C + rc[None, :], m1)
    s2 = tl.sum(tl.sum(x, axis=2), axis=1)
    tl.store(s2_ptr + ra, s2)


@triton.jit
def split_join_kernel(x_ptr, y_ptr, BR: tl.constexpr, BC: tl.constexpr):
    rr = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rr[:, None] * BC + cols[None, :])
    # [BR, BC] -> [BR, BC/2, 2] -> two [BR, BC/2] -> again -> joined back in another order.
    a, b = tl.split(tl.reshape(x, (BR, BC // 2, 2)))
    a0, a1 = tl.split(tl.reshape(a, (BR, BC // 4, 2)))
    b0, b1 = tl.split(tl.reshape(b, (BR, BC // 4, 2)))
    j = tl.join(tl.join(a1, b0), tl.join(a0, b1))
    y = tl.reshape(j, (BR, BC))
    tl.store(y_ptr + rr[:, None] * BC + cols[None, :], y * 2)


_MM = {"M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}

KERNELS = [
    ("tma_persistent_matmul", "triton", tma_persistent_matmul_kernel, {
        "a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", **_MM, "NUM_SMS": "constexpr"
    }, {"NUM_SMS": 132, "BM": 128, "BN": 128, "BK": 64}, {"num_warps": 4, "num_stages": 3}),
    ("fp8_matmul", "triton", fp8_matmul_kernel, {
        "a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", **_MM
    }, {"BM": 128, "BN": 128, "BK": 128}, {"num_warps": 8, "num_stages": 3}),
    ("block_scaled_matmul", "triton", block_scaled_matmul_kernel, {
        "a_ptr": "*fp8e4nv", "as_ptr": "*u8", "b_ptr": "*fp8e4nv", "bs_ptr": "*u8", "c_ptr": "*fp32", **_MM
    }, {"BM": 128, "BN": 128, "BK": 128}, {"num_warps": 4, "num_stages": 2}),
    ("grouped_matmul", "triton", grouped_matmul_kernel, {
        "a_ptrs": "*i64", "b_ptrs": "*i64", "c_ptrs": "*i64", "sizes_ptr": "*i32", "GROUPS": "constexpr",
        "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"
    }, {"GROUPS": 4, "BM": 64, "BN": 128, "BK": 32}, {"num_warps": 4, "num_stages": 2}),
    ("attention_bwd", "triton", attention_bwd_kernel, {
        "q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "do_ptr": "*fp16", "lse_ptr": "*fp32",
        "delta_ptr": "*fp32", "dk_ptr": "*fp16", "dv_ptr": "*fp16", "n_ctx": "i32", "sm_scale": "fp32",
        "BM": "constexpr", "BN": "constexpr", "HEAD": "constexpr"
    }, {"BM": 64, "BN": 64, "HEAD": 64}, {"num_warps": 4, "num_stages": 2}),
    ("layernorm_bwd", "triton", layernorm_bwd_kernel, {
        "x_ptr": "*fp16", "dy_ptr": "*fp16", "w_ptr": "*fp32", "mean_ptr": "*fp32", "rstd_ptr": "*fp32",
        "dx_ptr": "*fp16", "dw_ptr": "*fp32", "db_ptr": "*fp32", "rows": "i32", "n": "i32", "BR": "constexpr",
        "BC": "constexpr"
    }, {"BR": 4, "BC": 1024}, {"num_warps": 8}),
    ("sort_topk", "triton", sort_topk_kernel, {
        "x_ptr": "*fp32", "sorted_ptr": "*fp32", "top_ptr": "*fp32", "BR": "constexpr", "BC": "constexpr",
        "K": "constexpr"
    }, {"BR": 8, "BC": 1024, "K": 16}, {"num_warps": 4}),
    ("gather", "triton", gather_kernel, {
        "x_ptr": "*fp32", "idx_ptr": "*i32", "y_ptr": "*fp32", "BR": "constexpr", "BC": "constexpr"
    }, {"BR": 32, "BC": 64}, {"num_warps": 4}),
    ("histogram", "triton", histogram_kernel, {
        "x_ptr": "*i32", "h_ptr": "*i32", "N": "constexpr", "BINS": "constexpr"
    }, {"N": 2048, "BINS": 64}, {"num_warps": 4}),
    ("reduce3d", "triton", reduce3d_kernel, {
        "x_ptr": "*fp32", "s0_ptr": "*fp32", "m1_ptr": "*fp32", "s2_ptr": "*fp32", "A": "constexpr", "B": "constexpr",
        "C": "constexpr"
    }, {"A": 8, "B": 16, "C": 32}, {"num_warps": 4}),
    ("split_join", "triton", split_join_kernel, {
        "x_ptr": "*fp32", "y_ptr": "*fp32", "BR": "constexpr", "BC": "constexpr"
    }, {"BR": 16, "BC": 64}, {"num_warps": 4}),
]
