//! No input makes a public layout function panic: proptest feeds arbitrary bytes, bases, sizes and dim names
//! to every constructor, parser and operation; each must return `Ok` or `Err`. Failures persist in
//! `proptest-regressions/layout_no_panic.txt`.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use weft::layout::{
    action_remove_broadcasted_regs, cute, reg_perm_for_divide, supremum, ColumnAction, Dim,
    LinearLayout,
};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/layout_no_panic.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Names: mostly the usual ones (so layouts meet), sometimes anything.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(vec!["register", "lane", "warp", "dim0", "dim1", "offset"]).prop_map(String::from),
        1 => any::<String>(),
    ]
}

/// Sizes: mostly small powers of two, sometimes anything (0, huge, not a power of two).
fn size() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => (0u32..7).prop_map(|b| 1u64 << b),
        1 => (0u32..64).prop_map(|b| 1u64 << b),
        1 => any::<u64>(),
    ]
}

/// Basis coordinates: mostly small, sometimes anything.
fn coord() -> impl Strategy<Value = u64> {
    prop_oneof![4 => 0u64..16, 1 => any::<u64>()]
}

/// Raw constructor input: in dims with bases of arbitrary arity, out dims with arbitrary sizes.
type Raw = (Vec<(String, Vec<Vec<u64>>)>, Vec<(String, u64)>);

fn raw() -> impl Strategy<Value = Raw> {
    (
        proptest::collection::vec(
            (
                name(),
                proptest::collection::vec(proptest::collection::vec(coord(), 0..4), 0..5),
            ),
            0..4,
        ),
        proptest::collection::vec((name(), size()), 0..4),
    )
}

/// A layout built from raw input when it is valid, else a small valid one (so the operations run often).
fn build(r: &Raw) -> LinearLayout {
    LinearLayout::from_bases(r.0.clone(), r.1.clone(), false)
        .or_else(|_| {
            LinearLayout::from_bases_inferred(r.0.clone(), r.1.iter().map(|o| o.0.clone()))
        })
        .unwrap_or_else(|_| LinearLayout::identity_1d(4, "register", "dim0").unwrap())
}

