//! `slice_layout(tile, dim)`: the layout of one dimension of a tile, as the [`Slice`] that
//! `arange` and `expand_dims` need to make an index vector that broadcasts back against the tile
//! (Gluon's `gl.SliceLayout(dim, x.type.layout)`). A tile made from an encoding slices that
//! encoding; one that carries only a linear layout (after `split`, `join`, `reshape` or
//! `permute`) slices it as a [`DistributedLinear`] encoding, so both read the same.

use crate::layout::encoding::{DistributedLinear, Encoding, Slice};

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::Loc;
use crate::codegen::lower::values::Value;

impl KernelBuilder<'_> {
    /// The [`Slice`] of `v`'s layout along `dim`: the layout of a tile of `v`'s shape with
    /// `dim` removed, in which `expand_dims(_, dim)` lands back in `v`'s layout.
    #[track_caller]
    pub fn slice_layout(&self, v: Value, dim: usize) -> Result<Slice> {
        let at = Loc::from(std::panic::Location::caller());
        self.slice_layout_impl(v, dim).map_err(|e| e.at(at))
    }

    fn slice_layout_impl(&self, v: Value, dim: usize) -> Result<Slice> {
        let d = self.lx.values.peek("slice_layout", v)?;
        let Some(l) = d.layout.as_ref() else {
            return Err(CodegenError::InvalidType {
                op: "slice_layout",
                expected: "a tile (a scalar has no dimension to slice)".into(),
                value: d.describe(),
            });
        };
        if dim >= d.shape.len() {
            return Err(CodegenError::arg(
                "slice_layout",
                format!(
                    "dim {dim} is past rank {} of {}",
                    d.shape.len(),
                    d.describe()
                ),
            ));
        }
        let parent = match l.encoding.as_deref() {
            Some(e) if e.is_distributed() => e.clone(),
            _ => Encoding::Linear(DistributedLinear::from_linear_layout(&l.ll)?),
        };
        Ok(Slice::new(dim as u32, parent))
    }
}
