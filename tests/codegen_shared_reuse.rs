//! Shared-memory reuse on the CPU: op scratch is freed when the op returns and buffers by
//! `free_shared`, so the kernel's `shared_bytes` is the peak (max, not sum) of back-to-back
//! conversions, reductions and reused buffers; reuse owes exactly one barrier, folded into a
//! barrier the op emits anyway where it can; a replicated warp role reuses its own scratch
//! copies; bad frees and uses after free are typed errors. The kernels run on the GPU in
//! `gpu_shared_reuse.rs`.
#![cfg(feature = "llvm")]

mod common;

use common::reuse::{
    chain_kernel, cols, column_stats_kernel, free_reuse_kernel, replica_stats_kernel, rows,
};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, ReduceOp, Target};
use weft::layout::convert::plan_conversion;
use weft::layout::encoding::{Blocked, SwizzledShared};

/// CTA barriers (`bar.sync 0` / `barrier.sync 0`, however LLVM prints them) in `ptx`.
fn cta_barriers(ptx: &str) -> usize {
    ptx.lines()
        .map(str::trim)
        .filter(|l| {
            (l.starts_with("bar.sync") || l.starts_with("barrier.sync"))
                && l.trim_end_matches(';').split_whitespace().nth(1) == Some("0")
        })
        .count()
}

/// The scratch bytes one rows ↔ cols conversion of `f32` needs.
fn scratch() -> u64 {
    plan_conversion(&rows(Target::SM90), &cols(Target::SM90), 32, Target::SM90)
        .unwrap()
        .scratch_bytes()
}

#[test]
fn back_to_back_conversions_share_their_scratch() {
    let ctx = Context::new();
    let s = scratch();
    assert!(s > 0);
    for hops in 1..=4 {
        let k = chain_kernel(&ctx, Target::SM90, hops, 0).unwrap();
        assert_eq!(
            k.signature().shared_bytes as u64,
            s,
            "{hops} conversions: the peak is one scratch"
        );
        let ptx = k.ptx().unwrap();
        // Each conversion: store, barrier, load; each one after the first also waits for the
        // previous one's loads before its stores (one barrier more), and no other barrier.
        assert_eq!(cta_barriers(&ptx), 2 * hops - 1, "{hops} conversions");
        common::assemble(&ptx, "sm_90", &format!("{hops} conversions"));
    }
    // In a loop body each conversion waits before its stores anyway (the previous iteration's
    // loads): reuse adds nothing there, and the peak is still one scratch.
    let k = chain_kernel(&ctx, Target::SM90, 1, 5).unwrap();
    assert_eq!(k.signature().shared_bytes as u64, s);
    let ptx = k.ptx().unwrap();
    assert_eq!(cta_barriers(&ptx), 1 + 4, "{ptx}");
    common::assemble(&ptx, "sm_90", "conversions in a loop");
    #[cfg(feature = "amdgpu")]
    {
        let k = chain_kernel(&ctx, Target::GFX942, 3, 2).unwrap();
        k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
    }
}

#[test]
fn a_barrier_between_two_conversions_pays_for_the_reuse() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let (r, c) = (rows(Target::SM90), cols(Target::SM90));
    let offs = kb.arange(0, 4096, &r).unwrap();
    let px = kb.add(x, offs).unwrap();
    let v = kb.load(px, None, None).unwrap();
    let v = kb.convert_layout(v, &c).unwrap();
    kb.barrier().unwrap();
    let v = kb.convert_layout(v, &r).unwrap();
    kb.store(px, v, None).unwrap();
    let k = kb.finish().unwrap();
    assert_eq!(k.signature().shared_bytes as u64, scratch());
    // One barrier in each conversion and the user's: the user's fences the reuse.
    assert_eq!(cta_barriers(&k.ptx().unwrap()), 3);
}

#[test]
fn back_to_back_reductions_share_their_scratch() {
    let ctx = Context::new();
    let k = column_stats_kernel(&ctx, Target::SM90).unwrap();
    // 4 warps' partials of 64 columns of f32, once, not three times.
    assert_eq!(k.signature().shared_bytes, 4 * 64 * 4);
    let ptx = k.ptx().unwrap();
    // Each reduction: store, barrier, load; the second and third wait for the loads before.
    assert_eq!(cta_barriers(&ptx), 1 + 2 + 2, "{ptx}");
    common::assemble(&ptx, "sm_90", "column stats");
}

