//! The row kernels (RMSNorm forward, the norms' backward passes and their column sums, softmax
//! backward, cross entropy, RoPE, the one-pass and split softmax, the looped RMSNorm, the layer norm over any element type) without a GPU: their PTX assembles with ptxas for sm_90 (and sm_80
//! where no fp8 is involved) at the benchmark's shapes and at odd ones, with no register spills
//! at the benchmark's configurations (`ptxas -v`; the norms' backward at 16K excepted); 16-bit rows move in 16-byte vectors when `n`
//! allows; the signatures name the parameters in the documented order.
#![cfg(feature = "llvm")]

mod common;

use common::{assemble, global_accesses, ptxas_log_with};
use weft::codegen::kernels::{
    col_sum_kernel, cross_entropy_bwd_kernel, cross_entropy_fwd_kernel, layernorm_rows_kernel,
    norm_bwd_kernel, rmsnorm_kernel, rmsnorm_looped_kernel, rope_kernel, softmax_bwd_kernel,
    softmax_rows_kernel, softmax_split_apply_kernel, softmax_split_stats_kernel, ColSumConfig,
    Norm, RmsNormOptions, RmsNormOutput, RopeStyle, RowConfig,
};
use weft::codegen::{parse_ptxas_verbose, Context, DType, Kernel, Target};

/// ptxas -v's spill figures of `k` for sm_90 (None without ptxas).
fn spills(k: &Kernel<'_>, what: &str) -> Option<(u64, u64)> {
    let log = ptxas_log_with(&k.ptx().unwrap(), "sm_90", &["-v"], what)?;
    let info = parse_ptxas_verbose(&log, &k.signature().name)
        .unwrap_or_else(|e| panic!("{what}: {e}\n{log}"));
    Some((info.spill_store_bytes, info.spill_load_bytes))
}

