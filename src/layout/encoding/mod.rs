//! Triton's layout encodings (the `#ttg.*` attributes and Gluon's layout classes) and their linear layouts.
//!
//! Every encoding turns into the [`LinearLayout`] Triton 3.9 computes for a tensor shape, bit for bit,
//! including broadcast (tensor smaller than the layout's tile) and wrap-around (larger), and multi-CTA
//! layouts. Parameters are checked with Triton's rules first; a violation is
//! [`LayoutError::Invalid`] with a message `` `parameter`: rule ``.
//!
//! Distributed encodings map `register, lane, warp, block → dim0..`; shared encodings map
//! `offset, block → dim0..`; Blackwell tensor-memory encodings map `row, col, block → dim0, dim1`.

#![forbid(unsafe_code)]

mod amd_mfma;
mod amd_mfma_scale;
mod amd_rotating_shared;
mod amd_upcast_scale;
mod amd_wmma;
mod amd_wmma_scale;
mod blocked;
pub mod cga;
mod dot_operand;
mod efficient_padded;
pub mod helpers;
mod linear;
mod nvidia_mma;
mod nvmma_shared;
mod padded_shared;
mod partitioned_dot;
mod partitioned_shared;
mod shared_linear;
mod slice;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategy;
mod swizzled_shared;
mod tensor_memory;
mod tensor_memory_scales;
pub mod tmem_reg_layout;

pub use amd_mfma::AmdMfma;
pub use amd_mfma_scale::amd_mfma_scale_layout;
pub use amd_rotating_shared::AmdRotatingShared;
pub use amd_upcast_scale::scaled_upcast_fp4_scale_layout;
pub use amd_wmma::AmdWmma;
pub use amd_wmma_scale::{amd_wmma_scale_layout, WmmaScaleParams};
pub use blocked::Blocked;
pub use cga::{combine_cta_cga_with_shape, CgaLayout};
pub use dot_operand::DotOperand;
pub use efficient_padded::compute_efficient_padded_shared_layout;
pub use linear::DistributedLinear;
pub use nvidia_mma::NvidiaMma;
pub use nvmma_shared::NvmmaShared;
pub use padded_shared::PaddedShared;
pub use partitioned_dot::{
    make_partitioned_dot_layouts, PartitionedDotLayouts, PartitionedDotRequest,
};
pub use partitioned_shared::PartitionedShared;
pub use shared_linear::SharedLinear;
pub use slice::Slice;
pub use swizzled_shared::SwizzledShared;
pub use tensor_memory::TensorMemory;
pub use tensor_memory_scales::TensorMemoryScales;
pub use tmem_reg_layout::{tmem_reg_layout, TmemMessage};

use crate::layout::{LayoutError, LinearLayout, Result};

/// Any layout encoding Triton 3.9 and Gluon know.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Encoding {
    /// `#ttg.blocked`.
    Blocked(Blocked),
    /// `#ttg.slice`.
    Slice(Slice),
    /// `#ttg.nvidia_mma` (versions 2 and 3).
    NvidiaMma(NvidiaMma),
    /// `#ttg.dot_op`.
    DotOperand(DotOperand),
    /// `#ttg.amd_mfma`.
    AmdMfma(AmdMfma),
    /// `#ttg.amd_wmma`.
    AmdWmma(AmdWmma),
    /// `#ttg.linear` (and `#ttg.generic_linear`).
    Linear(DistributedLinear),
    /// `#ttg.swizzled_shared`.
    SwizzledShared(SwizzledShared),
    /// `#ttg.nvmma_shared`.
    NvmmaShared(NvmmaShared),
    /// `#ttg.padded_shared`.
    PaddedShared(PaddedShared),
    /// `#ttg.shared_linear`.
    SharedLinear(SharedLinear),
    /// `#ttg.amd_rotating_shared` (TTGIR only: Gluon has no class for it).
    AmdRotatingShared(AmdRotatingShared),
    /// `#ttg.partitioned_shared` (gfx1250).
    PartitionedShared(PartitionedShared),
    /// `#ttng.tensor_memory_encoding` (Blackwell tensor memory).
    TensorMemory(TensorMemory),
    /// `#ttng.tensor_memory_scales_encoding` (block scales in tensor memory).
    TensorMemoryScales(TensorMemoryScales),
}

