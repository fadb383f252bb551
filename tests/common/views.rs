//! Kernels and host references of the shared-memory view tests (CPU: ptxas; GPU: results).
//!
//! A parent buffer `[64, 64]` of `i16` in some shared layout is filled from `x`; then either a
//! view of it is read into `y` (row-major in the view's shape), or `z` is written through the
//! view and the whole parent read back into `y`. The host reference never uses the builder's
//! view derivation: slices and reshapes are defined on coordinates, reinterpretations on a byte
//! image of the buffer built from the parent's layout.

use weft::codegen::{
    CodegenError, Context, DType, IntoSharedLayout, Kernel, KernelBuilder, Result, SharedResolved,
    Target, Value,
};
use weft::layout::encoding::{Blocked, Encoding};
use weft::layout::{Dim, LinearLayout};

/// The parent's shape.
pub const SHAPE: [u64; 2] = [64, 64];

/// A shared layout given as an encoding or a linear layout.
#[derive(Clone, Debug)]
pub enum Shared {
    Enc(Encoding),
    Lin(LinearLayout),
}

impl IntoSharedLayout for Shared {
    fn resolve_shared(&self, op: &'static str, shape: &[u64]) -> Result<SharedResolved> {
        match self {
            Shared::Enc(e) => e.resolve_shared(op, shape),
            Shared::Lin(l) => l.resolve_shared(op, shape),
        }
    }
}

/// A view of the parent.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // a handful of test values; boxing would only add noise
pub enum View {
    Slice {
        dim: usize,
        start: u64,
        len: u64,
    },
    Reshape(Vec<u64>),
    Reinterpret {
        dtype: DType,
        shape: Vec<u64>,
        layout: Shared,
    },
}

impl View {
    /// The view's shape and element type.
    pub fn shape(&self) -> Vec<u64> {
        match self {
            View::Slice { dim, len, .. } => {
                let mut s = SHAPE.to_vec();
                s[*dim] = *len;
                s
            }
            View::Reshape(s) => s.clone(),
            View::Reinterpret { shape, .. } => shape.clone(),
        }
    }

    pub fn dtype(&self) -> DType {
        match self {
            View::Reinterpret { dtype, .. } => *dtype,
            _ => DType::I16,
        }
    }

    /// The view of `parent`.
    pub fn make(&self, kb: &mut KernelBuilder, parent: Value) -> Result<Value> {
        match self {
            View::Slice { dim, start, len } => kb.slice_shared(parent, *dim, *start, *len),
            View::Reshape(s) => kb.reshape_shared(parent, s),
            View::Reinterpret {
                dtype,
                shape,
                layout,
            } => kb.reinterpret_shared(parent, *dtype, shape, layout),
        }
    }
}

/// A row-major `[64, 64]` unswizzled layout, swizzled ones, NVMMA (both majors), padded and a
/// linear layout (column-major, each column's low 3 row bits XOR-ed with its low 3 column bits).
pub fn parents() -> Vec<(&'static str, Shared)> {
    use weft::layout::encoding::{NvmmaShared, PaddedShared, SwizzledShared};
    let col_xor = LinearLayout::from_bases(
        [(
            Dim::OFFSET,
            (0..6)
                .map(|i| vec![1u64 << i, 0])
                .chain((0..6).map(|i| vec![if i < 3 { 1u64 << i } else { 0 }, 1u64 << i]))
                .collect::<Vec<_>>(),
        )],
        [(Dim::dim(0), 64), (Dim::dim(1), 64)],
        true,
    )
    .unwrap();
    vec![
        (
            "row-major",
            Shared::Enc(SwizzledShared::new(1, 1, 1, &[1, 0]).into()),
        ),
        (
            "swizzled(8,1,8)",
            Shared::Enc(SwizzledShared::new(8, 1, 8, &[1, 0]).into()),
        ),
        (
            "swizzled(4,2,4)",
            Shared::Enc(SwizzledShared::new(4, 2, 4, &[1, 0]).into()),
        ),
        (
            "nvmma128",
            Shared::Enc(NvmmaShared::new(128, 16, 2, false).into()),
        ),
        (
            "nvmma64-transposed",
            Shared::Enc(NvmmaShared::new(64, 16, 2, true).into()),
        ),
        (
            "padded(64,8)",
            Shared::Enc(PaddedShared::with_identity_for(&[(64, 8)], &SHAPE, &[1, 0]).into()),
        ),
        ("linear", Shared::Lin(col_xor)),
    ]
}

