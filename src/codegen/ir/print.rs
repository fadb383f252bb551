//! The printer: a recorded program as text that reads like Gluon's TTGIR, one op a line.
//!
//! Layouts are printed once, as aliases at the top (`#blocked0 = #ttg.blocked<{…}>`), in the
//! TTGIR syntax of the encoding the tile was made from, or as `#ttg.linear<{…}>` when it was
//! given as a linear layout; shared buffers likewise (`#shared0`). Each op line ends with the
//! user's `file:line` when locations are asked for.

use std::collections::HashMap;
use std::fmt::{self, Write};

use crate::codegen::ir::op::{Arg, Op, OpKind, RegionId, ValueId};
use crate::codegen::ir::types::IrType;
use crate::codegen::ir::Program;
use crate::layout::encoding::{DistributedLinear, Encoding, SharedLinear};
use crate::layout::text::ttgir::print_encoding;

/// Layout aliases, in order of first use.
#[derive(Default)]
struct Aliases {
    names: HashMap<String, String>,
    lines: Vec<String>,
    counts: HashMap<&'static str, usize>,
}

impl Aliases {
    fn name(&mut self, prefix: &'static str, text: String) -> String {
        if let Some(n) = self.names.get(&text) {
            return n.clone();
        }
        let count = self.counts.entry(prefix).or_insert(0);
        let name = format!("#{prefix}{count}");
        *count += 1;
        self.lines.push(format!("{name} = {text}"));
        self.names.insert(text, name.clone());
        name
    }
}

fn encoding_prefix(e: &Encoding) -> &'static str {
    match e {
        Encoding::Blocked(_) => "blocked",
        Encoding::Slice(_) => "slice",
        Encoding::NvidiaMma(_) => "mma",
        Encoding::DotOperand(_) => "dot_op",
        Encoding::AmdMfma(_) => "mfma",
        Encoding::AmdWmma(_) => "wmma",
        Encoding::Linear(_) => "linear",
        _ => "layout",
    }
}

struct Printer<'p> {
    prog: &'p Program,
    aliases: Aliases,
    locs: bool,
    body: String,
}

impl Printer<'_> {
    fn ty(&mut self, t: &IrType) -> String {
        match t {
            IrType::Tile { layout, .. } => {
                let (prefix, text) = match &layout.encoding {
                    Some(e) => (encoding_prefix(e), print_encoding(e)),
                    None => match DistributedLinear::from_linear_layout(&layout.ll) {
                        Ok(d) => ("linear", print_encoding(&Encoding::Linear(d))),
                        Err(_) => ("linear", layout.to_string()),
                    },
                };
                let alias = self.aliases.name(prefix, text);
                let s = t.to_string();
                format!("{}, {alias}>", &s[..s.len() - 1])
            }
            IrType::Shared { buf, .. } => {
                let text = if buf.padding.is_empty() {
                    format!("{} {}", buf.name, buf.layout)
                } else {
                    format!("{} {} padding {:?}", buf.name, buf.layout, buf.padding)
                };
                let alias = self.aliases.name("shared", text);
                let s = t.to_string();
                format!("{}, {alias}, offset {}>", &s[..s.len() - 1], buf.base)
            }
            _ => t.to_string(),
        }
    }

    fn value_ty(&mut self, v: ValueId) -> String {
        match self.prog.ty(v).cloned() {
            Some(t) => self.ty(&t),
            None => "<untyped>".into(),
        }
    }

    fn arg(a: &Arg) -> String {
        match a {
            Arg::Value(v) => format!("%{}", v.0),
            Arg::Int(i) => i.to_string(),
            Arg::Float(x) => format!("{x:?}"),
        }
    }

    fn region(&mut self, id: RegionId, depth: usize) {
        let region = self.prog.region(id);
        if !region.params.is_empty() {
            let params: Vec<String> = region
                .params
                .iter()
                .map(|p| format!("%{}: {}", p.0, self.value_ty(*p)))
                .collect();
            let _ = writeln!(
                self.body,
                "{}^bb({}):",
                "  ".repeat(depth),
                params.join(", ")
            );
        }
        for &op in &region.ops {
            self.op(self.prog.op(op), depth + 1);
        }
        if !region.yields.is_empty() {
            let ys: Vec<String> = region.yields.iter().map(|y| format!("%{}", y.0)).collect();
            let _ = writeln!(
                self.body,
                "{}weft.yield {}",
                "  ".repeat(depth + 1),
                ys.join(", ")
            );
        }
    }

    fn op(&mut self, op: &Op, depth: usize) {
        let indent = "  ".repeat(depth);
        let mut line = indent.clone();
        if !op.results.is_empty() {
            let rs: Vec<String> = op.results.iter().map(|r| format!("%{}", r.0)).collect();
            let _ = write!(line, "{} = ", rs.join(", "));
        }
        let _ = write!(line, "weft.{}", mnemonic(&op.kind));
        let attrs = attributes(&op.kind);
        if !attrs.is_empty() {
            let _ = write!(line, " {{{attrs}}}");
        }
        if !op.args.is_empty() {
            let args: Vec<String> = op.args.iter().map(Self::arg).collect();
            let _ = write!(line, " {}", args.join(", "));
        }
        if !op.results.is_empty() {
            let tys: Vec<String> = op.results.iter().map(|r| self.value_ty(*r)).collect();
            let _ = write!(line, " : {}", tys.join(", "));
        }
        if !op.regions.is_empty() {
            line.push_str(" {");
        }
        if self.locs {
            let _ = write!(line, "  // {}:{}", op.loc.file, op.loc.line);
        }
        self.body.push_str(&line);
        self.body.push('\n');
        for (i, r) in op.regions.iter().enumerate() {
            if i > 0 {
                let _ = writeln!(self.body, "{indent}}} else {{");
            }
            self.region(*r, depth);
        }
        if !op.regions.is_empty() {
            let _ = writeln!(self.body, "{indent}}}");
        }
    }
}

