//! Forward attention (`kernels::attention_kernel`) built for sm_90a (ptxas, no spills checked by
//! ptxas -v on the GPU machine) and run against an f64 host reference: f16 and bf16, causal and
//! not, every schedule (serial, pipelined, ping-pong with warp roles), head dims 64, 128 and 256
//! (D256's ptxas report checked here for spills), several heads, on random data; O within a few ulps of its 16-bit type (`check::tol_attention`: P is rounded to 16 bits
//! before P·V), the log-sum-exp within 1e-3 relative to `max(|lse|, 1)`, and the poison past O and
//! lse intact.
//!
//! Written once over the runtime's `Backend` traits: the run is on the CPU backend (the
//! interpreter, emulating sm_90a, roles as cooperating tasks) on 2 heads of 40 rows (a masked key
//! tail and rows past the end; D256 on a head of 150, several key blocks a query block), and on a CUDA GPU with wgmma when there is one on up to 3 heads of
//! 384 and 2 of 1000. Without a GPU the GPU test prints `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::attention::{configs, configs_d256, Case, Run};
use common::check::{close, f32_bits, poison_intact, tol_attention, widen, Tol};
use common::launch::{load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{
    attention_kernel, attention_reference, AttentionConfig, AttentionSchedule,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend};

#[test]
fn attention_assembles_with_wgmma_from_registers() {
    let ctx = Context::new();
    for c in configs().into_iter().chain(configs_d256()) {
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        let ptx = k.ptx().unwrap();
        if let Ok(dir) = std::env::var("WEFT_DUMP_PTX") {
            let file = format!("{}_{}_d{}.ptx", k.signature().name, c.dtype, c.head_dim);
            std::fs::write(std::path::Path::new(&dir).join(file), &ptx).unwrap();
        }
        if c.schedule == AttentionSchedule::Pipelined {
            // As its docs say: P·V stays in flight across the loop's back edge, where the
            // carried accumulator is copied, and ptxas serialises the wgmmas.
            if let Some(log) = common::ptxas_log(&ptx, "sm_90a", &format!("{c:?}")) {
                assert!(log.contains("C7514"), "{c:?}: {log}");
            }
        } else {
            common::assemble(&ptx, "sm_90a", &format!("{c:?}"));
        }
        // S = Q Kᵀ from shared memory (D / 16 k-steps) and O += P V with P in registers
        // (block_n / 16 k-steps: 8 over 128 keys, 4 over D256's 64) per key block. Serial: once, in the loop (the last block's
        // mask is a branch inside it). Pipelined: S of the first block before the loop, P V of
        // the last after it. Ping-pong: block 0 (S only) and the last block (S and P V) peeled
        // off the loop, and P V of the last block after it.
        let s_steps = (c.head_dim / 16) as usize;
        let pv_steps = (c.block_n / 16) as usize;
        // Causal ping-pong with key blocks shorter than the query block (D256): the blocks
        // from the first the diagonal cuts run masked in a loop of their own (as with variable
        // lengths), a fourth copy.
        let (s_copies, pv_copies) = match c.schedule {
            AttentionSchedule::Serial => (1, 1),
            AttentionSchedule::Pipelined => (2, 2),
            AttentionSchedule::PingPong if c.causal && c.block_n < c.block_m => (4, 4),
            AttentionSchedule::PingPong => (3, 3),
        };
        assert_eq!(
            ptx.matches("wgmma.mma_async").count(),
            s_steps * s_copies + pv_steps * pv_copies,
            "{c:?}"
        );
        let from_regs = ptx
            .lines()
            .filter(|l| l.contains("wgmma.mma_async") && l.contains("}, {"))
            .count();
        assert_eq!(
            from_regs,
            pv_steps * pv_copies,
            "{c:?}: P · V takes A from registers"
        );
        // Pipelined and ping-pong: S of one block and P V of another are in flight together
        // while the softmax runs.
        assert_eq!(
            ptx.contains("wgmma.wait_group.sync.aligned 1;"),
            c.schedule != AttentionSchedule::Serial,
            "{c:?}"
        );
        // The epilogue of a block inside the sequence: TMA stores of O (one per 64 columns).
        assert_eq!(
            ptx.matches("cp.async.bulk.tensor.2d.global.shared::cta")
                .count(),
            (c.head_dim / 64) as usize,
            "{c:?}"
        );
        if c.schedule == AttentionSchedule::PingPong {
            // The producer gives registers to the consumers (two of 240, or three of 160, each
            // without spills); turns pass through named barriers.
            assert!(ptx.contains("setmaxnreg.dec.sync.aligned.u32 24;"), "{c:?}");
            let regs = if c.block_m == 192 { 160 } else { 240 };
            let inc = format!("setmaxnreg.inc.sync.aligned.u32 {regs};");
            assert!(ptx.contains(&inc), "{c:?}");
            assert!(ptx.contains("bar.arrive"), "{c:?}");
            if c.block_m == 192 {
                common::assemble_without_spills(&ptx, "sm_90a", &format!("{c:?}"));
            }
        }
    }
    // A typed error names what is not supported.
    let mut c = AttentionConfig::new(DType::F16, false);
    c.head_dim = 96;
    let e = attention_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("head_dim 96"), "{e}");
}

