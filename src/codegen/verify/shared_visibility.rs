//! A write to shared memory is visible to other threads only after a barrier (threads' stores),
//! an `async_wait_group` and a barrier (`cp.async`), or the mbarrier wait the copy signals (TMA).
//! A `cp.async` copy is its own thread's after the wait alone: a `load_shared` in the layout of
//! the copy's pointers, where no element has two holders, reads only what each thread copied.
//!
//! Checked in straight-line code, per region: a read of a buffer (`load_shared`, `ldmatrix`, a
//! `wgmma` or TMA-store operand) written earlier in the same region with nothing in between that
//! makes the write visible is an error. Buffers are told apart by what they are views of: an
//! allocation, or one buffer of a ring picked by a constant or by one index value; two buffers
//! of a ring picked by different index values may differ (a pipeline reads one stage while the
//! next is loading), so they are never flagged on a guess. An op with a body in between ends
//! what is known (its body may synchronise).

use std::collections::HashMap;
use std::sync::Arc;

use crate::codegen::analysis::tile_layout::TileLayout;

use crate::codegen::error::Result;
use crate::codegen::ir::{Arg, IrType, Op, OpKind, Program, RegionId, ValueId};
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

/// What a buffer is a view of: its allocation, and the ring index that picked it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Root {
    Alloc(usize),
    Indexed(usize, Arg2),
}

/// A ring index, hashable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Arg2 {
    Const(i64),
    Value(u32),
}

/// The root of every shared value: views keep their parent's, `index_shared` makes a new one.
fn roots(prog: &Program) -> HashMap<u32, Root> {
    let mut out = HashMap::new();
    prog.walk(prog.body, &mut |_, op| {
        let Some(&r) = op.results.first() else { return };
        let Some(IrType::Shared { buf, .. }) = prog.ty(r) else {
            return;
        };
        let parent = op
            .args
            .first()
            .and_then(|a| a.value())
            .and_then(|v| out.get(&v.0).copied());
        let root = match (&op.kind, parent) {
            (OpKind::IndexShared, Some(p)) => {
                let alloc = match p {
                    Root::Alloc(a) | Root::Indexed(a, _) => a,
                };
                match op.args.get(1) {
                    Some(Arg::Int(i)) => Root::Indexed(alloc, Arg2::Const(*i)),
                    Some(Arg::Value(v)) => Root::Indexed(alloc, Arg2::Value(v.0)),
                    _ => Root::Alloc(alloc),
                }
            }
            (OpKind::AllocShared | OpKind::AllocSharedBuffers(_), _) | (_, None) => {
                Root::Alloc(buf.alloc)
            }
            (_, Some(p)) => p,
        };
        out.insert(r.0, root);
    });
    out
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

/// The layout of tile `a`, where it is one whose elements each have a single holder.
fn single_holder_layout(prog: &Program, v: Option<ValueId>) -> Option<Arc<TileLayout>> {
    let Some(IrType::Tile { layout, .. }) = prog.ty(v?) else {
        return None;
    };
    let (_, lane, warp) = layout.free_masks();
    (lane == 0 && warp == 0).then(|| layout.clone())
}

pub(super) fn check(prog: &Program) -> Result<()> {
    region(prog, prog.body, &roots(prog))
}

fn region(prog: &Program, id: RegionId, roots: &HashMap<u32, Root>) -> Result<()> {
    let alloc_of = |_: &Program, a: &Arg| a.value().and_then(|v| roots.get(&v.0).copied());
    // Per buffer: how it was written, by which op, and for a waited `cp.async` the layout in
    // which each thread may read its own copies back.
    type Written<'p> = (Write, &'p Op, Option<Arc<TileLayout>>);
    let mut written: HashMap<Root, Written<'_>> = HashMap::new();
    for &op_id in &prog.region(id).ops {
        let op = prog.op(op_id);
        for a in reads(op) {
            if let Some((how, w, own)) = alloc_of(prog, a).and_then(|al| written.get(&al)) {
                let reads_own = matches!(op.kind, OpKind::LoadShared)
                    && own.is_some()
                    && single_holder_layout(prog, op.results.first().copied()) == *own;
                if reads_own {
                    continue;
                }
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
        let mut write = |a: &Arg, how: Write, own: Option<Arc<TileLayout>>| {
            if let Some(al) = alloc_of(prog, a) {
                written.insert(al, (how, op, own));
            }
        };
        match &op.kind {
            OpKind::StoreShared => write(&op.args[0], Write::Threads, None),
            OpKind::AsyncCopy { .. } => {
                let own = single_holder_layout(prog, op.args.get(1).and_then(|a| a.value()));
                write(&op.args[0], Write::AsyncCopy, own)
            }
            OpKind::TmaLoad { .. } | OpKind::TmaLoadMulticast { .. } => {
                write(&op.args[1], Write::Tma, None)
            }
            OpKind::Barrier | OpKind::NamedBarrierSync { .. } => {
                written.retain(|_, (how, _, _)| *how != Write::Threads);
            }
            OpKind::AsyncWaitGroup(_) => {
                for (how, _, _) in written.values_mut() {
                    if *how == Write::AsyncCopy {
                        *how = Write::Threads;
                    }
                }
            }
            OpKind::MbarrierWait { .. } => {
                written.retain(|_, (how, _, _)| *how != Write::Tma);
            }
            _ if !op.regions.is_empty() => {
                written.clear();
                for &r in &op.regions {
                    region(prog, r, roots)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}
