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
        assert_eq!(r[..], [(Dim::new("o1"), x % 4), (Dim::new("o2"), x / 4)]);
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

// ----- Triton's unittest/Tools/LinearLayoutTest.cpp, case by case ----------------------------------------------

/// Triton's constructor with inferred out sizes (requires surjectivity).
fn inf(bases: &[(&str, &[&[u64]])], outs: &[&str]) -> LinearLayout {
    LinearLayout::from_bases_inferred(
        bases
            .iter()
            .map(|(n, b)| (*n, b.iter().map(|v| v.to_vec()).collect::<Vec<_>>())),
        outs.iter().copied(),
    )
    .unwrap()
}

fn id(size: u64, i: &str, o: &str) -> LinearLayout {
    LinearLayout::identity_1d(size, i, o).unwrap()
}

fn zeros(size: u64, i: &str, o: &str) -> LinearLayout {
    LinearLayout::zeros_1d(size, i, o, 1).unwrap()
}

fn mul(a: &LinearLayout, b: &LinearLayout) -> LinearLayout {
    (a * b).unwrap()
}

#[test]
fn constructors() {
    assert_eq!(
        id(32, "i", "o"),
        inf(&[("i", &[&[1], &[2], &[4], &[8], &[16]])], &["o"])
    );
    let one = id(1, "i", "o");
    assert_eq!(one, inf(&[("i", &[])], &["o"]));
    assert_eq!(
        (
            one.in_dim_size_log2("i").unwrap(),
            one.out_dim_size_log2("o").unwrap()
        ),
        (0, 0)
    );
    assert_eq!(
        zeros(32, "i", "o"),
        inf(&[("i", &[&[0], &[0], &[0], &[0], &[0]])], &["o"])
    );
    assert_eq!(id(0, "i", "o"), LinearLayout::empty());
    assert_eq!(LinearLayout::empty().to_string(), "\n(empty layout)");
    let l = inf(
        &[("in0", &[&[0], &[0], &[0]]), ("in1", &[&[1], &[2]])],
        &["dim0"],
    );
    assert_eq!(l.out_dim_size_log2("dim0").unwrap(), 2);
}

#[test]
fn products() {
    assert_eq!(
        mul(&id(16, "in", "out"), &id(32, "in", "out")),
        inf(
            &[(
                "in",
                &[&[1], &[2], &[4], &[8], &[16], &[32], &[64], &[128], &[256]]
            )],
            &["out"]
        )
    );
    assert_eq!(
        mul(&id(32, "in1", "out1"), &id(16, "in2", "out2")),
        inf(
            &[
                ("in1", &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0]]),
                ("in2", &[&[0, 1], &[0, 2], &[0, 4], &[0, 8]])
            ],
            &["out1", "out2"]
        )
    );
    assert_eq!(
        mul(&LinearLayout::empty(), &id(32, "in", "out")),
        id(32, "in", "out")
    );
    assert_eq!(
        mul(&id(8, "in", "out"), &zeros(16, "in", "out")),
        inf(
            &[("in", &[&[1], &[2], &[4], &[0], &[0], &[0], &[0]])],
            &["out"]
        )
    );
    assert_eq!(
        mul(&zeros(16, "in", "out1"), &inf(&[("in", &[])], &["out2"])),
        inf(
            &[("in", &[&[0, 0], &[0, 0], &[0, 0], &[0, 0]])],
            &["out1", "out2"]
        )
    );
    assert_eq!(
        mul(&id(0, "in", "out"), &zeros(4, "in", "out")),
        inf(&[("in", &[&[0], &[0]])], &["out"])
    );
    assert_eq!(
        mul(&id(4, "in", "out1"), &id(8, "in", "out2")),
        inf(
            &[("in", &[&[1, 0], &[2, 0], &[0, 1], &[0, 2], &[0, 4]])],
            &["out1", "out2"]
        )
    );
}

#[test]
fn transposes_and_apply() {
    let l = mul(&id(32, "in1", "out1"), &id(16, "in2", "out2"));
    let t = l.transpose_outs(&["out2", "out1"]).unwrap();
    assert_eq!(
        t,
        inf(
            &[
                ("in1", &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16]]),
                ("in2", &[&[1, 0], &[2, 0], &[4, 0], &[8, 0]])
            ],
            &["out2", "out1"]
        )
    );
    let d = mul(&id(32, "in1", "out1"), &id(1, "in2", "out2"))
        .transpose_outs(&["out2", "out1"])
        .unwrap();
    assert_eq!(
        d,
        inf(
            &[
                ("in1", &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16]]),
                ("in2", &[])
            ],
            &["out2", "out1"]
        )
    );
    let t = l.transpose_ins(&["in2", "in1"]).unwrap();
    assert_eq!(
        t,
        inf(
            &[
                ("in2", &[&[0, 1], &[0, 2], &[0, 4], &[0, 8]]),
                ("in1", &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0]])
            ],
            &["out1", "out2"]
        )
    );
    let a = ll(
        &[
            ("in1", &[&[4, 2], &[2, 1], &[1, 0]]),
            ("in2", &[&[1, 2], &[2, 1]]),
        ],
        &[("out1", 8), ("out2", 4)],
    );
    let val =
        |x: &[(&str, u64)]| -> Vec<u64> { a.apply(x).unwrap().into_iter().map(|p| p.1).collect() };
    assert_eq!(val(&[("in1", 0), ("in2", 0)]), [0, 0]);
    assert_eq!(val(&[("in2", 0), ("in1", 1)]), [4, 2]);
    assert_eq!(val(&[("in2", 1), ("in1", 0)]), [1, 2]);
}

