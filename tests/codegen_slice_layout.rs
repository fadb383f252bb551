//! `slice_layout(tile, dim)`: index vectors made in it and expanded back broadcast against the
//! tile, for a tile made from an encoding and for tiles that carry only a linear layout (after
//! `reshape` + `split`, and after `permute`). Checked by the values a kernel computes with them,
//! on the CPU backend and, when there is one, on the GPU; errors name the caller's line.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::{Blocked, Encoding, Slice};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const M: u64 = 16;
const N: u64 = 8;

fn blocked() -> Blocked {
    Blocked::new(&[1, 2], &[4, 8], &[4, 1], &[1, 0])
}

/// `rows[:, None] * scale + cols[None, :]` for a tile shaped as `t`, from index vectors in
/// `slice_layout(t, 1)` and `slice_layout(t, 0)`.
fn index_grid(kb: &mut KernelBuilder<'_>, t: Value, scale: i32) -> Value {
    let shape = kb.shape(t).unwrap();
    let rl = kb.slice_layout(t, 1).unwrap();
    let cl = kb.slice_layout(t, 0).unwrap();
    let r = kb.arange(0, shape[0] as i32, rl).unwrap();
    let c = kb.arange(0, shape[1] as i32, cl).unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    kb.expr(|e| e.of(r) * scale + e.of(c)).unwrap()
}

/// `x` is `[M, 2N]` row-major. `even[i][j] = x[i][2j]` (after reshape + split) gets
/// `1000 i + j` added and is written to `a` (`[M, N]`); its transpose (after permute) gets
/// `1000 j + i` added and is written to `b` (`[N, M]`).
fn kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "slices", 4).unwrap();
    let x = kb.arg_ptr("x", DType::I32, 16).unwrap();
    let a = kb.arg_ptr("a", DType::I32, 16).unwrap();
    let b = kb.arg_ptr("b", DType::I32, 16).unwrap();
    let rows = kb
        .arange(0, M as i32, Slice::new(1, blocked().into()))
        .unwrap();
    let cols = kb
        .arange(0, 2 * N as i32, Slice::new(0, blocked().into()))
        .unwrap();
    let r = kb.expand_dims(rows, 1).unwrap();
    let c = kb.expand_dims(cols, 0).unwrap();
    let offs = kb.expr(|e| e.of(r) * (2 * N as i32) + e.of(c)).unwrap();
    let px = kb.add(x, offs).unwrap();
    let xs = kb.load(px, None, None).unwrap();
    // A tile made from an encoding slices that encoding.
    let expect: Encoding = Slice::new(1, blocked().into()).into();
    assert_eq!(Encoding::from(kb.slice_layout(xs, 1).unwrap()), expect);

    let pairs = kb.reshape(xs, &[M, N, 2]).unwrap();
    let (even, _odd) = kb.split(pairs).unwrap();
    let add = index_grid(&mut kb, even, 1000);
    let at = index_grid(&mut kb, even, N as i32);
    let v = kb.add(even, add).unwrap();
    let pa = kb.add(a, at).unwrap();
    kb.store(pa, v, None).unwrap();

    let t = kb.permute(even, &[1, 0]).unwrap();
    let add = index_grid(&mut kb, t, 1000);
    let at = index_grid(&mut kb, t, M as i32);
    let v = kb.add(t, add).unwrap();
    let pb = kb.add(b, at).unwrap();
    kb.store(pb, v, None).unwrap();
    kb.finish().unwrap()
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = kernel(&ctx);
    let kernel = k.load_on::<B>(dev).unwrap();
    let (m, n) = (M as usize, N as usize);
    let xs: Vec<i32> = (0..m * 2 * n).map(|i| (i as i32 * 7919) % 1009).collect();
    let x = dev.upload(&xs).unwrap();
    let a = dev.alloc_zeroed::<i32>(m * n).unwrap();
    let b = dev.alloc_zeroed::<i32>(m * n).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&a).ptr(&b);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: reads x (2MN) and writes a and b (MN each).
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let (a, b) = (a.to_vec().unwrap(), b.to_vec().unwrap());
    for i in 0..m {
        for j in 0..n {
            let even = xs[i * 2 * n + 2 * j];
            assert_eq!(
                a[i * n + j],
                even + 1000 * i as i32 + j as i32,
                "a[{i}][{j}]"
            );
            assert_eq!(
                b[j * m + i],
                even + 1000 * j as i32 + i as i32,
                "b[{j}][{i}]"
            );
        }
    }
}

#[test]
fn index_vectors_in_a_slice_broadcast_back_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn index_vectors_in_a_slice_broadcast_back_on_the_gpu() {
    if let Some(dev) = common::gpu::device() {
        run::<weft::runtime::cuda::Cuda>(&dev);
    }
}

#[test]
fn scalars_and_dims_past_the_rank_are_refused_at_the_callers_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad", 4).unwrap();
    let s = kb.i32(3).unwrap();
    let t = kb
        .arange(0, 128, Blocked::new(&[1], &[32], &[4], &[0]))
        .unwrap();
    let source: Vec<&str> = include_str!("codegen_slice_layout.rs").lines().collect();
    for (e, call) in [
        (kb.slice_layout(s, 0).unwrap_err(), "kb.slice_layout(s, 0)"),
        (kb.slice_layout(t, 1).unwrap_err(), "kb.slice_layout(t, 1)"),
    ] {
        let loc = e.loc().expect("a line");
        assert!(source[loc.line as usize - 1].contains(call), "{e}");
    }
}
