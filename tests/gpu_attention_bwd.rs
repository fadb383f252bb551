//! Attention backward (`kernels::attention_bwd_*`: the delta pre-pass, dK/dV, dQ) fed by weft's
//! own forward (`attention_kernel`: its O and log-sum-exp), against an f64 host reference of the
//! gradients: f16 and bf16, D 64 and 128, causal and not, GQA (several query heads per KV head,
//! their dK and dV summed in the CTA), sequence lengths that are not multiples of the blocks.
//! Each gradient within 0.4% (f16) or 1.6% (bf16) of its largest magnitude (P and dS are rounded to
//! the input type before their products, as in FlashAttention), delta within an f32 sum's bound
//! of `rowsum(dO ⊙ O)` over the forward's O, and the poison past every output intact. Run twice,
//! the gradients are bit-identical (no atomics: deterministic).
//!
//! Both engines: `mma.sync` with `cp.async` (`AttentionBwdConfig::new`) and wgmma with TMA and warp
//! roles (`AttentionBwdConfig::hopper`, sm_90a: ptxas must report no spills and no serialised
//! wgmma), on the same cases.
//!
//! Written once over the runtime's `Backend` traits: in the interpreter on small shapes, and on a
//! CUDA GPU when there is one on larger ones. Without a GPU the GPU test prints `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::attention::{with_forward_args, Sequences};
use common::attention_bwd::{gradient_error, GradInputs};
use common::check::{f32_bits, poison_intact, sum_bound};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{
    attention_bwd_delta_kernel, attention_bwd_dkdv_kernel, attention_bwd_dq_kernel,
    attention_bwd_reference, attention_kernel, delta_grid, AttentionBwdConfig, AttentionConfig,
    BwdEngine,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, DeviceElem, KernelArgs};

/// One problem: `heads_q` query heads (batch and heads together) of `seq` rows.
#[derive(Debug, Clone, Copy)]
struct Case {
    c: AttentionBwdConfig,
    heads_q: usize,
    seq: usize,
}

#[test]
fn backward_kernels_assemble_with_mma() {
    let ctx = Context::new();
    for d in [64, 128] {
        for causal in [false, true] {
            let c = AttentionBwdConfig::new(DType::BF16, d, 4, causal);
            for k in [
                attention_bwd_delta_kernel(&ctx, Target::SM80, c).unwrap(),
                attention_bwd_dkdv_kernel(&ctx, Target::SM80, c).unwrap(),
                attention_bwd_dq_kernel(&ctx, Target::SM80, c).unwrap(),
            ] {
                let ptx = k.ptx().unwrap();
                common::assemble(&ptx, "sm_80", &format!("{} {c:?}", k.signature().name));
                // No float atomics anywhere: every gradient row has one writer.
                assert!(!ptx.contains("atom."), "{c:?}");
                if k.signature().name != "attn_bwd_delta" {
                    assert!(ptx.contains("mma.sync.aligned.m16n8k16"), "{c:?}");
                    assert!(ptx.contains("cp.async.cg.shared.global"), "{c:?}");
                }
            }
        }
    }
    let c = AttentionBwdConfig::new(DType::F32, 64, 1, false);
    let e = attention_bwd_dq_kernel(&ctx, Target::SM80, c).unwrap_err();
    assert!(e.to_string().contains("dtype f32"), "{e}");
    let c = AttentionBwdConfig::new(DType::F16, 96, 1, false);
    let e = attention_bwd_dkdv_kernel(&ctx, Target::SM80, c).unwrap_err();
    assert!(e.to_string().contains("head_dim 96"), "{e}");
}

