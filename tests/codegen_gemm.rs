//! The Hopper pieces built without a GPU: the GEMM kernel's PTX for every variant (wgmma, TMA
//! loads and stores, mbarrier waits, no spills once ptxas assembles it for sm_90a), and the typed
//! errors for what wgmma, TMA and the mbarriers cannot do: a wrong target, an accumulator or an
//! operand in a layout the instruction does not read, a TMA destination laid out unlike the box,
//! a barrier array used as one barrier, a ring index out of range, a launch with a tensor map
//! encoded for another box.
#![cfg(feature = "llvm")]

mod common;

use common::assemble;
use weft::codegen::kernels::{gemm_kernel, GemmConfig};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, NvidiaMma, NvmmaShared, SwizzledShared};

fn count(code: &str, needle: &str) -> usize {
    code.lines().filter(|l| l.contains(needle)).count()
}

#[test]
fn every_gemm_variant_assembles_with_wgmma_and_tma() {
    let ctx = Context::new();
    let mut configs = Vec::new();
    for dtype in [DType::F16, DType::BF16] {
        for bt in [false, true] {
            for (bn, warps, stages) in [(256, 8, 3), (128, 4, 4), (64, 8, 2)] {
                let mut c = GemmConfig::new(dtype);
                c.b_transposed = bt;
                c.block_n = bn;
                c.num_warps = warps;
                c.stages = stages;
                configs.push(c);
            }
        }
    }
    // fp8 (K-major, C in bf16) and tf32 (K-major, C in f32).
    configs.push(GemmConfig::new(DType::F8E4M3));
    configs.push(GemmConfig::new(DType::F8E5M2));
    configs.push(GemmConfig::new(DType::F32));
    for dtype in [DType::F16, DType::F8E4M3] {
        let mut p = GemmConfig::new(dtype);
        p.persistent = true;
        configs.push(p);
    }
    for c in configs {
        let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap();
        let ptx = k.ptx().unwrap();
        let what = format!("gemm {c:?}");
        assemble(&ptx, "sm_90a", &what);
        let (ty, kstep) = match c.dtype {
            DType::F16 => ("f16", 16),
            DType::BF16 => ("bf16", 16),
            DType::F8E4M3 => ("e4m3", 32),
            DType::F8E5M2 => ("e5m2", 32),
            _ => ("tf32", 8),
        };
        let bn = c.block_n;
        let reps = (c.block_m / (16 * c.num_warps)) as usize;
        // One wgmma per (64-row block, k-step) per k-tile: a k-tile is one 128-byte row of K.
        let steps = (c.block_k / kstep) as usize;
        assert_eq!(
            count(
                &ptx,
                &format!("wgmma.mma_async.sync.aligned.m64n{bn}k{kstep}.f32.{ty}.{ty}")
            ),
            steps * reps,
            "{what}"
        );
        // 16-bit B is N-major (transposed for wgmma) unless given as [N, K].
        if ty == "f16" || ty == "bf16" {
            let tb = if c.b_transposed { "0;" } else { "1;" };
            assert!(
                ptx.lines()
                    .filter(|l| l.contains("wgmma.mma_async"))
                    .all(|l| l.trim_end().ends_with(tb)),
                "{what}"
            );
        }
        // Prologue loads (stages - 1), one refill in the loop: A one box, B one box per row.
        let row = 128 / (c.dtype.bits() / 8);
        let b_boxes = if c.b_transposed {
            1
        } else {
            (bn / row) as usize
        };
        assert_eq!(
            count(&ptx, "cp.async.bulk.tensor.2d.shared::cluster.global"),
            c.stages as usize * (1 + b_boxes),
            "{what}"
        );
        let out_row = 128 / (c.out_dtype.bits() / 8);
        assert_eq!(
            count(&ptx, "cp.async.bulk.tensor.2d.global.shared::cta"),
            (bn / out_row) as usize,
            "{what}"
        );
        assert_eq!(count(&ptx, "mbarrier.try_wait.parity"), 1, "{what}");
        assert!(ptx.contains("wgmma.wait_group.sync.aligned 1;"), "{what}");
        // A persistent kernel restarts each tile with scale-d = 0 instead of zeroing registers.
        assert_eq!(
            ptx.contains("setp.ne.b32 weft_scale_d"),
            c.persistent,
            "{what}"
        );
        assert!(ptx.contains(".reqntid"), "{what}");
        let sig = k.signature();
        assert_eq!(
            u64::from(sig.shared_bytes),
            c.shared_bytes(),
            "{what}: {sig}"
        );
        let in_name =
            weft::runtime::ElemType::from_name(&c.dtype.to_string()).map(|e| e.to_string());
        let a_spec = format!(
            "tensormap<{} {}x{} swizzle=128>",
            in_name.unwrap_or_default(),
            c.block_m,
            c.block_k
        );
        assert!(sig.to_string().contains(&a_spec), "{sig} lacks {a_spec}");
    }
}

