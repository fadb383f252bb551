//! The tile IR: what the builder records, how it prints, where errors point, and the hazards the
//! verifier refuses (one test per hazard, each naming the user's line).
#![cfg(feature = "llvm")]

use weft::codegen::kernels::{self, blocked_1d};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, Target, WarpRole};
use weft::layout::encoding::{Blocked, NvidiaMma, NvmmaShared};

/// The line of the `line!()` call plus `delta`.
macro_rules! here {
    ($delta:expr) => {
        line!() + $delta
    };
}

fn scale_kernel(ctx: &Context) -> weft::codegen::Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "scale", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let n = kb.arg_i32("n", 16).unwrap();
    let layout = blocked_1d(Target::SM90, 4, 4, 512).unwrap();
    let pid = kb.program_id(0).unwrap();
    let base = kb.mul(pid, 512).unwrap();
    let offs = kb.arange(0, 512, &layout).unwrap();
    let offs = kb.add(offs, base).unwrap();
    let mask = kb.lt(offs, n).unwrap();
    let ptrs = kb.add(x, offs).unwrap();
    let v = kb.load(ptrs, Some(mask), None).unwrap();
    let v = kb.mul(v, 2.0).unwrap();
    kb.store(ptrs, v, Some(mask)).unwrap();
    kb.finish().unwrap()
}

#[test]
fn the_builder_records_one_op_per_call_in_order_with_types_and_lines() {
    let ctx = Context::new();
    let k = scale_kernel(&ctx);
    let text = k.program().to_string();
    let ops: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with('%') || l.contains("weft.store"))
        .map(|l| {
            let l = l.trim();
            let body = l.split_once(" = weft.").map_or(l, |(_, b)| b);
            body.split_whitespace()
                .next()
                .unwrap()
                .trim_start_matches("weft.")
        })
        .collect();
    assert_eq!(
        ops,
        [
            "program_id",
            "mul",
            "arange",
            "add",
            "cmplt",
            "add",
            "load",
            "mul",
            "store"
        ],
        "{text}"
    );
    // Layouts are aliases, printed once in TTGIR syntax.
    assert_eq!(text.matches("= #ttg.").count(), 1, "{text}");
    assert!(text.contains("tensor<512xf32, #linear0>"), "{text}");
    assert!(text.contains("weft.kernel @scale("), "{text}");
    // Every op line names this file when locations are asked for.
    let with_locs = k.program().to_text(true);
    let op_lines = with_locs
        .lines()
        .filter(|l| l.contains("weft.") && !l.contains("weft.kernel"));
    for l in op_lines {
        assert!(l.contains("tests/codegen_ir.rs:"), "{l}");
    }
}

#[test]
fn an_op_built_from_other_ops_is_recorded_once() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let l = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
    let t = kb.arange(0, 64, (&l, [64u64, 64])).ok();
    // arange is 1-D; make a 2-D tile from two aranges.
    assert!(t.is_none());
    let r = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(1, l.clone().into()),
        )
        .unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let c = kb.zeros((&l, [64u64, 64]), DType::F32).unwrap();
    let r = kb.cast(r, DType::F32).unwrap();
    let t = kb.add(c, r).unwrap();
    let _m = kb.argmax(t, 1).unwrap();
    let prog = kb.program();
    let text = prog.to_string();
    assert_eq!(text.matches("weft.argmax").count(), 1, "{text}");
    // argmax is built from a reduction with a combine: none of it is recorded.
    assert!(!text.contains("weft.reduce"), "{text}");
    assert!(!text.contains("weft.max"), "{text}");
    // zeros is one op (full), not full + constant.
    assert_eq!(text.matches("weft.full").count(), 1, "{text}");
}