#[test]
fn wgmma_backward_kernels_assemble_without_spills() {
    let ctx = Context::new();
    for d in [64, 128] {
        for causal in [false, true] {
            let c = AttentionBwdConfig::hopper(DType::BF16, d, 4, causal);
            for k in [
                attention_bwd_dkdv_kernel(&ctx, Target::SM90A, c).unwrap(),
                attention_bwd_dq_kernel(&ctx, Target::SM90A, c).unwrap(),
            ] {
                let ptx = k.ptx().unwrap();
                let sig = k.signature();
                let what = format!("{} {c:?} ({} shared bytes)", sig.name, sig.shared_bytes);
                if let Ok(dir) = std::env::var("WEFT_DUMP_PTX") {
                    let file = format!("{}_d{d}.ptx", k.signature().name);
                    std::fs::write(std::path::Path::new(&dir).join(file), &ptx).unwrap();
                }
                common::assemble_without_spills(&ptx, "sm_90a", &what);
                assert!(!ptx.contains("atom."), "{what}");
                assert!(!ptx.contains("mma.sync"), "{what}");
                // Per step and consumer: S and dP from shared memory (D / 16 k-steps each), then
                // dK (and dV) with A from registers (block_m / 16 k-steps each).
                let (ks, km) = ((d / 16) as usize, (c.block_m / 16) as usize);
                let grads = if k.signature().name.contains("dkdv") {
                    2
                } else {
                    1
                };
                let all = ptx.matches("wgmma.mma_async").count();
                let from_regs = ptx
                    .lines()
                    .filter(|l| l.contains("wgmma.mma_async") && l.contains("}, {"))
                    .count();
                assert_eq!(
                    (all, from_regs),
                    (2 * ks + grads * km, grads * km),
                    "{what}"
                );
                assert!(ptx.contains("cp.async.bulk.tensor"), "{what}");
            }
        }
    }
    // The engine's tiles are checked before anything is built.
    let c = AttentionBwdConfig {
        num_warps: 8,
        ..AttentionBwdConfig::hopper(DType::F16, 128, 1, false)
    };
    let e = attention_bwd_dkdv_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("num_warps 8"), "{e}");
    let c = AttentionBwdConfig {
        block_m: 48,
        ..AttentionBwdConfig::hopper(DType::F16, 64, 1, false)
    };
    let e = attention_bwd_dq_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("block_m 48"), "{e}");
    // wgmma needs sm_90a: a typed error on sm_80.
    let c = AttentionBwdConfig::hopper(DType::F16, 64, 1, false);
    assert!(attention_bwd_dq_kernel(&ctx, Target::SM80, c).is_err());
}

/// [`gradient_error`], after checking it stays under `rel`.
fn within(got: &[f64], want: &[f64], rel: f64, what: &str) -> f64 {
    let err = gradient_error(got.iter().copied(), want);
    assert!(err <= rel, "{what}: max error over max |want| {err:.3e}");
    err
}

fn backward_matches_the_host<B: Backend>(dev: &B::Device, cases: &[Case]) {
    for case in cases {
        match case.c.dtype {
            DType::F16 => run_case::<B, f16>(dev, case, f16::from_f32, f16::to_f64),
            _ => run_case::<B, bf16>(dev, case, bf16::from_f32, bf16::to_f64),
        }
    }
}

