//! gfx1250's `make_partitioned_dot_layouts` against Triton 3.9 on every case of
//! `tests/fixtures/partitioned_dot.json` (written by `scripts/triton_fixtures.py --only partitioned_dot`):
//! the three layouts print exactly as Gluon's `repr` of Triton's, and every argument set Gluon rejects,
//! weft rejects.

use serde_json::Value;
use weft::layout::encoding::{
    make_partitioned_dot_layouts, CgaLayout, Encoding, PaddedShared, PartitionedDotRequest,
};
use weft::layout::text::gluon;
use weft::layout::Bases;

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/partitioned_dot.json"
    );
    let text = std::fs::read_to_string(path)
        .expect("fixtures: run scripts/triton_fixtures.py --only partitioned_dot");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["cases"].as_array().expect("cases").clone()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_u64().expect("a count")).collect())
        .unwrap_or_default()
}

fn bases(v: &Value) -> Bases {
    v.as_array()
        .map(|a| a.iter().map(u64s).collect())
        .unwrap_or_default()
}

fn padded(spec: &Value) -> PaddedShared {
    let p = &spec["params"];
    PaddedShared {
        interval_padding_pairs: bases(&p["interval_padding_pairs"])
            .iter()
            .map(|pair| (pair[0] as u32, pair[1] as u32))
            .collect(),
        offset_bases: bases(&p["offset_bases"]),
        cga_layout: CgaLayout::new(bases(&p["cga_layout"])),
        shape: u64s(&p["shape"]),
    }
}

fn request(c: &Value) -> PartitionedDotRequest {
    let kw = &c["kwargs"];
    let flag = |k: &str, default: bool| kw.get(k).and_then(Value::as_bool).unwrap_or(default);
    PartitionedDotRequest {
        block_m: c["block_m"].as_u64().unwrap(),
        block_n: c["block_n"].as_u64().unwrap(),
        layout_a: padded(&c["a"]),
        layout_b: padded(&c["b"]),
        num_warps: kw["num_warps"].as_u64().unwrap() as u32,
        instr_shape: u64s(&kw["instr_shape"])
            .into_iter()
            .map(|x| x as u32)
            .collect(),
        a_transposed: flag("a_transposed", false),
        b_transposed: flag("b_transposed", false),
        slice_m: kw.get("slice_m").and_then(Value::as_u64),
        slice_n: kw.get("slice_n").and_then(Value::as_u64),
        transposed: flag("transposed", true),
    }
}

#[test]
fn every_partitioned_dot_case_matches_triton() {
    let cases = cases();
    assert!(cases.len() > 400, "too few cases");
    let (mut matched, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for c in &cases {
        let got = make_partitioned_dot_layouts(&request(c));
        match (c.get("error"), got) {
            (None, Ok(l)) => {
                let printed = [
                    gluon::print_encoding(&Encoding::PartitionedShared(l.shared_a)),
                    gluon::print_encoding(&Encoding::PartitionedShared(l.shared_b)),
                    gluon::print_encoding(&Encoding::AmdWmma(l.wmma)),
                ];
                let want =
                    [&c["shared_a"], &c["shared_b"], &c["wmma"]].map(|v| v.as_str().unwrap());
                if printed.iter().zip(want).all(|(p, w)| p == w) {
                    matched += 1;
                } else {
                    failures.push(format!(
                        "case {}: weft {printed:?}\n   triton {want:?}",
                        c["id"]
                    ));
                }
            }
            (Some(_), Err(_)) => rejected += 1,
            (None, Err(e)) => failures.push(format!(
                "case {}: weft rejects ({e}), Triton accepts",
                c["id"]
            )),
            (Some(err), Ok(_)) => failures.push(format!(
                "case {}: Triton rejects ({err}), weft accepts",
                c["id"]
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ ({matched} matched, {rejected} rejected by both):\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(8)].join("\n")
    );
    assert!(
        matched > 300 && rejected > 50,
        "{matched} matched, {rejected} rejected"
    );
}

#[test]
fn pieces_tile_each_operand_and_warp_pairs_split_a() {
    let mut checked = 0;
    for c in cases().iter().filter(|c| c.get("error").is_none()) {
        let r = request(c);
        let l = make_partitioned_dot_layouts(&r).expect("Triton accepts it");
        // The pieces of each operand, laid end to end along the partitioned dim, are the operand.
        for (shared, original) in [(&l.shared_a, &r.layout_a), (&l.shared_b, &r.layout_b)] {
            let Encoding::PaddedShared(piece) = shared.partition_layout.as_ref() else {
                panic!("case {}: the piece is not a padded layout", c["id"]);
            };
            let d = shared.partition_dim as usize;
            let pieces = u64::from(shared.num_partitions * shared.num_groups);
            assert_eq!(
                piece.shape[d] * pieces,
                original.shape[d],
                "case {}",
                c["id"]
            );
            assert_eq!(
                piece.shape[1 - d],
                original.shape[1 - d],
                "case {}",
                c["id"]
            );
            assert_eq!(
                piece.interval_padding_pairs,
                original.interval_padding_pairs
            );
        }
        // Warp bit 1 steps one M piece (a quarter of the slice's instruction rows): the two warps of a
        // pair read different pieces of A.
        let instr_m = u64::from(if r.transposed {
            r.instr_shape[1]
        } else {
            r.instr_shape[0]
        });
        let rows = r.slice_m.unwrap_or(r.block_m) / instr_m;
        assert_eq!(l.wmma.warp_bases[1], vec![rows / 4, 0], "case {}", c["id"]);
        assert_eq!(l.wmma.warp_bases[0][0], rows / 2, "case {}", c["id"]);
        checked += 1;
    }
    assert!(checked > 300);
}

#[test]
fn extreme_arguments_are_typed_errors_never_panics() {
    let base = request(&cases()[0]);
    let extremes = [0u64, 1, 3, 6, 1 << 32, 1 << 62, 1 << 63, u64::MAX];
    for &v in &extremes {
        let small = u32::try_from(v).unwrap_or(u32::MAX);
        let variants = [
            PartitionedDotRequest {
                block_m: v,
                ..base.clone()
            },
            PartitionedDotRequest {
                block_n: v,
                ..base.clone()
            },
            PartitionedDotRequest {
                slice_m: Some(v),
                ..base.clone()
            },
            PartitionedDotRequest {
                slice_n: Some(v),
                block_n: v,
                ..base.clone()
            },
            PartitionedDotRequest {
                num_warps: small,
                ..base.clone()
            },
            PartitionedDotRequest {
                instr_shape: vec![small, small, small],
                ..base.clone()
            },
            PartitionedDotRequest {
                instr_shape: vec![small],
                ..base.clone()
            },
            PartitionedDotRequest {
                layout_a: PaddedShared {
                    shape: vec![v, v],
                    ..base.layout_a.clone()
                },
                ..base.clone()
            },
            PartitionedDotRequest {
                layout_b: PaddedShared {
                    shape: vec![v],
                    ..base.layout_b.clone()
                },
                ..base.clone()
            },
            PartitionedDotRequest {
                layout_a: PaddedShared {
                    cga_layout: CgaLayout::new(vec![vec![v, 0]]),
                    ..base.layout_a.clone()
                },
                ..base.clone()
            },
        ];
        for r in &variants {
            let _ = make_partitioned_dot_layouts(r);
        }
    }
}
