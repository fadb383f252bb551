//! Shared memory: `alloc_shared` (a buffer from the allocator, in a shared layout), `store_shared`
//! and `load_shared` (a register tile to and from it), `barrier`; and the helpers that
//! `convert_layout` and `reduce` use for their scratch.
//!
//! Every buffer lives in one module-level `addrspace(3)` array, `weft_smem`, declared external
//! with no size: dynamic shared memory, which the launch reserves from the signature's
//! `shared_bytes`. A buffer is a byte offset into it.
//!
//! Addresses come from the algebra: for a tile in distributed layout `R` and a buffer in shared
//! layout `S` (offset → element), `S⁻¹ ∘ R` maps (register, lane, warp) to an offset, linearly,
//! so it is emitted exactly like a tile's coordinates (a thread part read once in the prologue,
//! a constant per register). Registers `r, r+1, …, r+v-1` whose offsets are consecutive and
//! aligned move as one `v`-element vector (at most 16 bytes).

use crate::codegen::lower::shared::padded;
use std::rc::Rc;
use std::sync::Arc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::ops::layout_arg::{IntoLayout, IntoSharedLayout};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::{SharedBuf, Value, ValueData, ValueKind};
use crate::codegen::types::{DType, Type};
use crate::layout::{Dim, LinearLayout};

impl<'ctx> KernelBuilder<'ctx> {
    /// A barrier of every thread of the CTA (`bar.sync 0` on NVIDIA, `s_barrier` between
    /// workgroup fences on AMD): shared-memory writes before it are visible to reads after it.
    /// Every thread must reach it (do not call it in a branch some threads skip). Inside a
    /// [warp role](Self::in_role) it is the role's (replica's) barrier: `bar.sync id, n` with an id
    /// of its own.
    #[track_caller]
    pub fn barrier(&mut self) -> Result<()> {
        self.record_checked(OpKind::Barrier, vec![], |kb| kb.barrier_checked())
    }

    /// What a barrier changes when it is recorded (lowered by `lower/shared_ops.rs`): the
    /// role's barrier ids, taken on its first, and the freed bytes it fences.
    pub(crate) fn barrier_checked(&mut self) -> Result<()> {
        self.start_body()?;
        self.take_role_barrier()?;
        self.note_barrier();
        Ok(())
    }

    /// Allocates a shared-memory buffer of `dtype` elements of `shape` laid out by `layout` (a
    /// shared encoding or a `LinearLayout` with in dim `offset`, see [`IntoSharedLayout`]) and
    /// returns its descriptor. The kernel's `shared_bytes` grows by its size (plus alignment)
    /// unless bytes given back earlier ([`free_shared`](Self::free_shared), op scratch) serve;
    /// then, if no barrier has passed since their last use, a [`barrier`](Self::barrier) comes
    /// first, so allocate where every thread of the CTA (or warp role) arrives. More than the
    /// target offers a CTA is [`CodegenError::SharedMemoryExceeded`].
    #[track_caller]
    pub fn alloc_shared(
        &mut self,
        dtype: DType,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        self.record_checked(OpKind::AllocShared, vec![], |kb| {
            kb.alloc_shared_impl(dtype, shape, layout)
        })
    }

    fn alloc_shared_impl(
        &mut self,
        dtype: DType,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        self.alloc_shared_in("alloc_shared", dtype, None, shape, layout)
    }

    /// Allocates `count` buffers of `shape`, each laid out by `layout`, one after the other: a
    /// descriptor of shape `[count] + shape` whose [`index_shared`](Self::index_shared) is one
    /// buffer. This is the ring of a multi-stage pipeline (Gluon's
    /// `allocate_shared_memory(dtype, [num_buffers] + shape, layout)`). `count` need not be a power
    /// of two (3 stages are common); only its buffers are reserved, and the ring is used through
    /// `index_shared`.
    #[track_caller]
    pub fn alloc_shared_buffers(
        &mut self,
        dtype: DType,
        count: u64,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        self.record_checked(OpKind::AllocSharedBuffers(count), vec![], |kb| {
            kb.alloc_shared_buffers_impl(dtype, count, shape, layout)
        })
    }

