//! The kernel explains itself: what the algebra predicted for every memory access and every
//! conversion the builder emitted, as a table ([`KernelReport`]).
//!
//! The builder already decides each access's vector width, each shared access's addresses per
//! lane, each conversion's plan, each reduction's shuffles and scratch; lowering hands those
//! figures to the report sink as data (beside the emitter, not inside it), and each row is
//! given to the recorded op whose lowering made it. [`Kernel::report`](super::Kernel::report)
//! is then computed from the program: the rows of the ops it holds, in lowering order, each in
//! a body ([`ReportRow::in_body`]) when its op sits in a loop, branch or role region. Figures
//! are per execution of the op: a row in a body runs once per iteration (or not at all). A
//! loop lowered again with weaker facts leaves its first attempt's ops out of the program, so
//! their rows are not the kernel's.
//!
//! Ops that weft builds out of other builder calls are one op of the program, and their rows
//! follow two rules. Figures of a reported call made inside another reported call (the
//! barriers of a conversion through shared memory, the `load_shared` of `ldmatrix`, the
//! reduction inside `argmax`) add to the outer call's row. A reported call made inside an op
//! that makes no row of its own (the barrier of `alloc_mbarriers`) makes its own row, named by
//! that call and the builder's line, and belongs to the recorded op.
//!
//! Shared-memory figures count warp-wide instructions and wavefronts exactly as
//! [`warp_access`] does (32 banks of 4 bytes, 128-byte phases), address by address for one warp,
//! for every instruction the op emits: what Nsight Compute reports as
//! `smsp__inst_executed_op_shared_ld/st` and `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st`
//! (extra wavefronts) per warp. `examples/report_check.rs` compares them with ncu on a GPU.
//!
//! With ptxas at hand, [`Kernel::report_with_ptxas`](super::Kernel::report_with_ptxas) adds
//! its register, spill and stack figures ([`PtxasInfo`]).
//!
//! A row's source is the [label](super::KernelBuilder::label) given for it, else the Rust line
//! that called the op (`#[track_caller]`: inside a ready-made kernel, the kernel's line; an op
//! the builder calls for another, such as the barrier of `alloc_mbarriers`, shows the builder's
//! line). Not counted yet: `ldmatrix`, `cp.async`'s and TMA's shared traffic, wgmma operand
//! reads and mbarrier operations (their rows show what they moved from global memory, if
//! anything). AMD targets use the same 32-bank model as the planner.

use std::fmt;
use std::sync::Arc;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Loc, OpId, Program, RegionId};
use crate::codegen::lower::values::{ValueData, ValueKind};
use crate::layout::convert::simulate::{warp_access, AccessStats};
use crate::layout::convert::ConversionKind;

/// What the builder predicted for one kernel, one row per recorded op, in emission order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KernelReport {
    /// The kernel's name.
    pub kernel: String,
    /// The target it was built for (`sm_90a`, `gfx942`, …).
    pub target: String,
    /// Warps per CTA.
    pub num_warps: u32,
    /// Threads per warp (32 on NVIDIA, 64 on CDNA).
    pub warp_size: u32,
    /// Shared memory the CTA reserves, all buffers and scratch together.
    pub shared_bytes: u64,
    /// One row per recorded op.
    pub rows: Vec<ReportRow>,
    /// ptxas's figures, when [`Kernel::report_with_ptxas`](super::Kernel::report_with_ptxas)
    /// ran it.
    pub ptxas: Option<PtxasInfo>,
}

/// The predictions for one op.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReportRow {
    /// The builder method (`load`, `store`, `convert_layout`, `reduce`, …).
    pub op: String,
    /// The label given with [`KernelBuilder::label`](crate::codegen::KernelBuilder::label), else the Rust source location of the call.
    pub source: String,
    /// The operand's element type and shape (`f32[64x64]`; for loads and stores the pointee).
    pub operand: String,
    /// The operand's layout, basis by basis (empty for scalars).
    pub layout: String,
    /// Whether the op sits in a loop or branch body (its figures count per execution).
    pub in_body: bool,
    /// Warps that execute it: the kernel's, or inside a warp role the role's (per replica).
    pub warps: u32,
    /// Global loads or stores (per thread).
    pub global: Option<GlobalFigures>,
    /// Shared-memory loads (per warp).
    pub shared_loads: SharedFigures,
    /// Shared-memory stores (per warp).
    pub shared_stores: SharedFigures,
    /// The conversion plan executed (`convert_layout`).
    pub conversion: Option<ConversionFigures>,
    /// Warp shuffles per thread (`shfl.sync`, `ds_bpermute`; a 64-bit value takes two).
    pub shuffles: u64,
    /// Shared-memory scratch the op allocated, in bytes.
    pub scratch_bytes: u64,
    /// CTA (or role) barriers it emitted.
    pub barriers: u64,
}

