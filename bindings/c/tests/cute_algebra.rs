//! CuTe's algebra through the C ABI (`weft_cute_composition`, `weft_cute_complement`,
//! `weft_cute_logical_divide`, `weft_cute_logical_product`) gives the Rust API's results on the PyCuTe
//! cases of `tests/fixtures/cute.json` (the Rust test `cute_pycute` checks those against PyCuTe).

use std::ffi::CString;
use std::ptr::null_mut;

use weft::layout::cute;
use weft::layout::LinearLayout;
use weft_c::*;

fn fixtures() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/cute.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("cute.json")).expect("JSON")
}

fn handle(text: &str) -> *mut WeftLayout {
    let mut l = null_mut();
    let t = CString::new(text).unwrap();
    assert_eq!(
        unsafe { weft_layout_from_cute(t.as_ptr(), &mut l) },
        WeftStatus::Ok,
        "{text}"
    );
    l
}

fn rust(text: &str) -> LinearLayout {
    text.parse::<cute::SwizzledLayout>()
        .unwrap()
        .to_linear_layout()
        .unwrap()
}

/// A handle's layout, read back through the JSON the C ABI prints.
fn layout_of(l: *const WeftLayout) -> LinearLayout {
    let mut s = null_mut();
    assert_eq!(unsafe { weft_layout_to_json(l, &mut s) }, WeftStatus::Ok);
    let text = unsafe { std::ffi::CStr::from_ptr(s) }
        .to_str()
        .unwrap()
        .to_string();
    unsafe { weft_string_free(s) };
    LinearLayout::from_json(&text).unwrap()
}

#[test]
fn equals_the_rust_api_on_the_pycute_cases() {
    let f = fixtures();
    let mut checked = 0;
    for op in [
        "composition",
        "logical_divide",
        "logical_product",
        "complement",
    ] {
        for case in f[op].as_array().unwrap().iter().take(60) {
            let a_text = case["a"].as_str().unwrap();
            let a = handle(a_text);
            let mut out = null_mut();
            let want = if op == "complement" {
                let size = case["size"].as_u64().unwrap();
                assert_eq!(
                    unsafe { weft_cute_complement(a, size, &mut out) },
                    WeftStatus::Ok
                );
                cute::complement(&rust(a_text), size).unwrap()
            } else {
                let b_text = case["b"].as_str().unwrap();
                let b = handle(b_text);
                let (f, r): (unsafe extern "C" fn(_, _, _) -> WeftStatus, _) = match op {
                    "composition" => (
                        weft_cute_composition,
                        cute::composition(&rust(a_text), &rust(b_text)),
                    ),
                    "logical_divide" => (
                        weft_cute_logical_divide,
                        cute::logical_divide(&rust(a_text), &rust(b_text)),
                    ),
                    _ => (
                        weft_cute_logical_product,
                        cute::logical_product(&rust(a_text), &rust(b_text)),
                    ),
                };
                assert_eq!(unsafe { f(a, b, &mut out) }, WeftStatus::Ok, "{case}");
                unsafe { weft_layout_free(b) };
                r.unwrap()
            };
            assert_eq!(layout_of(out), want, "{op} {case}");
            unsafe { weft_layout_free(out) };
            unsafe { weft_layout_free(a) };
            checked += 1;
        }
    }
    assert_eq!(checked, 240);
}
