//! design.md's JSON of a conversion plan (feature `serde`): the numbers a user compares plans by, in a fixed
//! order, rather than every field of [`ConversionPlan`].
//!
//! `{"kind", "triton_kind", "target", "element_bits", "scratch_bytes", "shuffles", "bank_conflicts": {"read",
//! "write"}`, then for a warp shuffle `"selects", "rounds", "shuffle_rounds", "elements_per_word"`, for a
//! shared-memory round trip `"repetitions", "store", "load", "swizzle"`, then `"mixed_transpositions"` when
//! Triton's factorisation has some, `"cost"` and `"alternatives"`}.

use serde::{Deserialize, Serialize};

use super::classify::ConversionKind;
use super::plan::{ConversionPlan, Target};
use super::swizzle::SharedPlan;
use super::tiles::Instruction;

/// The summary of a plan that design.md fixes, as [`ConversionPlan::to_json`] prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanSummary {
    /// What weft does.
    pub kind: ConversionKind,
    /// What Triton 3.9 does.
    pub triton_kind: ConversionKind,
    /// The target, by name (`"sm_90"`).
    pub target: Target,
    /// Bits per element.
    pub element_bits: u32,
    /// Scratch bytes of the chosen plan.
    pub scratch_bytes: u64,
    /// Shuffles per thread of the chosen plan.
    pub shuffles: u64,
    /// Bank conflicts of the chosen plan.
    pub bank_conflicts: ReadWrite,
    /// Warp-shuffle detail, for a warp-shuffle plan.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<ShuffleSummary>,
    /// Shared-memory detail, for a shared-memory plan.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<SharedSummary>,
    /// Mixed transpositions of Triton's factorisation of a warp-local permutation, when counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_transpositions: Option<usize>,
    /// Cost of the chosen plan.
    pub cost: CostSummary,
    /// Every plan considered, cheapest first.
    pub alternatives: Vec<Alternative>,
}

/// Bank conflicts when reading and writing shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadWrite {
    /// Extra wavefronts per phase when loading.
    pub read: u64,
    /// Extra wavefronts per phase when storing.
    pub write: u64,
}

/// A warp-shuffle plan's counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffleSummary {
    /// Select instructions per thread.
    pub selects: u32,
    /// Rounds.
    pub rounds: u32,
    /// Rounds that read another lane.
    pub shuffle_rounds: u32,
    /// Elements per 32-bit word.
    pub elements_per_word: u32,
}

/// A shared-memory plan's accesses and swizzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedSummary {
    /// (store, barrier, load, barrier) iterations.
    pub repetitions: u64,
    /// The stores.
    pub store: Access,
    /// The loads.
    pub load: Access,
    /// The scratch layout's bases by part.
    pub swizzle: Swizzle,
}

/// One side of a shared-memory round trip.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// The instruction's name on the target (`st.shared.v4.b32`, `ldmatrix.x4`, …).
    pub instruction: String,
    /// Elements per access of one lane.
    pub vector: u64,
    /// Accesses per thread.
    pub count: u64,
}

/// Bases (flattened tensor indices) of each part of the scratch layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Swizzle {
    /// Vector bases.
    pub vector: Vec<u64>,
    /// Bank bases.
    pub bank: Vec<u64>,
    /// Segment bases.
    pub segment: Vec<u64>,
    /// Repetition bases.
    pub reps: Vec<u64>,
}

/// A cost with instructions first, as the JSON lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostSummary {
    /// Instructions per thread.
    pub instructions: u64,
    /// Estimated cycles per warp.
    pub cycles: u64,
}

/// One plan considered, with its cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alternative {
    /// Its kind.
    pub kind: ConversionKind,
    /// Instructions per thread.
    pub instructions: u64,
    /// Estimated cycles per warp.
    pub cycles: u64,
}

/// One side of `p`: its instruction named for the target and the access width, with its counts.
fn access(
    t: Target,
    p: &SharedPlan,
    i: Instruction,
    vector: u64,
    count: u64,
    store: bool,
) -> Access {
    Access {
        instruction: i.name(t, vector * u64::from(p.element_bits), store),
        vector,
        count,
    }
}

impl ConversionPlan {
    /// design.md's summary of the plan (what [`to_json`](Self::to_json) prints).
    pub fn summary(&self) -> PlanSummary {
        let (read, write) = self.bank_conflicts();
        let t = self.target;
        let shuffle = match (self.kind, &self.shuffle) {
            (ConversionKind::WarpShuffle, Some(p)) => Some(ShuffleSummary {
                selects: p.selects,
                rounds: p.rounds,
                shuffle_rounds: p.shuffle_rounds,
                elements_per_word: p.elements_per_word,
            }),
            _ => None,
        };
        let shared = match (self.kind, &self.shared) {
            (ConversionKind::SharedMemory, Some(p)) => Some(SharedSummary {
                repetitions: p.repetitions(),
                store: access(t, p, p.store_instruction, p.store_vector, p.stores, true),
                load: access(t, p, p.load_instruction, p.load_vector, p.loads, false),
                swizzle: Swizzle {
                    vector: p.vector.clone(),
                    bank: p.bank.clone(),
                    segment: p.segment.clone(),
                    reps: p.reps.clone(),
                },
            }),
            _ => None,
        };
        PlanSummary {
            kind: self.kind,
            triton_kind: self.triton_kind,
            target: t,
            element_bits: self.element_bits,
            scratch_bytes: self.scratch_bytes(),
            shuffles: self.shuffles(),
            bank_conflicts: ReadWrite { read, write },
            shuffle,
            shared,
            mixed_transpositions: self.classification.mixed_transpositions,
            cost: CostSummary {
                instructions: self.cost.instructions,
                cycles: self.cost.cycles,
            },
            alternatives: self
                .alternatives
                .iter()
                .map(|&(kind, c)| Alternative {
                    kind,
                    instructions: c.instructions,
                    cycles: c.cycles,
                })
                .collect(),
        }
    }

