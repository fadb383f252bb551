//! proptest laws of the layout algebra over random layouts (strategies from `weft::layout::strategy`).
//! Failures persist in `proptest-regressions/layout_laws.txt`.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use weft::layout::strategy::{self, DimsSpec, Kind};
use weft::layout::{Dim, LayoutDifference, LinearLayout};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/layout_laws.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// The identity on the given dims (name, size), in order.
fn identity<'a>(dims: impl Iterator<Item = (&'a Dim, u64)>) -> LinearLayout {
    dims.fold(LinearLayout::empty(), |acc, (d, s)| {
        (&acc * &LinearLayout::identity_1d(s, d, d).unwrap()).unwrap()
    })
}

/// A layout with `l`'s out dims and random in dims, of kind `kind`.
fn same_outs(l: &LinearLayout, kind: Kind, max_in_bits: u32) -> BoxedStrategy<LinearLayout> {
    let outs: Vec<(Dim, u32)> = l
        .out_dims()
        .map(|(d, s)| (*d, s.trailing_zeros()))
        .collect();
    let out_bits: u32 = outs.iter().map(|d| d.1).sum();
    strategy::dims(Kind::Any, max_in_bits.max(out_bits), 0)
        .prop_flat_map(move |spec| {
            let mut ins = spec.ins;
            // Enough input bits for a surjective layout: top up the first dim (or add one).
            let have: u32 = ins.iter().map(|d| d.1).sum();
            if have < out_bits {
                match ins.first_mut() {
                    Some(d) => d.1 += out_bits - have,
                    None => ins.push((Dim::new("register"), out_bits)),
                }
            }
            strategy::layout_on(
                DimsSpec {
                    ins,
                    outs: outs.clone(),
                },
                kind,
            )
        })
        .boxed()
}