/// The views tried on every parent (those a parent's layout has no view for are refused with a
/// typed error and skipped).
pub fn views() -> Vec<View> {
    use weft::layout::encoding::SwizzledShared;
    let row_major = Shared::Enc(SwizzledShared::new(1, 1, 1, &[1, 0]).into());
    vec![
        View::Slice {
            dim: 0,
            start: 32,
            len: 32,
        },
        View::Slice {
            dim: 0,
            start: 8,
            len: 8,
        },
        View::Slice {
            dim: 1,
            start: 32,
            len: 32,
        },
        View::Slice {
            dim: 1,
            start: 16,
            len: 8,
        },
        View::Reshape(vec![4096]),
        View::Reshape(vec![128, 32]),
        View::Reshape(vec![4, 16, 64]),
        View::Reinterpret {
            dtype: DType::I32,
            shape: vec![64, 32],
            layout: row_major.clone(),
        },
        View::Reinterpret {
            dtype: DType::I16,
            shape: vec![64, 64],
            layout: Shared::Enc(SwizzledShared::new(8, 1, 8, &[1, 0]).into()),
        },
    ]
}

/// A blocked layout over 4 warps for a tile of `rank` dims.
fn blocked(rank: usize) -> Encoding {
    match rank {
        1 => Blocked::new(&[4], &[32], &[4], &[0]),
        2 => Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]),
        _ => Blocked::new(&[1, 1, 4], &[1, 8, 4], &[1, 4, 1], &[2, 1, 0]),
    }
    .into()
}

/// `ptr[0..n)` as a tile of `shape`, row-major.
fn load_rows(kb: &mut KernelBuilder, ptr: Value, shape: &[u64]) -> Result<Value> {
    let n: u64 = shape.iter().product();
    let offs = kb.arange(0, n as i32, blocked(1))?;
    let p = kb.add(ptr, offs)?;
    let v = kb.load(p, None, None)?;
    kb.reshape(v, shape)
}

/// Stores `tile` row-major at `ptr`.
fn store_rows(kb: &mut KernelBuilder, ptr: Value, tile: Value) -> Result<()> {
    let n: u64 = kb.shape(tile)?.iter().product();
    let flat = kb.reshape(tile, &[n])?;
    let l = kb.layout(flat)?.expect("a tile");
    let offs = kb.arange(0, n as i32, &l)?;
    let p = kb.add(ptr, offs)?;
    kb.store(p, flat, None)
}

/// The parent filled from `x`, then: `write == false`, `y` ← the view; `write == true`, `z`
/// written through the view and `y` ← the parent. Parameters `x: *i16, z: *view, y: *(view or
/// i16)`. `Err` when the view is refused (or the target lacks something).
pub fn view_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    parent: &Shared,
    view: &View,
    write: bool,
) -> Result<Kernel<'c>> {
    let mut kb = KernelBuilder::new(ctx, target, "views", 4)?;
    let x = kb.arg_ptr("x", DType::I16, 16)?;
    let z = kb.arg_ptr("z", view.dtype(), 16)?;
    let y = kb.arg_ptr("y", if write { DType::I16 } else { view.dtype() }, 16)?;
    let buf = kb.alloc_shared(DType::I16, &SHAPE, parent)?;
    let xt = load_rows(&mut kb, x, &SHAPE)?;
    kb.store_shared(buf, xt)?;
    kb.barrier()?;
    let v = view.make(&mut kb, buf)?;
    let vshape = view.shape();
    if write {
        let zt = load_rows(&mut kb, z, &vshape)?;
        kb.store_shared(v, zt)?;
        kb.barrier()?;
        let back = kb.load_shared(buf, blocked(2))?;
        store_rows(&mut kb, y, back)?;
    } else {
        let t = kb.load_shared(v, blocked(vshape.len()))?;
        store_rows(&mut kb, y, t)?;
    }
    kb.finish()
}

/// Whether a refusal is one of the typed errors a view may give.
pub fn is_refusal(e: &CodegenError) -> bool {
    matches!(
        e.cause(),
        CodegenError::BadLayout { .. } | CodegenError::ShapeMismatch { .. }
    )
}

/// Row-major flat index of `c` in `shape`.
pub fn flat(c: &[u64], shape: &[u64]) -> usize {
    c.iter().zip(shape).fold(0u64, |f, (x, s)| f * s + x) as usize
}

