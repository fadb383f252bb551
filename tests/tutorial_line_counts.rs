//! Each tutorial example's kernel is at most as long as Gluon's own (the kernels copied into
//! `scripts/anchors/gluon_tutorials.py`), counted the same way for both: from the kernel's
//! first line (`fn`, or Gluon's `@gluon.jit`) to its last, without blank or comment lines.

use std::path::Path;

/// The lines of Rust function `name` in `src`: from `fn name` to the first `}` at column 0.
fn rust_lines(src: &str, name: &str) -> Option<usize> {
    let head = format!("fn {name}(");
    let start = src.lines().position(|l| l.starts_with(&head))?;
    let mut n = 0;
    for l in src.lines().skip(start) {
        let t = l.trim();
        if !t.is_empty() && !t.starts_with("//") {
            n += 1;
        }
        if l == "}" {
            return Some(n);
        }
    }
    None
}

/// The lines of Python function `name` in `src`: its decorator, its `def` and its indented
/// body, up to the next line at column 0.
fn python_lines(src: &str, name: &str) -> Option<usize> {
    let lines: Vec<&str> = src.lines().collect();
    let def = format!("def {name}(");
    let at = lines.iter().position(|l| l.starts_with(&def))?;
    let decorated = at > 0 && lines[at - 1].starts_with('@');
    let body = lines[at + 1..]
        .iter()
        .take_while(|l| l.is_empty() || l.starts_with(' ') || l.starts_with(')'))
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .count();
    Some(usize::from(decorated) + 1 + body)
}

fn read(path: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn every_tutorial_kernel_is_at_most_gluons_length() {
    let gluon = read("scripts/anchors/gluon_tutorials.py");
    // (example, weft's kernel, Gluon's kernel and the partitions it calls)
    let pairs: [(&str, &str, &[&str]); 8] = [
        ("tutorial_01_intro", "memcpy_kernel", &["memcpy_kernel"]),
        (
            "tutorial_02_layouts",
            "memcpy_1d_kernel",
            &["memcpy_1d_kernel"],
        ),
        (
            "tutorial_02_layouts",
            "transpose_kernel",
            &["transpose_kernel"],
        ),
        (
            "tutorial_03_async_copy",
            "add_pipelined_kernel",
            &["elementwise_add_pipelined_kernel"],
        ),
        (
            "tutorial_04_tma",
            "add_tma_kernel",
            &["elementwise_add_tma_kernel"],
        ),
        (
            "tutorial_05_wgmma",
            "blocked_mma_kernel",
            &["blocked_mma_kernel"],
        ),
        (
            "tutorial_07_persistence",
            "persistent_matmul_kernel",
            &["persistent_matmul_kernel"],
        ),
        (
            "tutorial_08_warp_specialization",
            "add_ws_kernel",
            &[
                "elementwise_add_warp_specialized_kernel",
                "load_partition",
                "store_partition",
                "compute_partition",
            ],
        ),
    ];
    let mut table = Vec::new();
    for (example, ours, theirs) in pairs {
        let src = read(&format!("examples/{example}.rs"));
        let w = rust_lines(&src, ours).unwrap_or_else(|| panic!("{example}: no fn {ours}"));
        let g: usize = theirs
            .iter()
            .map(|t| python_lines(&gluon, t).unwrap_or_else(|| panic!("no def {t}")))
            .sum();
        table.push(format!("{example} {ours}: weft {w}, Gluon {g}"));
    }
    eprintln!("{}", table.join("\n"));
    for (example, ours, theirs) in pairs {
        let src = read(&format!("examples/{example}.rs"));
        let w = rust_lines(&src, ours).unwrap_or(0);
        let g: usize = theirs.iter().filter_map(|t| python_lines(&gluon, t)).sum();
        assert!(
            w <= g,
            "{example} {ours} is longer than Gluon's:\n{}",
            table.join("\n")
        );
    }
}

#[test]
fn the_counts_skip_blank_and_comment_lines_and_stop_at_the_end() {
    let rust = "fn other() {\n}\n\nfn k(a: u32) -> u32 {\n    // why\n\n    let b = a;\n    b\n}\nfn after() {}\n";
    assert_eq!(rust_lines(rust, "k"), Some(4));
    assert_eq!(rust_lines(rust, "missing"), None);
    let py = "@gluon.jit\ndef k(a,\n      b):\n    # why\n\n    x = a\n    return x\n\n\ndef after():\n    pass\n";
    assert_eq!(python_lines(py, "k"), Some(5));
    assert_eq!(python_lines(py, "after"), Some(2));
}
