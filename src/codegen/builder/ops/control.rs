//! Structured control flow: `for_range` loops carrying values, and `if_` on a scalar.
//!
//! Bodies are closures, so every block the builder opens is closed by the builder: no IR with an
//! unterminated block can be produced. Values made inside a body are visible only there; pass
//! them out by yielding them. Static unrolling needs no op: write a Rust loop.

use std::rc::Rc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::body_once::BodyOnce;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind, RegionId, ValueId};
use crate::codegen::lower::values::{Value, ValueData};
use crate::codegen::passes::axis_flow::{
    first_assumption, induction_info, loop_fixpoint, weaken, AxisFlow, Known,
};
use crate::codegen::types::{DType, Type};

/// One failed attempt of a loop, as the axis-info pass is checked against it.
#[derive(Clone, Copy)]
struct LoopFacts<'a> {
    /// The induction variable's facts.
    iv: &'a AxisInfo,
    /// What the attempt assumed of the carried values.
    tried: &'a [AxisInfo],
    /// What its yields had.
    got: &'a [AxisInfo],
    /// The carried values' shapes.
    shapes: &'a [&'a [u64]],
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Checks that `yielded` values match `expected` in type, shape and layout.
    fn check_yield(
        &mut self,
        op: &'static str,
        expected: &[Rc<ValueData<'ctx>>],
        yielded: &[Value],
    ) -> Result<Vec<Rc<ValueData<'ctx>>>> {
        if expected.len() != yielded.len() {
            return Err(CodegenError::arg(
                op,
                format!(
                    "the body yields {} values, {} were expected",
                    yielded.len(),
                    expected.len()
                ),
            ));
        }
        let mut out = Vec::with_capacity(yielded.len());
        for (e, y) in expected.iter().zip(yielded) {
            let d = self.get(op, *y)?;
            if d.ty != e.ty {
                return Err(CodegenError::TypeMismatch {
                    op,
                    lhs: e.describe(),
                    rhs: d.describe(),
                });
            }
            if d.shape != e.shape {
                return Err(CodegenError::ShapeMismatch {
                    op,
                    lhs: e.describe(),
                    rhs: d.describe(),
                });
            }
            if let (Some(el), Some(dl)) = (&e.layout, &d.layout) {
                if el != dl {
                    return Err(el.mismatch(dl, op, e.describe(), d.describe()));
                }
            }
            out.push(d);
        }
        Ok(out)
    }

    /// `for iv in (lo..hi).step_by(step)`, carrying `init` through the iterations: `body` gets the
    /// induction variable (an `i32` or `i64` scalar like `lo`) and the carried values, and returns
    /// the next carried values (same types, shapes and layouts). Returns the values after the
    /// last iteration (`init` if there is none).
    ///
    /// What is known of the carried values (for vector widths) is their initial facts when the
    /// body keeps them (a pointer advanced by a multiple of 16 bytes stays 16-byte aligned);
    /// otherwise the facts that hold in every iteration are found by the axis-info pass over
    /// the body's record and the body is recorded once more with them: `body` runs once.
    #[track_caller]
    pub fn for_range(
        &mut self,
        lo: impl crate::codegen::IntoOperand,
        hi: impl crate::codegen::IntoOperand,
        step: u32,
        init: &[Value],
        mut body: impl FnMut(&mut Self, Value, &[Value]) -> Result<Vec<Value>>,
    ) -> Result<Vec<Value>> {
        let (lo, hi) = (lo.into_operand(), hi.into_operand());
        self.record_checked_with_regions(
            OpKind::For { step },
            [Arg::from(lo), Arg::from(hi)]
                .into_iter()
                .chain(init.iter().map(|v| Arg::from(*v)))
                .collect(),
            1,
            |kb, bodies| {
                let mut once = BodyOnce::new(bodies.get(0));
                kb.for_range_check(lo, hi, step, init, bodies.get(0), |kb, iv, carried| {
                    let params: Vec<Value> =
                        std::iter::once(iv).chain(carried.iter().copied()).collect();
                    once.lower(kb, &params, |kb| body(kb, iv, carried))
                })
            },
        )
    }

    /// `for iv in (lo..hi).step_by(step)` carrying nothing: Gluon's `for i in range(lo, hi)`.
    /// `body` gets the induction variable; whatever it returns besides an error is dropped, so a
    /// one-op body is one expression (`|kb, i| kb.expr(…)`). As [`for_range`](Self::for_range),
    /// the body may run more than once while the loop is built.
    #[track_caller]
    pub fn for_each<T>(
        &mut self,
        lo: impl crate::codegen::IntoOperand,
        hi: impl crate::codegen::IntoOperand,
        step: u32,
        mut body: impl FnMut(&mut Self, Value) -> Result<T>,
    ) -> Result<()> {
        self.for_range(lo, hi, step, &[], |kb, iv, _| body(kb, iv).map(|_| vec![]))
            .map(|_| ())
    }

    /// The attempt at which the loop over `region` (just lowered with `f.tried`, its yields
    /// having `f.got`) keeps what it assumes, and what it assumes then, from `assumed` at
    /// attempt `from`, by the axis-info pass over the body's record. `None` where the body is
    /// not recorded, the pass cannot follow one of its ops, or the pass does not find what
    /// lowering just found.
    fn loop_facts(
        &self,
        region: Option<RegionId>,
        f: LoopFacts<'_>,
        from: usize,
        assumed: &[AxisInfo],
    ) -> Option<(usize, Vec<AxisInfo>)> {
        let region = region?;
        let values = &self.lx.values;
        let kernel = values.kernel_id();
        let outer = |id: ValueId| {
            let v = Value {
                kernel,
                index: id.0,
            };
            values.peek("for_range", v).ok().map(|d| Known::of_value(d))
        };
        let mut flow = AxisFlow::new(&self.rec.prog, outer);
        let params = |a: &[AxisInfo]| -> Vec<AxisInfo> {
            std::iter::once(f.iv.clone())
                .chain(a.iter().cloned())
                .collect()
        };
        if flow.region(region, &params(f.tried))? != f.got {
            return None;
        }
        loop_fixpoint(from, assumed.to_vec(), f.shapes, |a| {
            flow.region(region, &params(a))
        })
    }

    /// `if cond { then_() } else { else_() }` on an i1 scalar; both branches yield values of the
    /// same types, shapes and layouts, which are returned.
    #[track_caller]
    pub fn if_(
        &mut self,
        cond: Value,
        then_: impl FnOnce(&mut Self) -> Result<Vec<Value>>,
        else_: impl FnOnce(&mut Self) -> Result<Vec<Value>>,
    ) -> Result<Vec<Value>> {
        self.record_checked_with_regions(OpKind::If, vec![cond.into()], 2, |kb, bodies| {
            kb.if_check(
                cond,
                |kb| kb.in_region(bodies.get(0), &[], then_),
                Some(|kb: &mut Self| kb.in_region(bodies.get(1), &[], else_)),
            )
        })
    }

    /// `if cond { then_() }` with no results.
    #[track_caller]
    pub fn if_then(
        &mut self,
        cond: Value,
        then_: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.record_checked_with_regions(OpKind::IfThen, vec![cond.into()], 1, |kb, bodies| {
            let then_ = |kb: &mut Self| {
                kb.in_region(bodies.get(0), &[], then_)?;
                Ok(vec![])
            };
            kb.if_check(cond, then_, None::<fn(&mut Self) -> Result<Vec<Value>>>)
                .map(|_| ())
        })
    }

    /// The checks and results of a loop lowered from its record (`lower/program_control.rs`):
    /// the body is recorded with what is assumed of the carried values; where its yields break
    /// that, the axis-info pass over the record finds the facts that hold in every iteration
    /// and the body is recorded once more with them (no LLVM is emitted either time).
    fn for_range_check(
        &mut self,
        lo: crate::codegen::Operand,
        hi: crate::codegen::Operand,
        step: u32,
        init: &[Value],
        region: Option<RegionId>,
        mut body: impl FnMut(&mut Self, Value, &[Value]) -> Result<Vec<Value>>,
    ) -> Result<Vec<Value>> {
        let (ity, lo_info) = self.loop_bounds_checked(lo, hi)?;
        if step == 0 || (ity == DType::I32 && step > i32::MAX as u32) {
            return Err(CodegenError::arg(
                "for_range",
                format!("step {step} must be positive"),
            ));
        }
        let inits: Vec<Rc<ValueData>> = init
            .iter()
            .map(|v| self.get("for_range", *v))
            .collect::<Result<_>>()?;
        let mut assumed: Vec<AxisInfo> = inits
            .iter()
            .map(|d| first_assumption(&Known::of_value(d)))
            .collect();
        let shapes: Vec<&[u64]> = inits.iter().map(|d| &d.shape[..]).collect();
        let iv_info = induction_info(&lo_info, step);
        let mut attempt = 0;
        while attempt < 4 {
            let smem_before = self.smem.clone();
            let iv =
                self.lx
                    .values
                    .new_value(Type::Scalar(ity), vec![], None, vec![], iv_info.clone());
            let (scope, outer) = self.lx.values.open_scope();
            let smem_open = self.smem.snapshot();
            self.smem.loop_opened(scope);
            self.lx.values.update(iv, |d| d.scope = scope);
            let carried: Vec<Value> = inits
                .iter()
                .zip(&assumed)
                .map(|(d, info)| {
                    self.lx.values.new_value(
                        d.ty,
                        d.shape.clone(),
                        d.layout.clone(),
                        vec![],
                        info.clone(),
                    )
                })
                .collect();
            let result = body(self, iv, &carried);
            let yielded = match result.and_then(|y| self.check_yield("for_range", &inits, &y)) {
                Ok(y) => y,
                Err(e) => {
                    self.lx.values.poisoned = true;
                    self.lx.values.close_scope(scope, outer);
                    return Err(e);
                }
            };
            self.lx.values.close_scope(scope, outer);
            let got: Vec<AxisInfo> = yielded.iter().map(|y| y.info.clone()).collect();
            let tried = assumed.clone();
            if !weaken(&mut assumed, &got, &shapes, attempt) {
                self.smem.restore(smem_before);
                attempt += 1;
                let step_facts = LoopFacts {
                    iv: &iv_info,
                    tried: &tried,
                    got: &got,
                    shapes: &shapes,
                };
                if let Some((at, facts)) = self.loop_facts(region, step_facts, attempt, &assumed) {
                    (attempt, assumed) = (at, facts);
                }
                continue;
            }
            self.smem.scope_closed(scope, &smem_open);
            // After the loop: the carried values, with the facts that held in every iteration.
            return Ok(inits
                .iter()
                .zip(&assumed)
                .map(|(d, info)| {
                    self.lx.values.new_value(
                        d.ty,
                        d.shape.clone(),
                        d.layout.clone(),
                        vec![],
                        info.clone(),
                    )
                })
                .collect());
        }
        Err(CodegenError::arg(
            "for_range",
            "the loop's carried facts found no fixpoint in four attempts",
        ))
    }

    /// The induction variable's type and the facts of `lo`: two `i32` or `i64` scalar bounds
    /// (a literal takes the other bound's type; two literals each the narrowest that holds it).
    fn loop_bounds_checked(
        &mut self,
        lo: crate::codegen::Operand,
        hi: crate::codegen::Operand,
    ) -> Result<(DType, AxisInfo)> {
        use crate::codegen::Operand as O;
        let (l, h) = match (lo, hi) {
            (a @ O::Value(_), b) | (a, b @ O::Value(_)) => {
                let [l, h] = self.pair_checked("for_range", a, b)?;
                (
                    (l.ty, l.is_scalar(), l.info.clone(), l.describe()),
                    (h.ty, h.is_scalar(), h.describe()),
                )
            }
            (O::Int(a), O::Int(b)) => {
                let ty = |i: i64| match i32::try_from(i) {
                    Ok(_) => DType::I32,
                    Err(_) => DType::I64,
                };
                let info = crate::codegen::analysis::operand_feeds::const_info(
                    crate::codegen::lower::values::Literal::Int(a),
                );
                (
                    (Type::Scalar(ty(a)), true, info, format!("{a}")),
                    (Type::Scalar(ty(b)), true, format!("{b}")),
                )
            }
            (a, b) => {
                return Err(CodegenError::InvalidType {
                    op: "for_range",
                    expected: "i32 or i64 scalar bounds of one type".into(),
                    value: format!("{a:?} .. {b:?}"),
                })
            }
        };
        match (l.0, h.0) {
            (Type::Scalar(a), Type::Scalar(b))
                if a == b && matches!(a, DType::I32 | DType::I64) && l.1 && h.1 =>
            {
                Ok((a, l.2))
            }
            _ => Err(CodegenError::InvalidType {
                op: "for_range",
                expected: "i32 or i64 scalar bounds of one type".into(),
                value: format!("{} .. {}", l.3, h.2),
            }),
        }
    }

    /// The checks and results of an `if` lowered from its record: both arms recorded, their
    /// yields alike (an `if_then` has no else arm and yields nothing).
    pub(crate) fn if_check(
        &mut self,
        cond: Value,
        then_: impl FnOnce(&mut Self) -> Result<Vec<Value>>,
        else_: Option<impl FnOnce(&mut Self) -> Result<Vec<Value>>>,
    ) -> Result<Vec<Value>> {
        let c = self.get("if", cond)?;
        if c.ty != Type::Scalar(DType::I1) || !c.is_scalar() {
            return Err(CodegenError::InvalidType {
                op: "if",
                expected: "an i1 scalar condition".into(),
                value: c.describe(),
            });
        }
        let smem_before = self.smem.snapshot();
        let arm = |kb: &mut Self,
                   body: &mut dyn FnMut(&mut Self) -> Result<Vec<Value>>|
         -> Result<Vec<Rc<ValueData<'ctx>>>> {
            let (scope, outer) = kb.lx.values.open_scope();
            let r = body(kb).and_then(|vs| {
                vs.iter()
                    .map(|v| kb.get("if", *v))
                    .collect::<Result<Vec<_>>>()
            });
            kb.lx.values.close_scope(scope, outer);
            kb.smem.scope_closed(scope, &smem_before);
            r.inspect_err(|_| kb.lx.values.poisoned = true)
        };
        let mut then_ = Some(then_);
        let tv = arm(self, &mut |kb| (then_.take().expect("once"))(kb))?;
        let Some(else_) = else_ else {
            return Ok(vec![]);
        };
        let mut else_ = Some(else_);
        let ev = arm(self, &mut |kb| (else_.take().expect("once"))(kb))?;
        if let Err(e) = self.check_yield_data("if", &tv, &ev) {
            self.lx.values.poisoned = true;
            return Err(e);
        }
        Ok(tv
            .iter()
            .zip(&ev)
            .map(|(t, e)| {
                let info = AxisInfo::join(&t.info, &e.info);
                self.lx
                    .values
                    .new_value(t.ty, t.shape.clone(), t.layout.clone(), vec![], info)
            })
            .collect())
    }

    fn check_yield_data(
        &self,
        op: &'static str,
        a: &[Rc<ValueData<'ctx>>],
        b: &[Rc<ValueData<'ctx>>],
    ) -> Result<()> {
        if a.len() != b.len() {
            return Err(CodegenError::arg(
                op,
                format!("the branches yield {} and {} values", a.len(), b.len()),
            ));
        }
        for (x, y) in a.iter().zip(b) {
            let err = if x.ty != y.ty {
                Some(CodegenError::TypeMismatch {
                    op,
                    lhs: x.describe(),
                    rhs: y.describe(),
                })
            } else if x.shape != y.shape {
                Some(CodegenError::ShapeMismatch {
                    op,
                    lhs: x.describe(),
                    rhs: y.describe(),
                })
            } else {
                match (&x.layout, &y.layout) {
                    (Some(xl), Some(yl)) if xl != yl => {
                        Some(xl.mismatch(yl, op, x.describe(), y.describe()))
                    }
                    _ => None,
                }
            };
            if let Some(e) = err {
                return Err(e);
            }
        }
        Ok(())
    }
}
