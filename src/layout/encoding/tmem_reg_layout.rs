//! The register layouts of `tcgen05.ld` / `tcgen05.st`: which thread holds which element when a tile moves
//! between tensor memory and registers with one of the PTX messages (`32x32b`, `16x64b`, `16x128b`,
//! `16x256b`; `16x32bx2` is chosen implicitly when lane 16 would repeat lane 0's rows).
//!
//! This is Gluon's `tensor_memory_descriptor.get_reg_layout(num_warps, instr_variant)` in Triton 3.9
//! (`compute_tmem_reg_layout`, i.e. TritonNvidiaGPU's `getDistributedLayoutForTmemLdSt`): the message's
//! tile (`register, lane, warp → row, col`) is widened with registers along the columns, warps past the
//! first four take column slices (or rows 16–31 when the message covers only 16 rows), and the result is
//! composed with the tensor-memory layout; narrow elements first pack into 32-bit columns.

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::{invalid, DistributedLinear, Encoding, TensorMemoryScales};

/// A `tcgen05.ld/st` message shape, as Gluon's `instr_variant` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TmemMessage {
    /// `32x32b`: one row per lane.
    I32x32b,
    /// `16x64b`.
    I16x64b,
    /// `16x128b`.
    I16x128b,
    /// `16x256b`.
    I16x256b,
    /// `32x32b` with the top column bit in a register, so `split` along the columns stays in-thread
    /// (Gluon's `32x32b_splitn`).
    I32x32bSplitN,
}

impl TmemMessage {
    /// Gluon's name (`instr_variant`).
    pub fn name(self) -> &'static str {
        match self {
            TmemMessage::I32x32b => "32x32b",
            TmemMessage::I16x64b => "16x64b",
            TmemMessage::I16x128b => "16x128b",
            TmemMessage::I16x256b => "16x256b",
            TmemMessage::I32x32bSplitN => "32x32b_splitn",
        }
    }

    /// The message Gluon's `instr_variant` names; `16x32bx2` is rejected as Gluon does (it is only inferred).
    pub fn parse(name: &str) -> Result<TmemMessage> {
        Ok(match name {
            "32x32b" => TmemMessage::I32x32b,
            "16x64b" => TmemMessage::I16x64b,
            "16x128b" => TmemMessage::I16x128b,
            "16x256b" => TmemMessage::I16x256b,
            "32x32b_splitn" => TmemMessage::I32x32bSplitN,
            "16x32bx2" => {
                return Err(invalid(
                    "instr_variant",
                    "Atom 16x32bx2 is inferred implicitly and cannot be requested explicitly",
                ))
            }
            other => {
                return Err(invalid(
                    "instr_variant",
                    format!(
                        "unknown instr_variant: {}",
                        crate::layout::error::excerpt(other)
                    ),
                ))
            }
        })
    }
}

const ROW: &str = "row";
const COL: &str = "col";

