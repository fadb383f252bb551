//! Ground truth by brute force: run plans on the host and count shared-memory wavefronts address by
//! address. Slow on purpose (it enumerates every lane of every warp); tests and curious users call it.

use crate::layout::{LayoutError, LinearLayout, Result};

use super::bank_conflicts::OffsetMap;
use super::hw::{rank, same_tensor, xor_cols, Hw};
use super::shuffle::ShufflePlan;
use super::swizzle::SharedPlan;

/// Banks of shared memory (NVIDIA and AMD gfx9 alike) and their width in bytes.
pub const NUM_BANKS: u64 = 32;
/// Width of one bank in bytes.
pub const BANK_BYTES: u64 = 4;

/// What the brute-force simulator saw for one kind of access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AccessStats {
    /// Warp-wide memory instructions issued (summed over warps).
    pub instructions: u64,
    /// Wavefronts (shared-memory cycles) those instructions took.
    pub wavefronts: u64,
    /// Wavefronts a conflict-free access pattern of the same width would take.
    pub ideal_wavefronts: u64,
}

impl AccessStats {
    /// Extra wavefronts per phase, the number Gluon's `bank_conflicts` reports; `None` if they are not
    /// uniform across instructions and phases.
    pub fn conflicts_per_phase(&self) -> Option<u64> {
        if self.ideal_wavefronts == 0 {
            return Some(0);
        }
        self.wavefronts
            .is_multiple_of(self.ideal_wavefronts)
            .then(|| self.wavefronts / self.ideal_wavefronts - 1)
    }
}

/// Wavefronts of one phase: each lane touches `words` consecutive 4-byte words starting at word `start`;
/// a bank serves one distinct word per wavefront. Allocation-free for up to 128 words (the builder's
/// report counts every shared instruction it emits with this).
fn phase_wavefronts(accesses: &[(u64, u64)]) -> u64 {
    let mut words: smallvec::SmallVec<[u64; 128]> = accesses
        .iter()
        .flat_map(|&(start, n)| start..start + n)
        .collect();
    words.sort_unstable();
    words.dedup();
    let mut per_bank = [0u64; NUM_BANKS as usize];
    for w in words {
        per_bank[(w % NUM_BANKS) as usize] += 1;
    }
    per_bank.into_iter().max().unwrap_or(0).max(1)
}

impl AccessStats {
    /// Adds the counts of `other`.
    pub fn add(&mut self, other: AccessStats) {
        self.instructions += other.instructions;
        self.wavefronts += other.wavefronts;
        self.ideal_wavefronts += other.ideal_wavefronts;
    }
}

/// One warp-wide shared-memory instruction in which lane `i` accesses `access_bytes` bytes at
/// byte address `lane_bytes[i]`: its lanes are split into phases of 128 bytes of accesses (all
/// lanes in one phase for sub-word accesses) and each phase takes as many wavefronts as its most
/// loaded bank has distinct words. Lanes that access the same word share it (a broadcast on a
/// read; one write wins on a write). The builder's `Kernel::report` counts every shared access
/// it emits with this, so its predictions and [`simulate_shared_access`] agree by construction.
pub fn warp_access(lane_bytes: &[u64], access_bytes: u64) -> AccessStats {
    let lanes = lane_bytes.len() as u64;
    // Measured on the H200 (Nsight Compute, 2026-11-25): a 16-byte access of one address by every
    // lane takes one wavefront per half-warp, not one per 8-lane phase.
    if access_bytes == 16 && lanes > 1 && lane_bytes.iter().all(|&b| b == lane_bytes[0]) {
        let halves = lanes.div_ceil(16);
        return AccessStats {
            instructions: 1,
            wavefronts: halves,
            ideal_wavefronts: halves,
        };
    }
    let lanes_per_phase = if access_bytes >= BANK_BYTES {
        (NUM_BANKS * BANK_BYTES / access_bytes).clamp(1, lanes.max(1))
    } else {
        lanes.max(1)
    };
    let mut stats = AccessStats {
        instructions: 1,
        ..AccessStats::default()
    };
    let mut accesses: smallvec::SmallVec<[(u64, u64); 64]> = smallvec::SmallVec::new();
    for phase in lane_bytes.chunks(lanes_per_phase as usize) {
        accesses.clear();
        for &byte in phase {
            let first = byte / BANK_BYTES;
            let last = (byte + access_bytes).div_ceil(BANK_BYTES);
            accesses.push((first, last - first));
        }
        stats.wavefronts += phase_wavefronts(&accesses);
        stats.ideal_wavefronts += 1;
    }
    stats
}

