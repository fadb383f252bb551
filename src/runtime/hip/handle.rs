//! The HIP device's handle and the state that its clones, buffers, modules and streams share; the
//! device's constructors and its backend API are in `device.rs`, above every file that holds a handle.

use std::sync::Arc;

use super::props::DeviceProps;
use super::{check, code, sys};
use crate::runtime::device_shared;
use crate::runtime::error::Result;

/// HIP's part of the shared state: the runtime library, the device's ordinal and properties.
#[derive(Debug)]
pub(crate) struct HipDevice {
    pub(crate) lib: &'static sys::HipLib,
    pub(crate) ordinal: i32,
    pub(crate) props: DeviceProps,
}

/// State shared by a device and everything made from it.
pub(crate) type Shared = device_shared::Shared<HipDevice>;

impl Shared {
    /// Makes this device current on the calling thread (HIP's current device is per thread).
    pub(crate) fn bind(&self) -> Result<()> {
        // SAFETY: plain call with a valid ordinal.
        check(self.lib, "hipSetDevice", unsafe {
            (self.lib.hipSetDevice)(self.ordinal)
        })
    }

    /// Maps a status seen at a synchronisation: kernel faults name the last kernel launched.
    pub(crate) fn sync_check(&self, call: &'static str, status: sys::HipError) -> Result<()> {
        if status == sys::HIP_ERROR_ILLEGAL_ADDRESS || status == sys::HIP_ERROR_LAUNCH_FAILURE {
            return Err(self.kernel_fault(code(self.lib, status)));
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
