//! PTX to cubin through the driver's own linker (`cuLinkCreate`, `cuLinkAddData`,
//! `cuLinkComplete`): the JIT the driver runs when loading PTX, with its output kept, so a cubin
//! can be stored ([`DiskCache`](super::DiskCache)) or bundled and later loaded without a JIT.

use std::ffi::{c_void, CString};

use cudarc::driver::sys;

use super::device::Device;
use super::{code, driver_err};
use crate::runtime::error::{BackendKind, Result, RuntimeError};

const LOG_BYTES: usize = 16 * 1024;

/// A link state, destroyed on drop.
struct LinkState(sys::CUlinkState);

impl Drop for LinkState {
    fn drop(&mut self) {
        // SAFETY: the state came from cuLinkCreate and is destroyed once. A failed destroy
        // leaks the state's memory and nothing else, so its status is not reported.
        let _ = unsafe { sys::cuLinkDestroy(self.0) };
    }
}

impl Device {
    /// Compiles `ptx` to a cubin for this device with the driver's JIT (what loading the PTX
    /// would run), and returns the cubin's bytes. Errors carry the JIT's log.
    pub fn compile_ptx(&self, ptx: &str) -> Result<Vec<u8>> {
        if ptx.trim().is_empty() {
            return Err(RuntimeError::InvalidImage {
                what: "PTX",
                reason: "the text is empty".into(),
            });
        }
        let text = CString::new(ptx).map_err(|e| RuntimeError::InvalidImage {
            what: "PTX",
            reason: format!("it contains a NUL byte at offset {}", e.nul_position()),
        })?;
        self.shared.bind()?;
        let mut log = vec![0u8; LOG_BYTES];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG_BYTES as *mut c_void];
        let mut raw: sys::CUlinkState = std::ptr::null_mut();
        // SAFETY: two options with two values; the log buffer holds LOG_BYTES bytes and outlives
        // the link state (it is dropped after `state`, declared later).
        unsafe {
            sys::cuLinkCreate_v2(
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
                &mut raw,
            )
        }
        .result()
        .map_err(|e| driver_err("cuLinkCreate", e))?;
        let state = LinkState(raw);
        let failed = |e: cudarc::driver::result::DriverError, log: &[u8]| {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            RuntimeError::ModuleLoad {
                backend: BackendKind::Cuda,
                what: "PTX",
                code: code(e),
                log: String::from_utf8_lossy(&log[..end]).trim().to_string(),
            }
        };
        let name = c"weft.ptx";
        // SAFETY: `text` is NUL-terminated and its length with the NUL is passed; the driver
        // copies the input before returning.
        unsafe {
            sys::cuLinkAddData_v2(
                state.0,
                sys::CUjitInputType::CU_JIT_INPUT_PTX,
                text.as_ptr() as *mut c_void,
                text.as_bytes_with_nul().len(),
                name.as_ptr(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        }
        .result()
        .map_err(|e| failed(e, &log))?;
        let mut cubin: *mut c_void = std::ptr::null_mut();
        let mut size = 0usize;
        // SAFETY: the state is live; the driver writes a pointer to its own buffer and its size.
        unsafe { sys::cuLinkComplete(state.0, &mut cubin, &mut size) }
            .result()
            .map_err(|e| failed(e, &log))?;
        if cubin.is_null() || size == 0 {
            return Err(RuntimeError::InvalidImage {
                what: "cubin",
                reason: "the driver's linker returned no image".into(),
            });
        }
        // SAFETY: the driver's buffer holds `size` bytes until the state is destroyed (below).
        let bytes = unsafe { std::slice::from_raw_parts(cubin.cast::<u8>(), size) }.to_vec();
        drop(state);
        Ok(bytes)
    }
}
