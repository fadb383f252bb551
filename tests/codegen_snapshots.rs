//! Snapshots of the LLVM IR of the example kernels (copies, transposes, row sum, softmax,
//! layernorm, cumsum; the sm_80 GEMM on NVIDIA; the Hopper GEMMs and both attention schedules on
//! sm_90a), per target, and ptxas 13.0 acceptance of every NVIDIA one.
//!
//! The IR is compared as built (before O3, so LLVM's optimiser does not move the snapshots),
//! normalised: the module id and source file lines are dropped. Snapshots live in
//! `tests/snapshots/<kernel>.<target>.ll`; `BLESS=1 cargo test --features llvm,amdgpu --test
//! codegen_snapshots` rewrites them, and `git diff` shows what changed. AMD snapshots are
//! checked when feature `amdgpu` is on.
mod common;

use std::path::PathBuf;

use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, DType, Kernel, Result, Target, Vendor};

/// The example kernels, by name.
fn build<'c>(ctx: &'c Context, name: &str, t: Target) -> Result<Kernel<'c>> {
    let tile = Tile2d {
        rows: 32,
        cols: 128,
        per_thread: 4,
        num_warps: 4,
    };
    match name {
        "memcpy" => kernels::memcpy_kernel(ctx, t, 2048, 4, 4),
        "add" => kernels::add_kernel(ctx, t, 1024, 4, 4),
        "copy_2d" => kernels::copy_2d_kernel(ctx, t, tile),
        "transpose" => kernels::transpose_kernel(
            ctx,
            t,
            Tile2d {
                rows: 64,
                cols: 64,
                ..tile
            },
        ),
        "gemm_sm80" => kernels::gemm_sm80_kernel(ctx, t, kernels::GEMM_SM80_CONFIGS[4], DType::F16),
        "gemm_nn" => {
            // The Hopper GEMM at a small size: 64 × 64 tiles, one warpgroup, 2 stages.
            let mut c = kernels::GemmConfig::new(DType::F16);
            c.block_m = 64;
            c.block_n = 64;
            c.num_warps = 4;
            c.stages = 2;
            kernels::gemm_kernel(ctx, t, c)
        }
        "row_sum" => kernels::row_sum_kernel(ctx, t, tile),
        "cumsum" => kernels::cumsum_kernel(ctx, t, tile),
        "softmax" => kernels::softmax_kernel(ctx, t, kernels::SoftmaxConfig::for_n(1024, 1, 4, 4)),
        "layernorm" => {
            kernels::layernorm_kernel(ctx, t, kernels::LayernormConfig::for_n(1024, 1, 4, 4))
        }
        "transpose_smem" => kernels::transpose_smem_kernel(ctx, t, kernels::TRANSPOSE_CONFIGS[0]),
        "gemm_ws" => {
            // The warp-specialised schedule at its smallest: a producer warpgroup and one
            // consumer warpgroup of 64 × 64 tiles, 2 stages.
            let mut c = kernels::GemmConfig::new(DType::F16);
            c.block_m = 64;
            c.block_n = 64;
            c.num_warps = 4;
            c.stages = 2;
            c.warp_specialized = true;
            kernels::gemm_kernel(ctx, t, c)
        }
        "attention" | "attention_pp" => {
            // Head dim 64 keeps the IR a quarter of the default's.
            let mut c = if name == "attention" {
                kernels::AttentionConfig::new(DType::F16, false)
            } else {
                kernels::AttentionConfig::ping_pong(DType::F16, false)
            };
            c.head_dim = 64;
            kernels::attention_kernel(ctx, t, c)
        }
        _ => unreachable!("unknown kernel {name}"),
    }
}

const KERNELS: [&str; 9] = [
    "memcpy",
    "add",
    "copy_2d",
    "transpose",
    "row_sum",
    "softmax",
    "layernorm",
    "cumsum",
    "transpose_smem",
];

