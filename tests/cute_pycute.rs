//! CuTe interop against PyCuTe's own answers (`tests/fixtures/cute.json`, made by `scripts/cute_fixtures.py`):
//! every layout's offsets, and composition, complement, logical divide and logical product computed with the
//! linear-layout operations, plus round trips through `to_cute` on random layouts.

use proptest::prelude::*;
use serde_json::Value;
use weft::layout::cute::{
    self, from_cute, to_cute, CuteError, CuteLayout, IntTuple, Swizzle, SwizzledLayout,
};
use weft::layout::LinearLayout;

fn fixtures() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cute.json"
    ))
    .expect("tests/fixtures/cute.json");
    serde_json::from_str(&text).expect("valid JSON")
}

fn cases<'a>(f: &'a Value, key: &str) -> &'a [Value] {
    let list = f[key]
        .as_array()
        .unwrap_or_else(|| panic!("fixture section {key}"));
    assert!(list.len() >= 100, "{key}: only {} cases", list.len());
    list
}

fn layout(case: &Value, key: &str) -> CuteLayout {
    case[key]
        .as_str()
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", case[key]))
}

fn linear(case: &Value, key: &str) -> LinearLayout {
    layout(case, key)
        .to_linear_layout(None)
        .unwrap_or_else(|e| panic!("{}: {e}", case[key]))
}

/// True when `values` (offsets by flat coordinate) are an XOR of the offsets of single bits.
fn is_xor_linear(values: &[u64]) -> bool {
    (0..values.len()).all(|i| {
        let xor = (0..usize::BITS)
            .filter(|k| i >> k & 1 == 1)
            .fold(0, |acc, k| acc ^ values[1 << k]);
        values[i] == xor
    })
}

#[test]
fn from_cute_gives_pycute_offsets_or_names_the_obstacle() {
    let f = fixtures();
    let (mut linear_cases, mut swizzled, mut carries, mut extents) = (0, 0, 0, 0);
    for case in cases(&f, "layouts") {
        let l = layout(case, "layout");
        let swizzle = case.get("swizzle").map(|s| {
            let p: Vec<i64> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            Swizzle::new(p[0], p[1], p[2]).unwrap()
        });
        let values: Vec<u64> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let result = from_cute(&l.shape, &l.stride, swizzle.as_ref());
        if !values.len().is_power_of_two() {
            assert!(
                matches!(result, Err(CuteError::NotPowerOfTwo { .. })),
                "{l}: {result:?}"
            );
            extents += 1;
            continue;
        }
        if !is_xor_linear(&values) {
            assert!(
                matches!(result, Err(CuteError::Carry { .. })),
                "{l}: {result:?}"
            );
            carries += 1;
            continue;
        }
        let ll = result.unwrap_or_else(|e| panic!("{l}: {e}"));
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(
                ll.apply_packed(i as u64),
                v,
                "{l} {swizzle:?} at coordinate {i}"
            );
        }
        // Back to CuTe and in again: the same function.
        let back = to_cute(&ll).unwrap_or_else(|e| panic!("{l}: {e}"));
        assert_eq!(
            back.to_linear_layout().unwrap().columns(),
            ll.columns(),
            "{l} -> {back}"
        );
        linear_cases += 1;
        swizzled += usize::from(swizzle.is_some());
    }
    assert!(
        linear_cases >= 150 && swizzled >= 50 && carries >= 10 && extents >= 3,
        "{linear_cases} linear, {swizzled} swizzled, {carries} carries, {extents} bad extents"
    );
}

#[test]
fn composition_matches_pycute() {
    let f = fixtures();
    for case in cases(&f, "composition") {
        let ours = cute::composition(&linear(case, "a"), &linear(case, "b")).unwrap();
        assert_eq!(ours.columns(), linear(case, "result").columns(), "{case}");
    }
}

#[test]
fn complement_matches_pycute() {
    let f = fixtures();
    for case in cases(&f, "complement") {
        let a = linear(case, "a");
        let size = case["size"].as_u64().unwrap();
        let ours = cute::complement(&a, size).unwrap();
        assert_eq!(ours.columns(), linear(case, "result").columns(), "{case}");
        // With the layout's own offsets it spans the whole codomain.
        let both: Vec<u64> = a.columns().iter().chain(ours.columns()).copied().collect();
        assert_eq!(
            weft::layout::gf2::rank(&both),
            size.trailing_zeros(),
            "{case}"
        );
    }
}

