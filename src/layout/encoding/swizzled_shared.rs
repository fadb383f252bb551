//! `#ttg.swizzled_shared`: the classic XOR-swizzled shared-memory layout. Row `r` of the two most minor
//! dims starts its `vec`-element groups at phase `(r / per_phase) % max_phase`, so a column of a
//! row-major tile spreads over banks.

use smallvec::SmallVec;

use crate::layout::linear_layout::DimSpec;
use crate::layout::{Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, CgaLayout};
use super::{check_order, invalid};

/// Triton's `SwizzledSharedEncodingAttr` / Gluon's `SwizzledSharedLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SwizzledShared {
    /// Elements per swizzled group.
    pub vec: u32,
    /// Rows that share one phase.
    pub per_phase: u32,
    /// Number of distinct phases.
    pub max_phase: u32,
    /// Dims from most minor to most major.
    pub order: Vec<u32>,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
}

impl SwizzledShared {
    /// A single-CTA swizzled layout.
    pub fn new(vec: u32, per_phase: u32, max_phase: u32, order: &[u32]) -> SwizzledShared {
        SwizzledShared {
            vec,
            per_phase,
            max_phase,
            order: order.to_vec(),
            cga_layout: CgaLayout::single(),
        }
    }

    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.order.len()
    }

    /// Checks Triton's rules: `order` a permutation, positive swizzle parameters.
    pub fn validate(&self) -> Result<()> {
        if self.order.is_empty() {
            return Err(invalid("order", "a shared layout needs rank >= 1"));
        }
        check_order("order", &self.order)?;
        self.cga_layout.to_linear_layout(self.rank())?;
        Ok(())
    }

    /// Single CTA: the bases packed directly (columns, swizzled rows, then the other dims in `order`).
    fn fast_single_cta(&self, shape: &[u64]) -> Result<LinearLayout> {
        let rank = shape.len();
        let shift = |d: usize| -> u32 { shape[..d].iter().map(|s| s.trailing_zeros()).sum() };
        let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
        let ident = |cols: &mut SmallVec<[u64; 16]>, d: usize| {
            for k in 0..shape[d].trailing_zeros() {
                cols.push(1u64 << (shift(d) + k));
            }
        };
        if rank == 1 {
            ident(&mut cols, 0);
        } else {
            let (col, row) = (self.order[0] as usize, self.order[1] as usize);
            let (ncols, nrows) = (shape[col], shape[row]);
            ident(&mut cols, col);
            let (vec, pp, mp) = (
                u64::from(self.vec),
                u64::from(self.per_phase),
                u64::from(self.max_phase),
            );
            let mut r = 1;
            while r < nrows {
                let c = (vec * ((r / pp) % mp)) % ncols;
                cols.push((r << shift(row)) | (c << shift(col)));
                r *= 2;
            }
            for &d in &self.order[2..] {
                ident(&mut cols, d as usize);
            }
        }
        let ins: SmallVec<[DimSpec; 4]> = smallvec::smallvec![
            DimSpec {
                name: Dim::OFFSET,
                log2: cols.len() as u32
            },
            DimSpec {
                name: Dim::BLOCK,
                log2: 0
            },
        ];
        let outs: SmallVec<[DimSpec; 4]> = (0..rank)
            .map(|d| DimSpec {
                name: Dim::dim(d),
                log2: shape[d].trailing_zeros(),
            })
            .collect();
        crate::layout::linear_layout::check_total(&ins, &outs)?;
        Ok(LinearLayout::from_parts(ins, outs, cols))
    }

    /// The linear layout (`offset → dims`) of a buffer of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        super::check_rank("shape", shape.len(), self.rank())?;
        super::cga::check_shape(shape)?;
        self.check_phases(shape)?;
        if self.cga_layout.is_single() {
            return self.fast_single_cta(shape);
        }
        self.generic(shape)
    }

    /// Triton's attribute verifier takes any `perPhase` and `maxPhase`; `swizzledSharedToLinearLayout`
    /// (LinearLayoutConversions.cpp) divides by them only for the rows it swizzles (rank >= 2, more than one
    /// row), where a zero kills the process.
    pub(crate) fn check_phases(&self, shape: &[u64]) -> Result<()> {
        let rows = self.order.get(1).map_or(1, |&r| shape[r as usize]);
        if rows > 1 {
            for (name, v) in [("per_phase", self.per_phase), ("max_phase", self.max_phase)] {
                if v == 0 {
                    return Err(invalid(
                        name,
                        "must be positive to swizzle more than one row",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The construction through layout operations (any CGA layout).
    fn generic(&self, shape: &[u64]) -> Result<LinearLayout> {
        let spc = self.cga_layout.shape_per_cta(shape)?;
        if shape.len() == 1 {
            let cta = LinearLayout::identity_1d(spc[0], Dim::OFFSET, Dim::dim(0))?;
            return combine_cta_cga_with_shape(&cta, &self.cga_layout, shape);
        }
        combine_cta_cga_with_shape(&self.cta_layout(&spc, false)?, &self.cga_layout, shape)
    }

    /// The layout of `dims` (rank >= 2): the columns (`order[0]`), then one basis per row bit, row `r`
    /// starting its groups at column `vec * phase`, with `phase = (r / per_phase) % max_phase`, xor-ed with
    /// the block of `per_phase * max_phase` rows it is in when `rotating` (AMD's rotating layout); then the
    /// other dims in `order`.
    pub(crate) fn cta_layout(&self, dims: &[u64], rotating: bool) -> Result<LinearLayout> {
        let col = self.order[0] as usize;
        let row = self.order[1] as usize;
        let (ncols, nrows) = (dims[col], dims[row]);
        let mut bases = Vec::new();
        let mut c = 1;
        while c < ncols {
            bases.push(vec![0, c]);
            c *= 2;
        }
        let (vec, pp, mp) = (
            u64::from(self.vec),
            u64::from(self.per_phase),
            u64::from(self.max_phase),
        );
        let mut r = 1;
        while r < nrows {
            let mut phase = (r / pp) % mp;
            if rotating {
                phase ^= r / mp / pp % mp;
            }
            bases.push(vec![r, (vec * phase) % ncols]);
            r *= 2;
        }
        let mut cta = LinearLayout::from_bases_inferred(
            [(Dim::OFFSET, bases)],
            [Dim::dim(row), Dim::dim(col)],
        )?;
        for &d in &self.order[2..] {
            let d = d as usize;
            cta = cta.product(&LinearLayout::identity_1d(
                dims[d],
                Dim::OFFSET,
                Dim::dim(d),
            )?)?;
        }
        Ok(cta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single-CTA fast path equals the generic construction (including `vec`, `per_phase` that are not
    /// powers of two, which Triton accepts).
    #[test]
    fn fast_path_equals_generic() {
        for vec in [1u32, 2, 3, 8] {
            for pp in [1u32, 2, 3] {
                for mp in [1u32, 4, 8] {
                    for order in [
                        vec![0u32],
                        vec![1, 0],
                        vec![0, 1],
                        vec![2, 0, 1],
                        vec![1, 2, 0],
                    ] {
                        let l = SwizzledShared::new(vec, pp, mp, &order);
                        for logs in [[0u32, 0, 0], [3, 6, 1], [7, 2, 4], [5, 5, 5]] {
                            let shape: Vec<u64> =
                                logs[..order.len()].iter().map(|&x| 1u64 << x).collect();
                            assert_eq!(
                                l.fast_single_cta(&shape).unwrap(),
                                l.generic(&shape).unwrap(),
                                "{l:?} {shape:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