fn run_case<B: Backend, T: DeviceElem>(
    dev: &B::Device,
    case: &Case,
    to: impl Fn(f32) -> T + Copy,
    from: impl Fn(T) -> f64 + Copy,
) {
    let ctx = Context::new();
    let (c, hq, seq) = (case.c, case.heads_q, case.seq);
    let (d, group) = (c.head_dim as usize, c.group as usize);
    let hkv = hq / group;
    let what = format!("{case:?}");
    let mut rng = Rng((hq * 1000 + seq * 7 + d) as u64);
    let round = |x: f32| from(to(x)) as f32;
    let mut gen = |n: usize| -> Vec<f32> { (0..n).map(|_| round(rng.f32() / 2.0)).collect() };
    let (q, k, v, d_o) = (
        gen(hq * seq * d),
        gen(hkv * seq * d),
        gen(hkv * seq * d),
        gen(hq * seq * d),
    );
    let scale = 1.0 / (d as f64).sqrt();
    let up = |x: &[f32]| {
        dev.upload(&x.iter().map(|&y| to(y)).collect::<Vec<_>>())
            .unwrap()
    };
    let (dq_in, dk_in, dv_in, ddo) = (up(&q), up(&k), up(&v), up(&d_o));

    // The forward (per query head: K and V repeated over the group) gives O and lse.
    let rep = |x: &[f32]| -> Vec<f32> {
        (0..hq)
            .flat_map(|h| x[(h / group) * seq * d..(h / group + 1) * seq * d].to_vec())
            .collect()
    };
    let (k_rep, v_rep) = (up(&rep(&k)), up(&rep(&v)));
    let mut fc = AttentionConfig::new(c.dtype, c.causal);
    fc.head_dim = c.head_dim;
    let fwd = load::<B>(
        dev,
        &attention_kernel(&ctx, Target::SM90A, fc).unwrap(),
        &what,
    );
    let rows = (hq * seq) as u64;
    let o = dev.alloc::<T>(hq * seq * d).unwrap();
    let lse = dev.alloc::<f32>(hq * seq).unwrap();
    let bufs = [&dq_in, &k_rep, &v_rep, &o];
    let seqs = Sequences::fixed(hq, seq);
    with_forward_args::<B, T, ()>(dev, &fc, &seqs, bufs, &lse, scale, |args, grid| {
        // SAFETY: the forward reads Q, K, V through maps that cover them and writes O and lse.
        unsafe { launch::<B>(dev, &fwd, grid, args, &what) }
    })
    .unwrap_or_else(|e| panic!("{what}: the forward's arguments: {e}"));

    // delta = rowsum(dO ⊙ O), against the host over the forward's own O.
    let delta_k = attention_bwd_delta_kernel(&ctx, Target::SM90A, c).unwrap();
    let delta_k = load::<B>(dev, &delta_k, &what);
    let delta = poisoned::<B, f32>(dev, hq * seq);
    let mut args = KernelArgs::new();
    args.ptr(&o).ptr(&ddo).ptr(&delta).scalar((hq * seq) as i32);
    // SAFETY: reads O and dO of every row, writes delta of every row.
    unsafe { launch::<B>(dev, &delta_k, delta_grid(rows), &args, &what) };
    let o_host: Vec<f64> = o.to_vec().unwrap().into_iter().map(from).collect();
    let got_delta = delta.to_vec().unwrap();
    poison_intact(&got_delta, hq * seq, f32_bits, &format!("{what} delta"));
    for r in 0..hq * seq {
        let terms = (0..d).map(|t| f64::from(d_o[r * d + t]) * o_host[r * d + t]);
        let (want, abs) = terms.fold((0.0, 0.0), |(s, a), x| (s + x, a + f64::abs(x)));
        let err = (f64::from(got_delta[r]) - want).abs();
        assert!(
            err <= sum_bound(d, abs),
            "{what}: delta {r}: {} vs {want}",
            got_delta[r]
        );
    }

    let inputs = GradInputs::<B, T> {
        q: &dq_in,
        k: &dk_in,
        v: &dv_in,
        d_o: &ddo,
        lse: &lse,
        delta: &delta,
    };
    let grads = |dev: &B::Device| gradients::<B, T>(dev, &ctx, case, &inputs, from, &what);
    let got = grads(dev);
    let want = attention_bwd_reference(&q, &k, &v, &d_o, (hq, group), seq, d, scale, c.causal)
        .expect("inputs of their shapes");
    let rel = if c.dtype == DType::F16 { 4e-3 } else { 1.6e-2 };
    let mut errs = [0.0; 3];
    for (i, name) in ["dQ", "dK", "dV"].iter().enumerate() {
        errs[i] = within(&got[i], &want[i], rel, &format!("{what} {name}"));
    }
    // Deterministic: a second run gives the same bits.
    let again = grads(dev);
    for i in 0..3 {
        let same = got[i]
            .iter()
            .zip(&again[i])
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "{what}: gradient {i} differs between two runs");
    }
    println!(
        "{what} on {}: ok, max error / max |want|: dQ {:.1e}, dK {:.1e}, dV {:.1e}",
        B::KIND,
        errs[0],
        errs[1],
        errs[2]
    );
}

