//! FP8 forward attention (`kernels::attention_fp8_kernel`, ping-pong and serial schedules: e4m3
//! Q, K, `Vᵀ` with per-tensor scales, bf16 O) against the f64 host reference on the dequantised inputs: D 64 and 128, causal
//! and not, several heads, lengths with a masked key tail and rows past the end. O within
//! `max|V| / 16` plus bf16's rounding (P is rounded to e4m3, three mantissa bits, before P·V:
//! each weight off by at most 2⁻⁴ of itself), the log-sum-exp within 1e-3 (it is computed from
//! the unrounded P), the poison past O and lse intact.
//!
//! Written once over the runtime's `Backend` traits: in the interpreter on 2 heads × 48 rows
//! (ping-pong with V's rows and serial with `Vᵀ` at each D and masking, ping-pong with `Vᵀ` at
//! one) and 1 head × 263 rows (ping-pong with V's rows, D128 causal and D64: three key blocks,
//! so the loop, both of a consumer's P buffers and both stages of the in-kernel V transpose
//! run, and a ragged 7-key tail), and on a CUDA GPU when there is one on up to 3 heads × 1008. Without a GPU the GPU test prints
//! `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{f32_bits, poison_intact};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{
    attention_fp8_kernel, attention_reference, AttentionSchedule, Fp8AttentionConfig,
};
use weft::codegen::{Context, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs, F8E4M3};

#[test]
fn fp8_attention_assembles_with_fp8_wgmma() {
    let ctx = Context::new();
    for c in configs(SCHEDULES) {
        let ptx = attention_fp8_kernel(&ctx, Target::SM90A, c)
            .unwrap()
            .ptx()
            .unwrap();
        // No spills, and no wgmma serialised by ptxas (C7514/C7515 warnings).
        common::assemble_without_spills(&ptx, "sm_90a", &format!("{c:?}"));
        assert!(ptx.contains(".e4m3.e4m3"), "{c:?}: fp8 wgmma");
    }
    let c = Fp8AttentionConfig::new(96, false);
    let e = attention_fp8_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("head_dim 96"), "{e}");
    let c = Fp8AttentionConfig {
        schedule: AttentionSchedule::Pipelined,
        ..Fp8AttentionConfig::new(128, false)
    };
    let e = attention_fp8_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("Pipelined"), "{e}");
    let c = Fp8AttentionConfig {
        schedule: AttentionSchedule::Serial,
        ..Fp8AttentionConfig::new(128, false)
    };
    let e = attention_fp8_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("v_transposed"), "{e}");
}

#[test]
fn v_transpose_rejects_shapes_it_cannot_tile() {
    use weft::codegen::kernels::parts::VTranspose;
    assert!(VTranspose::new(128, 64).is_ok());
    for (keys, d) in [(64, 128), (128, 48), (128, 0)] {
        let e = VTranspose::new(keys, d).unwrap_err().to_string();
        assert!(e.contains(&format!("block_n {keys}, head_dim {d}")), "{e}");
    }
}

/// Every entry: ping-pong with V's rows and with `Vᵀ`, serial with `Vᵀ`.
const SCHEDULES: &[(AttentionSchedule, bool)] = &[
    (AttentionSchedule::PingPong, false),
    (AttentionSchedule::PingPong, true),
    (AttentionSchedule::Serial, true),
];

/// Every head dim and masking of `schedules` (schedule, V transposed).
fn configs(schedules: &[(AttentionSchedule, bool)]) -> Vec<Fp8AttentionConfig> {
    let mut out = vec![];
    for &(schedule, v_transposed) in schedules {
        for head_dim in [64, 128] {
            for causal in [false, true] {
                out.push(Fp8AttentionConfig {
                    head_dim,
                    causal,
                    schedule,
                    v_transposed,
                });
            }
        }
    }
    out
}

fn fp8_matches_the_host<B: Backend>(
    dev: &B::Device,
    configs: &[Fp8AttentionConfig],
    shapes: &[(usize, usize)],
) {
    let ctx = Context::new();
    for &c in configs {
        let what = format!("{c:?}");
        let kernel = load::<B>(
            dev,
            &attention_fp8_kernel(&ctx, Target::SM90A, c).unwrap(),
            &what,
        );
        for &(heads, seq) in shapes {
            run_one::<B>(dev, &kernel, c, heads, seq);
        }
    }
}

