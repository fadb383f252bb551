//! Lowering of recorded global loads and stores: operands broadcast to one layout, the vector
//! plan from the pointers' and mask's facts, the accesses, and the op's report row.

use std::rc::Rc;
use std::sync::Arc;

use crate::codegen::analysis::operand_feeds::{literal_feed, Feed};
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::CacheHint;
use crate::codegen::ir::{Arg, Op, OpKind};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::elementwise::unify_plan;
use crate::codegen::lower::values::{Literal, ValueData};
use crate::codegen::types::{AddrSpace, DType, Type};
use inkwell::values::BasicValueEnum;

impl<'ctx> LowerCtx<'ctx> {
    /// Lowers a recorded `load` (operands `[ptrs, mask?, other?]`) into its result.
    pub(crate) fn lower_load(&mut self, op: &Op) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let OpKind::Load {
            hint,
            has_mask,
            has_other,
        } = op.kind
        else {
            return Err(not_global(op));
        };
        let p = self.op_operand(op, 0)?;
        let elem = pointee(op, &p)?;
        let m = has_mask.then(|| self.op_operand(op, 1)).transpose()?;
        let o = match has_other {
            true => Some(self.element_arg(op, op.args.len() - 1, elem)?),
            false => None,
        };
        // Masked-off elements load as zero already (a predicated load zeroes its registers
        // first, a guarded one yields zero): an `other` of +0 needs no select.
        let zero_other = o.as_ref().is_some_and(|d| match d.literal {
            Some(Literal::Int(0)) => true,
            Some(Literal::Float(x)) => x.to_bits() == 0,
            _ => false,
        });
        let o = o.filter(|_| !zero_other);
        self.report_row("load", op.loc, Some(&p), |lx| {
            let Some((layout, shape)) =
                lx.common_layout("load", &[Some(&p), m.as_deref(), o.as_deref()])?
            else {
                // A scalar load.
                let pred = m.as_ref().map(|d| d.regs[0].into_int_value());
                let other0 = o.as_ref().map(|d| d.regs[0]);
                let v = lx.load_scalar(p.regs[0].into_pointer_value(), pred, other0, elem, hint)?;
                return Ok(vec![v]);
            };
            let (ptrs, pinfo) = lx.broadcast_regs("load", &p, &shape, &layout)?;
            let mask = m
                .as_ref()
                .map(|d| lx.broadcast_regs("load", d, &shape, &layout))
                .transpose()?;
            let other = o
                .as_ref()
                .map(|d| lx.broadcast_regs("load", d, &shape, &layout))
                .transpose()?;
            let plan = lx.plan(&layout, &pinfo, mask.as_ref().map(|m| &m.1), elem);
            lx.load_regs(
                &layout,
                plan.vec,
                &ptrs,
                mask.as_ref().map(|m| &m.0[..]),
                other.as_ref().map(|o| &o.0[..]),
                elem,
                hint,
            )
        })
    }

    /// Lowers a recorded `store` (operands `[ptrs, value, mask?]`).
    pub(crate) fn lower_store(&mut self, op: &Op, hint: CacheHint) -> Result<()> {
        let p = self.op_operand(op, 0)?;
        let elem = pointee(op, &p)?;
        let v = self.element_arg(op, 1, elem)?;
        let m = (op.args.len() > 2)
            .then(|| self.op_operand(op, 2))
            .transpose()?;
        self.report_row("store", op.loc, Some(&p), |lx| {
            let Some((layout, shape)) =
                lx.common_layout("store", &[Some(&p), Some(&v), m.as_deref()])?
            else {
                // A scalar store: one thread writes (Triton's rule), under the mask if any.
                let first = lx.first_thread()?;
                let mask = m.as_ref().map(|d| d.regs[0].into_int_value());
                lx.report.global(1, elem.mem_bytes(), 1, mask.is_some());
                let pred = lx.and_pred(mask, Some(first))?;
                return lx.guarded_store(
                    p.regs[0].into_pointer_value(),
                    elem,
                    &[v.regs[0]],
                    hint,
                    pred,
                );
            };
            let (ptrs, pinfo) = lx.broadcast_regs("store", &p, &shape, &layout)?;
            let (vals, _) = lx.broadcast_regs("store", &v, &shape, &layout)?;
            let mask = m
                .as_ref()
                .map(|d| lx.broadcast_regs("store", d, &shape, &layout))
                .transpose()?;
            let plan = lx.plan(&layout, &pinfo, mask.as_ref().map(|m| &m.1), elem);
            lx.store_regs(
                &layout,
                plan.vec,
                &ptrs,
                &vals,
                mask.as_ref().map(|m| &m.0[..]),
                elem,
                hint,
            )
        })
    }

    /// Lowers a recorded atomic (operands `[ptrs, value, mask?]` or `[ptrs, cmp, value, mask?]`)
    /// into its old values.
    pub(crate) fn lower_atomic(&mut self, op: &Op) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let values = match op.kind {
            OpKind::AtomicRmw(_) => 1,
            OpKind::AtomicCas => 2,
            _ => return Err(not_global(op)),
        };
        let r = self.op_result(op)?;
        let p = self.op_operand(op, 0)?;
        let elem = pointee(op, &p)?;
        let ptrs = self.regs_as("atomic", &p, &r)?;
        let mut vals = Vec::with_capacity(values);
        for i in 1..=values {
            let v = self.element_arg(op, i, elem)?;
            vals.push(self.regs_as("atomic", &v, &r)?);
        }
        let mut mask = match op.args.len() > values + 1 {
            true => {
                let m = self.op_operand(op, values + 1)?;
                Some(self.regs_as("atomic", &m, &r)?)
            }
            false => None,
        };
        // A scalar atomic: the first thread alone performs it, under the mask.
        let slot = match r.layout {
            None => {
                let first = self.first_thread()?;
                let m = mask.as_ref().map(|m| m[0].into_int_value());
                let pred = self.and_pred(m, Some(first))?.unwrap_or(first);
                mask = Some(vec![pred.into()]);
                Some(self.staged.atomics.take("atomic", op)?)
            }
            Some(_) => None,
        };
        let old = match (&op.kind, &vals[..]) {
            (OpKind::AtomicRmw(a), [v]) => {
                self.atomic_rmw_regs(*a, elem, &r.layout, &ptrs, v, mask.as_deref())?
            }
            (_, [c, v]) => self.atomic_cas_regs(elem, &r.layout, &ptrs, c, v, mask.as_deref())?,
            _ => return Err(not_global(op)),
        };
        match slot {
            Some(s) => Ok(vec![self.broadcast_first_thread(old[0], elem, s)?]),
            None => Ok(old),
        }
    }

    /// The common layout and shape of the operands given, `None` when all are scalars.
    fn common_layout(
        &self,
        op: &'static str,
        ds: &[Option<&ValueData<'ctx>>],
    ) -> Result<Option<(Arc<TileLayout>, Vec<u64>)>> {
        let ds: Vec<&ValueData> = ds.iter().flatten().copied().collect();
        let u = unify_plan(op, &ds, self.threads_per_warp(), self.num_warps)?;
        Ok(u.layout.map(|l| (l, u.shape)))
    }

    /// Operand `i` of `op` as a value of `elem`: the value, or its literal made in `elem`.
    fn element_arg(&mut self, op: &Op, i: usize, elem: DType) -> Result<Rc<ValueData<'ctx>>> {
        let lit = match op.args.get(i) {
            Some(Arg::Int(v)) => Literal::Int(*v),
            Some(Arg::Float(x)) => Literal::Float(*x),
            _ => return self.op_operand(op, i),
        };
        let Feed::Const { lit, dtype } = literal_feed("lower", lit, Some(Type::Scalar(elem)))?
        else {
            return Err(not_global(op));
        };
        Ok(self.const_value(lit, dtype))
    }
}

/// The element type `p`'s pointers point to.
fn pointee(op: &Op, p: &ValueData<'_>) -> Result<DType> {
    match p.ty {
        Type::Ptr(d, AddrSpace::Global) => Ok(d),
        _ => Err(not_global(op)),
    }
}

fn not_global(op: &Op) -> CodegenError {
    CodegenError::arg("lower", format!("{:?}: not a global access", op.kind))
}