/// Runs the dK/dV and dQ kernels into poisoned outputs; returns dQ, dK, dV (read through
/// `from`) after checking that nothing past them was written.
fn gradients<'a, B: Backend, T: DeviceElem>(
    dev: &'a B::Device,
    ctx: &Context,
    case: &Case,
    x: &GradInputs<'a, B, T>,
    from: impl Fn(T) -> f64 + Copy,
    what: &str,
) -> [Vec<f64>; 3] {
    let (c, hq, seq) = (case.c, case.heads_q, case.seq);
    let d = c.head_dim as usize;
    let hkv = hq / c.group as usize;
    let scale = 1.0 / (d as f64).sqrt();
    let dq = poisoned::<B, T>(dev, hq * seq * d);
    let dk = poisoned::<B, T>(dev, hkv * seq * d);
    let dv = poisoned::<B, T>(dev, hkv * seq * d);
    // The wgmma engine reads Q, K, V and dO through tensor maps.
    let maps = x.maps(dev, &c, (hq, seq)).unwrap();
    let kernel = attention_bwd_dkdv_kernel(ctx, Target::SM90A, c).unwrap();
    let kernel = load::<B>(dev, &kernel, what);
    let args = x.args(maps.as_ref(), &[&dk, &dv], seq, scale);
    let grid = c.dkdv_grid(seq as u64, hkv as u64);
    // SAFETY: reads the inputs of every head, writes dK and dV of every KV row.
    unsafe { launch::<B>(dev, &kernel, grid, &args, what) };
    let kernel = attention_bwd_dq_kernel(ctx, Target::SM90A, c).unwrap();
    let kernel = load::<B>(dev, &kernel, what);
    let args = x.args(maps.as_ref(), &[&dq], seq, scale);
    // SAFETY: reads the inputs of every head, writes dQ of every query row.
    unsafe { launch::<B>(dev, &kernel, c.dq_grid(seq as u64, hq as u64), &args, what) };
    let back = |b: &B::Buffer<T>, n: usize, name: &str| -> Vec<f64> {
        let all: Vec<f64> = b.to_vec().unwrap().into_iter().map(from).collect();
        assert!(
            all[n..].iter().all(|x| x.is_nan()),
            "{what}: wrote past {name}"
        );
        all[..n].to_vec()
    };
    [
        back(&dq, hq * seq * d, "dQ"),
        back(&dk, hkv * seq * d, "dK"),
        back(&dv, hkv * seq * d, "dV"),
    ]
}

/// The cases of both engines.
fn cases(long: usize) -> Vec<Case> {
    let mut all = engine_cases(long, AttentionBwdConfig::new);
    all.extend(engine_cases(long, AttentionBwdConfig::hopper));
    all
}

fn engine_cases(long: usize, cfg: fn(DType, u32, u32, bool) -> AttentionBwdConfig) -> Vec<Case> {
    vec![
        // GQA 2 (4 query heads over 2 KV heads), D64, a ragged tail.
        Case {
            c: cfg(DType::F16, 64, 2, false),
            heads_q: 4,
            seq: long,
        },
        // Causal, D128, bf16, multi-head (the wgmma engine: past one 128-row resident block,
        // three streamed steps).
        Case {
            c: cfg(DType::BF16, 128, 1, true),
            heads_q: 2,
            seq: match cfg(DType::BF16, 128, 1, true).engine {
                BwdEngine::MmaSync => long / 2 + 1,
                BwdEngine::Wgmma => long + 60,
            },
        },
        // Causal GQA 2, several query and key blocks (at least two blocks of 128 resident rows
        // for the wgmma engine, the last one ragged).
        Case {
            c: cfg(DType::F16, 64, 2, true),
            heads_q: 2,
            seq: (long + 30).max(2 * cfg(DType::F16, 64, 2, true).block_n as usize - 49),
        },
    ]
}

#[test]
fn backward_matches_the_host_in_the_interpreter() {
    backward_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), &cases(77));
}

#[cfg(feature = "cuda")]
#[test]
fn backward_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let mut all = cases(1000);
        all.extend(cases(300));
        backward_matches_the_host::<weft::runtime::cuda::Cuda>(dev, &all);
    });
}
