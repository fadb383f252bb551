//! Axis info as a pass over the recorded program: the contiguity, divisibility and constancy of
//! every value of a region, from those of its parameters and of the values it uses from outside,
//! by the transfer rules of `analysis/axis_info.rs` applied op by op as lowering applies them,
//! with no LLVM emitted. A loop's carried facts reach their fixpoint here ([`loop_fixpoint`]), so
//! a loop body whose first recording broke what it assumed is recorded once more, with the
//! facts that hold, and not once per weakening; every loop is lowered once.
//!
//! Covered: every op whose result facts lowering derives from its operands' facts alone
//! (constants, `arange`, `full`/`splat`/`broadcast_to`, elementwise, casts, math, shape ops,
//! layout conversions, loads, atomics, reductions, scans, tensor-core products and waits,
//! shared views, barriers, nested `for_range` and `if_`; ops without results). An op whose
//! facts need more than its operands (`role_replica`, which reads its role's replica count, and
//! `grouped_tile`, which weft builds from other ops) makes the pass answer `None`, and the
//! caller lowers as before.

use std::collections::HashMap;

use num_integer::Integer;

use crate::codegen::analysis::axis_info::{pow2_divisor, AxisInfo};
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::{BinaryOp, CmpOp};
use crate::codegen::ir::{Arg, IrType, Op, OpKind, Program, RegionId, ValueId};
use crate::codegen::lower::values::{Literal, ValueData};
use crate::codegen::types::{DType, Type};

/// What the pass knows of one value: its facts, and the type facts the rules read.
#[derive(Debug, Clone)]
pub(crate) struct Known {
    /// Contiguity, divisibility, constancy.
    pub info: AxisInfo,
    /// Element type (`None` for barriers and tokens).
    pub ty: Option<Type>,
    /// Tile shape; empty for scalars.
    pub shape: Vec<u64>,
    /// Whether it is a register tile (a layout), not a scalar.
    pub tile: bool,
    /// The literal a constant was made from.
    pub literal: Option<Literal>,
}

impl Known {
    /// A value of recorded type `ty` with facts `info`.
    pub fn of_type(ty: &IrType, info: AxisInfo) -> Known {
        Known {
            info,
            ty: ty.elem(),
            shape: ty.shape().to_vec(),
            tile: matches!(ty, IrType::Tile { .. }),
            literal: None,
        }
    }

    /// What lowering knows of a value it made.
    pub fn of_value(d: &ValueData<'_>) -> Known {
        Known {
            info: d.info.clone(),
            ty: Some(d.ty),
            shape: d.shape.clone(),
            tile: !d.is_scalar(),
            literal: d.literal,
        }
    }

    fn scalar(ty: DType, info: AxisInfo, literal: Option<Literal>) -> Known {
        Known {
            info,
            ty: Some(Type::Scalar(ty)),
            shape: Vec::new(),
            tile: false,
            literal,
        }
    }

    fn dtype(&self) -> Option<DType> {
        match self.ty {
            Some(Type::Scalar(d)) => Some(d),
            _ => None,
        }
    }

    fn is_ptr(&self) -> bool {
        matches!(self.ty, Some(Type::Ptr(..)))
    }
}

/// What a loop assumes of a carried value before its body is seen: its initial facts, except
/// for floats (whose facts never shape code) and counters started from a literal (which the
/// body almost always changes), of which nothing is assumed.
pub(crate) fn first_assumption(init: &Known) -> AxisInfo {
    let float = matches!(init.ty, Some(Type::Scalar(t)) if t.is_float());
    let counter = !init.tile && init.literal.is_some();
    if float || counter {
        AxisInfo::unknown(&init.shape)
    } else {
        init.info.clone()
    }
}

/// The facts of a loop's induction variable: its start's divisibility and the step's.
pub(crate) fn induction_info(lo: &AxisInfo, step: u32) -> AxisInfo {
    AxisInfo::scalar(lo.scalar_div.gcd(&pow2_divisor(step as i64)).max(1))
}

