//! The HIP runtime functions weft uses, loaded from `libamdhip64.so` at run time.
//!
//! Hand-written rather than generated: bindgen would need ROCm's headers at build time, and the crate
//! must build on machines without ROCm. Only stable entry points with plain C signatures are listed;
//! `hipDeviceProp_t` (whose layout changed between ROCm releases) is avoided in favour of
//! `hipDeviceGetAttribute` with the enum values of ROCm 5 and later.

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::OnceLock;

use libloading::Library;

/// `hipError_t`.
pub type HipError = c_int;
/// `hipModule_t`.
pub type HipModule = *mut c_void;
/// `hipFunction_t`.
pub type HipFunction = *mut c_void;
/// `hipStream_t`.
pub type HipStream = *mut c_void;
/// `hipEvent_t`.
pub type HipEvent = *mut c_void;
/// `hipDeviceptr_t`.
pub type HipDeviceptr = *mut c_void;

/// `hipSuccess`.
pub const HIP_SUCCESS: HipError = 0;
/// `hipErrorInsufficientDriver`.
pub const HIP_ERROR_INSUFFICIENT_DRIVER: HipError = 35;
/// `hipErrorNoDevice`.
pub const HIP_ERROR_NO_DEVICE: HipError = 100;
/// `hipErrorNoBinaryForGpu`.
pub const HIP_ERROR_NO_BINARY_FOR_GPU: HipError = 209;
/// `hipErrorIllegalAddress`.
pub const HIP_ERROR_ILLEGAL_ADDRESS: HipError = 700;
/// `hipErrorLaunchFailure`.
pub const HIP_ERROR_LAUNCH_FAILURE: HipError = 719;

/// `hipDeviceAttribute_t` values (ROCm >= 5.0).
pub mod attr {
    #![allow(missing_docs)]
    pub const L2_CACHE_SIZE: i32 = 19;
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 23;
    pub const MAX_BLOCK_DIM_X: i32 = 26;
    pub const MAX_BLOCK_DIM_Y: i32 = 27;
    pub const MAX_BLOCK_DIM_Z: i32 = 28;
    pub const MAX_GRID_DIM_X: i32 = 29;
    pub const MAX_GRID_DIM_Y: i32 = 30;
    pub const MAX_GRID_DIM_Z: i32 = 31;
    pub const MAX_THREADS_PER_BLOCK: i32 = 56;
    pub const MEMORY_BUS_WIDTH: i32 = 59;
    pub const MEMORY_CLOCK_RATE: i32 = 60;
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 61;
    pub const MULTIPROCESSOR_COUNT: i32 = 63;
    pub const MAX_SHARED_MEMORY_PER_BLOCK: i32 = 74;
    pub const SHARED_MEM_PER_BLOCK_OPTIN: i32 = 75;
    pub const WARP_SIZE: i32 = 87;
}

/// `hipFunction_attribute` values (same numbering as CUDA's).
pub mod func_attr {
    #![allow(missing_docs)]
    pub const MAX_THREADS_PER_BLOCK: i32 = 0;
    pub const SHARED_SIZE_BYTES: i32 = 1;
    pub const NUM_REGS: i32 = 4;
}

/// Byte offset of `char gcnArchName[256]` in `hipDeviceProp_tR0600` (x86-64 / AArch64 layout of
/// ROCm 6's `hip_runtime_api.h`: 256 name bytes, a 16-byte UUID, then the CUDA-compatible fields
/// and `int reserved[63]; int hipReserved[32];`).
pub const PROPS_GCN_ARCH_NAME: usize = 1160;
/// Bytes allocated for a `hipDeviceProp_tR0600` (the struct has 1472; the rest is slack).
pub const PROPS_BYTES: usize = 4096;

/// `hipStreamNonBlocking`.
pub const HIP_STREAM_NON_BLOCKING: c_uint = 1;
/// `hipEventDefault`.
pub const HIP_EVENT_DEFAULT: c_uint = 0;

