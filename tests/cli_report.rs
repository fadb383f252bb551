//! `weft report`: the report of a ready-made kernel as a table or JSON, or its tile IR; bad input exits 2 with
//! one line.
mod common;

use common::cli::{fails, ok};

#[test]
fn the_transpose_report_is_a_table() {
    let out = ok(&["report", "transpose_smem", "--target", "sm_90a"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "kernel transpose_smem on sm_90a: 4 warps of 32, 16384 bytes of shared memory"
    );
    assert!(lines[1].starts_with("#  op"), "{out}");
    assert!(out.contains("convert_layout"), "{out}");
    assert!(out.contains("8×16B +0"), "{out}");
}

#[test]
fn json_has_the_rows() {
    let out = ok(&["report", "softmax", "--target", "sm_90", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kernel"], "softmax");
    assert_eq!(v["target"], "sm_90");
    let ops: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["op"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["load", "reduce", "reduce", "store"]);
    assert_eq!(v["rows"][1]["shuffles"], 5);
}

#[test]
fn amd_targets_report_too() {
    if cfg!(feature = "amdgpu") {
        let out = ok(&["report", "smem_round_trip", "--target", "gfx942"]);
        assert!(out.contains("4 warps of 64"), "{out}");
    }
}

#[test]
fn ptxas_figures_join_when_asked() {
    let o = common::cli::weft(&["report", "memcpy", "--target", "sm_90", "--ptxas"]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    if o.status.success() {
        assert!(out.contains("ptxas: "), "{out}");
    } else {
        // No ptxas here: one line that says so.
        assert_eq!(o.status.code(), Some(2));
        assert!(err.starts_with("weft: ptxas: "), "{err}");
        eprintln!("SKIP ptxas figures: {err}");
    }
}

#[test]
fn bad_input_is_one_line() {
    fails(&["report", "nope"], "unknown kernel `nope`");
    fails(&["report", "softmax", "--target", "sm_70"], "sm_70");
    fails(&["report", "softmax", "--target", "pdp11"], "--target");
    fails(&["report", "gemm", "--target", "sm_80"], "TMA needs sm_90");
    fails(&["report"], "KERNEL");
}

#[test]
fn the_tile_ir_prints_with_source_lines() {
    let out = ok(&["report", "softmax", "--target", "sm_90", "--ir"]);
    // One op a line, layouts as aliases, each op with the line of weft's kernel that made it.
    assert!(out.contains("#blocked0 = #ttg.blocked<"), "{out}");
    assert!(out.contains("weft.reduce"), "{out}");
    assert!(out.contains("// src/codegen/kernels/softmax.rs:"), "{out}");
    fails(
        &["report", "softmax", "--ir", "--json"],
        "cannot be used with",
    );
}
