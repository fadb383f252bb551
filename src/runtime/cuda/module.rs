//! Modules (PTX or cubin images) and the kernels in them.

use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use cudarc::driver::{result, sys};

use super::handle::{Device, Shared};
use super::{code, driver_err, Cuda};
use crate::runtime::backend;
use crate::runtime::error::{BackendKind, Result, RuntimeError};
use crate::runtime::image;
use crate::runtime::launch::KernelAttrs;
use crate::signature::KernelSignature;

/// A loaded module: unloaded when the last [`Module`] or [`Kernel`] referring to it is dropped.
#[derive(Debug, Clone)]
pub struct Module {
    inner: Arc<ModuleInner>,
}

#[derive(Debug)]
struct ModuleInner {
    shared: Arc<Shared>,
    cu: sys::CUmodule,
}

// SAFETY: a CUmodule is a driver handle, valid on any thread whose current context is the module's;
// every use binds `shared.ctx` first. The handle is only unloaded in `Drop`, once.
unsafe impl Send for ModuleInner {}
// SAFETY: as above; the driver's module functions are thread-safe.
unsafe impl Sync for ModuleInner {}

impl Drop for ModuleInner {
    fn drop(&mut self) {
        let unloaded = self.shared.bind().and_then(|()| {
            // SAFETY: `cu` came from cuModuleLoadDataEx and no kernel of it is alive (they hold an Arc).
            unsafe { result::module::unload(self.cu) }.map_err(|e| driver_err("cuModuleUnload", e))
        });
        self.shared.drop_errors.record("module", unloaded);
    }
}

const LOG_BYTES: usize = 16 * 1024;

impl Module {
    pub(crate) fn from_ptx(shared: Arc<Shared>, ptx: &str) -> Result<Module> {
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
        Self::load(shared, text.as_ptr().cast(), "PTX", Some(ptx))
    }

    pub(crate) fn from_cubin(shared: Arc<Shared>, image: &[u8]) -> Result<Module> {
        check_binary(image)?;
        Self::load(shared, image.as_ptr().cast(), "cubin", None)
    }

    /// Loads `image` (NUL-terminated PTX, or a binary whose extent `check_binary` verified).
    fn load(
        shared: Arc<Shared>,
        image: *const c_void,
        what: &'static str,
        ptx: Option<&str>,
    ) -> Result<Module> {
        shared.bind()?;
        let mut log = vec![0u8; LOG_BYTES];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG_BYTES as *mut c_void];
        let mut cu: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: `image` is NUL-terminated PTX or a checked binary that outlives the call; the log
        // buffer holds LOG_BYTES bytes as announced; options and values have 2 entries each.
        let status = unsafe {
            sys::cuModuleLoadDataEx(
                &mut cu,
                image,
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if let Err(e) = status.result() {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            let log = String::from_utf8_lossy(&log[..end]).trim().to_string();
            let too_new = e.0 == sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
                || log.contains("Unsupported .version");
            if let (true, Some(ptx)) = (too_new, ptx) {
                let ptx_isa = image::ptx_isa_version(ptx)
                    .map(|(a, b)| format!("{a}.{b}"))
                    .unwrap_or_else(|| "?".into());
                let (ma, mi) = shared.props.driver_version;
                return Err(RuntimeError::PtxTooNew {
                    ptx_isa,
                    driver: format!("{ma}.{mi}"),
                });
            }
            return Err(RuntimeError::ModuleLoad {
                backend: BackendKind::Cuda,
                what,
                code: code(e),
                log,
            });
        }
        Ok(Module {
            inner: Arc::new(ModuleInner { shared, cu }),
        })
    }
}

impl backend::Module for Module {
    type Backend = Cuda;

    fn kernel(&self, signature: KernelSignature) -> Result<Kernel> {
        let shared = &self.inner.shared;
        shared.bind()?;
        let name =
            CString::new(signature.name.clone()).map_err(|_| RuntimeError::BadSignature {
                text: signature.to_string(),
                reason: "the kernel name contains a NUL byte".into(),
            })?;
        // SAFETY: the module is loaded and its context is current.
        let func = unsafe { result::module::get_function(self.inner.cu, name) }.map_err(|e| {
            RuntimeError::KernelNotFound {
                name: signature.name.clone(),
                code: code(e),
            }
        })?;
        let attr = |a| {
            // SAFETY: `func` is a live function of this module.
            unsafe { result::function::get_function_attribute(func, a) }
                .map(|v| v.max(0) as u32)
                .map_err(|e| driver_err("cuFuncGetAttribute", e))
        };
        use sys::CUfunction_attribute::*;
        let attrs = KernelAttrs {
            max_threads_per_block: attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            static_shared_bytes: attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
            num_regs: attr(CU_FUNC_ATTRIBUTE_NUM_REGS)?,
        };
        let default_dynamic = shared
            .props
            .limits
            .max_shared_per_block
            .saturating_sub(attrs.static_shared_bytes);
        Ok(Kernel {
            inner: Arc::new(KernelInner {
                module: self.inner.clone(),
                func,
                signature,
                attrs,
                dynamic_smem_limit: AtomicU32::new(default_dynamic),
            }),
        })
    }
}

/// Accepts an ELF cubin or a fatbin whose headers stay inside the slice (the driver reads the image
/// without being told its length).
fn check_binary(image: &[u8]) -> Result<()> {
    if image.starts_with(b"\x7fELF") {
        image::check_elf64(image, image::EM_CUDA, "cubin")
    } else if image.starts_with(&0xBA55_ED50u32.to_le_bytes()) {
        image::check_fatbin(image)
    } else {
        Err(RuntimeError::InvalidImage {
            what: "cubin",
            reason:
                "neither an ELF cubin nor a fatbin (wrong magic bytes); PTX text goes to `load_ptx`"
                    .into(),
        })
    }
}

/// A kernel of a loaded module, with its signature and attributes. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub(crate) inner: Arc<KernelInner>,
}

#[derive(Debug)]
pub(crate) struct KernelInner {
    module: Arc<ModuleInner>,
    pub(crate) func: sys::CUfunction,
    pub(crate) signature: KernelSignature,
    pub(crate) attrs: KernelAttrs,
    /// The current maximum-dynamic-shared-memory attribute, raised on demand.
    dynamic_smem_limit: AtomicU32,
}

// SAFETY: a CUfunction is a driver handle owned by the module, which this struct keeps alive; it is
// used only with the module's context current.
unsafe impl Send for KernelInner {}
// SAFETY: as above; the atomic makes the cached attribute safe to share.
unsafe impl Sync for KernelInner {}

impl backend::Kernel for Kernel {
    type Backend = Cuda;

    fn signature(&self) -> &KernelSignature {
        &self.inner.signature
    }

    fn attrs(&self) -> KernelAttrs {
        self.inner.attrs
    }

    fn device(&self) -> Device {
        Device {
            shared: self.inner.module.shared.clone(),
        }
    }

    /// Raises the kernel's maximum dynamic shared memory to `bytes` (the opt-in above 48 KB).
    fn reserve_dynamic_shared(&self, bytes: u32) -> Result<()> {
        if self.inner.dynamic_smem_limit.load(Ordering::Acquire) >= bytes {
            return Ok(());
        }
        self.inner.module.shared.bind()?;
        // SAFETY: the function is live and its context is bound.
        unsafe {
            result::function::set_function_attribute(
                self.inner.func,
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                bytes as i32,
            )
        }
        .map_err(|e| driver_err("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", e))?;
        self.inner
            .dynamic_smem_limit
            .fetch_max(bytes, Ordering::AcqRel);
        Ok(())
    }
}
