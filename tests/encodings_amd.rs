//! Differential tests against Triton 3.9 for the AMD layouts of `tests/fixtures/amd.json` (written by
//! `scripts/triton_fixtures.py --only amd`): gfx1250's `PartitionedSharedLayout` (its `offset` and `block`
//! bases, which is what Gluon's `SharedLinearLayout` carries; the `partition` bits are checked by unit
//! tests), the CDNA4 scaled-MFMA and gfx1250 scaled-WMMA scale layouts, and the fp4 `scaled_upcast` scale
//! layout. Every case Triton rejects weft must reject; TTGIR and Gluon text print exactly as Triton prints
//! and parse back.

use std::sync::Arc;

use serde_json::Value;
use weft::layout::encoding::{
    amd_mfma_scale_layout, amd_wmma_scale_layout, scaled_upcast_fp4_scale_layout, CgaLayout,
    Encoding, NvmmaShared, PaddedShared, PartitionedShared, SharedLinear, SwizzledShared,
    WmmaScaleParams,
};
use weft::layout::text::{gluon, ttgir};
use weft::layout::{Bases, Result};

fn load() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/amd.json");
    let text =
        std::fs::read_to_string(path).expect("fixtures: run scripts/triton_fixtures.py --only amd");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["cases"].as_array().expect("cases").clone()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_i64().map_or(u64::MAX, |x| x as u64))
                .collect()
        })
        .unwrap_or_default()
}

fn u32s(v: &Value) -> Vec<u32> {
    u64s(v).into_iter().map(|x| x as u32).collect()
}

fn bases(v: &Value) -> Bases {
    v.as_array()
        .map(|a| a.iter().map(u64s).collect())
        .unwrap_or_default()
}

fn num(v: &Value) -> u32 {
    v.as_i64()
        .map_or(u32::MAX, |x| u32::try_from(x).unwrap_or(u32::MAX))
}

