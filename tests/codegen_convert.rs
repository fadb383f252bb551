//! Shared memory, layout conversions and reductions in the builder: each conversion class and
//! reduction builds verified IR that ptxas accepts (sm_80, sm_90) and that builds for gfx942;
//! the instructions the plan promises are in the PTX; bad input is a typed error naming it.
#![cfg(feature = "llvm")]

mod common;

use common::assemble;
use common::kernels::{
    convert_kernel, flat, matrix_pairs, random_layout, random_matrix_pairs, triton_matrix_cases,
    MATRIX_PAIRS, MATRIX_PAIRS_SEED,
};
use common::rng::Rng;
use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::convert::{plan_conversion, plan_shared, ConversionKind, Instruction};
use weft::layout::encoding::{Blocked, SwizzledShared};
use weft::layout::LinearLayout;

const NV: [Target; 2] = [Target::SM80, Target::SM90];

/// PTX assembled by ptxas (NVIDIA) or a code object (AMD); returns the PTX or assembly.
fn emit(k: &Kernel, target: Target, what: &str) -> String {
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        let ptx = k.ptx().unwrap();
        assemble(&ptx, &target.to_string(), what);
        ptx
    } else {
        #[cfg(feature = "amdgpu")]
        {
            let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
            assert_eq!(&obj[..4], b"\x7fELF", "{what}");
            return k.amdgpu_asm(weft::codegen::OptLevel::O3).unwrap();
        }
        #[allow(unreachable_code)]
        String::new()
    }
}

fn targets() -> Vec<Target> {
    let mut t = NV.to_vec();
    if cfg!(feature = "amdgpu") {
        t.push(Target::GFX942);
    }
    t
}

fn ll(
    reg: Vec<Vec<u64>>,
    lane: Vec<Vec<u64>>,
    warp: Vec<Vec<u64>>,
    shape: [u64; 2],
) -> LinearLayout {
    LinearLayout::from_bases(
        [("register", reg), ("lane", lane), ("warp", warp)],
        [("dim0", shape[0]), ("dim1", shape[1])],
        false,
    )
    .unwrap()
}

/// 64×64, 4 warps: rows of 4 contiguous f32 per thread, a warp spanning 2 rows × 64 columns.
fn rows(target: Target) -> LinearLayout {
    let lanes = target.warp_size();
    let b = Blocked::new(&[1, 4], &[lanes / 16, 16], &[4, 1], &[1, 0]);
    weft::layout::encoding::Encoding::from(b)
        .to_linear_layout(&[64, 64])
        .unwrap()
}

/// The transpose of `rows`: 4 contiguous elements per thread down the columns.
fn cols(target: Target) -> LinearLayout {
    let lanes = target.warp_size();
    let b = Blocked::new(&[4, 1], &[16, lanes / 16], &[1, 4], &[0, 1]);
    weft::layout::encoding::Encoding::from(b)
        .to_linear_layout(&[64, 64])
        .unwrap()
}

fn build_convert(
    target: Target,
    a: &LinearLayout,
    b: &LinearLayout,
    dtype: DType,
    what: &str,
) -> String {
    let ctx = Context::new();
    let warps = 1u32 << a.in_dim_size_log2("warp").unwrap_or(0);
    let k = convert_kernel(&ctx, target, "cvt", &flat(a), &flat(b), dtype, warps)
        .unwrap_or_else(|e| panic!("{what} on {target}: {e}"));
    emit(&k, target, &format!("{what} ({target})"))
}

#[test]
fn shared_memory_conversion_stores_vectors_and_synchronises() {
    for target in targets() {
        let (a, b) = (rows(target), cols(target));
        let plan = plan_conversion(&a, &b, 32, target).unwrap();
        assert_eq!(plan.kind, ConversionKind::SharedMemory, "{plan}");
        let code = build_convert(target, &a, &b, DType::F32, "rows → cols");
        if target.vendor() == weft::codegen::Vendor::Nvidia {
            assert!(code.contains("bar.sync"), "{code}");
            assert!(code.contains("st.shared"), "{code}");
            assert!(code.contains("ld.shared"), "{code}");
            assert!(code.contains(".extern .shared"), "{code}");
        } else {
            assert!(code.contains("s_barrier"), "{code}");
            assert!(
                code.contains("ds_write") || code.contains("ds_store"),
                "{code}"
            );
        }
        for dtype in [DType::F16, DType::I8, DType::F64, DType::I1] {
            build_convert(target, &a, &b, dtype, &format!("rows → cols {dtype}"));
        }
    }
}

