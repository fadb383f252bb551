//! transpose: `y = xᵀ` of a 16K × 16K f32 matrix through shared memory, as Gluon's transpose
//! tutorial: load a tile coalesced along `x`'s rows, `convert_layout` (the planner's swizzled
//! shared-memory round trip), store coalesced along `y`'s rows; 16-byte vectors both ways.
//!
//! `cargo run --release --example transpose --features llvm,cuda [-- sm_80|sm_90|sm_90a]`
//!
//! Without a GPU (or without `cuda`): prints the PTX of the first configuration and says it
//! skipped. With one: each tile configuration is run on random data, the whole result checked
//! against the host, then timed with `weft::runtime::bench` (L2 flushed before each run) next to
//! a device-to-device copy moving the same bytes (a copy of 1 GiB reads and writes 1 GiB, the
//! transpose reads and writes 1 GiB: GB/s count read + write). Gluon's anchor on the H200:
//! 3844 GB/s, D2D about 4250 GB/s.
//!
//! The kernel is [`weft::codegen::kernels::transpose_smem_kernel`].

#[cfg(feature = "llvm")]
mod common;

#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: the transpose example needs the `llvm` feature (--features llvm,cuda)");
}

#[cfg(feature = "llvm")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use weft::codegen::kernels::{self, TRANSPOSE_CONFIGS as CONFIGS};
    use weft::codegen::Context;

    let target = common::target_arg()?;
    let configs = CONFIGS;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        return gpu::run(&dev, &ctx, target, &configs);
    }
    let k = kernels::transpose_smem_kernel(&ctx, target, configs[0])?;
    common::print_and_skip(&configs[0], &k)
}

#[cfg(all(feature = "llvm", feature = "cuda"))]
mod gpu {
    use crate::common::gpu::{describe, random, time_against_d2d, Result};
    use weft::codegen::kernels::{self, TransposeConfig};
    use weft::codegen::{Context, Target};
    use weft::runtime::cuda::Device;
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    const M: usize = 16384;
    const N: usize = 16384;

    /// The number of mismatches of `y` against `xᵀ` (bitwise), and the first.
    fn check(x: &[f32], y: &[f32]) -> (usize, Option<(usize, usize)>) {
        const B: usize = 64;
        let (mut bad, mut first) = (0, None);
        for i0 in (0..M).step_by(B) {
            for j0 in (0..N).step_by(B) {
                for i in i0..(i0 + B).min(M) {
                    for j in j0..(j0 + B).min(N) {
                        if y[j * M + i].to_bits() != x[i * N + j].to_bits() {
                            bad += 1;
                            first.get_or_insert((i, j));
                        }
                    }
                }
            }
        }
        (bad, first)
    }

    pub fn run(
        dev: &Device,
        ctx: &Context,
        target: Target,
        configs: &[TransposeConfig],
    ) -> Result<()> {
        println!(
            "# transpose {M}x{N} f32 on {}; GB/s count read + write",
            describe(dev)
        );
        let x = random(M * N, 1);
        let dx = dev.upload(&x)?;
        let mut dy = dev.alloc::<f32>(M * N)?;
        let bytes = (2 * M * N * 4) as f64;
        let stream = dev.stream();
        println!();
        println!("| tile | warps | smem bytes | check | weft ms | weft GB/s | D2D GB/s | weft / D2D | vs Gluon 3844 GB/s |");
        println!("|---|---|---|---|---|---|---|---|---|");
        let mut failed = false;
        for c in configs {
            let k = kernels::transpose_smem_kernel(ctx, target, *c)?;
            let kernel = dev.load_ptx(&k.ptx()?)?.kernel(k.signature().clone())?;
            let cfg = LaunchConfig::for_kernel(c.grid(M as u64, N as u64), k.signature())?;
            dy.fill_bytes(0xFF)?;
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).scalar(M as i32).scalar(N as i32);
            // SAFETY: reads x[0..M*N), writes y[0..N*M), both M*N f32.
            unsafe { stream.launch(&kernel, &cfg, &args)? };
            stream.synchronize()?;
            let y = dy.to_vec()?;
            let (bad, first) = check(&x, &y);
            drop(y);
            let status = match first {
                None => "ok".to_string(),
                Some((i, j)) => {
                    failed = true;
                    format!("FAIL: {bad} differ, first y[{j}, {i}]")
                }
            };
            // The D2D baseline: a copy of M·N f32 reads and writes as many bytes.
            let (ms, base_ms) = time_against_d2d(dev, &kernel, &cfg, &args, M * N * 4)?;
            let (w, b) = (bytes / (ms * 1e6), bytes / (base_ms * 1e6));
            println!(
                "| {}x{} | {} | {} | {status} | {:.3} | {w:.0} | {b:.0} | {:.3} | {:.3} |",
                c.tile_rows,
                c.tile_cols,
                c.num_warps,
                k.signature().shared_bytes,
                ms,
                w / b,
                w / 3844.0
            );
        }
        if failed {
            return Err("a configuration failed its host check".into());
        }
        Ok(())
    }
}
