//! Kernels and layouts shared by the conversion and reduction tests (CPU and GPU).

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, Target};
use weft::layout::convert::Instruction;
use weft::layout::encoding::{Blocked, DotOperand, Encoding, NvidiaMma, Slice};
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
    if rng.next_u64().is_multiple_of(2) {
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

/// 64×64 tiles over 4 warps whose conversion of 16-bit elements the planner runs with
/// `stmatrix`/`ldmatrix` on sm_90 (the wgmma accumulator, the MMA v2 accumulator and its dot
/// operands, blocked layouts), with the instructions it picks there.
pub fn matrix_pairs() -> Vec<(String, LinearLayout, LinearLayout, Instruction, Instruction)> {
    let lay = |e: Encoding| e.to_linear_layout(&[64, 64]).unwrap();
    let wgmma = || lay(NvidiaMma::hopper(&[4, 1], 64, 16).into());
    let mma = || lay(NvidiaMma::ampere(&[4, 1]).into());
    let dot =
        |op: u32, k: u32| lay(DotOperand::new(op, NvidiaMma::ampere(&[4, 1]).into(), k).into());
    let blocked = |spt: [u32; 2], tpw: [u32; 2], wpc: [u32; 2], order: [u32; 2]| {
        lay(Blocked::new(&spt, &tpw, &wpc, &order).into())
    };
    use Instruction::*;
    vec![
        (
            "wgmma accumulator → column-major blocked".into(),
            wgmma(),
            blocked([1, 8], [8, 4], [4, 1], [0, 1]),
            StMatrix,
            LdSt,
        ),
        (
            "wgmma accumulator → 8 rows per thread".into(),
            wgmma(),
            blocked([8, 1], [4, 8], [4, 1], [1, 0]),
            StMatrixTrans,
            LdSt,
        ),
        (
            "wgmma accumulator → 8 columns per thread".into(),
            wgmma(),
            blocked([1, 8], [4, 8], [4, 1], [1, 0]),
            LdSt,
            LdMatrix,
        ),
        (
            "mma accumulator → 2×2 blocked".into(),
            mma(),
            blocked([2, 2], [4, 8], [2, 2], [1, 0]),
            StMatrix,
            LdMatrix,
        ),
        (
            "mma accumulator → column-major 2×2 blocked".into(),
            mma(),
            blocked([2, 2], [8, 4], [2, 2], [0, 1]),
            StMatrix,
            LdMatrixTrans,
        ),
        (
            "mma accumulator → dot operand B".into(),
            mma(),
            dot(1, 2),
            StMatrix,
            LdMatrixTrans,
        ),
        (
            "dot operand A → dot operand B".into(),
            dot(0, 4),
            dot(1, 2),
            StMatrixTrans,
            LdMatrix,
        ),
        (
            "8 rows per thread → wgmma accumulator".into(),
            blocked([8, 1], [4, 8], [4, 1], [1, 0]),
            wgmma(),
            LdSt,
            LdMatrixTrans,
        ),
    ]
}

/// A random 2-D distributed layout of a `[m, n]` tile from the families whose conversions take
/// `ldmatrix`/`stmatrix`: the MMA v2 and v3 (wgmma) accumulators, the dot operands of MMA v2 (any
/// `k_width`), blocked layouts; with its description. 32 lanes.
pub fn random_mma_layout(rng: &mut Rng, m: u64, n: u64, warps: u32) -> (String, LinearLayout) {
    let shape = [m, n];
    loop {
        let w0 = 1u32 << (rng.next_u64() % (warps.trailing_zeros() as u64 + 1));
        let w = [w0, warps / w0];
        let enc: Encoding = match rng.next_u64() % 5 {
            0 => NvidiaMma::ampere(&w).into(),
            1 => {
                let inst_n = [16u32, 32, 64][(rng.next_u64() % 3) as usize];
                NvidiaMma::hopper(&w, inst_n, 16).into()
            }
            2 | 3 => {
                let k = 1 << (1 + rng.next_u64() % 3);
                DotOperand::new((rng.next_u64() % 2) as u32, NvidiaMma::ampere(&w).into(), k).into()
            }
            _ => random_blocked(rng, 2, 32, warps).into(),
        };
        if let Ok(l) = enc.to_linear_layout(&shape) {
            return (format!("{enc:?}"), l);
        }
    }
}

/// The seed of the random `ldmatrix`/`stmatrix` conversions: the CPU tests check the PTX of
/// the very pairs the GPU tests run.
pub const MATRIX_PAIRS_SEED: u64 = 0x57_3a71;

/// How many random `ldmatrix`/`stmatrix` conversions the tests draw.
pub const MATRIX_PAIRS: usize = 32;

/// `count` random pairs of [`random_mma_layout`]s (64×64, 128×64, 64×128 or 32×64 over 4
/// warps) whose conversion of 16-bit elements `target`'s plan runs through shared memory with
/// `stmatrix` or `ldmatrix` on at least one side; with their description.
pub fn random_matrix_pairs(
    rng: &mut Rng,
    count: usize,
    target: Target,
) -> Vec<(String, LinearLayout, LinearLayout)> {
    use weft::layout::convert::{plan_conversion, plan_shared, ConversionKind};
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let [m, n] =
            [[64u64, 64u64], [128, 64], [64, 128], [32, 64]][(rng.next_u64() % 4) as usize];
        let (na, a) = random_mma_layout(rng, m, n, 4);
        let (nb, b) = random_mma_layout(rng, m, n, 4);
        let (fa, fb) = (flat(&a), flat(&b));
        let shared = plan_conversion(&fa, &fb, 16, target)
            .is_ok_and(|p| p.kind == ConversionKind::SharedMemory);
        if !shared {
            continue;
        }
        let p = plan_shared(&fa, &fb, 16, target).unwrap();
        if (p.store_instruction, p.load_instruction) == (Instruction::LdSt, Instruction::LdSt) {
            continue;
        }
        out.push((format!("{m}x{n} {na} → {nb}"), a, b));
    }
    out
}

