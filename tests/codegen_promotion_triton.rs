//! The result type of every binary op on every pair of operand types, compared with Triton 3.9's
//! own (`tests/fixtures/promotion.json`, made by `scripts/triton_promotion.py` from Triton's
//! TTIR): tile with tile, tile with a scalar, scalar with scalar, and a tile with an integer or
//! float literal, for `+ - * / // %`, `<`, `==`, minimum, maximum and `where`. Where Triton
//! refuses, weft refuses with a typed error; the deliberate differences are listed in
//! [`deliberate`], each with its reason.
#![cfg(feature = "llvm")]

use weft::codegen::{CodegenError, Context, DType, KernelBuilder, Operand, Target, Type, Value};
use weft::layout::encoding::Blocked;

const N: i32 = 128;

fn dtype(name: &str) -> DType {
    match name {
        "i8" => DType::I8,
        "i16" => DType::I16,
        "i32" => DType::I32,
        "i64" => DType::I64,
        "fp16" => DType::F16,
        "bf16" => DType::BF16,
        "fp32" => DType::F32,
        "fp64" => DType::F64,
        "fp8e4nv" => DType::F8E4M3,
        "fp8e5" => DType::F8E5M2,
        other => panic!("the fixture names a type weft does not have: {other}"),
    }
}

/// Triton's name of `d`.
fn name(d: DType) -> &'static str {
    match d {
        DType::I1 => "i1",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::F16 => "fp16",
        DType::BF16 => "bf16",
        DType::F32 => "fp32",
        DType::F64 => "fp64",
        DType::F8E4M3 => "fp8e4nv",
        DType::F8E5M2 => "fp8e5",
    }
}

/// An operand: a tile or a scalar loaded through a pointer to `dt`, or a literal.
#[derive(Clone, Copy, Debug)]
enum Side {
    Tile(DType),
    Scalar(DType),
    Int,
    Float,
}

/// The element type weft gives `a op b` (by Triton's name), or the error it refuses with.
fn weft_result(op: &str, a: Side, b: Side) -> Result<&'static str, CodegenError> {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "promote", 4)?;
    let mut ptrs = Vec::new();
    for (i, s) in [a, b].iter().enumerate() {
        if let Side::Tile(d) | Side::Scalar(d) = s {
            ptrs.push(Some(kb.arg_ptr(&format!("p{i}"), *d, 16)?));
        } else {
            ptrs.push(None);
        }
    }
    let offs = kb.arange(0, N, Blocked::new(&[1], &[32], &[4], &[0]))?;
    let mut ops = Vec::new();
    for (s, p) in [a, b].iter().zip(&ptrs) {
        ops.push(match (s, p) {
            (Side::Tile(_), Some(p)) => {
                let q = kb.add(*p, offs)?;
                Operand::Value(kb.load(q, None, None)?)
            }
            (Side::Scalar(_), Some(p)) => Operand::Value(kb.load(*p, None, None)?),
            (Side::Float, _) => Operand::Float(1.5),
            _ => Operand::Int(3),
        });
    }
    let (x, y) = (ops[0], ops[1]);
    let r: Value = match op {
        "add" => kb.add(x, y)?,
        "sub" => kb.sub(x, y)?,
        "mul" => kb.mul(x, y)?,
        // weft has one division, `div`: Triton's `/` on floats, `//` on integers.
        "truediv" | "floordiv" => kb.div(x, y)?,
        "mod" => kb.rem(x, y)?,
        "lt" => kb.lt(x, y)?,
        "eq" => kb.eq(x, y)?,
        "minimum" => kb.min(x, y)?,
        "maximum" => kb.max(x, y)?,
        "where" => {
            let scalar = matches!((a, b), (Side::Scalar(_), Side::Scalar(_)));
            let c = if scalar {
                let pid = kb.program_id(0)?;
                kb.eq(pid, 0)?
            } else {
                let odd = kb.rem(offs, 2)?;
                kb.eq(odd, 0)?
            };
            kb.where_(c, x, y)?
        }
        other => panic!("the fixture names an op this test does not know: {other}"),
    };
    match kb.ty(r)? {
        Type::Scalar(d) => Ok(name(d)),
        t => panic!("{op}: a result of type {t}"),
    }
}

/// Why weft gives another result than Triton for `key` (form, op, types), if it does so on
/// purpose; `None` where weft must agree.
fn deliberate(key: &str, triton: &str) -> Option<&'static str> {
    let f: Vec<&str> = key.split(' ').collect();
    let (op, a) = (f[1], f[2]);
    let b = f.get(3).copied().unwrap_or("");
    let int = |t: &str| t.starts_with('i');
    let fp8 = |t: &str| t.starts_with("fp8");
    if op == "truediv" && int(a) && (int(b) || f[0] == "tile_int") {
        return Some(
            "`/` on integers is Rust's integer division (Triton's `//`), not a float quotient",
        );
    }
    if op == "floordiv" && triton.starts_with("rejected") {
        return Some("weft has one division: on floats it is `/` (Triton refuses `//` there)");
    }
    if matches!(op, "truediv" | "mod") && triton == "fp32" && ["fp16", "bf16"].contains(&a) {
        return Some(
            "f16/bf16 `/` and `%` compute in f32 and round back to the operands' type, as PyTorch \
             (Triton keeps the f32)",
        );
    }
    if fp8(a) || fp8(b) {
        return Some("fp8 is a storage type in weft: arithmetic on it is refused (cast first)");
    }
    None
}

#[test]
fn result_types_are_tritons() {
    let text = include_str!("fixtures/promotion.json");
    let fixture: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(fixture["triton"], "3.9.0");
    let results = fixture["results"].as_object().unwrap();
    assert!(results.len() > 3000, "the fixture covers every pair");
    let mut differ = Vec::new();
    let mut kept = 0;
    for (key, want) in results {
        let want = want.as_str().unwrap();
        let f: Vec<&str> = key.split(' ').collect();
        let (a, b) = match f[0] {
            "tile_tile" => (Side::Tile(dtype(f[2])), Side::Tile(dtype(f[3]))),
            "tile_scalar" => (Side::Tile(dtype(f[2])), Side::Scalar(dtype(f[3]))),
            "scalar_scalar" => (Side::Scalar(dtype(f[2])), Side::Scalar(dtype(f[3]))),
            "tile_int" => (Side::Tile(dtype(f[2])), Side::Int),
            "tile_float" => (Side::Tile(dtype(f[2])), Side::Float),
            other => panic!("unknown form {other}"),
        };
        let got = weft_result(f[1], a, b);
        let same = match (&got, want.starts_with("rejected")) {
            (Ok(t), false) => *t == want,
            (Err(_), true) => true,
            _ => false,
        };
        if same {
            continue;
        }
        if deliberate(key, want).is_some() {
            kept += 1;
            continue;
        }
        let got = match got {
            Ok(t) => t.to_string(),
            Err(e) => format!("refused: {e}"),
        };
        differ.push(format!("{key}: Triton {want}, weft {got}"));
    }
    assert!(
        differ.is_empty(),
        "{} differ from Triton ({kept} deliberately):\n{}",
        differ.len(),
        differ[..differ.len().min(60)].join("\n")
    );
}
