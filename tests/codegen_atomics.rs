//! Scalar atomics have Triton's meaning: one per program, not one per thread. The CTA's first
//! thread performs a scalar `atomic_rmw` / `atomic_cas` (under its mask) and every thread gets
//! the old value. Checked with a ticket counter over a ragged grid (each CTA draws one ticket,
//! its threads all see it), a masked counter, and a compare-and-swap that exactly one CTA wins,
//! on the CPU backend and, when there is one, on the GPU; and the PTX assembles, its atomics
//! acquire-release.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{AtomicOp, Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::Blocked;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const CTAS: u32 = 37;
const THREADS: usize = 128;

/// `counters[0]`: a ticket per CTA, each thread writing the ticket it saw to `seen[cta, tid]`;
/// `counters[1]`: incremented by the even CTAs only; `counters[2]`: claimed by compare-and-swap
/// from 0 to `cta + 1`, `won[cta]` = whether this CTA's swap found 0.
fn kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "tickets", 4).unwrap();
    let counters = kb.arg_ptr("counters", DType::I32, 16).unwrap();
    let seen = kb.arg_ptr("seen", DType::I32, 16).unwrap();
    let won = kb.arg_ptr("won", DType::I32, 16).unwrap();
    let pid = kb.program_id(0).unwrap();
    let ticket = kb.atomic_rmw(AtomicOp::Add, counters, 1, None).unwrap();
    let tid = kb
        .arange(0, THREADS as i32, Blocked::new(&[1], &[32], &[4], &[0]))
        .unwrap();
    let row = kb.mul(pid, THREADS as i32).unwrap();
    let at = kb.add(tid, row).unwrap();
    let p = kb.add(seen, at).unwrap();
    let t = kb.mul(tid, 0).unwrap();
    let t = kb.add(t, ticket).unwrap();
    kb.store(p, t, None).unwrap();

    let odd = kb.rem(pid, 2).unwrap();
    let even = kb.eq(odd, 0).unwrap();
    let c1 = kb.add(counters, 1).unwrap();
    kb.atomic_rmw(AtomicOp::Add, c1, 1, Some(even)).unwrap();

    let c2 = kb.add(counters, 2).unwrap();
    let me = kb.add(pid, 1).unwrap();
    let old = kb.atomic_cas(c2, 0, me, None).unwrap();
    let first = kb.eq(old, 0).unwrap();
    let first = kb.cast(first, DType::I32).unwrap();
    let p = kb.add(won, pid).unwrap();
    kb.store(p, first, None).unwrap();
    kb.finish().unwrap()
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = kernel(&ctx);
    let kernel = k.load_on::<B>(dev).unwrap();
    let n = CTAS as usize;
    let counters = dev.alloc_zeroed::<i32>(4).unwrap();
    let seen = dev.upload(&vec![-1i32; n * THREADS]).unwrap();
    let won = dev.upload(&vec![-1i32; n]).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&counters).ptr(&seen).ptr(&won);
    let cfg = LaunchConfig::for_kernel(CTAS, k.signature()).unwrap();
    // SAFETY: four counters, `seen` of CTAS × THREADS and `won` of CTAS words.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let on = B::KIND;
    let c = counters.to_vec().unwrap();
    assert_eq!(c[0], CTAS as i32, "{on}: one ticket per CTA");
    assert_eq!(
        c[1],
        CTAS.div_ceil(2) as i32,
        "{on}: masked off in odd CTAs"
    );
    let seen = seen.to_vec().unwrap();
    let mut tickets: Vec<i32> = seen.chunks(THREADS).map(|s| s[0]).collect();
    for (cta, s) in seen.chunks(THREADS).enumerate() {
        assert!(
            s.iter().all(|&x| x == s[0]),
            "{on}: CTA {cta}'s threads saw {s:?}"
        );
    }
    tickets.sort_unstable();
    assert_eq!(
        tickets,
        (0..CTAS as i32).collect::<Vec<_>>(),
        "{on}: tickets"
    );
    let won = won.to_vec().unwrap();
    assert_eq!(won.iter().filter(|&&w| w == 1).count(), 1, "{on}: {won:?}");
    let winner = won.iter().position(|&w| w == 1).unwrap();
    assert_eq!(c[2], winner as i32 + 1, "{on}: the winner's swap stuck");
}

#[test]
fn scalar_atomics_happen_once_per_program_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn scalar_atomics_happen_once_per_program_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    run::<weft::runtime::cuda::Cuda>(&dev);
}

/// The atomics are acquire-release at device scope on NVIDIA, as Triton's: LLVM emits a
/// read-modify-write as a relaxed `atom`, so each comes between two fences; a compare-and-swap
/// carries the ordering itself.
#[test]
fn the_ticket_kernel_assembles_with_ordered_atomics() {
    let ctx = Context::new();
    let ptx = kernel(&ctx).ptx().unwrap();
    common::assemble_without_spills(&ptx, "sm_90", "tickets");
    let lines: Vec<&str> = ptx.lines().map(str::trim).collect();
    let adds: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("atom.global.add"))
        .collect();
    assert_eq!(adds.len(), 2, "{ptx}");
    for i in adds {
        let fenced = |r: &mut dyn Iterator<Item = &&str>| {
            r.take_while(|l| !l.starts_with("atom"))
                .any(|l| l.starts_with("fence.acq_rel.gpu"))
        };
        assert!(
            fenced(&mut lines[..i].iter().rev()),
            "no fence before {}",
            lines[i]
        );
        assert!(
            fenced(&mut lines[i + 1..].iter()),
            "no fence after {}",
            lines[i]
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("atom.acq_rel.gpu.global.cas")),
        "{ptx}"
    );
}
