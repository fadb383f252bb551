//! `kernels::rope_kernel` against f64: both pair styles, f32 and bf16, head sizes whose half is
//! a power of two (64, 128) and odd (34: masked pairs, scalar accesses), several heads per token
//! (the token of each row), rows per CTA leaving a ragged last CTA. In place: the whole tensor is
//! compared, and the elements past it (poisoned) must stay untouched.
#![cfg(feature = "llvm")]

mod common;

use common::check::close;
use common::launch::{launch, load, PAD};
use common::rng::Rng;
use common::rows::{bound, rounded, wide, RowElem};
use weft::codegen::kernels::{rope_kernel, rope_reference, RopeStyle, RowConfig};
use weft::codegen::{Context, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs};

fn case<B: Backend, T: RowElem>(
    dev: &B::Device,
    tokens: usize,
    heads: usize,
    d: usize,
    style: RopeStyle,
    rows_per_cta: u32,
    per_thread: Option<u32>,
) {
    let half = d / 2;
    let fit = RowConfig::for_n(half as u32, T::DTYPE);
    let c = RowConfig {
        rows_per_cta,
        per_thread: per_thread.unwrap_or(fit.per_thread),
        ..fit
    };
    let what = format!(
        "rope {tokens} × {heads} × {d} {} {style:?}, {c:?}",
        T::DTYPE
    );
    let rows = tokens * heads;
    c.check_shape("rope", rows, half).unwrap();
    let ctx = Context::new();
    let k = rope_kernel(&ctx, Target::SM90, c, style).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let mut rng = Rng((tokens * 31 + d) as u64);
    let (xt, xf) = rounded::<T>(&rng.vec(rows * d));
    // Angles of a real RoPE: position t times 10000^(-i/half).
    let angle = |t: usize, i: usize| t as f64 * 10000f64.powf(-(i as f64) / half as f64);
    let cos: Vec<f32> = (0..tokens * half)
        .map(|j| angle(j / half, j % half).cos() as f32)
        .collect();
    let sin: Vec<f32> = (0..tokens * half)
        .map(|j| angle(j / half, j % half).sin() as f32)
        .collect();
    let mut padded = xt.clone();
    padded.extend(std::iter::repeat_n(T::from_f32(f32::NAN), PAD));
    let dx = dev.upload(&padded).unwrap();
    let (dc, ds) = (dev.upload(&cos).unwrap(), dev.upload(&sin).unwrap());
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&dc)
        .ptr(&ds)
        .scalar(rows as i32)
        .scalar(heads as i32)
        .scalar(half as i32);
    // SAFETY: x holds rows * d elements (+ PAD), the tables tokens * half; the kernel touches
    // pairs i < half of rows < rows only.
    unsafe { launch::<B>(dev, &kernel, c.grid(rows), &args, &what) };
    let got = dx.to_vec().unwrap();
    let want = rope_reference(&xf, &cos, &sin, heads, d, style);
    // |x| ≤ 4: outputs of order 4, so the type's bound scaled by 4.
    let worst = close(&wide(&got[..rows * d]), &want, bound(T::DTYPE, 4.0), &what);
    let nan_bits = T::from_f32(f32::NAN).bits();
    assert!(
        got[rows * d..].iter().all(|v| v.bits() == nan_bits),
        "{what}: wrote past the end"
    );
    println!("{what} on {}: max error {worst:.2e}", B::KIND);
}

fn rope_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    let tokens = |g: usize, c: usize| if on_gpu { g } else { c };
    for style in [RopeStyle::Interleaved, RopeStyle::HalfRotated] {
        case::<B, T>(dev, tokens(257, 5), 3, 128, style, 1, None);
        case::<B, T>(dev, tokens(100, 3), 4, 64, style, 4, None);
        case::<B, T>(dev, tokens(33, 7), 2, 34, style, 2, None);
        // One element a thread: interleaved pairs cannot be split in registers, so each element
        // of a pair is loaded on its own.
        case::<B, T>(dev, tokens(9, 3), 2, 64, style, 2, Some(1));
    }
}

#[test]
fn rope_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    rope_matches_f64::<Cpu, f32>(&dev, false);
    rope_matches_f64::<Cpu, bf16>(&dev, false);
}

#[test]
fn reference_rotates_a_pair_by_its_angle() {
    // One token, one head, d = 2: (1, 0) by 90° is (0, 1); by 0° unchanged.
    let r = rope_reference(&[1.0, 0.0], &[0.0], &[1.0], 1, 2, RopeStyle::HalfRotated);
    assert_eq!(r, vec![0.0, 1.0]);
    // d = 4 interleaved: pairs (0,1) and (2,3); half-rotated: (0,2) and (1,3).
    let x = [1.0, 2.0, 3.0, 4.0];
    let (c, s) = ([0.0, 1.0], [1.0, 0.0]);
    assert_eq!(
        rope_reference(&x, &c, &s, 1, 4, RopeStyle::Interleaved),
        vec![-2.0, 1.0, 3.0, 4.0]
    );
    assert_eq!(
        rope_reference(&x, &c, &s, 1, 4, RopeStyle::HalfRotated),
        vec![-3.0, 2.0, 1.0, 4.0]
    );
}

#[cfg(feature = "cuda")]
#[test]
fn rope_matches_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        rope_matches_f64::<Cuda, f32>(dev, true);
        rope_matches_f64::<Cuda, bf16>(dev, true);
    });
}
