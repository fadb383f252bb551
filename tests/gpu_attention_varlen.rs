//! Forward attention with grouped KV heads (GQA, MQA) and variable-length batches
//! (`AttentionConfig::kv_group`, `AttentionConfig::varlen`) against the f64 host reference
//! `attention_varlen_reference`: every schedule, f16 and bf16, causal and not, D64 and D128, and
//! D256 in the schedules that take it. The lengths are ragged (0, 1, 17, 130,
//! …) with query and key lengths that differ (causal masks aligned bottom-right, rows that see no
//! key: O 0 and lse +inf), key boxes that run into the next sequence, query blocks past a
//! sequence's end, and a diagonal that cuts two key blocks. O within a few ulps of its type, lse
//! within 1e-3, the poison past O and lse intact.
//!
//! One body over the runtime's `Backend`: the CPU backend (the interpreter) on small shapes,
//! a CUDA GPU with wgmma on larger ones when there is one.
#![cfg(feature = "llvm")]

mod common;

use common::attention::{Case, Run, Sequences};
use common::check::{close, f32_bits, poison_intact, tol_attention, widen, Tol};
use common::launch::{load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{
    attention_kernel, attention_varlen_reference, AttentionConfig, AttentionSchedule, VarlenShape,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend};

/// A configuration of `schedule`, `dtype`, head dim, mask, KV group and lengths.
fn config(
    schedule: AttentionSchedule,
    dtype: DType,
    head_dim: u32,
    causal: bool,
    kv_group: u32,
    varlen: bool,
) -> AttentionConfig {
    let c = match schedule {
        AttentionSchedule::PingPong => AttentionConfig::ping_pong(dtype, causal),
        _ => AttentionConfig::new(dtype, causal),
    };
    AttentionConfig {
        kv_group,
        varlen,
        ..AttentionConfig { schedule, ..c }.with_head_dim(head_dim)
    }
}

/// GQA with one length on `heads` query heads (batch · heads): groups 2 and 8, and MQA (one KV
/// head, group `heads`), every schedule.
fn grouped(seq: i32, heads: usize) -> Vec<Case> {
    use AttentionSchedule::*;
    [
        (Serial, DType::F16, 64, false, 2),
        (Pipelined, DType::BF16, 128, true, heads as u32),
        (PingPong, DType::F16, 128, true, 8),
        (PingPong, DType::BF16, 64, false, 2),
    ]
    .into_iter()
    .map(|(s, dt, d, causal, g)| Case {
        c: config(s, dt, d, causal, g, false),
        seqs: Sequences {
            heads_q: heads.max(g as usize),
            lens_q: vec![seq],
            lens_k: vec![seq],
        },
    })
    .collect()
}

/// Query heads packed into a CTA's rows (`packed_heads`): every schedule, one length
/// (`seq`, a partial last block) and variable lengths (`lens_q` / `lens_k`), whole groups and
/// part of one (two CTAs a KV head), both masks; ping-pong at 8 heads leaves 8 positions of
/// each a consumer, also with three consumers at head dim 64 (24 positions a CTA), and causal
/// with the longest query blocks first.
fn packed_heads(seq: i32, lens_q: &[i32], lens_k: &[i32]) -> Vec<Case> {
    use AttentionSchedule::*;
    let three = |c: AttentionConfig| AttentionConfig {
        packed_heads: 8,
        ..c.with_head_dim(64).with_consumers(3)
    };
    let seqs = |heads_q: usize, varlen: bool| Sequences {
        heads_q,
        lens_q: if varlen { lens_q.to_vec() } else { vec![seq] },
        lens_k: if varlen { lens_k.to_vec() } else { vec![seq] },
    };
    let wide = [true, false].map(|varlen| Case {
        c: three(config(PingPong, DType::F16, 64, true, 8, varlen)),
        seqs: seqs(16, varlen),
    });
    // Causal query blocks counted from the last (a sequence shorter than the longest leaves
    // the grid's first blocks).
    let longest_first = [true, false].map(|varlen| Case {
        c: AttentionConfig {
            packed_heads: 4,
            longest_first: true,
            ..config(PingPong, DType::BF16, 128, true, 4, varlen)
        },
        seqs: seqs(8, varlen),
    });
    [
        (Serial, DType::F16, 64, true, 4, 4, false),
        (PingPong, DType::BF16, 128, true, 8, 8, true),
        (PingPong, DType::F16, 64, false, 4, 2, false),
        (Pipelined, DType::F16, 64, true, 2, 2, true),
        (Serial, DType::BF16, 128, false, 8, 8, true),
    ]
    .into_iter()
    .map(|(s, dt, d, causal, g, n, varlen)| Case {
        c: AttentionConfig {
            packed_heads: n,
            ..config(s, dt, d, causal, g, varlen)
        },
        seqs: Sequences {
            heads_q: 2 * g as usize,
            lens_q: if varlen { lens_q.to_vec() } else { vec![seq] },
            lens_k: if varlen { lens_k.to_vec() } else { vec![seq] },
        },
    })
    .chain(wide)
    .chain(longest_first)
    .collect()
}

/// Variable lengths over `lens_q` / `lens_k` on 2 query heads of one KV head: every schedule,
/// both types, both masks, both head dims.
fn packed(lens_q: &[i32], lens_k: &[i32]) -> Vec<Case> {
    use AttentionSchedule::*;
    [
        (Serial, DType::F16, 128, true),
        (Serial, DType::BF16, 64, false),
        (PingPong, DType::BF16, 128, true),
        (PingPong, DType::F16, 64, false),
        (Pipelined, DType::F16, 64, true),
    ]
    .into_iter()
    .map(|(s, dt, d, causal)| Case {
        c: config(s, dt, d, causal, 2, true),
        seqs: Sequences {
            heads_q: 2,
            lens_q: lens_q.to_vec(),
            lens_k: lens_k.to_vec(),
        },
    })
    .collect()
}

fn attention_matches_the_host<B: Backend>(dev: &B::Device, cases: &[Case]) {
    let ctx = Context::new();
    for case in cases {
        let c = case.c;
        let what = format!(
            "{:?} {} D{} causal {} group {} packed {} heads {} lens q {:?} k {:?}",
            c.schedule,
            c.dtype,
            c.head_dim,
            c.causal,
            c.kv_group,
            c.packed_heads,
            case.seqs.heads_q,
            case.seqs.lens_q,
            case.seqs.lens_k
        );
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        let kernel = load::<B>(dev, &k, &what);
        let [cu_q, cu_k] = case.seqs.cumulative();
        let shape = VarlenShape {
            cu_seqlens_q: &cu_q,
            cu_seqlens_k: &cu_k,
            heads_q: case.seqs.heads_q,
            kv_group: c.kv_group as usize,
            head_dim: c.head_dim as usize,
        };
        let d = c.head_dim as usize;
        let (total_q, total_k) = (cu_q[cu_q.len() - 1] as usize, cu_k[cu_k.len() - 1] as usize);
        let heads_kv = case.seqs.heads_q / c.kv_group as usize;
        let (nq, nkv) = (case.seqs.heads_q * total_q * d, heads_kv * total_k * d);
        let mut rng = Rng(nq as u64 * 31 + nkv as u64);
        let round = |x: f32| match c.dtype {
            DType::F16 => f16::from_f32(x).to_f32(),
            _ => bf16::from_f32(x).to_f32(),
        };
        let mut gen = |n: usize| -> Vec<f32> { (0..n).map(|_| round(rng.f32() / 2.0)).collect() };
        let (q, kk, v) = (gen(nq), gen(nkv), gen(nkv));
        let scale = 1.0 / (d as f64).sqrt();
        let (want_o, want_lse) =
            attention_varlen_reference(&q, &kk, &v, &shape, scale, c.causal).unwrap();
        let lse = poisoned::<B, f32>(dev, case.seqs.heads_q * total_q);
        let run = Run::<B> {
            dev,
            kernel: &kernel,
            case,
            scale,
            what: &what,
        };
        let got: Vec<f64> = match c.dtype {
            DType::F16 => run.run([&q, &kk, &v], &lse, f16::from_f32, f16::to_f64),
            _ => run.run([&q, &kk, &v], &lse, bf16::from_f32, bf16::to_f64),
        };
        assert!(got[nq..].iter().all(|x| x.is_nan()), "{what}: wrote past O");
        let want_o: Vec<f64> = want_o.iter().map(|&x| f64::from(x)).collect();
        let max_err = close(&got[..nq], &want_o, tol_attention(c.dtype), &what);
        let got_lse = lse.to_vec().unwrap();
        let rows = case.seqs.heads_q * total_q;
        poison_intact(&got_lse, rows, f32_bits, &format!("{what} lse"));
        // Rows that see no key: lse +inf exactly (and O 0, checked above).
        let empty = want_lse.iter().filter(|x| x.is_infinite()).count();
        for (i, (&g, &w)) in got_lse.iter().zip(&want_lse).enumerate() {
            assert!(
                w.is_finite() || g == w,
                "{what}: lse of row {i} is {g}, want {w}"
            );
        }
        let finite = |x: &[f32]| -> Vec<f64> {
            let keep = want_lse.iter().map(|w| w.is_finite());
            widen(x)
                .into_iter()
                .zip(keep)
                .filter(|p| p.1)
                .map(|p| p.0)
                .collect()
        };
        let bound = Tol {
            rel: 1e-3,
            abs: 1e-3,
        };
        let max_lse = close(
            &finite(&got_lse[..rows]),
            &finite(&want_lse),
            bound,
            &format!("{what} lse"),
        );
        println!(
            "{what} on {}: ok, max abs error O {max_err:.2e}, lse {max_lse:.2e}, {empty} rows with no key",
            B::KIND
        );
    }
}

/// Query and key lengths: empty, one token, partial blocks, key sequences shorter (causal rows
/// that see nothing, a sequence with no keys) and longer (the diagonal moved right, across two
/// key blocks of a query block of 128 rows and two).
const LENS_Q: [i32; 6] = [0, 1, 17, 5, 3, 130];
const LENS_K: [i32; 6] = [4, 1, 20, 2, 0, 300];

#[test]
fn grouped_heads_match_the_host_in_the_interpreter() {
    attention_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), &grouped(17, 4));
}

