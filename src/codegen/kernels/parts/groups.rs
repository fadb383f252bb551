//! The tiles of a grouped GEMM (mixture-of-experts): each expert multiplies its own rows of A by
//! its own B, and the programs walk every expert's tiles as one list, read from the expert row
//! counts on the device (no host sync).

use crate::codegen::{KernelBuilder, Result, Value};

use super::{ceil_div, TileGrid};

/// Where each expert's rows lie in A and C (both `[rows, …]`).
#[derive(Debug, Clone, Copy)]
pub enum GroupRows {
    /// Rows sorted by expert: expert `e` owns rows `offsets[e]..offsets[e + 1]` (`offsets`: a
    /// `ptr<i32>` of `experts + 1` entries, non-decreasing).
    Contiguous {
        /// The expert offsets.
        offsets: Value,
    },
    /// A padded block per expert: expert `e` owns rows `e · m_max .. e · m_max + counts[e]`
    /// (`counts`: a `ptr<i32>` of `experts` entries, each at most `m_max`).
    Masked {
        /// The expert row counts.
        counts: Value,
        /// Rows of each expert's block (an `i32` scalar).
        m_max: Value,
    },
}

/// The experts of a grouped GEMM: `experts` (an `i32` scalar) groups of rows laid out as `rows`,
/// each multiplied by its own `[n, K]` block of B (expert `e`'s B starts at row `e · n` of a B
/// stored `[experts · n, K]`).
#[derive(Debug, Clone, Copy)]
pub struct Groups {
    /// Where the rows lie.
    pub rows: GroupRows,
    /// How many experts (an `i32` scalar).
    pub experts: Value,
    /// Columns of C (an `i32` scalar): each expert's B has `n` rows.
    pub n: Value,
}

impl Groups {
    /// Expert `e`'s first row and the row past its last.
    pub fn span(&self, kb: &mut KernelBuilder<'_>, e: Value) -> Result<(Value, Value)> {
        match self.rows {
            GroupRows::Contiguous { offsets } => {
                let p = kb.add(offsets, e)?;
                let first = kb.load(p, None, None)?;
                let p = kb.add(p, 1)?;
                let end = kb.load(p, None, None)?;
                // A decreasing offset gives the expert no rows rather than a negative count.
                Ok((first, kb.max(end, first)?))
            }
            GroupRows::Masked { counts, m_max } => {
                let first = kb.mul(e, m_max)?;
                let p = kb.add(counts, e)?;
                let count = kb.load(p, None, None)?;
                let count = kb.max(count, 0)?;
                let count = kb.min(count, m_max)?;
                Ok((first, kb.add(first, count)?))
            }
        }
    }

    /// The expert whose B holds row `b_row` (an origin's second coordinate) and its first column
    /// of C.
    pub fn expert_of(&self, kb: &mut KernelBuilder<'_>, b_row: Value) -> Result<(Value, Value)> {
        let e = kb.div(b_row, self.n)?;
        let first = kb.mul(e, self.n)?;
        Ok((e, kb.sub(b_row, first)?))
    }

    /// Row tiles of `block_m` rows in expert `e`.
    fn row_tiles(&self, kb: &mut KernelBuilder<'_>, e: Value, block_m: u32) -> Result<Value> {
        let (first, end) = self.span(kb, e)?;
        let rows = kb.sub(end, first)?;
        ceil_div(kb, rows, block_m as i32)
    }
}

impl TileGrid {
    /// The tiles of a grouped GEMM: expert by expert, each expert's `⌈rows / block_m⌉ ×
    /// ⌈n / block_n⌉` tiles in grouped order. `num_m` counts the row tiles of every expert, so
    /// `num_m · num_n` is every tile. An origin is (first row in A and C, first row in B
    /// stored `[experts · n, K]`); [`Groups::expert_of`] takes the latter back to the expert and
    /// its column of C.
    pub fn grouped(
        kb: &mut KernelBuilder<'_>,
        groups: Groups,
        [block_m, block_n]: [u32; 2],
        group_m: u32,
    ) -> Result<TileGrid> {
        let num_n = ceil_div(kb, groups.n, block_n as i32)?;
        let zero = kb.i32(0)?;
        let num_m = kb.for_range(0, groups.experts, 1, &[zero], |kb, e, c| {
            let t = groups.row_tiles(kb, e, block_m)?;
            Ok(vec![kb.add(c[0], t)?])
        })?[0];
        Ok(TileGrid {
            num_m,
            num_n,
            block_m,
            block_n,
            group_m,
            groups: Some(groups),
            row_offset: None,
        })
    }

    /// The origin of tile `tile` of a grouped grid: finds its expert by walking the experts'
    /// tile counts.
    pub(super) fn grouped_origin(
        &self,
        kb: &mut KernelBuilder<'_>,
        groups: Groups,
        tile: Value,
    ) -> Result<(Value, Value)> {
        let zero = kb.i32(0)?;
        // Carried: tiles before expert e, the expert found, the tile's index in it.
        let found = kb.for_range(0, groups.experts, 1, &[zero, zero, zero], |kb, e, c| {
            let (before, sel_e, sel_local) = (c[0], c[1], c[2]);
            let t = groups.row_tiles(kb, e, self.block_m)?;
            let t = kb.mul(t, self.num_n)?;
            let after = kb.add(before, t)?;
            let from = kb.ge(tile, before)?;
            let to = kb.lt(tile, after)?;
            let here = kb.and(from, to)?;
            let sel_e = kb.where_(here, e, sel_e)?;
            let local = kb.sub(tile, before)?;
            let sel_local = kb.where_(here, local, sel_local)?;
            Ok(vec![after, sel_e, sel_local])
        })?;
        let (e, local) = (found[1], found[2]);
        let (first, _) = groups.span(kb, e)?;
        let num_m = groups.row_tiles(kb, e, self.block_m)?;
        let (tm, tn) = kb.grouped_tile(local, num_m, self.num_n, self.group_m)?;
        let rm = kb.mul(tm, self.block_m as i32)?;
        let om = kb.add(first, rm)?;
        let b0 = kb.mul(e, groups.n)?;
        let cn = kb.mul(tn, self.block_n as i32)?;
        Ok((om, kb.add(b0, cn)?))
    }
}
