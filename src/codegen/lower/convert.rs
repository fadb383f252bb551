//! Lowering of layout conversions by warp shuffles: the shuffle plan's checks against what this
//! lowering runs exactly, the words each lane sends, the received words unpacked, and the lane
//! arithmetic they use.

use crate::codegen::analysis::matrix_plan::MatrixPlan;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::bits::{gather, scatter, scatter_packed, span};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::scratch_side::{ordered, ScratchSide};
use crate::codegen::lower::shared::SharedAccess;
use crate::codegen::lower::shuffle_exec::ShuffleExec;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use crate::layout::convert::ShufflePlan;
use inkwell::values::BasicValueEnum;
use inkwell::values::IntValue;
use std::collections::HashMap;

/// The op whose shuffles and round trips these are, as errors name it.
const OP: &str = "convert_layout";

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

    /// The tile's values as `i32`-or-narrower integers of `bits` bits.
    #[allow(clippy::wrong_self_convention)] // converts `v`, not the context `self`
    pub(crate) fn to_bits(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
        bits: u32,
    ) -> Result<IntValue<'ctx>> {
        let it = self.int_type(bits);
        if elem == DType::I1 {
            return Ok(self.em.b.build_int_z_extend(v.into_int_value(), it, "")?);
        }
        if v.is_int_value() {
            return Ok(v.into_int_value());
        }
        Ok(self.em.b.build_bit_cast(v, it, "")?.into_int_value())
    }

    #[allow(clippy::wrong_self_convention)] // converts `i`, not the context `self`
    pub(crate) fn from_bits(
        &mut self,
        i: IntValue<'ctx>,
        elem: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        if elem == DType::I1 {
            let zero = i.get_type().const_zero();
            return Ok(self
                .em
                .b
                .build_int_compare(inkwell::IntPredicate::NE, i, zero, "")?
                .into());
        }
        let ty = elem.llvm(self.em.ctx);
        if ty.is_int_type() {
            return Ok(i.into());
        }
        Ok(self.em.b.build_bit_cast(i, ty, "")?)
    }

    /// Executes a warp-shuffle plan (see the [module docs](self)) whose algebra `ex` the host
    /// checked.
    pub(crate) fn shuffle_regs(
        &mut self,
        sp: &ShufflePlan,
        ex: &ShuffleExec,
        dst: &TileLayout,
        regs: &[BasicValueEnum<'ctx>],
        elem: DType,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let m = &sp.m;
        let ShuffleExec {
            p,
            c,
            p_span,
            src_keep,
            dst_keep,
        } = ex;
        let rounds = sp.rounds as u64;
        let ebits = sp.element_bits;
        let epw = sp.elements_per_word as u64;
        let wpe = sp.words_per_element;
        let i32t = self.em.ctx.i32_type();
        let x = self.lane_linear(p)?;
        let y = self.lane_linear(&sp.lane_map)?;
        let g = self.lane_linear(&sp.diagonal)?;
        let identity = sp
            .lane_map
            .iter()
            .enumerate()
            .all(|(j, &col)| col == 1 << j);
        // The words a lane may send: source base register (compressed) → words.
        let mut word_cache: HashMap<(u64, u32), IntValue<'ctx>> = HashMap::new();
        let mut word = |lx: &mut LowerCtx<'ctx>, base: u64, wi: u32| -> Result<IntValue<'ctx>> {
            if let Some(w) = word_cache.get(&(base, wi)) {
                return Ok(*w);
            }
            let mut acc = i32t.const_zero();
            for q in 0..epw {
                let sreg = base | scatter_packed(q, &m.packed, |pk| pk.1);
                let v = regs[scatter(sreg, src_keep) as usize];
                let w = if ebits == 64 {
                    let i = lx.to_bits(v, elem, 64)?;
                    let i = if wi == 1 {
                        lx.em.b.build_right_shift(
                            i,
                            lx.em.ctx.i64_type().const_int(32, false),
                            false,
                            "",
                        )?
                    } else {
                        i
                    };
                    lx.em.b.build_int_truncate(i, i32t, "")?
                } else if ebits == 32 {
                    lx.to_bits(v, elem, 32)?
                } else {
                    let i = lx.to_bits(v, elem, ebits)?;
                    let i = lx.em.b.build_int_z_extend(i, i32t, "")?;
                    if q == 0 {
                        i
                    } else {
                        lx.em
                            .b
                            .build_left_shift(i, i32t.const_int(q * ebits as u64, false), "")?
                    }
                };
                acc = if q == 0 {
                    w
                } else {
                    lx.em.b.build_or(acc, w, "")?
                };
            }
            word_cache.insert((base, wi), acc);
            Ok(acc)
        };
        // recv[k][wi]
        let mut recv: Vec<Vec<IntValue<'ctx>>> = Vec::with_capacity(rounds as usize);
        for k in 0..rounds {
            let mut per = Vec::with_capacity(wpe as usize);
            for wi in 0..wpe {
                let cands: Vec<IntValue> = p_span
                    .iter()
                    .map(|v| word(self, c[k as usize] ^ v, wi))
                    .collect::<Result<_>>()?;
                let sent = self.select_by(x, p_span, &cands)?;
                let lane_xor = sp.lane_xor[k as usize];
                let r = if identity && lane_xor == 0 {
                    sent
                } else {
                    let from = if lane_xor == 0 {
                        y
                    } else {
                        self.em
                            .b
                            .build_xor(y, i32t.const_int(lane_xor, false), "")?
                    };
                    self.report.shuffles(1);
                    self.target.lowering().shuffle_idx(&self.em, sent, from)?
                };
                per.push(r);
            }
            recv.push(per);
        }
        // Destination words, then elements.
        let g_span = span(&sp.diagonal);
        let dst_n = 1u64 << dst_keep.len();
        let mut vals: Vec<Option<BasicValueEnum<'ctx>>> = vec![None; dst_n as usize];
        for w in 0..rounds {
            let mut words = Vec::with_capacity(wpe as usize);
            #[allow(clippy::needless_range_loop)] // `wi` picks a word of several rows of `recv`
            for wi in 0..wpe as usize {
                let cands: Vec<IntValue> =
                    g_span.iter().map(|v| recv[(w ^ v) as usize][wi]).collect();
                words.push(self.select_by(g, &g_span, &cands)?);
            }
            for q in 0..epw {
                let dreg = scatter(w, &m.word_bits) | scatter_packed(q, &m.packed, |pk| pk.0);
                let v = if ebits == 64 {
                    let i64t = self.em.ctx.i64_type();
                    let lo = self.em.b.build_int_z_extend(words[0], i64t, "")?;
                    let hi = self.em.b.build_int_z_extend(words[1], i64t, "")?;
                    let hi = self
                        .em
                        .b
                        .build_left_shift(hi, i64t.const_int(32, false), "")?;
                    let i = self.em.b.build_or(lo, hi, "")?;
                    self.from_bits(i, elem)?
                } else if ebits == 32 {
                    self.from_bits(words[0], elem)?
                } else {
                    let sh = if q == 0 {
                        words[0]
                    } else {
                        self.em.b.build_right_shift(
                            words[0],
                            i32t.const_int(q * ebits as u64, false),
                            false,
                            "",
                        )?
                    };
                    let it = self.int_type(ebits);
                    let i = self.em.b.build_int_truncate(sh, it, "")?;
                    self.from_bits(i, elem)?
                };
                vals[dreg as usize] = Some(v);
            }
        }
        (0..dst.num_regs() as u64)
            .map(|r| {
                vals[gather(r, dst_keep) as usize].ok_or_else(|| CodegenError::BadLayout {
                    op: OP,
                    reason: format!("internal: the shuffles never fill register {r} of {dst}"),
                })
            })
            .collect()
    }

    /// Repetition `rep` of a round trip's store: `regs` (whose registers in `reg_free` are
    /// copies, not stored) into the scratch at `acc`, with `stmatrix` when there is a plan.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn scratch_store(
        &mut self,
        store: &ScratchSide,
        plan: Option<&(MatrixPlan, Vec<usize>)>,
        acc: &SharedAccess<'ctx>,
        rep: u64,
        elem: DType,
        regs: &[BasicValueEnum<'ctx>],
        reg_free: u64,
    ) -> Result<()> {
        match plan {
            Some((p, bases)) => self.emit_stmatrix(p, &acc.addrs, bases[rep as usize], elem, regs),
            None => {
                let order = &store.order;
                let moved: Vec<BasicValueEnum> =
                    (0..regs.len()).map(|g| regs[ordered(g, order)]).collect();
                self.shared_store(acc, elem, &moved, |g| {
                    let g = ordered(g, order);
                    g as u64 & reg_free == 0 && store.reps[g] == rep
                })
            }
        }
    }

    /// Repetition `rep` of a round trip's load: the scratch at `acc` into the registers of
    /// `out` this repetition fills, with `ldmatrix` when there is a plan.
    pub(crate) fn scratch_load(
        &mut self,
        load: &ScratchSide,
        plan: Option<&(MatrixPlan, Vec<usize>)>,
        acc: &SharedAccess<'ctx>,
        rep: u64,
        elem: DType,
        out: &mut [Option<BasicValueEnum<'ctx>>],
    ) -> Result<()> {
        match plan {
            Some((p, bases)) => self.emit_ldmatrix(p, &acc.addrs, bases[rep as usize], elem, out),
            None => {
                let order = &load.order;
                let got = self.shared_load(acc, elem, |g| load.reps[ordered(g, order)] == rep)?;
                for (g, v) in got.into_iter().enumerate() {
                    if v.is_some() {
                        out[ordered(g, order)] = v;
                    }
                }
                Ok(())
            }
        }
    }
}