#[test]
fn a_freed_buffer_gives_its_bytes_to_the_next() {
    let ctx = Context::new();
    let k = free_reuse_kernel(&ctx, Target::SM90).unwrap();
    assert_eq!(k.signature().shared_bytes, 4096 * 4);
    let ptx = k.ptx().unwrap();
    // The user's two barriers, and one before the second buffer's stores (the first buffer's
    // loads may still run).
    assert_eq!(cta_barriers(&ptx), 3, "{ptx}");
    common::assemble(&ptx, "sm_90", "free and reuse");
    // Scratch takes freed buffer bytes too: a conversion after a freed buffer costs nothing more.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let buf = kb
        .alloc_shared(DType::F32, &[4096], SwizzledShared::new(1, 1, 1, &[0]))
        .unwrap();
    let offs = kb.arange(0, 4096, rows(Target::SM90)).unwrap();
    let px = kb.add(x, offs).unwrap();
    let v = kb.load(px, None, None).unwrap();
    kb.store_shared(buf, v).unwrap();
    kb.free_shared(buf).unwrap();
    let v = kb.convert_layout(v, cols(Target::SM90)).unwrap();
    let offs = kb.arange(0, 4096, cols(Target::SM90)).unwrap();
    let px = kb.add(x, offs).unwrap();
    kb.store(px, v, None).unwrap();
    let k = kb.finish().unwrap();
    assert_eq!(k.signature().shared_bytes, 4096 * 4);
}

#[test]
fn a_replicated_role_reuses_its_own_scratch_copies() {
    let ctx = Context::new();
    let k = replica_stats_kernel(&ctx).unwrap();
    // Two replicas' copies of one reduction's partials (4 warps × 64 columns × 4 bytes), not
    // two reductions'.
    assert_eq!(k.signature().shared_bytes, 2 * 1024);
    let ptx = k.ptx().unwrap();
    assert_eq!(
        cta_barriers(&ptx),
        0,
        "only the replicas' own barriers: {ptx}"
    );
    common::assemble(&ptx, "sm_90a", "replica stats");
}

#[test]
fn small_scratch_takes_only_bytes_that_owe_no_barrier() {
    // A scalar reduction's partials are 16 bytes: a second one gets new bytes rather than a
    // barrier more (softmax and layernorm reduce twice per row).
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let flat1 = Blocked::new(&[1], &[32], &[4], &[0]);
    let i = kb.arange(0, 128, &flat1).unwrap();
    let px = kb.add(x, i).unwrap();
    let v = kb.load(px, None, None).unwrap();
    let s = kb.reduce(v, 0, ReduceOp::Sum).unwrap();
    let m = kb.reduce(v, 0, ReduceOp::Max).unwrap();
    kb.store(x, s, None).unwrap();
    let p1 = kb.add(x, 1).unwrap();
    kb.store(p1, m, None).unwrap();
    let k = kb.finish().unwrap();
    assert_eq!(k.signature().shared_bytes, 2 * 16);
    assert_eq!(cta_barriers(&k.ptx().unwrap()), 2);
}

