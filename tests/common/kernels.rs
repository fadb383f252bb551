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
