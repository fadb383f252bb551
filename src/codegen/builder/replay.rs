//! Replay: a recorded [`Program`] built again, op by op, into a fresh kernel.
//!
//! Each op is run through the builder method that recorded it, with its operands looked up in a
//! map from the program's values to the new kernel's, and everything else the call needs
//! (element types, shapes, layouts, shared buffers) read from the recorded results' types.
//! Region bodies (loops, branches, roles, combine functions) are replayed where the method runs
//! its closure. A kernel whose replay prints the same LLVM IR as the original shows that the
//! program holds everything its lowering needs: the check that lowering can become a pass over
//! the recorded program.

use std::cell::RefCell;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::operand::Operand;
use crate::codegen::builder::ops::layout_arg::{
    IntoLayout, IntoSharedLayout, Resolved, SharedResolved,
};
use crate::codegen::builder::ops::shared::outer_dim_removed;
use crate::codegen::builder::roles::{NamedBarriers, Role};
use crate::codegen::builder::{Context, KernelBuilder};
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, IrType, Op, OpId, OpKind, Program, RegionId, SharedBuf, ValueId};
use crate::codegen::lower::values::Value;
use crate::codegen::lower::Kernel;
use crate::codegen::types::{DType, Type};
use crate::signature::ParamType;

const OP: &str = "replay";

/// A recorded tile layout handed back to the method that resolved it.
struct RecordedLayout<'a>(&'a TileLayout);

impl IntoLayout for RecordedLayout<'_> {
    fn resolve(&self, op: &'static str, shape: Option<&[u64]>) -> Result<Resolved> {
        if shape.is_some_and(|s| s != self.0.shape) {
            return Err(CodegenError::BadLayout {
                op,
                reason: format!(
                    "the recorded layout is for shape {:?}, the op's is {shape:?}",
                    self.0.shape
                ),
            });
        }
        Ok(Resolved {
            linear: self.0.ll.clone(),
            encoding: self.0.encoding.as_deref().cloned(),
        })
    }
}

/// A recorded shared layout (of one buffer) handed back to the method that resolved it.
struct RecordedShared<'a> {
    buf: &'a SharedBuf,
    linear: crate::layout::LinearLayout,
}

impl IntoSharedLayout for RecordedShared<'_> {
    fn resolve_shared(&self, _op: &'static str, _shape: &[u64]) -> Result<SharedResolved> {
        Ok(SharedResolved {
            linear: self.linear.clone(),
            padding: self.buf.padding.clone(),
            name: self.buf.name.clone(),
        })
    }
}

/// The state of one replay: the new kernel's value for each recorded value, and the handles
/// (roles, named barriers) that ops return outside the value arena.
struct Replay<'p> {
    prog: &'p Program,
    values: RefCell<Vec<Option<Value>>>,
    /// The kernel whose values stand for themselves: set when a region is lowered again in the
    /// kernel it was recorded in, where values made outside the region are still live.
    outer: Option<u32>,
    roles: RefCell<Vec<Role>>,
    named: RefCell<Vec<NamedBarriers>>,
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Builds `program` again in `ctx`: its parameters, then every op through the method that
    /// recorded it, then [`finish`](Self::finish). The kernel is the one the program was
    /// recorded from (its LLVM IR prints the same); an op the program cannot say enough about to
    /// rebuild is an error naming it.
    pub fn replay(ctx: &'ctx Context, program: &Program) -> Result<Kernel<'ctx>> {
        if program.body.0 as usize >= program.regions.len() {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "the body is region {}, not one of the program's",
                    program.body.0
                ),
            ));
        }
        let mut kb = KernelBuilder::new(ctx, program.target, &program.name, program.num_warps)?;
        kb.replaying = true;
        let r = Replay {
            prog: program,
            values: RefCell::new(Vec::new()),
            outer: None,
            roles: RefCell::new(Vec::new()),
            named: RefCell::new(Vec::new()),
        };
        for p in &program.params {
            let v = r.param(&mut kb, p)?;
            r.bind(p.value, v);
        }
        if let Some(regs) = program.max_registers {
            kb.limit_registers(regs)?;
        }
        if let Some(dims) = program.cluster {
            kb.cluster_dims(dims)?;
        }
        r.region(&mut kb, program.body, &[])?;
        kb.finish()
    }
}

