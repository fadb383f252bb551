//! Views of a shared-memory buffer: `slice_shared` (Gluon's `smem.slice`), `reshape_shared`
//! (`smem.reshape`) and `reinterpret_shared` (`smem._reinterpret`). Each is a new descriptor over
//! the same bytes; no data moves and nothing is emitted but the run-time base of a view of an
//! indexed buffer. Every op that takes a descriptor (loads, stores, `cp.async`, TMA, `ldmatrix`,
//! wgmma) addresses a view through its layout, as it does an allocation.
//!
//! The view's layout is derived with the algebra. A buffer's layout `L` maps an element offset
//! to a coordinate; its (pseudo-)inverse `L⁻¹` maps a coordinate to the offset. For a slice
//! `[start, start + len)` of one dim (`len` a power of two dividing `start`), coordinate `c` of
//! the view is `c ⊕ start` in the buffer, at offset `L⁻¹(c) ⊕ L⁻¹(start)`. That is a fixed base
//! plus a layout exactly when `L⁻¹(start)` shares no bit with any `L⁻¹(c)`: then XOR is addition
//! and the view is `L⁻¹(start)` elements in, laid out by the restriction of `L⁻¹` to the view's
//! coordinates. Otherwise the slice cuts through the layout's swizzle pattern (Triton's
//! `MemDescSubsliceOp` rejects the same slices: "splitting along the swizzling pattern"), and
//! that is an error naming the buffer and the slice.
//!
//! A slice along a layout's inner bits (the columns of a row-major buffer) leaves holes: the
//! view's offsets skip the parent's other columns. Its layout then maps those offset bits to
//! nothing (zero bases), which the address computation (`L⁻¹ ∘ tile` with free bits zero) reads
//! right; ops that need a dense box (TMA) or an NVMMA operand (wgmma) reject such a view with
//! their own layout error.

use crate::codegen::builder::ops::layout_arg::IntoSharedLayout;
use crate::codegen::builder::ops::shared::{base_alignment, scalar_dtype, shared_linear};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::shared::padded;
use crate::codegen::lower::values::Value;
use crate::codegen::types::{DType, Type};
use crate::layout::gf2::ColumnEchelon;
use crate::layout::{Dim, LinearLayout};

/// Why a slice has no view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SliceProblem {
    /// The slice's first offset shares bits with the view's offsets (`base`, `support`).
    Misaligned { base: u64, support: u64 },
    /// The view's offsets are not all sums of a set of offset bits.
    NotCoordinate,
}

/// The slice `[start, start + len)` of dim `dim` of a buffer laid out by `l` (offset →
/// coordinate, one to one on the coordinates; holes allowed): the element offset of its first
/// element, and its layout (offset → view coordinate, with zero bases for the parent's offsets
/// it skips).
pub(crate) fn slice_layout(
    l: &LinearLayout,
    dim: usize,
    start: u64,
    len: u64,
) -> Result<std::result::Result<(u64, LinearLayout), SliceProblem>> {
    let inv = l.pseudo_invert()?;
    let shape: Vec<u64> = l.out_dims().map(|(_, s)| s).collect();
    let mut view = shape.clone();
    view[dim] = len;
    let at: Vec<(Dim, u64)> = (0..shape.len())
        .map(|i| (Dim::dim(i), if i == dim { start } else { 0 }))
        .collect();
    let base = inv.apply(&at)?[0].1;
    // The view's coordinate bits, in order (dim 0's first), and where each puts its offset.
    let mut bits: Vec<(usize, u32)> = Vec::new();
    let mut cols: Vec<u64> = Vec::new();
    for (i, &s) in view.iter().enumerate() {
        for j in 0..s.trailing_zeros() {
            bits.push((i, j));
            cols.push(inv.basis(Dim::dim(i).as_str(), j)?[0]);
        }
    }
    let support = cols.iter().fold(0, |a, c| a | c);
    if base & support != 0 {
        return Ok(Err(SliceProblem::Misaligned { base, support }));
    }
    let echelon = ColumnEchelon::new(&cols);
    if echelon.rank() as usize != cols.len() || echelon.rank() != support.count_ones() {
        return Ok(Err(SliceProblem::NotCoordinate));
    }
    let top = 64 - support.leading_zeros();
    let mut bases: Vec<Vec<u64>> = Vec::with_capacity(top as usize);
    for b in 0..top {
        let mut coord = vec![0u64; view.len()];
        if support >> b & 1 == 1 {
            let Some(x) = echelon.solve(1 << b) else {
                return Ok(Err(SliceProblem::NotCoordinate));
            };
            for (k, &(i, j)) in bits.iter().enumerate() {
                if x >> k & 1 == 1 {
                    coord[i] ^= 1 << j;
                }
            }
        }
        bases.push(coord);
    }
    let dims: Vec<(Dim, u64)> = view
        .iter()
        .enumerate()
        .map(|(i, &s)| (Dim::dim(i), s))
        .collect();
    Ok(Ok((
        base,
        LinearLayout::from_bases([(Dim::OFFSET, bases)], dims, true)?,
    )))
}

