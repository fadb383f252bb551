//! Accurate `erf` for f32 and f64: fdlibm's piecewise rational approximations (coefficients
//! from FreeBSD/musl `s_erf.c`; the f32 version uses the same values rounded to f32, as
//! `s_erff.c` does), evaluated branch-free: one rational for `|x| < 1.25` (two coefficient sets
//! chosen by select), one for `1.25 <= |x| < 6` (two sets), then selects.
//!
//! - `|x| < 0.84375`: `x + x R(x²)`.
//! - `0.84375 <= |x| < 1.25`: `erx + P(s)/Q(s)`, `s = |x| - 1`.
//! - `1.25 <= |x| < 6`: `1 - exp(-z² - 0.5625) exp((z - x)(z + x) + R(1/x²)/S(1/x²)) / x`, `z` the
//!   head of `x` (half the bits) so `z²` is exact; the two exps are the accurate `exp`.
//! - `|x| >= 6`: ±1. NaN gives NaN, ±0 gives ±0, ±inf gives ±1.

use inkwell::values::FloatValue;
use inkwell::FloatPredicate;

use super::exp::exp;
use super::fp::Base;
use super::fp::Fp;
use crate::codegen::error::Result;

const ERX: f64 = 8.450_629_115_104_675e-1;
// erf on [0, 0.84375]: x + x * (PP / QQ)(x²), padded to the length of the [0.84375, 1.25] set.
const PP: [f64; 7] = [
    1.283_791_670_955_125_6e-1,
    -3.250_421_072_470_015e-1,
    -2.848_174_957_559_851e-2,
    -5.770_270_296_489_442e-3,
    -2.376_301_665_665_016_3e-5,
    0.0,
    0.0,
];
const QQ: [f64; 7] = [
    1.0,
    3.979_172_239_591_553_5e-1,
    6.502_224_998_876_73e-2,
    5.081_306_281_875_766e-3,
    1.324_947_380_043_216_4e-4,
    -3.960_228_278_775_368e-6,
    0.0,
];
// erf on [0.84375, 1.25]: erx + (PA / QA)(|x| - 1).
const PA: [f64; 7] = [
    -2.362_118_560_752_659_4e-3,
    4.148_561_186_837_483_3e-1,
    -3.722_078_760_357_013e-1,
    3.183_466_199_011_617_5e-1,
    -1.108_946_942_823_966_8e-1,
    3.547_830_432_561_823_6e-2,
    -2.166_375_594_868_791e-3,
];
const QA: [f64; 7] = [
    1.0,
    1.064_208_804_008_442_3e-1,
    5.403_979_177_021_71e-1,
    7.182_865_441_419_627e-2,
    1.261_712_198_087_616_4e-1,
    1.363_708_391_202_905e-2,
    1.198_449_984_679_910_7e-2,
];
// erfc on [1.25, 1/0.35]: R/S in 1/x².
const RA: [f64; 9] = [
    -9.864_944_034_847_148e-3,
    -6.938_585_727_071_818e-1,
    -1.055_862_622_532_329_1e1,
    -6.237_533_245_032_600_6e1,
    -1.623_966_694_625_734_7e2,
    -1.846_050_929_067_110_4e2,
    -8.128_743_550_630_66e1,
    -9.814_329_344_169_145,
    0.0,
];
const SA: [f64; 9] = [
    1.0,
    1.965_127_166_743_925_7e1,
    1.376_577_541_435_190_4e2,
    4.345_658_774_752_292_3e2,
    6.453_872_717_332_679e2,
    4.290_081_400_275_678_3e2,
    1.086_350_055_417_794_4e2,
    6.570_249_770_319_282,
    -6.042_441_521_485_81e-2,
];
// erfc on [1/0.35, 6].
const RB: [f64; 9] = [
    -9.864_942_924_700_1e-3,
    -7.992_832_376_805_23e-1,
    -1.775_795_491_775_475_2e1,
    -1.606_363_848_558_219_2e2,
    -6.375_664_433_683_896e2,
    -1.025_095_131_611_077_2e3,
    -4.835_191_916_086_514e2,
    0.0,
    0.0,
];
const SB: [f64; 9] = [
    1.0,
    3.033_806_074_348_246e1,
    3.257_925_129_965_739e2,
    1.536_729_586_084_437e3,
    3.199_858_219_508_595_5e3,
    2.553_050_406_433_164_4e3,
    4.745_285_412_069_553_7e2,
    -2.244_095_244_658_582e1,
    0.0,
];

/// `erf x`.
pub(super) fn erf<'ctx>(fp: &Fp<'_, 'ctx>, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
    let ax = fp.abs(x)?;
    let lt = |v: f64| fp.cmp(FloatPredicate::OLT, ax, fp.c(v));

    // |x| < 1.25: one rational in t = x² or |x| - 1.
    let small = lt(0.84375)?;
    let t = fp.select(small, fp.mul(x, x)?, fp.sub(ax, fp.c(1.0))?)?;
    let num = fp.horner_sel(small, t, &PP, &PA)?;
    let den = fp.horner_sel(small, t, &QQ, &QA)?;
    let q = fp.div(num, den)?;
    let y_small = fp.fma(x, q, x)?; // keeps the sign, ±0 and subnormals
    let y_mid = fp.copysign(fp.add(fp.c(ERX), q)?, x)?;

    // 1.25 <= |x| < 6.
    let a = lt(2.857_142_925_262_451)?;
    let s = fp.div(fp.c(1.0), fp.mul(ax, ax)?)?;
    let r = fp.horner_sel(a, s, &RA, &RB)?;
    let sd = fp.horner_sel(a, s, &SA, &SB)?;
    let z = fp.trunc_low(ax, fp.pick(32, 12))?;
    let e1 = exp(fp, fp.sub(fp.mul(fp.neg(z)?, z)?, fp.c(0.5625))?, Base::E)?;
    let arg2 = fp.fma(fp.sub(z, ax)?, fp.add(z, ax)?, fp.div(r, sd)?)?;
    let e2 = exp(fp, arg2, Base::E)?;
    let erfc = fp.div(fp.mul(e1, e2)?, ax)?;
    let y_tail = fp.copysign(fp.sub(fp.c(1.0), erfc)?, x)?;

    let y_far = fp.copysign(fp.c(1.0), x)?;
    let y = fp.select(lt(6.0)?, y_tail, y_far)?;
    let y = fp.select(lt(1.25)?, y_mid, y)?;
    let y = fp.select(small, y_small, y)?;
    fp.select(fp.is_nan(x)?, x, y)
}
