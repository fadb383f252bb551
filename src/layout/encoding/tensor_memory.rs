//! `#ttng.tensor_memory_encoding`: Blackwell's tensor memory (TMEM), 128 rows (one per lane of a
//! warpgroup) × 512 32-bit columns per CTA, where `tcgen05.mma` keeps its accumulator and may read A.
//!
//! The layout maps `row, col, block → dim0, dim1`, as Triton 3.9's `tensorMemoryToLinearLayout`
//! (LinearLayoutConversions.cpp) builds it: a `blockM × blockN` tile (rows hold dim 0, columns dim 1),
//! repeated along the columns for the rest of the CTA's share, then the CGA layout. A column is 32 bits,
//! so narrower elements leave `colStride - 1` of every `colStride` columns unused (zero `col` bases).
//! `blockM = 64` puts 16 rows in each warp's quarter of the rows and the 64 rows past them in the spare
//! row bit; with two CTAs (`cta_group::2`) it is laid out as half a 128-row tile, the last column moving
//! to the last row.

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::CgaLayout;
use super::invalid;

/// Triton's `TensorMemoryEncodingAttr` / Gluon's `TensorMemoryLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TensorMemory {
    /// Rows of one MMA tile: 64 or 128.
    pub block_m: u32,
    /// Columns of one MMA tile: a power of two up to 512.
    pub block_n: u32,
    /// 32-bit columns between logically adjacent columns: 1 (packed), 2 or 4 (`32 / bitwidth`, unpacked).
    pub col_stride: u32,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
    /// For `tcgen05.mma.cta_group::2` (the pair of CTAs shares one MMA).
    pub two_ctas: bool,
    /// Operand A of a byte-backed fp4 MMA: one byte of TMEM per fp4 element.
    pub fp4_padded: bool,
}

/// `v` as the 2-D basis moving `d` by `v`.
fn unit(d: usize, v: u64) -> Vec<u64> {
    let mut b = vec![0, 0];
    b[d] = v;
    b
}

/// Bases `[v, 2v, 4v, …]` along dim `d`, `size / 1` of them in log2.
fn powers(d: usize, from: u64, size: u64) -> impl Iterator<Item = Vec<u64>> {
    (0..size.max(1).trailing_zeros()).map(move |i| unit(d, from << i))
}

/// The out size a list of single-dim bases reaches along `d`.
fn reach(bases: &[Vec<u64>], d: usize) -> u64 {
    bases
        .iter()
        .map(|b| b[d])
        .max()
        .map_or(1, |m| if m == 0 { 1 } else { 2 * m })
}

/// The rank-2 CGA bases scaled to tensor units: block `2^i` starts `cga[i] * shape_per_cta` away; a split of
/// a dim the tensor does not fill holds copies (Triton's `ensureLayoutNotLargerThan`).
pub(crate) fn scaled_block_bases(cga: &CgaLayout, spc: &[u64], shape: &[u64]) -> Bases {
    cga.bases
        .iter()
        .map(|b| {
            b.iter()
                .zip(spc)
                .zip(shape)
                .map(|((&x, &p), &s)| if x * p >= s { 0 } else { x * p })
                .collect()
        })
        .collect()
}

/// The TMEM checks shared with the scales layout: rank 2, power-of-two extents, a valid rank-2 CGA layout;
/// the shape per CTA.
pub(crate) fn shape_per_cta(cga: &CgaLayout, shape: &[u64]) -> Result<Vec<u64>> {
    if shape.len() != 2 {
        return Err(invalid(
            "shape",
            format!(
                "tensor memory layouts are rank 2, the shape has rank {}",
                shape.len()
            ),
        ));
    }
    if shape
        .iter()
        .any(|&s| s == 0 || !s.is_power_of_two() || s > 1 << 31)
    {
        return Err(invalid(
            "shape",
            format!("shape must have power-of-2 and non-zero dimensions; got {shape:?}"),
        ));
    }
    cga.shape_per_cta(shape)
}

impl TensorMemory {
    /// A single-CTA layout.
    pub fn new(block_m: u32, block_n: u32, col_stride: u32) -> TensorMemory {
        TensorMemory {
            block_m,
            block_n,
            col_stride,
            cga_layout: CgaLayout::single(),
            two_ctas: false,
            fp4_padded: false,
        }
    }

