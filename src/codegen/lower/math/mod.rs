//! Lowering of math functions: the accurate forms (`fp.rs`: an f32/f64 arithmetic helper;
//! `exp.rs`, `log.rs`, `erf.rs`, `trig.rs`; `rsqrt` here), each a few ulp from the true result
//! on every input, and the fast ones through the target's intrinsics (`approx.rs`).

mod apply;
mod approx;
mod erf;
mod exp;
mod fp;
mod log;
mod trig;

use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::values::FloatValue;

use crate::codegen::error::Result;
use crate::codegen::ir::attrs::MathOp;

/// Emits the accurate lowering of `op` on one f32 or f64 value at `builder`'s position, as
/// plain LLVM IR (declaring `llvm.fma`, `llvm.sqrt`, `llvm.floor` or `llvm.ceil` in `module`
/// as needed; sin and cos add two basic blocks after the current one). Any target, the host
/// included, can compile the result.
///
/// Hidden from the docs: it takes inkwell types, which weft's public API otherwise never
/// shows. It exists so that `tests/codegen_math.rs` can run the exact lowering on the host;
/// kernels use
/// [`KernelBuilder::math_with`](crate::codegen::KernelBuilder::math_with).
#[doc(hidden)]
pub fn emit_accurate_math<'ctx>(
    builder: &Builder<'ctx>,
    module: &Module<'ctx>,
    op: MathOp,
    x: FloatValue<'ctx>,
) -> Result<FloatValue<'ctx>> {
    let fp = fp::Fp::new(builder, module, x.get_type())?;
    match op {
        MathOp::Exp => exp::exp(&fp, x, fp::Base::E),
        MathOp::Exp2 => exp::exp(&fp, x, fp::Base::Two),
        MathOp::Log => log::log(&fp, x, fp::Base::E),
        MathOp::Log2 => log::log(&fp, x, fp::Base::Two),
        MathOp::Sin => trig::sin_cos(&fp, x, trig::Which::Sin),
        MathOp::Cos => trig::sin_cos(&fp, x, trig::Which::Cos),
        MathOp::Erf => erf::erf(&fp, x),
        MathOp::Sqrt => fp.intrinsic("llvm.sqrt", module, x),
        MathOp::Rsqrt => rsqrt(&fp, module, x),
        MathOp::Floor => fp.intrinsic("llvm.floor", module, x),
        MathOp::Ceil => fp.intrinsic("llvm.ceil", module, x),
    }
}

/// `1 / sqrt(x)`: `x = 2^(2k) x'` with `x'` in [1, 4) (exact scaling; subnormals are scaled up
/// first), then on `x'` a correctly rounded sqrt and division (up to 1.5 ulp) and one Newton step
/// on the residual `t = x' y² - 1`, computed with fma so that it is exact enough:
/// `y - y t / 2`; finally `y 2^-k`. 0, negative, inf and NaN take the plain `1 / sqrt(x)`.
fn rsqrt<'ctx>(
    fp: &fp::Fp<'_, 'ctx>,
    module: &Module<'ctx>,
    x: FloatValue<'ctx>,
) -> Result<FloatValue<'ctx>> {
    use inkwell::FloatPredicate::{OGT, OLT};
    let plain = {
        let s = fp.intrinsic("llvm.sqrt", module, x)?;
        fp.div(fp.c(1.0), s)?
    };
    let mb = fp.mant_bits();
    let scale = (mb + 3) & !1; // even, and enough to normalise any subnormal
    let min_normal = fp.pick(f64::MIN_POSITIVE, f32::MIN_POSITIVE as f64);
    let sub = fp.cmp(OLT, x, fp.c(min_normal))?;
    let xs = fp.select(sub, fp.mul(x, fp.c(2f64.powi(scale as i32)))?, x)?;
    let e = fp.isub(fp.ashr(fp.bits(xs)?, mb)?, fp.ci(fp.bias()))?;
    let k = fp.ashr(e, 1)?;
    let m2k = fp.isub(fp.ci(0), fp.iadd(k, k)?)?;
    let xr = fp.mul(xs, fp.pow2(m2k)?)?; // in [1, 4), exact
    let s = fp.intrinsic("llvm.sqrt", module, xr)?;
    let y = fp.div(fp.c(1.0), s)?;
    let p = fp.mul(y, y)?;
    let pl = fp.fma(y, y, fp.neg(p)?)?;
    let q = fp.mul(xr, p)?;
    let ql = fp.fma(xr, p, fp.neg(q)?)?;
    let t = fp.add(fp.sub(q, fp.c(1.0))?, fp.fma(xr, pl, ql)?)?;
    let y = fp.fma(fp.mul(fp.c(-0.5), y)?, t, y)?;
    let back = fp.iselect(sub, fp.ci(scale as i64 / 2), fp.ci(0))?;
    let y = fp.ldexp(y, fp.isub(back, k)?)?;
    let pos = fp.cmp(OGT, x, fp.c(0.0))?;
    let fin = fp.cmp(OLT, x, fp.c(f64::INFINITY))?;
    let ok = fp.b.build_and(pos, fin, "")?;
    fp.select(ok, y, plain)
}
