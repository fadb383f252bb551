//! The interpreter's speed on the shipped kernels: a 256 × 256 × 256 f16 GEMM (the shipped
//! TMA + wgmma schedule, 128 × 256 tiles) and the 1 × 16 × 1024 × 64 f16 attention forward
//! (ping-pong schedule: producer and consumer roles as cooperating tasks), each launch run to
//! completion with every sanitizer on. Throughput is in multiply-adds: `m·n·k` for the GEMM,
//! `2·heads·seq²·d` for attention (Q·Kᵀ and P·V).
//!
//! `cargo bench --features llvm --bench interp`
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use half::f16;
use weft::codegen::interp::{self, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{attention_kernel, gemm_kernel, AttentionConfig, GemmConfig};
use weft::codegen::{Context, DType, Target};

/// `n` f16 values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f16> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            f16::from_f32(((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0)
        })
        .collect()
}

fn gemm(c: &mut Criterion) {
    let (m, n, k) = (256usize, 256usize, 256usize);
    let ctx = Context::new();
    let cfg = GemmConfig::new(DType::F16);
    let kernel = gemm_kernel(&ctx, Target::SM90A, cfg).unwrap();
    let mut mem = Memory::new();
    let a = mem.upload(&values(m * k, 1));
    let b = mem.upload(&values(k * n, 2));
    let out = mem.alloc_poisoned::<f16>(m * n);
    let map = |buf, rows: usize, cols: usize| {
        LaunchArg::TensorMap(TensorMapArg::dense(
            buf,
            DType::F16,
            &[rows as u64, cols as u64],
        ))
    };
    let args = [
        map(a, m, k),
        map(b, k, n),
        map(out, m, n),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
        LaunchArg::I32(k as i32),
    ];
    let (gx, gy, gz) = cfg.grid(m as u64, n as u64);
    let mut g = c.benchmark_group("interp");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.throughput(Throughput::Elements((m * n * k) as u64));
    g.bench_function("gemm_f16_256x256x256", |bench| {
        bench.iter(|| interp::run(&kernel, [gx, gy, gz], &args, &mut mem).unwrap())
    });
    g.finish();
}

fn attention(c: &mut Criterion) {
    let (heads, seq, d) = (16usize, 1024usize, 64usize);
    let ctx = Context::new();
    let mut cfg = AttentionConfig::ping_pong(DType::F16, false);
    cfg.head_dim = d as u32;
    let kernel = attention_kernel(&ctx, Target::SM90A, cfg).unwrap();
    let mut mem = Memory::new();
    let len = heads * seq * d;
    let (q, k, v) = (
        mem.upload(&values(len, 3)),
        mem.upload(&values(len, 4)),
        mem.upload(&values(len, 5)),
    );
    let o = mem.alloc_poisoned::<f16>(len);
    let lse = mem.alloc_poisoned::<f32>(heads * seq);
    let dims = [(heads * seq) as u64, d as u64];
    let map = |buf| LaunchArg::TensorMap(TensorMapArg::dense(buf, DType::F16, &dims));
    let scale = (1.0 / (d as f64).sqrt() * std::f64::consts::LOG2_E) as f32;
    let args = [
        map(q),
        map(k),
        map(v),
        map(o),
        LaunchArg::Buffer(o),
        LaunchArg::Buffer(lse),
        LaunchArg::I32(seq as i32),
        LaunchArg::F32(scale),
    ];
    let (gx, gy, gz) = cfg.grid(seq as u64, heads as u64);
    let mut g = c.benchmark_group("interp");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.throughput(Throughput::Elements((2 * heads * seq * seq * d) as u64));
    g.bench_function("attention_f16_1x16x1024x64", |bench| {
        bench.iter(|| interp::run(&kernel, [gx, gy, gz], &args, &mut mem).unwrap())
    });
    g.finish();
}

criterion_group!(benches, gemm, attention);
criterion_main!(benches);
