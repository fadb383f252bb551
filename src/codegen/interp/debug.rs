//! `device_print` and `device_assert` in the interpreter: the GPU's lines written to the run's
//! writer, and a false assertion as a typed error.
//!
//! A tile prints what each thread would print on the GPU (an element held by several threads
//! once per holder, a thread's repeated registers once), in a fixed order: warp by warp, register
//! by register, lane by lane; a scalar prints once per program (per task: a warp role's replica
//! prints its own). The text is `codegen::ir::print_line`'s, the same the GPU's `vprintf` writes.

use std::collections::HashSet;

use crate::codegen::analysis::tile_layout::xor_of;
use crate::codegen::interp::exec::Cta;
use crate::codegen::interp::num::{self, Num};
use crate::codegen::interp::tile::Tile;
use crate::codegen::interp::val::Val;
use crate::codegen::interp::InterpError;
use crate::codegen::ir::attrs::PrintFormat;
use crate::codegen::ir::print_line::{Conv, HostValue, Line};
use crate::codegen::ir::{IrType, Op};
use crate::codegen::types::{DType, Type};

type R<T> = std::result::Result<T, InterpError>;

/// `x` (an element of type `d`) as `vprintf` receives it under `conv`.
fn host_value(x: Num, d: DType, conv: Conv) -> HostValue {
    match conv {
        Conv::I32 | Conv::I64 if d == DType::I1 => HostValue::Int(x.i() & 1),
        Conv::I32 | Conv::I64 => HostValue::Int(num::wrap(x.i(), d)),
        Conv::F64 => HostValue::Float(x.f()),
        Conv::U32 | Conv::U64 | Conv::Hex { .. } => {
            let mask = if d.bits() >= 64 {
                u64::MAX
            } else {
                (1u64 << d.bits()) - 1
            };
            HostValue::Bits(num::to_bits(x, d) & mask)
        }
    }
}

impl Cta<'_> {
    /// Writes one line.
    fn print_line(&mut self, text: &str) -> R<()> {
        writeln!(self.out, "{text}")
            .map_err(|e| self.err(format!("writing device_print output: {e}")))
    }

    /// Runs `device_print` op `op` with `prefix` in `format`.
    pub(crate) fn device_print(&mut self, op: &Op, prefix: &str, format: PrintFormat) -> R<()> {
        let pid = self.pid;
        if op.args.is_empty() {
            let line = Line::new(prefix, 0, 0, &[], None, format);
            return self.print_line(&line.render(pid, &[], None));
        }
        let operands = op.args.len();
        for (k, a) in op.args.iter().enumerate() {
            let v = a
                .value()
                .ok_or_else(|| self.err("a literal to print".into()))?;
            let (d, shape, layout) = match self.ty(v)? {
                IrType::Scalar(Type::Scalar(d)) => (*d, Vec::new(), None),
                IrType::Tile {
                    elem: Type::Scalar(d),
                    shape,
                    layout,
                } => (*d, shape.clone(), Some(layout.clone())),
                t => return Err(self.err(format!("%{} is {t}, not numbers to print", v.0))),
            };
            let line = Line::new(prefix, k, operands, &shape, Some(d), format);
            let conv = line.conv.expect("a value");
            let (layout, tile) = match (layout, self.get(v)?.clone()) {
                (None, Val::S(x)) => {
                    let text = line.render(pid, &[], Some(host_value(x, d, conv)));
                    self.print_line(&text)?;
                    continue;
                }
                (Some(l), Val::T(t)) => (l, t),
                _ => return Err(self.err(format!("%{} has no value of its type", v.0))),
            };
            let rank = shape.len();
            let mut regs = HashSet::new();
            let reg_parts: Vec<Vec<u64>> = (0..1u64 << layout.reg.len())
                .map(|r| xor_of(&layout.reg, r, rank))
                .filter(|c| regs.insert(c.clone()))
                .collect();
            for w in 0..1u64 << layout.warp.len() {
                let wc = xor_of(&layout.warp, w, rank);
                for rc in &reg_parts {
                    for l in 0..1u64 << layout.lane.len() {
                        let lc = xor_of(&layout.lane, l, rank);
                        let idx: Vec<u64> = (0..rank).map(|i| wc[i] ^ rc[i] ^ lc[i]).collect();
                        let x = tile.data[Tile::index(&shape, &idx) as usize];
                        let text = line.render(pid, &idx, Some(host_value(x, d, conv)));
                        self.print_line(&text)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Runs `device_assert` op `op`: the first false element (row-major) is
    /// [`InterpError::Assert`].
    pub(crate) fn device_assert(&mut self, op: &Op, message: &str) -> R<()> {
        let v = op.args[0]
            .value()
            .ok_or_else(|| self.err("a literal condition".into()))?;
        let index = match self.get(v)? {
            Val::S(x) => (!x.truthy()).then(Vec::new),
            Val::T(t) => t
                .data
                .iter()
                .position(|x| !x.truthy())
                .map(|i| Tile::coords(&t.shape, i as u64)),
            _ => return Err(self.err(format!("%{} is not a condition", v.0))),
        };
        match index {
            None => Ok(()),
            Some(index) => Err(InterpError::Assert {
                message: message.to_string(),
                loc: op.loc,
                program: self.pid,
                index,
            }),
        }
    }
}