#[test]
fn logical_divide_matches_pycute() {
    let f = fixtures();
    for case in cases(&f, "logical_divide") {
        let ours = cute::logical_divide(&linear(case, "a"), &linear(case, "b")).unwrap();
        assert_eq!(ours.columns(), linear(case, "result").columns(), "{case}");
    }
}

#[test]
fn logical_product_matches_pycute() {
    let f = fixtures();
    for case in cases(&f, "logical_product") {
        let ours = cute::logical_product(&linear(case, "a"), &linear(case, "b")).unwrap();
        assert_eq!(ours.columns(), linear(case, "result").columns(), "{case}");
    }
}

#[test]
fn obstacles_are_named() {
    let err = |text: &str| {
        text.parse::<SwizzledLayout>()
            .and_then(|s| s.to_linear_layout())
            .unwrap_err()
    };
    assert!(matches!(
        err("(4,3):(1,4)"),
        CuteError::NotPowerOfTwo { extent: 3, .. }
    ));
    assert!(matches!(
        err("4:-1"),
        CuteError::NegativeStride { stride: -1, .. }
    ));
    assert!(matches!(
        err("(2,2):(1,1)"),
        CuteError::Carry { bit: 0, .. }
    ));
    assert!(matches!(err("(2,2):1"), CuteError::NotCongruent { .. }));
    assert!(matches!(
        err("Sw<3,0,2> o 8:1"),
        CuteError::InvalidSwizzle { .. }
    ));
    assert!(matches!(
        err("Sw<1,0,1> o 4 o 8:1"),
        CuteError::Offset { offset: 4 }
    ));
    assert!(matches!(err("8:(1"), CuteError::Parse { column: 5, .. }));
    assert!(matches!(
        err("4:4611686018427387904"),
        CuteError::TooManyBits { .. }
    ));
    let msg = err("4:3").to_string();
    assert!(
        msg.contains("bit 0 of mode 0 (offset 3)") && msg.contains("bit 1 of mode 0 (offset 6)"),
        "{msg}"
    );
    // A linear layout whose bases overlap in a way no swizzle separates: (1, 1) and (1, 0) on one dim.
    let tangled = LinearLayout::from_bases(
        [("register", vec![vec![3], vec![1], vec![2]])],
        [("dim0", 4)],
        false,
    )
    .unwrap();
    assert!(matches!(
        to_cute(&tangled),
        Err(CuteError::NotStrided { .. })
    ));
}

#[test]
fn hierarchical_modes_are_colexicographic() {
    // ((2,4),8):((1,16),2): mode 0 is a 2×4 block, so its coordinate 5 is (1, 2) and sits at 1·1 + 2·16.
    let shape = IntTuple::from(vec![IntTuple::from(vec![2i64, 4]), 8.into()]);
    let stride = IntTuple::from(vec![IntTuple::from(vec![1i64, 16]), 2.into()]);
    let ll = from_cute(&shape, &stride, None).unwrap();
    assert_eq!(
        ll.apply(&[("dim0", 5), ("dim1", 3)]).unwrap()[0].1,
        1 + 2 * 16 + 3 * 2
    );
    assert_eq!(ll.in_dims().map(|(_, n)| n).collect::<Vec<_>>(), [8, 8]);
    let parsed: CuteLayout = "((2,4),8):((1,16),2)".parse().unwrap();
    assert_eq!(parsed, CuteLayout { shape, stride });
    // A bijective CuTe layout inverts into a Triton-style shared layout: offset -> (dim0, dim1).
    let shared = ll.invert().unwrap();
    assert_eq!(
        shared.apply(&[("offset", 39)]).unwrap()[..],
        [("dim0".into(), 5), ("dim1".into(), 3)]
    );
}

