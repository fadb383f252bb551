//! Tile scheduling: which output tile a program works on. [`grouped_tile`](KernelBuilder::grouped_tile)
//! maps a linear tile index to (row tile, column tile) in grouped order, so that the programs
//! running together share rows of A and columns of B in L2; a persistent kernel calls it on each
//! tile index it visits (`pid, pid + num_programs, …`) inside its own loop.

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::Value;

impl<'ctx> KernelBuilder<'ctx> {
    /// Tile `index` (an `i32` scalar) of a `num_m × num_n` grid of tiles in grouped order:
    /// `group_m` row tiles walk the column tiles together (the last group may be shorter).
    /// Returns `(row tile, column tile)`.
    #[track_caller]
    pub fn grouped_tile(
        &mut self,
        index: Value,
        num_m: Value,
        num_n: Value,
        group_m: u32,
    ) -> Result<(Value, Value)> {
        self.record_composite(
            OpKind::GroupedTile(group_m),
            vec![index.into(), num_m.into(), num_n.into()],
            |kb| kb.grouped_tile_impl(index, num_m, num_n, group_m),
        )
    }

    fn grouped_tile_impl(
        &mut self,
        index: Value,
        num_m: Value,
        num_n: Value,
        group_m: u32,
    ) -> Result<(Value, Value)> {
        const OP: &str = "grouped_tile";
        if group_m == 0 || group_m > i32::MAX as u32 {
            return Err(CodegenError::arg(
                OP,
                format!("group_m {group_m}: at least 1"),
            ));
        }
        for (v, what) in [(index, "index"), (num_m, "num_m"), (num_n, "num_n")] {
            self.i32_checked(OP, crate::codegen::Operand::Value(v), what)?;
        }
        let g = group_m as i32;
        let in_group = self.mul(num_n, g)?;
        let group = self.div(index, in_group)?;
        let first_m = self.mul(group, g)?;
        let left = self.sub(num_m, first_m)?;
        let size = self.min(left, g)?;
        let local = self.rem(index, in_group)?;
        let pm = self.rem(local, size)?;
        let tile_m = self.add(first_m, pm)?;
        let tile_n = self.div(local, size)?;
        Ok((tile_m, tile_n))
    }
}