    fn alloc_shared_buffers_impl(
        &mut self,
        dtype: DType,
        count: u64,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        const OP: &str = "alloc_shared_buffers";
        if count == 0 || count > 64 {
            return Err(CodegenError::arg(
                OP,
                format!("count {count}: 1 to 64 buffers"),
            ));
        }
        self.alloc_shared_in(OP, dtype, Some(count), shape, layout)
    }

    /// One buffer (`ring` `None`) or a ring of `ring` buffers with its leading dim, which a
    /// ring of one buffer keeps too (so `index_shared` works for any count).
    fn alloc_shared_in(
        &mut self,
        op: &'static str,
        dtype: DType,
        ring: Option<u64>,
        shape: &[u64],
        layout: impl IntoSharedLayout,
    ) -> Result<Value> {
        let count = ring.unwrap_or(1);
        self.start_body()?;
        if shape.is_empty() || shape.iter().any(|s| !s.is_power_of_two()) {
            return Err(CodegenError::arg(
                op,
                format!("shape {shape:?}: every dim must be a power of two (and rank ≥ 1)"),
            ));
        }
        let r = layout.resolve_shared(op, shape)?;
        let mut linear = shared_linear(op, &r.linear, shape)?;
        for &(interval, pad) in &r.padding {
            if !interval.is_power_of_two() || !pad.is_power_of_two() {
                return Err(CodegenError::BadLayout {
                    op,
                    reason: format!(
                        "padding ({interval}, {pad}): intervals and paddings must be powers of two"
                    ),
                });
            }
        }
        let n: u64 = shape.iter().product();
        let mut full_shape = shape.to_vec();
        if count > 1 {
            if let Some(&(interval, _)) = r.padding.iter().find(|&&(i, _)| !n.is_multiple_of(i)) {
                return Err(CodegenError::BadLayout {
                    op,
                    reason: format!(
                        "padding every {interval} elements does not divide a buffer of {n}: the buffers would not be alike"
                    ),
                });
            }
        }
        if ring.is_some() {
            linear = stack_buffers(&linear, count.next_power_of_two())?;
            full_shape.insert(0, count);
        }
        let elems = padded(n * count - 1, &r.padding) + 1;
        let bytes = elems
            .checked_mul(dtype.mem_bytes())
            .ok_or_else(|| CodegenError::arg(op, format!("a buffer of {elems} elements")))?;
        let align = base_alignment(&r.name);
        let (a, place) = self.buffer_alloc(op, bytes, align)?;
        let scope = self.lx.values.scope();
        let v = self.lx.values.push(ValueData {
            kind: ValueKind::SharedDesc,
            ty: Type::Scalar(dtype),
            shape: full_shape,
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: Some(Arc::new(SharedBuf {
                base: a.offset,
                layout: linear,
                padding: r.padding,
                name: r.name,
                align,
                alloc: a.id,
                view: false,
                stride: self.smem.replica_stride(a.offset),
            })),
        });
        self.lx.placements.insert(v.index, place);
        Ok(v)
    }

