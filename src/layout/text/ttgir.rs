//! TTGIR attribute text, exactly as Triton 3.9 prints it: `#ttg.blocked<{sizePerThread = [1, 4], …}>`,
//! nested parents, `#ttg.linear<{register = …}>`, shared encodings; alias definitions (`#blocked = …`)
//! and the `tensor<…>` / `!ttg.memdesc<…>` types of a TTGIR file.

use std::collections::HashMap;
use std::sync::Arc;

use crate::layout::encoding::{
    AmdMfma, AmdRotatingShared, AmdWmma, Blocked, CgaLayout, DistributedLinear, DotOperand,
    Encoding, NvidiaMma, NvmmaShared, PaddedShared, PartitionedShared, SharedLinear, Slice,
    SwizzledShared, TensorMemory, TensorMemoryScales,
};
use crate::layout::error::{excerpt, excerpt_with};
use crate::layout::{Bases, LayoutError, Result};

use super::lex::{describe, Lexer, Tok};
use super::value::{
    bases, boolean, cga, encoding, fmt_bases, fmt_list, u32_list, u32_of, u64_list, Params, Val,
};

/// Aliases (`#blocked` → its encoding) available while parsing.
pub type Aliases = HashMap<String, Encoding>;

// ----- printing ---------------------------------------------------------------------------------------------

fn cga_field(c: &CgaLayout) -> String {
    if c.is_single() {
        String::new()
    } else {
        format!(", CGALayout = {}", fmt_bases(&c.bases))
    }
}

/// The CGA layout of an attribute: `CGALayout = [[…]]` (Triton 3.6 on), or the `CTAsPerCGA`, `CTASplitNum`,
/// `CTAOrder` triple Triton 3.5 and earlier print, turned into block bases as Triton's
/// `CGAEncodingAttr::fromSplitParams` (Dialect.cpp) does: along each dim in `CTAOrder`, the CTAs that split
/// it (one basis per halving), then the ones that repeat it (zero bases). With the triple, its rank.
fn cga_param(p: &mut Params) -> Result<(CgaLayout, Option<usize>)> {
    let current = p.take("CGALayout");
    let per_cga = p.take("CTAsPerCGA");
    let split = p.take("CTASplitNum");
    let order = p.take("CTAOrder");
    if per_cga.is_none() && split.is_none() && order.is_none() {
        return Ok((cga("CGALayout", current)?, None));
    }
    if current.is_some() {
        return Err(LayoutError::Invalid(
            "`CGALayout`: give it or Triton 3.5's `CTAsPerCGA`, `CTASplitNum`, `CTAOrder`, not both".into(),
        ));
    }
    let need = |key: &str, v: Option<Val>| -> Result<Vec<u32>> {
        let v = v.ok_or_else(|| {
            LayoutError::Invalid(format!(
                "`{key}`: missing (`CTAsPerCGA`, `CTASplitNum` and `CTAOrder` come together)"
            ))
        })?;
        u32_list(key, &v)
    };
    let per_cga = need("CTAsPerCGA", per_cga)?;
    let split = need("CTASplitNum", split)?;
    let order = need("CTAOrder", order)?;
    let rank = order.len();
    if per_cga.len() != rank || split.len() != rank {
        return Err(LayoutError::Invalid(format!(
            "`CTAsPerCGA`: `CTAsPerCGA` ({}), `CTASplitNum` ({}) and `CTAOrder` ({rank}) must have one entry per dim",
            per_cga.len(),
            split.len()
        )));
    }
    crate::layout::encoding::check_order("CTAOrder", &order)?;
    let mut bases: Bases = Vec::new();
    for &d in &order {
        let (total, s) = (per_cga[d as usize], split[d as usize]);
        if !total.is_power_of_two() || !s.is_power_of_two() || total % s != 0 {
            return Err(LayoutError::Invalid(format!(
                "`CTASplitNum`: dim {d} has {total} CTAs split {s} ways; both must be powers of two and the split must divide the CTAs"
            )));
        }
        let unit = |v: u64| -> Vec<u64> {
            (0..rank)
                .map(|i| if i == d as usize { v } else { 0 })
                .collect()
        };
        bases.extend((0..s.trailing_zeros()).map(|i| unit(1 << i)));
        bases.extend((0..(total / s).trailing_zeros()).map(|_| unit(0)));
    }
    Ok((CgaLayout::new(bases), Some(rank)))
}