/// The global accesses of one op, per thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GlobalFigures {
    /// Elements per access (the vector width the layout and the pointer allow).
    pub vector: u64,
    /// Bytes per access.
    pub bytes: u64,
    /// Access instructions per thread.
    pub accesses: u64,
    /// Whether they are masked.
    pub masked: bool,
}

/// Shared-memory traffic of one op in one direction, per warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SharedFigures {
    /// Warp-wide instructions.
    pub instructions: u64,
    /// The widest access, in bytes per lane.
    pub vector_bytes: u64,
    /// Wavefronts (shared-memory cycles) they take.
    pub wavefronts: u64,
    /// Wavefronts a conflict-free pattern of the same widths would take.
    pub ideal_wavefronts: u64,
}

impl SharedFigures {
    /// Bank conflicts: the extra wavefronts (what ncu's `l1tex__data_bank_conflicts_*` counts).
    pub fn conflicts(&self) -> u64 {
        self.wavefronts - self.ideal_wavefronts
    }

    fn add(&mut self, s: AccessStats, bytes: u64) {
        self.instructions += s.instructions;
        self.wavefronts += s.wavefronts;
        self.ideal_wavefronts += s.ideal_wavefronts;
        self.vector_bytes = self.vector_bytes.max(bytes);
    }

    fn merge(&mut self, o: &SharedFigures) {
        self.instructions += o.instructions;
        self.wavefronts += o.wavefronts;
        self.ideal_wavefronts += o.ideal_wavefronts;
        self.vector_bytes = self.vector_bytes.max(o.vector_bytes);
    }
}

/// What `layout::convert::plan_conversion` planned for a `convert_layout`, and what ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConversionFigures {
    /// The plan's kind.
    pub kind: ConversionKind,
    /// How it was executed: the plan's kind, or `SharedMemory` when a shuffle plan fell back to
    /// the round trip through shared memory.
    pub executed: ConversionKind,
    /// Shuffles per thread the plan predicts.
    pub shuffles: u64,
    /// Scratch bytes the plan needs.
    pub scratch_bytes: u64,
    /// Extra wavefronts per 128-byte phase of each scratch read and write, as planned.
    pub read_conflicts: u64,
    /// See `read_conflicts`.
    pub write_conflicts: u64,
    /// (store, barrier, load) rounds through the scratch.
    pub repetitions: u64,
}

/// ptxas's figures for the kernel (`ptxas -v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PtxasInfo {
    /// Registers per thread.
    pub registers: u64,
    /// Bytes spilled to local memory (stores).
    pub spill_store_bytes: u64,
    /// Bytes reloaded from spills.
    pub spill_load_bytes: u64,
    /// Local-memory stack frame per thread.
    pub stack_frame_bytes: u64,
    /// Static shared memory ptxas sees (the builder's buffers are dynamic, so usually 0).
    pub static_shared_bytes: u64,
    /// Named barriers used.
    pub barriers: u64,
}

/// The figures of the op being recorded, gathered from the helpers it calls.
#[derive(Debug, Default)]
struct Pending {
    global: Option<GlobalFigures>,
    shared_loads: SharedFigures,
    shared_stores: SharedFigures,
    conversion: Option<ConversionFigures>,
    shuffles: u64,
    scratch_bytes: u64,
    barriers: u64,
}

/// What the outermost op of a row is: `op` called at `at` on `subject`.
pub(crate) struct RowStart {
    pub op: &'static str,
    pub at: Loc,
    pub subject: Option<Subject>,
}

/// One row as lowering made it: its figures and operand, and the recorded op it belongs to
/// (`None` until that op is recorded; a row of an op that failed stays without one).
#[derive(Debug, Clone)]
struct Made {
    row: ReportRow,
    subject: Option<Subject>,
    op: Option<OpId>,
}

