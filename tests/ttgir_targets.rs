//! Real TTGIR dumps that Triton 3.9 wrote (`scripts/triton_dumps.py`, on the CPU) of real kernels — matmul,
//! softmax, flash-attention forward, layer norm, reductions, `tl.cumsum` scans and a matmul on a 2-CTA cluster
//! for `cuda:80`, `cuda:90` and `hip:gfx942`; a persistent TMA matmul, fp8 and block-scaled dots, a grouped
//! GEMM, attention backward, layer-norm backward, sort/topk, gather, histogram, 3-D reductions and split/join
//! chains for `cuda:90`, `cuda:100`, `hip:gfx942` and `hip:gfx950`: weft lists every layout alias of every
//! dump (tensor-memory layouts recognised as such), every typed layout in them equals Triton's
//! (`tests/fixtures/ttgir_targets.json`), and the ones Gluon cannot hand back (`#ttg.amd_rotating_shared`,
//! padded shared layouts, one-element mbarrier buffers) are still laid out as a file listing does. Triton
//! 3.5's and 3.6's dumps of the first set parse too, and equal Triton 3.9's layouts wherever both versions
//! chose the same layout.

use serde_json::Value;
use weft::layout::text::ttgir;

fn fixtures() -> Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let text = std::fs::read_to_string(format!("{dir}/ttgir_targets.json")).expect("fixture file");
    serde_json::from_str(&text).expect("fixture JSON")
}

