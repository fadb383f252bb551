//! A `wgmma` result is in flight until a `wgmma_wait` returns it: reading it earlier would make
//! ptxas wait for every wgmma in flight, silently.
//!
//! A pending accumulator may only feed the next `wgmma` as its accumulator, be passed to
//! `wgmma_wait`, be carried by a loop or yielded; any other use is an error. A loop's carried
//! value is pending when its initial value or its yield is.

use std::collections::HashSet;

use crate::codegen::error::Result;
use crate::codegen::ir::{Arg, OpKind, Program, RegionId, ValueId};
use crate::codegen::verify::hazard;

pub(super) fn check(prog: &Program) -> Result<()> {
    let mut pending = HashSet::new();
    region(prog, prog.body, &mut pending)
}

/// Whether operand `i` of an op of `kind` may be a pending accumulator.
fn may_be_pending(kind: &OpKind, i: usize) -> bool {
    match kind {
        OpKind::Wgmma { .. } => i == 2,
        OpKind::WgmmaWait(_) => true,
        OpKind::For { .. } => i >= 2,
        _ => false,
    }
}

fn region(prog: &Program, id: RegionId, pending: &mut HashSet<ValueId>) -> Result<()> {
    for &op_id in &prog.region(id).ops {
        let op = prog.op(op_id);
        for (i, a) in op.args.iter().enumerate() {
            if let Arg::Value(v) = a {
                if pending.contains(v) && !may_be_pending(&op.kind, i) {
                    return Err(hazard(
                        op,
                        format!(
                            "operand %{} is a wgmma accumulator still in flight; pass it through \
                             wgmma_wait first",
                            v.0
                        ),
                    ));
                }
            }
        }
        match &op.kind {
            OpKind::Wgmma { .. } => {
                pending.extend(op.results.iter().copied());
            }
            OpKind::For { .. } => {
                let body = op.regions[0];
                let params = prog.region(body).params.clone();
                // params[0] is the induction variable; params[1..] pair with args[2..].
                for (p, a) in params.iter().skip(1).zip(op.args.iter().skip(2)) {
                    if a.value().is_some_and(|v| pending.contains(&v)) {
                        pending.insert(*p);
                    }
                }
                // Twice: the second pass sees the carried values the first found pending.
                for _ in 0..2 {
                    let mut inner = pending.clone();
                    region(prog, body, &mut inner)?;
                    let yields = &prog.region(body).yields;
                    let mut changed = false;
                    for (k, y) in yields.iter().enumerate() {
                        if inner.contains(y) {
                            changed |= pending.insert(params[k + 1]);
                            pending.insert(op.results[k]);
                        }
                    }
                    if !changed {
                        break;
                    }
                }
            }
            _ => {
                for &r in &op.regions {
                    let mut inner = pending.clone();
                    region(prog, r, &mut inner)?;
                    let yields = &prog.region(r).yields;
                    for (k, y) in yields.iter().enumerate() {
                        if inner.contains(y) {
                            if let Some(res) = op.results.get(k) {
                                pending.insert(*res);
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
