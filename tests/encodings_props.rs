//! Laws every encoding obeys, over the proptest strategies of `weft::layout::encoding::strategy`.

use proptest::prelude::*;
use weft::layout::encoding::{strategy, Encoding};
use weft::layout::text::{gluon, ttgir};
use weft::layout::Dim;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/encodings_props.txt"))), ..ProptestConfig::default() })]

    /// The layout covers exactly the shape, is surjective, and has the standard in dims.
    #[test]
    fn layouts_cover_the_shape((enc, shape) in strategy::encoding_with_shape()) {
        let ll = enc.to_linear_layout(&shape).unwrap();
        let sizes: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
        prop_assert_eq!(&sizes, &shape);
        prop_assert!(ll.is_surjective());
        let ins: Vec<Dim> = ll.in_dim_names().cloned().collect();
        if enc.is_shared() {
            prop_assert_eq!(ins[0].as_str(), "offset");
        } else if enc.is_tensor_memory() {
            prop_assert_eq!(ins.iter().map(|d| d.as_str()).collect::<Vec<_>>(), vec!["row", "col", "block"]);
        } else {
            prop_assert_eq!(ins.iter().map(|d| d.as_str()).collect::<Vec<_>>(), vec!["register", "lane", "warp", "block"]);
        }
    }

    /// Text round trips: parse(print(e)) == e for Gluon; TTGIR gives the same layout.
    #[test]
    fn text_round_trips((enc, shape) in strategy::encoding_with_shape()) {
        let g = gluon::print_encoding(&enc);
        prop_assert_eq!(&gluon::parse_encoding(&g).unwrap(), &enc);
        let t = ttgir::print_encoding(&enc);
        let back = ttgir::parse_encoding(&t).unwrap();
        prop_assert_eq!(ttgir::print_encoding(&back), t);
        prop_assert_eq!(back.to_linear_layout(&shape).unwrap(), enc.to_linear_layout(&shape).unwrap());
    }

    /// Every generated encoding validates.
    #[test]
    fn strategies_are_valid(enc in strategy::encoding()) {
        prop_assert!(enc.validate().is_ok(), "{:?}", enc.validate());
    }

    /// A slice of a layout is the parent with that dim removed: the parent's layout on the shape with a 1
    /// inserted, restricted, equals the slice's (as a map on the kept coordinates).
    #[test]
    fn slices_agree_with_parents(s in strategy::slice(), logs in proptest::collection::vec(0u32..=7, 3)) {
        let rank = s.rank().unwrap();
        let shape: Vec<u64> = logs[..rank].iter().map(|l| 1u64 << l).collect();
        let Ok(ll) = Encoding::Slice(s.clone()).to_linear_layout(&shape) else { return Ok(()) };
        let mut pshape = shape.clone();
        pshape.insert(s.dim as usize, 1);
        let parent = s.parent.to_linear_layout(&pshape).unwrap();
        for lane in 0..ll.in_dim_size("lane").unwrap() {
            for warp in 0..ll.in_dim_size("warp").unwrap() {
                let a = ll.apply(&[("lane", lane), ("warp", warp)]).unwrap();
                let b = parent.apply(&[("lane", lane), ("warp", warp)]).unwrap();
                let b: Vec<u64> = b.iter().enumerate().filter(|(i, _)| *i != s.dim as usize).map(|(_, (_, v))| *v).collect();
                prop_assert_eq!(a.iter().map(|(_, v)| *v).collect::<Vec<_>>(), b);
            }
        }
    }
}
