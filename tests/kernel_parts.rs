//! The public GEMM parts recombined: a GEMM with a fused bias + SiLU epilogue and a GEMM whose
//! per-K-block hook scales each K block's contribution, written on `kernels::parts` in a few
//! lines each, run on the CPU backend (the interpreter) and, when there is one, on the GPU,
//! against f64 host references.
#![cfg(feature = "llvm")]

mod common;

use common::gemm::quarters;
use common::rng::Rng;
use half::f16;
use weft::codegen::kernels::parts::{self, Epilogue, TmaRing, TmaStore};
use weft::codegen::kernels::{alloc_buffers, declare_params, gemm_reference, GemmConfig};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, Target, Value};
use weft::layout::encoding::{NvidiaMma, Slice};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// `silu(acc + bias[column])`, then the plain store.
struct BiasSilu {
    bias: Value,
    layout: NvidiaMma,
    cols: i32,
    store: TmaStore,
}

impl Epilogue for BiasSilu {
    fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, at: [Value; 2]) -> Result<()> {
        let cols = kb.arange(0, self.cols, Slice::new(0, self.layout.clone().into()))?;
        let cols = kb.add(cols, at[1])?;
        let ptrs = kb.add(self.bias, cols)?;
        let bias = kb.load(ptrs, None, None)?;
        let bias = kb.expand_dims(bias, 0)?;
        let x = kb.add(acc, bias)?;
        let e = kb.neg(x)?;
        let e = kb.exp(e)?;
        let d = kb.add(e, 1.0)?;
        let y = kb.div(x, d)?;
        self.store.store(kb, y, at)
    }
}

/// The shipped GEMM's parts with the bias + SiLU epilogue and an optional per-K-block `scale`
/// (each K block's running sum multiplied by it: `Σ_k scale^(K-1-k) A_k B_k`).
fn gemm_bias_silu(ctx: &Context, c: GemmConfig, scale: Option<f32>) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "gemm_bias_silu", c.num_warps).unwrap();
    let [a_map, b_map, c_map, m, n, k] = declare_params(&mut kb, &c).unwrap();
    let bias = kb.arg_ptr("bias", DType::F32, 16).unwrap();
    let pid = kb.program_id(0).unwrap();
    let (grid, k_tiles) = c.tiles(&mut kb, [m, n, k]).unwrap();
    let [a_ring, b_ring, c_smem] = alloc_buffers(&mut kb, &c).unwrap();
    let ring = TmaRing::new(&mut kb, c.stages, c.stage_bytes(), None).unwrap();
    let lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
    let layout = NvidiaMma::hopper(&[c.num_warps, 1], c.block_n, 16);
    let store = c.tma_store(c_smem, c_map, false);
    let epilogue = BiasSilu {
        bias,
        layout,
        cols: c.block_n as i32,
        store,
    };
    // The hook waits for the K block's wgmma, then scales the sum so far.
    let mut scaled = |kb: &mut KernelBuilder<'_>, acc: Value, _kt: Value| -> Result<Value> {
        let acc = kb.wgmma_wait(0, &[acc])?[0];
        kb.mul(acc, scale.unwrap_or(1.0))
    };
    let hook: Option<parts::KBlockHook<'_>> = scale.map(|_| &mut scaled as parts::KBlockHook<'_>);
    parts::gemm_mainloop(&mut kb, &lp, pid, false, hook, &epilogue).unwrap();
    kb.tma_store_wait(0).unwrap();
    kb.finish().unwrap()
}

/// Runs the kernel on `m × n × k` quarters and a random bias; returns (got, want).
fn run<B: Backend>(
    dev: &B::Device,
    scale: Option<f32>,
    [m, n, kd]: [usize; 3],
) -> (Vec<f64>, Vec<f64>) {
    let ctx = Context::new();
    let c = GemmConfig::new(DType::F16);
    let k = gemm_bias_silu(&ctx, c, scale);
    let kernel = k.load_on::<B>(dev).unwrap();
    let mut rng = Rng(17);
    let (a, b) = (quarters(&mut rng, m * kd), quarters(&mut rng, kd * n));
    let bias: Vec<f32> = (0..n + 256).map(|_| rng.f32() / 4.0).collect();
    let h = |x: &[f32]| x.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>();
    let (da, db) = (dev.upload(&h(&a)).unwrap(), dev.upload(&h(&b)).unwrap());
    let dbias = dev.upload(&bias).unwrap();
    let dc = dev.alloc_zeroed::<f16>(m * n).unwrap();
    let map = |buf, dims: [usize; 2], bx: [u32; 2]| {
        let dims = [dims[0] as u64, dims[1] as u64];
        dev.tensor_map(buf, &dims, &dims[1..], &bx, c.swizzle())
            .unwrap()
    };
    let (ma, mb, mc) = (
        map(&da, [m, kd], c.a_box()),
        map(&db, [kd, n], c.b_box()),
        map(&dc, [m, n], c.c_box()),
    );
    let mut args = KernelArgs::new();
    args.tensor_map(&ma).tensor_map(&mb).tensor_map(&mc);
    args.scalar(m as i32)
        .scalar(n as i32)
        .scalar(kd as i32)
        .ptr(&dbias);
    let cfg = LaunchConfig::for_kernel(c.grid(m as u64, n as u64), k.signature()).unwrap();
    // SAFETY: the maps cover A, B and C; the bias holds every column a tile reads.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let got = dc.to_vec().unwrap().iter().map(|x| x.to_f64()).collect();
    // The reference: the scaled K-block sums, bias, SiLU.
    let k_blocks = kd.div_ceil(c.block_k as usize);
    let mut acc = vec![0f64; m * n];
    for kb in 0..k_blocks {
        let (k0, k1) = (
            kb * c.block_k as usize,
            ((kb + 1) * c.block_k as usize).min(kd),
        );
        let a_blk: Vec<f32> = (0..m)
            .flat_map(|i| a[i * kd + k0..i * kd + k1].to_vec())
            .collect();
        let b_blk = b[k0 * n..k1 * n].to_vec();
        let p = gemm_reference(&a_blk, &b_blk, m, n, k1 - k0, false);
        for (x, q) in acc.iter_mut().zip(p) {
            *x = (*x + f64::from(q)) * f64::from(scale.unwrap_or(1.0));
        }
    }
    let want = acc
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let x = x + f64::from(bias[i % n]);
            x / (1.0 + (-x).exp())
        })
        .collect();
    (got, want)
}

fn check(got: &[f64], want: &[f64], what: &str) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 2e-3 + w.abs() / 512.0,
            "{what}: element {i}: {g} vs {w}"
        );
    }
}

#[test]
fn a_fused_epilogue_on_the_parts_matches_the_host() {
    let (got, want) = run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), None, [136, 264, 128]);
    check(&got, &want, "bias + silu in the interpreter");
}

#[test]
fn a_per_k_block_hook_scales_each_block() {
    let (got, want) =
        run::<weft::runtime::cpu::Cpu>(&common::gpu::cpu(), Some(0.5), [64, 256, 192]);
    check(&got, &want, "scaled K blocks in the interpreter");
}

#[cfg(feature = "cuda")]
#[test]
fn the_parts_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    let (got, want) = run::<weft::runtime::cuda::Cuda>(&dev, None, [1000, 1032, 520]);
    check(&got, &want, "bias + silu on the GPU");
    let (got, want) = run::<weft::runtime::cuda::Cuda>(&dev, Some(0.5), [257, 512, 384]);
    check(&got, &want, "scaled K blocks on the GPU");
}
