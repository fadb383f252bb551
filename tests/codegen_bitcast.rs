//! `bitcast`: bits read as another type, elementwise (i32 ↔ f32) and changing the element width
//! (i32 → two bf16 or four i8 along a new last dim, lowest bits first, and back), including the
//! nibble-to-bf16 trick the 4-bit GEMM is built on (`0x4300 | q` is the bf16 `128 + q`). Checked
//! against the host on random words, on the CPU backend and, when there is one, on the GPU; and
//! each malformed bitcast is a typed error at the caller's line.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, DistributedLinear, Encoding, Slice};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const N: usize = 1024;

/// From `x: i32[N]`: `round` = bitcast(bitcast(x, bf16), i32), `as_f32` = bitcast(x, f32),
/// `bytes` = bitcast(x, i8) `[N, 4]`, `nibble` = f32(bitcast(i16(x & 15) | 0x4300, bf16) - 136).
fn kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "bitcasts", 4).unwrap();
    let x = kb.arg_ptr("x", DType::I32, 16).unwrap();
    let round = kb.arg_ptr("round", DType::I32, 16).unwrap();
    let as_f32 = kb.arg_ptr("as_f32", DType::F32, 16).unwrap();
    let bytes = kb.arg_ptr("bytes", DType::I8, 16).unwrap();
    let nibble = kb.arg_ptr("nibble", DType::F32, 16).unwrap();
    let offs = kb
        .arange(0, N as i32, Blocked::new(&[2], &[32], &[4], &[0]))
        .unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();

    let halves = kb.bitcast(v, DType::BF16).unwrap();
    let back = kb.bitcast(halves, DType::I32).unwrap();
    let q = kb.add(round, offs).unwrap();
    kb.store(q, back, None).unwrap();

    let f = kb.bitcast(v, DType::F32).unwrap();
    let q = kb.add(as_f32, offs).unwrap();
    kb.store(q, f, None).unwrap();

    let b = kb.bitcast(v, DType::I8).unwrap();
    let bl: Encoding = DistributedLinear::from_linear_layout(&kb.layout(b).unwrap().unwrap())
        .unwrap()
        .into();
    let rows = kb.arange(0, N as i32, Slice::new(1, bl.clone())).unwrap();
    let rows = kb.mul(rows, 4).unwrap();
    let rows = kb.expand_dims(rows, 1).unwrap();
    let cols = kb.arange(0, 4, Slice::new(0, bl)).unwrap();
    let cols = kb.expand_dims(cols, 0).unwrap();
    let at = kb.add(rows, cols).unwrap();
    let q = kb.add(bytes, at).unwrap();
    kb.store(q, b, None).unwrap();

    let n = kb.and(v, 15).unwrap();
    let n = kb.cast(n, DType::I16).unwrap();
    let n = kb.or(n, 0x4300).unwrap();
    let n = kb.bitcast(n, DType::BF16).unwrap();
    let n = kb.sub(n, 136.0).unwrap();
    let n = kb.cast(n, DType::F32).unwrap();
    let q = kb.add(nibble, offs).unwrap();
    kb.store(q, n, None).unwrap();
    kb.finish().unwrap()
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = kernel(&ctx);
    let kernel = k.load_on::<B>(dev).unwrap();
    let mut rng = common::rng::Rng(7);
    let x: Vec<i32> = (0..N).map(|_| rng.next_u64() as i32).collect();
    let dx = dev.upload(&x).unwrap();
    let d_round = dev.alloc_zeroed::<i32>(N).unwrap();
    let d_f32 = dev.alloc_zeroed::<f32>(N).unwrap();
    let d_bytes = dev.alloc_zeroed::<i8>(4 * N).unwrap();
    let d_nibble = dev.alloc_zeroed::<f32>(N).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&d_round)
        .ptr(&d_f32)
        .ptr(&d_bytes)
        .ptr(&d_nibble);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: reads x and writes each output, N words each (4N bytes).
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let round = d_round.to_vec().unwrap();
    let as_f32 = d_f32.to_vec().unwrap();
    let bytes = d_bytes.to_vec().unwrap();
    let nibble = d_nibble.to_vec().unwrap();
    for (i, &w) in x.iter().enumerate() {
        let on = B::KIND;
        assert_eq!(round[i], w, "{on}: i32 → bf16 × 2 → i32 at {i}");
        assert_eq!(as_f32[i].to_bits(), w as u32, "{on}: i32 → f32 at {i}");
        for j in 0..4 {
            assert_eq!(
                bytes[4 * i + j],
                (w >> (8 * j)) as i8,
                "{on}: byte {j} of {i}"
            );
        }
        assert_eq!(nibble[i], ((w & 15) - 8) as f32, "{on}: nibble of {i}");
    }
}