fn run_one<B: Backend>(
    dev: &B::Device,
    kernel: &B::Kernel,
    c: Fp8AttentionConfig,
    heads: usize,
    seq: usize,
) {
    let what = format!("{c:?} heads {heads} seq {seq}");
    let d = c.head_dim as usize;
    let n = heads * seq * d;
    let mut rng = Rng(heads as u64 * 77 + seq as u64 + d as u64);
    // Stored e4m3 values (up to about 16) and their scales.
    let (sq, sk, sv) = (0.03f32, 0.05f32, 0.06f32);
    let mut stored =
        |n: usize| -> Vec<F8E4M3> { (0..n).map(|_| F8E4M3::from_f32(rng.f32() * 4.0)).collect() };
    let (q8, k8, v8) = (stored(n), stored(n), stored(n));
    let deq = |x: &[F8E4M3], s: f32| -> Vec<f32> { x.iter().map(|v| v.to_f32() * s).collect() };
    let (q, k, v) = (deq(&q8, sq), deq(&k8, sk), deq(&v8, sv));
    let scale = 1.0 / (d as f64).sqrt();
    let (want_o, want_lse) = attention_reference(&q, &k, &v, heads, seq, d, scale, c.causal);
    // V's rows, or Vᵀ per head: [heads · D, seq].
    let mut vt = vec![F8E4M3(0); n];
    for h in 0..heads {
        for s in 0..seq {
            for t in 0..d {
                vt[(h * d + t) * seq + s] = v8[(h * seq + s) * d + t];
            }
        }
    }
    let (v_dims, v_stride) = if c.v_transposed {
        ([(heads * d) as u64, seq as u64], seq as u64)
    } else {
        vt = v8.clone();
        ([(heads * seq) as u64, d as u64], d as u64)
    };
    let (dq, dk, dvt) = (
        dev.upload(&q8).unwrap(),
        dev.upload(&k8).unwrap(),
        dev.upload(&vt).unwrap(),
    );
    let o = poisoned::<B, bf16>(dev, n);
    let lse = poisoned::<B, f32>(dev, heads * seq);
    let rows = (heads * seq) as u64;
    let qm = dev
        .tensor_map(
            &dq,
            &[rows, d as u64],
            &[d as u64],
            &c.q_box(),
            c.qk_swizzle(),
        )
        .unwrap();
    let km = dev
        .tensor_map(
            &dk,
            &[rows, d as u64],
            &[d as u64],
            &c.kv_box(),
            c.qk_swizzle(),
        )
        .unwrap();
    let vtm = dev
        .tensor_map(&dvt, &v_dims, &[v_stride], &c.v_box(), c.v_swizzle())
        .unwrap();
    let qk = (scale * std::f64::consts::LOG2_E) as f32 * sq * sk;
    let mut args = KernelArgs::new();
    args.tensor_map(&qm)
        .tensor_map(&km)
        .tensor_map(&vtm)
        .ptr(&o)
        .ptr(&lse)
        .scalar(seq as i32)
        .scalar(qk)
        .scalar(sv);
    // SAFETY: the kernel reads Q, K, Vᵀ through maps that cover them and writes O and lse of
    // every row.
    unsafe { launch::<B>(dev, kernel, c.grid(seq as u64, heads as u64), &args, &what) };
    let got: Vec<f32> = o
        .to_vec()
        .unwrap()
        .into_iter()
        .map(|x| x.to_f32())
        .collect();
    assert!(got[n..].iter().all(|x| x.is_nan()), "{what}: wrote past O");
    // Each weight of P off by at most 2⁻⁴ of itself: O off by at most max|V| / 16; then bf16's
    // rounding of O.
    let v_max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    let mut worst = 0f32;
    for (i, (&g, &w)) in got.iter().zip(&want_o).enumerate() {
        let err = (g - w).abs();
        let bound = v_max / 16.0 + w.abs() / 128.0 + 1e-3;
        assert!(err <= bound, "{what}: O[{i}] = {g}, want {w}");
        worst = worst.max(err);
    }
    let got_lse = lse.to_vec().unwrap();
    poison_intact(&got_lse, heads * seq, f32_bits, &format!("{what} lse"));
    for (i, (&g, &w)) in got_lse.iter().zip(&want_lse).enumerate() {
        assert!(
            (g - w).abs() <= 1e-3 * w.abs().max(1.0),
            "{what}: lse[{i}] = {g}, want {w}"
        );
    }
    println!("{what} on {}: ok, max abs error O {worst:.2e}", B::KIND);
}

#[test]
fn fp8_attention_matches_the_host_in_the_interpreter() {
    let cpu = common::gpu::cpu();
    // One key block: the ping-pong kernel with V's rows and the serial one, every head dim and
    // masking; the ping-pong kernel with Vᵀ (the same body but for V's copies) at one.
    let mut short = configs(&[
        (AttentionSchedule::PingPong, false),
        (AttentionSchedule::Serial, true),
    ]);
    short.push(Fp8AttentionConfig {
        v_transposed: true,
        ..Fp8AttentionConfig::new(64, true)
    });
    fp8_matches_the_host::<weft::runtime::cpu::Cpu>(&cpu, &short, &[(2, 48)]);
    // Three key blocks, the last one ragged (V's rows need no multiple of 16).
    let long = [
        Fp8AttentionConfig::new(128, true),
        Fp8AttentionConfig::new(64, false),
    ];
    fp8_matches_the_host::<weft::runtime::cpu::Cpu>(&cpu, &long, &[(1, 263)]);
}

#[cfg(feature = "cuda")]
#[test]
fn fp8_attention_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        fp8_matches_the_host::<weft::runtime::cuda::Cuda>(
            dev,
            &configs(SCHEDULES),
            &[(1, 128), (3, 384), (2, 1008), (3, 80)],
        );
        // Ragged lengths, which only V's rows allow.
        fp8_matches_the_host::<weft::runtime::cuda::Cuda>(
            dev,
            &configs(&[(AttentionSchedule::PingPong, false)]),
            &[(2, 1001), (3, 77)],
        );
    });
}
