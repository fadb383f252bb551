//! Running kernels in the interpreter directly: poisoned outputs in its memory, launches under
//! its options; the tolerances and checks are `check`'s.

use weft::codegen::interp::{self, DeviceBuffer, HostElem, InterpError, LaunchArg, Memory};
use weft::codegen::Kernel;

/// Elements allocated past each output, which must keep the poison.
pub use super::launch::PAD;

#[allow(unused_imports)]
pub use super::check::{close, exact, f32_bits, poison_intact, tol, tol_attention, widen, Tol};

/// A poisoned (0xFF bytes) output of `len` elements plus [`PAD`].
pub fn poisoned<T: HostElem>(mem: &mut Memory, len: usize) -> DeviceBuffer {
    mem.alloc_poisoned::<T>(len + PAD)
}

/// Runs `k` over `grid` and panics with the interpreter's error (a sanitizer finding or an
/// unsupported op) naming `what`.
pub fn launch(
    k: &Kernel<'_>,
    grid: impl Into<Grid>,
    args: &[LaunchArg],
    mem: &mut Memory,
    what: &str,
) {
    launch_with(k, grid, args, mem, &interp::Options::default(), what)
}

/// [`launch`] with interpreter `options` (a random schedule).
pub fn launch_with(
    k: &Kernel<'_>,
    grid: impl Into<Grid>,
    args: &[LaunchArg],
    mem: &mut Memory,
    options: &interp::Options,
    what: &str,
) {
    let g: Grid = grid.into();
    interp::run_with(k, g.0, args, mem, options).unwrap_or_else(|e| panic!("{what}: {e}"));
}

/// Runs `k` and returns its error (for kernels whose ops the interpreter refuses).
pub fn launch_err(
    k: &Kernel<'_>,
    grid: impl Into<Grid>,
    args: &[LaunchArg],
    mem: &mut Memory,
) -> InterpError {
    interp::run(k, grid.into().0, args, mem)
        .expect_err("the interpreter ran a kernel it should refuse")
}

/// Runs `k(x, y)` as one program on `x` uploaded and a poisoned `y` of `ylen` elements; returns
/// `y` (the interpreter's counterpart of `common::gpu::run_one_cta`).
pub fn run_one_cta<X: HostElem, Y: HostElem>(
    k: &Kernel<'_>,
    x: &[X],
    ylen: usize,
    what: &str,
) -> Vec<Y> {
    let mut mem = Memory::new();
    let dx = mem.upload(x);
    let dy = mem.alloc_poisoned::<Y>(ylen);
    launch(
        k,
        1u32,
        &[LaunchArg::Buffer(dx), LaunchArg::Buffer(dy)],
        &mut mem,
        what,
    );
    mem.download(dy)
}

/// A launch grid: `u32` (x only), or `(x, y, z)` as the kernels' `grid()` helpers return.
pub struct Grid(pub [u32; 3]);

impl From<u32> for Grid {
    fn from(x: u32) -> Grid {
        Grid([x, 1, 1])
    }
}

impl From<(u32, u32, u32)> for Grid {
    fn from((x, y, z): (u32, u32, u32)) -> Grid {
        Grid([x, y, z])
    }
}
