//! The ABI from many threads at once: every thread builds encodings, layouts and plans, reads handles shared
//! by all threads, and gets its own last-error message; every result equals the single-threaded one.

use std::ffi::{c_char, CStr, CString};
use std::ptr::null_mut;
use std::sync::Barrier;

use weft_c::*;

const THREADS: usize = 8;
const ROUNDS: usize = 50;

/// A string weft returned, copied and released.
fn take(p: *mut c_char) -> String {
    // SAFETY: a string weft just returned.
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    unsafe { weft_string_free(p) };
    s
}

fn last_error() -> String {
    // SAFETY: never null; valid until this thread's next call.
    unsafe { CStr::from_ptr(weft_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Parses `attr`, lays it out for 64×64, plans the conversion from `src`, and returns the plan's JSON, the
/// layout's JSON and its CuTe form.
fn work(src: *const WeftLayout, attr: &str) -> (String, String, String) {
    let attr = CString::new(attr).unwrap();
    let mut e = null_mut();
    assert_eq!(
        unsafe { weft_encoding_parse(attr.as_ptr(), &mut e) },
        WeftStatus::Ok,
        "{}",
        last_error()
    );
    let mut l = null_mut();
    let shape = [64u64, 64];
    assert_eq!(
        unsafe { weft_encoding_to_linear_layout(e, shape.as_ptr(), 2, &mut l) },
        WeftStatus::Ok
    );
    let mut plan = null_mut();
    let target = c"sm_90";
    assert_eq!(
        unsafe { weft_plan_conversion(src, l, 16, target.as_ptr(), &mut plan) },
        WeftStatus::Ok,
        "{}",
        last_error()
    );
    let (mut p, mut j, mut c) = (null_mut(), null_mut(), null_mut());
    assert_eq!(
        unsafe { weft_plan_to_string(plan, 1, &mut p) },
        WeftStatus::Ok
    );
    assert_eq!(unsafe { weft_layout_to_json(l, &mut j) }, WeftStatus::Ok);
    let cute = unsafe { weft_layout_to_cute(l, &mut c) };
    let cute = if cute == WeftStatus::Ok {
        take(c)
    } else {
        format!("{cute:?}: {}", last_error())
    };
    unsafe {
        weft_plan_free(plan);
        weft_layout_free(l);
        weft_encoding_free(e);
    }
    (take(p), take(j), cute)
}

const ATTRS: [&str; 4] = [
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>",
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
    "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>",
];

#[test]
fn many_threads_share_handles_and_agree() {
    // One source layout shared by every thread.
    let mut shared_enc = null_mut();
    let mma = CString::new("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>").unwrap();
    assert_eq!(
        unsafe { weft_encoding_parse(mma.as_ptr(), &mut shared_enc) },
        WeftStatus::Ok
    );
    let mut src = null_mut();
    let shape = [64u64, 64];
    assert_eq!(
        unsafe { weft_encoding_to_linear_layout(shared_enc, shape.as_ptr(), 2, &mut src) },
        WeftStatus::Ok
    );
    let expected: Vec<_> = ATTRS.iter().map(|a| work(src, a)).collect();
    // Threads read the handles through addresses: raw pointers are not `Send`, and the handles are immutable.
    let (src_addr, enc_addr) = (src as usize, shared_enc as usize);
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (barrier, expected) = (&barrier, &expected);
            s.spawn(move || {
                let src = src_addr as *const WeftLayout;
                let enc = enc_addr as *const WeftEncoding;
                barrier.wait();
                for round in 0..ROUNDS {
                    let i = (t + round) % ATTRS.len();
                    assert_eq!(
                        &work(src, ATTRS[i]),
                        &expected[i],
                        "thread {t} round {round}"
                    );
                    // A failure of this thread's own, read back after the other threads had theirs.
                    let bad = CString::new(format!("#ttg.blocked<{{thread = {t}}}>")).unwrap();
                    let mut e = null_mut();
                    assert_ne!(
                        unsafe { weft_encoding_parse(bad.as_ptr(), &mut e) },
                        WeftStatus::Ok
                    );
                    let mine = last_error();
                    let mut l = null_mut();
                    let size = [32u64, 32];
                    assert_eq!(
                        unsafe { weft_encoding_to_linear_layout(enc, size.as_ptr(), 2, &mut l) },
                        WeftStatus::Ok
                    );
                    unsafe { weft_layout_free(l) };
                    assert_eq!(last_error(), "", "a success clears this thread's message");
                    assert!(unsafe { weft_encoding_parse(bad.as_ptr(), &mut e) } != WeftStatus::Ok);
                    assert_eq!(last_error(), mine, "thread {t} sees its own message");
                }
            });
        }
    });
    unsafe {
        weft_layout_free(src);
        weft_encoding_free(shared_enc);
    }
}
