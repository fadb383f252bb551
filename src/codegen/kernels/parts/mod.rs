//! The pieces the shipped Hopper kernels are built from, public so a kernel author can recombine
//! them: a TMA ring of shared-memory stages guarded by mbarriers ([`TmaRing`]), the tile grid and
//! its launch orders ([`TileGrid`]; a grouped GEMM's expert by expert: [`Groups`]), the GEMM main loops with a per-K-block hook
//! ([`gemm_mainloop`], [`gemm_mainloop_ws`]), the main loop that scales each K block's partial
//! product as it is promoted ([`gemm_mainloop_ws_scaled`], [`BlockScale`]) and the epilogue that takes an accumulator to global
//! memory ([`Epilogue`], [`TmaStore`]); for attention, the parameters and query block of a program
//! ([`AttentionParams`], [`QueryBlock`]), the online softmax of a key block with its masking
//! ([`OnlineSoftmax`], [`Masking`], [`StepOptions`]) and the store of `O / l` and the log-sum-exp
//! ([`AttentionParams::store_output`]; from registers: [`OutputRows`]), V transposed in shared memory for fp8's `P·V`
//! ([`VTranspose`]), and split-K with its partials summed in split order, by a reduction kernel or by
//! the last program of each tile ([`split_range`], [`PartialStore`], [`SplitFinish`], [`pick_splits`]);
//! the log-sum-exp merge of split-KV attention partials ([`SplitMerge`], [`merge_tile`]).
//!
//! Each part is a few builder calls with their bookkeeping (stage and phase arithmetic, grouped
//! tile origins, the staging buffer's reuse) written once; nothing here is more than the builder
//! can do, so a part can always be replaced by the calls it makes.
//!
//! A GEMM with a fused epilogue (bias and SiLU before the store) is the shipped GEMM's parts
//! with one more [`Epilogue`]:
//!
//! ```
//! use weft::codegen::kernels::parts::{self, Epilogue, TmaRing, TmaStore};
//! use weft::codegen::kernels::{alloc_buffers, declare_params, GemmConfig};
//! use weft::codegen::{Context, DType, KernelBuilder, Result, Target, Value};
//! use weft::layout::encoding::{NvidiaMma, Slice};
//!
//! /// `silu(acc + bias[column])`, then the plain store.
//! struct BiasSilu { bias: Value, layout: NvidiaMma, cols: i32, store: TmaStore }
//!
//! impl Epilogue for BiasSilu {
//!     fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, at: [Value; 2]) -> Result<()> {
//!         let cols = kb.arange(0, self.cols, Slice::new(0, self.layout.clone().into()))?;
//!         let cols = kb.add(cols, at[1])?;
//!         let ptrs = kb.add(self.bias, cols)?;
//!         let bias = kb.load(ptrs, None, None)?;
//!         let bias = kb.expand_dims(bias, 0)?;
//!         let x = kb.add(acc, bias)?;
//!         let e = kb.neg(x)?;
//!         let e = kb.exp(e)?;
//!         let d = kb.add(e, 1.0)?;
//!         let y = kb.div(x, d)?;
//!         self.store.store(kb, y, at)
//!     }
//! }
//!
//! # fn main() -> Result<()> {
//! let ctx = Context::new();
//! let c = GemmConfig::new(DType::F16);
//! let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "gemm_bias_silu", c.num_warps)?;
//! let [a_map, b_map, c_map, m, n, k] = declare_params(&mut kb, &c)?;
//! let bias = kb.arg_ptr("bias", DType::F32, 16)?;
//! let pid = kb.program_id(0)?;
//! let (grid, k_tiles) = c.tiles(&mut kb, [m, n, k])?;
//! let [a_ring, b_ring, c_smem] = alloc_buffers(&mut kb, &c)?;
//! let ring = TmaRing::new(&mut kb, c.stages, c.stage_bytes(), None)?;
//! let lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
//! let layout = NvidiaMma::hopper(&[c.num_warps, 1], c.block_n, 16);
//! let store = c.tma_store(c_smem, c_map, false);
//! let epilogue = BiasSilu { bias, layout, cols: c.block_n as i32, store };
//! parts::gemm_mainloop(&mut kb, &lp, pid, false, None, &epilogue)?;
//! kb.tma_store_wait(0)?;
//! let kernel = kb.finish()?;
//! # let _ = kernel; Ok(()) }
//! ```

mod attention;
mod epilogue;
mod gemm_loop;
mod groups;
mod promote;
mod ring;
mod split_k;
mod split_merge;
mod tiles;
mod v_transpose;

pub use attention::{
    AttentionParams, Masking, OnlineSoftmax, OutputRows, PackedHeads, QueryBlock, SeqLengths,
    StepOptions,
};
pub use epilogue::{Epilogue, TmaStore};
pub use gemm_loop::{gemm_mainloop, gemm_mainloop_ws, GemmLoop, KBlockHook, StagedScales};
pub use groups::{GroupRows, Groups};
pub use promote::{gemm_mainloop_ws_scaled, BlockScale};
pub use ring::TmaRing;
pub use split_k::{
    pick_splits, split_grid, split_range, split_tiles, PartialStore, SplitFinish, FINISH_MAX_TOKENS,
};
pub use split_merge::{merge_tile, SplitMerge, MERGE_ELEMS_PER_THREAD};
pub use tiles::{ceil_div, TileGrid};
pub use v_transpose::{VTranspose, V_CHUNK};