#[test]
fn packed_heads_match_the_host_in_the_interpreter() {
    let cases = packed_heads(37, &[0, 1, 17, 40], &[7, 1, 20, 30]);
    attention_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), &cases);
}

#[test]
fn variable_lengths_match_the_host_in_the_interpreter() {
    let cases = packed(&LENS_Q, &LENS_K);
    attention_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), &cases);
}

/// Head dim 256 (key blocks of 64, 32 pipelined): grouped heads serial and ping-pong (one
/// length, a query block of 128 rows and one of 22, the causal diagonal across two key blocks
/// of each), and causal variable lengths serial and pipelined (ping-pong refuses them at D256).
fn head_dim_256(seq: i32, lens_q: &[i32], lens_k: &[i32]) -> Vec<Case> {
    use AttentionSchedule::*;
    let grouped = [
        (PingPong, DType::BF16, true, 2),
        (Serial, DType::F16, false, 2),
    ]
    .into_iter()
    .map(|(s, dt, causal, g)| Case {
        c: config(s, dt, 256, causal, g, false),
        seqs: Sequences::fixed(g as usize, seq as usize),
    });
    let packed = [(Serial, DType::F16), (Pipelined, DType::BF16)]
        .into_iter()
        .map(|(s, dt)| Case {
            c: config(s, dt, 256, true, 2, true),
            seqs: Sequences {
                heads_q: 2,
                lens_q: lens_q.to_vec(),
                lens_k: lens_k.to_vec(),
            },
        });
    grouped.chain(packed).collect()
}

