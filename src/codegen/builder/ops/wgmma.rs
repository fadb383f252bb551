//! Hopper warpgroup MMA (`wgmma.mma_async`, sm_90a): `acc += a · b` with A and B read from shared
//! memory through matrix descriptors and the accumulator in registers, asynchronously.
//!
//! The accumulator is an `[M, N]` f32 tile in the Hopper MMA layout
//! (`NvidiaMma::hopper(&[num_warps, 1], N, 16)`): each warpgroup (4 warps) owns 64-row blocks.
//! A is an `[M, K]` buffer and B a `[K, N]` buffer in NVMMA shared layouts with a 32, 64 or
//! 128-byte swizzle, either major order for 16-bit types (K-major only for fp8 and tf32).
//!
//! The descriptors come from the algebra: the strides the hardware's canonical layout needs (the
//! byte offsets of row 8, of the next swizzle-wide column block, of each k-step) are read off the
//! buffer's inverse layout, and then the addresses the hardware will compute for every element of
//! every instruction are checked against the buffer's layout. A layout wgmma cannot read is a
//! typed error before any code is emitted.
//!
//! [`wgmma`](KernelBuilder::wgmma) fences, issues one instruction per (64-row block, k-step) and
//! commits the group; [`wgmma_wait`](KernelBuilder::wgmma_wait) waits until at most `pending`
//! groups are in flight and hands back the accumulators it waited for (read them only after it).

use crate::codegen::lower::wgmma_plan::{AShared, Major, Operand2d, WgmmaPlan};

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::target::nvptx::wgmma::WgmmaShape;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};
use crate::layout::encoding::{NvidiaMma, NvmmaShared};
use crate::layout::{Dim, LinearLayout};
use crate::target::Feature;

impl<'ctx> KernelBuilder<'ctx> {
    /// Issues `acc + a · b` on the tensor cores, asynchronously (one commit group): `a` an `[M, K]`
    /// and `b` a `[K, N]` shared buffer (NVMMA layouts, 32/64/128-byte swizzle), `acc` an `[M, N]`
    /// f32 tile in `NvidiaMma::hopper(&[num_warps, 1], N, 16)`. Returns the new accumulator, which
    /// may be read only after [`wgmma_wait`](Self::wgmma_wait) names it. `a` and `b` must not be
    /// overwritten before then either. Inputs f16, bf16 (16-bit K either major), fp8 e4m3/e5m2 or
    /// f32 as tf32 (K-major).
    #[track_caller]
    pub fn wgmma(&mut self, a: Value, b: Value, acc: Value) -> Result<Value> {
        self.wgmma_with(a, b, acc, None)
    }

