//! CuTe's layout algebra — complement, logical divide, logical product — on linear layouts in CuTe's form
//! (input dims are modes, in colexicographic order; the output dims flattened are the offset), built from
//! the linear-layout operations: `concat_ins` is CuTe's `make_layout` of modes and `compose` is CuTe's
//! `composition` with the arguments in Triton's order. For every strided CuTe layout with power-of-two
//! strides these give CuTe's own results (the tests compare them with PyCuTe's); for swizzled layouts they
//! extend CuTe's definitions linearly.

use super::CuteError;
use crate::layout::gf2::XorBasis;
use crate::layout::{Dim, LayoutError, LinearLayout, MAX_DIM_BITS};

/// The name under which one layout's offsets are another's coordinates while composing.
const INDEX: &str = "index";

/// `2^bits`, or the error naming `what` when it does not fit one dim.
fn size_of(what: &str, bits: u32) -> Result<u64, CuteError> {
    if bits > MAX_DIM_BITS {
        return Err(CuteError::TooManyBits {
            what: what.into(),
            bits: bits as u64,
            limit: MAX_DIM_BITS,
        });
    }
    Ok(1u64 << bits)
}

/// The layout with its input dims merged into one called `name` (colexicographic, as CuTe flattens).
fn one_input(layout: &LinearLayout, name: &str) -> Result<LinearLayout, CuteError> {
    let size = size_of("the flattened domain", layout.total_in_bits())?;
    Ok(layout.reshape_ins(&[(name, size)])?)
}

/// The layout with its output dims merged into one called `name` of size `size` (at least the flattened
/// output).
fn one_output(layout: &LinearLayout, name: Dim, size: u64) -> Result<LinearLayout, CuteError> {
    let own = size_of("the flattened offset", layout.total_out_bits())?;
    let merged = layout.reshape_outs(&[(name, own)])?;
    if size < own {
        return Err(LayoutError::SizeMismatch(format!(
            "offsets of size {own} do not fit a codomain of size {size}"
        ))
        .into());
    }
    Ok(merged.resize_out_dim(&name, size)?)
}

/// CuTe's `composition(a, b)`, `a ∘ b`: `b` maps its coordinates into `a`'s flattened domain (its offsets
/// no larger than `size(a)`). The result keeps `b`'s input dims and has `a`'s output dims.
pub fn composition(a: &LinearLayout, b: &LinearLayout) -> Result<LinearLayout, CuteError> {
    let a_size = size_of("the outer layout's domain", a.total_in_bits())?;
    Ok(one_output(b, Dim::new(INDEX), a_size)?.compose(&one_input(a, INDEX)?)?)
}

/// CuTe's `complement(layout, size)`: a layout (input dim `dim0`) whose offsets together with `layout`'s
/// cover `0..size` exactly once: the unit offsets `2ᵏ < size` outside the span of `layout`'s, smallest
/// first. The output dim is `layout`'s first (`offset` when it has none), of size `size`.
pub fn complement(layout: &LinearLayout, size: u64) -> Result<LinearLayout, CuteError> {
    if size == 0 || !size.is_power_of_two() {
        return Err(LayoutError::NotPowerOfTwo {
            what: "the complement's codomain".into(),
            size,
        }
        .into());
    }
    let name = layout
        .out_dim_names()
        .next()
        .copied()
        .unwrap_or(Dim::OFFSET);
    let flat = one_output(layout, name, size)?;
    let mut span = XorBasis::new();
    for &v in flat.columns() {
        span.insert(v);
    }
    let bases: Vec<Vec<u64>> = (0..size.trailing_zeros())
        .map(|k| 1u64 << k)
        .filter(|&v| span.insert(v).is_some())
        .map(|v| vec![v])
        .collect();
    Ok(LinearLayout::from_bases(
        [(Dim::dim(0), bases)],
        [(name, size)],
        false,
    )?)
}

/// CuTe's `logical_divide(a, b)`: `a ∘ (b, complement(b, size(a)))`. `b` maps into `a`'s flattened
/// domain. The result has input dims `dim0` (`b`'s domain, flattened: the tile) and `dim1` (the rest) and
/// `a`'s output dims.
pub fn logical_divide(a: &LinearLayout, b: &LinearLayout) -> Result<LinearLayout, CuteError> {
    let a_size = size_of("the dividend's domain", a.total_in_bits())?;
    let tile = one_input(&one_output(b, Dim::new(INDEX), a_size)?, "dim0")?;
    let rest = complement(&tile, a_size)?.rename_in_dim("dim0", "dim1")?;
    composition(a, &tile.concat_ins(&rest)?)
}

/// CuTe's `logical_product(a, b)`: `(a, complement(a, size(a)·cosize(b)) ∘ b)`, `b` repeating `a` over
/// the offsets `a` leaves free. CuTe's complement lets its last mode run past `size(a)·cosize(b)` when
/// `a`'s offsets do; so does this one (the codomain grows to hold `a`'s offsets and enough free ones for
/// `b`). The result has input dims `dim0` (`a`'s domain, flattened) and `dim1` (`b`'s) and one output dim,
/// named after `a`'s first.
pub fn logical_product(a: &LinearLayout, b: &LinearLayout) -> Result<LinearLayout, CuteError> {
    let bits = (a.total_in_bits() + b.total_out_bits()).max(a.total_out_bits());
    let size = size_of("the product's codomain", bits)?;
    let name = a.out_dim_names().next().copied().unwrap_or(Dim::OFFSET);
    let rest = one_input(&complement(a, size)?, INDEX)?;
    let b_size = size_of("the repeater's offsets", b.total_out_bits())?;
    let repeats = one_input(&one_output(b, Dim::new(INDEX), b_size)?, "dim1")?.compose(&rest)?;
    let tile = one_input(&one_output(a, name, size)?, "dim0")?;
    Ok(tile.concat_ins(&repeats)?)
}