/// Lowers `region` of `recorded` (a copy of the program `kb` is recording) again into `kb`,
/// with the region's parameters bound to `params`: each op through the method that recorded it,
/// at its recorded line. Values made outside the region are `kb`'s own, and so are the roles
/// and named barriers declared before it. A loop body recorded again with weaker facts
/// (`for_range`) runs the user's closure once and this afterwards.
pub(crate) fn region_again(
    kb: &mut KernelBuilder<'_>,
    recorded: &Program,
    region: RegionId,
    params: &[Value],
) -> Result<Vec<Value>> {
    let r = Replay {
        prog: recorded,
        values: RefCell::new(Vec::new()),
        outer: Some(kb.lx.values.kernel_id()),
        roles: RefCell::new(kb.roles.declared.clone()),
        named: RefCell::new(kb.roles.named.clone()),
    };
    r.region(kb, region, params)
}

/// Replays `kernel`'s program in a fresh context: an error naming the first line where the two
/// LLVM modules differ, if they do.
pub(crate) fn check(kernel: &Kernel<'_>) -> Result<()> {
    let ctx = Context::new();
    let again = KernelBuilder::replay(&ctx, kernel.program())?.llvm_ir();
    let built = kernel.llvm_ir();
    if again == built {
        return Ok(());
    }
    let (n, (a, b)) = built
        .lines()
        .chain(std::iter::repeat(""))
        .zip(again.lines().chain(std::iter::repeat("")))
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .unwrap_or((0, ("", "")));
    Err(CodegenError::Llvm {
        stage: "replay",
        message: format!(
            "kernel `{}` rebuilt from its program differs at line {}: `{a}` built, `{b}` replayed",
            kernel.program().name,
            n + 1
        ),
    })
}

impl<'p> Replay<'p> {
    fn bind(&self, id: ValueId, v: Value) {
        let mut m = self.values.borrow_mut();
        let i = id.0 as usize;
        if m.len() <= i {
            m.resize(i + 1, None);
        }
        m[i] = Some(v);
    }

    fn value(&self, id: ValueId) -> Result<Value> {
        self.values
            .borrow()
            .get(id.0 as usize)
            .copied()
            .flatten()
            .or(self.outer.map(|kernel| Value {
                kernel,
                index: id.0,
            }))
            .ok_or_else(|| CodegenError::arg(OP, format!("%{} is used before it is defined", id.0)))
    }

