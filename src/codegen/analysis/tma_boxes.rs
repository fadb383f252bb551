//! How a TMA copy splits into boxes: the layout one box is written in (an NVMMA shared layout
//! of the box with the map's swizzle) and, for a buffer of several boxes, each box's origin and
//! byte offset, checked against the buffer's layout by the algebra.

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::SharedBuf;
use crate::layout::encoding::NvmmaShared;
use crate::layout::{Dim, LinearLayout};
use crate::signature::TensorMapSpec;

/// Where each box of a copy goes: its origin in the tile (outermost dim first) and its byte offset
/// in the buffer.
pub(crate) struct BoxPlan {
    pub boxes: Vec<(Vec<u64>, u64)>,
}

/// The layout one TMA box is written in: an NVMMA shared layout of the box with the map's swizzle
/// (row-major when unswizzled).
pub(crate) fn box_layout(spec: &TensorMapSpec) -> crate::layout::Result<LinearLayout> {
    let bits = spec.elem.size_bytes() as u32 * 8;
    let shape: Vec<u64> = spec.box_shape().iter().map(|&b| u64::from(b)).collect();
    let l = NvmmaShared::new(u32::from(spec.swizzle), bits, shape.len(), false)
        .to_linear_layout(&shape)?;
    // A single CTA: drop the size-1 `block` dim, as buffers do.
    if l.has_in_dim(Dim::BLOCK.as_str()) {
        return l.squeeze_ins(Dim::BLOCK.as_str());
    }
    Ok(l)
}

/// Splits a copy of the buffer `buf` of `shape` (`what`, for messages) into boxes, checking
/// that each box lands where the buffer's layout puts its elements.
pub(crate) fn box_plan(
    op: &'static str,
    spec: &TensorMapSpec,
    shape: &[u64],
    buf: &SharedBuf,
    what: &dyn Fn() -> String,
) -> Result<BoxPlan> {
    let bad = |reason: String| CodegenError::BadLayout { op, reason };
    if !buf.padding.is_empty() {
        return Err(bad(format!("{} is padded: TMA writes dense boxes", what())));
    }
    let boxed = spec.box_shape();
    for (i, (&s, &b)) in shape.iter().zip(boxed).enumerate() {
        if s % u64::from(b) != 0 {
            return Err(bad(format!(
                "dim {i} of {} is not a multiple of the box {boxed:?}",
                what()
            )));
        }
    }
    let blayout = box_layout(spec).map_err(|e| bad(format!("the map's box {boxed:?}: {e}")))?;
    let binv = blayout.invert()?;
    let linv = buf.layout.invert()?;
    let box_elems: u64 = boxed.iter().map(|&b| u64::from(b)).product();
    let mismatch = || {
        bad(format!(
            "{} is laid out as {:?}; a TMA box {boxed:?} with a {}-byte swizzle writes {:?}: \
             allocate the buffer with NvmmaShared::new({}, {}, {}, false)",
            what(),
            buf.layout,
            spec.swizzle,
            blayout,
            spec.swizzle,
            spec.elem.size_bytes() * 8,
            boxed.len()
        ))
    };
    for (i, &b) in boxed.iter().enumerate() {
        let dim = Dim::dim(i);
        let lb = linv.bases(dim.as_str())?;
        let bb = binv.bases(dim.as_str())?;
        for (j, basis) in lb.iter().enumerate() {
            let inside = (1u64 << j) < u64::from(b);
            let ok = if inside {
                Some(basis) == bb.get(j)
            } else {
                basis[0] % box_elems == 0
            };
            if !ok {
                return Err(mismatch());
            }
        }
    }
    // Box origins: every multiple of the box inside the buffer.
    let eb = spec.elem.size_bytes() as u64;
    let counts: Vec<u64> = shape
        .iter()
        .zip(boxed)
        .map(|(&s, &b)| s / u64::from(b))
        .collect();
    let total: u64 = counts.iter().product();
    let mut boxes = Vec::with_capacity(total as usize);
    for k in 0..total {
        let mut rem = k;
        let mut origin = vec![0u64; counts.len()];
        for i in (0..counts.len()).rev() {
            origin[i] = (rem % counts[i]) * u64::from(boxed[i]);
            rem /= counts[i];
        }
        let ins: Vec<(Dim, u64)> = origin
            .iter()
            .enumerate()
            .map(|(i, &o)| (Dim::dim(i), o))
            .collect();
        let off = linv.apply(&ins)?[0].1 * eb;
        // The hardware writes (and reads) a box only at a 128-byte aligned shared address.
        if !off.is_multiple_of(128) {
            return Err(bad(format!(
                "the box at {origin:?} of {} lands {off} bytes into it: a TMA box's shared \
                 address must be a multiple of 128 bytes (use a box of 128 bytes or more)",
                what()
            )));
        }
        boxes.push((origin, off));
    }
    Ok(BoxPlan { boxes })
}
