//! The merge of split-KV attention as a kernel of its own: each of `splits` programs attended to
//! one share of the keys and wrote its row's `O_s` (normalised by its own sum) and log-sum-exp
//! `lse_s`; the whole row is `O = Σ_s e^(lse_s - m) O_s / Σ_s e^(lse_s - m)` and `lse = m + ln
//! Σ_s e^(lse_s - m)` with `m = max_s lse_s` ([`SplitMerge`](super::parts::SplitMerge), which the
//! paged decode kernel also runs in its last split's CTA). A split that saw no key (`lse_s =
//! -inf`) weighs nothing; a row no split saw a key of gets O = 0 and lse = -inf.
//!
//! Any split-KV kernel can use it: partials `o_part [splits, rows, D]` and `lse_part [splits,
//! rows]` f32, output `o [rows, D]` in `dtype` and `lse [rows]` f32. Parameters: `o_part: *f32,
//! lse_part: *f32, o: *T, lse: *f32, rows: i32, splits: i32`. Grid: [`CombineConfig::grid`].
//!
//! The tiling follows the split count ([`CombineConfig::new`]): a program loads up to 16 splits
//! at once (one memory round trip for all, where a loop over single splits would wait out one
//! per split), and with few splits it takes several rows (at one split, 32 rows of D 128), so a
//! large batch is a few hundred programs with every thread busy rather than one program a row.

use super::super::{CodegenError, DType, Kernel, KernelBuilder, Result, Target};
use super::parts::{merge_tile, SplitMerge, MERGE_ELEMS_PER_THREAD};
use super::{check_pow2, Context};

/// The op name in errors.
const OP: &str = "split_kv_combine_kernel";

/// Splits a program loads at once, at most.
const MAX_SPLIT_BLOCK: u32 = 16;

/// The tiling of [`split_kv_combine_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CombineConfig {
    /// The output's type: f16, bf16 or f32.
    pub dtype: DType,
    /// Elements of a row (a power of two, 16..=256).
    pub head_dim: u32,
    /// Splits loaded at once (a power of two, 1..=32); any split count runs, in blocks of this.
    pub split_block: u32,
    /// Rows per program (a power of two; `rows · head_dim` at most 8192).
    pub rows: u32,
    /// Warps per program (1, 2 or 4).
    pub num_warps: u32,
}

impl CombineConfig {
    /// The tiling for partials of `splits` splits (any count still runs): up to 16 splits at
    /// once, rows filling 32 elements a thread of up to 4 warps.
    pub fn new(dtype: DType, head_dim: u32, splits: u32) -> CombineConfig {
        let cap = splits.clamp(1, MAX_SPLIT_BLOCK).next_power_of_two();
        let (split_block, cols) = merge_tile(128, MERGE_ELEMS_PER_THREAD, head_dim, u32::MAX, cap);
        let d = head_dim.max(1);
        CombineConfig {
            dtype,
            head_dim,
            split_block,
            rows: (cols / d).max(1),
            num_warps: (cols / 128).clamp(1, 4),
        }
    }

    /// The grid for `rows` rows: one program per [`rows`](Self::rows) of them (a count past
    /// `u32` saturates, and the launch refuses it).
    pub fn grid(&self, rows: u64) -> (u32, u32, u32) {
        let programs = rows.div_ceil(u64::from(self.rows.max(1)));
        (u32::try_from(programs).unwrap_or(u32::MAX), 1, 1)
    }

    fn check(&self) -> Result<()> {
        check_pow2(OP, "head_dim", u64::from(self.head_dim), 16, 256)?;
        check_pow2(OP, "split_block", u64::from(self.split_block), 1, 32)?;
        check_pow2(OP, "num_warps", u64::from(self.num_warps), 1, 4)?;
        check_pow2(OP, "rows", u64::from(self.rows), 1, 512)?;
        if !matches!(self.dtype, DType::F16 | DType::BF16 | DType::F32) {
            return Err(CodegenError::arg(
                OP,
                format!("dtype {}: f16, bf16 or f32", self.dtype),
            ));
        }
        if self.rows * self.head_dim > 8192 || self.split_block * self.rows * self.head_dim > 8192 {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "{} rows × {} splits × head_dim {}: at most 8192 elements a tile",
                    self.rows, self.split_block, self.head_dim
                ),
            ));
        }
        Ok(())
    }
}

/// Builds the split-KV merge with tiling `c`. See the module docs.
pub fn split_kv_combine_kernel(
    ctx: &Context,
    target: Target,
    c: CombineConfig,
) -> Result<Kernel<'_>> {
    c.check()?;
    let mut kb = KernelBuilder::new(ctx, target, "split_kv_combine", c.num_warps)?;
    let o_part = kb.arg_ptr("o_part", DType::F32, 16)?;
    let lse_part = kb.arg_ptr("lse_part", DType::F32, 4)?;
    let o = kb.arg_ptr("o", c.dtype, 16)?;
    let lse = kb.arg_ptr("lse", DType::F32, 4)?;
    let n_rows = kb.arg_i32("rows", 1)?;
    let splits = kb.arg_i32("splits", 1)?;
    let merge = SplitMerge::new(
        [o_part, lse_part],
        [n_rows, splits],
        c.head_dim,
        [c.split_block, c.rows * c.head_dim],
        c.num_warps,
    );
    let pid = kb.program_id(0)?;
    let first = kb.mul(pid, c.rows as i32)?;
    let rows = |kb: &mut KernelBuilder<'_>, r| {
        let row = kb.add(r, first)?;
        Ok((row, kb.lt(row, n_rows)?))
    };
    merge.merge_into(&mut kb, rows, [o, lse], c.dtype)?;
    kb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tiling_follows_the_splits() {
        // One split: 32 rows of D 128 over 4 warps; 2 splits: 16 rows.
        let c = CombineConfig::new(DType::BF16, 128, 1);
        assert_eq!((c.split_block, c.rows, c.num_warps), (1, 32, 4));
        assert_eq!(c.grid(4096), (128, 1, 1));
        let c = CombineConfig::new(DType::BF16, 128, 2);
        assert_eq!((c.split_block, c.rows, c.num_warps), (2, 16, 4));
        // 3 splits take a block of 4; 33 splits blocks of 8 on 4 rows.
        assert_eq!(CombineConfig::new(DType::BF16, 128, 3).split_block, 4);
        let c = CombineConfig::new(DType::BF16, 128, 33);
        assert_eq!((c.split_block, c.rows, c.num_warps), (8, 4, 4));
        assert_eq!(c.grid(33), (9, 1, 1));
        for s in [0, 1, 2, 5, 16, 64, 1000] {
            for d in [16, 64, 128, 256] {
                let c = CombineConfig::new(DType::F32, d, s);
                assert!(c.check().is_ok(), "{c:?}");
            }
        }
    }
}
