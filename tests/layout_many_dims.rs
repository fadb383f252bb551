//! Layouts with many dims: size-1 dims cost no bits, so only the dim cap (`MAX_DIMS`) keeps a few kilobytes
//! of input from naming thousands of them. At the cap every operation and planner answers (`Ok` or a typed
//! error) at once; above it every constructor says `TooManyDims` without looking at the rest of the input.
//! Runs in CI in well under a second.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use weft::layout::convert::{classify, plan_conversion, plan_shared, Target};
use weft::layout::{DimSide, LayoutError, LinearLayout, MAX_DIMS};

/// In dims with their bases, and out dims with their sizes: what `LinearLayout::from_bases` takes.
type Spec = (Vec<(String, Vec<Vec<u64>>)>, Vec<(String, u64)>);

/// `n_in` in dims and `n_out` out dims, all of size 1 except `register` and `dim0` (4 each, identity), in
/// the given order of the size-1 names (`x{i}` in, `y{i}` out).
fn many(n_in: usize, n_out: usize) -> Spec {
    let mut outs = vec![("dim0".to_string(), 4u64)];
    outs.extend((1..n_out).map(|i| (format!("y{i}"), 1)));
    let unit = |v: u64| {
        let mut b = vec![0u64; outs.len()];
        b[0] = v;
        b
    };
    let mut ins = vec![("register".to_string(), vec![unit(1), unit(2)])];
    ins.extend((1..n_in).map(|i| (format!("x{i}"), Vec::new())));
    (ins, outs)
}

fn build(n_in: usize, n_out: usize) -> Result<LinearLayout, LayoutError> {
    let (ins, outs) = many(n_in, n_out);
    LinearLayout::from_bases(ins, outs, false)
}

#[test]
fn above_the_cap_is_a_typed_error() {
    for (n_in, n_out, side, count) in [
        (MAX_DIMS + 1, 1, DimSide::In, MAX_DIMS + 1),
        (1, MAX_DIMS + 1, DimSide::Out, MAX_DIMS + 1),
        (100_000, 1, DimSide::In, 100_000),
        (1, 100_000, DimSide::Out, 100_000),
    ] {
        let t = Instant::now();
        let e = build(n_in, n_out).unwrap_err();
        assert_eq!(
            e,
            LayoutError::TooManyDims {
                side,
                count,
                limit: MAX_DIMS
            }
        );
        assert!(e.to_string().contains("at most 64"), "{e}");
        let (ins, outs) = many(n_in, n_out);
        let e =
            LinearLayout::from_bases_inferred(ins, outs.iter().map(|o| o.0.clone())).unwrap_err();
        assert!(matches!(e, LayoutError::TooManyDims { .. }), "{e}");
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }
}

/// 65 size-1 out dims once panicked (index out of bounds) in `pseudo_invert`, `invert_and_compose` and the
/// conversion planner; products and concatenations that would pass the cap are refused.
#[test]
fn at_the_cap_every_operation_answers() {
    let full = build(MAX_DIMS, MAX_DIMS).unwrap();
    let t = Instant::now();
    let inv = full.pseudo_invert();
    // Only `register` reaches `dim0`; the 63 size-1 out dims need nothing: a right inverse exists.
    let inv = inv.unwrap();
    let back = inv.compose(&full).unwrap();
    assert_eq!(back.apply(&[("dim0", 3)]).unwrap()[0].1, 3);
    assert!(full.invert_and_compose(&full).is_ok());
    let _ = full.invert();
    let target = Target::parse("sm_90").unwrap();
    let _ = classify(&full, &full);
    let _ = plan_conversion(&full, &full, 16, target);
    let _ = plan_shared(&full, &full, 16, target);
    // A product of two layouts with disjoint size-1 dims would have 2 × 63 + 1 of them.
    let (ins, outs) = many(MAX_DIMS, MAX_DIMS);
    let other = LinearLayout::from_bases(
        ins.iter().map(|(n, b)| (format!("{n}b"), b.clone())),
        outs.iter().map(|(n, s)| (format!("{n}b"), *s)),
        false,
    )
    .unwrap();
    assert!(matches!(
        full.product(&other),
        Err(LayoutError::TooManyDims { .. })
    ));
    // Error messages list at most a few dims.
    let e = full.invert_and_compose(&other).unwrap_err().to_string();
    assert!(
        e.contains("more]") && e.len() < 600,
        "{} bytes: {e}",
        e.len()
    );
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random counts of size-1 dims around the cap, with every planner: `Ok` or `Err`, never a panic.
    #[test]
    fn many_size_one_dims_never_panic(n_in in 1usize..80, n_out in 1usize..80, m_in in 1usize..70, m_out in 1usize..70) {
        let (a, b) = (build(n_in, n_out), build(m_in, m_out));
        prop_assert_eq!(a.is_ok(), n_in <= MAX_DIMS && n_out <= MAX_DIMS);
        if let (Ok(a), Ok(b)) = (a, b) {
            let target = Target::parse("sm_90").unwrap();
            let _ = (a.pseudo_invert(), a.invert(), a.invert_and_compose(&b), b.invert_and_compose(&a));
            let _ = (a.compose(&b), a.product(&b), a.concat_ins(&b), a.concat_outs(&b));
            let _ = (a.divide_left(&b), a.divide_right(&b), a.flatten_ins(), a.flatten_outs());
            let _ = (classify(&a, &b), plan_conversion(&a, &b, 16, target), plan_shared(&a, &b, 16, target));
        }
    }
}