/// Whether the body's `yields` keep every fact `assumed`; if not, weakens `assumed` where they
/// broke it: to what both keep on attempts 0 and 1, to nothing after (which every yield
/// implies, so attempt 3 always holds).
pub(crate) fn weaken(
    assumed: &mut [AxisInfo],
    yields: &[AxisInfo],
    shapes: &[&[u64]],
    attempt: usize,
) -> bool {
    if yields.iter().zip(assumed.iter()).all(|(y, a)| y.implies(a)) {
        return true;
    }
    for ((a, y), shape) in assumed.iter_mut().zip(yields).zip(shapes) {
        if !y.implies(a) {
            *a = if attempt < 2 {
                AxisInfo::join(a, y)
            } else {
                AxisInfo::unknown(shape)
            };
        }
    }
    false
}

/// The attempt at which a loop's carried facts hold, and those facts, from `assumed` at attempt
/// `from`: `body` gives the yields' facts for assumed facts (`None`: not known, and neither is
/// the fixpoint).
pub(crate) fn loop_fixpoint(
    from: usize,
    mut assumed: Vec<AxisInfo>,
    shapes: &[&[u64]],
    mut body: impl FnMut(&[AxisInfo]) -> Option<Vec<AxisInfo>>,
) -> Option<(usize, Vec<AxisInfo>)> {
    for attempt in from..4 {
        let yields = body(&assumed)?;
        if yields.len() != assumed.len() {
            return None;
        }
        if weaken(&mut assumed, &yields, shapes, attempt) {
            return Some((attempt, assumed));
        }
    }
    None
}

/// The first value of `prog` whose facts as lowering found them (`lowered`, which knows every
/// value of the finished kernel) differ from the pass's over the whole program: the value, and
/// the two facts. Ops the pass cannot follow take lowering's facts; values in bodies are those
/// of the last lowering.
pub(crate) fn first_disagreement(
    prog: &Program,
    lowered: impl Fn(ValueId) -> Option<Known>,
) -> Option<(ValueId, AxisInfo, AxisInfo)> {
    let mut flow = AxisFlow::new(prog, &lowered);
    flow.lenient = true;
    flow.region(prog.body, &[])?;
    let mut ids = Vec::new();
    prog.walk(prog.body, &mut |_, op| {
        ids.extend(op.results.iter().copied())
    });
    ids.into_iter().find_map(|id| {
        let (built, found) = (lowered(id)?, flow.vals.get(&id)?);
        (built.info != found.info).then(|| (id, built.info, found.info.clone()))
    })
}

/// Checks that the pass over `prog` finds every fact lowering found (`lowered`): an error
/// naming the first value where the two differ. Debug builds run it in every `finish`, so the
/// pass follows lowering's rules in every kernel a test builds.
pub(crate) fn check(prog: &Program, lowered: impl Fn(ValueId) -> Option<Known>) -> Result<()> {
    match first_disagreement(prog, lowered) {
        None => Ok(()),
        Some((id, built, found)) => Err(CodegenError::Llvm {
            stage: "axis info",
            message: format!(
                "kernel `{}`: %{} has {built:?} as lowered, {found:?} by the pass",
                prog.name, id.0
            ),
        }),
    }
}

/// The pass over one program: facts of the values it has seen, and of the values defined
/// outside what it walks (`outer`).
pub(crate) struct AxisFlow<'p, F> {
    prog: &'p Program,
    outer: F,
    vals: HashMap<ValueId, Known>,
    /// Whether an op the pass cannot follow takes its results' facts from `outer` (checking a
    /// finished kernel) instead of ending the pass.
    lenient: bool,
}

impl<'p, F: Fn(ValueId) -> Option<Known>> AxisFlow<'p, F> {
    /// A pass over `prog`; `outer` knows the values the walked regions use from outside.
    pub fn new(prog: &'p Program, outer: F) -> Self {
        AxisFlow {
            prog,
            outer,
            vals: HashMap::new(),
            lenient: false,
        }
    }

