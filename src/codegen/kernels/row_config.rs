//! The configuration the row-wise LLM kernels share (RMSNorm, the norms' backward passes,
//! softmax backward, cross entropy): whole rows (or column chunks of them) of an `m × n`
//! matrix per CTA in a `[rows_per_cta, block_n]` tile, the element type of the matrices, and
//! the bound that keeps what a thread holds in registers.

use crate::layout::encoding::Blocked;

use super::super::{CodegenError, DType, Result, Target};
use super::row_tile;

/// The most f32 a thread may hold of a row kernel's tiles and per-column vectors together:
/// past this they cannot stay in registers (255 per thread on NVIDIA).
pub const ROW_MAX_PER_THREAD: u64 = 128;

/// A configuration of a row kernel: the tile, the threads over it, and the element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RowConfig {
    /// Columns of the CTA's tile, a power of two: `≥ n` for the one-pass kernels, the chunk
    /// width for the looped ones (cross entropy).
    pub block_n: u32,
    /// Rows per CTA (a power of two).
    pub rows_per_cta: u32,
    /// Consecutive columns per thread and access (16 bytes: 4 f32, 8 bf16 or f16).
    pub per_thread: u32,
    /// Warps per CTA.
    pub num_warps: u32,
    /// What `n` is promised to be a multiple of (1, 2, 4, 8 or 16), recorded in the signature
    /// and checked at launch: rows start at `r * n`, so accesses are only as wide as this allows.
    pub n_divisibility: u32,
    /// The element type of the row matrices in memory: f32, f16 or bf16 (computed in f32).
    pub dtype: DType,
}

impl RowConfig {
    /// The configuration for rows of `n` columns of `dtype`: `block_n = n.next_power_of_two()`,
    /// `per_thread` one 16-byte vector (capped at `block_n`), `n_divisibility` the largest
    /// power of two ≤ 16 dividing `n`, and warps enough for at most 16 elements of a row per
    /// thread (1 to 32), one row per CTA.
    pub fn for_n(n: u32, dtype: DType) -> RowConfig {
        let (block_n, n_divisibility) = row_tile::for_n(n);
        let per_thread = (16 / dtype.mem_bytes().max(1) as u32)
            .clamp(1, 8)
            .min(block_n);
        let num_warps = (block_n / (32 * 16)).clamp(1, 32);
        RowConfig {
            block_n,
            rows_per_cta: 1,
            per_thread,
            num_warps,
            n_divisibility,
            dtype,
        }
    }

    /// This configuration with warps enough for `elems` elements of the tile per thread (1 to
    /// `max_warps`, at most 32): what sets the registers a thread needs, and so how many CTAs
    /// share an SM ([`crate::codegen::occupancy`]).
    pub fn with_elems_per_thread(self, elems: u32, max_warps: u32) -> RowConfig {
        let tile = self.block_n as u64 * self.rows_per_cta as u64;
        let warps = (tile / (32 * elems.max(1) as u64)).clamp(1, max_warps.clamp(1, 32) as u64);
        RowConfig {
            num_warps: (warps as u32).next_power_of_two().min(32),
            ..self
        }
    }

    /// The grid for `m` rows: `m.div_ceil(rows_per_cta)` CTAs.
    pub fn grid(&self, m: usize) -> u32 {
        row_tile::grid(m, self.rows_per_cta)
    }

    /// Whether a one-pass kernel of this configuration covers an `m × n` matrix: `n ≤ block_n`,
    /// `n` a multiple of `n_divisibility`, `m · n < 2^31` (offsets are i32), neither empty.
    pub fn check_shape(&self, op: &'static str, m: usize, n: usize) -> Result<()> {
        row_tile::check_shape(op, self.block_n, self.n_divisibility, m, n)
    }

    /// The tile's `Blocked` layout ([`row_tile`]'s, Triton's choice), after checking every size
    /// and that `tiles` f32 tiles and `vectors` f32 per-column vectors (weights, column
    /// accumulators) fit [`ROW_MAX_PER_THREAD`] per thread. `op` names the kernel in errors.
    pub fn layout(
        &self,
        op: &'static str,
        target: Target,
        tiles: u64,
        vectors: u64,
    ) -> Result<Blocked> {
        if !matches!(self.dtype, DType::F32 | DType::F16 | DType::BF16) {
            return Err(CodegenError::arg(
                op,
                format!(
                    "dtype {}: the row kernels take f32, f16 or bf16",
                    self.dtype
                ),
            ));
        }
        let l = row_tile::checked_layout(
            op,
            target,
            [
                self.block_n,
                self.rows_per_cta,
                self.per_thread,
                self.num_warps,
                self.n_divisibility,
            ],
        )?;
        let (rows, cols) = row_tile::held(&l, [self.rows_per_cta as u64, self.block_n as u64]);
        let total = tiles * rows * cols + vectors * cols;
        if total > ROW_MAX_PER_THREAD {
            return Err(CodegenError::arg(
                op,
                format!(
                    "{tiles} tile(s) of {} × {} and {vectors} row vector(s) over {} threads hold \
                     {total} f32 per thread, more than {ROW_MAX_PER_THREAD} (the registers would \
                     spill): use more warps or fewer rows",
                    self.rows_per_cta,
                    self.block_n,
                    target.warp_size() * self.num_warps,
                ),
            ));
        }
        Ok(l)
    }
}
