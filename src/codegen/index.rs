//! From a distributed layout to per-register coordinates.
//!
//! A tile's layout maps (register, lane, warp) to a coordinate per tile dim, linearly over GF(2):
//! `coord(r, l, w) = R(r) ⊕ T(l, w)`. The register part `R(r)` is a compile-time constant per
//! register; the thread part `T(l, w)` is computed once per layout in the kernel's prologue from the
//! lane and warp ids. Each register's coordinate is then one `add` (when the bits of `R` and `T`
//! cannot overlap) or one `xor` with a constant.

use std::fmt;

use crate::layout::{Dim, LinearLayout};

use super::error::{CodegenError, Result};

/// A tile layout checked against the kernel, with its bases unpacked for code generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TileLayout {
    /// The layout as given (in-dims register/lane/warp, out-dims dim0..).
    pub ll: LinearLayout,
    /// Tile shape (the out-dim sizes).
    pub shape: Vec<u64>,
    /// Bases of the register bits: one coordinate per tile dim.
    pub reg: Vec<Vec<u64>>,
    /// Bases of the lane bits.
    pub lane: Vec<Vec<u64>>,
    /// Bases of the warp bits.
    pub warp: Vec<Vec<u64>>,
}

impl fmt::Display for TileLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |b: &Vec<Vec<u64>>| {
            let v: Vec<String> = b
                .iter()
                .map(|c| {
                    format!(
                        "[{}]",
                        c.iter()
                            .map(|x| x.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    )
                })
                .collect();
            format!("[{}]", v.join(","))
        };
        write!(
            f,
            "{{register: {}, lane: {}, warp: {}}}",
            show(&self.reg),
            show(&self.lane),
            show(&self.warp)
        )
    }
}

impl TileLayout {
    /// Checks that `ll` distributes a tile over one CTA of `threads_per_warp × num_warps` threads:
    /// in-dims among register, lane, warp (lane and warp with exactly the kernel's sizes; a missing
    /// one counts as size 1) and out-dims `dim0, dim1, …` in order.
    pub fn new(
        op: &'static str,
        ll: &LinearLayout,
        threads_per_warp: u32,
        num_warps: u32,
    ) -> Result<TileLayout> {
        let bad = |reason: String| CodegenError::BadLayout { op, reason };
        for (name, _) in ll.in_dims() {
            if ![Dim::REGISTER, Dim::LANE, Dim::WARP].contains(name) {
                return Err(bad(format!(
                    "input dim `{name}` is not one of register, lane, warp (layout {ll:?})"
                )));
            }
        }
        let shape: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
        for (i, (name, _)) in ll.out_dims().enumerate() {
            if *name != Dim::dim(i) {
                return Err(bad(format!(
                    "output dim {i} is `{name}`, expected `dim{i}` (layout {ll:?})"
                )));
            }
        }
        if shape.is_empty() {
            return Err(bad("a tile layout needs at least one output dim".into()));
        }
        let bases = |d: Dim| -> Result<Vec<Vec<u64>>> {
            if ll.has_in_dim(d.as_str()) {
                Ok(ll.bases(d.as_str())?)
            } else {
                Ok(Vec::new())
            }
        };
        let (reg, lane, warp) = (bases(Dim::REGISTER)?, bases(Dim::LANE)?, bases(Dim::WARP)?);
        if 1u64 << lane.len() != threads_per_warp as u64 {
            return Err(bad(format!(
                "it has {} lanes, the target has {threads_per_warp} threads per warp (layout {ll:?})",
                1u64 << lane.len()
            )));
        }
        if 1u64 << warp.len() != num_warps as u64 {
            return Err(bad(format!(
                "it has {} warps, the kernel has {num_warps} (layout {ll:?})",
                1u64 << warp.len()
            )));
        }
        if reg.len() > 12 {
            return Err(bad(format!(
                "{} registers per thread is more than 4096",
                1u64 << reg.len()
            )));
        }
        Ok(TileLayout {
            ll: ll.clone(),
            shape,
            reg,
            lane,
            warp,
        })
    }

    /// Rebuilds a checked layout from bases (used by shape ops).
    pub fn from_bases(
        op: &'static str,
        shape: &[u64],
        reg: Vec<Vec<u64>>,
        lane: Vec<Vec<u64>>,
        warp: Vec<Vec<u64>>,
    ) -> Result<TileLayout> {
        let ll = LinearLayout::from_bases(
            [
                (Dim::REGISTER, reg.clone()),
                (Dim::LANE, lane.clone()),
                (Dim::WARP, warp.clone()),
            ],
            shape.iter().enumerate().map(|(i, &s)| (Dim::dim(i), s)),
            false,
        )
        .map_err(|e| CodegenError::BadLayout {
            op,
            reason: e.to_string(),
        })?;
        Ok(TileLayout {
            ll,
            shape: shape.to_vec(),
            reg,
            lane,
            warp,
        })
    }

