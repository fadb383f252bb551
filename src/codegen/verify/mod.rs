//! The verifier: checks a recorded [`Program`] for what each op's own checks cannot see, the
//! hazards between ops, and names the user's line of the op at fault.
//!
//! Each check is one file and one pass over the program:
//! - `async_results.rs`: a `wgmma` accumulator read before a `wgmma_wait` made it usable
//!   (ptxas would insert a wait silently, serialising the pipeline);
//! - `expect_bytes.rs`: an `mbarrier_expect` whose byte count differs from the TMA boxes that
//!   arrive on the barrier before it is waited on (the kernel would hang);
//! - `shared_visibility.rs`: a shared buffer read after a write with no barrier or wait between
//!   them that makes the write visible to every thread;
//! - `roles.rs`: a warp role reading a register tile made outside it (its registers live in
//!   other warps);
//! - `early_return.rs`: a return inside a warp role or a combine function (only part of the CTA,
//!   or nothing, would leave).
//!
//! [`KernelBuilder::finish`](crate::codegen::KernelBuilder::finish) runs every check.

mod async_results;
mod early_return;
mod expect_bytes;
mod roles;
mod shared_visibility;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::print::mnemonic;
use crate::codegen::ir::{Op, Program};

/// Runs every check on `prog`; the first hazard found is the error.
pub(crate) fn verify(prog: &Program) -> Result<()> {
    async_results::check(prog)?;
    expect_bytes::check(prog)?;
    shared_visibility::check(prog)?;
    roles::check(prog)?;
    early_return::check(prog)?;
    Ok(())
}

/// The error for a hazard at `op`.
pub(crate) fn hazard(op: &Op, reason: String) -> CodegenError {
    CodegenError::Hazard {
        op: mnemonic(&op.kind),
        loc: op.loc,
        reason,
    }
}