#[test]
fn loop_bodies_are_regions_recorded_once_however_often_they_are_lowered() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let layout = blocked_1d(Target::SM90, 4, 4, 512).unwrap();
    let offs = kb.arange(0, 512, &layout).unwrap();
    let p0 = kb.add(x, offs).unwrap();
    let acc = kb.zeros(&layout, DType::F32).unwrap();
    let mut calls = 0;
    let out = kb
        .for_range(0, 8, 1, &[p0, acc], |kb, _i, c| {
            calls += 1;
            let v = kb.load(c[0], None, None)?;
            let a = kb.add(c[1], v)?;
            // Advancing by 3 elements breaks the 16-byte alignment assumed at first: the loop
            // is lowered again with weaker facts, from the body's record.
            let p = kb.add(c[0], 3)?;
            Ok(vec![p, a])
        })
        .unwrap();
    kb.store(p0, out[1], None).unwrap();
    assert_eq!(calls, 1, "the user's closure runs once ({calls})");
    let text = kb.program().to_string();
    assert_eq!(text.matches("weft.for").count(), 1, "{text}");
    assert_eq!(text.matches("weft.load").count(), 1, "{text}");
    assert_eq!(text.matches("weft.yield").count(), 1, "{text}");
    assert!(text.contains("^bb("), "{text}");
}

#[test]
fn an_error_names_the_users_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let a = kb
        .arange(0, 512, blocked_1d(Target::SM90, 4, 4, 512).unwrap())
        .unwrap();
    let b = kb
        .arange(0, 256, blocked_1d(Target::SM90, 2, 4, 256).unwrap())
        .unwrap();
    let line = here!(1);
    let e = kb.add(a, b).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { .. }),
        "{e}"
    );
    let loc = e.loc().expect("a located error");
    assert!(loc.file.ends_with("codegen_ir.rs"), "{loc}");
    assert_eq!(loc.line, line);
    assert!(
        e.to_string().starts_with(&format!("{}:{line}:", loc.file)),
        "{e}"
    );
    // Inside a loop body, the line in the closure.
    let mut line = 0;
    let e = kb
        .for_range(0, 4, 1, &[], |kb, _, _| {
            line = here!(1);
            kb.add(a, b)?;
            Ok(vec![])
        })
        .unwrap_err();
    assert_eq!(e.loc().unwrap().line, line, "{e}");
}

#[test]
fn a_literal_that_rounds_to_zero_or_infinity_in_the_tiles_type_is_refused() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let l = blocked_1d(Target::SM90, 4, 4, 512).unwrap();
    let h = kb.zeros(&l, DType::F16).unwrap();
    let e = kb.mul(h, 1e-8).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("1e-8 is 0 in f16"), "{e}");
    let e = kb.add(h, 1e6).unwrap_err();
    assert!(e.to_string().contains("inf in f16"), "{e}");
    // What f16 can hold is taken, and so is the same literal in f32.
    kb.mul(h, 1e-4).unwrap();
    let f = kb.zeros(&l, DType::F32).unwrap();
    kb.mul(f, 1e-8).unwrap();
    let b = kb.zeros(&l, DType::BF16).unwrap();
    kb.mul(b, 1e-8).unwrap();
}

fn hazard_of(r: Result<(), CodegenError>) -> (String, u32) {
    match r {
        Err(e @ CodegenError::Hazard { .. }) => {
            let line = e.loc().unwrap().line;
            assert!(e.loc().unwrap().file.ends_with("codegen_ir.rs"), "{e}");
            (e.to_string(), line)
        }
        Err(e) => panic!("expected a hazard, got {e}"),
        Ok(_) => panic!("expected a hazard, the kernel built"),
    }
}

#[test]
fn reading_a_wgmma_accumulator_before_its_wait_is_a_hazard() {
    let nv = || NvmmaShared::new(128, 16, 2, false);
    let hopper = NvidiaMma::hopper(&[4, 1], 128, 16);
    let build = |wait: bool| {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
        let a = kb.alloc_shared(DType::F16, &[64, 64], nv()).unwrap();
        let b = kb.alloc_shared(DType::F16, &[64, 128], nv()).unwrap();
        let c = kb.zeros((&hopper, [64u64, 128]), DType::F32).unwrap();
        let d = kb.wgmma(a, b, c).unwrap();
        // Chaining into the next wgmma is fine.
        let d = kb.wgmma(a, b, d).unwrap();
        let d = if wait {
            kb.wgmma_wait(0, &[d]).unwrap()[0]
        } else {
            d
        };
        let line = here!(1);
        kb.mul(d, 2.0).unwrap();
        (kb.finish().map(|_| ()), line)
    };
    let (r, line) = build(false);
    let e = r.unwrap_err();
    assert!(matches!(e, CodegenError::Hazard { .. }), "{e}");
    assert_eq!(e.loc().unwrap().line, line, "{e}");
    assert!(e.to_string().contains("wgmma_wait"), "{e}");
    build(true).0.unwrap();
}

