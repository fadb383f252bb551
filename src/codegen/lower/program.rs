//! Lowering a recorded op: a dispatch on its [`OpKind`] to the `lower/` function that emits it,
//! reading its operands and result types from the op and the value map.
//!
//! The builder's method for such an op checked it and made its results (types, layouts, facts)
//! without registers; this fills the registers. Control flow, warp roles and early returns,
//! which lower their regions' ops between their blocks, are `program_control.rs`'s.

use inkwell::values::BasicValueEnum;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::BinaryOp;
use crate::codegen::ir::{Arg, Op, OpKind, ValueId};
use crate::codegen::lower::composite::lower_composite;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::program_reduce::{lower_reduction, lower_scan};
use crate::codegen::lower::shape::{join_regs, split_regs};
use crate::codegen::lower::values::{Value, ValueData};
use crate::codegen::target::nvptx::mbarrier::MBARRIER_BYTES;
use crate::codegen::target::nvptx::{cluster, cp_async, mbarrier, tma, wgmma};
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};

const OP: &str = "lower";

/// Emits `op` and gives its results their registers.
pub(crate) fn lower_op<'ctx>(lx: &mut LowerCtx<'ctx>, op: &Op) -> Result<()> {
    match &op.kind {
        OpKind::ProgramId(axis) => {
            let name = grid_axis(OP, *axis)?;
            let v = lx.target.lowering().program_id(lx, *axis, name)?;
            set_regs(lx, op, 0, vec![v.into()])
        }
        OpKind::NumPrograms(axis) => {
            let name = grid_axis(OP, *axis)?;
            let v = lx.target.lowering().num_programs(lx, *axis, name)?;
            set_regs(lx, op, 0, vec![v.into()])
        }
        OpKind::Const => {
            let d = result(lx, op, 0)?;
            let reg = literal_reg(lx, operand_arg(op, 0)?, scalar_dtype(&d)?)?;
            set_regs(lx, op, 0, vec![reg])
        }
        OpKind::Arange { start, .. } => {
            let d = result(lx, op, 0)?;
            let l = d.layout.clone().ok_or_else(|| not_a_tile(op))?;
            let regs = lx.arange_regs(&l, *start)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Full | OpKind::Splat | OpKind::BroadcastTo => {
            let d = result(lx, op, 0)?;
            let l = d.layout.clone().ok_or_else(|| not_a_tile(op))?;
            let regs = match operand_arg(op, 0)? {
                Arg::Value(_) => {
                    let src = operand(lx, op, 0)?;
                    lx.broadcast_regs(OP, &src, &d.shape, &l)?.0
                }
                lit => vec![literal_reg(lx, lit, scalar_dtype(&d)?)?; l.num_regs()],
            };
            set_regs(lx, op, 0, regs)
        }
        OpKind::Assume { .. } | OpKind::ExpandDims(_) | OpKind::Permute(_) | OpKind::Reshape => {
            let regs = operand(lx, op, 0)?.regs.clone();
            set_regs(lx, op, 0, regs)
        }
        OpKind::Split => {
            let d = operand(lx, op, 0)?;
            let l = d.layout.clone().ok_or_else(|| not_a_tile(op))?;
            let [a, b] = split_regs(&l, &d.regs)?;
            set_regs(lx, op, 0, a)?;
            set_regs(lx, op, 1, b)
        }
        OpKind::Join => {
            let (a, b) = (operand(lx, op, 0)?, operand(lx, op, 1)?);
            set_regs(lx, op, 0, join_regs(&a.regs, &b.regs))
        }
        OpKind::Cast(to) => {
            let d = operand(lx, op, 0)?;
            let regs = lx.cast_regs(&d.regs, scalar_dtype(&d)?, *to)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Bitcast(to) => {
            let d = operand(lx, op, 0)?;
            let regs = lx.bitcast_regs(&d.regs, scalar_dtype(&d)?, *to)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Math(f, precision) => {
            let d = operand(lx, op, 0)?;
            let regs = lx.math_regs(*f, *precision, scalar_dtype(&d)?, &d.regs)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Fma => {
            let r = result(lx, op, 0)?;
            let ops = [0, 1, 2].map(|i| operand_regs_as(lx, op, i, &r));
            let [a, b, c] = ops;
            let regs = lx.fma_regs(scalar_dtype(&r)?, [&a?, &b?, &c?])?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Binary(b) => {
            let name = b.name();
            let r = result(lx, op, 0)?;
            let [mut x, mut y] = lx.fed_pair(name, op, 0)?;
            if *b == BinaryOp::Add && y.ty.pointee().is_some() && x.ty.pointee().is_none() {
                std::mem::swap(&mut x, &mut y);
            }
            let (a, c) = (lx.regs_as(name, &x, &r)?, lx.regs_as(name, &y, &r)?);
            let regs = match x.ty {
                Type::Ptr(pointee, _) => lx.offset_regs(pointee, &a, &c)?,
                Type::Scalar(dt) => lx.binary_regs(*b, dt, &a, &c)?,
            };
            set_regs(lx, op, 0, regs)
        }
        OpKind::Cmp(c) => {
            let r = result(lx, op, 0)?;
            let [x, y] = lx.fed_pair("cmp", op, 0)?;
            let (a, b) = (lx.regs_as("cmp", &x, &r)?, lx.regs_as("cmp", &y, &r)?);
            // Registers in a chunk the result is known constant over share one compare (a mask
            // `cols < n` with `n` a multiple of 16 is one compare per 16 columns, not per element).
            let reps = r
                .layout
                .as_ref()
                .map(|l| l.chunk_representatives(&r.info.constancy));
            let regs = lx.compare_regs(*c, scalar_dtype(&x)?, &a, &b, reps.as_deref())?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Where => {
            let r = result(lx, op, 0)?;
            let cond = operand(lx, op, 0)?;
            let [x, y] = lx.fed_pair("where", op, 1)?;
            let c = lx.regs_as("where", &cond, &r)?;
            let (a, b) = (lx.regs_as("where", &x, &r)?, lx.regs_as("where", &y, &r)?);
            let regs = lx.select_regs(&c, &a, &b)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Unary(u) => {
            let d = operand(lx, op, 0)?;
            let regs = lx.unary_regs(*u, scalar_dtype(&d)?, &d.regs)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::AsyncCommitGroup => cp_async::commit_group(&lx.em),
        OpKind::AsyncWaitGroup(pending) => cp_async::wait_group(&lx.em, *pending),
        OpKind::FenceAsyncShared => mbarrier::fence_proxy_async(&lx.em),
        OpKind::TmaStoreWait(pending) => {
            let issue = lx.is_thread0()?;
            tma::wait_group_read(&lx.em, issue, *pending)
        }
        OpKind::MbarrierArrive => {
            let bar = operand(lx, op, 0)?;
            let addr = lx.mbarrier_addr(&bar)?;
            mbarrier::arrive(&lx.em, addr)
        }
        OpKind::MbarrierWait { issuer } => {
            let bar = operand(lx, op, 0)?;
            let addr = lx.mbarrier_addr(&bar)?;
            let phase = match operand_arg(op, 1)? {
                Arg::Value(_) => first_reg(&*operand(lx, op, 1)?)?,
                lit => literal_reg(lx, lit, DType::I32)?,
            };
            let issuer = if *issuer {
                Some(lx.is_thread0()?)
            } else {
                None
            };
            mbarrier::wait_parity(&lx.em, addr, phase.into_int_value(), issuer)
        }
        OpKind::MbarrierInvalidate => {
            let d = operand(lx, op, 0)?;
            let addr = lx.mbarrier_addr(&d)?;
            let t0 = lx.is_thread0()?;
            mbarrier::invalidate(&lx.em, t0, addr, d.shape[0])
        }
        OpKind::PermuteShared(_) | OpKind::ReshapeShared | OpKind::ReinterpretShared => {
            let regs = operand(lx, op, 0)?.regs.clone();
            set_regs(lx, op, 0, regs)
        }
        OpKind::SliceShared { .. } => {
            // The view starts where its buffer says, so many bytes past its parent's start.
            let (d, r) = (operand(lx, op, 0)?, result(lx, op, 0)?);
            let base = |v: &ValueData| v.shared.as_ref().map_or(0, |b| b.base);
            let bytes = base(&r).checked_sub(base(&d)).ok_or_else(|| {
                CodegenError::arg(OP, format!("{} is a slice before its parent", r.describe()))
            })?;
            let mut regs = d.regs.clone();
            if let (Some(first), true) = (regs.first_mut(), bytes != 0) {
                *first = lx.offset_by(first.into_int_value(), bytes)?.into();
            }
            set_regs(lx, op, 0, regs)
        }
        OpKind::MbarrierAt => {
            let bars = operand(lx, op, 0)?;
            let index = match operand_arg(op, 1)? {
                Arg::Value(_) => first_reg(&*operand(lx, op, 1)?)?,
                lit => literal_reg(lx, lit, DType::I32)?,
            };
            let base = first_reg(&bars)?.into_int_value();
            let addr = lx.element_offset(base, index.into_int_value(), MBARRIER_BYTES)?;
            set_regs(lx, op, 0, vec![addr.into()])
        }
        OpKind::MbarrierExpect { bytes, has_pred } => {
            let bar = operand(lx, op, 0)?;
            let addr = lx.mbarrier_addr(&bar)?;
            let pred = match has_pred {
                true => Some(first_reg(&*operand(lx, op, 1)?)?.into_int_value()),
                false => None,
            };
            let p = lx.issuer(pred)?;
            mbarrier::arrive_expect_tx(&lx.em, p, addr, *bytes)
        }
        OpKind::WgmmaWait(pending) => {
            let deps = (0..op.args.len())
                .map(|i| operand(lx, op, i))
                .collect::<Result<Vec<_>>>()?;
            let regs: Vec<BasicValueEnum> =
                deps.iter().flat_map(|d| d.regs.iter().copied()).collect();
            let mut it = wgmma::wait_group(&lx.em, *pending, &regs)?.into_iter();
            for (i, d) in deps.iter().enumerate() {
                let regs = it.by_ref().take(d.regs.len()).collect();
                set_regs(lx, op, i, regs)?;
            }
            Ok(())
        }
        OpKind::ClusterCtaRank => cluster_sreg(lx, op, "llvm.nvvm.read.ptx.sreg.cluster.ctarank"),
        OpKind::ClusterNumCtas => cluster_sreg(lx, op, "llvm.nvvm.read.ptx.sreg.cluster.nctarank"),
        OpKind::ClusterId(axis) => {
            let a = grid_axis("cluster_id", *axis)?;
            cluster_sreg(lx, op, &format!("llvm.nvvm.read.ptx.sreg.clusterid.{a}"))
        }
        OpKind::ClusterArrive { relaxed } => cluster::arrive(&lx.em, *relaxed),
        OpKind::ClusterWait => cluster::wait(&lx.em),
        OpKind::Load { .. } => {
            let regs = lx.lower_load(op)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Store { hint } => lx.lower_store(op, *hint),
        OpKind::AtomicRmw(_) | OpKind::AtomicCas => {
            let regs = lx.lower_atomic(op)?;
            set_regs(lx, op, 0, regs)
        }
        // Layout conversions, reductions and scans (`lower/convert_layout.rs`,
        // `lower/program_reduce.rs`).
        OpKind::ConvertLayout => {
            let regs = lx.lower_convert_layout(op)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Reduce { .. } | OpKind::ReduceWith(_) | OpKind::ArgMax(_) | OpKind::ArgMin(_) => {
            let regs = lower_reduction(lx, op, lower_op)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Scan { .. } | OpKind::ScanWith(_) => {
            let regs = lower_scan(lx, op, lower_op)?;
            set_regs(lx, op, 0, regs)
        }
        // Tensor cores (`lower/mma.rs`) and `ldmatrix` (`lower/ldmatrix.rs`).
        OpKind::Dot => {
            let regs = lx.lower_dot(op)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::Ldmatrix => {
            let regs = lx.lower_ldmatrix(op)?;
            set_regs(lx, op, 0, regs)
        }
        // Ops built from other ops (`lower/composite.rs`).
        OpKind::GroupedTile(_) => lower_composite(lx, "grouped_tile", op, lower_op),
        // Device printing and assertions (`lower/debug.rs`).
        OpKind::DevicePrint { prefix, format } => lx.lower_device_print(op, prefix, *format),
        OpKind::DeviceAssert { message } => lx.lower_device_assert(op, message),
        // Shared memory (`lower/shared_ops.rs`).
        OpKind::Barrier => lx.lower_barrier(op.loc),
        OpKind::AllocShared | OpKind::AllocSharedBuffers(_) => lx.lower_alloc(op).map(|_| ()),
        OpKind::FreeShared => Ok(()),
        OpKind::IndexShared => {
            let addr = lx.lower_index_shared(op)?;
            set_regs(lx, op, 0, vec![addr.into()])
        }
        OpKind::StoreShared => lx.lower_store_shared(op),
        OpKind::LoadShared => {
            let regs = lx.lower_load_shared(op)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::AllocMbarriers { count, arrivals } => {
            let base = lx.lower_alloc_mbarriers(op, *count, *arrivals)?;
            set_regs(lx, op, 0, vec![base.into()])
        }
        OpKind::Wgmma { has_use_acc } => {
            let regs = lx.lower_wgmma(op, *has_use_acc)?;
            set_regs(lx, op, 0, regs)
        }
        OpKind::AsyncCopy { has_mask } => lx.lower_async_copy(op, *has_mask),
        // TMA copies and the remote arrive (`lower/tma_ops.rs`).
        OpKind::TmaLoad { .. } | OpKind::TmaLoadMulticast { .. } => lx.lower_tma_load(op),
        OpKind::TmaStore => lx.lower_tma_store(op),
        OpKind::MbarrierArriveRemote { per_warp } => lx.lower_arrive_remote(op, *per_warp),
        // Named barriers (`lower/warp_roles.rs`); their ids were taken when recorded.
        OpKind::AllocNamedBarriers { .. } => Ok(()),
        OpKind::NamedBarrierSync { first, threads } => {
            let index = lx.int_arg(op, 0)?;
            lx.bar_from("sync", *first, Some(index), *threads)
        }
        OpKind::NamedBarrierArrive { first, threads } => {
            let index = lx.int_arg(op, 0)?;
            lx.bar_from("arrive", *first, Some(index), *threads)
        }
        OpKind::FpContraction(on) => {
            lx.fp_contract = *on;
            Ok(())
        }
        kind => Err(CodegenError::arg(
            OP,
            format!("{kind:?} is lowered by its builder method, not from its record"),
        )),
    }
}

/// A cluster special register read (once, in the prologue) as result 0 of `op`.
fn cluster_sreg(lx: &mut LowerCtx<'_>, op: &Op, intrinsic: &str) -> Result<()> {
    let v = lx.sreg(intrinsic)?;
    lx.note_bits(v, 0xffff, None);
    set_regs(lx, op, 0, vec![v.into()])
}

/// The one register of a scalar.
fn first_reg<'ctx>(d: &ValueData<'ctx>) -> Result<BasicValueEnum<'ctx>> {
    d.regs
        .first()
        .copied()
        .ok_or_else(|| CodegenError::arg(OP, format!("{} has no register", d.describe())))
}

/// The name of grid axis `axis` (`x`, `y`, `z`).
pub(crate) fn grid_axis(op: &'static str, axis: u32) -> Result<&'static str> {
    ["x", "y", "z"].get(axis as usize).copied().ok_or_else(|| {
        CodegenError::arg(op, format!("axis {axis}: launch grids have axes 0, 1, 2"))
    })
}

/// The arena handle of program value `id`.
fn value(lx: &LowerCtx<'_>, id: ValueId) -> Value {
    Value {
        kernel: lx.values.kernel_id(),
        index: id.0,
    }
}

/// Result `i` of `op`, as the builder made it.
fn result<'ctx>(lx: &LowerCtx<'ctx>, op: &Op, i: usize) -> Result<std::rc::Rc<ValueData<'ctx>>> {
    let id = *op
        .results
        .get(i)
        .ok_or_else(|| CodegenError::arg(OP, format!("{:?} has no result {i}", op.kind)))?;
    lx.values.peek(OP, value(lx, id)).cloned()
}

/// Operand `i` of `op`, a value.
fn operand<'ctx>(lx: &LowerCtx<'ctx>, op: &Op, i: usize) -> Result<std::rc::Rc<ValueData<'ctx>>> {
    lx.op_operand(op, i)
}

/// The registers of operand `i` of `op` in the shape and layout of `like` (an op's result): a
/// value broadcast, or a literal made in `like`'s element type.
fn operand_regs_as<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    op: &Op,
    i: usize,
    like: &ValueData<'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let n = like.layout.as_ref().map_or(1, |l| l.num_regs());
    match (operand_arg(op, i)?, &like.layout) {
        (Arg::Value(_), None) => Ok(operand(lx, op, i)?.regs.clone()),
        (Arg::Value(_), Some(l)) => {
            let d = operand(lx, op, i)?;
            Ok(lx.broadcast_regs(OP, &d, &like.shape, l)?.0)
        }
        (lit, _) => Ok(vec![literal_reg(lx, lit, scalar_dtype(like)?)?; n]),
    }
}

/// Operand `i` of `op`.
fn operand_arg(op: &Op, i: usize) -> Result<Arg> {
    op.args
        .get(i)
        .copied()
        .ok_or_else(|| CodegenError::arg(OP, format!("{:?} has no operand {i}", op.kind)))
}

/// Gives result `i` of `op` its registers.
fn set_regs<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    op: &Op,
    i: usize,
    regs: Vec<BasicValueEnum<'ctx>>,
) -> Result<()> {
    let id = op.results[i];
    let v = value(lx, id);
    lx.values.update(v, |d| d.regs = regs);
    Ok(())
}

/// The element type of a scalar-typed value.
fn scalar_dtype(d: &ValueData<'_>) -> Result<DType> {
    match d.ty {
        Type::Scalar(t) => Ok(t),
        t => Err(CodegenError::arg(OP, format!("a literal of type {t}"))),
    }
}

/// The register of literal `lit` in `dtype` (an integer literal in a float type is converted,
/// as the builder's checks allowed).
fn literal_reg<'ctx>(lx: &LowerCtx<'ctx>, lit: Arg, dtype: DType) -> Result<BasicValueEnum<'ctx>> {
    match lit {
        Arg::Int(i) if dtype.is_float() => Ok(lx.const_float_reg(dtype, i as f64)),
        Arg::Int(i) => Ok(lx.const_int_reg(dtype, i)),
        Arg::Float(x) if dtype.is_float() => Ok(lx.const_float_reg(dtype, x)),
        other => Err(CodegenError::arg(
            OP,
            format!("the literal {other:?} has no value of type {dtype}"),
        )),
    }
}

fn not_a_tile(op: &Op) -> CodegenError {
    CodegenError::arg(OP, format!("{:?}: the result is not a tile", op.kind))
}
