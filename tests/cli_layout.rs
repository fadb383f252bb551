//! The `weft` CLI: exit codes, JSON output, one-line errors.

mod common;

use common::cli::{fails, ok};

use weft::layout::encoding::{Blocked, Encoding};
use weft::layout::LinearLayout;

const BLOCKED: &str = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";

#[test]
fn layout_json_equals_the_library() {
    let want = Encoding::Blocked(Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]))
        .to_linear_layout(&[64, 32])
        .unwrap();
    for attr in [BLOCKED, "BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])", "gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])"] {
        let out = ok(&["layout", attr, "--shape", "64x32", "--format", "json"]);
        assert_eq!(LinearLayout::from_json(out.trim()).unwrap(), want, "{attr}");
    }
}

#[test]
fn layout_table_names_threads_and_registers() {
    let out = ok(&["layout", BLOCKED, "--shape", "32x16"]);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 32);
    let first: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(&first[..5], &["T0:0", "T0:1", "T0:2", "T0:3", "T1:0"]);
    let last: Vec<&str> = rows[31].split_whitespace().collect();
    assert_eq!(last[15], "T127:3");
}

#[test]
fn layout_svg_has_a_cell_per_element() {
    let out = ok(&[
        "layout",
        "NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])",
        "--shape",
        "32x16",
        "--format",
        "svg",
    ]);
    assert!(out.starts_with("<svg"));
    assert_eq!(out.matches("<rect").count(), 1 + 32 * 16);
    assert!(out.contains("W3 L31"));
}

