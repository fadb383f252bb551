//! Lowering of layout conversions by warp shuffles: the shuffle plan's checks against what this
//! lowering runs exactly, the words each lane sends, the received words unpacked, and the lane
//! arithmetic they use.

use crate::codegen::analysis::matrix_plan::{plan_matrix, MatrixPlan};
use crate::codegen::analysis::shared_offsets::offset_layout;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::shared::SharedAccess;
use crate::codegen::lower::shuffle_exec::ShuffleExec;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use crate::layout::convert::ShufflePlan;
use crate::layout::LinearLayout;
use inkwell::values::BasicValueEnum;
use inkwell::values::IntValue;
use std::collections::HashMap;

/// XOR of the columns selected by the bits of `x`.
pub(crate) fn xor_cols(cols: &[u64], x: u64) -> u64 {
    cols.iter()
        .enumerate()
        .filter(|(i, _)| x >> i & 1 == 1)
        .fold(0, |a, (_, c)| a ^ c)
}

/// Every XOR combination of `cols`, 0 first, each once.
pub(crate) fn span(cols: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64];
    for &c in cols {
        if c != 0 && !out.contains(&c) {
            let more: Vec<u64> = out.iter().map(|x| x ^ c).collect();
            out.extend(more);
        }
    }
    out
}

/// Places the bits of `x` at `positions` (bit `i` of `x` → bit `positions[i]`).
pub(crate) fn scatter(x: u64, positions: &[usize]) -> u64 {
    positions
        .iter()
        .enumerate()
        .fold(0, |a, (i, &p)| a | (x >> i & 1) << p)
}

/// Reads the bits of `x` at `positions` into bits 0, 1, ….
pub(crate) fn gather(x: u64, positions: &[usize]) -> u64 {
    positions
        .iter()
        .enumerate()
        .fold(0, |a, (i, &p)| a | (x >> p & 1) << i)
}

/// The register bits whose bases are not zero (the plans drop the others: they hold copies).
pub(crate) fn kept_regs(l: &TileLayout) -> Vec<usize> {
    (0..l.reg.len())
        .filter(|&i| l.reg[i].iter().any(|&x| x != 0))
        .collect()
}

/// The packed register bits (`side` picks the destination or source bit of each pair) of
/// packed element `q` of a word.
pub(crate) fn scatter_packed(
    q: u64,
    packed: &[(usize, usize)],
    side: impl Fn(&(usize, usize)) -> usize,
) -> u64 {
    packed
        .iter()
        .enumerate()
        .fold(0, |a, (b, pk)| a | (q >> b & 1) << side(pk))
}

/// The op whose round trips these are, as errors name it.
const OP: &str = "convert_layout";

/// One side of a shared-memory round trip: where its registers go in the scratch.
#[derive(Debug)]
pub(crate) struct ScratchSide {
    /// (register, lane, warp) → scratch offset, repetition bits included.
    pub(crate) full: TileLayout,
    /// The same without the repetition bits: the address inside the scratch.
    pub(crate) masked: TileLayout,
    /// The repetition of each register.
    pub(crate) reps: Vec<u64>,
    /// The plan's repetitions.
    pub(crate) repetitions: u64,
    /// The register bits of `masked` in the order a plain access takes them: those stepping
    /// the scratch offset by 1, 2, 4, … first (`order[k]` becomes bit `k`), so the access moves
    /// the contiguous elements the plan counted on in one vector whichever registers hold them.
    pub(crate) order: Vec<usize>,
}

/// The register index, in the tile's own order, of register `g` of a side reordered by `order`.
pub(crate) fn ordered(g: usize, order: &[usize]) -> usize {
    order
        .iter()
        .enumerate()
        .fold(0, |a, (k, &j)| a | (g >> k & 1) << j)
}

impl ScratchSide {
    /// Splits the offsets of `l` in the scratch `flat` (offset → element) into the low
    /// `addr_bits` (the address) and the repetition above them, which must come from registers
    /// only: every thread takes part in every repetition.
    pub(crate) fn new(
        l: &TileLayout,
        flat: &LinearLayout,
        addr_bits: usize,
        reps: u64,
        tpw: u32,
        nw: u32,
    ) -> Result<ScratchSide> {
        let mask = (1u64 << addr_bits) - 1;
        let full = offset_layout(OP, l, flat, tpw, nw)?;
        if full.thread_bits()[0] >> addr_bits != 0 {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "internal: the scratch repetitions of the plan depend on the thread ({l})"
                ),
            });
        }
        let reps_of: Vec<u64> = (0..l.num_regs())
            .map(|r| full.reg_coord(r)[0] >> addr_bits)
            .collect();
        if reps_of.iter().any(|&r| r >= reps) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "internal: a register of {l} lies past the plan's {reps} repetitions"
                ),
            });
        }
        let masked = TileLayout::from_bases(
            OP,
            &[1u64 << addr_bits],
            full.reg.iter().map(|b| vec![b[0] & mask]).collect(),
            full.lane.clone(),
            full.warp.clone(),
        )?;
        let n = masked.reg.len();
        let mut order: Vec<usize> = Vec::with_capacity(n);
        while let Some(j) =
            (0..n).find(|&j| !order.contains(&j) && masked.reg[j][0] == 1 << order.len())
        {
            order.push(j);
        }
        let rest: Vec<usize> = (0..n).filter(|j| !order.contains(j)).collect();
        order.extend(rest);
        Ok(ScratchSide {
            full,
            masked,
            reps: reps_of,
            repetitions: reps,
            order,
        })
    }

    /// `masked` with its register bits in `order`, for plain accesses.
    pub(crate) fn vector_first(&self) -> Result<TileLayout> {
        TileLayout::from_bases(
            OP,
            &self.masked.shape,
            self.order
                .iter()
                .map(|&j| self.masked.reg[j].clone())
                .collect(),
            self.masked.lane.clone(),
            self.masked.warp.clone(),
        )
    }

    /// The `ldmatrix`/`stmatrix` plan of this side and, for each repetition, the register its
    /// instructions start from (the repetition's register bits); `None` where the tile does not
    /// contain the instruction's tile or a register bit mixes address and repetition (the planner
    /// never produces either: its matrix tiles are checked against both layouts, its repetitions
    /// are register bases of both), which then takes plain `ld/st.shared`.
    pub(crate) fn matrix_plan(&self, bits: u32, trans: bool) -> Option<(MatrixPlan, Vec<usize>)> {
        let reg = |j: usize| self.full.reg[j][0];
        let addr = |j: usize| self.masked.reg[j][0];
        let n = self.full.reg.len();
        if (0..n).any(|j| addr(j) != 0 && reg(j) != addr(j)) {
            return None;
        }
        let plan = plan_matrix(&self.masked, bits, trans, &[])?;
        // Registers that only choose the repetition: the smallest one of each.
        let rep_bits: usize = (0..n).filter(|&j| addr(j) == 0).map(|j| 1 << j).sum();
        let mut bases: Vec<Option<usize>> = vec![None; self.repetitions as usize];
        for g in (0..1usize << n).filter(|g| g & !rep_bits == 0) {
            bases[self.reps[g] as usize].get_or_insert(g);
        }
        let bases: Option<Vec<usize>> = bases.into_iter().collect();
        Some((plan, bases?))
    }
}

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
