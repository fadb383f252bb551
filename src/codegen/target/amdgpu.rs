//! AMD lowering: `llvm.amdgcn.*` work-item and work-group ids, the HSA dispatch packet for grid
//! sizes, `amdgpu_kernel` with `amdgpu-flat-work-group-size`, LLVM's own math intrinsics, and
//! masked accesses as branches around plain LLVM loads and stores.

use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::OptimizationLevel;

use super::{FastFn, FastIntrinsic, GlobalAccess, Lowering};
use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::Emitter;
use crate::codegen::lower::OptLevel;
use crate::codegen::types::DType;

/// The AMDGPU back end.
pub(crate) struct Amdgpu;

impl Lowering for Amdgpu {
    fn triple(&self) -> &'static str {
        "amdgcn-amd-amdhsa"
    }

    fn llvm_features(&self) -> &'static str {
        ""
    }

    fn kernel_calling_convention(&self) -> u32 {
        91
    }

    fn block_size_attribute(&self, threads: u32) -> (&'static str, String) {
        (
            "amdgpu-flat-work-group-size",
            format!("{threads},{threads}"),
        )
    }

    fn thread_index_sreg(&self) -> &'static str {
        "llvm.amdgcn.workitem.id.x"
    }

    fn program_id<'ctx>(
        &self,
        lx: &mut LowerCtx<'ctx>,
        _axis: u32,
        name: &str,
    ) -> Result<IntValue<'ctx>> {
        lx.sreg(&format!("llvm.amdgcn.workgroup.id.{name}"))
    }

    fn num_programs<'ctx>(
        &self,
        lx: &mut LowerCtx<'ctx>,
        axis: u32,
        _name: &str,
    ) -> Result<IntValue<'ctx>> {
        // HSA dispatch packet: workgroup_size_{x,y,z} are u16 at 4, 6, 8 and
        // grid_size_{x,y,z} (in work-items) u32 at 12, 16, 20.
        let f = lx.em.intrinsic("llvm.amdgcn.dispatch.ptr", &[])?;
        let ctx = lx.em.ctx;
        lx.in_prologue(|b| {
            let p = b
                .build_call(f, &[], "")?
                .try_as_basic_value()
                .basic()
                .expect("ptr")
                .into_pointer_value();
            let i8t = ctx.i8_type();
            // SAFETY: constant offsets inside the 64-byte dispatch packet.
            let (wg, grid) = unsafe {
                (
                    b.build_gep(
                        i8t,
                        p,
                        &[ctx.i64_type().const_int(4 + 2 * axis as u64, false)],
                        "",
                    )?,
                    b.build_gep(
                        i8t,
                        p,
                        &[ctx.i64_type().const_int(12 + 4 * axis as u64, false)],
                        "",
                    )?,
                )
            };
            let wg = b.build_load(ctx.i16_type(), wg, "")?.into_int_value();
            let wg = b.build_int_z_extend(wg, ctx.i32_type(), "")?;
            let grid = b.build_load(ctx.i32_type(), grid, "")?.into_int_value();
            Ok(b.build_int_unsigned_div(grid, wg, "nprog")?)
        })
    }

    fn device_sync_scope(&self) -> &'static str {
        "agent"
    }

    fn predicates_access(&self, _elem: DType, _vec: usize) -> bool {
        false
    }

    fn global_access<'ctx>(
        &self,
        _em: &Emitter<'ctx>,
        _a: &GlobalAccess<'ctx, '_>,
    ) -> Option<Result<Vec<BasicValueEnum<'ctx>>>> {
        None
    }

    fn fast_math(&self, _f: FastFn, _is64: bool, _ftz: bool) -> Option<FastIntrinsic> {
        None
    }

    fn fast_div_f32(&self) -> Option<&'static str> {
        None
    }

    fn lacks_bf16_rem(&self) -> bool {
        // LLVM's AMDGPU back end has no bf16 fmod and aborts on one; computing it in f32 does
        // not help, since InstCombine narrows it back to bf16.
        true
    }

    fn narrows_f32_pairs(&self, _target: crate::codegen::target::Target) -> bool {
        false
    }

    fn has_named_barriers(&self) -> bool {
        false
    }

    fn codegen_level(&self, opt: OptLevel) -> OptimizationLevel {
        match opt {
            OptLevel::None | OptLevel::Fast => OptimizationLevel::None,
            OptLevel::O3 => OptimizationLevel::Aggressive,
        }
    }

    fn straight_line_without_o3(&self) -> bool {
        false
    }

    fn barrier(&self, em: &Emitter<'_>) -> Result<()> {
        // Release what this wave wrote to LDS, wait for the workgroup, acquire the others'.
        let scope = em.sync_scope("workgroup");
        let fence =
            em.b.build_fence(inkwell::AtomicOrdering::Release, false, "")?;
        em.set_sync_scope(fence, scope);
        let f = em.intrinsic("llvm.amdgcn.s.barrier", &[])?;
        em.b.build_call(f, &[], "")?;
        let fence =
            em.b.build_fence(inkwell::AtomicOrdering::Acquire, false, "")?;
        em.set_sync_scope(fence, scope);
        Ok(())
    }

    fn shuffle_idx<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        src: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        // `ds_bpermute` addresses lanes in bytes.
        let addr =
            em.b.build_left_shift(src, em.ctx.i32_type().const_int(2, false), "")?;
        let f = em.intrinsic("llvm.amdgcn.ds.bpermute", &[])?;
        Ok(em.call1(f, &[addr.into(), val.into()])?.into_int_value())
    }

    fn shuffle_xor<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        mask: u32,
        lane: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let m = em.ctx.i32_type().const_int(mask as u64, false);
        let src = em.b.build_xor(lane, m, "")?;
        self.shuffle_idx(em, val, src)
    }
}