#[test]
fn the_signature_carries_the_scratch_bytes() {
    let ctx = Context::new();
    let (a, b) = (flat(&rows(Target::SM90)), flat(&cols(Target::SM90)));
    let k = convert_kernel(&ctx, Target::SM90, "cvt", &a, &b, DType::F32, 4).unwrap();
    let plan = plan_conversion(&a, &b, 32, Target::SM90).unwrap();
    assert!(k.signature().shared_bytes as u64 >= plan.scratch_bytes());
    assert!(k.signature().shared_bytes > 0);
}

/// One warp, 4×8: register bit 0 and lane bit 0 trade places (the planner's doc example).
fn shuffle_pair() -> (LinearLayout, LinearLayout) {
    let src = ll(
        vec![vec![0, 1]],
        vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![0, 0]],
        vec![],
        [4, 8],
    );
    let dst = ll(
        vec![vec![0, 2]],
        vec![vec![0, 1], vec![0, 4], vec![1, 0], vec![2, 0], vec![0, 0]],
        vec![],
        [4, 8],
    );
    (src, dst)
}

#[test]
fn warp_shuffle_conversion_uses_shfl_and_no_shared_memory() {
    let (a, b) = shuffle_pair();
    for target in NV {
        let plan = plan_conversion(&flat(&a), &flat(&b), 32, target).unwrap();
        assert_eq!(plan.kind, ConversionKind::WarpShuffle, "{plan}");
        for dtype in [DType::F32, DType::F16, DType::I8, DType::F64] {
            let ctx = Context::new();
            let k = convert_kernel(&ctx, target, "cvt", &flat(&a), &flat(&b), dtype, 1).unwrap();
            assert_eq!(k.signature().shared_bytes, 0);
            let ptx = emit(&k, target, &format!("shuffle {dtype} ({target})"));
            assert!(ptx.contains("shfl.sync.idx"), "{ptx}");
            assert!(!ptx.contains("bar.sync"), "{ptx}");
        }
    }
}

#[test]
fn register_permutation_and_noop_emit_no_data_movement() {
    let a = ll(
        vec![vec![0, 1], vec![0, 2]],
        vec![vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0]],
        vec![],
        [16, 8],
    );
    let b = ll(
        vec![vec![0, 2], vec![0, 1]],
        vec![vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0]],
        vec![],
        [16, 8],
    );
    for target in NV {
        let plan = plan_conversion(&flat(&a), &flat(&b), 32, target).unwrap();
        assert_eq!(plan.kind, ConversionKind::RegisterPermute, "{plan}");
        for (x, y) in [(&a, &b), (&a, &a)] {
            let ptx = build_convert(target, x, y, DType::F32, "register permutation");
            assert!(!ptx.contains("shfl"), "{ptx}");
            assert!(!ptx.contains("bar.sync"), "{ptx}");
        }
    }
}

#[test]
fn random_encoding_pairs_build_for_every_target() {
    let mut rng = Rng(7);
    for target in targets() {
        for i in 0..12 {
            let lanes = target.warp_size();
            let (na, a) = random_layout(&mut rng, 32, 64, lanes, 4);
            let (nb, b) = random_layout(&mut rng, 32, 64, lanes, 4);
            let plan = plan_conversion(&flat(&a), &flat(&b), 32, target).unwrap();
            build_convert(
                target,
                &a,
                &b,
                DType::F32,
                &format!("pair {i} {:?}: {na} → {nb}", plan.kind),
            );
        }
    }
}