    /// Tile rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Registers per thread.
    pub fn num_regs(&self) -> usize {
        1 << self.reg.len()
    }

    /// The register part of register `r`'s coordinate.
    pub fn reg_coord(&self, r: usize) -> Vec<u64> {
        xor_of(&self.reg, r as u64, self.rank())
    }

    /// For each tile dim, the OR of every coordinate bit the thread part can set.
    pub fn thread_bits(&self) -> Vec<u64> {
        let mut bits = vec![0u64; self.rank()];
        for b in self.lane.iter().chain(&self.warp) {
            for d in 0..self.rank() {
                bits[d] |= b[d];
            }
        }
        bits
    }

    /// How many consecutive registers (a power of two, starting at any multiple of it) hold
    /// consecutive elements along `dim`, in order, at coordinates aligned to that count: register
    /// bit `i < k` must step dim `dim` by `2^i` and nothing else, and no other basis may touch the
    /// low `k` bits of `dim`.
    pub fn contiguous_regs(&self, dim: usize) -> u64 {
        let mut k = 0;
        while k < self.reg.len() {
            let b = &self.reg[k];
            let unit = (0..self.rank()).all(|d| b[d] == if d == dim { 1 << k } else { 0 });
            if !unit {
                break;
            }
            k += 1;
        }
        // Any other basis touching bits below 2^k would permute or misalign the run.
        while k > 0 {
            let low = (1u64 << k) - 1;
            let others = self.reg[k..].iter().chain(&self.lane).chain(&self.warp);
            if others.clone().all(|b| b[dim] & low == 0) {
                break;
            }
            k -= 1;
        }
        1 << k
    }

    /// Input bits that only repeat elements other bits already reach (Triton's free variables),
    /// as masks over (register, lane, warp). A thread or register with a free bit set holds a
    /// copy; stores and atomics skip copies so each element is written once.
    pub fn free_masks(&self) -> (u64, u64, u64) {
        // Gaussian elimination over the bases, packed into one u64 per basis.
        let widths: Vec<u32> = self.shape.iter().map(|s| s.trailing_zeros()).collect();
        let pack = |b: &Vec<u64>| {
            let mut v = 0u64;
            let mut shift = 0;
            for (d, w) in widths.iter().enumerate() {
                v |= b[d] << shift;
                shift += w;
            }
            v
        };
        let mut pivots: Vec<u64> = Vec::new(); // reduced rows, each with a distinct leading bit
        let mut is_free = |b: &Vec<u64>| {
            let mut v = pack(b);
            for p in &pivots {
                let lead = 63 - p.leading_zeros();
                if v >> lead & 1 == 1 {
                    v ^= p;
                }
            }
            if v == 0 {
                true
            } else {
                pivots.push(v);
                pivots.sort_by_key(|p| std::cmp::Reverse(63 - p.leading_zeros()));
                false
            }
        };
        let mut masks = [0u64; 3];
        for (m, bases) in [&self.reg, &self.lane, &self.warp].into_iter().enumerate() {
            for (i, b) in bases.iter().enumerate() {
                if is_free(b) {
                    masks[m] |= 1 << i;
                }
            }
        }
        (masks[0], masks[1], masks[2])
    }
}

