//! One wgmma per kernel over every input type, swizzle and operand major: the cases, the kernel
//! and the operand bytes, shared by `gpu_wgmma` and the interpreter's tensor-core suite.

use half::{bf16, f16};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::{Blocked, Encoding, NvidiaMma, NvmmaShared, Slice};

use super::rng::Rng;

/// One case: input type, swizzle, A and B transposed in the NVMMA sense (dim 0 contiguous),
/// M × N × K and warps.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub dtype: DType,
    pub swizzle: u32,
    pub ta: bool,
    pub tb: bool,
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub warps: u32,
    /// A comes from registers (loaded, then converted to the accumulator-like layout).
    pub a_regs: bool,
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for dtype in [
        DType::F16,
        DType::BF16,
        DType::F8E4M3,
        DType::F8E5M2,
        DType::F32,
    ] {
        let sixteen = dtype.bits() == 16;
        for swizzle in [32, 64, 128] {
            // A K-major (not transposed), B K-major (transposed: [K, N] with K contiguous), or for
            // 16-bit types either major.
            let majors: &[(bool, bool)] = if sixteen {
                &[(false, true), (false, false), (true, true), (true, false)]
            } else {
                &[(false, true)]
            };
            for &(ta, tb) in majors {
                let k = 128 / (dtype.bits() as u64 / 8); // two 64-byte rows of K
                v.push(Case {
                    dtype,
                    swizzle,
                    ta,
                    tb,
                    m: 64,
                    n: 64,
                    k,
                    warps: 4,
                    a_regs: false,
                });
            }
        }
    }
    // Two warpgroups, a wider N and a deeper K.
    v.push(Case {
        dtype: DType::F16,
        swizzle: 128,
        ta: false,
        tb: false,
        m: 128,
        n: 256,
        k: 128,
        warps: 8,
        a_regs: false,
    });
    v.push(Case {
        dtype: DType::BF16,
        swizzle: 64,
        ta: true,
        tb: true,
        m: 128,
        n: 32,
        k: 64,
        warps: 4,
        a_regs: false,
    });
    // A from registers (as attention's P · V): both B majors, one and two warpgroups, two
    // 64-row blocks per warpgroup.
    for (dtype, tb, m, k, warps, sw) in [
        (DType::F16, false, 64, 64, 4, 128),
        (DType::F16, true, 64, 128, 4, 64),
        (DType::BF16, false, 128, 64, 8, 128),
        (DType::BF16, true, 128, 64, 4, 32),
    ] {
        v.push(Case {
            dtype,
            swizzle: sw,
            ta: false,
            tb,
            m,
            n: 64,
            k,
            warps,
            a_regs: true,
        });
    }
    v
}

/// Pointers `base + row * cols + col` over an `[rows, cols]` tile in `enc`.
pub fn ptr_tile(
    kb: &mut KernelBuilder<'_>,
    base: Value,
    enc: &Encoding,
    rows: u64,
    cols: u64,
) -> Value {
    let r = kb
        .arange(0, rows as i32, Slice::new(1, enc.clone()))
        .unwrap();
    let c = kb
        .arange(0, cols as i32, Slice::new(0, enc.clone()))
        .unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let r = kb.mul(r, cols as i32).unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    let offs = kb.add(r, c).unwrap();
    kb.add(base, offs).unwrap()
}

pub fn wgmma_kernel(ctx: &Context, c: Case) -> Kernel<'_> {
    wgmma_kernel_rewriting_b(ctx, c, None)
}

/// [`wgmma_kernel`], which with `Some(early)` stores B's tile into its shared buffer again,
/// before the `wgmma_wait` (`early`: a write the tensor cores may race) or after it.
pub fn wgmma_kernel_rewriting_b(ctx: &Context, c: Case, rewrite: Option<bool>) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "one_wgmma", c.warps).unwrap();
    let eb = c.dtype.bits() as u64 / 8;
    let a = kb.arg_ptr("a", c.dtype, 16).unwrap();
    let b = kb.arg_ptr("b", c.dtype, 16).unwrap();
    let out = kb.arg_ptr("c", DType::F32, 16).unwrap();
    let blocked: Encoding =
        Blocked::new(&[1, (16 / eb) as u32], &[8, 4], &[c.warps, 1], &[1, 0]).into();
    let bits = c.dtype.bits();
    let sb = kb
        .alloc_shared(
            c.dtype,
            &[c.k, c.n],
            NvmmaShared::new(c.swizzle, bits, 2, c.tb),
        )
        .unwrap();
    let pa = ptr_tile(&mut kb, a, &blocked, c.m, c.k);
    let ta = kb.load(pa, None, None).unwrap();
    let a_op = if c.a_regs {
        let frag: Encoding = NvidiaMma::hopper(&[c.warps, 1], c.k as u32, 16).into();
        kb.convert_layout(ta, (&frag, [c.m, c.k])).unwrap()
    } else {
        let sa = kb
            .alloc_shared(
                c.dtype,
                &[c.m, c.k],
                NvmmaShared::new(c.swizzle, bits, 2, c.ta),
            )
            .unwrap();
        kb.store_shared(sa, ta).unwrap();
        sa
    };
    let pb = ptr_tile(&mut kb, b, &blocked, c.k, c.n);
    let tb = kb.load(pb, None, None).unwrap();
    kb.store_shared(sb, tb).unwrap();
    kb.fence_async_shared().unwrap();
    kb.barrier().unwrap();
    let acc_enc: Encoding = NvidiaMma::hopper(&[c.warps, 1], c.n as u32, 16).into();
    let acc = kb.zeros((&acc_enc, [c.m, c.n]), DType::F32).unwrap();
    let acc = kb.wgmma(a_op, sb, acc).unwrap();
    if rewrite == Some(true) {
        kb.store_shared(sb, tb).unwrap();
    }
    let acc = kb.wgmma_wait(0, &[acc]).unwrap()[0];
    if rewrite == Some(false) {
        kb.store_shared(sb, tb).unwrap();
    }
    let pc = ptr_tile(&mut kb, out, &acc_enc, c.m, c.n);
    kb.store(pc, acc, None).unwrap();
    kb.finish().unwrap()
}

/// The value of fp8 code `b` (e4m3: 4 exponent bits, bias 7; e5m2: 5, bias 15).
pub fn fp8_value(b: u8, e5m2: bool) -> f32 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((b & 0x7F) >> mbits) as i32;
    let m = (b & ((1 << mbits) - 1)) as f32 / (1 << mbits) as f32;
    let v = if e == 0 {
        m * 2f32.powi(1 - bias)
    } else {
        (1.0 + m) * 2f32.powi(e - bias)
    };
    sign * v
}

/// The bytes of `v` (small integers and halves, exact in every input type) as `dtype`.
pub fn operand_bytes(dtype: DType, v: &[f32]) -> Vec<u8> {
    match dtype {
        DType::F16 => v
            .iter()
            .flat_map(|x| f16::from_f32(*x).to_bits().to_le_bytes())
            .collect(),
        DType::BF16 => v
            .iter()
            .flat_map(|x| bf16::from_f32(*x).to_bits().to_le_bytes())
            .collect(),
        DType::F32 => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        _ => {
            let e5 = dtype == DType::F8E5M2;
            v.iter()
                .map(|x| {
                    (0..=255u8)
                        .find(|&b| fp8_value(b, e5) == *x)
                        .expect("exact in fp8")
                })
                .collect()
        }
    }
}

/// `n` small integers and halves in [-4, 4): exact in every input type and in f32 sums.
pub fn small_values(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.next_u64() % 16) as f32 - 8.0) / 2.0)
        .collect()
}
