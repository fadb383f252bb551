//! [`ColumnAction`]: a permutation (possibly dropping some) of the bases of one in dim, usually `register`.
//!
//! Reordering a layout's register bases changes nothing about where data lives, only the order in which a
//! thread's registers are numbered; applying the same action to the list of register values keeps the two in
//! step. Codegen uses this to make a layout divisible by an instruction tile ([`reg_perm_for_divide`]) or to drop
//! broadcast registers.

#![forbid(unsafe_code)]

use std::fmt;

use super::error::{LayoutError, Result};
use super::{Dim, LinearLayout};

/// New basis `i` of `in_dim` is old basis `action[i]`; old bases not listed are dropped (Triton's
/// `ColumnAction`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ColumnAction {
    action: Vec<usize>,
    in_dim: Dim,
    in_log2: u32,
}

impl ColumnAction {
    /// An action on an in dim of `2^in_log2` elements. `action` lists distinct old basis indices below
    /// `in_log2`.
    pub fn new(action: Vec<usize>, in_dim: impl Into<Dim>, in_log2: u32) -> Result<ColumnAction> {
        let in_dim = in_dim.into();
        if in_log2 > super::MAX_DIM_BITS {
            return Err(LayoutError::TooManyBits {
                what: format!("column action on `{in_dim}`"),
                bits: in_log2,
                limit: super::MAX_DIM_BITS,
            });
        }
        let mut seen = 0u64;
        for &a in &action {
            if a >= in_log2 as usize || seen & (1 << a) != 0 {
                return Err(LayoutError::Invalid(format!(
                    "column action {}: entries must be distinct and below {in_log2}",
                    crate::layout::error::cut_list(&action)
                )));
            }
            seen |= 1 << a;
        }
        Ok(ColumnAction {
            action,
            in_dim,
            in_log2,
        })
    }

    /// The action that keeps every basis in place.
    pub fn identity(in_dim: impl Into<Dim>, in_log2: u32) -> Result<ColumnAction> {
        let n = in_log2.min(super::MAX_DIM_BITS + 1) as usize; // `new` rejects anything larger
        ColumnAction::new((0..n).collect(), in_dim, in_log2)
    }

    /// Whether every basis stays in place and none is dropped.
    pub fn is_identity(&self) -> bool {
        self.action.len() == self.in_log2 as usize
            && self.action.iter().enumerate().all(|(i, &a)| i == a)
    }

    /// The old basis index of each new basis.
    pub fn action(&self) -> &[usize] {
        &self.action
    }

    /// The in dim acted on.
    pub fn in_dim(&self) -> &Dim {
        &self.in_dim
    }

    /// log2 of the size of the in dim before the action.
    pub fn in_log2(&self) -> u32 {
        self.in_log2
    }

    /// Applies the action to `layout`'s bases of the in dim, whose size must be `2^in_log2`.
    pub fn apply(&self, layout: &LinearLayout) -> Result<LinearLayout> {
        let i = layout.in_index(&self.in_dim)?;
        if layout.ins[i].log2 != self.in_log2 {
            return Err(LayoutError::SizeMismatch(format!(
                "column action on {} bases applied to in dim `{}` with {}",
                self.in_log2, self.in_dim, layout.ins[i].log2
            )));
        }
        let off = layout.in_offset(i);
        let mut l = layout.clone();
        let n = self.in_log2 as usize;
        let new: Vec<u64> = self.action.iter().map(|&a| layout.cols[off + a]).collect();
        l.cols.drain(off..off + n);
        l.cols.insert_many(off, new);
        l.ins[i].log2 = self.action.len() as u32;
        Ok(l)
    }

    /// Reorders a thread's register values the same way: `values` has `2^in_log2` entries (register `r` at
    /// index `r`); the result has one per new register, new register `r` taking the old register whose bits are
    /// `r`'s bits moved by the action.
    pub fn apply_values<T: Clone>(&self, values: &[T]) -> Result<Vec<T>> {
        if self.in_log2 >= usize::BITS || values.len() != 1usize << self.in_log2 {
            return Err(LayoutError::SizeMismatch(format!(
                "column action on {} bases applied to {} values",
                self.in_log2,
                values.len()
            )));
        }
        Ok((0..1usize << self.action.len())
            .map(|r| {
                let src = self
                    .action
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| r >> i & 1 == 1)
                    .fold(0usize, |acc, (_, &a)| acc | 1 << a);
                values[src].clone()
            })
            .collect())
    }

    /// The inverse permutation. Errors if the action drops bases (it has no inverse then).
    pub fn inverse(&self) -> Result<ColumnAction> {
        if self.action.len() != self.in_log2 as usize {
            return Err(LayoutError::NotInvertible {
                reason: format!("column action {self} drops bases"),
            });
        }
        let mut inv = vec![0; self.action.len()];
        for (i, &a) in self.action.iter().enumerate() {
            inv[a] = i;
        }
        ColumnAction::new(inv, self.in_dim, self.in_log2)
    }

    /// The action "`self`, then `other`": `other.apply(self.apply(l)) == self.left_compose(other).apply(l)`.
    /// `other` must act on the same dim, on as many bases as `self` leaves.
    pub fn left_compose(&self, other: &ColumnAction) -> Result<ColumnAction> {
        if other.in_dim != self.in_dim || other.in_log2 as usize != self.action.len() {
            return Err(LayoutError::DimMismatch(format!(
                "left_compose: {other} cannot follow {self}"
            )));
        }
        ColumnAction::new(
            other.action.iter().map(|&o| self.action[o]).collect(),
            self.in_dim,
            self.in_log2,
        )
    }
}

