//! The argmax/argmin kernel and its host reference, shared by `gpu_argreduce` and the
//! interpreter's reduction suite.

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, Target};
use weft::layout::encoding::{Blocked, Encoding, Slice};

pub const TILE: [u64; 2] = [64, 64];

pub fn layouts() -> [Blocked; 3] {
    [
        Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]),
        Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1]),
        Blocked::new(&[2, 2], &[4, 8], &[2, 2], &[1, 0]),
    ]
}

/// `y[i] = arg{max,min}` along `axis` of the `m × n` matrix `x` (row-major), masked elements
/// reading `other` (the worst value), results for valid rows (axis 1) or columns (axis 0).
pub fn arg_kernel<'c>(
    ctx: &'c Context,
    layout: &Blocked,
    dtype: DType,
    axis: usize,
    max: bool,
) -> Result<Kernel<'c>> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "argreduce", 4)?;
    let x = kb.arg_ptr("x", dtype, dtype.mem_bytes())?;
    let y = kb.arg_ptr("y", DType::I32, 4)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", 1)?;
    let enc: Encoding = layout.clone().into();
    let rows = kb.arange(0, TILE[0] as i32, Slice::new(1, enc.clone()))?;
    let cols = kb.arange(0, TILE[1] as i32, Slice::new(0, enc.clone()))?;
    let r2 = kb.expand_dims(rows, 1)?;
    let r2 = kb.broadcast_to(r2, (&enc, TILE))?;
    let c2 = kb.expand_dims(cols, 0)?;
    let c2 = kb.broadcast_to(c2, (&enc, TILE))?;
    let mr = kb.lt(r2, m)?;
    let mc = kb.lt(c2, n)?;
    let mask = kb.and(mr, mc)?;
    let off = kb.mul(r2, n)?;
    let off = kb.add(off, c2)?;
    let px = kb.add(x, off)?;
    let other = match (dtype, max) {
        (DType::I32, true) => kb.const_int(dtype, i32::MIN as i64)?,
        (DType::I32, false) => kb.const_int(dtype, i32::MAX as i64)?,
        (_, true) => kb.const_float(dtype, f64::NEG_INFINITY)?,
        (_, false) => kb.const_float(dtype, f64::INFINITY)?,
    };
    let v = kb.load(
        px,
        Some(mask),
        Some(weft::codegen::IntoOperand::into_operand(other)),
    )?;
    let r = if max {
        kb.argmax(v, axis)?
    } else {
        kb.argmin(v, axis)?
    };
    let (idx, bound) = if axis == 1 { (rows, m) } else { (cols, n) };
    let keep = kb.lt(idx, bound)?;
    let py = kb.add(y, idx)?;
    kb.store(py, r, Some(keep))?;
    kb.finish()
}

/// The host's answer: the first index of the extreme value along `axis`.
pub fn host_arg(x: &[f64], m: usize, n: usize, axis: usize, max: bool) -> Vec<i32> {
    let (outer, inner) = if axis == 1 { (m, n) } else { (n, m) };
    (0..outer)
        .map(|o| {
            let at = |i: usize| {
                if axis == 1 {
                    x[o * n + i]
                } else {
                    x[i * n + o]
                }
            };
            let mut best = 0;
            for i in 1..inner {
                let better = if max {
                    at(i) > at(best)
                } else {
                    at(i) < at(best)
                };
                if better {
                    best = i;
                }
            }
            best as i32
        })
        .collect()
}
