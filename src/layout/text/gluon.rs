//! Gluon constructor text: `BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], …)`, printed as
//! Python's `repr()` of the Gluon object (every field, defaults included) and parsed from keyword or
//! positional arguments with Gluon's defaults. A module prefix (`gl.`, `ttgl.`, `amd.`) is accepted.

use crate::layout::encoding::{
    AmdMfma, AmdWmma, Blocked, DistributedLinear, DotOperand, Encoding, NvidiaMma, NvmmaShared,
    PaddedShared, PartitionedShared, SharedLinear, Slice, SwizzledShared, TensorMemory,
    TensorMemoryScales,
};
use std::sync::Arc;

use crate::layout::error::excerpt;
use crate::layout::{LayoutError, Result};

use super::lex::{describe, Lexer, Tok};
use super::value::{
    bases, boolean, cga, encoding, fmt_bases, fmt_list, int, u32_list, u32_of, u64_list, Params,
    Val,
};

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// The Gluon constructor text of an encoding (Python's `repr()` of the Gluon object).
pub fn print_encoding(e: &Encoding) -> String {
    match e {
        Encoding::Blocked(b) => format!(
            "BlockedLayout(size_per_thread={}, threads_per_warp={}, warps_per_cta={}, order={}, cga_layout={})",
            fmt_list(&b.size_per_thread),
            fmt_list(&b.threads_per_warp),
            fmt_list(&b.warps_per_cta),
            fmt_list(&b.order),
            fmt_bases(&b.cga_layout.bases)
        ),
        Encoding::Slice(s) => format!("SliceLayout(dim={}, parent={})", s.dim, print_encoding(&s.parent)),
        Encoding::NvidiaMma(m) => format!(
            "NVMMADistributedLayout(version={}, warps_per_cta={}, instr_shape={}, cga_layout={})",
            fmt_list(&m.version),
            fmt_list(&m.warps_per_cta),
            fmt_list(&m.instr_shape),
            fmt_bases(&m.cga_layout.bases)
        ),
        Encoding::DotOperand(d) => format!(
            "DotOperandLayout(operand_index={}, parent={}, k_width={})",
            d.op_idx,
            print_encoding(&d.parent),
            d.k_width
        ),
        Encoding::AmdMfma(m) => format!(
            "AMDMFMALayout(version={}, instr_shape={}, transposed={}, warps_per_cta={}, element_bitwidth={}, tiles_per_warp={}, cga_layout={})",
            m.version,
            fmt_list(&m.instr_shape),
            py_bool(m.transposed),
            fmt_list(&m.warps_per_cta),
            m.element_bitwidth,
            fmt_list(&m.tiles_per_warp),
            fmt_bases(&m.cga_layout.bases)
        ),
        Encoding::AmdWmma(m) => format!(
            "AMDWMMALayout(version={}, transposed={}, warp_bases={}, reg_bases={}, instr_shape={}, cga_layout={}, rank={})",
            m.version,
            py_bool(m.transposed),
            fmt_bases(&m.warp_bases),
            fmt_bases(&m.reg_bases),
            fmt_list(&m.instr_shape),
            fmt_bases(&m.cga_layout.bases),
            m.rank
        ),
        Encoding::Linear(l) => format!(
            "DistributedLinearLayout(reg_bases={}, lane_bases={}, warp_bases={}, block_bases={}, shape={})",
            fmt_bases(&l.reg_bases),
            fmt_bases(&l.lane_bases),
            fmt_bases(&l.warp_bases),
            fmt_bases(&l.block_bases),
            fmt_list(&l.shape)
        ),
        // Gluon has no class for it: its TTGIR text stands in.
        Encoding::AmdRotatingShared(_) => super::ttgir::print_encoding(e),
        Encoding::SwizzledShared(s) => format!(
            "SwizzledSharedLayout(vec={}, per_phase={}, max_phase={}, order={}, cga_layout={})",
            s.vec,
            s.per_phase,
            s.max_phase,
            fmt_list(&s.order),
            fmt_bases(&s.cga_layout.bases)
        ),
        Encoding::NvmmaShared(s) => format!(
            "NVMMASharedLayout(swizzle_byte_width={}, element_bitwidth={}, rank={}, transposed={}, fp4_padded={}, cga_layout={})",
            s.swizzle_byte_width,
            s.element_bitwidth,
            s.rank,
            py_bool(s.transposed),
            py_bool(s.fp4_padded),
            fmt_bases(&s.cga_layout.bases)
        ),
        Encoding::PaddedShared(p) => {
            let pairs: Vec<String> = p
                .interval_padding_pairs
                .iter()
                .map(|(i, q)| format!("[{i}, {q}]"))
                .collect();
            format!(
                "PaddedSharedLayout(interval_padding_pairs=[{}], offset_bases={}, cga_layout={}, shape={})",
                pairs.join(", "),
                fmt_bases(&p.offset_bases),
                fmt_bases(&p.cga_layout.bases),
                fmt_list(&p.shape)
            )
        }
        Encoding::SharedLinear(s) => format!(
            "SharedLinearLayout(offset_bases={}, block_bases={}, alignment={})",
            fmt_bases(&s.offset_bases),
            fmt_bases(&s.block_bases),
            s.alignment
        ),
        Encoding::PartitionedShared(p) => format!(
            "PartitionedSharedLayout(num_partitions={}, num_groups={}, partition_dim={}, partition_layout={})",
            p.num_partitions,
            p.num_groups,
            p.partition_dim,
            print_encoding(&p.partition_layout)
        ),
        // `block` is a Python tuple.
        Encoding::TensorMemory(t) => format!(
            "TensorMemoryLayout(block=({}, {}), col_stride={}, cga_layout={}, two_ctas={}, fp4_padded={})",
            t.block_m,
            t.block_n,
            t.col_stride,
            fmt_bases(&t.cga_layout.bases),
            py_bool(t.two_ctas),
            py_bool(t.fp4_padded)
        ),
        Encoding::TensorMemoryScales(t) => format!(
            "TensorMemoryScalesLayout(cga_layout={})",
            fmt_bases(&t.cga_layout.bases)
        ),
    }
}

