//! HIP modules (AMDGPU code objects), their kernels, and a kernel cache.

use std::ffi::CString;
use std::sync::Arc;

use super::handle::{Device, Shared};
use super::{check, code, sys, Hip};
use crate::runtime::backend;
use crate::runtime::cache::{CacheKey, KernelCache as Cache};
use crate::runtime::error::{BackendKind, Result, RuntimeError};
use crate::runtime::image;
use crate::runtime::launch::KernelAttrs;
use crate::runtime::prelude::*;
use crate::signature::KernelSignature;

/// A loaded code object, unloaded when the last [`Module`] or [`Kernel`] referring to it is dropped.
#[derive(Debug, Clone)]
pub struct Module {
    inner: Arc<ModuleInner>,
}

#[derive(Debug)]
struct ModuleInner {
    shared: Arc<Shared>,
    module: sys::HipModule,
}

// SAFETY: a hipModule_t is a runtime handle usable from any thread once the device is current;
// every use binds the device first, and the handle is unloaded only in `Drop`.
unsafe impl Send for ModuleInner {}
// SAFETY: as above; HIP's module functions are thread-safe.
unsafe impl Sync for ModuleInner {}

impl Drop for ModuleInner {
    fn drop(&mut self) {
        let s = &self.shared;
        let unloaded = s.bind().and_then(|()| {
            // SAFETY: the handle came from hipModuleLoadData; no kernel of it is alive (they hold
            // an Arc).
            check(s.lib, "hipModuleUnload", unsafe {
                (s.lib.hipModuleUnload)(self.module)
            })
        });
        s.drop_errors.record("module", unloaded);
    }
}

impl Module {
    pub(crate) fn load(shared: Arc<Shared>, image: &[u8]) -> Result<Module> {
        image::check_elf64(image, image::EM_AMDGPU, "code object")?;
        shared.bind()?;
        let lib = shared.lib;
        let mut module: sys::HipModule = std::ptr::null_mut();
        // SAFETY: the image is an ELF whose header tables lie inside the slice (checked above), and
        // the slice outlives the call; the handle is written through a valid pointer.
        let status = unsafe { (lib.hipModuleLoadData)(&mut module, image.as_ptr().cast()) };
        if status != sys::HIP_SUCCESS {
            let mut log = String::new();
            if status == sys::HIP_ERROR_NO_BINARY_FOR_GPU {
                log = format!(
                    "the code object was not built for this GPU ({})",
                    shared.props.name
                );
            }
            return Err(RuntimeError::ModuleLoad {
                backend: BackendKind::Hip,
                what: "code object",
                code: code(lib, status),
                log,
            });
        }
        Ok(Module {
            inner: Arc::new(ModuleInner { shared, module }),
        })
    }
}

impl backend::Module for Module {
    type Backend = Hip;

    fn kernel(&self, signature: KernelSignature) -> Result<Kernel> {
        let shared = &self.inner.shared;
        let lib = shared.lib;
        shared.bind()?;
        let name =
            CString::new(signature.name.clone()).map_err(|_| RuntimeError::BadSignature {
                text: signature.to_string(),
                reason: "the kernel name contains a NUL byte".into(),
            })?;
        let mut func: sys::HipFunction = std::ptr::null_mut();
        // SAFETY: the module is loaded; `name` is NUL-terminated; the handle is written through a
        // valid pointer.
        let status =
            unsafe { (lib.hipModuleGetFunction)(&mut func, self.inner.module, name.as_ptr()) };
        if status != sys::HIP_SUCCESS {
            return Err(RuntimeError::KernelNotFound {
                name: signature.name.clone(),
                code: code(lib, status),
            });
        }
        let attr = |a: i32| -> Result<u32> {
            let mut v = 0;
            // SAFETY: `func` is a live function of this module; writes one int.
            check(lib, "hipFuncGetAttribute", unsafe {
                (lib.hipFuncGetAttribute)(&mut v, a, func)
            })?;
            Ok(v.max(0) as u32)
        };
        let attrs = KernelAttrs {
            max_threads_per_block: attr(sys::func_attr::MAX_THREADS_PER_BLOCK)?,
            static_shared_bytes: attr(sys::func_attr::SHARED_SIZE_BYTES)?,
            num_regs: attr(sys::func_attr::NUM_REGS)?,
        };
        Ok(Kernel {
            inner: Arc::new(KernelInner {
                module: self.inner.clone(),
                func,
                signature,
                attrs,
            }),
        })
    }
}

/// A kernel of a loaded code object, with its signature and attributes. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub(crate) inner: Arc<KernelInner>,
}

#[derive(Debug)]
pub(crate) struct KernelInner {
    module: Arc<ModuleInner>,
    pub(crate) func: sys::HipFunction,
    pub(crate) signature: KernelSignature,
    pub(crate) attrs: KernelAttrs,
}

// SAFETY: a hipFunction_t is owned by the module this struct keeps alive; used with the device bound.
unsafe impl Send for KernelInner {}
// SAFETY: as above; the struct is immutable after construction.
unsafe impl Sync for KernelInner {}

impl backend::Kernel for Kernel {
    type Backend = Hip;

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

    /// AMD GPUs have no opt-in step: the whole LDS budget is available to every launch.
    fn reserve_dynamic_shared(&self, _bytes: u32) -> Result<()> {
        Ok(())
    }
}

/// Loaded HIP kernels keyed by code-object bytes, kernel name and device.
#[derive(Debug, Default)]
pub struct KernelCache {
    cache: Cache<Kernel>,
}

impl KernelCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The kernel `signature.name` of `image` on `dev`, loaded on the first request only.
    pub fn code_object(
        &self,
        dev: &Device,
        image: &[u8],
        signature: KernelSignature,
    ) -> Result<Kernel> {
        let target = format!("{}@{}", dev.arch(), dev.props().ordinal);
        let key = CacheKey::new(target, signature.name.clone(), image);
        self.cache
            .get_or_load(key, || dev.load_code_object(image)?.kernel(signature))
    }

    /// Lookups answered from the cache.
    pub fn hits(&self) -> u64 {
        self.cache.hits()
    }

    /// Lookups that loaded a module.
    pub fn misses(&self) -> u64 {
        self.cache.misses()
    }
}
