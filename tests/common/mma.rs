//! Small kernels that exercise one Ampere op each (`cp.async`, `ldmatrix`, `dot`), for the
//! codegen (ptxas, instruction counts), GPU and interpreter tests; their element types, random
//! operands and the f64 host reference of `dot`.

use half::{bf16, f16};
use weft::codegen::interp::HostElem;
use weft::codegen::kernels::{self, tile_coords, Tile2d};
use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::helpers::default_nvmma_shared;
use weft::layout::encoding::{Blocked, CgaLayout, DotOperand, Encoding, NvidiaMma};
use weft::runtime::DeviceElem;

use super::rng::Rng;

/// A blocked layout of `per` consecutive elements per thread along the columns of a
/// `rows × cols` tile (the kernels' `tile_layout`).
pub fn row_blocked(rows: u32, cols: u32, per: u32, num_warps: u32) -> Encoding {
    let t = Tile2d {
        rows,
        cols,
        per_thread: per.min(cols),
        num_warps,
    };
    kernels::tile_layout(Target::SM80, t).unwrap().into()
}

/// A blocked layout walking down the columns (each thread one element, lanes along the rows):
/// the other threads' elements of a row-major copy, so a round trip through shared memory
/// crosses threads.
pub fn col_blocked(rows: u32, num_warps: u32) -> Encoding {
    let lanes_r = rows.min(32);
    Blocked::new(&[1, 1], &[lanes_r, 32 / lanes_r], &[1, num_warps], &[0, 1]).into()
}

/// `y = x` tile by tile through shared memory with `cp.async`: each CTA copies the
/// `rows × cols` tile `(pid1, pid0)` of the `m × n` row-major `x` (masked: zero-filled outside)
/// into a buffer of layout `shared`, waits, reads it back in a column-walking layout and stores
/// the whole tile into `y`, a row-major matrix of row stride `ny` covering every tile. So
/// `y[i, j] = x[i, j]` inside `m × n` and 0 outside. With `ring > 1` the buffer is one of a
/// ring, chosen at run time. Parameters: `x, y: ptr<dtype>, m, n, ny:
/// i32` (`n` declared divisible by `div_n`). Grid: `(⌈n / cols⌉, ⌈m / rows⌉)`.
#[allow(clippy::too_many_arguments)]
pub fn cp_async_tile_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    dtype: DType,
    rows: u32,
    cols: u32,
    per: u32,
    shared: &Encoding,
    num_warps: u32,
    div_n: u64,
    ring: u64,
) -> Result<Kernel<'c>, CodegenError> {
    let mut kb = KernelBuilder::new(ctx, target, "cp_async_tile", num_warps)?;
    let x = kb.arg_ptr("x", dtype, 16)?;
    let y = kb.arg_ptr("y", dtype, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", div_n)?;
    let ny = kb.arg_i32("ny", 1)?;
    let pid_c = kb.program_id(0)?;
    let pid_r = kb.program_id(1)?;
    let r0 = kb.mul(pid_r, rows as i32)?;
    let c0 = kb.mul(pid_c, cols as i32)?;
    let shape = [rows as u64, cols as u64];
    let ld = row_blocked(rows, cols, per, num_warps);
    let (r, c) = tile_coords(&mut kb, &ld, shape, Some(r0), Some(c0))?;
    let rm = kb.lt(r, m)?;
    let cm = kb.lt(c, n)?;
    let mask = kb.and(rm, cm)?;
    let off = kb.mul(r, n)?;
    let off = kb.add(off, c)?;
    let px = kb.add(x, off)?;
    let smem = ring_buffer(&mut kb, dtype, &shape, shared, ring, pid_c)?;
    kb.async_copy_global_to_shared(smem, px, Some(mask))?;
    kb.async_commit_group()?;
    kb.async_wait_group(0)?;
    kb.barrier()?;
    let st = col_blocked(rows, num_warps);
    let v = kb.load_shared(smem, &st)?;
    let (r, c) = tile_coords(&mut kb, &st, shape, Some(r0), Some(c0))?;
    let off = kb.mul(r, ny)?;
    let off = kb.add(off, c)?;
    let py = kb.add(y, off)?;
    kb.store(py, v, None)?;
    kb.finish()
}

