//! The register layout of the block scales of a gfx1250 scaled WMMA: Gluon's `amd.cdna5.get_wmma_scale_layout`
//! (`gluon_ir.get_amd_wmma_scale_layout`, Triton 3.9's `chooseScaledWmmaScaleLayout`).
//!
//! A scale tensor is `[M, K / s]` for A and `[N, K / s]` for B (`s`, the scale factor, 16 or 32). Each lane
//! holds `4` (s = 32) or `8` (s = 16) consecutive scales along K; 16 lanes hold 16 rows and lane 16 the
//! next 16 rows when the instruction's rows for this operand are 32 (else it repeats lanes 0–15); registers
//! repeat along K; the WMMA layout's own register and warp tiling (in instruction tiles) repeats the rest.
//! With a 16-row instruction M (`instr_shape[0] == 16`), lane 16 then takes the first repetition along the
//! rows when there is one, as Triton does: it moves the register that held it into lane 16 (which also
//! drops what lane 16 held: where that leaves a hole below the highest row held, Triton's layout constructor
//! rejects the result and so does weft; where it only leaves the top rows unheld, the layout's shape
//! shrinks to the rows held, as Triton's does).

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, CgaLayout};
use super::{invalid, DistributedLinear};

/// The parameters of Gluon's `get_amd_wmma_scale_layout`: those of the dot operand's WMMA parent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WmmaScaleParams {
    /// 0 for A's scales, 1 for B's.
    pub op_idx: u32,
    /// The WMMA instruction's M and N (`instr_shape[0]`, `instr_shape[1]`): 16 or 32.
    pub m_dim: u32,
    /// See `m_dim`.
    pub n_dim: u32,
    /// The WMMA layout is transposed (its instruction tile is N × M).
    pub transposed: bool,
    /// Operand elements per scale: 16 or 32.
    pub scale_factor: u32,
    /// The WMMA layout's register bases (in instruction tiles, `[dim0, dim1]` of the result).
    pub reg_bases: Bases,
    /// The WMMA layout's warp bases (as `reg_bases`).
    pub warp_bases: Bases,
    /// The dot operand's CGA layout.
    pub cga_layout: CgaLayout,
}

