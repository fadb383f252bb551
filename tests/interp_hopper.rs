//! The Hopper tensor-core suites (`gpu_wgmma`, `gpu_gemm`, `gpu_attention`) in the
//! interpreter: the same kernels — one wgmma over every input type (f16, bf16, fp8, tf32),
//! swizzle and operand major, A from registers; the TMA round trip with zero fill and clipped
//! stores; the GEMM in its schedules (plain, persistent, fp8, tf32, B transposed); attention in
//! every schedule — on small ragged problems, with the same exact inputs, poisoned outputs and
//! host references. Kernels with warp roles (the warp-specialised GEMM, ping-pong attention) run
//! with their roles as cooperating tasks.
#![cfg(feature = "llvm")]

mod common;

use common::attention::configs;
use common::gemm::{quarters, tma_roundtrip_kernel};
use common::interp::{self as ci, tol, tol_attention};
use common::rng::Rng;
use common::wgmma::{cases, operand_bytes, small_values, wgmma_kernel};
use half::{bf16, f16};
use weft::codegen::interp::{DeviceBuffer, LaunchArg, Memory, Options, Schedule, TensorMapArg};
use weft::codegen::kernels::{
    attention_kernel, attention_reference, gemm_kernel, gemm_reference, GemmConfig,
};
use weft::codegen::{Context, DType, Target};

/// Uploads raw bytes (any element type: the kernels' pointers and maps give the type).
fn upload_bytes(mem: &mut Memory, bytes: &[u8]) -> DeviceBuffer {
    mem.upload(&bytes.iter().map(|&b| b as i8).collect::<Vec<_>>())
}

#[test]
fn every_wgmma_case_matches_the_host() {
    let ctx = Context::new();
    let mut rng = Rng(99);
    for c in cases() {
        let what = format!("{c:?}");
        let k = wgmma_kernel(&ctx, c);
        let (m, n, kk) = (c.m as usize, c.n as usize, c.k as usize);
        // Small integers and halves: exact in every input type, and the f32 sums exact.
        let a = small_values(&mut rng, m * kk);
        let b = small_values(&mut rng, kk * n);
        let mut mem = Memory::new();
        let da = upload_bytes(&mut mem, &operand_bytes(c.dtype, &a));
        let db = upload_bytes(&mut mem, &operand_bytes(c.dtype, &b));
        let dc = ci::poisoned::<f32>(&mut mem, m * n);
        let args = [da, db, dc].map(LaunchArg::Buffer);
        ci::launch(&k, 1u32, &args, &mut mem, &what);
        let got: Vec<f32> = mem.download(dc);
        let want: Vec<f32> = (0..m * n)
            .map(|ij| {
                (0..kk)
                    .map(|p| a[ij / n * kk + p] * b[p * n + ij % n])
                    .sum()
            })
            .collect();
        ci::exact(&got, &want, ci::f32_bits, &what);
        ci::poison_intact(&got, m * n, ci::f32_bits, &what);
    }
}

#[test]
fn tma_loads_zero_fill_past_the_edge_and_stores_clip() {
    let ctx = Context::new();
    let k = tma_roundtrip_kernel(&ctx);
    let (rows, cols) = (100usize, 72usize); // odd rows; 72 f16 = 144 bytes per row
    let mut rng = Rng(7);
    let host: Vec<f16> = (0..rows * cols).map(|_| f16::from_f32(rng.f32())).collect();
    let mut mem = Memory::new();
    let src = mem.upload(&host);
    let dst = mem.alloc_poisoned::<f16>(rows * cols);
    let out = mem.alloc_poisoned::<f16>(64 * 64);
    let dims = [rows as u64, cols as u64];
    for (r0, c0) in [(0i32, 0i32), (64, 40), (50, 8)] {
        let what = format!("tma tile at ({r0}, {c0}) of {rows}x{cols}");
        let args = [
            LaunchArg::TensorMap(TensorMapArg::dense(src, DType::F16, &dims)),
            LaunchArg::TensorMap(TensorMapArg::dense(dst, DType::F16, &dims)),
            LaunchArg::Buffer(out),
            LaunchArg::I32(r0),
            LaunchArg::I32(c0),
        ];
        ci::launch(&k, 1u32, &args, &mut mem, &what);
        let got: Vec<f16> = mem.download(out);
        let stored: Vec<f16> = mem.download(dst);
        for i in 0..64usize {
            for j in 0..64usize {
                let (r, c) = (r0 as usize + i, c0 as usize + j);
                let inside = r < rows && c < cols;
                let want = if inside {
                    host[r * cols + c]
                } else {
                    f16::ZERO
                };
                assert_eq!(
                    got[i * 64 + j].to_bits(),
                    want.to_bits(),
                    "{what}: element ({i}, {j})"
                );
                if inside {
                    assert_eq!(
                        stored[r * cols + c].to_bits(),
                        want.to_bits(),
                        "{what}: store at ({r}, {c})"
                    );
                }
            }
        }
    }
    // What no tile covered keeps the poison: the store clipped at the edge.
    assert_eq!(
        mem.download::<f16>(dst)[71].to_bits(),
        0xFFFF,
        "column 71 was never stored to"
    );
}