/// The error for a parameter that breaks a rule: `` `param`: rule ``.
pub(crate) fn invalid(param: &str, rule: impl std::fmt::Display) -> LayoutError {
    LayoutError::Invalid(format!("`{param}`: {rule}"))
}

/// The largest tensor rank an encoding or shape may have. Extents are powers of two within 64 bits, so
/// only size-1 dims could go beyond; a cap keeps every structure built per dim small.
pub const MAX_RANK: usize = 64;

/// Fails when `rank` is above [`MAX_RANK`].
pub(crate) fn check_max_rank(param: &str, rank: usize) -> Result<()> {
    if rank > MAX_RANK {
        return Err(invalid(
            param,
            format!("rank {rank} is above the largest supported rank, {MAX_RANK}"),
        ));
    }
    Ok(())
}

/// NVMMA shared layouts need a buffer of more than one element: Gluon rejects a 1×1 tensor for them (the
/// layout would have no `offset` bases). Swizzled layouts take one, as Triton's compiler does for the
/// `Nx1xi64` mbarrier allocations of every pipelined kernel (only Gluon's Python wrapper asserts there).
pub(crate) fn check_has_offsets(kind: &str, shape: &[u64]) -> Result<()> {
    if shape.iter().all(|&s| s == 1) {
        return Err(invalid(
            "shape",
            format!("a {kind} needs a buffer of more than one element (Triton rejects a 1×1 tensor: no offset bases)"),
        ));
    }
    Ok(())
}

pub(crate) fn check_rank(param: &str, got: usize, rank: usize) -> Result<()> {
    check_rank_of(param, got, rank)
}

pub(crate) fn check_rank_of(param: &str, got: usize, rank: usize) -> Result<()> {
    if got != rank {
        return Err(invalid(
            param,
            format!("has {got} entries; the layout has rank {rank}"),
        ));
    }
    Ok(())
}

pub(crate) fn check_order(param: &str, order: &[u32]) -> Result<()> {
    let rank = order.len();
    let mut seen = vec![false; rank];
    for &o in order {
        match seen.get_mut(o as usize) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(invalid(
                    param,
                    format!(
                        "order must be a permutation of 0..(rank-1), but was {}",
                        crate::layout::error::cut_list(order)
                    ),
                ))
            }
        }
    }
    Ok(())
}

pub(crate) fn check_pow2_list(param: &str, v: &[u32]) -> Result<()> {
    if let Some(x) = v.iter().find(|x| **x == 0 || !x.is_power_of_two()) {
        return Err(invalid(
            param,
            format!(
                "every element must be a power of two, got {x} in {}",
                crate::layout::error::cut_list(v)
            ),
        ));
    }
    Ok(())
}

