//! Every shipped kernel (`kernels::EXAMPLE_KERNELS`) on a small ragged problem, launched through
//! the runtime traits on any backend: the interpreter's no-false-alarm suite and the agreement
//! of the interpreter with the GPU run the same problems.

use half::f16;
use weft::codegen::kernels::{
    self, AttentionConfig, GemmConfig, LayernormConfig, SoftmaxConfig, GEMM_SM80_CONFIGS,
};
use weft::codegen::{DType, Kernel, Target};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig, ParamType, Result};

use super::rng::Rng;

/// One argument of a problem.
pub enum Arg {
    /// An input buffer.
    F32(Vec<f32>),
    /// An input buffer.
    F16(Vec<f16>),
    /// An output of that many elements, poisoned (0xFF bytes) before the launch.
    OutF32(usize),
    /// An output of that many elements, poisoned before the launch.
    OutF16(usize),
    /// An `i32` scalar.
    I32(i32),
    /// An `f32` scalar.
    Scalar(f32),
    /// A tensor map over the buffer of argument `buf` seen as a dense `dims` tensor; box and
    /// swizzle are the kernel's (its signature says them).
    Map { buf: usize, dims: [u64; 2] },
}

/// A launch: its grid and arguments.
pub struct Problem {
    pub grid: [u32; 3],
    pub args: Vec<Arg>,
}

/// The target each shipped kernel is built for.
pub fn target_of(name: &str) -> Target {
    if name == "gemm_sm80" {
        Target::SM80
    } else {
        Target::SM90A
    }
}

/// `n` random f16 values in [-1/4, 1/4).
fn half16(rng: &mut Rng, n: usize) -> Vec<f16> {
    (0..n).map(|_| f16::from_f32(rng.f32() / 4.0)).collect()
}

