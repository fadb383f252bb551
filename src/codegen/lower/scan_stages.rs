//! The stages of an inclusive scan along one axis (see
//! `associative_scan` in the builder's `ops/scan.rs`): which bits of the operand's layout
//! step along the axis and in which stage (pure), and their emission with any combine function.

use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::{BinaryOp, ScanOp};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::reduce_stages::Combine;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::types::DType;

/// The binary op a built-in scan combines with.
pub(crate) fn scan_binary(op: ScanOp) -> BinaryOp {
    match op {
        ScanOp::Sum => BinaryOp::Add,
        ScanOp::Max => BinaryOp::Max,
        ScanOp::Min => BinaryOp::Min,
    }
}

/// A partial prefix: empty, or a value that is valid always (`None`) or where the `i1` holds.
type Pre<'ctx> = Option<(BasicValueEnum<'ctx>, Option<IntValue<'ctx>>)>;

/// Which bits of a layout step along the scanned axis, by stage.
#[derive(Debug, Clone)]
pub(crate) struct ScanShape {
    /// The axis.
    pub axis: usize,
    /// Lane bits along the axis with their steps, by step.
    lane: Vec<(usize, u64)>,
    /// Warp bits along the axis with their steps, by step.
    warp: Vec<(usize, u64)>,
    /// Register bits stepping below every lane and warp step, by step.
    low: Vec<usize>,
    /// Register bits stepping above every lane and warp step, by step.
    high: Vec<usize>,
    /// The register indices with the axis bits cleared.
    groups: Vec<u64>,
}

/// What a scan's checks decided for its lowering.
#[derive(Debug)]
pub(crate) struct ScanPlan {
    /// The stages.
    pub shape: ScanShape,
    /// The warps' totals' scratch, when warps step along the axis.
    pub scratch: Option<Scratch>,
    /// The user's combine function (`associative_scan_with`), else the op's own.
    pub body: Option<CombineBody>,
}