#[test]
fn head_dim_256_matches_the_host_in_the_interpreter() {
    let cases = head_dim_256(150, &[0, 17, 130], &[5, 4, 200]);
    attention_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), &cases);
}

#[cfg(feature = "cuda")]
#[test]
fn head_dim_256_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let long_q = [1000, 0, 1025, 1, 513, 300, 130];
        let long_k = [1000, 7, 1100, 1, 700, 129, 129];
        let cases = head_dim_256(1000, &long_q, &long_k);
        attention_matches_the_host::<weft::runtime::cuda::Cuda>(dev, &cases);
    });
}

#[cfg(feature = "cuda")]
#[test]
fn grouped_and_variable_lengths_match_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let mut cases = grouped(1000, 8);
        cases.extend(packed(&LENS_Q, &LENS_K));
        let long_q = [1000, 0, 1025, 1, 513, 300, 130];
        let long_k = [1000, 7, 1100, 1, 700, 129, 129];
        cases.extend(packed(&long_q, &long_k));
        attention_matches_the_host::<weft::runtime::cuda::Cuda>(dev, &cases);
    });
}

#[cfg(feature = "cuda")]
#[test]
fn packed_heads_match_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let mut cases = packed_heads(300, &LENS_Q, &LENS_K);
        cases.extend(packed_heads(
            1000,
            &[1000, 0, 1025, 16, 513],
            &[1000, 7, 1100, 700, 129],
        ));
        attention_matches_the_host::<weft::runtime::cuda::Cuda>(dev, &cases);
    });
}