#[test]
fn hopper_ops_name_what_the_target_lacks() {
    let ctx = Context::new();
    // wgmma needs the arch-specific sm_90a; sm_90 has TMA and mbarriers.
    let e = gemm_kernel(&ctx, Target::SM90, GemmConfig::new(DType::F16)).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::Unsupported { op: "wgmma", .. }),
        "{e}"
    );
    let e = gemm_kernel(&ctx, Target::SM80, GemmConfig::new(DType::F16)).unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::Unsupported {
                op: "arg_tensor_map",
                ..
            }
        ),
        "{e}"
    );
    let mut kb = KernelBuilder::new(&ctx, Target::SM80, "k", 4).unwrap();
    let e = kb.fence_async_shared().unwrap_err();
    assert!(e.to_string().contains("sm_80"), "{e}");
}

/// A kernel with A `[128, 64]` and B `[64, 128]` buffers in `la`/`lb` and an accumulator in
/// `acc`, returning wgmma's error.
fn wgmma_error(
    la: weft::layout::encoding::Encoding,
    lb: weft::layout::encoding::Encoding,
    acc: weft::layout::encoding::Encoding,
) -> CodegenError {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 8).unwrap();
    let a = kb.alloc_shared(DType::F16, &[128, 64], &la).unwrap();
    let b = kb.alloc_shared(DType::F16, &[64, 128], &lb).unwrap();
    let c = kb.zeros((&acc, [128u64, 128]), DType::F32).unwrap();
    kb.wgmma(a, b, c).unwrap_err()
}

