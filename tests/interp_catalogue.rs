//! No false alarm: every shipped kernel (`kernels::EXAMPLE_KERNELS`, at the configuration its
//! example runs) runs in the interpreter (through the CPU backend) on a small ragged problem with memcheck, racecheck,
//! initcheck and the mbarrier deadlock check on, and finishes without a finding, having written
//! every element of its outputs. (The suites check the values; this checks the sanitizers stay
//! quiet on correct kernels.) Kernels with warp roles (the warp-specialised GEMM, ping-pong
//! attention) run too, their roles as cooperating tasks.
#![cfg(feature = "llvm")]

mod common;

use common::catalogue::{problem, run, target_of};
use common::gpu::cpu;
use common::rng::Rng;
use weft::codegen::kernels::{example_kernel, EXAMPLE_KERNELS};
use weft::codegen::Context;
use weft::runtime::cpu::Cpu;

#[test]
fn every_shipped_kernel_runs_with_no_sanitizer_finding() {
    let ctx = Context::new();
    let mut rng = Rng(2026);
    let dev = cpu();
    let mut ran = 0;
    for name in EXAMPLE_KERNELS {
        let k =
            example_kernel(&ctx, name, target_of(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = problem(name, &mut rng);
        let outs = run::<Cpu>(&dev, &k, &p).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, out) in outs.iter().enumerate() {
            let unwritten = out.unwritten();
            assert_eq!(
                unwritten, 0,
                "{name}: output {i}: {unwritten} elements never written"
            );
        }
        ran += 1;
    }
    // Every kernel ran, the warp-specialised ones (gemm_ws, attention_pp) as cooperating tasks.
    assert_eq!(ran, EXAMPLE_KERNELS.len());
}
