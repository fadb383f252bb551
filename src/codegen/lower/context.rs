//! The lowering context: everything that turns recorded ops into LLVM IR (the kernel function
//! and its parameters included), and nothing of the builder facade (recording, the signature's
//! checks, shared-memory allocation, roles' bookkeeping).
//!
//! Lowering functions (`lower/*`, `target/*`) take a [`LowerCtx`] rather than the builder, so
//! they see the LLVM handles, the value map, the index CSE, the thread coordinates and the report
//! sink, and can neither record ops nor change the kernel's signature.

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;

use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;
use crate::codegen::lower::index_cse::IndexCse;
use crate::codegen::lower::placement::Placement;
use crate::codegen::lower::role_view::{RolePlan, RoleView};
use crate::codegen::lower::staged::StagedPlans;
use crate::codegen::lower::thread::ThreadIds;
use crate::codegen::lower::values::{Value, Values};
use crate::codegen::lower::wgmma_plan::WgmmaPlan;
use crate::codegen::report::Recorder;
use crate::codegen::target::Target;
use crate::signature::Param;

/// The state of lowering one kernel.
pub(crate) struct LowerCtx<'ctx> {
    /// The LLVM handles and the raw calls.
    pub em: Emitter<'ctx>,
    /// What the kernel is lowered for.
    pub target: Target,
    /// The kernel function's name.
    pub name: String,
    /// The parameters, in order, and the values standing for them.
    pub params: Vec<Param>,
    /// See `params`.
    pub param_values: Vec<Value>,
    /// Warps of the current scope: the kernel's, or inside a warp role the role's (per
    /// replica). Tile layouts distribute over these.
    pub num_warps: u32,
    /// Warps of the whole CTA (what the launch and the signature see).
    pub kernel_warps: u32,
    /// The value arena (each value's LLVM registers) and its scopes.
    pub values: Values<'ctx>,
    /// Special registers and thread coordinates, read once in the prologue.
    pub threads: ThreadIds<'ctx>,
    /// Known bits of integer values and the index instructions already built.
    pub cse: IndexCse<'ctx>,
    /// What the algebra predicted for each op lowered so far ([`Kernel::report`](super::Kernel::report)).
    pub report: Recorder,
    /// The open loops, outermost first: each body's scope and its preheader, where work on
    /// values made before the loop goes.
    pub loops: Vec<(u32, BasicBlock<'ctx>)>,
    /// Whether float `+`, `-`, `*` lowered from now on may fuse into FMAs.
    pub fp_contract: bool,
    /// What recorded ops' checks decided for their lowering (routes, scratch).
    pub staged: StagedPlans,
    /// The warp role being lowered, if any: its replica and its barrier.
    pub role: Option<RoleView<'ctx>>,
    /// The declared warp roles, by index, as their lowering needs them.
    pub role_plans: Vec<RolePlan>,
    /// The first op that needs the kernel's function (made just before it is lowered).
    pub body_op: Option<crate::codegen::ir::OpId>,
    /// Where the allocator put the result of each allocation op (by value index), decided
    /// when the op was recorded.
    pub placements: std::collections::HashMap<u32, Placement>,
    /// How each `wgmma` is issued (by its result's value index), planned when it was recorded.
    pub wgmma_plans: std::collections::HashMap<u32, WgmmaPlan>,
}

impl<'ctx> LowerCtx<'ctx> {
    /// A context for kernel `name` of `num_warps` warps whose values carry kernel id `id`.
    pub fn new(
        em: Emitter<'ctx>,
        target: Target,
        name: &str,
        num_warps: u32,
        id: u32,
    ) -> LowerCtx<'ctx> {
        LowerCtx {
            em,
            target,
            name: name.to_string(),
            params: Vec::new(),
            param_values: Vec::new(),
            num_warps,
            kernel_warps: num_warps,
            values: Values::new(id),
            threads: ThreadIds::default(),
            cse: IndexCse::default(),
            report: Recorder::default(),
            loops: Vec::new(),
            fp_contract: false,
            staged: StagedPlans::default(),
            role: None,
            role_plans: Vec::new(),
            body_op: None,
            placements: std::collections::HashMap::new(),
            wgmma_plans: std::collections::HashMap::new(),
        }
    }

    /// Threads per warp of the target (32 on NVIDIA, 64 on CDNA).
    pub fn threads_per_warp(&self) -> u32 {
        self.target.warp_size()
    }

    /// Threads of the current scope (the CTA, or the role's replica): warps × threads per warp.
    pub fn threads_per_block(&self) -> u32 {
        self.num_warps * self.threads_per_warp()
    }

    /// Threads per CTA, what the launch gives.
    pub fn kernel_threads(&self) -> u32 {
        self.kernel_warps * self.threads_per_warp()
    }

    /// Emits `build` in the prologue (so its values dominate every later block), starting the
    /// body if needed, and returns to the current position.
    pub fn in_prologue<T>(&mut self, build: impl FnOnce(&Builder<'ctx>) -> Result<T>) -> Result<T> {
        self.ensure_body()?;
        self.em.in_prologue(build)
    }

    /// Runs `emit` where values made in scope `defined_in` are first loop-invariant: at the end
    /// of the preheader of the outermost open loop made after them, or here when there is none.
    /// Work that depends on nothing the loop changes (a wgmma descriptor of a buffer made
    /// before it) is then done once, whatever the middle end (tensor-core kernels with loops
    /// skip it) or ptxas would make of it.
    pub fn hoisted<T>(
        &mut self,
        defined_in: u32,
        emit: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let Some(&(_, pre)) = self.loops.iter().find(|(scope, _)| *scope > defined_in) else {
            return emit(self);
        };
        let here = self.em.b.get_insert_block().ok_or_else(|| {
            crate::codegen::error::CodegenError::arg("lower", "no current block to return to")
        })?;
        let term = pre.get_terminator().ok_or_else(|| {
            crate::codegen::error::CodegenError::arg("lower", "a loop preheader without its branch")
        })?;
        self.em.b.position_before(&term);
        let out = emit(self);
        self.em.b.position_at_end(here);
        out
    }
}