/// Every coordinate of `shape`, row-major.
pub fn coords(shape: &[u64]) -> Vec<Vec<u64>> {
    let n: u64 = shape.iter().product();
    (0..n)
        .map(|mut f| {
            let mut c = vec![0; shape.len()];
            for i in (0..shape.len()).rev() {
                c[i] = f % shape[i];
                f /= shape[i];
            }
            c
        })
        .collect()
}

/// Byte address (from the buffer's start) of every coordinate of `shape` in `layout`, row-major,
/// for elements of `eb` bytes.
fn addresses(layout: &Shared, shape: &[u64], eb: u64) -> Vec<u64> {
    let r = layout.resolve_shared("reference", shape).unwrap();
    let mut l = r.linear;
    if l.has_in_dim(Dim::BLOCK.as_str()) {
        l = l.squeeze_ins(Dim::BLOCK.as_str()).unwrap();
    }
    let mut at = vec![0u64; shape.iter().product::<u64>() as usize];
    for o in 0..l.in_dim_size(Dim::OFFSET.as_str()).unwrap() {
        let c: Vec<u64> = l
            .apply(&[(Dim::OFFSET, o)])
            .unwrap()
            .into_iter()
            .map(|(_, x)| x)
            .collect();
        let pad: u64 = r.padding.iter().map(|&(i, p)| (o / i) * p).sum();
        at[flat(&c, shape)] = (o + pad) * eb;
    }
    at
}

/// The host's `y` for [`view_kernel`], values as little-endian integers of the element width.
pub fn reference(parent: &Shared, view: &View, write: bool, x: &[i64], z: &[i64]) -> Vec<i64> {
    let vshape = view.shape();
    match view {
        View::Slice { dim, start, .. } => {
            let shift = |c: &[u64]| -> Vec<u64> {
                let mut p = c.to_vec();
                p[*dim] += start;
                p
            };
            if write {
                let mut y = x.to_vec();
                for (k, c) in coords(&vshape).iter().enumerate() {
                    y[flat(&shift(c), &SHAPE)] = z[k];
                }
                y
            } else {
                coords(&vshape)
                    .iter()
                    .map(|c| x[flat(&shift(c), &SHAPE)])
                    .collect()
            }
        }
        View::Reshape(_) => {
            if write {
                z.to_vec()
            } else {
                x.to_vec()
            }
        }
        View::Reinterpret { dtype, layout, .. } => {
            let pa = addresses(parent, &SHAPE, 2);
            let eb = dtype.mem_bytes();
            let va = addresses(layout, &vshape, eb);
            let size = (pa.iter().max().unwrap() + 2).max(va.iter().max().unwrap() + eb);
            let mut bytes = vec![0u8; size as usize];
            let put = |bytes: &mut Vec<u8>, at: u64, v: i64, n: u64| {
                for b in 0..n {
                    bytes[(at + b) as usize] = (v >> (8 * b)) as u8;
                }
            };
            let get = |bytes: &Vec<u8>, at: u64, n: u64| -> i64 {
                let u = (0..n).fold(0u64, |u, b| {
                    u | u64::from(bytes[(at + b) as usize]) << (8 * b)
                });
                // Sign-extend from n bytes.
                ((u << (64 - 8 * n)) as i64) >> (64 - 8 * n)
            };
            for (k, &a) in pa.iter().enumerate() {
                put(&mut bytes, a, x[k], 2);
            }
            if write {
                for (k, &a) in va.iter().enumerate() {
                    put(&mut bytes, a, z[k], eb);
                }
                pa.iter().map(|&a| get(&bytes, a, 2)).collect()
            } else {
                va.iter().map(|&a| get(&bytes, a, eb)).collect()
            }
        }
    }
}