/// A buffer of `shape` in `shared`: a plain allocation for `ring == 1`, else buffer
/// `(pid + 1) % ring` (an index known only at run time, never 0 for program 0) of a ring of
/// `ring` buffers, so that ops reading a view's run-time base are exercised.
fn ring_buffer(
    kb: &mut KernelBuilder<'_>,
    dtype: DType,
    shape: &[u64; 2],
    shared: &Encoding,
    ring: u64,
    pid: Value,
) -> Result<Value, CodegenError> {
    if ring == 1 {
        return kb.alloc_shared(dtype, shape, shared);
    }
    let bufs = kb.alloc_shared_buffers(dtype, ring, shape, shared)?;
    let i = kb.add(pid, 1)?;
    let i = kb.rem(i, ring as i32)?;
    kb.index_shared(bufs, i)
}

/// The Ampere MMA layouts for an `m × n` accumulator over `num_warps` warps, as `mma_for_dot`
/// spreads the warps, and the operand layouts with `k_width = 32 / bits`.
pub fn mma_layouts(
    m: u64,
    n: u64,
    num_warps: u32,
    bits: u32,
) -> (NvidiaMma, DotOperand, DotOperand) {
    let (acc, a, b) =
        weft::layout::encoding::helpers::mma_for_dot(2, m, n, num_warps, bits).unwrap();
    (acc, a, b.unwrap())
}

/// `y = x` for one `rows × cols` row-major 16-bit tile, read back from shared memory (layout
/// `shared`) with `ldmatrix` into `dot` (operand `op` of an Ampere MMA) and stored from there.
/// Parameters: `x, y: ptr<dtype>`. One CTA.
#[allow(clippy::too_many_arguments)] // one argument per property of the tile under test
pub fn ldmatrix_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    dtype: DType,
    shape: [u64; 2],
    shared: &Encoding,
    dot: &DotOperand,
    num_warps: u32,
    ring: u64,
) -> Result<Kernel<'c>, CodegenError> {
    let mut kb = KernelBuilder::new(ctx, target, "operand_tile", num_warps)?;
    let x = kb.arg_ptr("x", dtype, 16)?;
    let y = kb.arg_ptr("y", dtype, 16)?;
    let ld = row_blocked(shape[0] as u32, shape[1] as u32, 8, num_warps);
    let (r, c) = tile_coords(&mut kb, &ld, shape, None, None)?;
    let off = kb.mul(r, shape[1] as i32)?;
    let off = kb.add(off, c)?;
    let px = kb.add(x, off)?;
    let v = kb.load(px, None, None)?;
    let pid = kb.program_id(0)?;
    let smem = ring_buffer(&mut kb, dtype, &shape, shared, ring, pid)?;
    kb.store_shared(smem, v)?;
    kb.barrier()?;
    let t = kb.ldmatrix(smem, dot)?;
    // The offsets computed in the operand's layout: converting them would read shared memory
    // too (with ldmatrix where planned), and the tests count this kernel's ldmatrix.
    let dot_enc = Encoding::from(dot.clone());
    let (r, c) = tile_coords(&mut kb, &dot_enc, shape, None, None)?;
    let off = kb.mul(r, shape[1] as i32)?;
    let off = kb.add(off, c)?;
    let py = kb.add(y, off)?;
    kb.store(py, t, None)?;
    kb.finish()
}

