//! Lowering of structured control flow: the blocks and phis of a `for_range`, its back edge,
//! the blocks and joins of an `if`, and an early return.

use inkwell::basic_block::BasicBlock;
use inkwell::types::IntType;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue, PhiValue};

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;

/// The blocks and phis of one loop.
pub(crate) struct LoopBlocks<'ctx> {
    /// The preheader (where loop-invariant work goes).
    pub pre: BasicBlock<'ctx>,
    /// The header, with the induction variable's and the carried values' phis.
    pub header: BasicBlock<'ctx>,
    /// Where the loop exits to.
    pub exit: BasicBlock<'ctx>,
    /// The induction variable.
    pub iv: PhiValue<'ctx>,
    /// One phi per register of each carried value.
    pub carried: Vec<Vec<PhiValue<'ctx>>>,
}

impl<'ctx> LowerCtx<'ctx> {
    /// Opens a loop of `int_ty` from `lo` while below `hi`, carrying `init` (each value's
    /// registers): the current block branches to a new preheader. Leaves the builder in the
    /// body.
    pub(crate) fn loop_open(
        &mut self,
        int_ty: IntType<'ctx>,
        lo: BasicValueEnum<'ctx>,
        hi: IntValue<'ctx>,
        init: &[&[BasicValueEnum<'ctx>]],
    ) -> Result<LoopBlocks<'ctx>> {
        let f = self.em.func();
        let pre = self.em.ctx.append_basic_block(f, "loop.pre");
        self.em.b.build_unconditional_branch(pre)?;
        let header = self.em.ctx.append_basic_block(f, "loop");
        let body_bb = self.em.ctx.append_basic_block(f, "loop.body");
        let exit = self.em.ctx.append_basic_block(f, "loop.exit");
        self.em.b.position_at_end(pre);
        self.em.b.build_unconditional_branch(header)?;
        self.em.b.position_at_end(header);
        let iv = self.em.b.build_phi(int_ty, "iv")?;
        iv.add_incoming(&[(&lo, pre)]);
        let mut carried: Vec<Vec<PhiValue>> = Vec::with_capacity(init.len());
        for regs in init {
            let mut ps = Vec::with_capacity(regs.len());
            for r in regs.iter() {
                let p = self.em.b.build_phi(r.get_type(), "")?;
                p.add_incoming(&[(r, pre)]);
                ps.push(p);
            }
            carried.push(ps);
        }
        let cond = self.em.b.build_int_compare(
            inkwell::IntPredicate::SLT,
            iv.as_basic_value().into_int_value(),
            hi,
            "",
        )?;
        self.em.b.build_conditional_branch(cond, body_bb, exit)?;
        self.em.b.position_at_end(body_bb);
        Ok(LoopBlocks {
            pre,
            header,
            exit,
            iv,
            carried,
        })
    }

    /// Closes the loop from the current block (the latch): the induction variable steps by
    /// `step`, the carried phis take `yielded` (each value's registers), and the latch branches
    /// back to the header.
    pub(crate) fn loop_close(
        &mut self,
        lp: &LoopBlocks<'ctx>,
        int_ty: IntType<'ctx>,
        step: u32,
        yielded: &[&[BasicValueEnum<'ctx>]],
    ) -> Result<()> {
        let latch = self.em.b.get_insert_block().expect("positioned");
        let next = self.em.b.build_int_add(
            lp.iv.as_basic_value().into_int_value(),
            int_ty.const_int(step as u64, false),
            "iv.next",
        )?;
        lp.iv.add_incoming(&[(&next, latch)]);
        for (ps, regs) in lp.carried.iter().zip(yielded) {
            for (p, r) in ps.iter().zip(regs.iter()) {
                p.add_incoming(&[(r as &dyn BasicValue, latch)]);
            }
        }
        self.em.b.build_unconditional_branch(lp.header)?;
        Ok(())
    }

    /// Branches on `cond` to new `then` and `else` blocks, which both end at a new `endif`
    /// block; returns the three.
    pub(crate) fn if_open(
        &mut self,
        cond: IntValue<'ctx>,
    ) -> Result<(BasicBlock<'ctx>, BasicBlock<'ctx>, BasicBlock<'ctx>)> {
        let f = self.em.func();
        let then_bb = self.em.ctx.append_basic_block(f, "then");
        let else_bb = self.em.ctx.append_basic_block(f, "else");
        let join = self.em.ctx.append_basic_block(f, "endif");
        self.em.b.build_conditional_branch(cond, then_bb, else_bb)?;
        Ok((then_bb, else_bb, join))
    }

    /// Ends the arm being built with a branch to `join`; returns the block it ended in.
    pub(crate) fn arm_close(&mut self, join: BasicBlock<'ctx>) -> Result<BasicBlock<'ctx>> {
        let end = self.em.b.get_insert_block().expect("positioned");
        self.em.b.build_unconditional_branch(join)?;
        Ok(end)
    }

    /// At the join of two arms: one phi per register, `a` from `a_end` and `b` from `b_end`.
    pub(crate) fn join_regs(
        &mut self,
        a: &[BasicValueEnum<'ctx>],
        a_end: BasicBlock<'ctx>,
        b: &[BasicValueEnum<'ctx>],
        b_end: BasicBlock<'ctx>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut regs = Vec::with_capacity(a.len());
        for (x, y) in a.iter().zip(b) {
            let p = self.em.b.build_phi(x.get_type(), "")?;
            p.add_incoming(&[(x, a_end), (y, b_end)]);
            regs.push(p.as_basic_value());
        }
        Ok(regs)
    }

    /// Leaves the kernel where `pred` holds (always without one); the code after it is built
    /// in a block that only the other way reaches (none without a predicate: LLVM drops it).
    pub(crate) fn return_where(&mut self, pred: Option<IntValue<'ctx>>) -> Result<()> {
        let em = &self.em;
        let f = em.func();
        let leave = em.ctx.append_basic_block(f, "return");
        let stay = em.ctx.append_basic_block(f, "after.return");
        match pred {
            Some(p) => em.b.build_conditional_branch(p, leave, stay)?,
            None => em.b.build_unconditional_branch(leave)?,
        };
        em.b.position_at_end(leave);
        em.b.build_return(None)?;
        em.b.position_at_end(stay);
        Ok(())
    }
}
