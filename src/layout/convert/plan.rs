//! The planner's entry point: classify, build the candidate plans, cost them, keep the cheapest; print it
//! as the JSON of the design document or as a table.

use std::fmt;

use crate::layout::{Dim, LayoutError, LinearLayout, Result};
pub use crate::target::Target;

use super::classify::{classify, Classification, ConversionKind, Level};
use super::cost::{cross_cta_cost, shared_cost, shuffle_cost, Cost};
use super::shuffle::{plan_shuffle, ShufflePlan};
use super::swizzle::{plan_shared, SharedPlan};

/// A complete conversion plan. With feature `serde` it serialises with all its data (the target by name);
/// `ConversionPlan::to_json` prints design.md's summary instead. A deserialised plan is taken as written:
/// [`ConversionPlan::verify`] checks it only as far as its data is consistent.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// Bits of an element type named as Triton and the CLI name them (`i8`, `f16`, `bf16`, `f32`, `f8e4m3`, …),
/// the `element_bits` argument of [`plan_conversion`] and of the bank-conflict counts.
pub fn element_bits(dtype: &str) -> Result<u32> {
    Ok(match dtype {
        "i1" => 1,
        "i8" | "u8" | "f8" | "f8e4m3" | "f8e5m2" => 8,
        "i16" | "u16" | "f16" | "bf16" => 16,
        "i32" | "u32" | "f32" | "tf32" => 32,
        "i64" | "u64" | "f64" => 64,
        _ => {
            return Err(LayoutError::Invalid(format!(
                "dtype `{}`: unknown element type (i8, i16, i32, i64, f8, f16, bf16, f32, f64)",
                crate::layout::error::excerpt(dtype)
            )))
        }
    })
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
    check_same_hardware(src, dst)?;
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

/// Both layouts must run on the same threads: equal `lane`, `warp` and `block` sizes (a missing dim is size
/// 1). Registers may differ: a thread can hold more or fewer copies on either side.
fn check_same_hardware(src: &LinearLayout, dst: &LinearLayout) -> Result<()> {
    for dim in [Dim::LANE, Dim::WARP, Dim::BLOCK] {
        let source_size = src.in_dim_size(&dim).unwrap_or(1);
        let destination_size = dst.in_dim_size(&dim).unwrap_or(1);
        if source_size != destination_size {
            return Err(LayoutError::MismatchedHardware {
                dim,
                source_size,
                destination_size,
            });
        }
    }
    Ok(())
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
        // Only a deserialised plan can lack the part its kind needs.
        let missing = || LayoutError::Invalid(format!("a {} plan without its details", self.kind));
        match self.kind {
            ConversionKind::WarpShuffle => {
                super::simulate::execute_shuffle_plan(self.shuffle.as_ref().ok_or_else(missing)?)
            }
            ConversionKind::SharedMemory => {
                super::simulate::execute_shared_plan(self.shared.as_ref().ok_or_else(missing)?)
            }
            _ => Ok(()),
        }
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

    /// 16 elements over `lanes` lanes and `warps` warps (registers take the rest), with a size-1 `block`
    /// when `with_block`.
    fn spread(lanes: u32, warps: u32, with_block: bool) -> LinearLayout {
        let unit = |i: u32| vec![1u64 << i];
        let regs = 4 - lanes - warps;
        let mut dims = vec![
            ("register", (0..regs).map(unit).collect::<Vec<_>>()),
            ("lane", (regs..regs + lanes).map(unit).collect()),
            ("warp", (regs + lanes..4).map(unit).collect()),
        ];
        if with_block {
            dims.push(("block", vec![]));
        }
        LinearLayout::from_bases(dims, [("dim0", 16)], true).unwrap()
    }

    #[test]
    fn mismatched_hardware_is_rejected_naming_the_dim() {
        // Same tensor, 4 lanes × 2 warps against 2 lanes × 2 warps: no plan moves data between them.
        let r = plan_conversion(&spread(2, 1, false), &spread(1, 1, false), 16, Target::SM90);
        assert_eq!(
            r.as_ref().unwrap_err(),
            &LayoutError::MismatchedHardware {
                dim: Dim::LANE,
                source_size: 4,
                destination_size: 2
            }
        );
        let msg = r.unwrap_err().to_string();
        assert!(
            msg.contains("`lane`") && msg.contains('4') && msg.contains('2'),
            "{msg}"
        );
        let r = plan_conversion(&spread(1, 1, false), &spread(1, 2, false), 16, Target::SM90);
        assert!(
            matches!(
                r,
                Err(LayoutError::MismatchedHardware {
                    dim: Dim::WARP,
                    source_size: 2,
                    destination_size: 4
                })
            ),
            "{r:?}"
        );
        // A block dim of size 2 against none (size 1).
        let two_blocks = LinearLayout::from_bases(
            [("register", vec![vec![1]]), ("block", vec![vec![2]])],
            [("dim0", 4)],
            true,
        )
        .unwrap();
        let one_block = LinearLayout::identity_1d(4, "register", "dim0").unwrap();
        assert!(matches!(
            plan_conversion(&two_blocks, &one_block, 16, Target::SM90),
            Err(LayoutError::MismatchedHardware {
                dim: Dim::BLOCK,
                source_size: 2,
                destination_size: 1
            })
        ));
    }

    #[test]
    fn a_missing_dim_counts_as_size_one() {
        // A size-1 block on one side only: still the same threads, so a plan that checks out on the host.
        let plan =
            plan_conversion(&spread(2, 1, true), &spread(2, 1, false), 16, Target::SM90).unwrap();
        plan.verify().unwrap();
        let plan =
            plan_conversion(&spread(2, 0, false), &spread(2, 0, true), 16, Target::SM90).unwrap();
        plan.verify().unwrap();
    }

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