    /// The facts of the values `region` yields, its parameters having `params`' facts.
    pub fn region(&mut self, region: RegionId, params: &[AxisInfo]) -> Option<Vec<AxisInfo>> {
        let r = self.prog.regions.get(region.0 as usize)?;
        if r.params.len() != params.len() {
            return None;
        }
        for (id, info) in r.params.iter().zip(params) {
            let k = Known::of_type(self.prog.ty(*id)?, info.clone());
            self.vals.insert(*id, k);
        }
        for &id in &r.ops {
            self.op(self.prog.op(id))?;
        }
        r.yields
            .iter()
            .map(|y| self.get(*y).map(|k| k.info))
            .collect()
    }

    /// What the pass knows of `id`: its own finding, else `outer`'s.
    pub fn get(&self, id: ValueId) -> Option<Known> {
        match self.vals.get(&id) {
            Some(k) => Some(k.clone()),
            None => (self.outer)(id),
        }
    }

    fn value(&self, op: &Op, i: usize) -> Option<Known> {
        self.get(op.args.get(i)?.value()?)
    }

    fn result_ty(&self, op: &Op, i: usize) -> Option<&'p IrType> {
        self.prog.ty(*op.results.get(i)?)
    }

    fn bind(&mut self, op: &Op, i: usize, info: AxisInfo, literal: Option<Literal>) -> Option<()> {
        let id = *op.results.get(i)?;
        let mut k = Known::of_type(self.prog.ty(id)?, info);
        k.literal = literal;
        self.vals.insert(id, k);
        Some(())
    }

    /// Binds the one result of `op` to `info`.
    fn one(&mut self, op: &Op, info: AxisInfo) -> Option<()> {
        self.bind(op, 0, info, None)
    }

    fn op(&mut self, op: &Op) -> Option<()> {
        use OpKind as K;
        if op.results.is_empty() {
            // Nothing it makes is seen after it (a body's values stay in the body).
            return Some(());
        }
        let shape = || self.result_ty(op, 0).map(|t| t.shape().to_vec());
        match &op.kind {
            K::ProgramId(_) | K::NumPrograms(_) => self.one(op, AxisInfo::scalar(1)),
            K::Const => {
                let d = self.result_ty(op, 0)?.elem()?.dtype()?;
                let k = literal_known(lit_of(*op.args.first()?)?, d)?;
                self.bind(op, 0, k.info, k.literal)
            }
            K::Assume {
                divisibility,
                contiguity,
            } => {
                let mut k = self.value(op, 0)?;
                if k.tile {
                    let last = k.shape.len().checked_sub(1)?;
                    for x in k.info.divisibility.iter_mut() {
                        *x = (*x).max(*divisibility);
                    }
                    k.info.contiguity[last] = k.info.contiguity[last].max(*contiguity);
                } else {
                    k.info.scalar_div = k.info.scalar_div.max(*divisibility);
                }
                self.one(op, k.info)
            }
            K::Arange { start, end } => {
                let size = u64::try_from(i64::from(*end) - i64::from(*start)).ok()?;
                self.one(op, AxisInfo::arange(i64::from(*start), size))
            }
            K::Full => {
                let d = self.result_ty(op, 0)?.elem()?.dtype()?;
                let s = self.operand(*op.args.first()?, Some(Type::Scalar(d)))?;
                let info = s.info.broadcast_to(&[], &shape()?);
                self.one(op, info)
            }
            K::Splat | K::BroadcastTo => {
                let k = self.value(op, 0)?;
                let info = broadcast(&k, &shape()?);
                self.one(op, info)
            }
            K::Binary(b) => {
                let info = self.binary(*b, op)?;
                self.one(op, info)
            }
            K::Cmp(c) => {
                let (x, y) = self.pair("cmp", *op.args.first()?, *op.args.get(1)?)?;
                let int = x.dtype()?.is_int();
                let u = unify(&[&x, &y]);
                let info = match (c, int) {
                    (CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge, true) => {
                        let (run, bound) = if u[0].contiguity.iter().any(|&c| c > 1) {
                            (&u[0], &u[1])
                        } else {
                            (&u[1], &u[0])
                        };
                        AxisInfo::ordered_compare(run, bound)
                    }
                    _ => AxisInfo::meet_constancy(&u[0], &u[1]),
                };
                self.one(op, info)
            }
            K::Where => {
                let c = self.value(op, 0)?;
                let (a, b) = self.pair("where", *op.args.get(1)?, *op.args.get(2)?)?;
                let u = unify(&[&c, &a, &b]);
                self.one(op, AxisInfo::select(&u[0], &u[1], &u[2]))
            }
            K::Unary(_) | K::Math(..) => {
                let info = AxisInfo::keep_constancy(&self.value(op, 0)?.info);
                self.one(op, info)
            }
            K::Fma => {
                let x = self.value(op, 0)?;
                let y = self.operand(*op.args.get(1)?, x.ty)?;
                let z = self.operand(*op.args.get(2)?, x.ty)?;
                let u = unify(&[&x, &y, &z]);
                let info = AxisInfo::meet_constancy(&u[0], &AxisInfo::meet_constancy(&u[1], &u[2]));
                self.one(op, info)
            }
            K::Cast(to) => {
                let x = self.value(op, 0)?;
                self.one(op, cast_info(&x, *to)?)
            }
            K::ExpandDims(axis) => {
                let info = self.value(op, 0)?.info.expand_dims(*axis);
                self.one(op, info)
            }
            K::Permute(perm) => {
                let info = self.value(op, 0)?.info.permute(perm);
                self.one(op, info)
            }
            K::Reshape | K::Join => {
                let info = self.value(op, 0)?.info.reshuffled(&shape()?);
                self.one(op, info)
            }
            K::Split => {
                let info = self.value(op, 0)?.info.reshuffled(&shape()?);
                self.one(op, info.clone())?;
                self.bind(op, 1, info, None)
            }
            K::ConvertLayout => {
                let info = self.value(op, 0)?.info;
                self.one(op, info)
            }
            K::Load { .. } => {
                let info = match self.result_ty(op, 0)? {
                    IrType::Tile { shape, .. } => {
                        let ptrs = broadcast(&self.value(op, 0)?, shape);
                        let mut info = AxisInfo::unknown(shape);
                        info.constancy = ptrs.constancy;
                        info
                    }
                    _ => AxisInfo::scalar(1),
                };
                self.one(op, info)
            }
            K::Reduce { .. }
            | K::ReduceWith(_)
            | K::ArgMax(_)
            | K::ArgMin(_)
            | K::Scan { .. }
            | K::ScanWith(_)
            | K::AtomicRmw(_)
            | K::AtomicCas
            | K::Dot
            | K::Wgmma { .. }
            | K::LoadShared
            | K::Ldmatrix => {
                let info = match self.result_ty(op, 0)? {
                    IrType::Tile { shape, .. } => AxisInfo::unknown(shape),
                    _ => AxisInfo::scalar(1),
                };
                self.one(op, info)
            }
            K::WgmmaWait(_) => {
                for i in 0..op.results.len() {
                    let info = self.value(op, i)?.info;
                    self.bind(op, i, info, None)?;
                }
                Some(())
            }
            K::AllocShared
            | K::AllocSharedBuffers(_)
            | K::IndexShared
            | K::PermuteShared(_)
            | K::SliceShared { .. }
            | K::ReshapeShared
            | K::ReinterpretShared
            | K::AsyncCommitGroup
            | K::AllocMbarriers { .. }
            | K::MbarrierAt => self.one(op, AxisInfo::scalar(1)),
            K::For { step } => self.for_range(op, *step),
            K::If => {
                let (then_, else_) = (*op.regions.first()?, *op.regions.get(1)?);
                let t = self.region(then_, &[])?;
                let e = self.region(else_, &[])?;
                if t.len() != op.results.len() || e.len() != t.len() {
                    return None;
                }
                for (i, (t, e)) in t.iter().zip(&e).enumerate() {
                    self.bind(op, i, AxisInfo::join(t, e), None)?;
                }
                Some(())
            }
            _ if self.lenient => {
                for &r in &op.results {
                    let k = (self.outer)(r)?;
                    self.vals.insert(r, k);
                }
                Some(())
            }
            _ => None,
        }
    }

    /// A nested loop: its carried facts' fixpoint, as `for_range` reaches it.
    fn for_range(&mut self, op: &Op, step: u32) -> Option<()> {
        let (lo, hi) = (*op.args.first()?, *op.args.get(1)?);
        let l = match (lo, hi) {
            (Arg::Value(_), _) | (_, Arg::Value(_)) => self.pair("for_range", lo, hi)?.0,
            _ => self.operand(lo, None)?,
        };
        let inits: Vec<Known> = (2..op.args.len())
            .map(|i| self.value(op, i))
            .collect::<Option<_>>()?;
        let body = *op.regions.first()?;
        let iv = induction_info(&l.info, step);
        let shapes: Vec<&[u64]> = inits.iter().map(|k| &k.shape[..]).collect();
        let assumed = inits.iter().map(first_assumption).collect();
        let (_, facts) = loop_fixpoint(0, assumed, &shapes, |assumed| {
            let params: Vec<AxisInfo> = std::iter::once(iv.clone())
                .chain(assumed.iter().cloned())
                .collect();
            self.region(body, &params)
        })?;
        if facts.len() != op.results.len() {
            return None;
        }
        for (i, info) in facts.into_iter().enumerate() {
            self.bind(op, i, info, None)?;
        }
        Some(())
    }

    /// Operand `a`: a value, or a literal made in type `like` (as `operand` makes it).
    fn operand(&self, a: Arg, like: Option<Type>) -> Option<Known> {
        let lit = match a {
            Arg::Value(v) => return self.get(v),
            Arg::Int(i) => Literal::Int(i),
            Arg::Float(x) => Literal::Float(x),
        };
        let d = match (lit, like) {
            (_, Some(Type::Scalar(d))) if !d.is_fp8() => d,
            (Literal::Int(i), None | Some(Type::Ptr(..))) => match i32::try_from(i) {
                Ok(_) => DType::I32,
                Err(_) => DType::I64,
            },
            (Literal::Float(_), None) => DType::F32,
            _ => return None,
        };
        literal_known(lit, d)
    }

    /// Two operands brought to one type, as `operand_pair` brings them: a literal (or a
    /// constant) takes the other side's type, and two number types meet where Triton's rules
    /// bring them.
    fn pair(&self, op: &str, a: Arg, b: Arg) -> Option<(Known, Known)> {
        match (a, b) {
            (Arg::Value(va), Arg::Value(vb)) => {
                let (mut x, mut y) = (self.get(va)?, self.get(vb)?);
                if x.ty != y.ty {
                    if let (Some(l), Some(Type::Scalar(d))) = (x.literal.filter(|_| !x.tile), y.ty)
                    {
                        if let Some(k) = literal_known(l, d) {
                            x = k;
                        }
                    } else if let (Some(l), Some(Type::Scalar(d))) =
                        (y.literal.filter(|_| !y.tile), x.ty)
                    {
                        if let Some(k) = literal_known(l, d) {
                            y = k;
                        }
                    }
                }
                if let (Some(dx), Some(dy)) = (x.dtype(), y.dtype()) {
                    if dx != dy {
                        let div_or_mod = matches!(op, "div" | "div_rn" | "rem");
                        let to = promoted(dx, dy, div_or_mod)?;
                        x = promote(x, to)?;
                        y = promote(y, to)?;
                    }
                }
                Some((x, y))
            }
            (Arg::Value(v), lit) => {
                let x = float_for_literal(self.get(v)?, lit)?;
                let like = if x.is_ptr() { None } else { x.ty };
                let y = self.operand(lit, like)?;
                Some((x, y))
            }
            (lit, Arg::Value(v)) => {
                let y = float_for_literal(self.get(v)?, lit)?;
                let like = if y.is_ptr() { None } else { y.ty };
                let x = self.operand(lit, like)?;
                Some((x, y))
            }
            _ => None,
        }
    }

    /// The facts of `a <op> b` (a pointer plus an offset too), as `binary` derives them.
    fn binary(&self, b: BinaryOp, op: &Op) -> Option<AxisInfo> {
        let (mut x, mut y) = self.pair(b.name(), *op.args.first()?, *op.args.get(1)?)?;
        if b == BinaryOp::Add && y.is_ptr() && !x.is_ptr() {
            std::mem::swap(&mut x, &mut y);
        }
        let u = unify(&[&x, &y]);
        let (ia, ib) = (&u[0], &u[1]);
        if let Some(Type::Ptr(pointee, _)) = x.ty {
            return Some(AxisInfo::add(ia, ib, pointee.mem_bytes()));
        }
        Some(binary_facts(b, x.dtype()?.is_int(), ia, ib))
    }
}