/// `acc = A[:, 0:64] · B[0:64, :] + A[:, 64:128] · B[64:128, :]` through slices of NVMMA
/// buffers (A K-major, B MN-major, 128-byte swizzle): the same product as one wgmma over K = 128.
pub fn wgmma_slices_kernel(ctx: &Context) -> Kernel<'_> {
    use weft::layout::encoding::{NvidiaMma, NvmmaShared, Slice};
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "wgmma_slices", 4).unwrap();
    let a = kb.arg_ptr("a", DType::F16, 16).unwrap();
    let b = kb.arg_ptr("b", DType::F16, 16).unwrap();
    let out = kb.arg_ptr("c", DType::F32, 16).unwrap();
    let blocked: Encoding = Blocked::new(&[1, 8], &[8, 4], &[4, 1], &[1, 0]).into();
    let sa = kb
        .alloc_shared(DType::F16, &[64, 128], NvmmaShared::new(128, 16, 2, false))
        .unwrap();
    let sb = kb
        .alloc_shared(DType::F16, &[128, 64], NvmmaShared::new(128, 16, 2, false))
        .unwrap();
    for (buf, ptr, rows, cols) in [(sa, a, 64u64, 128u64), (sb, b, 128, 64)] {
        let r = kb
            .arange(0, rows as i32, Slice::new(1, blocked.clone()))
            .unwrap();
        let c = kb
            .arange(0, cols as i32, Slice::new(0, blocked.clone()))
            .unwrap();
        let r = kb.expand_dims(r, 1).unwrap();
        let r = kb.mul(r, cols as i32).unwrap();
        let c = kb.expand_dims(c, 0).unwrap();
        let offs = kb.add(r, c).unwrap();
        let p = kb.add(ptr, offs).unwrap();
        let t = kb.load(p, None, None).unwrap();
        kb.store_shared(buf, t).unwrap();
    }
    kb.fence_async_shared().unwrap();
    kb.barrier().unwrap();
    let acc_enc: Encoding = NvidiaMma::hopper(&[4, 1], 64, 16).into();
    let mut acc = kb.zeros((&acc_enc, [64, 64]), DType::F32).unwrap();
    for half in 0..2 {
        let ak = kb.slice_shared(sa, 1, half * 64, 64).unwrap();
        let bk = kb.slice_shared(sb, 0, half * 64, 64).unwrap();
        acc = kb.wgmma(ak, bk, acc).unwrap();
    }
    let acc = kb.wgmma_wait(0, &[acc]).unwrap()[0];
    let r = kb.arange(0, 64, Slice::new(1, acc_enc.clone())).unwrap();
    let c = kb.arange(0, 64, Slice::new(0, acc_enc.clone())).unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let r = kb.mul(r, 64).unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    let offs = kb.add(r, c).unwrap();
    let p = kb.add(out, offs).unwrap();
    kb.store(p, acc, None).unwrap();
    kb.finish().unwrap()
}

/// TMA through row slices of a `[128, 64]` `f16` NVMMA buffer (128-byte swizzle): the map's
/// rows `[0, 64)` land in the buffer's lower half and `[64, 128)` in its upper half (swapped),
/// `out` gets the whole buffer row-major, then the halves are stored back through the slices
/// to where they came from in `dst`. Parameters `src, dst: tensor maps ([128, 64] f16, box
/// [64, 64], 128-byte swizzle), out: *f16`.
pub fn tma_slices_kernel(ctx: &Context) -> Result<Kernel<'_>> {
    use weft::layout::encoding::{NvmmaShared, Slice};
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "tma_slices", 4)?;
    let src = kb.arg_tensor_map("src", DType::F16, &[64, 64], 128)?;
    let dst = kb.arg_tensor_map("dst", DType::F16, &[64, 64], 128)?;
    let out = kb.arg_ptr("out", DType::F16, 16)?;
    let buf = kb.alloc_shared(DType::F16, &[128, 64], NvmmaShared::new(128, 16, 2, false))?;
    let bars = kb.alloc_mbarriers(1, 1)?;
    let bar = kb.mbarrier_at(bars, 0)?;
    let upper = kb.slice_shared(buf, 0, 0, 64)?;
    let lower = kb.slice_shared(buf, 0, 64, 64)?;
    let bytes = kb.tma_bytes(upper)? * 2;
    kb.mbarrier_expect(bar, bytes, None)?;
    let zero = kb.const_int(DType::I32, 0)?;
    let sixty_four = kb.const_int(DType::I32, 64)?;
    kb.tma_load(src, &[zero, zero], lower, bar, None)?;
    kb.tma_load(src, &[sixty_four, zero], upper, bar, None)?;
    kb.mbarrier_wait(bar, 0)?;
    let enc: Encoding = Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]).into();
    let t = kb.load_shared(buf, (&enc, [128u64, 64]))?;
    let r = kb.arange(0, 128, Slice::new(1, enc.clone()))?;
    let c = kb.arange(0, 64, Slice::new(0, enc))?;
    let r = kb.expand_dims(r, 1)?;
    let r = kb.mul(r, 64)?;
    let c = kb.expand_dims(c, 0)?;
    let offs = kb.add(r, c)?;
    let p = kb.add(out, offs)?;
    kb.store(p, t, None)?;
    kb.tma_store(dst, &[zero, zero], lower)?;
    kb.tma_store(dst, &[sixty_four, zero], upper)?;
    kb.tma_store_wait(0)?;
    kb.mbarrier_invalidate(bars)?;
    kb.finish()
}