/// A conversion recorded from Triton 3.9 on sm_90 whose PTX holds `ldmatrix`/`stmatrix`.
pub struct TritonMatrixCase {
    /// `case <id> <dtype>`.
    pub what: String,
    /// Source layout.
    pub src: LinearLayout,
    /// Destination layout.
    pub dst: LinearLayout,
    /// Element type.
    pub dtype: DType,
    /// Triton's count of each `ldmatrix`/`stmatrix` form in the PTX.
    pub counts: std::collections::BTreeMap<String, u64>,
}

/// The conversions of `tests/fixtures/conversions.json` whose Triton PTX holds `ldmatrix` or
/// `stmatrix` (all sm_90, one CTA; f16, f32 and i8).
pub fn triton_matrix_cases() -> Vec<TritonMatrixCase> {
    use serde_json::Value as V;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/conversions.json"
    ))
    .unwrap();
    let doc: V = serde_json::from_str(&text).unwrap();
    let layout = |v: &V| -> LinearLayout {
        let ins: Vec<(String, Vec<Vec<u64>>)> = v["in_dims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let bases = d[1].as_array().unwrap().iter().map(|b| {
                    let b = b.as_array().unwrap();
                    b.iter().map(|x| x.as_u64().unwrap()).collect()
                });
                (d[0].as_str().unwrap().to_string(), bases.collect())
            })
            .collect();
        let outs: Vec<(String, u64)> = v["out_dims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d[0].as_str().unwrap().to_string(), d[1].as_u64().unwrap()))
            .collect();
        LinearLayout::from_bases(ins, outs, false).unwrap()
    };
    let mut out = Vec::new();
    for c in doc["cases"].as_array().unwrap() {
        let counts: std::collections::BTreeMap<String, u64> = c["ptx_counts"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| k.contains("matrix"))
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        if counts.is_empty() {
            continue;
        }
        assert_eq!(c["target"], "cuda:90", "case {}", c["id"]);
        assert_eq!(c["num_ctas"], 1, "case {}", c["id"]);
        let dtype = match c["dtype"].as_str().unwrap() {
            "f16" => DType::F16,
            "f32" => DType::F32,
            "i8" => DType::I8,
            other => panic!("case {}: no dtype {other}", c["id"]),
        };
        out.push(TritonMatrixCase {
            what: format!("case {} {dtype}", c["id"]),
            src: layout(&c["src_layout"]),
            dst: layout(&c["dst_layout"]),
            dtype,
            counts,
        });
    }
    out
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

/// `0..n` in a random order: distinct values for a conversion, each of which only a correct
/// one puts in its place.
pub fn random_perm(rng: &mut Rng, n: u64) -> Vec<u64> {
    let mut perm: Vec<u64> = (0..n).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    perm
}

/// 64 × 64 tiles over 4 warps: a row-major and a column-major blocked layout, whose conversion
/// transposes through shared memory.
pub fn rows_cols() -> (LinearLayout, LinearLayout) {
    let enc = |b: Blocked| {
        weft::layout::encoding::Encoding::from(b)
            .to_linear_layout(&[64, 64])
            .unwrap()
    };
    (
        enc(Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0])),
        enc(Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1])),
    )
}

/// One warp, 4 × 8 elements, register bit 0 and lane bit 0 traded: a conversion by warp shuffle.
pub fn shuffle_pair() -> (LinearLayout, LinearLayout) {
    let ll = |reg: Vec<Vec<u64>>, lane: Vec<Vec<u64>>| {
        LinearLayout::from_bases(
            [("register", reg), ("lane", lane)],
            [("dim0", 4), ("dim1", 8)],
            false,
        )
        .unwrap()
    };
    let s = ll(
        vec![vec![0, 1]],
        vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![0, 0]],
    );
    let d = ll(
        vec![vec![0, 2]],
        vec![vec![0, 1], vec![0, 4], vec![1, 0], vec![2, 0], vec![0, 0]],
    );
    (s, d)
}

/// Row-wise tiles of the cumsum and row-sum kernels (`shipped`), and one narrow single-warp tile.
pub fn row_tiles(
    shipped: &[weft::codegen::kernels::Tile2d],
) -> Vec<weft::codegen::kernels::Tile2d> {
    let mut tiles = shipped.to_vec();
    tiles.push(weft::codegen::kernels::Tile2d {
        rows: 1,
        cols: 64,
        per_thread: 4,
        num_warps: 1,
    });
    tiles
}