#[test]
fn compose_4d() {
    let l1 = inf(
        &[
            ("in0", &[&[1, 0, 0, 0], &[2, 0, 0, 0]]),
            (
                "in1",
                &[&[4, 0, 0, 0], &[8, 0, 0, 0], &[16, 0, 0, 0], &[32, 0, 0, 0]],
            ),
            ("in2", &[&[0, 0, 1, 0], &[0, 0, 0, 1], &[0, 0, 0, 2]]),
            ("in3", &[]),
        ],
        &["out3", "out0", "out1", "out2"],
    );
    let z: &[u64] = &[0, 0, 0, 0];
    let l2 = inf(
        &[
            ("out3", &[&[1, 0, 0, 0], &[2, 0, 0, 0], z, z, z, z]),
            ("out0", &[&[0, 1, 0, 0]]),
            ("out1", &[&[0, 0, 1, 0]]),
            ("out2", &[&[0, 0, 0, 1], &[0, 0, 0, 2]]),
        ],
        &["out3", "out2", "out1", "out0"],
    );
    assert_eq!(
        l1.compose(&l2).unwrap(),
        ll(
            &[
                ("in0", &[&[1, 0, 0, 0], &[2, 0, 0, 0]]),
                ("in1", &[z, z, z, z]),
                ("in2", &[&[0, 0, 1, 0], &[0, 0, 0, 1], &[0, 0, 0, 2]]),
                ("in3", &[]),
            ],
            &[("out3", 4), ("out2", 2), ("out1", 2), ("out0", 4)]
        )
    );
}

#[test]
fn reshapes_and_flattens() {
    let l = inf(&[("in1", &[&[1], &[4], &[8]]), ("in2", &[&[2]])], &["out"]);
    assert_eq!(
        l.reshape_ins(&[("in3", 2), ("in4", 8)]).unwrap(),
        inf(&[("in3", &[&[1]]), ("in4", &[&[4], &[8], &[2]])], &["out"])
    );
    assert_eq!(
        l.flatten_ins().unwrap(),
        inf(&[("in1", &[&[1], &[4], &[8], &[2]])], &["out"])
    );
    let l = inf(&[("in1", &[&[1], &[4], &[2]]), ("in2", &[])], &["out"]);
    assert_eq!(
        l.reshape_ins(&[("in3", 4), ("in4", 2)]).unwrap(),
        inf(&[("in3", &[&[1], &[4]]), ("in4", &[&[2]])], &["out"])
    );
    assert_eq!(
        l.reshape_outs(&[("out1", 4), ("out2", 2)]).unwrap(),
        inf(
            &[("in1", &[&[1, 0], &[0, 1], &[2, 0]]), ("in2", &[])],
            &["out1", "out2"]
        )
    );
    let l = inf(&[("in1", &[&[1], &[4]]), ("in2", &[&[2]])], &["out"]);
    assert_eq!(
        l.reshape_ins(&[("in3", 8), ("in4", 1)]).unwrap(),
        inf(&[("in3", &[&[1], &[4], &[2]]), ("in4", &[])], &["out"])
    );
    assert_eq!(
        l.reshape_ins(&[("in3", 1), ("in4", 8)]).unwrap(),
        inf(&[("in3", &[]), ("in4", &[&[1], &[4], &[2]])], &["out"])
    );
    assert_eq!(
        l.reshape_outs(&[("out1", 8), ("out2", 1)]).unwrap(),
        inf(
            &[("in1", &[&[1, 0], &[4, 0]]), ("in2", &[&[2, 0]])],
            &["out1", "out2"]
        )
    );
    let l = inf(&[("in1", &[&[1], &[4], &[8]]), ("in2", &[&[3]])], &["out"]);
    assert_eq!(l.total_out_size(), 16);
    assert_eq!(
        l.reshape_outs(&[("out2", 2), ("out3", 8)]).unwrap(),
        inf(
            &[("in1", &[&[1, 0], &[0, 2], &[0, 4]]), ("in2", &[&[1, 1]])],
            &["out2", "out3"]
        )
    );
    let l = ll(
        &[("in1", &[&[1, 0], &[4, 1], &[8, 4]]), ("in2", &[&[3, 2]])],
        &[("out1", 16), ("out2", 8)],
    );
    assert_eq!(
        l.flatten_outs().unwrap(),
        ll(
            &[
                ("in1", &[&[1], &[4 + 16], &[8 + 4 * 16]]),
                ("in2", &[&[3 + 2 * 16]])
            ],
            &[("out1", 128)]
        )
    );
    // Edge cases: nothing to flatten.
    for l in [
        inf(&[("in1", &[])], &["out"]),
        inf(&[("in1", &[])], &[]),
        ll(&[], &[("out", 1)]),
        LinearLayout::empty(),
    ] {
        assert_eq!(l.flatten_ins().unwrap(), l);
        assert_eq!(l.flatten_outs().unwrap(), l);
    }
}

