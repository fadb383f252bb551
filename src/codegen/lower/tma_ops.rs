//! Lowering of the TMA copies and the remote arrive from their record: a box load (multicast
//! to the cluster's CTAs in a mask, or not), a box store and its bulk group, and an arrive on
//! a peer CTA's mbarrier.
//!
//! The builder checked the operands and the box plan; the emission order here is the one the
//! methods had (the map's address, the barrier's, the issuing predicate, the buffer's start,
//! one copy per box), so the LLVM IR is the same.

use inkwell::values::IntValue;

use crate::codegen::analysis::tma_boxes::box_plan;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Op, OpKind};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::shared_ops::desc_buf;
use crate::codegen::lower::values::{Value, ValueData};
use crate::codegen::target::nvptx::cluster as cluster_ptx;
use crate::codegen::target::nvptx::tma::{self as ptx, BoxCopy};
use crate::signature::{ParamType, TensorMapSpec};

/// Which box copy: what it does besides moving the boxes.
enum BoxOp {
    /// A load signalling the barrier at operand 2, issued where the predicate holds.
    Load { pred: Option<usize> },
    /// A load multicast to the CTAs of the mask at operand 3.
    Multicast { pred: Option<usize> },
    /// A store, issued by thread 0 and committed as a bulk group.
    Store,
}

impl<'ctx> LowerCtx<'ctx> {
    /// `tma_load` or `tma_load_multicast`: operands `[tmap, dst, bar, mask?, pred?, coords...]`.
    pub(crate) fn lower_tma_load(&mut self, op: &Op) -> Result<()> {
        let copy = match op.kind {
            OpKind::TmaLoad { has_pred } => BoxOp::Load {
                pred: has_pred.then_some(3),
            },
            OpKind::TmaLoadMulticast { has_pred } => BoxOp::Multicast {
                pred: has_pred.then_some(4),
            },
            _ => return Err(not_tma(op)),
        };
        self.lower_box_copy(op, copy)
    }

    /// `tma_store`: operands `[tmap, src, coords...]`.
    pub(crate) fn lower_tma_store(&mut self, op: &Op) -> Result<()> {
        self.lower_box_copy(op, BoxOp::Store)
    }

    fn lower_box_copy(&mut self, op: &Op, copy: BoxOp) -> Result<()> {
        let name = op_name(op);
        // The mask goes to 16 bits first, as the method did before looking at its operands.
        let mask = match copy {
            BoxOp::Multicast { .. } => {
                let m = self.int_arg(op, 3)?;
                let i16t = self.em.ctx.i16_type();
                Some(self.em.b.build_int_truncate(m, i16t, "")?)
            }
            _ => None,
        };
        let first_coord = match copy {
            BoxOp::Load { pred } => 3 + usize::from(pred.is_some()),
            BoxOp::Multicast { pred } => 4 + usize::from(pred.is_some()),
            BoxOp::Store => 2,
        };
        let tmap = self.op_operand(op, 0)?;
        let spec = self.map_spec(op)?;
        let d = self.op_operand(op, 1)?;
        let coords = (first_coord..op.args.len())
            .map(|i| self.int_arg(op, i))
            .collect::<Result<Vec<IntValue>>>()?;
        let map_reg = tmap
            .regs
            .first()
            .ok_or_else(|| CodegenError::arg(name, "the tensor map has no register"))?;
        let map_addr = self.tensor_map_addr(map_reg.into_pointer_value())?;
        let (dir, issue) = match copy {
            BoxOp::Load { pred } | BoxOp::Multicast { pred } => {
                let bar = self.op_operand(op, 2)?;
                let bar = self.mbarrier_addr(&bar)?;
                let pred = pred.map(|i| self.int_arg(op, i)).transpose()?;
                let issue = self.issuer(pred)?;
                let dir = match mask {
                    Some(mask) => BoxCopy::Multicast { bar, mask },
                    None => BoxCopy::Load { bar },
                };
                (dir, issue)
            }
            BoxOp::Store => (BoxCopy::Store, self.is_thread0()?),
        };
        self.copy_desc_boxes(name, &spec, &d, map_addr, &coords, issue, dir)?;
        if let BoxOp::Store = copy {
            ptx::commit_group(&self.em, issue)?;
        }
        Ok(())
    }

    /// One copy per box of the buffer `d` (issued where `issue` holds), in direction `dir`.
    #[allow(clippy::too_many_arguments)]
    fn copy_desc_boxes(
        &mut self,
        name: &'static str,
        spec: &TensorMapSpec,
        d: &ValueData<'ctx>,
        map_addr: IntValue<'ctx>,
        coords: &[IntValue<'ctx>],
        issue: IntValue<'ctx>,
        dir: BoxCopy<'ctx>,
    ) -> Result<()> {
        let plan = box_plan(name, spec, &d.shape, desc_buf(d)?, &|| d.describe())?;
        let base = self.desc_start(d)?;
        self.copy_boxes(dir, issue, base, map_addr, coords, &plan.boxes)
    }

    /// `mbarrier_arrive_cluster[_per_warp]`: operands `[bar, rank]`.
    pub(crate) fn lower_arrive_remote(&mut self, op: &Op, per_warp: bool) -> Result<()> {
        let bar = self.op_operand(op, 0)?;
        let addr = self.mbarrier_addr(&bar)?;
        let rank = self.int_arg(op, 1)?;
        let lane0 = if per_warp {
            let lane = self.lane_id()?;
            let zero = self.em.ctx.i32_type().const_zero();
            Some(
                self.em
                    .b
                    .build_int_compare(inkwell::IntPredicate::EQ, lane, zero, "")?,
            )
        } else {
            None
        };
        cluster_ptx::arrive_remote(&self.em, addr, rank, lane0)
    }

    /// The box and swizzle the tensor map at operand 0 of `op` was declared with.
    fn map_spec(&self, op: &Op) -> Result<TensorMapSpec> {
        let id = op.args.first().and_then(|a| a.value());
        let spec = id.and_then(|id| {
            let v = Value {
                kernel: self.values.kernel_id(),
                index: id.0,
            };
            let i = self.param_values.iter().position(|p| *p == v)?;
            match self.params[i].ty {
                ParamType::TensorMap(spec) => spec,
                _ => None,
            }
        });
        spec.ok_or_else(|| CodegenError::arg(op_name(op), "the tensor map has no declared box"))
    }
}

fn op_name(op: &Op) -> &'static str {
    match op.kind {
        OpKind::TmaLoadMulticast { .. } => "tma_load_multicast",
        OpKind::TmaStore => "tma_store",
        _ => "tma_load",
    }
}

fn not_tma(op: &Op) -> CodegenError {
    CodegenError::arg("lower", format!("{:?} is not a TMA copy", op.kind))
}