/// The TTGIR text of an encoding, parents inline, as Triton 3.9 prints it.
pub fn print_encoding(e: &Encoding) -> String {
    match e {
        Encoding::Blocked(b) => format!(
            "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}{}}}>",
            fmt_list(&b.size_per_thread),
            fmt_list(&b.threads_per_warp),
            fmt_list(&b.warps_per_cta),
            fmt_list(&b.order),
            cga_field(&b.cga_layout)
        ),
        Encoding::Slice(s) => format!(
            "#ttg.slice<{{dim = {}, parent = {}}}>",
            s.dim,
            print_encoding(&s.parent)
        ),
        Encoding::NvidiaMma(m) => format!(
            "#ttg.nvidia_mma<{{versionMajor = {}, versionMinor = {}, warpsPerCTA = {}{}, instrShape = {}}}>",
            m.version[0],
            m.version[1],
            fmt_list(&m.warps_per_cta),
            cga_field(&m.cga_layout),
            fmt_list(&m.instr_shape)
        ),
        Encoding::DotOperand(d) => {
            let kw = if d.k_width == 0 {
                String::new()
            } else {
                format!(", kWidth = {}", d.k_width)
            };
            format!(
                "#ttg.dot_op<{{opIdx = {}, parent = {}{kw}}}>",
                d.op_idx,
                print_encoding(&d.parent)
            )
        }
        Encoding::AmdMfma(m) => {
            let mut s = format!(
                "#ttg.amd_mfma<{{version = {}, warpsPerCTA = {}, instrShape = {}, isTransposed = {}{}",
                m.version,
                fmt_list(&m.warps_per_cta),
                fmt_list(match m.instr_shape.as_slice() {
                    [mn @ .., 0] if mn.len() == 2 => mn,
                    all => all,
                }),
                m.transposed,
                cga_field(&m.cga_layout)
            );
            if m.tiles_per_warp.iter().any(|&t| t != 1) {
                s += &format!(", tilesPerWarp = {}", fmt_list(&m.tiles_per_warp));
            }
            if m.element_bitwidth != 32 {
                s += &format!(", elementBitWidth = {}", m.element_bitwidth);
            }
            s + "}>"
        }
        Encoding::AmdWmma(m) => {
            let mut cta = Vec::new();
            if !m.reg_bases.is_empty() {
                cta.push(format!("register = {}", fmt_bases(&m.reg_bases)));
            }
            cta.push(format!("warp = {}", fmt_bases(&m.warp_bases)));
            let instr = if m.instr_shape == [16, 16, 16] {
                String::new()
            } else {
                format!(", instrShape = {}", fmt_list(&m.instr_shape))
            };
            format!(
                "#ttg.amd_wmma<{{version = {}, isTranspose = {}, ctaLayout = {{{}}}{}{instr}}}>",
                m.version,
                m.transposed,
                cta.join(", "),
                cga_field(&m.cga_layout)
            )
        }
        Encoding::Linear(l) => format!(
            "#ttg.{}<{{register = {}, lane = {}, warp = {}, block = {}}}>",
            if l.is_permutation() { "linear" } else { "generic_linear" },
            fmt_bases(&l.reg_bases),
            fmt_bases(&l.lane_bases),
            fmt_bases(&l.warp_bases),
            fmt_bases(&l.block_bases)
        ),
        Encoding::SwizzledShared(s) => format!(
            "#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = {}{}}}>",
            s.vec,
            s.per_phase,
            s.max_phase,
            fmt_list(&s.order),
            cga_field(&s.cga_layout)
        ),
        Encoding::AmdRotatingShared(s) => print_encoding(&Encoding::SwizzledShared(s.0.clone()))
            .replacen("#ttg.swizzled_shared", "#ttg.amd_rotating_shared", 1),
        Encoding::NvmmaShared(s) => {
            let mut t = format!(
                "#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = {}, elementBitWidth = {}",
                s.swizzle_byte_width, s.transposed, s.element_bitwidth
            );
            if s.fp4_padded {
                t += ", fp4Padded = true";
            }
            if !s.cga_layout.is_single() {
                t += &cga_field(&s.cga_layout);
            } else if s.rank != 2 {
                t += &format!(", rank = {}", s.rank);
            }
            t + "}>"
        }
        Encoding::PaddedShared(p) => {
            let pairs: Vec<String> = p
                .interval_padding_pairs
                .iter()
                .map(|(i, q)| format!("{i}:+{q}"))
                .collect();
            let body = match p.identity_order() {
                Some(order) => format!(
                    "order = {}, shape = {}",
                    fmt_list(&order),
                    fmt_list(&p.shape)
                ),
                None => format!(
                    "offset = {}, block = {}",
                    fmt_bases(&p.offset_bases),
                    fmt_bases(&p.cga_layout.bases)
                ),
            };
            format!("#ttg.padded_shared<[{}] {{{body}}}>", pairs.join(", "))
        }
        Encoding::SharedLinear(s) => {
            let block = if s.block_bases.is_empty() {
                String::new()
            } else {
                format!(", block = {}", fmt_bases(&s.block_bases))
            };
            format!(
                "#ttg.shared_linear<{{offset = {}{block}}}, alignment = {}>",
                fmt_bases(&s.offset_bases),
                s.alignment
            )
        }
        Encoding::PartitionedShared(p) => format!(
            "#ttg.partitioned_shared<{{numPartitions = {}, numGroups = {}, partitionDim = {}, partitionLayout = {}}}>",
            p.num_partitions,
            p.num_groups,
            p.partition_dim,
            print_encoding(&p.partition_layout)
        ),
        Encoding::TensorMemory(t) => {
            let mut s = format!(
                "#ttng.tensor_memory_encoding<blockM = {}, blockN = {}, colStride = {}{}",
                t.block_m,
                t.block_n,
                t.col_stride,
                cga_field(&t.cga_layout)
            );
            if t.two_ctas {
                s += ", twoCTAs = true";
            }
            if t.fp4_padded {
                s += ", fp4Padded = true";
            }
            s + ">"
        }
        Encoding::TensorMemoryScales(t) => format!(
            "#ttng.tensor_memory_scales_encoding<{}>",
            cga_field(&t.cga_layout).trim_start_matches(", ")
        ),
    }
}

// ----- parsing ----------------------------------------------------------------------------------------------

struct Parser<'a> {
    lx: Lexer,
    aliases: &'a Aliases,
    depth: usize,
}

const MAX_DEPTH: usize = 32;

/// The number of layouts nested in `e` (1 for a layout without a parent), counted up to `cap`.
fn nesting(e: &Encoding, cap: usize) -> usize {
    let mut n = 1;
    let mut e = e;
    while n < cap {
        match e {
            Encoding::Slice(s) => e = &s.parent,
            Encoding::DotOperand(d) => e = &d.parent,
            Encoding::PartitionedShared(p) => e = &p.partition_layout,
            _ => break,
        }
        n += 1;
    }
    n
}

