//! Hostile input to the `weft` CLI: every case exits with status 2 and one short line on stderr, quickly,
//! whatever the input's size or content.

mod common;

use common::cli::{fails, ok, weft};

const BLOCKED: &str = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";

fn nvmma(rank: &str) -> String {
    format!("#ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = {rank}}}>")
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("weft-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

/// Status 2, one line on stderr, and the line is short and free of control characters.
fn fails_short(args: &[&str], needle: &str) {
    let t = std::time::Instant::now();
    fails(args, needle);
    let o = weft(args);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.len() < 600, "{} bytes: {}", err.len(), &err[..200]);
    assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}

/// `--from-ttgir` with layouts that cannot be read or laid out: the whole file is still listed on stdout, each
/// failure at its alias (the needle there too), then status 2 and one short line on stderr naming the first.
fn fails_listed(args: &[&str], needle: &str) {
    let t = std::time::Instant::now();
    let o = weft(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("weft: ") && err.contains(needle),
        "`{err}` lacks `{needle}`"
    );
    assert!(err.len() < 1200, "{} bytes", err.len());
    assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains(needle), "{out}");
    assert!(out.lines().all(|l| l.len() < 600), "a long line in {out}");
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}

#[test]
fn nvmma_rank_is_checked_against_the_shape() {
    for rank in ["18446744073709551615", "4294967295", "1000000"] {
        let attr = nvmma(rank);
        fails_short(&["layout", &attr, "--shape", "64x64"], "rank");
        fails_short(&["convert", BLOCKED, &attr, "--shape", "64x64"], "DST");
        fails_short(
            &["bank-conflicts", BLOCKED, &attr, "--shape", "64x64"],
            "SHARED",
        );
        let f = temp_file(
            &format!("nvmma{}.ttgir", rank.len()),
            &format!("#shared = {attr}\n%0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>\n"),
        );
        fails_listed(&["layout", "--from-ttgir", &f], "rank");
    }
}

#[test]
fn alias_chains_fail_quickly() {
    let mut text = format!("#a0 = {BLOCKED}\n");
    for i in 1..10_000 {
        text += &format!("#a{i} = #ttg.slice<{{dim = 0, parent = #a{}}}>\n", i - 1);
    }
    let f = temp_file("chain.ttgir", &text);
    fails_listed(&["layout", "--from-ttgir", &f], "nesting too deep");
}

#[test]
fn argument_errors_name_the_argument() {
    fails_short(&["convert", "a", "b"], "--shape");
    fails_short(&["convert", "--shape", "4"], "<SRC>");
    fails_short(&["bank-conflicts", "a", "--shape", "4"], "<SHARED>");
    fails_short(&["algebra"], "<OP>");
    fails_short(&[], "subcommand");
    fails_short(&["layout", "--format", "nope", "x"], "nope");
}

#[test]
fn echoed_tokens_are_cut_and_escaped() {
    // One argument holds at most 128 KiB (Linux); a 1 MiB token comes through `@file`.
    let long = "x".repeat(100_000);
    let alias = format!("#{long}");
    fails_short(&["layout", &alias, "--shape", "4"], "unknown alias");
    let f = temp_file("huge.txt", &format!("#{}", "y".repeat(1 << 20)));
    fails_short(
        &["layout", &format!("@{f}"), "--shape", "4"],
        "unknown alias",
    );
    fails_short(
        &["layout", &format!("{long}(1)"), "--shape", "4"],
        "not a Gluon layout class",
    );
    fails_short(
        &["layout", "#ttg.blocked<{\u{1b}[31m = 1}>", "--shape", "4"],
        "\\u{1b}",
    );
    fails_short(
        &["layout", BLOCKED, "--shape", &format!("4x{long}")],
        "--shape",
    );
    fails_short(
        &[
            "convert", BLOCKED, BLOCKED, "--shape", "4", "--dtype", &long,
        ],
        "--dtype",
    );
    fails_short(
        &[
            "convert", BLOCKED, BLOCKED, "--shape", "4", "--target", &long,
        ],
        "--target",
    );
    let f = temp_file(
        "long.ttgir",
        &format!("#a = #ttg.slice<{{dim = 0, parent = #{long}}}>\n"),
    );
    fails_listed(&["layout", "--from-ttgir", &f], "unknown alias");
    fails_short(
        &["layout", &format!("@/nonexistent/{long}"), "--shape", "4"],
        "cannot read",
    );
}

#[test]
fn file_arguments_are_capped() {
    fails_short(&["layout", "@/dev/zero", "--shape", "4"], "MiB");
    fails_short(&["algebra", "invert", "@/dev/zero"], "MiB");
    fails_short(&["layout", "--from-ttgir", "/dev/zero"], "MiB");
}

#[test]
fn shared_layouts_on_one_element_are_rejected() {
    fails_short(
        &[
            "layout",
            "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
            "--shape",
            "1x1",
        ],
        "one element",
    );
    fails_short(
        &[
            "layout",
            "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>",
            "--shape",
            "1x1",
        ],
        "one element",
    );
}

#[test]
fn from_ttgir_json_escapes_alias_names() {
    let name = "we\"ird\\name";
    let f = temp_file("escape.ttgir", &format!("#{name} = {BLOCKED}\n"));
    let out = ok(&[
        "layout",
        "--from-ttgir",
        &f,
        "--shape",
        "64x32",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v[0]["alias"], name);
}
