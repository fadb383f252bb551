//! The tile IR: what a kernel is, as a program that can be printed, checked and interpreted.
//!
//! The [`KernelBuilder`](crate::codegen::KernelBuilder) validates each call and records it here
//! as a typed op (arena + `Copy` handles, as naga and Cranelift keep functions) with its operands,
//! its results' types and the caller's source line. Structured control flow (`for_range`, `if_`,
//! warp roles) and the combine functions of reductions and scans are regions. Passes read the
//! recorded [`Program`]: the printer (`print.rs`), the verifier (`codegen::verify`) and the
//! interpreter.
//!
//! Ops are recorded at the level the user called them: an op that weft implements with other
//! builder calls (`argmax` through a reduction, `zeros` through `full`) is one op.

pub(crate) mod attrs;
pub(crate) mod loc;
pub(crate) mod op;
pub(crate) mod print;
pub(crate) mod print_line;
pub(crate) mod types;

pub use loc::Loc;
pub use op::{Arg, Op, OpId, OpKind, Region, RegionId, ValueId};
pub(crate) use types::{IrType, SharedBuf};

use crate::codegen::target::Target;

/// A kernel parameter as the program sees it.
#[derive(Debug, Clone)]
pub struct ProgramParam {
    /// The parameter's name.
    pub name: String,
    /// Its value.
    pub value: ValueId,
    /// What the signature declares of it (type, divisibility, a tensor map's box).
    pub decl: crate::signature::Param,
}

/// A recorded kernel: parameters, the body region, and the arenas of ops, regions and value
/// types that handles index.
#[derive(Debug, Clone)]
pub struct Program {
    /// The kernel's name.
    pub name: String,
    /// The target it was built for.
    pub target: Target,
    /// Warps per CTA.
    pub num_warps: u32,
    /// Parameters, in order.
    pub params: Vec<ProgramParam>,
    /// The kernel body.
    pub body: RegionId,
    /// The register limit per thread (`limit_registers`), if any.
    pub max_registers: Option<u32>,
    /// CTAs per cluster along x, y, z (`cluster_dims`), if the kernel runs in clusters.
    pub cluster: Option<[u32; 3]>,
    pub(crate) ops: Vec<Op>,
    pub(crate) regions: Vec<Region>,
    pub(crate) types: Vec<Option<IrType>>,
    /// Report labels ([`label`](crate::codegen::KernelBuilder::label)) by the op recorded next
    /// after them, so an op lowered again from its record is reported under the same name.
    pub(crate) labels: Vec<(OpId, String)>,
}

impl Program {
    /// An empty program with an empty body.
    pub(crate) fn new(name: &str, target: Target, num_warps: u32) -> Program {
        Program {
            name: name.to_string(),
            target,
            num_warps,
            params: Vec::new(),
            body: RegionId(0),
            max_registers: None,
            cluster: None,
            ops: Vec::new(),
            regions: vec![Region::default()],
            types: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// The op behind a handle.
    pub fn op(&self, id: OpId) -> &Op {
        &self.ops[id.0 as usize]
    }

    /// The report label given just before op `id` was recorded, if any.
    pub(crate) fn label_before(&self, id: OpId) -> Option<&str> {
        self.labels
            .iter()
            .find(|(op, _)| *op == id)
            .map(|(_, l)| l.as_str())
    }

    /// The region behind a handle.
    pub fn region(&self, id: RegionId) -> &Region {
        &self.regions[id.0 as usize]
    }

    /// The type of a value, if it was recorded (every operand of a recorded op is).
    pub(crate) fn ty(&self, v: ValueId) -> Option<&IrType> {
        self.types.get(v.0 as usize).and_then(Option::as_ref)
    }

    /// Records the type of `v`.
    pub(crate) fn set_type(&mut self, v: ValueId, ty: IrType) {
        let i = v.0 as usize;
        if self.types.len() <= i {
            self.types.resize(i + 1, None);
        }
        self.types[i] = Some(ty);
    }

    /// A new empty region.
    pub(crate) fn new_region(&mut self) -> RegionId {
        self.regions.push(Region::default());
        RegionId((self.regions.len() - 1) as u32)
    }

    /// Appends `op` to `region`.
    pub(crate) fn push_op(&mut self, region: RegionId, op: Op) -> OpId {
        self.ops.push(op);
        let id = OpId((self.ops.len() - 1) as u32);
        self.regions[region.0 as usize].ops.push(id);
        id
    }

    /// Empties `region` (a body recorded again replaces the earlier attempt).
    pub(crate) fn reset_region(&mut self, region: RegionId) {
        self.regions[region.0 as usize] = Region::default();
    }

    /// Sets the parameters and yields of `region`.
    pub(crate) fn set_region_ends(
        &mut self,
        region: RegionId,
        params: Vec<ValueId>,
        yields: Vec<ValueId>,
    ) {
        let r = &mut self.regions[region.0 as usize];
        r.params = params;
        r.yields = yields;
    }

    /// Every op of `region` and of the regions nested in it, in program order (pre-order).
    pub fn walk(&self, region: RegionId, f: &mut impl FnMut(OpId, &Op)) {
        for &id in &self.region(region).ops {
            let op = self.op(id);
            f(id, op);
            for &r in &op.regions {
                self.walk(r, f);
            }
        }
    }
}

// A recorded program is plain data that crosses threads: the CPU backend keeps it in `Send + Sync`
// modules. (Layouts and shared buffers are shared through `Arc` for that reason.)
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Program>();
};
