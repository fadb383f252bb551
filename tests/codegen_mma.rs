//! The Ampere tensor-core path built without a GPU: `cp.async` (16-, 8- and 4-byte copies, the
//! zero-fill form, the synchronous fallback), `ldmatrix` (`.x4`, `.trans`, the fallback to
//! `ld.shared`), `dot` (`mma.sync` for f16, bf16 and tf32) and the sm_80 GEMM: the instructions
//! promised in the PTX, counted, every kernel assembled by ptxas for sm_80 and sm_90, and the
//! typed errors of wrong targets, kinds, shapes, types and layouts.
#![cfg(feature = "llvm")]

mod common;

use common::assemble;
use common::mma::{cp_async_tile_kernel, dot_kernel, ldmatrix_kernel, mma_layouts, row_blocked};
use weft::codegen::kernels::{self, GemmSm80Config, GEMM_SM80_CONFIGS};
use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::helpers::default_nvmma_shared;
use weft::layout::encoding::{Blocked, CgaLayout, Encoding, SwizzledShared};

const TARGETS: [Target; 2] = [Target::SM80, Target::SM90];

fn ptx(k: &Kernel, target: Target, what: &str) -> String {
    let ptx = k.ptx().unwrap_or_else(|e| panic!("{what}: {e}"));
    assemble(&ptx, &target.to_string(), what);
    ptx
}

fn count(code: &str, needle: &str) -> usize {
    code.lines().filter(|l| l.contains(needle)).count()
}

fn nvmma(shape: [u64; 2], bits: u32) -> Encoding {
    default_nvmma_shared(&shape, bits, false, false, CgaLayout::single())
        .unwrap()
        .into()
}

#[test]
fn cp_async_moves_16_byte_vectors_with_zero_fill_and_narrows_with_the_row_stride() {
    for target in TARGETS {
        for (dtype, per) in [(DType::F16, 8), (DType::BF16, 8), (DType::F32, 4)] {
            let bits = (dtype.mem_bytes() * 8) as u32;
            for shared in [
                nvmma([64, 64], bits),
                SwizzledShared::new(per, 1, 8, &[1, 0]).into(),
            ] {
                let ctx = Context::new();
                let what = format!("cp.async {dtype} {shared:?} ({target})");
                let k = cp_async_tile_kernel(&ctx, target, dtype, 64, 64, per, &shared, 4, 16, 1)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let code = ptx(&k, target, &what);
                // 64 × 64 elements, 16 bytes per copy, 128 threads.
                let copies = 64 * 64 / per as usize / 128;
                assert_eq!(
                    count(&code, "cp.async.cg.shared.global"),
                    copies,
                    "{what}:\n{code}"
                );
                // Masked: the zero-fill form with a register source size.
                assert!(code.contains(", 16, %r"), "{what}:\n{code}");
                assert_eq!(count(&code, "cp.async.commit_group"), 1, "{what}");
                assert_eq!(count(&code, "cp.async.wait_group 0"), 1, "{what}");
                assert!(!code.contains("ld.global"), "{what}: {code}");
            }
        }
        // Row strides known only to be even (f16): 4-byte copies; odd: a synchronous copy.
        let shared = nvmma([64, 64], 16);
        let ctx = Context::new();
        let k =
            cp_async_tile_kernel(&ctx, target, DType::F16, 64, 64, 8, &shared, 4, 2, 1).unwrap();
        let code = ptx(&k, target, "cp.async n even");
        assert_eq!(count(&code, "cp.async.ca.shared.global"), 64 * 64 / 2 / 128);
        assert!(code.contains(", 4, %r"), "{code}");
        let k =
            cp_async_tile_kernel(&ctx, target, DType::F16, 64, 64, 8, &shared, 4, 1, 1).unwrap();
        let code = ptx(&k, target, "cp.async n odd");
        assert_eq!(count(&code, "cp.async.ca"), 0, "{code}");
        assert_eq!(count(&code, "cp.async.cg"), 0, "{code}");
        assert!(
            code.contains("ld.global") && code.contains("st.shared"),
            "{code}"
        );
    }
}