#[test]
fn shared_buffers_round_trip_in_any_shared_layout() {
    for target in targets() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, target, "smem", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F16, 16).unwrap();
        let y = kb.arg_ptr("y", DType::F16, 16).unwrap();
        let a = flat(&rows(target));
        let offs = kb.arange(0, 4096, &a).unwrap();
        let px = kb_add(&mut kb, x, offs);
        let v = kb.load(px, None, None).unwrap();
        let sw = SwizzledShared::new(8, 1, 8, &[0]);
        let buf = kb.alloc_shared(DType::F16, &[4096], &sw).unwrap();
        kb.store_shared(buf, v).unwrap();
        kb.barrier().unwrap();
        let b = flat(&cols(target));
        let w = kb.load_shared(buf, &b).unwrap();
        let offs = kb.arange(0, 4096, &b).unwrap();
        let py = kb_add(&mut kb, y, offs);
        kb.store(py, w, None).unwrap();
        let k = kb.finish().unwrap();
        assert_eq!(k.signature().shared_bytes, 8192);
        let code = emit(&k, target, &format!("shared round trip ({target})"));
        if target.vendor() == weft::codegen::Vendor::Nvidia {
            // 4 f16 in a row per thread: one 8-byte vector.
            assert!(
                code.contains("st.shared.v2.b32") || code.contains("st.shared.v4.b16"),
                "{code}"
            );
        }
    }
}

fn kb_add(
    kb: &mut KernelBuilder,
    p: weft::codegen::Value,
    o: weft::codegen::Value,
) -> weft::codegen::Value {
    kb.add(p, o).unwrap()
}

#[test]
fn shared_memory_errors_name_their_operands() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let a = flat(&rows(Target::SM90));
    let offs = kb.arange(0, 4096, &a).unwrap();
    let px = kb.add(x, offs).unwrap();
    let v = kb.load(px, None, None).unwrap();
    let sw = SwizzledShared::new(1, 1, 1, &[0]);
    // Too large for the target.
    let e = kb.alloc_shared(DType::F32, &[1 << 16], &sw).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::SharedMemoryExceeded { .. }),
        "{e}"
    );
    // A distributed layout is not a shared one.
    let blocked = Blocked::new(&[4], &[32], &[4], &[0]);
    let e = kb
        .alloc_shared(
            DType::F32,
            &[4096],
            weft::layout::encoding::Encoding::from(blocked),
        )
        .unwrap_err();
    assert!(e.to_string().contains("shared"), "{e}");
    let e = kb.alloc_shared(DType::F32, &[4096], &a).unwrap_err();
    assert!(e.to_string().contains("offset"), "{e}");
    // Shape and dtype mismatches name both operands.
    let small = kb.alloc_shared(DType::F32, &[1024], &sw).unwrap();
    let e = kb.store_shared(small, v).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("shared<1024xf32"), "{e}");
    let half = kb.alloc_shared(DType::F16, &[4096], &sw).unwrap();
    let e = kb.store_shared(half, v).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::TypeMismatch { .. }),
        "{e}"
    );
    // Wrong kinds, both ways.
    let e = kb.store_shared(v, v).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    let e = kb.add(small, 1).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    let e = kb.convert_layout(small, &a).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    // A conversion to another shape.
    let other = flat(&ll(
        vec![],
        vec![vec![0, 1], vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0]],
        vec![vec![4, 0], vec![8, 0]],
        [16, 8],
    ));
    let e = kb.convert_layout(v, &other).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { .. }),
        "{e}"
    );
    kb.finish().unwrap();
}

// ----- reductions ---------------------------------------------------------------------------

/// 64×64 over 4 warps: a warp spans 2 rows × 64 columns (rows reduce in-warp, columns across
/// warps).
fn rows_blocked(target: Target) -> Blocked {
    let lanes = target.warp_size();
    Blocked::new(&[1, 4], &[lanes / 16, 16], &[4, 1], &[1, 0])
}

#[test]
fn reductions_build_for_every_axis_op_and_target() {
    use weft::codegen::ReduceOp;
    for target in targets() {
        for axis in [0, 1] {
            for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min] {
                let ctx = Context::new();
                let k = common::kernels::reduce_kernel(
                    &ctx,
                    target,
                    &rows_blocked(target),
                    [64, 64],
                    axis,
                    op,
                    4,
                )
                .unwrap_or_else(|e| panic!("{op:?} axis {axis} on {target}: {e}"));
                let code = emit(&k, target, &format!("reduce {op:?} axis {axis} ({target})"));
                if target.vendor() == weft::codegen::Vendor::Nvidia {
                    // Lanes step along both axes; warps only along dim 0.
                    assert!(code.contains("shfl.sync.bfly"), "{code}");
                    assert_eq!(code.contains("bar.sync"), axis == 0, "{code}");
                }
                assert_eq!(k.signature().shared_bytes > 0, axis == 0);
            }
        }
    }
}

