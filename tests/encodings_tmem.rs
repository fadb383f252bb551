//! Differential tests against Triton 3.9 for Blackwell tensor memory: every case of
//! `tests/fixtures/tmem.json` (written by `scripts/triton_fixtures.py --only tmem`). Tensor-memory layouts
//! must give Triton's `row`/`col` bases bit for bit (Gluon's Python object carries no block bases; those are
//! checked in the unit tests), `get_reg_layout` must give Triton's register layout, and every case Triton
//! rejects weft must reject. TTGIR and Gluon text print exactly as Triton prints and parse back.

use serde_json::Value;
use weft::layout::encoding::{
    tmem_reg_layout, CgaLayout, Encoding, TensorMemory, TensorMemoryScales, TmemMessage,
};
use weft::layout::text::{gluon, ttgir};
use weft::layout::{Bases, Result};

fn load() -> Vec<Value> {
    load_file("tmem.json")
}

fn load_file(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .expect("fixtures: run scripts/triton_fixtures.py --only tmem,tmem_scales");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["cases"].as_array().expect("cases").clone()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_u64().unwrap_or(u64::MAX)).collect())
        .unwrap_or_default()
}

fn bases(v: &Value) -> Bases {
    v.as_array()
        .map(|a| a.iter().map(u64s).collect())
        .unwrap_or_default()
}

fn u32_of(v: &Value, default: u32) -> u32 {
    v.as_i64()
        .map_or(default, |x| u32::try_from(x).unwrap_or(u32::MAX))
}

/// The layout from Gluon constructor keyword arguments (Gluon's defaults where absent).
fn encoding(kind: &str, p: &Value) -> Encoding {
    let cga = CgaLayout::new(bases(&p["cga_layout"]));
    match kind {
        "TensorMemoryLayout" => {
            let block = u64s(&p["block"]);
            Encoding::TensorMemory(TensorMemory {
                block_m: block[0] as u32,
                block_n: block[1] as u32,
                col_stride: u32_of(&p["col_stride"], 1),
                cga_layout: cga,
                two_ctas: p["two_ctas"].as_bool().unwrap_or(false),
                fp4_padded: p["fp4_padded"].as_bool().unwrap_or(false),
            })
        }
        "TensorMemoryScalesLayout" => {
            Encoding::TensorMemoryScales(TensorMemoryScales { cga_layout: cga })
        }
        other => panic!("unknown kind {other}"),
    }
}

fn bits(dtype: &str) -> u32 {
    match dtype {
        "i8" => 8,
        "f16" | "bf16" | "i16" => 16,
        "f32" | "i32" => 32,
        other => panic!("unknown dtype {other}"),
    }
}

