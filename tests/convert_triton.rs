//! Differential tests against Triton 3.9 (fixtures recorded on the CPU by `scripts/triton_fixtures.py`):
//! conversion decisions, scratch bytes, shuffle counts, and Gluon's `bank_conflicts`.

use weft::layout::convert::simulate::simulate_shared_access;
use weft::layout::convert::{
    bank_conflicts, bank_conflicts_detail, plan_conversion, plan_shared, ConversionKind,
    Instruction, Target,
};
use weft::layout::LinearLayout;

/// A minimal JSON value, enough for the fixture files.
#[derive(Debug, Clone)]
enum J {
    Null,
    Bool,
    Num(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn get(&self, k: &str) -> Option<&J> {
        match self {
            J::Obj(v) => v.iter().find(|(n, _)| n == k).map(|(_, x)| x),
            _ => None,
        }
    }
    fn arr(&self) -> &[J] {
        match self {
            J::Arr(v) => v,
            _ => &[],
        }
    }
    fn num(&self) -> u64 {
        match self {
            J::Num(n) => *n as u64,
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            J::Str(s) => s,
            _ => "",
        }
    }
}

fn parse(s: &[u8], i: &mut usize) -> J {
    while s[*i].is_ascii_whitespace() {
        *i += 1;
    }
    match s[*i] {
        b'{' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                while s[*i].is_ascii_whitespace() || s[*i] == b',' {
                    *i += 1;
                }
                if s[*i] == b'}' {
                    *i += 1;
                    return J::Obj(v);
                }
                let J::Str(k) = parse(s, i) else {
                    panic!("key")
                };
                while s[*i].is_ascii_whitespace() || s[*i] == b':' {
                    *i += 1;
                }
                v.push((k, parse(s, i)));
            }
        }
        b'[' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                while s[*i].is_ascii_whitespace() || s[*i] == b',' {
                    *i += 1;
                }
                if s[*i] == b']' {
                    *i += 1;
                    return J::Arr(v);
                }
                v.push(parse(s, i));
            }
        }
        b'"' => {
            *i += 1;
            let mut out = Vec::new();
            while s[*i] != b'"' {
                if s[*i] == b'\\' {
                    *i += 1;
                }
                out.push(s[*i]);
                *i += 1;
            }
            *i += 1;
            J::Str(String::from_utf8_lossy(&out).into_owned())
        }
        b't' => {
            *i += 4;
            J::Bool
        }
        b'f' => {
            *i += 5;
            J::Bool
        }
        b'n' => {
            *i += 4;
            J::Null
        }
        _ => {
            let st = *i;
            while *i < s.len()
                && (s[*i] == b'-' || s[*i] == b'.' || s[*i] == b'e' || s[*i].is_ascii_digit())
            {
                *i += 1;
            }
            J::Num(std::str::from_utf8(&s[st..*i]).unwrap().parse().unwrap())
        }
    }
}

fn load(name: &str) -> Vec<J> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(&path).unwrap();
    let mut i = 0;
    let root = parse(&text, &mut i);
    root.get("cases").unwrap().arr().to_vec()
}

/// A layout from the design.md JSON form; out sizes as given (shared layouts: the tensor shape).
fn layout(v: &J) -> LinearLayout {
    let ins: Vec<(String, Vec<Vec<u64>>)> = v
        .get("in_dims")
        .unwrap()
        .arr()
        .iter()
        .map(|d| {
            let a = d.arr();
            (
                a[0].str().to_string(),
                a[1].arr()
                    .iter()
                    .map(|b| b.arr().iter().map(J::num).collect())
                    .collect(),
            )
        })
        .collect();
    let outs: Vec<(String, u64)> = v
        .get("out_dims")
        .unwrap()
        .arr()
        .iter()
        .map(|d| (d.arr()[0].str().to_string(), d.arr()[1].num()))
        .collect();
    LinearLayout::from_bases(ins, outs, false).unwrap()
}

fn bits(dtype: &str) -> u32 {
    match dtype {
        "i8" => 8,
        "f16" | "bf16" => 16,
        "f32" => 32,
        _ => panic!("dtype {dtype}"),
    }
}

