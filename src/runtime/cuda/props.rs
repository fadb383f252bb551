//! What a program usually wants to know about a CUDA GPU, read once when the device is opened.

use crate::runtime::launch::DeviceLimits;

/// What a program usually wants to know about a GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProps {
    /// The device ordinal.
    pub ordinal: usize,
    /// The marketing name, e.g. `NVIDIA H100 80GB HBM3`.
    pub name: String,
    /// Compute capability `(major, minor)`, e.g. `(9, 0)`.
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Global memory in bytes.
    pub total_mem_bytes: u64,
    /// L2 cache in bytes.
    pub l2_bytes: u32,
    /// Peak memory clock in kHz (0 if the driver does not say).
    pub memory_clock_khz: u32,
    /// Memory bus width in bits.
    pub memory_bus_bits: u32,
    /// The driver's CUDA version `(major, minor)`.
    pub driver_version: (u32, u32),
    /// The launch limits.
    pub limits: DeviceLimits,
}

impl DeviceProps {
    /// The architecture, e.g. `sm_90` (the architecture-specific `sm_90a` also runs here; see
    /// [`Device::target`](crate::runtime::Device::target)).
    pub fn arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }

    /// Theoretical DRAM bandwidth in GB/s (double data rate × bus width), 0 if unknown.
    pub fn peak_bandwidth_gbs(&self) -> f64 {
        2.0 * self.memory_clock_khz as f64 * 1e3 * (self.memory_bus_bits as f64 / 8.0) / 1e9
    }
}
