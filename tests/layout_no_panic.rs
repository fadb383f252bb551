//! No input makes a public layout function panic: proptest feeds arbitrary bytes, bases, sizes and dim names
//! to every constructor, parser and operation; each must return `Ok` or `Err`. Failures persist in
//! `proptest-regressions/layout_no_panic.txt`.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use weft::layout::{
    action_remove_broadcasted_regs, reg_perm_for_divide, supremum, ColumnAction, Dim, LinearLayout,
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
