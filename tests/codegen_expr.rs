//! Expressions (`KernelBuilder::expr`): operators and method chains build the same kernel as the
//! explicit builder calls (identical LLVM IR), run to the host's result in the interpreter, and
//! an error names the line of the operation that failed.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::Blocked;
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

const N: i32 = 512;

/// `y = silu(x · w + b)` over 512 elements, with `expr` or with explicit calls.
fn silu_affine(ctx: &Context, with_expr: bool) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "silu_affine", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let w = kb.arg_f32("w").unwrap();
    let b = kb.arg_f32("b").unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();
    let out: Value = if with_expr {
        kb.expr(|e| {
            let t = e.of(v) * e.of(w) + e.of(b);
            t / ((-t).exp() + 1.0)
        })
        .unwrap()
    } else {
        let t = kb.mul(v, w).unwrap();
        let t = kb.add(t, b).unwrap();
        let n = kb.neg(t).unwrap();
        let n = kb.exp(n).unwrap();
        let d = kb.add(n, 1.0).unwrap();
        kb.div(t, d).unwrap()
    };
    let q = kb.add(y, offs).unwrap();
    kb.store(q, out, None).unwrap();
    kb.finish().unwrap()
}

#[test]
fn expressions_build_the_same_kernel_as_explicit_calls() {
    let ctx = Context::new();
    let a = silu_affine(&ctx, true);
    let b = silu_affine(&ctx, false);
    assert_eq!(a.llvm_ir(), b.llvm_ir());
}

#[test]
fn an_expression_kernel_matches_the_host_in_the_interpreter() {
    let ctx = Context::new();
    let k = silu_affine(&ctx, true);
    let dev = common::gpu::cpu();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let x: Vec<f32> = common::rng::Rng(4).vec(N as usize);
    let (w, b) = (0.75f32, -0.5f32);
    let dx = dev.upload(&x).unwrap();
    let dy = dev.alloc_zeroed::<f32>(N as usize).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(w).scalar(b);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: reads x and writes y, 512 elements each.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    for (i, (&g, &x)) in dy.to_vec().unwrap().iter().zip(&x).enumerate() {
        let t = f64::from(x) * f64::from(w) + f64::from(b);
        let want = t / ((-t).exp() + 1.0);
        assert!(
            (f64::from(g) - want).abs() <= 1e-5 * want.abs().max(1.0),
            "{i}: {g} vs {want}"
        );
    }
}

#[test]
fn the_first_error_names_its_line_and_stops_the_rest() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();
    let e = kb
        .expr(|e| (e.of(v).sum(3) + 1.0).exp().max_over(0))
        .unwrap_err();
    // The line the failing call is on (this file's own text says which).
    let loc = e.loc().expect("the error carries the user's line");
    let source: Vec<&str> = include_str!("codegen_expr.rs").lines().collect();
    assert_eq!(loc.file, file!(), "{e}");
    assert!(source[loc.line as usize - 1].contains("sum(3)"), "{e}");
    // Axis 3 of a 1-D tile.
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    // A pointer is no number to take the exponential of.
    let e = kb.expr(|e| e.of(x).exp()).unwrap_err();
    let line = e.loc().expect("a line").line as usize;
    assert!(source[line - 1].contains("e.of(x).exp()"), "{e}");
    // The builder is usable afterwards.
    let twice = kb.expr(|e| e.of(v) * 2.0).unwrap();
    assert_eq!(kb.shape(twice).unwrap(), vec![N as u64]);
}

/// `y[i] = x[i]` where `i < n`: one expression with `load_masked` and `store`, or explicit calls.
fn masked_copy(ctx: &Context, with_expr: bool) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "masked_copy", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    if with_expr {
        let v = kb
            .expr(|e| {
                let m = e.of(offs).lt(e.of(n));
                (e.of(y) + e.of(offs)).store_masked((e.of(x) + e.of(offs)).load_masked(m), m)
            })
            .unwrap();
        // The expression's value is the stored tile.
        assert_eq!(kb.shape(v).unwrap(), vec![N as u64]);
    } else {
        // In the expression's order: the store's pointers are built first.
        let m = kb.lt(offs, n).unwrap();
        let py = kb.add(y, offs).unwrap();
        let px = kb.add(x, offs).unwrap();
        let v = kb.load(px, Some(m), None).unwrap();
        kb.store(py, v, Some(m)).unwrap();
    }
    kb.finish().unwrap()
}