/// Runs every operation of `a` (with `b`, names, sizes and values as arguments) and discards the results.
fn exercise(a: &LinearLayout, b: &LinearLayout, names: &[String], sizes: &[u64], values: &[u64]) {
    let n0 = names.first().cloned().unwrap_or_default();
    let s0 = sizes.first().copied().unwrap_or(1);
    let v0 = values.first().copied().unwrap_or(0);
    let pairs: Vec<(String, u64)> = names.iter().cloned().zip(sizes.iter().copied()).collect();
    let vals: Vec<(String, u64)> = names.iter().cloned().zip(values.iter().copied()).collect();
    let _ = a.apply(&vals);
    let _ = a.apply_packed(v0);
    let _ = a.pack_inputs(values);
    let _ = a.unpack_outputs(v0);
    let _ = a.basis(&n0, s0 as u32);
    let _ = a.basis_component(&n0, s0 as u32, &n0);
    let _ = a.bases(&n0);
    let _ = a.all_bases();
    let _ = a.matrix_rows();
    let _ = a.in_dim_size(&n0);
    let _ = a.out_dim_size(&n0);
    let _ = (
        a.rank(),
        a.is_injective(),
        a.is_surjective(),
        a.is_invertible(),
    );
    let _ = (
        a.total_in_size(),
        a.total_out_size(),
        a.num_consecutive_in_out(),
    );
    let _ = a.free_variable_masks();
    let _ = a.equal_ignoring_out_dim_sizes(b);
    let _ = a.compose(b);
    let _ = a.product(b);
    let _ = a.invert();
    let _ = a.pseudo_invert();
    let _ = a.invert_and_compose(b);
    let _ = a.divide_left(b);
    let _ = a.divide_right(b);
    let _ = a.quotient(names);
    let _ = a.is_trivial_over(names);
    let _ = a.sublayout(names, names);
    let _ = a.sublayout_is_zero(names, names);
    let _ = a.transpose_ins(names);
    let _ = a.transpose_outs(names);
    let _ = a.reshape_ins(&pairs);
    let _ = a.reshape_outs(&pairs);
    let _ = a.flatten_ins();
    let _ = a.flatten_outs();
    let _ = a.concat_ins(b);
    let _ = a.concat_outs(b);
    let _ = a.resize_in_dim(&n0, s0);
    let _ = a.resize_out_dim(&n0, s0);
    let _ = a.rename_in_dim(&n0, names.last().map_or("x", |s| s));
    let _ = a.rename_out_dim(&n0, names.last().map_or("x", |s| s));
    let _ = a.squeeze_ins(&n0);
    let _ = a.squeeze_outs(&n0);
    let _ = (a.squeeze_all_ins(), a.squeeze_all_outs(), a.zeros_like());
    let _ = a.remove_zero_bases_along_dim(&n0);
    let _ = a.ensure_layout_not_larger_than(&pairs, v0 & 1 == 0);
    let _ = a.ensure_layout_not_smaller_than(&pairs);
    let order: Vec<usize> = values.iter().map(|&v| (v % 8) as usize).collect();
    let _ = LinearLayout::identity_standard_nd(n0.as_str(), sizes, &order);
    #[cfg(feature = "serde")]
    let _ = LinearLayout::from_json(&a.to_json());
    let _ = LinearLayout::from_bases_string(&a.to_bases_string());
    let _ = reg_perm_for_divide(a, b, v0 & 1 == 0);
    let _ = action_remove_broadcasted_regs(a);
    if let Ok(act) = ColumnAction::new(order.clone(), n0.as_str(), s0 as u32) {
        let _ = act.apply(a);
        let _ = act.apply_values(values);
        let _ = act.inverse();
        let _ = act.left_compose(&act);
        let _ = (act.to_string(), act.is_identity());
    }
    let dims: Vec<Dim> = names.iter().map(Dim::from).collect();
    let _ = supremum(&dims, &dims.iter().rev().cloned().collect::<Vec<_>>());
    if let Ok(c) = cute::to_cute(a) {
        let _ = c.to_linear_layout();
        let _ = c.to_string().parse::<cute::SwizzledLayout>();
    }
    let _ = cute::complement(a, s0);
    let _ = cute::composition(a, b);
    let _ = cute::logical_divide(a, b);
    let _ = cute::logical_product(a, b);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn constructors_never_panic(r in raw(), s in size(), t in size(), n in name(), m in name()) {
        let _ = LinearLayout::from_bases(r.0.clone(), r.1.clone(), true);
        let _ = LinearLayout::from_bases(r.0.clone(), r.1.clone(), false);
        let _ = LinearLayout::from_bases_inferred(r.0.clone(), r.1.iter().map(|o| o.0.clone()));
        let _ = LinearLayout::identity_1d(s, n.as_str(), m.as_str());
        let _ = LinearLayout::strided_1d(s, t, n.as_str(), m.as_str());
        let _ = LinearLayout::zeros_1d(s, n.as_str(), m.as_str(), t);
        let _ = ColumnAction::identity(n.as_str(), s as u32);
    }

    #[test]
    fn operations_never_panic(
        ra in raw(),
        rb in raw(),
        names in proptest::collection::vec(name(), 0..4),
        sizes in proptest::collection::vec(size(), 0..4),
        values in proptest::collection::vec(any::<u64>(), 0..4),
    ) {
        let (a, b) = (build(&ra), build(&rb));
        exercise(&a, &b, &names, &sizes, &values);
        exercise(&b, &a, &names, &sizes, &values);
        // Large layouts: 64 input and output bits, trailing size-1 dims.
        let big = LinearLayout::from_bases(
            [("register", (0..63).map(|i| vec![1u64 << i, 0, 0]).collect()), ("lane", vec![vec![0, 1, 0]])],
            [("dim0", 1u64 << 63), ("dim1", 2), ("dim2", 1)],
            false,
        ).unwrap();
        exercise(&big, &a, &names, &sizes, &values);
        exercise(&a, &big, &names, &sizes, &values);
        exercise(&big, &big, &names, &sizes, &values);
    }

    #[test]
    fn parsers_never_panic(text in any::<String>(), bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        #[cfg(feature = "serde")]
        let _ = LinearLayout::from_json(&text);
        let _ = LinearLayout::from_bases_string(&text);
        let s = String::from_utf8_lossy(&bytes);
        #[cfg(feature = "serde")]
        let _ = LinearLayout::from_json(&s);
        let _ = LinearLayout::from_bases_string(&s);
        for t in [text.as_str(), &s] {
            if let Ok(c) = t.parse::<cute::SwizzledLayout>() {
                let _ = c.to_linear_layout();
            }
        }
    }

    /// CuTe text from a small alphabet, so that most of it is nearly valid.
    #[test]
    fn cute_text_never_panics(text in "[0-9(),:_ o<>Sw-]{0,40}", big in any::<i64>()) {
        for t in [text.clone(), text.replace('1', &big.to_string())] {
            if let Ok(c) = t.parse::<cute::SwizzledLayout>() {
                let _ = c.to_linear_layout();
                let _ = c.to_string();
            }
        }
    }

    #[test]
    fn mutated_text_never_panics(r in raw(), cut in any::<usize>(), insert in any::<char>()) {
        let l = build(&r);
        #[cfg(feature = "serde")]
        let texts = [l.to_json(), l.to_bases_string()];
        #[cfg(not(feature = "serde"))]
        let texts = [l.to_bases_string()];
        for text in texts {
            let mut chars: Vec<char> = text.chars().collect();
            let at = cut % (chars.len() + 1);
            let mut truncated = chars.clone();
            truncated.truncate(at);
            #[cfg(feature = "serde")]
            let _ = LinearLayout::from_json(&truncated.iter().collect::<String>());
            let _ = LinearLayout::from_bases_string(&truncated.iter().collect::<String>());
            chars.insert(at, insert);
            #[cfg(feature = "serde")]
            let _ = LinearLayout::from_json(&chars.iter().collect::<String>());
            let _ = LinearLayout::from_bases_string(&chars.iter().collect::<String>());
        }
    }
}