#[test]
fn text_round_trips() {
    for text in [
        "((2,4),8):((1,16),2)",
        "Sw<3,3,3> o (8,64):(64,1)",
        "1:0",
        "(2,(2,(2,2))):(8,(4,(2,1)))",
    ] {
        let parsed: SwizzledLayout = text.parse().unwrap();
        assert_eq!(parsed.to_string(), text);
    }
    // Python's and CuTe C++'s spellings: spaces, a 1-tuple's trailing comma, static integers, an offset.
    let py: SwizzledLayout = "Sw<2,0,-3> o _0 o (_4, (2,)):(1, (_32,))".parse().unwrap();
    assert_eq!(py.to_string(), "Sw<2,0,-3> o (4,(2)):(1,(32))");
}

/// A random CuTe layout whose bits never overlap: `(extent log2, stride)` leaves grouped into modes.
fn strided() -> impl Strategy<Value = CuteLayout> {
    (
        proptest::collection::vec((0u32..4, 0u32..3), 1..7),
        proptest::collection::vec(0usize..6, 1..7),
        0u64..1 << 20,
    )
        .prop_map(|(leaves, cuts, seed)| {
            // Stack the leaves on disjoint bits in a shuffled order (the seed picks the order and gaps).
            let mut order: Vec<usize> = (0..leaves.len()).collect();
            let mut s = seed;
            for i in (1..order.len()).rev() {
                order.swap(i, (s % (i as u64 + 1)) as usize);
                s /= i as u64 + 1;
            }
            let mut strides = vec![0i64; leaves.len()];
            let mut at = 0u32;
            for &i in &order {
                let (e, gap) = leaves[i];
                at += gap;
                strides[i] = if gap == 2 { 0 } else { 1 << at };
                at += e;
            }
            let mut modes: Vec<(Vec<IntTuple>, Vec<IntTuple>)> = vec![(vec![], vec![])];
            for (i, &(e, _)) in leaves.iter().enumerate() {
                if i > 0 && cuts.contains(&i) {
                    modes.push((vec![], vec![]));
                }
                let last = modes.last_mut().unwrap();
                last.0.push(IntTuple::Int(1 << e));
                last.1.push(IntTuple::Int(strides[i]));
            }
            let (shape, stride) = modes
                .into_iter()
                .map(|(e, d)| (IntTuple::Tuple(e), IntTuple::Tuple(d)))
                .unzip();
            CuteLayout {
                shape: IntTuple::Tuple(shape),
                stride: IntTuple::Tuple(stride),
            }
        })
}

proptest! {
    /// CuTe → linear → CuTe → linear is the same function; printing and parsing are inverse.
    #[test]
    fn cute_round_trips(l in strided(), b in 0i64..4, m in 0i64..6, s in 0i64..6, left in any::<bool>(), with in any::<bool>()) {
        let swizzle = if with && s >= b { Swizzle::new(b, m, if left { -s } else { s }).ok() } else { None };
        let ll = from_cute(&l.shape, &l.stride, swizzle.as_ref()).unwrap();
        let back = to_cute(&ll).unwrap();
        prop_assert_eq!(back.to_linear_layout().unwrap().columns().to_vec(), ll.columns().to_vec());
        let text = SwizzledLayout { layout: l.clone(), swizzle }.to_string();
        prop_assert_eq!(text.parse::<SwizzledLayout>().unwrap().to_string(), text);
    }

    /// A linear layout with a CuTe form maps back to itself: the same bases per input bit.
    #[test]
    fn linear_round_trips(bases in proptest::collection::vec(0u64..256, 0..8), cut in 0usize..8) {
        let cut = cut.min(bases.len());
        let dims = [("register", bases[..cut].iter().map(|&v| vec![v]).collect::<Vec<_>>()),
                    ("lane", bases[cut..].iter().map(|&v| vec![v]).collect())];
        let ll = LinearLayout::from_bases(dims, [("dim0", 256)], false).unwrap();
        match to_cute(&ll) {
            Ok(c) => prop_assert_eq!(c.to_linear_layout().unwrap().columns().to_vec(), ll.columns().to_vec()),
            Err(e) => prop_assert!(matches!(e, CuteError::NotStrided { .. }), "{}", e),
        }
    }
}
