//! Where a tile's registers sit in a shared buffer: the offset layout `shared⁻¹ ∘ reg` and the
//! widest plain access it allows (pure: no inkwell).

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::types::DType;
use crate::layout::{Dim, LinearLayout};

/// Elements one plain `ld/st.shared` moves for registers at `offsets` ((register, lane, warp) →
/// element offset) in a buffer with `padding`: the contiguous registers, at most 16 bytes, never
/// across a padding interval.
pub(crate) fn plain_vector(offsets: &TileLayout, padding: &[(u64, u64)], elem: DType) -> u64 {
    let mut vec = offsets.contiguous_regs(0).min(16 / elem.mem_bytes()).max(1);
    if let Some(&(interval, _)) = padding.iter().min() {
        vec = vec.min(interval);
    }
    vec
}

/// `shared⁻¹ ∘ reg`: (register, lane, warp) → element offset, as a one-dim tile layout.
pub(crate) fn offset_layout(
    op: &'static str,
    reg: &TileLayout,
    shared: &LinearLayout,
    threads_per_warp: u32,
    num_warps: u32,
) -> Result<TileLayout> {
    let bad = |e: crate::layout::LayoutError| CodegenError::BadLayout {
        op,
        reason: format!("the tile layout {reg} and the shared layout {shared:?}: {e}"),
    };
    let composed = reg.ll.invert_and_compose(shared).map_err(bad)?;
    let composed = composed
        .rename_out_dim(Dim::OFFSET.as_str(), Dim::dim(0))
        .map_err(bad)?;
    TileLayout::new(op, &composed, threads_per_warp, num_warps)
}
