//! NVIDIA lowering: PTX special registers, `ptx_kernel` with `.reqntid`, `.approx` math, and
//! global accesses that are predicated or cache-hinted through inline PTX
//! ([`inline_ptx`]).

pub(crate) mod cluster;
pub(crate) mod cp_async;
pub(crate) mod inline_ptx;
pub(crate) mod ldmatrix;
pub(crate) mod mbarrier;
pub(crate) mod mma;
pub(crate) mod roles;
pub(crate) mod tma;
pub(crate) mod wgmma;

use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::OptimizationLevel;

use self::inline_ptx::{vec_suffix, vector, InlinePtx, RegClass};
use super::{FastFn, FastIntrinsic, GlobalAccess, Lowering};
use crate::codegen::error::Result;
use crate::codegen::ir::attrs::CacheHint;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::vec_of;
use crate::codegen::lower::emitter::Emitter;
use crate::codegen::lower::OptLevel;
use crate::codegen::types::DType;

/// The NVPTX back end.
pub(crate) struct Nvptx;

/// The bits a CTA index or count along grid `axis` may set on NVIDIA: grids are at most
/// 2³¹ − 1 CTAs along x and 65535 along y and z (the ranges LLVM declares on the intrinsics).
fn grid_bits(axis: u32) -> u64 {
    if axis == 0 {
        0x7fff_ffff
    } else {
        0xffff
    }
}

