//! `C = A · B` on Ampere tensor cores (sm_80+, runs on Hopper too), built from the builder's
//! ops as Gluon's tutorials build theirs: row-major `A` (`M × K`) and `B` (`K × N`, or `Bᵀ`
//! `N × K` with [`GemmSm80Config::b_transposed`]) of f16 or bf16, f32 accumulation, `C` (`M × N`)
//! in the input type; any `M`, `N`, `K` (edges masked).
//!
//! Each CTA computes one `block_m × block_n` tile of `C`:
//!
//! - a ring of `stages` shared buffers per operand in NVMMA-swizzled layouts (Gluon's default for
//!   the tile: 16-byte chunks XOR-swizzled across rows, so `ldmatrix` reads them without bank
//!   conflicts), filled by `cp.async` (16-byte copies when the row strides allow; masked-off
//!   elements land as zeros, so edge tiles need no other masking);
//! - `stages - 1` tiles in flight: each step of the K loop waits for its tile
//!   (`cp.async.wait_group stages - 2`), synchronises the CTA once (which also frees the buffer
//!   read in the step before), starts the copy of the tile `stages - 1` ahead into it (buffers
//!   chosen at run time with `index_shared`), then reads its own tile with `ldmatrix` (`.trans`
//!   for `B`, whose N is contiguous) into `DotOperand` layouts and runs `mma.sync`;
//! - the epilogue casts the accumulator and stores it from its `NvidiaMma` layout with masks.
//!
//! The loop runs `⌈K / block_k⌉` times; the copies started in its last `stages - 1` steps are
//! past `K` (all masked) and waited for before the epilogue.

use crate::layout::encoding::helpers::{default_nvmma_shared, mma_for_dot};
use crate::layout::encoding::{Blocked, CgaLayout, Encoding};

use super::super::{CodegenError, DType, Kernel, KernelBuilder, Result, Target, Value};
use super::parts::TileGrid;
use super::{check_pow2, size_divisibility, tile_coords, tile_layout, Context, Tile2d};

/// Tile, pipeline and thread configuration of [`gemm_sm80_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GemmSm80Config {
    /// Rows of `C` per CTA (a power of two, at least 16).
    pub block_m: u32,
    /// Columns of `C` per CTA (a power of two, at least 8).
    pub block_n: u32,
    /// K per pipeline stage (a power of two, at least 16).
    pub block_k: u32,
    /// Shared-memory stages (at least 2; 3 or 4 keep the tensor cores fed).
    pub stages: u32,
    /// Warps per CTA.
    pub num_warps: u32,
    /// Rows of CTA tiles launched together (Triton's `GROUP_SIZE_M`): consecutive program ids
    /// walk down `group_m` tiles of `C`'s rows before the next column, so CTAs running at once
    /// share rows of `A` and columns of `B` in L2. 1 walks along rows.
    pub group_m: u32,
    /// `B` is given transposed: the kernel reads an `N × K` row-major matrix `Bt` and computes
    /// `C = A · Btᵀ` (its tiles land K-contiguous in shared memory, read by `ldmatrix` without
    /// `.trans`).
    pub b_transposed: bool,
}

impl GemmSm80Config {
    /// A configuration.
    pub const fn new(
        block_m: u32,
        block_n: u32,
        block_k: u32,
        stages: u32,
        num_warps: u32,
    ) -> Self {
        GemmSm80Config {
            block_m,
            block_n,
            block_k,
            stages,
            num_warps,
            group_m: 8,
            b_transposed: false,
        }
    }

    /// This configuration for `C = A · Btᵀ` with `Bt` an `N × K` row-major matrix.
    pub const fn with_b_transposed(self, b_transposed: bool) -> Self {
        GemmSm80Config {
            b_transposed,
            ..self
        }
    }

    /// This configuration with `group_m` rows of tiles per group.
    pub const fn with_group_m(self, group_m: u32) -> Self {
        GemmSm80Config { group_m, ..self }
    }

    /// The launch grid for an `m × n` product: one CTA per tile of `C`,
    /// `(⌈m / block_m⌉ · ⌈n / block_n⌉, 1, 1)`.
    pub fn grid(&self, m: u64, n: u64) -> (u32, u32, u32) {
        let tiles = m.div_ceil(self.block_m as u64) * n.div_ceil(self.block_n as u64);
        (tiles as u32, 1, 1)
    }

    /// Shared memory of the rings, in bytes (2-byte elements).
    pub fn shared_bytes(&self) -> u64 {
        let per_stage = (self.block_m * self.block_k + self.block_k * self.block_n) as u64 * 2;
        per_stage * self.stages as u64
    }
}

