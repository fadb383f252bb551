//! The HIP device's handle and the state that its clones, buffers, modules and streams share; the
//! device's constructors and its backend API are in `device.rs`, above every file that holds a handle.

use std::sync::{Arc, Mutex};

use super::props::DeviceProps;
use super::{check, code, sys};
use crate::runtime::backend::DropErrors;
use crate::runtime::error::{Result, RuntimeError};

/// State shared by a device and everything made from it.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) lib: &'static sys::HipLib,
    pub(crate) ordinal: i32,
    pub(crate) props: DeviceProps,
    pub(crate) last_kernel: Mutex<Option<String>>,
    /// Failed releases in `Drop`, until `take_drop_errors`.
    pub(crate) drop_errors: DropErrors,
}

impl Shared {
    /// Makes this device current on the calling thread (HIP's current device is per thread).
    pub(crate) fn bind(&self) -> Result<()> {
        // SAFETY: plain call with a valid ordinal.
        check(self.lib, "hipSetDevice", unsafe {
            (self.lib.hipSetDevice)(self.ordinal)
        })
    }

    pub(crate) fn set_last_kernel(&self, name: &str) {
        let mut last = self.last_kernel.lock().unwrap_or_else(|p| p.into_inner());
        if last.as_deref() != Some(name) {
            *last = Some(name.to_string());
        }
    }

    /// Maps a status seen at a synchronisation: kernel faults name the last kernel launched.
    pub(crate) fn sync_check(&self, call: &'static str, status: sys::HipError) -> Result<()> {
        if status == sys::HIP_ERROR_ILLEGAL_ADDRESS || status == sys::HIP_ERROR_LAUNCH_FAILURE {
            let kernel = self
                .last_kernel
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone()
                .unwrap_or_else(|| "<none launched>".into());
            return Err(RuntimeError::KernelFault {
                kernel,
                code: code(self.lib, status),
            });
        }
        check(self.lib, call, status)
    }

    pub(crate) fn synchronize(&self) -> Result<()> {
        self.bind()?;
        // SAFETY: plain call.
        self.sync_check("hipDeviceSynchronize", unsafe {
            (self.lib.hipDeviceSynchronize)()
        })
    }
}

/// One HIP GPU. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Device {
    pub(crate) shared: Arc<Shared>,
}

impl PartialEq for Device {
    fn eq(&self, other: &Device) -> bool {
        self.shared.ordinal == other.shared.ordinal
    }
}
