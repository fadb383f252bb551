//! Every op family builds verified IR that ptxas 13.0 accepts on every NVIDIA target; memory
//! accesses vectorise exactly as the layout and the pointer facts allow; bad input gives the
//! typed error that names it.
mod common;

use common::{assemble, global_accesses};
use weft::codegen::kernels::{self, blocked_1d, Tile2d};
use weft::codegen::{
    AtomicOp, CacheHint, CodegenError, Context, DType, KernelBuilder, MathOp, MathPrecision,
    Operand, Target, Value,
};
use weft::layout::encoding::{Blocked, Encoding, Slice};
use weft::layout::LinearLayout;

const NV: [Target; 3] = [Target::SM80, Target::SM90, Target::SM90A];

/// The NVIDIA targets, and the AMD ones when feature `amdgpu` is on.
fn all_targets() -> Vec<Target> {
    let mut t = NV.to_vec();
    if cfg!(feature = "amdgpu") {
        t.extend([Target::GFX90A, Target::GFX942, Target::GFX950]);
    }
    t
}

/// Emits the kernel's assembly: PTX assembled by ptxas, or an AMDGPU object (an ELF file).
fn emit_and_check(k: &weft::codegen::Kernel, target: Target, what: &str) -> String {
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        let fast = k.ptx_with(weft::codegen::OptLevel::Fast).unwrap();
        assemble(
            &fast,
            &target.to_string(),
            &format!("{what} ({target}, Fast)"),
        );
        let ptx = k.ptx().unwrap();
        assemble(&ptx, &target.to_string(), &format!("{what} ({target})"));
        ptx
    } else {
        for opt in [weft::codegen::OptLevel::O3, weft::codegen::OptLevel::Fast] {
            let obj = k.amdgpu_object(opt).unwrap();
            assert_eq!(&obj[..4], b"\x7fELF", "{what} ({target})");
        }
        k.amdgpu_asm(weft::codegen::OptLevel::O3).unwrap()
    }
}

/// Builds a kernel with `body` for `target`, emits PTX and has ptxas assemble it.
fn check(
    target: Target,
    name: &str,
    num_warps: u32,
    body: impl FnOnce(&mut KernelBuilder) -> weft::codegen::Result<()>,
) -> String {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, target, name, num_warps).unwrap();
    body(&mut kb).unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
    let k = kb
        .finish()
        .unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
    emit_and_check(&k, target, name)
}

fn layout_1d(target: Target, per_thread: u32, size: u32) -> LinearLayout {
    blocked_1d(target, per_thread, 4, size).unwrap()
}

/// The 1-D tile `p[arange(size)]` and its pointers.
fn load_tile(
    kb: &mut KernelBuilder,
    p: Value,
    l: &LinearLayout,
    size: i32,
) -> weft::codegen::Result<(Value, Value)> {
    let offs = kb.arange(0, size, l)?;
    let ptrs = kb.add(p, offs)?;
    Ok((kb.load(ptrs, None, None)?, ptrs))
}

// ----- vectorisation -------------------------------------------------------------------------

#[test]
fn memcpy_uses_16_byte_vectors_on_every_nvidia_target() {
    for t in NV {
        let ctx = Context::new();
        let k = kernels::memcpy_kernel(&ctx, t, 2048, 4, 4).unwrap();
        let ptx = k.ptx().unwrap();
        let acc = global_accesses(&ptx);
        // 2048 f32 / (128 threads × 4) = 4 vectors each way per thread, nothing narrower.
        assert_eq!(
            acc.iter()
                .filter(|l| l.contains("ld.global.v4.b32") || l.contains("ld.global.v4.f32"))
                .count(),
            4,
            "{acc:?}"
        );
        assert_eq!(
            acc.iter()
                .filter(|l| l.contains("st.global.v4.b32") || l.contains("st.global.v4.f32"))
                .count(),
            4,
            "{acc:?}"
        );
        assert_eq!(acc.len(), 8, "{acc:?}");
        assemble(&ptx, &t.to_string(), "memcpy");
    }
}

/// Vector width = min(layout run, pointer alignment, mask constancy, 16 bytes): each fact
/// alone narrows it.
#[test]
fn vector_width_follows_layout_pointer_and_mask_facts() {
    let t = Target::SM90;
    // (per_thread, dtype, pointer divisibility, n divisibility) -> expected access suffix
    let cases: [(u32, DType, u64, u64, &str); 7] = [
        (4, DType::F32, 16, 16, ".v4.b32"),
        (2, DType::F32, 16, 16, ".v2.b32"),
        (4, DType::F32, 8, 16, ".v2.b32"),
        (4, DType::F32, 4, 16, ".b32"),
        (4, DType::F32, 16, 2, ".v2.b32"),
        (8, DType::F16, 16, 16, ".v4.b32"),
        (8, DType::F32, 16, 16, ".v4.b32"),
    ];
    for (per, dt, pdiv, ndiv, want) in cases {
        let ptx = check(t, "vec", 4, |kb| {
            let x = kb.arg_ptr("x", dt, pdiv)?;
            let y = kb.arg_ptr("y", dt, pdiv)?;
            let n = kb.arg_i32("n", ndiv)?;
            let l = blocked_1d(t, per, 4, 2048).unwrap();
            let offs = kb.arange(0, 2048, &l)?;
            let m = kb.lt(offs, n)?;
            let px = kb.add(x, offs)?;
            let v = kb.load(px, Some(m), None)?;
            let py = kb.add(y, offs)?;
            kb.store(py, v, Some(m))
        });
        let acc = global_accesses(&ptx);
        assert!(!acc.is_empty());
        for a in &acc {
            let op = a.split_whitespace().next().unwrap();
            let suffix = op
                .trim_start_matches("ld.global")
                .trim_start_matches("st.global");
            assert_eq!(
                suffix, want,
                "per_thread {per} {dt} ptr%{pdiv} n%{ndiv}: {a}"
            );
        }
    }
}

