//! Float division as Triton does it: `a / b` is PTX's approximate `div.full.f32` for f32 (f16 and
//! bf16 widened to f32 and rounded back, f64 `div.rn.f64`), and `div_rn` is IEEE division. The
//! PTX is compared with Triton 3.9's own for the same kernels (`tests/fixtures/division.json`,
//! `scripts/triton_division.py`); the values are checked against exact quotients on random
//! operands over the whole f32 range (huge and subnormal divisors included) in the interpreter
//! and, when there is one, on the GPU: `/` within 2 ulp (PTX's bound), `div_rn` exact.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::Blocked;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const N: usize = 1024;

/// `o = x / y` (or `div_rn`) over `n` elements of `dt`, one element per thread and register
/// as in Triton's 128-element kernel, `n / 128` registers otherwise.
fn kernel(ctx: &Context, dt: DType, rn: bool, n: usize, target: Target) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, target, "div", 4).unwrap();
    let [x, y, o] = ["x", "y", "o"].map(|a| kb.arg_ptr(a, dt, 16).unwrap());
    let lanes = kb.threads_per_warp();
    let offs = kb
        .arange(0, n as i32, Blocked::new(&[1], &[lanes], &[4], &[0]))
        .unwrap();
    let [a, b] = [x, y].map(|p| {
        let p = kb.add(p, offs).unwrap();
        kb.load(p, None, None).unwrap()
    });
    let q = if rn {
        kb.expr(|e| e.of(a).div_rn(e.of(b))).unwrap()
    } else {
        kb.expr(|e| e.of(a) / e.of(b)).unwrap()
    };
    let p = kb.add(o, offs).unwrap();
    kb.store(p, q, None).unwrap();
    kb.finish().unwrap()
}

fn dtype(name: &str) -> DType {
    match name {
        "fp16" => DType::F16,
        "bf16" => DType::BF16,
        "fp32" => DType::F32,
        _ => DType::F64,
    }
}

/// The division and conversion instructions of a PTX text, in order, without their operands.
fn division_instructions(ptx: &str) -> Vec<String> {
    ptx.lines()
        .map(str::trim)
        .filter(|l| ["div.", "cvt.", "rcp."].iter().any(|p| l.starts_with(p)))
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn the_ptx_of_a_division_is_tritons() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/division.json")).unwrap();
    let ctx = Context::new();
    let mut compared = 0;
    for (op, by_type) in fixture["kernels"].as_object().unwrap() {
        for (ty, want) in by_type.as_object().unwrap() {
            let Some(want) = want.as_array() else {
                // Triton rejects `div_rn` on all but f32; weft's is IEEE division there too.
                assert!(want.as_str().unwrap().starts_with("rejected"), "{op} {ty}");
                continue;
            };
            let want: Vec<&str> = want.iter().map(|w| w.as_str().unwrap()).collect();
            let k = kernel(&ctx, dtype(ty), op == "div_rn", 128, Target::SM90);
            let got = division_instructions(&k.ptx().unwrap());
            assert_eq!(got, want, "{op} on {ty}");
            compared += 1;
        }
    }
    assert_eq!(compared, 5, "div on four types, div_rn on f32");
}

#[test]
fn div_rn_refuses_integers_at_the_callers_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad", 4).unwrap();
    let offs = kb
        .arange(0, 128, Blocked::new(&[1], &[32], &[4], &[0]))
        .unwrap();
    let e = kb.div_rn(offs, 3).unwrap_err();
    assert!(e.to_string().contains("float"), "{e}");
    let source: Vec<&str> = include_str!("codegen_division.rs").lines().collect();
    let loc = e.loc().expect("a line");
    assert!(
        source[loc.line as usize - 1].contains("kb.div_rn(offs, 3)"),
        "{e}"
    );
}

#[cfg(feature = "amdgpu")]
#[test]
fn amdgpu_divides_with_a_reciprocal() {
    let ctx = Context::new();
    let k = kernel(&ctx, DType::F32, false, 128, Target::GFX942);
    let ir = k.llvm_ir();
    assert!(ir.contains("fdiv arcp afn float"), "{ir}");
    let rn = kernel(&ctx, DType::F32, true, 128, Target::GFX942).llvm_ir();
    assert!(rn.contains("fdiv float") && !rn.contains("afn"), "{rn}");
}