/// `d = c + a · b` for one tile: `a` (`m × k`) and `b` (`k × n`) of `dtype`, `c` and `d` f32,
/// all row-major, loaded in blocked layouts and converted to the MMA layouts around one `dot`.
/// Parameters: `a, b: ptr<dtype>, c, d: ptr<f32>`. One CTA.
pub fn dot_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    dtype: DType,
    mnk: [u64; 3],
    num_warps: u32,
) -> Result<Kernel<'c>, CodegenError> {
    let [m, n, k] = mnk;
    let bits = (dtype.mem_bytes() * 8) as u32;
    let (acc, da, db) = mma_layouts(m, n, num_warps, bits);
    let mut kb = KernelBuilder::new(ctx, target, "dot_tile", num_warps)?;
    let a = kb.arg_ptr("a", dtype, 16)?;
    let b = kb.arg_ptr("b", dtype, 16)?;
    let c = kb.arg_ptr("c", DType::F32, 16)?;
    let d = kb.arg_ptr("d", DType::F32, 16)?;
    let tile = |kb: &mut KernelBuilder<'_>, p: Value, rows: u64, cols: u64| {
        let l = row_blocked(rows as u32, cols as u32, 4, num_warps);
        let (r, cc) = tile_coords(kb, &l, [rows, cols], None, None)?;
        let off = kb.mul(r, cols as i32)?;
        let off = kb.add(off, cc)?;
        let ptr = kb.add(p, off)?;
        Ok::<_, CodegenError>((kb.load(ptr, None, None)?, off))
    };
    let (ta, _) = tile(&mut kb, a, m, k)?;
    let (tb, _) = tile(&mut kb, b, k, n)?;
    let (tc, offs_c) = tile(&mut kb, c, m, n)?;
    let ta = kb.convert_layout(ta, &da)?;
    let tb = kb.convert_layout(tb, &db)?;
    let tc = kb.convert_layout(tc, &acc)?;
    let td = kb.dot(ta, tb, tc)?;
    let l = kb.layout(offs_c)?.expect("a tile");
    let td = kb.convert_layout(td, &l)?;
    let pd = kb.add(d, offs_c)?;
    kb.store(pd, td, None)?;
    kb.finish()
}

/// A host element type of the tests: f16, bf16 or f32, with its bits and value.
pub trait Elem: DeviceElem + HostElem + Copy + PartialEq + std::fmt::Debug {
    fn from_f32(x: f32) -> Self;
    fn to_f32(self) -> f32;
    fn bits(self) -> u32;
}

/// `Elem` for the `half` types, which share their method names.
macro_rules! half_elem {
    ($($t:ident),*) => {$(
        impl Elem for $t {
            fn from_f32(x: f32) -> Self {
                $t::from_f32(x)
            }
            fn to_f32(self) -> f32 {
                $t::to_f32(self)
            }
            fn bits(self) -> u32 {
                self.to_bits() as u32
            }
        }
    )*};
}
half_elem!(f16, bf16);