impl ScanShape {
    /// The stages of scanning a tile in `l` (named `what` in errors) along `axis` (in range);
    /// a layout the stages cannot follow is a [`CodegenError::BadLayout`].
    pub fn new(op: &'static str, what: &str, l: &TileLayout, axis: usize) -> Result<ScanShape> {
        let bad = |reason: String| CodegenError::BadLayout {
            op,
            reason: format!("{reason} in {what}: convert_layout to a blocked layout first"),
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
        let groups: Vec<u64> = (0..l.num_regs() as u64)
            .filter(|r| r & amask == 0)
            .collect();
        Ok(ScanShape {
            axis,
            lane: lane_a,
            warp: warp_a,
            low,
            high,
            groups,
        })
    }

    /// Whether any two elements are combined (some stage has work).
    pub fn combines(&self) -> bool {
        !(self.low.is_empty()
            && self.high.is_empty()
            && self.lane.is_empty()
            && self.warp.is_empty())
    }

    /// The scratch bytes of the warps' totals of a tile in `l` of `elem`, if warps step along
    /// the axis.
    pub fn scratch(&self, l: &TileLayout, elem: DType) -> Option<u64> {
        if self.warp.is_empty() {
            return None;
        }
        let size: u64 = (0..l.rank())
            .filter(|&d| d != self.axis)
            .map(|d| l.shape[d])
            .product();
        let plane = size << self.high.len();
        Some((1u64 << self.warp.len()) * plane * elem.mem_bytes())
    }

    /// The register of group `base`, high block `h` and low position `lo`.
    fn reg_of(&self, base: u64, h: usize, lo: usize) -> usize {
        let mut r = base;
        for (b, &i) in self.high.iter().enumerate() {
            r |= ((h >> b & 1) as u64) << i;
        }
        for (b, &i) in self.low.iter().enumerate() {
            r |= ((lo >> b & 1) as u64) << i;
        }
        r as usize
    }
}

/// The scan of `regs` (a tile in `l` of `elem`) as `sh` says, with `combine`, the warps'
/// totals going through `scratch`.
pub(crate) fn scan_regs<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    l: &TileLayout,
    regs: &[BasicValueEnum<'ctx>],
    elem: DType,
    sh: &ScanShape,
    scratch: Option<Scratch>,
    combine: &mut Combine<'_, 'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let axis = sh.axis;
    let (lane_a, warp_a, groups) = (&sh.lane, &sh.warp, &sh.groups);
    let nh = 1usize << sh.high.len();
    let nlow = 1usize << sh.low.len();
    let mut out: Vec<BasicValueEnum<'ctx>> = regs.to_vec();

    // Stage 1: in-thread prefixes; local[g][h] = (prefixes, total).
    let mut totals: Vec<Vec<BasicValueEnum<'ctx>>> = Vec::new();
    for &g in groups.iter() {
        let mut th = Vec::with_capacity(nh);
        for h in 0..nh {
            let mut acc: Option<BasicValueEnum> = None;
            for lo in 0..nlow {
                let r = sh.reg_of(g, h, lo);
                let v = regs[r];
                let a = match acc {
                    None => v,
                    Some(a) => combine(lx, a, v)?,
                };
                out[r] = a;
                acc = Some(a);
            }
            th.push(acc.ok_or_else(|| internal("a block of no register"))?);
        }
        totals.push(th);
    }

    // Stage 2: across lanes.
    let i32t = lx.em.ctx.i32_type();
    let lane = lx.lane_id()?;
    let mut lane_pre: Vec<Vec<Pre<'ctx>>> = vec![vec![None; nh]; groups.len()];
    if let Some(&(j0, _)) = lane_a.first() {
        let k = lane_a.len() as u64;
        let pos = lx.in_prologue(|b| {
            let p = b.build_right_shift(lane, i32t.const_int(j0 as u64, false), false, "")?;
            Ok(b.build_and(p, i32t.const_int((1 << k) - 1, false), "")?)
        })?;
        let top = lx.in_prologue(|b| {
            Ok(b.build_or(lane, i32t.const_int(((1 << k) - 1) << j0, false), "")?)
        })?;
        let has_lower =
            lx.em
                .b
                .build_int_compare(inkwell::IntPredicate::NE, pos, i32t.const_zero(), "")?;
        for (gi, th) in totals.iter_mut().enumerate() {
            for (h, tv) in th.iter_mut().enumerate() {
                let mut incl = *tv;
                for s in 0..k {
                    let other = lx.shuffle_value(incl, elem, lane, |em, lw, w| {
                        em.1.shuffle_up(em.0, w, 1u32 << (j0 as u32 + s as u32), lw)
                    })?;
                    let c = combine(lx, other, incl)?;
                    let ok = lx.em.b.build_int_compare(
                        inkwell::IntPredicate::UGE,
                        pos,
                        i32t.const_int(1 << s, false),
                        "",
                    )?;
                    incl = lx.em.b.build_select(ok, c, incl, "")?;
                }
                let excl = lx.shuffle_value(incl, elem, lane, |em, lw, w| {
                    em.1.shuffle_up(em.0, w, 1u32 << j0, lw)
                })?;
                lane_pre[gi][h] = Some((excl, Some(has_lower)));
                // The total of the lanes along the axis: the top lane's inclusive value.
                *tv =
                    lx.shuffle_value(incl, elem, lane, |em, _, w| em.1.shuffle_idx(em.0, w, top))?;
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
            let c = lx.dim_coords(l, d)?;
            for (f, &g) in flat.iter_mut().zip(groups.iter()) {
                let term = lx
                    .em
                    .b
                    .build_int_mul(c[g as usize], i32t.const_int(size, false), "")?;
                *f = lx.em.b.build_int_add(*f, term, "")?;
            }
            size *= l.shape[d];
        }
        let plane = size * nh as u64;
        let s = scratch.ok_or_else(|| internal("partials across warps without scratch"))?;
        lx.report.scratch(s.bytes);
        // Lane → index of each group's element in one plane (warp 0, part 0).
        let tpw = lx.threads_per_warp();
        let lane_idx = |g: u64, h: usize| -> Vec<u64> {
            (0..tpw as u64)
                .map(|lane| {
                    crate::codegen::report::lane_flat_index(l, g as usize, lane, Some(axis))
                        + h as u64 * size
                })
                .collect()
        };
        let wbits: Vec<usize> = warp_a.iter().map(|x| x.0).collect();
        let my = lx.warp_part_index(&wbits)?;
        let addr =
            |lx: &mut LowerCtx<'ctx>, part: IntValue<'ctx>, idx: IntValue<'ctx>| -> Result<_> {
                let rep = lx.replica_at(s.replica_stride);
                let at = lx.scratch_elem_offset(part, plane, idx, eb, s.offset, rep)?;
                lx.smem_at(at)
            };
        let idx_of =
            |lx: &mut LowerCtx<'ctx>, f: IntValue<'ctx>, h: usize| -> Result<IntValue<'ctx>> {
                let hi = i32t.const_int(h as u64 * size, false);
                Ok(lx.em.b.build_int_add(f, hi, "")?)
            };
        if s.fence_first {
            lx.scratch_barrier()?;
        }
        for (gi, th) in totals.iter().enumerate() {
            for (h, tv) in th.iter().enumerate() {
                if lx.report.active() {
                    let lanes: Vec<u64> = lane_idx(groups[gi], h).iter().map(|i| i * eb).collect();
                    lx.report.shared(true, &lanes, eb);
                }
                let idx = idx_of(lx, flat[gi], h)?;
                let ptr = addr(lx, my, idx)?;
                lx.em.b.build_store(ptr, *tv)?;
            }
        }
        lx.scratch_barrier()?;
        let mem = elem.llvm_mem(lx.em.ctx);
        for (gi, th) in totals.iter_mut().enumerate() {
            for (h, tv) in th.iter_mut().enumerate() {
                let idx = idx_of(lx, flat[gi], h)?;
                let mut pre: Pre<'ctx> = None;
                let mut all: Option<BasicValueEnum<'ctx>> = None;
                let lanes = if lx.report.active() {
                    lane_idx(groups[gi], h)
                } else {
                    Vec::new()
                };
                for q in 0..parts {
                    if lx.report.active() {
                        let bytes: Vec<u64> = lanes.iter().map(|i| (q * plane + i) * eb).collect();
                        lx.report.shared(false, &bytes, eb);
                    }
                    let ptr = addr(lx, i32t.const_int(q, false), idx)?;
                    let x = lx.em.b.build_load(mem, ptr, "")?;
                    let below = lx.em.b.build_int_compare(
                        inkwell::IntPredicate::ULT,
                        i32t.const_int(q, false),
                        my,
                        "",
                    )?;
                    pre = join_pre(lx, combine, pre, Some((x, Some(below))))?;
                    all = Some(match all {
                        None => x,
                        Some(a) => combine(lx, a, x)?,
                    });
                }
                warp_pre[gi][h] = pre;
                *tv = all.ok_or_else(|| internal("no warp"))?;
            }
        }
    }

