//! TMA bulk-tensor copies and their bulk groups, as inline PTX (LLVM's
//! `cp.async.bulk.tensor` intrinsics need a newer PTX ISA than the one pinned here).

use inkwell::values::IntValue;

use super::inline_ptx::{InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// Which way one box moves.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BoxCopy<'ctx> {
    /// Global to shared, completing on the mbarrier at this shared address.
    Load { bar: IntValue<'ctx> },
    /// Global to the shared memory of each CTA of the cluster whose rank is set in `mask` (an
    /// `i16`), at the same offset, completing on each one's mbarrier at `bar`'s offset.
    Multicast {
        bar: IntValue<'ctx>,
        mask: IntValue<'ctx>,
    },
    /// Shared to global, in the thread's bulk group.
    Store,
}

/// Where `issue` holds: copies one box between shared address `smem` and the tensor of the map
/// at generic address `map` at `coords` (innermost first).
pub(crate) fn copy_box<'ctx>(
    em: &Emitter<'ctx>,
    dir: BoxCopy<'ctx>,
    issue: IntValue<'ctx>,
    smem: IntValue<'ctx>,
    map: IntValue<'ctx>,
    coords: &[IntValue<'ctx>],
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let p = asm.predicate(issue);
    let s = asm.input(RegClass::B32, smem.into());
    let m = asm.input(RegClass::B64, map.into());
    let cs: Vec<String> = coords
        .iter()
        .map(|x| asm.input(RegClass::B32, (*x).into()).to_string())
        .collect();
    let (n, cs) = (cs.len(), cs.join(", "));
    let text = match dir {
        BoxCopy::Load { bar } => {
            let b = asm.input(RegClass::B32, bar.into());
            format!(
                "cp.async.bulk.tensor.{n}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{s}], [{m}, {{{cs}}}], [{b}];"
            )
        }
        BoxCopy::Multicast { bar, mask } => {
            let b = asm.input(RegClass::B32, bar.into());
            let k = asm.input(RegClass::B16, mask.into());
            format!(
                "cp.async.bulk.tensor.{n}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{s}], [{m}, {{{cs}}}], [{b}], {k};"
            )
        }
        BoxCopy::Store => format!(
            "cp.async.bulk.tensor.{n}d.global.shared::cta.tile.bulk_group [{m}, {{{cs}}}], [{s}];"
        ),
    };
    asm.guarded(Some(p), text);
    asm.call(em)?;
    Ok(())
}

/// Where `issue` holds: closes the thread's bulk group of stores.
pub(crate) fn commit_group<'ctx>(em: &Emitter<'ctx>, issue: IntValue<'ctx>) -> Result<()> {
    let mut asm = InlinePtx::new();
    let p = asm.predicate(issue);
    asm.guarded(Some(p), "cp.async.bulk.commit_group;");
    asm.call(em)?;
    Ok(())
}

/// Where `issue` holds: waits until at most `pending` bulk groups still read their source.
pub(crate) fn wait_group_read<'ctx>(
    em: &Emitter<'ctx>,
    issue: IntValue<'ctx>,
    pending: u32,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let p = asm.predicate(issue);
    asm.guarded(Some(p), format!("cp.async.bulk.wait_group.read {pending};"));
    asm.call(em)?;
    Ok(())
}
