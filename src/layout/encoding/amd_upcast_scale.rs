//! The scale layout of an AMD fp4 `scaled_upcast`: Gluon's `amd.get_scaled_upcast_fp4_scale_layout` in
//! Triton 3.9.
//!
//! A packed fp4 tensor (two values per `i8`) upcasts to twice its extent along `axis`: each byte's two values
//! land in two consecutive registers. One `v_cvt_scale*_pk8` converts 8 register-consecutive values with one
//! scale, so those 8 must fall in one scale block (`scale_factor` = output extent / scale extent, at least
//! 8). The scale tensor is then laid out as the output with its `axis` coordinate divided by the scale
//! factor: registers that only stepped within a block go, lanes and warps that did hold copies.

use crate::layout::{Bases, Result};

use super::{invalid, DistributedLinear, Encoding};

/// The scale layout for a packed-fp4 (`i8`) tensor of `shape` in `src`, upcast along `axis` with
/// `scale_extent` scales along it.
pub fn scaled_upcast_fp4_scale_layout(
    src: &Encoding,
    shape: &[u64],
    scale_extent: u64,
    axis: usize,
) -> Result<DistributedLinear> {
    if !src.is_distributed() {
        return Err(invalid(
            "src",
            format!(
                "Expected src to have a distributed layout, got a {}",
                src.kind()
            ),
        ));
    }
    let packed = DistributedLinear::from_linear_layout(&src.to_linear_layout(shape)?)?;
    let rank = shape.len();
    if axis >= rank {
        return Err(invalid(
            "axis",
            format!("axis {axis} out of range for rank {rank}"),
        ));
    }
    let out_extent = shape[axis]
        .checked_mul(2)
        .ok_or_else(|| invalid("shape", "the upcast extent does not fit in 64 bits"))?;
    if scale_extent == 0
        || out_extent % scale_extent != 0
        || !(out_extent / scale_extent).is_power_of_two()
    {
        return Err(invalid(
            "scale_extent",
            format!(
                "failed to infer scaled_upcast_fp4 scale layout: the output extent {out_extent} is not a \
                 power-of-two multiple of the scale extent {scale_extent}"
            ),
        ));
    }
    let shift = (out_extent / scale_extent).trailing_zeros();
    // The upcast result: a new first register for the second value of each byte, every step along `axis`
    // twice as long.
    let double = |bases: &Bases| -> Bases {
        bases
            .iter()
            .map(|b| {
                b.iter()
                    .enumerate()
                    .map(|(d, &x)| if d == axis { x * 2 } else { x })
                    .collect()
            })
            .collect()
    };
    let mut pair = vec![0u64; rank];
    pair[axis] = 1;
    let mut regs = vec![pair];
    regs.extend(double(&packed.reg_bases));
    // The 8 values of one conversion must share a scale: they may only step along `axis` inside one block.
    let in_block = |b: &Vec<u64>| {
        b.iter()
            .enumerate()
            .all(|(d, &x)| if d == axis { x >> shift == 0 } else { x == 0 })
    };
    if regs.len() < 3 || !regs[..3].iter().all(in_block) {
        return Err(invalid(
            "src",
            "failed to infer scaled_upcast_fp4 scale layout: the 8 elements of a v_cvt_scale_pk8 group would \
             not share a single scale; the scaled axis must place 8 register-consecutive elements within one \
             scale block",
        ));
    }
    let to_scale = |bases: &Bases| -> Bases {
        bases
            .iter()
            .map(|b| {
                b.iter()
                    .enumerate()
                    .map(|(d, &x)| if d == axis { x >> shift } else { x })
                    .collect()
            })
            .collect()
    };
    let mut scale_shape = shape.to_vec();
    scale_shape[axis] = scale_extent;
    Ok(DistributedLinear {
        reg_bases: to_scale(&regs)
            .into_iter()
            .filter(|b| b.iter().any(|&x| x != 0))
            .collect(),
        lane_bases: to_scale(&double(&packed.lane_bases)),
        warp_bases: to_scale(&double(&packed.warp_bases)),
        block_bases: to_scale(&double(&packed.block_bases)),
        shape: scale_shape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encoding::Blocked;

    #[test]
    fn sixteen_bytes_per_thread_with_32_value_blocks_keep_one_scale_per_lane() {
        let src = Encoding::Blocked(Blocked::new(&[1, 16], &[8, 8], &[1, 1], &[1, 0]));
        let l = scaled_upcast_fp4_scale_layout(&src, &[64, 128], 8, 1).unwrap();
        // Registers only step within a 32-value block: none is left but the rows.
        assert_eq!(l.reg_bases, vec![vec![8, 0], vec![16, 0], vec![32, 0]]);
        assert_eq!(l.lane_bases[..3], [vec![0, 1], vec![0, 2], vec![0, 4]]);
        assert_eq!(l.shape, vec![64, 8]);
    }

    #[test]
    fn a_group_of_8_values_must_share_a_scale() {
        let src = Encoding::Blocked(Blocked::new(&[1, 2], &[8, 8], &[4, 1], &[1, 0]));
        assert!(scaled_upcast_fp4_scale_layout(&src, &[64, 64], 16, 1).is_err());
        let src = Encoding::Blocked(Blocked::new(&[1, 4], &[8, 8], &[4, 1], &[1, 0]));
        assert!(scaled_upcast_fp4_scale_layout(&src, &[64, 64], 32, 1).is_err());
        assert!(scaled_upcast_fp4_scale_layout(&src, &[64, 64], 16, 1).is_ok());
        assert!(scaled_upcast_fp4_scale_layout(&src, &[64, 64], 3, 1).is_err());
        assert!(scaled_upcast_fp4_scale_layout(&src, &[64, 64], 16, 2).is_err());
    }
}
