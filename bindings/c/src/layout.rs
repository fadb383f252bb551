//! Layout handles: construction, queries, the algebra, and text forms.

use std::ffi::c_char;

use weft::layout::{Dim, LinearLayout};

use crate::args::{handle, out_ptr, slice, text, write, write_string, MAX_ENTRIES};
use crate::status::{guard, release, Failure, WeftStatus};

/// An immutable linear layout. Every operation makes a new handle; a handle may be read from any number of
/// threads at once. Release it with `weft_layout_free`.
pub struct WeftLayout(pub(crate) LinearLayout);

/// One input dim for `weft_layout_from_bases`: its name and its bases, `num_bases` rows of one coordinate per
/// output dim (row-major: `bases[i * num_out_dims + j]` is basis `i`'s coordinate in output dim `j`).
#[repr(C)]
pub struct WeftInDim {
    /// The dim's name (`"register"`, `"lane"`, …), NUL-terminated UTF-8.
    pub name: *const c_char,
    /// `num_bases × num_out_dims` coordinates.
    pub bases: *const u64,
    /// How many bases (the dim's size is `2^num_bases`).
    pub num_bases: usize,
}

/// One output dim for `weft_layout_from_bases`: its name and size (a power of two).
#[repr(C)]
pub struct WeftOutDim {
    /// The dim's name (`"dim0"`, …), NUL-terminated UTF-8.
    pub name: *const c_char,
    /// Its size.
    pub size: u64,
}

/// Hands a layout to the caller as a new handle.
///
/// # Safety
/// `out` passed `out_ptr`.
pub(crate) unsafe fn give(out: *mut *mut WeftLayout, l: LinearLayout) {
    // SAFETY: by the caller's contract.
    unsafe { write(out, Box::into_raw(Box::new(WeftLayout(l)))) }
}

/// Runs a unary operation on a layout handle and hands back the result.
unsafe fn unary(
    layout: *const WeftLayout,
    out: *mut *mut WeftLayout,
    op: impl FnOnce(&LinearLayout) -> Result<LinearLayout, Failure>,
) -> WeftStatus {
    guard(|| {
        // SAFETY: `layout` is null or live by the exported function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        out_ptr(out, "out")?;
        let r = op(&l.0)?;
        // SAFETY: checked above.
        unsafe { give(out, r) };
        Ok(())
    })
}

/// Runs a binary operation on two layout handles (called `names` in errors) and hands back the result.
pub(crate) unsafe fn binary(
    a: *const WeftLayout,
    b: *const WeftLayout,
    names: [&str; 2],
    out: *mut *mut WeftLayout,
    op: impl FnOnce(&LinearLayout, &LinearLayout) -> Result<LinearLayout, Failure>,
) -> WeftStatus {
    guard(|| {
        // SAFETY: null or live by the exported function's contract.
        let (a, b) = unsafe { (handle(a, names[0])?, handle(b, names[1])?) };
        out_ptr(out, "out")?;
        let r = op(&a.0, &b.0)?;
        // SAFETY: checked above.
        unsafe { give(out, r) };
        Ok(())
    })
}

/// Builds a layout from its bases (Triton's `LinearLayout(bases, outDims, requireSurjective)`).
///
/// # Safety
/// `in_dims` points to `num_in_dims` entries (or is null when that is 0), each naming a NUL-terminated string
/// and `num_bases × num_out_dims` coordinates; `out_dims` likewise; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_from_bases(
    in_dims: *const WeftInDim,
    num_in_dims: usize,
    out_dims: *const WeftOutDim,
    num_out_dims: usize,
    require_surjective: bool,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let ins = unsafe { slice(in_dims, num_in_dims, 64, "in_dims") }?;
        let outs = unsafe { slice(out_dims, num_out_dims, 64, "out_dims") }?;
        out_ptr(out, "out")?;
        let mut out_list = Vec::with_capacity(outs.len());
        for (j, o) in outs.iter().enumerate() {
            // SAFETY: by this function's contract.
            let name = unsafe { text(o.name, &format!("out_dims[{j}].name")) }?;
            out_list.push((Dim::new(name), o.size));
        }
        let mut bases = Vec::with_capacity(ins.len());
        for (i, d) in ins.iter().enumerate() {
            // SAFETY: by this function's contract.
            let name = unsafe { text(d.name, &format!("in_dims[{i}].name")) }?;
            let count = d
                .num_bases
                .checked_mul(outs.len())
                .filter(|&c| d.num_bases <= 64 && c <= MAX_ENTRIES);
            let Some(count) = count else {
                return Err(Failure::new(
                    WeftStatus::InvalidArgument,
                    format!(
                        "`in_dims[{i}].num_bases` is {}; at most 64 are accepted",
                        d.num_bases
                    ),
                ));
            };
            // SAFETY: by this function's contract.
            let flat =
                unsafe { slice(d.bases, count, MAX_ENTRIES, &format!("in_dims[{i}].bases")) }?;
            let rows: Vec<Vec<u64>> = if outs.is_empty() {
                vec![Vec::new(); d.num_bases]
            } else {
                flat.chunks(outs.len()).map(<[u64]>::to_vec).collect()
            };
            bases.push((Dim::new(name), rows));
        }
        let l = LinearLayout::from_bases(bases, out_list, require_surjective)?;
        // SAFETY: checked above.
        unsafe { give(out, l) };
        Ok(())
    })
}

