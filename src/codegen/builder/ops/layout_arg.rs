//! What an op that makes a tile accepts as its layout: a [`LinearLayout`] for the exact tile, or a
//! shape-free distributed encoding (`Blocked`, `Slice`, `NvidiaMma`, …) that the builder lays out
//! for the tile's shape, as Gluon does.
//!
//! A tile made from an encoding remembers it. That is what lets `expand_dims` of a tile in
//! `Slice(d, parent)` land in `parent`, and `[M, 1] op [1, N]` broadcast to `[M, N]` when both
//! operands are such expansions of one parent: the builder lays `parent` out for the full shape.

use crate::layout::encoding::{
    AmdMfma, AmdWmma, Blocked, DistributedLinear, DotOperand, Encoding, NvidiaMma, NvmmaShared,
    PaddedShared, SharedLinear, Slice, SwizzledShared,
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
                    "a {} describes {} memory, not registers: a tile needs a distributed layout",
                    self.kind(),
                    if self.is_tensor_memory() {
                        "tensor"
                    } else {
                        "shared"
                    }
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

/// What [`alloc_shared`](crate::codegen::KernelBuilder::alloc_shared) takes as a shared-memory
/// layout: a shared encoding (`SwizzledShared`, `NvmmaShared`, `PaddedShared`, `SharedLinear`,
/// or an [`Encoding`] holding one), laid out for the buffer's shape, or a [`LinearLayout`] with
/// in dim `offset` (and optionally a size-1 `block`) and out dims `dim0, dim1, …`.
pub trait IntoSharedLayout {
    /// The layout for a buffer of `shape`. `op` names the op in errors.
    fn resolve_shared(&self, op: &'static str, shape: &[u64]) -> Result<SharedResolved>;
}

/// A shared-memory layout resolved for one buffer.
#[derive(Debug, Clone)]
pub struct SharedResolved {
    /// Element offset (before padding) → tile coordinate; in dim `offset`.
    pub linear: LinearLayout,
    /// `(interval, padding)` pairs in elements of a padded layout (empty otherwise).
    pub padding: Vec<(u64, u64)>,
    /// How the layout was given, for messages.
    pub name: String,
}

impl IntoSharedLayout for LinearLayout {
    fn resolve_shared(&self, op: &'static str, shape: &[u64]) -> Result<SharedResolved> {
        let own: Vec<u64> = self.out_dims().map(|(_, s)| s).collect();
        if own != shape {
            return Err(CodegenError::BadLayout {
                op,
                reason: format!("the buffer has shape {shape:?}, the layout {own:?} ({self:?})"),
            });
        }
        Ok(SharedResolved {
            linear: self.clone(),
            padding: Vec::new(),
            name: "linear".into(),
        })
    }
}

impl IntoSharedLayout for Encoding {
    fn resolve_shared(&self, op: &'static str, shape: &[u64]) -> Result<SharedResolved> {
        if !self.is_shared() {
            return Err(CodegenError::BadLayout {
                op,
                reason: format!(
                    "a {} {}; shared memory needs a shared layout (swizzled, NVMMA, padded, shared linear)",
                    self.kind(),
                    if self.is_tensor_memory() {
                        "lays out Blackwell tensor memory"
                    } else {
                        "distributes a tile over registers"
                    }
                ),
            });
        }
        if let Encoding::PartitionedShared(_) = self {
            // Its pieces live in separate LDS partitions (a `partition` input besides `offset`): one
            // buffer cannot hold it.
            return Err(CodegenError::BadLayout {
                op,
                reason:
                    "a PartitionedSharedLayout spreads a buffer over separate LDS partitions; the \
                         builder allocates one buffer per layout"
                        .into(),
            });
        }
        if let Encoding::PaddedShared(p) = self {
            let pairs = p.interval_padding_pairs.clone();
            return Ok(SharedResolved {
                linear: p.linear_component()?,
                padding: pairs
                    .into_iter()
                    .map(|(i, p)| (i as u64, p as u64))
                    .collect(),
                name: self.kind().into(),
            });
        }
        Ok(SharedResolved {
            linear: self.to_linear_layout(shape)?,
            padding: Vec::new(),
            name: self.kind().into(),
        })
    }
}

macro_rules! shared_layout {
    ($($t:ty),*) => {$(
        impl IntoSharedLayout for $t {
            fn resolve_shared(&self, op: &'static str, shape: &[u64]) -> Result<SharedResolved> {
                Encoding::from(self.clone()).resolve_shared(op, shape)
            }
        }
    )*};
}
shared_layout!(SwizzledShared, NvmmaShared, PaddedShared, SharedLinear);

impl<T: IntoSharedLayout + ?Sized> IntoSharedLayout for &T {
    fn resolve_shared(&self, op: &'static str, shape: &[u64]) -> Result<SharedResolved> {
        (**self).resolve_shared(op, shape)
    }
}
