//! A warp role runs in its own warps: a register tile made outside the role lives in registers
//! of warps that may not be the role's, so a role may read scalars, shared buffers, barriers and
//! tensor maps from outside, but no register tile.

use std::collections::HashSet;

use crate::codegen::error::Result;
use crate::codegen::ir::{IrType, OpKind, Program, RegionId, ValueId};
use crate::codegen::verify::hazard;

pub(super) fn check(prog: &Program) -> Result<()> {
    let mut err = None;
    prog.walk(prog.body, &mut |_, op| {
        if err.is_none() {
            if let OpKind::InRole(_) = op.kind {
                err = role(prog, op.regions[0]).err();
            }
        }
    });
    err.map_or(Ok(()), Err)
}

fn role(prog: &Program, body: RegionId) -> Result<()> {
    let mut inside: HashSet<ValueId> = HashSet::new();
    let defined = |r: RegionId, inside: &mut HashSet<ValueId>| {
        inside.extend(prog.region(r).params.iter().copied());
        prog.walk(r, &mut |_, op| {
            inside.extend(op.results.iter().copied());
            for &n in &op.regions {
                inside.extend(prog.region(n).params.iter().copied());
            }
        });
    };
    defined(body, &mut inside);
    let mut err = None;
    prog.walk(body, &mut |_, op| {
        if err.is_some() {
            return;
        }
        for a in &op.args {
            if let Some(v) = a.value() {
                if !inside.contains(&v) && matches!(prog.ty(v), Some(IrType::Tile { .. })) {
                    err = Some(hazard(
                        op,
                        format!(
                            "operand %{} is a register tile made outside this warp role; its \
                             registers belong to other warps (pass it through shared memory)",
                            v.0
                        ),
                    ));
                    return;
                }
            }
        }
    });
    err.map_or(Ok(()), Err)
}
