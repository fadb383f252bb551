//! Inclusive scans along one axis of a tile in a distributed layout: `associative_scan` (sum,
//! max, min) and `associative_scan_with` (a combine closure). The result has the input's layout.
//!
//! Every basis that moves the axis ("steps along it") must move only the axis, by a power of
//! two, and no two such bases may move it by the same amount (blocked layouts qualify). The
//! axis coordinate is then a sum of those steps, and the stages follow their order:
//!
//! 1. in each thread, the registers whose axis steps lie below every lane and warp step are
//!    scanned in coordinate order;
//! 2. across lanes, Hillis–Steele with `shfl.sync.up` (`ds_bpermute` on AMD) over the lane bits
//!    that step along the axis (they must be consecutive lane bits, in increasing order): a lane
//!    whose axis position is at least `2^s` takes the partial of the lane `2^s` positions lower;
//! 3. across warps, when warp bits step along the axis: every warp's total goes to shared
//!    memory, a barrier, and each thread combines the totals of the warps below it (an
//!    exclusive prefix) into its values;
//! 4. registers whose axis steps lie above every lane and warp step repeat stages 1–3 for each
//!    block of the axis, and the block totals are carried in order.
//!
//! Other layouts are refused with [`CodegenError::BadLayout`]: convert the tile first.

pub use crate::codegen::ir::attrs::ScanOp;
use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::builder::body_once::BodyOnce;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::types::{DType, Type};
use crate::codegen::Value;

const OP: &str = "associative_scan";

/// A partial prefix: empty, or a value that is valid always (`None`) or where the `i1` holds.
type Pre<'ctx> = Option<(BasicValueEnum<'ctx>, Option<IntValue<'ctx>>)>;

impl<'ctx> KernelBuilder<'ctx> {
    /// The inclusive scan of `tile` along `axis` with `op`; see the [module docs](self).
    #[track_caller]
    pub fn associative_scan(&mut self, tile: Value, axis: usize, op: ScanOp) -> Result<Value> {
        self.record(OpKind::Scan { axis, op }, vec![tile.into()], |kb| {
            kb.associative_scan_impl(tile, axis, op)
        })
    }

    fn associative_scan_impl(&mut self, tile: Value, axis: usize, op: ScanOp) -> Result<Value> {
        self.associative_scan_with(tile, axis, |kb, a, b| match op {
            ScanOp::Sum => kb.add(a, b),
            ScanOp::Max => kb.max(a, b),
            ScanOp::Min => kb.min(a, b),
        })
    }

    /// The inclusive scan of `tile` along `axis` with `combine(kb, a, b)`, which gets two
    /// scalars of the tile's element type (`a` holds the lower coordinates) and returns one; it
    /// must be associative (not necessarily commutative). `combine` runs once, recorded as the
    /// op's combine region; every combination the scan makes lowers that record.
    #[track_caller]
    pub fn associative_scan_with(
        &mut self,
        tile: Value,
        axis: usize,
        combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let mut combine = combine;
        self.record_with_regions(
            OpKind::ScanWith(axis),
            vec![tile.into()],
            1,
            |kb, bodies| {
                let mut once = BodyOnce::new(bodies.get(0));
                kb.associative_scan_with_impl(tile, axis, |kb, a, b| {
                    once.lower_one(kb, &[a, b], |kb| combine(kb, a, b))
                })
            },
        )
    }

    fn associative_scan_with_impl(
        &mut self,
        tile: Value,
        axis: usize,
        combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let at = self.rec.caller();
        self.reported(OP, at, Some(tile), |kb| {
            kb.associative_scan_inner(tile, axis, combine)
        })
    }