/// Head dim 256 in every schedule, plain, grouped and with variable lengths (but ping-pong's):
/// ptxas reports no spills, and serialises no wgmma but the pipelined schedule's (as at D128).
/// D256 keeps 128 keys out (`block_n` 64, 32 for `Pipelined`, set by `with_head_dim`), and
/// ping-pong refuses variable lengths there for its registers, each with a typed error.
#[test]
fn head_dim_256_assembles_without_spills() {
    let ctx = Context::new();
    let mut kernels = Vec::new();
    for c in configs_d256() {
        let packed = AttentionConfig { varlen: true, ..c };
        let mut variants = vec![c, AttentionConfig { kv_group: 4, ..c }];
        if c.schedule == AttentionSchedule::PingPong {
            let e = attention_kernel(&ctx, Target::SM90A, packed).unwrap_err();
            assert!(e.to_string().contains("ptxas spills"), "{e}");
        } else {
            variants.push(packed);
        }
        for c in variants {
            let ptx = attention_kernel(&ctx, Target::SM90A, c)
                .unwrap()
                .ptx()
                .unwrap();
            kernels.push((c, ptx));
        }
    }
    // ptxas on every core (a panic in one check fails the test).
    let check = |(c, ptx): &(AttentionConfig, String)| {
        let what = format!("{c:?}");
        if c.schedule != AttentionSchedule::Pipelined {
            common::assemble_without_spills(ptx, "sm_90a", &what);
        } else if let Some(log) = common::ptxas_log_with(ptx, "sm_90a", &["-v"], &what) {
            assert!(log.contains("C7514"), "{what}: {log}");
            let none = "0 bytes spill stores, 0 bytes spill loads";
            assert!(log.contains(none), "{what}: {log}");
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = kernels.len().div_ceil(cores);
    std::thread::scope(|s| {
        for part in kernels.chunks(per) {
            s.spawn(move || part.iter().for_each(check));
        }
    });
    let plain = AttentionConfig::new(DType::F16, false);
    let c = AttentionConfig {
        head_dim: 256,
        ..plain
    };
    let e = attention_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("block_n 128"), "{e}");
    // The schedule set after the head dim keeps the serial schedule's 64 keys: too many.
    let c = AttentionConfig {
        schedule: AttentionSchedule::Pipelined,
        ..plain.with_head_dim(256)
    };
    let e = attention_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(
        e.to_string().contains("block_n 64: 32 for Pipelined"),
        "{e}"
    );
}

/// Every configuration on `shapes` (heads, seq): multiples of the block and odd lengths (masked
/// key tails, rows past the end unstored). `WEFT_ATTENTION_SCHEDULE=PingPong` (etc.) runs one
/// schedule (under compute-sanitizer).
fn attention_matches_the_host<B: Backend>(
    dev: &B::Device,
    configs: &[AttentionConfig],
    shapes: &[(usize, usize)],
) {
    let ctx = Context::new();
    let only = std::env::var("WEFT_ATTENTION_SCHEDULE").ok();
    for &c in configs {
        if only
            .as_ref()
            .is_some_and(|s| *s != format!("{:?}", c.schedule))
        {
            continue;
        }
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        let kernel = load::<B>(dev, &k, &format!("{c:?}"));
        for &(heads, seq) in shapes {
            let what = format!("{c:?} heads {heads} seq {seq}");
            let d = c.head_dim as usize;
            let mut rng = Rng(heads as u64 * 1000 + seq as u64);
            let n = heads * seq * d;
            // Inputs rounded to the 16-bit type first, so the reference sees what the kernel sees.
            let round = |x: f32| match c.dtype {
                DType::F16 => f16::from_f32(x).to_f32(),
                _ => bf16::from_f32(x).to_f32(),
            };
            let mut gen =
                |n: usize| -> Vec<f32> { (0..n).map(|_| round(rng.f32() / 2.0)).collect() };
            let (q, kk, v) = (gen(n), gen(n), gen(n));
            let scale = 1.0 / (d as f64).sqrt();
            let (want_o, want_lse) =
                attention_reference(&q, &kk, &v, heads, seq, d, scale, c.causal);
            let lse = poisoned::<B, f32>(dev, heads * seq);
            let case = Case::fixed(c, heads, seq);
            let run = Run::<B> {
                dev,
                kernel: &kernel,
                case: &case,
                scale,
                what: &what,
            };
            let got: Vec<f64> = match c.dtype {
                DType::F16 => run.run([&q, &kk, &v], &lse, f16::from_f32, f16::to_f64),
                _ => run.run([&q, &kk, &v], &lse, bf16::from_f32, bf16::to_f64),
            };
            // Nothing past the last row was written (the poison stays NaN).
            assert!(got[n..].iter().all(|x| x.is_nan()), "{what}: wrote past O");
            let want_o: Vec<f64> = want_o.iter().map(|&x| f64::from(x)).collect();
            let max_err = close(&got[..n], &want_o, tol_attention(c.dtype), &what);
            let got_lse = lse.to_vec().unwrap();
            poison_intact(&got_lse, heads * seq, f32_bits, &format!("{what} lse"));
            let want_lse: Vec<f64> = want_lse.iter().map(|&x| f64::from(x)).collect();
            let lse_bound = Tol {
                rel: 1e-3,
                abs: 1e-3,
            };
            let max_lse = close(
                &widen(&got_lse),
                &want_lse,
                lse_bound,
                &format!("{what} lse"),
            );
            println!(
                "{what} on {}: ok, max abs error O {max_err:.2e}, lse {max_lse:.2e}",
                B::KIND
            );
        }
    }
}

#[test]
fn attention_matches_the_host_in_the_interpreter() {
    let cpu = common::gpu::cpu();
    attention_matches_the_host::<weft::runtime::cpu::Cpu>(&cpu, &configs(), &[(2, 40)]);
}

#[cfg(feature = "cuda")]
#[test]
fn attention_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let shapes = [(1, 128), (3, 384), (2, 1000), (3, 77), (2, 300)];
        attention_matches_the_host::<weft::runtime::cuda::Cuda>(dev, &configs(), &shapes);
    });
}

/// D256 on one head of 150 rows: two query blocks (the second 22 rows, the rest past the end
/// unstored), key blocks of 64 (32 pipelined) with a masked tail, and causal diagonals that cut
/// two (four) key blocks of each query block. Half the combinations, so that each type meets
/// each mask and schedule once (the interpreter is slow at D256): f16 serial and pipelined and
/// bf16 ping-pong unmasked, f16 ping-pong and bf16 serial and pipelined causal.
#[test]
fn head_dim_256_matches_the_host_in_the_interpreter() {
    let cpu = common::gpu::cpu();
    let half: Vec<AttentionConfig> = configs_d256()
        .into_iter()
        .filter(|c| {
            (c.schedule == AttentionSchedule::PingPong) == (c.causal == (c.dtype == DType::F16))
        })
        .collect();
    attention_matches_the_host::<weft::runtime::cpu::Cpu>(&cpu, &half, &[(1, 150)]);
}

#[cfg(feature = "cuda")]
#[test]
fn head_dim_256_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let shapes = [(1, 128), (3, 384), (2, 1000), (3, 77), (2, 300)];
        attention_matches_the_host::<weft::runtime::cuda::Cuda>(dev, &configs_d256(), &shapes);
    });
}
