//! Shared by the GPU tests: opening the device (or printing why the test is skipped) and random data.

use weft::runtime::cuda::{self, Device};

/// The first GPU, or `None` after printing a `SKIP:` line saying why there is none.
pub fn device() -> Option<Device> {
    if !cuda::is_available() {
        println!("SKIP: no CUDA driver (libcuda.so not found)");
        return None;
    }
    match Device::new(0) {
        Ok(d) => Some(d),
        Err(e) => {
            println!("SKIP: no usable GPU: {e}");
            None
        }
    }
}

/// SplitMix64: deterministic, seedable random numbers without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-4, 4), never exactly zero.
    pub fn f32(&mut self) -> f32 {
        let v = ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0;
        if v == 0.0 {
            0.5
        } else {
            v
        }
    }

    pub fn vec(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }
}
