//! Running a kernel in the interpreter directly, under interpreter options (a random schedule),
//! for the tests of the interpreter itself. The kernel suites launch through the CPU backend
//! instead (`launch`).

use weft::codegen::interp::{self, LaunchArg, Memory};
use weft::codegen::Kernel;

/// Runs `k` over `programs` programs (along x) under `options`; panics with the interpreter's
/// error (a sanitizer finding or an unsupported op) naming `what`.
pub fn launch_with(
    k: &Kernel<'_>,
    programs: u32,
    args: &[LaunchArg],
    mem: &mut Memory,
    options: &interp::Options,
    what: &str,
) {
    interp::run_with(
        k,
        [programs, 1, 1],
        args,
        mem,
        options,
        &mut std::io::stdout(),
    )
    .unwrap_or_else(|e| panic!("{what}: {e}"));
}
