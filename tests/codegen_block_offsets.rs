//! `args` and `block_offsets`: a signature declared in one call is the `arg_*` calls' signature,
//! and a program's block offsets are the indices of its block, in the tile's layout, for every
//! element of a ragged grid (checked in the interpreter).
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::args::{f32, i32, i64, ptr};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, Target};
use weft::layout::encoding::Blocked;
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

#[test]
fn args_declares_what_the_arg_calls_declare() {
    let ctx = Context::new();
    let mut a = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let got = a
        .args([ptr("x", DType::F16, 16), i32("m", 8), i64("n", 1), f32("s")])
        .unwrap();
    let mut b = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let want = [
        b.arg_ptr("x", DType::F16, 16).unwrap(),
        b.arg_i32("m", 8).unwrap(),
        b.arg_i64("n", 1).unwrap(),
        b.arg_f32("s").unwrap(),
    ];
    assert_eq!(a.signature().params, b.signature().params);
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(a.ty(*g).unwrap(), b.ty(*w).unwrap());
    }
    // A bad parameter is the `arg_*` call's error, naming it.
    let mut c = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let e = c.args([ptr("x", DType::F32, 16), i32("m", 3)]).unwrap_err();
    assert!(
        matches!(&e, CodegenError::BadParameter { name, .. } if name == "m"),
        "{e}"
    );
    let e = c.args([ptr("x", DType::F32, 16)]).unwrap_err();
    assert!(e.to_string().contains("declared twice"), "{e}");
}

/// Writes `y[r · n + c] = r · 1000 + c` for each (r, c) of program (px, py)'s 16 × 8 block,
/// with both index vectors from `block_offsets`.
fn index_kernel(ctx: &Context) -> weft::codegen::Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "block_index", 4).unwrap();
    let [y, n] = kb.args([ptr("y", DType::I32, 16), i32("n", 8)]).unwrap();
    let layout = Blocked::new(&[1, 2], &[8, 4], &[2, 2], &[1, 0]);
    let [r, c] = kb.block_offsets([16, 8], layout).unwrap();
    assert_eq!(kb.shape(r).unwrap(), vec![16, 1]);
    assert_eq!(kb.shape(c).unwrap(), vec![1, 8]);
    kb.expr(|e| (e.of(y) + e.of(r) * n + c).store(e.of(r) * 1000 + c))
        .unwrap();
    kb.finish().unwrap()
}

#[test]
fn block_offsets_index_each_programs_block() {
    let ctx = Context::new();
    let k = index_kernel(&ctx);
    let dev = common::gpu::cpu();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    // A 3 × 5 grid of 16 × 8 blocks over a 48 × 40 matrix.
    let (m, n) = (48usize, 40usize);
    let y = dev.upload(&vec![-1i32; m * n]).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&y).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel((3u32, 5u32, 1u32), k.signature()).unwrap();
    // SAFETY: program (i, j) writes rows 16i.. and columns 8j.. of the 48 × 40 y.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let got = y.to_vec().unwrap();
    for r in 0..m {
        for c in 0..n {
            assert_eq!(got[r * n + c], (r * 1000 + c) as i32, "y[{r}][{c}]");
        }
    }
}

#[test]
fn block_offsets_of_three_dims_broadcast_back_to_the_layout() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k3", 4).unwrap();
    let layout = Blocked::new(&[1, 1, 2], &[2, 4, 4], &[1, 2, 2], &[2, 1, 0]);
    let [a, b, c] = kb.block_offsets([2, 8, 16], layout.clone()).unwrap();
    let shapes: Vec<Vec<u64>> = [a, b, c].iter().map(|v| kb.shape(*v).unwrap()).collect();
    assert_eq!(shapes, vec![vec![2, 1, 1], vec![1, 8, 1], vec![1, 1, 16]]);
    // Summed, they broadcast to the block without a conversion: the result is in `layout`.
    let s = kb.expr(|e| e.of(a) + b + c).unwrap();
    assert_eq!(kb.shape(s).unwrap(), vec![2, 8, 16]);
    let zeros = kb.zeros((&layout, [2, 8, 16]), DType::I32).unwrap();
    assert_eq!(kb.layout(s).unwrap(), kb.layout(zeros).unwrap());
    // Rank 0 and rank 4 are errors, not panics.
    let e = kb
        .block_offsets::<4>([2, 2, 2, 2], layout.clone())
        .unwrap_err();
    assert!(e.to_string().contains("rank 4"), "{e}");
    let e = kb.block_offsets::<0>([], layout).unwrap_err();
    assert!(e.to_string().contains("rank 0"), "{e}");
}
