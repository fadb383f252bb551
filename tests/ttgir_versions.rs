//! TTGIR that Triton versions other than 3.9's Gluon path produce: the `#ttg.amd_rotating_shared` of gfx942
//! matmul and attention dumps, and the `CTAsPerCGA`, `CTASplitNum`, `CTAOrder` multi-CTA fields of Triton
//! 3.5 and earlier.

use weft::layout::encoding::Encoding;
use weft::layout::text::{parse_any, ttgir};

const ROTATING: &str =
    "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>";

/// Row `r` (a power of two) starts at column `vec * (phase ^ block)`, the phase rotating by one every
/// `per_phase * max_phase` rows (Triton's `sharedToLinearLayoutAMDRotating`), computed here element by
/// element from the definition.
fn rotating_column(r: u64, vec: u64, pp: u64, mp: u64, ncols: u64) -> u64 {
    let phase = (r / pp) % mp;
    let block = (r / mp / pp) % mp;
    (vec * (phase ^ block)) % ncols
}

#[test]
fn amd_rotating_shared_parses_prints_and_lays_out() {
    let enc = parse_any(ROTATING).unwrap();
    assert!(matches!(enc, Encoding::AmdRotatingShared(_)));
    assert!(enc.is_shared());
    assert_eq!(ttgir::print_encoding(&enc), ROTATING);
    for (shape, vec, pp, mp) in [
        ([64u64, 64u64], 4u64, 1u64, 16u64),
        ([256, 32], 8, 2, 4),
        ([8, 128], 1, 1, 8),
    ] {
        let text = format!(
            "#ttg.amd_rotating_shared<{{vec = {vec}, perPhase = {pp}, maxPhase = {mp}, order = [1, 0]}}>"
        );
        let ll = parse_any(&text).unwrap().to_linear_layout(&shape).unwrap();
        let offsets = ll.bases("offset").unwrap();
        let col_bits = shape[1].trailing_zeros() as usize;
        for (i, b) in offsets.iter().enumerate() {
            if i < col_bits {
                assert_eq!(b, &vec![0, 1 << i], "{text} {shape:?}");
            } else {
                let r = 1u64 << (i - col_bits);
                assert_eq!(
                    b,
                    &vec![r, rotating_column(r, vec, pp, mp, shape[1])],
                    "{text} {shape:?} row {r}"
                );
            }
        }
        assert!(ll.is_invertible(), "{text} {shape:?}");
    }
    // Up to one full rotation it is the plain swizzled layout.
    let swz =
        parse_any("#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>")
            .unwrap();
    assert_eq!(
        enc.to_linear_layout(&[16, 64]).unwrap(),
        swz.to_linear_layout(&[16, 64]).unwrap()
    );
    assert_ne!(
        enc.to_linear_layout(&[64, 64]).unwrap(),
        swz.to_linear_layout(&[64, 64]).unwrap()
    );
}

#[test]
fn gfx942_dump_with_rotating_shared_lists_every_alias() {
    let dump = format!(
        "#blocked = #ttg.blocked<{{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}}>\n\
         #mma = #ttg.amd_mfma<{{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}}>\n\
         #shared = {ROTATING}\n\
         #smem = #ttg.shared_memory\n\
         module {{\n\
         %0 = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>\n\
         %1 = ttg.local_load %0 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #ttg.dot_op<{{opIdx = 1, parent = #mma, kWidth = 4}}>>\n\
         %2 = tt.load %p : tensor<128x64xf16, #blocked>\n\
         }}\n"
    );
    let file = ttgir::parse_file(&dump).unwrap();
    let names: Vec<&str> = file.aliases.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["blocked", "mma", "shared"]);
    // `#ttg.shared_memory` is a memory space, not a layout: passed over, not reported as skipped.
    assert!(file.skipped.is_empty(), "{:?}", file.skipped);
    for (name, enc) in &file.aliases {
        for shape in file.shapes_of(name) {
            enc.to_linear_layout(&shape)
                .unwrap_or_else(|e| panic!("#{name} {shape:?}: {e}"));
        }
    }
}

/// Triton 3.5 prints `CTAsPerCGA`, `CTASplitNum`, `CTAOrder`; Triton 3.6 on prints the same CGA layout as
/// block bases (`CGAEncodingAttr::fromSplitParams`: along each dim in `CTAOrder`, the splitting CTAs, then
/// the repeating ones as zero bases).
#[test]
fn triton_3_5_cta_fields_give_the_cga_layout() {
    let blocked =
        "sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]";
    for (legacy, bases) in [
        (
            "CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]",
            "[[1, 0]]",
        ),
        (
            "CTAsPerCGA = [2, 2], CTASplitNum = [2, 1], CTAOrder = [1, 0]",
            "[[0, 0], [1, 0]]",
        ),
        (
            "CTAsPerCGA = [2, 4], CTASplitNum = [1, 4], CTAOrder = [0, 1]",
            "[[0, 0], [0, 1], [0, 2]]",
        ),
        (
            "CTAsPerCGA = [4, 2], CTASplitNum = [4, 2], CTAOrder = [1, 0]",
            "[[0, 1], [1, 0], [2, 0]]",
        ),
    ] {
        let old = parse_any(&format!("#ttg.blocked<{{{blocked}, {legacy}}}>")).unwrap();
        let new = parse_any(&format!("#ttg.blocked<{{{blocked}, CGALayout = {bases}}}>")).unwrap();
        assert_eq!(old, new, "{legacy}");
        assert_eq!(
            old.to_linear_layout(&[64, 64]).unwrap(),
            new.to_linear_layout(&[64, 64]).unwrap()
        );
    }
    // One CTA, as Triton 3.5 prints every single-CTA layout.
    let one = parse_any(&format!(
        "#ttg.blocked<{{{blocked}, CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}}>"
    ))
    .unwrap();
    assert_eq!(
        one,
        parse_any(&format!("#ttg.blocked<{{{blocked}}}>")).unwrap()
    );
    // The rank of an NVMMA shared layout comes from the fields too.
    let nv = parse_any(
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, \
         CTAsPerCGA = [1, 1, 1], CTASplitNum = [1, 1, 1], CTAOrder = [2, 1, 0]}>",
    )
    .unwrap();
    assert_eq!(nv.rank().unwrap(), 3);
    for bad in [
        "CTAsPerCGA = [2, 1], CTASplitNum = [2, 1]",
        "CTAsPerCGA = [2, 1], CTASplitNum = [4, 1], CTAOrder = [1, 0]",
        "CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0], CGALayout = [[1, 0]]",
        "CTAsPerCGA = [3, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]",
    ] {
        assert!(
            parse_any(&format!("#ttg.blocked<{{{blocked}, {bad}}}>")).is_err(),
            "{bad}"
        );
    }
}
