//! No input of at most 1 MB makes a CLI command or a public parser take long: the worst inputs found so far
//! (thousands of size-1 dims, thousands of aliases and typed values, a dump repeated, lines of unterminated
//! or nested types, a long `--shape`), each built here at about 1 MB and timed. The bound is generous for a
//! debug build on a loaded 2-core machine (release builds take a few milliseconds to ~0.3 s for each; before
//! the limits, some took from 19 s to over 5 minutes).

mod common;

use std::time::{Duration, Instant};

use common::cli::weft;
use weft::layout::text::ttgir;
use weft::layout::LinearLayout;

/// Every case must finish within this, in a debug build.
const BOUND: Duration = Duration::from_secs(4);
/// The largest input a case builds.
const MB: usize = 1 << 20;

const BLOCKED: &str = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";

/// A layout in the JSON of design.md with `n_in` in dims and `n_out` out dims, all but the first of size 1.
fn dims_json(n_in: usize, n_out: usize) -> String {
    let unit = |v: u64| {
        let mut b = vec![0u64; n_out];
        b[0] = v;
        format!("{b:?}")
    };
    let mut ins = vec![format!("[\"register\", [{}, {}]]", unit(1), unit(2))];
    ins.extend((1..n_in).map(|i| format!("[\"x{i}\", []]")));
    let mut outs = vec!["[\"dim0\", 4]".to_string()];
    outs.extend((1..n_out).map(|i| format!("[\"y{i}\", 1]")));
    format!(
        "{{\"in_dims\": [{}], \"out_dims\": [{}]}}",
        ins.join(", "),
        outs.join(", ")
    )
}

/// The most size-1 in dims whose JSON fits in 1 MB.
fn dims_json_1mb() -> String {
    let mut n = 1000;
    while dims_json(n * 2, 1).len() < MB {
        n *= 2;
    }
    dims_json(n, 1)
}

/// `n` blocked aliases and one typed value per alias.
fn aliases(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s += &format!("#b{i} = {BLOCKED}\n");
    }
    s += "module {\n";
    for i in 0..n {
        s += &format!("  %{i} = tt.load %p : tensor<32x16xf32, #b{i}>\n");
    }
    s + "}\n"
}

fn aliases_1mb() -> String {
    let mut n = 1000;
    while aliases(n + 500).len() < MB {
        n += 500;
    }
    aliases(n)
}

/// Lines that once cost time quadratic in their length: unterminated types, types nested in a skipped
/// alias's attribute, `tensor<` and `!ttg.memdesc<` interleaved, and one alias used with thousands of
/// shapes.
fn hostile_lines() -> Vec<(&'static str, String)> {
    let skipped = "#sk = #ttg.partitioned_shared<{numPartitions = 2}>\n";
    let nested = "tensor<4xf32, #ttg.slice<{dim = 0, parent = #sk, x = ";
    let n = MB / nested.len() / 2;
    vec![
        (
            "unterminated",
            format!("%0 = x : {}\n", "tensor<".repeat((MB - 64) / 7)),
        ),
        (
            "nested",
            format!(
                "{skipped}%0 = x : {}{}\n",
                nested.repeat(n),
                ">}>".repeat(n)
            ),
        ),
        (
            "interleaved",
            format!(
                "#b = {BLOCKED}\n%0 = x : {}\n",
                "tensor<4xf32, #b> !ttg.memdesc<".repeat(MB / 32)
            ),
        ),
        ("shapes", {
            let mut s = format!("#b = {BLOCKED}\n");
            let mut i = 1;
            while s.len() < MB - 64 {
                s += &format!("%{i} = x : tensor<{i}x16xf32, #b>\n");
                i += 1;
            }
            s
        }),
    ]
}

