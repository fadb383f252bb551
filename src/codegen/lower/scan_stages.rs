//! The emission of an inclusive scan's stages along one axis (see `associative_scan` in the
//! builder's `ops/scan.rs`) as its [`ScanShape`] says, with any combine function.

use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::reduce_stages::Combine;
use crate::codegen::lower::scan_shape::ScanShape;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::types::DType;

/// A partial prefix: empty, or a value that is valid always (`None`) or where the `i1` holds.
type Pre<'ctx> = Option<(BasicValueEnum<'ctx>, Option<IntValue<'ctx>>)>;

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