#[test]
fn async_copy_errors_name_the_operands() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM80, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F16, 16).unwrap();
    let ld = row_blocked(64, 64, 8, 4);
    let (r, c) = kernels::tile_coords(&mut kb, &ld, [64, 64], None, None).unwrap();
    let off = kb.mul(r, 64).unwrap();
    let off = kb.add(off, c).unwrap();
    let p = kb.add(x, off).unwrap();
    let shared = nvmma([64, 64], 16);
    let s16 = kb.alloc_shared(DType::F16, &[64, 64], &shared).unwrap();
    let s32 = kb
        .alloc_shared(DType::F32, &[64, 64], nvmma([64, 64], 32))
        .unwrap();
    let small = kb
        .alloc_shared(DType::F16, &[32, 64], nvmma([32, 64], 16))
        .unwrap();
    // The descriptor and the pointers swapped: a wrong kind.
    let e = kb.async_copy_global_to_shared(p, s16, None).unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::WrongKind {
                op: "async_copy_global_to_shared",
                ..
            }
        ),
        "{e}"
    );
    let e = kb.async_copy_global_to_shared(s32, p, None).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::TypeMismatch { .. }),
        "{e}"
    );
    assert!(
        e.to_string().contains("f32") && e.to_string().contains("f16"),
        "{e}"
    );
    let e = kb.async_copy_global_to_shared(small, p, None).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { .. }),
        "{e}"
    );
    let e = kb.async_copy_global_to_shared(s16, off, None).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::InvalidType { .. }), "{e}");
    let e = kb
        .async_copy_global_to_shared(s16, p, Some(off))
        .unwrap_err();
    assert!(matches!(e.cause(), CodegenError::InvalidType { .. }), "{e}");
    let e = kb.async_wait_group(8).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    // Nothing was emitted for the rejected calls: the kernel still finishes.
    kb.async_copy_global_to_shared(s16, p, None).unwrap();
    kb.async_commit_group().unwrap();
    kb.async_wait_group(0).unwrap();
    kb.finish().unwrap();
}

#[cfg(feature = "amdgpu")]
#[test]
fn ampere_ops_are_refused_on_amd_before_llvm_runs() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::GFX942, "k", 4).unwrap();
    for e in [
        kb.async_commit_group().unwrap_err(),
        kb.async_wait_group(0).unwrap_err(),
    ] {
        assert!(matches!(e.cause(), CodegenError::Unsupported { .. }), "{e}");
        assert!(e.to_string().contains("cp.async needs sm_80"), "{e}");
    }
    // A 64-lane wavefront's layout.
    let wave = Blocked::new(&[1, 1], &[8, 8], &[4, 1], &[1, 0]);
    let z = kb.zeros((&wave, [16, 16]), DType::F32).unwrap();
    let e = kb.dot(z, z, z).unwrap_err();
    assert!(e.to_string().contains("mma.sync needs sm_80"), "{e}");
}

#[test]
fn ldmatrix_reads_operand_a_with_x4_and_b_with_trans() {
    for target in TARGETS {
        for dtype in [DType::F16, DType::BF16] {
            for warps in [4u32, 8] {
                let (_, da, db) = mma_layouts(128, 128, warps, 16);
                for (shape, dot, trans) in [([128u64, 32u64], &da, false), ([32, 128], &db, true)] {
                    let ctx = Context::new();
                    let what = format!("ldmatrix {dtype} {shape:?} {warps} warps ({target})");
                    let k = ldmatrix_kernel(
                        &ctx,
                        target,
                        dtype,
                        shape,
                        &nvmma(shape, 16),
                        dot,
                        warps,
                        1,
                    )
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                    let code = ptx(&k, target, &what);
                    let inst = if trans {
                        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
                    } else {
                        "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
                    };
                    // Each warp holds its part of the operand (copies along the other dim):
                    // 2 elements per lane and matrix, 4 matrices per instruction.
                    let l = Encoding::from((*dot).clone())
                        .to_linear_layout(&shape)
                        .unwrap();
                    let regs = l.in_dim_size("register").unwrap() as usize;
                    assert_eq!(count(&code, inst), regs / 8, "{what}:\n{code}");
                    assert_eq!(count(&code, "ldmatrix.sync"), regs / 8, "{what}");
                    // No 16-bit element is read with ld.shared.
                    let b16 = code
                        .lines()
                        .filter(|l| l.contains("ld.shared") && l.contains("b16"))
                        .count();
                    assert_eq!(b16, 0, "{what}");
                }
            }
        }
    }
}

