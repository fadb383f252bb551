//! Recording: each public builder call appends one typed op to the kernel's tile IR.
//!
//! A public method runs its checks inside [`KernelBuilder::record_checked`]; its op is lowered
//! from the record when `finish` lowers the program. Only the outermost call is recorded: ops
//! weft builds out of other builder calls (`grouped_tile` from arithmetic) appear once, as the
//! user wrote them. User closures (loop and branch bodies, role bodies, combine functions) run
//! inside [`KernelBuilder::in_region`], which records their calls into the op's region; a body
//! recorded again (a loop with the facts the axis-info pass found) replaces its earlier
//! recording. The report rows an op's lowering makes are given to the op, so the report is read
//! off the program (`report.rs`).

use std::panic::Location;

use crate::codegen::builder::operand::Operand;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, IrType, Loc, Op, OpId, OpKind, Program, RegionId, ValueId};
use crate::codegen::lower::values::{Value, ValueKind};

/// The recording state of one kernel.
#[derive(Debug)]
pub(crate) struct Recorder {
    /// The program recorded so far.
    pub prog: Program,
    /// How many public calls are open: only calls at depth 0 are recorded.
    depth: u32,
    /// The regions ops are appended to, innermost last.
    open: Vec<RegionId>,
    /// The caller of the innermost public call in progress (what the report names).
    caller: Option<Loc>,
    /// The line the next outermost call is recorded at instead of its caller's: a replayed
    /// op keeps the user's line it was first recorded at (`replay.rs`).
    pub replay_loc: Option<Loc>,
    /// A report label given since the last recorded op, kept for the next one.
    pub pending_label: Option<String>,
    /// How many combine functions are being recorded (`record_combine`): an op weft makes
    /// itself inside one is refused (it could not be lowered at every combination).
    pub hold: u32,
    /// Whether an op recorded so far needs the kernel's body (its function).
    pub wants_body: bool,
    /// The first such op: the function is made just before it is lowered.
    pub body_op: Option<OpId>,
    /// The parts of the composite op being recorded (`record_composite`): ops weft calls
    /// itself while checking it, kept to be lowered with it.
    composite: Option<Vec<Op>>,
}

/// What a public call returns, as recorded results.
pub(crate) trait Results {
    /// The values it defines.
    fn values(&self) -> Vec<Value>;
}

/// The regions of the op being recorded, for its user closures; `None` when the op is not
/// recorded (weft calls it itself), so its closures are not either.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bodies([Option<RegionId>; 2]);

impl Bodies {
    /// Region `i`.
    pub fn get(self, i: usize) -> Option<RegionId> {
        self.0[i]
    }
}

impl Results for () {
    fn values(&self) -> Vec<Value> {
        Vec::new()
    }
}
impl Results for Value {
    fn values(&self) -> Vec<Value> {
        vec![*self]
    }
}
impl Results for Vec<Value> {
    fn values(&self) -> Vec<Value> {
        self.clone()
    }
}
impl Results for (Value, Value) {
    fn values(&self) -> Vec<Value> {
        vec![self.0, self.1]
    }
}

impl Results for Vec<crate::codegen::builder::roles::Role> {
    fn values(&self) -> Vec<Value> {
        Vec::new()
    }
}
impl Results for crate::codegen::builder::roles::NamedBarriers {
    fn values(&self) -> Vec<Value> {
        Vec::new()
    }
}

impl From<Value> for Arg {
    fn from(v: Value) -> Arg {
        Arg::Value(ValueId(v.index))
    }
}

impl From<Operand> for Arg {
    fn from(o: Operand) -> Arg {
        match o {
            Operand::Value(v) => v.into(),
            Operand::Int(i) => Arg::Int(i),
            Operand::Float(x) => Arg::Float(x),
        }
    }
}

impl Recorder {
    /// An empty recording of kernel `prog`.
    pub fn new(prog: Program) -> Recorder {
        let body = prog.body;
        Recorder {
            prog,
            depth: 0,
            open: vec![body],
            caller: None,
            replay_loc: None,
            pending_label: None,
            composite: None,
            hold: 0,
            wants_body: false,
            body_op: None,
        }
    }

    /// Whether a combine function is being recorded (its ops are not lowered yet).
    pub fn holding(&self) -> bool {
        self.hold > 0
    }