    /// Buffer `index` (an `i32` scalar or a Rust integer) along dim 0 of `desc`: a descriptor of
    /// the remaining dims (Gluon's `smem.index(i)`). Dim 0 must be the outermost in the layout
    /// (its offset bits the top ones, as [`alloc_shared_buffers`](Self::alloc_shared_buffers)
    /// makes it); the algebra checks it. A constant index is checked against the size.
    #[track_caller]
    pub fn index_shared(
        &mut self,
        desc: Value,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<Value> {
        let index = index.into_operand();
        self.record_checked(OpKind::IndexShared, vec![desc.into(), index.into()], |kb| {
            kb.index_shared_checked(desc, index)
        })
    }

    /// Checks the ring and the index and makes the buffer's view (its run-time offset is
    /// lowered from the record).
    fn index_shared_checked(
        &mut self,
        desc: Value,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<Value> {
        const OP: &str = "index_shared";
        let d = self.shared_desc(OP, desc)?;
        if d.shape.len() < 2 {
            return Err(CodegenError::arg(
                OP,
                format!("{}: indexing needs rank ≥ 2", d.describe()),
            ));
        }
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let inner = outer_dim_removed(&buf.layout).ok_or_else(|| CodegenError::BadLayout {
            op: OP,
            reason: format!(
                "dim 0 of {} is not the outermost dim of its layout {:?}: a buffer of it is not contiguous",
                d.describe(),
                buf.layout
            ),
        })?;
        let idx = self.i32_checked(OP, index.into_operand(), "index")?;
        if let Some(c) = idx.known_int() {
            if c < 0 || c as u64 >= d.shape[0] {
                return Err(CodegenError::arg(
                    OP,
                    format!("index {c} of dim 0 of {}", d.describe()),
                ));
            }
        }
        let sub: u64 = d.shape[1..].iter().product();
        if let Some(&(interval, _)) = buf.padding.iter().find(|&&(i, _)| !sub.is_multiple_of(i)) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "padding every {interval} elements does not divide a buffer of {sub}: the buffers of {} are not alike",
                    d.describe()
                ),
            });
        }
        let stride = (padded(sub, &buf.padding)) * scalar_dtype(d.ty).mem_bytes();
        let scope = self.lx.values.scope();
        Ok(self.lx.values.push(ValueData {
            kind: ValueKind::SharedDesc,
            ty: d.ty,
            shape: d.shape[1..].to_vec(),
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: Some(Arc::new(buf.view_of(
                buf.base,
                inner,
                buf.padding.clone(),
                buf.name.clone(),
                buf.align.min(1 << stride.trailing_zeros()),
            ))),
        }))
    }

    /// The same buffer seen with its dims permuted: dim `i` of the view is dim `perm[i]` of
    /// `desc` (Gluon's `smem.permute`). No data moves; the layout's out dims are reordered, so
    /// `load_shared` of the view reads the transpose and `wgmma` sees the other major order.
    #[track_caller]
    pub fn permute_shared(&mut self, desc: Value, perm: &[usize]) -> Result<Value> {
        self.record_checked(
            OpKind::PermuteShared(perm.to_vec()),
            vec![desc.into()],
            |kb| kb.permute_shared_impl(desc, perm),
        )
    }

    fn permute_shared_impl(&mut self, desc: Value, perm: &[usize]) -> Result<Value> {
        const OP: &str = "permute_shared";
        let d = self.shared_desc(OP, desc)?;
        let rank = d.shape.len();
        let mut seen = vec![false; rank];
        if perm.len() != rank
            || perm
                .iter()
                .any(|&p| p >= rank || std::mem::replace(&mut seen[p], true))
        {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "{perm:?} is not a permutation of the {rank} dims of {}",
                    d.describe()
                ),
            ));
        }
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let bases: Vec<Vec<u64>> = buf
            .layout
            .bases(Dim::OFFSET.as_str())?
            .into_iter()
            .map(|b| perm.iter().map(|&p| b[p]).collect())
            .collect();
        let dims: Vec<(Dim, u64)> = perm
            .iter()
            .enumerate()
            .map(|(i, &p)| (Dim::dim(i), d.shape[p]))
            .collect();
        let layout = LinearLayout::from_bases([(Dim::OFFSET, bases)], dims, true)?;
        let scope = self.lx.values.scope();
        Ok(self.lx.values.push(ValueData {
            kind: ValueKind::SharedDesc,
            ty: d.ty,
            shape: perm.iter().map(|&p| d.shape[p]).collect(),
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: Some(Arc::new(buf.view_of(
                buf.base,
                layout,
                buf.padding.clone(),
                buf.name.clone(),
                buf.align,
            ))),
        }))
    }

    pub(crate) fn shared_desc(
        &mut self,
        op: &'static str,
        desc: Value,
    ) -> Result<Rc<ValueData<'ctx>>> {
        self.get_kind(
            op,
            desc,
            &[ValueKind::SharedDesc],
            "a shared-memory descriptor",
        )
    }

    /// Writes the register tile `tile` into the buffer `desc` (same shape and element type).
    /// Each element is written once (copies in the layout are skipped), as wide vectors as the
    /// two layouts allow, or with `stmatrix` where that moves more per instruction (16-bit
    /// elements in MMA fragments on sm_90+, see [`ldmatrix`](Self::ldmatrix)). Call [`barrier`](Self::barrier) before other threads read it.
    #[track_caller]
    pub fn store_shared(&mut self, desc: Value, tile: Value) -> Result<()> {
        self.record_checked(OpKind::StoreShared, vec![desc.into(), tile.into()], |kb| {
            kb.store_shared_checked(desc, tile)
        })
    }

    /// Checks a store to shared memory (lowered from the record by `lower/shared_ops.rs`).
    fn store_shared_checked(&mut self, desc: Value, tile: Value) -> Result<()> {
        const OP: &str = "store_shared";
        let d = self.shared_desc(OP, desc)?;
        let t = self.get_kind(OP, tile, &[ValueKind::Tile], "a register tile")?;
        if d.shape != t.shape {
            return Err(CodegenError::ShapeMismatch {
                op: OP,
                lhs: d.describe(),
                rhs: t.describe(),
            });
        }
        if d.ty != t.ty {
            return Err(CodegenError::TypeMismatch {
                op: OP,
                lhs: d.describe(),
                rhs: t.describe(),
            });
        }
        let layout = t.layout.clone().expect("a tile has a layout");
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let elem = scalar_dtype(d.ty);
        if self.lx.stmatrix_plan(OP, &layout, &d, elem)?.is_none() {
            self.lx.buffer_offsets(OP, &layout, &buf.layout)?;
        }
        Ok(())
    }

    /// Reads the buffer `desc` into a register tile in `layout` (a distributed layout of the
    /// buffer's shape). Call [`barrier`](Self::barrier) after the writes it must see.
    #[track_caller]
    pub fn load_shared(&mut self, desc: Value, layout: impl IntoLayout) -> Result<Value> {
        self.record_checked(OpKind::LoadShared, vec![desc.into()], |kb| {
            kb.load_shared_checked(desc, layout)
        })
    }

    /// Checks a load from shared memory and makes its tile (lowered from the record by
    /// `lower/shared_ops.rs`).
    fn load_shared_checked(&mut self, desc: Value, layout: impl IntoLayout) -> Result<Value> {
        const OP: &str = "load_shared";
        let d = self.shared_desc(OP, desc)?;
        let l = self.tile_layout(OP, layout, Some(&d.shape))?;
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        self.lx.buffer_offsets(OP, &l, &buf.layout)?;
        let info = AxisInfo::unknown(&d.shape);
        Ok(self
            .lx
            .values
            .new_value(d.ty, d.shape.clone(), Some(l), vec![], info))
    }
}