    /// [`wgmma`](Self::wgmma) that adds to `acc` only where `use_acc` (an `i1` scalar) holds and
    /// otherwise starts from zero (the instruction's `scale-d`): a loop over tiles restarts its
    /// accumulator this way without writing its registers while a wgmma may still be using them
    /// (which would make ptxas serialise the pipeline).
    #[track_caller]
    pub fn wgmma_with(
        &mut self,
        a: Value,
        b: Value,
        acc: Value,
        use_acc: Option<Value>,
    ) -> Result<Value> {
        self.record_checked(
            OpKind::Wgmma {
                has_use_acc: use_acc.is_some(),
            },
            [
                Some(Arg::from(a)),
                Some(Arg::from(b)),
                Some(Arg::from(acc)),
                use_acc.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.wgmma_checked(a, b, acc, use_acc),
        )
    }

    /// Checks a wgmma, plans its instructions and makes its accumulator (lowered from the
    /// record by `lower/wgmma_ops.rs`, from the plan kept by the result).
    fn wgmma_checked(
        &mut self,
        a: Value,
        b: Value,
        acc: Value,
        use_acc: Option<Value>,
    ) -> Result<Value> {
        const OP: &str = "wgmma";
        self.start_body()?;
        if let Some(u) = use_acc {
            let d = self.get_kind(OP, u, &[ValueKind::Scalar], "an i1 scalar (use_acc)")?;
            if d.ty != Type::Scalar(DType::I1) {
                return Err(CodegenError::InvalidType {
                    op: OP,
                    expected: "an i1 scalar use_acc".into(),
                    value: d.describe(),
                });
            }
        }
        self.lx.target.require(Feature::Wgmma, OP)?;
        let da = self.get_kind(
            OP,
            a,
            &[ValueKind::SharedDesc, ValueKind::Tile],
            "a shared buffer or a register tile (A)",
        )?;
        let a_in_regs = da.kind == ValueKind::Tile;
        let db = self.get_kind(OP, b, &[ValueKind::SharedDesc], "a shared buffer (B)")?;
        let dc = self.get_kind(OP, acc, &[ValueKind::Tile], "an f32 accumulator tile")?;
        let (ta, tb) = (scalar_dtype(da.ty), scalar_dtype(db.ty));
        if ta != tb
            || !matches!(
                ta,
                DType::F16 | DType::BF16 | DType::F8E4M3 | DType::F8E5M2 | DType::F32
            )
        {
            return Err(CodegenError::TypeMismatch {
                op: OP,
                lhs: da.describe(),
                rhs: format!(
                    "{} (A and B: both f16, bf16, f8e4m3, f8e5m2 or f32/tf32)",
                    db.describe()
                ),
            });
        }
        if dc.ty != Type::Scalar(DType::F32) {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "an f32 accumulator".into(),
                value: dc.describe(),
            });
        }
        if da.shape.len() != 2 || db.shape.len() != 2 || dc.shape.len() != 2 {
            return Err(CodegenError::arg(OP, "A, B and the accumulator are rank 2"));
        }
        let (m, k, n) = (da.shape[0], da.shape[1], db.shape[1]);
        if db.shape[0] != k || dc.shape != [m, n] {
            return Err(CodegenError::ShapeMismatch {
                op: OP,
                lhs: format!("A {} · B {}", da.describe(), db.describe()),
                rhs: format!("accumulator {}", dc.describe()),
            });
        }
        let eb = ta.mem_bytes();
        let k_step = 32 / eb; // 16 (16-bit), 32 (fp8), 8 (tf32)
        let warps = u64::from(self.lx.num_warps);
        if warps % 4 != 0
            || m % (16 * warps) != 0
            || k % k_step != 0
            || !(8..=256).contains(&n)
            || n % 8 != 0
        {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "M×N×K = {m}×{n}×{k} with {warps} warps: M must be a multiple of 16 × warps (whole \
                     warpgroups), N 8 to 256 in steps of 8, K a multiple of {k_step}"
                ),
            ));
        }
        let want =
            NvidiaMma::hopper(&[self.lx.num_warps, 1], n as u32, 16).to_linear_layout(&[m, n])?;
        let have = dc.layout.clone().expect("a tile has a layout");
        if !have.ll.equivalent(&want) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "the accumulator {} must be in NvidiaMma::hopper(&[{warps}, 1], {n}, 16) ({want:?})",
                    dc.describe()
                ),
            });
        }
        let reps = m / (16 * warps);
        let buf_b = db.shared.clone().expect("a descriptor has a buffer");
        let ob = operand_desc(OP, "B", &buf_b.layout, n, k, eb, false)?;
        let a_major = if a_in_regs {
            Major::K
        } else {
            let buf_a = da.shared.clone().expect("a descriptor has a buffer");
            operand_desc(OP, "A", &buf_a.layout, m, k, eb, true)?.major
        };
        if eb != 2 && (a_in_regs || a_major != Major::K || ob.major != Major::K) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "{ta} operands must be K-major and A in shared memory (only 16-bit types transpose or come from registers)"
                ),
            });
        }
        // Registers of the tile, by (rep, wgmma register index): found through the layout at lane 0
        // of warp 0, where register i of rep r holds row 8·((i/2)%2) + 16·warps·r, column
        // 8·(i/4) + i%2.
        let nregs = (n / 2) as usize;
        let mut slot = vec![usize::MAX; reps as usize * nregs];
        for reg in 0..have.num_regs() {
            let c = have.reg_coord(reg);
            let (row, col) = (c[0], c[1]);
            let r = row / (16 * warps);
            let i = (col / 8) * 4 + ((row % 16) / 8) * 2 + col % 2;
            slot[(r as usize) * nregs + i as usize] = reg;
        }
        if slot.contains(&usize::MAX) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "the accumulator {} does not cover every wgmma register",
                    dc.describe()
                ),
            });
        }
        let a = if a_in_regs {
            None
        } else {
            Some(self.a_shared(OP, &da, reps, warps, eb)?)
        };
        let shape = WgmmaShape {
            n,
            k_step,
            elem: ta,
            trans_a: (!a_in_regs).then_some(a_major == Major::Mn),
            trans_b: ob.major == Major::Mn,
        };
        let info = AxisInfo::unknown(&dc.shape);
        let v = self
            .lx
            .values
            .new_value(dc.ty, dc.shape.clone(), Some(have), vec![], info);
        let plan = WgmmaPlan {
            shape,
            slot,
            reps,
            warps,
            b: ob,
            a,
        };
        self.lx.wgmma_plans.insert(v.index, plan);
        Ok(v)
    }

    /// Waits until at most `pending` wgmma groups are in flight, and returns `deps` (accumulators
    /// of earlier [`wgmma`](Self::wgmma)s) as values that are safe to read: their registers pass
    /// through the wait, so nothing reads them before it.
    #[track_caller]
    pub fn wgmma_wait(&mut self, pending: u32, deps: &[Value]) -> Result<Vec<Value>> {
        self.record_checked(
            OpKind::WgmmaWait(pending),
            deps.iter().map(|d| Arg::from(*d)).collect(),
            |kb| kb.wgmma_wait_checked(deps),
        )
    }

    /// Checks a wait's accumulators and makes its results (lowered from the record by
    /// `lower/program.rs`).
    fn wgmma_wait_checked(&mut self, deps: &[Value]) -> Result<Vec<Value>> {
        const OP: &str = "wgmma_wait";
        self.start_body()?;
        self.lx.target.require(Feature::Wgmma, OP)?;
        let ds = deps
            .iter()
            .map(|v| self.get_kind(OP, *v, &[ValueKind::Tile], "an accumulator tile"))
            .collect::<Result<Vec<_>>>()?;
        let mut out = Vec::with_capacity(ds.len());
        for d in &ds {
            let info = d.info.clone();
            out.push(self.lx.values.new_value(
                d.ty,
                d.shape.clone(),
                d.layout.clone(),
                vec![],
                info,
            ));
        }
        Ok(out)
    }

    /// A in shared memory: its descriptor's fields and k-step starts, and the byte offsets of
    /// warpgroup g's rows and of each 64-row block.
    fn a_shared(
        &self,
        op: &'static str,
        da: &ValueData<'ctx>,
        reps: u64,
        warps: u64,
        eb: u64,
    ) -> Result<AShared> {
        let (m, k) = (da.shape[0], da.shape[1]);
        let buf_a = da.shared.clone().expect("a descriptor has a buffer");
        let desc = operand_desc(op, "A", &buf_a.layout, m, k, eb, true)?;
        // Row origin of each (warpgroup, rep) block: warpgroup g at 64·g, rep r at 16·warps·r.
        let inv_a = buf_a.layout.invert()?;
        let row_off = |row: u64| -> Result<u64> {
            Ok(inv_a.apply(&[(Dim::dim(0), row), (Dim::dim(1), 0)])?[0].1 * eb)
        };
        let groups = warps / 4;
        let group_offs: Vec<u64> = (0..groups.trailing_zeros())
            .map(|j| row_off(64 << j))
            .collect::<Result<_>>()?;
        let rep_offs: Vec<u64> = (0..reps)
            .map(|r| row_off(16 * warps * r))
            .collect::<Result<_>>()?;
        Ok(AShared {
            desc,
            group_offs,
            rep_offs,
        })
    }
}

