//! A loaded program and its kernel.

use std::sync::Arc;

use super::handle::Device;
use super::Cpu;
use crate::codegen::ir::Program;
use crate::runtime::backend;
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::KernelAttrs;
use crate::signature::KernelSignature;

/// A kernel's recorded program, loaded on a CPU device. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Module {
    device: Device,
    program: Arc<Program>,
}

impl Module {
    pub(crate) fn new(device: Device, program: Program) -> Module {
        Module {
            device,
            program: Arc::new(program),
        }
    }
}

impl backend::Module for Module {
    type Backend = Cpu;

    /// The program's kernel, when `signature` names it and has its parameter count.
    fn kernel(&self, signature: KernelSignature) -> Result<Kernel> {
        let p = &self.program;
        if signature.name != p.name {
            return Err(RuntimeError::SignatureName {
                signature: signature.name.clone(),
                kernel: p.name.clone(),
            });
        }
        if signature.params.len() != p.params.len() {
            return Err(RuntimeError::BadSignature {
                text: signature.to_string(),
                reason: format!(
                    "the program `{}` has {} parameter(s)",
                    p.name,
                    p.params.len()
                ),
            });
        }
        Ok(Kernel {
            inner: Arc::new(KernelInner {
                module: self.clone(),
                signature,
            }),
        })
    }
}

/// A kernel of a loaded program, with its signature. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Kernel {
    inner: Arc<KernelInner>,
}

#[derive(Debug)]
struct KernelInner {
    module: Module,
    signature: KernelSignature,
}

impl Kernel {
    /// The recorded program the interpreter runs.
    pub fn program(&self) -> &Program {
        &self.inner.module.program
    }
}

impl backend::Kernel for Kernel {
    type Backend = Cpu;

    fn signature(&self) -> &KernelSignature {
        &self.inner.signature
    }

    /// The target's thread limit; no registers or static shared memory (the program's shared
    /// memory is all in the signature's `shared_bytes`).
    fn attrs(&self) -> KernelAttrs {
        KernelAttrs {
            max_threads_per_block: 1024,
            static_shared_bytes: 0,
            num_regs: 0,
        }
    }

    fn device(&self) -> Device {
        self.inner.module.device.clone()
    }

    /// The whole budget of the emulated target is available.
    fn reserve_dynamic_shared(&self, _bytes: u32) -> Result<()> {
        Ok(())
    }
}