impl fmt::Display for ColumnAction {
    /// Triton's form: `ColumnAction([2, 0, 1], register, 3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ColumnAction([")?;
        for (i, a) in self.action.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{a}")?;
        }
        write!(f, "], {}, {})", self.in_dim, self.in_log2)
    }
}

/// The action on the first in dim of `a` (which must also be `b`'s first in dim, usually `register`) that
/// moves `b`'s bases of that dim to the front (`left`) or the back (`!left`) of `a`'s, so that afterwards `a` may
/// be divisible by `b` on that side (Triton's `regPermForDivide`). Other bases keep their order. Fails with
/// [`LayoutError::NotDivisible`] when some basis of `b` (scaled past the quotient's sizes for `!left`) is not
/// among `a`'s; if any permutation makes `a` divisible, this one does.
pub fn reg_perm_for_divide(a: &LinearLayout, b: &LinearLayout, left: bool) -> Result<ColumnAction> {
    let (Some(ad), Some(bd)) = (a.ins.first(), b.ins.first()) else {
        return Err(LayoutError::Invalid(
            "reg_perm_for_divide: a layout has no in dims".into(),
        ));
    };
    if ad.name != bd.name {
        return Err(LayoutError::DimMismatch(format!(
            "reg_perm_for_divide: first in dims `{}` and `{}` differ",
            ad.name, bd.name
        )));
    }
    // b's bases of the dim, as coordinates over a's out dims (0 where b lacks one).
    let mut quot_log2 = Vec::with_capacity(a.outs.len());
    for o in &a.outs {
        let bl = b.out_dim_size_log2(&o.name).unwrap_or(0);
        if bl > o.log2 {
            return Err(LayoutError::NotDivisible(format!(
                "out dim `{}` is larger in the divisor",
                o.name
            )));
        }
        quot_log2.push(o.log2 - bl);
    }
    if let Some(o) = b.outs.iter().find(|o| !a.has_out_dim(&o.name)) {
        return Err(LayoutError::NotDivisible(format!(
            "out dim `{}` of the divisor is not in the layout",
            o.name
        )));
    }
    let a_bases = a.bases(&ad.name)?;
    let b_bases = b.bases(&bd.name)?;
    let mut used = vec![false; a_bases.len()];
    let mut picked = Vec::new();
    for (k, bb) in b_bases.iter().enumerate() {
        let want: Vec<u64> = a
            .outs
            .iter()
            .zip(&quot_log2)
            .map(|(o, &q)| {
                let v = b.out_index(&o.name).map_or(0, |j| bb[j]);
                if left {
                    v
                } else {
                    v << q
                }
            })
            .collect();
        let Some(j) = (0..a_bases.len()).find(|&j| !used[j] && a_bases[j] == want) else {
            return Err(LayoutError::NotDivisible(format!(
                "basis {k} of `{}` in the divisor is not a basis of the layout",
                bd.name
            )));
        };
        used[j] = true;
        picked.push(j);
    }
    let rest = (0..a_bases.len()).filter(|&j| !used[j]);
    let action: Vec<usize> = if left {
        picked.iter().copied().chain(rest).collect()
    } else {
        rest.chain(picked.iter().copied()).collect()
    };
    ColumnAction::new(action, ad.name, ad.log2)
}

/// The action dropping the zero bases of the first in dim (Triton's `actionRemoveBroadcastedRegs`).
pub fn action_remove_broadcasted_regs(layout: &LinearLayout) -> Result<ColumnAction> {
    let Some(d) = layout.ins.first() else {
        return Err(LayoutError::Invalid("the layout has no in dims".into()));
    };
    let off = 0;
    let keep = (0..d.log2 as usize)
        .filter(|&k| layout.cols[off + k] != 0)
        .collect();
    ColumnAction::new(keep, d.name, d.log2)
}
