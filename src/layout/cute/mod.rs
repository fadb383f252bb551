//! CuTe interop: CuTe's `shape:stride` layouts (and `Swizzle<B,M,S>` on top of them) as linear layouts over
//! GF(2), and back.
//!
//! A CuTe layout maps a coordinate to an integer index, `Σ cᵢ·dᵢ` over its (flattened) modes. It is a linear
//! layout exactly when every extent is a power of two and no two of the values `2ᵏ·dᵢ` (input bit `k` of mode
//! `i`) share a bit: then the sum never carries and equals the XOR. CuTe's swizzles
//! (`x ↦ x ⊕ ((x & yyy) >> S)`) are always linear, so `Sw<B,M,S> o shape:stride` is linear whenever its
//! layout is. [`from_cute`]`(shape, stride, swizzle)` builds the linear layout (one input dim `dim{i}` per top-level mode, in CuTe's
//! colexicographic order, and the output dim `offset`), or names the obstacle; [`to_cute`] writes any linear
//! layout whose bases do not overlap as `shape:stride`, and otherwise finds the swizzle that untangles it,
//! if one does.
//!
//! The direction is CuTe's: coordinate → offset. A Triton shared layout maps `offset → (dim0, dim1, …)`, so
//! `from_cute(..)?.invert()` is the shared layout of a bijective CuTe layout.
//!
//! ```
//! use weft::layout::cute::{from_cute, to_cute, SwizzledLayout};
//!
//! // An 8×64 tile of f16 with the 128-byte swizzle: the row (offset bits 6–8) is XORed into the 16-byte
//! // chunk (offset bits 3–5).
//! let sw: SwizzledLayout = "Sw<3,3,3> o (8,64):(64,1)".parse()?;
//! let ll = sw.to_linear_layout()?;
//! // Row 1, column 8 is offset 72 before the swizzle; row bit 6 flips bit 3: 72 ^ 8 = 64.
//! assert_eq!(ll.apply(&[("dim0", 1), ("dim1", 8)])?[0].1, 64);
//! // And back: the same function, written by CuTe's rules.
//! assert_eq!(to_cute(&ll)?.to_string(), "Sw<3,3,3> o (8,64):(64,1)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod algebra;
mod text;

pub use algebra::{complement, composition, logical_divide, logical_product};

use super::{Dim, LayoutError, LinearLayout, MAX_DIM_BITS};

/// A CuTe integer tuple: an integer, or a tuple of integer tuples (`(2,(4,8))`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntTuple {
    /// One integer.
    Int(i64),
    /// A tuple of nested tuples.
    Tuple(Vec<IntTuple>),
}

/// A CuTe layout `shape:stride` (shape and stride congruent: the same nesting).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CuteLayout {
    /// Extents of the modes.
    pub shape: IntTuple,
    /// Strides of the modes.
    pub stride: IntTuple,
}

/// CuTe's `Swizzle<B,M,S>`: `x ↦ x ⊕ ((x & yyy) >> S)` where `yyy` is `B` bits at `M + max(S, 0)` (a
/// negative `S` shifts left). Linear over GF(2) and its own inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

/// A CuTe layout with an optional swizzle applied to its offsets (CuTe's `ComposedLayout` with a zero
/// offset): `Sw<B,M,S> o shape:stride`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledLayout {
    /// The strided layout.
    pub layout: CuteLayout,
    /// The swizzle applied to its offsets, if any.
    pub swizzle: Option<Swizzle>,
}

