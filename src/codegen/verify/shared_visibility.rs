//! A write to shared memory is visible to other threads only after a barrier (threads' stores),
//! an `async_wait_group` and a barrier (`cp.async`), or the mbarrier wait the copy signals (TMA).
//!
//! Checked in straight-line code, per region: a read of a buffer (`load_shared`, `ldmatrix`, a
//! `wgmma` or TMA-store operand) whose allocation was written earlier in the same region with
//! nothing in between that makes the write visible is an error. An op with a body in between
//! ends what is known (its body may synchronise), so loops and pipelines are never flagged on a
//! guess.

use std::collections::HashMap;

use crate::codegen::error::Result;
use crate::codegen::ir::{Arg, IrType, Op, OpKind, Program, RegionId};
use crate::codegen::verify::hazard;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Write {
    /// Stored by threads: a barrier makes it visible.
    Threads,
    /// A `cp.async` copy: `async_wait_group`, then a barrier.
    AsyncCopy,
    /// A TMA load: the wait on its mbarrier.
    Tma,
}

fn alloc_of(prog: &Program, a: &Arg) -> Option<usize> {
    match prog.ty(a.value()?)? {
        IrType::Shared { buf, .. } => Some(buf.alloc),
        _ => None,
    }
}

/// The shared operands `op` reads.
fn reads(op: &Op) -> Vec<&Arg> {
    match op.kind {
        OpKind::LoadShared | OpKind::Ldmatrix => vec![&op.args[0]],
        OpKind::Wgmma { .. } | OpKind::Dot => op.args.iter().take(2).collect(),
        OpKind::TmaStore => vec![&op.args[1]],
        _ => Vec::new(),
    }
}

pub(super) fn check(prog: &Program) -> Result<()> {
    region(prog, prog.body)
}

fn region(prog: &Program, id: RegionId) -> Result<()> {
    let mut written: HashMap<usize, (Write, &Op)> = HashMap::new();
    for &op_id in &prog.region(id).ops {
        let op = prog.op(op_id);
        for a in reads(op) {
            if let Some((how, w)) = alloc_of(prog, a).and_then(|al| written.get(&al)) {
                let fix = match how {
                    Write::Threads => "a barrier",
                    Write::AsyncCopy => "async_wait_group and a barrier",
                    Write::Tma => "the wait on its mbarrier",
                };
                return Err(hazard(
                    op,
                    format!(
                        "reads a shared buffer that {} at {}:{} wrote, with no {fix} between \
                         them: other threads' writes may not be visible yet",
                        crate::codegen::ir::print::mnemonic(&w.kind),
                        w.loc.file,
                        w.loc.line
                    ),
                ));
            }
        }
        let mut write = |a: &Arg, how: Write| {
            if let Some(al) = alloc_of(prog, a) {
                written.insert(al, (how, op));
            }
        };
        match &op.kind {
            OpKind::StoreShared => write(&op.args[0], Write::Threads),
            OpKind::AsyncCopy { .. } => write(&op.args[0], Write::AsyncCopy),
            OpKind::TmaLoad { .. } => write(&op.args[1], Write::Tma),
            OpKind::Barrier | OpKind::NamedBarrierSync { .. } => {
                written.retain(|_, (how, _)| *how != Write::Threads);
            }
            OpKind::AsyncWaitGroup(_) => {
                for (how, _) in written.values_mut() {
                    if *how == Write::AsyncCopy {
                        *how = Write::Threads;
                    }
                }
            }
            OpKind::MbarrierWait { .. } => {
                written.retain(|_, (how, _)| *how != Write::Tma);
            }
            _ if !op.regions.is_empty() => {
                written.clear();
                for &r in &op.regions {
                    region(prog, r)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}
