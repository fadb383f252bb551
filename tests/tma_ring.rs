//! `parts::TmaRing`'s stage and phase arithmetic, run in a kernel (CPU backend always, a GPU
//! when there is one) and compared with the host's `(it % stages, (it / stages) & 1)` for rings
//! of 1 to 5 stages: `stage_of` (a mask for powers of two, a remainder otherwise), the carried
//! `advance`, `next_stage` / `next_phase` apart, and `previous`. And `with_lead_barriers`: the
//! caller's barriers and the ring's full ones are one allocation, one initialisation, and a
//! count that overflows is a typed error.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::kernels::parts::TmaRing;
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// Fills of the ring walked: several wraps of every ring, an odd count.
const FILLS: i32 = 23;
/// Values written per fill.
const PER_FILL: usize = 7;

/// For fill `it` of a `stages`-deep ring, `out[7 it ..]` gets: `stage_of(it)` (2 values), the
/// `(stage, phase)` carried through `advance` from (0, 0) (2), the pair carried through
/// `next_stage` and `next_phase` (2), and `previous` of the carried stage (1).
fn kernel(ctx: &Context, stages: u32) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "ring_arith", 4).unwrap();
    let out = kb.arg_ptr("out", DType::I32, 4).unwrap();
    let ring = TmaRing::new(&mut kb, stages, 16, None).unwrap();
    let zero = kb.i32(0).unwrap();
    kb.for_range(0, FILLS, 1, &[zero, zero, zero, zero], |kb, it, c| {
        let (st, ph) = ring.stage_of(kb, it)?;
        let (st_n, ph_n) = ring.advance(kb, c[0], c[1])?;
        let st_s = ring.next_stage(kb, c[2])?;
        let ph_s = ring.next_phase(kb, c[2], c[3])?;
        let prev = ring.previous(kb, c[0])?;
        let base = kb.mul(it, PER_FILL as i32)?;
        for (i, v) in [st, ph, c[0], c[1], c[2], c[3], prev]
            .into_iter()
            .enumerate()
        {
            let at = kb.add(base, i as i32)?;
            let p = kb.add(out, at)?;
            kb.store(p, v, None)?;
        }
        Ok(vec![st_n, ph_n, st_s, ph_s])
    })
    .unwrap();
    kb.finish().unwrap()
}

/// What the kernel should write for fill `it` of a `stages`-deep ring.
fn want(stages: i32, it: i32) -> [i32; PER_FILL] {
    let (st, ph) = (it % stages, (it / stages) & 1);
    let prev = (st + stages - 1) % stages;
    [st, ph, st, ph, st, ph, prev]
}

fn run<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    for stages in 1..=5u32 {
        let k = kernel(&ctx, stages);
        let kernel = k.load_on::<B>(dev).unwrap();
        let out = dev.upload(&vec![-1i32; FILLS as usize * PER_FILL]).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&out);
        let cfg = LaunchConfig::for_kernel(1, k.signature()).unwrap();
        // SAFETY: one program writes out[0 .. FILLS * PER_FILL), which is allocated.
        unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
        let got = out.to_vec().unwrap();
        for it in 0..FILLS {
            let at = it as usize * PER_FILL;
            assert_eq!(
                got[at..at + PER_FILL],
                want(stages as i32, it),
                "{}: {stages} stages, fill {it} (stage_of, advance, next_*, previous)",
                B::KIND
            );
        }
    }
}

#[test]
fn stage_and_phase_match_the_host_in_the_interpreter() {
    run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn stage_and_phase_match_the_host_on_the_gpu() {
    if let Some(dev) = common::gpu::device() {
        run::<weft::runtime::cuda::Cuda>(&dev);
    }
}

/// A two-stage ring steps its stage with one xor and a power-of-two ring takes its stage with a
/// mask: no remainder, no select for the stage.
#[test]
fn a_ring_of_two_flips_its_stage_with_xor() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "ring_two", 4).unwrap();
    let out = kb.arg_ptr("out", DType::I32, 4).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    let ring = TmaRing::new(&mut kb, 2, 16, None).unwrap();
    let st = ring.next_stage(&mut kb, n).unwrap();
    let (masked, _) = ring.stage_of(&mut kb, n).unwrap();
    for (i, v) in [st, masked].into_iter().enumerate() {
        let p = kb.add(out, i as i32).unwrap();
        kb.store(p, v, None).unwrap();
    }
    let ir = kb.finish().unwrap().llvm_ir();
    assert!(ir.contains("xor i32"), "{ir}");
    assert!(ir.contains("and i32"), "{ir}");
    assert!(!ir.contains("srem"), "{ir}");
    assert!(!ir.contains("select i1"), "{ir}");
}

/// Barriers a kernel initialises: the count of `fence.mbarrier_init` in its PTX (one per
/// allocation, each followed by a CTA barrier).
fn inits(lead_with_ring: bool) -> (usize, usize) {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "lead", 4).unwrap();
    let q = if lead_with_ring {
        let (bars, _) = TmaRing::with_lead_barriers(&mut kb, 1, 2, 64, Some(128)).unwrap();
        kb.mbarrier_at(bars, 0).unwrap()
    } else {
        let q = kb.alloc_mbarriers(1, 1).unwrap();
        TmaRing::new(&mut kb, 2, 64, Some(128)).unwrap();
        q
    };
    kb.mbarrier_arrive(q).unwrap();
    let ptx = kb.finish().unwrap().ptx().unwrap();
    let fences = ptx.matches("fence.mbarrier_init").count();
    let barriers = ptx.matches("mbarrier.init.shared").count();
    (fences, barriers)
}

#[test]
fn lead_barriers_share_the_full_barriers_initialisation() {
    // Q's barrier, two full and two empty ones either way; one initialisation fewer with the
    // lead barrier in the ring's allocation.
    assert_eq!(inits(false), (3, 5));
    assert_eq!(inits(true), (2, 5));
}

#[test]
fn too_many_lead_barriers_are_a_typed_error() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "lead", 4).unwrap();
    let e = TmaRing::with_lead_barriers(&mut kb, u32::MAX, 2, 64, None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("lead barriers"), "{e}");
}
