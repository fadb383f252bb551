//! The JSON form of a layout (design.md): `{"in_dims": [[name, bases], …], "out_dims": [[name, size], …]}`.
//!
//! `bases[i]` lists the output coordinates of input bit i, one integer per out dim. Printing and parsing are
//! hand-written (no serde): the format is tiny, and a hand parser reports the line and column of every error.
//! Keys may come in any order; unknown keys are an error, so typos do not pass silently.

use std::fmt::Write as _;

use crate::layout::error::{LayoutError, Result};
use crate::layout::{Bases, Dim, LinearLayout};

/// Nesting deeper than this is rejected (a layout needs 4 levels), so hostile input cannot overflow the stack.
const MAX_DEPTH: usize = 32;

/// A parsed JSON value with the position where it starts.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Bool(bool),
    /// Integers only; any other number is a parse error, as layouts hold nothing else.
    Int(u64),
    Str(String),
    Array(Vec<(Pos, Value)>),
    Object(Vec<(Pos, String, Pos, Value)>),
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

fn err(pos: Pos, message: impl Into<String>) -> LayoutError {
    LayoutError::Parse {
        format: "json",
        line: pos.line,
        column: pos.column,
        message: message.into(),
    }
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            chars: text.chars().peekable(),
            pos: Pos { line: 1, column: 1 },
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.bump();
        }
    }

    fn expect(&mut self, want: char) -> Result<()> {
        self.skip_ws();
        let at = self.pos;
        match self.bump() {
            Some(c) if c == want => Ok(()),
            Some(c) => Err(err(at, format!("expected `{want}`, found `{c}`"))),
            None => Err(err(at, format!("expected `{want}`, found end of input"))),
        }
    }

    fn value(&mut self, depth: usize) -> Result<(Pos, Value)> {
        self.skip_ws();
        let at = self.pos;
        if depth > MAX_DEPTH {
            return Err(err(at, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        let v = match self.peek() {
            None => return Err(err(at, "expected a value, found end of input")),
            Some('[') => {
                self.bump();
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(']') {
                    self.bump();
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.skip_ws();
                        let p = self.pos;
                        match self.bump() {
                            Some(',') => continue,
                            Some(']') => break,
                            Some(c) => {
                                return Err(err(p, format!("expected `,` or `]`, found `{c}`")))
                            }
                            None => return Err(err(p, "unterminated array")),
                        }
                    }
                }
                Value::Array(items)
            }
            Some('{') => {
                self.bump();
                let mut members = Vec::new();
                self.skip_ws();
                if self.peek() == Some('}') {
                    self.bump();
                } else {
                    loop {
                        self.skip_ws();
                        let kpos = self.pos;
                        if self.peek() != Some('"') {
                            return Err(err(kpos, "expected a string key"));
                        }
                        let key = self.string()?;
                        self.expect(':')?;
                        let (vpos, v) = self.value(depth + 1)?;
                        members.push((kpos, key, vpos, v));
                        self.skip_ws();
                        let p = self.pos;
                        match self.bump() {
                            Some(',') => continue,
                            Some('}') => break,
                            Some(c) => {
                                return Err(err(p, format!("expected `,` or `}}`, found `{c}`")))
                            }
                            None => return Err(err(p, "unterminated object")),
                        }
                    }
                }
                Value::Object(members)
            }
            Some('"') => Value::Str(self.string()?),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number()?,
            Some(c) if c.is_ascii_alphabetic() => {
                let mut word = String::new();
                while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric()) {
                    word.push(c);
                    self.bump();
                }
                match word.as_str() {
                    "null" => Value::Null,
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => return Err(err(at, format!("unexpected word `{word}`"))),
                }
            }
            Some(c) => return Err(err(at, format!("unexpected character `{c}`"))),
        };
        Ok((at, v))
    }

    fn number(&mut self) -> Result<Value> {
        let at = self.pos;
        let mut text = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        {
            text.push(c);
            self.bump();
        }
        if text.starts_with('-') {
            return Err(err(
                at,
                format!("negative number `{text}`: layouts hold non-negative integers"),
            ));
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(at, format!("`{text}` is not an integer")));
        }
        if text.len() > 1 && text.starts_with('0') {
            return Err(err(at, format!("leading zero in `{text}`")));
        }
        text.parse::<u64>()
            .map(Value::Int)
            .map_err(|_| err(at, format!("integer `{text}` does not fit in 64 bits")))
    }

    fn string(&mut self) -> Result<String> {
        let start = self.pos;
        self.bump(); // opening quote
        let mut s = String::new();
        loop {
            let at = self.pos;
            match self.bump() {
                None => return Err(err(start, "unterminated string")),
                Some('"') => return Ok(s),
                Some('\\') => {
                    let c = match self.bump() {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => {
                            let hi = self.hex4(at)?;
                            if (0xD800..0xDC00).contains(&hi) {
                                // A surrogate pair: a second \uXXXX must follow.
                                if self.bump() != Some('\\') || self.bump() != Some('u') {
                                    return Err(err(at, "unpaired surrogate in \\u escape"));
                                }
                                let lo = self.hex4(at)?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(err(at, "invalid low surrogate in \\u escape"));
                                }
                                let code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                char::from_u32(code).ok_or_else(|| err(at, "invalid \\u escape"))?
                            } else {
                                char::from_u32(hi).ok_or_else(|| err(at, "invalid \\u escape"))?
                            }
                        }
                        Some(c) => return Err(err(at, format!("invalid escape `\\{c}`"))),
                        None => return Err(err(start, "unterminated string")),
                    };
                    s.push(c);
                }
                Some(c) if (c as u32) < 0x20 => {
                    return Err(err(at, "control character in string"));
                }
                Some(c) => s.push(c),
            }
        }
    }

    fn hex4(&mut self, at: Pos) -> Result<u32> {
        let mut v = 0;
        for _ in 0..4 {
            let d = self
                .bump()
                .and_then(|c| c.to_digit(16))
                .ok_or_else(|| err(at, "\\u escape needs four hex digits"))?;
            v = v * 16 + d;
        }
        Ok(v)
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Int(_) => "a number",
        Value::Str(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn array<'v>(pos: Pos, v: &'v Value, what: &str) -> Result<&'v [(Pos, Value)]> {
    match v {
        Value::Array(items) => Ok(items),
        other => Err(err(
            pos,
            format!("{what} must be an array, found {}", kind(other)),
        )),
    }
}

