//! `argmax` / `argmin` along either axis of 2-D tiles in several blocked layouts (one warp, across
//! lanes, across warps), built for sm_90 (ptxas) and run on the GPU against the host on random
//! data with many ties (the lowest index must win) and odd, masked shapes; f32, f16 and i32.
//! Without a driver or GPU the run prints `SKIP: <reason>` and passes.
#![cfg(feature = "llvm")]

mod common;

use common::argreduce::{arg_kernel, host_arg, layouts, TILE};
use weft::codegen::{Context, DType, KernelBuilder, Target};

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