/// The configurations the tests and benchmarks try, fastest first on the H200 (f16, 8192³,
/// 2026-11-25, one run: 404, 385, 350, 339 and 256 TFLOP/s against cuBLAS's wgmma GEMM at 716,
/// so 0.56× for the first; `A · Bᵀ` on the second 387). A warp's tile of 64 × 64 (4 warps on
/// 128 × 128, or 8 on 128 × 256) reads the fewest operand bytes per `mma.sync`; the smaller
/// CTA fits two per SM.
pub const GEMM_SM80_CONFIGS: [GemmSm80Config; 5] = [
    GemmSm80Config::new(128, 128, 32, 3, 4),
    GemmSm80Config::new(128, 256, 64, 3, 8),
    GemmSm80Config::new(128, 256, 32, 3, 8),
    GemmSm80Config::new(128, 128, 64, 3, 8),
    GemmSm80Config::new(64, 64, 32, 3, 4),
];

fn check(target: Target, c: GemmSm80Config, dtype: DType) -> Result<()> {
    const OP: &str = "gemm_sm80_kernel";
    check_pow2(OP, "block_m", c.block_m as u64, 16, 256)?;
    check_pow2(OP, "block_n", c.block_n as u64, 8, 256)?;
    check_pow2(OP, "block_k", c.block_k as u64, 16, 128)?;
    check_pow2(OP, "num_warps", c.num_warps as u64, 1, 16)?;
    if c.group_m == 0 {
        return Err(CodegenError::arg(OP, "group_m = 0: must be at least 1"));
    }
    if !(2..=8).contains(&c.stages) {
        return Err(CodegenError::arg(
            OP,
            format!("stages = {}: must be 2..=8", c.stages),
        ));
    }
    if !matches!(dtype, DType::F16 | DType::BF16) {
        return Err(CodegenError::InvalidType {
            op: OP,
            expected: "f16 or bf16 inputs".into(),
            value: dtype.to_string(),
        });
    }
    if target.warp_size() != 32 {
        return Err(CodegenError::Unsupported {
            op: OP,
            target: target.to_string(),
            reason: "mma.sync is an NVIDIA instruction".into(),
        });
    }
    Ok(())
}

/// [`gemm_sm80_kernel`] specialised for an `m × n × k` product: `m`, `n`, `k` are declared
/// divisible by the largest power of two up to 16 dividing them ([`size_divisibility`]), so
/// `cp.async` moves 16 bytes when the row strides `k` (of `A`) and `n` (of `B`) are multiples of
/// 8, and narrower (or, for odd strides, plain loads) otherwise.
pub fn gemm_sm80_kernel_for_shape(
    ctx: &Context,
    target: Target,
    c: GemmSm80Config,
    dtype: DType,
    m: u64,
    n: u64,
    k: u64,
) -> Result<Kernel<'_>> {
    build(
        ctx,
        target,
        c,
        dtype,
        [
            size_divisibility(m),
            size_divisibility(n),
            size_divisibility(k),
        ],
    )
}

/// `C = A · B` (see the [module docs](self)). Parameters: `a, b, c: ptr<dtype>` (16-byte aligned,
/// row-major, no padding between rows), `m, n, k: i32`, each a multiple of 16 (edge tiles are
/// masked; other sizes: [`gemm_sm80_kernel_for_shape`]). Grid: [`GemmSm80Config::grid`]. `dtype` is
/// f16 or bf16; needs sm_80 or later. Offsets are `i32`: `m·k`, `k·n` and `m·n` must stay
/// below 2³¹.
pub fn gemm_sm80_kernel(
    ctx: &Context,
    target: Target,
    c: GemmSm80Config,
    dtype: DType,
) -> Result<Kernel<'_>> {
    build(ctx, target, c, dtype, [16, 16, 16])
}

