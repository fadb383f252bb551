//! `block_offsets(block, layout)`: the element indices of this program's block of a tile, one
//! index vector per dimension shaped to broadcast against the others. Gluon writes each as
//! `gl.program_id(d) * BLOCK + gl.arange(0, BLOCK, gl.SliceLayout(…, layout))[:, None]`; the
//! slices and `expand_dims` that make the vectors land back in `layout` are the same every
//! time, so they are made here once.

use crate::layout::encoding::{Encoding, Slice};

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::values::Value;

impl KernelBuilder<'_> {
    /// For each dimension `d` of a tile of shape `block` laid out in `layout`, the `i32`
    /// indices `program_id(d) · block[d] + 0..block[d]`, of shape `block[d]` along `d` and 1
    /// along every other dimension, in `layout` (broadcasting them together gives the whole
    /// block). Rank 1 to 3, one grid axis per dimension.
    ///
    /// ```
    /// # use weft::codegen::{Context, KernelBuilder, Result, Target};
    /// # use weft::layout::encoding::Blocked;
    /// # fn main() -> Result<()> {
    /// # let ctx = Context::new();
    /// let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4)?;
    /// let rows = Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]);
    /// // ix: [64, 1] rows of program (x, y)'s 64 × 32 block, iy: [1, 32] its columns.
    /// let [ix, iy] = kb.block_offsets([64, 32], rows)?;
    /// assert_eq!((kb.shape(ix)?, kb.shape(iy)?), (vec![64, 1], vec![1, 32]));
    /// # Ok(()) }
    /// ```
    #[track_caller]
    pub fn block_offsets<const R: usize>(
        &mut self,
        block: [i32; R],
        layout: impl Into<Encoding>,
    ) -> Result<[Value; R]> {
        if !(1..=3).contains(&R) {
            return Err(CodegenError::arg(
                "block_offsets",
                format!("rank {R}: a block has one dimension per grid axis, 1 to 3"),
            ));
        }
        let layout = layout.into();
        // The same phases as the hand-written form: program ids, index vectors, offsets, shapes.
        let mut pids = Vec::with_capacity(R);
        for d in 0..R {
            pids.push(self.program_id(d as u32)?);
        }
        let mut out = Vec::with_capacity(R);
        for (d, &size) in block.iter().enumerate() {
            out.push(self.arange(0, size, sliced_to(&layout, R, d))?);
        }
        for ((v, &pid), &size) in out.iter_mut().zip(&pids).zip(&block) {
            let start = self.mul(pid, size)?;
            *v = self.add(start, *v)?;
        }
        for (d, v) in out.iter_mut().enumerate() {
            for other in (0..R).filter(|&o| o != d) {
                *v = self.expand_dims(*v, other)?;
            }
        }
        out.try_into()
            .map_err(|_| CodegenError::arg("block_offsets", "lost a dimension"))
    }
}

/// `layout` with every dimension but `keep` sliced away (the highest first), so that expanding
/// the others back in increasing order returns to `layout`.
fn sliced_to(layout: &Encoding, rank: usize, keep: usize) -> Encoding {
    (0..rank)
        .rev()
        .filter(|&d| d != keep)
        .fold(layout.clone(), |l, d| Slice::new(d as u32, l).into())
}
