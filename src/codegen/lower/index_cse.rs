//! What the builder knows of the bits of its integer values, so that it emits index arithmetic
//! in the form LLVM's instcombine would otherwise have to derive.
//!
//! A register's coordinate is a thread part (a few bits of the thread id) with a constant
//! register part in bits the thread part never sets, and block offsets (`pid * 64`) have their
//! low bits clear. Adding such values never carries, so the builder emits `or disjoint`, and it
//! keeps the constant outermost (`(t | pid·64) | 8` rather than `(t | 8) + pid·64`, and
//! `(t << 6) | 512` rather than `(t | 8) << 6`): one shared base per tile, and a constant that
//! code generation folds into the address (the `sext` of a disjoint `or` splits: `[%rd+2048]`).
//! With that, loop-free NVIDIA kernels need no middle-end pipeline at all (`lower/output.rs`).

use inkwell::builder::Builder;
use inkwell::values::{AsValueRef, IntValue};

use crate::codegen::error::Result;
use crate::codegen::lower::emitter::{has_uses, set_disjoint};

/// What is known of one integer value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bits<'ctx> {
    /// The bits that may be set; the others are known to be zero.
    pub maybe: u64,
    /// The value is `base | offset` (disjoint bits, `offset` a non-zero constant): kept so that
    /// arithmetic on it can leave the constant outermost.
    pub split: Option<(IntValue<'ctx>, u64)>,
}

/// An instruction the builder shares between registers: the operation and its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    /// A disjoint `or`.
    Or,
    /// A left shift.
    Shl,
}

/// A map keyed by LLVM value identities (addresses), hashed with `rustc-hash`'s `FxHasher`
/// rather than SipHash: the builder looks values up for every register it emits.
pub(crate) type ValueMap<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;

/// What the builder knows of its integer values, and the index instructions it already built.
#[derive(Debug, Default)]
pub(crate) struct IndexCse<'ctx> {
    /// What is known of integer values' bits, by LLVM value.
    known: ValueMap<usize, Bits<'ctx>>,
    /// Index instructions already built, by operation and operands.
    index_cse: ValueMap<(Op, usize, usize), IntValue<'ctx>>,
}

/// The mask of an integer type's bits.
fn width_mask(v: IntValue<'_>) -> u64 {
    match v.get_type().get_bit_width() {
        w if w >= 64 => u64::MAX,
        w => (1u64 << w) - 1,
    }
}

/// The identity of an LLVM value, as a map key.
fn key(v: IntValue<'_>) -> usize {
    v.as_value_ref() as usize
}

