//! Early return: `return_if(cond)` at the top of a kernel and `ret()` inside an `if_then` in a
//! loop leave the kernel, so nothing after them runs in that program (a barrier after the
//! return included); checked by what lands on the CPU backend (sanitizers on) and on a GPU when
//! present. A return inside a warp role or a combine function is a typed hazard at its line.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target, WarpRole};
use weft::layout::encoding::Blocked;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const PROGRAMS: u32 = 7;
const BLOCK: i32 = 128;

/// Programs at or past `limit` return at once. The others write `i + 1000 pid` to their block of
/// `out`, then count `i` up in a loop that returns at `i == 3 + pid % 2`, storing `i` to
/// `count[pid]` after each test, and never reach the final `done[pid] = 99`.
fn kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "early", 4).unwrap();
    let out = kb.arg_ptr("out", DType::I32, 16).unwrap();
    let count = kb.arg_ptr("count", DType::I32, 4).unwrap();
    let done = kb.arg_ptr("done", DType::I32, 4).unwrap();
    let limit = kb.arg_i32("limit", 1).unwrap();
    let pid = kb.program_id(0).unwrap();
    let past = kb.ge(pid, limit).unwrap();
    kb.return_if(past).unwrap();
    // Every thread that reaches the barrier is every thread of the CTA.
    kb.barrier().unwrap();
    let offs = kb
        .arange(0, BLOCK, Blocked::new(&[1], &[32], &[4], &[0]))
        .unwrap();
    let p = kb
        .expr(|e| e.of(out) + e.of(pid) * BLOCK + e.of(offs))
        .unwrap();
    let v = kb.expr(|e| e.of(offs) + e.of(pid) * 1000).unwrap();
    kb.store(p, v, None).unwrap();
    let stop = kb.expr(|e| e.of(pid) % 2 + 3).unwrap();
    let pc = kb.add(count, pid).unwrap();
    kb.for_range(0, 8, 1, &[], |kb, i, _| {
        let here = kb.eq(i, stop)?;
        kb.if_then(here, |kb| kb.ret())?;
        kb.store(pc, i, None)?;
        Ok(vec![])
    })
    .unwrap();
    let pd = kb.add(done, pid).unwrap();
    kb.store(pd, 99, None).unwrap();
    kb.finish().unwrap()
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = kernel(&ctx);
    let kernel = k.load_on::<B>(dev).unwrap();
    let p = PROGRAMS as usize;
    let limit = 5;
    let out = dev.upload(&vec![-1i32; p * BLOCK as usize]).unwrap();
    let count = dev.upload(&vec![-1i32; p]).unwrap();
    let done = dev.upload(&vec![-1i32; p]).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&out).ptr(&count).ptr(&done).scalar(limit);
    let cfg = LaunchConfig::for_kernel(PROGRAMS, k.signature()).unwrap();
    // SAFETY: program p writes out[128 p ..][..128], count[p] and done[p].
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let (out, count, done) = (
        out.to_vec().unwrap(),
        count.to_vec().unwrap(),
        done.to_vec().unwrap(),
    );
    for pid in 0..p as i32 {
        let ran = pid < limit;
        let block = &out[pid as usize * BLOCK as usize..][..BLOCK as usize];
        let want = |i: usize| if ran { i as i32 + 1000 * pid } else { -1 };
        let ok = block.iter().enumerate().all(|(i, &v)| v == want(i));
        assert!(ok, "{}: out of program {pid}", B::KIND);
        let want = if ran { pid % 2 + 2 } else { -1 };
        assert_eq!(
            count[pid as usize],
            want,
            "{}: count of program {pid}",
            B::KIND
        );
        assert_eq!(
            done[pid as usize],
            -1,
            "{}: program {pid} ran past its return",
            B::KIND
        );
    }
}

#[test]
fn returns_leave_the_kernel_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn returns_leave_the_kernel_on_the_gpu() {
    if let Some(dev) = common::gpu::device() {
        run::<weft::runtime::cuda::Cuda>(&dev);
    }
}

fn line_of(e: &CodegenError) -> String {
    let source: Vec<&str> = include_str!("codegen_early_return.rs").lines().collect();
    source[e.loc().expect("a line").line as usize - 1].to_string()
}

#[test]
fn a_return_inside_a_warp_role_is_refused_at_its_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "role_return", 8).unwrap();
    let flag = kb.arg_i32("flag", 1).unwrap();
    let roles = kb
        .warp_roles(&[WarpRole::new(4), WarpRole::new(4)])
        .unwrap();
    let c = kb.eq(flag, 1).unwrap();
    kb.in_role(roles[0], |kb| kb.return_if(c)).unwrap();
    kb.in_role(roles[1], |kb| kb.barrier()).unwrap();
    let e = kb.finish().unwrap_err();
    assert!(matches!(e, CodegenError::Hazard { .. }), "{e}");
    assert!(e.to_string().contains("warp role"), "{e}");
    assert!(line_of(&e).contains("kb.return_if(c)"), "{e}");
}

#[test]
fn a_return_inside_a_combine_function_is_refused_at_its_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "combine_return", 4).unwrap();
    let offs = kb
        .arange(0, BLOCK, Blocked::new(&[1], &[32], &[4], &[0]))
        .unwrap();
    let t = kb.i32(1).unwrap();
    let yes = kb.eq(t, 1).unwrap();
    kb.reduce_with(offs, 0, |kb, a, b| {
        kb.return_if(yes)?;
        kb.add(a, b)
    })
    .unwrap();
    let e = kb.finish().unwrap_err();
    assert!(e.to_string().contains("combine function"), "{e}");
    assert!(line_of(&e).contains("kb.return_if(yes)"), "{e}");
}

#[test]
fn return_if_takes_a_scalar_condition() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "tile_cond", 4).unwrap();
    let offs = kb
        .arange(0, BLOCK, Blocked::new(&[1], &[32], &[4], &[0]))
        .unwrap();
    let c = kb.lt(offs, 3).unwrap();
    let e = kb.return_if(c).unwrap_err();
    assert!(e.to_string().contains("scalar i1"), "{e}");
    assert!(line_of(&e).contains("kb.return_if(c)"), "{e}");
}

#[test]
fn ptxas_accepts_the_returns() {
    let ctx = Context::new();
    let ptx = kernel(&ctx).ptx().unwrap();
    assert!(ptx.contains("ret;"), "{ptx}");
    common::ptxas_log(&ptx, "sm_90", "the early-return kernel");
}