#[test]
fn conversions_agree_with_triton() {
    let cases = load("conversions.json");
    let mut checked = 0;
    let (mut instr_total, mut instr_same) = (0, 0);
    let mut report = Vec::new();
    for c in &cases {
        if c.get("error").is_some() || c.get("src_layout").is_none() {
            continue;
        }
        let id = c.get("id").unwrap().num();
        let src = layout(c.get("src_layout").unwrap());
        let dst = layout(c.get("dst_layout").unwrap());
        let b = bits(c.get("dtype").unwrap().str());
        let decision = c.get("decision").unwrap().str();
        let plan = plan_conversion(&src, &dst, b, Target::SM90)
            .unwrap_or_else(|e| panic!("case {id}: {e}"));
        let triton = plan.triton_kind.as_str();
        checked += 1;
        // No-op and register-only decisions are facts of the algebra: they must be equal.
        if decision == "noop"
            || decision == "register_permute"
            || triton == "noop"
            || triton == "register_permute"
        {
            assert_eq!(triton, decision, "case {id}: decision");
            assert_eq!(plan.kind.as_str(), decision, "case {id}: weft's kind");
        }
        if triton != decision {
            report.push(format!(
                "case {id}: predicted Triton {triton}, Triton did {decision}"
            ));
        }
        if plan.kind.as_str() != decision {
            eprintln!(
                "case {id}: weft {} ({} instr, {} cycles) where Triton {decision}; alternatives {:?}",
                plan.kind, plan.cost.instructions, plan.cost.cycles, plan.alternatives
            );
        }
        let llir = c.get("llir_counts").unwrap();
        let count = |k: &str| llir.get(k).map(J::num).unwrap_or(0);
        match decision {
            "shared_memory" => {
                // Scratch never above Triton's for the same conversion.
                let tb = c.get("scratch_bytes").unwrap().num();
                let p = plan_shared(&src, &dst, b, Target::SM90)
                    .unwrap_or_else(|e| panic!("case {id}: {e}"));
                assert!(
                    p.scratch_bytes <= tb,
                    "case {id}: scratch {} > Triton's {tb}",
                    p.scratch_bytes
                );
                if p.scratch_bytes != tb {
                    report.push(format!(
                        "case {id}: scratch {} vs Triton {tb}",
                        p.scratch_bytes
                    ));
                }
                plan.verify().unwrap_or_else(|e| panic!("case {id}: {e}"));
                // The instruction families Triton emitted (PTX), against the ones the plan picked.
                let ptx = c.get("ptx_counts").unwrap();
                let keys: Vec<&str> = match ptx {
                    J::Obj(v) => v.iter().map(|(k, _)| k.as_str()).collect(),
                    _ => vec![],
                };
                let family = |store: bool| -> &'static str {
                    let (m, plain) = if store {
                        ("stmatrix", "st.shared")
                    } else {
                        ("ldmatrix", "ld.shared")
                    };
                    for k in &keys {
                        if k.starts_with(m) {
                            return if k.contains("trans") {
                                "matrix.trans"
                            } else {
                                "matrix"
                            };
                        }
                        if k.starts_with(plain) && !k.contains("cluster") {
                            return "plain";
                        }
                    }
                    "none"
                };
                let ours = |i: Instruction| match i {
                    Instruction::LdSt => "plain",
                    Instruction::StMatrix | Instruction::LdMatrix => "matrix",
                    _ => "matrix.trans",
                };
                instr_total += 1;
                if (family(true), family(false))
                    == (ours(p.store_instruction), ours(p.load_instruction))
                {
                    instr_same += 1;
                } else {
                    report.push(format!(
                        "case {id}: instructions {:?}/{:?}, Triton {}/{}",
                        p.store_instruction,
                        p.load_instruction,
                        family(true),
                        family(false)
                    ));
                }
            }
            "warp_shuffle" => {
                // Where Triton shuffles, weft needs no more shuffles.
                let s = plan
                    .shuffle
                    .as_ref()
                    .unwrap_or_else(|| panic!("case {id}: no shuffle plan"));
                assert_eq!(plan.kind, ConversionKind::WarpShuffle, "case {id}");
                let ts = count("shfl_sync");
                assert!(
                    s.shuffles as u64 <= ts,
                    "case {id}: {} shuffles > Triton's {ts}",
                    s.shuffles
                );
                eprintln!(
                    "case {id}: shuffles weft {} (+{} selects) Triton {ts}",
                    s.shuffles, s.selects
                );
                plan.verify().unwrap_or_else(|e| panic!("case {id}: {e}"));
            }
            _ => plan.verify().unwrap_or_else(|e| panic!("case {id}: {e}")),
        }
    }
    eprintln!(
        "{checked} conversions checked; differences:\n{}",
        report.join("\n")
    );
    eprintln!("shared-memory instruction families equal to Triton's in {instr_same} of {instr_total} cases");
    assert!(checked > 250);
    assert_eq!(instr_same, instr_total, "{report:#?}");
    assert!(
        report.iter().filter(|r| r.contains("predicted")).count() == 0,
        "{report:#?}"
    );
}

#[test]
fn bank_conflicts_agree_with_gluon() {
    let cases = load("bank_conflicts.json");
    let mut checked = 0;
    let mut diffs = Vec::new();
    for c in &cases {
        let (Some(want), Some(r), Some(s)) = (
            c.get("bank_conflicts"),
            c.get("reg_layout"),
            c.get("shared_layout"),
        ) else {
            continue;
        };
        let id = c.get("id").unwrap().num();
        let reg = layout(r);
        let shared = layout(s)
            .reshape_ins(&[("offset", 1u64 << layout(s).total_in_bits())])
            .unwrap();
        let b = bits(c.get("dtype").unwrap().str());
        let got = bank_conflicts(&reg, &shared, b).unwrap_or_else(|e| panic!("case {id}: {e}"));
        // Our count is checked against the brute-force simulator on every case.
        let d = bank_conflicts_detail(&reg, &shared, b).unwrap();
        let sim = simulate_shared_access(&reg, &shared, b, d.vector).unwrap();
        assert_eq!(
            sim.conflicts_per_phase(),
            Some(d.conflicts),
            "case {id}: exact formula vs simulator"
        );
        checked += 1;
        if got != want.num() {
            diffs.push(format!("case {id}: weft {got}, gluon {}", want.num()));
        }
        // Gluon never overcounts; where it differs it misses lanes that share a bank word's row.
        assert!(got <= d.conflicts, "case {id}");
        if got != d.conflicts {
            eprintln!("case {id}: gluon-compatible {got}, exact {}", d.conflicts);
        }
    }
    eprintln!(
        "{checked} bank-conflict cases; differences:\n{}",
        diffs.join("\n")
    );
    assert!(checked > 150);
    assert!(diffs.is_empty(), "{diffs:#?}");
}

#[test]
fn conversion_kinds_are_ordered_by_cost() {
    assert!(ConversionKind::Noop < ConversionKind::SharedMemory);
}