/// The facts of `a <op> b` for two values of one element type (`int`: an integer type): integer
/// arithmetic by its rules, every other op (and float arithmetic) keeping only runs of equal
/// values. Lowering (`builder/ops/elementwise.rs`) and this pass both derive a binary op's facts
/// here, so the two cannot drift apart.
pub(crate) fn binary_facts(op: BinaryOp, int: bool, a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
    if !int {
        return AxisInfo::meet_constancy(a, b);
    }
    match op {
        BinaryOp::Add => AxisInfo::add(a, b, 1),
        BinaryOp::Sub => AxisInfo::sub(a, b),
        BinaryOp::Mul => AxisInfo::mul(a, b),
        BinaryOp::Div => AxisInfo::div(a, b),
        BinaryOp::Rem => AxisInfo::rem(a, b),
        _ => AxisInfo::meet_constancy(a, b),
    }
}

/// A literal operand.
fn lit_of(a: Arg) -> Option<Literal> {
    match a {
        Arg::Int(i) => Some(Literal::Int(i)),
        Arg::Float(x) => Some(Literal::Float(x)),
        Arg::Value(_) => None,
    }
}

/// The constant `lit` made in type `d`, as `const_int` / `const_float` make it; `None` where
/// they refuse (a float literal for an integer, an integer that does not fit).
fn literal_known(lit: Literal, d: DType) -> Option<Known> {
    match (lit, d.is_float()) {
        (Literal::Int(i), false) => {
            let bits = d.bits();
            let fits = match bits {
                1 => i == 0 || i == 1,
                64 => true,
                _ => i >= -(1i64 << (bits - 1)) && i < (1i64 << (bits - 1)),
            };
            fits.then(|| Known::scalar(d, AxisInfo::constant(i, &[]), Some(lit)))
        }
        (Literal::Int(i), true) => Some(Known::scalar(
            d,
            AxisInfo::scalar(1),
            Some(Literal::Float(i as f64)),
        )),
        (Literal::Float(_), true) => Some(Known::scalar(d, AxisInfo::scalar(1), Some(lit))),
        (Literal::Float(_), false) => None,
    }
}