/// The identity layout of one dim: `in_dim` of `size` (a power of two) onto `out_dim` of the same size.
///
/// # Safety
/// `in_dim` and `out_dim` are NUL-terminated strings; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_identity_1d(
    size: u64,
    in_dim: *const c_char,
    out_dim: *const c_char,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (i, o) = unsafe { (text(in_dim, "in_dim")?, text(out_dim, "out_dim")?) };
        out_ptr(out, "out")?;
        let l = LinearLayout::identity_1d(size, i, o)?;
        // SAFETY: checked above.
        unsafe { give(out, l) };
        Ok(())
    })
}

/// Releases a layout. Null is ignored. Releasing a handle twice, or while another thread uses it, is
/// undefined behaviour.
///
/// # Safety
/// `layout` is null or a live handle from weft.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_free(layout: *mut WeftLayout) {
    release(layout, |p| {
        // SAFETY: made by `Box::into_raw` and live, by the contract. Dropping a layout cannot panic.
        drop(unsafe { Box::from_raw(p) })
    });
}

/// A copy of `layout` as a new handle.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_clone(
    layout: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe { unary(layout, out, |l| Ok(l.clone())) }
}

/// Whether `a` and `b` are the same layout: same dims in the same order, same sizes, same bases.
///
/// # Safety
/// `a` and `b` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_equal(
    a: *const WeftLayout,
    b: *const WeftLayout,
    out: *mut bool,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (a, b) = unsafe { (handle(a, "a")?, handle(b, "b")?) };
        out_ptr(out, "out")?;
        // SAFETY: checked above.
        unsafe { write(out, a.0 == b.0) };
        Ok(())
    })
}

/// How many input dims (`side` 0) or output dims (`side` 1) the layout has.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_num_dims(
    layout: *const WeftLayout,
    side: u32,
    out: *mut usize,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        out_ptr(out, "out")?;
        let n = match side {
            0 => l.0.num_in_dims(),
            1 => l.0.num_out_dims(),
            _ => return Err(bad_side(side)),
        };
        // SAFETY: checked above.
        unsafe { write(out, n) };
        Ok(())
    })
}

fn bad_side(side: u32) -> Failure {
    Failure::new(
        WeftStatus::InvalidArgument,
        format!("`side` is {side}; 0 means input dims, 1 output dims"),
    )
}

/// The name (a new string: release it with `weft_string_free`) and size of input dim (`side` 0) or output
/// dim (`side` 1) number `index`.
///
/// # Safety
/// `layout` is null or a live handle; `name` and `size` are writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_dim(
    layout: *const WeftLayout,
    side: u32,
    index: usize,
    name: *mut *mut c_char,
    size: *mut u64,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        out_ptr(name, "name")?;
        out_ptr(size, "size")?;
        let dims: Vec<(&Dim, u64)> = match side {
            0 => l.0.in_dims().collect(),
            1 => l.0.out_dims().collect(),
            _ => return Err(bad_side(side)),
        };
        let Some(&(d, s)) = dims.get(index) else {
            return Err(Failure::new(
                WeftStatus::InvalidArgument,
                format!(
                    "`index` is {index} but the layout has {} such dims",
                    dims.len()
                ),
            ));
        };
        // SAFETY: checked above.
        unsafe {
            write_string(name, d.as_str().to_string())?;
            write(size, s);
        }
        Ok(())
    })
}

/// Basis `bit` of input dim `in_dim`: one coordinate per output dim, written to `coords` (room for
/// `capacity`, which must be at least the number of output dims); `len` receives that number.
///
/// # Safety
/// `layout` is null or a live handle; `in_dim` a NUL-terminated string; `coords` has room for `capacity`
/// values; `len` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_basis(
    layout: *const WeftLayout,
    in_dim: *const c_char,
    bit: u32,
    coords: *mut u64,
    capacity: usize,
    len: *mut usize,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (l, name) = unsafe { (handle(layout, "layout")?, text(in_dim, "in_dim")?) };
        out_ptr(len, "len")?;
        let basis = l.0.basis(name, bit)?;
        // SAFETY: by this function's contract.
        unsafe { write_values(coords, capacity, &basis) }?;
        // SAFETY: checked above.
        unsafe { write(len, basis.len()) };
        Ok(())
    })
}

