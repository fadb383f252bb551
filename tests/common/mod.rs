//! Helpers shared by the tests: assembling PTX with ptxas 13.0 and a dense reference implementation of the layout operations (`dense`).
#![allow(dead_code)]

pub mod dense;

/// SplitMix64 random numbers: kernel data and math inputs.
pub mod rng;

/// Running the `weft` binary, for the CLI tests.
#[cfg(feature = "cli")]
pub mod cli;

/// Kernels and layouts of the conversion and reduction tests.
#[cfg(feature = "llvm")]
pub mod kernels;

/// The quickstart's kernel and the element-wise suites' tiles.
#[cfg(feature = "llvm")]
pub mod elementwise;

/// Running kernels in the interpreter directly, under its options (the interpreter's own tests).
#[cfg(feature = "llvm")]
pub mod interp;

/// Results against host references: the tolerances per element type, for every backend.
#[cfg(feature = "llvm")]
pub mod check;

/// Loading and launching a built kernel on any backend, for the kernel suites.
#[cfg(feature = "llvm")]
pub mod launch;

/// The argmax/argmin kernel and its host reference.
#[cfg(feature = "llvm")]
pub mod argreduce;

/// One-wgmma kernels over every input type and swizzle.
#[cfg(feature = "llvm")]
pub mod wgmma;

/// The TMA round trip and the GEMM's exact inputs.
#[cfg(feature = "llvm")]
pub mod gemm;

/// Every shipped kernel on a small problem, on any backend.
#[cfg(feature = "llvm")]
pub mod catalogue;

/// The attention configurations, and one launch of the forward kernel on any backend.
#[cfg(feature = "llvm")]
pub mod attention;

/// The gradient kernels' arguments and the measure of a gradient, shared with
/// `examples/attention_bwd`.
#[cfg(feature = "llvm")]
#[path = "../../examples/common/attention_bwd.rs"]
pub mod attention_bwd;

/// The block-scaled GEMM's scales on the device as each `ScaleLoads` reads them, shared with
/// `examples/gemm_blockscaled`.
#[cfg(feature = "llvm")]
#[path = "../../examples/common/blockscaled.rs"]
pub mod blockscaled;

/// Kernels of the shared-memory reuse tests.
#[cfg(feature = "llvm")]
pub mod reuse;

/// Kernels and host references of the shared-memory view tests.
#[cfg(feature = "llvm")]
pub mod views;

/// Kernels of the device printing and assertion tests and their host references.
#[cfg(feature = "llvm")]
pub mod debug;

/// Kernels of one Ampere op each (cp.async, ldmatrix, dot), for the MMA tests.
#[cfg(feature = "llvm")]
pub mod mma;

/// Opening the GPU (or skipping) and random data, for the GPU tests.
#[cfg(any(feature = "cuda", feature = "hip", feature = "llvm"))]
pub mod gpu;

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The ptxas to check PTX with: `$PTXAS`, else the one `scripts/setup.sh` installs.
pub fn ptxas() -> Option<PathBuf> {
    let p = PathBuf::from(
        std::env::var("PTXAS").unwrap_or_else(|_| "/opt/cuda-nvcc/nvidia/cu13/bin/ptxas".into()),
    );
    p.exists().then_some(p)
}

/// Assembles `ptx` for `arch` with ptxas; panics with ptxas's message if it rejects it or notes
/// a loss in the wgmma pipeline. Prints a SKIP line (and passes) when ptxas is not installed.
pub fn assemble(ptx: &str, arch: &str, what: &str) {
    let Some(log) = ptxas_log(ptx, arch, what) else {
        return;
    };
    // ptxas's notes on the wgmma pipeline (C7510–C7520): wgmmas serialised, or waits and fences
    // it had to inject, which cost a tensor-core kernel its overlap.
    assert!(
        !log.contains("Potential Performance Loss") && !log.contains("is injected"),
        "ptxas -arch={arch} on {what}:\n{log}"
    );
}

/// [`assemble`], then ptxas's `-v` report must show no spill stores or loads (printing the
/// register count); passes without ptxas.
pub fn assemble_without_spills(ptx: &str, arch: &str, what: &str) {
    assemble(ptx, arch, what);
    if let Some((regs, st, ld)) = ptxas_usage(ptx, arch) {
        eprintln!("{what}: {regs} registers, {st} bytes spill stores, {ld} loads");
        assert_eq!((st, ld), (0, 0), "{what}: spills");
    }
}

/// ptxas's `-v` report of `ptx` for `arch`: (registers, spill stores, spill loads), or `None`
/// without ptxas.
pub fn ptxas_usage(ptx: &str, arch: &str) -> Option<(u32, u32, u32)> {
    let ptxas = ptxas()?;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("k.ptx");
    std::fs::write(&src, ptx).unwrap();
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(&src)
        .arg("-o")
        .arg(dir.path().join("k.cubin"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    let num_before = |needle: &str| -> u32 {
        let i = text
            .find(needle)
            .unwrap_or_else(|| panic!("no `{needle}` in {text}"));
        text[..i]
            .split_whitespace()
            .last()
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no number before `{needle}` in {text}"))
    };
    Some((
        num_before("registers"),
        num_before("bytes spill stores"),
        num_before("bytes spill loads"),
    ))
}

/// What ptxas prints assembling `ptx` for `arch` (panics if it rejects it), or `None` (after a
/// SKIP line) when ptxas is not installed.
pub fn ptxas_log(ptx: &str, arch: &str, what: &str) -> Option<String> {
    ptxas_log_with(ptx, arch, &[], what)
}

/// [`ptxas_log`] with more ptxas options (`-v` for the register and spill figures).
pub fn ptxas_log_with(ptx: &str, arch: &str, options: &[&str], what: &str) -> Option<String> {
    let Some(ptxas) = ptxas() else {
        eprintln!(
            "SKIP ptxas check of {what}: ptxas not found (set PTXAS or run scripts/setup.sh)"
        );
        return None;
    };
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let stem = format!(
        "weft-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let src = dir.join(format!("{stem}.ptx"));
    let out = dir.join(format!("{stem}.cubin"));
    std::fs::write(&src, ptx).unwrap();
    let res = Command::new(&ptxas)
        .arg(format!("-arch={arch}"))
        .args(options)
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&out);
    let log = String::from_utf8_lossy(&res.stderr).to_string();
    assert!(
        res.status.success(),
        "ptxas -arch={arch} rejected {what}:\n{log}\n--- PTX ---\n{ptx}"
    );
    Some(log)
}

/// The global loads and stores of `ptx`, one line each, without the predicate of a masked one.
pub fn global_accesses(ptx: &str) -> Vec<String> {
    ptx.lines()
        .map(|l| {
            let l = l.trim();
            // A predicated access (`@%p1 ld.global…`, masked loads and stores): the access itself.
            match l.strip_prefix('@') {
                Some(rest) => rest
                    .split_once(char::is_whitespace)
                    .map_or(l, |(_, op)| op.trim()),
                None => l,
            }
        })
        .filter(|l| l.starts_with("ld.global") || l.starts_with("st.global"))
        .map(String::from)
        .collect()
}

/// References, inputs and ulps for the accurate math lowering.
#[cfg(feature = "llvm")]
pub mod math_ref;

/// The row kernels' element types and bounds.
#[cfg(feature = "llvm")]
pub mod rows;
