//! The emission of a reduction's stages along one axis (see `reduce` in the builder's
//! `ops/reduce.rs`) as its [`ReduceShape`] says, with any combine function.

use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::reduce_shape::ReduceShape;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::types::DType;

/// A combine function on two registers of the element type.
pub(crate) type Combine<'a, 'ctx> = dyn FnMut(
        &mut LowerCtx<'ctx>,
        BasicValueEnum<'ctx>,
        BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>>
    + 'a;

/// The result registers of reducing `regs` (a tile in `l` of `elem`) as `sh` says, with
/// `combine`, the partials across warps going through `scratch`.
pub(crate) fn reduce_regs<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    l: &TileLayout,
    regs: &[BasicValueEnum<'ctx>],
    elem: DType,
    sh: &ReduceShape,
    scratch: Option<Scratch>,
    combine: &mut Combine<'_, 'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let axis = sh.axis;
    let along = |b: &Vec<u64>| b[axis] != 0;
    // 1. In each thread.
    let kmask: u64 = sh.kept.iter().map(|&i| 1u64 << i).sum();
    let n_out = 1usize << sh.kept.len();
    let mut vals: Vec<BasicValueEnum<'ctx>> = Vec::with_capacity(n_out);
    for ro in 0..n_out as u64 {
        let base: u64 = sh
            .kept
            .iter()
            .enumerate()
            .fold(0, |a, (b, &i)| a | (ro >> b & 1) << i);
        let mut seen: Vec<Vec<u64>> = Vec::new();
        let mut acc: Option<BasicValueEnum> = None;
        for r in 0..l.num_regs() as u64 {
            if r & kmask != base {
                continue;
            }
            let c = l.reg_coord(r as usize);
            if seen.contains(&c) {
                continue;
            }
            seen.push(c);
            let v = regs[r as usize];
            acc = Some(match acc {
                None => v,
                Some(a) => combine(lx, a, v)?,
            });
        }
        vals.push(acc.ok_or_else(|| internal("a result register combines no register"))?);
    }
    // 2. Across lanes.
    let (_, lane_free, _) = l.free_masks();
    let lane = lx.lane_id()?;
    for j in 0..l.lane.len() {
        if !along(&l.lane[j]) || lane_free >> j & 1 == 1 {
            continue;
        }
        for v in vals.iter_mut() {
            let other = lx.shuffle_xor_value(*v, elem, 1 << j, lane)?;
            *v = combine(lx, *v, other)?;
        }
    }
    // 3. Across warps.
    if !sh.warps.is_empty() {
        let s = scratch.ok_or_else(|| internal("partials across warps without scratch"))?;
        vals = reduce_across_warps(lx, combine, elem, sh, s, vals)?;
    }
    Ok(vals)
}

/// Stage 3: partials through shared memory, combined by every thread in warp order.
fn reduce_across_warps<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    combine: &mut Combine<'_, 'ctx>,
    elem: DType,
    sh: &ReduceShape,
    s: Scratch,
    vals: Vec<BasicValueEnum<'ctx>>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let out = sh.out.as_deref();
    let i32t = lx.em.ctx.i32_type();
    let eb = elem.mem_bytes();
    let size = sh.size();
    let parts = 1u64 << sh.warps.len();
    lx.report.scratch(s.bytes);
    // This thread's flat (row-major) index of each result register.
    let flat: Vec<IntValue<'ctx>> = match out {
        None => vec![i32t.const_zero()],
        Some(o) => {
            let mut acc: Vec<IntValue> = vec![i32t.const_zero(); o.num_regs()];
            let mut stride = 1u64;
            for d in (0..o.rank()).rev() {
                let c = lx.dim_coords(o, d)?;
                for (x, cd) in acc.iter_mut().zip(c) {
                    let step = i32t.const_int(stride, false);
                    let term = lx.em.b.build_int_mul(cd, step, "")?;
                    *x = lx.em.b.build_int_add(*x, term, "")?;
                }
                stride *= o.shape[d];
            }
            acc
        }
    };
    // This warp's index among the partials.
    let my = lx.warp_part_index(&sh.warps)?;
    let mem = elem.llvm_mem(lx.em.ctx);
    let addr = |lx: &mut LowerCtx<'ctx>, part: IntValue<'ctx>, f: IntValue<'ctx>| {
        let rep = lx.replica_at(s.replica_stride);
        lx.scratch_elem_offset(part, size, f, eb, s.offset, rep)
    };
    if s.fence_first {
        lx.scratch_barrier()?;
    }
    // Lane → flat index of each result register (warp 0, whose partial is part 0).
    let tpw = lx.threads_per_warp();
    let lane_flat = |r: usize| -> Vec<u64> {
        (0..tpw as u64)
            .map(|lane| {
                out.map_or(0, |o| {
                    crate::codegen::report::lane_flat_index(o, r, lane, None)
                })
            })
            .collect()
    };
    for (r, (v, f)) in vals.iter().zip(&flat).enumerate() {
        if lx.report.active() {
            let lanes: Vec<u64> = lane_flat(r).iter().map(|i| i * eb).collect();
            lx.report.shared(true, &lanes, eb);
        }
        let at = addr(lx, my, *f)?;
        let ptr = lx.smem_at(at)?;
        let v = lx.in_mem_form(*v, elem)?;
        lx.em.b.build_store(ptr, v)?;
    }
    lx.scratch_barrier()?;
    // A reduction to one value per CTA finds its partials side by side: read them in 16-byte
    // vectors (what ptxas would merge the scalar reads into anyway).
    let chunk = sh.chunk(elem);
    if chunk > 1 {
        let mut acc: Option<BasicValueEnum> = None;
        let vty = crate::codegen::lower::emitter::vec_of(mem, chunk as u32).into_vector_type();
        for q0 in (0..parts).step_by(chunk as usize) {
            if lx.report.active() {
                let bytes = vec![q0 * eb; lx.threads_per_warp() as usize];
                lx.report.shared(false, &bytes, chunk * eb);
            }
            let at = addr(lx, i32t.const_int(q0, false), flat[0])?;
            let ptr = lx.smem_at(at)?;
            let v = lx.em.b.build_load(vty, ptr, "")?;
            if let Some(inst) = inkwell::values::BasicValue::as_instruction_value(&v) {
                inst.set_alignment((chunk * eb) as u32)
                    .map_err(|e| CodegenError::llvm("reduce", e.to_string()))?;
            }
            for i in 0..chunk {
                let x = lx.em.b.build_extract_element(
                    v.into_vector_value(),
                    i32t.const_int(i, false),
                    "",
                )?;
                acc = Some(match acc {
                    None => x,
                    Some(a) => combine(lx, a, x)?,
                });
            }
        }
        // Every result register holds the one value (copies in the result layout).
        let acc = acc.ok_or_else(|| internal("no partial"))?;
        return Ok(vec![acc; flat.len()]);
    }
    let mut out_vals = Vec::with_capacity(vals.len());
    for (r, f) in flat.iter().enumerate() {
        let mut acc: Option<BasicValueEnum> = None;
        let lanes = if lx.report.active() {
            lane_flat(r)
        } else {
            Vec::new()
        };
        for q in 0..parts {
            if lx.report.active() {
                let bytes: Vec<u64> = lanes.iter().map(|i| (q * size + i) * eb).collect();
                lx.report.shared(false, &bytes, eb);
            }
            let at = addr(lx, i32t.const_int(q, false), *f)?;
            let ptr = lx.smem_at(at)?;
            let x = lx.em.b.build_load(mem, ptr, "")?;
            let x = lx.out_of_mem_form(x, elem)?;
            acc = Some(match acc {
                None => x,
                Some(a) => combine(lx, a, x)?,
            });
        }
        out_vals.push(acc.ok_or_else(|| internal("no partial"))?);
    }
    Ok(out_vals)
}

fn internal(what: &str) -> CodegenError {
    CodegenError::arg("reduce", format!("internal: {what}"))
}