#[test]
fn invert_and_compose_variants() {
    // Non-injective outer: free variables are zero.
    let l1 = inf(&[("in1", &[&[2], &[1], &[4]])], &["out"]);
    let l2 = inf(&[("in2", &[&[0], &[2], &[1], &[4]])], &["out"]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(c, ll(&[("in1", &[&[2], &[4], &[8]])], &[("in2", 16)]));
    assert!(!c.is_surjective());
    assert_eq!(c.compose(&l2).unwrap(), l1);
    // Broadcast in dim of the inner layout.
    let l1 = inf(&[("in1", &[&[2], &[1], &[4]]), ("in2", &[&[0]])], &["out"]);
    let l2 = inf(&[("in", &[&[4], &[1], &[2]])], &["out"]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(
        c,
        inf(&[("in1", &[&[4], &[2], &[1]]), ("in2", &[&[0]])], &["in"])
    );
    assert_eq!(c.compose(&l2).unwrap(), l1);
    // Broadcast at the beginning / end / both ends of the outer layout.
    let l1 = inf(&[("in", &[&[1], &[2], &[4]])], &["out"]);
    let l2 = inf(&[("in", &[&[0], &[4], &[1], &[2]])], &["out"]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(c, ll(&[("in", &[&[4], &[8], &[2]])], &[("in", 16)]));
    assert_eq!(c.compose(&l2).unwrap(), l1);
    let l1 = inf(&[("in1", &[&[1], &[2], &[4]])], &["out"]);
    let l2 = inf(&[("in2", &[&[4], &[1], &[2], &[0]])], &["out"]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(c, ll(&[("in1", &[&[2], &[4], &[1]])], &[("in2", 16)]));
    assert!(c.compose(&l2).unwrap().equal_ignoring_out_dim_sizes(&l1));
    let l2 = inf(&[("in", &[&[0], &[4], &[1], &[2], &[0]])], &["out"]);
    let l1 = inf(&[("in", &[&[1], &[2], &[4]])], &["out"]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(c, ll(&[("in", &[&[4], &[8], &[2]])], &[("in", 32)]));
    assert_eq!(c.compose(&l2).unwrap(), l1);
    // Several out dims in different orders.
    let l1 = inf(
        &[
            ("in1", &[&[1, 0], &[0, 1], &[2, 0], &[3, 2]]),
            ("in2", &[&[2, 2]]),
        ],
        &["out1", "out2"],
    );
    let l2 = inf(
        &[("in3", &[&[0, 1], &[1, 0], &[0, 0], &[0, 2], &[2, 1]])],
        &["out2", "out1"],
    );
    let c1 = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(
        c1.compose(&l2).unwrap(),
        l1.transpose_outs(&["out2", "out1"]).unwrap()
    );
    let c2 = l2.invert_and_compose(&l1).unwrap();
    assert_eq!(
        c2.compose(&l1).unwrap(),
        l2.transpose_outs(&["out1", "out2"]).unwrap()
    );
    // Broadcast dims on both sides (different names: no identity dims).
    let l1 = inf(&[("in1", &[&[1], &[2], &[4]]), ("in2", &[&[0]])], &["out"]);
    let l2 = inf(&[("in3", &[&[1], &[2], &[4]]), ("in4", &[&[0]])], &["out"]);
    let c = l1.invert_and_compose(&l2).unwrap();
    assert_eq!(
        c,
        ll(
            &[("in1", &[&[1, 0], &[2, 0], &[4, 0]]), ("in2", &[&[0, 0]])],
            &[("in3", 8), ("in4", 2)]
        )
    );
    let a = inf(&[("in1", &[&[1], &[2]]), ("in2", &[&[0]])], &["out"]);
    let b = inf(&[("in3", &[&[2], &[1]]), ("in4", &[&[0]])], &["out"]);
    let c = a.invert_and_compose(&b).unwrap();
    assert_eq!(
        c,
        ll(
            &[("in1", &[&[2, 0], &[1, 0]]), ("in2", &[&[0, 0]])],
            &[("in3", 4), ("in4", 2)]
        )
    );
    assert_eq!(c.compose(&b).unwrap(), a);
}

#[test]
fn invert_and_compose_identity_in_dims() {
    let unit = |i: usize| -> Vec<u64> { (0..9).map(|j| u64::from(j == i)).collect() };
    let outs: Vec<String> = (0..9).map(|i| format!("dim{i}")).collect();
    let make = |reg: &[usize], lane: &[usize], warp: &[usize]| {
        LinearLayout::from_bases_inferred(
            [
                ("register", reg.iter().map(|&i| unit(i)).collect::<Vec<_>>()),
                ("lane", lane.iter().map(|&i| unit(i)).collect()),
                ("warp", warp.iter().map(|&i| unit(i)).collect()),
                ("block", vec![]),
            ],
            outs.iter().map(String::as_str),
        )
        .unwrap()
    };
    let src = make(&[8, 7], &[6, 5, 4, 3, 2], &[1, 0]);
    let dst = make(&[8, 7], &[0, 1, 2, 3, 4], &[5, 6]);
    let cvt = dst.invert_and_compose(&src).unwrap();
    // Registers are an identity dim.
    assert_eq!(
        cvt.bases("register").unwrap(),
        vec![vec![1, 0, 0, 0], vec![2, 0, 0, 0]]
    );
    let k = [("register", 3), ("lane", 0), ("warp", 2), ("block", 0)];
    let mid: Vec<(Dim, u64)> = cvt.apply(&k).unwrap().to_vec();
    assert_eq!(dst.apply(&k).unwrap(), src.apply(&mid).unwrap());
}

#[test]
fn num_consecutive_in_out() {
    assert_eq!(id(1, "in", "out").num_consecutive_in_out(), 1);
    assert_eq!(id(4, "in", "out").num_consecutive_in_out(), 4);
    assert_eq!(
        mul(&id(4, "in1", "out"), &id(8, "in2", "out")).num_consecutive_in_out(),
        4
    );
    assert_eq!(
        mul(&id(4, "in", "out1"), &id(8, "in", "out2")).num_consecutive_in_out(),
        4
    );
    assert_eq!(
        mul(&zeros(4, "in", "out1"), &id(4, "in", "out2")).num_consecutive_in_out(),
        1
    );
    assert_eq!(
        inf(&[("in", &[&[1], &[2], &[4], &[9]])], &["out"]).num_consecutive_in_out(),
        1
    );
    assert_eq!(
        inf(&[("in", &[&[1], &[2], &[4], &[10]])], &["out"]).num_consecutive_in_out(),
        2
    );
    assert_eq!(
        inf(&[("in", &[&[1], &[4], &[2]])], &["out"]).num_consecutive_in_out(),
        2
    );
    assert_eq!(
        inf(
            &[("in", &[&[1], &[2], &[4]]), ("in2", &[&[8], &[18]])],
            &["out"]
        )
        .num_consecutive_in_out(),
        2
    );
}

#[test]
fn equality_checks_out_dim_sizes() {
    let a = id(4, "in", "out");
    let b = ll(&[("in", &[&[1], &[2]])], &[("out", 8)]);
    assert_ne!(a, b);
    assert!(a.equal_ignoring_out_dim_sizes(&b));
}

#[test]
fn sublayouts() {
    let l1 = inf(
        &[("in1", &[&[1, 0], &[0, 1], &[2, 0]]), ("in2", &[&[0, 1]])],
        &["out1", "out2"],
    );
    let want = inf(&[("in1", &[&[1], &[0], &[2]]), ("in2", &[&[0]])], &["out1"]);
    assert_eq!(l1.sublayout(&["in1", "in2"], &["out1"]).unwrap(), want);
    assert_eq!(l1.sublayout(&["in2", "in1"], &["out1"]).unwrap(), want);
    assert_eq!(
        l1.sublayout(&["in2", "in1"], &["out2", "out1"]).unwrap(),
        l1
    );
    assert_eq!(
        l1.sublayout(&["in1"], &["out1"]).unwrap(),
        inf(&[("in1", &[&[1], &[0], &[2]])], &["out1"])
    );
    assert_eq!(
        l1.sublayout::<&str, &str>(&[], &[]).unwrap(),
        LinearLayout::empty()
    );
    assert_eq!(
        l1.sublayout::<&str, &str>(&["in1"], &[]).unwrap(),
        inf(&[("in1", &[&[], &[], &[]])], &[])
    );
    assert_eq!(
        l1.sublayout::<&str, &str>(&[], &["out1"]).unwrap(),
        ll(&[], &[("out1", 4)])
    );

    let i = id(4, "in", "out");
    assert!(!i.sublayout_is_zero(&["in"], &["out"]).unwrap());
    assert!(i.sublayout_is_zero::<&str, &str>(&[], &["out"]).unwrap());
    assert!(i.sublayout_is_zero::<&str, &str>(&["in"], &[]).unwrap());
    assert!(i.sublayout_is_zero::<&str, &str>(&[], &[]).unwrap());
    let l1 = inf(
        &[("in1", &[&[0, 1], &[0, 2]]), ("in2", &[&[1, 1]])],
        &["out1", "out2"],
    );
    assert!(l1.sublayout_is_zero(&["in1"], &["out1"]).unwrap());
    assert!(!l1.sublayout_is_zero(&["in1"], &["out2"]).unwrap());
    assert!(!l1.sublayout_is_zero(&["in2"], &["out1"]).unwrap());
    assert!(!l1.sublayout_is_zero(&["in2"], &["out2"]).unwrap());
}

#[test]
fn free_variable_masks() {
    let masks = |l: &LinearLayout| -> Vec<(String, u64)> {
        l.free_variable_masks()
            .into_iter()
            .map(|(d, m)| (d.to_string(), m))
            .collect()
    };
    assert_eq!(masks(&id(4, "in", "out")), [("in".to_string(), 0)]);
    assert_eq!(masks(&zeros(16, "in", "out")), [("in".to_string(), 0b1111)]);
    let l = mul(
        &mul(
            &mul(&id(2, "in", "out"), &zeros(4, "in", "out")),
            &id(4, "in", "out"),
        ),
        &zeros(2, "in", "out"),
    );
    assert_eq!(masks(&l), [("in".to_string(), 0b100110)]);
    let l = inf(
        &[
            ("in1", &[&[1, 1], &[2, 2], &[0, 0]]),
            ("in2", &[&[1, 0], &[0, 1], &[2, 0]]),
        ],
        &["out1", "out2"],
    );
    assert_eq!(
        masks(&l),
        [("in1".to_string(), 0b100), ("in2".to_string(), 0b10)]
    );
}

#[test]
fn quotients() {
    let l = ll(
        &[("dim1", &[&[1, 0]]), ("dim2", &[&[0, 0]])],
        &[("dim1", 2), ("dim2", 1)],
    );
    let q = l.quotient(&["dim1"]).unwrap();
    assert_eq!(q, zeros(2, "dim2", "dim2"));
    assert!(
        q.quotient(&["dim2"]).is_err(),
        "dim2 is zero, not the identity"
    );

    let l = inf(
        &[
            ("dim1", &[&[1, 0], &[2, 0], &[4, 0]]),
            ("dim2", &[&[0, 1], &[0, 2]]),
        ],
        &["dim1", "dim2"],
    );
    assert!(l.quotient(&["dim1", "dim2"]).is_ok());

    let l = inf(
        &[
            ("dim1", &[&[1, 0, 2], &[2, 0, 1]]),
            ("dim2", &[&[0, 1, 0], &[0, 2, 0], &[0, 4, 0]]),
            ("dim3", &[&[0, 0, 1], &[0, 0, 2]]),
        ],
        &["dim1", "dim2", "dim3"],
    );
    assert!(
        l.quotient(&["dim2"]).is_ok(),
        "other dims may mix among themselves"
    );
    let l = inf(
        &[
            ("dim1", &[&[1, 0, 2], &[2, 0, 1]]),
            ("dim2", &[&[0, 1, 0], &[0, 2, 0], &[0, 4, 0]]),
            ("dim3", &[&[0, 1, 1], &[0, 0, 2]]),
        ],
        &["dim1", "dim2", "dim3"],
    );
    assert!(l.quotient(&["dim2"]).is_err(), "dim3 feeds dim2");

    assert!(LinearLayout::empty().quotient(&["dim1"]).is_err());
    let l = mul(
        &mul(&id(8, "dim1", "dim1"), &id(2, "dim2", "dim2")),
        &id(4, "dim3", "dim3"),
    );
    let q = l.quotient(&["dim1", "dim3"]).unwrap();
    assert!(q.quotient(&["dim2"]).is_ok());
}

/// Offsets of packed fp4 coordinates in a buffer padded to twice the width (Triton's helper of the same test).
fn packed_coord_to_padded_offset(m: u64, k_packed: u64) -> LinearLayout {
    let off = |row: u64, col: u64| {
        let linear = row * k_packed + col;
        (linear / 8) * 16 + linear % 8
    };
    let rows = (0..m.trailing_zeros())
        .map(|i| vec![off(1 << i, 0)])
        .collect::<Vec<_>>();
    let cols = (0..k_packed.trailing_zeros())
        .map(|j| vec![off(0, 1 << j)])
        .collect::<Vec<_>>();
    LinearLayout::from_bases(
        [("row", rows), ("col", cols)],
        [("offset", m * k_packed * 2)],
        false,
    )
    .unwrap()
}

#[test]
fn blackwell_fp4_padded_pseudo_inverse() {
    let (m, k_packed, k_padded) = (16u64, 4u64, 8u64);
    let bases: Vec<Vec<u64>> = (0..(m * k_padded).trailing_zeros())
        .map(|i| {
            let offset = 1u64 << i;
            let packed = offset / 16 * 8 + offset % 8;
            vec![packed / k_packed, packed % k_packed]
        })
        .collect();
    let layout = LinearLayout::from_bases_inferred([("offset", bases)], ["row", "col"]).unwrap();
    let computed = layout.pseudo_invert().unwrap();
    let manual = packed_coord_to_padded_offset(m, k_packed);
    for i in 0..m {
        for j in 0..k_packed {
            let x = [("row", i), ("col", j)];
            assert_eq!(
                manual.apply(&x).unwrap()[0].1,
                computed.apply(&x).unwrap()[0].1
            );
        }
    }
}

#[test]
fn blackwell_fp4_padded_swizzled_pseudo_inverse() {
    let (m, k_padded) = (16u64, 128u64);
    let k_packed = k_padded / 2;
    let (tile_rows, tile_cols, vec) = (8u64, 8u64 * 128 / 8, 16u64);
    let pack = |col_padded: u64| col_padded / 16 * 8 + col_padded % 8;
    let mut bases: Vec<Vec<u64>> = (0..tile_cols.trailing_zeros())
        .map(|c| vec![0, pack(1 << c)])
        .collect();
    for r in 0..tile_rows.trailing_zeros() {
        let row = 1u64 << r;
        bases.push(vec![row, pack(vec * (row % 8))]);
    }
    let layout = LinearLayout::from_bases_inferred([("offset", bases)], ["row", "col"])
        .unwrap()
        .ensure_layout_not_smaller_than(&[("row", m), ("col", k_packed)])
        .unwrap();
    let inverse = layout.pseudo_invert().unwrap();
    let plain = packed_coord_to_padded_offset(m, k_packed);
    for i in 0..m {
        for j in 0..k_packed {
            let x = [("row", i), ("col", j)];
            let flat = plain.apply(&x).unwrap()[0].1;
            let (row, col) = (flat / k_padded, flat % k_padded);
            let col_swizzled = ((col / 16) ^ (row % 8)) * 16 + col % 16;
            assert_eq!(
                inverse.apply(&x).unwrap()[0].1,
                row * k_padded + col_swizzled
            );
        }
    }
}

#[test]
fn supremum_cases() {
    use weft::layout::supremum;
    let d = |v: &[&str]| -> Vec<Dim> { v.iter().map(|s| Dim::new(s)).collect() };
    assert_eq!(
        supremum(&d(&["a", "b", "c"]), &d(&["a", "b", "c"])).unwrap(),
        d(&["a", "b", "c"])
    );
    assert_eq!(
        supremum(&d(&["a", "b"]), &d(&["a", "c"])).unwrap(),
        d(&["a", "b", "c"])
    );
    assert_eq!(
        supremum(&d(&["a", "b"]), &d(&["b", "c"])).unwrap(),
        d(&["a", "b", "c"])
    );
    assert_eq!(
        supremum(&d(&["a", "b", "c"]), &d(&["a", "d"])).unwrap(),
        d(&["a", "b", "c", "d"])
    );
    assert!(supremum(&d(&[]), &d(&[])).unwrap().is_empty());
    assert_eq!(supremum(&d(&["a", "b"]), &d(&[])).unwrap(), d(&["a", "b"]));
    assert!(supremum(&d(&["a", "b"]), &d(&["b", "a"])).is_err());
}

#[test]
fn divide_left_cases() {
    let b = id(8, "in", "out");
    let c = zeros(16, "in", "out");
    assert_eq!(mul(&b, &c).divide_left(&b).unwrap(), c);
    assert_eq!(mul(&c, &b).divide_left(&c).unwrap(), b);
    // An extra in dim in the divisor.
    let a = id(32, "in", "out");
    let b = inf(
        &[("in", &[&[1], &[2], &[4], &[8]]), ("extra", &[&[0]])],
        &["out"],
    );
    assert!(a.divide_left(&b).is_err());
    assert_eq!(
        id(8, "in", "out").divide_left(&id(4, "in", "out")).unwrap(),
        id(2, "in", "out")
    );
    assert_eq!(
        id(8, "in", "out").divide_left(&id(8, "in", "out")).unwrap(),
        id(1, "in", "out")
    );
    // 2D.
    let l1 = inf(
        &[
            ("in1", &[&[1, 1], &[2, 2], &[0, 8], &[0, 4]]),
            ("in2", &[&[0, 2], &[0, 1]]),
        ],
        &["out1", "out2"],
    );
    let l2 = inf(
        &[("in1", &[&[1, 1], &[2, 2]]), ("in2", &[&[0, 2], &[0, 1]])],
        &["out1", "out2"],
    );
    let l3 = inf(
        &[("in1", &[&[0, 2], &[0, 1]]), ("in2", &[])],
        &["out1", "out2"],
    );
    assert_eq!(mul(&l2, &l3), l1);
    assert_eq!(l1.divide_left(&l2).unwrap(), l3);
    // Eliminating in dims.
    let l1 = inf(
        &[("in2", &[&[0, 1], &[1, 0]]), ("in1", &[&[2, 0], &[0, 2]])],
        &["out1", "out2"],
    );
    let l2 = inf(&[("in2", &[&[0, 1], &[1, 0]])], &["out1", "out2"]);
    let l3 = inf(
        &[("in2", &[]), ("in1", &[&[1, 0], &[0, 1]])],
        &["out1", "out2"],
    );
    assert_eq!(mul(&l2, &l3), l1);
    assert_eq!(l1.divide_left(&l2).unwrap(), l3);
    let l4 = inf(
        &[("in1", &[&[0, 1], &[0, 2]]), ("in2", &[])],
        &["out1", "out2"],
    );
    let l5 = inf(&[("in1", &[&[0, 1], &[0, 2]])], &["out1", "out2"]);
    let l6 = inf(&[("in1", &[]), ("in2", &[])], &["out1", "out2"]);
    assert_eq!(mul(&l5, &l6), l4);
    assert_eq!(l4.divide_left(&l5).unwrap(), l6);
    let l7 = inf(
        &[("in1", &[]), ("in2", &[&[0, 1]]), ("in3", &[])],
        &["out1", "out2"],
    );
    let l8 = inf(&[("in2", &[&[0, 1]])], &["out1", "out2"]);
    let l9 = inf(
        &[("in1", &[]), ("in2", &[]), ("in3", &[])],
        &["out1", "out2"],
    );
    assert_eq!(mul(&l8, &l9), l7);
    assert_eq!(l7.divide_left(&l8).unwrap(), l9);
    // Eliminating out dims.
    let l1 = inf(
        &[("in2", &[&[1, 0], &[1, 0]]), ("in1", &[&[2, 0], &[0, 1]])],
        &["out1", "out2"],
    );
    let l2 = inf(&[("in2", &[&[1, 0], &[1, 0]])], &["out1", "out2"]);
    let l3 = inf(
        &[("in2", &[]), ("in1", &[&[1, 0], &[0, 1]])],
        &["out1", "out2"],
    );
    assert_eq!(mul(&l2, &l3), l1);
    assert_eq!(l1.divide_left(&l2).unwrap(), l3);
    let l4 = inf(&[("in1", &[&[0, 1], &[0, 2]])], &["out1", "out2"]);
    let l5 = inf(&[], &["out1"]);
    let l6 = inf(&[("in1", &[&[0, 1], &[0, 2]])], &["out1", "out2"]);
    assert_eq!(mul(&l5, &l6), l4);
    assert_eq!(l4.divide_left(&l5).unwrap(), l6);
}

#[test]
fn divide_right_cases() {
    let b = id(8, "in", "out");
    let c = zeros(16, "in", "out");
    assert_eq!(mul(&c, &b).divide_right(&b).unwrap(), c);
    assert_eq!(mul(&b, &c).divide_right(&c).unwrap(), b);
    assert_eq!(
        id(8, "in", "out")
            .divide_right(&id(4, "in", "out"))
            .unwrap(),
        id(2, "in", "out")
    );
    // The divisor must be the slow part: identity(4) is not the top of a swapped layout.
    let swapped = inf(&[("in", &[&[2], &[1], &[4]])], &["out"]);
    assert!(swapped.divide_right(&id(4, "in", "out")).is_err());
    assert!(swapped.divide_right(&id(2, "in", "out")).is_ok());
}

#[test]
fn column_actions() {
    use weft::layout::ColumnAction;
    let layout = inf(&[("in", &[&[1], &[2], &[4]])], &["out"]);
    let act = ColumnAction::new(vec![2, 0, 1], "in", 3).unwrap();
    assert_eq!(
        act.apply(&layout).unwrap(),
        inf(&[("in", &[&[4], &[1], &[2]])], &["out"])
    );
    assert_eq!(act.to_string(), "ColumnAction([2, 0, 1], in, 3)");
    let drop = ColumnAction::new(vec![1, 0], "in", 3).unwrap();
    assert_eq!(
        drop.apply(&layout).unwrap(),
        ll(&[("in", &[&[2], &[1]])], &[("out", 8)])
    );

    let values: Vec<u32> = (1..=8).collect();
    let act = ColumnAction::new(vec![2, 0, 1], "register", 3).unwrap();
    assert_eq!(act.apply_values(&values).unwrap(), [1, 5, 2, 6, 3, 7, 4, 8]);
    let drop = ColumnAction::new(vec![2, 1], "register", 3).unwrap();
    assert_eq!(drop.apply_values(&values).unwrap(), [1, 5, 3, 7]);
    // Inverse and composition.
    let inv = act.inverse().unwrap();
    assert!(act.left_compose(&inv).unwrap().is_identity());
    let reg = inf(&[("register", &[&[1], &[2], &[4]])], &["out"]);
    assert_eq!(inv.apply(&act.apply(&reg).unwrap()).unwrap(), reg);
    assert!(drop.inverse().is_err());
    assert!(ColumnAction::new(vec![0, 0], "register", 3).is_err());
}

#[test]
fn blocked_layouts_broadcast_and_wrap_around() {
    // blocked(sizePerThread {1}, threadsPerWarp {4}, warpsPerCTA {4}) on shape {16}.
    let tile = |spt: u64, tpw: u64, wpc: u64| {
        let r = LinearLayout::identity_standard_nd("register", &[spt], &[0]).unwrap();
        let l = LinearLayout::identity_standard_nd("lane", &[tpw], &[0]).unwrap();
        let w = LinearLayout::identity_standard_nd("warp", &[wpc], &[0]).unwrap();
        mul(&mul(&r, &l), &w)
    };
    let t = tile(1, 4, 4);
    assert_eq!(
        t,
        inf(
            &[
                ("register", &[]),
                ("lane", &[&[1], &[2]]),
                ("warp", &[&[4], &[8]])
            ],
            &["dim0"]
        )
    );
    // Shape {128}: the tile wraps around with more registers.
    let big = t.ensure_layout_not_smaller_than(&[("dim0", 128)]).unwrap();
    assert_eq!(
        big.bases("register").unwrap(),
        vec![vec![16], vec![32], vec![64]]
    );
    // blocked({4}, {4}, {4}) on shape {8}: lanes and warps beyond the tensor broadcast.
    let small = tile(4, 4, 4)
        .ensure_layout_not_larger_than(&[("dim0", 8)], true)
        .unwrap();
    assert_eq!(
        small,
        inf(
            &[
                ("register", &[&[1], &[2]]),
                ("lane", &[&[4], &[0]]),
                ("warp", &[&[0], &[0]])
            ],
            &["dim0"]
        )
    );
    // Without broadcasting registers, register bases past the shape are dropped instead.
    let fewer = tile(16, 1, 1)
        .ensure_layout_not_larger_than(&[("dim0", 4)], false)
        .unwrap();
    assert_eq!(
        fewer,
        inf(
            &[("register", &[&[1], &[2]]), ("lane", &[]), ("warp", &[])],
            &["dim0"]
        )
    );
    // identity_standard_nd fills order[0] first.
    let nd = LinearLayout::identity_standard_nd("lane", &[2, 4], &[1, 0]).unwrap();
    assert_eq!(
        nd,
        inf(&[("lane", &[&[1, 0], &[2, 0], &[0, 1]])], &["dim1", "dim0"])
    );
}

#[test]
fn resize_concat_rename() {
    let l = inf(&[("in", &[&[1], &[2]])], &["out"]);
    assert_eq!(
        l.resize_in_dim("in", 2).unwrap(),
        ll(&[("in", &[&[1]])], &[("out", 4)])
    );
    assert_eq!(
        l.resize_in_dim("in", 8).unwrap(),
        inf(&[("in", &[&[1], &[2], &[0]])], &["out"])
    );
    assert_eq!(
        l.resize_out_dim("out", 2).unwrap(),
        ll(&[("in", &[&[1], &[0]])], &[("out", 2)])
    );
    let a = id(4, "a", "o");
    let b = ll(&[("b", &[&[3]])], &[("o", 4)]);
    assert_eq!(
        a.concat_ins(&b).unwrap(),
        inf(&[("a", &[&[1], &[2]]), ("b", &[&[3]])], &["o"])
    );
    assert!(a.concat_ins(&a).is_err(), "in dims must be disjoint");
    let c = inf(&[("a", &[&[0], &[1]])], &["p"]);
    assert_eq!(
        a.concat_outs(&c).unwrap(),
        ll(&[("a", &[&[1, 0], &[2, 1]])], &[("o", 4), ("p", 2)])
    );
    assert_eq!(a.rename_in_dim("a", "lane").unwrap(), id(4, "lane", "o"));
    assert_eq!(a.rename_out_dim("o", "dim0").unwrap(), id(4, "a", "dim0"));
}

#[test]
fn register_permutations_for_division() {
    use weft::layout::{action_remove_broadcasted_regs, reg_perm_for_divide};
    // Registers 1 and 4 hold a 2-element vector along dim0 only after reordering: [2, 1, 4] -> [1, 2, 4].
    let a = inf(
        &[("register", &[&[2], &[1], &[4]]), ("lane", &[&[8]])],
        &["dim0"],
    );
    let tile = id(2, "register", "dim0");
    assert!(a.divide_left(&tile).is_err());
    let act = reg_perm_for_divide(&a, &tile, true).unwrap();
    assert_eq!(act.action(), &[1, 0, 2]);
    let permuted = act.apply(&a).unwrap();
    let quotient = permuted.divide_left(&tile).unwrap();
    assert_eq!(mul(&tile, &quotient), permuted);
    // On the right: the divisor's bases, scaled past the quotient, go last.
    let b = inf(&[("register", &[&[4], &[1], &[2]])], &["dim0"]);
    let top = id(2, "register", "dim0");
    let act = reg_perm_for_divide(&b, &top, false).unwrap();
    assert_eq!(act.action(), &[1, 2, 0]);
    assert!(act.apply(&b).unwrap().divide_right(&top).is_ok());
    // A basis the layout lacks: no permutation helps.
    assert!(reg_perm_for_divide(&a, &id(2, "register", "dim1"), true).is_err());
    // Dropping broadcast registers.
    let bc = inf(&[("register", &[&[0], &[1], &[0], &[2]])], &["dim0"]);
    let drop = action_remove_broadcasted_regs(&bc).unwrap();
    assert_eq!(drop.to_string(), "ColumnAction([1, 3], register, 4)");
    assert_eq!(drop.apply(&bc).unwrap(), id(4, "register", "dim0"));
}
