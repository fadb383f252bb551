//! Integer promotion as in Triton: integers of two widths meet at the wider (`i32 + i64` is
//! i64; the narrower is sign-extended), in arithmetic and comparisons; same-width operands and
//! floats are unchanged. Checked by running a kernel that needs it in the interpreter.
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
fn floats_and_pointers_do_not_promote() {
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
    // f32 with f16 stays an error (cast first), as before.
    assert!(kb.add(a, b).is_err());
    // An i32 tile and an f32 tile do not mix either.
    assert!(kb.add(offs, a).is_err());
}