fn int(pos: Pos, v: &Value, what: &str) -> Result<u64> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(err(
            pos,
            format!("{what} must be an integer, found {}", kind(other)),
        )),
    }
}

/// A `[name, payload]` pair.
fn named<'v>(pos: Pos, v: &'v Value, what: &str) -> Result<(String, Pos, &'v Value)> {
    let items = array(pos, v, what)?;
    match items {
        [(npos, Value::Str(name)), (ppos, payload)] => {
            let _ = npos;
            Ok((name.clone(), *ppos, payload))
        }
        [(npos, other), _] => Err(err(
            *npos,
            format!("{what}: the name must be a string, found {}", kind(other)),
        )),
        _ => Err(err(
            pos,
            format!(
                "{what} must be a [name, value] pair, found {} items",
                items.len()
            ),
        )),
    }
}

impl LinearLayout {
    /// The layout as one line of JSON (design.md): in dims with their bases, then out dims with their sizes.
    ///
    /// ```
    /// # use weft::layout::LinearLayout;
    /// let l = LinearLayout::identity_1d(4, "lane", "dim0")?;
    /// assert_eq!(l.to_json(), r#"{"in_dims": [["lane", [[1], [2]]]], "out_dims": [["dim0", 4]]}"#);
    /// assert_eq!(LinearLayout::from_json(&l.to_json())?, l);
    /// # Ok::<(), weft::layout::LayoutError>(())
    /// ```
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\"in_dims\": [");
        for (i, (name, bases)) in self.all_bases().iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push('[');
            write_string(&mut s, name);
            s.push_str(", [");
            for (k, b) in bases.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                s.push('[');
                for (c, v) in b.iter().enumerate() {
                    if c > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "{v}");
                }
                s.push(']');
            }
            s.push_str("]]");
        }
        s.push_str("], \"out_dims\": [");
        for (j, (name, size)) in self.out_dims().enumerate() {
            if j > 0 {
                s.push_str(", ");
            }
            s.push('[');
            write_string(&mut s, name);
            let _ = write!(s, ", {size}]");
        }
        s.push_str("]}");
        s
    }

    /// Parses the JSON of [`to_json`](Self::to_json). Out-dim sizes are explicit, so the layout need not be
    /// surjective. Malformed JSON is a [`LayoutError::Parse`] with line and column; well-formed JSON that
    /// breaks a layout rule gets that rule's error (e.g. [`LayoutError::BasisOutOfRange`]).
    pub fn from_json(text: &str) -> Result<LinearLayout> {
        let mut p = Parser::new(text);
        let (top_pos, top) = p.value(0)?;
        p.skip_ws();
        if p.peek().is_some() {
            return Err(err(p.pos, "trailing characters after the layout"));
        }
        let Value::Object(members) = &top else {
            return Err(err(
                top_pos,
                format!("a layout must be an object, found {}", kind(&top)),
            ));
        };
        let mut ins = None;
        let mut outs = None;
        for (kpos, key, vpos, v) in members {
            let slot = match key.as_str() {
                "in_dims" => &mut ins,
                "out_dims" => &mut outs,
                _ => {
                    return Err(err(
                        *kpos,
                        format!("unknown key `{key}` (expected `in_dims` and `out_dims`)"),
                    ))
                }
            };
            if slot.is_some() {
                return Err(err(*kpos, format!("key `{key}` given twice")));
            }
            *slot = Some((*vpos, v));
        }
        let Some((ipos, ins)) = ins else {
            return Err(err(top_pos, "missing key `in_dims`"));
        };
        let Some((opos, outs)) = outs else {
            return Err(err(top_pos, "missing key `out_dims`"));
        };
        let mut out_dims: Vec<(Dim, u64)> = Vec::new();
        for (pos, item) in array(opos, outs, "`out_dims`")? {
            let (name, spos, size) = named(*pos, item, "an out dim")?;
            out_dims.push((Dim::new(&name), int(spos, size, "an out dim size")?));
        }
        let mut in_dims: Vec<(Dim, Bases)> = Vec::new();
        for (pos, item) in array(ipos, ins, "`in_dims`")? {
            let (name, bpos, bases) = named(*pos, item, "an in dim")?;
            let mut bs = Vec::new();
            for (pos, basis) in array(bpos, bases, "the bases of an in dim")? {
                let coords = array(*pos, basis, "a basis")?
                    .iter()
                    .map(|(cpos, c)| int(*cpos, c, "a basis coordinate"))
                    .collect::<Result<Vec<u64>>>()?;
                bs.push(coords);
            }
            in_dims.push((Dim::new(&name), bs));
        }
        LinearLayout::from_bases(in_dims, out_dims, false)
    }
}

