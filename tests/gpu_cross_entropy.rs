//! `kernels::cross_entropy_fwd_kernel` and `cross_entropy_bwd_kernel` against f64: f32 and
//! bf16 logits, rows longer than one chunk with a ragged last chunk, rows whose max grows
//! chunk by chunk (the online rescale), ignored rows (loss 0, gradient 0), a target outside
//! the classes (NaN loss), rows per CTA that leave a ragged last CTA; the backward pass fed the
//! forward pass's own `lse`. Outputs poisoned, the poison past the end checked.
//!
//! Bounds: `lse` and `loss` within 1e-5 relative (abs 1e-5 · max(|lse|, 1): the f32 sum and
//! `ex2.approx`); `dlogits` within two ulps of its type relative, 1e-6 absolute.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, poison_intact, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::rows::{rounded, wide, RowElem};
use weft::codegen::kernels::{
    cross_entropy_bwd_grid, cross_entropy_bwd_kernel, cross_entropy_bwd_reference,
    cross_entropy_check_shape, cross_entropy_fwd_kernel, cross_entropy_reference, RowConfig,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs};

const IGNORE: i32 = -100;

/// Logits in [-8, 8), row 0 rising along the row (its max grows in every chunk); targets
/// random, every fifth row ignored, and row 3 (when there is one) aimed past the last class.
fn inputs(m: usize, n: usize, seed: u64) -> (Vec<f32>, Vec<i32>, Vec<f32>) {
    let mut rng = Rng(seed);
    let mut x: Vec<f32> = rng.vec(m * n).into_iter().map(|v| 2.0 * v).collect();
    for (j, v) in x[..n].iter_mut().enumerate() {
        *v = 16.0 * j as f32 / n as f32 - 8.0;
    }
    let t = (0..m)
        .map(|r| match r {
            3 => n as i32,
            r if r % 5 == 4 => IGNORE,
            _ => (rng.next_u64() % n as u64) as i32,
        })
        .collect();
    let dloss = (0..m).map(|_| rng.uniform(0.5, 1.5) as f32).collect();
    (x, t, dloss)
}

fn case<B: Backend, T: RowElem>(dev: &B::Device, c: RowConfig, m: usize, n: usize) {
    let what = format!("cross entropy {m} × {n} {}, {c:?}", T::DTYPE);
    cross_entropy_check_shape(&c, m, n).unwrap();
    let ctx = Context::new();
    let fwd =
        cross_entropy_fwd_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let bwd =
        cross_entropy_bwd_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (fwd, bwd) = (load::<B>(dev, &fwd, &what), load::<B>(dev, &bwd, &what));
    let (x, t, dloss) = inputs(m, n, (m * 13 + n) as u64);
    let (xt, xf) = rounded::<T>(&x);
    let dx_in = dev.upload(&xt).unwrap();
    let dt = dev.upload(&t).unwrap();
    let ddl = dev.upload(&dloss).unwrap();
    let loss = poisoned::<B, f32>(dev, m);
    let lse = poisoned::<B, f32>(dev, m);
    let mut args = KernelArgs::new();
    args.ptr(&dx_in)
        .ptr(&dt)
        .ptr(&loss)
        .ptr(&lse)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(IGNORE);
    // SAFETY: logits hold m * n elements, target m; loss and lse m are written (rows < m).
    unsafe { launch::<B>(dev, &fwd, c.grid(m), &args, &what) };
    let (want_loss, want_lse) = cross_entropy_reference(&xf, &t, n, IGNORE);
    let got_lse = lse.to_vec().unwrap();
    let got_loss = loss.to_vec().unwrap();
    poison_intact(&got_lse, m, |v: f32| v.to_bits() as u64, &what);
    poison_intact(&got_loss, m, |v: f32| v.to_bits() as u64, &what);
    let scale = want_lse.iter().fold(1.0f64, |a, v| a.max(v.abs()));
    let t_fwd = Tol {
        rel: 1e-5,
        abs: 1e-5 * scale,
    };
    close(
        &wide(&got_lse[..m]),
        &want_lse,
        t_fwd,
        &format!("{what}: lse"),
    );
    for (r, (&g, &w)) in got_loss.iter().zip(&want_loss).enumerate() {
        if w.is_nan() {
            assert!(
                g.is_nan(),
                "{what}: row {r}: a target past the classes gave loss {g}"
            );
        } else {
            close(
                &[g as f64],
                &[w],
                t_fwd,
                &format!("{what}: loss of row {r}"),
            );
        }
    }
    assert!(t.contains(&IGNORE) == want_loss.contains(&0.0));

    let dlogits = poisoned::<B, T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx_in)
        .ptr(&dt)
        .ptr(&lse)
        .ptr(&ddl)
        .ptr(&dlogits)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(IGNORE);
    // SAFETY: logits and dlogits hold m * n elements, target, lse and dloss m.
    unsafe { launch::<B>(dev, &bwd, cross_entropy_bwd_grid(&c, m, n), &args, &what) };
    let got = dlogits.to_vec().unwrap();
    poison_intact(&got, m * n, T::bits, &what);
    let want = cross_entropy_bwd_reference(&xf, &t, &dloss, n, IGNORE);
    let rel = if T::DTYPE == DType::F32 {
        4e-5
    } else {
        2.0 / 256.0
    };
    let worst = close(
        &wide(&got[..m * n]),
        &want,
        Tol { rel, abs: 1e-6 },
        &format!("{what}: dlogits"),
    );
    println!("{what} on {}: dlogits max error {worst:.2e}", B::KIND);
}

