//! Shared by the Hopper GEMM suites: the TMA round-trip kernel, the GEMM's exact inputs, and the
//! GEMM run and checked on any backend (`gpu_gemm` on the CPU and the GPU, `interp_schedule`
//! under the interpreter's random schedules).

use weft::codegen::kernels::{gemm_kernel, gemm_reference, GemmConfig};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, NvmmaShared};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, DeviceElem, KernelArgs, F8E4M3, F8E5M2};

use super::check::{close, tol, Tol};
use super::launch::{launch, load, poisoned};
use super::rng::Rng;

/// A kernel that TMA-loads the `[64, 64]` f16 tile at (`r0`, `c0`) of a tensor into shared memory
/// (two boxes of `[64, 32]`, 64-byte swizzle, waited on through a two-stage barrier ring, loaded
/// twice so the second wait is on phase 1), copies it out to a dense `[64, 64]` output, and
/// TMA-stores the same tile at (`r0`, `c0`) of a second tensor.
pub fn tma_roundtrip_kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "tma_roundtrip", 4).unwrap();
    let src = kb.arg_tensor_map("src", DType::F16, &[64, 32], 64).unwrap();
    let dst = kb.arg_tensor_map("dst", DType::F16, &[64, 32], 64).unwrap();
    let out = kb.arg_ptr("out", DType::F16, 16).unwrap();
    let r0 = kb.arg_i32("r0", 1).unwrap();
    let c0 = kb.arg_i32("c0", 1).unwrap();
    let layout = NvmmaShared::new(64, 16, 2, false);
    let ring = kb
        .alloc_shared_buffers(DType::F16, 2, &[64, 64], &layout)
        .unwrap();
    let bars = kb.alloc_mbarriers(2, 1).unwrap();
    let bytes = {
        let b0 = kb.index_shared(ring, 0).unwrap();
        kb.tma_bytes(b0).unwrap()
    };
    let mut tile = None;
    for round in 0..2 {
        for stage in 0..2 {
            let buf = kb.index_shared(ring, stage).unwrap();
            let bar = kb.mbarrier_at(bars, stage).unwrap();
            kb.mbarrier_expect(bar, bytes, None).unwrap();
            kb.tma_load(src, &[r0, c0], buf, bar, None).unwrap();
            kb.mbarrier_wait(bar, round).unwrap();
            let blocked = Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]);
            let t = kb.load_shared(buf, (&blocked, [64u64, 64])).unwrap();
            tile = Some(t);
            kb.barrier().unwrap();
        }
    }
    let t = tile.unwrap();
    let blocked = Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]);
    let rows = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(1, blocked.clone().into()),
        )
        .unwrap();
    let cols = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(0, blocked.clone().into()),
        )
        .unwrap();
    let rows = kb.expand_dims(rows, 1).unwrap();
    let rows = kb.mul(rows, 64).unwrap();
    let cols = kb.expand_dims(cols, 0).unwrap();
    let offs = kb.add(rows, cols).unwrap();
    let ptrs = kb.add(out, offs).unwrap();
    kb.store(ptrs, t, None).unwrap();
    let buf = kb.index_shared(ring, 1).unwrap();
    kb.fence_async_shared().unwrap();
    kb.barrier().unwrap();
    kb.tma_store(dst, &[r0, c0], buf).unwrap();
    kb.tma_store_wait(0).unwrap();
    kb.mbarrier_invalidate(bars).unwrap();
    kb.finish().unwrap()
}

/// `n` multiples of 1/4 in [-2, 2): exact in f16, bf16, fp8 (e4m3 and e5m2) and tf32, so an
/// f32 accumulation of their products is exact and only C's final rounding errs.
pub fn quarters(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.next_u64() % 16) as f32 - 8.0) / 4.0)
        .collect()
}

/// The bound on C: the products of quarters are exact and summed in f32, so only C's final
/// rounding errs: an ulp of the output type (`check::tol`) or 1e-3 absolute near zero. f32 C
/// (exact sums) keeps the GPU suite's tighter 1e-6 relative.
pub fn c_bound(out: DType) -> Tol {
    let rel = if out == DType::F32 {
        1e-6
    } else {
        tol(out).rel
    };
    Tol { rel, abs: 1e-3 }
}

