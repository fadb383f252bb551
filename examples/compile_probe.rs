//! compile_probe: builds one kernel to PTX `N` times (for `valgrind --tool=callgrind`, whose
//! instruction count per compile is the load-independent compile-latency figure of
//! BENCHMARKS.md) and writes the last PTX (and the IR as built) to files.
//!
//! `cargo build --release --example compile_probe --features llvm`, then
//! `compile_probe <kernel> [N] [out.ptx] [out.ll]` with `<kernel>` one of `gemm`, `gemm_sm80`,
//! `attention`, `attention_pp`, `attention_fp8`, `softmax`, `transpose_smem`, `transpose`, `memcpy`; or
//! `compile_probe sweep <dir>`, which writes the PTX of every shipped kernel in several
//! configurations to `<dir>` (to compare builds; with `PROBE_IR` set, their IR as built too; with
//! `PROBE_REPLAY` set, each kernel is also rebuilt from its recorded program and the two LLVM IRs
//! compared, a line on stderr for each that differs; with `PROBE_REPORT` set, each kernel's
//! `Kernel::report()`, every field, to `<name>.report`).

#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: compile_probe needs the `llvm` feature");
}

#[cfg(feature = "llvm")]
fn main() {
    use weft::codegen::kernels::{self, Tile2d};
    use weft::codegen::{Context, DType, Target};

    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map(String::as_str).unwrap_or("gemm");
    if name == "sweep" {
        sweep(args.get(2).map(String::as_str).unwrap_or("."));
        return;
    }
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut ptx = String::new();
    let mut ir = String::new();
    for _ in 0..n {
        let ctx = Context::new();
        let k = match name {
            "gemm" => {
                kernels::gemm_kernel(&ctx, Target::SM90A, kernels::GemmConfig::new(DType::F16))
            }
            "gemm_sm80" => kernels::gemm_sm80_kernel(
                &ctx,
                Target::SM80,
                kernels::GemmSm80Config::new(128, 256, 64, 3, 8),
                DType::F16,
            ),
            "attention" => kernels::attention_kernel(
                &ctx,
                Target::SM90A,
                kernels::AttentionConfig::new(DType::F16, false),
            ),
            "attention_pp" => kernels::attention_kernel(
                &ctx,
                Target::SM90A,
                kernels::AttentionConfig::ping_pong(DType::F16, false),
            ),
            "attention_fp8" => kernels::attention_fp8_kernel(
                &ctx,
                Target::SM90A,
                kernels::Fp8AttentionConfig::new(128, false),
            ),
            "gemm_ws" => {
                let mut c = kernels::GemmConfig::new(DType::F16);
                c.warp_specialized = true;
                kernels::gemm_kernel(&ctx, Target::SM90A, c)
            }
            "softmax" => kernels::softmax_kernel(
                &ctx,
                Target::SM90,
                kernels::SoftmaxConfig::for_n(16384, 1, 4, 16),
            ),
            "transpose_smem" => {
                kernels::transpose_smem_kernel(&ctx, Target::SM90, kernels::TRANSPOSE_CONFIGS[0])
            }
            "transpose" => kernels::transpose_kernel(
                &ctx,
                Target::SM90,
                Tile2d {
                    rows: 64,
                    cols: 64,
                    per_thread: 4,
                    num_warps: 4,
                },
            ),
            "memcpy" => kernels::memcpy_kernel(&ctx, Target::SM90, 2048, 4, 4),
            other => panic!("unknown kernel {other}"),
        }
        .expect("kernel builds");
        if args.len() > 4 {
            ir = k.llvm_ir();
        }
        ptx = k.into_ptx().expect("PTX");
    }
    if let Some(out) = args.get(3) {
        std::fs::write(out, &ptx).expect("write PTX");
    }
    if let Some(out) = args.get(4) {
        std::fs::write(out, ir).expect("write IR");
    }
}

