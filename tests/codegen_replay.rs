//! Replay: a kernel built again from its recorded tile IR alone (`KernelBuilder::replay`) lowers
//! to the same LLVM IR as the kernel built call by call, so the program holds everything its
//! lowering needs. (Debug builds check this in every `finish`; these tests say it outright, and
//! show that the replay reads the program rather than echoing the original.)
#![cfg(feature = "llvm")]

use weft::codegen::ir::RegionId;
use weft::codegen::kernels::{self, blocked_1d, example_kernel, EXAMPLE_KERNELS};
use weft::codegen::{AtomicOp, Context, DType, Kernel, KernelBuilder, Operand, Result, Target};
use weft::layout::encoding::SwizzledShared;

/// The target each shipped kernel is built for.
fn target_of(name: &str) -> Target {
    if name == "gemm_sm80" {
        Target::SM80
    } else {
        Target::SM90A
    }
}

/// `k` replayed in a fresh context: its LLVM IR and its program's text with each op's line.
fn replayed(k: &Kernel<'_>) -> Result<(String, String)> {
    let ctx = Context::new();
    let r = KernelBuilder::replay(&ctx, k.program())?;
    Ok((r.llvm_ir(), r.program().to_text(true)))
}

#[test]
fn every_shipped_kernel_replays_to_the_same_llvm_ir_and_program() {
    let ctx = Context::new();
    for name in EXAMPLE_KERNELS {
        let k =
            example_kernel(&ctx, name, target_of(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (ir, prog) = replayed(&k).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            ir.contains("define"),
            "{name}: no kernel function in the replay"
        );
        assert_eq!(ir, k.llvm_ir(), "{name}: the replay's LLVM IR differs");
        assert_eq!(
            prog,
            k.program().to_text(true),
            "{name}: the replay records another program (or other lines)"
        );
    }
}

/// A 1-D kernel through the families the shipped kernels do not use: loops with carried values,
/// both kinds of branch, reductions and scans with combine functions, argmax, atomics, `where`,
/// math, `fma`, casts, `num_programs`, `assume`, FMA contraction and a register limit.
fn odd_families(ctx: &Context) -> Result<Kernel<'_>> {
    let t = Target::SM90;
    let mut kb = KernelBuilder::new(ctx, t, "odd_families", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let out = kb.arg_ptr("out", DType::F32, 16)?;
    let n = kb.arg_i32("n", 1)?;
    kb.limit_registers(128)?;
    let layout = blocked_1d(t, 2, 4, 256)?;
    let pid = kb.program_id(0)?;
    let grid = kb.num_programs(0)?;
    let base = kb.mul(pid, 256)?;
    let offs = kb.arange(0, 256, &layout)?;
    let offs = kb.add(offs, base)?;
    let offs = kb.assume(offs, 2, 2)?;
    let mask = kb.lt(offs, n)?;
    let ptrs = kb.add(x, offs)?;
    let v = kb.load(ptrs, Some(mask), Some(Operand::Float(0.0)))?;
    kb.allow_fp_contraction(true);
    let acc = kb.full(&layout, DType::F32, 0.0f32)?;
    let acc = kb.for_range(0, grid, 1, &[acc], |kb, iv, c| {
        let f = kb.cast(iv, DType::F32)?;
        let s = kb.mul(v, f)?;
        Ok(vec![kb.add(c[0], s)?])
    })?[0];
    kb.allow_fp_contraction(false);
    let e = kb.exp(acc)?;
    let y = kb.fma(e, 0.5f32, v)?;
    let pos = kb.gt(y, 0.0f32)?;
    let y = kb.where_(pos, y, 0.0f32)?;
    let first = kb.lt(pid, 1)?;
    let y = kb.if_(first, |kb| Ok(vec![kb.mul(y, 2.0f32)?]), |_| Ok(vec![y]))?[0];
    let scanned = kb.associative_scan_with(y, 0, |kb, a, b| kb.add(a, b))?;
    let total = kb.reduce_with(scanned, 0, |kb, a, b| kb.max(a, b))?;
    let best = kb.argmax(y, 0)?;
    kb.if_then(first, |kb| {
        let at = kb.add(out, best)?;
        kb.atomic_rmw(AtomicOp::Add, at, total, None)?;
        Ok(())
    })?;
    let optrs = kb.add(out, offs)?;
    kb.store(optrs, scanned, Some(mask))?;
    kb.finish()
}

#[test]
fn ops_outside_the_shipped_kernels_replay_to_the_same_llvm_ir() {
    let ctx = Context::new();
    let k = odd_families(&ctx).unwrap();
    let text = k.program().to_string();
    for op in [
        "for",
        "if",
        "scan",
        "reduce",
        "argmax",
        "atomic_rmw",
        "allow_fp_contraction",
    ] {
        assert!(text.contains(&format!("weft.{op}")), "no {op} in\n{text}");
    }
    assert!(text.contains("maxnreg = 128"), "{text}");
    let (ir, prog) = replayed(&k).unwrap();
    assert_eq!(ir, k.llvm_ir());
    assert_eq!(prog, k.program().to_text(true));
}

/// A ring of one buffer (as tutorial 08 allocates for its single C buffer): indexed, written
/// and read back through shared memory.
fn one_buffer_ring(ctx: &Context) -> Result<Kernel<'_>> {
    let t = Target::SM90;
    let mut kb = KernelBuilder::new(ctx, t, "one_buffer_ring", 4)?;
    let out = kb.arg_ptr("out", DType::F32, 16)?;
    let layout = blocked_1d(t, 1, 4, 128)?;
    let plain = SwizzledShared::new(1, 1, 1, &[0]);
    let ring = kb.alloc_shared_buffers(DType::F32, 1, &[128], &plain)?;
    let buf = kb.index_shared(ring, 0)?;
    let x = kb.arange(0, 128, layout.clone())?;
    let xf = kb.expr(|e| e.of(x).cast(DType::F32))?;
    kb.store_shared(buf, xf)?;
    kb.barrier()?;
    let y = kb.load_shared(buf, layout)?;
    kb.expr(|e| (e.of(out) + e.of(x)).store(y))?;
    kb.finish()
}