/// The op's name in the text.
pub(crate) fn mnemonic(k: &OpKind) -> String {
    use OpKind::*;
    let s = match k {
        ProgramId(_) => "program_id",
        NumPrograms(_) => "num_programs",
        Const => "constant",
        Assume { .. } => "assume",
        Arange { .. } => "arange",
        Full => "full",
        Splat => "splat",
        BroadcastTo => "broadcast",
        Binary(op) => return format!("{op:?}").to_lowercase(),
        Cmp(op) => return format!("cmp{}", format!("{op:?}").to_lowercase()),
        Where => "where",
        Unary(op) => return format!("{op:?}").to_lowercase(),
        Math(op, _) => return format!("{op:?}").to_lowercase(),
        Fma => "fma",
        Cast(_) => "cast",
        Bitcast(_) => "bitcast",
        ExpandDims(_) => "expand_dims",
        Permute(_) => "permute",
        Reshape => "reshape",
        Split => "split",
        Join => "join",
        ConvertLayout => "convert_layout",
        Load { .. } => "load",
        Store { .. } => "store",
        AtomicRmw(_) => "atomic_rmw",
        AtomicCas => "atomic_cas",
        Reduce { .. } | ReduceWith(_) => "reduce",
        ArgMax(_) => "argmax",
        ArgMin(_) => "argmin",
        Scan { .. } | ScanWith(_) => "scan",
        For { .. } => "for",
        If | IfThen => "if",
        Return => "return",
        WarpRoles(_) => "warp_roles",
        InRole(_) => "in_role",
        RoleReplica => "role_replica",
        AllocNamedBarriers { .. } => "alloc_named_barriers",
        NamedBarrierSync { .. } => "named_barrier_sync",
        NamedBarrierArrive { .. } => "named_barrier_arrive",
        AllocShared => "alloc_shared",
        AllocSharedBuffers(_) => "alloc_shared_buffers",
        IndexShared => "index_shared",
        PermuteShared(_) => "permute_shared",
        SliceShared { .. } => "slice_shared",
        ReshapeShared => "reshape_shared",
        ReinterpretShared => "reinterpret_shared",
        StoreShared => "store_shared",
        LoadShared => "load_shared",
        FreeShared => "free_shared",
        Ldmatrix => "ldmatrix",
        Barrier => "barrier",
        AsyncCopy { .. } => "async_copy_global_to_shared",
        AsyncCommitGroup => "async_commit_group",
        AsyncWaitGroup(_) => "async_wait_group",
        AllocMbarriers { .. } => "alloc_mbarriers",
        MbarrierAt => "mbarrier_at",
        MbarrierExpect { .. } => "mbarrier_expect",
        MbarrierArrive => "mbarrier_arrive",
        MbarrierWait { issuer: false } => "mbarrier_wait",
        MbarrierWait { issuer: true } => "mbarrier_wait_issuer",
        MbarrierInvalidate => "mbarrier_invalidate",
        FenceAsyncShared => "fence_async_shared",
        TmaLoad { .. } => "tma_load",
        TmaStore => "tma_store",
        TmaStoreWait(_) => "tma_store_wait",
        TmaLoadMulticast { .. } => "tma_load_multicast",
        ClusterCtaRank => "cluster_cta_rank",
        ClusterId(_) => "cluster_id",
        ClusterNumCtas => "cluster_num_ctas",
        ClusterArrive { relaxed: false } => "cluster_arrive",
        ClusterArrive { relaxed: true } => "cluster_arrive_relaxed",
        ClusterWait => "cluster_wait",
        MbarrierArriveRemote { per_warp: false } => "mbarrier_arrive_cluster",
        MbarrierArriveRemote { per_warp: true } => "mbarrier_arrive_cluster_per_warp",
        Dot => "dot",
        Wgmma { .. } => "wgmma",
        WgmmaWait(_) => "wgmma_wait",
        GroupedTile(_) => "grouped_tile",
        DevicePrint { .. } => "device_print",
        DeviceAssert { .. } => "device_assert",
        FpContraction(_) => "allow_fp_contraction",
    };
    s.to_string()
}