/// The element type of a tile or buffer type.
pub(crate) fn scalar_dtype(ty: Type) -> DType {
    match ty {
        Type::Scalar(d) => d,
        Type::Ptr(..) => DType::I64,
    }
}

/// The byte alignment a buffer in the shared layout named `name` starts at: an NVMMA layout's
/// swizzle atom (up to 8 rows of 128 bytes) is applied by TMA and wgmma on absolute address bits,
/// so it is aligned to 1024 bytes; every other layout to a 16-byte vector.
pub(crate) fn base_alignment(name: &str) -> u64 {
    if name == "NVMMASharedLayout" {
        1024
    } else {
        16
    }
}

/// Checks a shared layout for a buffer of `shape`: in dim `offset` (a size-1 `block` is
/// dropped), out dims `dim0, dim1, …` of the buffer's sizes, one element per offset.
pub(crate) fn shared_linear(
    op: &'static str,
    l: &LinearLayout,
    shape: &[u64],
) -> Result<LinearLayout> {
    let bad = |reason: String| CodegenError::BadLayout { op, reason };
    let mut l = l.clone();
    if l.has_in_dim(Dim::BLOCK.as_str()) && l.in_dim_size(Dim::BLOCK.as_str())? == 1 {
        l = l.squeeze_ins(Dim::BLOCK.as_str())?;
    }
    let ins: Vec<String> = l.in_dim_names().map(|d| d.to_string()).collect();
    if ins != [Dim::OFFSET.as_str()] {
        return Err(bad(format!(
            "a shared layout has the single input dim `offset` (and a size-1 `block`), this one {ins:?}: \
             a distributed layout describes registers, not shared memory ({l:?})"
        )));
    }
    let own: Vec<u64> = l.out_dims().map(|(_, s)| s).collect();
    let names_ok = l
        .out_dim_names()
        .enumerate()
        .all(|(i, n)| *n == Dim::dim(i));
    if own != shape || !names_ok {
        return Err(bad(format!(
            "the buffer has shape {shape:?}, the layout maps to {own:?} ({l:?})"
        )));
    }
    if !l.is_invertible() {
        return Err(bad(format!(
            "a shared layout must hold every element exactly once ({l:?})"
        )));
    }
    Ok(l)
}

