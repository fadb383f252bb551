//! The accurate math lowering (`MathPrecision::Accurate`, and all of f64), run on the host:
//! `emit_accurate_math` is emitted into a plain `T f(T)` function, compiled for the host CPU by
//! LLVM's MCJIT (the X86 target is initialised here only, for the test binary), and compared
//! with references over random inputs across the whole range plus all special values.
//! f32 results are measured against an f64 reference; f64 results against std's libm (whose
//! own error is inside the bound). Also: the NVPTX output assembles with ptxas 13.0.

mod common;

use std::sync::Once;

use common::math_ref::{self, ulp_f32, ulp_f64, FUNCS, MAX_ULP};
use inkwell::context::Context as LlvmContext;
use weft::codegen::{
    emit_accurate_math, Context, DType, KernelBuilder, MathOp, MathPrecision, Target,
};

/// Random inputs per function and type (plus the special values): `WEFT_MATH_N`, default 600k.
fn n_inputs() -> usize {
    std::env::var("WEFT_MATH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600_000)
}

fn init_host_jit() {
    static INIT: Once = Once::new();
    INIT.call_once(|| unsafe {
        llvm_sys::execution_engine::LLVMLinkInMCJIT();
        llvm_sys::target::LLVMInitializeX86TargetInfo();
        llvm_sys::target::LLVMInitializeX86Target();
        llvm_sys::target::LLVMInitializeX86TargetMC();
        llvm_sys::target::LLVMInitializeX86AsmPrinter();
    });
}

/// The address of `T f(T x) { return op(x); }` (accurate lowering) compiled for the host. The
/// context and engine are leaked: they must outlive the returned code.
fn host_fn(op: MathOp, wide: bool) -> usize {
    init_host_jit();
    let ctx: &'static LlvmContext = Box::leak(Box::new(LlvmContext::create()));
    let m = ctx.create_module("math");
    let t = if wide { ctx.f64_type() } else { ctx.f32_type() };
    let f = m.add_function("f", t.fn_type(&[t.into()], false), None);
    let b = ctx.create_builder();
    b.position_at_end(ctx.append_basic_block(f, "entry"));
    let x = f.get_nth_param(0).unwrap().into_float_value();
    let y = emit_accurate_math(&b, &m, op, x).unwrap();
    b.build_return(Some(&y)).unwrap();
    assert!(f.verify(true), "{op:?}: invalid IR");
    unsafe {
        use llvm_sys::execution_engine::*;
        let mut opts: LLVMMCJITCompilerOptions = std::mem::zeroed();
        let size = std::mem::size_of::<LLVMMCJITCompilerOptions>();
        LLVMInitializeMCJITCompilerOptions(&mut opts, size);
        opts.OptLevel = 2;
        let mut ee = std::ptr::null_mut();
        let mut err = std::ptr::null_mut();
        let rc =
            LLVMCreateMCJITCompilerForModule(&mut ee, m.as_mut_ptr(), &mut opts, size, &mut err);
        assert_eq!(rc, 0, "MCJIT: {:?}", std::ffi::CStr::from_ptr(err));
        std::mem::forget(m); // owned by the engine now
        let addr = LLVMGetFunctionAddress(ee, c"f".as_ptr());
        assert_ne!(addr, 0);
        addr as usize
    }
}

/// (max ulp, worst input) of `op` in f64 over `xs`, checked against the bound.
/// Evaluates `op` on every input through `eval` (which returns the result, the reference, the error in ulp
/// and whether an exact reference — 0, ±inf, NaN — is matched bit for bit) and asserts every error within
/// `MAX_ULP`. Returns the worst error and its input.
fn check<T: Copy + Default + std::fmt::LowerExp>(
    op: MathOp,
    xs: &[T],
    bits: impl Fn(T) -> u64,
    eval: impl Fn(T) -> (T, f64, f64, bool),
) -> (f64, T) {
    let mut worst = (0.0, T::default());
    let mut bad = Vec::new();
    for &x in xs {
        let (y, r, e, exact_ok) = eval(x);
        if e > worst.0 {
            worst = (e, x);
        }
        if e > MAX_ULP || !exact_ok {
            bad.push(format!(
                "{op:?}({x:e} = {:#x}) = {y:e}, want {r:e} ({e} ulp)",
                bits(x)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} failures, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
    worst
}

fn check_f64(op: MathOp, xs: &[f64]) -> (f64, f64) {
    let f: extern "C" fn(f64) -> f64 = unsafe { std::mem::transmute(host_fn(op, true)) };
    check(op, xs, f64::to_bits, |x| {
        let y = f(x);
        let (r, e, exact_ok) = math_ref::judge_f64(op, x, y);
        (y, r, e, exact_ok)
    })
}

fn check_f32(op: MathOp, xs: &[f32]) -> (f64, f32) {
    let f: extern "C" fn(f32) -> f32 = unsafe { std::mem::transmute(host_fn(op, false)) };
    check(
        op,
        xs,
        |x| u64::from(x.to_bits()),
        |x| {
            let y = f(x);
            let (r, e, exact_ok) = math_ref::judge_f32(op, x, y);
            (y, r, e, exact_ok)
        },
    )
}

fn run_f64(op: MathOp) {
    let (e, x) = check_f64(
        op,
        &math_ref::inputs_f64(op, n_inputs(), 0x5EED ^ op as u64),
    );
    println!("{op:?} f64: max {e:.3} ulp at {x:e}");
}

fn run_f32(op: MathOp) {
    let (e, x) = check_f32(op, &math_ref::inputs_f32(op, n_inputs(), 0xF32 ^ op as u64));
    println!("{op:?} f32: max {e:.3} ulp at {x:e}");
}

#[test]
fn exp_f64() {
    run_f64(MathOp::Exp);
}
#[test]
fn exp_f32() {
    run_f32(MathOp::Exp);
}
#[test]
fn exp2_f64() {
    run_f64(MathOp::Exp2);
}
#[test]
fn exp2_f32() {
    run_f32(MathOp::Exp2);
}
#[test]
fn log_f64() {
    run_f64(MathOp::Log);
}
#[test]
fn log_f32() {
    run_f32(MathOp::Log);
}
#[test]
fn log2_f64() {
    run_f64(MathOp::Log2);
}
#[test]
fn log2_f32() {
    run_f32(MathOp::Log2);
}
#[test]
fn sin_f64() {
    run_f64(MathOp::Sin);
}
#[test]
fn sin_f32() {
    run_f32(MathOp::Sin);
}
#[test]
fn cos_f64() {
    run_f64(MathOp::Cos);
}
#[test]
fn cos_f32() {
    run_f32(MathOp::Cos);
}
#[test]
fn erf_f64() {
    run_f64(MathOp::Erf);
}
#[test]
fn erf_f32() {
    run_f32(MathOp::Erf);
}

#[test]
fn rsqrt_f64() {
    run_f64(MathOp::Rsqrt);
}
#[test]
fn rsqrt_f32() {
    run_f32(MathOp::Rsqrt);
}

/// The erf reference itself, at values from tables (A&S 7.1, DLMF) to 16 digits.
#[test]
fn erf_reference_matches_tables() {
    for (x, want) in [
        (0.1, 0.112_462_916_018_284_9),
        (0.5, 0.520_499_877_813_046_5),
        (1.0, 0.842_700_792_949_714_9),
        (2.0, 0.995_322_265_018_952_7),
        (3.0, 0.999_977_909_503_001_4),
        (3.5, 0.999_999_256_901_627_7),
    ] {
        let r = math_ref::erf_ref(x);
        assert!(ulp_f64(r, want) <= 1.0, "erf({x}) = {r}, table {want}");
        assert_eq!(math_ref::erf_ref(-x), -r);
    }
}

/// Hard and huge arguments: (x, sin x, cos x), the results correctly rounded to f64 from
/// exact rational arithmetic with π to 3000 bits. The first is the double closest to a multiple
/// of π/2 (|r| = 4.7e-19, about 2^-61); 16367173 * 2^72 is the hardest f32 (|r| = 1.6e-9).
/// (The host libm misses the first cosine by 8 ulp, so std is no reference there.)
const HARD: [(f64, f64, f64); 5] = [
    (
        f64::from_bits(0x7506_AC5B_262C_A1FF),
        1.0,
        -4.687_165_924_254_628e-19,
    ),
    (1e22, -0.852_200_849_767_188_8, 0.523_214_785_395_139),
    (
        8.988_465_674_311_58e307,
        0.563_127_779_850_884,
        -0.826_369_834_614_148,
    ),
    (7.729_178_919_452_902e28, 1.0, -1.614_769_798_247_621_1e-9),
    (
        1.701_411_834_604_692_3e38,
        0.623_385_512_955_870_2,
        0.781_914_638_714_96,
    ),
];

/// sin and cos at the hardest arguments (Payne–Hanek), and around the switch from Cody–Waite
/// to Payne–Hanek (std as the reference).
#[test]
fn trig_huge_and_boundary_arguments() {
    assert_eq!(HARD[0].0, 6_381_956_970_095_103.0 * 2f64.powi(797));
    assert_eq!(HARD[3].0, 16_367_173.0 * 2f64.powi(72));
    for (i, &(x, s, c)) in HARD.iter().enumerate() {
        for (op, want) in [(MathOp::Sin, s), (MathOp::Cos, c)] {
            for sign in [1.0, -1.0] {
                let want = if op == MathOp::Sin { sign * want } else { want };
                let f: extern "C" fn(f64) -> f64 =
                    unsafe { std::mem::transmute(host_fn(op, true)) };
                let y = f(sign * x);
                assert!(
                    ulp_f64(y, want) <= 1.0,
                    "{op:?}({}) = {y:e}, want {want:e}",
                    sign * x
                );
                if i >= 3 {
                    let f: extern "C" fn(f32) -> f32 =
                        unsafe { std::mem::transmute(host_fn(op, false)) };
                    let y = f((sign * x) as f32);
                    let e = ulp_f32(y, want);
                    assert!(
                        e <= 1.0,
                        "{op:?}({}f32) = {y:e}, want {want:e} ({e} ulp)",
                        sign * x
                    );
                }
            }
        }
    }
    let mut xs64 = Vec::new();
    let mut xs32 = Vec::new();
    for wide in [true, false] {
        let lim = math_ref::trig_limit(wide);
        for d in -64..=64 {
            let x = lim + d as f64 * if wide { 2f64.powi(-12) } else { 2f64.powi(-7) };
            if wide {
                xs64.extend([x, -x]);
            } else {
                xs32.extend([x as f32, -x as f32]);
            }
        }
    }
    for op in [MathOp::Sin, MathOp::Cos] {
        let (e, x) = check_f64(op, &xs64);
        println!("{op:?} f64 at the switch: max {e:.3} ulp at {x:e}");
        let (e, x) = check_f32(op, &xs32);
        println!("{op:?} f32 at the switch: max {e:.3} ulp at {x:e}");
    }
}

// ----- the builder API and the NVPTX / AMDGPU output -------------------------------------------

const APPROX_PTX: [&str; 5] = [
    "ex2.approx",
    "lg2.approx",
    "sin.approx",
    "cos.approx",
    "rsqrt.approx",
];

/// PTX of the `math_kernel` for one function, type and precision on `target`.
fn ptx_of(target: Target, op: MathOp, dt: DType, p: MathPrecision) -> String {
    let ctx = Context::new();
    let k = math_ref::math_kernel(&ctx, target, op, dt, p).unwrap();
    k.ptx().unwrap()
}

#[test]
fn accurate_ptx_has_no_approx_instructions_and_assembles() {
    for target in [Target::SM80, Target::SM90] {
        for dt in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            for op in MathOp::ALL {
                let ptx = ptx_of(target, op, dt, MathPrecision::Accurate);
                for a in APPROX_PTX {
                    assert!(
                        !ptx.contains(a),
                        "{op:?} {dt} {target}: {a} in the accurate lowering"
                    );
                }
                assert!(!ptx.contains("call"), "{op:?} {dt} {target}: a call");
                common::assemble(&ptx, &target.to_string(), &format!("accurate {op:?} {dt}"));
            }
        }
    }
}

#[test]
fn default_precision_is_triton_s_approx_for_f32_and_accurate_for_f64() {
    let t = Target::SM90;
    let exp_f32 = ptx_of(t, MathOp::Exp, DType::F32, MathPrecision::Approx);
    assert!(exp_f32.contains("ex2.approx"), "{exp_f32}");
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, t, "k", 4).unwrap();
    let l = weft::codegen::kernels::blocked_1d(t, 4, 4, 512).unwrap();
    let a = kb.arange(0, 512, &l).unwrap();
    let f = kb.cast(a, DType::F64).unwrap();
    // f64 has no approximate instructions: `math` (and `exp`) give the accurate lowering.
    let e = kb.exp(f).unwrap();
    assert_eq!(kb.ty(e).unwrap(), weft::codegen::Type::Scalar(DType::F64));
    // The precision is per call: both in one kernel.
    let g = kb.cast(a, DType::F32).unwrap();
    kb.math_with(MathOp::Log, g, MathPrecision::Accurate)
        .unwrap();
    kb.math(MathOp::Log, g).unwrap();
    kb.finish().unwrap();
    // Integers are still rejected, with a typed error.
    let mut kb = KernelBuilder::new(&ctx, t, "k2", 4).unwrap();
    let a = kb.arange(0, 512, &l).unwrap();
    assert!(matches!(
        (kb.math_with(MathOp::Exp, a, MathPrecision::Accurate))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(weft::codegen::CodegenError::InvalidType { .. })
    ));
}

#[cfg(feature = "amdgpu")]
#[test]
fn accurate_lowering_builds_for_amdgpu() {
    for target in [Target::GFX90A, Target::GFX942] {
        for dt in [DType::F32, DType::F64] {
            for op in MathOp::ALL {
                let ctx = Context::new();
                let k =
                    math_ref::math_kernel(&ctx, target, op, dt, MathPrecision::Accurate).unwrap();
                let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
                assert_eq!(&obj[..4], b"\x7fELF", "{op:?} {dt} {target}");
            }
        }
    }
}

/// A sweep over all f32 bit patterns with a stride (`WEFT_MATH_STRIDE`, default 61; erf, whose
/// reference is slow, 8 times that): a denser check than the random inputs, for measurements.
/// Long in a debug build: `cargo test --release --features llvm --test codegen_math -- --ignored`.
#[test]
#[ignore = "long; run in release with --ignored"]
fn f32_sweep() {
    let stride: u64 = std::env::var("WEFT_MATH_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(61);
    for op in FUNCS {
        let f: extern "C" fn(f32) -> f32 = unsafe { std::mem::transmute(host_fn(op, false)) };
        let step = if op == MathOp::Erf {
            stride * 8
        } else {
            stride
        };
        let (mut worst, mut at, mut n) = (0.0f64, 0.0f32, 0u64);
        let mut bits = 0u64;
        while bits <= u32::MAX as u64 {
            let x = f32::from_bits(bits as u32);
            let y = f(x);
            let e = ulp_f32(y, math_ref::reference(op, x as f64));
            if e > worst {
                (worst, at) = (e, x);
            }
            n += 1;
            bits += step;
        }
        println!("{op:?} f32 sweep ({n} inputs): max {worst:.3} ulp at {at:e}");
        assert!(worst <= MAX_ULP, "{op:?}: {worst} ulp at {at:e}");
    }
}

/// sin and cos add basic blocks (the Payne–Hanek path): inside a loop body and both arms of an
/// `if_`, the loop's back edge and the merges must still come from the right blocks.
#[test]
fn accurate_trig_inside_loops_and_branches() {
    for dt in [DType::F32, DType::F64] {
        let t = Target::SM90;
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, t, "trig_ctrl", 4).unwrap();
        let x = kb.arg_ptr("x", dt, 16).unwrap();
        let n = kb.arg_i32("n", 1).unwrap();
        let l = weft::codegen::kernels::blocked_1d(t, 4, 4, 512).unwrap();
        let acc0 = kb.zeros(&l, dt).unwrap();
        let offs = kb.arange(0, 512, &l).unwrap();
        let acc = kb
            .for_range(0, n, 512, &[acc0], |kb, i, carried| {
                let o = kb.add(offs, i)?;
                let p = kb.add(x, o)?;
                let v = kb.load(p, None, None)?;
                let s = kb.math_with(MathOp::Sin, v, MathPrecision::Accurate)?;
                Ok(vec![kb.add(carried[0], s)?])
            })
            .unwrap();
        let pid = kb.program_id(0).unwrap();
        let first = kb.eq(pid, 0).unwrap();
        let r = kb
            .if_(
                first,
                |kb| {
                    Ok(vec![kb.math_with(
                        MathOp::Cos,
                        acc[0],
                        MathPrecision::Accurate,
                    )?])
                },
                |kb| {
                    Ok(vec![kb.math_with(
                        MathOp::Sin,
                        acc[0],
                        MathPrecision::Accurate,
                    )?])
                },
            )
            .unwrap();
        let p = kb.add(x, offs).unwrap();
        kb.store(p, r[0], None).unwrap();
        let k = kb.finish().unwrap();
        let ptx = k.ptx().unwrap();
        common::assemble(
            &ptx,
            &t.to_string(),
            &format!("sin/cos in loop and if ({dt})"),
        );
    }
}

#[test]
fn approx_ftz_uses_the_flushing_forms_and_casts_pair_up() {
    let t = Target::SM90;
    for (op, inst) in [
        (MathOp::Exp2, "ex2.approx.ftz.f32"),
        (MathOp::Exp, "ex2.approx.ftz.f32"),
        (MathOp::Log2, "lg2.approx.ftz.f32"),
        (MathOp::Rsqrt, "rsqrt.approx.ftz.f32"),
        (MathOp::Sin, "sin.approx.ftz.f32"),
    ] {
        let ptx = ptx_of(t, op, DType::F32, MathPrecision::ApproxFtz);
        assert!(ptx.contains(inst), "{op:?}: {ptx}");
        common::assemble(&ptx, "sm_90", &format!("ftz {op:?}"));
    }
    // `Approx` keeps subnormal results: ex2 without .ftz (and its range check).
    let ptx = ptx_of(t, MathOp::Exp2, DType::F32, MathPrecision::Approx);
    assert!(
        ptx.contains("ex2.approx.f32") && !ptx.contains(".ftz"),
        "{ptx}"
    );
    // f32 → f16 / bf16 converts two registers per instruction on sm_80+.
    for (dt, pair) in [
        (DType::F16, "cvt.rn.f16x2.f32"),
        (DType::BF16, "cvt.rn.bf16x2.f32"),
    ] {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, t, "k", 4).unwrap();
        let y = kb.arg_ptr("y", dt, 16).unwrap();
        let l = weft::codegen::kernels::blocked_1d(t, 4, 4, 512).unwrap();
        let a = kb.arange(0, 512, &l).unwrap();
        let f = kb.cast(a, DType::F32).unwrap();
        let h = kb.cast(f, dt).unwrap();
        let p = kb.add(y, a).unwrap();
        kb.store(p, h, None).unwrap();
        let ptx = kb.finish().unwrap().ptx().unwrap();
        assert_eq!(ptx.matches(pair).count(), 2, "{dt}: {ptx}");
        common::assemble(&ptx, "sm_90", &format!("pair cast {dt}"));
    }
}

/// A bf16 pair that is both kept (stored) and widened back to f32 (an attention backward's P)
/// stays one `cvt.rn.bf16x2.f32`: the widening reads the packed word (a shift and a mask)
/// instead of two `cvt.f32.bf16` of extracted halves, which made LLVM split the narrowing
/// into single conversions.
#[test]
fn a_narrowed_bf16_pair_widened_back_stays_one_conversion() {
    let t = Target::SM90;
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, t, "k", 4).unwrap();
    let y = kb.arg_ptr("y", DType::BF16, 16).unwrap();
    let z = kb.arg_ptr("z", DType::F32, 16).unwrap();
    let l = weft::codegen::kernels::blocked_1d(t, 4, 4, 512).unwrap();
    let a = kb.arange(0, 512, &l).unwrap();
    let f = kb.cast(a, DType::F32).unwrap();
    let f = kb.mul(f, 0.37f32).unwrap();
    let h = kb.cast(f, DType::BF16).unwrap();
    let back = kb.cast(h, DType::F32).unwrap();
    let sum = kb.add(back, f).unwrap();
    let p = kb.add(y, a).unwrap();
    kb.store(p, h, None).unwrap();
    let q = kb.add(z, a).unwrap();
    kb.store(q, sum, None).unwrap();
    let ptx = kb.finish().unwrap().ptx().unwrap();
    assert_eq!(ptx.matches("cvt.rn.bf16x2.f32").count(), 2, "{ptx}");
    assert!(
        !ptx.contains("cvt.rn.bf16.f32"),
        "a pair split into single conversions: {ptx}"
    );
    assert!(!ptx.contains("cvt.f32.bf16"), "{ptx}");
    common::assemble(&ptx, "sm_90", "bf16 round trip");
}
