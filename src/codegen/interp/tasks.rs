//! Cooperating tasks: the main body and each warp role (each replica) are tasks with their own
//! values and their own stack of open bodies. A task runs until an op must wait for another
//! (an mbarrier phase, a named barrier), then the next task runs; the order is fixed (the main
//! body, then roles in the order they start), so every run of a kernel is the same run
//! ([`Schedule::Random`](super::Schedule) also switches tasks at random points). When
//! every task waits and none can go on, the kernel would hang on the GPU: a deadlock naming
//! each wait.

use crate::codegen::interp::exec::Cta;
use crate::codegen::interp::num::{fit, Num};
use crate::codegen::interp::task::{Cont, Frame, Step, Task};
use crate::codegen::interp::val::Val;
use crate::codegen::interp::InterpError;
use crate::codegen::ir::{OpId, OpKind, RegionId, ValueId};
use crate::codegen::types::{DType, Type};

type R<T> = Result<T, InterpError>;

impl Cta<'_> {
    /// Opens `region` in the current task with `params`.
    pub(crate) fn enter(&mut self, region: RegionId, params: Vec<Val>, cont: Cont) {
        let ps = self.prog.region(region).params.clone();
        for (p, v) in ps.iter().zip(params) {
            self.set(*p, v);
        }
        self.task.frames.push(Frame {
            region,
            pc: 0,
            cont,
        });
    }

    fn value(&self, v: ValueId) -> R<Val> {
        self.task
            .vals
            .get(v.0 as usize)
            .and_then(Option::as_ref)
            .cloned()
            .ok_or_else(|| InterpError::Deadlock {
                waits: vec![format!("%{} has no value", v.0)],
            })
    }

    /// Runs the next op of the current task, or ends its innermost body.
    pub(crate) fn step(&mut self) -> R<Step> {
        let Some(frame) = self.task.frames.last().cloned() else {
            return Ok(Step::Finished);
        };
        let region = self.prog.region(frame.region);
        if frame.pc == region.ops.len() {
            let yields = region
                .yields
                .iter()
                .map(|y| self.value(*y))
                .collect::<R<Vec<_>>>()?;
            self.task.frames.pop();
            return self.finish_body(frame.cont, yields);
        }
        let id = region.ops[frame.pc];
        self.current = id.0;
        let op = self.prog.op(id);
        let advance = |cta: &mut Self| {
            if let Some(f) = cta.task.frames.last_mut() {
                f.pc += 1;
            }
        };
        match &op.kind {
            OpKind::For { step } => {
                advance(self);
                let it = op.args[0]
                    .value()
                    .and_then(|v| self.prog.ty(v))
                    .and_then(|t| t.elem())
                    .unwrap_or(Type::Scalar(DType::I32));
                let lo = self.int_of(&op.args[0])?;
                let hi = self.int_of(&op.args[1])?;
                let init = op.args[2..]
                    .iter()
                    .map(|a| self.value(a.value().unwrap_or(ValueId(u32::MAX))))
                    .collect::<R<Vec<_>>>()?;
                self.iterate(id, lo, hi, i64::from(*step), it, init);
                Ok(Step::Progress)
            }
            OpKind::If | OpKind::IfThen => {
                advance(self);
                let c = self.int_of(&op.args[0])? != 0;
                match (c, op.regions.get(1)) {
                    (true, _) => self.enter(op.regions[0], vec![], Cont::Branch(id)),
                    (false, Some(r)) => self.enter(*r, vec![], Cont::Branch(id)),
                    (false, None) => {}
                }
                Ok(Step::Progress)
            }
            OpKind::Return => {
                advance(self);
                if op.args.is_empty() || self.int_of(&op.args[0])? != 0 {
                    // The task leaves every body it is in (the verifier keeps returns out of
                    // warp roles and combine functions, so this is the kernel's body).
                    self.task.frames.clear();
                    return Ok(Step::Finished);
                }
                Ok(Step::Progress)
            }
            OpKind::InRole(index) => {
                advance(self);
                let roles = self.roles_before(*index)?;
                let (first, spec) = roles;
                for r in 0..spec.replicas {
                    let mut t = Task::new(
                        self.task.vals.clone(),
                        spec.warps,
                        first + r * spec.warps,
                        r,
                    );
                    t.frames.push(Frame {
                        region: op.regions[0],
                        pc: 0,
                        cont: Cont::End,
                    });
                    self.others.push_back(t);
                }
                Ok(Step::Progress)
            }
            _ => match self.run_op(id)? {
                Step::Progress => {
                    advance(self);
                    Ok(Step::Progress)
                }
                other => Ok(other),
            },
        }
    }

    /// The first warp and the spec of role `index`.
    fn roles_before(
        &self,
        index: usize,
    ) -> R<(u32, crate::codegen::builder::ops::warp_roles::WarpRole)> {
        let spec = self
            .roles
            .get(index)
            .copied()
            .ok_or_else(|| InterpError::Deadlock {
                waits: vec![format!("role {index} of {} roles", self.roles.len())],
            })?;
        let first = self.roles[..index]
            .iter()
            .map(|r| r.warps * r.replicas)
            .sum();
        Ok((first, spec))
    }

    fn int_of(&self, a: &crate::codegen::ir::Arg) -> R<i64> {
        Ok(match a {
            crate::codegen::ir::Arg::Int(i) => *i,
            crate::codegen::ir::Arg::Float(x) => *x as i64,
            crate::codegen::ir::Arg::Value(v) => match self.value(*v)? {
                Val::S(n) => n.i(),
                _ => 0,
            },
        })
    }

    /// Starts iteration `i` of loop `op`, or sets its results when `i` is past the end.
    fn iterate(&mut self, op: OpId, i: i64, hi: i64, step: i64, it: Type, carried: Vec<Val>) {
        let o = self.prog.op(op);
        if i < hi {
            let mut params = vec![Val::S(fit(Num::I(i), it))];
            params.extend(carried);
            self.enter(
                o.regions[0],
                params,
                Cont::Loop {
                    op,
                    i,
                    hi,
                    step,
                    it,
                },
            );
        } else {
            for (r, v) in o.results.iter().zip(carried) {
                self.set(*r, v);
            }
        }
    }

    fn finish_body(&mut self, cont: Cont, yields: Vec<Val>) -> R<Step> {
        match cont {
            Cont::End => Ok(Step::Finished),
            Cont::Return => Ok(Step::Returned(yields)),
            Cont::Loop {
                op,
                i,
                hi,
                step,
                it,
            } => {
                self.iterate(op, i + step, hi, step, it, yields);
                Ok(Step::Progress)
            }
            Cont::Branch(op) => {
                let o = self.prog.op(op);
                for (r, v) in o.results.iter().zip(yields) {
                    self.set(*r, v);
                }
                Ok(Step::Progress)
            }
        }
    }

    /// Under a random schedule, hands the CTA to another task chosen at random now and then
    /// (one op in eight), at a point where the task's state is all in its frames.
    fn maybe_preempt(&mut self) {
        let n = self.others.len();
        let Some(c) = self.choices.as_mut() else {
            return;
        };
        if n == 0 || c.below(8) != 0 {
            return;
        }
        let pick = c.below(n);
        let next = self.others.remove(pick).expect("an index below the length");
        let now = std::mem::replace(&mut self.task, next);
        self.others.push_back(now);
    }

    /// Under a random schedule in a cluster of several CTAs, whether this CTA hands over to the
    /// next now and then (one op in sixteen), so a peer may run ahead of it (and exit before
    /// this CTA's last remote arrive or multicast, which the GPU allows).
    fn maybe_yield_cta(&mut self) -> bool {
        if self.cluster.size() < 2 {
            return false;
        }
        self.choices.as_mut().is_some_and(|c| c.below(16) == 0)
    }

    /// Opens the kernel body in the first task.
    pub(crate) fn start(&mut self) {
        let body = self.prog.body;
        self.enter(body, Vec::new(), Cont::End);
    }

    /// Runs the CTA's tasks (the body, then every role it starts) until all have ended, or all
    /// wait: for a peer CTA of the cluster, or for ever (a deadlock when no CTA can go on).
    pub(crate) fn run_turn(&mut self) -> R<Turn> {
        let mut waits: Vec<String> = Vec::new();
        let mut progressed = false;
        loop {
            let step = self.step()?;
            if !matches!(step, Step::Blocked(_)) {
                progressed = true;
            }
            match step {
                Step::Progress => {
                    waits.clear();
                    if self.maybe_yield_cta() {
                        return Ok(Turn::Stuck {
                            waits,
                            progressed: true,
                        });
                    }
                    self.maybe_preempt();
                }
                Step::Returned(_) => waits.clear(),
                Step::Yield => {
                    waits.clear();
                    if let Some(next) = self.others.pop_front() {
                        let now = std::mem::replace(&mut self.task, next);
                        self.others.push_back(now);
                    }
                }
                Step::Finished => {
                    waits.clear();
                    match self.others.pop_front() {
                        Some(t) => self.task = t,
                        None => return Ok(Turn::Finished),
                    }
                }
                Step::Blocked(w) => {
                    waits.push(w);
                    if waits.len() > self.others.len() {
                        return Ok(Turn::Stuck { waits, progressed });
                    }
                    let next = self.others.pop_front().expect("another task exists");
                    let now = std::mem::replace(&mut self.task, next);
                    self.others.push_back(now);
                }
            }
        }
    }
}

/// How a CTA's turn ended.
pub(crate) enum Turn {
    /// Every task ended.
    Finished,
    /// Every task waits: what each waits for, and whether anything ran before they did.
    Stuck {
        waits: Vec<String>,
        progressed: bool,
    },
}