/// The kernels built for `t`: every one, the tensor-core GEMM (`mma.sync`) on NVIDIA and the
/// TMA + wgmma GEMMs (plain and warp-specialised) and attention (serial and ping-pong) on sm_90a.
fn kernels_for(t: Target) -> Vec<&'static str> {
    let mut k = KERNELS.to_vec();
    if t.vendor() == Vendor::Nvidia {
        k.push("gemm_sm80");
    }
    if t.supports(weft::target::Feature::Wgmma) {
        k.extend(["gemm_nn", "gemm_ws", "attention", "attention_pp"]);
    }
    k
}

fn targets() -> Vec<Target> {
    let mut t = vec![Target::SM80, Target::SM90, Target::SM90A];
    if cfg!(feature = "amdgpu") {
        t.extend([Target::GFX90A, Target::GFX942, Target::GFX950]);
    }
    t
}

/// Drops the lines that name the module or the source file.
fn normalise(ir: &str) -> String {
    let mut out: String = ir
        .lines()
        .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    out.push('\n');
    out
}

fn snapshot_path(kernel: &str, t: Target) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{kernel}.{t}.ll"))
}

#[test]
fn llvm_ir_matches_the_snapshots() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut stale = Vec::new();
    for t in targets() {
        for k in kernels_for(t) {
            let ctx = Context::new();
            let ir = normalise(&build(&ctx, k, t).unwrap().llvm_ir());
            let path = snapshot_path(k, t);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &ir).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(old) if old == ir => {}
                Ok(old) => {
                    let first = old
                        .lines()
                        .zip(ir.lines())
                        .position(|(a, b)| a != b)
                        .unwrap_or(0);
                    stale.push(format!(
                        "{}: differs from line {}:\n  snapshot: {}\n  now:      {}",
                        path.display(),
                        first + 1,
                        old.lines().nth(first).unwrap_or(""),
                        ir.lines().nth(first).unwrap_or("")
                    ));
                }
                Err(_) => stale.push(format!("{}: missing", path.display())),
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale snapshots (BLESS=1 rewrites them):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_nvidia_kernel_assembles_with_ptxas() {
    for t in targets()
        .into_iter()
        .filter(|t| t.vendor() == Vendor::Nvidia)
    {
        for k in kernels_for(t) {
            let ctx = Context::new();
            let kernel = build(&ctx, k, t).unwrap();
            let ptx = kernel.ptx().unwrap();
            assert!(
                ptx.contains(".version 8.0"),
                "PTX ISA must stay pinned at 8.0: {k} {t}"
            );
            assert!(ptx.contains(&format!(".target {t}")), "{k} {t}");
            let entry = &kernel.signature().name;
            assert!(
                ptx.contains(&format!(".visible .entry {entry}(")),
                "a kernel entry, not a .func: {k} {t}"
            );
            common::assemble(&ptx, &t.to_string(), &format!("{k} ({t})"));
            // The fast paths must assemble too, and keep the vector accesses (their wgmmas may
            // be serialised: unoptimised code copies accumulators in flight).
            for opt in [weft::codegen::OptLevel::None, weft::codegen::OptLevel::Fast] {
                let raw = kernel.ptx_with(opt).unwrap();
                common::ptxas_log(&raw, &t.to_string(), &format!("{k} {opt:?} ({t})"));
                let vec = |p: &str| p.matches(".v4.").count();
                assert_eq!(
                    vec(&raw) > 0,
                    vec(&ptx) > 0,
                    "{k} {opt:?} {t}: vector accesses differ"
                );
            }
        }
    }
}

#[test]
fn snapshots_are_kernel_entries_with_the_right_calling_convention() {
    for t in targets() {
        let ctx = Context::new();
        let ir = build(&ctx, "memcpy", t).unwrap().llvm_ir();
        let cc = match t.vendor() {
            Vendor::Nvidia => "define ptx_kernel void @memcpy(",
            Vendor::Amd => "define amdgpu_kernel void @memcpy(",
        };
        assert!(ir.contains(cc), "{t}: {ir}");
        let triple = match t.vendor() {
            weft::target::Vendor::Nvidia => "nvptx64-nvidia-cuda",
            weft::target::Vendor::Amd => "amdgcn-amd-amdhsa",
        };
        assert!(ir.contains(triple), "{t}");
    }
}