    // Stage 4: carry the block totals in order, then apply the prefixes.
    for (gi, &g) in groups.iter().enumerate() {
        let mut carry: Pre<'ctx> = None;
        for h in 0..nh {
            let mut p = join_pre(lx, combine, carry, warp_pre[gi][h])?;
            p = join_pre(lx, combine, p, lane_pre[gi][h])?;
            if p.is_some() {
                for lo in 0..nlow {
                    let r = sh.reg_of(g, h, lo);
                    let v = join_pre(lx, combine, p, Some((out[r], None)))?;
                    out[r] = v.ok_or_else(|| internal("no prefix"))?.0;
                }
            }
            carry = join_pre(lx, combine, carry, Some((totals[gi][h], None)))?;
        }
    }
    Ok(out)
}

/// `a` then `b` (a holds the lower coordinates), each possibly empty or conditional.
fn join_pre<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    combine: &mut Combine<'_, 'ctx>,
    a: Pre<'ctx>,
    b: Pre<'ctx>,
) -> Result<Pre<'ctx>> {
    let (Some((av, ac)), Some((bv, bc))) = (a, b) else {
        return Ok(a.or(b));
    };
    let v = combine(lx, av, bv)?;
    Ok(Some(match (ac, bc) {
        (None, None) => (v, None),
        (None, Some(bc)) => (lx.em.b.build_select(bc, v, av, "")?, None),
        (Some(ac), None) => (lx.em.b.build_select(ac, v, bv, "")?, None),
        (Some(ac), Some(bc)) => {
            let if_a = lx.em.b.build_select(bc, v, av, "")?;
            let r = lx.em.b.build_select(ac, if_a, bv, "")?;
            (r, Some(lx.em.b.build_or(ac, bc, "")?))
        }
    }))
}

fn internal(what: &str) -> CodegenError {
    CodegenError::arg("associative_scan", format!("internal: {what}"))
}