impl<'ctx> IndexCse<'ctx> {
    /// What is known of `v`: a constant's bits, what was recorded when it was built, or nothing.
    pub(crate) fn bits(&self, v: IntValue<'ctx>) -> Bits<'ctx> {
        if let Some(c) = v.get_zero_extended_constant() {
            return Bits {
                maybe: c & width_mask(v),
                split: None,
            };
        }
        self.known.get(&key(v)).copied().unwrap_or(Bits {
            maybe: width_mask(v),
            split: None,
        })
    }

    /// Whether `v`'s sign bit is known to be clear.
    pub(crate) fn non_negative(&self, v: IntValue<'ctx>) -> bool {
        let sign = 1u64 << (v.get_type().get_bit_width().clamp(1, 64) - 1);
        self.bits(v).maybe & sign == 0
    }

    /// Records that `v` may set only the bits of `maybe` (and how it splits).
    pub(crate) fn note_bits(
        &mut self,
        v: IntValue<'ctx>,
        maybe: u64,
        split: Option<(IntValue<'ctx>, u64)>,
    ) {
        let maybe = maybe & width_mask(v);
        if maybe != width_mask(v) || split.is_some() {
            self.known.insert(key(v), Bits { maybe, split });
        }
    }

    /// `a op b`, shared with an earlier identical instruction of the current block (registers of
    /// a tile share their base: one instruction, not one per register).
    fn reuse(
        &mut self,
        ir: &Builder<'ctx>,
        op: Op,
        a: IntValue<'ctx>,
        b: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let (ka, kb) = (key(a), key(b));
        let id = match op {
            Op::Or => (op, ka.min(kb), ka.max(kb)),
            Op::Shl => (op, ka, kb),
        };
        let here = ir.get_insert_block();
        if let Some(&v) = self.index_cse.get(&id) {
            if v.as_instruction().and_then(|i| i.get_parent()) == here {
                return Ok(v);
            }
        }
        let (fa, fb) = (self.bits(a), self.bits(b));
        let v = match op {
            Op::Or => {
                let v = ir.build_or(a, b, "")?;
                if let Some(i) = v.as_instruction() {
                    set_disjoint(i);
                }
                self.note_bits(v, fa.maybe | fb.maybe, None);
                v
            }
            Op::Shl => {
                let v = ir.build_left_shift(a, b, "")?;
                let s = b.get_zero_extended_constant().unwrap_or(64);
                let maybe = if s < 64 { fa.maybe << s } else { u64::MAX };
                self.note_bits(v, maybe, None);
                v
            }
        };
        self.index_cse.insert(id, v);
        Ok(v)
    }

    /// `base | c` for a constant `c` with no bits in common with `base`, remembered as a split.
    fn with_offset(
        &mut self,
        ir: &Builder<'ctx>,
        base: IntValue<'ctx>,
        c: u64,
    ) -> Result<IntValue<'ctx>> {
        if c == 0 {
            return Ok(base);
        }
        let konst = base.get_type().const_int(c, false);
        let v = self.reuse(ir, Op::Or, base, konst)?;
        let maybe = self.bits(base).maybe | c;
        self.note_bits(v, maybe, Some((base, c)));
        Ok(v)
    }

    /// `a + b` (wrapping). Operands with no common bits become a disjoint `or`, with a constant
    /// offset of either side moved outermost.
    pub(crate) fn int_add(
        &mut self,
        ir: &Builder<'ctx>,
        a: IntValue<'ctx>,
        b: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let (fa, fb) = (self.bits(a), self.bits(b));
        if fa.maybe & fb.maybe != 0 || (a.is_const() && b.is_const()) {
            // A carry sets at most one bit above the operands' highest.
            let v = ir.build_int_add(a, b, "")?;
            let high = 64 - (fa.maybe | fb.maybe).leading_zeros();
            self.note_bits(v, u64::MAX >> (63 - high.min(63)), None);
            return Ok(v);
        }
        // Each side as (non-constant part, constant part).
        let part =
            |v: IntValue<'ctx>, f: Bits<'ctx>| match (v.get_zero_extended_constant(), f.split) {
                (Some(c), _) => (None, c),
                (None, Some((base, c))) => (Some(base), c),
                (None, None) => (Some(v), 0),
            };
        let ((ba, ca), (bb, cb)) = (part(a, fa), part(b, fb));
        let base = match (ba, bb) {
            (Some(x), Some(y)) => self.reuse(ir, Op::Or, x, y)?,
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => return Ok(ir.build_int_add(a, b, "")?),
        };
        self.with_offset(ir, base, ca | cb)
    }

    /// `a * b` (wrapping): a shift for a power-of-two constant, which moves a split's constant
    /// outermost (`(t | c) << s = (t << s) | (c << s)`) unless `a` is used already (then `a`
    /// is computed anyway, and shifting it is one instruction where the split takes two: what
    /// instcombine decides by its one-use rule); the product's known low zero bits are recorded
    /// either way.
    pub(crate) fn int_mul(
        &mut self,
        ir: &Builder<'ctx>,
        a: IntValue<'ctx>,
        b: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let (a, b) = if a.is_const() { (b, a) } else { (a, b) };
        if let (false, Some(c)) = (a.is_const(), b.get_zero_extended_constant()) {
            if c.is_power_of_two() {
                let s = b.get_type().const_int(c.trailing_zeros() as u64, false);
                return match self.bits(a).split {
                    Some((base, off)) if !has_uses(a) => {
                        let shifted = self.reuse(ir, Op::Shl, base, s)?;
                        let off = (off << c.trailing_zeros()) & width_mask(a);
                        self.with_offset(ir, shifted, off)
                    }
                    _ => self.reuse(ir, Op::Shl, a, s),
                };
            }
        }
        let low = self.bits(a).maybe.trailing_zeros() + self.bits(b).maybe.trailing_zeros();
        let v = ir.build_int_mul(a, b, "")?;
        if low > 0 {
            self.note_bits(v, u64::MAX.checked_shl(low).unwrap_or(0), None);
        }
        Ok(v)
    }
}