#[test]
fn masked_load_with_other_still_vectorises_and_selects() {
    let ptx = check(Target::SM90, "other", 4, |kb| {
        let x = kb.arg_ptr("x", DType::F32, 16)?;
        let y = kb.arg_ptr("y", DType::F32, 16)?;
        let n = kb.arg_i32("n", 16)?;
        let l = layout_1d(Target::SM90, 4, 512);
        let offs = kb.arange(0, 512, &l)?;
        let m = kb.lt(offs, n)?;
        let px = kb.add(x, offs)?;
        let v = kb.load(px, Some(m), Some(Operand::Float(-1.0)))?;
        let py = kb.add(y, offs)?;
        kb.store(py, v, None)
    });
    assert!(ptx.contains("ld.global.v4"), "{ptx}");
    assert!(
        ptx.contains("0fBF800000"),
        "other = -1.0 must appear: {ptx}"
    );
    assert!(ptx.contains("selp"), "{ptx}");
    // A masked-off element loads as +0 already: `other = 0.0` needs no select (-0.0 does).
    for (other, selects) in [(0.0, false), (-0.0, true)] {
        let ptx = check(Target::SM90, "other0", 4, |kb| {
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let y = kb.arg_ptr("y", DType::F32, 16)?;
            let n = kb.arg_i32("n", 16)?;
            let l = layout_1d(Target::SM90, 4, 512);
            let offs = kb.arange(0, 512, &l)?;
            let m = kb.lt(offs, n)?;
            let px = kb.add(x, offs)?;
            let v = kb.load(px, Some(m), Some(Operand::Float(other)))?;
            let py = kb.add(y, offs)?;
            kb.store(py, v, None)
        });
        assert_eq!(ptx.contains("selp"), selects, "other = {other:?}: {ptx}");
    }
}

#[test]
fn cache_hints_reach_the_ptx() {
    for (hint, q) in [(CacheHint::Global, ".cg"), (CacheHint::Streaming, ".cs")] {
        for dt in [DType::F32, DType::F16, DType::F64, DType::I8] {
            let ptx = check(Target::SM90, "hint", 4, |kb| {
                let x = kb.arg_ptr("x", dt, 16)?;
                let y = kb.arg_ptr("y", dt, 16)?;
                let l = layout_1d(Target::SM90, 4, 512);
                let offs = kb.arange(0, 512, &l)?;
                let px = kb.add(x, offs)?;
                let v = kb.load_with(px, None, None, hint)?;
                let py = kb.add(y, offs)?;
                kb.store_with(py, v, None, hint)
            });
            if dt != DType::I8 {
                assert!(
                    ptx.contains(&format!("ld.global{q}")),
                    "{dt} {hint:?}: {ptx}"
                );
                assert!(
                    ptx.contains(&format!("st.global{q}")),
                    "{dt} {hint:?}: {ptx}"
                );
            }
        }
    }
}

#[test]
fn copies_of_elements_are_stored_once() {
    // 128 threads over 64 elements: warps 2 and 3 repeat warps 0 and 1 and must not store.
    let ptx = check(Target::SM90, "dup", 4, |kb| {
        let y = kb.arg_ptr("y", DType::F32, 16)?;
        let l = layout_1d(Target::SM90, 1, 64);
        let offs = kb.arange(0, 64, &l)?;
        let py = kb.add(y, offs)?;
        let v = kb.cast(offs, DType::F32)?;
        kb.store(py, v, None)
    });
    assert!(
        ptx.contains("@%p"),
        "the store must be predicated on the warp id: {ptx}"
    );
}

// ----- op families -----------------------------------------------------------------------------

#[test]
fn integer_and_float_elementwise_ops_assemble() {
    use weft::codegen::BinaryOp::*;
    for t in all_targets() {
        for dt in [
            DType::I8,
            DType::I16,
            DType::I32,
            DType::I64,
            DType::F16,
            DType::BF16,
            DType::F32,
            DType::F64,
        ] {
            check(t, "elementwise", 4, |kb| {
                let l = layout_1d(t, 2, 256);
                let pa = kb.arg_ptr("a", dt, 16)?;
                let pb = kb.arg_ptr("b", dt, 16)?;
                let (a, pa) = load_tile(kb, pa, &l, 256)?;
                let (b, _) = load_tile(kb, pb, &l, 256)?;
                let mut acc = kb.add(a, b)?;
                let ops: Vec<_> = if dt.is_int() {
                    vec![Sub, Mul, Div, Rem, Min, Max, And, Or, Xor, Shl, Shr]
                } else if dt == DType::BF16 && t.vendor() == weft::codegen::Vendor::Amd {
                    assert!(matches!(
                        (kb.rem(a, b)).as_ref().map_err(|e| e.cause()),
                        Err(CodegenError::Unsupported { .. })
                    ));
                    vec![Sub, Mul, Div, Min, Max]
                } else {
                    vec![Sub, Mul, Div, Rem, Min, Max]
                };
                for op in ops {
                    acc = kb.binary(op, acc, b)?;
                }
                acc = kb.neg(acc)?;
                acc = kb.abs(acc)?;
                if dt.is_int() {
                    acc = kb.not(acc)?;
                } else {
                    acc = kb.fma(acc, b, a)?;
                }
                let c = kb.lt(acc, a)?;
                let c2 = kb.ne(acc, 3)?;
                let c = kb.and(c, c2)?;
                let r = kb.where_(c, acc, b)?;
                kb.store(pa, r, None)
            });
        }
    }
}

/// Exhaustive over (binary op, element type): which pairs are accepted, and that the rejected
/// ones are typed errors.
#[test]
fn binary_ops_accept_exactly_their_types() {
    use weft::codegen::BinaryOp::*;
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "types", 4).unwrap();
    let l = layout_1d(Target::SM90, 4, 512);
    let base = kb.arange(0, 512, &l).unwrap();
    for dt in DType::ALL {
        let x = kb.cast(base, dt).unwrap();
        for op in [Add, Sub, Mul, Div, Rem, Min, Max, And, Or, Xor, Shl, Shr] {
            let bitwise = matches!(op, And | Or | Xor);
            let ok = if dt.is_fp8() {
                false
            } else if dt == DType::I1 {
                bitwise
            } else if dt.is_int() {
                true
            } else {
                !bitwise && !matches!(op, Shl | Shr)
            };
            let r = kb.binary(op, x, x);
            if ok {
                assert!(r.is_ok(), "{op:?} {dt}: {r:?}");
            } else {
                assert!(
                    matches!(
                        r.as_ref().map_err(|e| e.cause()),
                        Err(CodegenError::InvalidType { .. })
                    ),
                    "{op:?} {dt}: {r:?}"
                );
            }
        }
        let neg_ok = !dt.is_fp8() && dt != DType::I1;
        assert_eq!(kb.neg(x).is_ok(), neg_ok, "neg {dt}");
        assert_eq!(kb.abs(x).is_ok(), neg_ok, "abs {dt}");
        assert_eq!(kb.not(x).is_ok(), dt.is_int(), "not {dt}");
        assert_eq!(kb.lt(x, x).is_ok(), !dt.is_fp8(), "lt {dt}");
    }
    kb.finish().unwrap();
}