#[test]
fn bad_frees_and_uses_after_free_are_typed_errors() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let sw = SwizzledShared::new(1, 1, 1, &[1, 0]);
    let a = kb.alloc_shared(DType::F32, &[64, 64], &sw).unwrap();
    let view = kb.slice_shared(a, 0, 0, 32).unwrap();
    let e = kb.free_shared(view).unwrap_err();
    assert!(e.to_string().contains("is a view"), "{e}");
    let blocked = Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
    let t = kb.zeros((&blocked, [64, 64]), DType::F32).unwrap();
    let e = kb.free_shared(t).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    // Freed inside a loop body: it would be freed again on every iteration.
    let e = kb
        .for_range(0, 4, 1, &[], |kb, _, _| {
            kb.free_shared(a)?;
            Ok(vec![])
        })
        .unwrap_err();
    assert!(e.to_string().contains("where it was allocated"), "{e}");
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let a = kb.alloc_shared(DType::F32, &[64, 64], &sw).unwrap();
    let view = kb.slice_shared(a, 0, 0, 32).unwrap();
    kb.free_shared(a).unwrap();
    let e = kb.free_shared(a).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::FreedShared { .. })
            || e.to_string().contains("already freed"),
        "{e}"
    );
    let t = kb.zeros((&blocked, [64, 64]), DType::F32).unwrap();
    for e in [
        kb.store_shared(a, t).unwrap_err(),
        kb.load_shared(a, &blocked).unwrap_err(),
        kb.load_shared(view, &blocked).unwrap_err(),
        kb.reshape_shared(view, &[2048]).unwrap_err(),
    ] {
        assert!(matches!(e.cause(), CodegenError::FreedShared { .. }), "{e}");
        assert!(e.to_string().contains("shared<"), "{e}");
    }
    // A buffer made and freed in a loop body is fine, and so is reducing after it.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    kb.for_range(0, 4, 1, &[], |kb, _, _| {
        let b = kb.alloc_shared(DType::F32, &[64, 64], &sw)?;
        let t = kb.zeros((&blocked, [64, 64]), DType::F32)?;
        kb.store_shared(b, t)?;
        kb.barrier()?;
        let u = kb.load_shared(b, &blocked)?;
        kb.free_shared(b)?;
        let s = kb.reduce(u, 0, ReduceOp::Sum)?;
        let s = kb.reduce(s, 0, ReduceOp::Sum)?;
        kb.store(y, s, None)?;
        Ok(vec![])
    })
    .unwrap();
    let k = kb.finish().unwrap();
    // The buffer's bytes are held until the body closes (the next iteration writes them at its
    // top): the reductions' scratch comes after them.
    assert_eq!(k.signature().shared_bytes, 64 * 64 * 4 + 4 * 64 * 4);
    common::assemble(&k.ptx().unwrap(), "sm_90", "free in a loop body");
}

#[test]
fn shared_addresses_are_32_bit() {
    // NVPTX shared pointers are 32 bits (`-nvptx-short-ptr`, data layout `p3:32:32`): shared
    // accesses take `%r` addresses, with no 64-bit address arithmetic.
    let ctx = Context::new();
    let k = chain_kernel(&ctx, Target::SM90, 2, 2).unwrap();
    assert!(k.llvm_ir().contains("p3:32:32"), "{}", k.llvm_ir());
    let ptx = k.ptx().unwrap();
    let shared: Vec<&str> = ptx
        .lines()
        .filter(|l| l.contains("ld.shared") || l.contains("st.shared"))
        .collect();
    assert!(!shared.is_empty());
    assert!(
        shared
            .iter()
            .all(|l| l.contains("[%r") && !l.contains("[%rd")),
        "{ptx}"
    );
    // The array's address is taken in a 32-bit register.
    assert!(
        ptx.lines()
            .filter(|l| l.contains("weft_smem") && l.contains("mov."))
            .all(|l| l.contains(".b32") || l.contains(".u32")),
        "{ptx}"
    );
}

#[test]
fn a_buffer_freed_in_a_branch_serves_the_rest_of_the_branch() {
    // A branch body runs once: unlike a loop body, its freed bytes serve at once.
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let pid = kb.program_id(0).unwrap();
    let first = kb.lt(pid, 1).unwrap();
    let sw = SwizzledShared::new(1, 1, 1, &[1, 0]);
    let blocked = Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
    kb.if_then(first, |kb| {
        let mut t = kb.zeros((&blocked, [64, 64]), DType::F32)?;
        for _ in 0..2 {
            let b = kb.alloc_shared(DType::F32, &[64, 64], &sw)?;
            kb.store_shared(b, t)?;
            kb.barrier()?;
            t = kb.load_shared(b, &blocked)?;
            kb.free_shared(b)?;
        }
        let s = kb.reduce(t, 1, ReduceOp::Sum)?;
        let s = kb.reduce(s, 0, ReduceOp::Sum)?;
        kb.store(y, s, None)
    })
    .unwrap();
    let k = kb.finish().unwrap();
    // One buffer's bytes for both, and the final reduction's 16 bytes of partials past them
    // (too few to be worth the barrier reusing the buffer's bytes would owe).
    assert_eq!(k.signature().shared_bytes, 64 * 64 * 4 + 16);
    common::assemble(&k.ptx().unwrap(), "sm_90", "free in a branch");
}
