//! Kernels of the device printing and assertion tests (CPU: interpreter and PTX; GPU: the
//! driver's output) and their host references.

use weft::codegen::kernels::blocked_1d;
use weft::codegen::{Context, DType, Kernel, KernelBuilder, PrintFormat, Target, Value};
use weft::layout::encoding::{Blocked, Slice};

use super::rng::Rng;

/// Rows and columns of the mixed print kernel's tile (one tile per program).
pub const ROWS: u64 = 32;
/// See [`ROWS`].
pub const COLS: u64 = 16;

/// Four warps over a 32 × 16 tile, 4 registers per thread, each element in one thread.
fn mixed_layout() -> Blocked {
    Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0])
}

/// The row-major offsets of program `p`'s `rows × cols` tile (from `p · rows · cols`) in `l`,
/// and the program id.
pub fn program_tile(
    kb: &mut KernelBuilder<'_>,
    l: &Blocked,
    rows: u64,
    cols: u64,
) -> (Value, Value) {
    let r = kb
        .arange(0, rows as i32, Slice::new(1, l.clone().into()))
        .unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let r = kb.mul(r, cols as i32).unwrap();
    let c = kb
        .arange(0, cols as i32, Slice::new(0, l.clone().into()))
        .unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    let off = kb.add(r, c).unwrap();
    let pid = kb.program_id(0).unwrap();
    let base = kb.mul(pid, (rows * cols) as i32).unwrap();
    (kb.add(off, base).unwrap(), pid)
}

/// A kernel (4 warps, sm_90 for fp8) that prints program `p`'s 32 × 16 tiles of `x` (multiples
/// of 1/4 in [-4, 4], exact in f16 and e4m3) and `y` (any f32), row-major from `p · 512`: `x` as
/// f32 and f16, `y` as f32, `x` as e4m3 bits and the element offsets in hex (two operands of one
/// call), and the program id as a scalar.
pub fn mixed_print_kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "print_mixed", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let (off, pid) = program_tile(&mut kb, &mixed_layout(), ROWS, COLS);
    let px = kb.add(x, off).unwrap();
    let vx = kb.load(px, None, None).unwrap();
    let py = kb.add(y, off).unwrap();
    let vy = kb.load(py, None, None).unwrap();
    kb.device_print("x", &[vx]).unwrap();
    let h = kb.cast(vx, DType::F16).unwrap();
    kb.device_print("h", &[h]).unwrap();
    kb.device_print("y", &[vy]).unwrap();
    let e = kb.cast(vx, DType::F8E4M3).unwrap();
    kb.device_print_with("bits", &[e, off], PrintFormat::Hex)
        .unwrap();
    kb.device_print("pid", &[pid]).unwrap();
    kb.finish().unwrap()
}

/// `n` multiples of 1/4 in [-4, 4].
pub fn quarters(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| (rng.next_u64() % 33) as f32 * 0.25 - 4.0)
        .collect()
}

/// The e4m3 byte of `v`, a multiple of 1/4 in [-4, 4] (exact: a normal number or zero).
pub fn e4m3_bits(v: f32) -> u8 {
    if v == 0.0 {
        return 0;
    }
    let sign = if v < 0.0 { 0x80 } else { 0 };
    let a = v.abs();
    let e = a.log2().floor() as i32;
    let mant = ((a / 2f32.powi(e) - 1.0) * 8.0) as u8;
    sign | (((e + 7) as u8) << 3) | mant
}

/// The lines the mixed print kernel prints over `programs` programs, by the host.
pub fn mixed_print_lines(x: &[f32], y: &[f32], programs: u64) -> Vec<String> {
    let mut out = Vec::new();
    let n = ROWS * COLS;
    for p in 0..programs {
        let pid = format!("pid ({p}, 0, 0)");
        for i in 0..ROWS {
            for j in 0..COLS {
                let o = p * n + i * COLS + j;
                let (vx, vy) = (x[o as usize], y[o as usize]);
                let idx = format!("{pid} idx ({i:>2}, {j:>2})");
                out.push(format!("{idx} x: {:.6}", f64::from(vx)));
                let h = half::f16::from_f32(vx).to_f64();
                out.push(format!("{idx} h: {h:.6}"));
                out.push(format!("{idx} y: {:.6}", f64::from(vy)));
                out.push(format!("{idx} bits (operand 0): 0x{:02x}", e4m3_bits(vx)));
                out.push(format!("{idx} bits (operand 1): 0x{o:08x}"));
            }
        }
        out.push(format!("{pid} pid: {p}"));
    }
    out
}

/// Where an assertion was written: file and line.
pub type Site = (&'static str, u32);

/// A kernel (4 warps) asserting that every element of program `p`'s 512 elements of `x` is
/// below 100 (`tile`), and that `n` is positive (`scalar`); returns it and the two sites.
pub fn assert_kernel(ctx: &Context) -> (Kernel<'_>, Site, Site) {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "check_below", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    let l = blocked_1d(Target::SM90, 4, 4, 512).unwrap();
    let pid = kb.program_id(0).unwrap();
    let base = kb.mul(pid, 512).unwrap();
    let offs = kb.arange(0, 512, &l).unwrap();
    let offs = kb.add(offs, base).unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();
    let ok = kb.lt(v, 100.0).unwrap();
    let tile = (file!(), line!() + 1);
    kb.device_assert(ok, "x must stay below 100").unwrap();
    let positive = kb.gt(n, 0).unwrap();
    let scalar = (file!(), line!() + 1);
    kb.device_assert(positive, "n must be positive").unwrap();
    (kb.finish().unwrap(), tile, scalar)
}