impl Parser<'_> {
    fn value(&mut self) -> Result<Val> {
        match self.lx.peek() {
            Some(Tok::Int(_)) => Ok(Val::Int(self.lx.int()?)),
            Some(Tok::Ident(s)) if s == "true" || s == "false" => {
                let b = s == "true";
                self.lx.next();
                Ok(Val::Bool(b))
            }
            Some(Tok::Punct('[')) => {
                self.enter()?;
                self.lx.next();
                let mut xs = Vec::new();
                if !self.lx.eat(']') {
                    loop {
                        xs.push(self.value()?);
                        if self.lx.eat(']') {
                            break;
                        }
                        self.lx.expect(',')?;
                    }
                }
                self.depth -= 1;
                Ok(Val::List(xs))
            }
            Some(Tok::Punct('{')) => Ok(Val::Dict(self.dict()?)),
            Some(Tok::Punct('#')) => Ok(Val::Enc(Arc::new(self.attr()?))),
            other => Err(self
                .lx
                .err(format!("expected a value, found {}", describe(other)))),
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.lx.err("nesting too deep"));
        }
        Ok(())
    }

    fn dict(&mut self) -> Result<Vec<(String, Val)>> {
        self.enter()?;
        self.lx.expect('{')?;
        let mut items = Vec::new();
        if !self.lx.eat('}') {
            loop {
                let k = self.lx.ident()?;
                self.lx.expect('=')?;
                items.push((k, self.value()?));
                if self.lx.eat('}') {
                    break;
                }
                self.lx.expect(',')?;
            }
        }
        self.depth -= 1;
        Ok(items)
    }

    /// `key = value, …` up to and through `close` (the parameters of a `#ttng.` attribute, which have no
    /// braces).
    fn bare_params(&mut self, close: char) -> Result<Vec<(String, Val)>> {
        let mut items = Vec::new();
        if !self.lx.eat(close) {
            loop {
                let k = self.lx.ident()?;
                self.lx.expect('=')?;
                items.push((k, self.value()?));
                if self.lx.eat(close) {
                    break;
                }
                self.lx.expect(',')?;
            }
        }
        Ok(items)
    }

    fn attr(&mut self) -> Result<Encoding> {
        self.enter()?;
        self.lx.expect('#')?;
        let name = self.lx.ident()?;
        if let Some(kind) = name.strip_prefix("ttng.") {
            let kind = kind.to_string();
            self.lx.expect('<')?;
            let at = self.lx.err_prev("");
            let items = self.bare_params('>')?;
            self.depth -= 1;
            return tensor_memory(&kind, items).map_err(|e| match (e, at) {
                (LayoutError::Invalid(m), LayoutError::Parse { line, column, .. }) => {
                    LayoutError::Parse {
                        format: "ttgir",
                        line,
                        column,
                        message: format!("#ttng.{}: {m}", excerpt(&kind)),
                    }
                }
                (e, _) => e,
            });
        }
        let Some(kind) = name.strip_prefix("ttg.") else {
            let enc = self.aliases.get(&name).ok_or_else(|| {
                self.lx
                    .err_prev(format!("unknown alias `#{}`", excerpt(&name)))
            })?;
            // An alias counts as deep as its definition written inline (an attribute and its dict per
            // layout), so chains of aliases meet the same nesting limit as inline parents.
            let levels = nesting(enc, MAX_DEPTH);
            if self.depth - 1 + 2 * levels > MAX_DEPTH {
                return Err(self.lx.err_prev(format!(
                    "nesting too deep: `#{}` nests layouts more than {} deep",
                    excerpt(&name),
                    MAX_DEPTH / 2
                )));
            }
            self.depth -= 1;
            // A shallow copy: parents are shared (`Arc`), not copied.
            return Ok(enc.clone());
        };
        let kind = kind.to_string();
        self.lx.expect('<')?;
        let at = self.lx.err_prev("");
        let enc = match kind.as_str() {
            "padded_shared" => {
                self.lx.expect('[')?;
                let mut pairs = Vec::new();
                loop {
                    let i = self.lx.int()?;
                    self.lx.expect(':')?;
                    self.lx.expect('+')?;
                    let p = self.lx.int()?;
                    pairs.push((
                        u32::try_from(i).map_err(|_| self.lx.err_prev("interval too large"))?,
                        u32::try_from(p).map_err(|_| self.lx.err_prev("padding too large"))?,
                    ));
                    if self.lx.eat(']') {
                        break;
                    }
                    self.lx.expect(',')?;
                }
                let d = self.dict()?;
                padded(pairs, d)
            }
            "shared_linear" => {
                let d = self.dict()?;
                self.lx.expect(',')?;
                let k = self.lx.ident()?;
                if k != "alignment" {
                    return Err(self
                        .lx
                        .err_prev(format!("expected `alignment`, found `{}`", excerpt(&k))));
                }
                self.lx.expect('=')?;
                let a = self.lx.int()?;
                shared_linear(d, a)
            }
            _ => {
                let d = self.dict()?;
                from_dict(&kind, d)
            }
        };
        self.lx.expect('>')?;
        self.depth -= 1;
        enc.map_err(|e| match (e, at) {
            (LayoutError::Invalid(m), LayoutError::Parse { line, column, .. }) => {
                LayoutError::Parse {
                    format: "ttgir",
                    line,
                    column,
                    message: format!("#ttg.{}: {m}", excerpt(&kind)),
                }
            }
            (e, _) => e,
        })
    }
}