macro_rules! hip_table {
    ($($name:ident : fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        /// The loaded library and one function pointer per entry point.
        #[allow(non_snake_case, missing_docs)]
        pub struct HipLib {
            _lib: Library,
            $(pub $name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
            /// `hipGetDevicePropertiesR0600` (ROCm 6 and later; `None` before): fills a
            /// `hipDeviceProp_tR0600`, read only at [`PROPS_GCN_ARCH_NAME`].
            pub hipGetDevicePropertiesR0600: Option<unsafe extern "C" fn(*mut c_void, c_int) -> HipError>,
        }

        impl HipLib {
            fn load(lib: Library) -> Result<HipLib, String> {
                Ok(HipLib {
                    $($name: {
                        // SAFETY: the symbol is looked up by its exact C name and given the C
                        // signature from HIP's `hip_runtime_api.h`; the pointer is copied out of the
                        // `Symbol` but stays valid because `_lib` is stored beside it and never unloaded.
                        let sym = unsafe {
                            lib.get::<unsafe extern "C" fn($($arg),*) $(-> $ret)?>(concat!(stringify!($name), "\0").as_bytes())
                        };
                        *sym.map_err(|e| format!("the HIP library lacks `{}`: {e}", stringify!($name)))?
                    },)*
                    // SAFETY: as above; the C signature is `hipError_t (hipDeviceProp_tR0600*, int)`.
                    hipGetDevicePropertiesR0600: unsafe {
                        lib.get::<unsafe extern "C" fn(*mut c_void, c_int) -> HipError>(b"hipGetDevicePropertiesR0600\0")
                    }.ok().map(|sym| *sym),
                    _lib: lib,
                })
            }
        }
    };
}

hip_table! {
    hipInit: fn(c_uint) -> HipError;
    hipDriverGetVersion: fn(*mut c_int) -> HipError;
    hipGetErrorName: fn(HipError) -> *const c_char;
    hipGetErrorString: fn(HipError) -> *const c_char;
    hipGetDeviceCount: fn(*mut c_int) -> HipError;
    hipSetDevice: fn(c_int) -> HipError;
    hipDeviceGetAttribute: fn(*mut c_int, c_int, c_int) -> HipError;
    hipDeviceGetName: fn(*mut c_char, c_int, c_int) -> HipError;
    hipDeviceTotalMem: fn(*mut usize, c_int) -> HipError;
    hipDeviceSynchronize: fn() -> HipError;
    hipModuleLoadData: fn(*mut HipModule, *const c_void) -> HipError;
    hipModuleUnload: fn(HipModule) -> HipError;
    hipModuleGetFunction: fn(*mut HipFunction, HipModule, *const c_char) -> HipError;
    hipFuncGetAttribute: fn(*mut c_int, c_int, HipFunction) -> HipError;
    hipModuleLaunchKernel: fn(HipFunction, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, HipStream, *mut *mut c_void, *mut *mut c_void) -> HipError;
    hipMalloc: fn(*mut *mut c_void, usize) -> HipError;
    hipFree: fn(*mut c_void) -> HipError;
    hipMemcpyHtoD: fn(HipDeviceptr, *const c_void, usize) -> HipError;
    hipMemcpyDtoH: fn(*mut c_void, HipDeviceptr, usize) -> HipError;
    hipMemcpyDtoDAsync: fn(HipDeviceptr, HipDeviceptr, usize, HipStream) -> HipError;
    hipMemsetD8: fn(HipDeviceptr, u8, usize) -> HipError;
    hipStreamCreateWithFlags: fn(*mut HipStream, c_uint) -> HipError;
    hipStreamDestroy: fn(HipStream) -> HipError;
    hipStreamSynchronize: fn(HipStream) -> HipError;
    hipStreamWaitEvent: fn(HipStream, HipEvent, c_uint) -> HipError;
    hipEventCreateWithFlags: fn(*mut HipEvent, c_uint) -> HipError;
    hipEventRecord: fn(HipEvent, HipStream) -> HipError;
    hipEventSynchronize: fn(HipEvent) -> HipError;
    hipEventElapsedTime: fn(*mut f32, HipEvent, HipEvent) -> HipError;
    hipEventDestroy: fn(HipEvent) -> HipError;
}

/// Library names tried in order: `$ROCM_PATH/lib`, `/opt/rocm/lib`, then the loader's search path.
pub fn candidates() -> Vec<String> {
    let mut names = Vec::new();
    for var in ["ROCM_PATH", "HIP_PATH"] {
        if let Ok(root) = std::env::var(var) {
            names.push(format!("{root}/lib/libamdhip64.so"));
        }
    }
    names.push("/opt/rocm/lib/libamdhip64.so".into());
    for v in ["", ".7", ".6", ".5"] {
        names.push(format!("libamdhip64.so{v}"));
    }
    names
}

/// The HIP library, loaded once; `Err` says what was tried.
pub fn lib() -> Result<&'static HipLib, String> {
    static LIB: OnceLock<Result<HipLib, String>> = OnceLock::new();
    LIB.get_or_init(|| {
        let names = candidates();
        for name in &names {
            // SAFETY: loading runs the library's initialisers; libamdhip64 is the HIP runtime, whose
            // initialisers only set up its own state. No symbol is used before `HipLib::load` types it.
            if let Ok(lib) = unsafe { Library::new(name) } {
                return HipLib::load(lib);
            }
        }
        Err(format!(
            "libamdhip64.so (the ROCm HIP runtime) could not be loaded; tried {}",
            names.join(", ")
        ))
    })
    .as_ref()
    .map_err(Clone::clone)
}

impl std::fmt::Debug for HipLib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HipLib(libamdhip64)")
    }
}
