//! The shared-memory transpose and the row sum of `weft::codegen::kernels`, built without a GPU:
//! the planner's plan for the transpose's conversion (a shared-memory round trip, no bank
//! conflicts predicted), the instructions promised in the PTX (16-byte global vectors both ways,
//! shared stores and loads, a barrier), ptxas accepting it for sm_80 and sm_90, and the AMDGPU
//! build for gfx942.
#![cfg(feature = "llvm")]

mod common;

use common::assemble;
use weft::codegen::kernels::{
    self, transpose_load_layout, transpose_staging_layouts, transpose_store_layout, Tile2d,
    TransposeConfig,
};
use weft::codegen::{Context, Kernel, Target};
use weft::layout::convert::{plan_conversion, ConversionKind};
use weft::layout::encoding::Encoding;

const CONFIGS: [TransposeConfig; 4] = kernels::TRANSPOSE_CONFIGS;
const ROW_SUM_TILES: [Tile2d; 4] = kernels::ROW_SUM_TILES;

fn ptx(k: &Kernel, target: Target, what: &str) -> String {
    let ptx = k.ptx().unwrap();
    assemble(&ptx, &target.to_string(), what);
    ptx
}

fn count(code: &str, needle: &str) -> usize {
    code.lines().filter(|l| l.contains(needle)).count()
}

#[test]
fn transpose_converts_through_conflict_free_shared_memory() {
    for target in [Target::SM80, Target::SM90] {
        for c in CONFIGS {
            let shape = [c.tile_rows as u64, c.tile_cols as u64];
            let a = Encoding::from(transpose_load_layout(target, c).unwrap())
                .to_linear_layout(&shape)
                .unwrap();
            let b = Encoding::from(transpose_store_layout(target, c).unwrap())
                .to_linear_layout(&shape)
                .unwrap();
            // Every element held once: no thread, lane or warp holds a copy.
            for l in [&a, &b] {
                assert_eq!(l.total_in_size(), l.total_out_size(), "{c:?}: {l:?}");
                assert!(l.is_injective(), "{c:?}: {l:?}");
            }
            let plan = plan_conversion(&a, &b, 32, target).unwrap();
            assert_eq!(plan.kind, ConversionKind::SharedMemory, "{plan}");
            let sp = plan.shared.as_ref().unwrap();
            assert_eq!((sp.write_conflicts, sp.read_conflicts), (0, 0), "{plan}");
            // Staged with the plan's vector registers first, the plan is the same round trip and
            // its 4-element vector is the first registers of both sides.
            let (a2, b2) = transpose_staging_layouts(target, c)
                .unwrap()
                .expect("staging");
            let p2 = plan_conversion(&a2, &b2, 32, target).unwrap();
            assert_eq!(p2.kind, ConversionKind::SharedMemory, "{p2}");
            let sp2 = p2.shared.as_ref().unwrap();
            let vector = sp2.layout.bases("vector").unwrap();
            for l in [&a2, &b2] {
                let regs = l.bases("register").unwrap();
                assert_eq!(regs[..vector.len()], vector[..], "{c:?} ({target}): {p2}");
            }
            assert_eq!(
                (sp2.write_conflicts, sp2.read_conflicts),
                (0, 0),
                "{c:?} ({target}): {p2}"
            );
            assert_eq!((sp2.store_vector, sp2.load_vector), (4, 4), "{p2}");

            let what = format!("transpose_smem {c:?} ({target})");
            let ctx = Context::new();
            let k = kernels::transpose_smem_kernel(&ctx, target, c).unwrap();
            assert!(k.signature().shared_bytes as u64 >= plan.scratch_bytes());
            let code = ptx(&k, target, &what);
            for needle in [
                "ld.global.v4",
                "st.global.v4",
                "st.shared.v4",
                "ld.shared.v4",
                "bar.sync",
            ] {
                assert!(code.contains(needle), "{what}: no {needle}:\n{code}");
            }
            // Every global access is a 16-byte vector: tile / (4 per vector) / threads each way.
            let threads = 32 * c.num_warps as usize;
            let vectors = (c.tile_rows * c.tile_cols) as usize / 4 / threads;
            assert_eq!(count(&code, "ld.global.v4"), vectors, "{what}:\n{code}");
            assert_eq!(count(&code, "st.global.v4"), vectors, "{what}:\n{code}");
            assert_eq!(count(&code, "ld.global"), vectors, "{what}");
            assert_eq!(count(&code, "st.global"), vectors, "{what}");
            // The round trip moves 16-byte vectors too, as many as the global accesses.
            assert_eq!(count(&code, "st.shared.v4"), vectors, "{what}:\n{code}");
            assert_eq!(count(&code, "ld.shared.v4"), vectors, "{what}:\n{code}");
            assert_eq!(count(&code, "st.shared"), vectors, "{what}");
            assert_eq!(count(&code, "ld.shared"), vectors, "{what}");
        }
    }
}

