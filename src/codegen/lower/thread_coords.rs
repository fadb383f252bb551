//! Thread coordinates as lowering reads them: special registers and the thread index, read
//! once in the prologue, and the per-layout thread part of every register's coordinate
//! (planned by [`id_plan`], emitted here), cached in the context's
//! [`ThreadIds`](crate::codegen::lower::thread::ThreadIds).

use inkwell::values::IntValue;

use crate::codegen::analysis::tile_layout::{id_plan, reaches_top, Term, TileLayout};
use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::LlvmTarget;

impl<'ctx> LowerCtx<'ctx> {
    /// Reads a special register (`llvm.nvvm.read.ptx.sreg.*`, `llvm.amdgcn.*`) once, in the
    /// prologue.
    pub(crate) fn sreg(&mut self, intrinsic: &str) -> Result<IntValue<'ctx>> {
        if let Some(v) = self.threads.sregs.get(intrinsic) {
            return Ok(*v);
        }
        let f = self.em.intrinsic(intrinsic, &[])?;
        let v = self.in_prologue(|b| {
            Ok(b.build_call(f, &[], "")?
                .try_as_basic_value()
                .basic()
                .expect("sreg returns a value")
                .into_int_value())
        })?;
        self.threads.sregs.insert(intrinsic.to_string(), v);
        Ok(v)
    }

    /// The thread's index in the CTA, read once. The call carries its range (`0..threads`: the
    /// launch's block size is checked against the signature), so LLVM knows its high bits are
    /// zero without the `nvvm-intr-range` pass.
    pub(crate) fn thread_index(&mut self) -> Result<IntValue<'ctx>> {
        let name = self.target.lowering().thread_index_sreg();
        if let Some(v) = self.threads.sregs.get(name) {
            return Ok(*v);
        }
        let tid = self.sreg(name)?;
        let threads = u64::from(self.kernel_threads());
        self.em.set_return_range(tid, 0, threads);
        self.note_bits(tid, threads - 1, None);
        Ok(tid)
    }

    /// The thread part `T(lane, warp)` of a layout, one `i32` per tile dim, emitted once per
    /// distinct (lane, warp) bases in the prologue. It is computed from the thread index
    /// `tid = lane + warp · threads_per_warp` directly: a run of bases that crosses from the lane
    /// bits into the warp bits is one shift, and a run that reaches tid's top bit needs no mask
    /// (`tid < threads`), so a 1-D blocked layout gives `tid << 2`, not
    /// `((tid & 31) << 2) ^ (((tid >> 5) & 3) << 7)`. Terms with no common bits are joined by a
    /// disjoint `or`.
    pub(crate) fn thread_coords(&mut self, l: &TileLayout) -> Result<Vec<IntValue<'ctx>>> {
        let key = (l.lane.clone(), l.warp.clone());
        if let Some(v) = self.threads.coords.get(&key) {
            return Ok(v.clone());
        }
        let tid = self.thread_index()?;
        let top = self.threads_per_block() as u64 - 1;
        let i32t = self.em.ctx.i32_type();
        let bases = l.tid_bases();
        let plans: Vec<Vec<Term>> = (0..l.rank()).map(|d| id_plan(&bases, d)).collect();
        let coords = self.in_prologue(|b| {
            let mut out = Vec::with_capacity(plans.len());
            for terms in &plans {
                let mut acc: Option<(IntValue, u64)> = None;
                for term in terms {
                    let c = |x: u64| i32t.const_int(x, false);
                    let (v, maybe) = match *term {
                        Term::Bits { mask, shift } => {
                            let lo = mask.trailing_zeros() as i64;
                            // Bits lo..=top of tid: shifting drops the rest anyway.
                            let to_top = reaches_top(mask, top);
                            let v = if to_top && lo == 0 && shift >= 0 {
                                if shift == 0 {
                                    tid
                                } else {
                                    b.build_left_shift(tid, c(shift as u64), "")?
                                }
                            } else if to_top && shift == -lo {
                                b.build_right_shift(tid, c(lo as u64), false, "")?
                            } else {
                                let masked = b.build_and(tid, c(mask), "")?;
                                if shift > 0 {
                                    b.build_left_shift(masked, c(shift as u64), "")?
                                } else if shift < 0 {
                                    b.build_right_shift(masked, c((-shift) as u64), false, "")?
                                } else {
                                    masked
                                }
                            };
                            let maybe = if shift >= 0 {
                                mask << shift
                            } else {
                                mask >> -shift
                            };
                            (v, maybe)
                        }
                        Term::Select { bit, value } => {
                            let m = b.build_and(tid, c(1 << bit), "")?;
                            let set = b.build_int_compare(
                                inkwell::IntPredicate::NE,
                                m,
                                i32t.const_zero(),
                                "",
                            )?;
                            let v = b
                                .build_select(set, c(value), i32t.const_zero(), "")?
                                .into_int_value();
                            (v, value)
                        }
                    };
                    acc = Some(match acc {
                        None => (v, maybe),
                        Some((a, am)) if am & maybe == 0 => {
                            let o = b.build_or(a, v, "")?;
                            if let Some(i) = o.as_instruction() {
                                crate::codegen::lower::emitter::set_disjoint(i);
                            }
                            (o, am | maybe)
                        }
                        Some((a, am)) => (b.build_xor(a, v, "")?, am | maybe),
                    });
                }
                out.push(acc.unwrap_or((i32t.const_zero(), 0)));
            }
            Ok(out)
        })?;
        for &(v, maybe) in &coords {
            self.note_bits(v, maybe, None);
        }
        let coords: Vec<IntValue> = coords.into_iter().map(|(v, _)| v).collect();
        self.threads.coords.insert(key, coords.clone());
        Ok(coords)
    }

    /// The coordinate along tile dim `dim` of every register of this thread.
    pub(crate) fn dim_coords(&mut self, l: &TileLayout, dim: usize) -> Result<Vec<IntValue<'ctx>>> {
        let t = self.thread_coords(l)?[dim];
        let tbits = l.thread_bits()[dim];
        let i32t = self.em.ctx.i32_type();
        let mut out = Vec::with_capacity(l.num_regs());
        let mut seen: std::collections::HashMap<u64, IntValue<'ctx>> =
            std::collections::HashMap::new();
        for r in 0..l.num_regs() {
            let c = l.reg_coord(r)[dim];
            if let Some(v) = seen.get(&c) {
                out.push(*v);
                continue;
            }
            let v = if c == 0 {
                t
            } else if c & tbits == 0 {
                // Disjoint bits: xor is a disjoint or, with the constant outermost.
                self.int_add(t, i32t.const_int(c, false))?
            } else {
                self.em.b.build_xor(t, i32t.const_int(c, false), "")?
            };
            seen.insert(c, v);
            out.push(v);
        }
        Ok(out)
    }

    /// This thread's warp's index among the partials of a cross-warp reduction or scan: the
    /// warp-id bits `bits` (those that step along the axis), packed from bit 0 up. Built in the
    /// prologue.
    pub(crate) fn warp_part_index(&mut self, bits: &[usize]) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let tid = self.thread_index()?;
        let lane_bits = self.threads_per_warp().trailing_zeros() as u64;
        self.in_prologue(|b| {
            let warp = b.build_right_shift(tid, i32t.const_int(lane_bits, false), false, "warp")?;
            let mut acc = i32t.const_zero();
            for (i, &j) in bits.iter().enumerate() {
                let bit = b.build_right_shift(warp, i32t.const_int(j as u64, false), false, "")?;
                let bit = b.build_and(bit, i32t.const_int(1, false), "")?;
                let bit = b.build_left_shift(bit, i32t.const_int(i as u64, false), "")?;
                acc = b.build_or(acc, bit, "")?;
            }
            Ok(acc)
        })
    }
}