/// Simulates reading (or writing: the same pattern) a distributed `reg` layout from a `shared` layout
/// (`offset` → tensor, bijective), `vec` consecutive registers per access of `vec` consecutive offsets.
///
/// Registers are grouped by the register bases that map to offsets 1, 2, …, vec/2 (the vectorisation);
/// each group is one instruction. A warp's lanes are split into phases of 128 bytes of accesses (32 lanes
/// for 32-bit accesses, 16 for 64-bit, 8 for 128-bit) and each phase takes as many wavefronts as the most
/// loaded bank has distinct words.
pub fn simulate_shared_access(
    reg: &LinearLayout,
    shared: &LinearLayout,
    element_bits: u32,
    vec: u64,
) -> Result<AccessStats> {
    let order = same_tensor(reg, shared)?;
    check_size(reg)?;
    let r = Hw::new(reg, &order)?.without_broadcast_regs();
    let sh = shared.transpose_outs(&order)?;
    if !sh.is_invertible() {
        return Err(LayoutError::Invalid(
            "the shared layout must map offsets to tensor elements one to one".into(),
        ));
    }
    // Tensor element → offset.
    let size = sh.total_in_size();
    let mut offset_of = vec![0u64; size as usize];
    for o in 0..size {
        offset_of[sh.apply_packed(o) as usize] = o;
    }
    let bits = element_bits.max(8) as u64;
    if !vec.is_power_of_two() || vec * element_bits as u64 > 128 {
        return Err(LayoutError::Invalid(format!(
            "vector of {vec} elements: must be a power of two of at most 128 bits"
        )));
    }
    let vlog = vec.trailing_zeros() as usize;
    // Register bits that make the vector (offsets 1, 2, 4, …) and the rest.
    let mut vec_regs = Vec::new();
    for i in 0..vlog {
        match (0..r.reg.len()).find(|&j| offset_of[r.reg[j] as usize] == 1 << i) {
            Some(j) => vec_regs.push(j),
            None => {
                return Err(LayoutError::Invalid(format!(
                    "no register holds offset {} : vector of {vec} is not possible",
                    1u64 << i
                )))
            }
        }
    }
    let other_regs: Vec<usize> = (0..r.reg.len()).filter(|j| !vec_regs.contains(j)).collect();
    let access_bytes = vec * bits / 8;
    let mut stats = AccessStats::default();
    let mut lane_bytes = Vec::with_capacity(r.num_lanes() as usize);
    for block in 0..r.num_blocks() {
        for warp in 0..r.num_warps() {
            for g in 0..(1u64 << other_regs.len()) {
                let mut regidx = 0u64;
                for (b, &j) in other_regs.iter().enumerate() {
                    regidx |= ((g >> b) & 1) << j;
                }
                lane_bytes.clear();
                for lane in 0..r.num_lanes() {
                    let x = r.element(regidx, lane, warp, block);
                    lane_bytes.push(offset_of[x as usize] * bits / 8);
                }
                stats.add(warp_access(&lane_bytes, access_bytes));
            }
        }
    }
    Ok(stats)
}

/// Most hardware and tensor bits the brute-force routines enumerate (2^24 elements).
pub const MAX_SIMULATED_BITS: u32 = 24;