fn padded(pairs: Vec<(u32, u32)>, d: Vec<(String, Val)>) -> Result<Encoding> {
    let mut p = Params::new("padded_shared", d)?;
    let enc = if let Some(order) = p.take("order") {
        let order = u32_list("order", &order)?;
        let shape = u64_list("shape", &p.req("shape")?)?;
        PaddedShared::with_identity_for(&pairs, &shape, &order)
    } else {
        let offset = bases("offset", &p.req("offset")?)?;
        let block = match p.take("block") {
            Some(v) => bases("block", &v)?,
            None => Vec::new(),
        };
        let rank = offset.first().or(block.first()).map_or(0, Vec::len);
        let mut shape = vec![1u64; rank];
        for b in &offset {
            for (s, &x) in shape.iter_mut().zip(b) {
                *s = (*s).max(
                    x.checked_add(1)
                        .and_then(u64::checked_next_power_of_two)
                        .unwrap_or(u64::MAX),
                );
            }
        }
        let mut full = shape.clone();
        for b in &block {
            for (s, &x) in full.iter_mut().zip(b) {
                *s = (*s).max(
                    x.checked_add(1)
                        .and_then(u64::checked_next_power_of_two)
                        .unwrap_or(u64::MAX),
                );
            }
        }
        PaddedShared {
            interval_padding_pairs: pairs,
            offset_bases: offset,
            cga_layout: CgaLayout::new(block),
            shape: full,
        }
    };
    p.finish()?;
    Ok(Encoding::PaddedShared(enc))
}

fn shared_linear(d: Vec<(String, Val)>, alignment: u64) -> Result<Encoding> {
    let mut p = Params::new("shared_linear", d)?;
    let offset = bases("offset", &p.req("offset")?)?;
    let block = match p.take("block") {
        Some(v) => bases("block", &v)?,
        None => Vec::new(),
    };
    p.finish()?;
    Ok(Encoding::SharedLinear(SharedLinear {
        offset_bases: offset,
        block_bases: block,
        alignment: u32::try_from(alignment)
            .map_err(|_| LayoutError::Invalid("`alignment`: too large".into()))?,
    }))
}

fn from_dict(kind: &str, d: Vec<(String, Val)>) -> Result<Encoding> {
    let mut p = Params::new(kind, d)?;
    let enc = match kind {
        "blocked" => Encoding::Blocked(Blocked {
            size_per_thread: u32_list("sizePerThread", &p.req("sizePerThread")?)?,
            threads_per_warp: u32_list("threadsPerWarp", &p.req("threadsPerWarp")?)?,
            warps_per_cta: u32_list("warpsPerCTA", &p.req("warpsPerCTA")?)?,
            order: u32_list("order", &p.req("order")?)?,
            cga_layout: cga_param(&mut p)?.0,
        }),
        "partitioned_shared" => Encoding::PartitionedShared(PartitionedShared {
            num_partitions: u32_of("numPartitions", &p.req("numPartitions")?)?,
            num_groups: u32_of("numGroups", &p.req("numGroups")?)?,
            partition_dim: u32_of("partitionDim", &p.req("partitionDim")?)?,
            partition_layout: encoding("partitionLayout", p.req("partitionLayout")?)?,
        }),
        "slice" => Encoding::Slice(Slice {
            dim: u32_of("dim", &p.req("dim")?)?,
            parent: encoding("parent", p.req("parent")?)?,
        }),
        "dot_op" => Encoding::DotOperand(DotOperand {
            op_idx: u32_of("opIdx", &p.req("opIdx")?)?,
            parent: encoding("parent", p.req("parent")?)?,
            k_width: match p.take("kWidth") {
                Some(v) => u32_of("kWidth", &v)?,
                None => 0,
            },
        }),
        "nvidia_mma" => Encoding::NvidiaMma(NvidiaMma {
            version: [
                u32_of("versionMajor", &p.req("versionMajor")?)?,
                u32_of("versionMinor", &p.req("versionMinor")?)?,
            ],
            warps_per_cta: u32_list("warpsPerCTA", &p.req("warpsPerCTA")?)?,
            cga_layout: cga_param(&mut p)?.0,
            instr_shape: u32_list("instrShape", &p.req("instrShape")?)?,
        }),
        "amd_mfma" => {
            let warps = u32_list("warpsPerCTA", &p.req("warpsPerCTA")?)?;
            // Triton 3.5 printed `instrShape = [M, N]`; its K (read by no layout) is kept as 0.
            let mut instr_shape = u32_list("instrShape", &p.req("instrShape")?)?;
            if instr_shape.len() == 2 {
                instr_shape.push(0);
            }
            Encoding::AmdMfma(AmdMfma {
                version: u32_of("version", &p.req("version")?)?,
                instr_shape,
                transposed: boolean("isTransposed", &p.req("isTransposed")?)?,
                element_bitwidth: match p.take("elementBitWidth") {
                    Some(v) => u32_of("elementBitWidth", &v)?,
                    None => 32,
                },
                tiles_per_warp: match p.take("tilesPerWarp") {
                    Some(v) => u32_list("tilesPerWarp", &v)?,
                    None => vec![1; warps.len()],
                },
                cga_layout: cga_param(&mut p)?.0,
                warps_per_cta: warps,
            })
        }
        "amd_wmma" => {
            let Val::Dict(cta) = p.req("ctaLayout")? else {
                return Err(LayoutError::Invalid(
                    "`ctaLayout`: expected `{register = …, warp = …}`".into(),
                ));
            };
            let mut c = Params::new("ctaLayout", cta)?;
            let warp = match c.take("warp") {
                Some(v) => bases("warp", &v)?,
                None => Vec::new(),
            };
            let reg = match c.take("register") {
                Some(v) => bases("register", &v)?,
                None => Vec::new(),
            };
            c.finish()?;
            let rank = warp.first().or(reg.first()).map_or(2, Vec::len);
            Encoding::AmdWmma(AmdWmma {
                version: u32_of("version", &p.req("version")?)?,
                transposed: boolean("isTranspose", &p.req("isTranspose")?)?,
                warp_bases: warp,
                reg_bases: reg,
                cga_layout: cga_param(&mut p)?.0,
                instr_shape: match p.take("instrShape") {
                    Some(v) => u32_list("instrShape", &v)?,
                    None => vec![16, 16, 16],
                },
                rank,
            })
        }
        "linear" | "generic_linear" => {
            let mut get = |k: &str| -> Result<crate::layout::Bases> {
                match p.take(k) {
                    Some(v) => bases(k, &v),
                    None => Ok(Vec::new()),
                }
            };
            let reg = get("register")?;
            let lane = get("lane")?;
            let warp = get("warp")?;
            let block = get("block")?;
            let rank = [&reg, &lane, &warp, &block]
                .iter()
                .find_map(|b| b.first().map(Vec::len))
                .unwrap_or(1);
            let mut shape = vec![1u64; rank];
            for b in [&reg, &lane, &warp, &block].into_iter().flatten() {
                for (s, &x) in shape.iter_mut().zip(b) {
                    if x != 0 {
                        *s = (*s).max(
                            x.checked_add(1)
                                .and_then(u64::checked_next_power_of_two)
                                .unwrap_or(u64::MAX),
                        );
                    }
                }
            }
            Encoding::Linear(DistributedLinear {
                reg_bases: reg,
                lane_bases: lane,
                warp_bases: warp,
                block_bases: block,
                shape,
            })
        }
        "swizzled_shared" | "amd_rotating_shared" => {
            let s = SwizzledShared {
                vec: u32_of("vec", &p.req("vec")?)?,
                per_phase: u32_of("perPhase", &p.req("perPhase")?)?,
                max_phase: u32_of("maxPhase", &p.req("maxPhase")?)?,
                order: u32_list("order", &p.req("order")?)?,
                cga_layout: cga_param(&mut p)?.0,
            };
            if kind == "swizzled_shared" {
                Encoding::SwizzledShared(s)
            } else {
                Encoding::AmdRotatingShared(AmdRotatingShared(s))
            }
        }
        "nvmma_shared" => {
            let (cga_layout, legacy_rank) = cga_param(&mut p)?;
            let rank = match p.take("rank") {
                Some(v) => u32_of("rank", &v)? as usize,
                None => legacy_rank
                    .or(cga_layout.bases.first().map(Vec::len))
                    .unwrap_or(2),
            };
            Encoding::NvmmaShared(NvmmaShared {
                swizzle_byte_width: u32_of("swizzlingByteWidth", &p.req("swizzlingByteWidth")?)?,
                transposed: boolean("transposed", &p.req("transposed")?)?,
                element_bitwidth: u32_of("elementBitWidth", &p.req("elementBitWidth")?)?,
                fp4_padded: match p.take("fp4Padded") {
                    Some(v) => boolean("fp4Padded", &v)?,
                    None => false,
                },
                rank,
                cga_layout,
            })
        }
        other => {
            return Err(LayoutError::Invalid(format!(
                "`#ttg.{}`: not a layout encoding weft knows",
                excerpt(other)
            )))
        }
    };
    p.finish()?;
    Ok(enc)
}

