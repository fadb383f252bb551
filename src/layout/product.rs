//! The product `inner * outer` (Triton's `operator*`): a direct sum that puts `outer` "above" `inner`.
//!
//! In and out dims are merged keeping both orders (the *supremum* of the two name lists). On a shared input
//! dim, `outer`'s bases come after `inner`'s; on a shared output dim, `outer`'s coordinates are shifted past
//! `inner`'s size. The product is associative, not commutative, and [`LinearLayout::empty`] is its unit.

use std::ops::Mul;

use smallvec::SmallVec;

use super::error::{LayoutError, Result};
use super::linear_layout::{check_total, DimSpec};
use super::{Dim, LinearLayout};

/// Merges two name lists into one that keeps the relative order of each, preferring `x`'s names where both
/// orders allow either. Errors when the two orders conflict (`a` before `b` in one, after in the other).
pub fn supremum(x: &[Dim], y: &[Dim]) -> Result<Vec<Dim>> {
    let mut out: Vec<Dim> = Vec::with_capacity(x.len() + y.len());
    let (mut i, mut j) = (0, 0);
    loop {
        while i < x.len() && out.contains(&x[i]) {
            i += 1;
        }
        while j < y.len() && out.contains(&y[j]) {
            j += 1;
        }
        match (x.get(i), y.get(j)) {
            (None, None) => return Ok(out),
            (Some(a), _) if !y[j..].contains(a) => {
                out.push(a.clone());
                i += 1;
            }
            (_, Some(b)) if !x[i..].contains(b) => {
                out.push(b.clone());
                j += 1;
            }
            (Some(a), Some(b)) if a == b => {
                out.push(a.clone());
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) => {
                return Err(LayoutError::DimMismatch(format!(
                    "dim orders conflict: `{a}` comes before `{b}` in one layout and after it in the other"
                )))
            }
            // One list is exhausted and the other's head is still pending in it: impossible, since every
            // name of an exhausted list is already in `out`.
            _ => return Err(LayoutError::Invalid("supremum: inconsistent dim lists".into())),
        }
    }
}

impl LinearLayout {
    /// The product `self * outer` (also spelled `&a * &b`, which returns the same `Result`). Fails only when
    /// the two layouts order their common dims differently or the result exceeds 64 bits.
    pub fn product(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let inner = self;
        let in_names = supremum(
            &inner.in_dim_names().cloned().collect::<Vec<_>>(),
            &outer.in_dim_names().cloned().collect::<Vec<_>>(),
        )?;
        let out_names = supremum(
            &inner.out_dim_names().cloned().collect::<Vec<_>>(),
            &outer.out_dim_names().cloned().collect::<Vec<_>>(),
        )?;
        let log2_of = |l: &LinearLayout, name: &Dim, outs: bool| -> u32 {
            let specs = if outs { &l.outs } else { &l.ins };
            specs.iter().find(|d| d.name == *name).map_or(0, |d| d.log2)
        };
        let outs: SmallVec<[DimSpec; 4]> = out_names
            .iter()
            .map(|n| DimSpec {
                name: n.clone(),
                log2: log2_of(inner, n, true) + log2_of(outer, n, true),
            })
            .collect();
        let ins: SmallVec<[DimSpec; 4]> = in_names
            .iter()
            .map(|n| DimSpec {
                name: n.clone(),
                log2: log2_of(inner, n, false) + log2_of(outer, n, false),
            })
            .collect();
        check_total(&ins, &outs)?;

        // Where each factor's output bits land in the product's packed columns.
        let place = |l: &LinearLayout, shifted: bool| -> SmallVec<[u32; 16]> {
            let mut dest: SmallVec<[u32; 16]> = SmallVec::new();
            for o in &l.outs {
                let j = outs.iter().position(|d| d.name == o.name).unwrap_or(0);
                let base: u32 = outs[..j].iter().map(|d| d.log2).sum();
                let extra = if shifted {
                    log2_of(inner, &o.name, true)
                } else {
                    0
                };
                dest.extend((0..o.log2).map(|k| base + extra + k));
            }
            dest
        };
        let move_bits = |col: u64, dest: &[u32]| -> u64 {
            let mut m = col;
            let mut out = 0u64;
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                out |= 1u64 << dest[b];
                m &= m - 1;
            }
            out
        };
        let inner_dest = place(inner, false);
        let outer_dest = place(outer, true);
        let mut cols: SmallVec<[u64; 16]> =
            SmallVec::with_capacity(ins.iter().map(|d| d.log2 as usize).sum());
        for d in &ins {
            if let Ok(i) = inner.in_index(&d.name) {
                let off = inner.in_offset(i);
                for &c in &inner.cols[off..off + inner.ins[i].log2 as usize] {
                    cols.push(move_bits(c, &inner_dest));
                }
            }
            if let Ok(i) = outer.in_index(&d.name) {
                let off = outer.in_offset(i);
                for &c in &outer.cols[off..off + outer.ins[i].log2 as usize] {
                    cols.push(move_bits(c, &outer_dest));
                }
            }
        }
        Ok(LinearLayout::from_parts(ins, outs, cols))
    }
}

impl Mul<&LinearLayout> for &LinearLayout {
    type Output = Result<LinearLayout>;
    fn mul(self, outer: &LinearLayout) -> Result<LinearLayout> {
        self.product(outer)
    }
}

impl Mul<LinearLayout> for LinearLayout {
    type Output = Result<LinearLayout>;
    fn mul(self, outer: LinearLayout) -> Result<LinearLayout> {
        self.product(&outer)
    }
}