    /// The caller of the innermost public call in progress.
    #[track_caller]
    pub fn caller(&self) -> Loc {
        self.caller.unwrap_or_else(Loc::caller)
    }

    /// Appends `op` to the innermost open region.
    pub(crate) fn append(&mut self, op: Op) -> OpId {
        let region = *self.open.last().expect("the body region is always open");
        let id = self.prog.push_op(region, op);
        if let Some(label) = self.pending_label.take() {
            self.prog.labels.push((id, label));
        }
        id
    }

    /// The line an outermost call made at `caller` is recorded at.
    pub(crate) fn line_of(&mut self, caller: &'static Location<'static>) -> Loc {
        self.replay_loc.take().unwrap_or_else(|| Loc::from(caller))
    }
}

impl<'ctx> KernelBuilder<'ctx> {
    /// The tile-IR type of `v` (its kind, element type, shape, layout or buffer).
    pub(crate) fn ir_type(&self, v: Value) -> Result<IrType> {
        let d = self.lx.values.peek("record", v)?;
        Ok(match d.kind {
            ValueKind::Scalar => IrType::Scalar(d.ty),
            ValueKind::Tile => match &d.layout {
                Some(l) => IrType::Tile {
                    elem: d.ty,
                    shape: d.shape.clone(),
                    layout: l.clone(),
                },
                None => IrType::Scalar(d.ty),
            },
            ValueKind::SharedDesc => match &d.shared {
                Some(buf) => IrType::Shared {
                    elem: d.ty,
                    shape: d.shape.clone(),
                    buf: buf.clone(),
                },
                None => {
                    return Err(CodegenError::arg(
                        "record",
                        "a shared descriptor without a buffer",
                    ))
                }
            },
            ValueKind::Barrier => IrType::Barriers {
                count: d.shape.first().copied().unwrap_or(1),
            },
            ValueKind::TensorMap => IrType::TensorMap { elem: d.ty },
            ValueKind::AsyncToken => IrType::Token,
        })
    }

    /// Records `v`'s type in the program.
    pub(crate) fn note_type(&mut self, v: Value) -> Result<ValueId> {
        let ty = self.ir_type(v)?;
        let id = ValueId(v.index);
        self.rec.prog.set_type(id, ty);
        Ok(id)
    }

    /// Records a parameter (called once its value exists).
    pub(crate) fn record_param(&mut self, name: &str, v: Value) -> Result<()> {
        let value = self.note_type(v)?;
        let decl = self
            .lx
            .params
            .iter()
            .find(|p| p.name == name)
            .cloned()
            .ok_or_else(|| CodegenError::arg("record", format!("parameter `{name}` undeclared")))?;
        self.rec.prog.params.push(crate::codegen::ir::ProgramParam {
            name: name.to_string(),
            value,
            decl,
        });
        Ok(())
    }

    /// Runs the public call `f`, which checks its operands and makes its results (types,
    /// layouts, facts, no registers), and, if it is the outermost call, records it as an op
    /// `kind` on `args` from the caller's line (an error gets that line too). The op is lowered
    /// from its record (`deferred.rs`); a call weft makes itself inside another op is lowered at
    /// once (or kept as a part of a composite op).
    #[track_caller]
    pub(crate) fn record_checked<R: Results>(
        &mut self,
        kind: OpKind,
        args: Vec<Arg>,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        self.record_op(kind, args, 0, |kb, _| f(kb))
    }

    /// As [`record_checked`](Self::record_checked), for an op with `regions` bodies (at most
    /// two) that `f` fills by running each user closure through [`in_region`](Self::in_region)
    /// with the [`Bodies`] it is handed; the op's lowering lowers their ops.
    #[track_caller]
    pub(crate) fn record_checked_with_regions<R: Results>(
        &mut self,
        kind: OpKind,
        args: Vec<Arg>,
        regions: usize,
        f: impl FnOnce(&mut Self, Bodies) -> Result<R>,
    ) -> Result<R> {
        self.record_op(kind, args, regions, f)
    }