#[test]
fn every_math_function_assembles_for_every_float_type() {
    for t in all_targets() {
        for dt in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            for op in MathOp::ALL {
                for precision in [MathPrecision::Approx, MathPrecision::Accurate] {
                    let ctx = Context::new();
                    let mut kb = KernelBuilder::new(&ctx, t, "math", 4).unwrap();
                    let l = layout_1d(t, 1, 128);
                    let pa = kb.arg_ptr("a", dt, 16).unwrap();
                    let (a, pa) = load_tile(&mut kb, pa, &l, 128).unwrap();
                    let r = kb
                        .math_with(op, a, precision)
                        .unwrap_or_else(|e| panic!("{op:?} {dt} {precision:?}: {e}"));
                    kb.store(pa, r, None).unwrap();
                    let k = kb.finish().unwrap();
                    emit_and_check(&k, t, &format!("{op:?} {dt} {precision:?}"));
                }
            }
        }
    }
}

#[test]
fn every_cast_assembles_and_fp8_needs_sm90() {
    for t in all_targets() {
        for from in DType::ALL {
            for to in DType::ALL {
                let ctx = Context::new();
                let mut kb = KernelBuilder::new(&ctx, t, "cast", 4).unwrap();
                let l = layout_1d(t, 4, 512);
                let pa = kb.arg_ptr("a", from, 16).unwrap();
                let (a, _) = load_tile(&mut kb, pa, &l, 512).unwrap();
                let out = kb.arg_ptr("out", to, 16);
                // Parameters after the body started are rejected; declare both first instead.
                assert!(matches!(
                    out.as_ref().map_err(|e| e.cause()),
                    Err(CodegenError::BadParameter { .. })
                ));
                let r = kb.cast(a, to);
                let fp8 = from.is_fp8() || to.is_fp8();
                if fp8 && !t.supports(weft::codegen::Feature::Fp8) {
                    assert!(
                        matches!(
                            r.as_ref().map_err(|e| e.cause()),
                            Err(CodegenError::Unsupported { .. })
                        ),
                        "{from}->{to} on {t}: {r:?}"
                    );
                    continue;
                }
                r.unwrap_or_else(|e| panic!("{from}->{to}: {e}"));
            }
            // One kernel per source type with every destination, through memory.
            if from.is_fp8() && !t.supports(weft::codegen::Feature::Fp8) {
                continue;
            }
            check(t, "casts", 4, |kb| {
                let targets: Vec<DType> = DType::ALL
                    .into_iter()
                    .filter(|d| t.supports(weft::codegen::Feature::Fp8) || !d.is_fp8())
                    .collect();
                let ptrs: Vec<Value> = targets
                    .iter()
                    .map(|d| kb.arg_ptr(&format!("out_{}", d.name()), *d, 16))
                    .collect::<Result<_, _>>()?;
                let pa = kb.arg_ptr("a", from, 16)?;
                let l = layout_1d(t, 4, 512);
                let (a, _) = load_tile(kb, pa, &l, 512)?;
                let offs = kb.arange(0, 512, &l)?;
                for (d, p) in targets.iter().zip(ptrs) {
                    let c = kb.cast(a, *d)?;
                    let q = kb.add(p, offs)?;
                    kb.store(q, c, None)?;
                }
                Ok(())
            });
        }
    }
}

#[test]
fn shape_ops_assemble_and_round_trip() {
    for t in all_targets() {
        check(t, "shapes", 4, |kb| {
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let y = kb.arg_ptr("y", DType::F32, 16)?;
            let tile = Tile2d {
                rows: 16,
                cols: 64,
                per_thread: 4,
                num_warps: 4,
            };
            let l = kernels::tile_layout(t, tile).unwrap();
            // Rows and columns in the slices of the blocked encoding; `[16, 1] + [1, 64]`
            // broadcasts to the parent laid out for [16, 64], as in Gluon.
            let rows = kb.arange(0, 16, Slice::new(1, l.clone().into()))?;
            let cols = kb.arange(0, 64, Slice::new(0, l.clone().into()))?;
            let r2 = kb.expand_dims(rows, 1)?;
            let c2 = kb.expand_dims(cols, 0)?;
            let off = kb.mul(r2, 64)?;
            let off = kb.add(off, c2)?;
            assert_eq!(kb.shape(off)?, vec![16, 64]);
            let px = kb.add(x, off)?;
            let v = kb.load(px, None, None)?;
            // permute twice is the identity; reshape there and back too.
            let p = kb.permute(v, &[1, 0])?;
            let p = kb.permute(p, &[1, 0])?;
            let flat = kb.reshape(p, &[1024])?;
            let back = kb.reshape(flat, &[16, 64])?;
            // Equal by meaning: `v`'s layout came from an encoding (with a size-1 `block` dim),
            // `p`'s and `back`'s from shape ops (without one).
            let (lb, lv) = (kb.layout(back)?.unwrap(), kb.layout(v)?.unwrap());
            assert!(lb.equivalent(&lv), "{lb:?} vs {lv:?}");
            kb.add(v, p)?;
            // join then split gives the operands back.
            let j = kb.join(back, v)?;
            assert_eq!(kb.shape(j)?, vec![16, 64, 2]);
            let (a, b) = kb.split(j)?;
            assert!(kb.layout(a)?.unwrap().equivalent(&kb.layout(v)?.unwrap()));
            let s = kb.add(a, b)?;
            let py = kb.add(y, off)?;
            kb.store(py, s, None)
        });
    }
}