/// Rows recorded so far and the figures of the op being emitted. Only outermost ops make rows:
/// an op that calls another (a conversion's barriers, a `load_shared` inside `ldmatrix`) adds to
/// the caller's row.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    rows: Vec<Made>,
    depth: u32,
    pending: Pending,
    label: Option<String>,
}

impl Recorder {
    /// Whether an op is being recorded (helpers skip the report's work otherwise).
    pub(crate) fn active(&self) -> bool {
        self.depth > 0
    }

    /// A global access of `accesses` instructions of `vector` elements of `elem_bytes` each.
    pub(crate) fn global(&mut self, vector: u64, elem_bytes: u64, accesses: u64, masked: bool) {
        if !self.active() {
            return;
        }
        let g = self.pending.global.get_or_insert(GlobalFigures {
            vector,
            bytes: vector * elem_bytes,
            accesses: 0,
            masked,
        });
        g.vector = g.vector.max(vector);
        g.bytes = g.vector * elem_bytes;
        g.accesses += accesses;
        g.masked |= masked;
    }

    /// One warp-wide shared instruction: lane `i` moves `access_bytes` at `lane_bytes[i]`.
    pub(crate) fn shared(&mut self, store: bool, lane_bytes: &[u64], access_bytes: u64) {
        if self.active() {
            self.shared_stats(store, warp_access(lane_bytes, access_bytes), access_bytes);
        }
    }

    /// Shared instructions already counted (`s`), of at most `access_bytes` per lane.
    pub(crate) fn shared_stats(&mut self, store: bool, s: AccessStats, access_bytes: u64) {
        if !self.active() {
            return;
        }
        let side = if store {
            &mut self.pending.shared_stores
        } else {
            &mut self.pending.shared_loads
        };
        side.add(s, access_bytes);
    }

    pub(crate) fn conversion(&mut self, c: ConversionFigures) {
        if self.active() {
            self.pending.conversion = Some(c);
        }
    }

    pub(crate) fn shuffles(&mut self, n: u64) {
        if self.active() {
            self.pending.shuffles += n;
        }
    }

    pub(crate) fn scratch(&mut self, bytes: u64) {
        if self.active() {
            self.pending.scratch_bytes += bytes;
        }
    }

    pub(crate) fn barrier(&mut self) {
        if self.active() {
            self.pending.barriers += 1;
        }
    }

    /// Names the next recorded op (instead of its Rust source location).
    pub(crate) fn set_label(&mut self, name: &str) {
        self.label = Some(name.to_string());
    }

    /// Opens an op; returns whether it is the outermost one (the one that makes a row).
    pub(crate) fn open(&mut self) -> bool {
        self.depth += 1;
        self.depth == 1
    }

    /// Closes the op opened last. The outermost one (`start` given) makes a row, when it
    /// succeeded (`ok`), of the figures gathered while it ran, for `warps` warps.
    pub(crate) fn close(&mut self, start: Option<RowStart>, ok: bool, warps: u32) {
        self.depth -= 1;
        let Some(RowStart { op, at, subject }) = start else {
            return;
        };
        let p = std::mem::take(&mut self.pending);
        let label = self.label.take();
        if ok {
            let source = label.unwrap_or_else(|| short_location(at));
            let row = ReportRow {
                op: op.to_string(),
                source,
                operand: String::new(),
                layout: String::new(),
                in_body: false,
                warps,
                global: p.global,
                shared_loads: p.shared_loads,
                shared_stores: p.shared_stores,
                conversion: p.conversion,
                shuffles: p.shuffles,
                scratch_bytes: p.scratch_bytes,
                barriers: p.barriers,
            };
            self.rows.push(Made {
                row,
                subject,
                op: None,
            });
        }
    }

    /// How many rows are made so far: where a recorded op starts.
    pub(crate) fn mark(&self) -> usize {
        self.rows.len()
    }

    /// Gives the rows made since `mark` that no op inside it took (ops in its bodies are
    /// recorded, and take theirs, first) to op `op`, just recorded.
    pub(crate) fn claim(&mut self, mark: usize, op: OpId) {
        for m in self.rows.iter_mut().skip(mark) {
            m.op.get_or_insert(op);
        }
    }

    /// The rows made and `header`, kept for [`Kernel::report`](super::Kernel::report).
    pub(crate) fn finish(self, header: KernelReport) -> Recorded {
        Recorded {
            header,
            rows: self.rows,
        }
    }
}

