//! The host side of the TMA elementwise adds (tutorials 04 and 08): two random `x × y` f32
//! matrices and C behind tensor maps with `block` boxes, one program per `block[0]` rows, C
//! checked bit for bit against A + B, and on a GPU the kernel timed beside a device copy moving
//! the same bytes. A timed run (the tutorial's 32768², 4 GiB a matrix) fills A and B on the
//! device and is not checked: generating, uploading and comparing 3 · 2³⁰ values on the host
//! takes longer than the whole timing, so the caller checks the same kernel on a small ragged
//! problem on the same GPU first.

use super::Result;
use weft::codegen::Kernel;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// Adds two `x × y` matrices with `kernel` (boxes `block`, arguments `a, b, c` maps and
/// `ynumel`) on `dev`: without `time`, random ones, C checked bit for bit; with `time`, A and B
/// filled on the device, C unchecked, returns (kernel ms, ms of a device copy of 6 x y bytes,
/// which reads and writes the 12 x y bytes the kernel moves).
pub fn run<B: Backend>(
    dev: &B::Device,
    kernel: &Kernel<'_>,
    block: [u32; 2],
    (x, y): (usize, usize),
    time: bool,
) -> Result<(f64, f64)> {
    let (da, db, ha, hb) = super::inputs::<B>(dev, x * y, time)?;
    let mut dc = dev.alloc::<f32>(x * y)?;
    dc.fill_bytes(0xFF)?;
    let shape = [x as u64, y as u64];
    let a = dev.tensor_map(&da, &shape, &[y as u64], &block, 0)?;
    let b = dev.tensor_map(&db, &shape, &[y as u64], &block, 0)?;
    let c = dev.tensor_map(&dc, &shape, &[y as u64], &block, 0)?;
    let loaded = kernel.load_on::<B>(dev)?;
    let mut args = KernelArgs::new();
    args.tensor_map(&a)
        .tensor_map(&b)
        .tensor_map(&c)
        .scalar(y as i32);
    let cfg = LaunchConfig::for_kernel(x.div_ceil(block[0] as usize) as u32, kernel.signature())?;
    // SAFETY: the kernel touches A, B and C only through the maps, which cover them.
    unsafe { super::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    if !time {
        super::check_sum(&dc.to_vec()?, &ha, &hb, y)?;
        return Ok((0.0, 0.0));
    }
    super::time_against_d2d::<B>(dev, &loaded, &cfg, &args, x * y * 6)
}