/// The problem of shipped kernel `name`.
pub fn problem(name: &str, rng: &mut Rng) -> Problem {
    let i = |v: usize| Arg::I32(v as i32);
    let g3 = |g: (u32, u32, u32)| [g.0, g.1, g.2];
    match name {
        "memcpy" | "add" => {
            let n = 2048 + 48;
            let inputs = if name == "add" { 2 } else { 1 };
            let mut args: Vec<Arg> = (0..inputs).map(|_| Arg::F32(rng.vec(n))).collect();
            args.extend([Arg::OutF32(n), i(n)]);
            // 2048 elements per program for memcpy, 1024 for add.
            let block = if name == "add" { 1024 } else { 2048 };
            Problem {
                grid: [n.div_ceil(block) as u32, 1, 1],
                args,
            }
        }
        "copy_2d" => {
            let (m_out, n, stride) = (33, 144, 160);
            Problem {
                grid: [2, 2, 1],
                args: vec![
                    Arg::F32(rng.vec(2 * m_out * stride)),
                    Arg::OutF32(m_out * n),
                    i(m_out),
                    i(n),
                    i(stride),
                ],
            }
        }
        "transpose" => {
            let n = 128;
            Problem {
                grid: [2, 2, 1],
                args: vec![Arg::F32(rng.vec(n * n)), Arg::OutF32(n * n), i(n)],
            }
        }
        "transpose_smem"
        | "row_sum"
        | "cumsum"
        | "smem_round_trip"
        | "smem_round_trip_swizzled" => {
            // Ragged against the tiles; multiples of 16, as the kernels are built to assume.
            let (m, n) = (48usize, 272usize);
            let ylen = if name == "row_sum" { m } else { m * n };
            let grid = match name {
                "transpose_smem" => kernels::TRANSPOSE_CONFIGS[0].grid(m as u64, n as u64),
                "row_sum" => kernels::row_sum_grid(kernels::ROW_SUM_TILES[0], m as u64),
                "cumsum" => kernels::cumsum_grid(kernels::CUMSUM_TILES[0], m as u64),
                _ => (n.div_ceil(128) as u32, m.div_ceil(32) as u32, 1),
            };
            Problem {
                grid: g3(grid),
                args: vec![Arg::F32(rng.vec(m * n)), Arg::OutF32(ylen), i(m), i(n)],
            }
        }
        "rmsnorm" | "rmsnorm_bwd" | "softmax_bwd" => {
            // f16 rows of 16384 (the catalogue's configurations), two rows.
            let (m, n) = (2, 16384);
            let c = kernels::RowConfig::for_n(n as u32, DType::F16);
            let mut args = vec![Arg::F16(half16(rng, m * n))];
            let grid = match name {
                "rmsnorm" => {
                    args.extend([Arg::F16(half16(rng, n)), Arg::OutF16(m * n)]);
                    c.grid(m)
                }
                "rmsnorm_bwd" => {
                    let grid = kernels::norm_bwd_grid(&c, m, 2);
                    args.extend([
                        Arg::F16(half16(rng, m * n)),
                        Arg::F16(half16(rng, n)),
                        Arg::OutF16(m * n),
                        Arg::OutF32(grid as usize * n),
                    ]);
                    grid
                }
                _ => {
                    args.extend([Arg::F16(half16(rng, m * n)), Arg::OutF16(m * n)]);
                    c.grid(m)
                }
            };
            args.extend([i(m), i(n)]);
            if name != "softmax_bwd" {
                args.push(Arg::Scalar(1e-5));
            }
            Problem {
                grid: [grid, 1, 1],
                args,
            }
        }
        "softmax" | "layernorm" => {
            let (m, n) = (2, 16384);
            let mut args = vec![Arg::F32(rng.vec(m * n)), Arg::OutF32(m * n)];
            let grid = if name == "softmax" {
                SoftmaxConfig::for_n(16384, 1, 4, 16).grid(m)
            } else {
                args.extend([Arg::F32(rng.vec(n)), Arg::F32(rng.vec(n))]);
                LayernormConfig::for_n(16384, 1, 4, 16).grid(m)
            };
            args.extend([i(m), i(n)]);
            if name == "layernorm" {
                args.push(Arg::Scalar(1e-5));
            }
            Problem {
                grid: [grid, 1, 1],
                args,
            }
        }
        "gemm" | "gemm_ws" => {
            let (m, n, k) = (136, 72, 80);
            let c = GemmConfig::new(DType::F16);
            let dims = |r: usize, c: usize| [r as u64, c as u64];
            Problem {
                grid: g3(c.grid(m as u64, n as u64)),
                args: vec![
                    Arg::Map {
                        buf: 6,
                        dims: dims(m, k),
                    },
                    Arg::Map {
                        buf: 7,
                        dims: dims(k, n),
                    },
                    Arg::Map {
                        buf: 8,
                        dims: dims(m, n),
                    },
                    i(m),
                    i(n),
                    i(k),
                    // The buffers behind the maps (not kernel arguments).
                    Arg::F16(half16(rng, m * k)),
                    Arg::F16(half16(rng, k * n)),
                    Arg::OutF16(m * n),
                ],
            }
        }
        "gemm_sm80" => {
            let (m, n, k) = (48, 32, 64);
            Problem {
                grid: g3(GEMM_SM80_CONFIGS[0].grid(m as u64, n as u64)),
                args: vec![
                    Arg::F16(half16(rng, m * k)),
                    Arg::F16(half16(rng, k * n)),
                    Arg::OutF16(m * n),
                    i(m),
                    i(n),
                    i(k),
                ],
            }
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
            let scale = (1.0 / (d as f64).sqrt() * std::f64::consts::LOG2_E) as f32;
            Problem {
                grid: g3(c.grid(seq as u64, heads as u64)),
                args: vec![
                    Arg::Map { buf: 8, dims },
                    Arg::Map { buf: 9, dims },
                    Arg::Map { buf: 10, dims },
                    Arg::Map { buf: 4, dims },
                    Arg::OutF16(n),
                    Arg::OutF32(heads * seq),
                    i(seq),
                    Arg::Scalar(scale),
                    Arg::F16(half16(rng, n)),
                    Arg::F16(half16(rng, n)),
                    Arg::F16(half16(rng, n)),
                ],
            }
        }
        other => panic!("shipped kernel `{other}` has no problem here: add one"),
    }
}