impl Lowering for Nvptx {
    fn triple(&self) -> &'static str {
        "nvptx64-nvidia-cuda"
    }

    fn llvm_features(&self) -> &'static str {
        "+ptx80"
    }

    fn kernel_calling_convention(&self) -> u32 {
        71
    }

    fn block_size_attribute(&self, threads: u32) -> (&'static str, String) {
        // `.reqntid`: the launcher checks the block size against the signature, so the code
        // may rely on it (and ptxas may allocate registers for exactly this many threads).
        ("nvvm.reqntid", threads.to_string())
    }

    fn thread_index_sreg(&self) -> &'static str {
        "llvm.nvvm.read.ptx.sreg.tid.x"
    }

    fn program_id<'ctx>(
        &self,
        lx: &mut LowerCtx<'ctx>,
        axis: u32,
        name: &str,
    ) -> Result<IntValue<'ctx>> {
        let v = lx.sreg(&format!("llvm.nvvm.read.ptx.sreg.ctaid.{name}"))?;
        lx.note_bits(v, grid_bits(axis), None);
        Ok(v)
    }

    fn num_programs<'ctx>(
        &self,
        lx: &mut LowerCtx<'ctx>,
        axis: u32,
        name: &str,
    ) -> Result<IntValue<'ctx>> {
        let v = lx.sreg(&format!("llvm.nvvm.read.ptx.sreg.nctaid.{name}"))?;
        lx.note_bits(v, grid_bits(axis), None);
        Ok(v)
    }

    fn device_sync_scope(&self) -> &'static str {
        "device"
    }

    fn fences_read_modify_write(&self) -> bool {
        true
    }

    fn predicates_access(&self, elem: DType, vec: usize) -> bool {
        // One basic block instead of two per vector keeps instruction selection (a SelectionDAG
        // per block) cheap, and it is the code Triton emits. Single bytes have no PTX register
        // class of their own.
        (elem.mem_bytes() as usize * vec).is_multiple_of(2)
    }

    fn global_access<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        a: &GlobalAccess<'ctx, '_>,
    ) -> Option<Result<Vec<BasicValueEnum<'ctx>>>> {
        if a.hint == CacheHint::Default && a.pred.is_none() {
            return None;
        }
        Some(ptx_access(em, a))
    }

    fn fast_math(&self, f: FastFn, is64: bool, ftz: bool) -> Option<FastIntrinsic> {
        if ftz && !is64 {
            return Some(FastIntrinsic::Fixed(match f {
                FastFn::Rsqrt => "llvm.nvvm.rsqrt.approx.ftz.f",
                FastFn::Sin => "llvm.nvvm.sin.approx.ftz.f",
                FastFn::Cos => "llvm.nvvm.cos.approx.ftz.f",
                FastFn::Exp2 => return Some(FastIntrinsic::Overloaded("llvm.nvvm.ex2.approx.ftz")),
                FastFn::Log2 => "llvm.nvvm.lg2.approx.ftz.f",
            }));
        }
        Some(match f {
            FastFn::Rsqrt if is64 => FastIntrinsic::Fixed("llvm.nvvm.rsqrt.approx.d"),
            FastFn::Rsqrt => FastIntrinsic::Fixed("llvm.nvvm.rsqrt.approx.f"),
            FastFn::Sin => FastIntrinsic::Fixed("llvm.nvvm.sin.approx.f"),
            FastFn::Cos => FastIntrinsic::Fixed("llvm.nvvm.cos.approx.f"),
            FastFn::Exp2 => FastIntrinsic::Overloaded("llvm.nvvm.ex2.approx"),
            FastFn::Log2 => FastIntrinsic::Fixed("llvm.nvvm.lg2.approx.f"),
        })
    }

    fn fast_div_f32(&self) -> Option<&'static str> {
        Some("llvm.nvvm.div.full")
    }

    fn lacks_bf16_rem(&self) -> bool {
        false
    }

    fn narrows_f32_pairs(&self, target: crate::codegen::target::Target) -> bool {
        target.sm().is_some_and(|sm| sm >= 80)
    }

    fn has_named_barriers(&self) -> bool {
        true
    }

    fn codegen_level(&self, opt: OptLevel) -> OptimizationLevel {
        match opt {
            OptLevel::None | OptLevel::Fast => OptimizationLevel::None,
            OptLevel::O3 => OptimizationLevel::Default,
        }
    }

    fn straight_line_without_o3(&self) -> bool {
        true
    }

    fn barrier(&self, em: &Emitter<'_>) -> Result<()> {
        // LLVM 21 renamed `llvm.nvvm.barrier0`; both lower to `bar.sync 0`.
        let i32t = em.ctx.i32_type();
        if let Ok(f) = em.intrinsic("llvm.nvvm.barrier.cta.sync.aligned.all", &[]) {
            em.b.build_call(f, &[i32t.const_zero().into()], "")?;
        } else {
            let f = em.intrinsic("llvm.nvvm.barrier0", &[])?;
            em.b.build_call(f, &[], "")?;
        }
        Ok(())
    }

    fn shuffle_idx<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        src: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        shfl(em, "llvm.nvvm.shfl.sync.idx.i32", val, src)
    }

    fn shuffle_up<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        delta: u32,
        _lane: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        // `c = 0`: no segments, lanes below `delta` keep their own value.
        let i32t = em.ctx.i32_type();
        let f = em.intrinsic("llvm.nvvm.shfl.sync.up.i32", &[])?;
        let d = i32t.const_int(delta as u64, false);
        Ok(em
            .call1(
                f,
                &[
                    i32t.const_all_ones().into(),
                    val.into(),
                    d.into(),
                    i32t.const_zero().into(),
                ],
            )?
            .into_int_value())
    }

    fn shuffle_xor<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        mask: u32,
        _lane: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let m = em.ctx.i32_type().const_int(mask as u64, false);
        shfl(em, "llvm.nvvm.shfl.sync.bfly.i32", val, m)
    }
}

/// The PTX cache qualifier of a hint.
fn cache_qualifier(hint: CacheHint) -> &'static str {
    match hint {
        CacheHint::Default => "",
        CacheHint::Global => ".cg",
        CacheHint::Streaming => ".cs",
    }
}