#[test]
fn wgmma_checks_layouts_through_the_algebra() {
    let nv = || NvmmaShared::new(128, 16, 2, false).into();
    let hopper = || NvidiaMma::hopper(&[8, 1], 128, 16).into();
    // An accumulator in a blocked layout.
    let blocked = Blocked::new(&[1, 4], &[4, 8], &[8, 1], &[1, 0]).into();
    let e = wgmma_error(nv(), nv(), blocked);
    assert!(
        matches!(e.cause(), CodegenError::BadLayout { op: "wgmma", .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("NvidiaMma::hopper(&[8, 1], 128, 16)"),
        "{e}"
    );
    // An operand in a swizzled shared layout that is not one wgmma reads.
    let sw = SwizzledShared::new(8, 2, 4, &[1, 0]).into();
    let e = wgmma_error(sw, nv(), hopper());
    assert!(e.to_string().contains("operand A"), "{e}");
    // Layouts are compared by meaning: vec 8, per phase 1, max phase 8 over f16 rows of 64 is
    // the 128-byte NVMMA swizzle, so wgmma takes it.
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 8).unwrap();
    let a = kb
        .alloc_shared(
            DType::F16,
            &[128, 64],
            SwizzledShared::new(8, 1, 8, &[1, 0]),
        )
        .unwrap();
    let b = kb
        .alloc_shared(DType::F16, &[64, 128], NvmmaShared::new(128, 16, 2, false))
        .unwrap();
    let c = kb
        .zeros(
            (&NvidiaMma::hopper(&[8, 1], 128, 16), [128u64, 128]),
            DType::F32,
        )
        .unwrap();
    kb.wgmma(a, b, c).unwrap();
    // Warps split along N: each warpgroup would own half the columns, not 64-row blocks.
    let e = wgmma_error(nv(), nv(), NvidiaMma::hopper(&[4, 2], 64, 16).into());
    assert!(matches!(e.cause(), CodegenError::BadLayout { .. }), "{e}");
    // Every swizzle and both majors of A and B are accepted.
    let ctx = Context::new();
    for sw in [32, 64, 128] {
        for (ta, tb) in [(false, false), (true, true), (false, true), (true, false)] {
            let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
            let a = kb
                .alloc_shared(DType::BF16, &[64, 64], NvmmaShared::new(sw, 16, 2, ta))
                .unwrap();
            let b = kb
                .alloc_shared(DType::BF16, &[64, 128], NvmmaShared::new(sw, 16, 2, tb))
                .unwrap();
            let c = kb
                .zeros(
                    (&NvidiaMma::hopper(&[4, 1], 128, 16), [64u64, 128]),
                    DType::F32,
                )
                .unwrap();
            let d = kb.wgmma(a, b, c).unwrap();
            kb.wgmma_wait(0, &[d]).unwrap();
            let k = kb.finish().unwrap();
            assemble(
                &k.ptx().unwrap(),
                "sm_90a",
                &format!("wgmma swizzle {sw} transposed A {ta} B {tb}"),
            );
        }
    }
}

#[test]
fn tma_and_mbarrier_misuse_is_a_typed_error() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
    let map = kb.arg_tensor_map("m", DType::F16, &[64, 64], 128).unwrap();
    let r = kb.arg_i32("r", 1).unwrap();
    // A box wider than the swizzle is rejected at the parameter.
    let e = kb
        .arg_tensor_map("w", DType::F16, &[64, 128], 128)
        .unwrap_err();
    assert!(e.to_string().contains("swizzle span"), "{e}");
    let bars = kb.alloc_mbarriers(2, 1).unwrap();
    // A buffer in a plain row-major layout is not what a 128-byte-swizzled box writes.
    let plain = kb
        .alloc_shared(DType::F16, &[64, 64], SwizzledShared::new(1, 1, 1, &[1, 0]))
        .unwrap();
    let bar = kb.mbarrier_at(bars, 0).unwrap();
    let e = kb.tma_load(map, &[r, r], plain, bar, None).unwrap_err();
    assert!(
        e.to_string()
            .contains("NvmmaShared::new(128, 16, 2, false)"),
        "{e}"
    );
    // The whole array is not one barrier; an index past it is caught when constant.
    let good = kb
        .alloc_shared(DType::F16, &[64, 64], NvmmaShared::new(128, 16, 2, false))
        .unwrap();
    let e = kb.tma_load(map, &[r, r], good, bars, None).unwrap_err();
    assert!(e.to_string().contains("mbarrier_at"), "{e}");
    let e = kb.mbarrier_at(bars, 2).unwrap_err();
    assert!(e.to_string().contains("index 2"), "{e}");
    // Wrong coordinate count, wrong element type.
    let e = kb.tma_load(map, &[r], good, bar, None).unwrap_err();
    assert!(e.to_string().contains("1 coordinates"), "{e}");
    let f32buf = kb
        .alloc_shared(DType::F32, &[64, 64], NvmmaShared::new(128, 32, 2, false))
        .unwrap();
    let e = kb.tma_load(map, &[r, r], f32buf, bar, None).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::TypeMismatch { .. }),
        "{e}"
    );
    // A ring index out of range.
    let ring = kb
        .alloc_shared_buffers(
            DType::F16,
            3,
            &[64, 64],
            NvmmaShared::new(128, 16, 2, false),
        )
        .unwrap();
    let e = kb.index_shared(ring, 3).unwrap_err();
    assert!(e.to_string().contains("index 3"), "{e}");
    kb.index_shared(ring, 2).unwrap();
}

