//! `#ttg.nvmma_shared`: the shared-memory layouts TMA, wgmma and tcgen05 read (swizzle 0, 32, 64 or 128
//! bytes). A *core matrix* of 8 rows × (swizzle bytes) columns is XOR-swizzled in 16-byte groups; core
//! matrices tile one TMA block (at most 256 per dim, the contiguous dim exactly one swizzle width), and
//! TMA blocks tile the CTA's buffer.

use smallvec::SmallVec;

use crate::layout::linear_layout::DimSpec;
use crate::layout::{Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, ensure_not_smaller, CgaLayout};
use super::invalid;

/// Triton's `NVMMASharedEncodingAttr` / Gluon's `NVMMASharedLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NvmmaShared {
    /// 0, 32, 64 or 128.
    pub swizzle_byte_width: u32,
    /// 8, 16, 32 or 64.
    pub element_bitwidth: u32,
    /// Tensor rank.
    pub rank: usize,
    /// The contiguous dim is dim 0 instead of the last.
    pub transposed: bool,
    /// fp4 data padded to bytes (Blackwell mixed precision).
    pub fp4_padded: bool,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
}

impl NvmmaShared {
    /// A single-CTA layout of `rank`.
    pub fn new(
        swizzle_byte_width: u32,
        element_bitwidth: u32,
        rank: usize,
        transposed: bool,
    ) -> NvmmaShared {
        NvmmaShared {
            swizzle_byte_width,
            element_bitwidth,
            rank,
            transposed,
            fp4_padded: false,
            cga_layout: CgaLayout::single(),
        }
    }

    /// Elements per 16-byte swizzle group.
    pub fn vec(&self) -> u64 {
        if self.swizzle_byte_width == 0 {
            1
        } else {
            128 / u64::from(self.element_bitwidth)
        }
    }

    /// Rows sharing one phase.
    pub fn per_phase(&self) -> u64 {
        if self.swizzle_byte_width == 0 {
            1
        } else {
            128 / u64::from(self.swizzle_byte_width)
        }
    }

    /// Number of phases.
    pub fn max_phase(&self) -> u64 {
        if self.swizzle_byte_width == 0 {
            1
        } else {
            u64::from(self.swizzle_byte_width) / 16
        }
    }

    /// Checks Triton's rules.
    pub fn validate(&self) -> Result<()> {
        if !matches!(self.swizzle_byte_width, 0 | 32 | 64 | 128) {
            return Err(invalid("swizzle_byte_width", "must be 0, 32, 64 or 128"));
        }
        if !matches!(self.element_bitwidth, 8 | 16 | 32 | 64) {
            return Err(invalid("element_bitwidth", "must be 8, 16, 32 or 64"));
        }
        if self.fp4_padded {
            if self.swizzle_byte_width != 128 {
                return Err(invalid(
                    "fp4_padded",
                    "fp4_padded only supports 128 byte swizzling",
                ));
            }
            if self.element_bitwidth != 8 {
                return Err(invalid(
                    "fp4_padded",
                    "fp4_padded is only supported for element_bitwidth=8",
                ));
            }
        }
        if self.rank == 0 {
            return Err(invalid("rank", "must be at least 1"));
        }
        // Checked before anything of this rank is built (the CGA layout below has `rank` out dims).
        super::check_max_rank("rank", self.rank)?;
        self.cga_layout.to_linear_layout(self.rank)?;
        Ok(())
    }

    /// The TMA block shape for a per-CTA shape (Triton's `getTMABlockShape` with packed sizes).
    pub fn tma_block_shape(&self, shape_per_cta: &[u64]) -> Result<Vec<u64>> {
        let mut block = shape_per_cta.to_vec();
        let contig = if self.transposed { 0 } else { block.len() - 1 };
        if self.fp4_padded {
            block[contig] *= 2;
        }
        for b in &mut block {
            *b = (*b).min(256);
        }
        if self.swizzle_byte_width != 0 {
            let need = 8 * u64::from(self.swizzle_byte_width) / u64::from(self.element_bitwidth);
            if block[contig] < need {
                return Err(invalid(
                    "swizzle_byte_width",
                    format!(
                        "block shape along the contiguous dimension {contig} is too small for the swizzle byte size {} in an NVMMASharedLayout, got {} but expected at least {need}",
                        self.swizzle_byte_width, block[contig]
                    ),
                ));
            }
            block[contig] = need;
        }
        if self.fp4_padded {
            block[contig] /= 2;
        }
        Ok(block)
    }

