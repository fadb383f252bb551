//! Lowering is a pass over the recorded program: each builder method checks its operands,
//! makes its results (types, layouts, facts; no registers) and records its op; `finish` runs
//! the verifier and then lowers the program in one walk over its regions, in program order
//! ([`lower::program_control`](crate::codegen::lower::program_control)): a loop's, branch's or
//! role's body with its op, a combine function at every combination. Errors name the op's
//! recorded line.
//!
//! State a lowering needs that the builder keeps is decided when the op is recorded and handed
//! to the lowering context: where the allocator put a buffer and whether reusing its bytes owes
//! a barrier first, an op's scratch, a wgmma's plan, a warp role's plan. An op weft calls
//! itself while checking another is kept as a part of it (`record_composite`), or, a constant,
//! made at once (an LLVM constant needs no position).

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Op, OpKind};
use crate::codegen::lower::program_control::{lower_body, lower_op_in};

impl<'ctx> KernelBuilder<'ctx> {
    /// Lowers the recorded program, in one walk over its regions.
    pub(crate) fn lower_program(&mut self) -> Result<()> {
        lower_body(&mut self.lx, &self.rec.prog, self.rec.body_op)
    }

    /// Notes that the op being recorded reads values (or otherwise needs the kernel's body):
    /// the LLVM function is made just before the first such op is lowered, after the ops
    /// before it (a program id, a constant) that need none. Refused on a kernel an earlier
    /// error in a loop or branch body left incomplete.
    pub(crate) fn start_body(&mut self) -> Result<()> {
        self.lx.usable()?;
        self.rec.wants_body = true;
        Ok(())
    }

    /// Lowers `op`, a constant weft made itself while checking another op (so not recorded),
    /// at once. Any other op made that way would be emitted out of program order: refused.
    pub(crate) fn lower_unrecorded(&mut self, op: Op) -> Result<()> {
        if !matches!(op.kind, OpKind::Const) {
            let inside = match self.rec.holding() {
                true => "a combine function",
                false => "another op",
            };
            return Err(CodegenError::arg(
                "record",
                format!(
                    "{:?}, made by weft inside {inside}, is not part of the program",
                    op.kind
                ),
            ));
        }
        lower_op_in(&mut self.lx, &self.rec.prog, &op)
    }
}

#[cfg(test)]
mod tests {
    use crate::codegen::builder::{Context, KernelBuilder};
    use crate::codegen::error::CodegenError;
    use crate::codegen::ir::attrs::ReduceOp;
    use crate::codegen::ir::{Arg, OpKind};
    use crate::codegen::lower::values::Value;
    use crate::codegen::target::Target;
    use crate::codegen::types::{DType, Type};
    use crate::layout::encoding::{Blocked, Slice};

    fn regs(kb: &KernelBuilder<'_>, v: Value) -> usize {
        kb.lx.values.peek("test", v).unwrap().regs.len()
    }

