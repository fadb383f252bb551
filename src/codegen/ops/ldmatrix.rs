//! `ldmatrix` (sm_75+, `.trans` too): a warp reads 8 × 8 matrices of 16-bit elements from shared
//! memory, each lane supplying the address of one matrix row of 16 contiguous bytes, and each lane
//! receives two elements of each matrix in a 32-bit register. It is how MMA operands in a
//! `DotOperand` layout are read on Ampere: four matrices per instruction instead of eight 4-byte
//! loads.
//!
//! Whether a (tile layout, shared layout) pair allows it is a question for the algebra, not for
//! the encodings' names. With `O = S⁻¹ ∘ R` ((register, lane, warp) → element offset):
//!
//! - without `.trans`, lane `l` receives row `l / 4`, columns `2·(l % 4)` and `+1` of a matrix:
//!   so register bit 0 and lane bits 0, 1 (the columns) must step the offset by 1, 2, 4, and lane
//!   bits 2, 3, 4 choose the row;
//! - with `.trans`, lane `l` receives column `l / 4`, rows `2·(l % 4)` and `+1`: lane bits 2, 3, 4
//!   (the stored columns) must step the offset by 1, 2, 4, and register bit 0 and lane bits 0, 1
//!   choose the stored row;
//! - every other basis (the rows, register bits from 1 up, the warps) must keep offsets 8-element
//!   (16-byte) aligned, and padding must not split a row.
//!
//! Register bits 1 and 2 then pick the instruction's matrices (`.x4`; `.x2` or `.x1` for fewer
//! registers), and the row addresses form one more linear layout (lane bits 0–2 → the row bases,
//! lane bits 3, 4 → register bits 1, 2) that is emitted like any tile's offsets. When neither form
//! fits, the tile is read by `load_shared`.

use std::rc::Rc;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::values::{Value, ValueData};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::Result;
use crate::codegen::ops::layout_arg::IntoLayout;
use crate::codegen::ops::shared::{offset_layout, scalar_dtype};
use crate::codegen::target::nvptx::inline_ptx::{vector, InlinePtx, RegClass};
use crate::codegen::target::{Feature, Vendor};
use crate::layout::{Dim, LinearLayout};

/// How one tile is read with `ldmatrix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LdMatrixPlan {
    /// `.trans`.
    pub trans: bool,
    /// Matrices per instruction (1, 2 or 4).
    pub matrices: usize,
    /// Row addresses: (register = instruction, lane, warp) → element offset.
    pub addresses: LinearLayout,
}

