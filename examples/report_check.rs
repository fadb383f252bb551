//! report_check: checks `Kernel::report()`'s predictions against Nsight Compute on a GPU.
//!
//! For each case (a ready-made kernel at a fixed size: the transpose through `convert_layout`,
//! whose planned conversion is conflict-free; softmax and its cross-warp reductions; the row sum
//! with its loop; a tile round trip through an unswizzled shared buffer, where the report predicts
//! 7 extra wavefronts per read, and through a swizzled one) it runs itself under `ncu` with
//! `--launch CASE`, reads the counters, and compares them with the report's per-warp figures
//! times the warps and CTAs of the launch (times the loop's iterations for rows in its body):
//!
//! | ncu metric | the report's figure |
//! |---|---|
//! | `smsp__inst_executed_op_shared_ld.sum` / `_st.sum` | `shared_loads/stores.instructions` |
//! | `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum` / `_st.sum` | `conflicts()` (extra wavefronts) |
//! | `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum` / `_st.sum` | `wavefronts` |
//! | `smsp__inst_executed_op_global_ld.sum` / `_st.sum` | `global.accesses` |
//!
//! It prints one table and exits 1 on any mismatch (a metric ncu does not offer is shown as
//! `n/a` and not compared). Without `ncu` on the PATH (or `$NCU`), or without a GPU, it prints
//! the reports and predicted totals and says it skipped.
//!
//! ```sh
//! cargo build --release --example report_check --features llvm,cuda
//! target/release/examples/report_check            # all cases under ncu, then the table
//! target/release/examples/report_check --print     # the reports and predictions only
//! target/release/examples/report_check --launch softmax   # one launch (what ncu profiles)
//! ```
//! The binary is self-contained: ship `target/release/examples/report_check` to a GPU machine
//! with ncu and run it there (`scripts/ncu_check.sh` does both).

#[cfg(all(feature = "llvm", feature = "cuda"))]
mod common;

#[cfg(not(all(feature = "llvm", feature = "cuda")))]
fn main() {
    println!("SKIP: report_check needs the `llvm` and `cuda` features (--features llvm,cuda)");
}

