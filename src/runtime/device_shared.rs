//! The state a GPU device shares with its clones, buffers, modules and streams, for both GPU
//! backends: the vendor's part `V` (CUDA's context, HIP's library and ordinal, with the device's
//! properties), the name of the last kernel launched (for the message of a fault that surfaces
//! later) and the releases that failed in `Drop`. Each backend's `handle.rs` adds how to make its
//! device current and wait for it.

use std::ops::Deref;
use std::sync::Mutex;

use super::backend::DropErrors;
use super::error::{DriverCode, RuntimeError};

/// State shared by a device and everything made from it; reads through to the vendor's part.
#[derive(Debug)]
pub(crate) struct Shared<V> {
    vendor: V,
    /// Name of the last kernel launched on any stream of this device, for fault messages.
    last_kernel: Mutex<Option<String>>,
    /// Failed releases in `Drop`, until `take_drop_errors`.
    pub(crate) drop_errors: DropErrors,
}

impl<V> Shared<V> {
    /// The state of a device just opened: no kernel launched, no failed release.
    pub(crate) fn new(vendor: V) -> Self {
        Shared {
            vendor,
            last_kernel: Mutex::new(None),
            drop_errors: DropErrors::new(),
        }
    }

    /// Records `name` as the last kernel launched.
    pub(crate) fn set_last_kernel(&self, name: &str) {
        // A poisoned lock only means a thread panicked mid-write; the name itself is whole.
        let mut last = self.last_kernel.lock().unwrap_or_else(|p| p.into_inner());
        if last.as_deref() != Some(name) {
            *last = Some(name.to_string());
        }
    }

    /// The error of a kernel fault seen at a synchronisation (status `code`): it names the last
    /// kernel launched, the likely culprit.
    pub(crate) fn kernel_fault(&self, code: DriverCode) -> RuntimeError {
        let kernel = self
            .last_kernel
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .unwrap_or_else(|| "<none launched>".into());
        RuntimeError::KernelFault { kernel, code }
    }
}

impl<V> Deref for Shared<V> {
    type Target = V;

    fn deref(&self) -> &V {
        &self.vendor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault_kernel(s: &Shared<()>) -> String {
        match s.kernel_fault(DriverCode {
            code: 700,
            name: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            description: String::new(),
        }) {
            RuntimeError::KernelFault { kernel, .. } => kernel,
            e => panic!("not a kernel fault: {e}"),
        }
    }

    #[test]
    fn a_fault_names_the_last_kernel_launched() {
        let s = Shared::new(());
        assert_eq!(fault_kernel(&s), "<none launched>");
        s.set_last_kernel("gemm");
        s.set_last_kernel("softmax");
        assert_eq!(fault_kernel(&s), "softmax");
    }
}