#[test]
fn layout_from_ttgir_lists_aliases() {
    let dir = std::env::temp_dir().join(format!("weft-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("k.ttgir");
    std::fs::write(
        &f,
        format!("#blocked = {BLOCKED}\n#smem = #ttg.shared_memory\nmodule {{\n  %0 = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64x32xi32, #blocked>\n}}\n"),
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let out = ok(&["layout", "--from-ttgir", path, "--format", "json"]);
    assert!(out.contains("\"alias\": \"blocked\""));
    assert!(out.contains("\"shape\": [64, 32]"));
    let text = ok(&["layout", "--from-ttgir", path, "--format", "bases"]);
    assert!(text.starts_with("#blocked = #ttg.blocked"));
    fails(
        &["layout", "--from-ttgir", "/nonexistent/x.ttgir"],
        "cannot read",
    );
}

#[test]
fn layout_errors_are_one_line() {
    fails(&["layout", BLOCKED], "--shape");
    fails(&["layout", BLOCKED, "--shape", "64xx"], "--shape");
    fails(&["layout", BLOCKED, "--shape", "48x64"], "power of two");
    fails(&["layout", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 0]}>", "--shape", "64x64"], "order");
    fails(
        &[
            "layout",
            "#ttg.blocked<{sizePerThread = [1, 4] threadsPerWarp}>",
            "--shape",
            "4x4",
        ],
        "column",
    );
    fails(&["layout", "FooLayout(1)", "--shape", "4"], "FooLayout");
    fails(
        &[
            "layout",
            "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>",
            "--shape",
            "64x64",
        ],
        "no linear layout",
    );
    fails(
        &["layout", BLOCKED, "--shape", "64x64", "--format", "png"],
        "png",
    );
    fails(&["nope"], "nope");
}

fn id_json(n: u64) -> String {
    LinearLayout::identity_1d(n, "lane", "dim0")
        .unwrap()
        .to_json()
}

#[test]
fn algebra_ops() {
    let a = LinearLayout::from_bases(
        [("lane", vec![vec![2], vec![1], vec![4]])],
        [("dim0", 8)],
        true,
    )
    .unwrap();
    let aj = a.to_json();
    let inv = LinearLayout::from_json(ok(&["algebra", "invert", &aj]).trim()).unwrap();
    assert_eq!(inv, a.invert().unwrap());
    let pinv = LinearLayout::from_json(ok(&["algebra", "pseudoinvert", &aj]).trim()).unwrap();
    assert_eq!(pinv, a.pseudo_invert().unwrap());
    let b = LinearLayout::from_bases(
        [("dim0", vec![vec![4], vec![1], vec![2]])],
        [("x", 8)],
        true,
    )
    .unwrap();
    let c = LinearLayout::from_json(ok(&["algebra", "compose", &aj, &b.to_json()]).trim()).unwrap();
    assert_eq!(c, a.compose(&b).unwrap());
    let p = LinearLayout::from_json(ok(&["algebra", "product", &id_json(4), &id_json(2)]).trim())
        .unwrap();
    assert_eq!(p, LinearLayout::identity_1d(8, "lane", "dim0").unwrap());
    let ic =
        LinearLayout::from_json(ok(&["algebra", "invert-and-compose", &aj, &aj]).trim()).unwrap();
    assert_eq!(ic, LinearLayout::identity_1d(8, "lane", "lane").unwrap());
    // @file arguments.
    let f = std::env::temp_dir().join(format!("weft-a-{}.json", std::process::id()));
    std::fs::write(&f, &aj).unwrap();
    let at = format!("@{}", f.display());
    assert_eq!(
        ok(&["algebra", "invert", &at]),
        ok(&["algebra", "invert", &aj])
    );
}

#[test]
fn algebra_errors_are_one_line() {
    fails(&["algebra", "compose", &id_json(4)], "second layout");
    fails(
        &["algebra", "invert", &id_json(4), &id_json(4)],
        "one layout",
    );
    fails(&["algebra", "invert", "{\"in_dims\": ["], "json");
    fails(&["algebra", "invert", "@/nonexistent.json"], "cannot read");
    let zeros = LinearLayout::zeros_1d(4, "lane", "dim0", 4)
        .unwrap()
        .to_json();
    fails(&["algebra", "invert", &zeros], "invert");
    fails(&["algebra", "frobnicate", &id_json(4)], "frobnicate");
}

/// Every TTGIR dump of the fixtures lists, including multi-buffered shared allocations.
#[test]
fn layout_from_real_ttgir_dumps() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ttgir");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let out = ok(&[
            "layout",
            "--from-ttgir",
            path.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert!(
            out.starts_with('[') && out.contains("\"layout\""),
            "{}",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 3);
}

/// An encoding weft does not know (here Triton 3.9's `#ttg.partitioned_shared`) is reported at its
/// definition, an alias built on it is skipped with it, and every other alias is still listed.
#[test]
fn unknown_encodings_are_reported_at_their_definition() {
    let dump = format!(
        "#blocked = {BLOCKED}\n\
         #shared1 = #ttg.partitioned_shared<{{numPartitions = 2, numGroups = 1, partitionDim = 0}}>\n\
         #slice = #ttg.slice<{{dim = 0, parent = #shared1}}>\n\
         #smem = #ttg.shared_memory\n\
         module {{\n\
         %0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>\n\
         %1 = tt.load %p : tensor<32x16xf32, #blocked>\n\
         }}\n"
    );
    let file = weft::layout::text::ttgir::parse_file(&dump).unwrap();
    let names: Vec<&str> = file.aliases.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["blocked"]);
    let skipped: Vec<(&str, &str)> = file
        .skipped
        .iter()
        .map(|(n, r)| (n.as_str(), r.as_str()))
        .collect();
    assert_eq!(
        skipped.len(),
        2,
        "{skipped:?}: a memory space is not listed"
    );
    assert_eq!(skipped[0].0, "shared1");
    assert!(skipped[0].1.starts_with("line 2: "), "{}", skipped[0].1);
    assert_eq!(
        skipped[1],
        ("slice", "line 3: uses `#shared1`, skipped at line 2")
    );
    assert_eq!(
        file.types.len(),
        1,
        "the memdesc in #shared1 is passed over"
    );
    assert_eq!(file.types[0].shape, [32, 16]);

    let path = std::env::temp_dir().join(format!("weft-unknown-{}.ttgir", std::process::id()));
    std::fs::write(&path, &dump).unwrap();
    let out = ok(&["layout", "--from-ttgir", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert!(out.contains("#blocked = #ttg.blocked"), "{out}");
    assert!(
        out.contains("#shared1 = (skipped: line 2: not a layout weft knows: "),
        "{out}"
    );
}

/// A tensor-memory layout's table names, for each element, the TMEM row and column the library maps to it
/// and how many (row, column) pairs hold it; its SVG labels cells with the row and column.
#[test]
fn tensor_memory_cells_name_row_and_column() {
    let attr = "#ttng.tensor_memory_encoding<blockM = 64, blockN = 16, colStride = 1>";
    let ll = weft::layout::text::parse_any(attr)
        .unwrap()
        .to_linear_layout(&[64, 16])
        .unwrap();
    let mut holders = std::collections::HashMap::new();
    for x in 0..ll.total_in_size() {
        *holders.entry(ll.apply_packed(x)).or_insert(0u32) += 1;
    }
    let out = ok(&["layout", attr, "--shape", "64x16"]);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 64);
    for (i, line) in rows.iter().enumerate() {
        // Cells are `r<row>:c<col>`, followed by ` xN` when N pairs hold the element.
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut j = 0u64;
        let mut k = 0;
        while k < words.len() {
            let (r, c) = words[k].split_once(':').unwrap();
            let row: u64 = r.strip_prefix('r').unwrap().parse().unwrap();
            let col: u64 = c.strip_prefix('c').unwrap().parse().unwrap();
            let got = ll
                .apply(&[("row", row), ("col", col), ("block", 0)])
                .unwrap();
            assert_eq!((got[0].1, got[1].1), (i as u64, j), "{}", words[k]);
            let count = match words.get(k + 1).and_then(|w| w.strip_prefix('x')) {
                Some(n) => {
                    k += 1;
                    n.parse().unwrap()
                }
                None => 1,
            };
            assert_eq!(holders[&(i as u64 | (j << 6))], count, "({i}, {j})");
            k += 1;
            j += 1;
        }
        assert_eq!(j, 16);
    }
    // blockM = 64 puts rows 16..32 over rows 0..16 again: every element is held twice.
    assert!(rows[0].ends_with("r0:c15 x2"), "{}", rows[0]);
    let svg = ok(&["layout", attr, "--shape", "64x16", "--format", "svg"]);
    assert!(svg.contains("TMEM row"));
    assert_eq!(svg.matches("<rect").count(), 1 + 64 * 16);
    assert!(
        svg.contains(">r0<") && svg.contains(">c15 x2<"),
        "cells name row and column"
    );
}