impl Encoding {
    /// The Gluon class name of this encoding (`BlockedLayout`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Encoding::Blocked(_) => "BlockedLayout",
            Encoding::Slice(_) => "SliceLayout",
            Encoding::NvidiaMma(_) => "NVMMADistributedLayout",
            Encoding::DotOperand(_) => "DotOperandLayout",
            Encoding::AmdMfma(_) => "AMDMFMALayout",
            Encoding::AmdWmma(_) => "AMDWMMALayout",
            Encoding::Linear(_) => "DistributedLinearLayout",
            Encoding::SwizzledShared(_) => "SwizzledSharedLayout",
            Encoding::NvmmaShared(_) => "NVMMASharedLayout",
            Encoding::PaddedShared(_) => "PaddedSharedLayout",
            Encoding::SharedLinear(_) => "SharedLinearLayout",
            Encoding::AmdRotatingShared(_) => "AMDRotatingSharedLayout",
            Encoding::PartitionedShared(_) => "PartitionedSharedLayout",
            Encoding::TensorMemory(_) => "TensorMemoryLayout",
            Encoding::TensorMemoryScales(_) => "TensorMemoryScalesLayout",
        }
    }

    /// True for register (distributed) layouts, false for shared- and tensor-memory layouts.
    pub fn is_distributed(&self) -> bool {
        !self.is_shared() && !self.is_tensor_memory()
    }

    /// True for Blackwell tensor-memory layouts (`row, col, block → dim0, dim1`).
    pub fn is_tensor_memory(&self) -> bool {
        matches!(
            self,
            Encoding::TensorMemory(_) | Encoding::TensorMemoryScales(_)
        )
    }

    /// True for shared-memory layouts.
    pub fn is_shared(&self) -> bool {
        matches!(
            self,
            Encoding::SwizzledShared(_)
                | Encoding::NvmmaShared(_)
                | Encoding::PaddedShared(_)
                | Encoding::SharedLinear(_)
                | Encoding::AmdRotatingShared(_)
                | Encoding::PartitionedShared(_)
        )
    }

    /// The tensor rank the encoding is for.
    pub fn rank(&self) -> Result<usize> {
        Ok(match self {
            Encoding::Blocked(b) => b.rank(),
            Encoding::Slice(s) => s.rank()?,
            Encoding::NvidiaMma(m) => m.rank(),
            Encoding::DotOperand(d) => d.rank()?,
            Encoding::AmdMfma(m) => m.rank(),
            Encoding::AmdWmma(m) => m.rank,
            Encoding::Linear(l) => l.rank(),
            Encoding::SwizzledShared(s) => s.rank(),
            Encoding::NvmmaShared(s) => s.rank,
            Encoding::PaddedShared(p) => p.shape.len(),
            Encoding::SharedLinear(s) => s.rank(),
            Encoding::AmdRotatingShared(s) => s.rank(),
            Encoding::PartitionedShared(p) => p.rank()?,
            Encoding::TensorMemory(_) | Encoding::TensorMemoryScales(_) => 2,
        })
    }

    /// The CGA layout, where the encoding has one.
    pub fn cga_layout(&self) -> Option<CgaLayout> {
        match self {
            Encoding::Blocked(b) => Some(b.cga_layout.clone()),
            Encoding::NvidiaMma(m) => Some(m.cga_layout.clone()),
            Encoding::AmdMfma(m) => Some(m.cga_layout.clone()),
            Encoding::AmdWmma(m) => Some(m.cga_layout.clone()),
            Encoding::SwizzledShared(s) => Some(s.cga_layout.clone()),
            Encoding::NvmmaShared(s) => Some(s.cga_layout.clone()),
            Encoding::PaddedShared(p) => Some(p.cga_layout.clone()),
            Encoding::SharedLinear(s) => Some(CgaLayout::new(s.block_bases.clone())),
            Encoding::AmdRotatingShared(s) => Some(s.0.cga_layout.clone()),
            Encoding::PartitionedShared(p) => p.partition_layout.cga_layout(),
            Encoding::TensorMemory(t) => Some(t.cga_layout.clone()),
            Encoding::TensorMemoryScales(t) => Some(t.cga_layout.clone()),
            Encoding::Linear(l) => Some(CgaLayout::new(l.block_bases.clone())),
            Encoding::Slice(s) => {
                let d = s.dim as usize;
                s.parent.cga_layout().map(|c| {
                    CgaLayout::new(
                        c.bases
                            .iter()
                            .map(|b| {
                                b.iter()
                                    .enumerate()
                                    .filter(|(i, _)| *i != d)
                                    .map(|(_, x)| *x)
                                    .collect()
                            })
                            .collect(),
                    )
                })
            }
            Encoding::DotOperand(d) => d.cga_layout().ok(),
        }
    }

    /// Checks the parameters with Triton's rules.
    pub fn validate(&self) -> Result<()> {
        match self {
            Encoding::Blocked(e) => e.validate(),
            Encoding::Slice(e) => e.validate(),
            Encoding::NvidiaMma(e) => e.validate(),
            Encoding::DotOperand(e) => e.validate(),
            Encoding::AmdMfma(e) => e.validate(),
            Encoding::AmdWmma(e) => e.validate(),
            Encoding::Linear(e) => e.validate(),
            Encoding::SwizzledShared(e) => e.validate(),
            Encoding::NvmmaShared(e) => e.validate(),
            Encoding::PaddedShared(e) => e.validate(),
            Encoding::SharedLinear(e) => e.validate(),
            Encoding::AmdRotatingShared(e) => e.validate(),
            Encoding::PartitionedShared(e) => e.validate(),
            Encoding::TensorMemory(e) => e.validate(),
            Encoding::TensorMemoryScales(e) => e.validate(),
        }
    }

    /// The linear layout of a tensor (or shared buffer) of `shape`, exactly as Gluon's `to_linear_layout`
    /// gives it in Triton 3.9: [`Encoding::tensor_layout`], and a distributed result must be a permutation
    /// matrix once zero bases are dropped (Gluon hands it back as a `LinearEncodingAttr`, whose verifier in
    /// Dialect.cpp wants that): a generic linear layout with XOR bases left, or a WMMA layout with a
    /// repeated basis, is rejected.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        let ll = self.tensor_layout(shape)?;
        if self.is_distributed() {
            return permutation_only(ll, shape);
        }
        if self.is_tensor_memory() {
            return Ok(ll);
        }
        // Gluon hands a shared layout back as a `SharedLinearLayout`, whose constructor wants offsets: a
        // buffer of one element per CTA has none.
        if !matches!(self, Encoding::PaddedShared(_)) && ll.in_dim_size("offset").unwrap_or(1) == 1
        {
            return Err(invalid(
                "shape",
                "SharedLinearLayout offset_bases must not be empty (one element per CTA)",
            ));
        }
        Ok(ll)
    }

    /// The linear layout Triton 3.9's `toLinearLayout` computes for a tensor (or shared buffer) of `shape`
    /// inside the compiler: what its conversions and `gl.bank_conflicts` work with, where a generic linear
    /// layout keeps its XOR bases.
    pub fn tensor_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        match self {
            Encoding::Blocked(e) => e.to_linear_layout(shape),
            Encoding::Slice(e) => e.to_linear_layout(shape),
            Encoding::NvidiaMma(e) => e.to_linear_layout(shape),
            Encoding::DotOperand(e) => e.to_linear_layout(shape),
            Encoding::AmdMfma(e) => e.to_linear_layout(shape),
            Encoding::AmdWmma(e) => e.to_linear_layout(shape),
            Encoding::Linear(e) => e.to_linear_layout(shape),
            Encoding::SwizzledShared(e) => e.to_linear_layout(shape),
            Encoding::NvmmaShared(e) => e.to_linear_layout(shape),
            Encoding::PaddedShared(e) => e.to_linear_layout(shape),
            Encoding::SharedLinear(e) => e.to_linear_layout(shape),
            Encoding::AmdRotatingShared(e) => e.to_linear_layout(shape),
            Encoding::PartitionedShared(e) => e.to_linear_layout(shape),
            Encoding::TensorMemory(e) => e.to_linear_layout(shape),
            Encoding::TensorMemoryScales(e) => e.to_linear_layout(shape),
        }
    }
}