fn build(
    ctx: &Context,
    target: Target,
    c: GemmSm80Config,
    dtype: DType,
    div: [u64; 3],
) -> Result<Kernel<'_>> {
    check(target, c, dtype)?;
    let (bm, bn, bk) = (c.block_m, c.block_n, c.block_k);
    let stages = c.stages as usize;
    let bits = (dtype.mem_bytes() * 8) as u32;
    let (acc_l, a_dot, b_dot) = mma_for_dot(2, bm as u64, bn as u64, c.num_warps, bits)?;
    let b_dot = b_dot.expect("version 2 has a B operand layout");
    let acc_e = Encoding::from(acc_l);
    let a_shape = [bm as u64, bk as u64];
    let b_shape = [bk as u64, bn as u64];
    let a_sl = default_nvmma_shared(&a_shape, bits, false, false, CgaLayout::single())?;
    let b_sl = default_nvmma_shared(&b_shape, bits, c.b_transposed, false, CgaLayout::single())?;
    // Copied 8 elements (16 bytes) per thread and copy, lanes along the contiguous dim.
    let copy = |rows, cols| {
        tile_layout(
            target,
            Tile2d {
                rows,
                cols,
                per_thread: 8,
                num_warps: c.num_warps,
            },
        )
        .map(Encoding::from)
    };
    let a_ld = copy(bm, bk)?;
    let b_ld = if c.b_transposed {
        // K contiguous: the [BN, BK] copy layout with its dims swapped.
        let t = tile_layout(
            target,
            Tile2d {
                rows: bn,
                cols: bk,
                per_thread: 8,
                num_warps: c.num_warps,
            },
        )?;
        let sw = |v: &[u32]| [v[1], v[0]];
        Encoding::from(Blocked::new(
            &sw(&t.size_per_thread),
            &sw(&t.threads_per_warp),
            &sw(&t.warps_per_cta),
            &[0, 1],
        ))
    } else {
        copy(bk, bn)?
    };

    let mut kb = KernelBuilder::new(ctx, target, "gemm_sm80", c.num_warps)?;
    let a = kb.arg_ptr("a", dtype, 16)?;
    let b = kb.arg_ptr("b", dtype, 16)?;
    let cp = kb.arg_ptr("c", dtype, 16)?;
    let m = kb.arg_i32("m", div[0])?;
    let n = kb.arg_i32("n", div[1])?;
    let k = kb.arg_i32("k", div[2])?;
    // This CTA's tile in grouped order (Triton's matmul tutorial).
    let pid = kb.program_id(0)?;
    let grid = TileGrid::new(&mut kb, [m, n], [bm, bn], c.group_m)?;
    let (m0, n0) = grid.origin(&mut kb, pid)?;

    // Offsets of the operand tiles at k = 0, and the masks that do not move with k.
    let (a_rows, a_cols) = tile_coords(&mut kb, &a_ld, a_shape, Some(m0), None)?;
    let a_row_ok = kb.lt(a_rows, m)?;
    let a_off = kb.mul(a_rows, k)?;
    let a_off = kb.add(a_off, a_cols)?;
    let (b_rows, b_cols) = tile_coords(&mut kb, &b_ld, b_shape, None, Some(n0))?;
    let b_col_ok = kb.lt(b_cols, n)?;
    // B[k, n] is at k·N + n, or at n·K + k when given transposed.
    let (b_off, b_k_stride) = if c.b_transposed {
        let off = kb.mul(b_cols, k)?;
        (kb.add(off, b_rows)?, None)
    } else {
        let off = kb.mul(b_rows, n)?;
        (kb.add(off, b_cols)?, Some(n))
    };

    // The rings: `stages` buffers per operand, one after the other.
    let ring_a = kb.alloc_shared_buffers(dtype, stages as u64, &a_shape, &a_sl)?;
    let ring_b = kb.alloc_shared_buffers(dtype, stages as u64, &b_shape, &b_sl)?;
    let ops = Operands {
        a,
        b,
        k,
        b_k_stride,
        a_off,
        a_cols,
        a_row_ok,
        b_off,
        b_rows,
        b_col_ok,
    };

    // Prologue: tiles 0 .. stages - 2 in flight.
    for s in 0..stages - 1 {
        let kk = kb.i32((s as u32 * bk) as i32)?;
        let (sa, sb) = (
            kb.index_shared(ring_a, s as i32)?,
            kb.index_shared(ring_b, s as i32)?,
        );
        ops.issue(&mut kb, kk, sa, sb)?;
        kb.async_commit_group()?;
    }
    let acc = kb.zeros((&acc_e, [bm as u64, bn as u64]), DType::F32)?;
    let acc = kb.for_range(0, k, bk, &[acc], |kb, iv, carried| {
        // Tile t = iv / block_k is in buffer t % stages.
        let t = kb.div(iv, bk as i32)?;
        let here = kb.rem(t, stages as i32)?;
        kb.async_wait_group(stages as u32 - 2)?;
        kb.barrier()?;
        // The tile `stages - 1` ahead goes where the previous step's tile was read.
        let ahead = kb.add(t, stages as i32 - 1)?;
        let ahead = kb.rem(ahead, stages as i32)?;
        let kk = kb.add(iv, ((stages as u32 - 1) * bk) as i32)?;
        let (sa, sb) = (
            kb.index_shared(ring_a, ahead)?,
            kb.index_shared(ring_b, ahead)?,
        );
        ops.issue(kb, kk, sa, sb)?;
        kb.async_commit_group()?;
        let (sa, sb) = (
            kb.index_shared(ring_a, here)?,
            kb.index_shared(ring_b, here)?,
        );
        let ta = kb.ldmatrix(sa, &a_dot)?;
        let tb = kb.ldmatrix(sb, &b_dot)?;
        Ok(vec![kb.dot(ta, tb, carried[0])?])
    })?[0];
    kb.async_wait_group(0)?;

    // Epilogue: C[m0 + i, n0 + j] = acc[i, j] where in bounds.
    let (rows, cols) = tile_coords(&mut kb, &acc_e, [bm as u64, bn as u64], Some(m0), Some(n0))?;
    let row_ok = kb.lt(rows, m)?;
    let col_ok = kb.lt(cols, n)?;
    let mask = kb.and(row_ok, col_ok)?;
    let off = kb.mul(rows, n)?;
    let off = kb.add(off, cols)?;
    let dst = kb.add(cp, off)?;
    let out = kb.cast(acc, dtype)?;
    kb.store(dst, out, Some(mask))?;
    kb.finish()
}

