//! `dot(a, b, acc)` on Ampere tensor cores: `acc + a · b` as `mma.sync.aligned` instructions
//! (sm_80+): `m16n8k16` for f16 and bf16 operands, `m16n8k8` for f32 operands as tf32, always
//! with f32 accumulation.
//!
//! The instruction fixes which elements each lane holds (the PTX ISA's fragment tables): per
//! operand, five lane bases (the lane's `groupID` and `threadID_in_group`) and an ordered list of
//! fragment positions for its registers. The tiles' layouts say where every element is. So the
//! op asks the algebra, not the encodings' names:
//!
//! - each tile's lane bases must be the instruction's (that is the `DotOperand` / `NvidiaMma` v2
//!   layout with `k_width = 32 / bits`);
//! - warps must agree: a warp basis of `acc` at `(m, n)` must be `(m, 0)` in `a` and `(0, n)` in
//!   `b` (A is shared by warps along N, B by warps along M; K is never split across warps);
//! - every remaining element comes from registers: for each instruction tile of `acc` (the
//!   register coordinates with the fragment bits cleared) and each K step, each fragment position
//!   is looked up among the registers' coordinates, and the instruction takes the register that
//!   holds it.
//!
//! A layout that breaks a rule is a typed error naming the operand and the rule, before any IR is
//! emitted; nothing about register order is assumed that the layouts do not say.

use crate::codegen::lower::mma_plan::{DotPlan, MmaInstr, MmaSchedule, MmaStep};
use std::collections::HashMap;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{OpKind, ValueId};
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::target::{Feature, LlvmTarget};
use crate::codegen::types::{DType, Type};

const OP: &str = "dot";

/// The accumulator's lane bases (m, n): `groupID` along M, `2 · threadID_in_group` along N.
pub(crate) const C_LANE: [(u64, u64); 5] = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)];
/// The accumulator's fragment positions (m, n): c0..c3.
pub(crate) const C_FRAG: [(u64, u64); 4] = [(0, 0), (0, 1), (8, 0), (8, 1)];

const A_FRAG_K16: [(u64, u64); 8] = [
    (0, 0),
    (0, 1),
    (8, 0),
    (8, 1),
    (0, 8),
    (0, 9),
    (8, 8),
    (8, 9),
];
const B_FRAG_K16: [(u64, u64); 4] = [(0, 0), (1, 0), (8, 0), (9, 0)];
const A_FRAG_K8: [(u64, u64); 4] = [(0, 0), (8, 0), (0, 4), (8, 4)];
const B_FRAG_K8: [(u64, u64); 2] = [(0, 0), (4, 0)];

/// The instruction for operands of `elem` (f16, bf16, f32 as tf32).
pub(crate) fn mma_instr(elem: DType) -> Option<MmaInstr> {
    let k16 = |name, elem| MmaInstr {
        name,
        elem,
        k: 16,
        per_reg: 2,
        a_lane: [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)],
        a_frag: &A_FRAG_K16,
        b_lane: [(2, 0), (4, 0), (0, 1), (0, 2), (0, 4)],
        b_frag: &B_FRAG_K16,
    };
    match elem {
        DType::F16 => Some(k16(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            DType::F16,
        )),
        DType::BF16 => Some(k16(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
            DType::BF16,
        )),
        DType::F32 => Some(MmaInstr {
            name: "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            elem: DType::F32,
            k: 8,
            per_reg: 1,
            a_lane: [(0, 1), (0, 2), (1, 0), (2, 0), (4, 0)],
            a_frag: &A_FRAG_K8,
            b_lane: [(1, 0), (2, 0), (0, 1), (0, 2), (0, 4)],
            b_frag: &B_FRAG_K8,
        }),
        _ => None,
    }
}

/// Register coordinate → first register holding it.
fn coord_index(l: &TileLayout) -> HashMap<(u64, u64), usize> {
    let mut m = HashMap::new();
    for r in 0..l.num_regs() {
        let c = l.reg_coord(r);
        m.entry((c[0], c[1])).or_insert(r);
    }
    m
}

fn pairs(bases: &[Vec<u64>]) -> Vec<(u64, u64)> {
    bases.iter().map(|b| (b[0], b[1])).collect()
}

