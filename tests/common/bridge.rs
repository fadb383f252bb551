//! Bridge between the builder and the launcher, which know nothing of each other: a codegen
//! [`KernelSignature`](weft::codegen::KernelSignature) becomes the runtime's text form
//! (`name(*f32, *f32, i32)`) and is parsed by [`weft::runtime::KernelSignature::parse`]. Shared
//! by `tests/gpu_kernels.rs` and the examples (through `#[path]`).
#![allow(dead_code)]

use weft::codegen::{self, ParamType};
use weft::runtime;

/// The runtime's text form of a codegen signature: pointers as `*E`, scalars by name.
pub fn runtime_text(sig: &codegen::KernelSignature) -> String {
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| match p.ty {
            ParamType::Ptr(d) => format!("*{d}"),
            ParamType::I32 => "i32".into(),
            ParamType::I64 => "i64".into(),
            ParamType::F32 => "f32".into(),
        })
        .collect();
    format!("{}({})", sig.name, params.join(", "))
}

/// The launcher's signature for a kernel the builder made.
pub fn runtime_signature(
    sig: &codegen::KernelSignature,
) -> Result<runtime::KernelSignature, runtime::RuntimeError> {
    runtime::KernelSignature::parse(&runtime_text(sig))
}