/// In dims with bases, and the out-dim sizes (Triton lists every in dim; size-1 ones carry no meaning).
fn normalized(v: &Value) -> (Vec<(String, Value)>, Vec<u64>) {
    let ins = v["in_dims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| !d[1].as_array().unwrap().is_empty())
        .map(|d| (d[0].as_str().unwrap().to_string(), d[1].clone()))
        .collect();
    let outs = v["out_dims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[1].as_u64().unwrap())
        .collect();
    (ins, outs)
}

/// The `#name = attribute` lines of a dump's aliases, to parse one of its types on its own.
fn alias_lines(f: &Value) -> String {
    f["aliases"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(a, d)| format!("{a} = {}\n", d.as_str().unwrap()))
        .collect()
}

#[test]
fn every_dump_lists_every_alias_with_triton_layouts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ttgir_targets");
    let doc = fixtures();
    let files = doc["files"].as_object().unwrap();
    let mut targets = std::collections::BTreeSet::new();
    let mut kernels = std::collections::BTreeSet::new();
    let (mut checked, mut multi_cta, mut tensor_memory, mut without_gluon) = (0, 0, 0, 0);
    for (name, f) in files {
        targets.insert(f["target"].as_str().unwrap().to_string());
        kernels.insert(f["kernel"].as_str().unwrap().to_string());
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let file = ttgir::parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every alias is a layout weft knows (tensor-memory layouts included), except the memory spaces.
        let listed: Vec<String> = file.aliases.iter().map(|(n, _)| format!("#{n}")).collect();
        assert!(
            file.tensor_memory.is_empty(),
            "{name}: {:?}",
            file.tensor_memory
        );
        for (alias, def) in f["aliases"].as_object().unwrap() {
            let def = def.as_str().unwrap();
            if def == "#ttg.shared_memory" || def == "#ttng.tensor_memory" {
                continue;
            }
            assert!(listed.contains(alias), "{name}: {alias} = {def} not listed");
        }
        // Memory spaces are passed over silently: nothing is skipped or rejected.
        assert!(
            file.skipped.is_empty() && file.rejected.is_empty(),
            "{name}: {:?} {:?}",
            file.skipped,
            file.rejected
        );
        let alias_lines = alias_lines(f);
        for l in f["layouts"].as_array().unwrap() {
            let ty = l["type"].as_str().unwrap();
            let shape: Vec<u64> = l["shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            let probe = ttgir::parse_file(&format!("{alias_lines}%0 = op : {ty}\n"))
                .unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
            let t = probe
                .types
                .first()
                .unwrap_or_else(|| panic!("{name}: {ty} lost"));
            let enc = &t.encoding;
            if enc.is_tensor_memory() {
                tensor_memory += 1;
            }
            let Some(want) = l.get("layout") else {
                // Gluon has no layout for it (a one-element mbarrier buffer, a padded or rotating shared
                // layout): weft still lays it out as a file listing does.
                ttgir::listed_layout(enc, &shape).unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
                without_gluon += 1;
                continue;
            };
            let got = enc
                .to_linear_layout(&shape)
                .unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
            {
                let got: Value = serde_json::from_str(&got.to_json()).unwrap();
                assert_eq!(normalized(&got), normalized(want), "{name}: {ty}");
                checked += 1;
                if got.bases("block") > 0 {
                    multi_cta += 1;
                }
            }
        }
    }
    assert_eq!(
        targets.into_iter().collect::<Vec<_>>(),
        ["cuda:100", "cuda:80", "cuda:90", "hip:gfx942", "hip:gfx950"]
    );
    let mut all: Vec<&str> = FIRST_SET.iter().chain(MORE).copied().collect();
    all.sort_unstable();
    assert_eq!(kernels.into_iter().collect::<Vec<_>>(), all);
    // Every kernel of the first set on cuda:80, cuda:90 and gfx942 (the 2-CTA matmul on cuda:90 only), every
    // one of the second on cuda:90, cuda:100, gfx942 and gfx950, each dump with typed layouts.
    assert_eq!(files.len(), 19 + 4 * MORE.len());
    assert!(checked >= 1500, "{checked} layouts checked");
    assert!(multi_cta >= 10, "{multi_cta} multi-CTA layouts checked");
    // Blackwell's tensor memory, and what Gluon cannot hand back (mbarriers, padded and rotating shared).
    assert!(tensor_memory >= 7, "{tensor_memory} tensor-memory types");
    assert!(
        without_gluon >= 29,
        "{without_gluon} types without a Gluon layout"
    );
}

/// The kernels of `triton_fixture_kernels.py` (also dumped by Triton 3.5 and 3.6).
const FIRST_SET: &[&str] = &[
    "attention",
    "cumsum",
    "layernorm",
    "matmul_2cta",
    "matmul_sm90",
    "reduce",
    "softmax_sm90",
];

/// The kernels of `triton_more_kernels.py`.
const MORE: &[&str] = &[
    "attention_bwd",
    "block_scaled_matmul",
    "fp8_matmul",
    "gather",
    "grouped_matmul",
    "histogram",
    "layernorm_bwd",
    "reduce3d",
    "sort_topk",
    "split_join",
    "tma_persistent_matmul",
];

/// Number of bases of `dim` in a layout's JSON form.
trait InDimBases {
    fn bases(&self, dim: &str) -> usize;
}

impl InDimBases for Value {
    fn bases(&self, dim: &str) -> usize {
        self["in_dims"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d[0] == dim)
            .map_or(0, |d| d[1].as_array().unwrap().len())
    }
}

/// Triton 3.5's dumps of the same kernels (`scripts/triton_dumps.py --dumps-only` under Triton 3.5): weft
/// lists every alias and lays out every typed layout; every type Triton 3.9 can parse (all but the multi-CTA
/// `CTAsPerCGA` fields and the MFMA `instrShape = [M, N]` of 3.5) equals Triton 3.9's layout, and so does every
/// other one whose layout Triton 3.9's own dumps use (same attribute as weft prints it, same shape).
#[test]
fn triton_3_5_dumps_parse_and_match_triton_3_9() {
    let (by_triton, by_attribute) = older_dumps_parse_and_match_triton_3_9("triton3.5");
    assert!(by_triton >= 170, "{by_triton} types laid out by Triton 3.9");
    assert!(
        by_attribute >= 1000,
        "{by_attribute} types matched by attribute"
    );
}

/// Triton 3.6's dumps of the same kernels (3.6 prints the 3.9 syntax): every type but the gfx942
/// `#ttg.amd_rotating_shared` operands equals Triton 3.9's layout of it.
#[test]
fn triton_3_6_dumps_parse_and_match_triton_3_9() {
    let (by_triton, by_attribute) = older_dumps_parse_and_match_triton_3_9("triton3.6");
    assert!(by_triton >= 200, "{by_triton} types laid out by Triton 3.9");
    assert!(
        by_attribute >= 1000,
        "{by_attribute} types matched by attribute"
    );
}

/// Checks the dumps of `ttgir_targets/<version>/`; returns (types compared with Triton 3.9's layout of that
/// very type, type occurrences compared with a layout of the same attribute in Triton 3.9's dumps).
fn older_dumps_parse_and_match_triton_3_9(version: &str) -> (usize, usize) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ttgir_targets");
    let doc = fixtures();
    let mut known = std::collections::HashMap::new();
    for f in doc["files"].as_object().unwrap().values() {
        let alias_lines = alias_lines(f);
        for l in f["layouts"].as_array().unwrap() {
            let (Some(want), Some(ty)) = (l.get("layout"), l["type"].as_str()) else {
                continue;
            };
            let probe = ttgir::parse_file(&format!("{alias_lines}%0 = op : {ty}\n")).unwrap();
            let t = &probe.types[0];
            known.insert(
                (ttgir::print_encoding(&t.encoding), t.shape.clone()),
                want.clone(),
            );
        }
    }
    let (mut dumps, mut by_attribute, mut by_triton) = (std::collections::BTreeSet::new(), 0, 0);
    for entry in std::fs::read_dir(format!("{dir}/{version}")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        let file = ttgir::parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let fname = path.file_name().unwrap().to_string_lossy().to_string();
        for line in text
            .lines()
            .filter(|l| l.starts_with('#') && l.contains(" = "))
        {
            let (alias, def) = line.split_once(" = ").unwrap();
            let listed = file.aliases.iter().any(|(n, _)| format!("#{n}") == alias);
            assert!(listed || def == "#ttg.shared_memory", "{name}: {line}");
        }
        for t in &file.types {
            let ll = t
                .encoding
                .to_linear_layout(&t.shape)
                .unwrap_or_else(|e| panic!("{name}: {:?} {:?}: {e}", t.alias, t.shape));
            if let Some(want) = known.get(&(ttgir::print_encoding(&t.encoding), t.shape.clone())) {
                let got: Value = serde_json::from_str(&ll.to_json()).unwrap();
                assert_eq!(
                    normalized(&got),
                    normalized(want),
                    "{name}: {:?} {:?}",
                    t.alias,
                    t.shape
                );
                by_attribute += 1;
            }
        }
        // Triton 3.9's layout of each type of this very dump, where Triton 3.9 parses it.
        let f = &doc["older_versions"][format!("{version}/{fname}")];
        let alias_lines = alias_lines(f);
        for l in f["layouts"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no entry"))
        {
            let ty = l["type"].as_str().unwrap();
            let Some(want) = l.get("layout") else {
                continue;
            };
            let probe = ttgir::parse_file(&format!("{alias_lines}%0 = op : {ty}\n"))
                .unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
            let t = &probe.types[0];
            let got = t
                .encoding
                .to_linear_layout(&t.shape)
                .unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
            let got: Value = serde_json::from_str(&got.to_json()).unwrap();
            assert_eq!(normalized(&got), normalized(want), "{name}: {ty}");
            by_triton += 1;
        }
        dumps.insert(fname);
    }
    // The same kernels for the same targets as Triton 3.9's dumps of the first set.
    let names_3_9: std::collections::BTreeSet<String> = doc["files"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, f)| FIRST_SET.contains(&f["kernel"].as_str().unwrap()))
        .map(|(n, _)| n.clone())
        .collect();
    assert_eq!(dumps, names_3_9);
    (by_triton, by_attribute)
}