/// Triton's `in_dims` as name → bases.
fn in_dim(layout: &Value, name: &str) -> Bases {
    layout["in_dims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d[0] == name)
        .map(|d| bases(&d[1]))
        .unwrap_or_default()
}

/// weft's answer for a layout case: the `row` and `col` bases and the out sizes.
fn tmem_layout(enc: &Encoding, shape: &[u64], elem_bits: u32) -> Result<(Bases, Bases, Vec<u64>)> {
    match enc {
        Encoding::TensorMemory(t) => t.check_type(shape, elem_bits)?,
        Encoding::TensorMemoryScales(t) => t.check_type(shape, elem_bits)?,
        _ => unreachable!(),
    }
    let ll = enc.to_linear_layout(shape)?;
    Ok((
        ll.bases("row")?,
        ll.bases("col")?,
        ll.out_dims().map(|(_, s)| s).collect(),
    ))
}

#[test]
fn every_tmem_fixture_matches_triton() {
    check_cases(&load(), 400, 30);
}

/// Scale tiles of 32 rows per CTA and scales with CGA layouts viewed inside larger allocations
/// (`tmem_scales.json`): the register list Triton gives a one-column tile, copies included.
#[test]
fn every_tmem_scales_fixture_matches_triton() {
    check_cases(&load_file("tmem_scales.json"), 700, 500);
}

fn check_cases(cases: &[Value], min_matched: usize, min_rejected: usize) {
    assert!(cases.len() > 300, "too few fixture cases");
    let mut failures = Vec::new();
    let (mut matched, mut rejected) = (0, 0);
    for c in cases {
        let id = &c["id"];
        let kind = c["kind"].as_str().unwrap();
        let shape = u64s(&c["shape"]);
        let elem_bits = bits(c["dtype"].as_str().unwrap());
        let got: Result<(Bases, Bases, Vec<u64>)> = if kind == "tmem_reg_layout" {
            let tmem = encoding(c["tmem"]["kind"].as_str().unwrap(), &c["tmem"]["params"]);
            TmemMessage::parse(c["instr_variant"].as_str().unwrap())
                .and_then(|m| {
                    tmem_reg_layout(
                        elem_bits,
                        &shape,
                        &u64s(&c["alloc_shape"]),
                        &tmem,
                        u32_of(&c["num_warps"], 0),
                        m,
                    )
                })
                .map(|l| {
                    let mut all = [l.reg_bases, l.lane_bases, l.warp_bases, l.block_bases];
                    all.iter_mut().for_each(|b| b.push(vec![u64::MAX])); // separators
                    (all.concat(), Vec::new(), l.shape)
                })
        } else {
            tmem_layout(&encoding(kind, &c["params"]), &shape, elem_bits)
        };
        let want = c.get("layout").map(|l| {
            let outs = l["out_dims"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d[1].as_u64().unwrap())
                .collect();
            if kind == "tmem_reg_layout" {
                let mut all: Vec<Bases> = ["register", "lane", "warp", "block"]
                    .iter()
                    .map(|n| in_dim(l, n))
                    .collect();
                all.iter_mut().for_each(|b| b.push(vec![u64::MAX]));
                (all.concat(), Vec::new(), outs)
            } else {
                (in_dim(l, "row"), in_dim(l, "col"), outs)
            }
        });
        match (want, got) {
            (Some(w), Ok(g)) if w == g => matched += 1,
            (Some(w), Ok(g)) => failures.push(format!(
                "case {id} {kind}: weft {g:?}\n   triton {w:?}\n   {c}"
            )),
            (Some(_), Err(e)) => failures.push(format!(
                "case {id} {kind}: weft rejects ({e}), Triton accepts\n   {c}"
            )),
            (None, Err(_)) => rejected += 1,
            (None, Ok(g)) => failures.push(format!(
                "case {id} {kind}: Triton rejects ({}), weft gives {g:?}\n   {c}",
                c["error"]
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Triton 3.9 ({matched} matched, {rejected} rejected by both):\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(12)].join("\n")
    );
    assert!(
        matched > min_matched && rejected > min_rejected,
        "{matched} matched, {rejected} rejected"
    );
}

#[test]
fn tmem_text_prints_as_triton_and_parses_back() {
    let mut checked = 0;
    for c in load() {
        let kind = c["kind"].as_str().unwrap();
        let (Some(want_ttgir), Some(want_gluon)) = (c["ttgir"].as_str(), c["gluon"].as_str())
        else {
            continue;
        };
        if kind == "tmem_reg_layout" {
            continue;
        }
        let enc = encoding(kind, &c["params"]);
        assert_eq!(ttgir::print_encoding(&enc), want_ttgir, "case {}", c["id"]);
        assert_eq!(gluon::print_encoding(&enc), want_gluon, "case {}", c["id"]);
        assert_eq!(
            ttgir::parse_encoding(want_ttgir).unwrap(),
            enc,
            "case {}",
            c["id"]
        );
        assert_eq!(
            gluon::parse_encoding(want_gluon).unwrap(),
            enc,
            "case {}",
            c["id"]
        );
        // The whole `!ttg.memdesc<…, #ttng.tensor_memory, mutable>` type reads back too.
        let ty = ttgir::parse_type(c["type"].as_str().unwrap(), &Default::default()).unwrap();
        assert_eq!(
            (ty.encoding, ty.shape),
            (enc, u64s(&c["shape"])),
            "case {}",
            c["id"]
        );
        checked += 1;
    }
    assert!(checked > 150, "only {checked} cases with text");
}

#[test]
fn tmem_reg_layout_reprs_parse_as_distributed_linear_layouts() {
    // Gluon prints the register layout it hands back; weft's parser reads it as the same layout.
    for c in load()
        .iter()
        .filter(|c| c["kind"] == "tmem_reg_layout" && c.get("layout").is_some())
        .take(40)
    {
        let text = c["gluon"].as_str().unwrap();
        let Encoding::Linear(l) = gluon::parse_encoding(text).unwrap() else {
            panic!("case {}: not a DistributedLinearLayout: {text}", c["id"]);
        };
        assert_eq!(
            l.lane_bases,
            in_dim(&c["layout"], "lane"),
            "case {}",
            c["id"]
        );
    }
}
