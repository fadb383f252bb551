//! The evaluator: runs one program (CTA) of a recorded kernel, op by op, region by region.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::elementwise::BinaryOp;
use crate::codegen::builder::ops::global::AtomicOp;
use crate::codegen::builder::ops::reduce::ReduceOp;
use crate::codegen::builder::ops::scan::ScanOp;
use crate::codegen::interp::mbar::Mbar;
use crate::codegen::interp::memory::Memory;
use crate::codegen::interp::num::{self, dtype_of, fit, Num};
use crate::codegen::interp::shared::{Fault, SharedMem};
use crate::codegen::interp::task::{Cont, Step, Task};
use crate::codegen::interp::tensor_core::{dot_element, Accumulate};
use crate::codegen::interp::tile::{holders, Tile};
use crate::codegen::interp::val::Val;
use crate::codegen::interp::{InterpError, TensorMapArg};
use crate::codegen::ir::{Arg, IrType, Op, OpId, OpKind, Program, RegionId, SharedBuf, ValueId};
use crate::codegen::promotion;
use crate::codegen::types::{DType, Type};
use crate::codegen::MathPrecision;
use crate::target::Vendor;

/// One CTA's state.
pub(crate) struct Cta<'a> {
    pub prog: &'a Program,
    pub mem: &'a mut Memory,
    /// The task running now (its values, frames and warps).
    pub task: Task,
    /// The other tasks (warp roles), in schedule order.
    pub others: std::collections::VecDeque<Task>,
    /// The roles of the last `warp_roles`.
    pub roles: Vec<crate::codegen::builder::ops::warp_roles::WarpRole>,
    /// Named barriers: threads arrived in the current generation, and the generation.
    pub(crate) named: HashMap<i64, (u64, u64)>,
    pub pid: [u64; 3],
    pub grid: [u64; 3],
    pub smem: SharedMem,
    pub threads_per_warp: u32,
    holders: HashMap<*const TileLayout, Rc<Vec<Vec<u32>>>>,
    offsets: HashMap<*const SharedBuf, Rc<Vec<u64>>>,
    pub(crate) mbars: Vec<Mbar>,
    /// Whether this CTA has run to its end (its shared memory is gone).
    pub(crate) exited: bool,
    /// This CTA's rank in its cluster; the other CTAs of the cluster are in `cluster`.
    pub(crate) rank: u32,
    /// The cluster: the other CTAs' state and the cluster barrier.
    pub(crate) cluster: super::cluster_state::Cluster,
    /// The op being run (its index), for the sanitizers' messages.
    pub current: u32,
    /// The random schedule's choices, if the run has one.
    pub choices: Option<super::Choices>,
    /// Where `device_print` lines go.
    pub out: &'a mut dyn std::io::Write,
}

type R<T> = std::result::Result<T, InterpError>;