/// The benchmark's kernels: each built, assembled, and free of spills (but the norms' backward
/// passes at 16K columns).
#[test]
fn the_benchmark_configs_assemble_without_spills_on_sm90() {
    let ctx = Context::new();
    let bf = DType::BF16;
    let mut built: Vec<(String, Kernel<'_>)> = vec![];
    for n in [4096u32, 8192, 16384] {
        let c = RowConfig::for_n(n, bf);
        for (o, name) in [
            (RmsNormOptions::PLAIN, "plain"),
            (
                RmsNormOptions {
                    residual: true,
                    output: RmsNormOutput::Fp8RowScale,
                },
                "residual fp8",
            ),
        ] {
            built.push((
                format!("rmsnorm {n} {name}"),
                rmsnorm_kernel(&ctx, Target::SM90, c, o).unwrap(),
            ));
        }
        built.push((
            format!("rmsnorm bwd {n}"),
            norm_bwd_kernel(&ctx, Target::SM90, c, Norm::Rms).unwrap(),
        ));
        built.push((
            format!("layernorm bwd {n}"),
            norm_bwd_kernel(&ctx, Target::SM90, c, Norm::Layer).unwrap(),
        ));
    }
    for dtype in [DType::F32, bf] {
        let c = RowConfig::for_n(16384, dtype);
        built.push((
            format!("softmax bwd {dtype}"),
            softmax_bwd_kernel(&ctx, Target::SM90, c).unwrap(),
        ));
        let chunk = RowConfig {
            block_n: 8192,
            num_warps: 16,
            ..RowConfig::for_n(131072, dtype)
        };
        built.push((
            format!("ce fwd {dtype}"),
            cross_entropy_fwd_kernel(&ctx, Target::SM90, chunk).unwrap(),
        ));
        built.push((
            format!("ce bwd {dtype}"),
            cross_entropy_bwd_kernel(&ctx, Target::SM90, chunk).unwrap(),
        ));
    }
    built.push((
        "col sum".into(),
        col_sum_kernel(&ctx, Target::SM90, ColSumConfig::new(bf)).unwrap(),
    ));
    for (what, k) in &built {
        if let Some((st, ld)) = spills(k, what) {
            println!("{what}: spills {st} / {ld} bytes");
            // Layer-norm backward over 32 warps at 16K holds x, dy and its statistics of a 16K
            // row in 64 registers a thread: ptxas spills 16 bytes (its default is 16 warps).
            if what != "layernorm bwd 16384" {
                assert_eq!((st, ld), (0, 0), "{what} spills");
            }
        }
    }
}

/// The defaults (`RowKernel::default_config`, what `WEFT_NO_TUNE=1` runs) at `bench_rows`'
/// shapes do not spill, and keep 64 KB of row loads in flight per sm_90 SM (48 KB for two staged
/// kernels at one width each, whose loads stay in flight through their reductions) by the
/// occupancy model (registers from ptxas): what an H100 or H200 needs to saturate HBM.
#[cfg(feature = "autotune")]
#[test]
fn the_defaults_keep_their_rows_in_flight_without_spills() {
    use weft::codegen::kernels::RowKernel;
    use weft::codegen::occupancy::occupancy;
    let ctx = Context::new();
    let t = Target::SM90;
    // (kernel, tiles loaded before their first use, widths, KB in flight at least)
    let rows = [4096u32, 8192, 16384];
    let cases: [(RowKernel, u64, &[u32], u64); 10] = [
        (RowKernel::RmsNorm(RmsNormOptions::PLAIN), 1, &rows, 64),
        (RowKernel::LayernormFwd, 1, &rows, 64),
        // Three CTAs an SM at 8K (72 registers), whose next rows stay in flight throughout.
        (
            RowKernel::RmsNormStaged(RmsNormOptions::PLAIN),
            1,
            &rows,
            48,
        ),
        (RowKernel::NormBwd(Norm::Rms), 2, &rows, 64),
        (RowKernel::NormBwd(Norm::Layer), 2, &rows, 64),
        (RowKernel::NormBwdStaged(Norm::Rms), 2, &rows, 64),
        // Its two column sums and two stages leave three CTAs an SM at 4K (48 KB, but in flight
        // through the reductions too), one at 8K, none at 16K: a 4K kernel.
        (RowKernel::NormBwdStaged(Norm::Layer), 2, &rows[..1], 48),
        (RowKernel::SoftmaxSplit, 1, &[262144], 64),
        (RowKernel::CrossEntropyFwd, 1, &[131072], 64),
        (RowKernel::CrossEntropyBwd, 1, &[131072], 64),
    ];
    for (kind, tiles, widths, least) in cases {
        for &n in widths {
            let c = kind.default_config(n, DType::BF16);
            let what = format!("{} {n}", kind.name());
            let k = kind.build(&ctx, t, c).unwrap();
            let Some(log) = ptxas_log_with(&k.ptx().unwrap(), "sm_90", &["-v"], &what) else {
                return;
            };
            let info = parse_ptxas_verbose(&log, &k.signature().name).unwrap();
            assert_eq!(
                (info.spill_store_bytes, info.spill_load_bytes),
                (0, 0),
                "{what}: spills"
            );
            let threads = c.num_warps * t.warp_size();
            let o = occupancy(
                t,
                threads,
                info.registers as u32,
                k.signature().shared_bytes as u64,
            )
            .unwrap();
            let per_cta = tiles * c.rows_per_cta as u64 * c.block_n as u64 * 2;
            let kb = o.bytes_in_flight(per_cta) / 1024;
            println!(
                "{what}: {c:?}: {} registers, {o:?}, {kb} KB in flight",
                info.registers
            );
            assert!(kb >= least, "{what}: {c:?}: {o:?} keeps {kb} KB in flight");
        }
    }
}

/// Odd shapes and other element types assemble for sm_80 and sm_90.
#[test]
fn odd_shapes_assemble_for_sm80_and_sm90() {
    for dtype in [DType::F32, DType::F16, DType::BF16] {
        for n in [17u32, 1001, 4099] {
            let one = RowConfig::for_n(n, dtype);
            let c = RowConfig {
                rows_per_cta: 2,
                num_warps: (one.num_warps * 2).clamp(4, 32),
                ..one
            };
            for t in [Target::SM80, Target::SM90] {
                let ctx = Context::new();
                let res = RmsNormOptions {
                    residual: true,
                    ..RmsNormOptions::PLAIN
                };
                let ks = [
                    rmsnorm_kernel(&ctx, t, c, res).unwrap(),
                    norm_bwd_kernel(&ctx, t, c, Norm::Layer).unwrap(),
                    softmax_bwd_kernel(&ctx, t, c).unwrap(),
                    cross_entropy_fwd_kernel(&ctx, t, c).unwrap(),
                    cross_entropy_bwd_kernel(&ctx, t, c).unwrap(),
                    rope_kernel(&ctx, t, c, RopeStyle::Interleaved).unwrap(),
                    softmax_rows_kernel(&ctx, t, c).unwrap(),
                    layernorm_rows_kernel(&ctx, t, c).unwrap(),
                    softmax_split_stats_kernel(&ctx, t, c).unwrap(),
                    softmax_split_apply_kernel(&ctx, t, c).unwrap(),
                    rmsnorm_looped_kernel(&ctx, t, c, res).unwrap(),
                    rope_kernel(&ctx, t, c, RopeStyle::HalfRotated).unwrap(),
                ];
                for k in &ks {
                    assemble(
                        &k.ptx().unwrap(),
                        &t.to_string(),
                        &format!("{} {n} {dtype}", k.signature().name),
                    );
                }
            }
        }
    }
}

/// bf16 rows of 16K: every access of x, w, y is one 16-byte vector (8 bf16); with n only a
/// multiple of 2, 4-byte accesses.
#[test]
fn bf16_rows_move_in_16_byte_vectors() {
    let ctx = Context::new();
    let c = RowConfig::for_n(16384, DType::BF16);
    assert_eq!((c.per_thread, c.num_warps, c.n_divisibility), (8, 32, 16));
    let k = rmsnorm_kernel(&ctx, Target::SM90, c, RmsNormOptions::PLAIN).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    // 16384 / (1024 threads × 8) = 2 vectors of x, 2 of w, 2 of y.
    assert_eq!(acc.len(), 6, "{acc:?}");
    assert!(acc.iter().all(|a| a.contains(".v4.b32")), "{acc:?}");
    let c = RowConfig::for_n(4098, DType::BF16);
    assert_eq!(c.n_divisibility, 2);
    let k = softmax_bwd_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert!(!acc.iter().any(|a| a.contains(".v4")), "{acc:?}");
}

#[test]
fn signatures_name_the_parameters_in_order() {
    let ctx = Context::new();
    let c = RowConfig::for_n(1024, DType::BF16);
    let o = RmsNormOptions {
        residual: true,
        output: RmsNormOutput::Fp8TensorScale,
    };
    let sig = rmsnorm_kernel(&ctx, Target::SM90, c, o)
        .unwrap()
        .signature()
        .to_string();
    let names = [
        "x: *bf16",
        "residual: *bf16",
        "w: *bf16",
        "y: *f8e4m3",
        "scale: *f32",
        "m: i32",
        "n: i32",
        "eps: f32",
    ];
    let mut at = 0;
    for name in names {
        let i = sig[at..]
            .find(name)
            .unwrap_or_else(|| panic!("{sig} lacks {name} after {at}"));
        at += i + name.len();
    }
    let sig = norm_bwd_kernel(&ctx, Target::SM90, c, Norm::Layer)
        .unwrap()
        .signature()
        .to_string();
    assert!(
        sig.contains("dw_part: *f32") && sig.contains("db_part: *f32"),
        "{sig}"
    );
    let sig = norm_bwd_kernel(&ctx, Target::SM90, c, Norm::Rms)
        .unwrap()
        .signature()
        .to_string();
    assert!(!sig.contains("db_part"), "{sig}");
}

/// Every candidate the autotuner would time builds, the default is among them, and a choice
/// written to a disk cache the way the autotuner writes it is what `kernel_for_shape` picks for
/// that device (another device, or no cache, gets the default).
#[cfg(feature = "autotune")]
#[test]
fn candidates_build_and_the_cached_choice_is_picked() {
    use weft::codegen::kernels::RowKernel;
    use weft::runtime::autotune::{disk::fnv1a, DiskCache, Entry, EntryKey};
    let ctx = Context::new();
    let t = Target::SM90;
    let kinds = [
        RowKernel::RmsNorm(RmsNormOptions::PLAIN),
        RowKernel::NormBwd(Norm::Layer),
        RowKernel::NormBwdStaged(Norm::Layer),
        RowKernel::RmsNormStaged(RmsNormOptions::PLAIN),
        RowKernel::SoftmaxBwd,
        RowKernel::CrossEntropyFwd,
        RowKernel::RmsNormLooped(RmsNormOptions::PLAIN),
        RowKernel::SoftmaxFwd,
        RowKernel::SoftmaxSplit,
        RowKernel::LayernormFwd,
    ];
    for kind in kinds {
        let cands = kind.candidates(4096, DType::BF16, t);
        assert!(cands.len() >= 4, "{kind:?}: {cands:?}");
        assert!(cands.contains(&kind.default_config(4096, DType::BF16)));
        for c in &cands {
            kind.build(&ctx, t, *c)
                .unwrap_or_else(|e| panic!("{kind:?} {c:?}: {e}"));
        }
    }
    // RoPE's rows are a head's pairs (64 at head size 128): its candidates take more rows a CTA.
    for style in [RopeStyle::Interleaved, RopeStyle::HalfRotated] {
        let kind = RowKernel::Rope(style);
        let cands = kind.candidates(64, DType::BF16, t);
        assert!(cands.len() >= 4, "{kind:?}: {cands:?}");
        let d = kind.default_config(64, DType::BF16);
        assert!(
            cands.contains(&d) && d.rows_per_cta >= 16,
            "{kind:?}: default {d:?}"
        );
        for c in &cands {
            kind.build(&ctx, t, *c)
                .unwrap_or_else(|e| panic!("{kind:?} {c:?}: {e}"));
        }
    }
    let kind = RowKernel::SoftmaxBwd;
    let dir = std::env::temp_dir().join(format!("weft-row-tuning-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cands = kind.candidates(4096, DType::BF16, t);
    let pick = *cands.iter().find(|c| c.rows_per_cta == 2).unwrap();
    assert_ne!(pick, kind.default_config(4096, DType::BF16));
    let labels: Vec<String> = cands.iter().map(|c| format!("{c:?}")).collect();
    let key = EntryKey {
        configs_hash: fnv1a(labels.join("\n").as_bytes()),
        device: "GPU A".into(),
        driver: "13.0".into(),
        key: RowKernel::key(4096, DType::BF16),
    };
    let entry = Entry {
        config: format!("{pick:?}"),
        content_hash: 1,
        median_ms: 0.5,
    };
    DiskCache::new(&dir, &kind.name()).put(key, entry).unwrap();
    assert_eq!(
        kind.tuned(4096, DType::BF16, t, ("GPU A", "13.0"), Some(&dir)),
        Some(pick)
    );
    assert_eq!(
        kind.tuned(4096, DType::BF16, t, ("GPU B", "13.0"), Some(&dir)),
        None
    );
    assert_eq!(
        kind.tuned(8192, DType::BF16, t, ("GPU A", "13.0"), Some(&dir)),
        None
    );
    let _ = std::fs::remove_dir_all(&dir);
    // No device: the default.
    let (_, c) = kind
        .kernel_for_shape(&ctx, t, 4096, DType::BF16, None)
        .unwrap();
    assert_eq!(c, kind.default_config(4096, DType::BF16));
}
