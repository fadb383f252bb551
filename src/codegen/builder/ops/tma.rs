//! TMA: tile copies between global memory and shared memory done by the tensor memory
//! accelerator (`cp.async.bulk.tensor`, sm_90), described by a tensor map parameter
//! ([`arg_tensor_map`](KernelBuilder::arg_tensor_map)).
//!
//! One thread issues a copy; a load signals an mbarrier with the bytes it wrote (arm it first with
//! [`mbarrier_expect`](KernelBuilder::mbarrier_expect)); a store joins a bulk group that
//! [`tma_store_wait`](KernelBuilder::tma_store_wait) waits for. Elements outside the tensor load as
//! zero and are not stored, so ragged edges need no masks.
//!
//! A copy writes shared memory in the layout the map's box and swizzle imply, which is an
//! `NVMMASharedLayout` of the box (row-major when unswizzled). The destination of a load may be
//! larger than one box: it is then filled box by box, and the algebra checks that every box lands
//! where the buffer's layout puts those elements (the buffer's layout restricted to one box is the
//! box's layout, and box origins move whole boxes).

use inkwell::values::IntValue;

use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::target::nvptx::tma::{self as ptx, BoxCopy};
use crate::codegen::target::LlvmTarget;
use crate::layout::encoding::NvmmaShared;
use crate::layout::{Dim, LinearLayout};
use crate::signature::TensorMapSpec;
use crate::target::Feature;

