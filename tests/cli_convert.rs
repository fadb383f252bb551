//! `weft convert` and `weft bank-conflicts`: output equal to the library and to Triton 3.9's numbers
//! (fixture cases), one-line errors with exit status 2.

mod common;

use common::cli::{fails, ok};

use weft::layout::convert::{bank_conflicts, plan_conversion, Target};
use weft::layout::text::parse_any;

const ROW: &str = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";
const COL: &str = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>";

#[test]
fn convert_json_is_the_library_plan_and_triton_scratch() {
    let out = ok(&[
        "convert",
        ROW,
        COL,
        "--shape",
        "64x64",
        "--dtype",
        "i8",
        "--num-warps",
        "4",
        "--json",
    ]);
    let src = parse_any(ROW).unwrap().to_linear_layout(&[64, 64]).unwrap();
    let dst = parse_any(COL).unwrap().to_linear_layout(&[64, 64]).unwrap();
    let plan = plan_conversion(&src, &dst, 8, Target::SM90).unwrap();
    assert_eq!(out.trim(), plan.to_json());
    // Triton 3.9 (fixture case 5): shared memory, 4096 scratch bytes.
    assert!(out.starts_with("{\"kind\": \"shared_memory\""), "{out}");
    assert!(out.contains("\"scratch_bytes\": 4096"), "{out}");
}

#[test]
fn convert_table_names_the_kind_and_cost() {
    let src = "#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>";
    let dst = "#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [8, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>";
    let out = ok(&["convert", src, dst, "--shape", "64x8", "--dtype", "f16"]);
    // Triton 3.9 (fixture case 183) shuffles once.
    assert!(
        out.starts_with("kind                   warp_shuffle"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("shuffles / thread"))
        .unwrap();
    assert_eq!(line.split_whitespace().last(), Some("1"), "{out}");
    assert!(out.contains("cost"), "{out}");
}

#[test]
fn bank_conflicts_json_is_gluons_number() {
    let reg = "BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])";
    let sh = "SwizzledSharedLayout(vec=4, per_phase=1, max_phase=8, order=[0, 1])";
    let out = ok(&[
        "bank-conflicts",
        reg,
        sh,
        "--shape",
        "64x64",
        "--dtype",
        "f16",
        "--json",
    ]);
    // gl.bank_conflicts gives 7 for this pair (fixture bank_conflicts.json case 3).
    assert!(out.starts_with("{\"bank_conflicts\": 7,"), "{out}");
    let r = parse_any(reg).unwrap().to_linear_layout(&[64, 64]).unwrap();
    let s = parse_any(sh).unwrap().to_linear_layout(&[64, 64]).unwrap();
    assert_eq!(bank_conflicts(&r, &s, 16).unwrap(), 7);
    let text = ok(&[
        "bank-conflicts",
        reg,
        sh,
        "--shape",
        "64x64",
        "--dtype",
        "f16",
    ]);
    assert!(text.starts_with("bank conflicts        7"), "{text}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    fails(&["convert", "Blocked(", COL, "--shape", "64x64"], "SRC");
    fails(
        &["convert", ROW, COL, "--shape", "64x64", "--dtype", "f7"],
        "--dtype",
    );
    fails(
        &["convert", ROW, COL, "--shape", "64x64", "--num-warps", "8"],
        "--num-warps is 8",
    );
    fails(
        &["convert", ROW, COL, "--shape", "64x64", "--target", "sm_8"],
        "--target",
    );
    fails(&["convert", ROW, COL, "--shape", "64xx"], "--shape");
    fails(
        &["convert", ROW, "{\"in_dims\": [", "--shape", "64x64"],
        "DST",
    );
    fails(&["bank-conflicts", ROW, COL, "--shape", "64x64"], "offset");
    fails(&["convert", ROW], "required");
}
