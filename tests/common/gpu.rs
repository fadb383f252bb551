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