/// Runs the GEMM of `c` on `m × n × k` quarters (exact in every input type) and checks C
/// against the host within the output type's tolerance (only C's final rounding errs).
fn run_gemm(c: GemmConfig, m: usize, n: usize, kdim: usize, seed: u64) {
    run_gemm_with(c, m, n, kdim, seed, &Options::default())
}

/// [`run_gemm`] under interpreter `options`.
fn run_gemm_with(c: GemmConfig, m: usize, n: usize, kdim: usize, seed: u64, options: &Options) {
    let what = format!("gemm {c:?} {m}x{n}x{kdim} {:?}", options.schedule);
    let ctx = Context::new();
    let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut rng = Rng(seed);
    let a = quarters(&mut rng, m * kdim);
    let b = quarters(&mut rng, kdim * n);
    let want: Vec<f64> = gemm_reference(&a, &b, m, n, kdim, c.b_transposed)
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    let b_dims = if c.b_transposed {
        [n as u64, kdim as u64]
    } else {
        [kdim as u64, n as u64]
    };
    let mut mem = Memory::new();
    let da = upload_bytes(&mut mem, &operand_bytes(c.dtype, &a));
    let db = upload_bytes(&mut mem, &operand_bytes(c.dtype, &b));
    let dc = match c.out_dtype {
        DType::F16 => ci::poisoned::<f16>(&mut mem, m * n),
        DType::BF16 => ci::poisoned::<bf16>(&mut mem, m * n),
        _ => ci::poisoned::<f32>(&mut mem, m * n),
    };
    let args = [
        LaunchArg::TensorMap(TensorMapArg::dense(da, c.dtype, &[m as u64, kdim as u64])),
        LaunchArg::TensorMap(TensorMapArg::dense(db, c.dtype, &b_dims)),
        LaunchArg::TensorMap(TensorMapArg::dense(dc, c.out_dtype, &[m as u64, n as u64])),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
        LaunchArg::I32(kdim as i32),
    ];
    // A persistent kernel gets 3 programs: each walks several tiles, the ring running on.
    let grid = if c.persistent {
        c.grid_persistent(m as u64, n as u64, 3)
    } else {
        c.grid(m as u64, n as u64)
    };
    ci::launch_with(&k, grid, &args, &mut mem, options, &what);
    let (got, poison_ok): (Vec<f64>, bool) = match c.out_dtype {
        DType::F16 => {
            let v: Vec<f16> = mem.download(dc);
            (
                v.iter().map(|x| x.to_f64()).collect(),
                v[m * n..].iter().all(|x| x.to_bits() == 0xFFFF),
            )
        }
        DType::BF16 => {
            let v: Vec<bf16> = mem.download(dc);
            (
                v.iter().map(|x| x.to_f64()).collect(),
                v[m * n..].iter().all(|x| x.to_bits() == 0xFFFF),
            )
        }
        _ => {
            let v: Vec<f32> = mem.download(dc);
            (
                ci::widen(&v),
                v[m * n..].iter().all(|x| x.to_bits() == u32::MAX),
            )
        }
    };
    ci::close(&got, &want, tol(c.out_dtype), &what);
    assert!(poison_ok, "{what}: wrote past C");
}

#[test]
fn gemm_matches_the_host_in_every_type() {
    // Ragged in every dim (TMA zero-fills past the edges and clips the store) with one K step,
    // and a deeper K.
    run_gemm(GemmConfig::new(DType::F16), 129, 264, 8, 0);
    run_gemm(GemmConfig::new(DType::F16), 100, 72, 192, 1);
    run_gemm(GemmConfig::new(DType::BF16), 129, 264, 8, 10);
    let mut t = GemmConfig::new(DType::F16);
    t.b_transposed = true;
    run_gemm(t, 129, 264, 8, 20);
    for dtype in [DType::F8E4M3, DType::F8E5M2, DType::F32] {
        // K-major rows must be 16-byte multiples: K a multiple of 16 for fp8, 4 for f32.
        run_gemm(GemmConfig::new(dtype), 65, 72, 48, 40);
    }
}