/// Field names of each constructor, in Python's positional order.
fn fields(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "BlockedLayout" => &[
            "size_per_thread",
            "threads_per_warp",
            "warps_per_cta",
            "order",
            "cga_layout",
        ],
        "SliceLayout" => &["dim", "parent"],
        "NVMMADistributedLayout" => &["version", "warps_per_cta", "instr_shape", "cga_layout"],
        "DotOperandLayout" => &["operand_index", "parent", "k_width"],
        "AMDMFMALayout" => &[
            "version",
            "instr_shape",
            "transposed",
            "warps_per_cta",
            "element_bitwidth",
            "tiles_per_warp",
            "cga_layout",
        ],
        "AMDWMMALayout" => &[
            "version",
            "transposed",
            "warp_bases",
            "reg_bases",
            "instr_shape",
            "cga_layout",
            "rank",
        ],
        "DistributedLinearLayout" => &[
            "reg_bases",
            "lane_bases",
            "warp_bases",
            "block_bases",
            "shape",
        ],
        "SwizzledSharedLayout" => &["vec", "per_phase", "max_phase", "order", "cga_layout"],
        "NVMMASharedLayout" => &[
            "swizzle_byte_width",
            "element_bitwidth",
            "rank",
            "transposed",
            "fp4_padded",
            "cga_layout",
        ],
        "PaddedSharedLayout" => &[
            "interval_padding_pairs",
            "offset_bases",
            "cga_layout",
            "shape",
        ],
        "SharedLinearLayout" => &["offset_bases", "block_bases", "alignment"],
        "PartitionedSharedLayout" => &[
            "num_partitions",
            "num_groups",
            "partition_dim",
            "partition_layout",
        ],
        "TensorMemoryLayout" => &[
            "block",
            "col_stride",
            "cga_layout",
            "two_ctas",
            "fp4_padded",
        ],
        "TensorMemoryScalesLayout" => &["cga_layout"],
        _ => return None,
    })
}

/// A parsed constructor call: the class name, its arguments by name, and an error value locating it.
type Call = (String, Vec<(String, Val)>, LayoutError);

struct Parser {
    lx: Lexer,
    depth: usize,
}

impl Parser {
    fn value(&mut self) -> Result<Val> {
        self.depth += 1;
        if self.depth > 32 {
            return Err(self.lx.err("nesting too deep"));
        }
        let v = match self.lx.peek() {
            Some(Tok::Int(_)) => Val::Int(self.lx.int()?),
            Some(Tok::Punct('[' | '(')) => {
                let close = if self.lx.eat('[') {
                    ']'
                } else {
                    self.lx.expect('(').map(|_| ')')?
                };
                let mut xs = Vec::new();
                if !self.lx.eat(close) {
                    loop {
                        xs.push(self.value()?);
                        if self.lx.eat(close) {
                            break;
                        }
                        self.lx.expect(',')?;
                        if self.lx.eat(close) {
                            break;
                        }
                    }
                }
                Val::List(xs)
            }
            Some(Tok::Ident(s)) => match s.as_str() {
                "True" | "False" => {
                    let b = s == "True";
                    self.lx.next();
                    Val::Bool(b)
                }
                "None" => {
                    self.lx.next();
                    Val::None
                }
                _ => Val::Enc(Arc::new(self.call()?)),
            },
            other => {
                return Err(self
                    .lx
                    .err(format!("expected a value, found {}", describe(other))))
            }
        };
        self.depth -= 1;
        Ok(v)
    }