    /// One core matrix (8 rows, dims `dim0` = row and `dim1` = column).
    fn core_matrix(&self) -> Result<LinearLayout> {
        let cols =
            8 * u64::from(self.swizzle_byte_width.max(16)) / u64::from(self.element_bitwidth);
        let pack = |c: u64| {
            if self.fp4_padded {
                c / 16 * 8 + c % 8
            } else {
                c
            }
        };
        let mut bases = Vec::new();
        let mut c = 1;
        while c < cols {
            bases.push(vec![0, pack(c)]);
            c *= 2;
        }
        let mut r = 1;
        while r < 8 {
            let col = self.vec() * ((r / self.per_phase()) % self.max_phase());
            bases.push(vec![r, pack(col)]);
            r *= 2;
        }
        LinearLayout::from_bases_inferred([(Dim::OFFSET, bases)], Dim::standard(2))
    }

    /// The linear layout (`offset → dims`) of a buffer of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        // The shape first: `rank` is not trusted until it matches a shape that passed `check_shape`.
        super::cga::check_shape(shape)?;
        super::check_rank("shape", shape.len(), self.rank)?;
        self.validate()?;
        super::check_has_offsets("NVMMASharedLayout", shape)?;
        let rank = shape.len();
        let spc = self.cga_layout.shape_per_cta(shape)?;
        let tma = self.tma_block_shape(&spc)?;
        if self.cga_layout.is_single() && rank <= 8 {
            return self.fast_single_cta(shape, &tma);
        }
        self.generic(shape, &spc, &tma)
    }

    /// The construction of [`NvmmaShared::to_linear_layout`] through layout operations (any CGA layout).
    fn generic(&self, shape: &[u64], spc: &[u64], tma: &[u64]) -> Result<LinearLayout> {
        let rank = shape.len();
        let spc = spc.to_vec();
        let tma = tma.to_vec();
        if self.swizzle_byte_width == 0 {
            // Row major over the TMA block, the contiguous dim (dim 0 when transposed) first.
            let mut nd = tma.clone();
            if self.transposed {
                nd.rotate_left(1);
            }
            let mut ll = LinearLayout::identity_1d(nd[rank - 1], Dim::OFFSET, Dim::dim(rank - 1))?;
            for i in (0..rank - 1).rev() {
                ll = ll.product(&LinearLayout::identity_1d(nd[i], Dim::OFFSET, Dim::dim(i))?)?;
            }
            if self.transposed {
                ll = ll.transpose_outs(&Dim::standard(rank))?;
                ll = permute_standard_dims(&ll, &no_swizzle_transposed_dims(rank))?;
                let reversed: Vec<Dim> = (0..rank).rev().map(Dim::dim).collect();
                ll = ll.transpose_outs(&reversed)?;
            }
            let ll = ensure_not_smaller(&ll, &spc)?;
            return combine_cta_cga_with_shape(&ll, &self.cga_layout, shape);
        }
        if rank < 2 {
            return Err(invalid("rank", "a swizzled NVMMA layout needs rank >= 2"));
        }
        let mut collapsed = [tma[..rank - 1].iter().product::<u64>(), tma[rank - 1]];
        if self.transposed {
            collapsed.swap(0, 1);
        }
        let tile = self.core_matrix()?;
        let tile_rows = tile.out_dim_size("dim0")?;
        let tile_cols = tile.out_dim_size("dim1")?;
        let packing = if self.fp4_padded { 2 } else { 1 };
        if collapsed[1] * packing < tile_cols || collapsed[0] < tile_rows {
            return Err(invalid(
                "swizzle_byte_width",
                format!(
                    "illegal shared layout: the collapsed per-CTA shape [{}, {}] is smaller than one core matrix [{tile_rows}, {}]",
                    collapsed[0], collapsed[1], tile_cols / packing
                ),
            ));
        }
        let ll = ensure_not_smaller(&tile, &collapsed)?;
        let mut nd_shape = tma.clone();
        if self.transposed {
            nd_shape.rotate_left(1);
        }
        let mut ll = reshape_row_major(&ll, &nd_shape)?;
        if self.transposed {
            let mut order = vec![rank - 1];
            order.extend(0..rank - 1);
            ll = permute_standard_dims(&ll, &order)?;
        }
        let ll = ensure_not_smaller(&ll, &spc)?;
        combine_cta_cga_with_shape(&ll, &self.cga_layout, shape)
    }
}