#[test]
fn bitcasts_match_the_host_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn bitcasts_match_the_host_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    run::<weft::runtime::cuda::Cuda>(&dev);
}

#[test]
fn malformed_bitcasts_are_typed_errors_at_the_callers_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad", 4).unwrap();
    let offs = kb
        .arange(0, 512, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let flags = kb.lt(offs, 7).unwrap();
    let bytes = kb.cast(offs, DType::I8).unwrap();
    let spread = kb.bitcast(offs, DType::I16).unwrap();
    let spread = kb.permute(spread, &[1, 0]).unwrap();
    let s = kb.i32(3).unwrap();
    let source: Vec<&str> = include_str!("codegen_bitcast.rs").lines().collect();
    for (e, call) in [
        (
            kb.bitcast(flags, DType::I8).unwrap_err(),
            "kb.bitcast(flags",
        ),
        (
            kb.bitcast(offs, DType::I1).unwrap_err(),
            "kb.bitcast(offs, DType::I1",
        ),
        // A 1-D tile has no last dim to fold into wider elements.
        (
            kb.bitcast(bytes, DType::I32).unwrap_err(),
            "kb.bitcast(bytes",
        ),
        // [2, 512]: the pairs are not the last dim any more.
        (
            kb.bitcast(spread, DType::I32).unwrap_err(),
            "kb.bitcast(spread, DType::I32",
        ),
        (
            kb.bitcast(s, DType::I16).unwrap_err(),
            "kb.bitcast(s, DType::I16",
        ),
    ] {
        let loc = e.loc().expect("a line");
        assert!(
            source[loc.line as usize - 1].contains(call),
            "{e} (at line {})",
            loc.line
        );
    }
}

#[test]
fn the_bitcast_kernel_assembles() {
    let ctx = Context::new();
    let ptx = kernel(&ctx).ptx().unwrap();
    common::assemble_without_spills(&ptx, "sm_90", "bitcasts");
}

/// `y = f32(bitcast(i16(x & 15) | 0x4300, bf16) - 136)` through the builder or `expr`.
fn nibble_kernel(ctx: &Context, with_expr: bool) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "nibble", 4).unwrap();
    let x = kb.arg_ptr("x", DType::I32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let offs = kb
        .arange(0, N as i32, Blocked::new(&[2], &[32], &[4], &[0]))
        .unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();
    let n = if with_expr {
        kb.expr(|e| {
            let q = ((e.of(v) & 15).cast(DType::I16) | 0x4300).bitcast(DType::BF16);
            (q - 136.0).cast(DType::F32)
        })
        .unwrap()
    } else {
        let n = kb.and(v, 15).unwrap();
        let n = kb.cast(n, DType::I16).unwrap();
        let n = kb.or(n, 0x4300).unwrap();
        let n = kb.bitcast(n, DType::BF16).unwrap();
        let n = kb.sub(n, 136.0).unwrap();
        kb.cast(n, DType::F32).unwrap()
    };
    let q = kb.add(y, offs).unwrap();
    kb.store(q, n, None).unwrap();
    kb.finish().unwrap()
}

#[test]
fn the_expression_bitcast_builds_the_same_code() {
    let ctx = Context::new();
    assert_eq!(
        nibble_kernel(&ctx, true).llvm_ir(),
        nibble_kernel(&ctx, false).llvm_ir()
    );
}