/// Checks `a * b` for in dims disjoint and out dims shared (a tile of tiles): inputs concatenate, and each
/// output coordinate is `a`'s value with `b`'s stacked above it (`b_d << log2 |a_d|`).
fn check_stacked_product(
    a: &LinearLayout,
    b: &LinearLayout,
    xs: &[u64],
) -> Result<(), TestCaseError> {
    let p = (a * b).unwrap();
    let a_in = a.total_in_bits();
    let a_outs: Vec<u32> = a.out_dims().map(|(_, s)| s.trailing_zeros()).collect();
    let (a_mask, b_mask) = (a.total_in_size() - 1, b.total_in_size() - 1);
    for &x in xs {
        let (xa, xb) = (x & a_mask, (x >> 32) & b_mask);
        let (ya, yb) = (
            a.unpack_outputs(a.apply_packed(xa)),
            b.unpack_outputs(b.apply_packed(xb)),
        );
        let want: Vec<u64> = (0..a_outs.len())
            .map(|d| ya[d] | yb[d] << a_outs[d])
            .collect();
        prop_assert_eq!(p.unpack_outputs(p.apply_packed(xa | xb << a_in)), want);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn apply_is_linear(l in strategy::layouts(12, 12), x in any::<u64>(), y in any::<u64>()) {
        let mask = l.total_in_size().wrapping_sub(1);
        let (x, y) = (x & mask, y & mask);
        prop_assert_eq!(l.apply_packed(x ^ y), l.apply_packed(x) ^ l.apply_packed(y));
        prop_assert_eq!(l.apply_packed(0), 0);
        // The named form agrees with the packed one.
        let mut shift = 0;
        let named: Vec<(Dim, u64)> = l.in_dims().map(|(d, s)| {
            let v = (x >> shift) & (s - 1);
            shift += s.trailing_zeros();
            (*d, v)
        }).collect();
        let got: Vec<u64> = l.apply(&named).unwrap().into_iter().map(|p| p.1).collect();
        let want = l.unpack_outputs(l.apply_packed(x));
        prop_assert_eq!(&got, &want);
        // In any order, with a dim named twice (values add) or left out (zero): the same map.
        let values = |v: &[(Dim, u64)]| -> Vec<u64> {
            l.apply(v).unwrap().into_iter().map(|p| p.1).collect()
        };
        let mut rotated = named.clone();
        if !rotated.is_empty() {
            rotated.rotate_left(1);
            prop_assert_eq!(&values(&rotated), &want);
            let (d, v) = rotated[0];
            rotated[0] = (d, v & y);
            rotated.push((d, v & !y));
            prop_assert_eq!(&values(&rotated), &want);
            let mut fewer = named.clone();
            fewer[0].1 = 0;
            let zeroed = values(&fewer);
            fewer.remove(0);
            prop_assert_eq!(values(&fewer), zeroed);
            // A value outside its dim, in order or not, and an unknown dim are errors.
            let size = 1u64 << l.in_dims().next().unwrap().1.trailing_zeros();
            let mut over = named.clone();
            over[0].1 = size;
            prop_assert!(l.apply(&over).is_err());
            over.rotate_left(1);
            prop_assert!(l.apply(&over).is_err());
            prop_assert!(l.apply(&[(Dim::new("no_such_dim"), 0)]).is_err());
        }
    }

    #[test]
    fn compose_is_associative(
        (a, b, c) in strategy::layouts(10, 10).prop_flat_map(|c| {
            strategy::composable_with(&c, Kind::Any, 10).prop_flat_map(move |b| {
                let c = c.clone();
                strategy::composable_with(&b, Kind::Any, 10).prop_map(move |a| (a, b.clone(), c.clone()))
            })
        })
    ) {
        let left = a.compose(&b).unwrap().compose(&c).unwrap();
        let right = a.compose(&b.compose(&c).unwrap()).unwrap();
        prop_assert_eq!(left, right);
    }

    #[test]
    fn product_laws(a in strategy::layouts(8, 8), b in strategy::layouts(8, 8), c in strategy::layouts(8, 8)) {
        let e = LinearLayout::empty();
        prop_assert_eq!((&a * &e).unwrap(), a.clone());
        prop_assert_eq!((&e * &a).unwrap(), a.clone());
        if let (Ok(ab), Ok(bc)) = (&a * &b, &b * &c) {
            // The same map; unrelated dims may be merged in a different order. (Either side alone may fail
            // when a dim order conflicts on one side only: ([d1, d3] * ([d3] * [d1])).)
            if let (Ok(l), Ok(r)) = ((&ab * &c), (&a * &bc)) {
                let ins: Vec<Dim> = r.in_dim_names().cloned().collect();
                let outs: Vec<Dim> = r.out_dim_names().cloned().collect();
                prop_assert_eq!(l.transpose_ins(&ins).unwrap().transpose_outs(&outs).unwrap(), r);
            }
        }
        if let Ok(ab) = &a * &b {
            prop_assert_eq!(ab.total_in_bits(), a.total_in_bits() + b.total_in_bits());
            prop_assert_eq!(ab.rank(), a.rank() + b.rank());
        }
    }

    #[test]
    fn surjective_times_surjective_is_surjective(
        a in strategy::surjective_layouts(8, 8),
        b in strategy::surjective_layouts(8, 8),
    ) {
        if let Ok(p) = &a * &b {
            prop_assert!(p.is_surjective());
        }
    }

    #[test]
    fn inverse_laws(a in strategy::invertible_layouts(12)) {
        let inv = a.invert().unwrap();
        prop_assert_eq!(a.compose(&inv).unwrap(), identity(a.in_dims()));
        prop_assert_eq!(inv.compose(&a).unwrap(), identity(a.out_dims()));
        prop_assert_eq!(inv.invert().unwrap(), a.clone());
        prop_assert_eq!(a.pseudo_invert().unwrap(), inv);
    }

    #[test]
    fn pseudo_inverse_laws(a in strategy::surjective_layouts(12, 10)) {
        let p = a.pseudo_invert().unwrap();
        // a ∘ p = id on the outputs, and a ∘ p ∘ a = a.
        prop_assert_eq!(p.compose(&a).unwrap(), identity(a.out_dims()));
        prop_assert_eq!(a.compose(&p).unwrap().compose(&a).unwrap(), a.clone());
        // p uses only pivot columns: its images avoid the free variables of a.
        let free: u64 = {
            let mut off = 0;
            a.free_variable_masks().into_iter().zip(a.in_dims()).fold(0, |acc, ((_, m), (_, s))| {
                let r = acc | m << off;
                off += s.trailing_zeros();
                r
            })
        };
        for &c in p.columns() {
            prop_assert_eq!(c & free, 0);
        }
    }

    #[test]
    fn invert_and_compose_solves(
        (a, b) in strategy::layouts(10, 8).prop_flat_map(|a| {
            let b = same_outs(&a, Kind::Surjective, 10);
            (Just(a), b)
        })
    ) {
        let c = a.invert_and_compose(&b).unwrap();
        prop_assert_eq!(c.compose(&b).unwrap(), a.clone());
        if b.is_invertible() {
            prop_assert_eq!(c, a.compose(&b.invert().unwrap()).unwrap());
        }
        // The same with b's out dims in reverse order.
        let rev: Vec<Dim> = b.out_dim_names().rev().cloned().collect();
        let b2 = b.transpose_outs(&rev).unwrap();
        let c2 = a.invert_and_compose(&b2).unwrap();
        prop_assert_eq!(c2.compose(&b2).unwrap(), a.transpose_outs(&rev).unwrap());
    }

    #[test]
    fn divide_then_multiply_recovers_the_layout(b in strategy::layouts(6, 6), c in strategy::layouts(6, 6)) {
        if let Ok(a) = &b * &c {
            let q = a.divide_left(&b).unwrap();
            prop_assert_eq!((&b * &q).unwrap(), a.clone());
        }
        if let Ok(a) = &c * &b {
            let q = a.divide_right(&b).unwrap();
            prop_assert_eq!((&q * &b).unwrap(), a.clone());
        }
    }

    #[test]
    fn reshape_and_transpose_round_trip(a in strategy::layouts(12, 12), seed in any::<u64>()) {
        let ins: Vec<(Dim, u64)> = a.in_dims().map(|(d, s)| (*d, s)).collect();
        let outs: Vec<(Dim, u64)> = a.out_dims().map(|(d, s)| (*d, s)).collect();
        // A rotation of the dim lists, chosen by the seed.
        let rot = |v: &[(Dim, u64)]| -> Vec<Dim> {
            let mut names: Vec<Dim> = v.iter().map(|d| d.0).collect();
            if !names.is_empty() {
                let k = (seed as usize) % names.len();
                names.rotate_left(k);
            }
            names
        };
        let orig_in: Vec<Dim> = ins.iter().map(|d| d.0).collect();
        let orig_out: Vec<Dim> = outs.iter().map(|d| d.0).collect();
        let t = a.transpose_ins(&rot(&ins)).unwrap().transpose_outs(&rot(&outs)).unwrap();
        prop_assert_eq!(t.transpose_ins(&orig_in).unwrap().transpose_outs(&orig_out).unwrap(), a.clone());
        let flat = a.flatten_ins().unwrap().flatten_outs().unwrap();
        prop_assert_eq!(flat.reshape_ins(&ins).unwrap().reshape_outs(&outs).unwrap(), a.clone());
    }

    #[test]
    fn size_one_dims_keep_a_layout_equivalent(a in strategy::layouts(12, 12), at_in in any::<usize>(), at_out in any::<usize>()) {
        // `a` with a size-1 in dim and a size-1 out dim inserted anywhere.
        let mut bases = a.all_bases();
        bases.insert(at_in % (bases.len() + 1), (Dim::new("unit_in"), vec![]));
        let mut outs: Vec<(Dim, u64)> = a.out_dims().map(|(d, s)| (*d, s)).collect();
        let j = at_out % (outs.len() + 1);
        outs.insert(j, (Dim::new("unit_out"), 1));
        for (_, bs) in &mut bases {
            for b in bs {
                b.insert(j, 0);
            }
        }
        let padded = LinearLayout::from_bases(bases, outs, false).unwrap();
        prop_assert_ne!(&padded, &a);
        prop_assert!(padded.equivalent(&a) && a.equivalent(&padded));
        prop_assert_eq!(padded.first_difference(&a), None);
    }

    #[test]
    fn equivalent_means_the_same_map(
        (a, b) in strategy::dims(Kind::Any, 8, 6).prop_flat_map(|spec| {
            (strategy::layout_on(spec.clone(), Kind::Any), strategy::layout_on(spec, Kind::Any))
        }),
    ) {
        // Same dims: equivalent exactly when every input lands on the same element.
        let same_map = (0..a.total_in_size()).all(|x| a.apply_packed(x) == b.apply_packed(x));
        prop_assert_eq!(a.equivalent(&b), same_map);
        prop_assert!(a.equivalent(&a));
        match a.first_difference(&b) {
            None => prop_assert!(same_map),
            Some(LayoutDifference::Basis { in_dim, bit, left, right }) => {
                // The reported bit really maps to the two reported elements (coordinates on dims above 1).
                let image = |l: &LinearLayout| -> Vec<u64> {
                    let at = l.apply(&[(in_dim, 1u64 << bit)]).unwrap();
                    at.into_iter().zip(l.out_dims()).filter(|(_, (_, s))| *s > 1).map(|(c, _)| c.1).collect()
                };
                prop_assert_eq!(image(&a), left.clone());
                prop_assert_eq!(image(&b), right.clone());
                prop_assert_ne!(left, right);
            }
            Some(other) => prop_assert!(false, "same dims, yet {}", other),
        }
    }

    #[test]
    fn text_forms_round_trip(a in strategy::layouts(16, 16)) {
        #[cfg(feature = "serde")]
        {
            prop_assert_eq!(LinearLayout::from_json(&a.to_json()).unwrap(), a.clone());
            // Through plain serde_json too: the identity, whatever the whitespace.
            let pretty = serde_json::to_string_pretty(&a).unwrap();
            prop_assert_eq!(serde_json::from_str::<LinearLayout>(&pretty).unwrap(), a.clone());
        }
        prop_assert_eq!(LinearLayout::from_bases_string(&a.to_bases_string()).unwrap(), a.clone());
    }

    #[test]
    fn quotient_of_a_product_with_an_identity(a in strategy::layouts(8, 8), bits in 0u32..4) {
        // a × identity on a fresh dim is trivial over that dim, and quotients back to a.
        let id = LinearLayout::identity_1d(1 << bits, "extra", "extra").unwrap();
        let p = (&a * &id).unwrap();
        prop_assert!(p.is_trivial_over(&["extra"]));
        prop_assert_eq!(p.quotient(&["extra"]).unwrap(), a);
    }

    #[test]
    fn product_of_tiles_stacks_coordinates(
        (a, b) in strategy::layouts(24, 24).prop_flat_map(|a| {
            let b = same_outs(&a, Kind::Any, 24);
            (Just(a), b)
        }),
        xs in proptest::collection::vec(any::<u64>(), 8),
    ) {
        // Rename b's in dims apart from a's: the product's fast path (its column moves run on 256-bit vectors
        // with a masked tail, so every column count matters).
        let mut b = b;
        let names: Vec<Dim> = b.in_dim_names().cloned().collect();
        for (k, d) in names.iter().enumerate() {
            b = b.rename_in_dim(d.as_str(), format!("tile{k}")).unwrap();
        }
        check_stacked_product(&a, &b, &xs)?;
    }
}

#[test]
fn product_with_more_than_four_out_dims_stacks_coordinates() {
    // Six out dims: more column moves than the product keeps in its fixed arrays.
    let outs: Vec<(String, u64)> = (0..6).map(|d| (format!("d{d}"), 4)).collect();
    let tile = |prefix: &str, salt: u64| {
        let bases: Vec<Vec<u64>> = (0..12u64)
            .map(|k| (0..6u64).map(|d| (k * 7 + d * 3 + salt) % 4).collect())
            .collect();
        LinearLayout::from_bases(
            [
                (format!("{prefix}0"), bases[..5].to_vec()),
                (format!("{prefix}1"), bases[5..].to_vec()),
            ],
            outs.iter().map(|(n, s)| (n.as_str(), *s)),
            false,
        )
        .unwrap()
    };
    let xs: Vec<u64> = (0..64u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    check_stacked_product(&tile("r", 1), &tile("w", 2), &xs).unwrap();
    // Named apply with more than four out dims (coordinates no longer fit inline).
    let l = tile("r", 3);
    for &x in &xs {
        let x = x & (l.total_in_size() - 1);
        let named = [(Dim::new("r0"), x & 31), (Dim::new("r1"), x >> 5)];
        let got: Vec<(Dim, u64)> = l.apply(&named).unwrap().to_vec();
        let want = l.unpack_outputs(l.apply_packed(x));
        assert_eq!(got.len(), 6);
        for (k, (d, v)) in got.iter().enumerate() {
            assert_eq!((d.as_str(), *v), (format!("d{k}").as_str(), want[k]));
        }
    }
}