// ----- encodings, helpers and planners: hostile parameters -----------------------------------------------

use weft::layout::convert::{classify, plan_conversion, plan_shared, Target};
use weft::layout::encoding::helpers::{
    blocked_for, default_blocked, default_nvmma_shared, holders, thread_elements,
};
use weft::layout::encoding::{
    Blocked, CgaLayout, DotOperand, Encoding, NvmmaShared, SwizzledShared,
};
use weft::layout::text::{self, ttgir};

/// 63 register bits onto a 2^63 × 2 × 1 tensor: the trailing size-1 dim starts at bit 64.
fn big_layout(reversed: bool) -> LinearLayout {
    let reg = (0..63)
        .map(|i| vec![1u64 << if reversed { 62 - i } else { i }, 0, 0])
        .collect();
    LinearLayout::from_bases(
        [("register", reg), ("lane", vec![vec![0, 1, 0]])],
        [("dim0", 1u64 << 63), ("dim1", 2), ("dim2", 1)],
        false,
    )
    .unwrap()
}

fn no_out_dims() -> LinearLayout {
    LinearLayout::from_bases(
        [("register", vec![]), ("warp", vec![vec![]])],
        Vec::<(&str, u64)>::new(),
        false,
    )
    .unwrap()
}

#[test]
fn planners_take_layouts_without_out_dims() {
    let l = no_out_dims();
    let t = Target::parse("sm_90").unwrap();
    assert!(plan_shared(&l, &l, 16, t).is_err());
    let _ = plan_conversion(&l, &l, 16, t);
    let _ = classify(&l, &l);
}

#[test]
fn planners_take_64_bit_tensors() {
    let (a, b) = (big_layout(false), big_layout(true));
    let t = Target::parse("sm_90").unwrap();
    let _ = classify(&a, &b);
    let _ = classify(&a, &a);
    let _ = plan_shared(&a, &b, 16, t);
    let _ = holders(&a, &[0, 0, 0]);
    let _ = holders(&a, &[5, 1, 0]);
}

