//! `kernels::softmax_bwd_kernel` against f64: `y` a real softmax (rows summing to 1, from the
//! f64 reference, rounded to the element type), `dy` random, f32/bf16/f16 rows of odd lengths,
//! rows per CTA leaving a ragged last CTA; outputs poisoned and the poison past the end checked.
//! Bound: `dx = y · (dy - Σ y·dy)` is of order `y` (≤ 1): two ulps of the type relative, and
//! the type's floor absolute.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, poison_intact};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::rows::{bound, rounded, wide, RowElem};
use weft::codegen::kernels::{
    softmax_bwd_kernel, softmax_bwd_reference, softmax_reference, RowConfig,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, KernelArgs};

fn case<B: Backend, T: RowElem>(dev: &B::Device, c: RowConfig, m: usize, n: usize) {
    let what = format!("softmax backward {m} × {n} {}, {c:?}", T::DTYPE);
    c.check_shape("softmax_bwd", m, n).unwrap();
    let ctx = Context::new();
    let k = softmax_bwd_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let mut rng = Rng((m * 5 + n) as u64);
    let y: Vec<f32> = softmax_reference(&rng.vec(m * n), n)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let (yt, yf) = rounded::<T>(&y);
    let (gt, gf) = rounded::<T>(&rng.vec(m * n));
    let (dyv, dgv) = (dev.upload(&yt).unwrap(), dev.upload(&gt).unwrap());
    let dx = poisoned::<B, T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dyv)
        .ptr(&dgv)
        .ptr(&dx)
        .scalar(m as i32)
        .scalar(n as i32);
    // SAFETY: y, dy, dx hold m * n elements; the kernel touches rows < m, columns < n.
    unsafe { launch::<B>(dev, &kernel, c.grid(m), &args, &what) };
    let got = dx.to_vec().unwrap();
    poison_intact(&got, m * n, T::bits, &what);
    let want = softmax_bwd_reference(&yf, &gf, n);
    let mut t = bound(T::DTYPE, 2.0);
    t.abs = t.abs.min(1e-5) / 16.0;
    let worst = close(&wide(&got[..m * n]), &want, t, &what);
    println!("{what} on {}: max error {worst:.2e}", B::KIND);
}

fn softmax_backward_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    let f = |n| RowConfig::for_n(n, T::DTYPE);
    let rows = |g: usize, c: usize| if on_gpu { g } else { c };
    case::<B, T>(dev, f(1000), rows(37, 3), 1000);
    case::<B, T>(dev, f(1001), rows(37, 2), 1001);
    let many = RowConfig {
        rows_per_cta: 4,
        per_thread: 1,
        ..f(17)
    };
    case::<B, T>(dev, many, rows(1001, 9), 17);
    case::<B, T>(
        dev,
        RowConfig {
            num_warps: 8,
            ..f(4096)
        },
        rows(65, 2),
        4096,
    );
}

#[test]
fn softmax_backward_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    softmax_backward_matches_f64::<Cpu, f32>(&dev, false);
    softmax_backward_matches_f64::<Cpu, bf16>(&dev, false);
    softmax_backward_matches_f64::<Cpu, f16>(&dev, false);
}

#[test]
fn reference_matches_a_hand_computed_row() {
    // y = (1/4, 3/4), dy = (1, 0): Σ y·dy = 1/4, dx = (1/4 · 3/4, 3/4 · -1/4).
    let d = softmax_bwd_reference(&[0.25, 0.75], &[1.0, 0.0], 2);
    assert_eq!(d, vec![0.1875, -0.1875]);
    let ctx = Context::new();
    let bad = RowConfig {
        num_warps: 1,
        ..RowConfig::for_n(8192, DType::BF16)
    };
    assert!(softmax_bwd_kernel(&ctx, Target::SM90, bad).is_err());
}

#[cfg(feature = "cuda")]
#[test]
fn softmax_backward_matches_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        softmax_backward_matches_f64::<Cuda, f32>(dev, true);
        softmax_backward_matches_f64::<Cuda, bf16>(dev, true);
        softmax_backward_matches_f64::<Cuda, f16>(dev, true);
    });
}