    fn call(&mut self) -> Result<Encoding> {
        let (kind, items, at) = self.call_items()?;
        build(&kind, items).map_err(|e| match (e, at) {
            (LayoutError::Invalid(m), LayoutError::Parse { line, column, .. }) => {
                LayoutError::Parse {
                    format: "gluon",
                    line,
                    column,
                    message: format!("{kind}: {m}"),
                }
            }
            (e, _) => e,
        })
    }

    /// A constructor call's class name and its arguments by name; the error value locates the call.
    fn call_items(&mut self) -> Result<Call> {
        let name = self.lx.ident()?;
        let kind = name.rsplit('.').next().unwrap_or(&name).to_string();
        let Some(names) = fields(&kind) else {
            return Err(self
                .lx
                .err_prev(format!("`{}` is not a Gluon layout class", excerpt(&name))));
        };
        let at = self.lx.err_prev("");
        self.lx.expect('(')?;
        let mut items: Vec<(String, Val)> = Vec::new();
        let mut positional = 0;
        if !self.lx.eat(')') {
            loop {
                let keyword = matches!(self.lx.peek(), Some(Tok::Ident(_)))
                    && matches!(self.lx.peek2(), Some(Tok::Punct('=')));
                if keyword {
                    let k = self.lx.ident()?;
                    self.lx.expect('=')?;
                    items.push((k, self.value()?));
                } else {
                    if items.len() > positional {
                        return Err(self.lx.err("positional argument after a keyword argument"));
                    }
                    let Some(k) = names.get(positional) else {
                        return Err(self
                            .lx
                            .err(format!("{kind} takes at most {} arguments", names.len())));
                    };
                    items.push(((*k).to_string(), self.value()?));
                    positional += 1;
                }
                if self.lx.eat(')') {
                    break;
                }
                self.lx.expect(',')?;
                if self.lx.eat(')') {
                    break;
                }
            }
        }
        Ok((kind, items, at))
    }
}

fn opt<T>(v: Option<Val>, f: impl FnOnce(Val) -> Result<T>) -> Result<Option<T>> {
    match v {
        None | Some(Val::None) => Ok(None),
        Some(v) => f(v).map(Some),
    }
}

