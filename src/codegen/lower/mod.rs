//! Lowering to LLVM IR: the [`LowerCtx`](context::LowerCtx) that every lowering function takes
//! (the emitter, the value map, index CSE and known bits, thread coordinates, the report sink),
//! and the finished kernel's pipelines and outputs (IR, PTX, code objects).

pub(crate) mod context;
pub(crate) mod emitter;
pub(crate) mod function;
pub(crate) mod index_cse;
pub(crate) mod output;
pub(crate) mod thread;
pub(crate) mod values;

pub use output::{Kernel, OptLevel};