fn check_size(l: &LinearLayout) -> Result<()> {
    let bits = l.total_in_bits().max(l.total_out_bits());
    if bits > MAX_SIMULATED_BITS {
        return Err(LayoutError::TooManyBits {
            what: "a layout to simulate".into(),
            bits,
            limit: MAX_SIMULATED_BITS,
        });
    }
    Ok(())
}

pub(crate) fn check_hw(h: &Hw) -> Result<()> {
    let bits = (h.reg.len() + h.lane.len() + h.warp.len() + h.block.len()) as u32;
    if bits.max(h.out_bits) > MAX_SIMULATED_BITS {
        return Err(LayoutError::TooManyBits {
            what: "a plan to execute".into(),
            bits,
            limit: MAX_SIMULATED_BITS,
        });
    }
    Ok(())
}

/// A mismatch found while executing a plan on the host.
fn mismatch(what: &str, reg: u64, lane: u64, warp: u64, got: u64, want: u64) -> LayoutError {
    LayoutError::Invalid(format!(
        "{what}: register {reg} of lane {lane}, warp {warp} holds element {got}, the destination wants {want}"
    ))
}

/// Executes a shuffle plan on the host: every lane of every warp starts with the source layout's
/// elements, the planned rounds move them, and the result must be the destination layout's placement.
pub fn execute_shuffle_plan(plan: &ShufflePlan) -> Result<()> {
    let m = &plan.m;
    let (s, t) = (&m.src, &m.dst);
    check_hw(s)?;
    check_hw(t)?;
    let lanes = 1u64 << m.lane_bits;
    let packed_src_mask: u64 = m.packed.iter().map(|p| 1u64 << p.1).sum();
    for block in 0..s.num_blocks() {
        for warp in 0..s.num_warps() {
            // out[lane][dst register] = element
            let mut out = vec![vec![u64::MAX; t.num_regs() as usize]; lanes as usize];
            for k in 0..plan.rounds as u64 {
                // What each lane puts on the wire this round: a word of packed source registers.
                let sent: Vec<Option<u64>> =
                    (0..lanes).map(|l| plan.sender_register(k, l)).collect();
                for lp in 0..lanes {
                    let from = plan.lane_xor[k as usize] ^ xor_cols(&plan.lane_map, lp);
                    let Some(base) = sent[from as usize] else {
                        return Err(LayoutError::Invalid(format!(
                            "round {k}: lane {lp} reads lane {from}, which sends nothing"
                        )));
                    };
                    if base & packed_src_mask != 0 {
                        return Err(LayoutError::Invalid(
                            "sender register overlaps packed bits".into(),
                        ));
                    }
                    let word = k ^ xor_cols(&plan.diagonal, lp);
                    // Unpack: packed source bit p lands on its destination bit.
                    for p in 0..(1u64 << m.packed.len()) {
                        let mut sreg = base;
                        let mut dreg = 0u64;
                        for (b, &(dbit, sbit)) in m.packed.iter().enumerate() {
                            if (p >> b) & 1 == 1 {
                                sreg |= 1 << sbit;
                                dreg |= 1 << dbit;
                            }
                        }
                        for (b, &wb) in m.word_bits.iter().enumerate() {
                            dreg |= ((word >> b) & 1) << wb;
                        }
                        out[lp as usize][dreg as usize] = s.element(sreg, from, warp, block);
                    }
                }
            }
            for lp in 0..lanes {
                for r in 0..t.num_regs() {
                    let want = t.element(r, lp, warp, block);
                    let got = out[lp as usize][r as usize];
                    if got != want {
                        return Err(mismatch("shuffle plan", r, lp, warp, got, want));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Executes a shared-memory plan on the host. Each thread computes its store and load addresses from its
/// own (register, lane, warp) coordinates through the linear maps `src → scratch` and `dst → scratch`, the
/// way generated code does; for every repetition all threads store their source elements, then load. The
/// loaded values must be exactly the destination layout's elements, and no two stores of one repetition
/// may write different elements to one address.
pub fn execute_shared_plan(plan: &SharedPlan) -> Result<()> {
    let (s, d) = (&plan.src, &plan.dst);
    check_hw(s)?;
    check_hw(d)?;
    let addr_cols = plan.address_columns();
    let all: Vec<u64> = addr_cols.iter().chain(&plan.reps).copied().collect();
    if rank(&all) as usize != all.len() || all.len() != s.out_bits as usize {
        return Err(LayoutError::Invalid(
            "scratch layout is not a bijection onto the tensor".into(),
        ));
    }
    let offsets = OffsetMap::from_columns(&all);
    let addr_bits = addr_cols.len();
    // Hardware coordinate → (repetition, address): the store and load conversions, one column per bit.
    let cvt = |hw: &Hw| -> Vec<u64> {
        hw.reg
            .iter()
            .chain(&hw.lane)
            .chain(&hw.warp)
            .chain(&hw.block)
            .map(|&c| offsets.offset(c))
            .collect()
    };
    let (store_cvt, load_cvt) = (cvt(s), cvt(d));
    let index = |hw: &Hw, r: u64, l: u64, w: u64, b: u64| -> u64 {
        let (nr, nl, nw) = (hw.reg.len(), hw.lane.len(), hw.warp.len());
        r | l << nr | w << (nr + nl) | b << (nr + nl + nw)
    };
    let mask = (1u64 << addr_bits) - 1;
    for rep in 0..plan.repetitions() {
        let mut mem = vec![u64::MAX; 1usize << addr_bits];
        for b in 0..s.num_blocks() {
            for w in 0..s.num_warps() {
                for l in 0..s.num_lanes() {
                    for r in 0..s.num_regs() {
                        let o = xor_cols(&store_cvt, index(s, r, l, w, b));
                        if o >> addr_bits != rep {
                            continue;
                        }
                        let x = s.element(r, l, w, b);
                        let a = (o & mask) as usize;
                        if mem[a] != u64::MAX && mem[a] != x {
                            return Err(LayoutError::Invalid(format!(
                                "repetition {rep}: elements {} and {x} both stored at offset {a}",
                                mem[a]
                            )));
                        }
                        mem[a] = x;
                    }
                }
            }
        }
        for b in 0..d.num_blocks() {
            for w in 0..d.num_warps() {
                for l in 0..d.num_lanes() {
                    for r in 0..d.num_regs() {
                        let o = xor_cols(&load_cvt, index(d, r, l, w, b));
                        if o >> addr_bits != rep {
                            continue;
                        }
                        let want = d.element(r, l, w, b);
                        let got = mem[(o & mask) as usize];
                        if got != want {
                            return Err(LayoutError::Invalid(format!(
                                "repetition {rep}: register {r} of lane {l}, warp {w} loads {got}, wants {want}"
                            )));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod warp_access_tests {
    use super::*;

    #[test]
    fn sixteen_byte_phases_and_the_measured_broadcast() {
        // 32 lanes reading 16 consecutive bytes each: four 8-lane phases, no conflict.
        let spread: Vec<u64> = (0..32).map(|l| 16 * l).collect();
        let s = warp_access(&spread, 16);
        assert_eq!((s.wavefronts, s.ideal_wavefronts), (4, 4));
        // Every lane reading the same 16 bytes: one wavefront per half-warp (ncu on the H200).
        let s = warp_access(&[64; 32], 16);
        assert_eq!((s.wavefronts, s.ideal_wavefronts), (2, 2));
        // Two addresses are no broadcast: the phases count as before.
        let mut two = vec![64u64; 32];
        two[31] = 80;
        assert_eq!(warp_access(&two, 16).wavefronts, 4);
    }
}
