//! Compile latency, builder to PTX, of the memcpy kernel and a transpose-sized kernel (a 64 × 64
//! f32 tile, 32 elements per thread), at each [`OptLevel`], and at O3 of the kernels built on
//! conversions and reductions: the transpose through `convert_layout` (64 × 64 tile, 4 warps) and
//! the 16K-row softmax (16 warps, 4 f32 per thread and access). Target: ≤ 5 ms (Gluon's cold
//! compile of the same kernels: 65–400 ms); see `OptLevel` for which levels meet it and why. And
//! the Hopper GEMM (`gemm_kernel`, 128 × 256 × 64, 3 stages): target ≤ 10 ms; the attention kernel
//! (`attention_kernel`, f16, head dim 128, 128 × 128 blocks): target ≤ 20 ms; the sm_80
//! tensor-core GEMM (`gemm_sm80_kernel`, 128 × 256 × 64, 3 stages: 128 `mma.sync` per warp and
//! loop step) took 54 ms on the dev VM (2026-11-25, wall time, best of 5), most of it in LLVM's
//! code generation.
//!
//! `cargo bench --features llvm --bench compile`
//!
//! The kernels at O3 are emitted with `Kernel::into_ptx` (the build-and-load path, no copy of the
//! module); the per-level ones with `ptx_with`, which copies it first.
//!
//! Measured in thread CPU time, like the other CPU benches: compilation runs on the calling
//! thread only, and on the shared 2-core bench machine wall time would count the waits for a core.
use criterion::{criterion_group, criterion_main, Criterion};
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, OptLevel, Target};

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::ThreadCpu;

fn compile(c: &mut Criterion<ThreadCpu>) {
    let t = Target::SM90;
    let tile = Tile2d {
        rows: 64,
        cols: 64,
        per_thread: 4,
        num_warps: 4,
    };
    let mut g = c.benchmark_group("builder_to_ptx");
    for opt in [OptLevel::O3, OptLevel::Fast, OptLevel::None] {
        let tag = format!("{opt:?}").to_lowercase();
        g.bench_function(format!("memcpy_{tag}"), |b| {
            b.iter(|| {
                let ctx = Context::new();
                let k = kernels::memcpy_kernel(&ctx, t, 2048, 4, 4).unwrap();
                k.ptx_with(opt).unwrap()
            })
        });
        g.bench_function(format!("transpose_64x64_{tag}"), |b| {
            b.iter(|| {
                let ctx = Context::new();
                let k = kernels::transpose_kernel(&ctx, t, tile).unwrap();
                k.ptx_with(opt).unwrap()
            })
        });
    }
    g.bench_function("transpose_smem_64x64_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let k = kernels::transpose_smem_kernel(&ctx, t, kernels::TRANSPOSE_CONFIGS[0]).unwrap();
            k.into_ptx().unwrap()
        })
    });
    g.bench_function("softmax_16k_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let c = kernels::SoftmaxConfig::for_n(16384, 1, 4, 16);
            let k = kernels::softmax_kernel(&ctx, t, c).unwrap();
            k.into_ptx().unwrap()
        })
    });
    // The Hopper GEMM (TMA ring, wgmma, TMA-store epilogue): target ≤ 10 ms.
    g.bench_function("gemm_128x256x64_sm90a_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let c = kernels::GemmConfig::new(weft::codegen::DType::F16);
            let k = kernels::gemm_kernel(&ctx, Target::SM90A, c).unwrap();
            k.into_ptx().unwrap()
        })
    });
    // Forward attention (wgmma, TMA, online softmax), f16, head dim 128: target ≤ 20 ms.
    g.bench_function("attention_d128_sm90a_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let c = kernels::AttentionConfig::new(weft::codegen::DType::F16, false);
            let k = kernels::attention_kernel(&ctx, Target::SM90A, c).unwrap();
            k.into_ptx().unwrap()
        })
    });
    // The ping-pong schedule (producer warpgroup, two consumer warpgroups taking turns).
    g.bench_function("attention_d128_ping_pong_sm90a_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let c = kernels::AttentionConfig::ping_pong(weft::codegen::DType::F16, false);
            let k = kernels::attention_kernel(&ctx, Target::SM90A, c).unwrap();
            k.into_ptx().unwrap()
        })
    });
    // The warp-specialised GEMM (producer warpgroup, consumers releasing stages).
    g.bench_function("gemm_ws_128x256x64_sm90a_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let mut c = kernels::GemmConfig::new(weft::codegen::DType::F16);
            c.warp_specialized = true;
            let k = kernels::gemm_kernel(&ctx, Target::SM90A, c).unwrap();
            k.into_ptx().unwrap()
        })
    });
    g.bench_function("gemm_sm80_128x256x64_o3", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let c = kernels::GemmSm80Config::new(128, 256, 64, 3, 8);
            let k = kernels::gemm_sm80_kernel(&ctx, Target::SM80, c, weft::codegen::DType::F16)
                .unwrap();
            k.into_ptx().unwrap()
        })
    });
    g.bench_function("memcpy_build_only", |b| {
        b.iter(|| {
            let ctx = Context::new();
            let k = kernels::memcpy_kernel(&ctx, t, 2048, 4, 4).unwrap();
            k.signature().params.len()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = compile
}
criterion_main!(benches);
