//! A user closure run once: the first time an op needs its body (a loop's first attempt) the
//! closure runs and is recorded into the op's region; every later time (a loop recorded with
//! the facts the axis-info pass found) the body is recorded again from that record. (A reduction's
//! or scan's combine function is recorded once by `record_combine` and lowered from its record
//! at every combination.) Users' closures may then count,
//! log or borrow as they like, and the region is the one body the program shows.

use crate::codegen::builder::replay::region_again;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::Result;
use crate::codegen::ir::{Program, RegionId};
use crate::codegen::lower::values::Value;

/// The body of one op being recorded.
#[derive(Debug)]
pub(crate) struct BodyOnce {
    /// The op's region; `None` when the op is not recorded (weft calls it itself), and then
    /// the closure runs every time, as weft's own closures are plain code.
    region: Option<RegionId>,
    /// The program as it stood after the closure ran (its record of the body), taken when the
    /// body is first needed again.
    recorded: Option<Program>,
    ran: bool,
}

impl BodyOnce {
    /// The body to be recorded into `region`.
    pub fn new(region: Option<RegionId>) -> BodyOnce {
        BodyOnce {
            region,
            recorded: None,
            ran: false,
        }
    }

    /// The body's yields for `params`: from `user` the first time (recorded into the region),
    /// from the region's record afterwards (recorded into it again, in place of the last).
    pub fn lower<'ctx>(
        &mut self,
        kb: &mut KernelBuilder<'ctx>,
        params: &[Value],
        user: impl FnOnce(&mut KernelBuilder<'ctx>) -> Result<Vec<Value>>,
    ) -> Result<Vec<Value>> {
        match self.region {
            Some(r) if self.ran => {
                let prog = self.recorded.get_or_insert_with(|| kb.rec.prog.clone());
                kb.in_region(self.region, params, |kb| region_again(kb, prog, r, params))
            }
            _ => {
                self.ran = true;
                kb.in_region(self.region, params, user)
            }
        }
    }
}
