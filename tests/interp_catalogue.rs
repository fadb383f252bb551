//! No false alarm: every shipped kernel (`kernels::EXAMPLE_KERNELS`, at the configuration its
//! example runs) runs in the interpreter on a small ragged problem with memcheck, racecheck,
//! initcheck and the mbarrier deadlock check on, and finishes without a finding, having written
//! every element of its outputs. (The suites check the values; this checks the sanitizers stay
//! quiet on correct kernels.) Kernels with warp roles (the warp-specialised GEMM, ping-pong
//! attention) run too, their roles as cooperating tasks.
#![cfg(feature = "llvm")]

mod common;

use common::interp as ci;
use common::rng::Rng;
use half::f16;
use weft::codegen::interp::{DeviceBuffer, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{
    self, example_kernel, AttentionConfig, GemmConfig, LayernormConfig, SoftmaxConfig,
    EXAMPLE_KERNELS, GEMM_SM80_CONFIGS,
};
use weft::codegen::{Context, DType, Target};

/// An output buffer: where, how many elements, of how many bytes each.
struct Out(DeviceBuffer, usize, usize);

/// The launch of shipped kernel `name` on a small problem: grid, arguments and outputs.
fn problem(name: &str, mem: &mut Memory, rng: &mut Rng) -> ([u32; 3], Vec<LaunchArg>, Vec<Out>) {
    let mut f32s = |mem: &mut Memory, n: usize| LaunchArg::Buffer(mem.upload(&rng.vec(n)));
    let out = |mem: &mut Memory, n: usize| {
        let b = mem.alloc_poisoned::<f32>(n);
        (LaunchArg::Buffer(b), Out(b, n, 4))
    };
    let i = |v: usize| LaunchArg::I32(v as i32);
    match name {
        "memcpy" | "add" => {
            let n = 2048 + 48;
            let inputs = if name == "add" { 2 } else { 1 };
            let mut args: Vec<LaunchArg> = (0..inputs).map(|_| f32s(mem, n)).collect();
            let (y, o) = out(mem, n);
            args.extend([y, i(n)]);
            // 2048 elements per program for memcpy, 1024 for add.
            let block = if name == "add" { 1024 } else { 2048 };
            ([n.div_ceil(block) as u32, 1, 1], args, vec![o])
        }
        "copy_2d" => {
            let (m_out, n, stride) = (33, 144, 160);
            let x = f32s(mem, 2 * m_out * stride);
            let (y, o) = out(mem, m_out * n);
            ([2, 2, 1], vec![x, y, i(m_out), i(n), i(stride)], vec![o])
        }
        "transpose" => {
            let n = 128;
            let x = f32s(mem, n * n);
            let (y, o) = out(mem, n * n);
            ([2, 2, 1], vec![x, y, i(n)], vec![o])
        }
        "transpose_smem"
        | "row_sum"
        | "cumsum"
        | "smem_round_trip"
        | "smem_round_trip_swizzled" => {
            let (m, n) = (33, 272);
            let x = f32s(mem, m * n);
            let ylen = if name == "row_sum" { m } else { m * n };
            let (y, o) = out(mem, ylen);
            let grid = match name {
                "transpose_smem" => kernels::TRANSPOSE_CONFIGS[0].grid(m as u64, n as u64),
                "row_sum" => kernels::row_sum_grid(kernels::ROW_SUM_TILES[0], m as u64),
                "cumsum" => kernels::cumsum_grid(kernels::CUMSUM_TILES[0], m as u64),
                _ => (n.div_ceil(128) as u32, m.div_ceil(32) as u32, 1),
            };
            ([grid.0, grid.1, grid.2], vec![x, y, i(m), i(n)], vec![o])
        }
        "softmax" | "layernorm" => {
            let (m, n) = (2, 16384);
            let x = f32s(mem, m * n);
            let (y, o) = out(mem, m * n);
            let mut args = vec![x, y];
            let grid = if name == "softmax" {
                SoftmaxConfig::for_n(16384, 1, 4, 16).grid(m)
            } else {
                let w = f32s(mem, n);
                let b = f32s(mem, n);
                args.extend([w, b]);
                LayernormConfig::for_n(16384, 1, 4, 16).grid(m)
            };
            args.extend([i(m), i(n)]);
            if name == "layernorm" {
                args.push(LaunchArg::F32(1e-5));
            }
            ([grid, 1, 1], args, vec![o])
        }
        "gemm" | "gemm_ws" => {
            let (m, n, k) = (136, 72, 80);
            let c = GemmConfig::new(DType::F16);
            let a = mem.upload(&half16(rng, m * k));
            let b = mem.upload(&half16(rng, k * n));
            let dc = mem.alloc_poisoned::<f16>(m * n);
            let map = |buf, d: [usize; 2]| {
                LaunchArg::TensorMap(TensorMapArg::dense(
                    buf,
                    DType::F16,
                    &[d[0] as u64, d[1] as u64],
                ))
            };
            let g = c.grid(m as u64, n as u64);
            let args = vec![
                map(a, [m, k]),
                map(b, [k, n]),
                map(dc, [m, n]),
                i(m),
                i(n),
                i(k),
            ];
            ([g.0, g.1, g.2], args, vec![Out(dc, m * n, 2)])
        }
        "gemm_sm80" => {
            let (m, n, k) = (48, 32, 64);
            let a = LaunchArg::Buffer(mem.upload(&half16(rng, m * k)));
            let b = LaunchArg::Buffer(mem.upload(&half16(rng, k * n)));
            let dc = mem.alloc_poisoned::<f16>(m * n);
            let g = GEMM_SM80_CONFIGS[0].grid(m as u64, n as u64);
            (
                [g.0, g.1, g.2],
                vec![a, b, LaunchArg::Buffer(dc), i(m), i(n), i(k)],
                vec![Out(dc, m * n, 2)],
            )
        }
        "attention" | "attention_pp" => {
            let c = if name == "attention" {
                AttentionConfig::new(DType::F16, false)
            } else {
                AttentionConfig::ping_pong(DType::F16, false)
            };
            let (heads, seq, d) = (2usize, 77usize, c.head_dim as usize);
            let n = heads * seq * d;
            let dims = [(heads * seq) as u64, d as u64];
            let map = |b| LaunchArg::TensorMap(TensorMapArg::dense(b, DType::F16, &dims));
            let (q, k, v) = (
                mem.upload(&half16(rng, n)),
                mem.upload(&half16(rng, n)),
                mem.upload(&half16(rng, n)),
            );
            let o = mem.alloc_poisoned::<f16>(n);
            let lse = mem.alloc_poisoned::<f32>(heads * seq);
            let scale = (1.0 / (d as f64).sqrt() * std::f64::consts::LOG2_E) as f32;
            let args = vec![
                map(q),
                map(k),
                map(v),
                map(o),
                LaunchArg::Buffer(o),
                LaunchArg::Buffer(lse),
                i(seq),
                LaunchArg::F32(scale),
            ];
            let g = c.grid(seq as u64, heads as u64);
            (
                [g.0, g.1, g.2],
                args,
                vec![Out(o, n, 2), Out(lse, heads * seq, 4)],
            )
        }
        other => panic!("shipped kernel `{other}` has no problem here: add one"),
    }
}

/// `n` random f16 values in [-1, 1).
fn half16(rng: &mut Rng, n: usize) -> Vec<f16> {
    (0..n).map(|_| f16::from_f32(rng.f32() / 4.0)).collect()
}

#[test]
fn every_shipped_kernel_runs_with_no_sanitizer_finding() {
    let ctx = Context::new();
    let mut rng = Rng(2026);
    let mut ran = 0;
    for name in EXAMPLE_KERNELS {
        let target = if name == "gemm_sm80" {
            Target::SM80
        } else {
            Target::SM90A
        };
        let k = example_kernel(&ctx, name, target).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut mem = Memory::new();
        let (grid, args, outs) = problem(name, &mut mem, &mut rng);
        ci::launch(&k, (grid[0], grid[1], grid[2]), &args, &mut mem, name);
        for Out(buf, len, bytes) in outs {
            let raw: Vec<i8> = mem.download(buf);
            let poisoned = raw[..len * bytes]
                .chunks(bytes)
                .filter(|e| e.iter().all(|&b| b == -1))
                .count();
            assert_eq!(
                poisoned, 0,
                "{name}: {poisoned} of {len} outputs never written"
            );
        }
        ran += 1;
    }
    // Every kernel ran, the warp-specialised ones (gemm_ws, attention_pp) as cooperating tasks.
    assert_eq!(ran, EXAMPLE_KERNELS.len());
}