#[test]
fn cp_async_and_ldmatrix_address_a_ring_buffer_chosen_at_run_time() {
    // A view's base is a register: every copy and every row address adds it.
    let shared = nvmma([64, 64], 16);
    let ctx = Context::new();
    let k =
        cp_async_tile_kernel(&ctx, Target::SM80, DType::F16, 64, 64, 8, &shared, 4, 16, 3).unwrap();
    let code = ptx(&k, Target::SM80, "cp.async into a ring");
    assert_eq!(count(&code, "cp.async.cg.shared.global"), 4, "{code}");
    assert!(
        code.contains("rem.s32") || code.contains("mul.hi"),
        "{code}"
    );
    let (_, da, _) = mma_layouts(128, 128, 4, 16);
    let k = ldmatrix_kernel(
        &ctx,
        Target::SM80,
        DType::F16,
        [128, 32],
        &nvmma([128, 32], 16),
        &da,
        4,
        2,
    )
    .unwrap();
    let code = ptx(&k, Target::SM80, "ldmatrix from a ring");
    assert_eq!(
        count(&code, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"),
        8,
        "{code}"
    );
}

#[test]
fn ldmatrix_falls_back_to_ld_shared_where_rows_are_not_contiguous() {
    let (_, da, _) = mma_layouts(64, 64, 4, 16);
    let shape = [64u64, 32u64];
    // M contiguous in shared memory, K across rows: `.trans` reads A then.
    let col_major: Encoding = SwizzledShared::new(1, 1, 1, &[0, 1]).into();
    let ctx = Context::new();
    let k = ldmatrix_kernel(&ctx, Target::SM80, DType::F16, shape, &col_major, &da, 4, 1).unwrap();
    let code = ptx(&k, Target::SM80, "ldmatrix of column-major A");
    assert!(
        code.contains("ldmatrix.sync.aligned.m8n8.x4.trans"),
        "{code}"
    );
    // A swizzle of single elements breaks 16-byte rows: plain shared loads.
    let scattered: Encoding = SwizzledShared::new(1, 1, 8, &[1, 0]).into();
    let k = ldmatrix_kernel(&ctx, Target::SM80, DType::F16, shape, &scattered, &da, 4, 1).unwrap();
    let code = ptx(&k, Target::SM80, "ldmatrix fallback");
    assert_eq!(count(&code, "ldmatrix.sync"), 0, "{code}");
    assert!(code.contains("ld.shared"), "{code}");
    // f32 tiles have no ldmatrix: plain loads too.
    let (_, da32, _) = mma_layouts(64, 64, 4, 32);
    let k = ldmatrix_kernel(
        &ctx,
        Target::SM80,
        DType::F32,
        [64, 16],
        &nvmma([64, 16], 32),
        &da32,
        4,
        1,
    )
    .unwrap();
    let code = ptx(&k, Target::SM80, "ldmatrix f32");
    assert_eq!(count(&code, "ldmatrix.sync"), 0, "{code}");
}

#[test]
fn dot_issues_one_mma_per_instruction_tile_and_k_step() {
    for target in TARGETS {
        for (dtype, name, kinstr) in [
            (
                DType::F16,
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                16,
            ),
            (
                DType::BF16,
                "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                16,
            ),
            (
                DType::F32,
                "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                8,
            ),
        ] {
            for (mnk, warps) in [
                ([16, 8, 16], 1),
                ([64, 64, 32], 4),
                ([128, 64, 64], 8),
                ([32, 32, 16], 2),
            ] {
                let ctx = Context::new();
                let what = format!("dot {dtype} {mnk:?} {warps} warps ({target})");
                let k = dot_kernel(&ctx, target, dtype, mnk, warps)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let code = ptx(&k, target, &what);
                let [m, n, kk] = mnk;
                let per_warp = (m / 16 * n / 8 * kk / kinstr) as usize / warps as usize;
                assert_eq!(count(&code, name), per_warp, "{what}:\n{code}");
                assert_eq!(count(&code, "mma.sync"), per_warp, "{what}");
            }
        }
    }
}

#[test]
fn dot_errors_name_the_operands_and_the_rule() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM80, "k", 4).unwrap();
    let (acc, da, db) = mma_layouts(64, 64, 4, 16);
    let a = kb.zeros((&da, [64, 32]), DType::F16).unwrap();
    let b = kb.zeros((&db, [32, 64]), DType::F16).unwrap();
    let c = kb.zeros((&acc, [64, 64]), DType::F32).unwrap();
    let bf = kb.zeros((&db, [32, 64]), DType::BF16).unwrap();
    let c16 = kb.zeros((&acc, [64, 64]), DType::F16).unwrap();
    let b_short = kb.zeros((&db, [16, 64]), DType::F16).unwrap();
    let e = kb.dot(a, bf, c).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::TypeMismatch { op: "dot", .. }),
        "{e}"
    );
    let e = kb.dot(a, b, c16).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidType { op: "dot", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("f32 accumulator"), "{e}");
    let e = kb.dot(a, b_short, c).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { op: "dot", .. }),
        "{e}"
    );
    // Operands in a blocked layout: the lanes are not the instruction's.
    let blocked: Blocked = Blocked::new(&[1, 8], &[8, 4], &[4, 1], &[1, 0]);
    let ab = kb.zeros((&blocked, [64, 32]), DType::F16).unwrap();
    let e = kb.dot(ab, b, c).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::BadLayout { op: "dot", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("operand a's lanes"), "{e}");
    // A and B swapped: B's layout as A.
    let e = kb.dot(b, a, c).unwrap_err();
    assert!(e.to_string().contains("dot"), "{e}");
    // Wrong kinds.
    let s = kb
        .alloc_shared(DType::F16, &[64, 32], nvmma([64, 32], 16))
        .unwrap();
    let e = kb.dot(s, b, c).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::WrongKind { op: "dot", .. }),
        "{e}"
    );
    let d = kb.dot(a, b, c).unwrap();
    assert_eq!(kb.shape(d).unwrap(), vec![64, 64]);
    kb.finish().unwrap();
}