#[test]
fn atomics_assemble_for_every_supported_type() {
    use AtomicOp::*;
    // Exhaustive over (op, element type): the supported pairs emit on every target; the others
    // are typed errors before LLVM sees them.
    let supported = |op: AtomicOp, dt: DType| match op {
        Add | Min | Max => matches!(
            dt,
            DType::I32 | DType::I64 | DType::F32 | DType::F64 | DType::F16 | DType::BF16
        ),
        And | Or | Xor => matches!(dt, DType::I32 | DType::I64),
        Xchg => matches!(dt, DType::I32 | DType::I64 | DType::F32 | DType::F64),
    };
    for t in all_targets() {
        for op in [Add, Min, Max, And, Or, Xor, Xchg] {
            for dt in DType::ALL {
                if !supported(op, dt) {
                    let ctx = Context::new();
                    let mut kb = KernelBuilder::new(&ctx, t, "atomic", 4).unwrap();
                    let p = kb.arg_ptr("a", dt, 16).unwrap();
                    let l = layout_1d(t, 2, 256);
                    let offs = kb.arange(0, 256, &l).unwrap();
                    let pa = kb.add(p, offs).unwrap();
                    let v = if dt.is_float() {
                        kb.const_float(dt, 1.0)
                    } else if dt.is_int() {
                        kb.const_int(dt, 1)
                    } else {
                        kb.load(pa, None, None)
                    }
                    .unwrap();
                    let r = kb.atomic_rmw(op, pa, v, None);
                    assert!(
                        matches!(
                            r.as_ref().map_err(|e| e.cause()),
                            Err(CodegenError::InvalidType { .. })
                        ),
                        "{op:?} {dt}: {r:?}"
                    );
                    continue;
                }
                check(t, "atomic", 4, |kb| {
                    let n = kb.arg_i32("n", 1)?;
                    let pa = kb.arg_ptr("a", dt, 16)?;
                    let l = layout_1d(t, 2, 256);
                    let (a, pa) = load_tile(kb, pa, &l, 256)?;
                    let offs = kb.arange(0, 256, &l)?;
                    let m = kb.lt(offs, n)?;
                    let old = kb.atomic_rmw(op, pa, a, Some(m))?;
                    kb.store(pa, old, None)
                });
            }
        }
        check(t, "cas", 4, |kb| {
            let pa = kb.arg_ptr("a", DType::I32, 16)?;
            let l = layout_1d(t, 1, 128);
            let (a, pa) = load_tile(kb, pa, &l, 128)?;
            let old = kb.atomic_cas(pa, 0, a, None)?;
            kb.store(pa, old, None)
        });
    }
}

#[test]
fn loops_carry_tiles_and_ifs_merge_values() {
    for t in all_targets() {
        check(t, "control", 4, |kb| {
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let n = kb.arg_i32("n", 1)?;
            let l = layout_1d(t, 4, 512);
            let acc0 = kb.zeros(&l, DType::F32)?;
            let offs = kb.arange(0, 512, &l)?;
            let out = kb.for_range(0, n, 512, &[acc0], |kb, i, carried| {
                let o = kb.add(offs, i)?;
                let p = kb.add(x, o)?;
                let v = kb.load(p, None, None)?;
                Ok(vec![kb.add(carried[0], v)?])
            })?;
            let pid = kb.program_id(0)?;
            let first = kb.eq(pid, 0)?;
            let r = kb.if_(
                first,
                |kb| Ok(vec![kb.mul(out[0], 2.0)?]),
                |_| Ok(vec![out[0]]),
            )?;
            let p = kb.add(x, offs)?;
            kb.if_then(first, |kb| kb.store(p, r[0], None))
        });
    }
}

#[test]
fn scalar_ops_and_scalar_memory() {
    for t in all_targets() {
        check(t, "scalars", 1, |kb| {
            let x = kb.arg_ptr("x", DType::I64, 8)?;
            let a = kb.arg_i64("a", 1)?;
            let f = kb.arg_f32("f")?;
            let pid = kb.program_id(2)?;
            let np = kb.num_programs(1)?;
            let s = kb.add(pid, np)?;
            let s = kb.cast(s, DType::I64)?;
            let s = kb.mul(s, a)?;
            let s = kb.shl(s, 3)?;
            let q = kb.add(x, pid)?;
            let old = kb.load(q, None, None)?;
            let s = kb.add(s, old)?;
            let g = kb.cast(f, DType::I64)?;
            let s = kb.max(s, g)?;
            let pos = kb.gt(s, 0)?;
            kb.store(q, s, Some(pos))
        });
    }
}

#[test]
fn num_warps_and_lanes_follow_the_target() {
    for w in [1, 2, 4, 8, 16, 32] {
        let ptx = check(Target::SM90, "warps", w, |kb| {
            let y = kb.arg_ptr("y", DType::F32, 16)?;
            let l = blocked_1d(Target::SM90, 4, w, 4 * 32 * w).unwrap();
            let offs = kb.arange(0, (4 * 32 * w) as i32, &l)?;
            let p = kb.add(y, offs)?;
            kb.store(p, 1.0, None)
        });
        assert!(ptx.contains(&format!(".reqntid {}", 32 * w)), "{ptx}");
    }
}

// ----- bad input -------------------------------------------------------------------------------

fn kb_for<'c>(ctx: &'c Context) -> KernelBuilder<'c> {
    KernelBuilder::new(ctx, Target::SM90, "bad", 4).unwrap()
}

#[test]
fn mismatched_operands_name_both_sides() {
    let ctx = Context::new();
    let mut kb = kb_for(&ctx);
    let l1 = layout_1d(Target::SM90, 4, 512);
    let l2 = layout_1d(Target::SM90, 1, 512);
    let l3 = layout_1d(Target::SM90, 4, 1024);
    let a = kb.arange(0, 512, &l1).unwrap();
    let b = kb.arange(0, 512, &l2).unwrap();
    let c = kb.arange(0, 1024, &l3).unwrap();
    let f = kb.cast(a, DType::F32).unwrap();
    let e = kb.add(a, b).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::LayoutMismatch { .. }),
        "{e}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("tensor<512xi32")
            && msg.contains("register: [[1],[2]")
            && msg.contains("register: [[128],[256]]"),
        "{msg}"
    );
    let e = kb.add(a, c).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { .. }) && e.to_string().contains("1024"),
        "{e}"
    );
    // A boolean meets no float (an i32 would: it promotes to f32, as in Triton).
    let m = kb.lt(a, 3).unwrap();
    let e = kb.add(m, f).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::TypeMismatch { .. }) && e.to_string().contains("f32"),
        "{e}"
    );
    let e = kb.shl(f, 1).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::InvalidType { .. }), "{e}");
    let e = kb.load(a, None, None).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidType { .. }) && e.to_string().contains("pointer"),
        "{e}"
    );
}

