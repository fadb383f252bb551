//! V transposed in shared memory, for fp8 attention: fp8 wgmma reads B K-major only, so `P·V`
//! needs `Vᵀ` (keys contiguous) while callers hold V as `[seq, D]` rows like Q and K. A
//! warpgroup turns each `[keys, D]` tile that TMA landed (in 32-column boxes, 32-byte swizzle)
//! into the `[D, keys]` tile the wgmma reads (128-byte swizzle), 32 columns of D at a time.
//!
//! Each thread moves a 4 × 4 block of bytes per register group: it loads four consecutive
//! columns of one key as one 32-bit word (the load layout's first register bits run along D),
//! and stores four consecutive keys of one column as one word (the store layout's run along
//! the keys). Between the two, `convert_layout` finds that only the order of the registers
//! differs (same lanes, same warps), so the transpose costs no shuffle and no shared round trip
//! beyond the one load and one store of each byte.

use crate::codegen::{CodegenError, KernelBuilder, Result, Value};
use crate::layout::encoding::NvmmaShared;
use crate::layout::LinearLayout;

/// Columns of D per TMA box and per transposed chunk (one 32-byte swizzle row of bytes).
pub const V_CHUNK: u32 = 32;

/// The transposition of one key block of V by one warpgroup (see the module docs).
#[derive(Debug, Clone)]
pub struct VTranspose {
    /// Keys per block.
    pub block_n: u32,
    /// The head dimension (a multiple of [`V_CHUNK`]).
    pub head_dim: u32,
    /// Per thread: four columns of one key in registers 0–3 (loads).
    load: LinearLayout,
    /// Per thread: four keys of one column in registers 0–3 (stores).
    store: LinearLayout,
}

impl VTranspose {
    /// The layouts for `block_n` keys (128: four warps of 32 keys) and a head dimension that is a
    /// multiple of 32.
    pub fn new(block_n: u32, head_dim: u32) -> Result<VTranspose> {
        if block_n != 128 || head_dim == 0 || !head_dim.is_multiple_of(V_CHUNK) {
            return Err(CodegenError::arg(
                "VTranspose::new",
                format!("block_n {block_n}, head_dim {head_dim}: 128 keys, D a multiple of 32"),
            ));
        }
        // A chunk is [block_n keys, 32 columns]: (key, column) basis vectors.
        let (k, c) = (|x: u64| vec![x, 0], |x: u64| vec![0, x]);
        // Lanes: columns 4, 8 and keys 4, 8, 16 (a store's 32 lanes write 16 different banks);
        // warps: keys 32, 64; the fifth register bit: column 16.
        let lanes = vec![c(4), c(8), k(4), k(8), k(16)];
        let warps = vec![k(32), k(64)];
        let layout = |regs: Vec<Vec<u64>>| -> Result<LinearLayout> {
            Ok(LinearLayout::from_bases(
                [
                    ("register", regs),
                    ("lane", lanes.clone()),
                    ("warp", warps.clone()),
                    ("block", vec![]),
                ],
                [("dim0", u64::from(block_n)), ("dim1", u64::from(V_CHUNK))],
                true,
            )?)
        };
        Ok(VTranspose {
            block_n,
            head_dim,
            load: layout(vec![c(1), c(2), k(1), k(2), c(16)])?,
            store: layout(vec![k(1), k(2), c(1), c(2), c(16)])?,
        })
    }

    /// The layout of a staging box: `[block_n, 32]` bytes, 32-byte swizzle (TMA's
    /// `SWIZZLE_32B` for a 32-byte inner box).
    pub fn staging_layout() -> NvmmaShared {
        NvmmaShared::new(V_CHUNK, 8, 2, false)
    }

    /// Staging boxes per key block (one staging ring each).
    pub fn chunks(&self) -> i32 {
        (self.head_dim / V_CHUNK) as i32
    }

    /// Reads stage `st` of the `chunks()` staging rings (`staging[ch]`: box `ch`, `[block_n,
    /// 32]`, of each stage) and writes them transposed into `vt` (`[D, block_n]`), then fences
    /// the writes for the async proxy (a wgmma reads them next). The caller has waited for the
    /// boxes to land and for `vt` to be free, and signals the readers after.
    pub fn run(
        &self,
        kb: &mut KernelBuilder<'_>,
        staging: &[Value],
        st: Value,
        vt: Value,
    ) -> Result<()> {
        if staging.len() != self.chunks() as usize {
            return Err(CodegenError::arg(
                "VTranspose::run",
                format!(
                    "{} staging rings for {} chunks",
                    staging.len(),
                    self.chunks()
                ),
            ));
        }
        for (ch, &ring) in staging.iter().enumerate() {
            let src = kb.index_shared(ring, st)?;
            let t = kb.load_shared(src, &self.load)?;
            let t = kb.convert_layout(t, &self.store)?;
            let start = u64::from(V_CHUNK) * ch as u64;
            let dst = kb.slice_shared(vt, 0, start, u64::from(V_CHUNK))?;
            let dst = kb.permute_shared(dst, &[1, 0])?;
            kb.store_shared(dst, t)?;
        }
        kb.fence_async_shared()
    }
}