/// Why a CuTe layout is not a linear layout, or a linear layout has no CuTe form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CuteError {
    /// Shape and stride do not have the same nesting.
    #[error("shape and stride are not congruent at mode {mode}: {detail}")]
    NotCongruent {
        /// The mode, as a path of indices (`(1,0)`).
        mode: String,
        /// What differs.
        detail: String,
    },
    /// An extent that is not a power of two: its coordinates are not a whole number of bits.
    #[error("extent {extent} of mode {mode} is not a power of two")]
    NotPowerOfTwo {
        /// The mode.
        mode: String,
        /// The extent.
        extent: i64,
    },
    /// A negative stride: offsets would leave the naturals, which GF(2) vectors cannot.
    #[error("stride {stride} of mode {mode} is negative")]
    NegativeStride {
        /// The mode.
        mode: String,
        /// The stride.
        stride: i64,
    },
    /// Two input bits whose offsets share a bit: CuTe adds them with a carry where a linear layout XORs.
    #[error("{first} and {second} both set offset bit {bit}: CuTe adds them with a carry, so the layout is not linear over GF(2)")]
    Carry {
        /// The first input bit and its offset.
        first: String,
        /// The second.
        second: String,
        /// The shared offset bit.
        bit: u32,
    },
    /// More bits than a linear layout holds (64 input bits, 63 per dim).
    #[error("{what} needs {bits} bits; at most {limit} are supported")]
    TooManyBits {
        /// What is too large.
        what: String,
        /// Bits needed.
        bits: u64,
        /// The limit.
        limit: u32,
    },
    /// A swizzle CuTe rejects.
    #[error("invalid swizzle Sw<{bits},{base},{shift}>: {rule}")]
    InvalidSwizzle {
        /// `B`.
        bits: i64,
        /// `M`.
        base: i64,
        /// `S`.
        shift: i64,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// A nonzero offset in a composed layout: the map is affine, not linear.
    #[error("offset {offset} is not zero: the map is affine, not linear")]
    Offset {
        /// The offset.
        offset: i64,
    },
    /// A linear layout with overlapping bases that no single swizzle untangles.
    #[error("no shape:stride form: {first} and {second} both set offset bit {bit}, and no Swizzle<B,M,S> separates the bases")]
    NotStrided {
        /// The first input bit and its offset.
        first: String,
        /// The second.
        second: String,
        /// The shared offset bit.
        bit: u32,
    },
    /// Malformed CuTe text.
    #[error("cute parse error at column {column}: {message}")]
    Parse {
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// A layout operation failed.
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

impl Swizzle {
    /// `Swizzle<bits, base, shift>`, checked as CuTe checks it (`bits, base ≥ 0`, `|shift| ≥ bits`), and
    /// within 63 bits.
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle, CuteError> {
        let bad = |rule| CuteError::InvalidSwizzle {
            bits,
            base,
            shift,
            rule,
        };
        if bits < 0 || base < 0 {
            return Err(bad("B and M must not be negative"));
        }
        if shift.unsigned_abs() < bits.unsigned_abs() {
            return Err(bad("|S| must be at least B, or the masks overlap"));
        }
        if (bits as u64) + (base as u64) + shift.unsigned_abs() > MAX_DIM_BITS as u64 {
            return Err(bad("B + M + |S| must be at most 63"));
        }
        Ok(Swizzle {
            bits: bits as u32,
            base: base as u32,
            shift: shift as i32,
        })
    }

    /// `B`: how many bits are XORed.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// `M`: how many low bits stay fixed.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// `S`: how far the mask moves (right when positive).
    pub fn shift(&self) -> i32 {
        self.shift
    }

    /// The bits read (`yyy`).
    fn source_mask(&self) -> u64 {
        ((1u64 << self.bits) - 1) << (self.base as i64 + (self.shift as i64).max(0))
    }

    /// The swizzled offset of `x`.
    pub fn apply(&self, x: u64) -> u64 {
        let y = x & self.source_mask();
        let moved = if self.shift >= 0 {
            y >> self.shift
        } else {
            y << -self.shift
        };
        x ^ moved
    }
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> IntTuple {
        IntTuple::Int(v)
    }
}

impl<T: Into<IntTuple>> From<Vec<T>> for IntTuple {
    fn from(items: Vec<T>) -> IntTuple {
        IntTuple::Tuple(items.into_iter().map(Into::into).collect())
    }
}

impl CuteLayout {
    /// The linear layout of `swizzle ∘ self` (see [`from_cute`]).
    pub fn to_linear_layout(&self, swizzle: Option<&Swizzle>) -> Result<LinearLayout, CuteError> {
        from_cute(&self.shape, &self.stride, swizzle)
    }
}

impl SwizzledLayout {
    /// The linear layout (see [`from_cute`]).
    pub fn to_linear_layout(&self) -> Result<LinearLayout, CuteError> {
        self.layout.to_linear_layout(self.swizzle.as_ref())
    }
}

/// One input bit of a CuTe layout: which mode, which bit, and its offset.
struct InputBit {
    mode: String,
    bit: u32,
    offset: u64,
}

impl std::fmt::Display for InputBit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bit {} of mode {} (offset {})",
            self.bit, self.mode, self.offset
        )
    }
}