/// The register layout (`register, lane, warp, block → dim0, dim1`) of a `tcgen05.ld/st` with `message`
/// by `num_warps` warps of a tensor-memory descriptor of `shape` (allocated as `alloc_shape`) holding
/// `elem_bits`-bit elements in `tmem` (a [`Encoding::TensorMemory`] or [`Encoding::TensorMemoryScales`]).
pub fn tmem_reg_layout(
    elem_bits: u32,
    shape: &[u64],
    alloc_shape: &[u64],
    tmem: &Encoding,
    num_warps: u32,
    message: TmemMessage,
) -> Result<DistributedLinear> {
    if num_warps < 4 || !num_warps.is_power_of_two() {
        return Err(invalid(
            "num_warps",
            "num_warps must be a power of two and >= 4",
        ));
    }
    if shape.len() != 2 {
        return Err(invalid("shape", "expected a 2D tensor"));
    }
    if alloc_shape.len() < shape.len() {
        return Err(invalid(
            "alloc_shape",
            format!("alloc_shape must have rank >= shape rank, got {alloc_shape:?} and {shape:?}"),
        ));
    }
    match tmem {
        Encoding::TensorMemory(t) => t.check_type(shape, elem_bits)?,
        Encoding::TensorMemoryScales(t) => t.check_type(alloc_shape, elem_bits)?,
        other => {
            return Err(invalid(
                "layout",
                format!("{} is not a tensor-memory layout", other.kind()),
            ))
        }
    }
    if ![8, 16, 32].contains(&elem_bits) {
        return Err(invalid(
            "element type",
            format!("{elem_bits}-bit elements cannot live in tensor memory"),
        ));
    }
    tmem.tensor_layout(shape)?;
    // One CTA's share of the view: the allocation's share, cut to the view (a view inside one CTA's share
    // of its allocation lies in that CTA alone).
    let alloc = &alloc_shape[alloc_shape.len() - 2..];
    super::cga::check_shape(alloc)?;
    let cga = tmem.cga_layout().unwrap_or_default();
    let alloc_spc = cga.shape_per_cta(alloc)?;
    let spc: Vec<u64> = alloc_spc
        .iter()
        .zip(shape)
        .map(|(&a, &s)| a.min(s))
        .collect();
    let (rows, cols) = match tmem {
        Encoding::TensorMemory(t) => t.view_bases(&spc, &alloc_spc)?,
        _ => TensorMemoryScales::cta_bases(&spc, &alloc_spc),
    };
    let cta = LinearLayout::from_bases(
        [(Dim::new(ROW), rows), (Dim::new(COL), cols)],
        [(Dim::dim(0), spc[0]), (Dim::dim(1), spc[1])],
        false,
    )?;
    // The CTAs of the cluster, one share apart; a step past the view holds a copy.
    let block = super::tensor_memory::scaled_block_bases(&cga, &spc, shape);
    let atom = if message == TmemMessage::I32x32bSplitN {
        TmemMessage::I32x32b
    } else {
        message
    };
    let per_cta = for_width(&cta, atom, num_warps, elem_bits)?.ok_or_else(|| {
        invalid(
            "instr_variant",
            format!(
                "TMEM layout '{}' unsupported for shape {shape:?} and num_warps {num_warps}",
                atom.name()
            ),
        )
    })?;
    let per_cta = per_cta.transpose_outs(&["dim0", "dim1"])?;
    let mut out = DistributedLinear {
        reg_bases: per_cta.bases("register")?,
        lane_bases: per_cta.bases("lane")?,
        warp_bases: per_cta.bases("warp")?,
        block_bases: block,
        shape: shape.to_vec(),
    };
    // Scales viewed as one 32-bit column: the last register would only repeat the tile (the copy row group
    // of a 32-row tile that four warps' 128 lanes cover); Triton 3.9 gives the message no such register.
    if matches!(tmem, Encoding::TensorMemoryScales(_)) {
        // The CTA's share of the columns (a CGA split the tensor does not fill holds copies: a zero basis).
        let col_splits = out
            .block_bases
            .iter()
            .filter(|b| b.get(1).is_some_and(|&c| c != 0))
            .count();
        let cta_cols = shape[1] >> col_splits.min(63);
        if cta_cols.saturating_mul(u64::from(elem_bits)) <= 32 {
            while out
                .reg_bases
                .last()
                .is_some_and(|b| b.iter().all(|&x| x == 0))
            {
                out.reg_bases.pop();
            }
        }
    }
    if message == TmemMessage::I32x32bSplitN {
        split_n(&mut out, elem_bits)?;
    }
    Ok(out)
}

/// Gluon's `32x32b_splitn`: the basis reaching column `N / 2` moves into the last register.
fn split_n(l: &mut DistributedLinear, elem_bits: u32) -> Result<()> {
    let half = vec![0, l.shape[1] / 2];
    if l.reg_bases.is_empty() {
        if l.lane_bases.last() != Some(&half) {
            return Err(invalid(
                "instr_variant",
                "splitn with 1 register requires the last lane basis to be [0, N / 2]",
            ));
        }
        l.reg_bases.push(half);
        if let Some(last) = l.lane_bases.last_mut() {
            *last = vec![0, 0];
        }
        return Ok(());
    }
    if l.reg_bases.last() == Some(&half) {
        return Ok(());
    }
    if (1u64 << l.reg_bases.len().min(63)) <= u64::from(32 / elem_bits) {
        return Err(invalid(
            "instr_variant",
            format!(
                "splitn needs more than {} {elem_bits}-bit registers (32x32b.x1 twice); load with 32x32b \
                 and convert_layout instead",
                32 / elem_bits
            ),
        ));
    }
    // The first two warp bases pick the warp's quarter of the rows: they cannot move.
    let found = l
        .lane_bases
        .iter_mut()
        .chain(l.warp_bases.iter_mut().skip(2))
        .find(|b| **b == half);
    match (found, l.reg_bases.last_mut()) {
        (Some(b), Some(r)) => {
            std::mem::swap(b, r);
            Ok(())
        }
        _ => Err(invalid(
            "instr_variant",
            "splitn requires at least one basis of the form [0, N / 2] in lanes or warps[2:] bases",
        )),
    }
}