#[test]
fn helpers_take_huge_shapes() {
    let _ = blocked_for(&[1, 1 << 40], &[1, 1], 1 << 31, 1 << 31);
    let _ = blocked_for(&[1 << 20, 1 << 40, 1], &[1, 1, 1], 1 << 31, 1 << 31);
    let _ = default_blocked(&[1 << 40, 1 << 20], 16, 1 << 31, 1 << 31);
    let _ = default_blocked(&[1 << 32, 1 << 32], 16, 4, 32);
    let _ = default_nvmma_shared(&[8, 1 << 62], 64, false, true, CgaLayout::single());
    let _ = default_nvmma_shared(&[1 << 40, 1 << 23], 64, true, false, CgaLayout::single());
}

#[test]
fn thread_elements_caps_registers() {
    let reg = (0..34).map(|i| vec![1u64 << i]).collect();
    let l = LinearLayout::from_bases([("register", reg)], [("dim0", 1u64 << 34)], true).unwrap();
    let e = thread_elements(&l, &[]).unwrap_err();
    assert!(e.to_string().contains("register"), "{e}");
}

#[test]
fn dot_operand_of_a_rank_1_parent_is_an_error() {
    for op in [0, 1] {
        let parent = Encoding::Blocked(Blocked::new(&[1], &[32], &[4], &[0]));
        let d = DotOperand::new(op, parent, 2);
        let _ = d.cga_layout();
        let _ = Encoding::DotOperand(d.clone()).cga_layout();
        assert!(Encoding::DotOperand(d).to_linear_layout(&[64]).is_err());
    }
}

/// NVMMA `rank` is checked against the shape before anything of that rank is built; each case returns at
/// once (no capacity overflow, no out-of-memory, no time quadratic in the rank).
#[test]
fn nvmma_rank_is_checked_before_building() {
    for rank in [usize::MAX, u32::MAX as usize, 1_000_000, 65] {
        let l = NvmmaShared::new(128, 16, rank, false);
        let t = std::time::Instant::now();
        assert!(l.to_linear_layout(&[64, 64]).is_err());
        assert!(l.validate().is_err());
        assert!(Encoding::NvmmaShared(l)
            .to_linear_layout(&[64, 64])
            .is_err());
        assert!(t.elapsed().as_secs() < 2, "rank {rank}");
    }
    for text in [
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 18446744073709551615}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 4294967295}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 1000000}>",
        "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=1000000)",
    ] {
        if let Ok(e) = text::parse_any(text) {
            assert!(e.to_linear_layout(&[64, 64]).is_err(), "{text}");
        }
    }
}

/// Triton's compiler lays out one-element swizzled buffers (the mbarriers of pipelined kernels: offset of
/// size 1); Gluon rejects NVMMA shared layouts on a 1×1 tensor (no offset bases).
#[test]
fn one_element_shared_buffers() {
    let s = SwizzledShared::new(1, 1, 1, &[1, 0]);
    let one = s.to_linear_layout(&[1, 1]).unwrap();
    assert_eq!(one.total_in_size(), 1);
    assert_eq!(one.apply(&[("offset", 0)]).unwrap()[1].1, 0);
    let rank1 = SwizzledShared::new(1, 1, 1, &[0])
        .to_linear_layout(&[1])
        .unwrap();
    assert_eq!((rank1.total_in_size(), rank1.total_out_size()), (1, 1));
    assert!(s.to_linear_layout(&[2, 1]).is_ok());
    let n = NvmmaShared::new(0, 16, 2, false);
    assert!(n.to_linear_layout(&[1, 1]).is_err());
    assert!(n.to_linear_layout(&[1, 2]).is_ok());
}

/// A chain of aliases, each the slice of the one before: the parents are shared, and the nesting limit
/// applies to alias depth, so a long chain fails quickly at its first too-deep line.
#[test]
fn alias_chains_meet_the_nesting_limit() {
    let mut text = String::from("#a0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>\n");
    for i in 1..10_000 {
        text += &format!("#a{i} = #ttg.slice<{{dim = 0, parent = #a{}}}>\n", i - 1);
    }
    let t = std::time::Instant::now();
    // The first too-deep alias is rejected at its line, the ones built on it skipped with it.
    let f = ttgir::parse_file(&text).unwrap();
    assert_eq!(f.aliases.len(), 16);
    assert_eq!(f.rejected.len(), 1);
    assert!(
        f.rejected[0].1.contains("nesting too deep"),
        "{:?}",
        f.rejected
    );
    assert_eq!(f.skipped.len(), 10_000 - 17);
    assert!(t.elapsed().as_secs() < 5);
    // A short chain still parses.
    let short: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    assert_eq!(ttgir::parse_file(&short).unwrap().aliases.len(), 4);
}

