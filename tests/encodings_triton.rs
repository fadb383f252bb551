//! Differential tests against Triton 3.9 itself: every case of `tests/fixtures/encodings.json` (written by
//! `scripts/triton_fixtures.py`). Where Triton computed a linear layout, weft's must equal it bit for bit;
//! where Triton rejected the parameters, weft must reject them too. TTGIR and Gluon text round trips.

use serde_json::Value;
use weft::layout::encoding::*;
use weft::layout::{Bases, Dim, LinearLayout};

fn load() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/encodings.json");
    let text = std::fs::read_to_string(path).expect("fixtures: run scripts/triton_fixtures.py");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["cases"].as_array().expect("cases").clone()
}

fn u32s(v: &Value) -> Vec<u32> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_u64().unwrap_or(u64::MAX) as u32)
                .collect()
        })
        .unwrap_or_default()
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

fn cga(p: &Value) -> CgaLayout {
    CgaLayout::new(bases(&p["cga_layout"]))
}

/// Builds an encoding from Gluon constructor keyword arguments (Gluon's defaults where absent).
fn encoding(kind: &str, p: &Value) -> Encoding {
    match kind {
        "BlockedLayout" => Encoding::Blocked(Blocked {
            size_per_thread: u32s(&p["size_per_thread"]),
            threads_per_warp: u32s(&p["threads_per_warp"]),
            warps_per_cta: u32s(&p["warps_per_cta"]),
            order: u32s(&p["order"]),
            cga_layout: cga(p),
        }),
        "SliceLayout" => Encoding::Slice(Slice::new(
            p["dim"].as_u64().unwrap() as u32,
            encoding(
                p["parent"]["kind"].as_str().unwrap(),
                &p["parent"]["params"],
            ),
        )),
        "DotOperandLayout" => Encoding::DotOperand(DotOperand::new(
            p["operand_index"].as_u64().unwrap() as u32,
            encoding(
                p["parent"]["kind"].as_str().unwrap(),
                &p["parent"]["params"],
            ),
            p["k_width"].as_u64().unwrap() as u32,
        )),
        "NVMMADistributedLayout" => {
            let v = u32s(&p["version"]);
            Encoding::NvidiaMma(NvidiaMma {
                version: [v[0], v.get(1).copied().unwrap_or(0)],
                warps_per_cta: u32s(&p["warps_per_cta"]),
                instr_shape: u32s(&p["instr_shape"]),
                cga_layout: cga(p),
            })
        }
        "AMDMFMALayout" => {
            let warps = u32s(&p["warps_per_cta"]);
            Encoding::AmdMfma(AmdMfma {
                version: p["version"].as_u64().unwrap() as u32,
                instr_shape: u32s(&p["instr_shape"]),
                transposed: p["transposed"].as_bool().unwrap(),
                element_bitwidth: p["element_bitwidth"].as_u64().unwrap_or(32) as u32,
                tiles_per_warp: if p["tiles_per_warp"].is_null() {
                    vec![1; warps.len()]
                } else {
                    u32s(&p["tiles_per_warp"])
                },
                warps_per_cta: warps,
                cga_layout: cga(p),
            })
        }
        "AMDWMMALayout" => Encoding::AmdWmma(AmdWmma {
            version: p["version"].as_u64().unwrap() as u32,
            transposed: p["transposed"].as_bool().unwrap(),
            warp_bases: bases(&p["warp_bases"]),
            reg_bases: bases(&p["reg_bases"]),
            instr_shape: if p["instr_shape"].is_null() {
                vec![16, 16, 16]
            } else {
                u32s(&p["instr_shape"])
            },
            cga_layout: cga(p),
            rank: p["rank"].as_u64().unwrap_or(2) as usize,
        }),
        "DistributedLinearLayout" => Encoding::Linear(DistributedLinear {
            reg_bases: bases(&p["reg_bases"]),
            lane_bases: bases(&p["lane_bases"]),
            warp_bases: bases(&p["warp_bases"]),
            block_bases: bases(&p["block_bases"]),
            shape: u64s(&p["shape"]),
        }),
        "SwizzledSharedLayout" => Encoding::SwizzledShared(SwizzledShared {
            vec: p["vec"].as_u64().unwrap() as u32,
            per_phase: p["per_phase"].as_u64().unwrap() as u32,
            max_phase: p["max_phase"].as_u64().unwrap() as u32,
            order: u32s(&p["order"]),
            cga_layout: cga(p),
        }),
        "NVMMASharedLayout" => Encoding::NvmmaShared(NvmmaShared {
            swizzle_byte_width: p["swizzle_byte_width"].as_u64().unwrap() as u32,
            element_bitwidth: p["element_bitwidth"].as_u64().unwrap() as u32,
            rank: p["rank"].as_u64().unwrap_or(2) as usize,
            transposed: p["transposed"].as_bool().unwrap_or(false),
            fp4_padded: p["fp4_padded"].as_bool().unwrap_or(false),
            cga_layout: cga(p),
        }),
        "PaddedSharedLayout" => Encoding::PaddedShared(PaddedShared {
            interval_padding_pairs: p["interval_padding_pairs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| {
                    let v = u32s(x);
                    (
                        v.first().copied().unwrap_or(0),
                        v.get(1).copied().unwrap_or(0),
                    )
                })
                .collect(),
            offset_bases: bases(&p["offset_bases"]),
            cga_layout: cga(p),
            shape: u64s(&p["shape"]),
        }),
        "SharedLinearLayout" => Encoding::SharedLinear(SharedLinear {
            offset_bases: bases(&p["offset_bases"]),
            block_bases: bases(&p["block_bases"]),
            alignment: p["alignment"].as_u64().unwrap_or(16) as u32,
        }),
        other => panic!("unknown kind {other}"),
    }
}

