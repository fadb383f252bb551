//! The CPU device's handle and the state that its clones, buffers, modules and streams share; the
//! device's constructors and its backend API are in `device.rs`, above every file that holds a handle.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::codegen::interp::{Memory, Options};
use crate::runtime::backend::DropErrors;
use crate::target::Target;

/// What every clone of one [`Device`] shares: the target it emulates and the interpreter's memory.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) target: Target,
    pub(crate) options: Options,
    pub(super) name: String,
    pub(super) arch: String,
    mem: Mutex<Memory>,
    pub(super) drop_errors: DropErrors,
}

impl Shared {
    /// The state of a new device emulating `target`, with an empty memory.
    pub(super) fn new(target: Target, options: Options) -> Shared {
        Shared {
            target,
            options,
            name: format!("weft interpreter ({target})"),
            arch: target.to_string(),
            mem: Mutex::new(Memory::new()),
            drop_errors: DropErrors::new(),
        }
    }

    /// The memory, locked. A panic while it was held (a bug, not a kernel fault: those are
    /// errors) leaves it consistent, so a poisoned lock is taken over.
    pub(crate) fn mem(&self) -> MutexGuard<'_, Memory> {
        self.mem.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The host, running kernels built for `target` in the interpreter. Cheap to clone; clones share
/// one memory.
#[derive(Debug, Clone)]
pub struct Device {
    pub(crate) shared: Arc<Shared>,
}

impl PartialEq for Device {
    fn eq(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}