/// Plans the instructions of `acc + a · b` from the three tile layouts (see the
/// [module docs](self)). Errors name the operand (`a`, `b`, `acc`) and the rule it breaks.
pub(crate) fn plan_mma(
    instr: &MmaInstr,
    a: &TileLayout,
    b: &TileLayout,
    c: &TileLayout,
) -> std::result::Result<MmaSchedule, String> {
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    if m % 16 != 0 || n % 8 != 0 || k % instr.k != 0 {
        return Err(format!(
            "M = {m}, N = {n}, K = {k}: {} needs M a multiple of 16, N of 8 and K of {}",
            instr.name, instr.k
        ));
    }
    for (what, l, want) in [
        ("a", a, instr.a_lane),
        ("b", b, instr.b_lane),
        ("acc", c, C_LANE),
    ] {
        let got = pairs(&l.lane);
        if got != want {
            return Err(format!(
                "operand {what}'s lanes hold {got:?}, {} needs {want:?} (a DotOperand / NvidiaMma v2 \
                 layout with k_width = {})",
                instr.name, instr.per_reg
            ));
        }
    }
    let (wa, wb, wc) = (pairs(&a.warp), pairs(&b.warp), pairs(&c.warp));
    if wa.len() != wc.len() || wb.len() != wc.len() {
        return Err("the operands have different warp counts".into());
    }
    for (i, &(cm, cn)) in wc.iter().enumerate() {
        if wa[i] != (cm, 0) {
            return Err(format!(
                "warp bit {i}: acc holds (m, n) = {:?}, so a must hold (m, k) = ({cm}, 0), not {:?} \
                 (a is shared by the warps along N and K is not split across warps)",
                wc[i], wa[i]
            ));
        }
        if wb[i] != (0, cn) {
            return Err(format!(
                "warp bit {i}: acc holds (m, n) = {:?}, so b must hold (k, n) = (0, {cn}), not {:?} \
                 (b is shared by the warps along M and K is not split across warps)",
                wc[i], wb[i]
            ));
        }
    }
    let (ia, ib, ic) = (coord_index(a), coord_index(b), coord_index(c));
    let find = |idx: &HashMap<(u64, u64), usize>, what: &str, x: (u64, u64)| {
        idx.get(&x).copied().ok_or_else(|| {
            format!(
                "no register of {what} holds the fragment element at {x:?} (relative to the lane's \
                 own): its registers do not tile the instruction"
            )
        })
    };
    // Instruction tiles of the accumulator: register coordinates without the fragment bits.
    let mut tiles: Vec<(u64, u64)> = Vec::new();
    for r in 0..c.num_regs() {
        let x = c.reg_coord(r);
        let t = (x[0] & !8, x[1] & !1);
        if !tiles.contains(&t) {
            tiles.push(t);
        }
    }
    let mut steps = Vec::new();
    let mut computed: HashMap<(u64, u64), usize> = HashMap::new();
    for k0 in (0..k).step_by(instr.k as usize) {
        for &(tm, tn) in &tiles {
            let cr: Vec<usize> = C_FRAG
                .iter()
                .map(|&(fm, fn_)| find(&ic, "acc", (tm ^ fm, tn ^ fn_)))
                .collect::<std::result::Result<_, _>>()?;
            let ar: Vec<usize> = instr
                .a_frag
                .iter()
                .map(|&(fm, fk)| find(&ia, "a", (tm ^ fm, k0 ^ fk)))
                .collect::<std::result::Result<_, _>>()?;
            let br: Vec<usize> = instr
                .b_frag
                .iter()
                .map(|&(fk, fn_)| find(&ib, "b", (k0 ^ fk, tn ^ fn_)))
                .collect::<std::result::Result<_, _>>()?;
            for &x in &cr {
                let co = c.reg_coord(x);
                computed.insert((co[0], co[1]), x);
            }
            steps.push(MmaStep {
                a: ar,
                b: br,
                c: cr,
            });
        }
    }
    let acc_source = (0..c.num_regs())
        .map(|r| {
            let x = c.reg_coord(r);
            computed.get(&(x[0], x[1])).copied().unwrap_or(r)
        })
        .collect();
    Ok(MmaSchedule { steps, acc_source })
}

impl<'ctx> KernelBuilder<'ctx> {
    /// `acc + a · b` on tensor cores (`mma.sync`, sm_80+), with f32 accumulation: `a` is
    /// `[M, K]`, `b` `[K, N]`, `acc` `[M, N]` f32. Operands are f16 or bf16 (`m16n8k16`), or f32
    /// computed as tf32 (`m16n8k8`), both the same type. Their layouts must be what the
    /// instruction holds: `a` in `DotOperand { op_idx: 0, parent: NvidiaMma::ampere(..),
    /// k_width: 32 / bits }`, `b` in the `op_idx: 1` one, `acc` in the `NvidiaMma` (see the
    /// [module docs](self) for the exact rule). Returns the new accumulator in `acc`'s layout.
    #[track_caller]
    pub fn dot(&mut self, a: Value, b: Value, acc: Value) -> Result<Value> {
        self.record_checked(OpKind::Dot, vec![a.into(), b.into(), acc.into()], |kb| {
            kb.dot_checked(a, b, acc)
        })
    }