/// A buffer of either element type.
enum Buf<B: Backend> {
    F32(B::Buffer<f32>),
    F16(B::Buffer<f16>),
}

/// One output after the launch: its bytes and its element size.
pub struct Output {
    pub bytes: Vec<u8>,
    pub elem_bytes: usize,
}

impl Output {
    /// Elements left all-0xFF (the poison): never written.
    pub fn unwritten(&self) -> usize {
        self.bytes
            .chunks(self.elem_bytes)
            .filter(|e| e.iter().all(|&b| b == 0xFF))
            .count()
    }
}

/// Runs `kernel` on `p` on `dev`; returns its outputs in argument order.
pub fn run<B: Backend>(dev: &B::Device, kernel: &Kernel<'_>, p: &Problem) -> Result<Vec<Output>> {
    let sig = kernel.signature();
    let loaded = kernel.load_on::<B>(dev)?;
    let mut bufs: Vec<Option<Buf<B>>> = Vec::new();
    for a in &p.args {
        bufs.push(match a {
            Arg::F32(x) => Some(Buf::F32(dev.upload(x)?)),
            Arg::F16(x) => Some(Buf::F16(dev.upload(x)?)),
            Arg::OutF32(n) => {
                let mut b = dev.alloc::<f32>(*n)?;
                b.fill_bytes(0xFF)?;
                Some(Buf::F32(b))
            }
            Arg::OutF16(n) => {
                let mut b = dev.alloc::<f16>(*n)?;
                b.fill_bytes(0xFF)?;
                Some(Buf::F16(b))
            }
            _ => None,
        });
    }
    let mut maps = Vec::new();
    for (index, a) in p.args.iter().enumerate().take(sig.params.len()) {
        if let Arg::Map { buf, dims } = a {
            let ParamType::TensorMap(Some(spec)) = sig.params[index].ty else {
                panic!("argument {index} of {} is not a tensor map", sig.name)
            };
            let boxes = &spec.box_dims[..spec.rank as usize];
            let Some(Buf::F16(b)) = &bufs[*buf] else {
                panic!("map over a non-f16 buffer")
            };
            maps.push(dev.tensor_map(b, dims, &dims[1..], boxes, spec.swizzle)?);
        }
    }
    let mut args = KernelArgs::new();
    let mut next_map = maps.iter();
    for (index, a) in p.args.iter().enumerate().take(sig.params.len()) {
        match a {
            Arg::I32(v) => {
                args.scalar(*v);
            }
            Arg::Scalar(v) => {
                args.scalar(*v);
            }
            Arg::Map { .. } => {
                args.tensor_map(next_map.next().expect("one map per map argument"));
            }
            _ => match &bufs[index] {
                Some(Buf::F32(b)) => {
                    args.ptr(b);
                }
                Some(Buf::F16(b)) => {
                    args.ptr(b);
                }
                None => unreachable!("every buffer argument has a buffer"),
            },
        }
    }
    let cfg = LaunchConfig::for_kernel((p.grid[0], p.grid[1], p.grid[2]), sig)?;
    let stream = dev.stream();
    // SAFETY: each problem sizes its buffers and maps for the kernel's accesses (the
    // interpreter's memcheck is the proof on the CPU).
    unsafe { stream.launch(&loaded, &cfg, &args)? };
    stream.synchronize()?;
    let mut outs = Vec::new();
    for (a, b) in p.args.iter().zip(&bufs) {
        let (bytes, elem_bytes) = match (a, b) {
            (Arg::OutF32(_), Some(Buf::F32(b))) => (
                b.to_vec()?.iter().flat_map(|x| x.to_le_bytes()).collect(),
                4,
            ),
            (Arg::OutF16(_), Some(Buf::F16(b))) => (
                b.to_vec()?.iter().flat_map(|x| x.to_le_bytes()).collect(),
                2,
            ),
            _ => continue,
        };
        outs.push(Output { bytes, elem_bytes });
    }
    Ok(outs)
}
