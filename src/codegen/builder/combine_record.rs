//! Recording a user's combine function (`reduce_with`, `associative_scan_with`): it runs once,
//! into its op's region (its ops are lowered from their record at every combination the op's
//! lowering makes, `lower/combine_body.rs`). What cannot
//! be lowered that way is refused with a typed error at its line.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{OpKind, RegionId, ValueId};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::values::Value;
use crate::codegen::types::{DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    /// Records `combine`, a user's combine function of two scalars of `elem` for `op`, into
    /// `region` (a fresh one when the op is not recorded), without lowering it: it runs once,
    /// here, and its ops are lowered from their record at each combination the op's lowering
    /// makes (`lower/combine_body.rs`).
    pub(crate) fn record_combine(
        &mut self,
        op: &'static str,
        region: Option<RegionId>,
        elem: DType,
        combine: impl FnOnce(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<CombineBody> {
        let ty = Type::Scalar(elem);
        let scalar = |kb: &mut Self| {
            kb.lx
                .values
                .new_value(ty, vec![], None, vec![], AxisInfo::scalar(1))
        };
        let (a, b) = (scalar(self), scalar(self));
        let region = region.unwrap_or_else(|| self.rec.prog.new_region());
        self.rec.hold += 1;
        let out = self.in_region(Some(region), &[a, b], |kb| combine(kb, a, b));
        self.rec.hold -= 1;
        let held = self.rec.prog.region(region).ops.clone();
        let r = out?;
        // Control flow inside a combine function would need its blocks at every combination
        // (a return there is the verifier's: it names the hazard).
        if let Some(o) = held.iter().map(|id| self.rec.prog.op(*id)).find(|o| {
            matches!(
                o.kind,
                OpKind::For { .. }
                    | OpKind::If
                    | OpKind::IfThen
                    | OpKind::WarpRoles(_)
                    | OpKind::InRole(_)
                    | OpKind::RoleReplica
            )
        }) {
            return Err(CodegenError::arg(
                op,
                format!(
                    "{:?} inside a combine function, which combines two scalars with ops lowered \
                     from their record (arithmetic, comparisons, where, math, casts)",
                    o.kind
                ),
            )
            .at(o.loc));
        }
        let d = self.lx.values.peek(op, r)?;
        if d.ty != ty || !d.is_scalar() {
            return Err(CodegenError::TypeMismatch {
                op,
                lhs: format!("scalar<{elem}>"),
                rhs: d.describe(),
            });
        }
        // Ops planned once (tile ops) cannot be lowered at every combination: the function is
        // refused at the first such op.
        let refused = self.rec.prog.region(region).ops.iter().find_map(|id| {
            let o = self.rec.prog.op(*id);
            let planned_once = matches!(
                o.kind,
                OpKind::ConvertLayout
                    | OpKind::Reduce { .. }
                    | OpKind::ReduceWith(_)
                    | OpKind::ArgMax(_)
                    | OpKind::ArgMin(_)
                    | OpKind::Scan { .. }
                    | OpKind::ScanWith(_)
                    | OpKind::Dot
                    | OpKind::Ldmatrix
                    | OpKind::GroupedTile(_)
            );
            planned_once.then(|| {
                CodegenError::arg(
                    op,
                    format!(
                        "{:?} inside a combine function, which combines two scalars with ops \
                         lowered from their record (arithmetic, comparisons, where, math, casts)",
                        o.kind
                    ),
                )
                .at(o.loc)
            })
        });
        let ops = held
            .iter()
            .map(|id| self.rec.prog.op(*id).clone())
            .collect();
        Ok(CombineBody {
            params: [ValueId(a.index), ValueId(b.index)],
            ops,
            yields: ValueId(r.index),
            refused,
        })
    }
}