#[cfg(all(feature = "llvm", feature = "cuda"))]
fn main() -> std::process::ExitCode {
    match check::main() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("report_check: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(all(feature = "llvm", feature = "cuda"))]
mod check {
    use std::process::{Command, ExitCode};

    use weft::codegen::kernels::{self, Tile2d};
    use weft::codegen::{Context, Kernel, KernelReport, ParamType, Result as CgResult, Target};
    use weft::layout::encoding::SwizzledShared;
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    use crate::common::gpu::device;
    use crate::common::{random, Result};

    /// One kernel at one size.
    struct Case {
        id: &'static str,
        m: usize,
        n: usize,
        /// Iterations of the kernel's loop (rows in its body run this many times).
        iterations: u64,
        grid: (u32, u32, u32),
        build: for<'c> fn(&'c Context, Target) -> CgResult<Kernel<'c>>,
    }

    const TILE: Tile2d = Tile2d {
        rows: 32,
        cols: 128,
        per_thread: 4,
        num_warps: 4,
    };

    fn cases() -> Vec<Case> {
        let t = kernels::TRANSPOSE_CONFIGS[0];
        let rs = kernels::ROW_SUM_TILES[0];
        let sm = kernels::SoftmaxConfig::for_n(4096, 1, 4, 8);
        vec![
            Case {
                id: "transpose_smem",
                m: 1024,
                n: 1024,
                iterations: 1,
                grid: t.grid(1024, 1024),
                build: |ctx, target| {
                    kernels::transpose_smem_kernel(ctx, target, kernels::TRANSPOSE_CONFIGS[0])
                },
            },
            Case {
                id: "softmax",
                m: 512,
                n: 4096,
                iterations: 1,
                grid: (sm.grid(512), 1, 1),
                build: |ctx, target| {
                    kernels::softmax_kernel(
                        ctx,
                        target,
                        kernels::SoftmaxConfig::for_n(4096, 1, 4, 8),
                    )
                },
            },
            Case {
                id: "row_sum",
                m: 1024,
                n: 1024,
                iterations: 1024 / rs.cols as u64,
                grid: kernels::row_sum_grid(rs, 1024),
                build: |ctx, target| {
                    kernels::row_sum_kernel(ctx, target, kernels::ROW_SUM_TILES[0])
                },
            },
            Case {
                id: "smem_round_trip",
                m: 1024,
                n: 1024,
                iterations: 1,
                grid: (1024 / TILE.cols, 1024 / TILE.rows, 1),
                build: |ctx, target| {
                    let sw = SwizzledShared::new(1, 1, 1, &[1, 0]);
                    kernels::smem_round_trip_kernel(ctx, target, TILE, sw)
                },
            },
            Case {
                id: "smem_round_trip_swizzled",
                m: 1024,
                n: 1024,
                iterations: 1,
                grid: (1024 / TILE.cols, 1024 / TILE.rows, 1),
                build: |ctx, target| {
                    let sw = SwizzledShared::new(4, 1, 8, &[1, 0]);
                    kernels::smem_round_trip_kernel(ctx, target, TILE, sw)
                },
            },
        ]
    }

    /// The counters compared, each with the report's prediction for a whole launch.
    const METRICS: [&str; 8] = [
        "smsp__inst_executed_op_shared_ld.sum",
        "smsp__inst_executed_op_shared_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "smsp__inst_executed_op_global_ld.sum",
        "smsp__inst_executed_op_global_st.sum",
    ];

    /// The report's figure for each of [`METRICS`], over a launch of `ctas` CTAs whose loop runs
    /// `iterations` times.
    fn predict(r: &KernelReport, ctas: u64, iterations: u64) -> [u64; 8] {
        let mut p = [0u64; 8];
        for row in &r.rows {
            let times = row.warps as u64 * ctas * if row.in_body { iterations } else { 1 };
            let (ld, st) = (&row.shared_loads, &row.shared_stores);
            let g = row.global.unwrap_or_default();
            let (gld, gst) = match row.op.as_str() {
                "load" => (g.accesses, 0),
                "store" => (0, g.accesses),
                _ => (0, 0),
            };
            let per_warp = [
                ld.instructions,
                st.instructions,
                ld.conflicts(),
                st.conflicts(),
                ld.wavefronts,
                st.wavefronts,
                gld,
                gst,
            ];
            for (x, y) in p.iter_mut().zip(per_warp) {
                *x += y * times;
            }
        }
        p
    }

    /// The GPU's target, from its compute capability (sm_90a on Hopper, so every kernel builds).
    fn target_of(dev: &weft::runtime::cuda::Device) -> Target {
        match dev.props().arch().as_str() {
            "sm_80" | "sm_86" | "sm_87" | "sm_89" => Target::SM80,
            _ => Target::SM90A,
        }
    }

    /// Builds and launches `case` once on `dev`, with random `x` and zeroed outputs.
    fn launch(dev: &weft::runtime::cuda::Device, case: &Case) -> Result<()> {
        let ctx = Context::new();
        let k = (case.build)(&ctx, target_of(dev))?;
        let sig = k.signature().clone();
        let kernel = dev.load_ptx(&k.ptx()?)?.kernel(sig.clone())?;
        let cfg = LaunchConfig::for_kernel(case.grid, &sig)?;
        let elems = case.m * case.n;
        let mut bufs = Vec::new();
        for (i, p) in sig.params.iter().enumerate() {
            if let ParamType::Ptr(_) = p.ty {
                bufs.push(dev.upload(&random(elems, i as u64 + 1))?);
            }
        }
        let mut args = KernelArgs::new();
        let mut next = bufs.iter();
        for p in &sig.params {
            match (p.ty, p.name.as_str()) {
                (ParamType::Ptr(_), _) => {
                    args.ptr(next.next().expect("one buffer per pointer"));
                }
                (ParamType::I32, "m") => {
                    args.scalar(case.m as i32);
                }
                (ParamType::I32, "n") => {
                    args.scalar(case.n as i32);
                }
                (ParamType::F32, _) => {
                    args.scalar(1e-5f32);
                }
                (ty, name) => {
                    return Err(format!("{}: parameter `{name}` ({ty:?})", case.id).into())
                }
            }
        }
        let stream = dev.stream();
        // SAFETY: every pointer parameter gets an m·n f32 buffer, at least what each kernel
        // reads or writes for an m × n problem.
        unsafe { stream.launch(&kernel, &cfg, &args)? };
        stream.synchronize()?;
        Ok(())
    }

    /// Runs `case` under ncu; each metric's value, `None` where ncu gave none.
    fn profile(ncu: &str, case: &Case, kernel: &str) -> Result<Vec<Option<u64>>> {
        let exe = std::env::current_exe()?;
        let out = Command::new(ncu)
            .args(["--csv", "--target-processes", "all", "--launch-count", "1"])
            .args(["--kernel-name", kernel, "--metrics", &METRICS.join(",")])
            .arg(&exe)
            .args(["--launch", case.id])
            .output()
            .map_err(|e| format!("cannot run `{ncu}`: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!(
                "{ncu} failed on {} ({}): {}{}",
                case.id,
                out.status,
                text.trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            )
            .into());
        }
        Ok(METRICS.iter().map(|m| metric_value(&text, m)).collect())
    }

    /// The value of `metric` in ncu's `--csv` output (quoted fields; the value last, perhaps
    /// with thousands separators).
    fn metric_value(csv: &str, metric: &str) -> Option<u64> {
        csv.lines().find_map(|line| {
            let fields = split_csv(line);
            let at = fields.iter().position(|f| f == metric)?;
            let v = fields.last().filter(|_| at + 1 < fields.len())?;
            let digits: String = v.chars().filter(|c| *c != ',').collect();
            digits.parse::<f64>().ok().map(|x| x.round() as u64)
        })
    }

    fn split_csv(line: &str) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => out.push(String::new()),
                c => out.last_mut().expect("a field").push(c),
            }
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Two lines of `ncu --csv` (quoted fields, a block size with commas, a value with a
        /// thousands separator, one metric ncu has no value for).
        const CSV: &str = r#""ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","report_check","127.0.0.1","softmax","1","7","(256, 1, 1)","(512, 1, 1)","0","9.0","Command line profiler metrics","smsp__inst_executed_op_shared_ld.sum","inst","65,536"
"0","4242","report_check","127.0.0.1","softmax","1","7","(256, 1, 1)","(512, 1, 1)","0","9.0","Command line profiler metrics","l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum","","n/a"
"#;

        #[test]
        fn ncu_csv_values_are_read() {
            assert_eq!(
                metric_value(CSV, "smsp__inst_executed_op_shared_ld.sum"),
                Some(65536)
            );
            assert_eq!(
                metric_value(
                    CSV,
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
                ),
                None
            );
            assert_eq!(
                metric_value(CSV, "smsp__inst_executed_op_global_ld.sum"),
                None
            );
        }

        #[test]
        fn predictions_scale_with_warps_ctas_and_iterations() {
            let ctx = Context::new();
            let case = cases().into_iter().find(|c| c.id == "row_sum").unwrap();
            let k = (case.build)(&ctx, Target::SM90A).unwrap();
            let p = predict(&k.report(), 64, case.iterations);
            // 16 × 256 tiles, 4 warps, 4 f32 per thread: 8 loads per iteration and thread.
            assert_eq!(p[6], 8 * 4 * 64 * case.iterations);
            assert_eq!(p[0], 0);
        }
    }

    pub fn main() -> Result<ExitCode> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let cases = cases();
        let find = |id: &str| {
            cases
                .iter()
                .find(|c| c.id == id)
                .ok_or_else(|| format!("unknown case `{id}`"))
        };
        let dev = device();
        if let [flag, id] = args.as_slice() {
            if flag == "--launch" {
                let case = find(id)?;
                let dev = dev.ok_or("no GPU")?;
                launch(&dev, case)?;
                return Ok(ExitCode::SUCCESS);
            }
        }
        let print_only = args.iter().any(|a| a == "--print");
        let ncu = std::env::var("NCU").unwrap_or_else(|_| "ncu".into());
        let have_ncu = Command::new(&ncu).arg("--version").output().is_ok();
        let target = dev.as_ref().map_or(Target::SM90A, target_of);
        println!("| case | metric | predicted | ncu | |");
        println!("|---|---|---|---|---|");
        let mut failed = false;
        let mut reports = Vec::new();
        for case in &cases {
            let ctx = Context::new();
            let k = (case.build)(&ctx, target)?;
            let r = k.report();
            let ctas = case.grid.0 as u64 * case.grid.1 as u64 * case.grid.2 as u64;
            let predicted = predict(&r, ctas, case.iterations);
            let measured = if print_only || !have_ncu || dev.is_none() {
                vec![None; METRICS.len()]
            } else {
                profile(&ncu, case, &k.signature().name)?
            };
            for ((metric, p), m) in METRICS.iter().zip(predicted).zip(measured) {
                let verdict = match m {
                    None => "n/a",
                    Some(m) if m == p => "ok",
                    Some(_) => {
                        failed = true;
                        "MISMATCH"
                    }
                };
                let shown = m.map_or("-".to_string(), |m| m.to_string());
                println!("| {} | {metric} | {p} | {shown} | {verdict} |", case.id);
            }
            reports.push(r);
        }
        println!();
        for r in &reports {
            println!("{r}");
        }
        if dev.is_none() {
            println!("SKIP: no GPU: printed the predictions, measured nothing");
        } else if !have_ncu {
            println!("SKIP: `{ncu}` not found (put ncu on the PATH or set NCU): measured nothing");
        }
        Ok(if failed {
            println!("FAIL: a prediction differs from ncu");
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    }
}