/// `#ttng.tensor_memory_encoding<…>` / `#ttng.tensor_memory_scales_encoding<…>` from their parameters.
fn tensor_memory(kind: &str, d: Vec<(String, Val)>) -> Result<Encoding> {
    let mut p = Params::new(kind, d)?;
    let flag = |p: &mut Params, k: &str| -> Result<bool> {
        p.take(k).map_or(Ok(false), |v| boolean(k, &v))
    };
    let enc = match kind {
        "tensor_memory_encoding" => Encoding::TensorMemory(TensorMemory {
            block_m: u32_of("blockM", &p.req("blockM")?)?,
            block_n: u32_of("blockN", &p.req("blockN")?)?,
            col_stride: u32_of("colStride", &p.req("colStride")?)?,
            cga_layout: cga("CGALayout", p.take("CGALayout"))?,
            two_ctas: flag(&mut p, "twoCTAs")?,
            fp4_padded: flag(&mut p, "fp4Padded")?,
        }),
        "tensor_memory_scales_encoding" => Encoding::TensorMemoryScales(TensorMemoryScales {
            cga_layout: cga("CGALayout", p.take("CGALayout"))?,
        }),
        other => {
            return Err(LayoutError::Invalid(format!(
                "`#ttng.{}`: not a layout encoding weft knows",
                excerpt(other)
            )))
        }
    };
    p.finish()?;
    Ok(enc)
}

/// Parses one attribute (`#ttg.…<…>`, parents inline).
pub fn parse_encoding(text: &str) -> Result<Encoding> {
    parse_encoding_with(text, &Aliases::new())
}

/// Parses one attribute whose parents may name `aliases` (`parent = #blocked`).
pub fn parse_encoding_with(text: &str, aliases: &Aliases) -> Result<Encoding> {
    let mut p = Parser {
        lx: Lexer::new(text, "ttgir")?,
        aliases,
        depth: 0,
    };
    let e = p.attr()?;
    if !p.lx.at_end() {
        return Err(p.lx.err("unexpected text after the attribute"));
    }
    Ok(e)
}

// ----- types and files --------------------------------------------------------------------------------------

/// A `tensor<…>` or `!ttg.memdesc<…>` type with a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorType {
    /// True for `!ttg.memdesc` (shared memory), false for `tensor`.
    pub memdesc: bool,
    /// The shape.
    pub shape: Vec<u64>,
    /// The element type text (`f16`, `!tt.ptr<f16>`, …).
    pub element: String,
    /// The layout.
    pub encoding: Encoding,
    /// The alias the type used, if any (`#blocked`).
    pub alias: Option<String>,
}