/// `l` with its coordinates read in row-major order (the last dim fastest) as `shape`: each
/// offset basis flattened from `old` and split into `shape` (sizes are powers of two, so this
/// only regroups bits).
pub(crate) fn reshape_layout(l: &LinearLayout, old: &[u64], shape: &[u64]) -> Result<LinearLayout> {
    let flatten = |c: &[u64]| -> u64 {
        c.iter()
            .zip(old)
            .fold(0u64, |f, (x, s)| (f << s.trailing_zeros()) | x)
    };
    let unflatten = |mut f: u64| -> Vec<u64> {
        let mut c = vec![0u64; shape.len()];
        for i in (0..shape.len()).rev() {
            c[i] = f & (shape[i] - 1);
            f >>= shape[i].trailing_zeros();
        }
        c
    };
    let bases: Vec<Vec<u64>> = l
        .bases(Dim::OFFSET.as_str())?
        .into_iter()
        .map(|b| unflatten(flatten(&b)))
        .collect();
    let dims: Vec<(Dim, u64)> = shape
        .iter()
        .enumerate()
        .map(|(i, &s)| (Dim::dim(i), s))
        .collect();
    Ok(LinearLayout::from_bases(
        [(Dim::OFFSET, bases)],
        dims,
        true,
    )?)
}

impl<'ctx> KernelBuilder<'ctx> {
    /// The elements `start .. start + len` of dim `dim` of `desc`, as a descriptor over the same
    /// bytes (Gluon's `smem.slice(start, len, dim)`): e.g. one K step of an operand buffer, or
    /// one half of a tile for a store in two parts. `len` is a power of two and `start` a
    /// multiple of it, inside the dim. The slice must not cut through the layout's swizzle
    /// pattern (a swizzled or NVMMA buffer sliced across the rows one phase spans): the view is
    /// a base and a layout, derived with the algebra (see the module doc), and a slice with no
    /// such view is [`CodegenError::BadLayout`] naming the buffer, the slice and the bits.
    #[track_caller]
    pub fn slice_shared(&mut self, desc: Value, dim: usize, start: u64, len: u64) -> Result<Value> {
        self.record_checked(
            OpKind::SliceShared { dim, start, len },
            vec![desc.into()],
            |kb| kb.slice_shared_impl(desc, dim, start, len),
        )
    }