#[test]
fn a_reduction_lands_in_the_slice_layout_and_a_1d_one_in_a_scalar() {
    use weft::codegen::ReduceOp;
    use weft::layout::encoding::{Encoding, Slice};
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let b = rows_blocked(Target::SM90);
    let v = kb.zeros((&b, [64, 64]), DType::F32).unwrap();
    for axis in [0usize, 1] {
        let r = kb.reduce(v, axis, ReduceOp::Sum).unwrap();
        let want = Encoding::from(Slice::new(axis as u32, b.clone().into()))
            .to_linear_layout(&[64])
            .unwrap();
        let got = kb.layout(r).unwrap().unwrap();
        assert_eq!(got, want, "axis {axis}");
        // And reduce again to a scalar, with a closure.
        let s = kb.reduce_with(r, 0, |kb, a, b| kb.max(a, b)).unwrap();
        assert!(kb.shape(s).unwrap().is_empty());
        kb.store(y, s, None).unwrap();
    }
    let e = kb.reduce(v, 2, ReduceOp::Sum).unwrap_err();
    assert!(e.to_string().contains("axis 2"), "{e}");
    let e = kb.reduce(y, 0, ReduceOp::Sum).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    let k = kb.finish().unwrap();
    emit(&k, Target::SM90, "reduce to scalar");
}

// ----- ldmatrix / stmatrix ------------------------------------------------------------------

/// The number of lines of `ptx` that are `instr` (an instruction name up to its first operand).
fn count_instr(ptx: &str, instr: &str) -> usize {
    ptx.lines()
        .filter(|l| l.split_whitespace().next() == Some(instr))
        .count()
}

/// The PTX name of the matrix instruction `i` moving `matrices` 8×8 matrices (`None` for plain
/// accesses).
fn matrix_name(i: Instruction, matrices: u64) -> Option<String> {
    let (op, trans) = match i {
        Instruction::StMatrix => ("stmatrix", ""),
        Instruction::StMatrixTrans => ("stmatrix", ".trans"),
        Instruction::LdMatrix => ("ldmatrix", ""),
        Instruction::LdMatrixTrans => ("ldmatrix", ".trans"),
        _ => return None,
    };
    Some(format!(
        "{op}.sync.aligned.m8n8.x{matrices}{trans}.shared.b16"
    ))
}

/// The PTX of `a → b` for `dtype` on `target` holds exactly the matrix instructions the plan
/// picks, as many as it counts (`stores`/`loads` per thread: the repetitions times the
/// instructions of one), and passes ptxas.
fn check_matrix_counts(
    target: Target,
    a: &LinearLayout,
    b: &LinearLayout,
    dtype: DType,
    what: &str,
) -> (Instruction, Instruction) {
    let bits = dtype.bits().max(8);
    let sp = plan_shared(&flat(a), &flat(b), bits, target).unwrap();
    assert_eq!(
        plan_conversion(&flat(a), &flat(b), bits, target)
            .unwrap()
            .kind,
        ConversionKind::SharedMemory,
        "{what}"
    );
    let ptx = build_convert(target, a, b, dtype, &format!("{what} {dtype}"));
    let matrices = |vector: u64| (vector * bits as u64 / 32).clamp(1, 4);
    for (instr, vector, count, op) in [
        (sp.store_instruction, sp.store_vector, sp.stores, "stmatrix"),
        (sp.load_instruction, sp.load_vector, sp.loads, "ldmatrix"),
    ] {
        let all = ptx.matches(&format!("{op}.sync")).count();
        match matrix_name(instr, matrices(vector)) {
            Some(name) => {
                assert_eq!(
                    count_instr(&ptx, &name),
                    count as usize,
                    "{what} {dtype} ({target}): {name} × {count} planned ({} repetitions)\n{ptx}",
                    sp.repetitions()
                );
                assert_eq!(
                    all, count as usize,
                    "{what} {dtype}: other {op} forms\n{ptx}"
                );
            }
            None => assert_eq!(all, 0, "{what} {dtype} ({target}): no {op} planned\n{ptx}"),
        }
    }
    (sp.store_instruction, sp.load_instruction)
}