/// Operands over the whole f32 range: random bit patterns (subnormals included), divisors in
/// [2^126, 2^127) where a plain reciprocal is subnormal, and the special values.
fn operands() -> (Vec<f32>, Vec<f32>) {
    let mut r = common::rng::Rng(26);
    let mut any = || loop {
        let v = f32::from_bits(r.next_u64() as u32);
        if v.is_finite() {
            return v;
        }
    };
    let mut x: Vec<f32> = (0..N).map(|_| any()).collect();
    let mut y: Vec<f32> = (0..N).map(|_| any()).collect();
    for v in y.iter_mut().take(N / 8) {
        // |y| in [2^126, 2^127), with |x| of any size.
        *v = f32::from_bits((253 << 23) | (v.to_bits() & 0x80FF_FFFF));
    }
    let mut rng = common::rng::Rng(7);
    for i in N / 8..N / 2 {
        // Ordinary magnitudes, where most quotients are normal.
        x[i] = rng.f32() * 3.0;
        y[i] = rng.f32();
    }
    let special = [
        (0.0, 0.0),
        (1.0, 0.0),
        (-1.0, 0.0),
        (f32::INFINITY, 2.0),
        (2.0, f32::INFINITY),
        (f32::INFINITY, f32::INFINITY),
        (f32::NAN, 1.0),
        (f32::MAX, f32::MIN_POSITIVE),
        (f32::MIN_POSITIVE, f32::MAX),
        (1e-45, 3.0),
    ];
    for (i, (a, b)) in special.iter().enumerate() {
        x[N - 1 - i] = *a;
        y[N - 1 - i] = *b;
    }
    (x, y)
}

/// The distance in f32 ulps of `got` from the exact quotient `want` (f64), with the ulp of the
/// f32 nearest `want` (subnormal spacing below the normal range).
fn ulps(got: f32, want: f64) -> f64 {
    let w = want as f32;
    let ulp = if w.abs() < f32::MIN_POSITIVE {
        f64::from(f32::from_bits(1))
    } else {
        let next = f32::from_bits(w.abs().to_bits() + 1);
        f64::from(next) - f64::from(w.abs())
    };
    (f64::from(got) - want).abs() / ulp
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let (x, y) = operands();
    let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
    let mut results = Vec::new();
    for rn in [false, true] {
        let k = kernel(&ctx, DType::F32, rn, N, Target::SM90);
        let kernel = k.load_on::<B>(dev).unwrap();
        let dq = dev.alloc_zeroed::<f32>(N).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&dy).ptr(&dq);
        let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
        // SAFETY: reads x and y and writes q, N elements each.
        unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
        results.push(dq.to_vec().unwrap());
    }
    let (full, rn) = (&results[0], &results[1]);
    let mut inexact = 0;
    for i in 0..N {
        let want = f64::from(x[i]) / f64::from(y[i]);
        let ieee = x[i] / y[i];
        let at = format!("{} / {} on {}", x[i], y[i], B::KIND);
        assert!(
            rn[i].to_bits() == ieee.to_bits() || (rn[i].is_nan() && ieee.is_nan()),
            "div_rn: {at}: {} vs {ieee}",
            rn[i]
        );
        if !want.is_finite() || ieee.is_infinite() || ieee == 0.0 {
            // NaN, ±∞ and ±0 as IEEE division gives them.
            assert!(
                full[i].to_bits() == ieee.to_bits() || (full[i].is_nan() && ieee.is_nan()),
                "/: {at}: {} vs {ieee}",
                full[i]
            );
            continue;
        }
        let e = ulps(full[i], want);
        assert!(e <= 2.0, "/: {at}: {} is {e} ulp from {want}", full[i]);
        inexact += usize::from(full[i] != ieee);
    }
    // The approximation is not IEEE division in disguise: it rounds differently somewhere.
    assert!(
        inexact > 0,
        "on {}: `/` gave the IEEE quotient everywhere",
        B::KIND
    );
}

#[test]
fn division_is_within_two_ulp_and_div_rn_exact_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn division_is_within_two_ulp_and_div_rn_exact_on_the_gpu() {
    if let Some(dev) = common::gpu::device() {
        run::<weft::runtime::cuda::Cuda>(&dev);
    }
}
