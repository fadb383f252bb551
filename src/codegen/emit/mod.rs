//! The LLVM side: index CSE and known bits, thread coordinates, and the finished kernel's
//! pipelines and outputs (IR, PTX, code objects).

pub(crate) mod emitter;
pub(crate) mod index_cse;
pub(crate) mod output;
pub(crate) mod thread;

pub use output::{Kernel, OptLevel};
