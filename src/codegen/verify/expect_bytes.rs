//! An `mbarrier_expect` must announce exactly the bytes the TMA loads signalling that barrier
//! bring before it is waited on: too few and the phase completes early (a read of a half-written
//! buffer), too many and it never completes (the kernel hangs).
//!
//! Checked per region, in program order: from an expect on a barrier, the boxes of the TMA loads
//! on the same barrier are added up until the barrier is waited on or the region ends; when at
//! least one load was seen, the sum must equal the expected bytes. A barrier is known by its
//! value, or by the barrier array and index `mbarrier_at` took it from.
//!
//! A multicast load brings its box to the barrier of every CTA in its mask, and each of those
//! CTAs' barriers also receives its peers' multicasts. The check counts the schedule every
//! multicast kernel of weft uses: each CTA of the mask multicasts an equal share to the same
//! mask, so a barrier receives the box times the CTAs in the mask (a literal mask's bits, or the
//! whole cluster for a mask computed at run time).

use std::collections::HashMap;

use crate::codegen::error::Result;
use crate::codegen::ir::{Arg, Loc, Op, OpKind, Program, RegionId, ValueId};
use crate::codegen::types::Type;
use crate::codegen::verify::hazard;

/// How a barrier is named: the array and the index operand, or a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    At(ValueId, ArgKey),
    Value(ValueId),
}

/// An index operand, hashable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ArgKey {
    Value(ValueId),
    Int(i64),
}

struct Open<'p> {
    expect: &'p Op,
    bytes: u64,
    arrived: u64,
    loads: Vec<Loc>,
}

pub(super) fn check(prog: &Program) -> Result<()> {
    let mut keys = HashMap::new();
    prog.walk(prog.body, &mut |_, op| {
        if let (OpKind::MbarrierAt, [Arg::Value(bars), index]) = (&op.kind, op.args.as_slice()) {
            let index = match index {
                Arg::Value(v) => Some(ArgKey::Value(*v)),
                Arg::Int(i) => Some(ArgKey::Int(*i)),
                Arg::Float(_) => None,
            };
            if let Some(index) = index {
                keys.insert(op.results[0], Key::At(*bars, index));
            }
        }
    });
    region(prog, prog.body, &keys)
}

fn key_of(keys: &HashMap<ValueId, Key>, a: &Arg) -> Option<Key> {
    let v = a.value()?;
    Some(keys.get(&v).copied().unwrap_or(Key::Value(v)))
}

fn close(open: Option<Open>) -> Result<()> {
    match open {
        Some(o) if !o.loads.is_empty() && o.arrived != o.bytes => {
            let lines: Vec<String> = o
                .loads
                .iter()
                .map(|l| format!("{}:{}", l.file, l.line))
                .collect();
            Err(hazard(
                o.expect,
                format!(
                    "expects {} bytes, but the TMA loads on this barrier ({}) bring {}; the phase \
                     would {}",
                    o.bytes,
                    lines.join(", "),
                    o.arrived,
                    if o.arrived < o.bytes {
                        "never complete (the kernel hangs)"
                    } else {
                        "complete before the last box arrives"
                    }
                ),
            ))
        }
        _ => Ok(()),
    }
}

fn box_bytes(prog: &Program, dst: &Arg) -> u64 {
    let Some(t) = dst.value().and_then(|v| prog.ty(v)) else {
        return 0;
    };
    let elem = match t.elem() {
        Some(Type::Scalar(d)) => d.mem_bytes(),
        _ => return 0,
    };
    t.shape().iter().product::<u64>() * elem
}

/// The CTAs a multicast with `mask` reaches: the literal's bits, or the whole cluster.
fn receivers(prog: &Program, mask: &Arg) -> u64 {
    match mask {
        Arg::Int(m) => u64::from(m.count_ones()),
        _ => prog
            .cluster
            .map_or(1, |d| d.iter().map(|&x| u64::from(x)).product()),
    }
}

fn region(prog: &Program, id: RegionId, keys: &HashMap<ValueId, Key>) -> Result<()> {
    let mut open: HashMap<Key, Open> = HashMap::new();
    for &op_id in &prog.region(id).ops {
        let op = prog.op(op_id);
        match &op.kind {
            OpKind::MbarrierExpect { bytes, .. } => {
                if let Some(k) = key_of(keys, &op.args[0]) {
                    close(open.remove(&k))?;
                    open.insert(
                        k,
                        Open {
                            expect: op,
                            bytes: u64::from(*bytes),
                            arrived: 0,
                            loads: Vec::new(),
                        },
                    );
                }
            }
            OpKind::TmaLoad { .. } => {
                if let Some(o) = key_of(keys, &op.args[2]).and_then(|k| open.get_mut(&k)) {
                    o.arrived += box_bytes(prog, &op.args[1]);
                    o.loads.push(op.loc);
                }
            }
            OpKind::TmaLoadMulticast { .. } => {
                if let Some(o) = key_of(keys, &op.args[2]).and_then(|k| open.get_mut(&k)) {
                    o.arrived += box_bytes(prog, &op.args[1]) * receivers(prog, &op.args[3]);
                    o.loads.push(op.loc);
                }
            }
            OpKind::MbarrierWait { .. } => {
                if let Some(k) = key_of(keys, &op.args[0]) {
                    close(open.remove(&k))?;
                }
            }
            _ => {
                for &r in &op.regions {
                    region(prog, r, keys)?;
                }
            }
        }
    }
    for (_, o) in open {
        close(Some(o))?;
    }
    Ok(())
}