/// XOR of the bases selected by the set bits of `bits`.
pub(crate) fn xor_of(bases: &[Vec<u64>], bits: u64, rank: usize) -> Vec<u64> {
    let mut c = vec![0u64; rank];
    for (i, b) in bases.iter().enumerate() {
        if bits >> i & 1 == 1 {
            for d in 0..rank {
                c[d] ^= b[d];
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1-D layout: `per_thread` contiguous registers, then lanes, then warps.
    fn blocked_1d(per_thread: u64, lanes: u64, warps: u64, size: u64) -> TileLayout {
        let bits = |n: u64, shift: u32| {
            (0..n.trailing_zeros())
                .map(|i| vec![(1u64 << (i + shift)) % size])
                .collect()
        };
        let r = per_thread.trailing_zeros();
        let l = lanes.trailing_zeros();
        TileLayout::from_bases(
            "test",
            &[size],
            bits(per_thread, 0),
            bits(lanes, r),
            bits(warps, r + l),
        )
        .unwrap()
    }

    #[test]
    fn contiguity_and_free_bits_of_a_blocked_layout() {
        let t = blocked_1d(4, 32, 4, 512);
        assert_eq!(t.contiguous_regs(0), 4);
        assert_eq!(t.free_masks(), (0, 0, 0));
        // A tile smaller than the layout wraps: warps 2 and 3 repeat warps 0 and 1.
        let t = blocked_1d(4, 32, 4, 256);
        assert_eq!(t.free_masks(), (0, 0, 0b10));
    }

    #[test]
    fn a_thread_basis_inside_the_run_breaks_contiguity() {
        let t = TileLayout::from_bases(
            "test",
            &[8],
            vec![vec![1], vec![2]],
            vec![vec![1], vec![4], vec![0], vec![0], vec![0]],
            vec![],
        )
        .unwrap();
        assert_eq!(t.contiguous_regs(0), 1);
    }
}

// ----- emission ---------------------------------------------------------------------------------

use inkwell::values::IntValue;

use super::kernel::KernelBuilder;

impl<'ctx> KernelBuilder<'ctx> {
    /// The thread part `T(lane, warp)` of a layout, one `i32` per tile dim, emitted once per
    /// distinct (lane, warp) bases in the prologue.
    pub(crate) fn thread_coords(&mut self, l: &TileLayout) -> Result<Vec<IntValue<'ctx>>> {
        let key = (l.lane.clone(), l.warp.clone());
        if let Some(v) = self.thread_cache.get(&key) {
            return Ok(v.clone());
        }
        let (lane, warp) = self.thread_ids()?;
        let i32t = self.ctx.i32_type();
        let rank = l.rank();
        let coords = self.in_prologue(|b| {
            let mut out = Vec::with_capacity(rank);
            for d in 0..rank {
                let mut acc: Option<IntValue> = None;
                for (id, bases) in [(lane, &l.lane), (warp, &l.warp)] {
                    // Runs of id bits i, i+1, … whose bases are 2^s, 2^(s+1), … become one
                    // `(id & mask) << (s - i)`; other bases are selected bit by bit.
                    let mut i = 0;
                    while i < bases.len() {
                        let c = bases[i][d];
                        if c == 0 {
                            i += 1;
                            continue;
                        }
                        let term = if c.is_power_of_two() {
                            let s = c.trailing_zeros() as i64;
                            let mut n = 1;
                            while i + n < bases.len() && bases[i + n][d] == c << n {
                                n += 1;
                            }
                            let mask = ((1u64 << n) - 1) << i;
                            let masked = b.build_and(id, i32t.const_int(mask, false), "")?;
                            let shift = s - i as i64;
                            let t = if shift > 0 {
                                b.build_left_shift(masked, i32t.const_int(shift as u64, false), "")?
                            } else if shift < 0 {
                                b.build_right_shift(
                                    masked,
                                    i32t.const_int((-shift) as u64, false),
                                    false,
                                    "",
                                )?
                            } else {
                                masked
                            };
                            i += n;
                            t
                        } else {
                            let bit = b.build_and(id, i32t.const_int(1 << i, false), "")?;
                            let set = b.build_int_compare(
                                inkwell::IntPredicate::NE,
                                bit,
                                i32t.const_zero(),
                                "",
                            )?;
                            i += 1;
                            b.build_select(set, i32t.const_int(c, false), i32t.const_zero(), "")?
                                .into_int_value()
                        };
                        acc = Some(match acc {
                            None => term,
                            Some(a) => b.build_xor(a, term, "")?,
                        });
                    }
                }
                out.push(acc.unwrap_or_else(|| i32t.const_zero()));
            }
            Ok(out)
        })?;
        self.thread_cache.insert(key, coords.clone());
        Ok(coords)
    }

    /// The coordinate along tile dim `dim` of every register of this thread.
    pub(crate) fn dim_coords(&mut self, l: &TileLayout, dim: usize) -> Result<Vec<IntValue<'ctx>>> {
        let t = self.thread_coords(l)?[dim];
        let tbits = l.thread_bits()[dim];
        let i32t = self.ctx.i32_type();
        let mut out = Vec::with_capacity(l.num_regs());
        let mut seen: std::collections::HashMap<u64, IntValue<'ctx>> =
            std::collections::HashMap::new();
        for r in 0..l.num_regs() {
            let c = l.reg_coord(r)[dim];
            if let Some(v) = seen.get(&c) {
                out.push(*v);
                continue;
            }
            let v = if c == 0 {
                t
            } else if c & tbits == 0 {
                // Disjoint bits: xor is add, and add keeps address arithmetic foldable.
                self.b.build_int_nuw_add(t, i32t.const_int(c, false), "")?
            } else {
                self.b.build_xor(t, i32t.const_int(c, false), "")?
            };
            seen.insert(c, v);
            out.push(v);
        }
        Ok(out)
    }
}