    /// Checks the attribute verifier's rules (Triton 3.9, TritonNvidiaGPU `Dialect.cpp`).
    pub fn validate(&self) -> Result<()> {
        if self.block_m != 64 && self.block_m != 128 {
            return Err(invalid(
                "blockM",
                format!("blockM must be 64 or 128 but got {}", self.block_m),
            ));
        }
        if !self.block_n.is_power_of_two() {
            return Err(invalid(
                "blockN",
                format!("blockN must be a power of 2 but got {}", self.block_n),
            ));
        }
        if self.block_n > 512 {
            return Err(invalid(
                "blockN",
                format!(
                    "blockN must be less than or equal to 512 but got {}",
                    self.block_n
                ),
            ));
        }
        if ![1, 2, 4].contains(&self.col_stride) {
            return Err(invalid(
                "colStride",
                format!("colStride must be 1, 2, or 4 but got {}", self.col_stride),
            ));
        }
        if self.fp4_padded && self.col_stride != 1 {
            return Err(invalid(
                "fp4Padded",
                format!(
                    "fp4Padded tensor memory layout requires colStride 1 but got {}",
                    self.col_stride
                ),
            ));
        }
        self.cga_layout.to_linear_layout(2)?;
        if self.two_ctas && self.cga_layout.bases.first().map(Vec::as_slice) != Some(&[1, 0]) {
            return Err(invalid(
                "twoCTAs",
                "twoCTAs layout requires the first CGALayout block basis to be [1, 0]",
            ));
        }
        Ok(())
    }

    /// Checks what the `!ttg.memdesc` verifier asks of a descriptor of `shape` holding `elem_bits`-bit
    /// elements in this layout (Triton 3.9's `MemDescType::verify`): power-of-two extents, `elem_bits *
    /// colStride <= 32`, and at least one `blockM` tile of rows per CTA.
    pub fn check_type(&self, shape: &[u64], elem_bits: u32) -> Result<()> {
        self.validate()?;
        if shape.len() != 2 && shape.len() != 3 {
            return Err(invalid("shape", "rank must be 2 or 3"));
        }
        let mn = &shape[shape.len() - 2..];
        if mn.iter().any(|&s| s == 0 || !s.is_power_of_two()) {
            return Err(invalid(
                "shape",
                format!("shape must have power-of-2 and non-zero dimensions; got {shape:?}"),
            ));
        }
        if u64::from(elem_bits) * u64::from(self.col_stride) > 32 {
            return Err(invalid(
                "colStride",
                format!(
                    "bitwidth * colStride must be less than or equal to 32. Got {elem_bits} and {}",
                    self.col_stride
                ),
            ));
        }
        let split = self.cga_layout.split_num(2)?;
        let block_n = u64::from(self.block_n).min(mn[1]);
        let need = [
            u64::from(self.block_m).saturating_mul(split[0]),
            block_n.saturating_mul(split[1]),
        ];
        if mn[0] < need[0] || mn[1] < need[1] {
            return Err(invalid(
                "shape",
                format!(
                    "the tensor shape must be at least {}x{}. Got {shape:?}",
                    need[0], need[1]
                ),
            ));
        }
        Ok(())
    }