#[test]
fn load_and_store_expressions_copy_as_the_explicit_calls_do() {
    let ctx = Context::new();
    assert_eq!(
        masked_copy(&ctx, true).llvm_ir(),
        masked_copy(&ctx, false).llvm_ir()
    );
    let k = masked_copy(&ctx, true);
    let dev = common::gpu::cpu();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let xs: Vec<f32> = (0..N).map(|i| i as f32 * 0.5 - 7.0).collect();
    let x = dev.upload(&xs).unwrap();
    let y = dev.upload(&vec![-1.0f32; N as usize]).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&y).scalar(301i32);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: reads x and writes y below 301 (512 each).
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let got = y.to_vec().unwrap();
    for (i, (&g, &w)) in got.iter().zip(&xs).enumerate() {
        assert_eq!(g, if i < 301 { w } else { -1.0 }, "y[{i}]");
    }
}

/// `y[i] = x[i]` for `i` in `[pid · 7, min(pid · 7 + 7, n))`, one scalar at a time: the loop
/// and its bounds as expressions (`program_id` inside, `Value`s on either side), or explicit.
fn scalar_copy(ctx: &Context, with_expr: bool) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "scalar_copy", 1).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 4).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 4).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    if with_expr {
        let start = kb.expr(|e| e.program_id(0) * 7).unwrap();
        let end = kb.expr(|e| (e.of(start) + 7).min(n)).unwrap();
        kb.for_each_expr(start, end, 1, |i| (y + i).store((x + i).load()))
            .unwrap();
    } else {
        let pid = kb.program_id(0).unwrap();
        let start = kb.mul(pid, 7).unwrap();
        let end = kb.add(start, 7).unwrap();
        let end = kb.min(end, n).unwrap();
        kb.for_range(start, end, 1, &[], |kb, i, _| {
            let py = kb.add(y, i)?;
            let px = kb.add(x, i)?;
            let v = kb.load(px, None, None)?;
            kb.store(py, v, None)?;
            Ok(vec![])
        })
        .unwrap();
    }
    kb.finish().unwrap()
}

#[test]
fn an_expression_loop_copies_as_the_explicit_loop_does() {
    let ctx = Context::new();
    assert_eq!(
        scalar_copy(&ctx, true).llvm_ir(),
        scalar_copy(&ctx, false).llvm_ir()
    );
    let k = scalar_copy(&ctx, true);
    let dev = common::gpu::cpu();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let xs: Vec<f32> = (0..40).map(|i| i as f32 + 0.25).collect();
    let x = dev.upload(&xs).unwrap();
    let y = dev.upload(&[-1.0f32; 40]).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&y).scalar(33i32);
    // Five programs of 7 cover 35: the last stops at 33, and nothing past it is written.
    let cfg = LaunchConfig::for_kernel(5u32, k.signature()).unwrap();
    // SAFETY: program p copies x[7p .. min(7p + 7, 33)) into y (40 each).
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    for (i, (&g, &w)) in y.to_vec().unwrap().iter().zip(&xs).enumerate() {
        assert_eq!(g, if i < 33 { w } else { -1.0 }, "y[{i}]");
    }
}

#[test]
fn a_literal_where_a_value_is_stored_is_an_error_at_its_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad_store", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let offs = kb
        .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
        .unwrap();
    let e = kb.expr(|e| (e.of(x) + offs).store(1.5)).unwrap_err();
    assert!(e.to_string().contains("1.5"), "{e}");
    let source: Vec<&str> = include_str!("codegen_expr.rs").lines().collect();
    let line = e.loc().expect("a line").line as usize;
    assert!(source[line - 1].contains(".store(1.5)"), "{e}");
    let e = kb
        .expr(|e| (e.of(x) + offs).store_masked(e.of(offs), 1))
        .unwrap_err();
    assert!(e.to_string().contains("literal 1"), "{e}");
}

#[test]
fn convert_layout_in_an_expression_is_the_builder_call() {
    let ctx = Context::new();
    let build = |with_expr: bool| {
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "convert", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let offs = kb
            .arange(0, N, Blocked::new(&[4], &[32], &[4], &[0]))
            .unwrap();
        let to = Blocked::new(&[1], &[32], &[4], &[0]);
        let v = if with_expr {
            kb.expr(|e| (e.of(x) + offs).load().convert_layout(&to))
                .unwrap()
        } else {
            let p = kb.add(x, offs).unwrap();
            let v = kb.load(p, None, None).unwrap();
            kb.convert_layout(v, &to).unwrap()
        };
        assert_eq!(kb.shape(v).unwrap(), vec![N as u64]);
        kb.expr(|e| (e.of(x) + e.of(offs).convert_layout(&to)).store(v))
            .unwrap();
        kb.finish().unwrap().llvm_ir()
    };
    assert_eq!(build(true), build(false));
}
