//! The activation functions (`reciprocal`, `sigmoid`, `silu`, `gelu`, `gelu_tanh`, `softplus`) against f64
//! host references on random inputs and at the extremes (±0, ±100, ±1e30, where a naive
//! formula overflows to NaN), on the CPU backend and, when there is one, on the GPU; each
//! through the builder method and through `expr`, which must build the same code.
#![cfg(feature = "llvm")]

mod common;

use common::math_ref::erf_ref;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Result, Target, Value};
use weft::layout::encoding::Blocked;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const N: usize = 1024;

#[derive(Debug, Clone, Copy)]
enum Act {
    Reciprocal,
    Sigmoid,
    Silu,
    Gelu,
    GeluTanh,
    Softplus,
}

const ALL: [Act; 6] = [
    Act::Reciprocal,
    Act::Sigmoid,
    Act::Silu,
    Act::Gelu,
    Act::GeluTanh,
    Act::Softplus,
];

impl Act {
    fn build(self, kb: &mut KernelBuilder<'_>, x: Value) -> Result<Value> {
        match self {
            Act::Reciprocal => kb.reciprocal(x),
            Act::Sigmoid => kb.sigmoid(x),
            Act::Silu => kb.silu(x),
            Act::Gelu => kb.gelu(x),
            Act::GeluTanh => kb.gelu_tanh(x),
            Act::Softplus => kb.softplus(x),
        }
    }

    fn host(self, x: f64) -> f64 {
        let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
        match self {
            Act::Reciprocal => 1.0 / x,
            Act::Sigmoid => sig(x),
            Act::Silu => x * sig(x),
            Act::Gelu => 0.5 * x * (1.0 + erf_ref(x / std::f64::consts::SQRT_2)),
            Act::GeluTanh => {
                let y = 0.797_884_560_802_865_4 * (x + 0.044_715 * x * x * x);
                0.5 * x * (1.0 + y.tanh())
            }
            // PyTorch's threshold: x itself above 20.
            Act::Softplus if x > 20.0 => x,
            Act::Softplus => x.exp().ln_1p(),
        }
    }
}

/// `y = act(x)` over `N` f32.
fn kernel(ctx: &Context, act: Act, with_expr: bool) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "act", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let offs = kb
        .arange(0, N as i32, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();
    let out = if with_expr {
        kb.expr(|e| {
            let v = e.of(v);
            match act {
                Act::Reciprocal => v.reciprocal(),
                Act::Sigmoid => v.sigmoid(),
                Act::Silu => v.silu(),
                Act::Gelu => v.gelu(),
                Act::GeluTanh => v.gelu_tanh(),
                Act::Softplus => v.softplus(),
            }
        })
        .unwrap()
    } else {
        act.build(&mut kb, v).unwrap()
    };
    let q = kb.add(y, offs).unwrap();
    kb.store(q, out, None).unwrap();
    kb.finish().unwrap()
}

fn inputs() -> Vec<f32> {
    let mut x = common::rng::Rng(21).vec(N);
    for (i, v) in [
        0.0, -0.0, 100.0, -100.0, 1e30, -1e30, 20.0, -20.0, 20.5, 19.5, -30.0, -1e-3,
    ]
    .iter()
    .enumerate()
    {
        x[i] = *v;
    }
    x
}

fn run<B: Backend>(dev: &B::Device, act: Act) {
    let ctx = Context::new();
    let k = kernel(&ctx, act, false);
    let kernel = k.load_on::<B>(dev).unwrap();
    let x = inputs();
    let dx = dev.upload(&x).unwrap();
    let dy = dev.alloc_zeroed::<f32>(N).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: reads x and writes y, N elements each.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    for (&g, &x) in dy.to_vec().unwrap().iter().zip(&x) {
        let want = act.host(f64::from(x));
        let g = f64::from(g);
        let ok = if want.is_infinite() || want.abs() > f64::from(f32::MAX) {
            g.is_infinite() == want.is_infinite() && g.signum() == want.signum()
        } else {
            // A few ulp of the result, and of `x` itself where `1 + erf` or `1 + tanh` cancels
            // (GELU's left tail: an f32 computation keeps an absolute error of about ulp(x)).
            (g - want).abs() <= 4e-6 * want.abs() + 2e-7 * f64::from(x).abs() + 1e-30
        };
        // softplus's left tail is e^x: relative accuracy there, which `log(1 + e^x)` alone
        // would lose (it rounds to 0 below x = -17).
        let tail = matches!(act, Act::Softplus) && want > 1e-30 && x < 0.0;
        let ok = ok && (!tail || (g - want).abs() <= 2e-5 * want);
        assert!(
            ok && !g.is_nan(),
            "{act:?} on {}: x = {x}: {g} vs {want}",
            B::KIND
        );
    }
}

#[test]
fn activations_match_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    for act in ALL {
        run::<weft::runtime::cpu::Cpu>(&dev, act);
    }
}

#[test]
fn the_expression_methods_build_the_same_code() {
    let ctx = Context::new();
    for act in ALL {
        assert_eq!(
            kernel(&ctx, act, true).llvm_ir(),
            kernel(&ctx, act, false).llvm_ir(),
            "{act:?}"
        );
    }
}

#[test]
fn activations_refuse_integer_tiles_at_the_callers_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad", 4).unwrap();
    let offs = kb
        .arange(0, 512, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let e = kb.sigmoid(offs).unwrap_err();
    let source: Vec<&str> = include_str!("codegen_activation.rs").lines().collect();
    let loc = e.loc().expect("a line");
    assert!(
        source[loc.line as usize - 1].contains("kb.sigmoid(offs)"),
        "{e}"
    );
}

#[cfg(feature = "cuda")]
#[test]
fn activations_match_f64_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    for act in ALL {
        run::<weft::runtime::cuda::Cuda>(&dev, act);
    }
}