impl<'a> Cta<'a> {
    pub fn new(
        prog: &'a Program,
        mem: &'a mut Memory,
        pid: [u64; 3],
        grid: [u64; 3],
        shared_bytes: u64,
        out: &'a mut dyn std::io::Write,
    ) -> Cta<'a> {
        Cta {
            prog,
            mem,
            task: Task::new(vec![None; prog.types.len()], prog.num_warps, 0, 0),
            others: std::collections::VecDeque::new(),
            roles: Vec::new(),
            named: HashMap::new(),
            pid,
            grid,
            smem: SharedMem::new(shared_bytes),
            threads_per_warp: prog.target.warp_size(),
            holders: HashMap::new(),
            offsets: HashMap::new(),
            mbars: Vec::new(),
            exited: false,
            rank: 0,
            cluster: super::cluster_state::Cluster::single(),
            current: 0,
            choices: None,
            out,
        }
    }

    pub(super) fn op(&self) -> &'a Op {
        self.prog.op(OpId(self.current))
    }

    pub(super) fn err(&self, what: String) -> InterpError {
        let op = self.op();
        InterpError::Fault {
            op: crate::codegen::ir::print::mnemonic(&op.kind),
            loc: op.loc,
            program: self.pid,
            what,
        }
    }

    pub fn set(&mut self, v: ValueId, x: Val) {
        let i = v.0 as usize;
        let vals = &mut self.task.vals;
        if vals.len() <= i {
            vals.resize(i + 1, None);
        }
        vals[i] = Some(x);
    }

    pub(super) fn get(&self, v: ValueId) -> R<&Val> {
        self.task
            .vals
            .get(v.0 as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| self.err(format!("%{} has no value (used outside its body?)", v.0)))
    }

    pub(super) fn ty(&self, v: ValueId) -> R<&'a IrType> {
        self.prog
            .ty(v)
            .ok_or_else(|| self.err(format!("%{} has no recorded type", v.0)))
    }

    /// The element type of operand `a`, if it is a value.
    fn arg_type(&self, a: &Arg) -> Option<Type> {
        a.value()
            .and_then(|v| self.prog.ty(v))
            .and_then(IrType::elem)
    }

    /// Operand `a` as a tile of `shape` in element type `t` (literals take `t`).
    fn tile_arg(&self, a: &Arg, shape: &[u64], t: Type) -> R<Rc<Tile>> {
        Ok(match a {
            Arg::Int(i) => Rc::new(Tile::filled(shape, fit(Num::I(*i), t))),
            Arg::Float(x) => Rc::new(Tile::filled(shape, fit(Num::F(*x), t))),
            Arg::Value(v) => match self.get(*v)? {
                Val::S(x) => Rc::new(Tile::filled(shape, *x)),
                Val::T(tile) if tile.shape == shape => tile.clone(),
                Val::T(tile) => Rc::new(tile.broadcast(shape)),
                _ => return Err(self.err(format!("%{} is not a scalar or tile", v.0))),
            },
        })
    }

    /// Operand `a` as a scalar of type `t`.
    pub(super) fn scalar_arg(&self, a: &Arg, t: Type) -> R<Num> {
        Ok(match a {
            Arg::Int(i) => fit(Num::I(*i), t),
            Arg::Float(x) => fit(Num::F(*x), t),
            Arg::Value(v) => match self.get(*v)? {
                Val::S(x) => *x,
                _ => return Err(self.err(format!("%{} is not a scalar", v.0))),
            },
        })
    }

    pub(super) fn int_arg(&self, a: &Arg) -> R<i64> {
        Ok(self.scalar_arg(a, Type::Scalar(DType::I64))?.i())
    }

    /// The result's shape (empty for a scalar) and element type.
    fn result(&self, k: usize) -> R<(Vec<u64>, Type)> {
        let op = self.op();
        let t = self.ty(op.results[k])?;
        let elem = t
            .elem()
            .ok_or_else(|| self.err("the result has no element type".into()))?;
        Ok((t.shape().to_vec(), elem))
    }

    /// Sets result `k` from a tile of its shape (a scalar when the result is one).
    fn put(&mut self, k: usize, tile: Tile) {
        let v = self.op().results[k];
        let val = match self.prog.ty(v) {
            Some(IrType::Scalar(_)) => Val::S(tile.data[0]),
            _ => Val::T(Rc::new(tile)),
        };
        self.set(v, val);
    }

    /// Runs `region` with `params` to its end in the current task (a combine function); returns
    /// its yields. A wait inside it that cannot complete is a deadlock.
    pub fn region(&mut self, region: RegionId, params: Vec<Val>) -> R<Vec<Val>> {
        self.enter(region, params, Cont::Return);
        loop {
            match self.step()? {
                Step::Returned(v) => return Ok(v),
                Step::Blocked(w) => return Err(InterpError::Deadlock { waits: vec![w] }),
                Step::Progress | Step::Finished | Step::Yield => {}
            }
        }
    }

    fn holders_of(&mut self, layout: &Arc<TileLayout>) -> Rc<Vec<Vec<u32>>> {
        let key = Arc::as_ptr(layout);
        let tpw = self.threads_per_warp;
        self.holders
            .entry(key)
            .or_insert_with(|| Rc::new(holders(layout, tpw)))
            .clone()
    }

    /// For each element of a shared buffer (row-major), its byte offset from the buffer's start.
    pub(super) fn offsets_of(
        &mut self,
        buf: &Arc<SharedBuf>,
        elem: Type,
        shape: &[u64],
    ) -> R<Rc<Vec<u64>>> {
        let key = Arc::as_ptr(buf);
        if let Some(o) = self.offsets.get(&key) {
            return Ok(o.clone());
        }
        let bytes = dtype_of(elem).mem_bytes();
        let n: u64 = shape.iter().product();
        let size = buf
            .layout
            .in_dim_size("offset")
            .map_err(|e| self.err(e.to_string()))?;
        let mut out = vec![u64::MAX; n as usize];
        for o in 0..size {
            let c = buf
                .layout
                .apply(&[("offset", o)])
                .map_err(|e| self.err(e.to_string()))?;
            let coords: Vec<u64> = c.iter().map(|(_, x)| *x).collect();
            let i = Tile::index(shape, &coords) as usize;
            if i < out.len() && out[i] == u64::MAX {
                out[i] = crate::codegen::lower::shared::padded(o, &buf.padding) * bytes;
            }
        }
        let out = Rc::new(out);
        self.offsets.insert(key, out.clone());
        Ok(out)
    }

    pub(super) fn shared_of(&self, a: &Arg) -> R<(u64, &'a IrType)> {
        let v = a
            .value()
            .ok_or_else(|| self.err("a literal for a buffer".into()))?;
        let t = self.ty(v)?;
        match self.get(v)? {
            Val::Shared(base) => Ok((*base, t)),
            _ => Err(self.err(format!("%{} is not a shared buffer", v.0))),
        }
    }

    pub(super) fn fault(&self, f: Fault, addr: u64) -> InterpError {
        match f {
            Fault::Race { op, writer } => {
                let w = self.prog.op(OpId(op));
                InterpError::Race {
                    op: crate::codegen::ir::print::mnemonic(&self.op().kind),
                    loc: self.op().loc,
                    writer_op: crate::codegen::ir::print::mnemonic(&w.kind),
                    writer_loc: w.loc,
                    address: addr,
                    writer,
                }
            }
            Fault::InFlight { op } => {
                let w = self.prog.op(OpId(op));
                InterpError::Race {
                    op: crate::codegen::ir::print::mnemonic(&self.op().kind),
                    loc: self.op().loc,
                    writer_op: crate::codegen::ir::print::mnemonic(&w.kind),
                    writer_loc: w.loc,
                    address: addr,
                    writer: u32::MAX,
                }
            }
            Fault::Uninitialized => InterpError::Uninitialized {
                op: crate::codegen::ir::print::mnemonic(&self.op().kind),
                loc: self.op().loc,
                address: addr,
            },
            Fault::ReadByWgmma { op } => {
                let w = self.prog.op(OpId(op));
                self.err(format!(
                    "writes shared byte {addr}, which {} at {} may still read: its group is in \
                     flight until a wgmma_wait retires it (free the buffer after that wait)",
                    crate::codegen::ir::print::mnemonic(&w.kind),
                    w.loc
                ))
            }
            Fault::OutOfBounds => self.err(format!(
                "shared byte {addr} is past the CTA's shared memory"
            )),
        }
    }

    /// Reads the buffer `a` as a tile, for `readers` (per element, the threads reading it).
    fn read_shared(&mut self, a: &Arg, readers: Option<&[Vec<u32>]>) -> R<Tile> {
        let (base, t) = self.shared_of(a)?;
        let IrType::Shared { elem, shape, buf } = t else {
            return Err(self.err("not a shared buffer".into()));
        };
        let d = dtype_of(*elem);
        let offs = self.offsets_of(buf, *elem, shape)?;
        let all: Vec<u32> = (0..self.task.warps * self.threads_per_warp)
            .map(|t| t + self.task.first_warp * self.threads_per_warp)
            .collect();
        let mut data = Vec::with_capacity(offs.len());
        for (i, &o) in offs.iter().enumerate() {
            let addr = base + o;
            let shifted: Vec<u32>;
            let who = match readers {
                Some(r) if self.task.first_warp != 0 => {
                    let off = self.task.first_warp * self.threads_per_warp;
                    shifted = r[i].iter().map(|t| t + off).collect();
                    &shifted[..]
                }
                Some(r) => &r[i][..],
                None => &all[..],
            };
            let bits = self
                .smem
                .read(addr, d.mem_bytes(), who)
                .map_err(|f| self.fault(f, addr))?;
            data.push(num::from_bits(bits, d));
        }
        Ok(Tile {
            shape: shape.clone(),
            data,
        })
    }

    /// The bytes `[start, end)` that buffer `a` spans.
    fn shared_span(&mut self, a: &Arg) -> R<(u64, u64)> {
        let (base, t) = self.shared_of(a)?;
        let IrType::Shared { elem, shape, buf } = t else {
            return Err(self.err("not a shared buffer".into()));
        };
        let size = dtype_of(*elem).mem_bytes();
        let offs = self.offsets_of(buf, *elem, shape)?;
        let lo = offs.iter().min().copied().unwrap_or(0);
        let hi = offs.iter().max().map_or(0, |&o| o + size);
        Ok((base + lo, base + hi))
    }

    /// Writes `tile` into buffer `a`; each element by `writers[i][0]`.
    fn write_shared(
        &mut self,
        a: &Arg,
        tile: &Tile,
        writers: Option<&[Vec<u32>]>,
        async_copy: bool,
    ) -> R<()> {
        let (base, t) = self.shared_of(a)?;
        let IrType::Shared { elem, shape, buf } = t else {
            return Err(self.err("not a shared buffer".into()));
        };
        let d = dtype_of(*elem);
        let offs = self.offsets_of(buf, *elem, shape)?;
        let op = self.current;
        for (i, &o) in offs.iter().enumerate() {
            let addr = base + o;
            let who = writers.map_or(0, |w| w[i].first().copied().unwrap_or(0))
                + self.task.first_warp * self.threads_per_warp;
            let bits = num::to_bits(tile.data[i], d);
            self.smem
                .write(addr, d.mem_bytes(), bits, who, op, async_copy)
                .map_err(|f| self.fault(f, addr))?;
        }
        Ok(())
    }

    pub(super) fn load_global(&self, addr: u64, d: DType) -> R<Num> {
        let bits = self
            .mem
            .read(addr, d.mem_bytes())
            .ok_or_else(|| InterpError::OutOfBounds {
                op: crate::codegen::ir::print::mnemonic(&self.op().kind),
                loc: self.op().loc,
                program: self.pid,
                address: self.mem.describe(addr),
            })?;
        Ok(num::from_bits(bits, d))
    }

    fn store_global(&mut self, addr: u64, d: DType, x: Num) -> R<()> {
        let bits = num::to_bits(x, d);
        if self.mem.write(addr, d.mem_bytes(), bits).is_none() {
            return Err(InterpError::OutOfBounds {
                op: crate::codegen::ir::print::mnemonic(&self.op().kind),
                loc: self.op().loc,
                program: self.pid,
                address: self.mem.describe(addr),
            });
        }
        Ok(())
    }

    /// The pointer operand's shape and pointee.
    fn pointer(&self, a: &Arg) -> R<(Rc<Tile>, DType)> {
        let v = a
            .value()
            .ok_or_else(|| self.err("a literal pointer".into()))?;
        let t = self.ty(v)?;
        let Some(Type::Ptr(d, _)) = t.elem() else {
            return Err(self.err(format!("%{} is not a pointer", v.0)));
        };
        let shape = t.shape().to_vec();
        let shape = if shape.is_empty() { vec![1] } else { shape };
        Ok((
            self.tile_arg(a, &shape, Type::Ptr(d, Default::default()))?,
            d,
        ))
    }

    /// The tensor map operand `a`.
    pub(super) fn map_of(&self, a: &Arg) -> R<Rc<TensorMapArg>> {
        match self.get(a.value().unwrap_or(ValueId(u32::MAX)))? {
            Val::Map(m) => Ok(m.clone()),
            _ => Err(self.err("not a tensor map".into())),
        }
    }

    /// Loads `ptrs` where `mask` is on; `off(i)` where it is off.
    fn gather(
        &self,
        ptrs: &Tile,
        d: DType,
        mask: Option<&Tile>,
        off: impl Fn(usize) -> Num,
    ) -> R<Vec<Num>> {
        (0..ptrs.data.len())
            .map(|i| match mask.is_none_or(|m| m.data[i].truthy()) {
                true => self.load_global(ptrs.data[i].i() as u64, d),
                false => Ok(off(i)),
            })
            .collect()
    }

    /// An atomic read-modify-write of every element of `ptrs` where `mask` is on, in element
    /// order: `update(old, i)` gives the value to write, if any. Returns the old values (zero
    /// where masked off).
    fn atomically(
        &mut self,
        ptrs: &Tile,
        d: DType,
        mask: Option<&Tile>,
        mut update: impl FnMut(Num, usize) -> Option<Num>,
    ) -> R<Tile> {
        let mut old = Vec::with_capacity(ptrs.data.len());
        for i in 0..ptrs.data.len() {
            if !mask.is_none_or(|m| m.data[i].truthy()) {
                old.push(fit(Num::I(0), Type::Scalar(d)));
                continue;
            }
            let addr = ptrs.data[i].i() as u64;
            let o = self.load_global(addr, d)?;
            if let Some(n) = update(o, i) {
                self.store_global(addr, d, n)?;
            }
            old.push(o);
        }
        Ok(Tile {
            shape: ptrs.shape.clone(),
            data: old,
        })
    }

    fn mask(&self, a: Option<&Arg>, shape: &[u64]) -> R<Option<Rc<Tile>>> {
        a.map(|m| self.tile_arg(m, shape, Type::Scalar(DType::I1)))
            .transpose()
    }

    fn combine(&mut self, op: &Op, a: Num, b: Num, t: Type) -> R<Num> {
        let region = op.regions[0];
        let saved = self.current;
        let out = self.region(region, vec![Val::S(a), Val::S(b)])?;
        self.current = saved;
        match out.first() {
            Some(Val::S(x)) => Ok(fit(*x, t)),
            _ => Err(self.err("the combine did not yield a scalar".into())),
        }
    }

    /// Reduces or scans `src` along `axis` with `f`; `scan` keeps every prefix.
    fn along(
        &mut self,
        src: &Tile,
        axis: usize,
        scan: bool,
        f: &mut dyn FnMut(&mut Self, Num, Num) -> R<Num>,
    ) -> R<Tile> {
        let shape = &src.shape;
        let n = shape[axis] as usize;
        let outer: u64 = shape[..axis].iter().product();
        let inner: u64 = shape[axis + 1..].iter().product();
        let mut out = if scan {
            src.data.clone()
        } else {
            Vec::with_capacity((outer * inner) as usize)
        };
        for o in 0..outer {
            for i in 0..inner {
                let at = |k: usize| ((o * n as u64 + k as u64) * inner + i) as usize;
                let mut acc = src.data[at(0)];
                for k in 1..n {
                    acc = f(self, acc, src.data[at(k)])?;
                    if scan {
                        out[at(k)] = acc;
                    }
                }
                if !scan {
                    out.push(acc);
                }
            }
        }
        let mut rshape = shape.clone();
        if !scan {
            rshape.remove(axis);
        }
        Ok(Tile {
            shape: rshape,
            data: out,
        })
    }

    fn src_tile(&self, a: &Arg) -> R<Rc<Tile>> {
        let v = a
            .value()
            .ok_or_else(|| self.err("a literal where a tile was expected".into()))?;
        match self.get(v)? {
            Val::T(t) => Ok(t.clone()),
            Val::S(x) => Ok(Rc::new(Tile::filled(&[1], *x))),
            _ => Err(self.err(format!("%{} is not a tile", v.0))),
        }
    }

    pub(super) fn mbar_index(&self, a: &Arg) -> R<usize> {
        let v = a
            .value()
            .ok_or_else(|| self.err("a literal barrier".into()))?;
        match self.get(v)? {
            Val::Bars(i, _) => Ok(*i),
            _ => Err(self.err(format!("%{} is not an mbarrier", v.0))),
        }
    }

    fn arrive(&mut self, i: usize, count: u64, tx: i64) {
        self.mbars[i].arrive(count, tx);
    }

    /// A TMA copy between `map` at `coords` and the shared buffer `smem` meets the hardware's
    /// alignment rules (else the GPU faults with an illegal instruction): the box starts 16-byte
    /// aligned in global memory and 128-byte aligned in shared memory.
    fn tma_aligned(&self, map: &TensorMapArg, coords: &[i64], smem: &Arg) -> R<()> {
        if let Some(why) = map.misaligned_box(coords) {
            return Err(self.err(why));
        }
        let (base, _) = self.shared_of(smem)?;
        if !base.is_multiple_of(128) {
            return Err(self.err(format!(
                "its shared buffer starts at byte {base}: a TMA box's shared address must be a \
                 multiple of 128 bytes (the GPU faults with an illegal instruction)"
            )));
        }
        Ok(())
    }

    /// The box a TMA load of map `map` into buffer `dst` at `coords` reads (zeros outside the
    /// tensor), and its bytes.
    pub(super) fn tma_tile(&self, map: &Arg, dst: &Arg, coords: &[Arg]) -> R<(Tile, u64)> {
        let map = self.map_of(map)?;
        let coords: Vec<i64> = coords.iter().map(|a| self.int_arg(a)).collect::<R<_>>()?;
        self.tma_aligned(&map, &coords, dst)?;
        let (_, t) = self.shared_of(dst)?;
        let shape = t.shape().to_vec();
        let d = map.dtype;
        let n: u64 = shape.iter().product();
        let mut data = Vec::with_capacity(n as usize);
        for i in 0..n {
            data.push(match map.element_addr(&coords, &Tile::coords(&shape, i)) {
                Some(addr) => self.load_global(addr, d)?,
                None => fit(Num::I(0), Type::Scalar(d)),
            });
        }
        Ok((Tile { shape, data }, n * d.mem_bytes()))
    }

    /// Runs one op that has no body; `Blocked` when it waits for another task.
    pub(crate) fn run_op(&mut self, id: OpId) -> R<Step> {
        let op = self.prog.op(id);
        let args = &op.args;
        match &op.kind {
            OpKind::ProgramId(a) => {
                self.set(op.results[0], Val::S(Num::I(self.pid[*a as usize] as i64)))
            }
            OpKind::NumPrograms(a) => {
                self.set(op.results[0], Val::S(Num::I(self.grid[*a as usize] as i64)))
            }
            OpKind::Const => {
                let (_, t) = self.result(0)?;
                let x = self.scalar_arg(&args[0], t)?;
                self.set(op.results[0], Val::S(x));
            }
            OpKind::Assume { .. }
            | OpKind::ConvertLayout
            | OpKind::ExpandDims(_)
            | OpKind::Reshape => {
                let v = self
                    .get(
                        args[0]
                            .value()
                            .ok_or_else(|| self.err("a literal".into()))?,
                    )?
                    .clone();
                let v = match v {
                    Val::T(t) => {
                        let (shape, _) = self.result(0)?;
                        Val::T(Rc::new(Tile {
                            shape,
                            data: t.data.clone(),
                        }))
                    }
                    v => v,
                };
                self.set(op.results[0], v);
            }
            OpKind::Arange { start, .. } => {
                let (shape, _) = self.result(0)?;
                let n = shape[0];
                let data = (0..n).map(|i| Num::I(*start as i64 + i as i64)).collect();
                self.put(0, Tile { shape, data });
            }
            OpKind::Full | OpKind::Splat | OpKind::BroadcastTo => {
                let (shape, t) = self.result(0)?;
                let src = match &args[0] {
                    Arg::Value(v) if matches!(self.get(*v)?, Val::T(_)) => {
                        self.src_tile(&args[0])?
                    }
                    a => Rc::new(Tile::filled(&[1], self.scalar_arg(a, t)?)),
                };
                let src = if src.shape.len() == shape.len() {
                    (*src).clone()
                } else {
                    Tile {
                        shape: vec![1; shape.len()],
                        data: src.data.clone(),
                    }
                };
                let mut tile = src.broadcast(&shape);
                for x in &mut tile.data {
                    *x = fit(*x, t);
                }
                self.put(0, tile);
            }
            OpKind::Binary(bop) => {
                let (shape, t) = self.result(0)?;
                let tys: Vec<Option<Type>> = args.iter().map(|a| self.arg_type(a)).collect();
                // A pointer operand makes this pointer arithmetic; the other side is an offset.
                let ptr = tys.iter().position(|t| matches!(t, Some(Type::Ptr(..))));
                let shp = if shape.is_empty() {
                    vec![1]
                } else {
                    shape.clone()
                };
                let (a, b, step, ct) = match (ptr, t) {
                    (Some(p), Type::Ptr(d, _)) => {
                        let other = &args[1 - p];
                        let ot = tys[1 - p].unwrap_or(Type::Scalar(DType::I64));
                        (
                            self.tile_arg(&args[p], &shp, t)?,
                            self.tile_arg(other, &shp, ot)?,
                            d.mem_bytes(),
                            t,
                        )
                    }
                    _ => {
                        // The builder brought both operands to the result's type.
                        let ct = t;
                        (
                            self.tile_arg(&args[0], &shp, ct)?,
                            self.tile_arg(&args[1], &shp, ct)?,
                            0,
                            ct,
                        )
                    }
                };
                let data = a
                    .data
                    .iter()
                    .zip(&b.data)
                    .map(|(x, y)| num::binary(*bop, *x, *y, ct, step))
                    .collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Cmp(c) => {
                let (shape, _) = self.result(0)?;
                let tys: Vec<Option<Type>> = args.iter().map(|a| self.arg_type(a)).collect();
                let ct = computation_type(args, &tys).unwrap_or(Type::Scalar(DType::I32));
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let a = self.tile_arg(&args[0], &shp, ct)?;
                let b = self.tile_arg(&args[1], &shp, ct)?;
                let data = a
                    .data
                    .iter()
                    .zip(&b.data)
                    .map(|(x, y)| num::compare(*c, *x, *y, ct))
                    .collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Where => {
                let (shape, t) = self.result(0)?;
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let c = self.tile_arg(&args[0], &shp, Type::Scalar(DType::I1))?;
                let x = self.tile_arg(&args[1], &shp, t)?;
                let y = self.tile_arg(&args[2], &shp, t)?;
                let data = (0..c.data.len())
                    .map(|i| {
                        if c.data[i].truthy() {
                            x.data[i]
                        } else {
                            y.data[i]
                        }
                    })
                    .collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Unary(u) => {
                let (shape, t) = self.result(0)?;
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let a = self.tile_arg(&args[0], &shp, t)?;
                let data = a.data.iter().map(|x| num::unary(*u, *x, t)).collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Math(m, p) => {
                let (shape, t) = self.result(0)?;
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let a = self.tile_arg(&args[0], &shp, t)?;
                let d = dtype_of(t);
                // `.ftz` on NVIDIA f32: subnormal inputs and results are flushed to zero.
                let ftz = *p == MathPrecision::ApproxFtz
                    && d == DType::F32
                    && self.prog.target.vendor() == Vendor::Nvidia;
                let data = a
                    .data
                    .iter()
                    .map(|x| {
                        if ftz {
                            Num::F(num::flush(num::math(*m, num::flush(x.f()), d)))
                        } else {
                            Num::F(num::math(*m, x.f(), d))
                        }
                    })
                    .collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Fma => {
                let (shape, t) = self.result(0)?;
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let a = self.tile_arg(&args[0], &shp, t)?;
                let b = self.tile_arg(&args[1], &shp, t)?;
                let c = self.tile_arg(&args[2], &shp, t)?;
                let d = dtype_of(t);
                let data = (0..a.data.len())
                    .map(|i| Num::F(num::fma(a.data[i].f(), b.data[i].f(), c.data[i].f(), d)))
                    .collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Cast(to) => {
                let (shape, _) = self.result(0)?;
                let from = self.arg_type(&args[0]).map(dtype_of).unwrap_or(DType::F32);
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let a = self.tile_arg(&args[0], &shp, Type::Scalar(from))?;
                let data = a.data.iter().map(|x| num::cast(*x, from, *to)).collect();
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Bitcast(to) => {
                let (shape, _) = self.result(0)?;
                let from = self.arg_type(&args[0]).map(dtype_of).unwrap_or(DType::F32);
                let (fb, tb) = (from.bits(), to.bits());
                let shp = if shape.is_empty() { vec![1] } else { shape };
                let mask = |bits: u32| u64::MAX >> (64 - bits);
                let mut src_shape = shp.clone();
                if fb > tb {
                    src_shape.pop();
                } else if fb < tb {
                    src_shape.push(u64::from(tb / fb));
                }
                let a = self.tile_arg(&args[0], &src_shape, Type::Scalar(from))?;
                let data = if fb >= tb {
                    a.data
                        .iter()
                        .flat_map(|x| {
                            let bits = num::to_bits(*x, from) & mask(fb);
                            (0..fb / tb).map(move |i| (bits >> (i * tb)) & mask(tb))
                        })
                        .map(|b| num::from_bits(b, *to))
                        .collect()
                } else {
                    a.data
                        .chunks((tb / fb) as usize)
                        .map(|run| {
                            let word = run.iter().enumerate().fold(0u64, |w, (i, x)| {
                                w | (num::to_bits(*x, from) & mask(fb)) << (i as u32 * fb)
                            });
                            num::from_bits(word, *to)
                        })
                        .collect()
                };
                self.put(0, Tile { shape: shp, data });
            }
            OpKind::Permute(perm) => {
                let (shape, _) = self.result(0)?;
                let src = self.src_tile(&args[0])?;
                let n: u64 = shape.iter().product();
                let data = (0..n)
                    .map(|i| {
                        let c = Tile::coords(&shape, i);
                        let mut sc = vec![0; c.len()];
                        for (k, &p) in perm.iter().enumerate() {
                            sc[p] = c[k];
                        }
                        src.data[Tile::index(&src.shape, &sc) as usize]
                    })
                    .collect();
                self.put(0, Tile { shape, data });
            }
            OpKind::Split => {
                let src = self.src_tile(&args[0])?;
                let (shape, _) = self.result(0)?;
                let lo = src.data.iter().step_by(2).copied().collect();
                let hi = src.data.iter().skip(1).step_by(2).copied().collect();
                self.put(
                    0,
                    Tile {
                        shape: shape.clone(),
                        data: lo,
                    },
                );
                self.put(1, Tile { shape, data: hi });
            }
            OpKind::Join => {
                let (shape, t) = self.result(0)?;
                let half: Vec<u64> = shape[..shape.len() - 1].to_vec();
                let a = self.tile_arg(&args[0], &half, t)?;
                let b = self.tile_arg(&args[1], &half, t)?;
                let data = a
                    .data
                    .iter()
                    .zip(&b.data)
                    .flat_map(|(x, y)| [*x, *y])
                    .collect();
                self.put(0, Tile { shape, data });
            }
            OpKind::Load {
                has_mask,
                has_other,
                ..
            } => {
                let (ptrs, d) = self.pointer(&args[0])?;
                let mask = self.mask(has_mask.then(|| &args[1]), &ptrs.shape)?;
                let (_, t) = self.result(0)?;
                let other = if *has_other {
                    Some(self.tile_arg(args.last().unwrap(), &ptrs.shape, t)?)
                } else {
                    None
                };
                let data = self.gather(&ptrs, d, mask.as_deref(), |i| {
                    other.as_ref().map_or(fit(Num::I(0), t), |o| o.data[i])
                })?;
                self.put(
                    0,
                    Tile {
                        shape: ptrs.shape.clone(),
                        data,
                    },
                );
            }
            OpKind::Store { .. } => {
                let (ptrs, d) = self.pointer(&args[0])?;
                let vals = self.tile_arg(&args[1], &ptrs.shape, Type::Scalar(d))?;
                let mask = self.mask(args.get(2), &ptrs.shape)?;
                for i in 0..ptrs.data.len() {
                    if mask.as_ref().is_none_or(|m| m.data[i].truthy()) {
                        self.store_global(ptrs.data[i].i() as u64, d, vals.data[i])?;
                    }
                }
            }
            OpKind::AtomicRmw(a) => {
                let (ptrs, d) = self.pointer(&args[0])?;
                let t = Type::Scalar(d);
                let vals = self.tile_arg(&args[1], &ptrs.shape, t)?;
                let mask = self.mask(args.get(2), &ptrs.shape)?;
                let b = match a {
                    AtomicOp::Add => Some(BinaryOp::Add),
                    AtomicOp::Min => Some(BinaryOp::Min),
                    AtomicOp::Max => Some(BinaryOp::Max),
                    AtomicOp::And => Some(BinaryOp::And),
                    AtomicOp::Or => Some(BinaryOp::Or),
                    AtomicOp::Xor => Some(BinaryOp::Xor),
                    AtomicOp::Xchg => None,
                };
                let old = self.atomically(&ptrs, d, mask.as_deref(), |o, i| {
                    let v = vals.data[i];
                    Some(b.map_or(v, |b| num::binary(b, o, v, t, 0)))
                })?;
                self.put(0, old);
            }
            OpKind::AtomicCas => {
                let (ptrs, d) = self.pointer(&args[0])?;
                let t = Type::Scalar(d);
                let cmp = self.tile_arg(&args[1], &ptrs.shape, t)?;
                let vals = self.tile_arg(&args[2], &ptrs.shape, t)?;
                let mask = self.mask(args.get(3), &ptrs.shape)?;
                let old = self.atomically(&ptrs, d, mask.as_deref(), |o, i| {
                    (o == cmp.data[i]).then_some(vals.data[i])
                })?;
                self.put(0, old);
            }
            OpKind::Reduce { axis, op: r } => {
                let src = self.src_tile(&args[0])?;
                let (_, t) = self.result(0)?;
                let b = match r {
                    ReduceOp::Sum => BinaryOp::Add,
                    ReduceOp::Max => BinaryOp::Max,
                    ReduceOp::Min => BinaryOp::Min,
                };
                let out = self.along(&src, *axis, false, &mut |_, x, y| {
                    Ok(num::binary(b, x, y, t, 0))
                })?;
                self.put(0, out);
            }
            OpKind::Scan { axis, op: s } => {
                let src = self.src_tile(&args[0])?;
                let (_, t) = self.result(0)?;
                let b = match s {
                    ScanOp::Sum => BinaryOp::Add,
                    ScanOp::Max => BinaryOp::Max,
                    ScanOp::Min => BinaryOp::Min,
                };
                let out = self.along(&src, *axis, true, &mut |_, x, y| {
                    Ok(num::binary(b, x, y, t, 0))
                })?;
                self.put(0, out);
            }
            OpKind::ReduceWith(axis) | OpKind::ScanWith(axis) => {
                let scan = matches!(op.kind, OpKind::ScanWith(_));
                let src = self.src_tile(&args[0])?;
                let (_, t) = self.result(0)?;
                let out =
                    self.along(&src, *axis, scan, &mut |cta, x, y| cta.combine(op, x, y, t))?;
                self.current = id.0;
                self.put(0, out);
            }
            OpKind::ArgMax(axis) | OpKind::ArgMin(axis) => {
                let max = matches!(op.kind, OpKind::ArgMax(_));
                let src = self.src_tile(&args[0])?;
                let et = self.arg_type(&args[0]).unwrap_or(Type::Scalar(DType::F32));
                // Pair each element with its index along the axis, then keep the best (the lowest
                // index on ties).
                let n = src.shape[*axis];
                let inner: u64 = src.shape[*axis + 1..].iter().product();
                let idx = Tile {
                    shape: src.shape.clone(),
                    data: (0..src.data.len() as u64)
                        .map(|i| Num::I(((i / inner) % n) as i64))
                        .collect(),
                };
                let pairs = Tile {
                    shape: src.shape.clone(),
                    data: (0..src.data.len()).map(|i| Num::I(i as i64)).collect(),
                };
                let out = self.along(&pairs, *axis, false, &mut |_, a, b| {
                    let (x, y) = (src.data[a.i() as usize], src.data[b.i() as usize]);
                    let better = num::compare(
                        if max {
                            crate::codegen::CmpOp::Gt
                        } else {
                            crate::codegen::CmpOp::Lt
                        },
                        y,
                        x,
                        et,
                    )
                    .truthy();
                    Ok(if better { b } else { a })
                })?;
                let data = out.data.iter().map(|p| idx.data[p.i() as usize]).collect();
                self.put(
                    0,
                    Tile {
                        shape: out.shape,
                        data,
                    },
                );
            }
            OpKind::AllocShared | OpKind::AllocSharedBuffers(_) => {
                let t = self.ty(op.results[0])?;
                let IrType::Shared { buf, .. } = t else {
                    return Err(self.err("not a buffer".into()));
                };
                self.set(op.results[0], Val::Shared(buf.base));
            }
            OpKind::IndexShared => {
                let (base, t) = self.shared_of(&args[0])?;
                let IrType::Shared { elem, shape, buf } = t else {
                    return Err(self.err("not a buffer".into()));
                };
                let i = self.int_arg(&args[1])?;
                if i < 0 || i as u64 >= shape[0] {
                    return Err(self.err(format!("index {i} of a ring of {}", shape[0])));
                }
                let sub: u64 = shape[1..].iter().product();
                let stride = crate::codegen::lower::shared::padded(sub, &buf.padding)
                    * dtype_of(*elem).mem_bytes();
                self.set(op.results[0], Val::Shared(base + i as u64 * stride));
            }
            OpKind::PermuteShared(_)
            | OpKind::SliceShared { .. }
            | OpKind::ReshapeShared
            | OpKind::ReinterpretShared => {
                let (base, t) = self.shared_of(&args[0])?;
                let IrType::Shared { buf: parent, .. } = t else {
                    return Err(self.err("not a buffer".into()));
                };
                let IrType::Shared { buf: view, .. } = self.ty(op.results[0])? else {
                    return Err(self.err("not a buffer".into()));
                };
                self.set(op.results[0], Val::Shared(base + view.base - parent.base));
            }
            OpKind::StoreShared => {
                let tile = self.src_tile(&args[1])?;
                let layout = self
                    .ty(args[1].value().unwrap_or(ValueId(u32::MAX)))?
                    .clone();
                let writers = match &layout {
                    IrType::Tile { layout, .. } => Some(self.holders_of(layout)),
                    _ => None,
                };
                self.write_shared(&args[0], &tile, writers.as_deref().map(|v| &v[..]), false)?;
            }
            OpKind::LoadShared | OpKind::Ldmatrix => {
                let readers = match self.ty(op.results[0])? {
                    IrType::Tile { layout, .. } => Some(self.holders_of(&layout.clone())),
                    _ => None,
                };
                let tile = self.read_shared(&args[0], readers.as_deref().map(|v| &v[..]))?;
                self.put(0, tile);
            }
            OpKind::FreeShared
            | OpKind::FpContraction(_)
            | OpKind::FenceAsyncShared
            | OpKind::TmaStoreWait(_)
            | OpKind::AsyncCommitGroup
            | OpKind::MbarrierInvalidate => {}
            OpKind::Barrier => self.smem.barrier(),
            OpKind::AsyncCopy { has_mask } => {
                let (ptrs, d) = self.pointer(&args[1])?;
                let mask = self.mask(has_mask.then(|| &args[2]), &ptrs.shape)?;
                let data = self.gather(&ptrs, d, mask.as_deref(), |_| {
                    fit(Num::I(0), Type::Scalar(d))
                })?;
                let tile = Tile {
                    shape: ptrs.shape.clone(),
                    data,
                };
                let writers = match self.ty(args[1].value().unwrap_or(ValueId(u32::MAX)))? {
                    IrType::Tile { layout, .. } => Some(self.holders_of(&layout.clone())),
                    _ => None,
                };
                self.write_shared(&args[0], &tile, writers.as_deref().map(|v| &v[..]), true)?;
            }
            OpKind::AsyncWaitGroup(_) => self.smem.complete_async(None),
            OpKind::AllocMbarriers { count, arrivals } => {
                let first = self.mbars.len();
                for _ in 0..*count {
                    self.mbars.push(Mbar {
                        expected: u64::from(*arrivals),
                        pending: u64::from(*arrivals),
                        tx: 0,
                        phase: 0,
                    });
                }
                self.smem.barrier();
                self.set(op.results[0], Val::Bars(first, u64::from(*count)));
            }
            OpKind::MbarrierAt => {
                let v = args[0]
                    .value()
                    .ok_or_else(|| self.err("a literal barrier".into()))?;
                let Val::Bars(first, count) = self.get(v)?.clone() else {
                    return Err(self.err("not barriers".into()));
                };
                let i = self.int_arg(&args[1])?;
                if i < 0 || i as u64 >= count {
                    return Err(self.err(format!("barrier {i} of {count}")));
                }
                self.set(op.results[0], Val::Bars(first + i as usize, 1));
            }
            OpKind::MbarrierExpect { bytes, has_pred } => {
                let on = if *has_pred {
                    self.scalar_arg(&args[1], Type::Scalar(DType::I1))?.truthy()
                } else {
                    true
                };
                if on {
                    let i = self.mbar_index(&args[0])?;
                    self.arrive(i, 1, i64::from(*bytes));
                }
            }
            OpKind::MbarrierArrive => {
                let i = self.mbar_index(&args[0])?;
                let threads = u64::from(self.task.warps * self.threads_per_warp);
                self.arrive(i, threads, 0);
            }
            OpKind::MbarrierWait { .. } => {
                let i = self.mbar_index(&args[0])?;
                let parity = self.int_arg(&args[1])? as u32 & 1;
                let b = &self.mbars[i];
                if b.phase == parity {
                    return Ok(Step::Blocked(format!(
                        "{} at {}: mbarrier {i} phase {parity} never completes ({} arrivals and {} bytes still expected)",
                        crate::codegen::ir::print::mnemonic(&op.kind),
                        op.loc,
                        b.pending,
                        b.tx
                    )));
                }
                self.smem.complete_async(Some(0));
                self.smem.barrier();
            }
            OpKind::TmaLoad { has_pred } => {
                let on = if *has_pred {
                    self.scalar_arg(&args[3], Type::Scalar(DType::I1))?.truthy()
                } else {
                    true
                };
                if !on {
                    return Ok(Step::Progress);
                }
                let first = if *has_pred { 4 } else { 3 };
                let (tile, bytes) = self.tma_tile(&args[0], &args[1], &args[first..])?;
                self.write_shared(&args[1], &tile, None, true)?;
                let i = self.mbar_index(&args[2])?;
                self.arrive(i, 0, -(bytes as i64));
            }
            OpKind::TmaLoadMulticast { .. }
            | OpKind::ClusterCtaRank
            | OpKind::ClusterId(_)
            | OpKind::ClusterNumCtas
            | OpKind::ClusterArrive { .. }
            | OpKind::ClusterWait
            | OpKind::MbarrierArriveRemote { .. } => return self.run_cluster_op(op),
            OpKind::TmaStore => {
                let map = self.map_of(&args[0])?;
                let coords: Vec<i64> = args[2..]
                    .iter()
                    .map(|a| self.int_arg(a))
                    .collect::<R<_>>()?;
                self.tma_aligned(&map, &coords, &args[1])?;
                let tile = self.read_shared(&args[1], None)?;
                for (i, x) in tile.data.iter().enumerate() {
                    if let Some(addr) =
                        map.element_addr(&coords, &Tile::coords(&tile.shape, i as u64))
                    {
                        self.store_global(addr, map.dtype, *x)?;
                    }
                }
            }
            OpKind::Dot | OpKind::Wgmma { .. } => {
                let operand = |cta: &mut Self, a: &Arg| -> R<Rc<Tile>> {
                    match cta.get(a.value().unwrap_or(ValueId(u32::MAX)))? {
                        Val::Shared(_) => Ok(Rc::new(cta.read_shared(a, None)?)),
                        _ => cta.src_tile(a),
                    }
                };
                let a = operand(self, &args[0])?;
                let b = operand(self, &args[1])?;
                if matches!(op.kind, OpKind::Wgmma { .. }) {
                    // The tensor cores may read shared operands until the group is retired.
                    let mut ranges = Vec::new();
                    for x in &args[..2] {
                        if let Some(Val::Shared(_)) = x.value().map(|v| self.get(v)).transpose()? {
                            ranges.push(self.shared_span(x)?);
                        }
                    }
                    let (task, current) = (self.task.first_warp, self.current);
                    self.smem.wgmma_issued(task, current, ranges);
                }
                let acc = self.src_tile(&args[2])?;
                let use_acc = match (&op.kind, args.get(3)) {
                    (OpKind::Wgmma { has_use_acc: true }, Some(u)) => {
                        self.scalar_arg(u, Type::Scalar(DType::I1))?.truthy()
                    }
                    _ => true,
                };
                let (shape, t) = self.result(0)?;
                let elem = |cta: &Self, x: &Arg| cta.arg_type(x).map_or(DType::F32, dtype_of);
                let mode = Accumulate::of(
                    elem(self, &args[0]),
                    elem(self, &args[1]),
                    self.prog.target.vendor() == Vendor::Nvidia,
                );
                let (m, n, k) = (a.shape[0], b.shape[1], a.shape[1]);
                let mut data = Vec::with_capacity((m * n) as usize);
                for i in 0..m {
                    for j in 0..n {
                        let acc = use_acc.then(|| acc.data[(i * n + j) as usize].f());
                        let s = dot_element(
                            mode,
                            acc,
                            k as usize,
                            |kk| a.data[(i * k + kk as u64) as usize].f(),
                            |kk| b.data[(kk as u64 * n + j) as usize].f(),
                        );
                        data.push(fit(Num::F(s), t));
                    }
                }
                self.put(0, Tile { shape, data });
            }
            OpKind::WgmmaWait(pending) => {
                // Other tasks run before a wait that retires groups, once: a buffer freed before
                // this wait is then refilled while the tensor cores may still read it, which
                // `SharedMem::write` refuses.
                let task = self.task.first_warp;
                let retires = self.smem.wgmma_retiring(task, *pending as usize) > 0;
                if retires && !self.others.is_empty() && self.task.wgmma_yield != Some(self.current)
                {
                    self.task.wgmma_yield = Some(self.current);
                    return Ok(Step::Yield);
                }
                self.task.wgmma_yield = None;
                self.smem.wgmma_waited(task, *pending as usize);
                for (r, a) in op.results.iter().zip(args) {
                    let v = self.get(a.value().unwrap_or(ValueId(u32::MAX)))?.clone();
                    self.set(*r, v);
                }
            }
            OpKind::GroupedTile(g) => {
                let t = Type::Scalar(DType::I32);
                let index = self.scalar_arg(&args[0], t)?.i();
                let num_m = self.scalar_arg(&args[1], t)?.i();
                let num_n = self.scalar_arg(&args[2], t)?.i();
                let g = i64::from(*g);
                let in_group = num_n * g;
                let group = index / in_group;
                let first_m = group * g;
                let size = (num_m - first_m).min(g);
                let local = index % in_group;
                self.set(op.results[0], Val::S(Num::I(first_m + local % size)));
                self.set(op.results[1], Val::S(Num::I(local / size)));
            }
            OpKind::DevicePrint { prefix, format } => self.device_print(op, prefix, *format)?,
            OpKind::DeviceAssert { message } => self.device_assert(op, message)?,
            OpKind::WarpRoles(roles) => self.roles = roles.clone(),
            OpKind::RoleReplica => {
                let r = self.task.replica;
                self.set(op.results[0], Val::S(Num::I(i64::from(r))));
            }
            OpKind::AllocNamedBarriers { .. } => {}
            OpKind::NamedBarrierSync { first, threads }
            | OpKind::NamedBarrierArrive { first, threads } => {
                let id = i64::from(*first) + self.int_arg(&args[0])?;
                let mine = u64::from(self.task.warps * self.threads_per_warp);
                let entry = self.named.entry(id).or_insert((0, 0));
                let sync = matches!(op.kind, OpKind::NamedBarrierSync { .. });
                match self.task.named_wait {
                    Some((wid, generation)) if wid == id => {
                        if entry.1 == generation {
                            return Ok(Step::Blocked(format!(
                                "named_barrier_sync at {}: barrier {id} has {} of {threads} threads",
                                op.loc, entry.0
                            )));
                        }
                        self.task.named_wait = None;
                    }
                    _ => {
                        entry.0 += mine;
                        let generation = entry.1;
                        if entry.0 >= u64::from(*threads) {
                            *entry = (0, generation + 1);
                            self.smem.barrier();
                        } else if sync {
                            self.task.named_wait = Some((id, generation));
                            return Ok(Step::Blocked(format!(
                                "named_barrier_sync at {}: barrier {id} has {} of {threads} threads",
                                op.loc, entry.0
                            )));
                        }
                    }
                }
            }
            OpKind::For { .. }
            | OpKind::If
            | OpKind::IfThen
            | OpKind::InRole(_)
            | OpKind::Return => {
                return Err(self.err("a control-flow op reached the plain evaluator".into()));
            }
        }
        Ok(Step::Progress)
    }
}

/// The type a comparison's operands are compared in, as the builder brings them together:
/// Triton's promotion for two known types, f32 for an integer against a float literal, else the
/// first known type.
fn computation_type(args: &[Arg], tys: &[Option<Type>]) -> Option<Type> {
    match (tys, args) {
        ([Some(Type::Scalar(a)), Some(Type::Scalar(b))], _) if a != b => {
            promotion::computation_type(*a, *b, false).map(Type::Scalar)
        }
        ([Some(Type::Scalar(d)), None], [_, Arg::Float(_)])
        | ([None, Some(Type::Scalar(d))], [Arg::Float(_), _])
            if d.is_int() && *d != DType::I1 =>
        {
            Some(Type::Scalar(DType::F32))
        }
        _ => tys.iter().flatten().copied().next(),
    }
}