/// Copies `values` into the caller's buffer of `capacity` elements.
///
/// # Safety
/// `p` has room for `capacity` values (or is null).
unsafe fn write_values(p: *mut u64, capacity: usize, values: &[u64]) -> Result<(), Failure> {
    if capacity < values.len() {
        return Err(Failure::new(
            WeftStatus::InvalidArgument,
            format!(
                "the output buffer holds {capacity} values; {} are needed",
                values.len()
            ),
        ));
    }
    if values.is_empty() {
        return Ok(());
    }
    out_ptr(p, "coords")?;
    // SAFETY: non-null, aligned, room for `capacity ≥ values.len()` by the contract.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), p, values.len()) };
    Ok(())
}

/// Applies the layout: `num_inputs` (name, value) pairs in, one value per output dim out, in output-dim
/// order, written to `out_values` (room for `capacity`, at least the number of output dims); `out_len`
/// receives that number. Input dims not named are 0.
///
/// # Safety
/// `layout` is null or a live handle; `in_names` and `in_values` point to `num_inputs` entries (names
/// NUL-terminated); `out_values` has room for `capacity` values; `out_len` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_apply(
    layout: *const WeftLayout,
    in_names: *const *const c_char,
    in_values: *const u64,
    num_inputs: usize,
    out_values: *mut u64,
    capacity: usize,
    out_len: *mut usize,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        let names = unsafe { slice(in_names, num_inputs, 64, "in_names") }?;
        let values = unsafe { slice(in_values, num_inputs, 64, "in_values") }?;
        out_ptr(out_len, "out_len")?;
        let mut inputs = Vec::with_capacity(names.len());
        for (i, (&n, &v)) in names.iter().zip(values).enumerate() {
            // SAFETY: by this function's contract.
            let name = unsafe { text(n, &format!("in_names[{i}]")) }?;
            inputs.push((Dim::new(name), v));
        }
        let coords = l.0.apply(&inputs)?;
        let flat: Vec<u64> = coords.iter().map(|&(_, v)| v).collect();
        // SAFETY: by this function's contract.
        unsafe { write_values(out_values, capacity, &flat) }?;
        // SAFETY: checked above.
        unsafe { write(out_len, flat.len()) };
        Ok(())
    })
}

/// `outer ∘ a` in Triton's order (`a.compose(outer)`): `a`'s output dims are `outer`'s input dims.
///
/// # Safety
/// `a` and `outer` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_compose(
    a: *const WeftLayout,
    outer: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe { binary(a, outer, ["a", "outer"], out, |a, b| Ok(a.compose(b)?)) }
}

/// `outer⁻¹ ∘ a` (Triton's `invertAndCompose`): for each input of `a`, the input of `outer` holding the same
/// element.
///
/// # Safety
/// `a` and `outer` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_invert_and_compose(
    a: *const WeftLayout,
    outer: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe {
        binary(a, outer, ["a", "outer"], out, |a, b| {
            Ok(a.invert_and_compose(b)?)
        })
    }
}

/// The product `inner * outer` (Triton's `operator*`).
///
/// # Safety
/// `inner` and `outer` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_product(
    inner: *const WeftLayout,
    outer: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe {
        binary(inner, outer, ["inner", "outer"], out, |a, b| {
            Ok(a.product(b)?)
        })
    }
}

/// The inverse of an invertible layout.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_invert(
    layout: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe { unary(layout, out, |l| Ok(l.invert()?)) }
}

/// Triton's `pseudoinvert`: a right inverse of a surjective layout.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_pseudo_invert(
    layout: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe { unary(layout, out, |l| Ok(l.pseudo_invert()?)) }
}

/// The layout as one line of JSON (`{"in_dims": [[name, bases], …], "out_dims": [[name, size], …]}`), a new
/// string to release with `weft_string_free`.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_to_json(
    layout: *const WeftLayout,
    out: *mut *mut c_char,
) -> WeftStatus {
    unsafe { layout_text(layout, out, LinearLayout::to_json) }
}

/// Triton's bases dump of the layout (`- register is a size 1 dim …`), a new string.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_to_string(
    layout: *const WeftLayout,
    out: *mut *mut c_char,
) -> WeftStatus {
    unsafe { layout_text(layout, out, LinearLayout::to_bases_string) }
}

unsafe fn layout_text(
    layout: *const WeftLayout,
    out: *mut *mut c_char,
    print: impl FnOnce(&LinearLayout) -> String,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by the exported function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        out_ptr(out, "out")?;
        // SAFETY: checked above.
        unsafe { write_string(out, print(&l.0)) }
    })
}

/// Parses the JSON of `weft_layout_to_json`.
///
/// # Safety
/// `json` is a NUL-terminated string; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_from_json(
    json: *const c_char,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let t = unsafe { text(json, "json") }?;
        out_ptr(out, "out")?;
        let l = LinearLayout::from_json(t)?;
        // SAFETY: checked above.
        unsafe { give(out, l) };
        Ok(())
    })
}
