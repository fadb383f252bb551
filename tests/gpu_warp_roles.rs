//! Warp specialisation: a 12-warp kernel split into a producer warpgroup (register budget 40)
//! and a consumer role of two replicated warpgroups (232), which hand shared memory over through
//! a named barrier and reduce across their own warps with their own barriers. Built for sm_90a
//! (ptxas, `setmaxnreg` in the PTX) and run on the GPU: every thread's role, replica and relative
//! index land where they should, and each replica's sum is the host's. The typed errors are
//! checked on the CPU, and the same launches run in the interpreter (the CPU backend), where the
//! roles are cooperating tasks.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{
    CodegenError, Context, DType, Kernel, KernelBuilder, ReduceOp, Result, Target, WarpRole,
};
use weft::layout::encoding::{Blocked, NvidiaMma, SwizzledShared};

const N: i32 = 128;

/// `ids[0..128)` = 1000 + i from the producer's thread i, `ids[128 + 128 r + i]` =
/// 2000 + 1000 r + i from consumer replica r's thread i; `sums[r]` = Σ (2·x + r) over 128 values
/// the producer staged in shared memory (doubled) before the named barrier.
fn probe_kernel(ctx: &Context) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "roles_probe", 12)?;
    let ids = kb.arg_ptr("ids", DType::I32, 16)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let sums = kb.arg_ptr("sums", DType::F32, 16)?;
    let roles = kb.warp_roles(&[
        WarpRole::new(4).max_regs(40),
        WarpRole::new(4).replicas(2).max_regs(232),
    ])?;
    let handoff = kb.alloc_named_barriers(1, 12)?;
    let flat = Blocked::new(&[1], &[32], &[4], &[0]);
    let unswizzled = SwizzledShared::new(1, 1, 1, &[0]);
    let staged = kb.alloc_shared(DType::F32, &[N as u64], &unswizzled)?;
    kb.in_role(roles[0], |kb| {
        assert_eq!(kb.num_warps(), 4);
        let i = kb.arange(0, N, flat.clone())?;
        let v = kb.add(i, 1000)?;
        let p = kb.add(ids, i)?;
        kb.store(p, v, None)?;
        let px = kb.add(x, i)?;
        let xv = kb.load(px, None, None)?;
        let twice = kb.mul(xv, 2.0)?;
        kb.store_shared(staged, twice)?;
        kb.named_barrier_arrive(handoff, 0)
    })?;
    kb.in_role(roles[1], |kb| {
        let r = kb.role_replica()?;
        let i = kb.arange(0, N, flat.clone())?;
        let base = kb.mul(r, 1000)?;
        let base = kb.add(base, 2000)?;
        let v = kb.add(i, base)?;
        let row = kb.mul(r, N)?;
        let row = kb.add(row, N)?;
        let at = kb.add(i, row)?;
        let p = kb.add(ids, at)?;
        kb.store(p, v, None)?;
        kb.named_barrier_sync(handoff, 0)?;
        // Blocked over the replica's 4 warps: the sum crosses warps through shared scratch and
        // the replica's own barrier.
        // Each replica adds its number to every value, so replicas sharing scratch would mix
        // their partial sums.
        let t = kb.load_shared(staged, flat.clone())?;
        let rf = kb.cast(r, DType::F32)?;
        let t = kb.add(t, rf)?;
        let s = kb.reduce(t, 0, ReduceOp::Sum)?;
        let ps = kb.add(sums, r)?;
        kb.store(ps, s, None)
    })?;
    kb.finish()
}