#[test]
fn conversions_run_the_planned_stmatrix_and_ldmatrix_as_often_as_planned() {
    for (what, a, b, store, load) in matrix_pairs() {
        for target in [Target::SM90, Target::SM90A] {
            for dtype in [DType::F16, DType::BF16] {
                let got = check_matrix_counts(target, &a, &b, dtype, &what);
                assert_eq!(
                    got,
                    (store, load),
                    "{what} {dtype} ({target}): the plan changed"
                );
            }
            // 8- and 32-bit elements take whatever the planner picks for them.
            for dtype in [DType::I8, DType::I1, DType::F32] {
                check_matrix_counts(target, &a, &b, dtype, &what);
            }
        }
        // Before sm_90 there is no stmatrix: plain stores, ldmatrix where planned.
        for dtype in [DType::F16, DType::I8, DType::F32] {
            let (st, _) = check_matrix_counts(Target::SM80, &a, &b, dtype, &what);
            assert_eq!(st, Instruction::LdSt, "{what} {dtype} (sm_80)");
        }
    }
}

#[test]
fn random_conversions_through_matrix_instructions_emit_the_planned_counts() {
    // The pairs gpu_convert runs: every form, `.trans` on both sides and several repetitions.
    let mut rng = Rng(MATRIX_PAIRS_SEED);
    let mut seen = std::collections::BTreeSet::new();
    for (i, (what, a, b)) in random_matrix_pairs(&mut rng, MATRIX_PAIRS, Target::SM90)
        .into_iter()
        .enumerate()
    {
        let what = format!("pair {i} {what}");
        let reps = plan_shared(&flat(&a), &flat(&b), 16, Target::SM90)
            .unwrap()
            .repetitions();
        for target in [Target::SM90, Target::SM90A] {
            let (st, ld) = check_matrix_counts(target, &a, &b, DType::F16, &what);
            seen.insert(format!("{st:?}"));
            seen.insert(format!("{ld:?}"));
            if reps > 1 && (st, ld) != (Instruction::LdSt, Instruction::LdSt) {
                seen.insert("repetitions".into());
            }
        }
        check_matrix_counts(Target::SM90, &a, &b, DType::BF16, &what);
        check_matrix_counts(Target::SM90, &a, &b, DType::I8, &what);
        check_matrix_counts(Target::SM90, &a, &b, DType::F32, &what);
        check_matrix_counts(Target::SM80, &a, &b, DType::F16, &what);
    }
    for want in [
        "StMatrix",
        "StMatrixTrans",
        "LdMatrix",
        "LdMatrixTrans",
        "repetitions",
    ] {
        assert!(seen.contains(want), "no {want} among the pairs: {seen:?}");
    }
}

/// The `ldmatrix`/`stmatrix` forms of `ptx`, each with its count.
fn matrix_forms(ptx: &str) -> std::collections::BTreeMap<String, u64> {
    let mut m = std::collections::BTreeMap::new();
    for l in ptx.lines() {
        if let Some(op) = l.split_whitespace().next() {
            if op.starts_with("ldmatrix") || op.starts_with("stmatrix") {
                *m.entry(op.to_string()).or_insert(0) += 1;
            }
        }
    }
    m
}

/// The fixture conversions recorded from Triton 3.9 on sm_90 (`tests/fixtures/conversions.json`)
/// whose PTX holds `ldmatrix`/`stmatrix`: wherever weft also goes through shared memory, its PTX
/// holds the same forms (`.x1/.x2/.x4`, `.trans`) as many times as Triton's, for f16, f32 and i8.
#[test]
fn matrix_instruction_counts_equal_tritons_where_the_plans_agree() {
    let (mut same, mut shuffled) = (0, 0);
    for c in triton_matrix_cases() {
        let kind = plan_conversion(&flat(&c.src), &flat(&c.dst), c.dtype.bits(), Target::SM90)
            .unwrap()
            .kind;
        if kind != ConversionKind::SharedMemory {
            // weft shuffles where Triton 3.9 goes through shared memory (the planner's choice,
            // see convert_triton).
            shuffled += 1;
            continue;
        }
        let ptx = build_convert(Target::SM90, &c.src, &c.dst, c.dtype, &c.what);
        assert_eq!(matrix_forms(&ptx), c.counts, "{}", c.what);
        same += 1;
    }
    eprintln!("{same} conversions with Triton's matrix instructions, {shuffled} shuffled instead");
    assert!(same >= 45, "{same}");
}