impl Elem for f32 {
    fn from_f32(x: f32) -> Self {
        x
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

/// `n` random values in [-1, 1), never zero, in `T`.
pub fn random<T: Elem>(rng: &mut Rng, n: usize) -> Vec<T> {
    (0..n).map(|_| T::from_f32(rng.f32() / 4.0)).collect()
}

/// The default NVMMA shared layout of a `shape` tile of `bits`-bit elements.
pub fn nvmma(shape: [u64; 2], bits: u32) -> Encoding {
    default_nvmma_shared(&shape, bits, false, false, CgaLayout::single())
        .unwrap()
        .into()
}

/// `c + a · b` in f64 (row-major), and the bound `Σ |a| |b|` per element.
pub fn dot_reference(
    a: &[f32],
    b: &[f32],
    c: Option<&[f32]>,
    m: usize,
    n: usize,
    k: usize,
) -> (Vec<f64>, Vec<f64>) {
    let mut out = vec![0f64; m * n];
    let mut mag = vec![0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            let x = a[i * k + p] as f64;
            for j in 0..n {
                let y = b[p * n + j] as f64;
                out[i * n + j] += x * y;
                mag[i * n + j] += (x * y).abs();
            }
        }
        if let Some(c) = c {
            for j in 0..n {
                out[i * n + j] += c[i * n + j] as f64;
                mag[i * n + j] += (c[i * n + j] as f64).abs();
            }
        }
    }
    (out, mag)
}

/// The `ldmatrix` cases of an Ampere MMA over `warps` warps: the tile shape, its shared layout,
/// the operand it is read into, and a name saying which path the plan takes.
pub fn ldmatrix_cases(warps: u32) -> Vec<([u64; 2], Encoding, DotOperand, &'static str)> {
    let (_, da, db) = mma_layouts(128, 128, warps, 16);
    let sw = |vec, max_phase, order: [u32; 2]| -> Encoding {
        weft::layout::encoding::SwizzledShared::new(vec, 1, max_phase, &order).into()
    };
    vec![
        ([128, 32], nvmma([128, 32], 16), da.clone(), "A, NVMMA (x4)"),
        ([128, 64], sw(8, 8, [1, 0]), da.clone(), "A, swizzled (x4)"),
        (
            [128, 32],
            sw(1, 1, [0, 1]),
            da.clone(),
            "A, column-major (.trans)",
        ),
        ([128, 32], sw(1, 8, [1, 0]), da, "A, scattered (ld.shared)"),
        (
            [32, 128],
            nvmma([32, 128], 16),
            db.clone(),
            "B, NVMMA (.trans)",
        ),
        (
            [64, 128],
            sw(8, 8, [1, 0]),
            db.clone(),
            "B, swizzled (.trans)",
        ),
        ([32, 128], sw(1, 1, [0, 1]), db, "B, column-major (x4)"),
    ]
}

/// The rows and columns of the `cp.async` tests' tiles.
pub const CP_ASYNC_TILE: usize = 64;

/// One `cp.async` kernel of the tests: its shared layout, the divisibility of `n` it is built
/// for, its ring of buffers.
pub struct CpAsyncVariant {
    pub shared: Encoding,
    pub div_n: u64,
    pub ring: u64,
}

/// The `cp.async` kernels tried on an `n`-column input of `T`: the default NVMMA layout and a
/// swizzle of 16-byte vectors, each built for the divisibility `n` has, for none, and for 16
/// with a ring of 3 (where `n` allows).
pub fn cp_async_variants<T: Elem>(n: usize) -> Vec<CpAsyncVariant> {
    let bytes = T::DTYPE.mem_bytes();
    let shareds: [Encoding; 2] = [
        nvmma([CP_ASYNC_TILE as u64; 2], (bytes * 8) as u32),
        weft::layout::encoding::SwizzledShared::new((16 / bytes) as u32, 2, 4, &[1, 0]).into(),
    ];
    let mut v = Vec::new();
    for shared in shareds {
        for (div_n, ring) in [(kernels::size_divisibility(n as u64), 1), (1, 1), (16, 3)] {
            if (n as u64).is_multiple_of(div_n) {
                v.push(CpAsyncVariant {
                    shared: shared.clone(),
                    div_n,
                    ring,
                });
            }
        }
    }
    v
}

/// The kernel of `v` for `T` (4 warps, 16-byte copies), built for `target`.
pub fn cp_async_variant_kernel<'c, T: Elem>(
    ctx: &'c Context,
    target: Target,
    v: &CpAsyncVariant,
) -> Result<Kernel<'c>, CodegenError> {
    let t = CP_ASYNC_TILE as u32;
    let per = (16 / T::DTYPE.mem_bytes()) as u32;
    cp_async_tile_kernel(
        ctx,
        target,
        T::DTYPE,
        t,
        t,
        per,
        &v.shared,
        4,
        v.div_n,
        v.ring,
    )
}

/// What `cp_async_tile_kernel` leaves in its `ym × yn` output for the `m × n` input `x`: `x`
/// inside, zero outside; as bits.
pub fn cp_async_reference<T: Elem>(x: &[T], m: usize, n: usize, ym: usize, yn: usize) -> Vec<u32> {
    (0..ym * yn)
        .map(|i| {
            let (r, c) = (i / yn, i % yn);
            if r < m && c < n {
                x[r * n + c].bits()
            } else {
                0
            }
        })
        .collect()
}

/// Random GEMM operands: A (`m × k`) and B (`k × n`) in `T`, and the f64 reference of `A · B`
/// with its bound `Σ |a| |b|` ([`dot_reference`]).
#[allow(clippy::type_complexity)]
pub fn gemm_operands<T: Elem>(
    rng: &mut Rng,
    m: usize,
    n: usize,
    k: usize,
) -> (Vec<T>, Vec<T>, (Vec<f64>, Vec<f64>)) {
    let a: Vec<T> = random(rng, m * k);
    let b: Vec<T> = random(rng, k * n);
    let af: Vec<f32> = a.iter().map(|x| x.to_f32()).collect();
    let bf: Vec<f32> = b.iter().map(|x| x.to_f32()).collect();
    let want = dot_reference(&af, &bf, None, m, n, k);
    (a, b, want)
}