#[test]
fn transpose_for_odd_shapes_assembles_and_keeps_what_vectors_it_can() {
    let ctx = Context::new();
    let c = CONFIGS[0];
    // n odd: x's rows start anywhere, so loads are scalar; m a multiple of 8: stores stay v4.
    let k = kernels::transpose_smem_kernel_for_shape(&ctx, Target::SM90, c, 1000, 777).unwrap();
    let sig = k.signature().to_string();
    assert!(sig.contains("m: i32 {divisibility = 8}"), "{sig}");
    let code = ptx(&k, Target::SM90, "transpose 1000x777");
    assert!(!code.contains("ld.global.v"), "{code}");
    assert!(code.contains("st.global.v4"), "{code}");
    for (m, n) in [(33, 2049), (4096, 4096), (1, 1)] {
        let k = kernels::transpose_smem_kernel_for_shape(&ctx, Target::SM80, c, m, n).unwrap();
        ptx(&k, Target::SM80, &format!("transpose {m}x{n}"));
    }
}

#[cfg(feature = "amdgpu")]
#[test]
fn transpose_and_row_sum_build_for_gfx942() {
    let ctx = Context::new();
    let t = Target::GFX942;
    for c in CONFIGS {
        let k = kernels::transpose_smem_kernel(&ctx, t, c).unwrap();
        let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
        assert_eq!(&obj[..4], b"\x7fELF");
        let asm = k.amdgpu_asm(weft::codegen::OptLevel::O3).unwrap();
        assert!(asm.contains("s_barrier"), "{asm}");
        assert!(asm.contains("global_load_dwordx4"), "{asm}");
        assert!(asm.contains("global_store_dwordx4"), "{asm}");
    }
    for tile in ROW_SUM_TILES {
        let k = kernels::row_sum_kernel(&ctx, t, tile).unwrap();
        let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
        assert_eq!(&obj[..4], b"\x7fELF");
    }
}

#[test]
fn row_sum_loops_over_vector_loads_and_reduces_once() {
    for target in [Target::SM80, Target::SM90] {
        for tile in ROW_SUM_TILES {
            let what = format!("row_sum {tile:?} ({target})");
            let ctx = Context::new();
            let k = kernels::row_sum_kernel(&ctx, target, tile).unwrap();
            let code = ptx(&k, target, &what);
            let threads = 32 * tile.num_warps as usize;
            let vectors = (tile.rows * tile.cols) as usize / 4 / threads;
            assert_eq!(count(&code, "ld.global.v4"), vectors, "{what}:\n{code}");
            assert!(code.contains("shfl.sync.bfly"), "{what}:\n{code}");
            // One loop (a backward branch), the reduction after it.
            assert!(code.contains("bra"), "{what}");
        }
    }
    let ctx = Context::new();
    let k = kernels::row_sum_kernel_for_shape(&ctx, Target::SM90, ROW_SUM_TILES[0], 777).unwrap();
    ptx(&k, Target::SM90, "row_sum n = 777");
}