/// `count` copies of the buffer layout `l` one after the other: a new outermost dim 0 of size
/// `count` on the top offset bits.
fn stack_buffers(l: &LinearLayout, count: u64) -> Result<LinearLayout> {
    let rank = l.num_out_dims();
    let mut bases: Vec<Vec<u64>> = l
        .bases(Dim::OFFSET.as_str())?
        .into_iter()
        .map(|b| std::iter::once(0).chain(b).collect())
        .collect();
    for j in 0..count.trailing_zeros() {
        let mut b = vec![0; rank + 1];
        b[0] = 1 << j;
        bases.push(b);
    }
    let outs: Vec<(Dim, u64)> = std::iter::once(count)
        .chain(l.out_dims().map(|(_, s)| s))
        .enumerate()
        .map(|(i, s)| (Dim::dim(i), s))
        .collect();
    Ok(LinearLayout::from_bases(
        [(Dim::OFFSET, bases)],
        outs,
        true,
    )?)
}

/// The layout of one buffer along dim 0 of `l` (dims renumbered from 0), when dim 0 takes
/// exactly the top offset bits (each a single power of two of dim 0, no other bit touching it).
pub(crate) fn outer_dim_removed(l: &LinearLayout) -> Option<LinearLayout> {
    let bases = l.bases(Dim::OFFSET.as_str()).ok()?;
    let outs: Vec<u64> = l.out_dims().map(|(_, s)| s).collect();
    let k = outs[0].trailing_zeros() as usize;
    let n = bases.len();
    let (low, high) = bases.split_at(n.checked_sub(k)?);
    let low_ok = low.iter().all(|b| b[0] == 0);
    let high_ok = high
        .iter()
        .enumerate()
        .all(|(j, b)| b[0] == 1 << j && b[1..].iter().all(|&x| x == 0));
    if !low_ok || !high_ok {
        return None;
    }
    let inner: Vec<Vec<u64>> = low.iter().map(|b| b[1..].to_vec()).collect();
    let dims: Vec<(Dim, u64)> = outs[1..]
        .iter()
        .enumerate()
        .map(|(i, &s)| (Dim::dim(i), s))
        .collect();
    LinearLayout::from_bases([(Dim::OFFSET, inner)], dims, true).ok()
}