/// A shared layout from Gluon constructor keyword arguments (Gluon's defaults where absent).
fn encoding(spec: &Value) -> Encoding {
    let p = &spec["params"];
    let cga = CgaLayout::new(bases(&p["cga_layout"]));
    match spec["kind"].as_str().unwrap() {
        "PartitionedSharedLayout" => Encoding::PartitionedShared(PartitionedShared {
            num_partitions: num(&p["num_partitions"]),
            num_groups: num(&p["num_groups"]),
            partition_dim: num(&p["partition_dim"]),
            partition_layout: Arc::new(encoding(&p["partition_layout"])),
        }),
        "SwizzledSharedLayout" => Encoding::SwizzledShared(SwizzledShared {
            vec: num(&p["vec"]),
            per_phase: num(&p["per_phase"]),
            max_phase: num(&p["max_phase"]),
            order: u32s(&p["order"]),
            cga_layout: cga,
        }),
        "NVMMASharedLayout" => Encoding::NvmmaShared(NvmmaShared {
            swizzle_byte_width: num(&p["swizzle_byte_width"]),
            element_bitwidth: num(&p["element_bitwidth"]),
            rank: p["rank"].as_u64().unwrap_or(2) as usize,
            transposed: p["transposed"].as_bool().unwrap_or(false),
            fp4_padded: p["fp4_padded"].as_bool().unwrap_or(false),
            cga_layout: cga,
        }),
        "SharedLinearLayout" => Encoding::SharedLinear(SharedLinear {
            offset_bases: bases(&p["offset_bases"]),
            block_bases: bases(&p["block_bases"]),
            alignment: p["alignment"].as_u64().unwrap_or(16) as u32,
        }),
        "PaddedSharedLayout" => Encoding::PaddedShared(PaddedShared {
            interval_padding_pairs: p["interval_padding_pairs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| (num(&x[0]), num(&x[1])))
                .collect(),
            offset_bases: bases(&p["offset_bases"]),
            cga_layout: cga,
            shape: u64s(&p["shape"]),
        }),
        other => panic!("unknown kind {other}"),
    }
}

/// Triton's bases of the in dims `names`, then its out sizes.
fn triton(layout: &Value, names: &[&str]) -> (Vec<Bases>, Vec<u64>) {
    let dims = layout["in_dims"].as_array().unwrap();
    let b = names
        .iter()
        .map(|n| {
            dims.iter()
                .find(|d| d[0] == *n)
                .map(|d| bases(&d[1]))
                .unwrap_or_default()
        })
        .collect();
    let outs = layout["out_dims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[1].as_u64().unwrap())
        .collect();
    (b, outs)
}

fn weft_answer(c: &Value) -> Result<(Vec<Bases>, Vec<u64>)> {
    if c["kind"] == "mfma_scale_layout" {
        let a = &c["args"];
        let l = amd_mfma_scale_layout(
            num(&a["op_idx"]),
            &u64s(&a["shape"]),
            num(&a["m_dim"]),
            &u32s(&a["tiles_per_warp"]),
            &u32s(&a["warps_per_cta"]),
        )?;
        return Ok((
            vec![l.reg_bases, l.lane_bases, l.warp_bases, l.block_bases],
            l.shape,
        ));
    }
    if c["kind"] == "upcast_fp4_scale_layout" {
        // The source layout as Gluon printed it, read back by weft's parser.
        let src = gluon::parse_encoding(c["src_gluon"].as_str().unwrap()).unwrap();
        let l = scaled_upcast_fp4_scale_layout(
            &src,
            &u64s(&c["shape"]),
            c["scale_extent"].as_u64().unwrap(),
            c["axis"].as_u64().unwrap() as usize,
        )?;
        return Ok((
            vec![l.reg_bases, l.lane_bases, l.warp_bases, l.block_bases],
            l.shape,
        ));
    }
    if c["kind"] == "wmma_scale_layout" {
        let a = &c["args"];
        let p = WmmaScaleParams {
            op_idx: num(&a["op_idx"]),
            m_dim: num(&a["m_dim"]),
            n_dim: num(&a["n_dim"]),
            transposed: a["transposed"].as_bool().unwrap(),
            scale_factor: num(&a["scale_factor"]),
            reg_bases: bases(&a["reg_bases"]),
            warp_bases: bases(&a["warp_bases"]),
            cga_layout: CgaLayout::new(bases(&a["cga_bases"])),
        };
        let l = amd_wmma_scale_layout(&p, &u64s(&a["shape"]))?;
        return Ok((
            vec![l.reg_bases, l.lane_bases, l.warp_bases, l.block_bases],
            l.shape,
        ));
    }
    let enc = encoding(&serde_json::json!({"kind": c["kind"], "params": c["params"]}));
    let ll = enc.to_linear_layout(&u64s(&c["shape"]))?;
    Ok((
        vec![ll.bases("offset")?, ll.bases("block")?],
        ll.out_dims().map(|(_, s)| s).collect(),
    ))
}

#[test]
fn every_amd_fixture_matches_triton() {
    let cases = load();
    assert!(cases.len() > 300, "too few fixture cases");
    let mut failures = Vec::new();
    let (mut matched, mut rejected) = (0, 0);
    for c in &cases {
        let names: &[&str] = if c["kind"] != "PartitionedSharedLayout" {
            &["register", "lane", "warp", "block"]
        } else {
            &["offset", "block"]
        };
        let want = c.get("layout").map(|l| triton(l, names));
        match (want, weft_answer(c)) {
            (Some(w), Ok(g)) if w == g => matched += 1,
            (Some(w), Ok(g)) => failures.push(format!(
                "case {}: weft {g:?}\n   triton {w:?}\n   {c}",
                c["id"]
            )),
            (Some(_), Err(e)) => failures.push(format!(
                "case {}: weft rejects ({e}), Triton accepts\n   {c}",
                c["id"]
            )),
            (None, Err(_)) => rejected += 1,
            (None, Ok(g)) => failures.push(format!(
                "case {}: Triton rejects ({}), weft gives {g:?}\n   {c}",
                c["id"], c["error"]
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Triton 3.9 ({matched} matched, {rejected} rejected by both):\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert!(
        matched > 1100 && rejected > 80,
        "{matched} matched, {rejected} rejected"
    );
}

#[test]
fn partitioned_text_prints_as_triton_and_parses_back() {
    let mut checked = 0;
    for c in load()
        .iter()
        .filter(|c| c["kind"] == "PartitionedSharedLayout")
    {
        let (Some(want_ttgir), Some(want_gluon)) = (c["ttgir"].as_str(), c["gluon"].as_str())
        else {
            continue;
        };
        let enc = encoding(&serde_json::json!({"kind": c["kind"], "params": c["params"]}));
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
        checked += 1;
    }
    assert!(checked > 100, "only {checked} cases with text");
}
