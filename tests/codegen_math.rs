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

/// Random inputs per function and type (plus the special values).
const N: usize = 600_000;

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
        let rc = LLVMCreateMCJITCompilerForModule(&mut ee, m.as_mut_ptr(), &mut opts, size, &mut err);
        assert_eq!(rc, 0, "MCJIT: {:?}", std::ffi::CStr::from_ptr(err));
        std::mem::forget(m); // owned by the engine now
        let addr = LLVMGetFunctionAddress(ee, c"f".as_ptr());
        assert_ne!(addr, 0);
        addr as usize
    }
}

/// (max ulp, worst input) of `op` in f64 over `xs`, checked against the bound.
fn check_f64(op: MathOp, xs: &[f64]) -> (f64, f64) {
    let f: extern "C" fn(f64) -> f64 = unsafe { std::mem::transmute(host_fn(op, true)) };
    let mut worst = (0.0, 0.0);
    let mut bad = Vec::new();
    for &x in xs {
        let y = f(x);
        let r = math_ref::reference(op, x);
        let e = ulp_f64(y, r);
        // Exact values (0, ±inf, NaN) must match bit for bit, sign of zero included.
        let exact_ok = !(r == 0.0 || r.is_infinite()) || y.to_bits() == r.to_bits();
        if e > worst.0 {
            worst = (e, x);
        }
        if e > MAX_ULP || !exact_ok {
            bad.push(format!("{op:?}({x:e} = {:#x}) = {y:e}, want {r:e} ({e} ulp)", x.to_bits()));
        }
    }
    assert!(bad.is_empty(), "{} failures, first: {:#?}", bad.len(), &bad[..bad.len().min(8)]);
    worst
}

fn check_f32(op: MathOp, xs: &[f32]) -> (f64, f32) {
    let f: extern "C" fn(f32) -> f32 = unsafe { std::mem::transmute(host_fn(op, false)) };
    let mut worst = (0.0, 0.0);
    let mut bad = Vec::new();
    for &x in xs {
        let y = f(x);
        let r = math_ref::reference(op, x as f64);
        let e = ulp_f32(y, r);
        let rr = r as f32;
        let exact_ok = !(r == 0.0 || rr.is_infinite()) || y.to_bits() == rr.to_bits();
        if e > worst.0 {
            worst = (e, x);
        }
        if e > MAX_ULP || !exact_ok {
            bad.push(format!("{op:?}({x:e} = {:#x}) = {y:e}, want {r:e} ({e} ulp)", x.to_bits()));
        }
    }
    assert!(bad.is_empty(), "{} failures, first: {:#?}", bad.len(), &bad[..bad.len().min(8)]);
    worst
}

fn run_f64(op: MathOp) {
    let (e, x) = check_f64(op, &math_ref::inputs_f64(op, N, 0x5EED ^ op as u64));
    println!("{op:?} f64: max {e:.3} ulp at {x:e}");
}

fn run_f32(op: MathOp) {
    let (e, x) = check_f32(op, &math_ref::inputs_f32(op, N, 0xF32 ^ op as u64));
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

/// sin and cos beyond the documented reduction range are NaN (never a wrong finite number),
/// and just inside it they are still within the bound.
#[test]
fn trig_beyond_the_limit_is_nan() {
    for wide in [true, false] {
        let lim = math_ref::trig_limit(wide);
        for op in [MathOp::Sin, MathOp::Cos] {
            let addr = host_fn(op, wide);
            for x in [lim * 1.5, -lim * 4.0, 1e30] {
                let y = if wide {
                    let f: extern "C" fn(f64) -> f64 = unsafe { std::mem::transmute(addr) };
                    f(x)
                } else {
                    let f: extern "C" fn(f32) -> f32 = unsafe { std::mem::transmute(addr) };
                    f(x as f32) as f64
                };
                assert!(y.is_nan(), "{op:?}({x}) = {y} (wide {wide})");
            }
        }
        if wide {
            check_f64(MathOp::Sin, &[lim, -lim, lim - 1.0]);
        } else {
            let l = lim as f32;
            check_f32(MathOp::Cos, &[l, -l, l - 1.0]);
        }
    }
}

// ----- the builder API and the NVPTX / AMDGPU output -------------------------------------------

const APPROX_PTX: [&str; 5] = ["ex2.approx", "lg2.approx", "sin.approx", "cos.approx", "rsqrt.approx"];

/// PTX of the `math_kernel` for one function, type and precision on `target`.
fn ptx_of(target: Target, op: MathOp, dt: DType, p: MathPrecision) -> String {
    let ctx = Context::new();
    let k = math_ref::math_kernel(&ctx, target, op, dt, p).unwrap();
    k.ptx().unwrap()
}

#[test]
fn accurate_ptx_has_no_approx_instructions_and_assembles() {
    for target in [Target::Sm80, Target::Sm90] {
        for dt in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            for op in MathOp::ALL {
                let ptx = ptx_of(target, op, dt, MathPrecision::Accurate);
                for a in APPROX_PTX {
                    assert!(!ptx.contains(a), "{op:?} {dt} {target}: {a} in the accurate lowering");
                }
                assert!(!ptx.contains("call"), "{op:?} {dt} {target}: a call");
                common::assemble(&ptx, target.name(), &format!("accurate {op:?} {dt}"));
            }
        }
    }
}

#[test]
fn default_precision_is_triton_s_approx_for_f32_and_accurate_for_f64() {
    let t = Target::Sm90;
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
    kb.math_with(MathOp::Log, g, MathPrecision::Accurate).unwrap();
    kb.math(MathOp::Log, g).unwrap();
    kb.finish().unwrap();
    // Integers are still rejected, with a typed error.
    let mut kb = KernelBuilder::new(&ctx, t, "k2", 4).unwrap();
    let a = kb.arange(0, 512, &l).unwrap();
    assert!(matches!(
        kb.math_with(MathOp::Exp, a, MathPrecision::Accurate),
        Err(weft::codegen::CodegenError::InvalidType { .. })
    ));
}

#[cfg(feature = "amdgpu")]
#[test]
fn accurate_lowering_builds_for_amdgpu() {
    for target in [Target::Gfx90a, Target::Gfx942] {
        for dt in [DType::F32, DType::F64] {
            for op in MathOp::ALL {
                let ctx = Context::new();
                let k = math_ref::math_kernel(&ctx, target, op, dt, MathPrecision::Accurate).unwrap();
                let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
                assert_eq!(&obj[..4], b"\x7fELF", "{op:?} {dt} {target}");
            }
        }
    }
}