/// `ll` if it is a permutation matrix onto `shape` once zero bases are dropped (`LinearEncodingAttr::verify`).
fn permutation_only(ll: LinearLayout, shape: &[u64]) -> Result<LinearLayout> {
    // Square once zero bases are dropped: the distinct non-zero bases (checked distinct by
    // `is_permutation`) cover every element of `shape`, so bases zeroed past the shape must not leave an
    // element out.
    // On the packed columns (out dims own disjoint bit ranges), "one power of two in one dim, none
    // repeated" is "one set bit, none seen before": no bases need unpacking.
    let (mut nonzero, mut seen, mut permutation) = (0usize, 0u64, true);
    for &c in ll.columns().iter().filter(|&&c| c != 0) {
        permutation &= c.is_power_of_two() && seen & c == 0;
        seen |= c;
        nonzero += 1;
    }
    let out_bits: u32 = shape.iter().map(|s| s.trailing_zeros()).sum();
    if nonzero != out_bits as usize || !permutation {
        return Err(invalid(
            "bases",
            "LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases \
             (a basis mixes dims, is not a power of two, or repeats another)",
        ));
    }
    Ok(ll)
}

macro_rules! from_variant {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for Encoding {
            fn from(e: $t) -> Encoding {
                Encoding::$v(e)
            }
        }
    )*};
}
from_variant!(Blocked => Blocked, Slice => Slice, NvidiaMma => NvidiaMma, DotOperand => DotOperand,
    AmdMfma => AmdMfma, AmdWmma => AmdWmma, DistributedLinear => Linear, SwizzledShared => SwizzledShared,
    NvmmaShared => NvmmaShared, PaddedShared => PaddedShared, SharedLinear => SharedLinear,
    AmdRotatingShared => AmdRotatingShared, PartitionedShared => PartitionedShared,
    TensorMemory => TensorMemory,
    TensorMemoryScales => TensorMemoryScales);