/// Writes the PTX of a wide set of kernels (every shipped kernel in several configurations) to
/// `dir`, one file each, to compare two builds' output.
#[cfg(feature = "llvm")]
fn sweep(dir: &str) {
    use weft::codegen::kernels::{self, Tile2d};
    use weft::codegen::{Context, DType, Kernel, Result, Target};

    std::fs::create_dir_all(dir).expect("output directory");
    let ir = std::env::var_os("PROBE_IR").is_some();
    let replay = std::env::var_os("PROBE_REPLAY").is_some();
    let report = std::env::var_os("PROBE_REPORT").is_some();
    let replayed = std::cell::Cell::new((0, 0));
    let write = |name: String, k: Result<Kernel<'_>>| {
        if let (true, Ok(k)) = (ir, &k) {
            std::fs::write(format!("{dir}/{name}.ll"), k.llvm_ir()).expect("write IR");
        }
        if let (true, Ok(k)) = (report, &k) {
            let text = format!("{:#?}", k.report());
            std::fs::write(format!("{dir}/{name}.report"), text).expect("write report");
        }
        if let (true, Ok(k)) = (replay, &k) {
            // The kernel built again from its recorded program, into a fresh context.
            let ctx = Context::new();
            let (same, all) = replayed.get();
            let again =
                weft::codegen::KernelBuilder::replay(&ctx, k.program()).map(|r| r.llvm_ir());
            match again {
                Ok(r) if r == k.llvm_ir() => replayed.set((same + 1, all + 1)),
                Ok(_) => {
                    eprintln!("{name}: the replay's LLVM IR differs");
                    replayed.set((same, all + 1));
                }
                Err(e) => {
                    eprintln!("{name}: replay failed: {e}");
                    replayed.set((same, all + 1));
                }
            }
        }
        let ptx = k
            .and_then(|k| k.ptx())
            .unwrap_or_else(|e| format!("error: {e}"));
        std::fs::write(format!("{dir}/{name}.ptx"), ptx).expect("write PTX");
    };
    let ctx = Context::new();
    for d in [DType::F16, DType::BF16, DType::F32, DType::F8E4M3] {
        let c = kernels::GemmConfig::new(d);
        write(
            format!("gemm_{d:?}"),
            kernels::gemm_kernel(&ctx, Target::SM90A, c),
        );
        let mut p = c;
        p.persistent = true;
        write(
            format!("gemm_{d:?}_persistent"),
            kernels::gemm_kernel(&ctx, Target::SM90A, p),
        );
        let mut t = c;
        t.b_transposed = !t.b_transposed;
        write(
            format!("gemm_{d:?}_bt"),
            kernels::gemm_kernel(&ctx, Target::SM90A, t),
        );
        let mut w = c;
        w.warp_specialized = true;
        write(
            format!("gemm_{d:?}_ws"),
            kernels::gemm_kernel(&ctx, Target::SM90A, w),
        );
        w.persistent = true;
        write(
            format!("gemm_{d:?}_ws_persistent"),
            kernels::gemm_kernel(&ctx, Target::SM90A, w),
        );
    }
    for causal in [false, true] {
        for hd in [64, 128] {
            for schedule in [
                kernels::AttentionSchedule::Serial,
                kernels::AttentionSchedule::PingPong,
            ] {
                // Serial takes Vᵀ; the ping-pong kernel transposes V's rows itself.
                let c = kernels::Fp8AttentionConfig {
                    schedule,
                    v_transposed: schedule == kernels::AttentionSchedule::Serial,
                    ..kernels::Fp8AttentionConfig::new(hd, causal)
                };
                write(
                    format!("attention_fp8_{causal}_{hd}_{schedule:?}"),
                    kernels::attention_fp8_kernel(&ctx, Target::SM90A, c),
                );
            }
        }
    }
    // The block-scaled fp8 GEMM as shipped, its small-M fit, and the per-tensor fp8 GEMM on the
    // same 128 × 128 tile (to read the two main loops' SASS side by side).
    let bs = kernels::GemmConfig::block_scaled();
    write(
        "gemm_blockscaled".into(),
        kernels::gemm_blockscaled_kernel(&ctx, Target::SM90A, bs),
    );
    write(
        "gemm_blockscaled_scales_ahead".into(),
        kernels::gemm_blockscaled_kernel_with(
            &ctx,
            Target::SM90A,
            bs,
            kernels::ScaleLoads::OneBlockAhead,
        ),
    );
    write(
        "gemm_blockscaled_staged".into(),
        kernels::gemm_blockscaled_kernel_with(&ctx, Target::SM90A, bs, kernels::ScaleLoads::Staged),
    );
    write(
        "gemm_blockscaled_m64".into(),
        kernels::gemm_blockscaled_kernel(
            &ctx,
            Target::SM90A,
            kernels::GemmConfig::block_scaled_for(64, 7168, 132),
        ),
    );
    write(
        "gemm_F8E4M3_ws_persistent_n128".into(),
        kernels::gemm_kernel(&ctx, Target::SM90A, bs),
    );
    // Both in clusters of two CTAs along M that multicast their shared B box.
    let c2 = kernels::GemmConfig { cluster_m: 2, ..bs };
    write(
        "gemm_blockscaled_c2".into(),
        kernels::gemm_blockscaled_kernel(&ctx, Target::SM90A, c2),
    );
    let pt_c2 = kernels::GemmConfig {
        warp_specialized: true,
        persistent: true,
        cluster_m: 2,
        ..kernels::GemmConfig::new(DType::F8E4M3)
    };
    write(
        "gemm_F8E4M3_ws_persistent_c2".into(),
        kernels::gemm_kernel(&ctx, Target::SM90A, pt_c2),
    );
    let f16_c2 = kernels::GemmConfig {
        warp_specialized: true,
        persistent: true,
        cluster_m: 2,
        ..kernels::GemmConfig::new(DType::F16)
    };
    write(
        "gemm_F16_ws_persistent_c2".into(),
        kernels::gemm_kernel(&ctx, Target::SM90A, f16_c2),
    );
    write(
        "gemm_grouped_F8E4M3_Contiguous_scales_ahead".into(),
        kernels::gemm_grouped_kernel_with(
            &ctx,
            Target::SM90A,
            kernels::GemmConfig::grouped(DType::F8E4M3),
            kernels::GroupedLayout::Contiguous,
            kernels::ScaleLoads::OneBlockAhead,
        ),
    );
    write(
        "gemm_grouped_F8E4M3_Masked_staged".into(),
        kernels::gemm_grouped_kernel_with(
            &ctx,
            Target::SM90A,
            kernels::GemmConfig::grouped(DType::F8E4M3),
            kernels::GroupedLayout::Masked,
            kernels::ScaleLoads::Staged,
        ),
    );
    for d in [DType::BF16, DType::F8E4M3] {
        for layout in [
            kernels::GroupedLayout::Contiguous,
            kernels::GroupedLayout::Masked,
        ] {
            write(
                format!("gemm_grouped_{d:?}_{layout:?}"),
                kernels::gemm_grouped_kernel(
                    &ctx,
                    Target::SM90A,
                    kernels::GemmConfig::grouped(d),
                    layout,
                ),
            );
        }
    }
    for d in [DType::F16, DType::BF16] {
        for causal in [false, true] {
            for hd in [64, 128, 256] {
                for schedule in [
                    kernels::AttentionSchedule::Serial,
                    kernels::AttentionSchedule::Pipelined,
                    kernels::AttentionSchedule::PingPong,
                ] {
                    let c = match schedule {
                        kernels::AttentionSchedule::PingPong => {
                            kernels::AttentionConfig::ping_pong(d, causal)
                        }
                        _ => kernels::AttentionConfig::new(d, causal),
                    };
                    let c = kernels::AttentionConfig { schedule, ..c }.with_head_dim(hd);
                    write(
                        format!("attention_{d:?}_{causal}_{hd}_{schedule:?}"),
                        kernels::attention_kernel(&ctx, Target::SM90A, c),
                    );
                    // Grouped KV heads, and variable lengths.
                    let grouped = kernels::AttentionConfig { kv_group: 4, ..c };
                    write(
                        format!("attention_{d:?}_{causal}_{hd}_{schedule:?}_gqa4"),
                        kernels::attention_kernel(&ctx, Target::SM90A, grouped),
                    );
                    // Ping-pong takes no variable lengths at D256 (ptxas would spill).
                    if hd == 256 && schedule == kernels::AttentionSchedule::PingPong {
                        continue;
                    }
                    let packed = kernels::AttentionConfig { varlen: true, ..c };
                    write(
                        format!("attention_{d:?}_{causal}_{hd}_{schedule:?}_varlen"),
                        kernels::attention_kernel(&ctx, Target::SM90A, packed),
                    );
                }
            }
        }
        for (i, c) in kernels::GEMM_SM80_CONFIGS.iter().enumerate() {
            write(
                format!("gemm_sm80_{d:?}_{i}"),
                kernels::gemm_sm80_kernel(&ctx, Target::SM80, *c, d),
            );
            write(
                format!("gemm_sm80_{d:?}_{i}_bt"),
                kernels::gemm_sm80_kernel(&ctx, Target::SM80, c.with_b_transposed(true), d),
            );
        }
    }
    for n in [1000, 4096, 16384, 65536] {
        for (pt, nw) in [(4, 4), (4, 16), (8, 8)] {
            let c = kernels::SoftmaxConfig::for_n(n, 1, pt, nw);
            write(
                format!("softmax_{n}_{pt}_{nw}"),
                kernels::softmax_kernel(&ctx, Target::SM90, c),
            );
            let c = kernels::LayernormConfig::for_n(n, 1, pt, nw);
            write(
                format!("layernorm_{n}_{pt}_{nw}"),
                kernels::layernorm_kernel(&ctx, Target::SM90, c),
            );
        }
    }
    for (i, t) in kernels::ROW_SUM_TILES.iter().enumerate() {
        write(
            format!("row_sum_{i}"),
            kernels::row_sum_kernel(&ctx, Target::SM90, *t),
        );
    }
    for (i, t) in kernels::CUMSUM_TILES.iter().enumerate() {
        write(
            format!("cumsum_{i}"),
            kernels::cumsum_kernel(&ctx, Target::SM90, *t),
        );
    }
    for (i, c) in kernels::TRANSPOSE_CONFIGS.iter().enumerate() {
        write(
            format!("transpose_smem_{i}"),
            kernels::transpose_smem_kernel(&ctx, Target::SM90, *c),
        );
    }
    let tile = Tile2d {
        rows: 64,
        cols: 64,
        per_thread: 4,
        num_warps: 4,
    };
    write(
        "transpose".into(),
        kernels::transpose_kernel(&ctx, Target::SM90, tile),
    );
    write(
        "copy_2d".into(),
        kernels::copy_2d_kernel(&ctx, Target::SM90, tile),
    );
    write(
        "memcpy".into(),
        kernels::memcpy_kernel(&ctx, Target::SM90, 2048, 4, 4),
    );
    write(
        "add".into(),
        kernels::add_kernel(&ctx, Target::SM90, 2048, 4, 4),
    );
    if replay {
        let (same, all) = replayed.get();
        println!(
            "replay: {same} of {all} kernels rebuilt from their programs print the same LLVM IR"
        );
    }
}