#[test]
fn roles_emit_register_budgets_and_named_barriers_and_assemble() {
    let ctx = Context::new();
    let k = probe_kernel(&ctx).unwrap();
    assert_eq!(k.signature().threads_per_block, Some(384));
    // The staged 128 floats, then the cross-warp sum's scratch (4 partials of 4 bytes) once
    // per consumer replica.
    assert_eq!(k.signature().shared_bytes, 512 + 2 * 16);
    let ptx = k.ptx().unwrap();
    if let Ok(path) = std::env::var("WEFT_DUMP_PTX") {
        std::fs::write(path, &ptx).unwrap();
    }
    // 384 threads get 168 registers each at launch: the producer gives some up, the consumers
    // take more.
    assert!(ptx.contains(".maxnreg 168"), "{ptx}");
    assert!(ptx.contains("setmaxnreg.dec.sync.aligned.u32 40;"), "{ptx}");
    assert!(
        ptx.contains("setmaxnreg.inc.sync.aligned.u32 232;"),
        "{ptx}"
    );
    // The handoff's id is a constant (1, the first after the CTA's barrier 0).
    assert!(ptx.contains("bar.arrive 1, 384;"), "{ptx}");
    // The handoff barrier counts all 384 threads; the replicas' own barriers 128 each.
    assert!(ptx.contains(", 384;"), "{ptx}");
    assert!(ptx.contains(", 128;"), "{ptx}");
    assert!(
        !ptx.contains("bar.sync \t0;") && !ptx.contains("barrier.sync \t0;"),
        "{ptx}"
    );
    common::assemble(&ptx, "sm_90a", "roles_probe");
}

#[test]
fn roles_are_checked() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 12).unwrap();
    let msg = |e: CodegenError| e.to_string();
    // Outside a role, a 12-warp kernel has no tile layouts.
    let flat = Blocked::new(&[1], &[32], &[4], &[0]);
    let e = msg(kb.arange(0, N, flat.clone()).unwrap_err());
    assert!(e.contains("only inside warp roles"), "{e}");
    let e = msg(kb
        .warp_roles(&[WarpRole::new(4), WarpRole::new(4)])
        .unwrap_err());
    assert!(e.contains("take 8 warps, the kernel has 12"), "{e}");
    let e = msg(kb
        .warp_roles(&[
            WarpRole::new(2),
            WarpRole::new(4).replicas(2),
            WarpRole::new(2),
        ])
        .unwrap_err());
    assert!(e.contains("starts on one"), "{e}");
    let e = msg(kb
        .warp_roles(&[WarpRole::new(4).max_regs(100), WarpRole::new(8)])
        .unwrap_err());
    assert!(e.contains("steps of 8"), "{e}");
    let e = msg(kb
        .warp_roles(&[
            WarpRole::new(4).max_regs(240),
            WarpRole::new(8).max_regs(240),
        ])
        .unwrap_err());
    assert!(e.contains("exceed the register file"), "{e}");
    let e = msg(kb
        .warp_roles(&[WarpRole::new(3), WarpRole::new(9)])
        .unwrap_err());
    assert!(e.contains("power of two"), "{e}");
    assert!(kb.role_replica().is_err());
    let roles = kb
        .warp_roles(&[
            WarpRole::new(4).max_regs(24),
            WarpRole::new(8).max_regs(240),
        ])
        .unwrap();
    assert!(
        kb.warp_roles(&[WarpRole::new(12)]).is_err(),
        "declared once"
    );
    assert_eq!((roles[1].first_warp(), roles[1].warps()), (4, 8));
    let e = msg(kb
        .in_role(roles[0], |kb| {
            let e = kb.alloc_mbarriers(1, 1).unwrap_err().to_string();
            assert!(e.contains("before the roles"), "{e}");
            // Inside, tiles are laid out over the role's 4 warps.
            kb.arange(0, N, flat.clone())?;
            kb.in_role(roles[1], |_| Ok(()))
        })
        .unwrap_err());
    assert!(e.contains("do not nest"), "{e}");

    // A role of another kernel; budgets need sm_90a; too many named barriers.
    let mut other = KernelBuilder::new(&ctx, Target::SM90A, "o", 12).unwrap();
    let theirs = other
        .warp_roles(&[WarpRole::new(4), WarpRole::new(8)])
        .unwrap();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k2", 12).unwrap();
    kb.warp_roles(&[WarpRole::new(4), WarpRole::new(8)])
        .unwrap();
    assert!(kb.in_role(theirs[0], |_| Ok(())).is_err());
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k3", 12).unwrap();
    let e = msg(kb
        .warp_roles(&[WarpRole::new(4).max_regs(24), WarpRole::new(8)])
        .unwrap_err());
    assert!(e.contains("sm_90a"), "{e}");
    kb.alloc_named_barriers(15, 12).unwrap();
    let e = msg(kb.alloc_named_barriers(1, 12).unwrap_err());
    assert!(e.contains("barrier ids"), "{e}");
    // A wgmma accumulator inside an 8-warp role spans the role's two warpgroups.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k4", 12).unwrap();
    let roles = kb
        .warp_roles(&[WarpRole::new(4), WarpRole::new(8)])
        .unwrap();
    kb.in_role(roles[1], |kb| {
        let acc = NvidiaMma::hopper(&[8, 1], 64, 16);
        kb.zeros((&acc, [128u64, 64]), DType::F32)?;
        Ok(())
    })
    .unwrap();
    kb.finish().unwrap();
}