    #[test]
    fn nothing_is_lowered_until_finish() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let out = kb.arg_ptr("out", DType::I32, 16).unwrap();
        let pid = kb.program_id(0).unwrap();
        let offs = kb
            .arange(0, 256, Blocked::new(&[2], &[32], &[4], &[0]))
            .unwrap();
        let e = kb.expand_dims(offs, 1).unwrap();
        let j = kb.join(e, e).unwrap();
        let (a, b) = kb.split(j).unwrap();
        let sum = kb.add(a, b).unwrap();
        let ptrs = kb.add(out, a).unwrap();
        kb.store(ptrs, sum, None).unwrap();
        // Every op is recorded with its type and shape, and nothing is emitted: no function,
        // no register.
        assert!(kb.lx.em.func.is_none());
        for v in [pid, offs, e, j, a, b, sum, ptrs] {
            assert_eq!(regs(&kb, v), 0);
        }
        assert_eq!(kb.ty(pid).unwrap(), Type::Scalar(DType::I32));
        assert_eq!(kb.shape(offs).unwrap(), vec![256]);
        assert_eq!(kb.program().region(kb.program().body).ops.len(), 8);
        let ir = kb.finish().unwrap().llvm_ir();
        // The sum of the two halves: one add per register, each stored.
        assert_eq!(ir.matches(" = add ").count(), 2, "{ir}");
        assert_eq!(ir.matches("store i32 %").count(), 2, "{ir}");
    }

    #[test]
    fn an_empty_loop_over_literal_bounds_can_open_the_kernel() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        kb.for_each(0, 4, 1, |_, _| Ok(())).unwrap();
        let ir = kb.finish().unwrap().llvm_ir();
        assert!(ir.contains("loop.body"), "{ir}");
    }

    #[test]
    fn a_parameter_after_a_recorded_op_is_still_refused() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        kb.num_programs(1).unwrap();
        let e = kb.arg_i32("n", 1).unwrap_err();
        assert!(
            e.to_string().contains("before the first op of the body"),
            "{e}"
        );
    }

    #[test]
    fn a_lowering_error_surfaces_in_finish_at_the_recorded_line() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        // A constant whose literal cannot be an i32: the check is skipped here on purpose, so
        // only lowering can refuse it.
        let line = line!() + 1;
        let v = kb.record_checked(OpKind::Const, vec![Arg::Float(0.5)], |kb| {
            Ok(kb.lx.values.new_value(
                Type::Scalar(DType::I32),
                vec![],
                None,
                vec![],
                crate::codegen::analysis::axis_info::AxisInfo::scalar(1),
            ))
        });
        assert!(v.is_ok());
        // Recording goes on; the lowering in `finish` refuses the constant.
        kb.program_id(0).unwrap();
        let e = kb.finish().unwrap_err();
        match &e {
            CodegenError::At { loc, .. } => {
                assert_eq!(loc.line, line, "{e}");
                assert!(loc.file.ends_with("deferred.rs"), "{e}");
            }
            other => panic!("no location: {other}"),
        }
        assert!(e.cause().to_string().contains("Float(0.5)"), "{e}");
    }

    #[test]
    fn a_label_names_the_op_after_it() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let offs = kb
            .arange(0, 512, Blocked::new(&[4], &[32], &[4], &[0]))
            .unwrap();
        let p = kb.add(x, offs).unwrap();
        let first = kb.load(p, None, None).unwrap();
        kb.label("second load");
        let second = kb.load(p, None, None).unwrap();
        let sum = kb.add(first, second).unwrap();
        kb.store(p, sum, None).unwrap();
        let rep = kb.finish().unwrap().report();
        let loads: Vec<&str> = rep
            .rows
            .iter()
            .filter(|r| r.op == "load")
            .map(|r| r.source.as_str())
            .collect();
        assert_eq!(loads.len(), 2, "{loads:?}");
        assert!(loads[0].contains("deferred.rs"), "{loads:?}");
        assert_eq!(loads[1], "second load");
        // The first load moves 4-element vectors: the pointers' facts came through the
        // recorded ops (the parameter's 16-byte alignment, the arange's runs of 4).
        let g = rep
            .rows
            .iter()
            .find(|r| r.op == "load")
            .unwrap()
            .global
            .as_ref()
            .unwrap();
        assert_eq!(g.vector, 4, "{g:?}");
    }

    #[test]
    fn a_constant_barrier_index_is_checked_when_recorded_and_lowered_in_order() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let bars = kb.alloc_mbarriers(2, 1).unwrap();
        let line = line!() + 1;
        let e = kb.mbarrier_at(bars, 2).unwrap_err();
        assert!(
            e.cause().to_string().contains("index 2 of an array of 2"),
            "{e}"
        );
        assert!(
            matches!(&e, CodegenError::At { loc, .. } if loc.line == line),
            "{e}"
        );
        // A folded constant index is checked too; a run-time one is not.
        let one = kb.i32(1).unwrap();
        let three = kb.add(one, 2).unwrap();
        assert!(kb.mbarrier_at(bars, three).is_err());
        let pid = kb.program_id(0).unwrap();
        let b = kb.mbarrier_at(bars, pid).unwrap();
        kb.mbarrier_arrive(b).unwrap();
        let ir = kb.finish().unwrap().llvm_ir();
        assert!(ir.contains("mbarrier.arrive"), "{ir}");
    }

    /// Calls to the CTA barrier in the module so far.
    fn barriers(kb: &KernelBuilder<'_>) -> usize {
        let ir = kb.lx.em.module.print_to_string().to_string();
        ir.matches("call void @llvm.nvvm.barrier").count()
    }

    /// A 64 × 64 `f32` tile loaded in one blocked layout, and the transposed blocked layout a
    /// conversion to which goes through shared memory.
    fn tile_to_transpose(kb: &mut KernelBuilder<'_>) -> (Value, Blocked) {
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let rows = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        let cols = Blocked::new(&[4, 1], &[8, 4], &[1, 4], &[0, 1]);
        let r = kb
            .arange(0, 64, Slice::new(1, rows.clone().into()))
            .unwrap();
        let c = kb
            .arange(0, 64, Slice::new(0, rows.clone().into()))
            .unwrap();
        let r = kb.expand_dims(r, 1).unwrap();
        let r = kb.mul(r, 64).unwrap();
        let c = kb.expand_dims(c, 0).unwrap();
        let offs = kb.add(r, c).unwrap();
        let p = kb.add(x, offs).unwrap();
        (kb.load(p, None, None).unwrap(), cols)
    }

    #[test]
    fn a_conversion_emits_its_round_trip_only_when_its_record_is_lowered() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let (v, cols) = tile_to_transpose(&mut kb);
        let c = kb.convert_layout(v, cols).unwrap();
        let s = kb.reduce(c, 0, ReduceOp::Sum).unwrap();
        // Recorded with its layout and its scratch placed, nothing emitted.
        assert_eq!(regs(&kb, c), 0);
        assert_eq!(regs(&kb, s), 0);
        assert_eq!(barriers(&kb), 0);
        assert!(kb.smem.total() > 0);
        let k = kb.finish().unwrap();
        // Lowered: the barrier between the scratch's store and load.
        assert!(
            k.llvm_ir().contains("call void @llvm.nvvm.barrier"),
            "{}",
            k.llvm_ir()
        );
        let rep = k.report();
        let conv = rep.rows.iter().find(|r| r.op == "convert_layout").unwrap();
        assert!(conv.source.contains("deferred.rs"), "{conv:?}");
        assert_eq!(conv.barriers, 1, "{conv:?}");
        assert!(conv.scratch_bytes > 0, "{conv:?}");
        // The reduction's row names this file too, not weft's reduce.
        let red = rep.rows.iter().find(|r| r.op == "reduce").unwrap();
        assert!(red.source.contains("deferred.rs"), "{red:?}");
    }

    #[test]
    fn a_conversion_lowering_error_names_its_recorded_line() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let (v, cols) = tile_to_transpose(&mut kb);
        let line = line!() + 1;
        let c = kb.convert_layout(v, cols).unwrap();
        // Drop what the checks decided, so that only lowering can fail.
        let id = crate::codegen::ir::ValueId(c.index);
        assert!(kb.lx.staged.converts.take_value("test", id).is_ok());
        kb.reduce(c, 0, ReduceOp::Sum).unwrap();
        let e = kb.finish().unwrap_err();
        match &e {
            CodegenError::At { loc, .. } => {
                assert_eq!(loc.line, line, "{e}");
                assert!(loc.file.ends_with("deferred.rs"), "{e}");
            }
            other => panic!("no location: {other}"),
        }
        assert!(e.cause().to_string().contains("no lowering plan"), "{e}");
    }

    /// The LLVM IR built so far.
    fn ir_now(kb: &KernelBuilder<'_>) -> String {
        kb.lx.em.module.print_to_string().to_string()
    }

    #[test]
    fn shared_memory_ops_emit_nothing_until_their_record_is_lowered() {
        use crate::layout::encoding::SwizzledShared;
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let l = Blocked::new(&[1], &[32], &[4], &[0]);
        let offs = kb.arange(0, 128, l.clone()).unwrap();
        let p = kb.add(x, offs).unwrap();
        let t = kb.load(p, None, None).unwrap();
        let ring = kb
            .alloc_shared_buffers(DType::F32, 2, &[128], SwizzledShared::new(1, 1, 1, &[0]))
            .unwrap();
        let buf = kb.index_shared(ring, 1).unwrap();
        kb.store_shared(buf, t).unwrap();
        kb.barrier().unwrap();
        let back = kb.load_shared(buf, l).unwrap();
        kb.store(p, back, None).unwrap();
        // The view is recorded with its type; its run-time offset, the store, the barrier and
        // the load wait for the lowering: nothing touches shared memory yet.
        assert_eq!(regs(&kb, buf), 0);
        assert_eq!(regs(&kb, back), 0);
        assert_eq!(kb.shape(buf).unwrap(), vec![128]);
        let now = ir_now(&kb);
        assert!(
            !now.contains("addrspace(3)") && !now.contains("barrier"),
            "{now}"
        );
        let ir = kb.finish().unwrap().llvm_ir();
        assert!(ir.contains("barrier"), "{ir}");
        // Buffer 1 of the ring starts 512 bytes in; one register per thread each way.
        assert!(ir.contains("512"), "{ir}");
        assert_eq!(ir.matches("store float").count(), 2, "{ir}");
        assert_eq!(ir.matches("load float").count(), 2, "{ir}");
    }

    #[test]
    fn a_shared_memory_lowering_error_names_the_recorded_line() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        // An mbarrier array the allocator never placed: the method's checks are skipped on
        // purpose, so only lowering can refuse it.
        let line = line!() + 1;
        let bars = kb.record_checked(
            OpKind::AllocMbarriers {
                count: 1,
                arrivals: 1,
            },
            vec![],
            |kb| {
                Ok(kb.lx.values.new_value(
                    Type::Scalar(DType::I64),
                    vec![1],
                    None,
                    vec![],
                    crate::codegen::analysis::axis_info::AxisInfo::scalar(1),
                ))
            },
        );
        assert!(bars.is_ok());
        kb.barrier().unwrap();
        assert!(!ir_now(&kb).contains("mbarrier"));
        let e = kb.finish().unwrap_err();
        match &e {
            CodegenError::At { loc, .. } => {
                assert_eq!(loc.line, line, "{e}");
                assert!(loc.file.ends_with("deferred.rs"), "{e}");
            }
            other => panic!("no location: {other}"),
        }
        assert!(e.cause().to_string().contains("not placed"), "{e}");
    }

    #[test]
    fn a_combine_function_runs_once_and_an_op_it_cannot_lower_again_names_its_line() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let offs = kb
            .arange(0, 512, Blocked::new(&[4], &[32], &[4], &[0]))
            .unwrap();
        let mut runs = 0;
        let m = kb
            .reduce_with(offs, 0, |kb, a, b| {
                runs += 1;
                // A literal becomes a constant weft makes itself, lowered at once.
                let a2 = kb.add(a, 0)?;
                kb.max(a2, b)
            })
            .unwrap();
        // Recorded (the closure ran once, into the op's region), nothing emitted yet.
        assert_eq!(runs, 1);
        assert_eq!(regs(&kb, m), 0);
        let line = line!() + 2;
        kb.reduce_with(offs, 0, |kb, a, b| {
            let (row, _) = kb.grouped_tile(a, b, b, 2)?;
            Ok(row)
        })
        .unwrap();
        let e = kb.finish().unwrap_err();
        assert_eq!(e.loc().map(|l| l.line), Some(line), "{e}");
        assert!(e.to_string().contains("combine function"), "{e}");
    }

    #[test]
    fn a_branch_on_a_combined_value_is_refused_before_it_reads_a_register() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let offs = kb
            .arange(0, 512, Blocked::new(&[4], &[32], &[4], &[0]))
            .unwrap();
        let e = kb
            .reduce_with(offs, 0, |kb, a, b| {
                let c = kb.lt(a, b)?;
                kb.if_then(c, |_| Ok(()))?;
                kb.max(a, b)
            })
            .unwrap_err();
        assert!(e.to_string().contains("combine function"), "{e}");
        assert!(e.to_string().contains("IfThen"), "{e}");
    }
}