/// Where each box of a copy goes: its origin in the tile (outermost dim first) and its byte offset
/// in the buffer.
struct BoxPlan {
    boxes: Vec<(Vec<u64>, u64)>,
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Loads the tile of `dst`'s shape whose first element is at `coords` (one `i32` scalar per dim,
    /// outermost first, in elements) of the tensor `tmap` describes into the shared buffer `dst`,
    /// asynchronously. Thread 0 issues it (and only where `pred`, an `i1` scalar, holds); the
    /// bytes land on `bar`, which must expect them ([`mbarrier_expect`](Self::mbarrier_expect)
    /// with [`tma_bytes`](Self::tma_bytes) of `dst`). Wait on `bar` before reading `dst`.
    #[track_caller]
    pub fn tma_load(
        &mut self,
        tmap: Value,
        coords: &[Value],
        dst: Value,
        bar: Value,
        pred: Option<Value>,
    ) -> Result<()> {
        self.record(
            OpKind::TmaLoad {
                has_pred: pred.is_some(),
            },
            [
                Some(Arg::from(tmap)),
                Some(Arg::from(dst)),
                Some(Arg::from(bar)),
                pred.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .chain(coords.iter().map(|c| Arg::from(*c)))
            .collect(),
            |kb| kb.tma_load_impl(tmap, coords, dst, bar, pred),
        )
    }

    fn tma_load_impl(
        &mut self,
        tmap: Value,
        coords: &[Value],
        dst: Value,
        bar: Value,
        pred: Option<Value>,
    ) -> Result<()> {
        self.tma_load_with("tma_load", [tmap, dst, bar], coords, pred, None)
    }

    /// A load of `dst`'s boxes at `coords` signalling `bar`, issued by thread 0 where `pred`
    /// holds; multicast to the CTAs of the cluster in `mask` (an `i16`) when given.
    pub(crate) fn tma_load_with(
        &mut self,
        op: &'static str,
        [tmap, dst, bar]: [Value; 3],
        coords: &[Value],
        pred: Option<Value>,
        mask: Option<IntValue<'ctx>>,
    ) -> Result<()> {
        let (spec, map_addr, c, d) = self.tma_operands(op, tmap, coords, dst)?;
        let bar = self.mbarrier_addr(op, bar)?;
        let issue = self.issuer_predicate(op, pred)?;
        let dir = match mask {
            None => BoxCopy::Load { bar },
            Some(mask) => BoxCopy::Multicast { bar, mask },
        };
        self.tma_boxes(op, &spec, map_addr, &c, &d, issue, dir)
    }

    /// Stores the shared buffer `src` to the tile at `coords` (outermost first) of the tensor
    /// `tmap` describes, asynchronously; elements outside the tensor are skipped. Thread 0 issues
    /// it. Before: every thread's writes to `src` must be visible to the async proxy
    /// ([`fence_async_shared`](Self::fence_async_shared), then [`barrier`](Self::barrier)). After:
    /// [`tma_store_wait`](Self::tma_store_wait) before `src` is written again or the kernel ends.
    #[track_caller]
    pub fn tma_store(&mut self, tmap: Value, coords: &[Value], src: Value) -> Result<()> {
        self.record(
            OpKind::TmaStore,
            [Arg::from(tmap), Arg::from(src)]
                .into_iter()
                .chain(coords.iter().map(|c| Arg::from(*c)))
                .collect(),
            |kb| kb.tma_store_impl(tmap, coords, src),
        )
    }

    fn tma_store_impl(&mut self, tmap: Value, coords: &[Value], src: Value) -> Result<()> {
        const OP: &str = "tma_store";
        let (spec, map_addr, c, d) = self.tma_operands(OP, tmap, coords, src)?;
        let issue = self.lx.is_thread0()?;
        self.tma_boxes(OP, &spec, map_addr, &c, &d, issue, BoxCopy::Store)?;
        ptx::commit_group(&self.lx.em, issue)?;
        Ok(())
    }

    /// Waits until at most `pending` of thread 0's TMA stores still read their shared source
    /// (`cp.async.bulk.wait_group.read`); follow with a [`barrier`](Self::barrier) before other
    /// threads overwrite it.
    #[track_caller]
    pub fn tma_store_wait(&mut self, pending: u32) -> Result<()> {
        self.record_checked(OpKind::TmaStoreWait(pending), vec![], |kb| {
            kb.tma_store_wait_impl()
        })
    }

    fn tma_store_wait_impl(&mut self) -> Result<()> {
        const OP: &str = "tma_store_wait";
        self.lx.ensure_body()?;
        self.lx.target.require(Feature::Tma, OP)?;
        Ok(())
    }

    /// Bytes a TMA copy into `dst` delivers (what its mbarrier must expect).
    pub fn tma_bytes(&mut self, dst: Value) -> Result<u32> {
        let d = self.get_kind(
            "tma_bytes",
            dst,
            &[ValueKind::SharedDesc],
            "a shared-memory descriptor",
        )?;
        let n: u64 = d.shape.iter().product::<u64>() * scalar_dtype(d.ty).mem_bytes();
        u32::try_from(n).map_err(|_| CodegenError::arg("tma_bytes", format!("{n} bytes")))
    }

    /// Checks a copy's operands: the map, one `i32` coordinate per dim, a shared buffer of the
    /// map's element type and rank.
    #[allow(clippy::type_complexity)]
    fn tma_operands(
        &mut self,
        op: &'static str,
        tmap: Value,
        coords: &[Value],
        buf: Value,
    ) -> Result<(
        TensorMapSpec,
        IntValue<'ctx>,
        Vec<IntValue<'ctx>>,
        std::rc::Rc<ValueData<'ctx>>,
    )> {
        self.lx.ensure_body()?;
        self.lx.target.require(Feature::Tma, op)?;
        let m = self.get_kind(op, tmap, &[ValueKind::TensorMap], "a tensor map parameter")?;
        let spec = self
            .tensor_map_spec(tmap)
            .ok_or_else(|| CodegenError::arg(op, "the tensor map has no declared box"))?;
        let d = self.get_kind(
            op,
            buf,
            &[ValueKind::SharedDesc],
            "a shared-memory descriptor",
        )?;
        let elem = crate::codegen::builder::elem_type(scalar_dtype(d.ty));
        if elem != spec.elem {
            return Err(CodegenError::TypeMismatch {
                op,
                lhs: format!("tensor map of {}", spec.elem),
                rhs: d.describe(),
            });
        }
        if d.shape.len() != spec.rank as usize || coords.len() != spec.rank as usize {
            return Err(CodegenError::arg(
                op,
                format!(
                    "a rank-{} tensor map (box {:?}) with {} coordinates and {}",
                    spec.rank,
                    spec.box_shape(),
                    coords.len(),
                    d.describe()
                ),
            ));
        }
        let c = coords
            .iter()
            .map(|v| self.i32_operand(op, crate::codegen::Operand::Value(*v), "coordinate"))
            .collect::<Result<Vec<_>>>()?;
        let addr = self.lx.tensor_map_addr(m.regs[0].into_pointer_value())?;
        Ok((spec, addr, c, d))
    }

    /// Emits one copy per box of `d` (issued where `issue` holds), in direction `dir`.
    #[allow(clippy::too_many_arguments)]
    fn tma_boxes(
        &mut self,
        op: &'static str,
        spec: &TensorMapSpec,
        map_addr: IntValue<'ctx>,
        coords: &[IntValue<'ctx>],
        d: &ValueData<'ctx>,
        issue: IntValue<'ctx>,
        dir: BoxCopy<'ctx>,
    ) -> Result<()> {
        let plan = box_plan(op, spec, d)?;
        let base = self.shared_base(d);
        self.lx
            .copy_boxes(dir, issue, base, map_addr, coords, &plan.boxes)
    }
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

/// Splits a copy of buffer `d` into boxes, checking that each box lands where `d`'s layout puts
/// its elements.
fn box_plan(op: &'static str, spec: &TensorMapSpec, d: &ValueData<'_>) -> Result<BoxPlan> {
    let buf = d.shared.as_ref().expect("a descriptor has a buffer");
    let bad = |reason: String| CodegenError::BadLayout { op, reason };
    if !buf.padding.is_empty() {
        return Err(bad(format!(
            "{} is padded: TMA writes dense boxes",
            d.describe()
        )));
    }
    let boxed = spec.box_shape();
    for (i, (&s, &b)) in d.shape.iter().zip(boxed).enumerate() {
        if s % u64::from(b) != 0 {
            return Err(bad(format!(
                "dim {i} of {} is not a multiple of the box {boxed:?}",
                d.describe()
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
            d.describe(),
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
    let counts: Vec<u64> = d
        .shape
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
                d.describe()
            )));
        }
        boxes.push((origin, off));
    }
    Ok(BoxPlan { boxes })
}