/// A row's operand, kept raw: the text is written only when the report is asked for, so
/// recording costs a build next to nothing.
#[derive(Debug, Clone)]
pub(crate) struct Subject {
    elem: crate::codegen::types::DType,
    shape: Vec<u64>,
    shared: bool,
    layout: Option<Arc<TileLayout>>,
}

impl Subject {
    /// The subject that value `d` is.
    pub(crate) fn of(d: &ValueData<'_>) -> Subject {
        let elem = match d.ty {
            crate::codegen::types::Type::Scalar(e) | crate::codegen::types::Type::Ptr(e, _) => e,
        };
        Subject {
            elem,
            shape: d.shape.clone(),
            shared: d.kind == ValueKind::SharedDesc,
            layout: d.layout.clone(),
        }
    }

    /// `f32[64x64]` (a pointer tile shows its pointee; a buffer is `shared f32[…]`).
    fn operand(&self) -> String {
        let kind = if self.shared { "shared " } else { "" };
        if self.shape.is_empty() {
            return format!("{kind}{}", self.elem);
        }
        let dims: Vec<String> = self.shape.iter().map(|s| s.to_string()).collect();
        format!("{kind}{}[{}]", self.elem, dims.join("x"))
    }
}

/// What a finished kernel keeps of its lowering for the report: every row made, each with the
/// op it belongs to.
#[derive(Debug, Clone, Default)]
pub(crate) struct Recorded {
    header: KernelReport,
    rows: Vec<Made>,
}

impl Recorded {
    /// The report of `program`: the rows of the ops it holds, in the order they were lowered,
    /// operands written out; a row is in a body when its op is (a loop, branch or role body).
    /// Rows of ops the program does not hold (an op that failed) are not the kernel's.
    pub(crate) fn render(&self, program: &Program) -> KernelReport {
        let depth = op_depths(program);
        let mut r = self.header.clone();
        r.rows = self
            .rows
            .iter()
            .filter_map(|m| {
                let d = *depth.get(m.op?.0 as usize)?;
                let mut row = m.row.clone();
                row.in_body = d? > 0;
                if let Some(s) = &m.subject {
                    row.operand = s.operand();
                    row.layout = s.layout.as_ref().map_or(String::new(), |l| l.to_string());
                }
                Some(row)
            })
            .collect();
        r
    }
}

/// How deep each op of `program` sits in bodies (0 in the kernel's own); `None` for ops no
/// region holds.
fn op_depths(program: &Program) -> Vec<Option<u32>> {
    fn walk(p: &Program, region: RegionId, depth: u32, out: &mut Vec<Option<u32>>) {
        for &id in &p.region(region).ops {
            if let Some(slot) = out.get_mut(id.0 as usize) {
                *slot = Some(depth);
            }
            for &r in &p.op(id).regions {
                walk(p, r, depth + 1, out);
            }
        }
    }
    let mut out = vec![None; program.ops.len()];
    walk(program, program.body, 0, &mut out);
    out
}

/// The byte address of each lane of warp 0 for register `reg` of an offsets layout
/// ((register, lane, warp) → element offset, one dim), `pad` mapping an element offset to its
/// padded one.
pub(crate) fn lane_bytes(
    offsets: &TileLayout,
    reg: usize,
    lanes: u32,
    elem_bytes: u64,
    pad: impl Fn(u64) -> u64,
) -> Vec<u64> {
    let r = offsets.reg_coord(reg)[0];
    (0..lanes as u64)
        .map(|l| {
            let o = offsets
                .lane
                .iter()
                .enumerate()
                .filter(|(i, _)| l >> i & 1 == 1)
                .fold(r, |a, (_, b)| a ^ b[0]);
            pad(o) * elem_bytes
        })
        .collect()
}

/// The row-major index, over the dims of `shape` other than `skip`, of the element register
/// `reg` of `l` holds in lane `lane` of warp 0.
pub(crate) fn lane_flat_index(l: &TileLayout, reg: usize, lane: u64, skip: Option<usize>) -> u64 {
    let mut c = l.reg_coord(reg);
    for (i, b) in l.lane.iter().enumerate() {
        if lane >> i & 1 == 1 {
            for (x, y) in c.iter_mut().zip(b) {
                *x ^= y;
            }
        }
    }
    let mut idx = 0;
    let mut stride = 1;
    for d in (0..l.rank()).rev() {
        if Some(d) == skip {
            continue;
        }
        idx += c[d] * stride;
        stride *= l.shape[d];
    }
    idx
}

