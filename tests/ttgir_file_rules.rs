//! What a TTGIR file listing accepts, as Triton's compiler does: locations and memory spaces passed over
//! silently, one-element shared buffers (mbarriers), padded shared layouts with their linear component,
//! tensor-memory layouts recognised at their alias, the rank of a WMMA layout taken from its type's shape,
//! and an alias defined twice an error (as in MLIR).

mod common;

use common::cli::weft;
use weft::layout::encoding::{AmdWmma, CgaLayout, Encoding, SwizzledShared};
use weft::layout::text::ttgir;

const BLOCKED: &str = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";

/// A dump in the shape of a Blackwell TMA kernel's: locations, memory spaces, mbarriers, tensor memory.
fn dump() -> String {
    format!(
        "#blocked = {BLOCKED}\n\
         #shared = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>\n\
         #smem = #ttg.shared_memory\n\
         #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n\
         #tmem_scales = #ttng.tensor_memory_scales_encoding<>\n\
         #padded = #ttg.padded_shared<[512:+16] {{order = [1, 0], shape = [64, 64]}}>\n\
         #loc = loc(\"/tmp/k.py\":12:0)\n\
         #loc7 = loc(callsite(#loc at #loc))\n\
         module attributes {{\"ttg.num-warps\" = 4 : i32}} {{\n\
           %0 = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable> loc(#loc7)\n\
           %1 = tt.load %p : tensor<32x16xf32, #blocked> loc(#loc)\n\
           %2 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>\n\
           %3 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #padded, #smem, mutable>\n\
           %4 = x : !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>\n\
         }}\n"
    )
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("weft-ttgir-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

#[test]
fn a_blackwell_style_dump_is_read_whole() {
    let file = ttgir::parse_file(&dump()).unwrap();
    let names: Vec<&str> = file.aliases.iter().map(|(n, _)| n.as_str()).collect();
    // Tensor-memory layouts are layouts like the others.
    assert_eq!(
        names,
        ["blocked", "shared", "tmem", "tmem_scales", "padded"]
    );
    assert!(file.skipped.is_empty(), "{:?}", file.skipped);
    assert!(file.rejected.is_empty(), "{:?}", file.rejected);
    assert!(file.tensor_memory.is_empty(), "{:?}", file.tensor_memory);
    let shapes: Vec<&[u64]> = file.types.iter().map(|t| t.shape.as_slice()).collect();
    assert_eq!(
        shapes,
        [&[3, 1][..], &[32, 16], &[128, 128], &[64, 64], &[128, 4]]
    );
    // The mbarrier buffer: three buffers of one element, each laid out (offset of size 1).
    let by_alias = file.shapes_by_alias();
    assert_eq!(by_alias["shared"], [vec![3, 1]]);
    let shared = &file.aliases[1].1;
    let one = shared.tensor_layout(&[1]).unwrap();
    assert_eq!((one.total_in_size(), one.total_out_size()), (1, 1));
    assert_eq!(
        shared,
        &Encoding::SwizzledShared(SwizzledShared::new(1, 1, 1, &[0]))
    );
}

#[test]
fn the_cli_lists_every_alias_of_such_a_dump() {
    let f = temp_file("blackwell.ttgir", &dump());
    let o = weft(&["layout", "--from-ttgir", &f, "--format", "bases"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("shape 1 (each buffer of 3x1):"), "{out}");
    assert!(
        out.contains("padding: +16 elements after every 512 (the linear component follows)"),
        "{out}"
    );
    // The padded layout's linear component: offset 64 is row 1 (64 elements per row, order [1, 0]).
    assert!(out.contains("offset=64 -> (1, 0)"), "{out}");
    assert!(
        out.contains("#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\nshape 128x128:\n\n - row=1 -> (1, 0)"),
        "{out}"
    );
    assert!(!out.contains("#loc"), "locations are not listed: {out}");
    assert!(!out.contains("smem"), "memory spaces are not listed: {out}");
    assert!(
        !out.contains("skipped") && !out.contains("unknown alias"),
        "{out}"
    );
    // JSON: one entry per (alias, shape), the padded one with its padding, tensor memory laid out.
    let o = weft(&["layout", "--from-ttgir", &f, "--format", "json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 4, "{v}");
    let padded = items.iter().find(|i| i["alias"] == "padded").unwrap();
    assert_eq!(padded["padding"], serde_json::json!([[512, 16]]));
    assert!(padded["layout"]["in_dims"].is_array());
    let tmem = items.iter().find(|i| i["alias"] == "tmem").unwrap();
    assert!(tmem.get("error").is_none(), "{tmem}");
    assert_eq!(tmem["layout"]["in_dims"][0][0], "row");
}

/// A layout the CLI cannot lay out (a blocked layout for a rank-2 tensor used at rank 3) is reported at its
/// alias; the rest of the file is listed; the command then fails naming it.
#[test]
fn a_layout_that_cannot_be_laid_out_is_reported_at_its_alias() {
    let text = format!(
        "#bad = {BLOCKED}\n#good = {}\n%0 = x : tensor<2x32x16xf32, #bad>\n%1 = y : tensor<32x16xf32, #good>\n",
        BLOCKED.replace("[1, 4]", "[2, 2]")
    );
    let f = temp_file("bad.ttgir", &text);
    let o = weft(&["layout", "--from-ttgir", &f]);
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8(o.stdout).unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        out.contains("shape 2x32x16:\n  (cannot lay it out: "),
        "{out}"
    );
    assert!(out.contains("#good = "), "{out}");
    assert!(out.contains("shape 32x16:\n"), "{out}");
    assert!(
        err.contains("1 layout(s) could not be laid out")
            && err.contains("#bad with shape 2x32x16"),
        "{err}"
    );
}

#[test]
fn an_alias_defined_twice_is_an_error() {
    let text = format!("#blocked = {BLOCKED}\n#a = {BLOCKED}\n#blocked = {BLOCKED}\n");
    let e = ttgir::parse_file(&text).unwrap_err().to_string();
    assert!(
        e.contains("line 3")
            && e.contains("redefinition of alias `#blocked` (first defined at line 1)"),
        "{e}"
    );
    // Locations count as definitions too (MLIR has one alias namespace).
    let e = ttgir::parse_file("#loc1 = loc(unknown)\n#loc1 = loc(unknown)\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("redefinition of alias `#loc1`"), "{e}");
    // A dump repeated: the CLI refuses it on one line, at once.
    let f = temp_file("twice.ttgir", &dump().repeat(500));
    let t = std::time::Instant::now();
    let o = weft(&["layout", "--from-ttgir", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("redefinition of alias `#blocked`"));
    assert!(t.elapsed().as_secs() < 5);
}

/// Triton prints a WMMA layout without bases as `ctaLayout = {}` (no rank): the type's shape gives it, so a
/// rank-3 tensor is laid out as the rank-3 WMMA layout, also through a slice and a dot operand.
#[test]
fn a_wmma_layout_takes_its_rank_from_the_shape() {
    let text = "#wmma = #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {}}>\n\
                %0 = x : tensor<2x16x16xf32, #wmma>\n\
                %1 = y : tensor<2x16xf32, #ttg.slice<{dim = 2, parent = #wmma}>>\n\
                %2 = z : tensor<2x16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #wmma, kWidth = 8}>>\n";
    let file = ttgir::parse_file(text).unwrap();
    let want = Encoding::AmdWmma(AmdWmma {
        version: 2,
        transposed: false,
        warp_bases: vec![],
        reg_bases: vec![],
        instr_shape: vec![16, 16, 16],
        cga_layout: CgaLayout::single(),
        rank: 3,
    });
    assert_eq!(file.types[0].encoding, want);
    assert_eq!(
        file.types[0]
            .encoding
            .to_linear_layout(&[2, 16, 16])
            .unwrap(),
        want.to_linear_layout(&[2, 16, 16]).unwrap()
    );
    let Encoding::Slice(s) = &file.types[1].encoding else {
        panic!("{:?}", file.types[1].encoding)
    };
    assert_eq!(*s.parent, want);
    file.types[1].encoding.to_linear_layout(&[2, 16]).unwrap();
    let Encoding::DotOperand(d) = &file.types[2].encoding else {
        panic!()
    };
    assert_eq!(*d.parent, want);
    // The alias itself, with no shape, keeps the rank-2 default.
    assert_eq!(file.aliases[0].1.rank(), Ok(2));
}

/// `--shape` takes any rank the library does (`tl.sort` and `tl.topk` make rank 9–12 tensors).
#[test]
fn the_shape_takes_high_ranks() {
    let blocked12 = "#ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], threadsPerWarp = [1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2], warpsPerCTA = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1], order = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}>";
    let o = weft(&[
        "layout",
        blocked12,
        "--shape",
        "1x1x1x1x1x1x1x2x2x2x8x4",
        "--format",
        "bases",
    ]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("dim11 (size 4)"), "{out}");
    let long = vec!["2"; 65].join("x");
    let o = weft(&["layout", blocked12, "--shape", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give 1 to 64 extents"));
}

/// Every dump Triton 3.9 wrote for `tests/ttgir_targets.rs` (cuda:80/90/100, gfx942/950; TMA, mbarriers, tensor
/// memory, padded shared layouts, rank-11 sort tensors) is listed whole by the CLI: status 0, nothing on
/// stderr, every layout alias in the listing.
#[test]
fn the_cli_lists_every_triton_dump_whole() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ttgir_targets");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "mlir") {
            continue;
        }
        let p = path.to_str().unwrap();
        let o = weft(&["layout", "--from-ttgir", p, "--format", "bases"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && err.is_empty(), "{p}: {err}");
        let out = String::from_utf8(o.stdout).unwrap();
        let file = ttgir::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let names = file.aliases.iter().map(|(n, _)| n);
        for name in names.chain(file.tensor_memory.iter().map(|(n, _)| n)) {
            assert!(
                out.contains(&format!("#{name} = ")),
                "{p}: #{name} not listed"
            );
        }
        assert!(!out.contains("(skipped") && !out.contains("(cannot"), "{p}");
        n += 1;
    }
    assert!(n >= 60, "{n} dumps");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Files of random lines — layout aliases (some defined twice), locations, memory spaces, tensor memory,
    /// unknown kinds, broken text, types using any of them — with up to thousands of aliases: `parse_file`
    /// answers quickly, fails exactly when an alias is defined twice, and otherwise lists every alias once.
    #[test]
    fn random_files_are_read_or_refused_quickly(
        picks in proptest::collection::vec((0usize..9, 0usize..4000), 0..3000),
    ) {
        let mut text = String::new();
        let mut names = std::collections::HashSet::new();
        let mut dup = false;
        for (i, &(kind, k)) in picks.iter().enumerate() {
            let def = match kind {
                0 => format!("#a{k} = {BLOCKED}"),
                1 => format!("#l{k} = loc(\"f.py\":{k}:0)"),
                2 => format!("#m{k} = #ttg.shared_memory"),
                3 => format!("#t{k} = #ttng.tensor_memory_encoding<blockM = 128, blockN = {k}, colStride = 1>"),
                4 => format!("#u{k} = #ttg.partitioned_shared<{{numPartitions = {k}}}>"),
                5 => format!("#s{k} = #ttg.slice<{{dim = 0, parent = #a{}}}>", k % 64),
                6 => format!("%{i} = x : tensor<32x16xf32, #a{}> loc(#l{k})", k % 64),
                7 => format!("%{i} = x : !ttg.memdesc<128x128xf32, #t{k}, #ttng.tensor_memory> tensor<4x!tt.ptr<f32>>"),
                _ => "%z = x : tensor<".repeat(k % 50),
            };
            if let Some(rest) = def.strip_prefix('#') {
                let name = rest.split(" = ").next().unwrap().to_string();
                dup |= !names.insert(name);
            }
            text += &def;
            text.push('\n');
        }
        let t = std::time::Instant::now();
        let r = ttgir::parse_file(&text);
        proptest::prop_assert!(t.elapsed().as_secs() < 2, "{:?}", t.elapsed());
        match r {
            Err(e) => {
                // Types using an alias defined later are an error too ("unknown alias"), as in MLIR.
                let e = e.to_string();
                proptest::prop_assert!(dup || e.contains("unknown alias"), "{e}");
            }
            Ok(f) => {
                proptest::prop_assert!(!dup);
                let listed = f.aliases.len() + f.skipped.len() + f.rejected.len() + f.tensor_memory.len();
                let layouts = names.iter().filter(|n| !n.starts_with('l') && !n.starts_with('m')).count();
                proptest::prop_assert_eq!(listed, layouts);
            }
        }
    }
}
