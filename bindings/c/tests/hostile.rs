//! Hostile input to every exported function: null pointers, invalid UTF-8, counts far above their limits,
//! misaligned arrays, out-of-range values and malformed text. Each call must fail with the right status and
//! a message saying why, write nothing, and never panic (freeing twice is undefined behaviour by contract and
//! not tried). `every_exported_function_is_covered` reads the header so that a new function cannot skip this.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use weft_c::*;

use WeftStatus::{CuteError, InvalidArgument, InvalidUtf8, LayoutError, NullArgument, ParseError};

const BAD_UTF8: *const c_char = c"dim\xff\xfe0".as_ptr();

fn message() -> String {
    // SAFETY: weft_last_error never returns null and the text lives until the next call on this thread.
    unsafe { CStr::from_ptr(weft_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts that a call returned `expected` with a message containing `needle`.
#[track_caller]
fn fails(got: WeftStatus, expected: WeftStatus, needle: &str) {
    let m = message();
    assert_eq!(got, expected, "message: {m}");
    assert!(
        m.contains(needle),
        "message {m:?} does not mention {needle:?}"
    );
}

fn c(s: &str) -> std::ffi::CString {
    std::ffi::CString::new(s).unwrap()
}

/// A sentinel an output must still hold after a failed call.
fn sentinel<T>() -> *mut T {
    std::ptr::dangling_mut::<T>()
}

fn blocked() -> *mut WeftEncoding {
    let mut e = null_mut();
    let text = c("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>");
    assert_eq!(
        unsafe { weft_encoding_parse(text.as_ptr(), &mut e) },
        WeftStatus::Ok
    );
    e
}

fn layout_of(e: *const WeftEncoding) -> *mut WeftLayout {
    let mut l = null_mut();
    let shape = [64u64, 64];
    assert_eq!(
        unsafe { weft_encoding_to_linear_layout(e, shape.as_ptr(), 2, &mut l) },
        WeftStatus::Ok
    );
    l
}

#[test]
fn strings_and_errors() {
    unsafe { weft_string_free(null_mut()) };
    fails(
        unsafe { weft_layout_from_json(null(), &mut null_mut()) },
        NullArgument,
        "`json` is null",
    );
    // A success clears the message.
    let mut l = null_mut();
    let (i, o) = (c("lane"), c("dim0"));
    assert_eq!(
        unsafe { weft_layout_identity_1d(4, i.as_ptr(), o.as_ptr(), &mut l) },
        WeftStatus::Ok
    );
    assert_eq!(message(), "");
    unsafe { weft_layout_free(l) };
}

#[test]
fn cute_functions() {
    let mut out = sentinel();
    fails(
        unsafe { weft_layout_from_cute(null(), &mut out) },
        NullArgument,
        "`cute` is null",
    );
    fails(
        unsafe { weft_layout_from_cute(BAD_UTF8, &mut out) },
        InvalidUtf8,
        "UTF-8",
    );
    let text = c("(2,2):(1,1)");
    fails(
        unsafe { weft_layout_from_cute(text.as_ptr(), null_mut()) },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe { weft_layout_from_cute(text.as_ptr(), &mut out) },
        CuteError,
        "carry",
    );
    for bad in ["(((", "8:99999999999999999999999", "Sw<1,2> o 8:1", ""] {
        let t = c(bad);
        fails(
            unsafe { weft_layout_from_cute(t.as_ptr(), &mut out) },
            ParseError,
            "cute parse error",
        );
    }
    let deep = c(&format!(
        "{}2{}:1",
        "(".repeat(100_000),
        ")".repeat(100_000)
    ));
    fails(
        unsafe { weft_layout_from_cute(deep.as_ptr(), &mut out) },
        ParseError,
        "nested deeper",
    );
    assert_eq!(out, sentinel());

    let mut s: *mut c_char = sentinel();
    fails(
        unsafe { weft_layout_to_cute(null(), &mut s) },
        NullArgument,
        "`layout` is null",
    );
    let bases = [3u64, 1, 2];
    let name = c("register");
    let dim0 = c("dim0");
    let ins = [WeftInDim {
        name: name.as_ptr(),
        bases: bases.as_ptr(),
        num_bases: 3,
    }];
    let outs = [WeftOutDim {
        name: dim0.as_ptr(),
        size: 4,
    }];
    let mut tangled = null_mut();
    assert_eq!(
        unsafe { weft_layout_from_bases(ins.as_ptr(), 1, outs.as_ptr(), 1, false, &mut tangled) },
        WeftStatus::Ok
    );
    fails(
        unsafe { weft_layout_to_cute(tangled, null_mut()) },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe { weft_layout_to_cute(tangled, &mut s) },
        CuteError,
        "no shape:stride form",
    );
    assert_eq!(s, sentinel());
    unsafe { weft_layout_free(tangled) };
}

#[test]
fn encoding_constructors() {
    let mut out = sentinel();
    let two = [1u32, 4];
    let p = two.as_ptr();
    // Parse.
    fails(
        unsafe { weft_encoding_parse(null(), &mut out) },
        NullArgument,
        "`attr`",
    );
    fails(
        unsafe { weft_encoding_parse(BAD_UTF8, &mut out) },
        InvalidUtf8,
        "UTF-8",
    );
    let garbage = c("#ttg.blocked<{sizePerThread = [1, 4]");
    fails(
        unsafe { weft_encoding_parse(garbage.as_ptr(), &mut out) },
        ParseError,
        "parse error",
    );
    let deep = c(&format!(
        "#ttg.slice<{{dim = 0, parent = {}}}>",
        "#ttg.slice<{dim = 0, parent = ".repeat(50_000)
    ));
    assert_ne!(
        unsafe { weft_encoding_parse(deep.as_ptr(), &mut out) },
        WeftStatus::Ok
    );
    let ok = blocked();
    let text = c("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>");
    fails(
        unsafe { weft_encoding_parse(text.as_ptr(), null_mut()) },
        NullArgument,
        "`out`",
    );
    // Blocked: counts far above the limit are rejected before anything is read; nulls; misalignment; rules.
    fails(
        unsafe { weft_encoding_blocked(p, p, p, p, usize::MAX, &mut out) },
        InvalidArgument,
        "at most 64",
    );
    fails(
        unsafe { weft_encoding_blocked(null(), p, p, p, 2, &mut out) },
        NullArgument,
        "size_per_thread",
    );
    let misaligned = unsafe { p.cast::<u8>().add(1).cast::<u32>() };
    fails(
        unsafe { weft_encoding_blocked(p, misaligned, p, p, 1, &mut out) },
        InvalidArgument,
        "aligned",
    );
    let (zeros, ord) = ([0u32, 0], [1u32, 0]);
    fails(
        unsafe { weft_encoding_blocked(p, zeros.as_ptr(), p, ord.as_ptr(), 2, &mut out) },
        LayoutError,
        "threads_per_warp",
    );
    fails(
        unsafe { weft_encoding_blocked(p, p, p, p, 2, null_mut()) },
        NullArgument,
        "`out`",
    );
    // Slice and dot operand.
    fails(
        unsafe { weft_encoding_slice(0, null(), &mut out) },
        NullArgument,
        "`parent`",
    );
    fails(
        unsafe { weft_encoding_slice(u32::MAX, ok, &mut out) },
        LayoutError,
        "dim",
    );
    fails(
        unsafe { weft_encoding_slice(0, ok, null_mut()) },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe { weft_encoding_dot_operand(0, null(), 2, &mut out) },
        NullArgument,
        "`parent`",
    );
    fails(
        unsafe { weft_encoding_dot_operand(7, ok, 2, &mut out) },
        LayoutError,
        "op",
    );
    fails(
        unsafe { weft_encoding_dot_operand(0, ok, 2, null_mut()) },
        NullArgument,
        "`out`",
    );
    // NVIDIA MMA.
    let instr = [16u32, 8];
    fails(
        unsafe { weft_encoding_nvidia_mma(2, 0, p, usize::MAX, instr.as_ptr(), 2, &mut out) },
        InvalidArgument,
        "warps_per_cta",
    );
    fails(
        unsafe { weft_encoding_nvidia_mma(2, 0, p, 2, null(), 2, &mut out) },
        NullArgument,
        "instr_shape",
    );
    fails(
        unsafe { weft_encoding_nvidia_mma(99, 0, p, 2, instr.as_ptr(), 2, &mut out) },
        LayoutError,
        "version",
    );
    fails(
        unsafe { weft_encoding_nvidia_mma(2, 0, p, 2, instr.as_ptr(), 2, null_mut()) },
        NullArgument,
        "`out`",
    );
    // AMD MFMA.
    let mfma = [32u32, 32, 8];
    fails(
        unsafe { weft_encoding_amd_mfma(3, mfma.as_ptr(), usize::MAX, false, p, 2, &mut out) },
        InvalidArgument,
        "instr_shape",
    );
    fails(
        unsafe { weft_encoding_amd_mfma(3, mfma.as_ptr(), 3, false, null(), 2, &mut out) },
        NullArgument,
        "warps_per_cta",
    );
    fails(
        unsafe { weft_encoding_amd_mfma(9, mfma.as_ptr(), 3, false, p, 2, &mut out) },
        LayoutError,
        "version",
    );
    fails(
        unsafe { weft_encoding_amd_mfma(3, mfma.as_ptr(), 3, false, p, 2, null_mut()) },
        NullArgument,
        "`out`",
    );
    // Shared layouts.
    let order = [1u32, 0];
    fails(
        unsafe { weft_encoding_swizzled_shared(1, 1, 1, order.as_ptr(), usize::MAX, &mut out) },
        InvalidArgument,
        "order",
    );
    fails(
        unsafe { weft_encoding_swizzled_shared(1, 1, 1, null(), 2, &mut out) },
        NullArgument,
        "order",
    );
    let twice = [0u32, 0];
    fails(
        unsafe { weft_encoding_swizzled_shared(1, 1, 1, twice.as_ptr(), 2, &mut out) },
        LayoutError,
        "permutation",
    );
    fails(
        unsafe { weft_encoding_swizzled_shared(1, 1, 1, order.as_ptr(), 2, null_mut()) },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe { weft_encoding_nvmma_shared(128, 16, usize::MAX, false, &mut out) },
        InvalidArgument,
        "rank",
    );
    fails(
        unsafe { weft_encoding_nvmma_shared(7, 16, 2, false, &mut out) },
        LayoutError,
        "swizzle",
    );
    fails(
        unsafe { weft_encoding_nvmma_shared(128, 16, 2, false, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(out, sentinel());
    unsafe { weft_encoding_free(null_mut()) };
    unsafe { weft_encoding_free(ok) };
}

#[test]
fn encoding_queries() {
    let e = blocked();
    let mut l = sentinel();
    let shape = [64u64, 64];
    fails(
        unsafe { weft_encoding_to_linear_layout(null(), shape.as_ptr(), 2, &mut l) },
        NullArgument,
        "`encoding`",
    );
    fails(
        unsafe { weft_encoding_to_linear_layout(e, null(), 2, &mut l) },
        NullArgument,
        "`shape`",
    );
    fails(
        unsafe { weft_encoding_to_linear_layout(e, shape.as_ptr(), usize::MAX, &mut l) },
        InvalidArgument,
        "`shape`",
    );
    let odd = [3u64, u64::MAX];
    fails(
        unsafe { weft_encoding_to_linear_layout(e, odd.as_ptr(), 2, &mut l) },
        LayoutError,
        "power of two",
    );
    fails(
        unsafe { weft_encoding_to_linear_layout(e, shape.as_ptr(), 1, &mut l) },
        LayoutError,
        "rank",
    );
    fails(
        unsafe { weft_encoding_to_linear_layout(e, shape.as_ptr(), 2, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(l, sentinel());

    let mut s: *mut c_char = sentinel();
    fails(
        unsafe { weft_encoding_to_string(null(), 0, &mut s) },
        NullArgument,
        "`encoding`",
    );
    fails(
        unsafe { weft_encoding_to_string(e, 3, &mut s) },
        InvalidArgument,
        "`format`",
    );
    fails(
        unsafe { weft_encoding_to_string(e, 0, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(s, sentinel());

    let mut out = sentinel();
    fails(
        unsafe { weft_encoding_from_json(null(), &mut out) },
        NullArgument,
        "`json`",
    );
    fails(
        unsafe { weft_encoding_from_json(BAD_UTF8, &mut out) },
        InvalidUtf8,
        "UTF-8",
    );
    let deep = c(&"[".repeat(100_000));
    fails(
        unsafe { weft_encoding_from_json(deep.as_ptr(), &mut out) },
        ParseError,
        "json",
    );
    let rule = c(
        r#"{"blocked": {"size_per_thread": [1], "threads_per_warp": [3], "warps_per_cta": [1], "order": [0], "cga_layout": {"bases": []}}}"#,
    );
    let status = unsafe { weft_encoding_from_json(rule.as_ptr(), &mut out) };
    assert!(
        status == LayoutError || status == ParseError,
        "{status:?}: {}",
        message()
    );
    let ok = c(r#"{"blocked": 1}"#);
    fails(
        unsafe { weft_encoding_from_json(ok.as_ptr(), null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(out, sentinel());
    unsafe { weft_encoding_free(e) };
}

#[test]
fn layout_construction() {
    let mut out = sentinel();
    let (reg, dim0) = (c("register"), c("dim0"));
    let bases = [1u64, 2];
    let ins = [WeftInDim {
        name: reg.as_ptr(),
        bases: bases.as_ptr(),
        num_bases: 2,
    }];
    let outs = [WeftOutDim {
        name: dim0.as_ptr(),
        size: 4,
    }];
    let from = |ins: *const WeftInDim,
                n_in: usize,
                outs: *const WeftOutDim,
                n_out: usize,
                out: *mut *mut WeftLayout| unsafe {
        weft_layout_from_bases(ins, n_in, outs, n_out, true, out)
    };
    fails(
        from(ins.as_ptr(), usize::MAX, outs.as_ptr(), 1, &mut out),
        InvalidArgument,
        "in_dims",
    );
    fails(
        from(ins.as_ptr(), 1, outs.as_ptr(), usize::MAX, &mut out),
        InvalidArgument,
        "out_dims",
    );
    fails(
        from(null(), 1, outs.as_ptr(), 1, &mut out),
        NullArgument,
        "in_dims",
    );
    fails(
        from(ins.as_ptr(), 1, null(), 1, &mut out),
        NullArgument,
        "out_dims",
    );
    let unnamed = [WeftInDim {
        name: null(),
        bases: bases.as_ptr(),
        num_bases: 2,
    }];
    fails(
        from(unnamed.as_ptr(), 1, outs.as_ptr(), 1, &mut out),
        NullArgument,
        "in_dims[0].name",
    );
    let garbled = [WeftOutDim {
        name: BAD_UTF8,
        size: 4,
    }];
    fails(
        from(ins.as_ptr(), 1, garbled.as_ptr(), 1, &mut out),
        InvalidUtf8,
        "out_dims[0].name",
    );
    let huge = [WeftInDim {
        name: reg.as_ptr(),
        bases: bases.as_ptr(),
        num_bases: usize::MAX,
    }];
    fails(
        from(huge.as_ptr(), 1, outs.as_ptr(), 1, &mut out),
        InvalidArgument,
        "num_bases",
    );
    let no_bases = [WeftInDim {
        name: reg.as_ptr(),
        bases: null(),
        num_bases: 2,
    }];
    fails(
        from(no_bases.as_ptr(), 1, outs.as_ptr(), 1, &mut out),
        NullArgument,
        "bases",
    );
    let odd = [WeftOutDim {
        name: dim0.as_ptr(),
        size: 3,
    }];
    fails(
        from(ins.as_ptr(), 1, odd.as_ptr(), 1, &mut out),
        LayoutError,
        "power of two",
    );
    let wide = [WeftOutDim {
        name: dim0.as_ptr(),
        size: 2,
    }];
    fails(
        from(ins.as_ptr(), 1, wide.as_ptr(), 1, &mut out),
        LayoutError,
        "basis",
    );
    fails(
        from(ins.as_ptr(), 1, outs.as_ptr(), 1, null_mut()),
        NullArgument,
        "`out`",
    );

    fails(
        unsafe { weft_layout_identity_1d(3, reg.as_ptr(), dim0.as_ptr(), &mut out) },
        LayoutError,
        "power of two",
    );
    fails(
        unsafe { weft_layout_identity_1d(u64::MAX, reg.as_ptr(), dim0.as_ptr(), &mut out) },
        LayoutError,
        "power of two",
    );
    fails(
        unsafe { weft_layout_identity_1d(4, null(), dim0.as_ptr(), &mut out) },
        NullArgument,
        "in_dim",
    );
    fails(
        unsafe { weft_layout_identity_1d(4, reg.as_ptr(), BAD_UTF8, &mut out) },
        InvalidUtf8,
        "out_dim",
    );
    fails(
        unsafe { weft_layout_identity_1d(4, reg.as_ptr(), dim0.as_ptr(), null_mut()) },
        NullArgument,
        "`out`",
    );

    let mut json = sentinel();
    fails(
        unsafe { weft_layout_from_json(BAD_UTF8, &mut json) },
        InvalidUtf8,
        "UTF-8",
    );
    for bad in [
        "{",
        &"[".repeat(100_000),
        r#"{"in_dims": [["lane", [[5]]]], "out_dims": [["dim0", 4]]}"#,
    ] {
        let t = c(bad);
        let status = unsafe { weft_layout_from_json(t.as_ptr(), &mut json) };
        assert!(
            status == ParseError || status == LayoutError,
            "{status:?}: {}",
            message()
        );
    }
    let t = c(r#"{"in_dims": [], "out_dims": []}"#);
    fails(
        unsafe { weft_layout_from_json(t.as_ptr(), null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!((out, json), (sentinel(), sentinel()));
    unsafe { weft_layout_free(null_mut()) };
}

#[test]
fn layout_queries() {
    let e = blocked();
    let l = layout_of(e);
    let mut out = sentinel();
    fails(
        unsafe { weft_layout_clone(null(), &mut out) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_clone(l, null_mut()) },
        NullArgument,
        "`out`",
    );
    let mut same = false;
    fails(
        unsafe { weft_layout_equal(null(), l, &mut same) },
        NullArgument,
        "`a`",
    );
    fails(
        unsafe { weft_layout_equal(l, null(), &mut same) },
        NullArgument,
        "`b`",
    );
    fails(
        unsafe { weft_layout_equal(l, l, null_mut()) },
        NullArgument,
        "`out`",
    );
    let mut n = 0usize;
    fails(
        unsafe { weft_layout_num_dims(null(), 0, &mut n) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_num_dims(l, 7, &mut n) },
        InvalidArgument,
        "`side`",
    );
    fails(
        unsafe { weft_layout_num_dims(l, 0, null_mut()) },
        NullArgument,
        "`out`",
    );
    let (mut name, mut size): (*mut c_char, u64) = (sentinel(), 0);
    fails(
        unsafe { weft_layout_dim(null(), 0, 0, &mut name, &mut size) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_dim(l, 0, usize::MAX, &mut name, &mut size) },
        InvalidArgument,
        "`index`",
    );
    fails(
        unsafe { weft_layout_dim(l, 2, 0, &mut name, &mut size) },
        InvalidArgument,
        "`side`",
    );
    fails(
        unsafe { weft_layout_dim(l, 0, 0, null_mut(), &mut size) },
        NullArgument,
        "`name`",
    );
    fails(
        unsafe { weft_layout_dim(l, 0, 0, &mut name, null_mut()) },
        NullArgument,
        "`size`",
    );
    assert_eq!(name, sentinel());

    let mut coords = [0u64; 4];
    let mut len = 0usize;
    let (reg, nope) = (c("register"), c("nope"));
    fails(
        unsafe { weft_layout_basis(null(), reg.as_ptr(), 0, coords.as_mut_ptr(), 4, &mut len) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_basis(l, BAD_UTF8, 0, coords.as_mut_ptr(), 4, &mut len) },
        InvalidUtf8,
        "in_dim",
    );
    fails(
        unsafe { weft_layout_basis(l, nope.as_ptr(), 0, coords.as_mut_ptr(), 4, &mut len) },
        LayoutError,
        "nope",
    );
    fails(
        unsafe { weft_layout_basis(l, reg.as_ptr(), u32::MAX, coords.as_mut_ptr(), 4, &mut len) },
        LayoutError,
        "register",
    );
    fails(
        unsafe { weft_layout_basis(l, reg.as_ptr(), 0, coords.as_mut_ptr(), 1, &mut len) },
        InvalidArgument,
        "holds 1",
    );
    fails(
        unsafe { weft_layout_basis(l, reg.as_ptr(), 0, null_mut(), 4, &mut len) },
        NullArgument,
        "coords",
    );
    fails(
        unsafe { weft_layout_basis(l, reg.as_ptr(), 0, coords.as_mut_ptr(), 4, null_mut()) },
        NullArgument,
        "`len`",
    );

    let names = [reg.as_ptr()];
    let values = [1u64 << 40];
    let apply =
        |names: *const *const c_char,
         values: *const u64,
         n: usize,
         out: *mut u64,
         cap: usize,
         len: *mut usize| unsafe { weft_layout_apply(l, names, values, n, out, cap, len) };
    fails(
        unsafe {
            weft_layout_apply(
                null(),
                names.as_ptr(),
                values.as_ptr(),
                1,
                coords.as_mut_ptr(),
                4,
                &mut len,
            )
        },
        NullArgument,
        "`layout`",
    );
    fails(
        apply(
            names.as_ptr(),
            values.as_ptr(),
            usize::MAX,
            coords.as_mut_ptr(),
            4,
            &mut len,
        ),
        InvalidArgument,
        "in_names",
    );
    fails(
        apply(null(), values.as_ptr(), 1, coords.as_mut_ptr(), 4, &mut len),
        NullArgument,
        "in_names",
    );
    fails(
        apply(names.as_ptr(), null(), 1, coords.as_mut_ptr(), 4, &mut len),
        NullArgument,
        "in_values",
    );
    let null_name = [null::<c_char>()];
    fails(
        apply(
            null_name.as_ptr(),
            values.as_ptr(),
            1,
            coords.as_mut_ptr(),
            4,
            &mut len,
        ),
        NullArgument,
        "in_names[0]",
    );
    fails(
        apply(
            names.as_ptr(),
            values.as_ptr(),
            1,
            coords.as_mut_ptr(),
            4,
            &mut len,
        ),
        LayoutError,
        "outside",
    );
    let zero = [0u64];
    fails(
        apply(
            names.as_ptr(),
            zero.as_ptr(),
            1,
            coords.as_mut_ptr(),
            1,
            &mut len,
        ),
        InvalidArgument,
        "holds 1",
    );
    fails(
        apply(names.as_ptr(), zero.as_ptr(), 1, null_mut(), 4, &mut len),
        NullArgument,
        "coords",
    );
    fails(
        apply(
            names.as_ptr(),
            zero.as_ptr(),
            1,
            coords.as_mut_ptr(),
            4,
            null_mut(),
        ),
        NullArgument,
        "out_len",
    );
    assert_eq!(coords, [0; 4]);

    let mut s: *mut c_char = sentinel();
    fails(
        unsafe { weft_layout_to_json(null(), &mut s) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_to_json(l, null_mut()) },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe { weft_layout_to_string(null(), &mut s) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_to_string(l, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(s, sentinel());
    unsafe { weft_layout_free(l) };
    unsafe { weft_encoding_free(e) };
}

/// A layout from CuTe text, which must parse.
fn cute_layout(text: &str) -> *mut WeftLayout {
    let mut l = null_mut();
    let t = c(text);
    assert_eq!(
        unsafe { weft_layout_from_cute(t.as_ptr(), &mut l) },
        WeftStatus::Ok
    );
    l
}

#[test]
fn helper_layouts() {
    let scales = {
        let mut e = null_mut();
        let t = c("#ttng.tensor_memory_scales_encoding<>");
        assert_eq!(
            unsafe { weft_encoding_parse(t.as_ptr(), &mut e) },
            WeftStatus::Ok
        );
        e
    };
    let e = blocked();
    let shape = [128u64, 4];
    let two = [1u32, 1];
    let v = c("32x32b");
    let mut out = sentinel();
    // Null handles, arrays, strings and outputs.
    fails(
        unsafe {
            weft_tmem_reg_layout(
                8,
                null(),
                shape.as_ptr(),
                2,
                scales,
                4,
                v.as_ptr(),
                &mut out,
            )
        },
        NullArgument,
        "`shape`",
    );
    fails(
        unsafe {
            weft_tmem_reg_layout(
                8,
                shape.as_ptr(),
                null(),
                2,
                scales,
                4,
                v.as_ptr(),
                &mut out,
            )
        },
        NullArgument,
        "`alloc_shape`",
    );
    fails(
        unsafe {
            weft_tmem_reg_layout(
                8,
                shape.as_ptr(),
                shape.as_ptr(),
                2,
                null(),
                4,
                v.as_ptr(),
                &mut out,
            )
        },
        NullArgument,
        "`tmem`",
    );
    fails(
        unsafe {
            weft_tmem_reg_layout(
                8,
                shape.as_ptr(),
                shape.as_ptr(),
                2,
                scales,
                4,
                BAD_UTF8,
                &mut out,
            )
        },
        InvalidUtf8,
        "`instr_variant`",
    );
    fails(
        unsafe {
            weft_tmem_reg_layout(
                8,
                shape.as_ptr(),
                shape.as_ptr(),
                2,
                scales,
                4,
                v.as_ptr(),
                null_mut(),
            )
        },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe {
            weft_tmem_reg_layout(
                8,
                shape.as_ptr(),
                shape.as_ptr(),
                usize::MAX,
                scales,
                4,
                v.as_ptr(),
                &mut out,
            )
        },
        InvalidArgument,
        "at most",
    );
    // Not a tensor-memory layout, absurd warps, element widths and variants.
    for (tmem, bits, warps, variant) in [
        (e as *const _, 8, 4, "32x32b"),
        (scales as *const _, 8, 0, "32x32b"),
        (scales as *const _, 8, u32::MAX, "32x32b"),
        (scales as *const _, 0, 4, "32x32b"),
        (scales as *const _, u32::MAX, 4, "32x32b"),
        (scales as *const _, 8, 4, "32x16b"),
    ] {
        let variant = c(variant);
        assert_ne!(
            unsafe {
                weft_tmem_reg_layout(
                    bits,
                    shape.as_ptr(),
                    shape.as_ptr(),
                    2,
                    tmem,
                    warps,
                    variant.as_ptr(),
                    &mut out,
                )
            },
            WeftStatus::Ok
        );
    }
    fails(
        unsafe { weft_amd_mfma_scale_layout(0, null(), 16, two.as_ptr(), two.as_ptr(), &mut out) },
        NullArgument,
        "`shape`",
    );
    fails(
        unsafe {
            weft_amd_mfma_scale_layout(0, shape.as_ptr(), 16, null(), two.as_ptr(), &mut out)
        },
        NullArgument,
        "`tiles_per_warp`",
    );
    fails(
        unsafe {
            weft_amd_mfma_scale_layout(0, shape.as_ptr(), 16, two.as_ptr(), null(), &mut out)
        },
        NullArgument,
        "`warps_per_cta`",
    );
    for (op, m) in [(2, 16), (0, 0), (u32::MAX, u32::MAX), (1, 64)] {
        assert_ne!(
            unsafe {
                weft_amd_mfma_scale_layout(
                    op,
                    shape.as_ptr(),
                    m,
                    two.as_ptr(),
                    two.as_ptr(),
                    &mut out,
                )
            },
            WeftStatus::Ok
        );
    }
    fails(
        unsafe { weft_scaled_upcast_fp4_scale_layout(null(), shape.as_ptr(), 2, 8, 1, &mut out) },
        NullArgument,
        "`src`",
    );
    fails(
        unsafe { weft_scaled_upcast_fp4_scale_layout(e, shape.as_ptr(), 1 << 40, 8, 1, &mut out) },
        InvalidArgument,
        "at most",
    );
    for (extent, axis) in [(0, 0), (3, 1), (u64::MAX, 0), (8, usize::MAX)] {
        assert_ne!(
            unsafe {
                weft_scaled_upcast_fp4_scale_layout(e, shape.as_ptr(), 2, extent, axis, &mut out)
            },
            WeftStatus::Ok
        );
    }
    fails(
        unsafe {
            weft_compute_efficient_padded_shared_layout(null(), shape.as_ptr(), 16, true, &mut out)
        },
        NullArgument,
        "`dot`",
    );
    fails(
        unsafe {
            weft_compute_efficient_padded_shared_layout(e, shape.as_ptr(), 16, true, &mut out)
        },
        InvalidArgument,
        "dot operand",
    );
    fails(
        unsafe { weft_compute_efficient_padded_shared_layout(e, null(), 16, true, &mut out) },
        NullArgument,
        "`shape`",
    );
    assert_eq!(out, sentinel());
    unsafe { weft_encoding_free(scales) };
    unsafe { weft_encoding_free(e) };
}

#[test]
fn cute_algebra() {
    let a = cute_layout("(8,64):(64,1)");
    let b = cute_layout("(4,2):(1,4)");
    let mut out = sentinel();
    type Binary = unsafe extern "C" fn(
        *const WeftLayout,
        *const WeftLayout,
        *mut *mut WeftLayout,
    ) -> WeftStatus;
    let binaries: [Binary; 3] = [
        weft_cute_composition,
        weft_cute_logical_divide,
        weft_cute_logical_product,
    ];
    for f in binaries {
        fails(unsafe { f(null(), b, &mut out) }, NullArgument, "`a`");
        fails(unsafe { f(a, null(), &mut out) }, NullArgument, "`b`");
        fails(unsafe { f(a, b, null_mut()) }, NullArgument, "`out`");
        assert_eq!(out, sentinel());
    }
    // `b` reaches past `a`'s domain of 8 × 64.
    let far = cute_layout("1024:1");
    fails(
        unsafe { weft_cute_composition(a, far, &mut out) },
        LayoutError,
        "do not fit a codomain of size 512",
    );
    assert_eq!(out, sentinel());
    fails(
        unsafe { weft_cute_complement(null(), 64, &mut out) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_cute_complement(b, 64, null_mut()) },
        NullArgument,
        "`out`",
    );
    for size in [0, 3, 48, u64::MAX] {
        assert_ne!(
            unsafe { weft_cute_complement(b, size, &mut out) },
            WeftStatus::Ok,
            "size {size}"
        );
        assert_eq!(out, sentinel());
    }
    // The largest power of two is a codomain like any other.
    let mut wide = null_mut();
    assert_eq!(
        unsafe { weft_cute_complement(b, 1 << 63, &mut wide) },
        WeftStatus::Ok
    );
    for l in [a, b, far, wide] {
        unsafe { weft_layout_free(l) };
    }
}

#[test]
fn layout_algebra() {
    let e = blocked();
    let l = layout_of(e);
    let mut out = sentinel();
    type Binary = unsafe extern "C" fn(
        *const WeftLayout,
        *const WeftLayout,
        *mut *mut WeftLayout,
    ) -> WeftStatus;
    let binaries: [(Binary, &str); 3] = [
        (weft_layout_compose, "`a`"),
        (weft_layout_invert_and_compose, "`a`"),
        (weft_layout_product, "`inner`"),
    ];
    for (f, first) in binaries {
        fails(unsafe { f(null(), l, &mut out) }, NullArgument, first);
        fails(unsafe { f(l, null(), &mut out) }, NullArgument, "`outer`");
        fails(unsafe { f(l, l, null_mut()) }, NullArgument, "`out`");
    }
    // A layout's out dims are not its in dims.
    fails(
        unsafe { weft_layout_compose(l, l, &mut out) },
        LayoutError,
        "dim mismatch",
    );
    let (reg, dim0) = (c("register"), c("dim0"));
    let bases = [0u64, 1];
    let ins = [WeftInDim {
        name: reg.as_ptr(),
        bases: bases.as_ptr(),
        num_bases: 2,
    }];
    let outs = [WeftOutDim {
        name: dim0.as_ptr(),
        size: 4,
    }];
    let mut copies = null_mut();
    assert_eq!(
        unsafe { weft_layout_from_bases(ins.as_ptr(), 1, outs.as_ptr(), 1, false, &mut copies) },
        WeftStatus::Ok
    );
    fails(
        unsafe { weft_layout_invert_and_compose(l, copies, &mut out) },
        LayoutError,
        "",
    );
    fails(
        unsafe { weft_layout_invert(null(), &mut out) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_invert(copies, &mut out) },
        LayoutError,
        "not invertible",
    );
    fails(
        unsafe { weft_layout_invert(l, null_mut()) },
        NullArgument,
        "`out`",
    );
    fails(
        unsafe { weft_layout_pseudo_invert(null(), &mut out) },
        NullArgument,
        "`layout`",
    );
    fails(
        unsafe { weft_layout_pseudo_invert(copies, &mut out) },
        LayoutError,
        "surjective",
    );
    fails(
        unsafe { weft_layout_pseudo_invert(l, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(out, sentinel());
    unsafe { weft_layout_free(copies) };
    unsafe { weft_layout_free(l) };
    unsafe { weft_encoding_free(e) };
}

#[test]
fn plans_and_bank_conflicts() {
    let e = blocked();
    let l = layout_of(e);
    let sm90 = c("sm_90");
    let mut plan = sentinel();
    fails(
        unsafe { weft_plan_conversion(null(), l, 16, sm90.as_ptr(), &mut plan) },
        NullArgument,
        "`src`",
    );
    fails(
        unsafe { weft_plan_conversion(l, null(), 16, sm90.as_ptr(), &mut plan) },
        NullArgument,
        "`dst`",
    );
    fails(
        unsafe { weft_plan_conversion(l, l, 16, null(), &mut plan) },
        NullArgument,
        "target_name",
    );
    fails(
        unsafe { weft_plan_conversion(l, l, 16, BAD_UTF8, &mut plan) },
        InvalidUtf8,
        "target_name",
    );
    let nope = c("sm_1000000");
    fails(
        unsafe { weft_plan_conversion(l, l, 16, nope.as_ptr(), &mut plan) },
        InvalidArgument,
        "sm_1000000",
    );
    fails(
        unsafe { weft_plan_conversion(l, l, 0, sm90.as_ptr(), &mut plan) },
        LayoutError,
        "element bits",
    );
    fails(
        unsafe { weft_plan_conversion(l, l, u32::MAX, sm90.as_ptr(), &mut plan) },
        LayoutError,
        "element bits",
    );
    let (lane, dim0) = (c("lane"), c("dim0"));
    let mut other = null_mut();
    assert_eq!(
        unsafe { weft_layout_identity_1d(64, lane.as_ptr(), dim0.as_ptr(), &mut other) },
        WeftStatus::Ok
    );
    fails(
        unsafe { weft_plan_conversion(l, other, 16, sm90.as_ptr(), &mut plan) },
        LayoutError,
        "",
    );
    fails(
        unsafe { weft_plan_conversion(l, l, 16, sm90.as_ptr(), null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(plan, sentinel());

    let mut good = null_mut();
    assert_eq!(
        unsafe { weft_plan_conversion(l, l, 16, sm90.as_ptr(), &mut good) },
        WeftStatus::Ok
    );
    let mut kind = WeftConversionKind::CrossCta;
    fails(
        unsafe {
            weft_plan_summary(
                null(),
                &mut kind,
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
            )
        },
        NullArgument,
        "`plan`",
    );
    let mut words = [0u64; 2];
    let misaligned = unsafe { words.as_mut_ptr().cast::<u8>().add(1).cast::<u64>() };
    fails(
        unsafe {
            weft_plan_summary(
                good,
                &mut kind,
                misaligned,
                null_mut(),
                null_mut(),
                null_mut(),
            )
        },
        InvalidArgument,
        "scratch_bytes",
    );
    assert_eq!(kind, WeftConversionKind::CrossCta);
    // Every output is optional.
    assert_eq!(
        unsafe {
            weft_plan_summary(
                good,
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
            )
        },
        WeftStatus::Ok
    );
    let mut s: *mut c_char = sentinel();
    fails(
        unsafe { weft_plan_to_string(null(), 0, &mut s) },
        NullArgument,
        "`plan`",
    );
    fails(
        unsafe { weft_plan_to_string(good, 9, &mut s) },
        InvalidArgument,
        "`format`",
    );
    fails(
        unsafe { weft_plan_to_string(good, 0, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(s, sentinel());
    unsafe { weft_plan_free(good) };
    unsafe { weft_plan_free(null_mut()) };

    let mut n = 7u64;
    fails(
        unsafe { weft_bank_conflicts(null(), l, 16, &mut n) },
        NullArgument,
        "register_layout",
    );
    fails(
        unsafe { weft_bank_conflicts(l, null(), 16, &mut n) },
        NullArgument,
        "shared_layout",
    );
    fails(
        unsafe { weft_bank_conflicts(l, l, 16, &mut n) },
        LayoutError,
        "offset",
    );
    fails(
        unsafe { weft_bank_conflicts(l, l, 0, &mut n) },
        LayoutError,
        "element bits",
    );
    fails(
        unsafe { weft_bank_conflicts(l, l, 16, null_mut()) },
        NullArgument,
        "`out`",
    );
    assert_eq!(n, 7);
    unsafe { weft_layout_free(other) };
    unsafe { weft_layout_free(l) };
    unsafe { weft_encoding_free(e) };
}

#[test]
fn every_exported_function_is_covered() {
    let header = include_str!("../include/weft.h");
    let this = include_str!("hostile.rs");
    // Every `weft_name(` in the header is a function.
    let mut names: Vec<&str> = header
        .match_indices("weft_")
        .filter_map(|(i, _)| {
            let len = header[i..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))?;
            header[i + len..]
                .starts_with('(')
                .then(|| &header[i..i + len])
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.len() >= 35, "found only {names:?}");
    for name in names {
        let called = this.match_indices(name).any(|(i, _)| {
            this[i + name.len()..]
                .starts_with(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        });
        assert!(called, "{name} is not fed hostile input here");
    }
}