/// A ring of one buffer keeps its leading dim of 1 in the program; the replay must rebuild that
/// ring, not a ring of one buffer shaped like the whole ring (whose index would not fit the tile
/// stored into it).
#[test]
fn a_ring_of_one_buffer_replays_to_the_same_llvm_ir() {
    let ctx = Context::new();
    let k = one_buffer_ring(&ctx).unwrap();
    assert!(
        k.program().to_string().contains("1x128xf32"),
        "{}",
        k.program()
    );
    let (ir, prog) = replayed(&k).unwrap();
    assert_eq!(ir, k.llvm_ir());
    assert_eq!(prog, k.program().to_text(true));
}

#[test]
fn the_replay_follows_the_program_not_the_original_kernel() {
    let ctx = Context::new();
    let k = kernels::add_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    // A register limit written into the program reaches the replayed module.
    let mut limited = k.program().clone();
    limited.max_registers = Some(64);
    let ctx2 = Context::new();
    let ir = KernelBuilder::replay(&ctx2, &limited).unwrap().llvm_ir();
    assert!(ir.contains("nvvm.maxnreg") && !k.llvm_ir().contains("nvvm.maxnreg"));
    // A pointer promised only 4-byte aligned loads and stores one f32 at a time, not four.
    let mut unaligned = k.program().clone();
    for p in &mut unaligned.params {
        p.decl.divisibility = 4;
    }
    let ir = KernelBuilder::replay(&ctx2, &unaligned).unwrap().llvm_ir();
    let vec4 = |s: &str| s.matches("ld.global.v4").count();
    assert!(
        vec4(&k.llvm_ir()) > 0,
        "the add kernel loads 4 f32 at a time"
    );
    assert_eq!(vec4(&ir), 0, "{ir}");
}

#[test]
fn a_program_missing_a_definition_is_a_typed_error_at_the_users_line() {
    let ctx = Context::new();
    let k = kernels::add_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let mut broken = k.program().clone();
    broken.params.truncate(1);
    let e = KernelBuilder::replay(&ctx, &broken)
        .unwrap_err()
        .to_string();
    assert!(e.contains("is used before it is defined"), "{e}");
    assert!(
        e.contains("kernels/mod.rs:"),
        "the error names the kernel's line: {e}"
    );
    // A body that is no region of the program.
    let mut lost = k.program().clone();
    lost.body = RegionId(u32::MAX);
    let e = KernelBuilder::replay(&ctx, &lost).unwrap_err().to_string();
    assert!(e.contains("not one of the program's"), "{e}");
}