#[test]
fn a_tensor_map_for_another_box_is_refused_at_launch() {
    use weft::runtime::{check_args, KernelArg, TensorMapArg, TensorMapSpec};
    let ctx = Context::new();
    let k = gemm_kernel(&ctx, Target::SM90A, GemmConfig::new(DType::F16)).unwrap();
    let sig = k.signature();
    let map = |elem, boxes: &[u32]| {
        KernelArg::TensorMap(TensorMapArg {
            spec: TensorMapSpec::new(elem, boxes, 128).unwrap(),
            bytes: [0; 128],
        })
    };
    use weft::runtime::ElemType::{BF16, F16};
    let good = [
        map(F16, &[128, 64]),
        map(F16, &[64, 64]),
        map(F16, &[128, 64]),
        KernelArg::I32(256),
        KernelArg::I32(256),
        KernelArg::I32(256),
    ];
    check_args(sig, &good).unwrap();
    let mut wrong_box = good;
    wrong_box[1] = map(F16, &[64, 32]);
    let e = check_args(sig, &wrong_box).unwrap_err();
    assert!(e.to_string().contains("64x64"), "{e}");
    let mut wrong_type = good;
    wrong_type[0] = map(BF16, &[128, 64]);
    assert!(check_args(sig, &wrong_type).is_err());
}

#[test]
fn warp_specialized_gemm_has_a_producer_and_no_cta_barrier_in_its_loops() {
    let ctx = Context::new();
    let mut configs = Vec::new();
    for dtype in [DType::F16, DType::BF16, DType::F8E4M3] {
        let mut c = GemmConfig::new(dtype);
        c.warp_specialized = true;
        configs.push(c);
    }
    let mut small = GemmConfig::new(DType::F16);
    small.warp_specialized = true;
    small.b_transposed = true;
    small.block_n = 128;
    small.num_warps = 4;
    small.stages = 4;
    configs.push(small);
    for c in configs {
        let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap();
        let ptx = k.ptx().unwrap();
        if let Ok(dir) = std::env::var("WEFT_DUMP_PTX") {
            let f = format!("{}_{}_{}.ptx", k.signature().name, c.dtype, c.num_warps);
            std::fs::write(std::path::Path::new(&dir).join(f), &ptx).unwrap();
        }
        let what = format!("gemm {c:?}");
        assemble(&ptx, "sm_90a", &what);
        let sig = k.signature();
        assert_eq!(
            sig.threads_per_block,
            Some((c.num_warps + 4) * 32),
            "{what}"
        );
        assert_eq!(
            u64::from(sig.shared_bytes),
            c.shared_bytes(),
            "{what}: {sig}"
        );
        // With two consumer warpgroups the producer gives registers up and the consumers take
        // them; with one, the launch's 255 are enough for everybody.
        let two = c.num_warps == 8;
        assert_eq!(
            ptx.contains("setmaxnreg.dec.sync.aligned.u32 40;"),
            two,
            "{what}"
        );
        assert_eq!(
            ptx.contains("setmaxnreg.inc.sync.aligned.u32 232;"),
            two,
            "{what}"
        );
        // Loads only in the producer's loop: A one box, B one box per 128-byte row per k-tile
        // (LLVM may unroll that loop, so a few copies).
        let row = 128 / (c.dtype.bits() / 8);
        let b_boxes = if c.b_transposed {
            1
        } else {
            (c.block_n / row) as usize
        };
        let loads = count(&ptx, "cp.async.bulk.tensor.2d.shared::cluster.global");
        assert!(
            loads.is_multiple_of(1 + b_boxes) && (1..=4).contains(&(loads / (1 + b_boxes))),
            "{what}: {loads} loads"
        );
        // Stages go back through "empty" mbarriers; the consumers' only barrier is their own
        // (named, around the epilogue's staging buffer); the CTA barrier only after the
        // mbarriers' set-up.
        assert!(ptx.contains("mbarrier.arrive"), "{what}");
        let consumers = c.num_warps * 32;
        assert!(ptx.contains(&format!("bar.sync 1, {consumers};")), "{what}");
        assert_eq!(count(&ptx, "bar.sync \t0;"), 2, "{what}");
        assert!(ptx.contains("setp.ne.b32 weft_scale_d"), "{what}");
    }
}

