//! Kernels and layouts shared by the conversion and reduction tests (CPU and GPU).

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, Target};
use weft::layout::encoding::{Blocked, Encoding, NvidiaMma, Slice};
use weft::layout::LinearLayout;

use super::rng::Rng;

/// `layout` on its whole tile seen as one row-major flat dim (the last dim fastest): converting
/// the flat layouts moves exactly the data the 2-D conversion moves, and `arange` builds their
/// offsets.
pub fn flat(l: &LinearLayout) -> LinearLayout {
    let names: Vec<String> = l.out_dim_names().rev().map(|d| d.to_string()).collect();
    l.transpose_outs(&names)
        .unwrap()
        .flatten_outs()
        .unwrap()
        .rename_out_dim(&names[0], "dim0")
        .unwrap()
}

/// `y[i] = x[i]` for every `i` of a tile loaded in `a` and stored in `b` after
/// `convert_layout(a → b)` (both 1-D, of one size). Parameters `x, y: *dtype`.
pub fn convert_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    name: &str,
    a: &LinearLayout,
    b: &LinearLayout,
    dtype: DType,
    warps: u32,
) -> Result<Kernel<'c>> {
    let mut kb = KernelBuilder::new(ctx, target, name, warps)?;
    let x = kb.arg_ptr("x", dtype, 16)?;
    let y = kb.arg_ptr("y", dtype, 16)?;
    let n = a.out_dims().next().unwrap().1 as i32;
    let offs = kb.arange(0, n, a)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, None, None)?;
    let v = kb.convert_layout(v, b)?;
    let offs = kb.arange(0, n, b)?;
    let py = kb.add(y, offs)?;
    kb.store(py, v, None)?;
    kb.finish()
}

/// A blocked layout for a `shape` tile over `warps` warps of `lanes` lanes, parameters drawn
/// from `rng`.
pub fn random_blocked(rng: &mut Rng, rank: usize, lanes: u32, warps: u32) -> Blocked {
    let split = |rng: &mut Rng, total: u32| -> Vec<u32> {
        let mut v = vec![1u32; rank];
        let mut left = total;
        while left > 1 {
            let d = (rng.next_u64() % rank as u64) as usize;
            v[d] *= 2;
            left /= 2;
        }
        v
    };
    let spt: Vec<u32> = (0..rank)
        .map(|_| 1 << (rng.next_u64() % 3) as u32)
        .collect();
    let tpw = split(rng, lanes);
    let wpc = split(rng, warps);
    let mut order: Vec<u32> = (0..rank as u32).collect();
    if rng.next_u64() % 2 == 0 {
        order.reverse();
    }
    Blocked::new(&spt, &tpw, &wpc, &order)
}

/// A random 2-D distributed layout of a `[m, n]` tile: blocked, a slice of a 3-D blocked layout,
/// or an NVIDIA MMA (v2) layout; with its description.
pub fn random_layout(
    rng: &mut Rng,
    m: u64,
    n: u64,
    lanes: u32,
    warps: u32,
) -> (String, LinearLayout) {
    let shape = [m, n];
    loop {
        let kind = rng.next_u64() % 4;
        let enc: Encoding = match kind {
            0 | 1 => random_blocked(rng, 2, lanes, warps).into(),
            2 => {
                let parent = random_blocked(rng, 3, lanes, warps);
                Slice::new((rng.next_u64() % 3) as u32, parent.into()).into()
            }
            _ if lanes == 32 => {
                let w = 1u32 << (rng.next_u64() % (warps.trailing_zeros() as u64 + 1));
                NvidiaMma::ampere(&[w, warps / w]).into()
            }
            _ => continue,
        };
        if let Ok(l) = enc.to_linear_layout(&shape) {
            return (format!("{enc:?}"), l);
        }
    }
}

/// `y = reduce(x, axis, op)` of one `bm × bn` tile of the row-major `m × n` matrix `x` (`m ≤ bm`,
/// `n ≤ bn`; masked: elements outside hold `other`), in `layout`. Parameters
/// `x, y: *f32, m, n: i32`; `y` gets `m` row results (axis 1) or `n` column results (axis 0).
pub fn reduce_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    layout: &Blocked,
    shape: [u64; 2],
    axis: usize,
    op: weft::codegen::ReduceOp,
    warps: u32,
) -> Result<Kernel<'c>> {
    let mut kb = KernelBuilder::new(ctx, target, "reduce", warps)?;
    let x = kb.arg_ptr("x", DType::F32, 4)?;
    let y = kb.arg_ptr("y", DType::F32, 4)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", 1)?;
    let enc: Encoding = layout.clone().into();
    let row_l = Slice::new(1, enc.clone());
    let col_l = Slice::new(0, enc.clone());
    let rows = kb.arange(0, shape[0] as i32, &row_l)?;
    let cols = kb.arange(0, shape[1] as i32, &col_l)?;
    let r2 = kb.expand_dims(rows, 1)?;
    let r2 = kb.broadcast_to(r2, (&enc, shape))?;
    let c2 = kb.expand_dims(cols, 0)?;
    let c2 = kb.broadcast_to(c2, (&enc, shape))?;
    let mr = kb.lt(r2, m)?;
    let mc = kb.lt(c2, n)?;
    let mask = kb.and(mr, mc)?;
    let off = kb.mul(r2, n)?;
    let off = kb.add(off, c2)?;
    let px = kb.add(x, off)?;
    let other = match op {
        weft::codegen::ReduceOp::Sum => 0.0,
        weft::codegen::ReduceOp::Max => f64::NEG_INFINITY,
        weft::codegen::ReduceOp::Min => f64::INFINITY,
    };
    let other = kb.const_float(DType::F32, other)?;
    let v = kb.load(
        px,
        Some(mask),
        Some(weft::codegen::IntoOperand::into_operand(other)),
    )?;
    let r = kb.reduce(v, axis, op)?;
    let (idx, bound) = if axis == 1 { (rows, m) } else { (cols, n) };
    let keep = kb.lt(idx, bound)?;
    let py = kb.add(y, idx)?;
    kb.store(py, r, Some(keep))?;
    kb.finish()
}

/// The host reference of [`reduce_kernel`].
pub fn reduce_reference(
    x: &[f32],
    m: usize,
    n: usize,
    axis: usize,
    op: weft::codegen::ReduceOp,
) -> Vec<f32> {
    use weft::codegen::ReduceOp::*;
    let f = |a: f32, b: f32| match op {
        Sum => a + b,
        Max => a.max(b),
        Min => a.min(b),
    };
    if axis == 1 {
        (0..m)
            .map(|r| x[r * n..(r + 1) * n].iter().copied().reduce(f).unwrap())
            .collect()
    } else {
        (0..n)
            .map(|c| (0..m).map(|r| x[r * n + c]).reduce(f).unwrap())
            .collect()
    }
}
