//! Lowering of the convert ops: what they emit, as methods of the lowering context.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use inkwell::values::IntValue;

impl<'ctx> LowerCtx<'ctx> {
    pub(crate) fn int_type(&self, bits: u32) -> inkwell::types::IntType<'ctx> {
        match bits {
            1 => self.em.ctx.bool_type(),
            8 => self.em.ctx.i8_type(),
            16 => self.em.ctx.i16_type(),
            32 => self.em.ctx.i32_type(),
            _ => self.em.ctx.i64_type(),
        }
    }

    /// This thread's lane id, `tid & (threads_per_warp - 1)`.
    pub(crate) fn lane_id(&mut self) -> Result<IntValue<'ctx>> {
        let tid = self.thread_index()?;
        let mask = self.threads_per_warp() as u64 - 1;
        let i32t = self.em.ctx.i32_type();
        self.in_prologue(|b| Ok(b.build_and(tid, i32t.const_int(mask, false), "lane")?))
    }

    /// `vals[i]` where `sel == keys[i]`, `vals[0]` when none matches (`keys[0]` is the default).
    pub(crate) fn select_by(
        &mut self,
        sel: IntValue<'ctx>,
        keys: &[u64],
        vals: &[IntValue<'ctx>],
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let mut acc = vals[0];
        for (k, v) in keys.iter().zip(vals).skip(1) {
            if *v == acc {
                continue;
            }
            let hit = self.em.b.build_int_compare(
                inkwell::IntPredicate::EQ,
                sel,
                i32t.const_int(*k, false),
                "",
            )?;
            acc = self.em.b.build_select(hit, *v, acc, "")?.into_int_value();
        }
        Ok(acc)
    }
    /// `XOR_j lane_j · cols[j]` of this thread's lane id, emitted once in the prologue.
    pub(crate) fn lane_linear(&mut self, cols: &[u64]) -> Result<IntValue<'ctx>> {
        let lane = self.lane_id()?;
        let i32t = self.em.ctx.i32_type();
        self.in_prologue(|b| {
            let mut acc = i32t.const_zero();
            for (j, &c) in cols.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                let bit = b.build_and(lane, i32t.const_int(1 << j, false), "")?;
                let set =
                    b.build_int_compare(inkwell::IntPredicate::NE, bit, i32t.const_zero(), "")?;
                let term = b
                    .build_select(set, i32t.const_int(c, false), i32t.const_zero(), "")?
                    .into_int_value();
                acc = b.build_xor(acc, term, "")?;
            }
            Ok(acc)
        })
    }
}