/// `v`, or `v` cast to f32 where it is an integer and `lit` a float literal.
fn float_for_literal(v: Known, lit: Arg) -> Option<Known> {
    match (v.dtype(), lit) {
        (Some(t), Arg::Float(_)) if t.is_int() && t != DType::I1 => promote(v, DType::F32),
        _ => Some(v),
    }
}

/// The type two different number types meet at (`builder/promotion.rs`): the wider integer,
/// else a float. Only whether it is a float and whether an integer widens shape the facts.
fn promoted(a: DType, b: DType, div_or_mod: bool) -> Option<DType> {
    if a.is_fp8() || b.is_fp8() || a == DType::I1 || b == DType::I1 {
        return None;
    }
    if a.is_int() && b.is_int() {
        return Some(if a.bits() >= b.bits() { a } else { b });
    }
    if div_or_mod || a == DType::F64 || b == DType::F64 {
        // Which float does not matter: a float's facts are its constancy alone.
        return Some(DType::F64);
    }
    Some(if a.is_float() { a } else { b })
}

/// `v` cast to `to` where its type differs.
fn promote(v: Known, to: DType) -> Option<Known> {
    if v.dtype()? == to {
        return Some(v);
    }
    let info = cast_info(&v, to)?;
    Some(Known {
        info,
        ty: Some(Type::Scalar(to)),
        literal: None,
        ..v
    })
}