/// The `ldmatrix` plan for reading a tile whose registers sit at `offsets` ((register, lane,
/// warp) → element offset, one out dim) of a buffer with `padding`, or `None` when the layouts do
/// not allow it (see the [module docs](self)).
pub(crate) fn plan_ldmatrix(offsets: &TileLayout, padding: &[(u64, u64)]) -> Option<LdMatrixPlan> {
    let off = |b: &[Vec<u64>], i: usize| b.get(i).map(|x| x[0]);
    if offsets.lane.len() != 5 || offsets.reg.is_empty() {
        return None;
    }
    if padding
        .iter()
        .any(|&(interval, pad)| interval < 8 || pad % 8 != 0)
    {
        return None;
    }
    let reg0 = off(&offsets.reg, 0)?;
    let lanes: Vec<u64> = (0..5).map(|i| offsets.lane[i][0]).collect();
    let non_trans = ([reg0, lanes[0], lanes[1]], [lanes[2], lanes[3], lanes[4]]);
    let trans = ([lanes[2], lanes[3], lanes[4]], [reg0, lanes[0], lanes[1]]);
    let aligned = |x: u64| x.is_multiple_of(8);
    let others_aligned = offsets.reg[1..]
        .iter()
        .chain(&offsets.warp)
        .all(|b| aligned(b[0]));
    if !others_aligned {
        return None;
    }
    let (is_trans, rows) = [(false, non_trans), (true, trans)]
        .into_iter()
        .find(|(_, (cols, rows))| *cols == [1, 2, 4] && rows.iter().all(|&r| aligned(r)))
        .map(|(t, (_, rows))| (t, rows))?;
    // Pairs of registers: one 32-bit result each; matrices per instruction from register bits
    // 1 and 2.
    let pair_bits = offsets.reg.len() - 1;
    let matrix_bits = pair_bits.min(2);
    let mut lane_bases: Vec<Vec<u64>> = rows.iter().map(|&r| vec![r]).collect();
    for i in 0..2 {
        let b = if i < matrix_bits {
            offsets.reg[1 + i][0]
        } else {
            0
        };
        lane_bases.push(vec![b]);
    }
    let reg_bases: Vec<Vec<u64>> = offsets.reg[1 + matrix_bits..].to_vec();
    let warp_bases: Vec<Vec<u64>> = offsets.warp.clone();
    let size = offsets.shape[0];
    let addresses = LinearLayout::from_bases(
        [
            (Dim::REGISTER, reg_bases),
            (Dim::LANE, lane_bases),
            (Dim::WARP, warp_bases),
        ],
        [(Dim::dim(0), size)],
        false,
    )
    .ok()?;
    Some(LdMatrixPlan {
        trans: is_trans,
        matrices: 1 << matrix_bits,
        addresses,
    })
}

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
        let at = std::panic::Location::caller();
        self.reported("ldmatrix", at, Some(desc), |kb| {
            kb.ldmatrix_inner(desc, layout)
        })
    }

    fn ldmatrix_inner(&mut self, desc: Value, layout: impl IntoLayout) -> Result<Value> {
        const OP: &str = "ldmatrix";
        let d = self.shared_desc(OP, desc)?;
        let l = self.tile_layout(OP, layout, Some(&d.shape))?;
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let elem = scalar_dtype(d.ty);
        let offsets = offset_layout(OP, &l, &buf.layout, self.threads_per_warp(), self.num_warps)?;
        let usable = self.target.vendor() == Vendor::Nvidia
            && self.target.supports(Feature::LdMatrix)
            && elem.mem_bytes() == 2;
        let plan = if usable {
            plan_ldmatrix(&offsets, &buf.padding)
        } else {
            None
        };
        let regs = match plan {
            Some(plan) => self.emit_ldmatrix(&plan, &l, &d, elem)?,
            None => {
                let acc = self.desc_access_at(offsets, &d)?;
                let regs = self.shared_load(&acc, elem, |_| true)?;
                regs.into_iter().map(|r| r.expect("all loaded")).collect()
            }
        };
        let info = AxisInfo::unknown(&d.shape);
        Ok(self.new_value(d.ty, d.shape.clone(), Some(l), regs, info))
    }

    fn emit_ldmatrix(
        &mut self,
        plan: &LdMatrixPlan,
        l: &Rc<TileLayout>,
        d: &ValueData<'ctx>,
        elem: crate::codegen::types::DType,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        const OP: &str = "ldmatrix";
        let addr_layout =
            TileLayout::new(OP, &plan.addresses, self.threads_per_warp(), self.num_warps)?;
        let acc = self.desc_access_at(addr_layout, d)?;
        let ctx = self.em.ctx;
        let i32t = ctx.i32_type();
        let pair_ty = elem.llvm(ctx);
        let pair = crate::codegen::ops::global::vec_of(pair_ty, 2).into_vector_type();
        let mut out: Vec<BasicValueEnum> = Vec::with_capacity(l.num_regs());
        let trans = if plan.trans { ".trans" } else { "" };
        for addr in acc.addrs.clone() {
            let ptr = self.smem_at(addr)?;
            let mut asm = InlinePtx::new();
            let outs = asm.outputs(RegClass::B32, plan.matrices);
            let a = asm.input(RegClass::B64, ptr.into());
            asm.inst(format!(
                "ldmatrix.sync.aligned.m8n8.x{}{trans}.shared.b16 {}, [{a}];",
                plan.matrices,
                vector(&outs)
            ));
            for word in asm.call(&self.em)? {
                let v = self
                    .em
                    .b
                    .build_bit_cast(word, pair, "")?
                    .into_vector_value();
                for i in 0..2 {
                    out.push(
                        self.em
                            .b
                            .build_extract_element(v, i32t.const_int(i, false), "")?,
                    );
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encoding::{helpers::default_nvmma_shared, DotOperand, Encoding};
    use crate::layout::encoding::{CgaLayout, NvidiaMma, SwizzledShared};

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