/// Parses a type such as `tensor<64x64xf32, #ttg.blocked<{…}>>` or
/// `!ttg.memdesc<64x64xf16, #shared, #smem, mutable>`.
pub fn parse_type(text: &str, aliases: &Aliases) -> Result<TensorType> {
    let t = text.trim();
    let (memdesc, rest) = if let Some(r) = t.strip_prefix("tensor<") {
        (false, r)
    } else if let Some(r) = t.strip_prefix("!ttg.memdesc<") {
        (true, r)
    } else {
        return Err(LayoutError::Parse {
            format: "ttgir",
            line: 1,
            column: 1,
            message: "expected `tensor<` or `!ttg.memdesc<`".into(),
        });
    };
    let offset = t.len() - rest.len();
    let (ty, _) = parse_type_body(memdesc, rest, aliases).map_err(|e| shift_column(e, offset))?;
    Ok(ty)
}

fn shift_column(e: LayoutError, by: usize) -> LayoutError {
    match e {
        LayoutError::Parse {
            format,
            line: 1,
            column,
            message,
        } => LayoutError::Parse {
            format,
            line: 1,
            column: column + by,
            message,
        },
        e => e,
    }
}

/// Parses `SHAPE x ELEM, ATTR …>` and returns the type and the bytes consumed (through the closing `>`).
fn parse_type_body(memdesc: bool, s: &str, aliases: &Aliases) -> Result<(TensorType, usize)> {
    let perr = |col: usize, m: &str| LayoutError::Parse {
        format: "ttgir",
        line: 1,
        column: col + 1,
        message: m.into(),
    };
    let b = s.as_bytes();
    let mut i = 0;
    let mut shape = Vec::new();
    loop {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start || i >= b.len() || b[i] != b'x' {
            i = start;
            break;
        }
        shape.push(
            s[start..i]
                .parse::<u64>()
                .map_err(|_| perr(start, "bad extent"))?,
        );
        i += 1;
    }
    // Element type: up to the first `,` at bracket depth 0, and short (so a line of unterminated types costs
    // a bounded scan per type).
    let start = i;
    let mut depth = 0i32;
    while i < b.len() && i - start <= MAX_ELEMENT_CHARS {
        match b[i] {
            b'<' => depth += 1,
            b'>' if depth == 0 => break,
            b'>' => depth -= 1,
            b',' if depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    let element = s[start..i].trim().to_string();
    if i >= b.len() || b[i] != b',' {
        return Err(perr(i, "expected `, #layout` after the element type"));
    }
    i += 1;
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    // The attribute: `#name` or `#ttg.kind<…>` with balanced brackets.
    let astart = i;
    if i >= b.len() || b[i] != b'#' {
        return Err(perr(i, "expected a layout attribute"));
    }
    i += 1;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
        i += 1;
    }
    if i < b.len() && b[i] == b'<' {
        let mut depth = 0;
        while i < b.len() {
            match b[i] {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    let attr = &s[astart..i];
    let alias = (!attr.contains('<')).then(|| attr.trim_start_matches('#').to_string());
    let encoding = parse_encoding_with(attr, aliases).map_err(|e| shift_column(e, astart))?;
    let encoding = with_rank_of(encoding, shape.len());
    // Skip the rest of the type (memdesc memory space, `mutable`, …) to the closing `>`.
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'<' => depth += 1,
            b'>' if depth == 0 => {
                i += 1;
                break;
            }
            b'>' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    Ok((
        TensorType {
            memdesc,
            shape,
            element,
            encoding,
            alias,
        },
        i,
    ))
}

/// The longest element type a `tensor<…>` / `!ttg.memdesc<…>` type is read with (`!tt.ptr<f16>`, `f8E4M3FN`).
const MAX_ELEMENT_CHARS: usize = 256;

/// `enc` with the rank a tensor of rank `rank` gives it where its text carries none: Triton prints a WMMA
/// layout without bases as `ctaLayout = {}`, dropping its rank (rank 3 for batched dots), which the type's
/// shape restores; through slices (parent one rank higher) and dot operands (same rank) too.
pub fn with_rank_of(enc: Encoding, rank: usize) -> Encoding {
    match enc {
        Encoding::AmdWmma(mut w)
            if w.rank != rank
                && w.warp_bases.is_empty()
                && w.reg_bases.is_empty()
                && w.cga_layout.bases.is_empty() =>
        {
            w.rank = rank;
            Encoding::AmdWmma(w)
        }
        Encoding::Slice(s) if rank < crate::layout::encoding::MAX_RANK && needs_rank(&s.parent) => {
            Encoding::Slice(Slice {
                dim: s.dim,
                parent: Arc::new(with_rank_of((*s.parent).clone(), rank + 1)),
            })
        }
        Encoding::DotOperand(d) if needs_rank(&d.parent) => Encoding::DotOperand(DotOperand {
            op_idx: d.op_idx,
            parent: Arc::new(with_rank_of((*d.parent).clone(), rank)),
            k_width: d.k_width,
        }),
        e => e,
    }
}

/// Whether `enc` (or a parent) is a WMMA layout whose text carried no rank.
fn needs_rank(enc: &Encoding) -> bool {
    match enc {
        Encoding::AmdWmma(w) => {
            w.warp_bases.is_empty() && w.reg_bases.is_empty() && w.cga_layout.bases.is_empty()
        }
        Encoding::Slice(s) => needs_rank(&s.parent),
        Encoding::DotOperand(d) => needs_rank(&d.parent),
        _ => false,
    }
}

/// Prints a type back (`tensor<64x64xf32, #ttg.blocked<…>>`; memdesc with `#ttg.shared_memory, mutable`).
pub fn print_type(t: &TensorType) -> String {
    let dims: String = t.shape.iter().map(|d| format!("{d}x")).collect();
    if t.memdesc {
        format!(
            "!ttg.memdesc<{dims}{}, {}, #ttg.shared_memory, mutable>",
            t.element,
            print_encoding(&t.encoding)
        )
    } else {
        format!(
            "tensor<{dims}{}, {}>",
            t.element,
            print_encoding(&t.encoding)
        )
    }
}

/// The layouts of a TTGIR file: its alias definitions and every typed use.
#[derive(Clone, Debug, Default)]
pub struct TtgirFile {
    /// Layout aliases in definition order (`blocked` → encoding).
    pub aliases: Vec<(String, Encoding)>,
    /// Aliases that are not layouts weft knows (`#shared1 = #ttg.partitioned_shared<…>`), with the line of
    /// their definition and the reason (`line 3: …`).
    /// Aliases defined through one of them, and types that use one, are skipped too. Locations
    /// (`#loc3 = loc(…)`) and memory spaces (`#smem = #ttg.shared_memory`) are not layouts and are not listed.
    pub skipped: Vec<(String, String)>,
    /// Aliases of a layout kind weft reads whose text it rejects (bad parameters, nesting too deep), with the
    /// line of their definition and the error (`line 3: …`); aliases and types using them are skipped.
    pub rejected: Vec<(String, String)>,
    /// Tensor-memory layouts (`#tmem = #ttng.tensor_memory_encoding<…>`, `…_scales_encoding<…>`): known
    /// layouts of Blackwell's tensor memory, which this parser does not lay out; with their definition text.
    /// Types that use one are passed over.
    pub tensor_memory: Vec<(String, String)>,
    /// Every `tensor<…>` / `!ttg.memdesc<…>` type in the file, in order.
    pub types: Vec<TensorType>,
}

impl TtgirFile {
    /// The distinct shapes an alias is used with, in order of first use (one pass over the types: for every
    /// alias at once, use [`TtgirFile::shapes_by_alias`]).
    pub fn shapes_of(&self, alias: &str) -> Vec<Vec<u64>> {
        let mut seen = std::collections::HashSet::new();
        self.types
            .iter()
            .filter(|t| t.alias.as_deref() == Some(alias) && seen.insert(&t.shape))
            .map(|t| t.shape.clone())
            .collect()
    }

    /// The distinct shapes of every alias, in order of first use, from one pass over the types.
    pub fn shapes_by_alias(&self) -> HashMap<&str, Vec<Vec<u64>>> {
        let mut seen = std::collections::HashSet::new();
        let mut out: HashMap<&str, Vec<Vec<u64>>> = HashMap::new();
        for t in &self.types {
            if let Some(a) = t.alias.as_deref() {
                if seen.insert((a, &t.shape)) {
                    out.entry(a).or_default().push(t.shape.clone());
                }
            }
        }
        out
    }
}

/// The layout a file listing gives an encoding used with `shape`, with the shape it is laid out for: a
/// multi-buffered shared or tensor-memory allocation (`3x64x32` for a rank-2 encoding, `3x1` mbarriers for a
/// rank-1 one) is laid out per buffer (Triton applies the encoding to the trailing dims); a WMMA layout without a printed rank
/// takes the shape's; the layout is the compiler's ([`Encoding::tensor_layout`]: a one-element buffer has an
/// offset of size 1, where Gluon's Python wrapper asserts); a padded shared layout gives its linear component
/// (padding is not linear: [`crate::layout::encoding::PaddedShared::interval_padding_pairs`] tells it).
pub fn listed_layout(
    enc: &Encoding,
    shape: &[u64],
) -> Result<(Vec<u64>, crate::layout::LinearLayout)> {
    let rank = enc.rank().unwrap_or(shape.len());
    let per = if (enc.is_shared() || enc.is_tensor_memory()) && shape.len() > rank {
        shape[shape.len() - rank..].to_vec()
    } else {
        shape.to_vec()
    };
    let ll = match with_rank_of(enc.clone(), per.len()) {
        Encoding::PaddedShared(p) => p.linear_component()?,
        e => e.tensor_layout(&per)?,
    };
    Ok((per, ll))
}

/// What an alias definition that is not a layout weft reads is.
enum NotALayout {
    /// A location (`loc(…)`) or a memory space (`#ttg.shared_memory`, `#ttng.tensor_memory`): not listed.
    Ignored,
    /// A tensor-memory layout.
    TensorMemory,
    /// Anything else: listed as skipped, with the reason.
    Other,
}

fn not_a_layout(def: &str) -> NotALayout {
    if def.starts_with("loc(") || def == "#ttg.shared_memory" || def == "#ttng.tensor_memory" {
        NotALayout::Ignored
    } else if def.starts_with("#ttng.tensor_memory_encoding<")
        || def.starts_with("#ttng.tensor_memory_scales_encoding<")
    {
        NotALayout::TensorMemory
    } else {
        NotALayout::Other
    }
}

/// Reads the alias definitions (`#name = #ttg.…`) and layout-carrying types of a TTGIR dump, in time linear
/// in its length. An alias defined twice is an error, as in MLIR; an alias that is not a layout weft reads is
/// listed in [`TtgirFile::skipped`] (or [`TtgirFile::tensor_memory`]) and the rest of the file still read.
pub fn parse_file(text: &str) -> Result<TtgirFile> {
    let mut file = TtgirFile::default();
    let mut map = Aliases::new();
    // The line of every alias definition (layouts or not), for redefinitions.
    let mut defined: HashMap<String, usize> = HashMap::new();
    // Names of skipped aliases, with the line of their definition.
    let mut skipped: HashMap<String, usize> = HashMap::new();
    for (ln, line) in text.lines().enumerate() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix('#') {
            if let Some((name, def)) = rest.split_once(" = ") {
                let name = name.trim().to_string();
                let def = def.trim();
                if let Some(first) = defined.get(&name) {
                    return Err(LayoutError::Parse {
                        format: "ttgir",
                        line: ln + 1,
                        column: line.len() - line.trim_start().len() + 1,
                        message: format!(
                            "redefinition of alias `#{}` (first defined at line {first})",
                            excerpt(&name)
                        ),
                    });
                }
                defined.insert(name.clone(), ln + 1);
                match parse_encoding_with(def, &map) {
                    Ok(e) => {
                        map.insert(name.clone(), e.clone());
                        file.aliases.push((name, e));
                    }
                    Err(e) => {
                        let reason = match uses_skipped(&e, &skipped) {
                            Some((used, at)) => {
                                format!("line {}: uses `#{used}`, skipped at line {at}", ln + 1)
                            }
                            None => match not_a_layout(def) {
                                NotALayout::Ignored => continue,
                                NotALayout::TensorMemory => {
                                    skipped.insert(name.clone(), ln + 1);
                                    file.tensor_memory.push((name, excerpt_with(def, 200)));
                                    continue;
                                }
                                NotALayout::Other => {
                                    let known = def.starts_with("#ttg.")
                                        && from_dict_kinds()
                                            .iter()
                                            .any(|k| def[5..].starts_with(k));
                                    if known {
                                        skipped.insert(name.clone(), ln + 1);
                                        file.rejected.push((name, format!("line {}: {e}", ln + 1)));
                                        continue;
                                    } else {
                                        format!("line {}: not a layout weft knows: {e}", ln + 1)
                                    }
                                }
                            },
                        };
                        skipped.insert(name.clone(), ln + 1);
                        file.skipped.push((name, reason));
                    }
                }
                continue;
            }
        }
        read_types(line, ln, &map, &skipped, &mut file.types)?;
    }
    Ok(file)
}

/// The `tensor<…>` / `!ttg.memdesc<…>` types of one line, appended to `types`. Each type is read within its
/// own brackets (matched once for the whole line), and a type that is passed over is passed over whole, so
/// a line costs time linear in its length however many types it nests or leaves open.
fn read_types(
    line: &str,
    ln: usize,
    map: &Aliases,
    skipped: &HashMap<String, usize>,
    types: &mut Vec<TensorType>,
) -> Result<()> {
    let b = line.as_bytes();
    if !line.contains("tensor<") && !line.contains("!ttg.memdesc<") {
        return Ok(());
    }
    let close = closing_brackets(b);
    // The next occurrence of each keyword at or after `search` (`None`: there is none), found again only
    // once passed, so each keyword is searched for once over the line.
    let next = |from: usize, key: &str| line[from..].find(key).map(|p| p + from);
    let (mut next_tensor, mut next_memdesc) = (next(0, "tensor<"), next(0, "!ttg.memdesc<"));
    let mut search = 0;
    loop {
        if next_tensor.is_some_and(|p| p < search) {
            next_tensor = next(search, "tensor<");
        }
        if next_memdesc.is_some_and(|p| p < search) {
            next_memdesc = next(search, "!ttg.memdesc<");
        }
        let (pos, memdesc, skip) = match (next_tensor, next_memdesc) {
            (Some(t), Some(m)) if m < t => (m, true, 13),
            (Some(t), _) => (t, false, 7),
            (None, Some(m)) => (m, true, 13),
            (None, None) => return Ok(()),
        };
        let at = pos + skip;
        // The type's text, through the `>` that closes its `<`.
        let Some(end) = close[at - 1] else {
            search = at;
            continue;
        };
        match parse_type_body(memdesc, &line[at..=end], map) {
            Ok((t, _)) => {
                types.push(t);
                search = end + 1;
            }
            Err(e) => {
                let not_a_layout = matches!(&e, LayoutError::Parse { message, .. }
                    if message.starts_with("expected a layout")
                        || message.starts_with("expected `, #layout"));
                // A type in a layout weft skipped (reported at its definition), or in a tensor-memory
                // layout written inline, is passed over.
                if not_a_layout || uses_skipped(&e, skipped).is_some() || names_tensor_memory(&e) {
                    search = end + 1;
                    continue;
                }
                return Err(relocate(e, ln + 1, at));
            }
        }
    }
}

/// For every `<` of `b`, the index of the `>` that closes it (`None` when none does).
fn closing_brackets(b: &[u8]) -> Vec<Option<usize>> {
    let mut close = vec![None; b.len()];
    let mut open = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'<' => open.push(i),
            b'>' => {
                if let Some(o) = open.pop() {
                    close[o] = Some(i);
                }
            }
            _ => {}
        }
    }
    close
}

/// Whether `e` is the "unknown alias" error of a tensor-memory layout written inline (`#ttng.…`).
fn names_tensor_memory(e: &LayoutError) -> bool {
    matches!(e, LayoutError::Parse { message, .. } if message.starts_with("unknown alias `#ttng."))
}

/// The skipped alias an "unknown alias" error names, with the line of its definition.
fn uses_skipped<'a>(
    e: &LayoutError,
    skipped: &'a HashMap<String, usize>,
) -> Option<(&'a str, usize)> {
    let LayoutError::Parse { message, .. } = e else {
        return None;
    };
    let name = message
        .strip_prefix("unknown alias `#")?
        .strip_suffix('`')?;
    skipped.get_key_value(name).map(|(k, v)| (k.as_str(), *v))
}

fn from_dict_kinds() -> &'static [&'static str] {
    &[
        "blocked<",
        "slice<",
        "dot_op<",
        "nvidia_mma<",
        "amd_mfma<",
        "amd_wmma<",
        "linear<",
        "generic_linear<",
        "swizzled_shared<",
        "amd_rotating_shared<",
        "nvmma_shared<",
        "padded_shared<",
        "shared_linear<",
    ]
}

fn relocate(e: LayoutError, line: usize, col_offset: usize) -> LayoutError {
    match e {
        LayoutError::Parse {
            format,
            line: 1,
            column,
            message,
        } => LayoutError::Parse {
            format,
            line,
            column: column + col_offset,
            message,
        },
        e => e,
    }
}