/// The facts of `x` cast to `to`: kept through an integer widening, else only its constancy.
fn cast_info(x: &Known, to: DType) -> Option<AxisInfo> {
    let from = x.dtype()?;
    Some(
        if from.is_int() && to.is_int() && to.bits() >= from.bits() && from != DType::I1 {
            x.info.clone()
        } else {
            AxisInfo::keep_constancy(&x.info)
        },
    )
}

/// The facts of `k` broadcast to `shape`, as `broadcast_regs` gives them.
fn broadcast(k: &Known, shape: &[u64]) -> AxisInfo {
    if !k.tile {
        k.info.broadcast_to(&[], shape)
    } else if k.shape == shape {
        k.info.clone()
    } else {
        k.info.broadcast_to(&k.shape, shape)
    }
}

/// The operands' facts at their common shape (Triton's broadcasting, as `unify` does).
fn unify(ks: &[&Known]) -> Vec<AxisInfo> {
    let tiles: Vec<&&Known> = ks.iter().filter(|k| k.tile).collect();
    let Some(first) = tiles.first() else {
        return ks.iter().map(|k| k.info.clone()).collect();
    };
    let mut shape = first.shape.clone();
    for t in &tiles[1..] {
        for (s, &x) in shape.iter_mut().zip(&t.shape) {
            *s = (*s).max(x);
        }
    }
    ks.iter().map(|k| broadcast(k, &shape)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::kernels::blocked_1d;
    use crate::codegen::lower::values::Value;
    use crate::codegen::{Context, DType, KernelBuilder, Target};

    /// The pass over `kb`'s whole program, knowing only the parameters' declared facts, finds
    /// every fact lowering found, value by value (the values of the last attempt of each loop).
    fn pass_agrees_with_lowering(kb: &KernelBuilder<'_>) -> usize {
        let prog = kb.program();
        let params: HashMap<ValueId, Known> = prog
            .params
            .iter()
            .map(|p| {
                let info = AxisInfo::scalar(p.decl.divisibility);
                (p.value, Known::of_type(prog.ty(p.value).unwrap(), info))
            })
            .collect();
        let mut flow = AxisFlow::new(prog, |id| params.get(&id).cloned());
        flow.region(prog.body, &[])
            .expect("the pass follows every op");
        let mut checked = 0;
        let mut ids = Vec::new();
        prog.walk(prog.body, &mut |_, op| {
            ids.extend(op.results.iter().copied())
        });
        for id in ids {
            let built = kb.lx.values.peek(
                "test",
                Value {
                    kernel: kb.lx.values.kernel_id(),
                    index: id.0,
                },
            );
            let (Ok(built), Some(found)) = (built, flow.get(id)) else {
                continue;
            };
            assert_eq!(built.info, found.info, "%{}", id.0);
            checked += 1;
        }
        checked
    }

    /// A loop carrying two pointers, one following the other, and an accumulator: the first
    /// pointer loses its alignment at once, the second one attempt later, so lowering needs
    /// three attempts by weakening alone; the pass reaches the same facts.
    #[test]
    fn loop_facts_match_lowering_through_two_weakenings() {
        let ctx = Context::new();
        let t = Target::SM90;
        let mut kb = KernelBuilder::new(&ctx, t, "chain", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let n = kb.arg_i32("n", 16).unwrap();
        let l = blocked_1d(t, 4, 4, 512).unwrap();
        let offs = kb.arange(0, 512, &l).unwrap();
        let p0 = kb.add(x, offs).unwrap();
        let acc0 = kb.zeros(&l, DType::F32).unwrap();
        let out = kb
            .for_range(0, n, 4, &[p0, p0, acc0], |kb, i, c| {
                let bound = kb.sub(n, i)?;
                let mask = kb.lt(offs, bound)?;
                let v = kb.load(c[1], Some(mask), Some(crate::codegen::Operand::Float(0.0)))?;
                let v = kb.mul(v, 0.5)?;
                let acc = kb.add(c[2], v)?;
                let step = kb.mul(i, 2)?;
                let p = kb.add(c[0], step)?;
                let p = kb.add(p, 1)?;
                Ok(vec![p, c[0], acc])
            })
            .unwrap();
        let q = kb.add(out[1], 4).unwrap();
        kb.store(q, out[2], None).unwrap();
        assert!(pass_agrees_with_lowering(&kb) > 10);
        // The second pointer's alignment is what is left of 16 bytes after the first's step.
        let prog = kb.program();
        let mut loop_results = Vec::new();
        prog.walk(prog.body, &mut |_, op| {
            if matches!(op.kind, OpKind::For { .. }) {
                loop_results = op.results.clone();
            }
        });
        let second = kb
            .lx
            .values
            .peek(
                "test",
                Value {
                    kernel: kb.lx.values.kernel_id(),
                    index: loop_results[1].0,
                },
            )
            .unwrap();
        assert_eq!(second.info.divisibility[0], 4);
        // Each lowering records the body afresh; the program holds the last. Weakening alone
        // would lower it three times; with the pass's fixpoint it is lowered twice.
        let mut reachable = 0;
        let mut body_ops = 0;
        prog.walk(prog.body, &mut |_, op| {
            reachable += 1;
            if let OpKind::For { .. } = op.kind {
                body_ops = prog.region(op.regions[0]).ops.len();
            }
        });
        let lowerings = 1 + (prog.ops.len() - reachable) / body_ops;
        assert_eq!(
            lowerings,
            2,
            "{} ops, {reachable} reachable",
            prog.ops.len()
        );
        kb.finish().unwrap();
    }

    /// The check `finish` runs in debug builds names the value whose facts lowering and the pass
    /// disagree on, and passes when they agree.
    #[test]
    fn the_check_names_a_value_whose_facts_differ() {
        let ctx = Context::new();
        let t = Target::SM90;
        let mut kb = KernelBuilder::new(&ctx, t, "facts", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let l = blocked_1d(t, 4, 4, 512).unwrap();
        let offs = kb.arange(0, 512, &l).unwrap();
        let p = kb.add(x, offs).unwrap();
        let v = kb.load(p, None, None).unwrap();
        kb.store(p, v, None).unwrap();
        let kernel = kb.lx.values.kernel_id();
        let lowered = |bad: Option<ValueId>| {
            let values = &kb.lx.values;
            move |id: ValueId| {
                let d = values
                    .peek(
                        "test",
                        Value {
                            kernel,
                            index: id.0,
                        },
                    )
                    .ok()?;
                let mut k = Known::of_value(d);
                if Some(id) == bad {
                    k.info = AxisInfo::unknown(&k.shape);
                }
                Some(k)
            }
        };
        let prog = kb.program();
        assert!(check(prog, lowered(None)).is_ok());
        // The pointer tile `x + offs` runs in 512-element steps from a 16-byte boundary; a
        // lowering that knew nothing of it is caught.
        let e = check(prog, lowered(Some(ValueId(p.index)))).unwrap_err();
        assert!(e.to_string().contains(&format!("%{}", p.index)), "{e}");
    }

    /// Weakening joins twice, then gives up what still breaks: the fourth attempt holds.
    #[test]
    fn the_fixpoint_schedule_joins_twice_then_assumes_nothing() {
        let start = AxisInfo::scalar(64);
        let mut seen = Vec::new();
        let (attempt, facts) = loop_fixpoint(0, vec![start], &[&[]], |a| {
            seen.push(a[0].scalar_div);
            // The body halves whatever it is given.
            Some(vec![AxisInfo::scalar((a[0].scalar_div / 2).max(1))])
        })
        .unwrap();
        assert_eq!(seen, [64, 32, 16, 1]);
        assert_eq!((attempt, facts[0].scalar_div), (3, 1));
        // A body that keeps its facts is done at once; one the pass cannot follow has no answer.
        let kept = loop_fixpoint(0, vec![AxisInfo::scalar(8)], &[&[]], |a| Some(a.to_vec()));
        assert_eq!(kept.map(|(at, _)| at), Some(0));
        assert!(loop_fixpoint(0, vec![AxisInfo::scalar(8)], &[&[]], |_| None).is_none());
    }
}