    fn slice_shared_impl(
        &mut self,
        desc: Value,
        dim: usize,
        start: u64,
        len: u64,
    ) -> Result<Value> {
        const OP: &str = "slice_shared";
        let d = self.shared_desc(OP, desc)?;
        let rank = d.shape.len();
        if dim >= rank {
            return Err(CodegenError::arg(
                OP,
                format!("dim {dim} of {} (rank {rank})", d.describe()),
            ));
        }
        let size = d.shape[dim];
        if len == 0
            || !len.is_power_of_two()
            || !start.is_multiple_of(len)
            || start.checked_add(len).is_none_or(|e| e > size)
        {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "[{start}, {start} + {len}) of dim {dim} of {}: the length must be a power of two, \
                     the start a multiple of it, and the slice inside the dim's {size} elements",
                    d.describe()
                ),
            ));
        }
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let (base, layout) = match slice_layout(&buf.layout, dim, start, len)? {
            Ok(v) => v,
            Err(SliceProblem::Misaligned { base, support }) => {
                return Err(CodegenError::BadLayout {
                    op: OP,
                    reason: format!(
                        "[{start}, {start} + {len}) of dim {dim} of {} cuts through its layout's swizzle \
                         pattern: the slice starts at offset {base} (bits {base:#b}) and its elements \
                         use offset bits {support:#b}; start on a multiple of the swizzle atom ({:?})",
                        d.describe(),
                        buf.layout
                    ),
                });
            }
            Err(SliceProblem::NotCoordinate) => {
                return Err(CodegenError::BadLayout {
                    op: OP,
                    reason: format!(
                        "[{start}, {start} + {len}) of dim {dim} of {}: the slice's offsets are not a \
                         base plus a layout ({:?})",
                        d.describe(),
                        buf.layout
                    ),
                });
            }
        };
        if let Some(&(interval, _)) = buf.padding.iter().find(|&&(i, _)| base % i != 0) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "[{start}, {start} + {len}) of dim {dim} of {} starts at element offset {base}, \
                     inside a padding interval of {interval}: the view's padding would not line up",
                    d.describe()
                ),
            });
        }
        let bytes = padded(base, &buf.padding) * scalar_dtype(d.ty).mem_bytes();
        let align = if bytes == 0 {
            buf.align
        } else {
            buf.align.min(1 << bytes.trailing_zeros())
        };
        let mut shape = d.shape.clone();
        shape[dim] = len;
        let view = buf.view_of(
            buf.base + bytes,
            layout,
            buf.padding.clone(),
            buf.name.clone(),
            align,
        );
        Ok(self.lx.push_view(d.ty, shape, Vec::new(), view))
    }

    /// The same buffer seen as `shape` (Gluon's `smem.reshape`): its elements in row-major order
    /// (the last dim fastest), as [`reshape`](Self::reshape) reads a tile. Any power-of-two shape
    /// of the same element count is a view: the layout's coordinate bits are only regrouped, so
    /// a swizzled or NVMMA buffer keeps its swizzle (wgmma and TMA see the layout they check).
    #[track_caller]
    pub fn reshape_shared(&mut self, desc: Value, shape: &[u64]) -> Result<Value> {
        self.record_checked(OpKind::ReshapeShared, vec![desc.into()], |kb| {
            kb.reshape_shared_impl(desc, shape)
        })
    }

    fn reshape_shared_impl(&mut self, desc: Value, shape: &[u64]) -> Result<Value> {
        const OP: &str = "reshape_shared";
        let d = self.shared_desc(OP, desc)?;
        let total: u64 = d.shape.iter().product();
        if shape.is_empty()
            || shape.iter().any(|s| !s.is_power_of_two())
            || shape.iter().try_fold(1u64, |a, &b| a.checked_mul(b)) != Some(total)
        {
            return Err(CodegenError::ShapeMismatch {
                op: OP,
                lhs: d.describe(),
                rhs: format!("shape {shape:?} (powers of two, {total} elements)"),
            });
        }
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let layout = reshape_layout(&buf.layout, &d.shape, shape)?;
        let view = buf.view_of(
            buf.base,
            layout,
            buf.padding.clone(),
            buf.name.clone(),
            buf.align,
        );
        Ok(self.lx.push_view(d.ty, shape.to_vec(), Vec::new(), view))
    }

    /// The bytes of `desc` seen as a buffer of `dtype` elements of `shape` in `layout` (Gluon's
    /// `smem._reinterpret`): e.g. an `i8` staging buffer read as `f16`, or a buffer reused with
    /// another swizzle. The view must cover exactly the same bytes (padding included), which
    /// must be one contiguous range (not a slice with holes), and start aligned as an
    /// allocation in `layout` would (1024 bytes for NVMMA, 16 otherwise).
    #[track_caller]
    pub fn reinterpret_shared(
        &mut self,
        desc: Value,
        dtype: DType,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        self.record_checked(OpKind::ReinterpretShared, vec![desc.into()], |kb| {
            kb.reinterpret_shared_impl(desc, dtype, shape, layout)
        })
    }

    fn reinterpret_shared_impl(
        &mut self,
        desc: Value,
        dtype: DType,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        const OP: &str = "reinterpret_shared";
        let d = self.shared_desc(OP, desc)?;
        if shape.is_empty() || shape.iter().any(|s| !s.is_power_of_two()) {
            return Err(CodegenError::arg(
                OP,
                format!("shape {shape:?}: every dim must be a power of two (and rank ≥ 1)"),
            ));
        }
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let n: u64 = d.shape.iter().product();
        if buf.layout.in_dim_size(Dim::OFFSET.as_str())? != n {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "{} is a slice with holes (its offsets skip the parent's other elements), not one \
                     contiguous byte range ({:?})",
                    d.describe(),
                    buf.layout
                ),
            });
        }
        let r = layout.resolve_shared(OP, shape)?;
        let linear = shared_linear(OP, &r.linear, shape)?;
        if r.padding
            .iter()
            .any(|&(i, p)| !i.is_power_of_two() || !p.is_power_of_two())
        {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "padding {:?}: intervals and paddings must be powers of two",
                    r.padding
                ),
            });
        }
        let old_bytes = (padded(n - 1, &buf.padding) + 1) * scalar_dtype(d.ty).mem_bytes();
        let m: u64 = shape.iter().product();
        let new_bytes = (padded(m - 1, &r.padding) + 1) * dtype.mem_bytes();
        let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
        let what = format!("shared<{}x{dtype}, {}>", dims.join("x"), r.name);
        if old_bytes != new_bytes {
            return Err(CodegenError::ShapeMismatch {
                op: OP,
                lhs: format!("{} ({old_bytes} bytes)", d.describe()),
                rhs: format!("{what} ({new_bytes} bytes)"),
            });
        }
        let need = base_alignment(&r.name);
        if buf.align < need {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "{} starts at a multiple of {} bytes; {what} must start at a multiple of {need}",
                    d.describe(),
                    buf.align
                ),
            });
        }
        let view = buf.view_of(buf.base, linear, r.padding, r.name, buf.align);
        Ok(self
            .lx
            .push_view(Type::Scalar(dtype), shape.to_vec(), Vec::new(), view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encoding::{Encoding, NvmmaShared, SwizzledShared};

    fn shared(e: impl Into<Encoding>, shape: &[u64]) -> LinearLayout {
        let l = e.into().to_linear_layout(shape).unwrap();
        if l.has_in_dim(Dim::BLOCK.as_str()) {
            l.squeeze_ins(Dim::BLOCK.as_str()).unwrap()
        } else {
            l
        }
    }

    /// Offset of coordinate `c` in `l` (free bits zero, as the address computation takes).
    fn offset(inv: &LinearLayout, c: &[u64]) -> u64 {
        let at: Vec<(Dim, u64)> = c
            .iter()
            .enumerate()
            .map(|(i, &x)| (Dim::dim(i), x))
            .collect();
        inv.apply(&at).unwrap()[0].1
    }

    /// Every coordinate of `shape`, row-major.
    fn coords(shape: &[u64]) -> Vec<Vec<u64>> {
        let n: u64 = shape.iter().product();
        (0..n)
            .map(|mut f| {
                let mut c = vec![0; shape.len()];
                for i in (0..shape.len()).rev() {
                    c[i] = f % shape[i];
                    f /= shape[i];
                }
                c
            })
            .collect()
    }

    /// Every slice of every dim of `l` either has a view whose address of every element equals
    /// the parent's, or is refused; returns how many had views.
    fn check_all_slices(l: &LinearLayout) -> (usize, usize) {
        let shape: Vec<u64> = l.out_dims().map(|(_, s)| s).collect();
        let pinv = l.pseudo_invert().unwrap();
        let (mut ok, mut refused) = (0, 0);
        for dim in 0..shape.len() {
            let mut len = 1;
            while len <= shape[dim] {
                for start in (0..shape[dim]).step_by(len as usize) {
                    match slice_layout(l, dim, start, len).unwrap() {
                        Ok((base, v)) => {
                            ok += 1;
                            let vinv = v.pseudo_invert().unwrap();
                            let vshape: Vec<u64> = v.out_dims().map(|(_, s)| s).collect();
                            for c in coords(&vshape) {
                                let mut p = c.clone();
                                p[dim] += start;
                                assert_eq!(
                                    base + offset(&vinv, &c),
                                    offset(&pinv, &p),
                                    "{l:?} dim {dim} [{start}, +{len}) at {c:?}"
                                );
                                // The view's layout maps the address back to the coordinate.
                                let back = v
                                    .apply(&[(Dim::OFFSET, offset(&vinv, &c))])
                                    .unwrap()
                                    .into_iter()
                                    .map(|(_, x)| x)
                                    .collect::<Vec<_>>();
                                assert_eq!(back, c);
                            }
                        }
                        Err(_) => refused += 1,
                    }
                }
                len *= 2;
            }
        }
        (ok, refused)
    }

    #[test]
    fn slices_address_every_element_where_the_parent_does() {
        let mut layouts = vec![
            shared(SwizzledShared::new(1, 1, 1, &[1, 0]), &[8, 16]),
            shared(SwizzledShared::new(4, 1, 4, &[1, 0]), &[16, 16]),
            shared(SwizzledShared::new(2, 2, 4, &[0, 1]), &[16, 8]),
            shared(SwizzledShared::new(8, 1, 8, &[2, 1, 0]), &[2, 8, 64]),
        ];
        for (sw, bits) in [(128, 16), (64, 16), (32, 8), (128, 32)] {
            for t in [false, true] {
                layouts.push(shared(NvmmaShared::new(sw, bits, 2, t), &[64, 128]));
            }
        }
        for l in &layouts {
            let (ok, _) = check_all_slices(l);
            assert!(ok > 0, "{l:?}");
        }
    }

    #[test]
    fn unswizzled_slices_always_have_views_and_swizzled_ones_only_on_atoms() {
        let plain = shared(SwizzledShared::new(1, 1, 1, &[1, 0]), &[8, 16]);
        let (_, refused) = check_all_slices(&plain);
        assert_eq!(refused, 0, "a row-major buffer slices anywhere");
        // 128-byte swizzle of f16: 8 rows of 64 elements per atom.
        let nv = shared(NvmmaShared::new(128, 16, 2, false), &[32, 128]);
        assert!(slice_layout(&nv, 0, 8, 8).unwrap().is_ok());
        assert!(slice_layout(&nv, 0, 16, 16).unwrap().is_ok());
        assert!(matches!(
            slice_layout(&nv, 0, 4, 4).unwrap(),
            Err(SliceProblem::Misaligned { .. })
        ));
        // K halves of a 128-wide tile are whole atoms (the second after all rows of the first).
        let (base, half) = slice_layout(&nv, 1, 64, 64).unwrap().unwrap();
        assert_eq!(base, 32 * 64);
        assert!(half.equivalent(&shared(NvmmaShared::new(128, 16, 2, false), &[32, 64])));
        assert!(matches!(
            slice_layout(&nv, 1, 32, 32).unwrap(),
            Err(SliceProblem::Misaligned { .. })
        ));
    }

    #[test]
    fn column_slices_of_a_row_major_buffer_leave_holes() {
        let plain = shared(SwizzledShared::new(1, 1, 1, &[1, 0]), &[8, 16]);
        let (base, v) = slice_layout(&plain, 1, 4, 4).unwrap().unwrap();
        assert_eq!(base, 4);
        // Offsets 0..4 are the columns, bits 2 and 3 skip the parent's other columns, 4.. rows.
        assert_eq!(v.in_dim_size(Dim::OFFSET.as_str()).unwrap(), 128);
        assert_eq!(
            v.bases(Dim::OFFSET.as_str()).unwrap()[2].to_vec(),
            vec![0u64, 0]
        );
    }

    #[test]
    fn reshapes_keep_every_address() {
        for (l, old, new) in [
            (
                shared(NvmmaShared::new(128, 16, 2, false), &[32, 128]),
                vec![32, 128],
                vec![2, 16, 128],
            ),
            (
                shared(SwizzledShared::new(4, 2, 4, &[1, 0]), &[16, 32]),
                vec![16, 32],
                vec![512],
            ),
            (
                shared(SwizzledShared::new(8, 1, 8, &[2, 1, 0]), &[2, 8, 64]),
                vec![2, 8, 64],
                vec![16, 64],
            ),
        ] {
            let r = reshape_layout(&l, &old, &new).unwrap();
            let (pinv, rinv) = (l.invert().unwrap(), r.invert().unwrap());
            for (i, c) in coords(&old).iter().enumerate() {
                let n = &coords(&new)[i];
                assert_eq!(offset(&pinv, c), offset(&rinv, n), "{c:?} → {n:?}");
            }
        }
    }
}