/// The message tile `register, lane, warp → row (128), col` of a 32-bit access (Triton's `getTileLayout`).
fn tile_bases(atom: TmemMessage) -> (Bases, Bases, u64) {
    let r = |v: u64| vec![v, 0];
    let c = |v: u64| vec![0, v];
    match atom {
        TmemMessage::I16x64b => (vec![], vec![r(8), c(1), r(1), r(2), r(4)], 2),
        TmemMessage::I16x128b => (vec![r(8)], vec![c(1), c(2), r(1), r(2), r(4)], 4),
        TmemMessage::I16x256b => (vec![c(1), r(8)], vec![c(2), c(4), r(1), r(2), r(4)], 8),
        _ => (vec![], (0..5).map(|i| r(1 << i)).collect(), 1),
    }
}

/// Packs `elem_bits`-bit elements into 32-bit columns, then [`for_32_bits`]. `None` when the message
/// cannot load the layout.
fn for_width(
    ll: &LinearLayout,
    atom: TmemMessage,
    num_warps: u32,
    elem_bits: u32,
) -> Result<Option<LinearLayout>> {
    if elem_bits == 32 {
        return for_32_bits(ll, atom, num_warps);
    }
    let mut best = (1u64, ll.clone());
    let mut contig = 2u64;
    while u64::from(elem_bits) * contig <= 32 {
        match ll.divide_left(&LinearLayout::identity_1d(contig, COL, Dim::dim(1))?) {
            Ok(q) => best = (contig, q),
            Err(_) => break,
        }
        contig *= 2;
    }
    let wrap = |inner: Option<LinearLayout>, regs: u64| -> Result<Option<LinearLayout>> {
        match inner {
            Some(l) => Ok(Some(
                (&LinearLayout::identity_1d(regs, "register", Dim::dim(1))? * &l)?,
            )),
            None => Ok(None),
        }
    };
    if best.0 > 1 {
        let bits = elem_bits * best.0 as u32;
        return wrap(for_width(&best.1, atom, num_warps, bits)?, best.0);
    }
    let spread = u64::from(32 / elem_bits);
    let unpacked = (&LinearLayout::zeros_1d(spread, COL, Dim::dim(1), 1)?
        * &LinearLayout::identity_1d(2, COL, Dim::dim(1))?)?;
    if elem_bits == 16 {
        if let Ok(q) = ll.divide_left(&unpacked) {
            return wrap(for_32_bits(&q, atom, num_warps)?, 2);
        }
    }
    match ll.divide_left(&LinearLayout::zeros_1d(spread, COL, Dim::dim(1), 1)?) {
        // Software padding: one element per 32-bit column.
        Ok(q) => for_32_bits(&q, atom, num_warps),
        // A single column: padded too.
        Err(_) if ll.in_dim_size(COL)? == 1 => for_32_bits(ll, atom, num_warps),
        Err(_) => Err(invalid(
            "layout",
            "the TMEM layout is neither packed nor unpacked for this element width",
        )),
    }
}