#[test]
fn literals_adapt_and_a_float_literal_makes_an_int_f32() {
    let ctx = Context::new();
    let mut kb = kb_for(&ctx);
    let l = layout_1d(Target::SM90, 4, 512);
    let a = kb.arange(0, 512, &l).unwrap();
    let f = kb.cast(a, DType::F16).unwrap();
    let g = kb.add(f, 1).unwrap();
    assert_eq!(kb.ty(g).unwrap(), DType::F16.into());
    // A float literal outranks an integer tile: `a + 0.5` is f32, as in Triton.
    let h = kb.add(a, 0.5).unwrap();
    assert_eq!(kb.ty(h).unwrap(), DType::F32.into());
    let c = kb.i64(7).unwrap();
    let h = kb.add(a, c).unwrap();
    assert_eq!(kb.ty(h).unwrap(), DType::I32.into());
    assert!(matches!(
        (kb.const_int(DType::I8, 300))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
}

#[test]
fn bad_layouts_are_rejected() {
    let ctx = Context::new();
    let mut kb = kb_for(&ctx);
    // 2 warps in a 4-warp kernel.
    let l = blocked_1d(Target::SM90, 4, 2, 256).unwrap();
    let e = kb.arange(0, 256, &l).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::BadLayout { .. }) && e.to_string().contains("2 warps"),
        "{e}"
    );
    // Size mismatch with the arange.
    let l = layout_1d(Target::SM90, 4, 512);
    assert!(matches!(
        (kb.arange(0, 256, &l)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::BadLayout { .. })
    ));
    assert!(matches!(
        (kb.arange(0, 300, &l)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    // An input dim that is not register/lane/warp.
    let odd = LinearLayout::identity_1d(512, "offset", "dim0").unwrap();
    assert!(matches!(
        (kb.arange(0, 512, &odd)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::BadLayout { .. })
    ));
    // Broadcasting two partial tiles needs a layout.
    let tile = Tile2d {
        rows: 16,
        cols: 64,
        per_thread: 4,
        num_warps: 4,
    };
    let l2: Encoding = kernels::tile_layout(Target::SM90, tile).unwrap().into();
    let rows_l = Slice::new(1, l2.clone()).to_linear_layout(&[16]).unwrap();
    let cols_l = Slice::new(0, l2.clone()).to_linear_layout(&[64]).unwrap();
    let r = kb.arange(0, 16, &rows_l).unwrap();
    let c = kb.arange(0, 64, &cols_l).unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    // Linear layouts carry no parent, so the result's layout is unknown…
    assert!(matches!(
        (kb.add(r, c)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::BadLayout { .. })
    ));
    // …and so do expansions of slices of two different parents.
    let l3: Encoding = Blocked::new(&[1, 1], &[1, 32], &[4, 1], &[1, 0]).into();
    let r3 = kb.arange(0, 16, Slice::new(1, l2.clone())).unwrap();
    let c3 = kb.arange(0, 64, Slice::new(0, l3.clone())).unwrap();
    let r3 = kb.expand_dims(r3, 1).unwrap();
    let c3 = kb.expand_dims(c3, 0).unwrap();
    assert!(matches!(
        (kb.add(r3, c3)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::BadLayout { .. })
    ));
    // A shape-free encoding where the op has no shape of its own, and a shared one.
    assert!(kb.zeros(&l2, DType::F32).is_err());
    assert!(kb.zeros((&l2, [16, 64]), DType::F32).is_ok());
    // Broadcasting into a layout that does not extend the tile's.
    let other = l3.to_linear_layout(&[16, 64]).unwrap();
    assert!(matches!(
        (kb.broadcast_to(r, &other)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::LayoutMismatch { .. })
    ));
    // Split of a dim held by lanes.
    let j = kb.arange(0, 512, &l).unwrap();
    let j = kb.reshape(j, &[256, 2]).unwrap();
    assert!(kb.split(j).is_ok(), "the last dim is in registers here");
    let l1 = layout_1d(Target::SM90, 1, 512);
    let k = kb.arange(0, 512, &l1).unwrap();
    let k = kb.reshape(k, &[256, 2]).unwrap();
    assert!(matches!(
        (kb.split(k)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::BadLayout { .. })
    ));
}

#[test]
fn bad_arguments_are_rejected() {
    let ctx = Context::new();
    // Any count from 1 to 32 (a count that is not a power of two lays out tiles only in roles).
    for w in [0, 33, 64] {
        assert!(matches!(
            (KernelBuilder::new(&ctx, Target::SM90, "k", w))
                .as_ref()
                .map_err(|e| e.cause()),
            Err(CodegenError::InvalidArgument { .. })
        ));
    }
    assert!(matches!(
        (KernelBuilder::new(&ctx, Target::SM90, "9k", 4))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    // sm_75 is a target the planner knows, but the builder emits no code for it.
    assert!(matches!(
        (KernelBuilder::new(&ctx, Target::parse("sm_75").unwrap(), "k", 4))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::BadTarget { .. })
    ));
    assert!(Target::parse("sm_7").is_err());
    let mut kb = kb_for(&ctx);
    assert!(matches!(
        (kb.arg_ptr("x", DType::F32, 3))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::BadParameter { .. })
    ));
    assert!(matches!(
        (kb.arg_ptr("x", DType::F64, 4))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::BadParameter { .. })
    ));
    kb.arg_i32("n", 1).unwrap();
    assert!(matches!(
        (kb.arg_i32("n", 1)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::BadParameter { .. })
    ));
    assert!(matches!(
        (kb.program_id(3)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    let l = layout_1d(Target::SM90, 4, 512);
    let a = kb.arange(0, 512, &l).unwrap();
    assert!(matches!(
        (kb.expand_dims(a, 2)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    assert!(matches!(
        (kb.permute(a, &[1])).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    assert!(matches!(
        (kb.reshape(a, &[3, 4])).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::ShapeMismatch { .. })
    ));
    assert!(matches!(
        (kb.reshape(a, &[1 << 40, 1 << 40]))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::ShapeMismatch { .. })
    ));
    // A dim too large for i32 coordinates (few registers, so only the size rule breaks).
    let wide = LinearLayout::from_bases(
        [
            ("register", vec![vec![1u64 << 31]]),
            ("lane", (0..5).map(|i| vec![1u64 << i]).collect()),
            ("warp", (5..7).map(|i| vec![1u64 << i]).collect()),
        ],
        [("dim0", 1u64 << 32)],
        false,
    )
    .unwrap();
    let e = kb.full(&wide, DType::F32, 0.0).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::BadLayout { .. }) && e.to_string().contains("2^30"),
        "{e}"
    );
    assert!(matches!(
        (kb.for_range(0, 10, 0, &[], |_, _, _| Ok(vec![])))
            .as_ref()
            .map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
}

#[test]
fn unsupported_ops_fail_before_llvm() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM80, "k", 4).unwrap();
    let l = layout_1d(Target::SM80, 4, 512);
    let a = kb.arange(0, 512, &l).unwrap();
    let f = kb.cast(a, DType::F64).unwrap();
    assert!(matches!(
        (kb.cast(f, DType::F8E4M3)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::Unsupported { .. })
    ));
    let e = kb.cast(f, DType::F8E5M2).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::Unsupported { .. }) && e.to_string().contains("sm_80"),
        "{e}"
    );
    assert!(!Target::SM90.supports(weft::codegen::Feature::Wgmma));
    assert!(Target::SM90A.supports(weft::codegen::Feature::Wgmma));
    // PTX is not an AMD output and vice versa.
    let k = kernels::memcpy_kernel(&ctx, Target::SM80, 512, 4, 4).unwrap();
    assert!(matches!(
        (k.code_object()).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::Unsupported { .. })
    ));
}

#[cfg(not(feature = "amdgpu"))]
#[test]
fn amd_targets_need_the_amdgpu_feature() {
    let ctx = Context::new();
    for t in [Target::GFX90A, Target::GFX942, Target::GFX950] {
        assert!(matches!(
            (KernelBuilder::new(&ctx, t, "k", 4))
                .as_ref()
                .map_err(|e| e.cause()),
            Err(CodegenError::BadTarget { .. })
        ));
    }
}

#[test]
fn handles_from_another_kernel_or_a_closed_body_are_rejected() {
    let ctx = Context::new();
    let mut k1 = kb_for(&ctx);
    let mut k2 = kb_for(&ctx);
    let a = k1.i32(1).unwrap();
    assert!(matches!(
        (k2.add(a, 1)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::ForeignValue { .. })
    ));
    let mut leaked = None;
    k1.for_range(0, 4, 1, &[], |kb, i, _| {
        leaked = Some(kb.add(i, 1)?);
        Ok(vec![])
    })
    .unwrap();
    let e = k1.add(leaked.unwrap(), 1).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::OutOfScope { .. }), "{e}");
    // A yield of the wrong type poisons the kernel: finish refuses it.
    let l = layout_1d(Target::SM90, 4, 512);
    let z = k1.zeros(&l, DType::F32).unwrap();
    let e = k1
        .for_range(0, 4, 1, &[z], |kb, i, _| Ok(vec![kb.add(i, 1)?]))
        .unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::ShapeMismatch { .. } | CodegenError::TypeMismatch { .. }
        ),
        "{e}"
    );
    assert!(k1.finish().is_err());
}