/// `file.rs:line` (the file name without its folders keeps the table narrow).
fn short_location(at: Loc) -> String {
    let file = at.file.rsplit(['/', '\\']).next().unwrap_or(at.file);
    format!("{file}:{}", at.line)
}

impl KernelReport {
    /// The rows of op `op`, in emission order.
    pub fn rows_of<'a>(&'a self, op: &'a str) -> impl Iterator<Item = &'a ReportRow> + 'a {
        self.rows.iter().filter(move |r| r.op == op)
    }

    /// Shared loads of every row together, per warp of each row's scope.
    pub fn shared_loads(&self) -> SharedFigures {
        let mut s = SharedFigures::default();
        self.rows.iter().for_each(|r| s.merge(&r.shared_loads));
        s
    }

    /// Shared stores of every row together.
    pub fn shared_stores(&self) -> SharedFigures {
        let mut s = SharedFigures::default();
        self.rows.iter().for_each(|r| s.merge(&r.shared_stores));
        s
    }

    /// Whether every row is outside loop and branch bodies (each runs exactly once per warp,
    /// so per-warp figures times warps times CTAs are the kernel's totals).
    pub fn straight_line(&self) -> bool {
        self.rows.iter().all(|r| !r.in_body)
    }

    /// The report as JSON (the serde form of [`KernelReport`]).
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serialises")
    }

    /// A report from its JSON.
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn from_json(text: &str) -> std::result::Result<KernelReport, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// `n×vB +c`: instructions, widest bytes per lane, extra wavefronts; `-` when none.
fn shared_cell(s: &SharedFigures) -> String {
    if s.instructions == 0 {
        return "-".into();
    }
    format!("{}×{}B +{}", s.instructions, s.vector_bytes, s.conflicts())
}

fn count_cell(n: u64) -> String {
    if n == 0 {
        "-".into()
    } else {
        n.to_string()
    }
}

