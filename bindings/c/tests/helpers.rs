//! The helper layouts through the C ABI (`weft_tmem_reg_layout`, `weft_amd_mfma_scale_layout`,
//! `weft_scaled_upcast_fp4_scale_layout`, `weft_compute_efficient_padded_shared_layout`) on the Triton 3.9
//! fixtures the Rust tests use: Gluon's text of each result, or a failure where Triton refuses.

use std::ffi::{CStr, CString};
use std::ptr::null_mut;

use serde_json::Value;
use weft_c::*;

fn cases(name: &str) -> Vec<Value> {
    let path = format!("{}/../../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["cases"].as_array().unwrap().clone()
}

fn encoding(text: &str) -> *mut WeftEncoding {
    let mut e = null_mut();
    let t = CString::new(text).unwrap();
    assert_eq!(
        unsafe { weft_encoding_parse(t.as_ptr(), &mut e) },
        WeftStatus::Ok,
        "{text}"
    );
    e
}

/// Gluon's text of an encoding handle (then released).
fn gluon_text(e: *mut WeftEncoding) -> String {
    let mut s = null_mut();
    assert_eq!(
        unsafe { weft_encoding_to_string(e, 1, &mut s) },
        WeftStatus::Ok
    );
    let text = unsafe { CStr::from_ptr(s) }.to_str().unwrap().to_string();
    unsafe { weft_string_free(s) };
    unsafe { weft_encoding_free(e) };
    text
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

fn bits(dtype: &str) -> u32 {
    match dtype {
        "i8" | "float8e4nv" | "uint8" | "int8" => 8,
        "f16" | "bf16" | "float16" | "bfloat16" => 16,
        _ => 32,
    }
}

/// A tensor-memory layout spec of the fixtures as Gluon text.
fn tmem_text(spec: &Value) -> String {
    let p = &spec["params"];
    let cga = p
        .get("cga_layout")
        .map_or("[]".to_string(), |c| c.to_string());
    if spec["kind"] == "TensorMemoryScalesLayout" {
        return format!("TensorMemoryScalesLayout(cga_layout={cga})");
    }
    let b = u64s(&p["block"]);
    let flag = |k: &str| {
        if p.get(k).and_then(Value::as_bool) == Some(true) {
            "True"
        } else {
            "False"
        }
    };
    format!(
        "TensorMemoryLayout(block=({}, {}), col_stride={}, cga_layout={cga}, two_ctas={}, fp4_padded={})",
        b[0],
        b[1],
        p["col_stride"],
        flag("two_ctas"),
        flag("fp4_padded")
    )
}

#[test]
fn tmem_reg_layouts_equal_triton() {
    let mut checked = 0;
    for c in cases("tmem.json")
        .iter()
        .chain(&cases("tmem_scales.json"))
        .filter(|c| c["kind"] == "tmem_reg_layout")
        .step_by(5)
    {
        let mut tmem = null_mut();
        let t = CString::new(tmem_text(&c["tmem"])).unwrap();
        if unsafe { weft_encoding_parse(t.as_ptr(), &mut tmem) } != WeftStatus::Ok {
            assert!(c.get("error").is_some(), "{c}");
            continue;
        }
        let (shape, alloc) = (u64s(&c["shape"]), u64s(&c["alloc_shape"]));
        let v = CString::new(c["instr_variant"].as_str().unwrap()).unwrap();
        let mut out = null_mut();
        let status = if shape.len() == 2 {
            unsafe {
                weft_tmem_reg_layout(
                    bits(c["dtype"].as_str().unwrap()),
                    shape.as_ptr(),
                    alloc.as_ptr(),
                    alloc.len(),
                    tmem,
                    c["num_warps"].as_u64().unwrap() as u32,
                    v.as_ptr(),
                    &mut out,
                )
            }
        } else {
            WeftStatus::InvalidArgument // the C call takes a rank-2 view; Triton refuses the others too
        };
        match c.get("gluon") {
            Some(want) if c.get("error").is_none() => {
                assert_eq!(status, WeftStatus::Ok, "{c}");
                assert_eq!(gluon_text(out), want.as_str().unwrap(), "{c}");
            }
            _ => assert_ne!(status, WeftStatus::Ok, "{c}"),
        }
        unsafe { weft_encoding_free(tmem) };
        checked += 1;
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn amd_scale_layouts_equal_triton() {
    let mut checked = 0;
    for c in cases("amd.json") {
        let mut out = null_mut();
        let status = if c["kind"] == "mfma_scale_layout" {
            let a = &c["args"];
            let shape = u64s(&a["shape"]);
            let tiles: Vec<u32> = u64s(&a["tiles_per_warp"])
                .iter()
                .map(|&x| x as u32)
                .collect();
            let warps: Vec<u32> = u64s(&a["warps_per_cta"])
                .iter()
                .map(|&x| x as u32)
                .collect();
            unsafe {
                weft_amd_mfma_scale_layout(
                    a["op_idx"].as_u64().unwrap() as u32,
                    shape.as_ptr(),
                    a["m_dim"].as_u64().unwrap() as u32,
                    tiles.as_ptr(),
                    warps.as_ptr(),
                    &mut out,
                )
            }
        } else if c["kind"] == "upcast_fp4_scale_layout" {
            let src = encoding(c["src_gluon"].as_str().unwrap());
            let shape = u64s(&c["shape"]);
            let s = unsafe {
                weft_scaled_upcast_fp4_scale_layout(
                    src,
                    shape.as_ptr(),
                    shape.len(),
                    c["scale_extent"].as_u64().unwrap(),
                    c["axis"].as_u64().unwrap() as usize,
                    &mut out,
                )
            };
            unsafe { weft_encoding_free(src) };
            s
        } else {
            continue;
        };
        match c.get("gluon") {
            Some(want) => {
                assert_eq!(status, WeftStatus::Ok, "{c}");
                assert_eq!(gluon_text(out), want.as_str().unwrap(), "{c}");
            }
            None => assert_ne!(status, WeftStatus::Ok, "{c}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 532);
}

#[test]
fn efficient_padded_layouts_equal_triton() {
    let cases = cases("efficient_padded.json");
    for c in &cases {
        let dot = encoding(c["dot_gluon"].as_str().unwrap());
        let shape = u64s(&c["shape"]);
        let mut out = null_mut();
        let status = unsafe {
            weft_compute_efficient_padded_shared_layout(
                dot,
                shape.as_ptr(),
                bits(c["dtype"].as_str().unwrap()),
                c["is_k_contig"].as_bool().unwrap(),
                &mut out,
            )
        };
        unsafe { weft_encoding_free(dot) };
        match (c.get("error"), c.get("gluon")) {
            (Some(_), _) => assert_ne!(status, WeftStatus::Ok, "{c}"),
            (None, Some(Value::Null)) => {
                assert_eq!(status, WeftStatus::Ok, "{c}");
                assert!(out.is_null(), "{c}");
            }
            (None, Some(want)) => {
                assert_eq!(status, WeftStatus::Ok, "{c}");
                // Triton's binding hands the pairs back as tuples.
                let want = want
                    .as_str()
                    .unwrap()
                    .replace("=[(", "=[[")
                    .replace(")], offset", "]], offset");
                assert_eq!(gluon_text(out), want, "{c}");
            }
            (None, None) => panic!("{c}"),
        }
    }
    assert!(cases.len() >= 1000);
}