/// Each new kernel assembles without spills; group 1 and one length build the kernels the
/// other suites check (the compile probe's sweep keeps their PTX byte for byte).
#[test]
fn grouped_and_variable_length_kernels_assemble_without_spills() {
    use AttentionSchedule::*;
    let ctx = Context::new();
    for (s, dt, d, causal, g, varlen) in [
        (Serial, DType::F16, 128, true, 1, true),
        (Serial, DType::BF16, 64, false, 2, true),
        (PingPong, DType::F16, 128, true, 2, true),
        (PingPong, DType::BF16, 128, false, 1, true),
        (PingPong, DType::F16, 64, true, 4, true),
        (PingPong, DType::BF16, 64, false, 4, true),
        (PingPong, DType::BF16, 128, true, 8, false),
    ] {
        let c = config(s, dt, d, causal, g, varlen);
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        common::assemble_without_spills(&k.ptx().unwrap(), "sm_90a", &format!("{c:?}"));
        // The parameters: the cumulative lengths in place of `seq` for variable lengths.
        let names: Vec<&str> = k
            .signature()
            .params
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let lengths: &[&str] = if varlen {
            &["cu_seqlens_q", "cu_seqlens_k"]
        } else {
            &["seq"]
        };
        assert_eq!(&names[6..names.len() - 1], lengths, "{c:?}");
    }
    // The pipelined schedule: ptxas serialises its wgmmas (its docs say why), and it spills
    // nothing.
    let c = config(Pipelined, DType::BF16, 128, true, 2, true);
    let ptx = attention_kernel(&ctx, Target::SM90A, c)
        .unwrap()
        .ptx()
        .unwrap();
    if let Some(log) = common::ptxas_log_with(&ptx, "sm_90a", &["-v"], &format!("{c:?}")) {
        assert!(log.contains("C7514"), "{c:?}: {log}");
        let none = "0 bytes spill stores, 0 bytes spill loads";
        assert!(log.contains(none), "{c:?}: {log}");
    }
    // Packed heads: the three-dimensional Q and O boxes and the rows' head and position
    // cost no spills.
    for (s, d, causal, g, n, varlen) in [
        (PingPong, 128, true, 8, 8, false),
        (PingPong, 128, false, 4, 4, true),
        (PingPong, 64, true, 8, 2, true),
        (PingPong, 64, false, 8, 8, true),
        (Serial, 128, true, 16, 16, false),
    ] {
        let c = AttentionConfig {
            packed_heads: n,
            ..config(s, DType::BF16, d, causal, g, varlen)
        };
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        common::assemble_without_spills(&k.ptx().unwrap(), "sm_90a", &format!("{c:?}"));
    }
    // A typed error names what is not supported.
    let bad = config(Serial, DType::F16, 128, false, 0, false);
    let e = attention_kernel(&ctx, Target::SM90A, bad).unwrap_err();
    assert!(e.to_string().contains("kv_group 0"), "{e}");
    // Packed heads: a power of two dividing the group, at least 8 positions of each a box.
    for (s, g, n, why) in [
        (Serial, 6, 3, "a power of two dividing kv_group 6"),
        (Serial, 2, 4, "a power of two dividing kv_group 2"),
        (Serial, 8, 0, "a power of two dividing kv_group 8"),
        (PingPong, 16, 16, "at most 8 (64 rows a box"),
        (Serial, 32, 32, "at most 16 (128 rows a box"),
    ] {
        let bad = AttentionConfig {
            packed_heads: n,
            ..config(s, DType::F16, 128, true, g, false)
        };
        let e = attention_kernel(&ctx, Target::SM90A, bad).unwrap_err();
        assert!(e.to_string().contains(why), "{bad:?}: {e}");
    }
}