/// (config, rows on the GPU, rows in the interpreter, classes).
fn shapes(dtype: DType) -> Vec<(RowConfig, usize, usize, usize)> {
    let chunk = |block_n, num_warps, n| RowConfig {
        block_n,
        num_warps,
        ..RowConfig::for_n(n, dtype)
    };
    vec![
        (chunk(256, 2, 1000), 37, 6, 1000),
        (chunk(1024, 4, 4099), 33, 5, 4099),
        (
            RowConfig {
                rows_per_cta: 2,
                per_thread: 1,
                ..chunk(16, 1, 33)
            },
            101,
            7,
            33,
        ),
        (chunk(8192, 8, 32768), 9, 1, 32768),
    ]
}

fn cross_entropy_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    for (c, gm, cm, n) in shapes(T::DTYPE) {
        case::<B, T>(dev, c, if on_gpu { gm } else { cm }, n);
    }
}

#[test]
fn cross_entropy_f32_matches_f64_in_the_interpreter() {
    cross_entropy_matches_f64::<Cpu, f32>(&common::gpu::cpu(), false);
}

#[test]
fn cross_entropy_bf16_matches_f64_in_the_interpreter() {
    cross_entropy_matches_f64::<Cpu, bf16>(&common::gpu::cpu(), false);
}

#[test]
fn reference_matches_hand_computed_rows() {
    // Two equal logits: lse = x + ln 2, loss ln 2; gradient (1/2 - 1, 1/2) · dloss.
    let (loss, lse) = cross_entropy_reference(&[1.0, 1.0, 0.0, 0.0], &[0, IGNORE], 2, IGNORE);
    assert!((lse[0] - (1.0 + 2f64.ln())).abs() < 1e-15);
    assert!((loss[0] - 2f64.ln()).abs() < 1e-15);
    assert_eq!(loss[1], 0.0);
    let d =
        cross_entropy_bwd_reference(&[1.0, 1.0, 0.0, 0.0], &[0, IGNORE], &[2.0, 2.0], 2, IGNORE);
    let want = [-1.0, 1.0, 0.0, 0.0];
    assert!(
        d.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-15),
        "{d:?}"
    );
}

#[test]
fn shapes_it_cannot_do_are_typed_errors() {
    let c = RowConfig::for_n(1024, DType::BF16);
    assert!(cross_entropy_check_shape(&c, 0, 1024).is_err());
    assert!(cross_entropy_check_shape(&c, 4, 1 << 31).is_err());
    assert!(cross_entropy_check_shape(&c, 4, 1030).is_err());
    // The forward pass prefetches a chunk past the last: its column indices must stay i32.
    let top = (i32::MAX as usize - 2 * 1024) & !15;
    cross_entropy_check_shape(&c, 4, top).unwrap();
    assert!(cross_entropy_check_shape(&c, 4, top + 16).is_err());
    // 16K rows of 128K classes pass 2^31 elements: fine, the row starts are 64-bit.
    let big = RowConfig::for_n(131072, DType::BF16);
    cross_entropy_check_shape(&big, 16384, 131072).unwrap();
    let ctx = Context::new();
    let bad = RowConfig {
        num_warps: 1,
        ..RowConfig::for_n(16384, DType::F32)
    };
    let e = cross_entropy_fwd_kernel(&ctx, Target::SM90, bad).unwrap_err();
    assert!(e.to_string().contains("more than 128"), "{e}");
}

#[cfg(feature = "cuda")]
#[test]
fn cross_entropy_matches_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        cross_entropy_matches_f64::<Cuda, f32>(dev, true);
        cross_entropy_matches_f64::<Cuda, bf16>(dev, true);
    });
}