/// The register layout of a 32-bit access of `ll` (`row, col → dim0, dim1`) with `atom`.
fn for_32_bits(
    ll: &LinearLayout,
    atom: TmemMessage,
    num_warps: u32,
) -> Result<Option<LinearLayout>> {
    let (mut reg, mut lane, tile_cols) = tile_bases(atom);
    let mut warp: Bases = vec![vec![32, 0], vec![64, 0]];
    let n_cols_ll = ll.in_dim_size(COL)?;
    let mut missing = n_cols_ll / tile_cols;
    if missing == 0 {
        return Ok(None);
    }
    let rows32 = atom == TmemMessage::I32x32b;
    let rows16 = ll.in_dim_size(ROW)? > 16 && ll.basis(ROW, 4)?.iter().all(|&x| x == 0);
    // The load is lowered as `ll⁻¹ ∘ (ll ∘ tile)`, so one message's registers and lanes (lane 16 aside for
    // 32x32b, which 16x32bx2 may give another half) must reach distinct elements.
    let probe_lanes = if rows32 {
        &lane[..lane.len() - 1]
    } else {
        &lane[..]
    };
    let message = LinearLayout::from_bases(
        [
            (Dim::REGISTER, reg.clone()),
            (Dim::LANE, probe_lanes.to_vec()),
        ],
        [
            (Dim::new(ROW), ll.in_dim_size(ROW)?),
            (Dim::new(COL), n_cols_ll),
        ],
        false,
    )?;
    if !message.compose(ll)?.is_injective() {
        return Ok(None);
    }
    // A message of 16 rows leaves rows 16–31: a warp takes them when there are more than four, else a
    // register.
    #[derive(PartialEq)]
    enum Row16 {
        None,
        Warp,
        Reg,
    }
    let row16 = if !rows32 && !rows16 {
        if num_warps > 4 {
            Row16::Warp
        } else {
            Row16::Reg
        }
    } else {
        Row16::None
    };
    let mut warps_to_tile = u64::from(num_warps) / if row16 == Row16::Warp { 8 } else { 4 };
    let warp_broadcast = warps_to_tile / missing.min(warps_to_tile);
    warps_to_tile /= warp_broadcast;
    let n_cols_orig = n_cols_ll;
    missing /= warps_to_tile;
    let n_cols = n_cols_ll / warps_to_tile;
    if missing > 1 {
        let (regs, from) = if rows32 && rows16 {
            // Lane 16 would repeat lane 0's rows: it loads the second half of the columns instead
            // (the 16x32bx2 message).
            if let Some(last) = lane.last_mut() {
                *last = vec![0, n_cols / 2];
            }
            (missing / 2, tile_cols)
        } else {
            (missing, tile_cols)
        };
        reg.extend((0..regs.trailing_zeros()).map(|i| vec![0, from << i]));
    }
    match row16 {
        Row16::Warp => warp.push(vec![16, 0]),
        Row16::Reg => reg.push(vec![16, 0]),
        Row16::None => {}
    }
    let mut i = n_cols;
    while i < n_cols_orig {
        warp.push(vec![0, i]);
        i *= 2;
    }
    warp.extend((0..warp_broadcast.trailing_zeros()).map(|_| vec![0, 0]));
    let tile = LinearLayout::from_bases(
        [(Dim::REGISTER, reg), (Dim::LANE, lane), (Dim::WARP, warp)],
        [(Dim::new(ROW), 128), (Dim::new(COL), n_cols_orig)],
        false,
    )?;
    Ok(Some(tile.compose(ll)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encoding::TensorMemory;

    #[test]
    fn message_32x32b_gives_each_lane_a_row_and_each_register_a_column() {
        let tmem = Encoding::TensorMemory(TensorMemory::new(128, 64, 1));
        let l =
            tmem_reg_layout(32, &[128, 64], &[128, 64], &tmem, 4, TmemMessage::I32x32b).unwrap();
        assert_eq!(
            l.lane_bases,
            (0..5).map(|i| vec![1u64 << i, 0]).collect::<Bases>()
        );
        assert_eq!(
            l.reg_bases,
            (0..6).map(|i| vec![0, 1u64 << i]).collect::<Bases>()
        );
        assert_eq!(l.warp_bases, vec![vec![32, 0], vec![64, 0]]);
    }

    #[test]
    fn variants_and_warp_counts_are_checked() {
        assert!(TmemMessage::parse("16x32bx2").is_err());
        assert!(TmemMessage::parse("64x64b").is_err());
        let tmem = Encoding::TensorMemory(TensorMemory::new(128, 64, 1));
        assert!(
            tmem_reg_layout(32, &[128, 64], &[128, 64], &tmem, 6, TmemMessage::I32x32b).is_err()
        );
        assert!(tmem_reg_layout(32, &[128], &[128], &tmem, 4, TmemMessage::I32x32b).is_err());
    }
}
