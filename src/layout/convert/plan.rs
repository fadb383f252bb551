//! The planner's entry point: classify, build the candidate plans, cost them, keep the cheapest; print it
//! as the JSON of the design document or as a table.

use std::fmt;

use crate::layout::{LayoutError, LinearLayout, Result};
pub use crate::target::Target;

use super::classify::{classify, Classification, ConversionKind, Level};
use super::cost::{cross_cta_cost, shared_cost, shuffle_cost, Cost};
use super::shuffle::{plan_shuffle, ShufflePlan};
use super::swizzle::{plan_shared, SharedPlan};

/// A complete conversion plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionPlan {
    /// What weft does.
    pub kind: ConversionKind,
    /// What Triton 3.9 does for the same conversion.
    pub triton_kind: ConversionKind,
    /// Bits per element.
    pub element_bits: u32,
    /// The target.
    pub target: Target,
    /// The classification the plan starts from.
    pub classification: Classification,
    /// The shuffle plan, when shuffles were considered.
    pub shuffle: Option<ShufflePlan>,
    /// The shared-memory plan, when a round trip was considered.
    pub shared: Option<SharedPlan>,
    /// The cost of the chosen plan.
    pub cost: Cost,
    /// Every plan considered with its cost, cheapest first.
    pub alternatives: Vec<(ConversionKind, Cost)>,
}

/// Plans the conversion of a tensor from distributed layout `src` to `dst` (in dims among `register`,
/// `lane`, `warp`, `block`; the same out dims and sizes) for `element_bits`-bit elements on `target`.
pub fn plan_conversion(
    src: &LinearLayout,
    dst: &LinearLayout,
    element_bits: u32,
    target: Target,
) -> Result<ConversionPlan> {
    if element_bits == 0 || element_bits > 64 {
        return Err(LayoutError::Invalid(format!(
            "element bits must be 1..=64, got {element_bits}"
        )));
    }
    for (name, l) in [("source", src), ("destination", dst)] {
        if let Ok(n) = l.in_dim_size("lane") {
            if n > target.warp_size() as u64 {
                return Err(LayoutError::Invalid(format!(
                    "the {name} layout has {n} lanes but {target} warps have {}",
                    target.warp_size()
                )));
            }
        }
    }
    let classification = classify(src, dst)?;
    let triton_kind = classification.triton_kind();
    let mut shuffle = None;
    let mut shared = None;
    let mut alternatives: Vec<(ConversionKind, Cost)> = Vec::new();
    match classification.level {
        Level::None => alternatives.push((ConversionKind::Noop, Cost::default())),
        Level::Register => alternatives.push((ConversionKind::RegisterPermute, Cost::default())),
        Level::Block if !classification.cta_local => {
            let regs = dst.in_dim_size("register").unwrap_or(1);
            alternatives.push((ConversionKind::CrossCta, cross_cta_cost(regs)))
        }
        Level::Lane | Level::Warp | Level::Block => {
            if classification.level == Level::Lane {
                if let Ok(p) = plan_shuffle(src, dst, element_bits) {
                    alternatives.push((ConversionKind::WarpShuffle, shuffle_cost(&p)));
                    shuffle = Some(p);
                }
            }
            let p = plan_shared(src, dst, element_bits, target)?;
            alternatives.push((ConversionKind::SharedMemory, shared_cost(&p)));
            shared = Some(p);
        }
    }
    alternatives.sort_by_key(|a| (a.1, a.0));
    let (kind, cost) = alternatives[0];
    Ok(ConversionPlan {
        kind,
        triton_kind,
        element_bits,
        target,
        classification,
        shuffle,
        shared,
        cost,
        alternatives,
    })
}

impl ConversionPlan {
    /// Scratch bytes of the chosen plan (0 unless it goes through shared memory).
    pub fn scratch_bytes(&self) -> u64 {
        match (&self.shared, self.kind) {
            (Some(s), ConversionKind::SharedMemory) => s.scratch_bytes,
            _ => 0,
        }
    }

    /// Shuffles per thread of the chosen plan.
    pub fn shuffles(&self) -> u64 {
        match (&self.shuffle, self.kind) {
            (Some(s), ConversionKind::WarpShuffle) => s.shuffles as u64,
            _ => 0,
        }
    }

    /// (read, write) bank conflicts of the chosen plan.
    pub fn bank_conflicts(&self) -> (u64, u64) {
        match (&self.shared, self.kind) {
            (Some(s), ConversionKind::SharedMemory) => (s.read_conflicts, s.write_conflicts),
            _ => (0, 0),
        }
    }

    /// Checks the chosen plan by executing it on the host (see [`simulate`](super::simulate)).
    pub fn verify(&self) -> Result<()> {
        match self.kind {
            ConversionKind::WarpShuffle => {
                super::simulate::execute_shuffle_plan(self.shuffle.as_ref().expect("shuffle plan"))
            }
            ConversionKind::SharedMemory => {
                super::simulate::execute_shared_plan(self.shared.as_ref().expect("shared plan"))
            }
            _ => Ok(()),
        }
    }