/// Offset bases as coordinate vectors (rank <= 8), for the single-CTA fast path.
type Coords = SmallVec<[[u64; 8]; 24]>;

fn unit(d: usize, v: u64) -> [u64; 8] {
    let mut c = [0u64; 8];
    c[d] = v;
    c
}

/// Appends identity bases along `d` from `from` up to `to` (wrap-around).
fn grow(bases: &mut Coords, d: usize, from: u64, to: u64) {
    let mut c = from;
    while c < to {
        bases.push(unit(d, c));
        c *= 2;
    }
}

impl NvmmaShared {
    /// Single CTA: the same bases as the generic construction, computed as coordinate vectors and packed
    /// once (no intermediate layouts).
    fn fast_single_cta(&self, shape: &[u64], tma: &[u64]) -> Result<LinearLayout> {
        let rank = shape.len();
        let mut bases: Coords = SmallVec::new();
        let mut sizes = [1u64; 8];
        let rot: Vec<usize> = std::iter::once(rank - 1).chain(0..rank - 1).collect();
        let permute = |b: &[u64; 8]| -> [u64; 8] {
            let mut c = [0u64; 8];
            for k in 0..rank {
                c[k] = b[rot[k]];
            }
            c
        };
        let mut nd = tma.to_vec();
        if self.transposed {
            nd.rotate_left(1);
        }
        let wrap_order: Vec<usize>;
        if self.swizzle_byte_width == 0 {
            for d in (0..rank).rev() {
                grow(&mut bases, d, 1, nd[d]);
                sizes[d] = nd[d];
            }
            wrap_order = (0..rank).rev().collect();
        } else {
            if rank < 2 {
                return self.generic(shape, shape, tma);
            }
            let mut collapsed = [tma[..rank - 1].iter().product::<u64>(), tma[rank - 1]];
            if self.transposed {
                collapsed.swap(0, 1);
            }
            let cols =
                8 * u64::from(self.swizzle_byte_width.max(16)) / u64::from(self.element_bitwidth);
            let pack = |c: u64| {
                if self.fp4_padded {
                    c / 16 * 8 + c % 8
                } else {
                    c
                }
            };
            let mut two: SmallVec<[[u64; 2]; 24]> = SmallVec::new();
            let mut c = 1;
            while c < cols {
                two.push([0, pack(c)]);
                c *= 2;
            }
            for r in [1u64, 2, 4] {
                two.push([
                    r,
                    pack(self.vec() * ((r / self.per_phase()) % self.max_phase())),
                ]);
            }
            let col_size = (two.iter().fold(0, |a, b| a | b[1]) + 1).next_power_of_two();
            let packing = if self.fp4_padded { 2 } else { 1 };
            if collapsed[1] * packing < cols || collapsed[0] < 8 {
                return self.generic(shape, shape, tma);
            }
            let mut r = 8;
            while r < collapsed[0] {
                two.push([r, 0]);
                r *= 2;
            }
            let mut c = col_size;
            while c < collapsed[1] {
                two.push([0, c]);
                c *= 2;
            }
            let col_bits = collapsed[1].max(col_size).trailing_zeros();
            for b in &two {
                let mut lin = (b[0] << col_bits) | b[1];
                let mut v = [0u64; 8];
                for d in (0..rank).rev() {
                    v[d] = lin & (nd[d] - 1);
                    lin >>= nd[d].trailing_zeros();
                }
                bases.push(if self.transposed { permute(&v) } else { v });
            }
            for d in 0..rank {
                sizes[d] = if self.transposed { nd[rot[d]] } else { nd[d] };
            }
            wrap_order = (0..rank).collect();
        }
        if self.swizzle_byte_width == 0 && self.transposed {
            let dims = no_swizzle_transposed_dims(rank);
            for b in bases.iter_mut() {
                let old = *b;
                for k in 0..rank {
                    b[k] = old[dims[k]];
                }
            }
            let old = sizes;
            for k in 0..rank {
                sizes[k] = old[dims[k]].min(shape[k]);
            }
            // A basis past the shape of the dim it lands on broadcasts (Triton's combine zeroes it).
            for b in bases.iter_mut() {
                for k in 0..rank {
                    if b[k] >= shape[k] {
                        b[k] = 0;
                    }
                }
            }
        }
        for &d in &wrap_order {
            if shape[d] > sizes[d] {
                grow(&mut bases, d, sizes[d], shape[d]);
                sizes[d] = shape[d];
            }
        }
        let mut shift = [0u32; 8];
        let mut acc = 0;
        for d in 0..rank {
            shift[d] = acc;
            acc += shape[d].trailing_zeros();
        }
        let cols: SmallVec<[u64; 16]> = bases
            .iter()
            // A size-1 last dim of a 64-bit buffer sits at shift 64: it contributes no bits.
            .map(|b| (0..rank).fold(0u64, |a, d| a | b[d].checked_shl(shift[d]).unwrap_or(0)))
            .collect();
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
}

/// For the unswizzled transposed layout: tensor dim `k` takes the bases of dim `dims[k]` of the identity
/// over the rotated TMA block `[b1, …, b(rank-1), b0]`. Triton's `buildNvmmaSharedLinearLayout`
/// (LinearLayoutConversions.cpp, Triton 3.9) sends rotated dim `i` to tensor dim `order[i]` with
/// `order = [rank-1, 0, 1, …, rank-2]` (`transposeLinearLayout`), so `dims` is the inverse of `order`:
/// the two agree for rank 2, and for rank 3 Triton's layout is not the transposition one might expect
/// (its offsets then outnumber the elements, with zero bases). Wrap-around goes from the last dim.
fn no_swizzle_transposed_dims(rank: usize) -> Vec<usize> {
    let mut order = vec![rank - 1];
    order.extend(0..rank - 1);
    let mut dims = vec![0; rank];
    for (i, &d) in order.iter().enumerate() {
        dims[d] = i;
    }
    dims
}

/// Reshapes the out dims of `ll` (standard, row major: the last dim most minor) to `shape`.
pub(crate) fn reshape_row_major(ll: &LinearLayout, shape: &[u64]) -> Result<LinearLayout> {
    let mut src: Vec<Dim> = ll.out_dim_names().cloned().collect();
    src.reverse();
    let mut new: Vec<(Dim, u64)> = shape
        .iter()
        .enumerate()
        .map(|(i, &s)| (Dim::dim(i), s))
        .collect();
    new.reverse();
    ll.transpose_outs(&src)?
        .reshape_outs(&new)?
        .transpose_outs(&Dim::standard(shape.len()))
}

/// Triton's `transposeLinearLayout`: new out dim `k` is old standard dim `order[k]`.
pub(crate) fn permute_standard_dims(ll: &LinearLayout, order: &[usize]) -> Result<LinearLayout> {
    let names: Vec<Dim> = order.iter().map(|&d| Dim::dim(d)).collect();
    let t = ll.transpose_outs(&names)?;
    let outs: SmallVec<[DimSpec; 4]> = t
        .outs
        .iter()
        .enumerate()
        .map(|(k, o)| DimSpec {
            name: Dim::dim(k),
            log2: o.log2,
        })
        .collect();
    Ok(LinearLayout::from_parts(
        SmallVec::from_slice(&t.ins),
        outs,
        SmallVec::from_slice(&t.cols),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single-CTA fast path equals the generic construction for every swizzle, element width,
    /// transposition, fp4 padding and shape of rank 2 and 3 from 1 to 512 per dim.
    #[test]
    fn fast_path_equals_generic() {
        let mut n = 0;
        for swz in [0u32, 32, 64, 128] {
            for bits in [8u32, 16, 32, 64] {
                for transposed in [false, true] {
                    for fp4 in [false, true] {
                        if fp4 && (swz != 128 || bits != 8) {
                            continue;
                        }
                        for rank in [2usize, 3] {
                            let mut l = NvmmaShared::new(swz, bits, rank, transposed);
                            l.fp4_padded = fp4;
                            for logs in [
                                [0u32, 0, 0],
                                [3, 4, 5],
                                [6, 7, 3],
                                [9, 2, 8],
                                [4, 9, 6],
                                [1, 8, 9],
                            ] {
                                let shape: Vec<u64> =
                                    logs[..rank].iter().map(|&x| 1u64 << x).collect();
                                let tma = match l.tma_block_shape(&shape) {
                                    Ok(t) => t,
                                    Err(_) => continue,
                                };
                                let fast = l.fast_single_cta(&shape, &tma);
                                let slow = l.generic(&shape, &shape, &tma);
                                assert_eq!(fast.is_ok(), slow.is_ok(), "{l:?} {shape:?}");
                                if let (Ok(f), Ok(s)) = (fast, slow) {
                                    assert_eq!(f, s, "{l:?} {shape:?}");
                                    n += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 100, "{n}");
    }
}