    /// Checks a `dot` and plans its instructions; `lower/mma.rs` emits them.
    fn dot_checked(&mut self, a: Value, b: Value, acc: Value) -> Result<Value> {
        self.lx.target.require(Feature::MmaSync, OP)?;
        let tile = |kb: &mut Self, v| kb.get_kind(OP, v, &[ValueKind::Tile], "a register tile");
        let (da, db, dc) = (tile(self, a)?, tile(self, b)?, tile(self, acc)?);
        check_shapes(&da, &db, &dc)?;
        if dc.ty != Type::Scalar(DType::F32) {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "an f32 accumulator".into(),
                value: dc.describe(),
            });
        }
        if da.ty != db.ty {
            return Err(CodegenError::TypeMismatch {
                op: OP,
                lhs: da.describe(),
                rhs: db.describe(),
            });
        }
        let instr = match da.ty {
            Type::Scalar(d) => mma_instr(d),
            Type::Ptr(..) => None,
        };
        let Some(instr) = instr else {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "f16, bf16 or f32 (tf32) operands".into(),
                value: da.describe(),
            });
        };
        let layout = |d: &ValueData<'ctx>| {
            d.layout.clone().ok_or_else(|| CodegenError::InvalidType {
                op: OP,
                expected: "a register tile with a layout".into(),
                value: d.describe(),
            })
        };
        let (la, lb, lc) = (layout(&da)?, layout(&db)?, layout(&dc)?);
        let sched = plan_mma(&instr, &la, &lb, &lc).map_err(|reason| CodegenError::BadLayout {
            op: OP,
            reason: format!(
                "{reason}: a = {}, b = {}, acc = {}",
                da.describe(),
                db.describe(),
                dc.describe()
            ),
        })?;
        let info = AxisInfo::unknown(&dc.shape);
        let v = self
            .lx
            .values
            .new_value(dc.ty, dc.shape.clone(), Some(lc), vec![], info);
        self.lx
            .staged
            .dots
            .put(ValueId(v.index), DotPlan { instr, sched });
        Ok(v)
    }
}

