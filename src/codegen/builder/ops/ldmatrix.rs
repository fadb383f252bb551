//! `ldmatrix` (sm_75+) and `stmatrix` (sm_90+), both also `.trans`: a warp moves up to four 8 × 8
//! matrices of 16-bit elements between shared memory and registers, each lane supplying the
//! address of one matrix row of 16 contiguous bytes and holding one 32-bit register per matrix.
//! One instruction replaces up to four 16-byte accesses per lane with rows that stay 16 bytes
//! wide whatever the registers' order, which is why the GEMM reads MMA operands with
//! `ldmatrix` and why `convert_layout` runs the planner's `stmatrix`/`ldmatrix` tiles with them.
//!
//! Whether a (tile layout, shared layout) pair allows it is a question for the algebra, not for
//! the encodings' names. With `O = S⁻¹ ∘ R` ((register, lane, warp) → element offset) and
//! `w = 32 / bits` elements of `bits` bits in one 32-bit matrix register:
//!
//! - without `.trans`, lane `l` holds row `l / 4`, 32-bit column `l % 4` of a matrix: so `log2 w`
//!   register bits (the elements of one 32-bit register, lowest first) and lane bits 0, 1 (the
//!   columns) must step the offset by 1, 2, 4, … up to a whole row of `4w` elements, and lane
//!   bits 2, 3, 4 choose the row (any element size up to 32 bits: a wider element is one register,
//!   narrower ones are packed);
//! - with `.trans` (16-bit elements only), lane `l` holds column `l / 4`, rows `2·(l % 4)` and
//!   `+1`: lane bits 2, 3, 4 (the stored columns) must step the offset by 1, 2, 4, and one
//!   register bit (the two halves of a 32-bit register) and lane bits 0, 1 choose the stored row;
//! - every other basis (the rows, the other register bits, the warps) must keep offsets 16-byte
//!   aligned, and padding must not split a row.
//!
//! Register bits whose offset is 0 are copies (a broadcast, or the repetition a conversion
//! iterates in time): they are not moved, and a load fills them from the register they copy.
//! The next (up to two) register bits pick the instruction's matrices (`.x4`; `.x2` or `.x1` for
//! fewer registers), the remaining ones give one instruction each, and the row addresses form one
//! more linear layout (lane bits 0–2 → the row bases, lane bits 3, 4 → the matrix bits) that is
//! emitted like any tile's offsets. When neither form fits, [`ldmatrix`](KernelBuilder::ldmatrix)
//! reads the tile with `load_shared`.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::matrix_plan::plan_matrix;
use crate::codegen::analysis::shared_offsets::offset_layout;
#[cfg(test)]
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::layout_arg::IntoLayout;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::CodegenError;
use crate::codegen::error::Result;
use crate::codegen::ir::{OpKind, ValueId};
use crate::codegen::lower::staged::LdmatrixPlan;
use crate::codegen::lower::values::Value;
use crate::codegen::target::Feature;

impl<'ctx> KernelBuilder<'ctx> {
    /// Reads the shared buffer `desc` into a register tile in `layout`, like
    /// [`load_shared`](Self::load_shared), with `ldmatrix` (or `ldmatrix.trans`) where the two
    /// layouts allow it: 16-bit elements on NVIDIA sm_75+, each 8 × 8 matrix row 16 contiguous
    /// bytes (see the [module docs](self)). That is the case for MMA operands
    /// (`DotOperand` of an Ampere `NvidiaMma`) in swizzled or NVMMA shared layouts whose
    /// contiguous dim is the operand's K (A) or its N (B, read with `.trans`). Otherwise it is
    /// exactly `load_shared`. Call [`barrier`](Self::barrier) after the writes it must see.
    #[track_caller]
    pub fn ldmatrix(&mut self, desc: Value, layout: impl IntoLayout) -> Result<Value> {
        self.record_checked(OpKind::Ldmatrix, vec![desc.into()], |kb| {
            kb.ldmatrix_checked(desc, layout)
        })
    }