/// The descriptor of a wgmma operand held in `l` (offset → `[rows, cols]`): A is `[mn, k]`
/// (`is_a`), B is `[k, mn]`. Finds the swizzle and major order by matching NVMMA layouts, reads
/// LBO, SBO and the k-step starts off the inverse layout, and checks that the hardware's address
/// for every element of every instruction is where `l` puts it.
fn operand_desc(
    op: &'static str,
    name: &str,
    l: &LinearLayout,
    mn: u64,
    k: u64,
    eb: u64,
    is_a: bool,
) -> Result<Operand2d> {
    let shape = if is_a { [mn, k] } else { [k, mn] };
    let bits = (eb * 8) as u32;
    // NVMMA "transposed" means dim 0 contiguous: for A ([mn, k]) that is MN-major, for B ([k, mn])
    // K-major.
    let mut found = None;
    for sw in [128u32, 64, 32] {
        for transposed in [false, true] {
            let cand = NvmmaShared::new(sw, bits, 2, transposed).to_linear_layout(&shape);
            if matches!(&cand, Ok(c) if c.equivalent(l)) {
                let major = if transposed == is_a {
                    Major::Mn
                } else {
                    Major::K
                };
                found = Some((u64::from(sw), major));
                break;
            }
        }
        if found.is_some() {
            break;
        }
    }
    let (swizzle, major) = found.ok_or_else(|| CodegenError::BadLayout {
        op,
        reason: format!(
            "operand {name} {shape:?} is laid out as {l:?}: wgmma reads NVMMA shared layouts with a 32, 64 or 128-byte swizzle"
        ),
    })?;
    let inv = l.invert()?;
    // Byte offset of element (mn, k).
    let at = |m: u64, kk: u64| -> Result<u64> {
        let (d0, d1) = if is_a { (m, kk) } else { (kk, m) };
        Ok(inv.apply(&[(Dim::dim(0), d0), (Dim::dim(1), d1)])?[0].1 * eb)
    };
    let k_step = 32 / eb;
    let row_elems = swizzle / eb; // elements per swizzled row
    let (lbo, sbo) = match major {
        // K-major: 8-row groups `sbo` apart; LBO is unused with a swizzle (one k-step never
        // leaves a swizzled row), set to 1 as CUTLASS does.
        Major::K => (16, at(8, 0)?),
        // MN-major: `row_elems`-wide MN blocks `lbo` apart, 8-deep k groups `sbo` apart.
        Major::Mn => (
            if mn > row_elems {
                at(row_elems, 0)?
            } else {
                16
            },
            at(0, 8)?,
        ),
    };
    let ksteps = k / k_step;
    let k_starts: Vec<u64> = (0..ksteps)
        .map(|s| at(0, s * k_step))
        .collect::<Result<_>>()?;
    // The hardware's view: one instruction covers 64 (A) or all `mn` (B) rows of MN and k_step of
    // K; its address for (m, kk) is start + f(m, kk), then swizzled on address bits [4, 7) by
    // bits [7, 10) (fewer for narrower swizzles; the buffer is 1024-byte aligned).
    let span = if is_a { 64.min(mn) } else { mn };
    let sw_bits = (swizzle / 16).trailing_zeros() as u64;
    let swz = |a: u64| a ^ (((a >> 7) & ((1 << sw_bits) - 1)) << 4);
    // The layout is linear over GF(2) and `eb` a power of two, so the byte offset of (m, kk) is
    // that of (m, 0) XOR that of (0, kk): two tables instead of an evaluation per element (the
    // B operand of a 128 × 256 × 64 GEMM has 16 384 elements to check).
    let (rows, cols): (Vec<u64>, Vec<u64>) = if eb.is_power_of_two() {
        (
            (0..span).map(|m| at(m, 0)).collect::<Result<_>>()?,
            (0..k).map(|kk| at(0, kk)).collect::<Result<_>>()?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let want_at = |m: u64, kk: u64| -> Result<u64> {
        if rows.is_empty() {
            at(m, kk)
        } else {
            Ok(rows[m as usize] ^ cols[kk as usize])
        }
    };
    for (s, &start) in k_starts.iter().enumerate() {
        for m in 0..span {
            for kk in 0..k_step {
                let f = match major {
                    Major::K => (m % 8) * swizzle + (m / 8) * sbo + kk * eb,
                    Major::Mn => {
                        (m % row_elems) * eb
                            + (m / row_elems) * lbo
                            + (kk % 8) * swizzle
                            + (kk / 8) * sbo
                    }
                };
                let hw = swz(start + f);
                let want = want_at(m, s as u64 * k_step + kk)?;
                if hw != want {
                    return Err(CodegenError::BadLayout {
                        op,
                        reason: format!(
                            "operand {name}: wgmma would read element (mn {m}, k {}) at byte {hw}, the layout puts it at {want} ({l:?})",
                            s as u64 * k_step + kk
                        ),
                    });
                }
            }
        }
    }
    Ok(Operand2d {
        major,
        swizzle,
        lbo,
        sbo,
        k_starts,
    })
}