/// Runs the GEMM of `c` on `dev` on an `m × n × kdim` problem of quarters (exact in every input
/// type) and checks every element of C against the host within [`c_bound`], and the poison past
/// C; returns the largest error (relative to `max(|C|, 1e-3 / rel)`).
pub fn run_gemm<B: Backend>(
    dev: &B::Device,
    c: GemmConfig,
    m: usize,
    n: usize,
    kdim: usize,
    seed: u64,
) -> f64 {
    let what = format!(
        "gemm {:?}->{:?} {m}x{n}x{kdim} b_transposed={} persistent={} warp_specialized={}",
        c.dtype, c.out_dtype, c.b_transposed, c.persistent, c.warp_specialized
    );
    let ctx = Context::new();
    let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let mut rng = Rng(seed);
    let a = quarters(&mut rng, m * kdim);
    let b = quarters(&mut rng, kdim * n);
    let want: Vec<f64> = gemm_reference(&a, &b, m, n, kdim, c.b_transposed)
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    let g = Gemm::<B> {
        dev,
        kernel: &kernel,
        c,
        prob: (m, n, kdim),
        what: &what,
    };
    let got: Vec<f64> = match c.dtype {
        DType::F16 => g.run(&a, &b, f16::from_f32, f16::to_f64, half_bits),
        DType::BF16 => g.run(&a, &b, bf16::from_f32, bf16::to_f64, bf16_bits),
        // fp8 inputs give bf16 C.
        DType::F8E4M3 => g.run(&a, &b, F8E4M3::from_f32, bf16::to_f64, bf16_bits),
        DType::F8E5M2 => g.run(&a, &b, F8E5M2::from_f32, bf16::to_f64, bf16_bits),
        _ => g.run(&a, &b, |x: f32| x, f64::from, super::check::f32_bits),
    };
    let worst = close(&got, &want, c_bound(c.out_dtype), &what);
    println!("{what} on {}: ok, max error {worst:.2e}", B::KIND);
    worst
}

fn half_bits(x: f16) -> u64 {
    x.to_bits().into()
}

fn bf16_bits(x: bf16) -> u64 {
    x.to_bits().into()
}

/// One GEMM launch: the device, the loaded kernel, its configuration and problem (m, n, k).
struct Gemm<'a, B: Backend> {
    dev: &'a B::Device,
    kernel: &'a B::Kernel,
    c: GemmConfig,
    prob: (usize, usize, usize),
    what: &'a str,
}

impl<B: Backend> Gemm<'_, B> {
    /// Uploads A and B converted by `to`, runs the kernel into a poisoned C, checks the poison
    /// past C (by `bits`) and reads C back through `from`.
    fn run<I: DeviceElem, O: DeviceElem + Copy>(
        &self,
        a: &[f32],
        b: &[f32],
        to: impl Fn(f32) -> I,
        from: impl Fn(O) -> f64,
        bits: fn(O) -> u64,
    ) -> Vec<f64> {
        let (dev, c, (m, n, kdim)) = (self.dev, self.c, self.prob);
        let da = dev
            .upload(&a.iter().map(|&x| to(x)).collect::<Vec<_>>())
            .unwrap();
        let db = dev
            .upload(&b.iter().map(|&x| to(x)).collect::<Vec<_>>())
            .unwrap();
        let dc = poisoned::<B, O>(dev, m * n);
        let b_shape = if c.b_transposed {
            [n as u64, kdim as u64]
        } else {
            [kdim as u64, n as u64]
        };
        let sw = c.swizzle();
        let (mu, nu, ku) = (m as u64, n as u64, kdim as u64);
        let a_map = dev
            .tensor_map(&da, &[mu, ku], &[ku], &c.a_box(), sw)
            .unwrap();
        let b_map = dev
            .tensor_map(&db, &b_shape, &[b_shape[1]], &c.b_box(), sw)
            .unwrap();
        // C's map covers its m·n elements, not the poisoned padding past them.
        let c_map = dev
            .tensor_map(&dc, &[mu, nu], &[nu], &c.c_box(), sw)
            .unwrap();
        let mut args = KernelArgs::new();
        args.tensor_map(&a_map)
            .tensor_map(&b_map)
            .tensor_map(&c_map)
            .scalar(m as i32)
            .scalar(n as i32)
            .scalar(kdim as i32);
        // A persistent kernel gets 3 programs here: each walks many tiles (and the ring runs on
        // across tile boundaries) even on small problems.
        let grid = if c.persistent {
            c.grid_persistent(mu, nu, 3)
        } else {
            c.grid(mu, nu)
        };
        // SAFETY: the kernel reads A and B and writes C only through the maps, which cover them.
        unsafe { launch::<B>(dev, self.kernel, grid, &args, self.what) };
        let out = dc.to_vec().unwrap();
        super::check::poison_intact(&out, m * n, bits, self.what);
        out.into_iter().take(m * n).map(from).collect()
    }
}
