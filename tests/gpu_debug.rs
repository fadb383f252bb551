//! `device_print` and `device_assert` on the GPU. Each kernel runs in a child process (this test
//! binary run again with `WEFT_GPU_DEBUG_CHILD` set to the test's role), so that the driver's
//! printf output on stdout can be read, and a context a trap has ruined cannot fail other tests.
//! Checked: the lines the GPU prints are, as a multiset, the interpreter's and the host's (their
//! order between threads is not promised); a false assertion prints its message and the user's
//! `file:line` and surfaces at the synchronisation as a kernel fault naming the kernel, while a
//! true one passes. Without a driver or GPU each test prints `SKIP: <reason>` and passes (the
//! interpreter half runs in `codegen_debug.rs`).
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::Command;

use common::debug::{assert_kernel, mixed_print_kernel, mixed_print_lines, quarters, COLS, ROWS};
use common::gpu::{device, load_kernel};
use common::rng::Rng;
use weft::codegen::interp::{self, LaunchArg, Memory};
use weft::codegen::{Context, Kernel};
use weft::runtime::cuda::Device;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig, RuntimeError};

/// The environment variable that makes this binary a child running one role.
const CHILD: &str = "WEFT_GPU_DEBUG_CHILD";
/// Programs the print kernel runs.
const PROGRAMS: u32 = 2;

/// The role this process plays, when it is a child.
fn role() -> Option<String> {
    std::env::var(CHILD).ok()
}

/// Runs test `test` of this binary in a child process with role `role`; returns its stdout and
/// stderr, after checking that it exited successfully.
fn run_child(test: &str, role: &str) -> (String, String) {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1", "-q"])
        .env(CHILD, role)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        out.status.success(),
        "the {role} child failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        out.status
    );
    (stdout, stderr)
}

/// The print kernel's inputs: `x` in quarters, `y` random.
fn print_inputs() -> (Vec<f32>, Vec<f32>) {
    let n = PROGRAMS as usize * (ROWS * COLS) as usize;
    (quarters(n, 5), Rng(6).vec(n))
}

/// Launches `k` over `grid` programs with `args` on `dev` and synchronises.
fn launch(dev: &Device, k: &Kernel<'_>, grid: u32, args: &KernelArgs) -> Result<(), RuntimeError> {
    let kernel = load_kernel(dev, k);
    let cfg = LaunchConfig::for_kernel((grid, 1, 1), k.signature()).unwrap();
    let stream = dev.stream();
    // SAFETY: the kernels of this file read (and print) elements [0, grid · 512) of buffers of
    // that many elements only.
    unsafe { stream.launch(&kernel, &cfg, args)? };
    stream.synchronize()
}

#[test]
fn the_gpu_prints_the_lines_of_the_interpreter() {
    const TEST: &str = "the_gpu_prints_the_lines_of_the_interpreter";
    let ctx = Context::new();
    let k = mixed_print_kernel(&ctx);
    let (x, y) = print_inputs();
    if role().as_deref() == Some("print") {
        let dev = device().expect("the parent saw a GPU");
        let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&dy);
        // End whatever line the harness started, so the driver's lines start their own.
        println!();
        launch(&dev, &k, PROGRAMS, &args).unwrap();
        // Leave before the harness prints again: the driver's lines are all out of the GPU
        // now, and exiting flushes them whole.
        std::io::stdout().flush().unwrap();
        std::process::exit(0);
    }
    if device().is_none() {
        return;
    }
    let (stdout, _) = run_child(TEST, "print");
    let gpu: Vec<&str> = stdout.lines().filter(|l| l.starts_with("pid (")).collect();

    let mut mem = Memory::new();
    let (dx, dy) = (mem.upload(&x), mem.upload(&y));
    let mut out = Vec::new();
    interp::run_with(
        &k,
        [PROGRAMS, 1, 1],
        &[LaunchArg::Buffer(dx), LaunchArg::Buffer(dy)],
        &mut mem,
        &Default::default(),
        &mut out,
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    let host = mixed_print_lines(&x, &y, u64::from(PROGRAMS));
    let count = |lines: &mut dyn Iterator<Item = &str>| {
        let mut m = BTreeMap::new();
        for l in lines {
            *m.entry(l.to_string()).or_insert(0usize) += 1;
        }
        m
    };
    let g = count(&mut gpu.iter().copied());
    let i = count(&mut out.lines());
    assert_eq!(gpu.len(), host.len(), "{stdout}");
    let differ: Vec<_> = g
        .iter()
        .filter(|(l, n)| i.get(*l) != Some(n))
        .take(8)
        .collect();
    assert!(
        differ.is_empty(),
        "GPU lines the interpreter does not print as often: {differ:?}"
    );
    assert_eq!(i, count(&mut host.iter().map(String::as_str)));
}

#[test]
fn a_false_assertion_fails_the_synchronisation_naming_the_kernel() {
    const TEST: &str = "a_false_assertion_fails_the_synchronisation_naming_the_kernel";
    let ctx = Context::new();
    let (k, (file, line), _) = assert_kernel(&ctx);
    if role().as_deref() == Some("assert") {
        let dev = device().expect("the parent saw a GPU");
        let mut x = vec![1.0f32; 3 * 512];
        let dx = dev.upload(&x).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&dx).scalar(5i32);
        launch(&dev, &k, 3, &args).expect("every assertion holds");
        x[512 + 37] = 150.0;
        let dx = dev.upload(&x).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&dx).scalar(5i32);
        let e = launch(&dev, &k, 3, &args).expect_err("the assertion fails");
        println!("SYNC ERROR: {e}");
        let named =
            matches!(&e, RuntimeError::KernelFault { kernel, .. } if kernel == "check_below");
        println!("KERNEL FAULT NAMING THE KERNEL: {named}");
        // The context is unusable now: leave without dropping what lives in it.
        std::io::stdout().flush().unwrap();
        std::process::exit(0);
    }
    if device().is_none() {
        return;
    }
    let (stdout, stderr) = run_child(TEST, "assert");
    assert!(
        stdout.contains("KERNEL FAULT NAMING THE KERNEL: true"),
        "{stdout}\n{stderr}"
    );
    assert!(stdout.contains("check_below"), "{stdout}");
    let both = format!("{stdout}\n{stderr}");
    assert!(both.contains("x must stay below 100"), "{both}");
    assert!(both.contains(&format!("{file}:{line}")), "{both}");
}
