//! The scan test kernel shared by `codegen_scan` and `gpu_scan` (included with `#[path]`).
#![allow(dead_code)]

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, ScanOp, Target};
use weft::layout::encoding::{Blocked, Encoding, Slice};

/// `y = associative_scan(x, axis, op)` of one `shape` tile of the row-major `m × n` matrix `x`
/// (`m ≤ shape[0]`, `n ≤ shape[1]`; elements outside are loaded as 0) in `layout`, elements of
/// `dtype` (I32 or F32); `op` `None` scans with `first(a, b) = a` (associative, not commutative:
/// every element becomes the first one along the axis). Parameters `x, y: ptr<dtype>, m, n: i32`; `y` is `m × n`.
#[allow(clippy::too_many_arguments)]
pub fn scan_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    layout: &Blocked,
    shape: [u64; 2],
    axis: usize,
    op: Option<ScanOp>,
    dtype: DType,
    warps: u32,
) -> Result<Kernel<'c>> {
    let mut kb = KernelBuilder::new(ctx, target, "scan", warps)?;
    let x = kb.arg_ptr("x", dtype, 4)?;
    let y = kb.arg_ptr("y", dtype, 4)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", 1)?;
    let enc: Encoding = layout.clone().into();
    let rows = kb.arange(0, shape[0] as i32, Slice::new(1, enc.clone()))?;
    let cols = kb.arange(0, shape[1] as i32, Slice::new(0, enc.clone()))?;
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
    let v = kb.load(px, Some(mask), None)?;
    let s = match op {
        Some(op) => kb.associative_scan(v, axis, op)?,
        None => kb.associative_scan_with(v, axis, |_, a, _| Ok(a))?,
    };
    let py = kb.add(y, off)?;
    kb.store(py, s, Some(mask))?;
    kb.finish()
}

/// Blocked layouts of the tests, with their warps: along the columns, along the rows, warps
/// along the columns, tiles larger than the layout (register repeats above the threads), and
/// smaller (copies).
pub fn scan_layouts() -> Vec<(Blocked, u32)> {
    vec![
        (Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]), 4),
        (Blocked::new(&[2, 1], &[8, 4], &[1, 4], &[0, 1]), 4),
        (Blocked::new(&[1, 2], &[2, 16], &[1, 4], &[1, 0]), 4),
        (Blocked::new(&[2, 2], &[4, 8], &[2, 2], &[1, 0]), 4),
        (Blocked::new(&[1, 1], &[32, 1], &[2, 1], &[0, 1]), 2),
        (Blocked::new(&[4, 1], &[1, 32], &[8, 1], &[1, 0]), 8),
    ]
}

/// The host reference: inclusive scan of the row-major `m × n` `x` along `axis` with `f`.
pub fn scan_reference<T: Copy>(
    x: &[T],
    m: usize,
    n: usize,
    axis: usize,
    f: impl Fn(T, T) -> T,
) -> Vec<T> {
    let mut y = x.to_vec();
    for i in 0..m {
        for j in 0..n {
            let prev = if axis == 1 && j > 0 {
                Some(y[i * n + j - 1])
            } else if axis == 0 && i > 0 {
                Some(y[(i - 1) * n + j])
            } else {
                None
            };
            if let Some(p) = prev {
                y[i * n + j] = f(p, x[i * n + j]);
            }
        }
    }
    y
}

/// The tile shapes and the part of each that holds data (the rest is masked).
pub const SCAN_TILES: [([u64; 2], usize, usize); 5] = [
    ([16, 32], 16, 32),
    ([64, 64], 64, 64),
    ([8, 128], 8, 128),
    ([32, 64], 29, 51),
    ([64, 32], 1, 17),
];
