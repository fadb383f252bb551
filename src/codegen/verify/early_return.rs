//! An early return must leave with the whole CTA. Its condition is a scalar, the same in every
//! thread, so in the kernel's body all threads leave together; inside a warp role only the
//! role's warps would leave, while the other roles wait for them at named barriers and mbarriers
//! (the kernel would hang), and inside a reduction's or scan's combine function there is no
//! kernel to leave. Both are refused, naming the return's line.

use crate::codegen::error::Result;
use crate::codegen::ir::{OpKind, Program, RegionId};
use crate::codegen::verify::hazard;

pub(super) fn check(prog: &Program) -> Result<()> {
    let mut err = None;
    prog.walk(prog.body, &mut |_, op| {
        if err.is_some() {
            return;
        }
        let inside = match op.kind {
            OpKind::InRole(_) => {
                "a warp role: its warps would leave while the other roles wait for them at their \
                 barriers; return before the roles start, or end the role's loop instead"
            }
            OpKind::ReduceWith(_) | OpKind::ScanWith(_) => {
                "a combine function, which computes a value and has no kernel to leave"
            }
            _ => return,
        };
        err = first_return(prog, op.regions.first().copied(), inside);
    });
    err.map_or(Ok(()), Err)
}

/// The error for the first return in `region` (nested bodies included), if there is one.
fn first_return(
    prog: &Program,
    region: Option<RegionId>,
    inside: &str,
) -> Option<crate::codegen::error::CodegenError> {
    let mut found = None;
    prog.walk(region?, &mut |_, op| {
        if found.is_none() && op.kind == OpKind::Return {
            found = Some(hazard(op, format!("an early return inside {inside}")));
        }
    });
    found
}
