//! The quickstart's kernel and the tile configurations of the element-wise suites (GPU and
//! interpreter): the same builder calls run on both.

use weft::codegen::kernels::{blocked_1d, Tile2d};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};

/// The 1-D configurations tried: (block, per_thread, num_warps).
pub const CONFIGS_1D: [(u32, u32, u32); 5] = [
    (512, 4, 4),
    (1024, 4, 4),
    (2048, 4, 4),
    (2048, 8, 8),
    (4096, 8, 4),
];

/// The tiles of `copy_2d_kernel`.
pub const TILES: [Tile2d; 3] = [
    Tile2d {
        rows: 32,
        cols: 128,
        per_thread: 4,
        num_warps: 4,
    },
    Tile2d {
        rows: 16,
        cols: 256,
        per_thread: 4,
        num_warps: 8,
    },
    Tile2d {
        rows: 8,
        cols: 512,
        per_thread: 8,
        num_warps: 4,
    },
];

/// The tiles of `transpose_kernel`.
pub const TRANSPOSE_TILES: [Tile2d; 2] = [
    Tile2d {
        rows: 32,
        cols: 32,
        per_thread: 4,
        num_warps: 4,
    },
    Tile2d {
        rows: 64,
        cols: 128,
        per_thread: 4,
        num_warps: 8,
    },
];

/// The quickstart's kernel, `y[i] = a * x[i]`, with the same builder calls as
/// `examples/quickstart.rs` (which runs it too). Parameters `x, y: *f32, a: f32, n: i32`.
pub fn scale_kernel(ctx: &Context, block: u32) -> Kernel<'_> {
    let target = Target::SM90;
    let layout = blocked_1d(target, 4, 4, block).unwrap();
    let mut kb = KernelBuilder::new(ctx, target, "scale", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let a = kb.arg_f32("a").unwrap();
    let n = kb.arg_i32("n", 16).unwrap();
    let pid = kb.program_id(0).unwrap();
    let start = kb.mul(pid, block as i32).unwrap();
    let offs = kb.arange(0, block as i32, &layout).unwrap();
    let offs = kb.add(offs, start).unwrap();
    let mask = kb.lt(offs, n).unwrap();
    let px = kb.add(x, offs).unwrap();
    let v = kb.load(px, Some(mask), None).unwrap();
    let v = kb.mul(v, a).unwrap();
    let py = kb.add(y, offs).unwrap();
    kb.store(py, v, Some(mask)).unwrap();
    kb.finish().unwrap()
}
