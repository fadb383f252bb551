//! Configurations of the row kernels per device and shape: each kernel's candidate
//! [`RowConfig`]s for `runtime::autotune` to time, the autotuner's choice read back from its
//! disk cache, and a default (no constant tuned on one GPU) where nothing was tuned.

use std::path::Path;

use crate::runtime::autotune::disk::{default_dir, fnv1a};
use crate::runtime::autotune::{DiskCache, EntryKey};

use super::super::{Context, DType, Kernel, Result, Target};
use super::cross_entropy::{cross_entropy_bwd_kernel, cross_entropy_fwd_kernel};
use super::layernorm::layernorm_rows_kernel;
use super::norm_backward::{norm_bwd_kernel, norm_bwd_shared_bytes, norm_bwd_staged_kernel, Norm};
use super::rmsnorm::{
    rmsnorm_kernel, rmsnorm_looped_kernel, rmsnorm_staged_kernel, rmsnorm_staged_shared_bytes,
    RmsNormOptions, RmsNormOutput,
};
use super::rope::{rope_kernel, RopeStyle};
use super::row_config::RowConfig;
use super::row_tile;
use super::softmax::softmax_rows_kernel;
use super::softmax_backward::softmax_bwd_kernel;
#[cfg(doc)]
use super::softmax_split::softmax_split_apply_kernel;
use super::softmax_split::softmax_split_stats_kernel;

/// A row kernel, with the options that change its code (and so its cache entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKernel {
    /// [`rmsnorm_kernel`].
    RmsNorm(RmsNormOptions),
    /// [`rmsnorm_looped_kernel`] (chunked: rows past what a tile holds).
    RmsNormLooped(RmsNormOptions),
    /// [`rmsnorm_staged_kernel`] (persistent, the next row block copied into shared memory
    /// while the current one is normalised).
    RmsNormStaged(RmsNormOptions),
    /// [`norm_bwd_kernel`].
    NormBwd(Norm),
    /// [`norm_bwd_staged_kernel`] (the next row block copied into shared memory while the
    /// current one is reduced).
    NormBwdStaged(Norm),
    /// [`softmax_bwd_kernel`].
    SoftmaxBwd,
    /// [`softmax_rows_kernel`] (one pass, any element type).
    SoftmaxFwd,
    /// [`layernorm_rows_kernel`] (one pass, any element type).
    LayernormFwd,
    /// [`softmax_split_stats_kernel`], the first of the split softmax (chunked; its second
    /// kernel, [`softmax_split_apply_kernel`], takes the same configuration).
    SoftmaxSplit,
    /// [`cross_entropy_fwd_kernel`] (chunked: `block_n` may be below `n`).
    CrossEntropyFwd,
    /// [`cross_entropy_bwd_kernel`] (chunked).
    CrossEntropyBwd,
    /// [`rope_kernel`] (its rows are a head's pairs: `n` is half the head size).
    Rope(RopeStyle),
}

/// The chunk widths the cross-entropy kernels are tuned over.
const CHUNKS: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// The rows per CTA and warps the candidates range over.
const ROWS: [u32; 3] = [1, 2, 4];
const ROPE_ROWS: [u32; 5] = [4, 8, 16, 32, 64];
const WARPS: [u32; 6] = [1, 2, 4, 8, 16, 32];

impl RowKernel {
    /// The autotuner's name of this kernel (its cache file): the kernel and its options.
    pub fn name(&self) -> String {
        match self {
            RowKernel::RmsNorm(o) | RowKernel::RmsNormLooped(o) | RowKernel::RmsNormStaged(o) => {
                let looped = match self {
                    RowKernel::RmsNormLooped(_) => "_looped",
                    RowKernel::RmsNormStaged(_) => "_staged",
                    _ => "",
                };
                let out = match o.output {
                    RmsNormOutput::Same => "",
                    RmsNormOutput::Fp8RowScale => "_fp8_row",
                    RmsNormOutput::Fp8TensorScale => "_fp8_tensor",
                };
                let res = if o.residual { "_residual" } else { "" };
                format!("rmsnorm{looped}{res}{out}")
            }
            RowKernel::NormBwd(Norm::Rms) => "rmsnorm_bwd".into(),
            RowKernel::NormBwd(Norm::Layer) => "layernorm_bwd".into(),
            RowKernel::NormBwdStaged(Norm::Rms) => "rmsnorm_bwd_staged".into(),
            RowKernel::NormBwdStaged(Norm::Layer) => "layernorm_bwd_staged".into(),
            RowKernel::SoftmaxBwd => "softmax_bwd".into(),
            RowKernel::SoftmaxFwd => "softmax_rows".into(),
            RowKernel::LayernormFwd => "layernorm_rows".into(),
            RowKernel::SoftmaxSplit => "softmax_split".into(),
            RowKernel::CrossEntropyFwd => "cross_entropy_fwd".into(),
            RowKernel::CrossEntropyBwd => "cross_entropy_bwd".into(),
            RowKernel::Rope(RopeStyle::Interleaved) => "rope_interleaved".into(),
            RowKernel::Rope(RopeStyle::HalfRotated) => "rope_half_rotated".into(),
        }
    }

