//! What an op that makes a tile accepts as its layout: a [`LinearLayout`] for the exact tile, or a
//! shape-free distributed encoding (`Blocked`, `Slice`, `NvidiaMma`, …) that the builder lays out
//! for the tile's shape, as Gluon does.
//!
//! A tile made from an encoding remembers it. That is what lets `expand_dims` of a tile in
//! `Slice(d, parent)` land in `parent`, and `[M, 1] op [1, N]` broadcast to `[M, N]` when both
//! operands are such expansions of one parent: the builder lays `parent` out for the full shape.

use crate::layout::encoding::{
    AmdMfma, AmdWmma, Blocked, DistributedLinear, DotOperand, Encoding, NvidiaMma, Slice,
};
use crate::layout::LinearLayout;

use crate::codegen::error::{CodegenError, Result};

/// A layout argument. A tile made from an encoding remembers it, which is what lets
/// `expand_dims` of a tile in `Slice(d, parent)` land in `parent`, and `[M, 1] op [1, N]` broadcast
/// to `[M, N]` when both operands are such expansions of one parent.
///
/// - `&LinearLayout`: the tile's shape is the layout's out-dim sizes.
/// - an encoding (`&Blocked`, `&Slice`, `&Encoding`, …): the op supplies the shape (`arange`
///   knows it); ops that do not (`full`, `zeros`, `splat`, `broadcast_to`) take `(encoding, shape)`,
///   e.g. `kb.zeros((&blocked, [64, 64]), DType::F32)`.
pub trait IntoLayout {
    /// The linear layout for a tile of `shape` (`None` when the op has no shape of its own), and
    /// the encoding it came from. `op` names the op in errors.
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved>;
}

/// A layout argument resolved for one tile.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The tile's linear layout.
    pub linear: LinearLayout,
    /// The shape-free encoding it was made from, if any.
    pub encoding: Option<Encoding>,
}

impl IntoLayout for LinearLayout {
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
        if let Some(shape) = shape {
            let own: Vec<u64> = self.out_dims().map(|(_, s)| s).collect();
            if own != shape {
                return Err(CodegenError::BadLayout {
                    op,
                    reason: format!("the tile has shape {shape:?}, the layout {own:?} ({self:?})"),
                });
            }
        }
        Ok(Resolved {
            linear: self.clone(),
            encoding: None,
        })
    }
}

impl IntoLayout for Encoding {
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
        let Some(shape) = shape else {
            return Err(CodegenError::arg(
                op,
                format!(
                    "a {} has no shape of its own: pass (layout, shape), e.g. (&blocked, [64, 64])",
                    self.kind()
                ),
            ));
        };
        if !self.is_distributed() {
            return Err(CodegenError::BadLayout {
                op,
                reason: format!(
                    "a {} describes shared memory, not registers: a tile needs a distributed layout",
                    self.kind()
                ),
            });
        }
        Ok(Resolved {
            linear: self.to_linear_layout(shape)?,
            encoding: Some(self.clone()),
        })
    }
}

macro_rules! encoding_layout {
    ($($t:ty),*) => {$(
        impl IntoLayout for $t {
            fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
                Encoding::from(self.clone()).resolve(op, shape)
            }
        }
    )*};
}
encoding_layout!(
    Blocked,
    Slice,
    NvidiaMma,
    DotOperand,
    AmdMfma,
    AmdWmma,
    DistributedLinear
);

impl<T: IntoLayout + ?Sized> IntoLayout for &T {
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
        (**self).resolve(op, shape)
    }
}

impl<T: IntoLayout, const N: usize> IntoLayout for (T, [u64; N]) {
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
        (&self.0, &self.1[..]).resolve(op, shape)
    }
}

impl<T: IntoLayout> IntoLayout for (T, &[u64]) {
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
        if let Some(s) = shape {
            if s != self.1 {
                return Err(CodegenError::arg(
                    op,
                    format!("the tile has shape {s:?}, the layout argument {:?}", self.1),
                ));
            }
        }
        self.0.resolve(op, Some(self.1))
    }
}
