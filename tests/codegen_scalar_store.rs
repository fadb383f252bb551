//! A scalar store (scalar pointer, value and mask) is done by one thread, as in Triton: the
//! first thread of the CTA writes, under the mask when there is one. Checked in the emitted code
//! (the store is predicated on `tid == 0`, NVPTX and AMDGPU) and by the values that land, on the
//! CPU backend (with its sanitizers) and on a GPU when there is one, over an odd grid whose
//! programs write a constant, a masked value and a reduction's result.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::Blocked;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const PROGRAMS: u32 = 7;
const LEN: i32 = 100;

/// Program `p` writes `a[p] = 10 p + 1`, `b[p] = Σ x[0..100)` where `p` is even, and
/// `c[p] = p` only for the last program (`p == num_programs - 1`).
fn kernel(ctx: &Context, target: Target) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, target, "scalar_store", 4).unwrap();
    let [a, b, c] = ["a", "b", "c"].map(|n| kb.arg_ptr(n, DType::I32, 4).unwrap());
    let x = kb.arg_ptr("x", DType::I32, 16).unwrap();
    let pid = kb.program_id(0).unwrap();
    let v = kb.expr(|e| e.of(pid) * 10 + 1).unwrap();
    let pa = kb.add(a, pid).unwrap();
    kb.store(pa, v, None).unwrap();

    let lanes = kb.threads_per_warp();
    let offs = kb
        .arange(0, 128, Blocked::new(&[1], &[lanes], &[4], &[0]))
        .unwrap();
    let inside = kb.lt(offs, LEN).unwrap();
    let px = kb.add(x, offs).unwrap();
    let xs = kb.load(px, Some(inside), None).unwrap();
    let sum = kb.expr(|e| e.of(xs).sum(0)).unwrap();
    let even = kb.expr(|e| (e.of(pid) % 2).equal(0)).unwrap();
    let pb = kb.add(b, pid).unwrap();
    kb.store(pb, sum, Some(even)).unwrap();

    let n = kb.num_programs(0).unwrap();
    let last = kb.expr(|e| e.of(pid).equal(e.of(n) - 1)).unwrap();
    let pc = kb.add(c, pid).unwrap();
    kb.store(pc, pid, Some(last)).unwrap();
    kb.finish().unwrap()
}

#[test]
fn the_store_is_guarded_by_the_first_thread() {
    let ctx = Context::new();
    let mut targets = vec![Target::SM90];
    if cfg!(feature = "amdgpu") {
        targets.push(Target::GFX942);
    }
    for t in targets {
        let ir = kernel(&ctx, t).llvm_ir();
        assert_eq!(ir.matches("%first = icmp eq i32").count(), 1, "{t}: {ir}");
    }
    let ptx = kernel(&ctx, Target::SM90).ptx().unwrap();
    // Three scalar stores, each one predicated instruction.
    let stores: Vec<&str> = ptx.lines().filter(|l| l.contains("st.global")).collect();
    assert_eq!(stores.len(), 3, "{ptx}");
    assert!(
        stores.iter().all(|l| l.trim_start().starts_with('@')),
        "{stores:?}"
    );
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = kernel(&ctx, Target::SM90);
    let kernel = k.load_on::<B>(dev).unwrap();
    let p = PROGRAMS as usize;
    let [a, b, c] = [0; 3].map(|_| dev.upload(&vec![-7i32; p]).unwrap());
    let xs: Vec<i32> = (0..128).map(|i| i * 3 - 50).collect();
    let x = dev.upload(&xs).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&a).ptr(&b).ptr(&c).ptr(&x);
    let cfg = LaunchConfig::for_kernel(PROGRAMS, k.signature()).unwrap();
    // SAFETY: each program writes element `pid` of a, b and c and reads x[0..100).
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let sum: i32 = xs[..LEN as usize].iter().sum();
    let want_a: Vec<i32> = (0..p as i32).map(|i| 10 * i + 1).collect();
    let want_b: Vec<i32> = (0..p as i32)
        .map(|i| if i % 2 == 0 { sum } else { -7 })
        .collect();
    let want_c: Vec<i32> = (0..p as i32)
        .map(|i| if i == p as i32 - 1 { i } else { -7 })
        .collect();
    assert_eq!(a.to_vec().unwrap(), want_a, "{}", B::KIND);
    assert_eq!(b.to_vec().unwrap(), want_b, "{}", B::KIND);
    assert_eq!(c.to_vec().unwrap(), want_c, "{}", B::KIND);
}

#[test]
fn scalar_stores_land_once_per_program_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn scalar_stores_land_once_per_program_on_the_gpu() {
    if let Some(dev) = common::gpu::device() {
        run::<weft::runtime::cuda::Cuda>(&dev);
    }
}