fn triton_layout(v: &Value) -> LinearLayout {
    let ins: Vec<(Dim, Bases)> = v["in_dims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (Dim::new(d[0].as_str().unwrap()), bases(&d[1])))
        .collect();
    let outs: Vec<(Dim, u64)> = v["out_dims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (Dim::new(d[0].as_str().unwrap()), d[1].as_u64().unwrap()))
        .collect();
    LinearLayout::from_bases(ins, outs, false).expect("Triton's layout is valid")
}

#[test]
fn every_fixture_matches_triton() {
    let cases = load();
    assert!(cases.len() > 100, "too few fixture cases");
    let mut failures = Vec::new();
    let (mut matched, mut rejected) = (0, 0);
    for c in &cases {
        let id = &c["id"];
        let kind = c["kind"].as_str().unwrap();
        let enc = encoding(kind, &c["params"]);
        let shape = u64s(&c["shape"]);
        let got = enc.to_linear_layout(&shape);
        if c.get("layout").is_some() {
            let want = triton_layout(&c["layout"]);
            match got {
                Ok(l) if l == want => matched += 1,
                Ok(l) => failures.push(format!(
                    "case {id} {kind} {} shape {shape:?}: weft {l:?}\n   triton {want:?}",
                    c["params"]
                )),
                Err(e) => failures.push(format!(
                    "case {id} {kind} {} shape {shape:?}: weft rejects ({e}), Triton accepts",
                    c["params"]
                )),
            }
        } else if c.get("error").is_some() {
            match got {
                Err(_) => rejected += 1,
                Ok(l) => failures.push(format!(
                    "case {id} {kind} {} shape {shape:?}: Triton rejects ({}), weft gives {l:?}",
                    c["params"], c["error"]
                )),
            }
        } else if c.get("layout_unavailable").is_some() {
            match got {
                Err(_) => rejected += 1,
                Ok(_) => failures.push(format!("case {id}: Triton has no layout, weft gives one")),
            }
        }
    }
    eprintln!("{matched} layouts equal, {rejected} rejections agree");
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn ttgir_text_round_trips() {
    use weft::layout::text::ttgir;
    let mut failures = Vec::new();
    let mut n = 0;
    for c in load() {
        let Some(text) = c["ttgir"].as_str() else {
            continue;
        };
        n += 1;
        match ttgir::parse_encoding(text) {
            Ok(e) => {
                let back = ttgir::print_encoding(&e);
                if back != text {
                    failures.push(format!(
                        "case {}: printed\n  {back}\nexpected\n  {text}",
                        c["id"]
                    ));
                }
                if c.get("layout").is_some() {
                    let want = encoding(c["kind"].as_str().unwrap(), &c["params"]);
                    let shape = u64s(&c["shape"]);
                    if e.to_linear_layout(&shape).ok() != want.to_linear_layout(&shape).ok() {
                        failures.push(format!(
                            "case {}: parsed {e:?} differs from {want:?}",
                            c["id"]
                        ));
                    }
                }
            }
            Err(err) => failures.push(format!("case {}: {err} in {text}", c["id"])),
        }
        if let Some(ty) = c["type"].as_str() {
            match ttgir::parse_type(ty, &Default::default()) {
                Ok(t) => {
                    if ttgir::print_type(&t) != ty {
                        failures.push(format!(
                            "case {}: type printed {}",
                            c["id"],
                            ttgir::print_type(&t)
                        ));
                    }
                    if t.shape != u64s(&c["shape"]) {
                        failures.push(format!("case {}: type shape {:?}", c["id"], t.shape));
                    }
                }
                Err(err) => failures.push(format!("case {}: {err} in {ty}", c["id"])),
            }
        }
    }
    assert!(n > 100);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gluon_text_round_trips() {
    use weft::layout::text::gluon;
    let mut failures = Vec::new();
    let mut n = 0;
    for c in load() {
        let Some(text) = c["gluon"].as_str() else {
            continue;
        };
        n += 1;
        match gluon::parse_encoding(text) {
            Ok(e) => {
                let back = gluon::print_encoding(&e);
                if back != text {
                    failures.push(format!(
                        "case {}: printed\n  {back}\nexpected\n  {text}",
                        c["id"]
                    ));
                }
                let want = encoding(c["kind"].as_str().unwrap(), &c["params"]);
                if e != want {
                    failures.push(format!(
                        "case {}: parsed {e:?}\n differs from {want:?}",
                        c["id"]
                    ));
                }
            }
            Err(err) => failures.push(format!("case {}: {err} in {text}", c["id"])),
        }
    }
    assert!(n > 100);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The TTGIR dumps of real kernels: every alias parses, and every typed use gives Triton's layout.
#[test]
fn ttgir_dumps_match_triton() {
    use weft::layout::text::ttgir;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{dir}/ttgir_layouts.json")).unwrap(),
    )
    .unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, f) in v["files"].as_object().unwrap() {
        let text = std::fs::read_to_string(format!("{dir}/ttgir/{name}")).unwrap();
        let file = ttgir::parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let aliases: ttgir::Aliases = file.aliases.iter().cloned().collect();
        for (alias, def) in f["aliases"].as_object().unwrap() {
            let known = file.aliases.iter().any(|(n, _)| format!("#{n}") == *alias);
            let skipped = file.skipped.iter().any(|(n, _)| format!("#{n}") == *alias);
            // A memory space (`#smem = #ttg.shared_memory`) is not a layout and is not listed.
            let memory_space = def == "#ttg.shared_memory";
            assert!(
                known || skipped || memory_space,
                "{name}: alias {alias} lost"
            );
            if known {
                let e = &aliases[&alias[1..]];
                assert_eq!(
                    ttgir::print_encoding(e),
                    def.as_str().unwrap(),
                    "{name} {alias}"
                );
            }
        }
        for l in f["layouts"].as_array().unwrap() {
            let ty = l["type"].as_str().unwrap();
            let shape = u64s(&l["shape"]);
            let t = ttgir::parse_type(ty, &aliases).unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
            if l.get("layout").is_none() {
                // Triton rejects this (encoding, shape); weft must too.
                assert!(
                    t.encoding.to_linear_layout(&shape).is_err(),
                    "{name}: {ty} accepted"
                );
                continue;
            }
            let want = triton_layout(&l["layout"]);
            match t.encoding.to_linear_layout(&shape) {
                Ok(got) if got == want => checked += 1,
                other => failures.push(format!("{name}: {ty} {shape:?}: {other:?} != {want:?}")),
            }
            assert!(
                file.types
                    .iter()
                    .any(|u| u.shape == t.shape && u.encoding == t.encoding),
                "{name}: parse_file missed {ty}"
            );
        }
    }
    assert!(checked > 20, "only {checked} layouts checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bad input never panics: every prefix of every fixture's TTGIR and Gluon text, and the texts with
/// numbers replaced by extreme values, parse to an error or to an encoding whose layout is a result.
#[test]
fn mangled_text_never_panics() {
    use weft::layout::text::{gluon, ttgir};
    let shapes: [&[u64]; 4] = [&[64, 64], &[1], &[1 << 40, 1 << 40], &[2, 4, 8]];
    let mut texts = Vec::new();
    for c in load().iter().take(400) {
        for k in ["ttgir", "gluon"] {
            if let Some(t) = c[k].as_str() {
                texts.push(t.to_string());
            }
        }
    }
    let check = |t: &str| {
        for e in [ttgir::parse_encoding(t), gluon::parse_encoding(t)]
            .into_iter()
            .flatten()
        {
            for s in shapes {
                let _ = e.to_linear_layout(s);
            }
            let _ = ttgir::print_encoding(&e);
        }
    };
    for t in &texts {
        for cut in (0..t.len()).step_by(7) {
            if t.is_char_boundary(cut) {
                check(&t[..cut]);
            }
        }
        for big in [
            "0",
            "3",
            "63",
            "64",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "99999999999999999999",
        ] {
            let mut out = String::new();
            let mut in_num = false;
            for ch in t.chars() {
                if ch.is_ascii_digit() {
                    if !in_num {
                        out += big;
                    }
                    in_num = true;
                } else {
                    in_num = false;
                    out.push(ch);
                }
            }
            check(&out);
        }
    }
}
