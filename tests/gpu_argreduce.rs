//! `argmax` / `argmin` along either axis of 2-D tiles in several blocked layouts (one warp, across
//! lanes, across warps), built for sm_90 (ptxas), run against the host on random data with many
//! ties (the lowest index must win) and odd, masked shapes; f32, f16 and i32; indices compared
//! exactly, and the poison past the end checked to be intact.
//!
//! Written once over the runtime's `Backend` traits: the run is on the CPU backend (the
//! interpreter) on 3 shapes per kernel (50×37, 1×63, 33×1) and on a CUDA GPU when there is one on 5
//! (adding 64×64 and 17×64). Without a GPU the GPU test prints `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::argreduce::{arg_kernel, host_arg, layouts, TILE};
use common::check::{exact, poison_intact};
use common::launch::run_xy;
use common::rng::Rng;
use weft::codegen::{Context, DType, KernelBuilder, Target};
use weft::runtime::{f16, Backend};

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

/// Every layout, type, axis and direction on `shapes` (m, n) on `dev`.
fn argmax_and_argmin_match_the_host<B: Backend>(dev: &B::Device, shapes: &[(usize, usize)]) {
    let ctx = Context::new();
    let mut rng = Rng(5);
    let mut checked = 0;
    for (li, l) in layouts().iter().enumerate() {
        for dtype in [DType::F32, DType::F16, DType::I32] {
            for axis in [0usize, 1] {
                for max in [true, false] {
                    let k = arg_kernel(&ctx, l, dtype, axis, max).unwrap();
                    for &(m, n) in shapes {
                        // Few distinct values: many ties, negatives included.
                        let x: Vec<f64> = (0..m * n)
                            .map(|_| (rng.next_u64() % 9) as f64 - 4.0)
                            .collect();
                        let want = host_arg(&x, m, n, axis, max);
                        let what = format!("layout {li} {dtype} {m}x{n} axis {axis} max {max}");
                        let len = want.len();
                        let y: Vec<i32> = match dtype {
                            DType::F32 => {
                                let x: Vec<f32> = x.iter().map(|&v| v as f32).collect();
                                run_xy::<B, _, _>(dev, &k, 1u32, &x, len, m, n, &what)
                            }
                            DType::F16 => {
                                let x: Vec<f16> = x.iter().map(|&v| f16::from_f64(v)).collect();
                                run_xy::<B, _, _>(dev, &k, 1u32, &x, len, m, n, &what)
                            }
                            _ => {
                                let x: Vec<i32> = x.iter().map(|&v| v as i32).collect();
                                run_xy::<B, _, _>(dev, &k, 1u32, &x, len, m, n, &what)
                            }
                        };
                        let bits = |v: i32| u64::from(v as u32);
                        exact(&y, &want, bits, &what);
                        poison_intact(&y, len, bits, &what);
                        checked += 1;
                    }
                }
            }
        }
    }
    println!(
        "argmax/argmin on {}: {checked} cases match the host",
        B::KIND
    );
}

#[test]
fn argmax_and_argmin_match_the_host_in_the_interpreter() {
    let shapes = [(50, 37), (1, 63), (33, 1)];
    argmax_and_argmin_match_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), &shapes);
}

#[cfg(feature = "cuda")]
#[test]
fn argmax_and_argmin_match_the_host_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        let shapes = [(50, 37), (64, 64), (1, 63), (33, 1), (17, 64)];
        argmax_and_argmin_match_the_host::<weft::runtime::cuda::Cuda>(dev, &shapes);
    });
}
