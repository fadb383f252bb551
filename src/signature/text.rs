//! The text form of a signature: what `Display` prints and [`KernelSignature::parse`] reads.
//!
//! `name(p: type {divisibility = N}, …) [threads = T, shared = S, target = sm_90]`, where a type
//! is a scalar (`i32 i64 u32 u64 f32 f64`), a pointer `*E` (also `*const E`, `*mut E`) with `E` an
//! [`ElemType`] name, or `tensormap` (`tensormap<f16 128x64 swizzle=128>` with what the kernel assumes of
//! its box). Names, divisibilities and the bracketed part are optional.

use std::fmt;

use super::{ElemType, KernelSignature, Param, ParamType};
use crate::target::Target;

/// Signature text that could not be read: the text (cut to 200 characters) and what is wrong,
/// with the byte position where there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad kernel signature `{text}`: {reason}")]
pub struct SignatureError {
    /// The text given, cut to 200 characters.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl KernelSignature {
    /// Reads the form [`fmt::Display`] prints (see the [module docs](super)).
    pub fn parse(text: &str) -> Result<KernelSignature, SignatureError> {
        let bad = |reason: String| SignatureError {
            text: text.chars().take(200).collect(),
            reason,
        };
        let open = text
            .find('(')
            .ok_or_else(|| bad("missing `(` after the kernel name".into()))?;
        let name = text[..open].trim();
        if !is_symbol(name) {
            return Err(bad(format!(
                "kernel name `{}` must be a non-empty identifier",
                cut(name)
            )));
        }
        let close = text[open..]
            .find(')')
            .map(|i| open + i)
            .ok_or_else(|| bad("missing `)` at the end".into()))?;
        let mut sig = KernelSignature::new(name, []);
        let inner = &text[open + 1..close];
        if !inner.trim().is_empty() {
            let mut offset = open + 1;
            for piece in inner.split(',') {
                sig.params
                    .push(parse_param(piece).map_err(|r| bad(format!("at byte {offset}: {r}")))?);
                offset += piece.len() + 1;
            }
        }
        let rest = text[close + 1..].trim();
        if !rest.is_empty() {
            let attrs = rest
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| {
                    bad(format!(
                        "after `)` only `[threads = T, shared = S, target = NAME]` may follow, not `{}`",
                        cut(rest)
                    ))
                })?;
            for attr in attrs.split(',').filter(|a| !a.trim().is_empty()) {
                read_attr(&mut sig, attr).map_err(bad)?;
            }
        }
        Ok(sig)
    }
}

fn is_symbol(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
}

/// At most 40 characters of `s`, for messages.
fn cut(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

fn parse_param(piece: &str) -> Result<Param, String> {
    let mut t = piece.trim();
    let mut divisibility = 1;
    if let Some(open) = t.find('{') {
        let body = t[open + 1..]
            .strip_suffix('}')
            .ok_or_else(|| format!("`{}` has no closing `}}`", cut(t)))?;
        let value = body
            .split_once('=')
            .filter(|(k, _)| k.trim() == "divisibility")
            .map(|(_, v)| v.trim())
            .ok_or_else(|| format!("expected `{{divisibility = N}}`, got `{{{}}}`", cut(body)))?;
        divisibility = value
            .parse::<u64>()
            .ok()
            .filter(|d| d.is_power_of_two())
            .ok_or_else(|| format!("divisibility `{}` is not a power of two", cut(value)))?;
        t = t[..open].trim();
    }
    let (name, ty) = match t.split_once(':') {
        Some((n, ty)) if is_symbol(n.trim()) => (n.trim(), ty.trim()),
        Some((n, _)) => return Err(format!("parameter name `{}` is not an identifier", cut(n))),
        None => ("", t),
    };
    let ty = parse_type(ty)?;
    if divisibility > 1 && !ty.has_divisibility() {
        return Err(format!("a {ty} parameter has no divisibility"));
    }
    Ok(Param {
        name: name.to_string(),
        ty,
        divisibility,
    })
}

fn parse_type(t: &str) -> Result<ParamType, String> {
    if let Some(ptr) = t.strip_prefix('*') {
        let elem = ptr.trim();
        let elem = elem
            .strip_prefix("const ")
            .or_else(|| elem.strip_prefix("mut "))
            .unwrap_or(elem)
            .trim();
        return ElemType::from_name(elem)
            .map(ParamType::Ptr)
            .ok_or_else(|| {
                let known: Vec<&str> = ElemType::ALL.iter().map(|e| e.name()).collect();
                format!(
                    "unknown element type `{}` (known: {})",
                    cut(elem),
                    known.join(" ")
                )
            });
    }
    Ok(match t {
        "i32" => ParamType::I32,
        "i64" => ParamType::I64,
        "u32" => ParamType::U32,
        "u64" => ParamType::U64,
        "f32" => ParamType::F32,
        "f64" => ParamType::F64,
        "tensormap" => ParamType::TensorMap(None),
        _ if t.starts_with("tensormap<") && t.ends_with('>') => ParamType::TensorMap(Some(
            super::TensorMapSpec::parse(&t["tensormap<".len()..t.len() - 1])?,
        )),
        _ => {
            return Err(format!(
                "`{}` is not a parameter type (scalars: i32 i64 u32 u64 f32 f64; pointers: *E; tensormap)",
                cut(t)
            ))
        }
    })
}

fn read_attr(sig: &mut KernelSignature, attr: &str) -> Result<(), String> {
    let (key, value) = attr
        .split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| format!("`{}` is not `key = value`", cut(attr.trim())))?;
    let number = || {
        value
            .parse::<u32>()
            .map_err(|_| format!("{key} = `{}` is not a number", cut(value)))
    };
    match key {
        "threads" => sig.threads_per_block = Some(number()?),
        "shared" => sig.shared_bytes = number()?,
        "target" => sig.target = Some(Target::parse(value).map_err(|e| e.to_string())?),
        "cluster" => sig.cluster = Some(cluster_dims(value)?),
        _ => {
            return Err(format!(
                "unknown attribute `{}` (known: threads, shared, target, cluster)",
                cut(key)
            ))
        }
    }
    Ok(())
}