#[test]
fn the_sm80_gemm_pipelines_cp_async_ldmatrix_and_mma_without_spills() {
    for target in TARGETS {
        for dtype in [DType::F16, DType::BF16] {
            for c in GEMM_SM80_CONFIGS {
                let ctx = Context::new();
                let what = format!("gemm_sm80 {c:?} {dtype} ({target})");
                let k = kernels::gemm_sm80_kernel(&ctx, target, c, dtype)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(
                    k.signature().shared_bytes as u64,
                    c.shared_bytes(),
                    "{what}"
                );
                let code = ptx(&k, target, &what);
                let threads = 32 * c.num_warps as usize;
                let (bm, bn, bk) = (c.block_m as usize, c.block_n as usize, c.block_k as usize);
                let stages = c.stages as usize;
                // One step per loop iteration; the prologue starts `stages - 1` tiles.
                let copies_per_step = (bm * bk + bk * bn) / 8 / threads;
                assert_eq!(
                    count(&code, "cp.async.cg.shared.global"),
                    copies_per_step * stages,
                    "{what}"
                );
                assert_eq!(count(&code, "cp.async.commit_group"), stages, "{what}");
                let mma = bm * bn * bk / (16 * 8 * 16) / c.num_warps as usize;
                assert_eq!(count(&code, "mma.sync.aligned.m16n8k16"), mma, "{what}");
                assert!(
                    code.contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16"),
                    "{what}"
                );
                assert!(
                    code.contains("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"),
                    "{what}"
                );
                assert_eq!(count(&code, "ld.shared"), 0, "{what}");
                assert_eq!(count(&code, "bar.sync"), 1, "{what}");
                if let Some((regs, st, ld)) = common::ptxas_usage(&code, &target.to_string()) {
                    eprintln!("{what}: {regs} registers, {st} bytes spill stores, {ld} loads");
                    assert_eq!((st, ld), (0, 0), "{what}: spills");
                }
            }
        }
    }
}