/// A cache-hinted or predicated access through inline PTX (`@p ld.global.cg.v4.b32 …`): the
/// elements are moved as 16-, 32- or 64-bit words. A predicated load first zeroes its
/// registers, so it yields zeros where `pred` is false (Triton's masked load).
fn ptx_access<'ctx>(
    em: &Emitter<'ctx>,
    a: &GlobalAccess<'ctx, '_>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let (ctx, b) = (em.ctx, &em.b);
    let (elem, vec) = (a.elem, a.vec);
    let bytes = elem.mem_bytes() as usize * vec;
    let word = if elem.mem_bytes() == 8 {
        8
    } else if bytes.is_multiple_of(4) {
        4
    } else if bytes.is_multiple_of(2) {
        2
    } else {
        // Single bytes have no PTX register class of their own: use the plain access.
        debug_assert!(a.pred.is_none(), "single bytes are never predicated");
        return plain_byte_access(em, a);
    };
    let words = bytes / word;
    let class = RegClass::of_bytes(word).expect("2, 4 or 8 bytes");
    let wty = class.llvm(ctx);
    let (suffix, vsuf, hint) = (
        class.bits_suffix(),
        vec_suffix(words),
        cache_qualifier(a.hint),
    );
    let mem = elem.llvm_mem(ctx);
    let as_vec = |n: usize| -> BasicTypeEnum {
        if n == 1 {
            mem
        } else {
            vec_of(mem, n as u32)
        }
    };
    let mut asm = InlinePtx::new();
    match a.store {
        None => {
            let regs = asm.outputs(class, words);
            let addr = asm.input(RegClass::B64, a.ptr.into());
            let pred = a.pred.map(|p| asm.predicate(p));
            if pred.is_some() {
                for r in &regs {
                    asm.inst(format!("mov.{suffix} {r}, 0;"));
                }
            }
            let regs = vector(&regs);
            asm.guarded(
                pred,
                format!("ld.global{hint}{vsuf}.{suffix} {regs}, [{addr}];"),
            );
            let ws = asm.call(em)?;
            // Reassemble the words into elements.
            let per = vec / words.min(vec).max(1);
            let mut out = Vec::with_capacity(vec);
            for w in ws {
                let v = b.build_bit_cast(w, as_vec(per.max(1)), "")?;
                if per <= 1 {
                    out.push(v);
                } else {
                    for i in 0..per {
                        out.push(b.build_extract_element(
                            v.into_vector_value(),
                            ctx.i32_type().const_int(i as u64, false),
                            "",
                        )?);
                    }
                }
            }
            Ok(out)
        }
        Some(vals) => {
            let per = vec / words;
            let addr = asm.input(RegClass::B64, a.ptr.into());
            let mut regs = Vec::with_capacity(words);
            for w in 0..words {
                let part = em.pack(&vals[w * per..(w + 1) * per], mem)?;
                regs.push(asm.input(class, b.build_bit_cast(part, wty, "")?.into()));
            }
            let pred = a.pred.map(|p| asm.predicate(p));
            let regs = vector(&regs);
            asm.guarded(
                pred,
                format!("st.global{hint}{vsuf}.{suffix} [{addr}], {regs};"),
            );
            asm.call(em)?;
            Ok(vec![])
        }
    }
}

/// A one-byte access, as a plain load or store.
fn plain_byte_access<'ctx>(
    em: &Emitter<'ctx>,
    a: &GlobalAccess<'ctx, '_>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let mem = a.elem.llvm_mem(em.ctx);
    match a.store {
        None => Ok(vec![em.b.build_load(mem, a.ptr, "")?]),
        Some(v) => {
            em.b.build_store(a.ptr, v[0])?;
            Ok(vec![])
        }
    }
}

/// `shfl.sync.{idx,bfly}.b32` over the whole warp: `val` of the lane `b` selects.
fn shfl<'ctx>(
    em: &Emitter<'ctx>,
    name: &str,
    val: IntValue<'ctx>,
    b: IntValue<'ctx>,
) -> Result<IntValue<'ctx>> {
    let i32t = em.ctx.i32_type();
    let f = em.intrinsic(name, &[])?;
    let all = i32t.const_all_ones();
    let clamp = i32t.const_int(0x1f, false);
    Ok(em
        .call1(f, &[all.into(), val.into(), b.into(), clamp.into()])?
        .into_int_value())
}
