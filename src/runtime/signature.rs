//! Kernel signatures: what a launch is checked against.
//!
//! The code generator (`weft::codegen`) knows each kernel's parameters when it builds one; it converts
//! its own description into a [`KernelSignature`] so that `runtime` depends on neither `codegen` nor
//! `layout`. Hand-written kernels get a signature from text:
//! `KernelSignature::parse("saxpy(i32, f32, *f32, *f32)")`.
//!
//! A signature describes the ABI a launch must respect: the number of parameters, and for each
//! whether it is a device pointer (to which element type) or a scalar (of which type). Pointer
//! mutability and bounds are not part of it: no signature can prove those (see the launch docs).

use std::fmt;

use super::elem::ElemType;
use super::error::{Result, RuntimeError};

/// The type of one kernel parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// A global-memory pointer to elements of this type (8 bytes).
    Ptr(ElemType),
    /// A 32-bit signed integer scalar.
    I32,
    /// A 64-bit signed integer scalar.
    I64,
    /// A 32-bit unsigned integer scalar.
    U32,
    /// A 64-bit unsigned integer scalar.
    U64,
    /// A 32-bit float scalar.
    F32,
    /// A 64-bit float scalar.
    F64,
}

impl ParamType {
    /// Bytes the parameter occupies in the kernel's parameter buffer.
    pub fn size_bytes(self) -> usize {
        match self {
            ParamType::Ptr(_) | ParamType::I64 | ParamType::U64 | ParamType::F64 => 8,
            ParamType::I32 | ParamType::U32 | ParamType::F32 => 4,
        }
    }

    fn scalar_from_name(name: &str) -> Option<ParamType> {
        Some(match name {
            "i32" => ParamType::I32,
            "i64" => ParamType::I64,
            "u32" => ParamType::U32,
            "u64" => ParamType::U64,
            "f32" => ParamType::F32,
            "f64" => ParamType::F64,
            _ => return None,
        })
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::Ptr(e) => write!(f, "*{e}"),
            ParamType::I32 => f.write_str("i32"),
            ParamType::I64 => f.write_str("i64"),
            ParamType::U32 => f.write_str("u32"),
            ParamType::U64 => f.write_str("u64"),
            ParamType::F32 => f.write_str("f32"),
            ParamType::F64 => f.write_str("f64"),
        }
    }
}

/// A kernel's name and parameter types, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KernelSignature {
    /// The kernel's symbol name (the PTX `.entry` / ELF symbol).
    pub name: String,
    /// The parameters, in order.
    pub params: Vec<ParamType>,
}

impl KernelSignature {
    /// A signature from its parts.
    pub fn new(name: impl Into<String>, params: Vec<ParamType>) -> Self {
        KernelSignature {
            name: name.into(),
            params,
        }
    }

    /// Parses `name(t0, t1, ...)` where each type is a scalar (`i32 i64 u32 u64 f32 f64`) or a pointer
    /// `*E`, `*const E` or `*mut E` with `E` an [`ElemType`] name. This is the form [`fmt::Display`] prints.
    pub fn parse(text: &str) -> Result<KernelSignature> {
        let bad = |reason: String| RuntimeError::BadSignature {
            text: text.to_string(),
            reason,
        };
        let open = text
            .find('(')
            .ok_or_else(|| bad("missing `(` after the kernel name".into()))?;
        let name = text[..open].trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
        {
            return Err(bad(format!(
                "kernel name `{name}` must be a non-empty identifier"
            )));
        }
        let rest = text[open + 1..].trim_end();
        let inner = rest
            .strip_suffix(')')
            .ok_or_else(|| bad("missing `)` at the end".into()))?;
        let mut params = Vec::new();
        if !inner.trim().is_empty() {
            let mut offset = open + 1;
            for piece in inner.split(',') {
                let t = piece.trim();
                let p = if let Some(ptr) = t.strip_prefix('*') {
                    let elem = ptr.trim();
                    let elem = elem
                        .strip_prefix("const ")
                        .or_else(|| elem.strip_prefix("mut "))
                        .unwrap_or(elem)
                        .trim();
                    ElemType::from_name(elem)
                        .map(ParamType::Ptr)
                        .ok_or_else(|| {
                            bad(format!(
                                "at byte {offset}: unknown element type `{elem}` (known: {})",
                                known_elems()
                            ))
                        })?
                } else {
                    ParamType::scalar_from_name(t).ok_or_else(|| {
                        bad(format!(
                            "at byte {offset}: `{t}` is not a parameter type (scalars: i32 i64 u32 u64 f32 f64; pointers: *E)"
                        ))
                    })?
                };
                params.push(p);
                offset += piece.len() + 1;
            }
        }
        Ok(KernelSignature {
            name: name.to_string(),
            params,
        })
    }

    /// Checks a list of argument types against this signature: the count first, then each type.
    pub fn check(&self, args: &[ParamType]) -> Result<()> {
        if args.len() != self.params.len() {
            return Err(RuntimeError::ArgCount {
                kernel: self.name.clone(),
                expected: self.params.len(),
                got: args.len(),
                signature: self.to_string(),
            });
        }
        for (index, (&expected, &got)) in self.params.iter().zip(args).enumerate() {
            if expected != got {
                return Err(RuntimeError::ArgType {
                    kernel: self.name.clone(),
                    index,
                    expected,
                    got,
                });
            }
        }
        Ok(())
    }

    /// Total bytes of the parameter buffer (each parameter aligned to its size), for the 4 KB
    /// (32 KB on sm_70+ with CUDA 12.1) parameter limit.
    pub fn param_bytes(&self) -> usize {
        self.params.iter().fold(0, |acc, p| {
            let s = p.size_bytes();
            acc.div_ceil(s) * s + s
        })
    }
}

fn known_elems() -> String {
    ElemType::ALL
        .iter()
        .map(|e| e.name())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for KernelSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")
    }
}