// ----- AMDGPU ----------------------------------------------------------------------------------

#[cfg(feature = "amdgpu")]
#[test]
fn amdgpu_kernels_link_into_code_objects() {
    for t in [Target::GFX90A, Target::GFX942, Target::GFX950] {
        let ctx = Context::new();
        let k = kernels::memcpy_kernel(&ctx, t, 2048, 4, 4).unwrap();
        assert_eq!(k.signature().threads_per_block, Some(256));
        let asm = k.amdgpu_asm(weft::codegen::OptLevel::O3).unwrap();
        assert!(asm.contains("global_load_dwordx4"), "{asm}");
        let co = k.code_object().unwrap();
        assert_eq!(&co[..4], b"\x7fELF");
        // A second emission from the same kernel works (each uses a fresh module).
        assert!(k.code_object().is_ok());
    }
}

/// A pointer carried through a loop and advanced by a multiple of 16 bytes keeps its alignment,
/// so the loads in the loop still vectorise; advancing by 4 bytes does not, and the loop is
/// lowered again, from the body's record, with scalar loads: the user's closure runs once
/// either way.
#[test]
fn carried_pointers_keep_their_facts_when_the_body_does() {
    for (advance, want_vec) in [(512, true), (1, false)] {
        let mut runs = 0;
        let ptx = check(Target::SM90, "carried", 4, |kb| {
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let y = kb.arg_ptr("y", DType::F32, 16)?;
            let n = kb.arg_i32("n", 1)?;
            let l = layout_1d(Target::SM90, 4, 512);
            let offs = kb.arange(0, 512, &l)?;
            let p0 = kb.add(x, offs)?;
            let acc0 = kb.zeros(&l, DType::F32)?;
            let out = kb.for_range(0, n, 1, &[p0, acc0], |kb, _, c| {
                runs += 1;
                let v = kb.load(c[0], None, None)?;
                let acc = kb.add(c[1], v)?;
                let p = kb.add(c[0], advance)?;
                Ok(vec![p, acc])
            })?;
            let py = kb.add(y, offs)?;
            kb.store(py, out[1], None)
        });
        assert_eq!(runs, 1, "advance {advance}: the body ran {runs} times");
        let loads: Vec<String> = global_accesses(&ptx)
            .into_iter()
            .filter(|l| l.starts_with("ld."))
            .collect();
        assert!(!loads.is_empty());
        assert_eq!(
            loads.iter().all(|l| l.contains(".v4.")),
            want_vec,
            "advance {advance}: {loads:?}"
        );
    }
}

// ----- random programs ------------------------------------------------------------------------

/// One step of a random builder program: an op and indices into the values made so far.
#[derive(Debug, Clone)]
enum Step {
    Arange(usize),
    Full(usize, u8),
    Bin(u8, usize, usize),
    Cmp(usize, usize),
    Where(usize, usize, usize),
    Cast(usize, u8),
    Math(u8, usize),
    ExpandDims(usize, usize),
    Broadcast(usize, usize),
    Permute(usize),
    Reshape(usize, u8),
    Split(usize),
    Join(usize, usize),
    Load(usize, Option<usize>),
    Store(usize, usize, Option<usize>),
    Atomic(u8, usize, usize),
    PtrAdd(usize, usize),
}

