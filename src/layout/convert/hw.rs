//! Distributed layouts seen as packed columns per hardware dim, the working form of every planner.
//!
//! Each column is the flattened tensor index (out dims in the source's order, the first least significant) of
//! one input bit, so XOR of columns is the tensor element a hardware coordinate holds.

use crate::layout::{gf2, Dim, LayoutError, LinearLayout, Result};

/// The four hardware dims of a distributed layout, slowest last.
pub(crate) const HW_DIMS: [&str; 4] = ["register", "lane", "warp", "block"];

/// A distributed layout as packed columns per hardware dim.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Hw {
    pub reg: Vec<u64>,
    pub lane: Vec<u64>,
    pub warp: Vec<u64>,
    pub block: Vec<u64>,
    /// log2 of the number of tensor elements.
    pub out_bits: u32,
}

impl Hw {
    /// Columns of `layout` with its out dims put in `order` (the source's order, so both sides agree).
    pub fn new(layout: &LinearLayout, order: &[Dim]) -> Result<Hw> {
        for d in layout.in_dim_names() {
            if !HW_DIMS.contains(&d.as_str()) {
                return Err(LayoutError::Invalid(format!(
                    "a distributed layout has in dims register, lane, warp, block; found `{d}`"
                )));
            }
        }
        let l = layout.transpose_outs(order)?;
        let get = |name: &str| -> Vec<u64> {
            match l.in_index(name) {
                Ok(i) => {
                    let off = l.in_offset(i);
                    l.cols[off..off + l.ins[i].log2 as usize].to_vec()
                }
                Err(_) => Vec::new(),
            }
        };
        Ok(Hw {
            reg: get("register"),
            lane: get("lane"),
            warp: get("warp"),
            block: get("block"),
            out_bits: l.total_out_bits(),
        })
    }

    /// The same layout without its zero register bases (Triton's `actionRemoveBroadcastedRegs`): broadcast
    /// registers hold copies, so conversions move each value once and copy afterwards.
    pub fn without_broadcast_regs(&self) -> Hw {
        let mut h = self.clone();
        h.reg.retain(|&c| c != 0);
        h
    }

    /// The layout of one CTA: the tensor modulo the span of the block bases (each independent block basis
    /// removes its highest bit after reducing the other columns by it), block dim dropped. Returns the removed
    /// bit positions of the flattened tensor index.
    pub fn per_cta(&self) -> (Hw, Vec<u32>) {
        if self.block.iter().all(|&b| b == 0) {
            let mut h = self.clone();
            h.block.clear();
            return (h, Vec::new());
        }
        let mut span = gf2::XorBasis::new();
        for &b in &self.block {
            span.insert(b);
        }
        let pivots = span.pivot_bits();
        let removed: Vec<u32> = (0..64).filter(|&i| pivots >> i & 1 == 1).collect();
        // Each element modulo the block span (its pivot bits cleared), with the pivot bits squeezed out.
        let project = |c: u64| -> u64 {
            let x = span.reduce_fully(c);
            (0..self.out_bits)
                .filter(|&i| pivots >> i & 1 == 0)
                .enumerate()
                .fold(0u64, |out, (j, i)| out | (x >> i & 1) << j)
        };
        let h = Hw {
            reg: self.reg.iter().map(|&c| project(c)).collect(),
            lane: self.lane.iter().map(|&c| project(c)).collect(),
            warp: self.warp.iter().map(|&c| project(c)).collect(),
            block: Vec::new(),
            out_bits: self.out_bits - removed.len() as u32,
        };
        (h, removed)
    }

    /// The tensor element held at (register, lane, warp, block).
    pub fn element(&self, reg: u64, lane: u64, warp: u64, block: u64) -> u64 {
        xor_cols(&self.reg, reg)
            ^ xor_cols(&self.lane, lane)
            ^ xor_cols(&self.warp, warp)
            ^ xor_cols(&self.block, block)
    }

    /// Number of registers per thread.
    pub fn num_regs(&self) -> u64 {
        1 << self.reg.len()
    }
    /// Lanes per warp.
    pub fn num_lanes(&self) -> u64 {
        1 << self.lane.len()
    }
    /// Warps per CTA.
    pub fn num_warps(&self) -> u64 {
        1 << self.warp.len()
    }
    /// CTAs per cluster.
    pub fn num_blocks(&self) -> u64 {
        1 << self.block.len()
    }
}