#[test]
fn expected_bytes_that_differ_from_the_boxes_are_a_hazard() {
    let build = |ctx: &'_ Context, boxes: u32| {
        let mut kb = KernelBuilder::new(ctx, Target::SM90A, "k", 4).unwrap();
        let src = kb.arg_tensor_map("src", DType::F16, &[64, 32], 64).unwrap();
        let r0 = kb.arg_i32("r0", 1).unwrap();
        let layout = NvmmaShared::new(64, 16, 2, false);
        let buf = kb.alloc_shared(DType::F16, &[64, 64], &layout).unwrap();
        let bars = kb.alloc_mbarriers(1, 1).unwrap();
        let bar = kb.mbarrier_at(bars, 0).unwrap();
        let bytes = kb.tma_bytes(buf).unwrap();
        let line = here!(1);
        kb.mbarrier_expect(bar, bytes * boxes, None).unwrap();
        kb.tma_load(src, &[r0, r0], buf, bar, None).unwrap();
        kb.mbarrier_wait(bar, 0).unwrap();
        (kb.finish().map(|_| ()), line)
    };
    let ctx = Context::new();
    let (r, line) = build(&ctx, 2);
    let (msg, at) = hazard_of(r);
    assert_eq!(at, line);
    assert!(
        msg.contains("expects 16384 bytes") && msg.contains("bring 8192"),
        "{msg}"
    );
    assert!(msg.contains("never complete"), "{msg}");
    build(&ctx, 1).0.unwrap();
}

#[test]
fn reading_shared_memory_before_the_barrier_that_publishes_it_is_a_hazard() {
    let build = |ctx: &'_ Context, barrier: bool| {
        let mut kb = KernelBuilder::new(ctx, Target::SM90, "k", 4).unwrap();
        let l = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        let t = kb.zeros((&l, [64u64, 64]), DType::F32).unwrap();
        let s = kb
            .alloc_shared(
                DType::F32,
                &[64, 64],
                weft::layout::encoding::SwizzledShared::new(1, 1, 1, &[1, 0]),
            )
            .unwrap();
        kb.store_shared(s, t).unwrap();
        if barrier {
            kb.barrier().unwrap();
        }
        let t2 = Blocked::new(&[4, 1], &[8, 4], &[1, 4], &[0, 1]);
        let line = here!(1);
        kb.load_shared(s, (&t2, [64u64, 64])).unwrap();
        (kb.finish().map(|_| ()), line)
    };
    let ctx = Context::new();
    let (r, line) = build(&ctx, false);
    let (msg, at) = hazard_of(r);
    assert_eq!(at, line);
    assert!(
        msg.contains("store_shared at") && msg.contains("no a barrier"),
        "{msg}"
    );
    build(&ctx, true).0.unwrap();
}

#[test]
fn a_role_reading_another_warps_registers_is_a_hazard() {
    let build = |ctx: &'_ Context, inside: bool| {
        let mut kb = KernelBuilder::new(ctx, Target::SM90A, "k", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let l = blocked_1d(Target::SM90A, 4, 4, 512).unwrap();
        let outside = kb.arange(0, 512, &l).unwrap();
        let roles = kb.warp_roles(&[WarpRole::new(4)]).unwrap();
        let mut line = 0;
        kb.in_role(roles[0], |kb| {
            let offs = if inside {
                kb.arange(0, 512, &l)?
            } else {
                outside
            };
            line = here!(1);
            let p = kb.add(x, offs)?;
            kb.store(p, 1.0f32, None)
        })
        .unwrap();
        (kb.finish().map(|_| ()), line)
    };
    let ctx = Context::new();
    build(&ctx, true).0.unwrap();
    let (r, line) = build(&ctx, false);
    let (msg, at) = hazard_of(r);
    assert_eq!(at, line);
    assert!(msg.contains("made outside this warp role"), "{msg}");
}