fn step() -> impl proptest::strategy::Strategy<Value = Step> {
    use proptest::prelude::*;
    let i = || 0usize..64;
    prop_oneof![
        i().prop_map(Step::Arange),
        (i(), any::<u8>()).prop_map(|(a, b)| Step::Full(a, b)),
        (any::<u8>(), i(), i()).prop_map(|(o, a, b)| Step::Bin(o, a, b)),
        (i(), i()).prop_map(|(a, b)| Step::Cmp(a, b)),
        (i(), i(), i()).prop_map(|(a, b, c)| Step::Where(a, b, c)),
        (i(), any::<u8>()).prop_map(|(a, b)| Step::Cast(a, b)),
        (any::<u8>(), i()).prop_map(|(o, a)| Step::Math(o, a)),
        (i(), 0usize..4).prop_map(|(a, b)| Step::ExpandDims(a, b)),
        (i(), i()).prop_map(|(a, b)| Step::Broadcast(a, b)),
        i().prop_map(Step::Permute),
        (i(), any::<u8>()).prop_map(|(a, b)| Step::Reshape(a, b)),
        i().prop_map(Step::Split),
        (i(), i()).prop_map(|(a, b)| Step::Join(a, b)),
        (i(), proptest::option::of(i())).prop_map(|(a, m)| Step::Load(a, m)),
        (i(), i(), proptest::option::of(i())).prop_map(|(a, b, m)| Step::Store(a, b, m)),
        (any::<u8>(), i(), i()).prop_map(|(o, a, b)| Step::Atomic(o, a, b)),
        (0usize..3, i()).prop_map(|(p, o)| Step::PtrAdd(p, o)),
    ]
}

/// Runs a random program: every call returns Ok or a typed error, never panics or aborts; when
/// the kernel finishes, its PTX is emitted and accepted by ptxas.
fn run_program(t: Target, steps: &[Step]) {
    use weft::codegen::BinaryOp::*;
    let layouts = [
        layout_1d(t, 4, 512),
        layout_1d(t, 1, 64),
        Encoding::from(
            kernels::tile_layout(
                t,
                Tile2d {
                    rows: 16,
                    cols: 64,
                    per_thread: 4,
                    num_warps: 4,
                },
            )
            .unwrap(),
        )
        .to_linear_layout(&[16, 64])
        .unwrap(),
        Encoding::from(Blocked::new(
            &[1, 2, 2],
            &[1, 2, t.warp_size() / 2],
            &[2, 2, 1],
            &[2, 1, 0],
        ))
        .to_linear_layout(&[8, 4, 32])
        .unwrap(),
    ];
    let dtypes = DType::ALL;
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, t, "random", 4).unwrap();
    let mut vals: Vec<Value> = vec![
        kb.arg_ptr("pf", DType::F32, 16).unwrap(),
        kb.arg_ptr("pi", DType::I32, 16).unwrap(),
        kb.arg_ptr("ph", DType::F16, 16).unwrap(),
        kb.arg_i32("n", 16).unwrap(),
    ];
    for s in steps {
        let pick = |i: usize| vals[i % vals.len()];
        let r: weft::codegen::Result<Vec<Value>> = match *s {
            Step::Arange(l) => {
                let l = &layouts[l % 2];
                let size = weft::layout::LinearLayout::out_dims(l).next().unwrap().1 as i32;
                kb.arange(0, size, l).map(|v| vec![v])
            }
            Step::Full(l, d) => kb
                .full(
                    &layouts[l % layouts.len()],
                    dtypes[d as usize % dtypes.len()],
                    1,
                )
                .map(|v| vec![v]),
            Step::Bin(o, a, b) => {
                let ops = [Add, Sub, Mul, Div, Rem, Min, Max, And, Or, Xor, Shl, Shr];
                // Half the time the same value twice or a literal, so shapes and types match.
                let op = ops[o as usize % ops.len()];
                match b % 3 {
                    0 => kb.binary(op, pick(a), pick(b)),
                    1 => kb.binary(op, pick(a), pick(a)),
                    _ => kb.binary(op, pick(a), 3),
                }
                .map(|v| vec![v])
            }
            Step::Cmp(a, b) if b % 2 == 0 => kb.lt(pick(a), pick(b)).map(|v| vec![v]),
            Step::Cmp(a, _) => kb.lt(pick(a), 5).map(|v| vec![v]),
            Step::Where(c, a, b) if b % 2 == 0 => {
                kb.where_(pick(c), pick(a), pick(b)).map(|v| vec![v])
            }
            Step::Where(c, a, _) => kb.where_(pick(c), pick(a), pick(a)).map(|v| vec![v]),
            Step::Cast(a, d) => kb
                .cast(pick(a), dtypes[d as usize % dtypes.len()])
                .map(|v| vec![v]),
            Step::Math(o, a) => kb
                .math(MathOp::ALL[o as usize % MathOp::ALL.len()], pick(a))
                .map(|v| vec![v]),
            Step::ExpandDims(a, ax) => kb.expand_dims(pick(a), ax).map(|v| vec![v]),
            Step::Broadcast(a, l) => kb
                .broadcast_to(pick(a), &layouts[l % layouts.len()])
                .map(|v| vec![v]),
            Step::Permute(a) => {
                let rank = kb.shape(pick(a)).unwrap().len();
                let perm: Vec<usize> = (0..rank).rev().collect();
                kb.permute(pick(a), &perm).map(|v| vec![v])
            }
            Step::Reshape(a, k) => {
                let n: u64 = kb.shape(pick(a)).unwrap().iter().product();
                let lo = 1u64 << (k as u32 % (n.max(1).trailing_zeros() + 1));
                kb.reshape(pick(a), &[lo, n / lo]).map(|v| vec![v])
            }
            Step::Split(a) => kb.split(pick(a)).map(|(x, y)| vec![x, y]),
            // One of the three pointer parameters plus any value (offsets when it is an integer).
            Step::PtrAdd(p, o) => kb.add(vals[p], pick(o)).map(|v| vec![v]),
            Step::Join(a, b) if b % 2 == 0 => kb.join(pick(a), pick(b)).map(|v| vec![v]),
            Step::Join(a, _) => kb.join(pick(a), pick(a)).map(|v| vec![v]),
            Step::Load(p, m) => kb.load(pick(p), m.map(pick), None).map(|v| vec![v]),
            Step::Store(p, v, m) if v % 2 == 0 => {
                kb.store(pick(p), pick(v), m.map(pick)).map(|_| vec![])
            }
            Step::Store(p, _, m) => kb.store(pick(p), 1, m.map(pick)).map(|_| vec![]),
            Step::Atomic(o, p, v) => {
                let ops = [
                    AtomicOp::Add,
                    AtomicOp::Min,
                    AtomicOp::Max,
                    AtomicOp::And,
                    AtomicOp::Xchg,
                ];
                let op = ops[o as usize % ops.len()];
                if v % 2 == 0 {
                    kb.atomic_rmw(op, pick(p), pick(v), None)
                } else {
                    kb.atomic_rmw(op, pick(p), 1, None)
                }
                .map(|v| vec![v])
            }
        };
        match r {
            Ok(v) => {
                if std::env::var_os("WEFT_STATS").is_some() {
                    eprintln!("ok {s:?}");
                }
                vals.extend(v)
            }
            Err(CodegenError::Llvm { stage, message }) => {
                panic!("LLVM failed ({stage}): {message} after {s:?}")
            }
            Err(_) => {}
        }
    }
    let k = kb
        .finish()
        .expect("a kernel whose ops all succeeded or failed cleanly finishes");
    emit_and_check(&k, t, "random program");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 32, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/codegen_ops.txt"))), ..proptest::prelude::ProptestConfig::default() })]
    #[test]
    fn random_programs_never_panic_and_assemble(steps in proptest::collection::vec(step(), 1..60)) {
        for t in [Target::SM90, Target::GFX942] {
            if t.vendor() == weft::codegen::Vendor::Amd && !cfg!(feature = "amdgpu") {
                continue;
            }
            run_program(t, &steps);
        }
    }
}

