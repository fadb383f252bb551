//! The C and C++ examples build with the system's `cc` / `c++` against the static library and the committed
//! header, run, and print what the Rust API computes for the same input.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use weft::layout::convert::{bank_conflicts, plan_conversion};
use weft::layout::cute::to_cute;
use weft::layout::encoding::{DotOperand, Encoding, NvidiaMma, SwizzledShared};
use weft::layout::text::{gluon, parse_any, ttgir};
use weft::layout::LinearLayout;
use weft::target::Target;

/// `target/<profile>`, where cargo puts `libweft_c.a`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

/// Builds the static library (`cargo test` builds only the rlib the tests link) and returns its path.
fn static_lib() -> PathBuf {
    let profile = profile_dir();
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "--lib", "-p", "weft-c", "--manifest-path"]);
    cargo.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
    if profile.file_name().is_some_and(|n| n == "release") {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("run cargo");
    assert!(status.success(), "cargo build -p weft-c failed");
    profile.join("libweft_c.a")
}

/// Compiles `examples/<source>` with `compiler` (a variable like `CC`, else `default`), runs it, and returns
/// its `key=value` lines.
fn run(source: &str, env_var: &str, default: &str, std: &str) -> HashMap<String, String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let compiler = std::env::var(env_var).unwrap_or_else(|_| default.into());
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(source.replace('.', "_"));
    let lib = static_lib();
    let status = Command::new(&compiler)
        .args([std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(format!("{dir}/include"))
        .arg(format!("{dir}/examples/{source}"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .unwrap_or_else(|e| panic!("cannot run `{compiler}`: {e}"));
    assert!(status.success(), "{compiler} failed on {source}");
    let out = Command::new(&exe).output().expect("run the example");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert!(
        out.status.success(),
        "{source} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn layout(e: &Encoding, shape: &[u64]) -> LinearLayout {
    e.to_linear_layout(shape).unwrap()
}

#[test]
fn c_example_agrees_with_rust() {
    let got = run("example.c", "CC", "cc", "-std=c11");
    let mma = LinearLayout::from_bases(
        [
            ("register", vec![vec![0, 1], vec![8, 0], vec![0, 8]]),
            (
                "lane",
                vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0]],
            ),
        ],
        [("dim0", 16), ("dim1", 16)],
        true,
    )
    .unwrap();
    let who = mma
        .invert()
        .unwrap()
        .apply(&[("dim0", 9), ("dim1", 3)])
        .unwrap();
    assert_eq!(got["who_holds_9_3"], format!("{},{}", who[0].1, who[1].1));
    assert_eq!(got["mma_json"], mma.to_json());

    let blocked = parse_any(
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
    )
    .unwrap();
    let mma_enc = Encoding::NvidiaMma(NvidiaMma::ampere(&[4, 1]));
    assert_eq!(got["mma_ttgir"], ttgir::print_encoding(&mma_enc));
    let (src, dst) = (layout(&mma_enc, &[64, 64]), layout(&blocked, &[64, 64]));
    let plan = plan_conversion(&src, &dst, 16, Target::SM90).unwrap();
    let (reads, writes) = plan.bank_conflicts();
    let expected = format!(
        "{},{},{},{},{}",
        plan.kind as u32,
        plan.scratch_bytes(),
        plan.shuffles(),
        reads,
        writes
    );
    assert_eq!(got["plan"], expected);
    let shared = layout(
        &Encoding::SwizzledShared(SwizzledShared::new(1, 1, 1, &[1, 0])),
        &[64, 64],
    );
    assert_eq!(
        got["bank_conflicts"],
        bank_conflicts(&dst, &shared, 16).unwrap().to_string()
    );
    assert_eq!(got["blocked_cute"], to_cute(&dst).unwrap().to_string());
    let err = parse_any("#ttg.blocked<{sizePerThread = [1, 4]}>").unwrap_err();
    assert_eq!(got["error"], format!("5:{err}"));
}

#[test]
fn cpp_example_agrees_with_rust() {
    let got = run("example.cpp", "CXX", "c++", "-std=c++17");
    let acc = parse_any(
        "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>",
    )
    .unwrap();
    let a = Encoding::DotOperand(DotOperand::new(0, acc.clone(), 2));
    assert_eq!(got["a_gluon"], gluon::print_encoding(&a));
    let (acc_ll, a_ll) = (layout(&acc, &[128, 64]), layout(&a, &[128, 64]));
    assert_eq!(
        got["plan_json"],
        plan_conversion(&acc_ll, &a_ll, 16, Target::SM90A)
            .unwrap()
            .to_json()
    );
    assert_eq!(
        got["cvt_json"],
        acc_ll.invert_and_compose(&a_ll).unwrap().to_json()
    );
    let prod = acc_ll
        .product(&LinearLayout::identity_1d(2, "block", "dim1").unwrap())
        .unwrap();
    let (name, size) = prod.out_dims().nth(1).unwrap();
    assert_eq!(
        got["product"],
        format!("{} in dims, {name} of size {size}", prod.num_in_dims())
    );
    assert_eq!(got["right_inverse"], "identity");
    let right = acc_ll.pseudo_invert().unwrap();
    assert_eq!(
        got["error"],
        format!("4:{}", right.compose(&right).unwrap_err())
    );
}