impl fmt::Display for KernelReport {
    /// An aligned table: one line per row, then ptxas's figures when present. Global cells are
    /// `accesses×vN` (elements per access) per thread; shared cells `instructions×bytes
    /// +conflicts` per warp; `*` marks rows in a loop or branch body.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "kernel {} on {}: {} warps of {}, {} bytes of shared memory",
            self.kernel, self.target, self.num_warps, self.warp_size, self.shared_bytes
        )?;
        let head = [
            "#",
            "op",
            "source",
            "operand",
            "global/thread",
            "ld.shared/warp",
            "st.shared/warp",
            "shfl",
            "scratch",
            "bar",
            "plan",
        ];
        let mut table: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
        for (i, r) in self.rows.iter().enumerate() {
            let global = r.global.map_or("-".into(), |g| {
                format!(
                    "{}×v{}{}",
                    g.accesses,
                    g.vector,
                    if g.masked { " masked" } else { "" }
                )
            });
            let plan = r.conversion.map_or(String::new(), |c| {
                let mut s = c.kind.to_string();
                if c.executed != c.kind {
                    s = format!("{s} (ran {})", c.executed);
                }
                if c.executed == ConversionKind::SharedMemory {
                    s = format!(
                        "{s}: conflicts rd {} wr {}, {} rep",
                        c.read_conflicts, c.write_conflicts, c.repetitions
                    );
                }
                s
            });
            table.push(vec![
                format!("{i}{}", if r.in_body { "*" } else { "" }),
                r.op.clone(),
                r.source.clone(),
                r.operand.clone(),
                global,
                shared_cell(&r.shared_loads),
                shared_cell(&r.shared_stores),
                count_cell(r.shuffles),
                count_cell(r.scratch_bytes),
                count_cell(r.barriers),
                plan,
            ]);
        }
        let widths: Vec<usize> = (0..head.len())
            .map(|c| {
                table
                    .iter()
                    .map(|row| row[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for row in &table {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c + 1 == row.len() {
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    let pad = widths[c] - cell.chars().count() + 2;
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        if self.rows.iter().any(|r| r.in_body) {
            writeln!(f, "* in a loop or branch body: figures per execution")?;
        }
        if let Some(p) = &self.ptxas {
            writeln!(
                f,
                "ptxas: {} registers, {} bytes spill stores, {} bytes spill loads, {} bytes stack, {} barriers",
                p.registers, p.spill_store_bytes, p.spill_load_bytes, p.stack_frame_bytes, p.barriers
            )?;
        }
        Ok(())
    }
}

/// Reads ptxas's `-v` output for entry `kernel`: `Used N registers, used B barriers, S bytes
/// smem` and `F bytes stack frame, X bytes spill stores, Y bytes spill loads`.
pub fn parse_ptxas_verbose(text: &str, kernel: &str) -> Result<PtxasInfo> {
    let bad = |why: String| CodegenError::Ptxas(why);
    let mut info = PtxasInfo::default();
    let mut in_kernel = false;
    let mut found = false;
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("ptxas info") {
            let rest = rest.trim_start().trim_start_matches(':').trim();
            if let Some(name) = rest
                .strip_prefix("Compiling entry function '")
                .or_else(|| rest.strip_prefix("Function properties for "))
            {
                let name = name.split('\'').next().unwrap_or("");
                in_kernel = name == kernel;
                continue;
            }
            if in_kernel && rest.starts_with("Used ") {
                found = true;
                for part in rest.split(',') {
                    let words: Vec<&str> = part.split_whitespace().collect();
                    match words.as_slice() {
                        ["Used", n, "registers", ..] => info.registers = num(n)?,
                        ["used", n, "barriers", ..] => info.barriers = num(n)?,
                        [n, "bytes", "smem", ..] => info.static_shared_bytes = num(n)?,
                        _ => {}
                    }
                }
            }
            continue;
        }
        if in_kernel && l.contains("stack frame") {
            for part in l.split(',') {
                let words: Vec<&str> = part.split_whitespace().collect();
                match words.as_slice() {
                    [n, "bytes", "stack", "frame", ..] => info.stack_frame_bytes = num(n)?,
                    [n, "bytes", "spill", "stores", ..] => info.spill_store_bytes = num(n)?,
                    [n, "bytes", "spill", "loads", ..] => info.spill_load_bytes = num(n)?,
                    _ => {}
                }
            }
        }
    }
    if !found {
        return Err(bad(format!(
            "no `Used … registers` line for entry `{kernel}` in ptxas -v output: {}",
            text.trim()
        )));
    }
    Ok(info)
}

fn num(s: &str) -> Result<u64> {
    s.parse()
        .map_err(|_| CodegenError::Ptxas(format!("`{s}` in ptxas -v output is not a number")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTXAS_V: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'other' for 'sm_90a'
ptxas info    : Function properties for other
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers, 384 bytes cmem[0]
ptxas info    : Compiling entry function 'transpose' for 'sm_90a'
ptxas info    : Function properties for transpose
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 30 registers, used 1 barriers, 16 bytes smem, 392 bytes cmem[0]
";

    #[test]
    fn ptxas_verbose_output_is_read_for_the_named_entry() {
        let p = parse_ptxas_verbose(PTXAS_V, "transpose").unwrap();
        assert_eq!(
            p,
            PtxasInfo {
                registers: 30,
                spill_store_bytes: 0,
                spill_load_bytes: 0,
                stack_frame_bytes: 0,
                static_shared_bytes: 16,
                barriers: 1,
            }
        );
        let o = parse_ptxas_verbose(PTXAS_V, "other").unwrap();
        assert_eq!(
            (o.registers, o.spill_store_bytes, o.stack_frame_bytes),
            (12, 4, 8)
        );
        assert!(matches!(
            parse_ptxas_verbose(PTXAS_V, "missing"),
            Err(CodegenError::Ptxas(_))
        ));
        assert!(parse_ptxas_verbose("garbage", "x").is_err());
    }

    #[test]
    fn lane_addresses_follow_the_lane_bases() {
        // 4 lanes, lane bit 0 → offset 1, lane bit 1 → offset 8; register bit 0 → offset 2.
        let l = TileLayout::from_bases("t", &[16], vec![vec![2]], vec![vec![1], vec![8]], vec![])
            .unwrap();
        assert_eq!(lane_bytes(&l, 0, 4, 4, |o| o), vec![0, 4, 32, 36]);
        assert_eq!(lane_bytes(&l, 1, 4, 4, |o| o), vec![8, 12, 40, 44]);
        assert_eq!(lane_flat_index(&l, 1, 3, None), 2 ^ 1 ^ 8);
    }
}