// ----- layouts from weft's encodings ------------------------------------------------------------

/// The Gluon flow with weft's own encodings: `arange` in the two slices of a blocked layout,
/// `expand_dims`, `broadcast_to` the blocked layout, a vectorised 2-D copy; and the stand-in
/// Linear layouts from encodings drive the builder, and the shape-free encodings themselves give
/// the same kernel: `arange` in a `Slice`, `expand_dims` back into the parent, and `[16, 1] op
/// [1, 64]` broadcast to the parent implicitly.
#[test]
fn encodings_drive_the_builder() {
    for t in all_targets() {
        let tpw = t.warp_size();
        let parent = Blocked::new(&[1, 4], &[tpw / 16, 16], &[4, 1], &[1, 0]);
        let enc = Encoding::Blocked(parent.clone());
        let l2 = enc.to_linear_layout(&[16, 64]).unwrap();
        let rows_l = Slice::new(1, enc.clone()).to_linear_layout(&[16]).unwrap();
        let cols_l = Slice::new(0, enc.clone()).to_linear_layout(&[64]).unwrap();
        let ptx = check(t, "enc", 4, |kb| {
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let y = kb.arg_ptr("y", DType::F32, 16)?;
            let rows = kb.arange(0, 16, &rows_l)?;
            let cols = kb.arange(0, 64, &cols_l)?;
            let r = kb.expand_dims(rows, 1)?;
            let r = kb.broadcast_to(r, &l2)?;
            let c = kb.expand_dims(cols, 0)?;
            let c = kb.broadcast_to(c, &l2)?;
            let off = kb.mul(r, 64)?;
            let off = kb.add(off, c)?;
            let px = kb.add(x, off)?;
            let v = kb.load(px, None, None)?;
            let py = kb.add(y, off)?;
            kb.store(py, v, None)
        });
        let shape_free = check(t, "enc", 4, |kb| {
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let y = kb.arg_ptr("y", DType::F32, 16)?;
            let rows = kb.arange(0, 16, Slice::new(1, enc.clone()))?;
            let cols = kb.arange(0, 64, Slice::new(0, enc.clone()))?;
            let r = kb.expand_dims(rows, 1)?;
            let c = kb.expand_dims(cols, 0)?;
            let off = kb.mul(r, 64)?;
            let off = kb.add(off, c)?;
            let px = kb.add(x, off)?;
            let v = kb.load(px, None, None)?;
            let py = kb.add(y, off)?;
            kb.store(py, v, None)
        });
        assert_eq!(ptx, shape_free, "{t}");
        if t.vendor() == weft::codegen::Vendor::Nvidia {
            assert!(
                ptx.contains("ld.global.v4") && ptx.contains("st.global.v4"),
                "{t}: {ptx}"
            );
        } else {
            assert!(
                ptx.contains("global_load_dwordx4") && ptx.contains("global_store_dwordx4"),
                "{t}"
            );
        }
    }
}

#[test]
fn a_register_limit_reaches_ptxas_and_is_checked() {
    let ctx = Context::new();
    let c = weft::codegen::kernels::LayernormConfig {
        max_registers: Some(64),
        ..weft::codegen::kernels::LayernormConfig::for_n(16384, 1, 4, 16)
    };
    let k = weft::codegen::kernels::layernorm_kernel(&ctx, Target::SM90, c).unwrap();
    let ptx = k.ptx().unwrap();
    assert!(ptx.contains(".maxnreg 64"), "{ptx}");
    common::assemble(&ptx, "sm_90", "layernorm at 64 registers");
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    assert!(matches!(
        (kb.limit_registers(16)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    assert!(matches!(
        (kb.limit_registers(256)).as_ref().map_err(|e| e.cause()),
        Err(CodegenError::InvalidArgument { .. })
    ));
    kb.limit_registers(128).unwrap();
    // After roles, the budgets were made from the launch's count.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k2", 12).unwrap();
    kb.warp_roles(&[
        weft::codegen::WarpRole::new(4),
        weft::codegen::WarpRole::new(8),
    ])
    .unwrap();
    assert!(kb.limit_registers(128).is_err());
}

/// A program whose bf16 → f32 cast (widened in pairs through `insertelement`) is never used:
/// the built kernel erases the dead pair as the replayed one does (found by the random
/// programs above; before, `insertelement` was not among the erased pure instructions and the
/// debug replay check failed).
#[test]
fn an_unused_bf16_widening_leaves_nothing_behind() {
    use Step::*;
    let steps = [
        PtrAdd(0, 19),
        PtrAdd(0, 58),
        Broadcast(0, 0),
        PtrAdd(0, 31),
        ExpandDims(54, 0),
        Arange(0),
        Join(9, 47),
        Permute(19),
        ExpandDims(8, 0),
        Cast(49, 116),
        Atomic(29, 18, 47),
        Cast(18, 0),
        Load(32, None),
        Bin(0, 47, 60),
    ];
    run_program(Target::SM90, &steps);
}
