//! What happens to a finished accumulator tile.

use crate::codegen::{DType, KernelBuilder, Result, Value};

/// Takes a tile's finished accumulator to global memory at `origin` (its first row and
/// column). Implement it to fuse work into a GEMM (bias, activation, residual, scales) and end
/// with a [`TmaStore`] or a masked store.
pub trait Epilogue {
    /// Emits the epilogue of one tile.
    fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, origin: [Value; 2]) -> Result<()>;
}

/// The accumulator cast to `out` (unless f32), written to a swizzled shared `staging` buffer and
/// TMA-stored through `map`. With `reused`, waits first until the previous tile's stores have
/// read the staging buffer (persistent and warp-specialised kernels store several tiles).
#[derive(Debug, Clone, Copy)]
pub struct TmaStore {
    /// The shared buffer of one output tile.
    pub staging: Value,
    /// The output's tensor map.
    pub map: Value,
    /// The output's element type.
    pub out: DType,
    /// Whether an earlier tile's store may still be reading `staging`.
    pub reused: bool,
}

impl Epilogue for TmaStore {
    fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, origin: [Value; 2]) -> Result<()> {
        let tile = if self.out == DType::F32 {
            acc
        } else {
            kb.cast(acc, self.out)?
        };
        if self.reused {
            kb.tma_store_wait(0)?;
            kb.barrier()?;
        }
        kb.store_shared(self.staging, tile)?;
        kb.fence_async_shared()?;
        kb.barrier()?;
        kb.tma_store(self.map, &origin, self.staging)
    }
}