/// `XxYxZ`, each at least 1.
fn cluster_dims(value: &str) -> Result<[u32; 3], String> {
    let bad = || {
        format!(
            "cluster = `{}` is not `XxYxZ` of positive numbers",
            cut(value)
        )
    };
    let dims: Vec<u32> = value
        .split('x')
        .map(|d| d.trim().parse::<u32>().ok().filter(|&d| d > 0))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    <[u32; 3]>::try_from(dims).map_err(|_| bad())
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::Ptr(e) => write!(f, "*{e}"),
            ParamType::I32 => f.write_str("i32"),
            ParamType::I64 => f.write_str("i64"),
            ParamType::U32 => f.write_str("u32"),
            ParamType::U64 => f.write_str("u64"),
            ParamType::F32 => f.write_str("f32"),
            ParamType::F64 => f.write_str("f64"),
            ParamType::TensorMap(None) => f.write_str("tensormap"),
            ParamType::TensorMap(Some(spec)) => write!(f, "tensormap<{spec}>"),
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.name.is_empty() {
            write!(f, "{}: ", self.name)?;
        }
        write!(f, "{}", self.ty)?;
        if self.divisibility > 1 {
            write!(f, " {{divisibility = {}}}", self.divisibility)?;
        }
        Ok(())
    }
}

impl fmt::Display for KernelSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")?;
        let mut attrs = Vec::new();
        if let Some(t) = self.threads_per_block {
            attrs.push(format!("threads = {t}"));
        }
        if self.shared_bytes > 0 {
            attrs.push(format!("shared = {}", self.shared_bytes));
        }
        if let Some(t) = self.target {
            attrs.push(format!("target = {t}"));
        }
        if let Some([x, y, z]) = self.cluster {
            attrs.push(format!("cluster = {x}x{y}x{z}"));
        }
        if !attrs.is_empty() {
            write!(f, " [{}]", attrs.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_shape_round_trips_and_bad_shapes_are_named() {
        let text = "k(p: *f32) [threads = 384, target = sm_90a, cluster = 2x1x1]";
        let sig = KernelSignature::parse(text).unwrap();
        assert_eq!(sig.cluster, Some([2, 1, 1]));
        assert_eq!(sig.to_string(), text);
        for bad in ["2x1", "0x1x1", "2x1x1x1", "ax1x1"] {
            let e = KernelSignature::parse(&format!("k() [cluster = {bad}]")).unwrap_err();
            assert!(e.reason.contains("XxYxZ"), "{bad}: {e}");
        }
    }

    #[test]
    fn full_form_round_trips() {
        let text = "scale(x: *f32 {divisibility = 16}, n: i32 {divisibility = 16}, a: f32, m: tensormap) [threads = 128, shared = 4096, target = sm_90a]";
        let s = KernelSignature::parse(text).unwrap();
        assert_eq!(s.params[0].divisibility, 16);
        assert_eq!(s.params[3].ty, ParamType::TensorMap(None));
        assert_eq!(s.threads_per_block, Some(128));
        assert_eq!(s.shared_bytes, 4096);
        assert_eq!(s.target, Some(Target::SM90A));
        assert_eq!(s.to_string(), text);
    }

    #[test]
    fn bad_attributes_and_divisibilities_are_named() {
        for (text, needle) in [
            (
                "k(f32 {divisibility = 4})",
                "a f32 parameter has no divisibility",
            ),
            ("k(i32 {divisibility = 3})", "not a power of two"),
            ("k(i32 {align = 4})", "expected `{divisibility = N}`"),
            ("k(i32) [blocks = 4]", "unknown attribute `blocks`"),
            ("k(i32) [threads = x]", "threads = `x` is not a number"),
            ("k(i32) [target = sm_1]", "unknown target `sm_1`"),
            ("k(i32) extra", "only `[threads"),
            ("k(1x: i32)", "parameter name `1x`"),
        ] {
            let e = KernelSignature::parse(text).unwrap_err().to_string();
            assert!(e.contains(needle), "`{text}`: `{e}` lacks `{needle}`");
        }
    }

    #[test]
    fn long_text_is_cut_in_errors() {
        let text = format!("k({})", "q".repeat(100_000));
        assert!(KernelSignature::parse(&text).unwrap_err().to_string().len() < 600);
    }
}