/// XOR of the columns selected by the bits of `x`.
#[inline]
pub(crate) fn xor_cols(cols: &[u64], mut x: u64) -> u64 {
    let mut acc = 0;
    let mut i = 0;
    while x != 0 && i < cols.len() {
        if x & 1 == 1 {
            acc ^= cols[i];
        }
        x >>= 1;
        i += 1;
    }
    acc
}

/// Checks that two distributed layouts describe the same tensor (same out dims and sizes, any order) and
/// returns the source's out-dim order.
pub(crate) fn same_tensor(src: &LinearLayout, dst: &LinearLayout) -> Result<Vec<Dim>> {
    let order: Vec<Dim> = src.out_dim_names().cloned().collect();
    if order.len() != dst.num_out_dims() {
        return Err(LayoutError::DimMismatch(format!(
            "source has {} out dims, destination {}",
            order.len(),
            dst.num_out_dims()
        )));
    }
    for (name, size) in src.out_dims() {
        match dst.out_dim_size(name) {
            Ok(s) if s == size => {}
            Ok(s) => {
                return Err(LayoutError::SizeMismatch(format!(
                    "out dim `{name}` has size {size} in the source and {s} in the destination"
                )))
            }
            Err(_) => {
                return Err(LayoutError::DimMismatch(format!(
                    "out dim `{name}` of the source is not in the destination"
                )))
            }
        }
    }
    if src.total_out_bits() > 62 {
        return Err(LayoutError::TooManyBits {
            what: "tensor".into(),
            bits: src.total_out_bits(),
            limit: 62,
        });
    }
    Ok(order)
}

/// Basis of the intersection of the spans of `a` and `b` (vectors of at most 64 bits).
pub(crate) fn span_intersection(a: &[u64], b: &[u64]) -> Vec<u64> {
    // x in span(a) ∩ span(b) iff x = A·u = B·v, i.e. (u, v) in the nullspace of [A | B].
    let cols: Vec<u64> = a.iter().chain(b).copied().collect();
    if cols.len() > 64 {
        return Vec::new();
    }
    let ech = crate::layout::gf2::ColumnEchelon::new(&cols);
    let mut out: Vec<u64> = Vec::new();
    for n in ech.nullspace() {
        let x = xor_cols(a, n);
        if x != 0 {
            out.push(x);
        }
    }
    // Keep an independent subset.
    let mut basis: Vec<u64> = Vec::new();
    for x in out {
        let mut t = basis.clone();
        t.push(x);
        if crate::layout::gf2::rank(&t) as usize == t.len() {
            basis.push(x);
        }
    }
    basis
}

/// An XOR basis grown one vector at a time (keyed by highest set bit), for independence tests without
/// allocation.
pub(crate) struct XorBasis {
    by_high: [u64; 64],
    present: u64,
}

impl XorBasis {
    /// The empty basis.
    pub fn new() -> XorBasis {
        XorBasis {
            by_high: [0; 64],
            present: 0,
        }
    }

    /// Adds `x` if it is independent of the basis; returns whether it was.
    pub fn insert(&mut self, mut x: u64) -> bool {
        while x != 0 {
            let h = 63 - x.leading_zeros() as usize;
            if self.present >> h & 1 == 0 {
                self.by_high[h] = x;
                self.present |= 1 << h;
                return true;
            }
            x ^= self.by_high[h];
        }
        false
    }
}

/// Dimension of span(a) ∩ span(b).
pub(crate) fn intersection_dim(a: &[u64], b: &[u64]) -> usize {
    let (mut ab, mut aa, mut bb) = (XorBasis::new(), XorBasis::new(), XorBasis::new());
    let mut ra = 0;
    let mut rb = 0;
    let mut rab = 0;
    for &x in a {
        ra += aa.insert(x) as usize;
        rab += ab.insert(x) as usize;
    }
    for &x in b {
        rb += bb.insert(x) as usize;
        rab += ab.insert(x) as usize;
    }
    ra + rb - rab
}

/// Rank of a set of vectors.
pub(crate) fn rank(v: &[u64]) -> u32 {
    crate::layout::gf2::rank(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intersection_of_spans() {
        let a = [0b001, 0b010];
        let b = [0b011, 0b100];
        let i = span_intersection(&a, &b);
        assert_eq!(i, vec![0b011]);
        assert!(span_intersection(&[1], &[2]).is_empty());
    }
}