    /// The linear layout (`row, col, block → dim0, dim1`) of a tensor of `shape` in tensor memory.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let spc = shape_per_cta(&self.cga_layout, shape)?;
        let (rows, cols) = self.cta_bases(&spc)?;
        LinearLayout::from_bases(
            [
                (Dim::new("row"), rows),
                (Dim::new("col"), cols),
                (
                    Dim::BLOCK,
                    scaled_block_bases(&self.cga_layout, &spc, shape),
                ),
            ],
            [(Dim::dim(0), shape[0]), (Dim::dim(1), shape[1])],
            true,
        )
        .map_err(|e| invalid("cga_layout", e.to_string()))
    }

    /// The `row` and `col` bases of one CTA's share `spc` of the tensor.
    pub(crate) fn cta_bases(&self, spc: &[u64]) -> Result<(Bases, Bases)> {
        self.view_bases(spc, spc)
    }

    /// The `row` and `col` bases of a view whose CTA share is `spc` inside an allocation whose CTA share is
    /// `alloc_spc` (a subslice keeps its allocation's tile: the tile's columns come from the allocation, and
    /// steps past the view hold copies).
    pub(crate) fn view_bases(&self, spc: &[u64], alloc_spc: &[u64]) -> Result<(Bases, Bases)> {
        let bm = u64::from(self.block_m);
        let bn = u64::from(self.block_n).min(alloc_spc[1]);
        // Unused columns first: a narrow element, or an fp4 element padded to a byte, takes one column of
        // every `colStride` (twice as many when padded).
        let unused = u64::from(self.col_stride) * if self.fp4_padded { 2 } else { 1 };
        let mut cols: Bases = (0..unused.trailing_zeros()).map(|_| vec![0, 0]).collect();
        let mut rows: Bases;
        if bm == 64 && !self.two_ctas {
            rows = powers(0, 1, 16).collect();
            cols.extend(powers(1, 1, bn));
            rows.push(if alloc_spc[0] > bm {
                unit(0, 64)
            } else if alloc_spc[1] > bn {
                unit(1, bn)
            } else {
                vec![0, 0]
            });
            rows.push(unit(0, 16));
            rows.push(unit(0, 32));
        } else {
            rows = powers(0, 1, bm).collect();
            cols.extend(powers(1, 1, bn));
            if bm == 64 {
                // Two CTAs, 64 rows each: half of a 128-row tile, its last column in the last row bit.
                let last = cols.pop().ok_or_else(|| {
                    invalid(
                        "blockN",
                        "twoCTA blockM=64 TMEM layout requires at least one column basis",
                    )
                })?;
                rows.push(last);
            }
        }
        let all: Bases = rows.iter().chain(&cols).cloned().collect();
        let tile = [reach(&all, 0), reach(&all, 1)];
        for d in 0..2 {
            if alloc_spc[d] < tile[d] {
                return Err(invalid(
                    "shape",
                    format!(
                        "shape per CTA {}x{} is smaller than the TMEM tile {}x{}",
                        alloc_spc[0], alloc_spc[1], tile[0], tile[1]
                    ),
                ));
            }
        }
        // Repeat the tile along the columns, dim 0 first, over the allocation's share.
        cols.extend(powers(0, tile[0], alloc_spc[0] / tile[0]));
        cols.extend(powers(1, tile[1], alloc_spc[1] / tile[1]));
        // The view: its columns are the allocation's first ones; steps past the view that remain inside them
        // hold copies.
        let outside = |b: &Vec<u64>| b.iter().zip(spc).any(|(&x, &s)| x >= s);
        while cols
            .last()
            .is_some_and(|b| outside(b) && b.iter().zip(alloc_spc).all(|(&x, &a)| x < a))
        {
            cols.pop();
        }
        for b in rows.iter_mut().chain(cols.iter_mut()) {
            for d in 0..2 {
                if b[d] >= spc[d] {
                    b[d] = 0;
                }
            }
        }
        Ok((rows, cols))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_128_row_tile_maps_rows_to_dim0_and_columns_to_dim1() {
        let ll = TensorMemory::new(128, 64, 1)
            .to_linear_layout(&[128, 128])
            .unwrap();
        // Row 5, column 70: the second 64-column tile.
        let got = ll.apply(&[("row", 5), ("col", 70), ("block", 0)]).unwrap();
        assert_eq!(got.iter().map(|p| p.1).collect::<Vec<_>>(), [5, 70]);
    }

    #[test]
    fn cga_blocks_start_one_share_apart() {
        let mut t = TensorMemory::new(128, 64, 1);
        t.cga_layout = CgaLayout::new(vec![vec![1, 0]]);
        let ll = t.to_linear_layout(&[256, 64]).unwrap();
        assert_eq!(ll.bases("block").unwrap(), vec![vec![128, 0]]);
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        assert!(TensorMemory::new(32, 64, 1)
            .to_linear_layout(&[128, 64])
            .is_err());
        assert!(TensorMemory::new(128, 48, 1)
            .to_linear_layout(&[128, 64])
            .is_err());
        assert!(TensorMemory::new(128, 64, 8)
            .to_linear_layout(&[128, 64])
            .is_err());
        assert!(TensorMemory::new(128, 64, 1)
            .to_linear_layout(&[2, 128, 64])
            .is_err());
        assert!(TensorMemory::new(128, 64, 2)
            .check_type(&[128, 64], 32)
            .is_err());
        assert!(TensorMemory::new(128, 64, 1)
            .check_type(&[64, 64], 32)
            .is_err());
    }
}
