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
//! where the buffer's layout puts those elements (`analysis/tma_boxes.rs`). The methods check;
//! the copies are lowered from the record (`lower/tma_ops.rs`).

use crate::codegen::analysis::tma_boxes::box_plan;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::values::{Value, ValueKind};
use crate::codegen::target::LlvmTarget;
use crate::target::Feature;

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
        self.record_checked(
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
            |kb| kb.tma_load_checked("tma_load", [tmap, dst, bar], coords, pred),
        )
    }

    /// Checks a load of `dst`'s boxes at `coords` signalling `bar`, issued where `pred` holds.
    pub(crate) fn tma_load_checked(
        &mut self,
        op: &'static str,
        [tmap, dst, bar]: [Value; 3],
        coords: &[Value],
        pred: Option<Value>,
    ) -> Result<()> {
        self.tma_operands(op, tmap, coords, dst)?;
        self.mbarrier_checked(op, bar)?;
        self.issuer_checked(op, pred)?;
        Ok(())
    }

    /// Stores the shared buffer `src` to the tile at `coords` (outermost first) of the tensor
    /// `tmap` describes, asynchronously; elements outside the tensor are skipped. Thread 0 issues
    /// it. Before: every thread's writes to `src` must be visible to the async proxy
    /// ([`fence_async_shared`](Self::fence_async_shared), then [`barrier`](Self::barrier)). After:
    /// [`tma_store_wait`](Self::tma_store_wait) before `src` is written again or the kernel ends.
    #[track_caller]
    pub fn tma_store(&mut self, tmap: Value, coords: &[Value], src: Value) -> Result<()> {
        self.record_checked(
            OpKind::TmaStore,
            [Arg::from(tmap), Arg::from(src)]
                .into_iter()
                .chain(coords.iter().map(|c| Arg::from(*c)))
                .collect(),
            |kb| kb.tma_operands("tma_store", tmap, coords, src),
        )
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
        self.start_body()?;
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
    /// map's element type and rank whose layout the map's boxes write.
    fn tma_operands(
        &mut self,
        op: &'static str,
        tmap: Value,
        coords: &[Value],
        buf: Value,
    ) -> Result<()> {
        self.start_body()?;
        self.lx.target.require(Feature::Tma, op)?;
        self.get_kind(op, tmap, &[ValueKind::TensorMap], "a tensor map parameter")?;
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
        for v in coords {
            self.i32_checked(op, crate::codegen::Operand::Value(*v), "coordinate")?;
        }
        let b = d.shared.clone().expect("a descriptor has a buffer");
        box_plan(op, &spec, &d.shape, &b, &|| d.describe())?;
        Ok(())
    }
}
