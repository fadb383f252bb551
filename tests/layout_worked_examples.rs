//! Triton's own worked examples (shared/reference/linear-layouts.md §4.6) as table tests.

use weft::layout::{Dim, LinearLayout};

fn ll(bases: &[(&str, &[&[u64]])], outs: &[(&str, u64)]) -> LinearLayout {
    LinearLayout::from_bases(
        bases
            .iter()
            .map(|(n, b)| (*n, b.iter().map(|v| v.to_vec()).collect::<Vec<_>>())),
        outs.iter().copied(),
        false,
    )
    .unwrap()
}

#[test]
fn compose_example() {
    let l1 = ll(
        &[("in1", &[&[1, 1], &[0, 1]]), ("in2", &[&[1, 0], &[1, 2]])],
        &[("out1", 4), ("out2", 4)],
    );
    let l2 = ll(
        &[("out1", &[&[2, 2], &[1, 0]]), ("out2", &[&[1, 1], &[2, 1]])],
        &[("out3", 4), ("out4", 4)],
    );
    let c = l1.compose(&l2).unwrap();
    let want = ll(
        &[("in1", &[&[3, 3], &[1, 1]]), ("in2", &[&[2, 2], &[0, 3]])],
        &[("out3", 4), ("out4", 4)],
    );
    assert_eq!(c, want);
    assert!(!c.is_surjective());
}

#[test]
fn invert_and_compose_example() {
    let l1 = ll(&[("in1", &[&[2], &[1], &[4]])], &[("out", 8)]);
    let l2 = ll(&[("in2", &[&[4], &[1], &[2]])], &[("out", 8)]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(c, ll(&[("in1", &[&[4], &[2], &[1]])], &[("in2", 8)]));
    assert_eq!(c.compose(&l2).unwrap(), l1);
}

#[test]
fn product_examples_from_the_header() {
    let id4 = LinearLayout::identity_1d(4, "i", "o").unwrap();
    let id2 = LinearLayout::identity_1d(2, "i", "o").unwrap();
    assert_eq!(
        (&id4 * &id2).unwrap(),
        LinearLayout::identity_1d(8, "i", "o").unwrap()
    );
    let z2 = LinearLayout::zeros_1d(2, "i", "o", 1).unwrap();
    let x_mod_4 = (&id4 * &z2).unwrap();
    let x_div_2 = (&z2 * &id4).unwrap();
    for x in 0..8u64 {
        assert_eq!(x_mod_4.apply(&[("i", x)]).unwrap()[0].1, x % 4);
        assert_eq!(x_div_2.apply(&[("i", x)]).unwrap()[0].1, x / 2);
    }
    let a = LinearLayout::identity_1d(4, "i", "o1").unwrap();
    let b = LinearLayout::identity_1d(8, "i", "o2").unwrap();
    let p = (&a * &b).unwrap();
    for x in 0..32u64 {
        let r = p.apply(&[("i", x)]).unwrap();
        assert_eq!(r, vec![(Dim::new("o1"), x % 4), (Dim::new("o2"), x / 4)]);
    }
}

#[test]
fn mma_v2_tile_and_pseudo_inverse() {
    let l = ll(
        &[
            ("register", &[&[0, 1], &[8, 0], &[0, 8]]),
            ("lane", &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]]),
        ],
        &[("dim0", 16), ("dim1", 16)],
    );
    assert!(l.is_invertible());
    let inv = l.invert().unwrap();
    let id_hw = (&LinearLayout::identity_1d(8, "register", "register").unwrap()
        * &LinearLayout::identity_1d(32, "lane", "lane").unwrap())
        .unwrap();
    let id_tensor = (&LinearLayout::identity_1d(16, "dim0", "dim0").unwrap()
        * &LinearLayout::identity_1d(16, "dim1", "dim1").unwrap())
        .unwrap();
    assert_eq!(l.compose(&inv).unwrap(), id_hw);
    assert_eq!(inv.compose(&l).unwrap(), id_tensor);
    assert_eq!(l.pseudo_invert().unwrap(), inv);
}