    fn ty(&self, id: ValueId) -> Result<&'p IrType> {
        self.prog
            .ty(id)
            .ok_or_else(|| CodegenError::arg(OP, format!("%{} has no recorded type", id.0)))
    }

    fn param<'ctx>(
        &self,
        kb: &mut KernelBuilder<'ctx>,
        p: &crate::codegen::ir::ProgramParam,
    ) -> Result<Value> {
        match (self.ty(p.value)?, p.decl.ty) {
            (IrType::TensorMap { elem }, ParamType::TensorMap(Some(spec))) => {
                let dtype = scalar(*elem)?;
                let dims = spec.box_dims.get(..spec.rank as usize).ok_or_else(|| {
                    CodegenError::arg(OP, format!("tensor map `{}` of rank {}", p.name, spec.rank))
                })?;
                kb.arg_tensor_map(&p.name, dtype, dims, spec.swizzle)
            }
            (IrType::Scalar(t), ty) => kb.add_param_of(&p.name, *t, ty, p.decl.divisibility),
            (t, _) => Err(CodegenError::arg(
                OP,
                format!("parameter `{}` of type {t}", p.name),
            )),
        }
    }

    /// Replays the ops of `region` with its parameters bound to `params`; returns its yields.
    fn region<'ctx>(
        &self,
        kb: &mut KernelBuilder<'ctx>,
        region: RegionId,
        params: &[Value],
    ) -> Result<Vec<Value>> {
        let r = self.prog.region(region);
        if r.params.len() != params.len() {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "a region of {} parameters entered with {}",
                    r.params.len(),
                    params.len()
                ),
            ));
        }
        for (id, v) in r.params.iter().zip(params) {
            self.bind(*id, *v);
        }
        for &id in &r.ops {
            self.op(kb, id)?;
        }
        r.yields.iter().map(|y| self.value(*y)).collect()
    }

    /// The one value `region` yields (a combine function's).
    fn region_one<'ctx>(
        &self,
        kb: &mut KernelBuilder<'ctx>,
        region: RegionId,
        params: &[Value],
    ) -> Result<Value> {
        match self.region(kb, region, params)?[..] {
            [v] => Ok(v),
            ref ys => Err(CodegenError::arg(
                OP,
                format!("a combine function yields {} values, not one", ys.len()),
            )),
        }
    }

    fn op<'ctx>(&self, kb: &mut KernelBuilder<'ctx>, id: OpId) -> Result<()> {
        let op = self.prog.op(id);
        if let Some(label) = self.prog.label_before(id) {
            kb.label(label);
        }
        kb.rec.replay_loc = Some(op.loc);
        let results = self.lower(kb, op);
        kb.rec.replay_loc = None;
        let results = results.map_err(|e| e.at(op.loc))?;
        if results.len() != op.results.len() {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "{:?} made {} values, the program records {}",
                    op.kind,
                    results.len(),
                    op.results.len()
                ),
            )
            .at(op.loc));
        }
        for (id, v) in op.results.iter().zip(results) {
            self.bind(*id, v);
        }
        Ok(())
    }

    /// Runs `op` through its builder method; returns the values it made.
    fn lower<'ctx>(&self, kb: &mut KernelBuilder<'ctx>, op: &Op) -> Result<Vec<Value>> {
        let a = Args { r: self, op };
        let one = |v: Value| Ok(vec![v]);
        let none = |()| Ok(Vec::new());
        use OpKind as K;
        match &op.kind {
            K::ProgramId(axis) => one(kb.program_id(*axis)?),
            K::NumPrograms(axis) => one(kb.num_programs(*axis)?),
            K::Const => {
                let d = scalar_of(a.result_ty(0)?)?;
                match a.arg(0)? {
                    Arg::Int(i) => one(kb.const_int(d, i)?),
                    Arg::Float(x) => one(kb.const_float(d, x)?),
                    Arg::Value(_) => Err(CodegenError::arg(OP, "a constant of a value")),
                }
            }
            K::Assume {
                divisibility,
                contiguity,
            } => one(kb.assume(a.v(0)?, *divisibility, *contiguity)?),
            K::Arange { start, end } => one(kb.arange(*start, *end, a.layout()?)?),
            K::Full => {
                let d = scalar_of(a.result_ty(0)?)?;
                one(kb.full(a.layout()?, d, a.o(0)?)?)
            }
            K::Splat => one(kb.splat(a.v(0)?, a.layout()?)?),
            K::BroadcastTo => one(kb.broadcast_to(a.v(0)?, a.layout()?)?),
            K::Binary(b) => one(kb.binary(*b, a.o(0)?, a.o(1)?)?),
            K::Cmp(c) => one(kb.cmp(*c, a.o(0)?, a.o(1)?)?),
            K::Where => one(kb.where_(a.v(0)?, a.o(1)?, a.o(2)?)?),
            K::Unary(u) => one(kb.unary(*u, a.v(0)?)?),
            K::Math(m, p) => one(kb.math_with(*m, a.v(0)?, *p)?),
            K::Fma => one(kb.fma(a.v(0)?, a.o(1)?, a.o(2)?)?),
            K::Cast(to) => one(kb.cast(a.v(0)?, *to)?),
            K::Bitcast(to) => one(kb.bitcast(a.v(0)?, *to)?),
            K::ExpandDims(axis) => one(kb.expand_dims(a.v(0)?, *axis)?),
            K::Permute(perm) => one(kb.permute(a.v(0)?, perm)?),
            K::Reshape => one(kb.reshape(a.v(0)?, a.result_ty(0)?.shape())?),
            K::Split => {
                let (x, y) = kb.split(a.v(0)?)?;
                Ok(vec![x, y])
            }
            K::Join => one(kb.join(a.v(0)?, a.v(1)?)?),
            K::ConvertLayout => one(kb.convert_layout(a.v(0)?, a.layout()?)?),
            K::Load {
                hint,
                has_mask,
                has_other,
            } => {
                let mask = a.opt_v(*has_mask, 1)?;
                let other = match has_other {
                    true => Some(a.o(1 + usize::from(*has_mask))?),
                    false => None,
                };
                one(kb.load_with(a.v(0)?, mask, other, *hint)?)
            }
            K::Store { hint } => {
                let mask = a.opt_v(op.args.len() > 2, 2)?;
                none(kb.store_with(a.v(0)?, a.o(1)?, mask, *hint)?)
            }
            K::AtomicRmw(kind) => {
                let mask = a.opt_v(op.args.len() > 2, 2)?;
                one(kb.atomic_rmw(*kind, a.v(0)?, a.o(1)?, mask)?)
            }
            K::AtomicCas => {
                let mask = a.opt_v(op.args.len() > 3, 3)?;
                one(kb.atomic_cas(a.v(0)?, a.o(1)?, a.o(2)?, mask)?)
            }
            K::Reduce { axis, op: r } => one(kb.reduce(a.v(0)?, *axis, *r)?),
            K::ReduceWith(axis) => {
                let body = a.region(0)?;
                one(kb.reduce_with(a.v(0)?, *axis, |kb, x, y| {
                    self.region_one(kb, body, &[x, y])
                })?)
            }
            K::ArgMax(axis) => one(kb.argmax(a.v(0)?, *axis)?),
            K::ArgMin(axis) => one(kb.argmin(a.v(0)?, *axis)?),
            K::Scan { axis, op: s } => one(kb.associative_scan(a.v(0)?, *axis, *s)?),
            K::ScanWith(axis) => {
                let body = a.region(0)?;
                one(kb.associative_scan_with(a.v(0)?, *axis, |kb, x, y| {
                    self.region_one(kb, body, &[x, y])
                })?)
            }
            K::For { step } => {
                let body = a.region(0)?;
                let init = a.values_from(2)?;
                kb.for_range(a.o(0)?, a.o(1)?, *step, &init, |kb, iv, carried| {
                    let params: Vec<Value> =
                        std::iter::once(iv).chain(carried.iter().copied()).collect();
                    self.region(kb, body, &params)
                })
            }
            K::If => {
                let (then_, else_) = (a.region(0)?, a.region(1)?);
                kb.if_(
                    a.v(0)?,
                    |kb| self.region(kb, then_, &[]),
                    |kb| self.region(kb, else_, &[]),
                )
            }
            K::IfThen => {
                let then_ = a.region(0)?;
                none(kb.if_then(a.v(0)?, |kb| self.region(kb, then_, &[]).map(|_| ()))?)
            }
            K::WarpRoles(roles) => {
                *self.roles.borrow_mut() = kb.warp_roles(roles)?;
                Ok(Vec::new())
            }
            K::InRole(index) => {
                let role = self.roles.borrow().get(*index).copied().ok_or_else(|| {
                    CodegenError::arg(OP, format!("role {index} was not declared"))
                })?;
                let body = a.region(0)?;
                none(kb.in_role(role, |kb| self.region(kb, body, &[]).map(|_| ()))?)
            }
            K::RoleReplica => one(kb.role_replica()?),
            K::AllocNamedBarriers { count, warps } => {
                let bars = kb.alloc_named_barriers(*count, *warps)?;
                self.named.borrow_mut().push(bars);
                Ok(Vec::new())
            }
            K::NamedBarrierSync { first, .. } => {
                none(kb.named_barrier_sync(self.named_at(*first)?, a.o(0)?)?)
            }
            K::NamedBarrierArrive { first, .. } => {
                none(kb.named_barrier_arrive(self.named_at(*first)?, a.o(0)?)?)
            }
            K::AllocShared => {
                let (d, shape, buf) = shared_of(a.result_ty(0)?)?;
                let layout = RecordedShared {
                    buf,
                    linear: buf.layout.clone(),
                };
                one(kb.alloc_shared(d, shape, layout)?)
            }
            K::AllocSharedBuffers(count) => {
                let (d, shape, buf) = shared_of(a.result_ty(0)?)?;
                // Every ring, one buffer's too, was recorded with its leading dim of `count`.
                let (shape, linear) = (
                    shape.get(1..).unwrap_or_default(),
                    outer_dim_removed(&buf.layout).ok_or_else(|| {
                        CodegenError::arg(OP, "a ring whose buffers are not its outer dim")
                    })?,
                );
                one(kb.alloc_shared_buffers(d, *count, shape, RecordedShared { buf, linear })?)
            }
            K::IndexShared => one(kb.index_shared(a.v(0)?, a.o(1)?)?),
            K::PermuteShared(perm) => one(kb.permute_shared(a.v(0)?, perm)?),
            K::SliceShared { dim, start, len } => {
                one(kb.slice_shared(a.v(0)?, *dim, *start, *len)?)
            }
            K::ReshapeShared => one(kb.reshape_shared(a.v(0)?, a.result_ty(0)?.shape())?),
            K::ReinterpretShared => {
                let (d, shape, buf) = shared_of(a.result_ty(0)?)?;
                let layout = RecordedShared {
                    buf,
                    linear: buf.layout.clone(),
                };
                one(kb.reinterpret_shared(a.v(0)?, d, shape, layout)?)
            }
            K::StoreShared => none(kb.store_shared(a.v(0)?, a.v(1)?)?),
            K::LoadShared => one(kb.load_shared(a.v(0)?, a.layout()?)?),
            K::FreeShared => none(kb.free_shared(a.v(0)?)?),
            K::Ldmatrix => one(kb.ldmatrix(a.v(0)?, a.layout()?)?),
            K::Barrier => none(kb.barrier()?),
            K::Return => match a.opt_v(!op.args.is_empty(), 0)? {
                Some(cond) => none(kb.return_if(cond)?),
                None => none(kb.ret()?),
            },
            K::AsyncCopy { has_mask } => {
                let mask = a.opt_v(*has_mask, 2)?;
                none(kb.async_copy_global_to_shared(a.v(0)?, a.v(1)?, mask)?)
            }
            K::AsyncCommitGroup => one(kb.async_commit_group()?),
            K::AsyncWaitGroup(n) => none(kb.async_wait_group(*n)?),
            K::AllocMbarriers { count, arrivals } => one(kb.alloc_mbarriers(*count, *arrivals)?),
            K::MbarrierAt => one(kb.mbarrier_at(a.v(0)?, a.o(1)?)?),
            K::MbarrierExpect { bytes, has_pred } => {
                let pred = a.opt_v(*has_pred, 1)?;
                none(kb.mbarrier_expect(a.v(0)?, *bytes, pred)?)
            }
            K::MbarrierArrive => none(kb.mbarrier_arrive(a.v(0)?)?),
            K::MbarrierWait { issuer: false } => none(kb.mbarrier_wait(a.v(0)?, a.o(1)?)?),
            K::MbarrierWait { issuer: true } => none(kb.mbarrier_wait_issuer(a.v(0)?, a.o(1)?)?),
            K::MbarrierInvalidate => none(kb.mbarrier_invalidate(a.v(0)?)?),
            K::FenceAsyncShared => none(kb.fence_async_shared()?),
            K::TmaLoad { has_pred } => {
                let pred = a.opt_v(*has_pred, 3)?;
                let coords = a.values_from(3 + usize::from(*has_pred))?;
                none(kb.tma_load(a.v(0)?, &coords, a.v(1)?, a.v(2)?, pred)?)
            }
            K::TmaStore => {
                let coords = a.values_from(2)?;
                none(kb.tma_store(a.v(0)?, &coords, a.v(1)?)?)
            }
            K::TmaStoreWait(n) => none(kb.tma_store_wait(*n)?),
            K::TmaLoadMulticast { has_pred } => {
                let pred = a.opt_v(*has_pred, 4)?;
                let coords = a.values_from(4 + usize::from(*has_pred))?;
                none(kb.tma_load_multicast(a.v(0)?, &coords, a.v(1)?, a.v(2)?, a.o(3)?, pred)?)
            }
            K::ClusterCtaRank => one(kb.cluster_cta_rank()?),
            K::ClusterId(axis) => one(kb.cluster_id(*axis)?),
            K::ClusterNumCtas => one(kb.cluster_num_ctas()?),
            K::ClusterArrive { relaxed: false } => none(kb.cluster_arrive()?),
            K::ClusterArrive { relaxed: true } => none(kb.cluster_arrive_relaxed()?),
            K::ClusterWait => none(kb.cluster_wait()?),
            K::MbarrierArriveRemote { per_warp: false } => {
                none(kb.mbarrier_arrive_cluster(a.v(0)?, a.o(1)?)?)
            }
            K::MbarrierArriveRemote { per_warp: true } => {
                none(kb.mbarrier_arrive_cluster_per_warp(a.v(0)?, a.o(1)?)?)
            }
            K::Dot => one(kb.dot(a.v(0)?, a.v(1)?, a.v(2)?)?),
            K::Wgmma { has_use_acc } => {
                let use_acc = a.opt_v(*has_use_acc, 3)?;
                one(kb.wgmma_with(a.v(0)?, a.v(1)?, a.v(2)?, use_acc)?)
            }
            K::WgmmaWait(n) => kb.wgmma_wait(*n, &a.values_from(0)?),
            K::GroupedTile(group_m) => {
                let (m, n) = kb.grouped_tile(a.v(0)?, a.v(1)?, a.v(2)?, *group_m)?;
                Ok(vec![m, n])
            }
            K::DevicePrint { prefix, format } => {
                none(kb.device_print_with(prefix, &a.values_from(0)?, *format)?)
            }
            K::DeviceAssert { message } => none(kb.device_assert(a.v(0)?, message)?),
            K::FpContraction(on) => {
                kb.allow_fp_contraction(*on);
                Ok(Vec::new())
            }
        }
    }

    /// The named barriers whose first id is `first`.
    fn named_at(&self, first: u32) -> Result<NamedBarriers> {
        self.named
            .borrow()
            .iter()
            .find(|b| b.first == first)
            .copied()
            .ok_or_else(|| CodegenError::arg(OP, format!("no named barriers start at id {first}")))
    }
}