/// The block of `ir` labelled `label` (up to the next label).
fn ir_block<'a>(ir: &'a str, label: &str) -> &'a str {
    let start = ir
        .find(&format!("\n{label}:"))
        .unwrap_or_else(|| panic!("no block {label} in\n{ir}"));
    let rest = &ir[start + 1..];
    let end = rest[1..].find("\n\n").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

#[test]
fn wgmma_makes_the_descriptors_of_buffers_from_before_a_loop_once() {
    // A loop over the stages of B's ring: A (made before the loop) has the same descriptors in
    // every iteration, B's depend on the stage. With both from the ring, the loop makes both.
    let nv = || NvmmaShared::new(128, 16, 2, false);
    let hopper = NvidiaMma::hopper(&[4, 1], 128, 16);
    let build = |a_in_ring: bool| {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
        let a = kb.alloc_shared(DType::F16, &[64, 64], nv()).unwrap();
        let a_ring = kb
            .alloc_shared_buffers(DType::F16, 2, &[64, 64], nv())
            .unwrap();
        let b_ring = kb
            .alloc_shared_buffers(DType::F16, 2, &[64, 128], nv())
            .unwrap();
        let c = kb.zeros((&hopper, [64u64, 128]), DType::F32).unwrap();
        let out = kb
            .for_range(0, 8, 1, &[c], |kb, j, carried| {
                let st = kb.and(j, 1)?;
                let b = kb.index_shared(b_ring, st)?;
                let a = if a_in_ring {
                    kb.index_shared(a_ring, st)?
                } else {
                    a
                };
                let d = kb.wgmma(a, b, carried[0])?;
                kb.wgmma_wait(0, &[d])
            })
            .unwrap();
        let _ = out;
        let k = kb.finish().unwrap();
        let ir = k.llvm_ir();
        assemble(&k.into_ptx().unwrap(), "sm_90a", "wgmma in a loop");
        ir
    };
    // K = 64: four k-steps, each with its own A and B descriptor (a 64-bit add to the base).
    let adds = |ir: &str| count(ir_block(ir, "loop.body"), "add i64");
    let hoisted = build(false);
    let both = build(true);
    assert_eq!(adds(&hoisted), 4, "{hoisted}");
    assert_eq!(adds(&both), 8, "{both}");
    // A's are made in the loop's preheader instead.
    assert_eq!(
        count(ir_block(&hoisted, "loop.pre"), "add i64"),
        4,
        "{hoisted}"
    );
}

#[test]
fn a_converted_pair_goes_on_as_the_register_it_is() {
    // The GEMM epilogue converts the accumulator two elements at a time
    // (`cvt.rn.f16x2.f32`) and stores each pair with stmatrix: the pair is not split into halves
    // and put together again.
    let ctx = Context::new();
    let mut c = GemmConfig::new(DType::F16);
    c.block_m = 64;
    c.block_n = 64;
    c.num_warps = 4;
    c.stages = 2;
    let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap();
    let ir = k.llvm_ir();
    assert!(count(&ir, "fptrunc <2 x float>") > 0, "{ir}");
    assert_eq!(count(&ir, "insertelement <2 x half>"), 0, "{ir}");
    assert_eq!(count(&ir, "extractelement <2 x half>"), 0, "{ir}");
    // `into_ptx` (no copy of the module) emits what `ptx` does.
    let ptx = k.ptx().unwrap();
    assert_eq!(k.into_ptx().unwrap(), ptx);
}