/// `a` is `[M, K]`, `b` `[K, N]`, `acc` `[M, N]`.
fn check_shapes(a: &ValueData<'_>, b: &ValueData<'_>, c: &ValueData<'_>) -> Result<()> {
    let mismatch = |x: &ValueData<'_>, y: &ValueData<'_>| CodegenError::ShapeMismatch {
        op: OP,
        lhs: x.describe(),
        rhs: y.describe(),
    };
    for d in [a, b, c] {
        if d.shape.len() != 2 {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "a rank-2 tile".into(),
                value: d.describe(),
            });
        }
    }
    if a.shape[1] != b.shape[0] {
        return Err(mismatch(a, b));
    }
    if c.shape != [a.shape[0], b.shape[1]] {
        return Err(mismatch(c, if c.shape[0] != a.shape[0] { a } else { b }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encoding::{DotOperand, Encoding, NvidiaMma};

    fn layouts(warps: [u32; 2], m: u64, n: u64, k: u64, kw: u32) -> [TileLayout; 3] {
        let acc = NvidiaMma::ampere(&warps);
        let nw = warps[0] * warps[1];
        let tl = |e: Encoding, s: [u64; 2]| {
            TileLayout::new("t", &e.to_linear_layout(&s).unwrap(), 32, nw).unwrap()
        };
        [
            tl(DotOperand::new(0, acc.clone().into(), kw).into(), [m, k]),
            tl(DotOperand::new(1, acc.clone().into(), kw).into(), [k, n]),
            tl(acc.into(), [m, n]),
        ]
    }

    /// The schedule computes every accumulator element exactly as `Σ_k a[m, k] · b[k, n]` with
    /// the instruction's semantics, checked by simulating the lanes of every warp.
    #[test]
    fn the_schedule_is_the_matrix_product_for_every_warp_split() {
        for (elem, kw) in [(DType::F16, 2), (DType::F32, 1)] {
            let instr = mma_instr(elem).unwrap();
            for warps in [[1, 1], [2, 2], [4, 1], [1, 4], [2, 4]] {
                for (m, n, k) in [(16, 8, 16), (64, 64, 32), (128, 32, 64), (32, 128, 16)] {
                    let [a, b, c] = layouts(warps, m, n, k, kw);
                    let s = plan_mma(&instr, &a, &b, &c)
                        .unwrap_or_else(|e| panic!("{warps:?} {m}x{n}x{k}: {e}"));
                    simulate(&instr, &a, &b, &c, &s, warps[0] * warps[1]);
                }
            }
        }
    }

    fn at(l: &TileLayout, r: usize, lane: u64, warp: u64) -> (u64, u64) {
        let mut x = l.reg_coord(r);
        for (i, bs) in l.lane.iter().enumerate() {
            if lane >> i & 1 == 1 {
                x[0] ^= bs[0];
                x[1] ^= bs[1];
            }
        }
        for (i, bs) in l.warp.iter().enumerate() {
            if warp >> i & 1 == 1 {
                x[0] ^= bs[0];
                x[1] ^= bs[1];
            }
        }
        (x[0], x[1])
    }

    /// Runs the schedule with the PTX ISA's fragment semantics on integer matrices.
    fn simulate(
        instr: &MmaInstr,
        a: &TileLayout,
        b: &TileLayout,
        c: &TileLayout,
        s: &MmaSchedule,
        warps: u32,
    ) {
        let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
        let av = |i: u64, j: u64| (i * 7 + j * 3) % 11;
        let bv = |i: u64, j: u64| (i * 5 + j * 2) % 13;
        for w in 0..warps as u64 {
            let mut acc = vec![vec![0u64; c.num_regs()]; 32];
            for st in &s.steps {
                // Fragment semantics: lane (g = lane / 4, t = lane % 4) of the instruction holds
                // the elements the ISA names; an instruction computes the 16 × 8 product.
                let mut amat = vec![vec![0u64; instr.k as usize]; 16];
                let mut bmat = vec![vec![0u64; 8]; instr.k as usize];
                for lane in 0..32u64 {
                    let lane_a = instr_pos(&instr.a_lane, lane);
                    for (f, &(fm, fk)) in instr.a_frag.iter().enumerate() {
                        let (i, j) = ((lane_a.0 ^ fm) as usize, (lane_a.1 ^ fk) as usize);
                        let (gm, gk) = at(a, st.a[f], lane, w);
                        amat[i][j] = av(gm, gk);
                    }
                    let lane_b = instr_pos(&instr.b_lane, lane);
                    for (f, &(fk, fn_)) in instr.b_frag.iter().enumerate() {
                        let (i, j) = ((lane_b.0 ^ fk) as usize, (lane_b.1 ^ fn_) as usize);
                        let (gk, gn) = at(b, st.b[f], lane, w);
                        bmat[i][j] = bv(gk, gn);
                    }
                }
                for lane in 0..32u64 {
                    let lc = instr_pos(&C_LANE, lane);
                    for (f, &(fm, fn_)) in C_FRAG.iter().enumerate() {
                        let (i, j) = ((lc.0 ^ fm) as usize, (lc.1 ^ fn_) as usize);
                        let dot: u64 = (0..instr.k as usize).map(|x| amat[i][x] * bmat[x][j]).sum();
                        acc[lane as usize][st.c[f]] += dot;
                    }
                }
            }
            for lane in 0..32u64 {
                for r in 0..c.num_regs() {
                    let (gm, gn) = at(c, r, lane, w);
                    let want: u64 = (0..k).map(|x| av(gm, x) * bv(x, gn)).sum();
                    let got = acc[lane as usize][s.acc_source[r]];
                    assert_eq!(
                        got, want,
                        "warp {w} lane {lane} reg {r} ({gm}, {gn}) of {m}x{n}x{k}"
                    );
                }
            }
        }
    }

    fn instr_pos(bases: &[(u64, u64); 5], lane: u64) -> (u64, u64) {
        bases
            .iter()
            .enumerate()
            .filter(|(i, _)| lane >> i & 1 == 1)
            .fold((0, 0), |acc, (_, b)| (acc.0 ^ b.0, acc.1 ^ b.1))
    }

    #[test]
    fn layouts_the_instruction_cannot_use_are_refused_with_the_rule() {
        let instr = mma_instr(DType::F16).unwrap();
        // k_width 4 puts four K elements per lane: not the instruction's lanes.
        let [a, b, c] = layouts([2, 2], 64, 64, 32, 4);
        let e = plan_mma(&instr, &a, &b, &c).unwrap_err();
        assert!(e.contains("operand a's lanes"), "{e}");
        // Operands of a different warp split than the accumulator.
        let [a, b, _] = layouts([4, 1], 64, 64, 32, 2);
        let [_, _, c] = layouts([1, 4], 64, 64, 32, 2);
        let e = plan_mma(&instr, &a, &b, &c).unwrap_err();
        assert!(e.contains("warp bit 0"), "{e}");
        // K not a multiple of the instruction's.
        let [a, b, c] = layouts([1, 1], 16, 8, 8, 2);
        assert!(plan_mma(&instr, &a, &b, &c).is_err());
    }
}