#[test]
fn gemm_schedules_match_the_host() {
    let mut small = GemmConfig::new(DType::F16);
    small.block_n = 128;
    small.num_warps = 4;
    small.stages = 4;
    run_gemm(small, 150, 200, 192, 31);
    for dtype in [DType::F16, DType::F8E4M3] {
        let mut p = GemmConfig::new(dtype);
        p.persistent = true;
        p.block_n = 128;
        p.stages = 4;
        run_gemm(p, 200, 260, 64, 70);
    }
    let mut two = GemmConfig::new(DType::BF16);
    two.stages = 2;
    two.block_n = 64;
    two.b_transposed = true;
    run_gemm(two, 136, 72, 136, 32);
    // Warp-specialised (producer and consumer roles), one tile per program and persistent.
    for persistent in [false, true] {
        let mut w = GemmConfig::new(DType::F16);
        w.warp_specialized = true;
        w.persistent = persistent;
        run_gemm(w, 129, 264, 64, 80);
    }
}

/// The warp-specialised GEMM (producer and consumer roles handing stages over through
/// mbarriers) is right whatever order its tasks and programs run in: no false alarm, no hang.
#[test]
fn warp_specialised_gemm_holds_under_random_schedules() {
    for seed in 0..3 {
        let mut w = GemmConfig::new(DType::F16);
        w.warp_specialized = true;
        w.persistent = seed == 2;
        let options = Options {
            schedule: Schedule::Random { seed },
        };
        run_gemm_with(w, 129, 264, 64, 90 + seed, &options);
    }
}

#[test]
fn attention_matches_the_host_in_every_schedule() {
    let ctx = Context::new();
    for c in configs() {
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        // An odd length (masked key tail, rows past the end unstored), two heads.
        let (heads, seq) = (2usize, 40usize);
        let d = c.head_dim as usize;
        let what = format!("{c:?} heads {heads} seq {seq}");
        let mut rng = Rng(heads as u64 * 1000 + seq as u64);
        let n = heads * seq * d;
        // Inputs rounded to the 16-bit type first, so the reference sees what the kernel sees.
        let round = |x: f32| match c.dtype {
            DType::F16 => f16::from_f32(x).to_f32(),
            _ => bf16::from_f32(x).to_f32(),
        };
        let mut gen = |n: usize| -> Vec<f32> { (0..n).map(|_| round(rng.f32() / 2.0)).collect() };
        let (q, kk, v) = (gen(n), gen(n), gen(n));
        let scale = 1.0 / (d as f64).sqrt();
        let (want_o, want_lse) = attention_reference(&q, &kk, &v, heads, seq, d, scale, c.causal);
        let mut mem = Memory::new();
        let up = |mem: &mut Memory, x: &[f32]| match c.dtype {
            DType::F16 => mem.upload(&x.iter().map(|&y| f16::from_f32(y)).collect::<Vec<_>>()),
            _ => mem.upload(&x.iter().map(|&y| bf16::from_f32(y)).collect::<Vec<_>>()),
        };
        let (dq, dk, dv) = (up(&mut mem, &q), up(&mut mem, &kk), up(&mut mem, &v));
        let o = if c.dtype == DType::F16 {
            ci::poisoned::<f16>(&mut mem, n)
        } else {
            ci::poisoned::<bf16>(&mut mem, n)
        };
        let lse = ci::poisoned::<f32>(&mut mem, heads * seq);
        let dims = [(heads * seq) as u64, d as u64];
        let map = |b| LaunchArg::TensorMap(TensorMapArg::dense(b, c.dtype, &dims));
        let args = [
            map(dq),
            map(dk),
            map(dv),
            map(o),
            LaunchArg::Buffer(o),
            LaunchArg::Buffer(lse),
            LaunchArg::I32(seq as i32),
            LaunchArg::F32((scale * std::f64::consts::LOG2_E) as f32),
        ];
        ci::launch(&k, c.grid(seq as u64, heads as u64), &args, &mut mem, &what);
        let got: Vec<f64> = if c.dtype == DType::F16 {
            mem.download::<f16>(o).iter().map(|x| x.to_f64()).collect()
        } else {
            mem.download::<bf16>(o).iter().map(|x| x.to_f64()).collect()
        };
        assert!(got[n..].iter().all(|x| x.is_nan()), "{what}: wrote past O");
        let want_o: Vec<f64> = want_o.iter().map(|&x| f64::from(x)).collect();
        ci::close(&got, &want_o, tol_attention(c.dtype), &what);
        let got_lse: Vec<f32> = mem.download(lse);
        let want_lse: Vec<f64> = want_lse.iter().map(|&x| f64::from(x)).collect();
        // The GPU suite's bound: 1e-3 relative to max(|lse|, 1).
        ci::close(
            &ci::widen(&got_lse),
            &want_lse,
            ci::Tol {
                rel: 1e-3,
                abs: 1e-3,
            },
            &format!("{what} lse"),
        );
        ci::poison_intact(&got_lse, heads * seq, ci::f32_bits, &what);
    }
}