/// The operands and results of one op, read through the replay's value map.
struct Args<'a, 'p> {
    r: &'a Replay<'p>,
    op: &'a Op,
}

impl<'p> Args<'_, 'p> {
    fn arg(&self, i: usize) -> Result<Arg> {
        self.op.args.get(i).copied().ok_or_else(|| {
            CodegenError::arg(
                OP,
                format!(
                    "{:?} has {} operands, not {}",
                    self.op.kind,
                    self.op.args.len(),
                    i + 1
                ),
            )
        })
    }

    /// Operand `i`, which must be a value.
    fn v(&self, i: usize) -> Result<Value> {
        match self.arg(i)? {
            Arg::Value(id) => self.r.value(id),
            lit => Err(CodegenError::arg(
                OP,
                format!(
                    "operand {i} of {:?} is the literal {lit:?}, not a value",
                    self.op.kind
                ),
            )),
        }
    }

    /// Operand `i` as a value or a literal.
    fn o(&self, i: usize) -> Result<Operand> {
        Ok(match self.arg(i)? {
            Arg::Value(id) => Operand::Value(self.r.value(id)?),
            Arg::Int(x) => Operand::Int(x),
            Arg::Float(x) => Operand::Float(x),
        })
    }

    /// Operand `i` if `present`.
    fn opt_v(&self, present: bool, i: usize) -> Result<Option<Value>> {
        present.then(|| self.v(i)).transpose()
    }

    /// Operands `from..` as values.
    fn values_from(&self, from: usize) -> Result<Vec<Value>> {
        (from..self.op.args.len()).map(|i| self.v(i)).collect()
    }

    fn region(&self, i: usize) -> Result<RegionId> {
        self.op
            .regions
            .get(i)
            .copied()
            .ok_or_else(|| CodegenError::arg(OP, format!("{:?} has no region {i}", self.op.kind)))
    }

    fn result_ty(&self, i: usize) -> Result<&'p IrType> {
        let id = self.op.results.get(i).copied().ok_or_else(|| {
            CodegenError::arg(OP, format!("{:?} has no result {i}", self.op.kind))
        })?;
        self.r.ty(id)
    }

    /// The layout of result 0, a tile.
    fn layout(&self) -> Result<RecordedLayout<'p>> {
        match self.result_ty(0)? {
            IrType::Tile { layout, .. } => Ok(RecordedLayout(layout)),
            t => Err(CodegenError::arg(
                OP,
                format!("{:?} made {t}, not a tile", self.op.kind),
            )),
        }
    }
}

/// The dtype of a scalar type.
fn scalar(t: Type) -> Result<DType> {
    match t {
        Type::Scalar(d) => Ok(d),
        t => Err(CodegenError::arg(OP, format!("{t} is not a number type"))),
    }
}

/// The element dtype of a scalar or tile type.
fn scalar_of(t: &IrType) -> Result<DType> {
    match t {
        IrType::Scalar(e) | IrType::Tile { elem: e, .. } => scalar(*e),
        t => Err(CodegenError::arg(
            OP,
            format!("{t} is not a scalar or tile"),
        )),
    }
}

/// The element dtype, shape and buffer of a shared-memory type.
fn shared_of(t: &IrType) -> Result<(DType, &[u64], &SharedBuf)> {
    match t {
        IrType::Shared { elem, shape, buf } => Ok((scalar(*elem)?, shape, buf)),
        t => Err(CodegenError::arg(OP, format!("{t} is not a shared buffer"))),
    }
}
