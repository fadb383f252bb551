//! What a program usually wants to know about an AMD GPU, read once when the device is opened.

use crate::runtime::launch::DeviceLimits;

/// What a program usually wants to know about an AMD GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProps {
    /// The device ordinal.
    pub ordinal: usize,
    /// The marketing name.
    pub name: String,
    /// The gfx architecture with its feature suffixes, e.g. `gfx942:sramecc+:xnack-` (empty when
    /// the runtime is older than ROCm 6 and does not say).
    pub arch: String,
    /// HIP's compute-capability approximation `(major, minor)` (e.g. `(9, 4)` on gfx942).
    pub compute_capability: (u32, u32),
    /// Compute units.
    pub cu_count: u32,
    /// Global memory in bytes.
    pub total_mem_bytes: u64,
    /// L2 cache in bytes.
    pub l2_bytes: u32,
    /// Peak memory clock in kHz.
    pub memory_clock_khz: u32,
    /// Memory bus width in bits.
    pub memory_bus_bits: u32,
    /// The launch limits.
    pub limits: DeviceLimits,
}