    /// Checks an `ldmatrix`, plans its instructions and finds this thread's copy of the buffer;
    /// `lower/ldmatrix.rs` emits the loads.
    fn ldmatrix_checked(&mut self, desc: Value, layout: impl IntoLayout) -> Result<Value> {
        const OP: &str = "ldmatrix";
        let d = self.shared_desc(OP, desc)?;
        let l = self.tile_layout(OP, layout, Some(&d.shape))?;
        let buf = d.shared.clone().ok_or_else(|| CodegenError::InvalidType {
            op: OP,
            expected: "a shared-memory descriptor with a buffer".into(),
            value: d.describe(),
        })?;
        let elem = scalar_dtype(d.ty);
        let offsets = offset_layout(
            OP,
            &l,
            &buf.layout,
            self.lx.threads_per_warp(),
            self.lx.num_warps,
        )?;
        let usable = self.lx.target.supports(Feature::LdMatrix) && elem.mem_bytes() == 2;
        let plan = if usable {
            plan_matrix(&offsets, 16, false, &buf.padding)
                .or_else(|| plan_matrix(&offsets, 16, true, &buf.padding))
        } else {
            None
        };
        let info = AxisInfo::unknown(&d.shape);
        let v = self
            .lx
            .values
            .new_value(d.ty, d.shape.clone(), Some(l), vec![], info);
        let staged = LdmatrixPlan { offsets, plan };
        self.lx.staged.ldmatrix.put(ValueId(v.index), staged);
        Ok(v)
    }
}