/// Launches the probe `rounds` times on `dev` with random inputs: every role, replica and sum as
/// on the host.
fn roles_run_their_own_code<B: weft::runtime::Backend>(dev: &B::Device, rounds: usize) {
    use common::rng::Rng;
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};
    let ctx = Context::new();
    let k = probe_kernel(&ctx).unwrap();
    let kernel = k.load_on::<B>(dev).unwrap();
    let mut rng = Rng(12);
    for round in 0..rounds {
        let x: Vec<f32> = (0..N)
            .map(|_| (rng.next_u64() % 1000) as f32 / 8.0 - 60.0)
            .collect();
        let dx = dev.upload(&x).unwrap();
        let mut ids = dev.alloc::<i32>(3 * N as usize).unwrap();
        ids.fill_bytes(0xFF).unwrap();
        let sums = dev.alloc::<f32>(2).unwrap();
        let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&ids).ptr(&dx).ptr(&sums);
        // SAFETY: writes ids[0..384) and sums[0..2), reads x[0..128).
        unsafe { dev.stream().launch(&kernel, &cfg, &args).unwrap() };
        dev.stream().synchronize().unwrap();
        let got = ids.to_vec().unwrap();
        let want: Vec<i32> = (0..3 * N)
            .map(|t| match t / N {
                0 => 1000 + t,
                r => 2000 + 1000 * (r - 1) + t % N,
            })
            .collect();
        assert_eq!(got, want, "round {round}");
        let doubled: f64 = x.iter().map(|&v| 2.0 * f64::from(v)).sum();
        for (r, s) in sums.to_vec().unwrap().iter().enumerate() {
            let want_sum = doubled + (r * N as usize) as f64;
            assert!(
                (f64::from(*s) - want_sum).abs() < 1e-3,
                "round {round} replica {r}: {s} vs {want_sum}"
            );
        }
    }
    println!(
        "warp roles on {}: {rounds} launches, every role, replica and sum as on the host",
        B::KIND
    );
}

/// The roles as cooperating tasks of the interpreter (the CPU backend).
#[test]
fn roles_run_their_own_code_in_the_interpreter() {
    roles_run_their_own_code::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), 3);
}

/// No false alarm and the same results when the interpreter switches tasks at random points.
#[test]
fn roles_run_their_own_code_under_random_schedules() {
    use weft::codegen::interp::{Options, Schedule};
    for seed in 0..8 {
        let options = Options {
            schedule: Schedule::Random { seed },
        };
        let dev = weft::runtime::cpu::Device::with_options(Target::SM90A, options).unwrap();
        roles_run_their_own_code::<weft::runtime::cpu::Cpu>(&dev, 1);
    }
}

#[cfg(feature = "cuda")]
#[test]
fn roles_run_their_own_code_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    roles_run_their_own_code::<weft::runtime::cuda::Cuda>(&dev, 20);
}
