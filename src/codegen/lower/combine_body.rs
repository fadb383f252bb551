//! A user's combine function (`reduce_with`, `associative_scan_with`) as recorded in its op's
//! region: lowered once per combination (`lower/program_reduce.rs`), its two parameters taking
//! the registers being combined.

use crate::codegen::error::CodegenError;
use crate::codegen::ir::{Op, ValueId};

/// A recorded combine function.
#[derive(Debug, Clone)]
pub(crate) struct CombineBody {
    /// The two scalars combined (`a` first).
    pub params: [ValueId; 2],
    /// Its ops, each lowered from its record.
    pub ops: Vec<Op>,
    /// The scalar it returns.
    pub yields: ValueId,
    /// Why it cannot be lowered from its record (an op in it that is lowered by its builder
    /// method, such as a return), named at that op's line.
    pub refused: Option<CodegenError>,
}