fn build(kind: &str, items: Vec<(String, Val)>) -> Result<Encoding> {
    let mut p = Params::new(kind, items)?;
    let e = match kind {
        "BlockedLayout" => Encoding::Blocked(Blocked {
            size_per_thread: u32_list("size_per_thread", &p.req("size_per_thread")?)?,
            threads_per_warp: u32_list("threads_per_warp", &p.req("threads_per_warp")?)?,
            warps_per_cta: u32_list("warps_per_cta", &p.req("warps_per_cta")?)?,
            order: u32_list("order", &p.req("order")?)?,
            cga_layout: cga("cga_layout", p.take("cga_layout"))?,
        }),
        "SliceLayout" => Encoding::Slice(Slice {
            dim: u32_of("dim", &p.req("dim")?)?,
            parent: encoding("parent", p.req("parent")?)?,
        }),
        "NVMMADistributedLayout" => {
            let v = u32_list("version", &p.req("version")?)?;
            let [major, minor] = v[..] else {
                return Err(LayoutError::Invalid(
                    "`version`: expected [major, minor]".into(),
                ));
            };
            Encoding::NvidiaMma(NvidiaMma {
                version: [major, minor],
                warps_per_cta: u32_list("warps_per_cta", &p.req("warps_per_cta")?)?,
                instr_shape: u32_list("instr_shape", &p.req("instr_shape")?)?,
                cga_layout: cga("cga_layout", p.take("cga_layout"))?,
            })
        }
        "DotOperandLayout" => Encoding::DotOperand(DotOperand {
            op_idx: u32_of("operand_index", &p.req("operand_index")?)?,
            parent: encoding("parent", p.req("parent")?)?,
            k_width: u32_of("k_width", &p.req("k_width")?)?,
        }),
        "AMDMFMALayout" => {
            let warps = u32_list("warps_per_cta", &p.req("warps_per_cta")?)?;
            Encoding::AmdMfma(AmdMfma {
                version: u32_of("version", &p.req("version")?)?,
                instr_shape: u32_list("instr_shape", &p.req("instr_shape")?)?,
                transposed: boolean("transposed", &p.req("transposed")?)?,
                element_bitwidth: opt(p.take("element_bitwidth"), |v| {
                    u32_of("element_bitwidth", &v)
                })?
                .unwrap_or(32),
                tiles_per_warp: opt(p.take("tiles_per_warp"), |v| u32_list("tiles_per_warp", &v))?
                    .unwrap_or_else(|| vec![1; warps.len()]),
                cga_layout: cga("cga_layout", p.take("cga_layout"))?,
                warps_per_cta: warps,
            })
        }
        "AMDWMMALayout" => Encoding::AmdWmma(AmdWmma {
            version: u32_of("version", &p.req("version")?)?,
            transposed: boolean("transposed", &p.req("transposed")?)?,
            warp_bases: bases("warp_bases", &p.req("warp_bases")?)?,
            reg_bases: opt(p.take("reg_bases"), |v| bases("reg_bases", &v))?.unwrap_or_default(),
            instr_shape: opt(p.take("instr_shape"), |v| u32_list("instr_shape", &v))?
                .unwrap_or_else(|| vec![16, 16, 16]),
            cga_layout: cga("cga_layout", p.take("cga_layout"))?,
            rank: opt(p.take("rank"), |v| int("rank", &v))?.unwrap_or(2) as usize,
        }),
        "DistributedLinearLayout" => Encoding::Linear(DistributedLinear {
            reg_bases: bases("reg_bases", &p.req("reg_bases")?)?,
            lane_bases: bases("lane_bases", &p.req("lane_bases")?)?,
            warp_bases: bases("warp_bases", &p.req("warp_bases")?)?,
            block_bases: bases("block_bases", &p.req("block_bases")?)?,
            shape: u64_list("shape", &p.req("shape")?)?,
        }),
        "SwizzledSharedLayout" => Encoding::SwizzledShared(SwizzledShared {
            vec: u32_of("vec", &p.req("vec")?)?,
            per_phase: u32_of("per_phase", &p.req("per_phase")?)?,
            max_phase: u32_of("max_phase", &p.req("max_phase")?)?,
            order: u32_list("order", &p.req("order")?)?,
            cga_layout: cga("cga_layout", p.take("cga_layout"))?,
        }),
        "NVMMASharedLayout" => Encoding::NvmmaShared(NvmmaShared {
            swizzle_byte_width: u32_of("swizzle_byte_width", &p.req("swizzle_byte_width")?)?,
            element_bitwidth: u32_of("element_bitwidth", &p.req("element_bitwidth")?)?,
            rank: opt(p.take("rank"), |v| int("rank", &v))?.unwrap_or(2) as usize,
            transposed: opt(p.take("transposed"), |v| boolean("transposed", &v))?.unwrap_or(false),
            fp4_padded: opt(p.take("fp4_padded"), |v| boolean("fp4_padded", &v))?.unwrap_or(false),
            cga_layout: cga("cga_layout", p.take("cga_layout"))?,
        }),
        "PaddedSharedLayout" => {
            let pairs_v = p.req("interval_padding_pairs")?;
            let pairs = match &pairs_v {
                Val::List(xs) => xs
                    .iter()
                    .map(|x| {
                        let v = u32_list("interval_padding_pairs", x)?;
                        match v[..] {
                            [i, q] => Ok((i, q)),
                            _ => Err(LayoutError::Invalid(
                                "`interval_padding_pairs`: every entry is [interval, padding]"
                                    .into(),
                            )),
                        }
                    })
                    .collect::<Result<Vec<_>>>()?,
                _ => {
                    return Err(LayoutError::Invalid(
                        "`interval_padding_pairs`: expected a list of [interval, padding]".into(),
                    ))
                }
            };
            Encoding::PaddedShared(PaddedShared {
                interval_padding_pairs: pairs,
                offset_bases: bases("offset_bases", &p.req("offset_bases")?)?,
                cga_layout: cga("cga_layout", p.take("cga_layout"))?,
                shape: u64_list("shape", &p.req("shape")?)?,
            })
        }
        "SharedLinearLayout" => Encoding::SharedLinear(SharedLinear {
            offset_bases: bases("offset_bases", &p.req("offset_bases")?)?,
            block_bases: opt(p.take("block_bases"), |v| bases("block_bases", &v))?
                .unwrap_or_default(),
            alignment: opt(p.take("alignment"), |v| u32_of("alignment", &v))?.unwrap_or(16),
        }),
        "PartitionedSharedLayout" => Encoding::PartitionedShared(PartitionedShared {
            num_partitions: u32_of("num_partitions", &p.req("num_partitions")?)?,
            num_groups: u32_of("num_groups", &p.req("num_groups")?)?,
            partition_dim: u32_of("partition_dim", &p.req("partition_dim")?)?,
            partition_layout: encoding("partition_layout", p.req("partition_layout")?)?,
        }),
        "TensorMemoryLayout" => {
            let block = u32_list("block", &p.req("block")?)?;
            let [block_m, block_n] = block[..] else {
                return Err(LayoutError::Invalid(format!(
                    "`block`: expected (blockM, blockN), got {} values",
                    block.len()
                )));
            };
            Encoding::TensorMemory(TensorMemory {
                block_m,
                block_n,
                col_stride: u32_of("col_stride", &p.req("col_stride")?)?,
                cga_layout: cga("cga_layout", p.take("cga_layout"))?,
                two_ctas: opt(p.take("two_ctas"), |v| boolean("two_ctas", &v))?.unwrap_or(false),
                fp4_padded: opt(p.take("fp4_padded"), |v| boolean("fp4_padded", &v))?
                    .unwrap_or(false),
            })
        }
        "TensorMemoryScalesLayout" => Encoding::TensorMemoryScales(TensorMemoryScales {
            cga_layout: cga("cga_layout", p.take("cga_layout"))?,
        }),
        _ => {
            return Err(LayoutError::Invalid(format!(
                "`{}` is not a Gluon layout class",
                excerpt(kind)
            )))
        }
    };
    p.finish()?;
    Ok(e)
}