fn temp_file(name: &str, text: &str) -> String {
    assert!(text.len() <= MB, "{name}: {} bytes", text.len());
    let dir = std::env::temp_dir().join(format!("weft-time-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

/// Runs `weft args`, asserts it ends within [`BOUND`] with the expected status; returns stdout and stderr.
fn timed(args: &[&str], status: i32) -> (String, String) {
    let t = Instant::now();
    let o = weft(args);
    let took = t.elapsed();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert_eq!(o.status.code(), Some(status), "{:?}: {err}", &args[..2]);
    assert!(took < BOUND, "{:?} took {took:?}", &args[..2]);
    assert!(err.len() < 1200, "{} bytes on stderr", err.len());
    (out, err)
}

#[test]
fn many_dims_are_refused_at_once() {
    // 1,000 size-1 in dims (14 KB) once took 33 s in `weft convert`; 2,000 over 5 minutes.
    for n in [1000, 2000] {
        let f = temp_file(&format!("dims{n}.json"), &dims_json(n, 1));
        let at = format!("@{f}");
        let (_, err) = timed(&["convert", &at, &at, "--shape", "4"], 2);
        assert!(
            err.contains(&format!("{n} input dims; at most 64")),
            "{err}"
        );
    }
    let f = temp_file("dims_1mb.json", &dims_json_1mb());
    let at = format!("@{f}");
    timed(&["convert", &at, &at, "--shape", "4"], 2);
    timed(&["algebra", "pseudoinvert", &at], 2);
    // 65 size-1 out dims once panicked in `pseudo_invert`.
    let f = temp_file("outs65.json", &dims_json(1, 65));
    let (_, err) = timed(&["algebra", "pseudoinvert", &format!("@{f}")], 2);
    assert!(err.contains("65 output dims; at most 64"), "{err}");
    // At the cap every operation answers.
    let f = temp_file("dims64.json", &dims_json(64, 64));
    let at = format!("@{f}");
    for op in ["pseudoinvert", "invert"] {
        let o = weft(&["algebra", op, &at]);
        assert!(o.status.code().is_some());
    }
    timed(&["algebra", "invert-and-compose", &at, &at], 0);
    timed(&["algebra", "product", &at, &at], 0);
}

#[test]
fn a_megabyte_of_aliases_is_listed_in_linear_time() {
    // 20,000 aliases and typed values (2.8 MB) once took up to 19 s: ~6,000 fit in 1 MB.
    let text = aliases_1mb();
    let n = text.lines().filter(|l| l.starts_with("#b")).count();
    let f = temp_file("aliases.ttgir", &text);
    let (out, _) = timed(&["layout", "--from-ttgir", &f, "--format", "bases"], 0);
    assert_eq!(out.matches("shape 32x16:").count(), n);
    let (out, _) = timed(&["layout", "--from-ttgir", &f, "--format", "json"], 0);
    assert_eq!(out.matches("\"alias\"").count(), n);
    // The default table prints every element (22 MB for this file; 0.73 s in a release build): an unoptimised
    // build lists a quarter of the file within the bound.
    let (f, n) = if cfg!(debug_assertions) {
        (temp_file("aliases4.ttgir", &aliases(n / 4)), n / 4)
    } else {
        (f, n)
    };
    let (out, _) = timed(&["layout", "--from-ttgir", &f], 0);
    assert_eq!(out.matches("shape 32x16:").count(), n);
}

#[test]
fn a_repeated_dump_is_refused_at_once() {
    let dump = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/ttgir_targets/matmul_cuda_90.mlir"
    ))
    .unwrap();
    let f = temp_file("repeated.ttgir", &dump.repeat(MB / dump.len()));
    let (out, err) = timed(&["layout", "--from-ttgir", &f], 2);
    assert!(out.is_empty());
    assert!(err.contains("redefinition of alias"), "{err}");
}

#[test]
fn hostile_lines_cost_linear_time() {
    for (name, text) in hostile_lines() {
        let f = temp_file(&format!("{name}.ttgir"), &text);
        let t = Instant::now();
        let o = weft(&["layout", "--from-ttgir", &f, "--format", "bases"]);
        assert!(t.elapsed() < BOUND, "{name}: {:?}", t.elapsed());
        assert!(o.status.code().is_some(), "{name}");
        // The library alone.
        let t = Instant::now();
        let _ = ttgir::parse_file(&text);
        assert!(
            t.elapsed() < BOUND,
            "{name}: parse_file took {:?}",
            t.elapsed()
        );
    }
}

#[test]
fn long_arguments_are_refused_at_once() {
    // The longest argument Linux passes (128 KiB).
    let shape = format!("{}2", "2x".repeat(60_000));
    let (_, err) = timed(&["layout", BLOCKED, "--shape", &shape], 2);
    assert!(err.contains("give 1 to 64 extents"), "{err}");
    let e = Instant::now();
    let _ = LinearLayout::from_json(&dims_json_1mb());
    let _ = LinearLayout::from_bases_string(&format!(
        " - register=1 -> (1)\n{}where out dims are: [dim0 (size 2)]",
        " - x is a size 1 dimension\n".repeat(MB / 30)
    ));
    assert!(e.elapsed() < BOUND, "{:?}", e.elapsed());
}