/// The op's attributes, `name = value` separated by commas.
fn attributes(k: &OpKind) -> String {
    use OpKind::*;
    match k {
        ProgramId(a) | NumPrograms(a) | ClusterId(a) => format!("axis = {a}"),
        Assume {
            divisibility,
            contiguity,
        } => format!("divisibility = {divisibility}, contiguity = {contiguity}"),
        Arange { start, end } => format!("start = {start}, end = {end}"),
        Math(_, p) => format!("precision = {p:?}"),
        Cast(t) | Bitcast(t) => format!("to = {t}"),
        ExpandDims(a) | ReduceWith(a) | ArgMax(a) | ArgMin(a) | ScanWith(a) => {
            format!("axis = {a}")
        }
        Permute(p) | PermuteShared(p) => format!("order = {p:?}"),
        Load {
            hint,
            has_mask,
            has_other,
        } => format!("cache = {hint:?}, mask = {has_mask}, other = {has_other}"),
        Store { hint } => format!("cache = {hint:?}"),
        AtomicRmw(op) => format!("kind = {op:?}"),
        Reduce { axis, op } => format!("axis = {axis}, combine = {op:?}"),
        Scan { axis, op } => format!("axis = {axis}, combine = {op:?}"),
        For { step } => format!("step = {step}"),
        WarpRoles(roles) => {
            let rs: Vec<String> = roles
                .iter()
                .map(|r| format!("{}x{}", r.warps, r.replicas))
                .collect();
            format!("roles = [{}]", rs.join(", "))
        }
        InRole(i) => format!("role = {i}"),
        AllocNamedBarriers { count, warps } => format!("count = {count}, warps = {warps}"),
        NamedBarrierSync { first, threads } | NamedBarrierArrive { first, threads } => {
            format!("first = {first}, threads = {threads}")
        }
        AllocSharedBuffers(n) => format!("count = {n}"),
        SliceShared { dim, start, len } => format!("dim = {dim}, start = {start}, len = {len}"),
        AsyncWaitGroup(n) | TmaStoreWait(n) | WgmmaWait(n) => format!("pending = {n}"),
        AllocMbarriers { count, arrivals } => format!("count = {count}, arrivals = {arrivals}"),
        MbarrierExpect { bytes, .. } => format!("bytes = {bytes}"),
        GroupedTile(g) => format!("group_m = {g}"),
        DevicePrint { prefix, format } => format!("prefix = {prefix:?}, format = {format:?}"),
        DeviceAssert { message } => format!("message = {message:?}"),
        FpContraction(on) => format!("on = {on}"),
        _ => String::new(),
    }
}

/// `t` as the printer writes it, with its layout written out in place of the alias on one line
/// (what `static_print` shows): a shared buffer's as `#ttg.shared_linear` (with its padding).
pub(crate) fn type_text(prog: &Program, t: &IrType) -> String {
    if let IrType::Shared { buf, .. } = t {
        if let Ok(offset_bases) = buf.layout.bases("offset") {
            let layout = print_encoding(&Encoding::SharedLinear(SharedLinear {
                offset_bases,
                block_bases: Vec::new(),
                alignment: buf.align as u32,
            }));
            let padding = if buf.padding.is_empty() {
                String::new()
            } else {
                format!(" padding {:?}", buf.padding)
            };
            let s = t.to_string();
            return format!(
                "{}, {} {layout}{padding}, offset {}>",
                &s[..s.len() - 1],
                buf.name,
                buf.base
            );
        }
    }
    let mut p = Printer {
        prog,
        aliases: Aliases::default(),
        locs: false,
        body: String::new(),
    };
    let mut s = p.ty(t);
    for (text, name) in &p.aliases.names {
        s = s.replace(name.as_str(), text);
    }
    s
}

impl Program {
    /// The program as text; with `locs`, each op line ends with the user's `file:line`.
    pub fn to_text(&self, locs: bool) -> String {
        let mut p = Printer {
            prog: self,
            aliases: Aliases::default(),
            locs,
            body: String::new(),
        };
        let params: Vec<String> = self
            .params
            .iter()
            .map(|q| format!("%{}: {} /* {} */", q.value.0, p.value_ty(q.value), q.name))
            .collect();
        let maxnreg = self
            .max_registers
            .map_or(String::new(), |r| format!(", maxnreg = {r}"));
        let cluster = self.cluster.map_or(String::new(), |[x, y, z]| {
            format!(", cluster = [{x}, {y}, {z}]")
        });
        let header = format!(
            "weft.kernel @{}({}) attributes {{target = \"{}\", num_warps = {}{maxnreg}{cluster}}} {{\n",
            self.name,
            params.join(", "),
            self.target,
            self.num_warps
        );
        p.region(self.body, 0);
        let mut out = String::new();
        for l in &p.aliases.lines {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&header);
        out.push_str(&p.body);
        out.push_str("}\n");
        out
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text(false))
    }
}