/// What the copies of one K step need.
struct Operands {
    a: Value,
    b: Value,
    k: Value,
    /// Elements between consecutive K of `B` (`N`; `None`: 1, `B` given transposed).
    b_k_stride: Option<Value>,
    a_off: Value,
    a_cols: Value,
    a_row_ok: Value,
    b_off: Value,
    b_rows: Value,
    b_col_ok: Value,
}

impl Operands {
    /// Starts copying `A[:, kk .. kk + block_k]` and `B[kk .. kk + block_k, :]` of this CTA into
    /// `sa` and `sb`, zeros past the edges.
    fn issue(&self, kb: &mut KernelBuilder<'_>, kk: Value, sa: Value, sb: Value) -> Result<()> {
        let left = kb.sub(self.k, kk)?;
        let a_col_ok = kb.lt(self.a_cols, left)?;
        let a_mask = kb.and(self.a_row_ok, a_col_ok)?;
        let off = kb.add(self.a_off, kk)?;
        let pa = kb.add(self.a, off)?;
        kb.async_copy_global_to_shared(sa, pa, Some(a_mask))?;
        let b_row_ok = kb.lt(self.b_rows, left)?;
        let b_mask = kb.and(b_row_ok, self.b_col_ok)?;
        let step = match self.b_k_stride {
            Some(stride) => kb.mul(kk, stride)?,
            None => kk,
        };
        let off = kb.add(self.b_off, step)?;
        let pb = kb.add(self.b, off)?;
        kb.async_copy_global_to_shared(sb, pb, Some(b_mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_configurations_are_refused_before_building() {
        let ctx = Context::new();
        let bad = GemmSm80Config::new(48, 128, 32, 3, 4);
        let e = gemm_sm80_kernel(&ctx, Target::SM80, bad, DType::F16).unwrap_err();
        assert!(e.to_string().contains("block_m"), "{e}");
        let one_stage = GemmSm80Config::new(64, 64, 32, 1, 4);
        let e = gemm_sm80_kernel(&ctx, Target::SM80, one_stage, DType::F16).unwrap_err();
        assert!(e.to_string().contains("stages"), "{e}");
        let c = GEMM_SM80_CONFIGS[3];
        let e = gemm_sm80_kernel(&ctx, Target::SM80, c, DType::F32).unwrap_err();
        assert!(matches!(e, CodegenError::InvalidType { .. }), "{e}");
    }

    #[test]
    fn the_grid_covers_every_tile_and_the_reference_multiplies() {
        let c = GemmSm80Config::new(128, 128, 32, 3, 8);
        assert_eq!(c.grid(1000, 129), (16, 1, 1));
        assert_eq!(c.shared_bytes(), 3 * (128 * 32 + 32 * 128) * 2);
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2 × 3
        let b = [1.0, 0.0, 0.0, 1.0, 1.0, 1.0]; // 3 × 2
        assert_eq!(
            super::super::gemm::gemm_reference(&a, &b, 2, 2, 3, false),
            vec![4.0, 5.0, 10.0, 11.0]
        );
    }
}