    fn chunked(&self) -> bool {
        matches!(
            self,
            RowKernel::CrossEntropyFwd
                | RowKernel::CrossEntropyBwd
                | RowKernel::RmsNormLooped(_)
                | RowKernel::SoftmaxSplit
        )
    }

    /// The kernel of configuration `c`.
    pub fn build<'c>(&self, ctx: &'c Context, target: Target, c: RowConfig) -> Result<Kernel<'c>> {
        match *self {
            RowKernel::RmsNorm(o) => rmsnorm_kernel(ctx, target, c, o),
            RowKernel::RmsNormLooped(o) => rmsnorm_looped_kernel(ctx, target, c, o),
            RowKernel::RmsNormStaged(o) => rmsnorm_staged_kernel(ctx, target, c, o),
            RowKernel::NormBwd(norm) => norm_bwd_kernel(ctx, target, c, norm),
            RowKernel::NormBwdStaged(norm) => norm_bwd_staged_kernel(ctx, target, c, norm),
            RowKernel::SoftmaxBwd => softmax_bwd_kernel(ctx, target, c),
            RowKernel::SoftmaxFwd => softmax_rows_kernel(ctx, target, c),
            RowKernel::LayernormFwd => layernorm_rows_kernel(ctx, target, c),
            RowKernel::SoftmaxSplit => softmax_split_stats_kernel(ctx, target, c),
            RowKernel::CrossEntropyFwd => cross_entropy_fwd_kernel(ctx, target, c),
            RowKernel::CrossEntropyBwd => cross_entropy_bwd_kernel(ctx, target, c),
            RowKernel::Rope(style) => rope_kernel(ctx, target, c, style),
        }
    }

    /// The configuration where nothing was tuned: [`RowConfig::for_n`] (one row per CTA, one
    /// 16-byte vector per access), with the warps that `examples/row_occupancy` predicts keep
    /// the most bytes in flight per sm_90 SM at `bench_rows`' shapes (bf16, 4K–16K columns):
    /// RMSNorm forward and backward 16 elements of a row a thread up to 16 warps, layer norm
    /// (forward and backward) and the staged kernels 32 (64 KB in flight at every width, no spills: 16K rows over 32 warps leave one
    /// CTA an SM forward and spill backward); the looped kernels chunks of at most 8192
    /// columns over 8 warps (four to five CTAs an SM), cross entropy's backward (one tile, no
    /// loop) over 16; RoPE 4 warps over as many rows as take one vector a thread; the others 16
    /// elements a thread.
    pub fn default_config(&self, n: u32, dtype: DType) -> RowConfig {
        let c = RowConfig::for_n(n, dtype);
        match self {
            RowKernel::RmsNorm(_) | RowKernel::NormBwd(Norm::Rms) => {
                c.with_elems_per_thread(16, 16)
            }
            // Layer norm's extra statistic takes 76 registers at 16 elements a thread (one
            // 512-thread CTA an SM at 8K), and the staged kernels' copies 92 (RMSNorm); at 32
            // elements they take 128 (two 256-thread CTAs).
            RowKernel::NormBwd(Norm::Layer)
            | RowKernel::NormBwdStaged(_)
            | RowKernel::RmsNormStaged(_)
            | RowKernel::LayernormFwd => c.with_elems_per_thread(32, 16),
            // One tile, no loop: 16 warps keep it at 32 registers (64 KB in flight).
            RowKernel::CrossEntropyBwd => RowConfig {
                block_n: c.block_n.min(8192),
                ..c
            }
            .with_elems_per_thread(16, 32),
            // A head's pairs are a short row: as many rows a CTA as its 4 warps take a 16-byte
            // vector each of (a one-warp CTA of one 64-pair row would leave the SM idle).
            RowKernel::Rope(_) => RowConfig {
                rows_per_cta: (4 * 32 * c.per_thread / c.block_n).max(1),
                num_warps: 4,
                ..c
            },
            _ if self.chunked() => RowConfig {
                block_n: c.block_n.min(8192),
                ..c
            }
            .with_elems_per_thread(32, 32),
            _ => c,
        }
    }

    /// The candidates the autotuner times for rows of `n` of `dtype` on `target`: rows per CTA
    /// 1, 2, 4 (RoPE 4 to 64); one or two 16-byte vectors per access; 1 to 32 warps; chunks of 2K–32K columns
    /// for the chunked kernels; less those this kernel refuses (registers) and those whose
    /// threads would hold copies (more threads × elements than the tile). The default
    /// ([`RowKernel::default_config`]) is among them where it fits.
    pub fn candidates(&self, n: u32, dtype: DType, target: Target) -> Vec<RowConfig> {
        let base = RowConfig::for_n(n, dtype);
        let vec = base.per_thread;
        let block_ns: Vec<u32> = if self.chunked() {
            CHUNKS
                .iter()
                .copied()
                .filter(|&b| b <= base.block_n)
                .collect()
        } else {
            vec![base.block_n]
        };
        // RoPE's rows (a head's pairs) are short: more of them a CTA.
        let row_counts: &[u32] = match self {
            RowKernel::Rope(_) => &ROPE_ROWS,
            _ => &ROWS,
        };
        let mut out = vec![];
        for &block_n in &block_ns {
            for &rows_per_cta in row_counts {
                for per_thread in [vec, 2 * vec] {
                    for num_warps in WARPS {
                        let c = RowConfig {
                            block_n,
                            rows_per_cta,
                            per_thread: per_thread.min(block_n),
                            num_warps,
                            ..base
                        };
                        let threads = (target.warp_size() * num_warps) as u64;
                        let fills =
                            threads * c.per_thread as u64 <= rows_per_cta as u64 * block_n as u64;
                        if fills && !out.contains(&c) && self.fits(target, c) {
                            out.push(c);
                        }
                    }
                }
            }
        }
        let d = self.default_config(n, dtype);
        if !out.contains(&d) && self.fits(target, d) {
            out.push(d);
        }
        out
    }

    /// Whether `c` passes the kernel's own checks (without building the kernel: the layout
    /// and register bound only).
    fn fits(&self, target: Target, c: RowConfig) -> bool {
        let (tiles, vectors) = match self {
            RowKernel::RmsNorm(o) => (1 + o.residual as u64, 1),
            RowKernel::RmsNormStaged(o) => {
                if rmsnorm_staged_shared_bytes(&c, *o) > target.max_shared_bytes() as u64 {
                    return false;
                }
                (1 + o.residual as u64, 1)
            }
            RowKernel::NormBwd(norm) | RowKernel::NormBwdStaged(norm) => {
                // The column sums (and stages) in shared memory.
                let staged = matches!(self, RowKernel::NormBwdStaged(_));
                if norm_bwd_shared_bytes(&c, *norm, staged) > target.max_shared_bytes() as u64 {
                    return false;
                }
                (2, 1)
            }
            RowKernel::LayernormFwd => (1, 2),
            // The pair's two halves and its cos and sin.
            RowKernel::Rope(_) => (4, 0),
            RowKernel::SoftmaxBwd | RowKernel::RmsNormLooped(_) | RowKernel::CrossEntropyFwd => {
                (2, 0)
            }
            _ => (1, 0),
        };
        c.layout("row_candidates", target, tiles, vectors).is_ok()
    }

    /// The autotuner's key for rows of `n` of `dtype` (one choice per key).
    pub fn key(n: u32, dtype: DType) -> String {
        format!("n={n} {dtype}")
    }

    /// The choice the autotuner made for this kernel, rows of `n` of `dtype` on device `name`
    /// with driver `driver`, read from its disk cache in `dir` (else the default cache
    /// directory, `$WEFT_CACHE_DIR` first), when one was made over these candidates.
    pub fn tuned(
        &self,
        n: u32,
        dtype: DType,
        target: Target,
        device: (&str, &str),
        dir: Option<&Path>,
    ) -> Option<RowConfig> {
        let candidates = self.candidates(n, dtype, target);
        let labels: Vec<String> = candidates.iter().map(|c| format!("{c:?}")).collect();
        let dir = dir.map(Path::to_path_buf).or_else(default_dir)?;
        let key = EntryKey {
            configs_hash: fnv1a(labels.join("\n").as_bytes()),
            device: device.0.to_string(),
            driver: device.1.to_string(),
            key: Self::key(n, dtype),
        };
        let (entry, _) = DiskCache::new(&dir, &self.name()).get(&key);
        let entry = entry?;
        labels
            .iter()
            .position(|l| *l == entry.config)
            .map(|i| candidates[i])
    }

    /// The kernel for rows of `n` of `dtype`: the autotuner's cached choice for `device`
    /// (name, driver) when there is one, else [`RowKernel::default_config`]. Returns the
    /// configuration too (its grid and shape checks).
    pub fn kernel_for_shape<'c>(
        &self,
        ctx: &'c Context,
        target: Target,
        n: u32,
        dtype: DType,
        device: Option<(&str, &str)>,
    ) -> Result<(Kernel<'c>, RowConfig)> {
        let c = device
            .and_then(|d| self.tuned(n, dtype, target, d, None))
            .unwrap_or_else(|| self.default_config(n, dtype));
        let (_, div) = row_tile::for_n(n);
        let c = RowConfig {
            n_divisibility: div,
            ..c
        };
        Ok((self.build(ctx, target, c)?, c))
    }
}