    #[track_caller]
    fn record_op<R: Results>(
        &mut self,
        kind: OpKind,
        args: Vec<Arg>,
        regions: usize,
        f: impl FnOnce(&mut Self, Bodies) -> Result<R>,
    ) -> Result<R> {
        let top = self.rec.depth == 0;
        let loc = match top {
            true => self.rec.line_of(Location::caller()),
            false => Loc::caller(),
        };
        // The outermost op during whose recording the body was first needed starts it.
        let starts_body = top && !self.rec.wants_body;
        let outer_caller = self.rec.caller.replace(loc);
        let regs: Vec<RegionId> = if top {
            (0..regions).map(|_| self.rec.prog.new_region()).collect()
        } else {
            Vec::new()
        };
        let mut bodies = Bodies([None; 2]);
        for (slot, r) in bodies.0.iter_mut().zip(&regs) {
            *slot = Some(*r);
        }
        self.rec.depth += 1;
        let out = f(self, bodies);
        self.rec.depth -= 1;
        self.rec.caller = outer_caller;
        if !top {
            let out = out?;
            let results = out.values().iter().map(|v| ValueId(v.index)).collect();
            let op = Op {
                kind,
                args,
                results,
                regions: Vec::new(),
                loc,
            };
            match self.rec.composite.as_mut() {
                Some(parts) => parts.push(op),
                None => self.lower_unrecorded(op)?,
            }
            return Ok(out);
        }
        let out = match out {
            Ok(out) => out,
            Err(e) => {
                // A refused op is not in the program: it starts nothing.
                if starts_body {
                    self.rec.wants_body = false;
                }
                return Err(e.at(loc));
            }
        };
        let results = out
            .values()
            .into_iter()
            .map(|v| self.note_type(v))
            .collect::<Result<Vec<_>>>()?;
        let id = self.rec.append(Op {
            kind,
            args,
            results,
            regions: regs,
            loc,
        });
        if starts_body && self.rec.wants_body {
            self.rec.body_op = Some(id);
        }
        Ok(out)
    }

    /// As [`record_checked`](Self::record_checked), for an op `f` builds from other ops lowered
    /// from their record (`grouped_tile` from arithmetic): their checks run now and their
    /// records are kept as the op's parts, lowered in order when the op is
    /// (`lower/composite.rs`). Its results are those of its parts.
    #[track_caller]
    pub(crate) fn record_composite<R: Results>(
        &mut self,
        kind: OpKind,
        args: Vec<Arg>,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        self.record_op(kind, args, 0, |kb, _| {
            let outer = kb.rec.composite.replace(Vec::new());
            let out = f(kb);
            let parts = std::mem::replace(&mut kb.rec.composite, outer).unwrap_or_default();
            let out = out?;
            let first = out.values().first().copied().ok_or_else(|| {
                CodegenError::arg("record", "internal: a composite op without a result")
            })?;
            kb.lx.staged.composites.put(ValueId(first.index), parts);
            Ok(out)
        })
    }

    /// Records a setting that changes how later ops lower (`allow_fp_contraction`): an op with
    /// no operands or results, kept only when the user called it, and lowered from its record
    /// like any other (so ops recorded before it lower without it).
    #[track_caller]
    pub(crate) fn record_setting(&mut self, kind: OpKind) -> Result<()> {
        self.record_op(kind, Vec::new(), 0, |_, _| Ok(()))
    }

    /// Runs user code `f` (the body of the op being recorded in `region`, if it is recorded)
    /// with its `params`, recording its calls into that region and its returned values as the
    /// region's yields.
    pub(crate) fn in_region<R: Results>(
        &mut self,
        region: Option<RegionId>,
        params: &[Value],
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        let Some(region) = region else {
            return f(self);
        };
        self.rec.prog.reset_region(region);
        let params = params
            .iter()
            .map(|v| self.note_type(*v))
            .collect::<Result<Vec<_>>>()?;
        let depth = std::mem::replace(&mut self.rec.depth, 0);
        self.rec.open.push(region);
        let out = f(self);
        self.rec.open.pop();
        self.rec.depth = depth;
        let out = out?;
        let yields = out.values().into_iter().map(|v| ValueId(v.index)).collect();
        self.rec.prog.set_region_ends(region, params, yields);
        Ok(out)
    }

    /// The tile IR recorded so far.
    pub fn program(&self) -> &Program {
        &self.rec.prog
    }
}