/// Builds the encoding of Gluon class `kind` (`BlockedLayout`, …) from a constructor call's positional and
/// keyword arguments, with Gluon's defaults and Gluon's argument order: the Python package's layout classes
/// are constructed through this, so they take exactly the arguments the text form takes.
pub fn build_encoding(
    kind: &str,
    positional: Vec<Val>,
    keywords: Vec<(String, Val)>,
) -> Result<Encoding> {
    let Some(names) = fields(kind) else {
        return Err(LayoutError::Invalid(format!(
            "`{}` is not a Gluon layout class",
            excerpt(kind)
        )));
    };
    if positional.len() > names.len() {
        return Err(LayoutError::Invalid(format!(
            "{kind} takes at most {} arguments, got {}",
            names.len(),
            positional.len()
        )));
    }
    let mut items: Vec<(String, Val)> = names
        .iter()
        .zip(positional)
        .map(|(k, v)| ((*k).to_string(), v))
        .collect();
    items.extend(keywords);
    build(kind, items).map_err(|e| match e {
        LayoutError::Invalid(m) => LayoutError::Invalid(format!("{kind}: {m}")),
        e => e,
    })
}

/// The Gluon constructor arguments of an encoding by name, every field with defaults filled in (what
/// [`print_encoding`] writes, and the attributes of Gluon's Python object). `None` for a layout Gluon has no
/// class for (`#ttg.amd_rotating_shared`).
pub fn arguments(e: &Encoding) -> Option<Vec<(String, Val)>> {
    if matches!(e, Encoding::AmdRotatingShared(_)) {
        return None;
    }
    let text = print_encoding(e);
    let mut p = Parser {
        lx: Lexer::new(&text, "gluon").ok()?,
        depth: 0,
    };
    p.call_items().ok().map(|(_, items, _)| items)
}

/// The Gluon layout class names (`BlockedLayout`, …) [`build_encoding`] knows.
pub const CLASSES: [&str; 11] = [
    "BlockedLayout",
    "SliceLayout",
    "NVMMADistributedLayout",
    "DotOperandLayout",
    "AMDMFMALayout",
    "AMDWMMALayout",
    "DistributedLinearLayout",
    "SwizzledSharedLayout",
    "NVMMASharedLayout",
    "PaddedSharedLayout",
    "SharedLinearLayout",
];

/// Parses Gluon constructor text such as `BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])`.
pub fn parse_encoding(text: &str) -> Result<Encoding> {
    let mut p = Parser {
        lx: Lexer::new(text, "gluon")?,
        depth: 0,
    };
    let e = p.call()?;
    if !p.lx.at_end() {
        return Err(p.lx.err("unexpected text after the layout"));
    }
    Ok(e)
}