/// Writes `s` as a JSON string literal.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> (usize, usize, String) {
        match LinearLayout::from_json(text) {
            Err(LayoutError::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("expected a parse error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn prints_and_parses_a_2d_layout() {
        let l = LinearLayout::from_bases(
            [("register", vec![vec![0, 1], vec![8, 0]]), ("lane", vec![])],
            [("dim0", 16), ("dim1", 2)],
            false,
        )
        .unwrap();
        let j = l.to_json();
        assert_eq!(
            j,
            r#"{"in_dims": [["register", [[0, 1], [8, 0]]], ["lane", []]], "out_dims": [["dim0", 16], ["dim1", 2]]}"#
        );
        assert_eq!(LinearLayout::from_json(&j).unwrap(), l);
        // Whitespace, key order and escapes do not matter.
        let k = "{ \"out_dims\" : [[\"dim\\u0030\", 16], [\"dim1\", 2]],\n  \"in_dims\": [[\"register\", [[0,1],[8,0]]], [\"lane\", [ ]]] }";
        assert_eq!(LinearLayout::from_json(k).unwrap(), l);
    }

    #[test]
    fn empty_layout_round_trips() {
        let e = LinearLayout::empty();
        assert_eq!(e.to_json(), r#"{"in_dims": [], "out_dims": []}"#);
        assert_eq!(LinearLayout::from_json(&e.to_json()).unwrap(), e);
    }

    #[test]
    fn odd_names_are_escaped() {
        let l = LinearLayout::identity_1d(2, "a \"quoted\"\n\\name", "ü").unwrap();
        assert_eq!(LinearLayout::from_json(&l.to_json()).unwrap(), l);
    }

    #[test]
    fn errors_carry_positions() {
        assert_eq!(parse_err("").0, 1);
        let (line, column, msg) = parse_err("{\"in_dims\": [],\n \"out_dims\": [[\"dim0\", -4]]}");
        assert_eq!((line, column), (2, 24));
        assert!(msg.contains("negative"), "{msg}");
        let (line, column, msg) = parse_err("{\"in_dims\": [], \"out_dimz\": []}");
        assert_eq!((line, column), (1, 17));
        assert!(msg.contains("out_dimz"));
        let (_, _, msg) = parse_err("{\"in_dims\": []}");
        assert!(msg.contains("missing key `out_dims`"));
        let (_, column, _) = parse_err("{\"in_dims\": [], \"out_dims\": []} x");
        assert_eq!(column, 33);
        let (_, _, msg) =
            parse_err("{\"in_dims\": [[\"r\", [[1.5]]]], \"out_dims\": [[\"o\", 2]]}");
        assert!(msg.contains("not an integer"));
        let (_, _, msg) = parse_err(&"[".repeat(10_000));
        assert!(msg.contains("nesting"));
    }

    #[test]
    fn rule_errors_pass_through() {
        let r = LinearLayout::from_json(r#"{"in_dims": [["r", [[4]]]], "out_dims": [["o", 4]]}"#);
        assert!(
            matches!(r, Err(LayoutError::BasisOutOfRange { value: 4, .. })),
            "{r:?}"
        );
        let r = LinearLayout::from_json(r#"{"in_dims": [["r", [[1]]]], "out_dims": [["o", 3]]}"#);
        assert!(
            matches!(r, Err(LayoutError::NotPowerOfTwo { size: 3, .. })),
            "{r:?}"
        );
        let r =
            LinearLayout::from_json(r#"{"in_dims": [["r", [[1, 0]]]], "out_dims": [["o", 2]]}"#);
        assert!(matches!(r, Err(LayoutError::BasisArity { .. })), "{r:?}");
    }
}