    fn associative_scan_inner(
        &mut self,
        tile: Value,
        axis: usize,
        mut combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let (t, l) = self.axis_operand(OP, tile, axis)?;
        if matches!(t.ty, Type::Ptr(..)) || scalar_dtype(t.ty) == DType::I1 {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "a tile of numbers".into(),
                value: t.describe(),
            });
        }
        let elem = scalar_dtype(t.ty);
        let bad = |reason: String| CodegenError::BadLayout {
            op: OP,
            reason: format!(
                "{reason} in {}: convert_layout to a blocked layout first",
                t.describe()
            ),
        };
        // The bits that step along the axis, with their steps.
        let mut steps: Vec<u64> = Vec::new();
        let mut along = |name: &str, bases: &Vec<Vec<u64>>| -> Result<Vec<(usize, u64)>> {
            let mut out = Vec::new();
            for (i, b) in bases.iter().enumerate() {
                if b[axis] == 0 {
                    continue;
                }
                if b.iter().enumerate().any(|(d, &x)| d != axis && x != 0) {
                    return Err(bad(format!(
                        "{name} bit {i} moves the axis and another dim at once ({b:?})"
                    )));
                }
                if !b[axis].is_power_of_two() || steps.contains(&b[axis]) {
                    return Err(bad(format!(
                        "{name} bit {i} steps the axis by {}, not a new power of two",
                        b[axis]
                    )));
                }
                steps.push(b[axis]);
                out.push((i, b[axis]));
            }
            Ok(out)
        };
        let reg_a = along("register", &l.reg)?;
        let mut lane_a = along("lane", &l.lane)?;
        let mut warp_a = along("warp", &l.warp)?;
        lane_a.sort_by_key(|x| x.1);
        warp_a.sort_by_key(|x| x.1);
        let thread_steps: Vec<u64> = lane_a.iter().chain(&warp_a).map(|x| x.1).collect();
        let tmin = thread_steps.iter().copied().min().unwrap_or(u64::MAX);
        let tmax = thread_steps.iter().copied().max().unwrap_or(0);
        if let (Some(lm), Some(wm)) = (lane_a.last(), warp_a.first()) {
            if lm.1 > wm.1 {
                return Err(bad(
                    "a lane bit steps the axis further than a warp bit".into()
                ));
            }
        }
        for w in lane_a.windows(2) {
            if w[1].0 != w[0].0 + 1 {
                return Err(bad(
                    "the lane bits along the axis are not consecutive and increasing".into(),
                ));
            }
        }
        let mut low: Vec<usize> = Vec::new();
        let mut high: Vec<usize> = Vec::new();
        for &(i, s) in &reg_a {
            if s < tmin {
                low.push(i);
            } else if s > tmax {
                high.push(i);
            } else {
                return Err(bad(format!(
                    "register bit {i} steps the axis between lane or warp steps"
                )));
            }
        }
        // Sort both register lists by step.
        let step_of = |i: &usize| l.reg[*i][axis];
        low.sort_by_key(step_of);
        high.sort_by_key(step_of);
        let amask: u64 = reg_a.iter().map(|&(i, _)| 1u64 << i).sum();
        let nh = 1usize << high.len();
        let nlow = 1usize << low.len();
        let reg_of = |base: u64, h: usize, lo: usize| -> usize {
            let mut r = base;
            for (b, &i) in high.iter().enumerate() {
                r |= ((h >> b & 1) as u64) << i;
            }
            for (b, &i) in low.iter().enumerate() {
                r |= ((lo >> b & 1) as u64) << i;
            }
            r as usize
        };
        // Groups: the register indices with the axis bits cleared.
        let groups: Vec<u64> = (0..l.num_regs() as u64)
            .filter(|r| r & amask == 0)
            .collect();
        let mut out: Vec<BasicValueEnum<'ctx>> = t.regs.clone();

        // Stage 1: in-thread prefixes; local[g][h] = (prefixes, total).
        let mut totals: Vec<Vec<BasicValueEnum<'ctx>>> = Vec::new();
        for &g in &groups {
            let mut th = Vec::with_capacity(nh);
            for h in 0..nh {
                let mut acc: Option<BasicValueEnum> = None;
                for lo in 0..nlow {
                    let r = reg_of(g, h, lo);
                    let v = t.regs[r];
                    let a = match acc {
                        None => v,
                        Some(a) => self.combine_regs(&mut combine, elem, a, v)?,
                    };
                    out[r] = a;
                    acc = Some(a);
                }
                th.push(acc.expect("a register"));
            }
            totals.push(th);
        }

        // Stage 2: across lanes.
        let i32t = self.lx.em.ctx.i32_type();
        let lane = self.lx.lane_id()?;
        let mut lane_pre: Vec<Vec<Pre<'ctx>>> = vec![vec![None; nh]; groups.len()];
        if let Some(&(j0, _)) = lane_a.first() {
            let k = lane_a.len() as u64;
            let pos = self.lx.in_prologue(|b| {
                let p = b.build_right_shift(lane, i32t.const_int(j0 as u64, false), false, "")?;
                Ok(b.build_and(p, i32t.const_int((1 << k) - 1, false), "")?)
            })?;
            let top = self.lx.in_prologue(|b| {
                Ok(b.build_or(lane, i32t.const_int(((1 << k) - 1) << j0, false), "")?)
            })?;
            let has_lower = self.lx.em.b.build_int_compare(
                inkwell::IntPredicate::NE,
                pos,
                i32t.const_zero(),
                "",
            )?;
            for (gi, th) in totals.iter_mut().enumerate() {
                for (h, tv) in th.iter_mut().enumerate() {
                    let mut incl = *tv;
                    for s in 0..k {
                        let other = self.lx.shuffle_value(incl, elem, lane, |em, lw, w| {
                            em.1.shuffle_up(em.0, w, 1u32 << (j0 as u32 + s as u32), lw)
                        })?;
                        let c = self.combine_regs(&mut combine, elem, other, incl)?;
                        let ok = self.lx.em.b.build_int_compare(
                            inkwell::IntPredicate::UGE,
                            pos,
                            i32t.const_int(1 << s, false),
                            "",
                        )?;
                        incl = self.lx.em.b.build_select(ok, c, incl, "")?;
                    }
                    let excl = self.lx.shuffle_value(incl, elem, lane, |em, lw, w| {
                        em.1.shuffle_up(em.0, w, 1u32 << j0, lw)
                    })?;
                    lane_pre[gi][h] = Some((excl, Some(has_lower)));
                    // The total of the lanes along the axis: the top lane's inclusive value.
                    *tv = self.lx.shuffle_value(incl, elem, lane, |em, _, w| {
                        em.1.shuffle_idx(em.0, w, top)
                    })?;
                }
            }
        }

        // Stage 3: across warps.
        let mut warp_pre: Vec<Vec<Pre<'ctx>>> = vec![vec![None; nh]; groups.len()];
        if !warp_a.is_empty() {
            let parts = 1u64 << warp_a.len();
            let eb = elem.mem_bytes();
            // The flat index of each group's other coordinates.
            let mut flat: Vec<IntValue<'ctx>> = vec![i32t.const_zero(); groups.len()];
            let mut size = 1u64;
            for d in (0..l.rank()).rev() {
                if d == axis {
                    continue;
                }
                let c = self.lx.dim_coords(&l, d)?;
                for (f, &g) in flat.iter_mut().zip(&groups) {
                    let term = self.lx.em.b.build_int_mul(
                        c[g as usize],
                        i32t.const_int(size, false),
                        "",
                    )?;
                    *f = self.lx.em.b.build_int_add(*f, term, "")?;
                }
                size *= l.shape[d];
            }
            let plane = size * nh as u64;
            let a = self.scratch_alloc(OP, parts * plane * eb, 16)?;
            self.lx.report.scratch(parts * plane * eb);
            // Lane → index of each group's element in one plane (warp 0, part 0).
            let lane_idx = |kb: &Self, g: u64, h: usize| -> Vec<u64> {
                (0..kb.lx.threads_per_warp() as u64)
                    .map(|lane| {
                        crate::codegen::report::lane_flat_index(&l, g as usize, lane, Some(axis))
                            + h as u64 * size
                    })
                    .collect()
            };
            let wbits: Vec<usize> = warp_a.iter().map(|x| x.0).collect();
            let my = self.lx.warp_part_index(&wbits)?;
            let addr = |kb: &mut Self, part: IntValue<'ctx>, idx: IntValue<'ctx>| -> Result<_> {
                let rep = kb.replica(a.offset);
                let at = kb
                    .lx
                    .scratch_elem_offset(part, plane, idx, eb, a.offset, rep)?;
                kb.lx.smem_at(at)
            };
            let idx_of = |kb: &mut Self, f: IntValue<'ctx>, h: usize| -> Result<IntValue<'ctx>> {
                let hi = i32t.const_int(h as u64 * size, false);
                Ok(kb.lx.em.b.build_int_add(f, hi, "")?)
            };
            // Inside a loop body the previous iteration may still read the partials; reused
            // scratch may still be read by its previous op.
            if a.fence || self.lx.values.scope() != 0 {
                self.barrier()?;
            }
            for (gi, th) in totals.iter().enumerate() {
                for (h, tv) in th.iter().enumerate() {
                    if self.lx.report.active() {
                        let lanes: Vec<u64> = lane_idx(self, groups[gi], h)
                            .iter()
                            .map(|i| i * eb)
                            .collect();
                        self.lx.report.shared(true, &lanes, eb);
                    }
                    let idx = idx_of(self, flat[gi], h)?;
                    let ptr = addr(self, my, idx)?;
                    self.lx.em.b.build_store(ptr, *tv)?;
                }
            }
            self.barrier()?;
            let mem = elem.llvm_mem(self.lx.em.ctx);
            for (gi, th) in totals.iter_mut().enumerate() {
                for (h, tv) in th.iter_mut().enumerate() {
                    let idx = idx_of(self, flat[gi], h)?;
                    let mut pre: Pre<'ctx> = None;
                    let mut all: Option<BasicValueEnum<'ctx>> = None;
                    let lanes = if self.lx.report.active() {
                        lane_idx(self, groups[gi], h)
                    } else {
                        Vec::new()
                    };
                    for q in 0..parts {
                        if self.lx.report.active() {
                            let bytes: Vec<u64> =
                                lanes.iter().map(|i| (q * plane + i) * eb).collect();
                            self.lx.report.shared(false, &bytes, eb);
                        }
                        let ptr = addr(self, i32t.const_int(q, false), idx)?;
                        let x = self.lx.em.b.build_load(mem, ptr, "")?;
                        let below = self.lx.em.b.build_int_compare(
                            inkwell::IntPredicate::ULT,
                            i32t.const_int(q, false),
                            my,
                            "",
                        )?;
                        pre = self.join_pre(&mut combine, elem, pre, Some((x, Some(below))))?;
                        all = Some(match all {
                            None => x,
                            Some(a) => self.combine_regs(&mut combine, elem, a, x)?,
                        });
                    }
                    warp_pre[gi][h] = pre;
                    *tv = all.expect("a warp");
                }
            }
            self.scratch_free(OP, a)?;
        }

        // Stage 4: carry the block totals in order, then apply the prefixes.
        for (gi, &g) in groups.iter().enumerate() {
            let mut carry: Pre<'ctx> = None;
            for h in 0..nh {
                let mut p = self.join_pre(&mut combine, elem, carry, warp_pre[gi][h])?;
                p = self.join_pre(&mut combine, elem, p, lane_pre[gi][h])?;
                if p.is_some() {
                    for lo in 0..nlow {
                        let r = reg_of(g, h, lo);
                        let v = self.join_pre(&mut combine, elem, p, Some((out[r], None)))?;
                        out[r] = v.expect("a value").0;
                    }
                }
                carry = self.join_pre(&mut combine, elem, carry, Some((totals[gi][h], None)))?;
            }
        }
        let info = crate::codegen::analysis::axis_info::AxisInfo::unknown(&t.shape);
        Ok(self
            .lx
            .values
            .new_value(t.ty, t.shape.clone(), Some(l), out, info))
    }

    /// `a` then `b` (a holds the lower coordinates), each possibly empty or conditional.
    fn join_pre(
        &mut self,
        combine: &mut impl FnMut(&mut Self, Value, Value) -> Result<Value>,
        elem: DType,
        a: Pre<'ctx>,
        b: Pre<'ctx>,
    ) -> Result<Pre<'ctx>> {
        let (Some((av, ac)), Some((bv, bc))) = (a, b) else {
            return Ok(a.or(b));
        };
        let v = self.combine_regs(combine, elem, av, bv)?;
        Ok(Some(match (ac, bc) {
            (None, None) => (v, None),
            (None, Some(bc)) => (self.lx.em.b.build_select(bc, v, av, "")?, None),
            (Some(ac), None) => (self.lx.em.b.build_select(ac, v, bv, "")?, None),
            (Some(ac), Some(bc)) => {
                let if_a = self.lx.em.b.build_select(bc, v, av, "")?;
                let r = self.lx.em.b.build_select(ac, if_a, bv, "")?;
                (r, Some(self.lx.em.b.build_or(ac, bc, "")?))
            }
        }))
    }
}
