//! The softmax and layer-norm suites (`gpu_softmax`, `gpu_layernorm`) in the interpreter: the
//! same configurations (odd row lengths, rows per program, wide tiles, weak divisibility
//! promises, row means far from zero, parameters loaded late) on fewer rows, random inputs,
//! poisoned outputs, against the same f64 host references.
#![cfg(feature = "llvm")]

mod common;

use common::interp::{self as ci, tol};
use common::rng::Rng;
use weft::codegen::interp::{LaunchArg, Memory};
use weft::codegen::kernels::{
    layernorm_kernel, layernorm_reference, softmax_kernel, softmax_reference, LayernormConfig,
    SoftmaxConfig,
};
use weft::codegen::{Context, DType, Target};

/// PyTorch's default.
const EPS: f32 = 1e-5;

fn run_softmax(c: SoftmaxConfig, m: usize, n: usize, seed: u64) {
    let what = format!("softmax {m} × {n}, {c:?}");
    c.check_shape(m, n)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ctx = Context::new();
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let x = Rng(seed).vec(m * n);
    let mut mem = Memory::new();
    let dx = mem.upload(&x);
    let dy = ci::poisoned::<f32>(&mut mem, m * n);
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(dy),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
    ];
    ci::launch(&k, c.grid(m), &args, &mut mem, &what);
    let got: Vec<f32> = mem.download(dy);
    ci::close(
        &ci::widen(&got),
        &softmax_reference(&x, n),
        tol(DType::F32),
        &what,
    );
    ci::poison_intact(&got, m * n, ci::f32_bits, &what);
}

#[test]
fn softmax_matches_f64_on_odd_shapes() {
    let f = SoftmaxConfig::for_n;
    // The GPU suite's configurations, on fewer rows (still ragged against rows per program).
    let cases = [
        (f(1000, 2, 4, 4), 3, 1000),
        (f(1000, 1, 4, 8), 1, 1000),
        (f(17, 16, 1, 4), 37, 17),
        // Threads beyond the tile: lanes and warps hold copies.
        (f(17, 1, 4, 4), 3, 17),
        (f(4096, 1, 4, 8), 2, 4096),
        (f(4096, 2, 8, 4), 3, 4096),
        (f(4096, 4, 4, 16), 3, 4096),
        (f(16, 8, 4, 1), 3, 16),
        (f(1, 32, 1, 1), 5, 1),
        (f(12345, 1, 2, 16), 1, 12345),
    ];
    for (i, &(c, m, n)) in cases.iter().enumerate() {
        run_softmax(c, m, n, 300 + i as u64);
    }
}

#[test]
fn softmax_with_wide_tiles_and_weak_promises() {
    let wide = SoftmaxConfig {
        block_n: 2048,
        ..SoftmaxConfig::for_n(1000, 2, 4, 4)
    };
    run_softmax(wide, 3, 1000, 400);
    let weak = SoftmaxConfig {
        n_divisibility: 1,
        ..SoftmaxConfig::for_n(4096, 1, 4, 8)
    };
    run_softmax(weak, 2, 4096, 401);
}

/// Layer norm of a random `m × n` matrix plus `offset`, weights in [0.5, 1.5), biases in
/// [-1, 1).
fn run_layernorm(c: LayernormConfig, m: usize, n: usize, offset: f32, seed: u64) {
    let what = format!("layernorm {m} × {n} (+{offset}), {c:?}");
    c.check_shape(m, n)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ctx = Context::new();
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut rng = Rng(seed);
    let x: Vec<f32> = rng.vec(m * n).into_iter().map(|v| v + offset).collect();
    let w: Vec<f32> = (0..n).map(|_| rng.uniform(0.5, 1.5) as f32).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let mut mem = Memory::new();
    let (dx, dw, db) = (mem.upload(&x), mem.upload(&w), mem.upload(&b));
    let dy = ci::poisoned::<f32>(&mut mem, m * n);
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(dy),
        LaunchArg::Buffer(dw),
        LaunchArg::Buffer(db),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
        LaunchArg::F32(EPS),
    ];
    ci::launch(&k, c.grid(m), &args, &mut mem, &what);
    let got: Vec<f32> = mem.download(dy);
    // Outputs cross zero: the f32 relative bound, taken absolute below |y| = 1 (as on the GPU).
    let t = tol(DType::F32);
    let t = ci::Tol { abs: t.rel, ..t };
    ci::close(
        &ci::widen(&got),
        &layernorm_reference(&x, &w, &b, n, EPS),
        t,
        &what,
    );
    ci::poison_intact(&got, m * n, ci::f32_bits, &what);
}

#[test]
fn layernorm_matches_f64_on_odd_shapes() {
    let f = LayernormConfig::for_n;
    let cases = [
        (f(1000, 2, 4, 4), 3, 1000),
        (f(1000, 1, 4, 8), 1, 1000),
        (f(1001, 1, 4, 8), 2, 1001),
        (f(17, 16, 1, 4), 37, 17),
        (f(17, 1, 4, 4), 3, 17),
        (f(4096, 1, 4, 8), 2, 4096),
        (f(4096, 2, 8, 4), 3, 4096),
        (f(4096, 4, 4, 16), 3, 4096),
        (f(16, 8, 4, 1), 3, 16),
        (f(1, 32, 1, 1), 5, 1),
        (f(12345, 1, 2, 16), 1, 12345),
        (f(16384, 2, 4, 32), 1, 16384),
    ];
    for (i, &(c, m, n)) in cases.iter().enumerate() {
        run_layernorm(c, m, n, 0.0, 500 + i as u64);
    }
}

#[test]
fn layernorm_with_wide_tiles_weak_promises_and_offsets() {
    let wide = LayernormConfig {
        block_n: 2048,
        ..LayernormConfig::for_n(1000, 2, 4, 4)
    };
    run_layernorm(wide, 3, 1000, 0.0, 600);
    let weak = LayernormConfig {
        n_divisibility: 1,
        ..LayernormConfig::for_n(4096, 1, 4, 8)
    };
    run_layernorm(weak, 2, 4096, 0.0, 601);
    run_layernorm(LayernormConfig::for_n(1000, 2, 4, 4), 3, 1000, 8.0, 602);
    let late = LayernormConfig {
        params_first: false,
        ..LayernormConfig::for_n(1000, 2, 4, 4)
    };
    run_layernorm(late, 3, 1000, 8.0, 603);
    let tight = LayernormConfig {
        max_registers: Some(24),
        ..LayernormConfig::for_n(4096, 1, 4, 8)
    };
    run_layernorm(tight, 2, 4096, 1.0, 604);
}
