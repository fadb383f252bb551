//! The grid of output tiles and the orders programs walk it in.

use crate::codegen::{KernelBuilder, Result, Value};

/// `⌈x / d⌉` for a non-negative `x`.
pub fn ceil_div(kb: &mut KernelBuilder<'_>, x: Value, d: i32) -> Result<Value> {
    let x1 = kb.add(x, d - 1)?;
    kb.div(x1, d)
}

/// The `⌈m / block_m⌉ × ⌈n / block_n⌉` tiles of an `m × n` output, in grouped order (`group_m`
/// row tiles walk the column tiles together, sharing their columns in L2).
#[derive(Debug, Clone, Copy)]
pub struct TileGrid {
    /// Row tiles.
    pub num_m: Value,
    /// Column tiles.
    pub num_n: Value,
    pub(super) block_m: u32,
    pub(super) block_n: u32,
    pub(super) group_m: u32,
    /// The experts of a grouped GEMM ([`TileGrid::grouped`]): tiles are then numbered expert by
    /// expert.
    pub(super) groups: Option<super::Groups>,
    /// Rows added to every tile's first row ([`offset_rows`](TileGrid::offset_rows)).
    pub(super) row_offset: Option<Value>,
}

impl TileGrid {
    /// The grid of `m × n` (`i32` scalars) in tiles of `block_m × block_n`.
    pub fn new(
        kb: &mut KernelBuilder<'_>,
        [m, n]: [Value; 2],
        [block_m, block_n]: [u32; 2],
        group_m: u32,
    ) -> Result<TileGrid> {
        let num_m = ceil_div(kb, m, block_m as i32)?;
        let num_n = ceil_div(kb, n, block_n as i32)?;
        Ok(TileGrid {
            num_m,
            num_n,
            block_m,
            block_n,
            group_m,
            groups: None,
            row_offset: None,
        })
    }

    /// The same tiles with every first row moved down by `rows` (an `i32` scalar): a CTA's part
    /// of a cluster's tile, when the grid's tiles are a cluster's and each CTA computes
    /// `block_m / CTAs` of its rows.
    pub fn offset_rows(self, rows: Value) -> TileGrid {
        TileGrid {
            row_offset: Some(rows),
            ..self
        }
    }

    /// The first row and column of tile `tile` in grouped order (of a grouped GEMM: the first
    /// row in A and the first row of the expert's B, see [`TileGrid::grouped`]).
    pub fn origin(&self, kb: &mut KernelBuilder<'_>, tile: Value) -> Result<(Value, Value)> {
        if let Some(g) = self.groups {
            return self.grouped_origin(kb, g, tile);
        }
        let (tm, tn) = kb.grouped_tile(tile, self.num_m, self.num_n, self.group_m)?;
        let om = kb.mul(tm, self.block_m as i32)?;
        let om = match self.row_offset {
            Some(rows) => kb.add(om, rows)?,
            None => om,
        };
        Ok((om, kb.mul(tn, self.block_n as i32)?))
    }

    /// How many tiles program `pid` of `programs` walks persistently (`pid`, `pid + programs`,
    /// …).
    pub fn tiles_of(
        &self,
        kb: &mut KernelBuilder<'_>,
        pid: Value,
        programs: Value,
    ) -> Result<Value> {
        let tiles = kb.mul(self.num_m, self.num_n)?;
        let rest = kb.sub(tiles, pid)?;
        let rest = kb.add(rest, programs)?;
        let rest = kb.sub(rest, 1)?;
        kb.div(rest, programs)
    }

    /// The origin of the `local`-th tile program `pid` of `programs` walks.
    pub fn persistent_origin(
        &self,
        kb: &mut KernelBuilder<'_>,
        pid: Value,
        programs: Value,
        local: Value,
    ) -> Result<(Value, Value)> {
        let step = kb.mul(local, programs)?;
        let tile = kb.add(pid, step)?;
        self.origin(kb, tile)
    }
}