fn path(p: &[usize]) -> String {
    match p {
        [i] => i.to_string(),
        _ => format!(
            "({})",
            p.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// The leaves `(path, extent, stride)` of a congruent shape and stride, in colexicographic order.
fn leaves(
    shape: &IntTuple,
    stride: &IntTuple,
    at: &mut Vec<usize>,
    out: &mut Vec<(String, i64, i64)>,
) -> Result<(), CuteError> {
    match (shape, stride) {
        (IntTuple::Int(e), IntTuple::Int(d)) => out.push((path(at), *e, *d)),
        (IntTuple::Tuple(es), IntTuple::Tuple(ds)) if es.len() == ds.len() => {
            for (i, (e, d)) in es.iter().zip(ds).enumerate() {
                at.push(i);
                leaves(e, d, at, out)?;
                at.pop();
            }
        }
        _ => {
            return Err(CuteError::NotCongruent {
                mode: path(at),
                detail: format!("shape {shape} against stride {stride}"),
            })
        }
    }
    Ok(())
}

/// The input bits of one top-level mode.
fn mode_bits(shape: &IntTuple, stride: &IntTuple, top: usize) -> Result<Vec<InputBit>, CuteError> {
    let mut ls = Vec::new();
    leaves(shape, stride, &mut vec![top], &mut ls)?;
    let mut bits = Vec::new();
    for (mode, extent, stride) in ls {
        if extent <= 0 || !(extent as u64).is_power_of_two() {
            return Err(CuteError::NotPowerOfTwo { mode, extent });
        }
        if stride < 0 {
            return Err(CuteError::NegativeStride { mode, stride });
        }
        let log2 = extent.trailing_zeros();
        let stride = stride as u64;
        let top_bit = 64 - stride.leading_zeros() + log2.saturating_sub(1);
        if stride != 0 && log2 > 0 && top_bit > MAX_DIM_BITS {
            return Err(CuteError::TooManyBits {
                what: format!("the offsets of mode {mode}"),
                bits: top_bit as u64,
                limit: MAX_DIM_BITS,
            });
        }
        bits.extend((0..log2).map(|bit| InputBit {
            mode: mode.clone(),
            bit,
            offset: stride << bit,
        }));
    }
    Ok(bits)
}

/// The first pair of offsets that share a bit, with that bit.
fn first_overlap(offsets: &[u64]) -> Option<(usize, usize, u32)> {
    let mut seen = 0u64;
    for (j, &v) in offsets.iter().enumerate() {
        if v & seen != 0 {
            let i = offsets[..j].iter().position(|&u| u & v != 0)?;
            return Some((i, j, (offsets[i] & v).trailing_zeros()));
        }
        seen |= v;
    }
    None
}

/// The linear layout of `swizzle ∘ shape:stride`: input dim `dim{i}` per top-level mode (one, `dim0`, when
/// the shape is an integer), each mode's coordinate in CuTe's colexicographic order, and output dim `offset`
/// just large enough for every offset.
pub fn from_cute(
    shape: &IntTuple,
    stride: &IntTuple,
    swizzle: Option<&Swizzle>,
) -> Result<LinearLayout, CuteError> {
    let modes: Vec<(&IntTuple, &IntTuple)> = match (shape, stride) {
        (IntTuple::Tuple(es), IntTuple::Tuple(ds)) if es.len() == ds.len() => {
            es.iter().zip(ds).collect()
        }
        (IntTuple::Int(_), IntTuple::Int(_)) => vec![(shape, stride)],
        (s, d) => {
            return Err(CuteError::NotCongruent {
                mode: "()".into(),
                detail: format!("shape {s} against stride {d}"),
            })
        }
    };
    let mut per_mode = Vec::with_capacity(modes.len());
    let mut all: Vec<InputBit> = Vec::new();
    for (i, (e, d)) in modes.into_iter().enumerate() {
        let bits = mode_bits(e, d, i)?;
        per_mode.push(bits.len());
        all.extend(bits);
        if all.len() > 64 {
            return Err(CuteError::TooManyBits {
                what: "the layout's domain".into(),
                bits: all.len() as u64,
                limit: 64,
            });
        }
    }
    let offsets: Vec<u64> = all.iter().map(|b| b.offset).collect();
    if let Some((i, j, bit)) = first_overlap(&offsets) {
        return Err(CuteError::Carry {
            first: all[i].to_string(),
            second: all[j].to_string(),
            bit,
        });
    }
    let images: Vec<u64> = offsets
        .iter()
        .map(|&v| swizzle.map_or(v, |s| s.apply(v)))
        .collect();
    let span = images.iter().fold(0u64, |a, &v| a | v);
    let out_bits = 64 - span.leading_zeros();
    if out_bits > MAX_DIM_BITS {
        return Err(CuteError::TooManyBits {
            what: "the swizzled offsets".into(),
            bits: out_bits as u64,
            limit: MAX_DIM_BITS,
        });
    }
    let mut rest = images.as_slice();
    let bases = per_mode.iter().enumerate().map(|(i, &n)| {
        let (mine, next) = rest.split_at(n);
        rest = next;
        (
            Dim::dim(i),
            mine.iter().map(|&v| vec![v]).collect::<Vec<_>>(),
        )
    });
    let bases: Vec<_> = bases.collect();
    Ok(LinearLayout::from_bases(
        bases,
        [(Dim::OFFSET, 1u64 << out_bits)],
        false,
    )?)
}

/// Every swizzle whose masks fit in `n` bits, fewest bits first (then lowest base, right shifts first).
fn swizzles_within(n: u32) -> impl Iterator<Item = Swizzle> {
    (1..=n as i64).flat_map(move |bits| {
        (0..n as i64).flat_map(move |base| {
            let right = bits..=n as i64;
            let left = (bits..=n as i64).map(|s| -s);
            right
                .chain(left)
                .filter(move |s| bits + base + s.abs() <= n as i64)
                .filter_map(move |shift| Swizzle::new(bits, base, shift).ok())
        })
    })
}

/// One top-level mode from the offsets of its input bits: runs of doubling offsets (and runs of zeros)
/// become one leaf each.
fn mode_of(offsets: &[u64]) -> (IntTuple, IntTuple) {
    let mut leaves: Vec<(i64, i64)> = Vec::new();
    let mut prev: Option<u64> = None;
    for &v in offsets {
        match (leaves.last_mut(), prev) {
            // Extents stay within i64: a 63-bit run becomes two leaves.
            (Some(last), Some(p))
                if last.0 < 1 << 62
                    && ((p == 0 && v == 0) || (p != 0 && p.checked_mul(2) == Some(v))) =>
            {
                last.0 *= 2
            }
            _ => leaves.push((2, v as i64)),
        }
        prev = Some(v);
    }
    match leaves.as_slice() {
        [] => (IntTuple::Int(1), IntTuple::Int(0)),
        [(e, d)] => (IntTuple::Int(*e), IntTuple::Int(*d)),
        _ => (
            IntTuple::Tuple(leaves.iter().map(|l| IntTuple::Int(l.0)).collect()),
            IntTuple::Tuple(leaves.iter().map(|l| IntTuple::Int(l.1)).collect()),
        ),
    }
}

/// The CuTe form of `layout`: one top-level mode per input dim (the output dims flattened into one offset,
/// the first least significant), with the swizzle that makes the bases non-overlapping when they overlap.
/// Fails with [`CuteError::NotStrided`] when no swizzle does.
pub fn to_cute(layout: &LinearLayout) -> Result<SwizzledLayout, CuteError> {
    let out_bits = layout.total_out_bits();
    if out_bits > MAX_DIM_BITS {
        return Err(CuteError::TooManyBits {
            what: "the flattened output".into(),
            bits: out_bits as u64,
            limit: MAX_DIM_BITS,
        });
    }
    let images = layout.columns();
    let (plain, swizzle) = match first_overlap(images) {
        None => (images.to_vec(), None),
        Some((i, j, bit)) => {
            let found = swizzles_within(out_bits).find_map(|s| {
                let plain: Vec<u64> = images.iter().map(|&v| s.apply(v)).collect();
                first_overlap(&plain).is_none().then_some((plain, Some(s)))
            });
            found.ok_or_else(|| {
                let name = |k: usize| input_bit_name(layout, k, images[k]);
                CuteError::NotStrided {
                    first: name(i),
                    second: name(j),
                    bit,
                }
            })?
        }
    };
    let mut modes = Vec::new();
    let mut at = 0usize;
    for (_, size) in layout.in_dims() {
        let n = size.trailing_zeros() as usize;
        modes.push(mode_of(&plain[at..at + n]));
        at += n;
    }
    let layout = match modes.len() {
        1 => {
            let (shape, stride) = modes.pop().unwrap_or((IntTuple::Int(1), IntTuple::Int(0)));
            CuteLayout { shape, stride }
        }
        0 => CuteLayout {
            shape: IntTuple::Int(1),
            stride: IntTuple::Int(0),
        },
        _ => {
            let (shapes, strides) = modes.into_iter().unzip();
            CuteLayout {
                shape: IntTuple::Tuple(shapes),
                stride: IntTuple::Tuple(strides),
            }
        }
    };
    Ok(SwizzledLayout { layout, swizzle })
}

/// `bit b of in dim `name` (offset v)` for the k-th input bit of `layout`.
fn input_bit_name(layout: &LinearLayout, k: usize, offset: u64) -> String {
    let mut at = 0usize;
    for (name, size) in layout.in_dims() {
        let n = size.trailing_zeros() as usize;
        if k < at + n {
            return format!("bit {} of in dim `{name}` (offset {offset})", k - at);
        }
        at += n;
    }
    format!("input bit {k} (offset {offset})")
}
