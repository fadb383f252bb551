//! Promotion as in Triton: integers of two widths meet at the wider (`i32 + i64` is i64; the
//! narrower is sign-extended), floats at the wider (`f16 + f32` is f32), an integer with a float
//! becomes the float, in arithmetic and comparisons; pointers do not promote. Checked by running
//! kernels that need it in the interpreter (every pair against Triton's own result types:
//! `codegen_promotion_triton.rs`).
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, KernelBuilder, Target, Type};
use weft::layout::encoding::Blocked;
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

const N: i32 = 512;

#[test]
fn i32_offsets_plus_an_i64_base_are_i64() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "wide", 4).unwrap();
    let out = kb.arg_ptr("out", DType::I64, 16).unwrap();
    let base = kb.arg_i64("base", 1).unwrap();
    let limit = kb.arg_i64("limit", 1).unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    // i32 tile + i64 scalar, and a negative i32 times an i64: both i64.
    let idx = kb.add(offs, base).unwrap();
    assert_eq!(kb.ty(idx).unwrap(), Type::Scalar(DType::I64));
    let minus = kb.sub(offs, N).unwrap();
    let neg = kb.mul(minus, base).unwrap();
    let both = kb.add(idx, neg).unwrap();
    // An i64 comparison with an i32 tile on the other side.
    let below = kb.lt(offs, limit).unwrap();
    let v = kb.where_(below, both, -1i64).unwrap();
    let p = kb.add(out, offs).unwrap();
    kb.store(p, v, None).unwrap();
    let k = kb.finish().unwrap();

    let dev = common::gpu::cpu();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let y = dev.alloc_zeroed::<i64>(N as usize).unwrap();
    let (b, lim) = ((1i64 << 33) + 5, 300i64);
    let mut args = KernelArgs::new();
    args.ptr(&y).scalar(b).scalar(lim);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: writes y[0..512).
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let want: Vec<i64> = (0..i64::from(N))
        .map(|i| {
            if i < lim {
                (b + i) + (i - i64::from(N)) * b
            } else {
                -1
            }
        })
        .collect();
    assert_eq!(y.to_vec().unwrap(), want);
}

#[test]
fn floats_meet_at_the_wider_and_integers_become_the_float() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "mixed", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let h = kb.arg_ptr("h", DType::F16, 16).unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let a = kb.add(x, offs).unwrap();
    let a = kb.load(a, None, None).unwrap();
    let b = kb.add(h, offs).unwrap();
    let b = kb.load(b, None, None).unwrap();
    // f32 with f16 is f32, an i32 tile with f16 is f16, an i32 tile times 0.5 is f32 (Triton's).
    let s = kb.add(a, b).unwrap();
    assert_eq!(kb.ty(s).unwrap(), Type::Scalar(DType::F32));
    let s = kb.add(offs, b).unwrap();
    assert_eq!(kb.ty(s).unwrap(), Type::Scalar(DType::F16));
    let s = kb.mul(offs, 0.5).unwrap();
    assert_eq!(kb.ty(s).unwrap(), Type::Scalar(DType::F32));
    // A pointer does not promote: a float offset is an error.
    assert!(kb.add(x, b).is_err());
}

#[test]
fn mixed_floats_compute_in_the_wider_type() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "mixed_sum", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let h = kb.arg_ptr("h", DType::F16, 16).unwrap();
    let out = kb.arg_ptr("out", DType::F32, 16).unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    // x + h + offs * 0.25, all in f32.
    let v = kb
        .expr(|e| (e.of(x) + offs).load() + (e.of(h) + offs).load() + e.of(offs) * 0.25)
        .unwrap();
    kb.expr(|e| (e.of(out) + offs).store(v)).unwrap();
    let k = kb.finish().unwrap();

    let dev = common::gpu::cpu();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let xs: Vec<f32> = (0..N).map(|i| 1e-4 * i as f32).collect();
    let hs: Vec<half::f16> = (0..N)
        .map(|i| half::f16::from_f32(i as f32 - 256.5))
        .collect();
    let dx = dev.upload(&xs).unwrap();
    let dh = dev.upload(&hs).unwrap();
    let y = dev.alloc_zeroed::<f32>(N as usize).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dh).ptr(&y);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: reads x and h, writes y, 512 elements each.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    for (i, g) in y.to_vec().unwrap().into_iter().enumerate() {
        // In f32 throughout: the small x survives next to the large h (in f16 it would not).
        let want = xs[i] + hs[i].to_f32() + i as f32 * 0.25;
        assert_eq!(g, want, "y[{i}]");
    }
}