/// A loop whose carried pointer loses its alignment is lowered a second time, from the body's
/// record (the user's closure runs once): the second lowering keeps the ops' report labels,
/// the report has the rows of that lowering only, and the loop's record is the body as written.
#[test]
fn a_loop_lowered_again_from_its_record_keeps_its_labels() {
    let ctx = Context::new();
    let t = Target::SM90;
    let mut runs = 0;
    let mut kb = KernelBuilder::new(&ctx, t, "relowered", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    let layout = blocked_1d(t, 4, 4, 512).unwrap();
    let offs = kb.arange(0, 512, &layout).unwrap();
    let p0 = kb.add(x, offs).unwrap();
    let acc0 = kb.zeros(&layout, DType::F32).unwrap();
    let out = kb
        .for_range(0, n, 1, &[p0, acc0], |kb, _, c| {
            runs += 1;
            let v = kb.load(c[0], None, None)?;
            kb.label("loop barrier");
            kb.barrier()?;
            let acc = kb.add(c[1], v)?;
            Ok(vec![kb.add(c[0], 1)?, acc])
        })
        .unwrap();
    kb.store(p0, out[1], None).unwrap();
    let k = kb.finish().unwrap();
    assert_eq!(runs, 1);
    let rows: Vec<String> = k
        .report()
        .rows_of("barrier")
        .map(|r| r.source.clone())
        .collect();
    // One row: the abandoned first lowering's code is unreachable and not reported.
    assert_eq!(rows, ["loop barrier"]);
    let text = k.program().to_string();
    assert_eq!(text.matches("weft.barrier").count(), 1, "{text}");
    assert_eq!(text.matches("weft.load").count(), 1, "{text}");
}

/// One reduction and one scan over a 1-D tile of 4 warps (in-thread, shuffle and cross-warp
/// steps), their combine either the user's closure or weft's own for `op`.
fn reduce_and_scan(ctx: &Context, user_combine: bool) -> Result<(Kernel<'_>, u32)> {
    let t = Target::SM90;
    let mut kb = KernelBuilder::new(ctx, t, "combines", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let out = kb.arg_ptr("out", DType::F32, 16)?;
    let layout = blocked_1d(t, 2, 4, 512)?;
    let offs = kb.arange(0, 512, &layout)?;
    let ptrs = kb.add(x, offs)?;
    let v = kb.load(ptrs, None, None)?;
    let mut runs = 0;
    let (m, s) = if user_combine {
        let m = kb.reduce_with(v, 0, |kb, a, b| {
            runs += 1;
            kb.max(a, b)
        })?;
        let s = kb.associative_scan_with(v, 0, |kb, a, b| {
            runs += 1;
            kb.add(a, b)
        })?;
        (m, s)
    } else {
        let m = kb.reduce(v, 0, weft::codegen::ReduceOp::Max)?;
        (m, kb.associative_scan(v, 0, weft::codegen::ScanOp::Sum)?)
    };
    let s = kb.add(s, m)?;
    let optrs = kb.add(out, offs)?;
    kb.store(optrs, s, None)?;
    Ok((kb.finish()?, runs))
}

/// A combine closure runs once, recorded as its op's region, and every combination the
/// reduction or scan makes lowers that record: the kernel is the one weft's own combine (its
/// closure run at each combination) builds.
#[test]
fn a_combine_closure_runs_once_and_lowers_everywhere_from_its_record() {
    let ctx = Context::new();
    let (user, runs) = reduce_and_scan(&ctx, true).unwrap();
    assert_eq!(runs, 2, "each combine closure runs once");
    let (own, _) = reduce_and_scan(&ctx, false).unwrap();
    assert_eq!(user.llvm_ir(), own.llvm_ir());
    let text = user.program().to_string();
    assert_eq!(text.matches("weft.max").count(), 1, "{text}");
}
