//! The math suite (`gpu_math`) in the interpreter: the same `y = op(x)` kernels over random
//! inputs across each function's whole range plus its special values (fewer of them than on
//! the GPU), held to the same ulp bound against the same f64 host references; and the
//! flush-to-zero variant of `exp2` against the plain approximate one.
#![cfg(feature = "llvm")]

mod common;

use common::interp as ci;
use common::math_ref::{self, BLOCK, FUNCS, MAX_ULP};
use weft::codegen::interp::{HostElem, LaunchArg, Memory};
use weft::codegen::{Context, DType, MathOp, MathPrecision, Target};

/// Random inputs per function and type (plus the special values).
const N: usize = 2048;

/// Runs `y = op(x)` in the interpreter.
fn run<T: HostElem>(op: MathOp, dt: DType, p: MathPrecision, x: &[T]) -> Vec<T> {
    let what = format!("{op:?} {dt} {p:?}");
    let ctx = Context::new();
    let k = math_ref::math_kernel(&ctx, Target::SM90, op, dt, p).unwrap();
    let mut mem = Memory::new();
    let dx = mem.upload(x);
    let dy = ci::poisoned::<T>(&mut mem, x.len());
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(dy),
        LaunchArg::I32(x.len() as i32),
    ];
    ci::launch(
        &k,
        x.len().div_ceil(BLOCK as usize) as u32,
        &args,
        &mut mem,
        &what,
    );
    mem.download(dy)
}

/// The f64 bound in ulps: the GPU suite's [`MAX_ULP`], except for `erf`, which the interpreter
/// computes in plain f64 (not the accurate lowering's polynomial): its series' rounding reaches
/// 3.5 ulps just below |x| = 1, so it is held to 4.
fn f64_bound(op: MathOp) -> f64 {
    if op == MathOp::Erf {
        4.0
    } else {
        MAX_ULP
    }
}

#[test]
fn accurate_f64_matches_host_within_bound() {
    for op in FUNCS {
        let x = math_ref::inputs_f64(op, N, 0x6A5 ^ op as u64);
        let y = run(op, DType::F64, MathPrecision::Accurate, &x);
        let mut bad = 0;
        for (&xi, &yi) in x.iter().zip(&y) {
            let (r, e, exact_ok) = math_ref::judge_f64(op, xi, yi);
            if e > f64_bound(op) || !exact_ok {
                if bad < 5 {
                    eprintln!("{op:?} f64: x = {xi:e}: got {yi:e}, want {r:e} ({e} ulp)");
                }
                bad += 1;
            }
        }
        assert_eq!(
            bad,
            0,
            "{op:?} f64: {bad} of {} outside {} ulp",
            x.len(),
            f64_bound(op)
        );
        ci::poison_intact(&y, x.len(), f64::to_bits, &format!("{op:?} f64"));
    }
}

#[test]
fn accurate_f32_matches_host_within_bound() {
    for op in FUNCS {
        let x = math_ref::inputs_f32(op, N, 0x6A6 ^ op as u64);
        let y = run(op, DType::F32, MathPrecision::Accurate, &x);
        let mut bad = 0;
        for (&xi, &yi) in x.iter().zip(&y) {
            let (r, e, exact_ok) = math_ref::judge_f32(op, xi, yi);
            if e > MAX_ULP || !exact_ok {
                if bad < 5 {
                    eprintln!("{op:?} f32: x = {xi:e}: got {yi:e}, want {r:e} ({e} ulp)");
                }
                bad += 1;
            }
        }
        assert_eq!(
            bad,
            0,
            "{op:?} f32: {bad} of {} outside {MAX_ULP} ulp",
            x.len()
        );
        ci::poison_intact(&y, x.len(), ci::f32_bits, &format!("{op:?} f32"));
    }
}

#[test]
fn approx_ftz_flushes_only_subnormal_results() {
    let x = math_ref::ftz_inputs(N);
    let ftz = run(MathOp::Exp2, DType::F32, MathPrecision::ApproxFtz, &x);
    let fast = run(MathOp::Exp2, DType::F32, MathPrecision::Approx, &x);
    math_ref::check_ftz(&x, &ftz, &fast);
}