/// Simulates `plan` on the offsets `full` ((register, lane, warp) → offset; `ldmatrix` and
/// `stmatrix` pair lanes, registers and memory the same way): for every repetition `k` (its
/// registers from `bases[k]`, its offsets `k` above the low `addr_bits`), instruction, matrix,
/// element of a 32-bit register and lane of every warp, the element the hardware moves (the
/// supplying lane's row address plus the column) is the one `full` puts in that register; and
/// every element the tile holds is moved exactly once.
#[cfg(test)]
pub(crate) fn check_matrix_plan(
    full: &TileLayout,
    plan: &crate::codegen::analysis::matrix_plan::MatrixPlan,
    bases: &[usize],
    addr_bits: usize,
) -> std::result::Result<(), String> {
    let eval = |l: &TileLayout, r: usize, lane: usize, warp: usize| -> u64 {
        let mut x = l.reg_coord(r)[0];
        for (i, b) in l.lane.iter().enumerate() {
            x ^= b[0] * (lane >> i & 1) as u64;
        }
        for (i, b) in l.warp.iter().enumerate() {
            x ^= b[0] * (warp >> i & 1) as u64;
        }
        x
    };
    let warps = 1usize << full.warp.len();
    let addrs =
        TileLayout::new("check", &plan.addresses, 32, warps as u32).map_err(|e| e.to_string())?;
    let mut moved = std::collections::HashSet::new();
    for (k, &base) in bases.iter().enumerate() {
        for n in 0..plan.instructions() {
            for i in 0..plan.matrices {
                for q in 0..plan.per_word() {
                    let r = base | plan.register(n, i, q);
                    if !moved.insert(r) {
                        return Err(format!("register {r} is moved twice"));
                    }
                    for w in 0..warps {
                        for lane in 0..32 {
                            let (row_lane, col) = if plan.trans {
                                (8 * i + 2 * (lane % 4) + q, lane / 4)
                            } else {
                                (8 * i + lane / 4, (lane % 4) * plan.per_word() + q)
                            };
                            let want = (k as u64) << addr_bits
                                | (eval(&addrs, n, row_lane, w) + col as u64);
                            let got = eval(full, r, lane, w);
                            if got != want {
                                return Err(format!(
                                    "repetition {k}, instruction {n}, matrix {i}, element {q}: lane {lane} \
                                     of warp {w} has register {r} at {got}, the instruction moves {want}"
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    let held: std::collections::HashSet<u64> =
        (0..full.num_regs()).map(|r| full.reg_coord(r)[0]).collect();
    if moved.len() != held.len() {
        return Err(format!(
            "{} registers moved, the tile holds {} elements per thread",
            moved.len(),
            held.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::analysis::matrix_plan::{plan_matrix, MatrixPlan};
    use crate::layout::encoding::{helpers::default_nvmma_shared, DotOperand, Encoding};
    use crate::layout::encoding::{CgaLayout, NvidiaMma, SwizzledShared};
    use crate::layout::{Dim, LinearLayout};

    /// The op's choice: without `.trans` first.
    fn plan_ldmatrix(o: &TileLayout, padding: &[(u64, u64)]) -> Option<MatrixPlan> {
        plan_matrix(o, 16, false, padding).or_else(|| plan_matrix(o, 16, true, padding))
    }

    fn offsets(reg: &LinearLayout, shared: &LinearLayout, warps: u32) -> TileLayout {
        let r = TileLayout::new("t", reg, 32, warps).unwrap();
        // As `alloc_shared` keeps it: without the size-1 `block` in dim.
        let shared = shared.squeeze_ins(Dim::BLOCK.as_str()).unwrap();
        offset_layout("t", &r, &shared, 32, warps).unwrap()
    }

    fn dot(op: u32, warps: &[u32], shape: [u64; 2]) -> LinearLayout {
        let acc = NvidiaMma::ampere(warps);
        Encoding::from(DotOperand::new(op, acc.into(), 2))
            .to_linear_layout(&shape)
            .unwrap()
    }

    #[test]
    fn operand_a_with_k_contiguous_is_read_without_trans_and_b_with_n_contiguous_with_trans() {
        for (shape_a, shape_b) in [([64u64, 32u64], [32u64, 64u64]), ([128, 64], [64, 128])] {
            let a = dot(0, &[2, 2], shape_a);
            let b = dot(1, &[2, 2], shape_b);
            for shared in [
                default_nvmma_shared(&shape_a, 16, false, false, CgaLayout::single())
                    .map(Encoding::from)
                    .unwrap(),
                SwizzledShared::new(8, 1, 8, &[1, 0]).into(),
            ] {
                let sa = shared.to_linear_layout(&shape_a).unwrap();
                let p = plan_ldmatrix(&offsets(&a, &sa, 4), &[]).expect("A reads with ldmatrix");
                assert!(!p.trans);
                assert_eq!(p.matrices, 4);
            }
            let sb = default_nvmma_shared(&shape_b, 16, false, false, CgaLayout::single()).unwrap();
            let sb = Encoding::from(sb).to_linear_layout(&shape_b).unwrap();
            let p = plan_ldmatrix(&offsets(&b, &sb, 4), &[]).expect("B reads with .trans");
            assert!(p.trans);
            assert_eq!(p.matrices, 4);
        }
    }

    #[test]
    fn every_row_address_is_a_16_byte_aligned_row_of_the_matrix_it_feeds() {
        // Row j of matrix i (lane 8i + j) must be where the register pair 2i of the lanes
        // receiving that row sits in shared memory: checked by enumeration.
        let shape = [64u64, 32u64];
        let a = dot(0, &[2, 2], shape);
        let s = SwizzledShared::new(8, 2, 4, &[1, 0]);
        let sl = Encoding::from(s).to_linear_layout(&shape).unwrap();
        let o = offsets(&a, &sl, 4);
        let p = plan_ldmatrix(&o, &[]).unwrap();
        let al = TileLayout::new("t", &p.addresses, 32, 4).unwrap();
        let eval = |l: &TileLayout, r: u64, lane: u64, warp: u64| -> u64 {
            let mut x = l.reg_coord(r as usize)[0];
            for (i, b) in l.lane.iter().enumerate() {
                if lane >> i & 1 == 1 {
                    x ^= b[0];
                }
            }
            for (i, b) in l.warp.iter().enumerate() {
                if warp >> i & 1 == 1 {
                    x ^= b[0];
                }
            }
            x
        };
        for warp in 0..4 {
            for inst in 0..al.num_regs() as u64 {
                for lane in 0..32u64 {
                    let (i, j) = (lane / 8, lane % 8);
                    let addr = eval(&al, inst, lane, warp);
                    assert_eq!(addr % 8, 0);
                    // Lanes 4j..4j+3 receive row j: their register pair's elements are
                    // addr + 2·(lane % 4) + {0, 1}.
                    let r = (inst * 4 + i) * 2;
                    for t in 0..4 {
                        let recv = 4 * j + t;
                        for e in 0..2 {
                            assert_eq!(eval(&o, r + e, recv, warp), addr + 2 * t + e);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_tile_with_k_across_rows_of_shared_memory_is_refused() {
        // A's K contiguous in registers but M contiguous in shared memory: neither form fits.
        let shape = [64u64, 32u64];
        let a = dot(0, &[2, 2], shape);
        let s = SwizzledShared::new(1, 1, 1, &[0, 1]);
        let sl = Encoding::from(s).to_linear_layout(&shape).unwrap();
        let o = offsets(&a, &sl, 4);
        // Column-major A is B-like: read with .trans when M is contiguous.
        let p = plan_ldmatrix(&o, &[]);
        assert!(p.as_ref().is_none_or(|p| p.trans), "{p:?}");
        // Padding that splits rows refuses.
        let s = SwizzledShared::new(8, 1, 1, &[1, 0]);
        let sl = Encoding::from(s).to_linear_layout(&shape).unwrap();
        let o = offsets(&a, &sl, 4);
        assert!(plan_ldmatrix(&o, &[]).is_some());
        assert!(plan_ldmatrix(&o, &[(4, 4)]).is_none());
        assert!(plan_ldmatrix(&o, &[(32, 8)]).is_some());
    }
}