/// Errors quote at most 60 characters of a token, with control characters escaped.
#[test]
fn errors_cut_and_escape_tokens() {
    let long = "x".repeat(1 << 20);
    for text in [
        format!("#{long}"),
        format!("#ttg.{long}<{{}}>"),
        format!("{long}(1)"),
        format!("#ttg.blocked<{{{long} = 1}}>"),
        format!("#ttg.blocked<{{a = {}}}>", "9".repeat(100_000)),
        "#ttg.blocked<{\u{1b}[31m = 1}>".to_string(),
        "#\u{7}bell".to_string(),
        "BlockedLayout(\u{1b})".to_string(),
    ] {
        let e = text::parse_any(&text).unwrap_err().to_string();
        assert!(e.len() < 400, "{} bytes", e.len());
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }
    let f =
        ttgir::parse_file(&format!("#a = #ttg.slice<{{dim = 0, parent = #{long}}}>\n")).unwrap();
    let e = &f.rejected[0].1;
    assert!(
        e.contains("unknown alias") && e.len() < 400,
        "{} bytes",
        e.len()
    );
    let e = LinearLayout::from_bases_string(&format!(
        " - register={long} -> (0)\nwhere out dims are: [dim0 (size 1)]"
    ));
    if let Err(e) = e {
        assert!(e.to_string().len() < 400);
    }
}

proptest! {
    #![proptest_config(config())]

    /// Helpers, planners and encodings with hostile parameters (huge extents, ranks, warp counts; layouts
    /// without out dims or with 64 output bits) return `Ok` or `Err`, with overflow checks on.
    #[test]
    fn helpers_and_planners_never_panic(
        logs in proptest::collection::vec(0u32..64, 0..4),
        warps in 0u32..32,
        lanes in 0u32..32,
        bits in prop_oneof![Just(8u32), Just(16), Just(64), any::<u32>()],
        rank in prop_oneof![0usize..4, any::<usize>()],
        op in 0u32..3,
        r in raw(),
    ) {
        let shape: Vec<u64> = logs.iter().map(|&b| 1u64 << b).collect();
        let spt = vec![1u32; shape.len()];
        let _ = blocked_for(&shape, &spt, 1 << warps, 1 << lanes);
        let _ = default_blocked(&shape, bits, 1 << warps, 1 << lanes);
        let _ = default_nvmma_shared(&shape, bits, op == 1, op == 2, CgaLayout::single());
        let n = NvmmaShared::new(128, 16, rank, op == 1);
        let _ = n.to_linear_layout(&shape);
        let _ = NvmmaShared::new(0, 16, rank, false).to_linear_layout(&shape);
        let _ = SwizzledShared::new(1, 1, 1, &[1, 0]).to_linear_layout(&shape);
        let parent = Encoding::Blocked(Blocked::new(&spt, &spt, &spt, &(0..spt.len() as u32).collect::<Vec<_>>()));
        let d = DotOperand::new(op, parent, 2);
        let _ = d.cga_layout();
        let _ = Encoding::DotOperand(d).to_linear_layout(&shape);
        let l = build(&r);
        let t = Target::parse("sm_90").unwrap();
        for (a, b) in [(&l, &l), (&l, &big_layout(true))] {
            let _ = classify(a, b);
            let _ = plan_shared(a, b, 16, t);
            let _ = plan_conversion(a, b, 16, t);
        }
        let big = big_layout(op == 1);
        let _ = classify(&big, &big_layout(op != 1));
        let _ = holders(&l, &logs.iter().map(|&x| u64::from(x)).collect::<Vec<_>>());
        let _ = holders(&big, &[u64::from(warps), 1, 0]);
        let _ = thread_elements(&l, &[]);
        let e = no_out_dims();
        let _ = plan_shared(&e, &e, 16, t);
        let _ = plan_conversion(&e, &l, 16, t);
    }
}