    /// The plan as one JSON object (design.md's plan format plus detail).
    pub fn to_json(&self) -> String {
        let (read, write) = self.bank_conflicts();
        let mut s = format!(
            "{{\"kind\": \"{}\", \"triton_kind\": \"{}\", \"target\": \"{}\", \"element_bits\": {}, \"scratch_bytes\": {}, \"shuffles\": {}, \"bank_conflicts\": {{\"read\": {read}, \"write\": {write}}}",
            self.kind, self.triton_kind, self.target, self.element_bits, self.scratch_bytes(), self.shuffles()
        );
        match self.kind {
            ConversionKind::WarpShuffle => {
                let p = self.shuffle.as_ref().expect("shuffle plan");
                s += &format!(
                    ", \"selects\": {}, \"rounds\": {}, \"shuffle_rounds\": {}, \"elements_per_word\": {}",
                    p.selects, p.rounds, p.shuffle_rounds, p.elements_per_word
                );
            }
            ConversionKind::SharedMemory => {
                let p = self.shared.as_ref().expect("shared plan");
                let t = self.target;
                s += &format!(
                    ", \"repetitions\": {}, \"store\": {{\"instruction\": \"{}\", \"vector\": {}, \"count\": {}}}, \"load\": {{\"instruction\": \"{}\", \"vector\": {}, \"count\": {}}}, \"swizzle\": {{\"vector\": {:?}, \"bank\": {:?}, \"segment\": {:?}, \"reps\": {:?}}}",
                    p.repetitions(),
                    p.store_instruction.name(t, p.store_vector * p.element_bits as u64, true),
                    p.store_vector,
                    p.stores,
                    p.load_instruction.name(t, p.load_vector * p.element_bits as u64, false),
                    p.load_vector,
                    p.loads,
                    p.vector,
                    p.bank,
                    p.segment,
                    p.reps
                );
            }
            _ => {}
        }
        if let Some(m) = self.classification.mixed_transpositions {
            s += &format!(", \"mixed_transpositions\": {m}");
        }
        s += &format!(
            ", \"cost\": {{\"instructions\": {}, \"cycles\": {}}}, \"alternatives\": [",
            self.cost.instructions, self.cost.cycles
        );
        for (i, (k, c)) in self.alternatives.iter().enumerate() {
            if i > 0 {
                s += ", ";
            }
            s += &format!(
                "{{\"kind\": \"{k}\", \"instructions\": {}, \"cycles\": {}}}",
                c.instructions, c.cycles
            );
        }
        s += "]}";
        s
    }
}

impl fmt::Display for ConversionPlan {
    /// A readable table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (read, write) = self.bank_conflicts();
        writeln!(f, "{:<22} {}", "kind", self.kind)?;
        writeln!(f, "{:<22} {}", "triton 3.9 would do", self.triton_kind)?;
        writeln!(
            f,
            "{:<22} {} ({}-bit elements)",
            "target", self.target, self.element_bits
        )?;
        match self.kind {
            ConversionKind::WarpShuffle => {
                let p = self.shuffle.as_ref().expect("shuffle plan");
                writeln!(
                    f,
                    "{:<22} {} ({} with shuffles)",
                    "rounds", p.rounds, p.shuffle_rounds
                )?;
                writeln!(f, "{:<22} {}", "shuffles / thread", p.shuffles)?;
                writeln!(f, "{:<22} {}", "selects / thread", p.selects)?;
                writeln!(f, "{:<22} {}", "elements per word", p.elements_per_word)?;
            }
            ConversionKind::SharedMemory => {
                let p = self.shared.as_ref().expect("shared plan");
                let t = self.target;
                writeln!(f, "{:<22} {}", "scratch bytes", p.scratch_bytes)?;
                writeln!(f, "{:<22} {}", "repetitions", p.repetitions())?;
                writeln!(
                    f,
                    "{:<22} {} x{} ({} elements each)",
                    "store",
                    p.store_instruction
                        .name(t, p.store_vector * p.element_bits as u64, true),
                    p.stores,
                    p.store_vector
                )?;
                writeln!(
                    f,
                    "{:<22} {} x{} ({} elements each)",
                    "load",
                    p.load_instruction
                        .name(t, p.load_vector * p.element_bits as u64, false),
                    p.loads,
                    p.load_vector
                )?;
                writeln!(f, "{:<22} read {read}, write {write}", "bank conflicts")?;
                writeln!(
                    f,
                    "{:<22} vector {:?} bank {:?} segment {:?} reps {:?}",
                    "swizzle bases", p.vector, p.bank, p.segment, p.reps
                )?;
            }
            _ => {}
        }
        writeln!(
            f,
            "{:<22} {} instructions, ~{} cycles",
            "cost", self.cost.instructions, self.cost.cycles
        )?;
        for (k, c) in &self.alternatives {
            writeln!(
                f,
                "  {:<20} {} instructions, ~{} cycles",
                k.as_str(),
                c.instructions,
                c.cycles
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_beyond_the_warp_are_rejected() {
        let l = LinearLayout::from_bases(
            [
                ("register", vec![]),
                (
                    "lane",
                    vec![vec![1], vec![2], vec![4], vec![8], vec![16], vec![32]],
                ),
            ],
            [("dim0", 64)],
            true,
        )
        .unwrap();
        assert!(plan_conversion(&l, &l, 16, Target::SM90).is_err());
        assert_eq!(
            plan_conversion(&l, &l, 16, Target::GFX942).unwrap().kind,
            ConversionKind::Noop
        );
    }
}
