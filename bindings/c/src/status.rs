//! Status codes, the thread-local last-error message, and the guard every exported function runs its body in
//! (no panic crosses the boundary).

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use weft::layout::cute::CuteError;
use weft::layout::LayoutError;

/// What a call did. Every function returns one; on anything but `WEFT_STATUS_OK`, `weft_last_error()` says
/// why and no output was written.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeftStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was null.
    NullArgument = 1,
    /// A string argument was not valid UTF-8.
    InvalidUtf8 = 2,
    /// An argument out of range: a count above its limit, a misaligned pointer, an unknown target name.
    InvalidArgument = 3,
    /// The layout algebra rejected the input: the message names the rule it broke.
    LayoutError = 4,
    /// Text or JSON that does not parse: the message gives the position.
    ParseError = 5,
    /// A CuTe layout with no linear form, or a linear layout with no CuTe form: the message names the obstacle.
    CuteError = 6,
    /// An internal error (a bug in weft); the message describes it.
    Panic = 7,
}

/// An error on its way to the caller: a status and its message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: WeftStatus,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(status: WeftStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
}

impl From<LayoutError> for Failure {
    fn from(e: LayoutError) -> Failure {
        let status = match e {
            LayoutError::Parse { .. } => WeftStatus::ParseError,
            _ => WeftStatus::LayoutError,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<CuteError> for Failure {
    fn from(e: CuteError) -> Failure {
        match e {
            CuteError::Parse { .. } => Failure::new(WeftStatus::ParseError, e.to_string()),
            CuteError::Layout(inner) => inner.into(),
            _ => Failure::new(WeftStatus::CuteError, e.to_string()),
        }
    }
}

thread_local! {
    /// The message of the last failed call on this thread (empty after a success).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // A message never holds NUL bytes of its own; drop any that input text brought in.
    let text = CString::new(message.replace('\0', "")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// Runs `body`, turning its error or panic into a status and the thread's last-error message.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> WeftStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {
            set_last_error("");
            WeftStatus::Ok
        }
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_last_error(&format!("internal error in weft: {what}"));
            WeftStatus::Panic
        }
    }
}

/// Releases what `p` owns with `free` (null ignored) under `catch_unwind`, as every entry point runs.
pub(crate) fn release<T>(p: *mut T, free: impl FnOnce(*mut T)) {
    if !p.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| free(p)));
    }
}

/// The message of the last call on this thread that failed, or `""` after a call that succeeded. Never null.
/// The pointer stays valid until the next call of a weft function on the same thread; copy the text to keep
/// it. Each thread has its own message.
#[no_mangle]
pub extern "C" fn weft_last_error() -> *const c_char {
    catch_unwind(|| LAST_ERROR.with(|e| e.borrow().as_ptr())).unwrap_or(c"internal error".as_ptr())
}
