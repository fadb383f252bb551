//! `argmax` / `argmin` along either axis of 2-D tiles in several blocked layouts (one warp, across
//! lanes, across warps), built for sm_90 (ptxas) and run on the GPU against the host on random
//! data with many ties (the lowest index must win) and odd, masked shapes; f32, f16 and i32.
//! Without a driver or GPU the run prints `SKIP: <reason>` and passes.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, Target};
use weft::layout::encoding::{Blocked, Encoding, Slice};

const TILE: [u64; 2] = [64, 64];

fn layouts() -> [Blocked; 3] {
    [
        Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]),
        Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1]),
        Blocked::new(&[2, 2], &[4, 8], &[2, 2], &[1, 0]),
    ]
}

/// `y[i] = arg{max,min}` along `axis` of the `m × n` matrix `x` (row-major), masked elements
/// reading `other` (the worst value), results for valid rows (axis 1) or columns (axis 0).
fn arg_kernel<'c>(
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

#[test]
fn argreductions_assemble_and_name_bad_operands() {
    let ctx = Context::new();
    for l in layouts() {
        for dtype in [DType::F32, DType::F16, DType::I32] {
            for axis in [0, 1] {
                for max in [true, false] {
                    let k = arg_kernel(&ctx, &l, dtype, axis, max).unwrap();
                    common::assemble(
                        &k.ptx().unwrap(),
                        "sm_90",
                        &format!("{l:?} {dtype} {axis} {max}"),
                    );
                }
            }
        }
    }
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let l = layouts()[0].clone();
    let t = kb.zeros((&l, TILE), DType::F64).unwrap();
    let e = kb.argmax(t, 0).unwrap_err();
    assert!(e.to_string().contains("f16, bf16, f32"), "{e}");
    let t = kb.zeros((&l, TILE), DType::F32).unwrap();
    assert!(kb.argmin(t, 2).is_err());
}

/// The host's answer: the first index of the extreme value along `axis`.
fn host_arg(x: &[f64], m: usize, n: usize, axis: usize, max: bool) -> Vec<i32> {
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

#[cfg(feature = "cuda")]
#[test]
fn argmax_and_argmin_match_the_host() {
    use common::gpu::device;
    use common::rng::Rng;
    use weft::runtime::prelude::*;
    use weft::runtime::{f16, KernelArgs, LaunchConfig};
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let mut rng = Rng(5);
    let mut checked = 0;
    for (li, l) in layouts().iter().enumerate() {
        for dtype in [DType::F32, DType::F16, DType::I32] {
            for axis in [0usize, 1] {
                for max in [true, false] {
                    let k = arg_kernel(&ctx, l, dtype, axis, max).unwrap();
                    let kernel = common::gpu::load_kernel(&dev, &k);
                    for (m, n) in [(50usize, 37usize), (64, 64), (1, 63), (33, 1), (17, 64)] {
                        // Few distinct values: many ties, negatives included.
                        let x: Vec<f64> = (0..m * n)
                            .map(|_| (rng.next_u64() % 9) as f64 - 4.0)
                            .collect();
                        let want = host_arg(&x, m, n, axis, max);
                        let mut dy = dev.alloc::<i32>(want.len() + 16).unwrap();
                        dy.fill_bytes(0xFF).unwrap();
                        let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
                        let launch = |args: &KernelArgs| {
                            // SAFETY: reads x[0..m*n), writes y[0..m or n); y has 16 more.
                            unsafe { dev.stream().launch(&kernel, &cfg, args).unwrap() };
                            dev.stream().synchronize().unwrap();
                        };
                        match dtype {
                            DType::F32 => {
                                let dx = dev
                                    .upload(&x.iter().map(|&v| v as f32).collect::<Vec<_>>())
                                    .unwrap();
                                let mut args = KernelArgs::new();
                                args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
                                launch(&args);
                            }
                            DType::F16 => {
                                let dx = dev
                                    .upload(
                                        &x.iter().map(|&v| f16::from_f64(v)).collect::<Vec<_>>(),
                                    )
                                    .unwrap();
                                let mut args = KernelArgs::new();
                                args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
                                launch(&args);
                            }
                            _ => {
                                let dx = dev
                                    .upload(&x.iter().map(|&v| v as i32).collect::<Vec<_>>())
                                    .unwrap();
                                let mut args = KernelArgs::new();
                                args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
                                launch(&args);
                            }
                        }
                        let y = dy.to_vec().unwrap();
                        let what = format!("layout {li} {dtype} {m}x{n} axis {axis} max {max}");
                        assert_eq!(&y[..want.len()], &want[..], "{what}");
                        assert!(
                            y[want.len()..].iter().all(|&v| v == -1),
                            "{what}: wrote past the end"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    println!("argmax/argmin: {checked} cases match the host");
}