#[test]
fn every_shipped_kernel_verifies_and_prints() {
    let ctx = Context::new();
    for (name, k) in [
        (
            "gemm",
            kernels::gemm_kernel(&ctx, Target::SM90A, kernels::GemmConfig::new(DType::F16)),
        ),
        ("gemm_ws", {
            let mut c = kernels::GemmConfig::new(DType::F16);
            c.warp_specialized = true;
            kernels::gemm_kernel(&ctx, Target::SM90A, c)
        }),
        (
            "attention",
            kernels::attention_kernel(
                &ctx,
                Target::SM90A,
                kernels::AttentionConfig::new(DType::F16, true),
            ),
        ),
        (
            "attention_pp",
            kernels::attention_kernel(
                &ctx,
                Target::SM90A,
                kernels::AttentionConfig::ping_pong(DType::BF16, false),
            ),
        ),
        (
            "softmax",
            kernels::softmax_kernel(
                &ctx,
                Target::SM90,
                kernels::SoftmaxConfig::for_n(4096, 1, 4, 16),
            ),
        ),
    ] {
        let k = k.unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = k.program().to_text(true);
        assert!(text.contains("weft.kernel @"), "{name}");
        // Every operand is defined before use: a value printed as an operand was printed as a
        // result or a parameter first.
        let mut defined = std::collections::HashSet::new();
        for l in text.lines() {
            let (lhs, rhs) = match l.split_once(" = weft.") {
                Some((a, b)) => (Some(a), b),
                None => (None, l),
            };
            let code = rhs
                .split("  //")
                .next()
                .unwrap()
                .split(" : ")
                .next()
                .unwrap();
            for tok in code.split(|c: char| c == ',' || c.is_whitespace() || c == '(' || c == ')') {
                if let Some(n) = tok.strip_prefix('%') {
                    if let Ok(n) = n.trim_end_matches(':').parse::<u32>() {
                        if l.trim_start().starts_with("^bb") || l.starts_with("weft.kernel") {
                            defined.insert(n);
                        } else {
                            assert!(
                                defined.contains(&n),
                                "{name}: %{n} used before defined: {l}"
                            );
                        }
                    }
                }
            }
            if let Some(lhs) = lhs {
                for r in lhs.split(',') {
                    defined.insert(r.trim().trim_start_matches('%').parse::<u32>().unwrap());
                }
            }
        }
    }
}

/// TMA writes a box only at a 128-byte aligned shared address: a buffer filled by boxes smaller
/// than that (`[1, 4]` f32 boxes of 16 bytes into `[4, 4]`) is refused where the copy is built,
/// naming the box; one box of 128 bytes (`[1, 32]` into `[4, 32]`) is not.
#[test]
fn tma_boxes_landing_off_128_byte_boundaries_are_refused() {
    let build = |ctx: &'_ Context, cols: u32| {
        let mut kb = KernelBuilder::new(ctx, Target::SM90A, "k", 4).unwrap();
        let src = kb.arg_tensor_map("src", DType::F32, &[1, cols], 0).unwrap();
        let zero = kb.i32(0).unwrap();
        let layout = NvmmaShared::new(0, 32, 2, false);
        let buf = kb
            .alloc_shared(DType::F32, &[4, u64::from(cols)], &layout)
            .unwrap();
        let bars = kb.alloc_mbarriers(1, 1).unwrap();
        let bar = kb.mbarrier_at(bars, 0).unwrap();
        let bytes = kb.tma_bytes(buf).unwrap();
        kb.mbarrier_expect(bar, bytes, None).unwrap();
        kb.tma_load(src, &[zero, zero], buf, bar, None)
    };
    let ctx = Context::new();
    let e = build(&ctx, 4).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::BadLayout { .. })
            && e.to_string().contains("multiple of 128 bytes"),
        "{e}"
    );
    assert!(e.to_string().contains("[1, 0]"), "{e}");
    build(&ctx, 32).unwrap();
}