/// The scale layout of a scaled WMMA for a scale tensor of `shape` (`[M or N, K / scale_factor]`).
pub fn amd_wmma_scale_layout(p: &WmmaScaleParams, shape: &[u64]) -> Result<DistributedLinear> {
    if p.op_idx > 1 {
        return Err(invalid(
            "op_idx",
            format!("operand index must be 0 or 1, got {}", p.op_idx),
        ));
    }
    if shape.len() != 2 {
        return Err(invalid("shape", "scaled WMMA scale layouts are rank 2"));
    }
    super::cga::check_shape(shape)?;
    let k_width: u64 = match p.scale_factor {
        32 => 4,
        16 => 8,
        other => {
            return Err(invalid(
                "scale_factor",
                format!("Only support 16 or 32 scale factor, got {other}"),
            ))
        }
    };
    for (name, d) in [("m_dim", p.m_dim), ("n_dim", p.n_dim)] {
        if d != 16 && d != 32 {
            return Err(invalid(
                name,
                format!("the WMMA instruction dims are 16 or 32, got {d}"),
            ));
        }
    }
    // The instruction rows this operand's scales follow: M for A, N for B (swapped when transposed).
    let rows = u64::from(if (p.op_idx == 0) != p.transposed {
        p.m_dim
    } else {
        p.n_dim
    });
    // Bases are written `[rows, K]` (out dims dim0, dim1).
    let mut regs: Bases = (0..k_width.trailing_zeros())
        .map(|i| vec![0, 1 << i])
        .collect();
    let mut lanes: Bases = (0..4).map(|i| vec![1 << i, 0]).collect();
    lanes.push(vec![if rows == 32 { 16 } else { 0 }, 0]);
    let k_reps = (shape[1] / k_width).max(1);
    regs.extend((0..k_reps.trailing_zeros()).map(|i| vec![0, k_width << i]));
    let first_rep = regs.len();
    // The WMMA tiling, one instruction tile = `rows` rows; B's tiling is transposed, and the K component
    // dropped (scales of one row serve every K tile). Registers that then repeat nothing go.
    let row_of = |b: &Vec<u64>| -> Result<u64> {
        let [r, c] = b[..] else {
            return Err(invalid("reg_bases", "WMMA bases are rank 2"));
        };
        (if p.op_idx == 0 { r } else { c })
            .checked_mul(rows)
            .ok_or_else(|| invalid("warp_bases", format!("basis {b:?} is out of range")))
    };
    for b in &p.reg_bases {
        let r = row_of(b)?;
        if r != 0 {
            regs.push(vec![r, 0]);
        }
    }
    let warps = p
        .warp_bases
        .iter()
        .map(|b| row_of(b).map(|r| vec![r, 0]))
        .collect::<Result<Bases>>()?;
    let cta = LinearLayout::from_bases_inferred(
        [
            (Dim::REGISTER, regs),
            (Dim::LANE, lanes),
            (Dim::WARP, warps),
        ],
        Dim::standard(2),
    )
    .map_err(|e| invalid("warp_bases", e.to_string()))?;
    let cga = if p.op_idx == 1 {
        CgaLayout::new(
            p.cga_layout
                .bases
                .iter()
                .map(|b| b.iter().rev().copied().collect())
                .collect(),
        )
    } else {
        p.cga_layout.clone()
    };
    let ll = combine_cta_cga_with_shape(&cta, &cga, shape)?;
    let mut out = DistributedLinear::from_linear_layout(&ll)?;
    if p.m_dim == 16 && out.reg_bases.len() > first_rep {
        let moved = out.reg_bases.remove(first_rep);
        out.lane_bases[4] = moved;
        // Triton rebuilds the layout with out sizes inferred from the bases, which must then reach every
        // element (rows above the highest one held drop out of the shape).
        let rebuilt = LinearLayout::from_bases_inferred(
            out.named_bases().map(|(d, b)| (d, b.clone())),
            Dim::standard(2),
        )
        .map_err(|_| {
            invalid(
                "shape",
                "lane 16 takes the first repetition along the rows and leaves rows 16–31 of the \
                 instruction unheld (Triton's layout is not surjective)",
            )
        })?;
        out.shape = rebuilt.out_dims().map(|(_, s)| s).collect();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(op_idx: u32, m: u32, n: u32, transposed: bool) -> WmmaScaleParams {
        WmmaScaleParams {
            op_idx,
            m_dim: m,
            n_dim: n,
            transposed,
            scale_factor: 32,
            reg_bases: vec![],
            warp_bases: vec![vec![0, 1], vec![1, 0]],
            cga_layout: CgaLayout::single(),
        }
    }

    #[test]
    fn lane_16_takes_the_next_rows_of_a_16_row_instruction() {
        // 64 rows: lanes 0–15 rows 0–15, the warps 16 apart, lane 16 the repetition at row 32.
        let l = amd_wmma_scale_layout(&params(0, 16, 16, false), &[64, 4]).unwrap();
        assert_eq!(l.lane_bases[4], vec![32, 0]);
        assert_eq!(l.warp_bases, vec![vec![0, 0], vec![16, 0]]);
        // A 32-row instruction: lane 16 holds rows 16–31 of it.
        let l = amd_wmma_scale_layout(&params(0, 32, 16, false), &[64, 4]).unwrap();
        assert_eq!(l.lane_bases[4], vec![16, 0]);
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        let mut p = params(0, 16, 16, false);
        p.scale_factor = 8;
        assert!(amd_wmma_scale_layout(&p, &[64, 4]).is_err());
        assert!(amd_wmma_scale_layout(&params(2, 16, 16, false), &[64, 4]).is_err());
        assert!(amd_wmma_scale_layout(&params(0, 64, 16, false), &[64, 4]).is_err());
        // Triton's own layout for this one leaves rows unheld.
        assert!(amd_wmma_scale_layout(&params(0, 16, 32, true), &[128, 8]).is_err());
    }
}