    /// The plan as one line of JSON: design.md's plan format plus detail ([`PlanSummary`]).
    pub fn to_json(&self) -> String {
        crate::layout::json::to_line(&self.summary())
            .expect("a plan summary is names and integers, which JSON always holds")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::convert::plan_conversion;
    use crate::layout::LinearLayout;

    /// One warp holding a 4×8 `f32` tile; `reg` is register bit 0's basis, `lane0` lane bit 0's.
    fn tile(reg: u64, lane0: u64) -> LinearLayout {
        LinearLayout::from_bases(
            [
                ("register", vec![vec![0, reg]]),
                (
                    "lane",
                    vec![vec![0, lane0], vec![0, 4], vec![1, 0], vec![2, 0]],
                ),
            ],
            [("dim0", 4), ("dim1", 8)],
            true,
        )
        .unwrap()
    }

    /// Register bit 0 and lane bit 0 trade places: a warp shuffle.
    fn swap_plan() -> ConversionPlan {
        plan_conversion(&tile(1, 2), &tile(2, 1), 32, Target::SM80).unwrap()
    }

    #[test]
    fn a_warp_shuffle_prints_design_md_fields_in_order() {
        let plan = swap_plan();
        // Hand-checked: one of the two registers crosses lanes (1 shuffle, in 1 of 2 rounds, one per
        // destination register), 32-bit elements travel one per word, no shared memory, and one lane bit goes
        // to a register bit (one mixed transposition). Selects and costs come from the cost model.
        let p = plan.shuffle.as_ref().unwrap();
        let (c, alts) = (plan.cost, &plan.alternatives);
        assert_eq!(alts[0].0, ConversionKind::WarpShuffle);
        assert_eq!(alts[1].0, ConversionKind::SharedMemory);
        let want = format!(
            concat!(
                r#"{{"kind": "warp_shuffle", "triton_kind": "warp_shuffle", "target": "sm_80", "element_bits": 32, "#,
                r#""scratch_bytes": 0, "shuffles": 1, "bank_conflicts": {{"read": 0, "write": 0}}, "#,
                r#""selects": {}, "rounds": 2, "shuffle_rounds": 1, "elements_per_word": 1, "mixed_transpositions": 1, "#,
                r#""cost": {{"instructions": {}, "cycles": {}}}, "alternatives": [{{"kind": "warp_shuffle", "#,
                r#""instructions": {}, "cycles": {}}}, {{"kind": "shared_memory", "instructions": {}, "cycles": {}}}]}}"#
            ),
            p.selects,
            c.instructions,
            c.cycles,
            alts[0].1.instructions,
            alts[0].1.cycles,
            alts[1].1.instructions,
            alts[1].1.cycles,
        );
        assert_eq!(plan.to_json(), want);
        // The summary reads back as itself.
        let back: PlanSummary = serde_json::from_str(&plan.to_json()).unwrap();
        assert_eq!(back, plan.summary());
    }

    #[test]
    fn plans_round_trip_with_the_target_by_name() {
        let plan = swap_plan();
        let j = serde_json::to_value(&plan).unwrap();
        assert_eq!(j["target"], "sm_80");
        assert_eq!(j["kind"], "warp_shuffle");
        let back: ConversionPlan = serde_json::from_value(j).unwrap();
        assert_eq!(back, plan);
        back.verify().unwrap();
        // A target the parser does not know is a serde error naming it.
        let mut bad = serde_json::to_value(&plan).unwrap();
        bad["target"] = "sm_1".into();
        let e = serde_json::from_value::<ConversionPlan>(bad).unwrap_err();
        assert!(e.to_string().contains("sm_1"), "{e}");
    }

    #[test]
    fn a_shared_memory_plan_lists_its_accesses() {
        // Lane bits along columns in one layout, along rows in the other, across 2 warps: shared memory.
        let ll = |lanes: [u64; 2], warp: [u64; 2]| {
            LinearLayout::from_bases(
                [
                    ("register", vec![vec![0, 1]]),
                    ("lane", vec![vec![lanes[0], lanes[1]]]),
                    ("warp", vec![vec![warp[0], warp[1]]]),
                ],
                [("dim0", 2), ("dim1", 4)],
                true,
            )
            .unwrap()
        };
        let plan =
            plan_conversion(&ll([0, 2], [1, 0]), &ll([1, 0], [0, 2]), 32, Target::SM80).unwrap();
        assert_eq!(plan.kind, ConversionKind::SharedMemory);
        let v: serde_json::Value = serde_json::from_str(&plan.to_json()).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut sorted = vec![
            "kind",
            "triton_kind",
            "target",
            "element_bits",
            "scratch_bytes",
            "shuffles",
            "bank_conflicts",
            "repetitions",
            "store",
            "load",
            "swizzle",
            "cost",
            "alternatives",
        ];
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        assert_eq!(v["scratch_bytes"], plan.scratch_bytes());
        assert!(plan.to_json().contains(r#""store": {"instruction": ""#));
    }
}
