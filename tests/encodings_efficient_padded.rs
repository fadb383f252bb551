//! CDNA4's `compute_efficient_padded_shared_layout` against Triton 3.9 on every case of
//! `tests/fixtures/efficient_padded.json` (written by `scripts/triton_fixtures.py --only efficient_padded`):
//! the same `PaddedSharedLayout` (read from Gluon's `repr`), `None` where Gluon returns `None`, and a typed
//! error where Triton aborts.

use serde_json::Value;
use weft::layout::encoding::{compute_efficient_padded_shared_layout, Encoding};
use weft::layout::text::gluon;

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/efficient_padded.json"
    );
    let text = std::fs::read_to_string(path)
        .expect("fixtures: run scripts/triton_fixtures.py --only efficient_padded");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["cases"].as_array().expect("cases").clone()
}

fn bits(dtype: &str) -> u32 {
    match dtype {
        "float16" | "bfloat16" => 16,
        "float8e4nv" | "uint8" | "int8" => 8,
        "float32" => 32,
        other => panic!("unknown dtype {other}"),
    }
}

/// Gluon's repr with its `interval_padding_pairs` tuples (`[(512, 16)]`, as the C++ binding hands them
/// back) written as the lists Gluon's constructor takes.
fn padded_from_repr(text: &str) -> Encoding {
    let text = text
        .replace("=[(", "=[[")
        .replace(")], offset", "]], offset");
    let text = text.replace("), (", "], [");
    gluon::parse_encoding(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn every_case_matches_triton() {
    let cases = cases();
    assert!(cases.len() >= 1000);
    let (mut laid_out, mut none, mut rejected) = (0, 0, 0);
    let mut failures = Vec::new();
    for c in &cases {
        let dot = match gluon::parse_encoding(c["dot_gluon"].as_str().unwrap()).unwrap() {
            Encoding::DotOperand(d) => d,
            other => panic!("not a dot operand: {other:?}"),
        };
        let shape: Vec<u64> = c["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        let got = compute_efficient_padded_shared_layout(
            &dot,
            &shape,
            bits(c["dtype"].as_str().unwrap()),
            c["is_k_contig"].as_bool().unwrap(),
        );
        let id = &c["id"];
        match (c.get("error"), c.get("gluon"), got) {
            (Some(_), _, Err(_)) => rejected += 1,
            (None, Some(Value::Null), Ok(None)) => none += 1,
            (None, Some(Value::String(want)), Ok(Some(l))) => {
                if padded_from_repr(want) == Encoding::PaddedShared(l.clone()) {
                    laid_out += 1;
                } else {
                    failures.push(format!(
                        "case {id}: weft {}\n   triton {want}",
                        gluon::print_encoding(&Encoding::PaddedShared(l))
                    ));
                }
            }
            (err, want, got) => {
                failures.push(format!("case {id}: triton {err:?} {want:?}, weft {got:?}"))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ ({laid_out} laid out, {none} None, {rejected} rejected by both):\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(8)].join("\n")
    );
    assert!(
        laid_out > 300 && none > 300 && rejected > 50,
        "{laid_out} / {none} / {rejected}"
    );
}

#[test]
fn extreme_arguments_are_answers_or_typed_errors() {
    let dot = match gluon::parse_encoding(
        "DotOperandLayout(operand_index=0, parent=AMDMFMALayout(version=4, instr_shape=[16, 16, 32], \
         transposed=True, warps_per_cta=[2, 2]), k_width=8)",
    )
    .unwrap()
    {
        Encoding::DotOperand(d) => d,
        _ => unreachable!(),
    };
    let extents = [0u64, 1, 2, 3, 8, 1 << 20, 1 << 40, 1 << 63, u64::MAX];
    for &m in &extents {
        for &k in &extents {
            for bits in [0, 1, 4, 8, 16, 32, u32::MAX] {
                for contig in [true, false] {
                    let _ = compute_efficient_padded_shared_layout(&dot, &[m, k], bits, contig);
                }
            }
        }
    }
    assert!(
        compute_efficient_padded_shared_layout(&dot, &[64], 16, true)
            .unwrap()
            .is_none()
    );
    let mfma3 = gluon::parse_encoding(
        "DotOperandLayout(operand_index=0, parent=AMDMFMALayout(version=3, instr_shape=[16, 16, 16], \
         transposed=True, warps_per_cta=[2, 2]), k_width=8)",
    )
    .unwrap();
    let Encoding::DotOperand(d3) = mfma3 else {
        unreachable!()
    };
    assert!(compute_efficient_padded_shared_layout(&d3, &[64, 64], 16, true).is_err());
}
