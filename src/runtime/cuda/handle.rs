//! The CUDA device's handle and the state that its clones, buffers, modules and streams share; the
//! device's constructors and its backend API are in `device.rs`, above every file that holds a handle.

use std::sync::Arc;

use cudarc::driver::{result, CudaContext};

use super::driver_err;
use super::props::DeviceProps;
use crate::runtime::device_shared;
use crate::runtime::error::{Result, RuntimeError};

/// CUDA's part of the shared state: the context and the device's properties.
#[derive(Debug)]
pub(crate) struct Context {
    pub(crate) ctx: Arc<CudaContext>,
    pub(crate) props: DeviceProps,
    /// `props.arch()`, kept for `Device::arch`.
    pub(crate) arch: String,
}

/// State shared by a device and everything made from it.
pub(crate) type Shared = device_shared::Shared<Context>;

impl Shared {
    pub(crate) fn bind(&self) -> Result<()> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| driver_err("cuCtxSetCurrent", e))
    }

    /// Maps an error seen at a synchronisation: kernel faults name the last kernel launched.
    pub(crate) fn sync_err(&self, call: &'static str, e: result::DriverError) -> RuntimeError {
        if super::is_kernel_fault(e) {
            self.kernel_fault(super::code(e))
        } else {
            driver_err(call, e)
        }
    }

    /// Waits for all work on the device.
    pub(crate) fn synchronize(&self) -> Result<()> {
        self.bind()?;
        self.ctx
            .synchronize()
            .map_err(|e| self.sync_err("cuCtxSynchronize", e))
    }
}

/// One CUDA GPU: its primary context, properties and default stream. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Device {
    pub(crate) shared: Arc<Shared>,
}

impl PartialEq for Device {
    fn eq(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared) || self.shared.ctx == other.shared.ctx
    }
}