#[test]
fn the_sm80_gemm_with_b_transposed_reads_both_operands_without_trans() {
    for target in TARGETS {
        for c in GEMM_SM80_CONFIGS {
            let c = c.with_b_transposed(true);
            let ctx = Context::new();
            let what = format!("gemm_sm80 {c:?} ({target})");
            let k = kernels::gemm_sm80_kernel(&ctx, target, c, DType::BF16)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let code = ptx(&k, target, &what);
            let threads = 32 * c.num_warps as usize;
            let (bm, bn, bk) = (c.block_m as usize, c.block_n as usize, c.block_k as usize);
            let copies_per_step = (bm * bk + bk * bn) / 8 / threads;
            let stages = c.stages as usize;
            assert_eq!(
                count(&code, "cp.async.cg.shared.global"),
                copies_per_step * stages,
                "{what}"
            );
            assert!(
                code.contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16"),
                "{what}"
            );
            assert!(!code.contains(".trans"), "{what}");
            assert_eq!(count(&code, "ld.shared"), 0, "{what}");
        }
    }
}

#[test]
fn the_sm80_gemm_for_odd_shapes_narrows_its_copies() {
    let c = GEMM_SM80_CONFIGS[4];
    let ctx = Context::new();
    for (m, n, k, cg, ca) in [
        (1000, 1000, 1000, true, false),
        (77, 130, 66, false, true),
        (33, 17, 15, false, false),
    ] {
        let what = format!("gemm_sm80 {m}x{n}x{k}");
        let kern = kernels::gemm_sm80_kernel_for_shape(&ctx, Target::SM80, c, DType::F16, m, n, k)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let code = ptx(&kern, Target::SM80, &what);
        assert_eq!(code.contains("cp.async.cg"), cg, "{what}");
        assert_eq!(code.contains("cp.async.ca"), ca, "{what}");
        assert!(code.contains("mma.sync"), "{what}");
    }
    let e = kernels::gemm_sm80_kernel(
        &ctx,
        Target::SM80,
        GemmSm80Config::new(64, 64, 8, 3, 4),
        DType::F16,
    )
    .unwrap_err();
    assert!(e.to_string().contains("block_k"), "{e}");
}

/// Tutorial 03's layout (`[1, 1], [1, 32], [1, 4]`) over a tile 64 columns wide holds each
/// element in two warps: only the first of them copies it (each `cp.async` guarded by the
/// thread's "first holder" predicate, as Triton emits), so warps 2 and 3 issue no copies; a
/// layout without broadcast copies unguarded.
#[test]
fn cp_async_is_issued_once_per_element_when_warps_hold_copies() {
    for (warps, guarded) in [(4, true), (2, false)] {
        for target in TARGETS {
            let ctx = Context::new();
            let mut kb = KernelBuilder::new(&ctx, target, "broadcast_copy", warps).unwrap();
            let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
            let layout = Blocked::new(&[1, 1], &[1, 32], &[1, warps], &[1, 0]);
            let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
            let smem = kb.alloc_shared(DType::F32, &[4, 64], &plain).unwrap();
            let rows = kb
                .arange(
                    0,
                    4,
                    weft::layout::encoding::Slice::new(1, layout.clone().into()),
                )
                .unwrap();
            let cols = kb
                .arange(
                    0,
                    64,
                    weft::layout::encoding::Slice::new(0, layout.clone().into()),
                )
                .unwrap();
            let (rows, cols) = (
                kb.expand_dims(rows, 1).unwrap(),
                kb.expand_dims(cols, 0).unwrap(),
            );
            let p = kb.expr(|e| e.of(x) + e.of(rows) * 64 + e.of(cols)).unwrap();
            kb.async_copy_global_to_shared(smem, p, None).unwrap();
            kb.async_commit_group().unwrap();
            kb.async_wait_group(0).unwrap();
            kb.barrier().unwrap();
            let v = kb.load_shared(smem, layout.clone()).unwrap();
            let v = kb.expr(|e| e.of(v) + 1.0f32).unwrap();
            kb.expr(|e| e.of(p).store(v)).unwrap();
            let k = kb.finish().unwrap();
            let what = format!("{warps} warps on {target}");
            let code = ptx(&k, target, &what);
            let copies: Vec<&str> = code.lines().filter(|l| l.contains("cp.async.ca")).collect();
            // 4 × 64 elements over 2 distinct warps of 32 lanes: 4 copies per thread.
            assert_eq!(copies.len(), 4, "{what}:\n{code}");
            let all_guarded = copies.iter().all(|l| l.trim_start().starts_with('@'));
            let none_guarded = copies.iter().all(|l| !l.trim_start().starts_with('@'));
            assert!(
                if guarded { all_guarded } else { none_guarded },
                "{what}:\n{code}"
            );
        }
    }
}
