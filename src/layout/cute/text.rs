//! CuTe's text forms: nested integer tuples (`(2,(4,8))`), layouts (`shape:stride`) and swizzled layouts
//! (`Sw<B,M,S> o shape:stride`), printed as CuTe C++ prints them and parsed back.

use std::fmt;
use std::str::FromStr;

use super::{CuteError, CuteLayout, IntTuple, Swizzle, SwizzledLayout};

/// Deepest tuple nesting accepted, so that hostile text cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntTuple::Int(v) => write!(f, "{v}"),
            IntTuple::Tuple(items) => {
                f.write_str("(")?;
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for CuteLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

impl fmt::Display for SwizzledLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.swizzle {
            Some(s) => write!(f, "{s} o {}", self.layout),
            None => write!(f, "{}", self.layout),
        }
    }
}

/// A cursor over the text being parsed, reporting errors with a 1-based column.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn error(&self, message: impl Into<String>) -> CuteError {
        CuteError::Parse {
            column: self.text[..self.pos].chars().count() + 1,
            message: message.into(),
        }
    }

    fn skip_spaces(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_spaces();
        if self.text[self.pos..].starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str) -> Result<(), CuteError> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{token}`")))
        }
    }

    fn int(&mut self) -> Result<i64, CuteError> {
        self.skip_spaces();
        let rest = &self.text[self.pos..];
        // CuTe prints static integers as `_8`; accept both spellings.
        let body = rest.strip_prefix('_').unwrap_or(rest);
        let prefix = rest.len() - body.len();
        let sign = usize::from(body.starts_with('-'));
        let digits = body[sign..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(self.error("expected an integer"));
        }
        let len = prefix + sign + digits;
        let value = body[..sign + digits]
            .parse::<i64>()
            .map_err(|_| self.error("integer out of the 64-bit range"))?;
        self.pos += len;
        Ok(value)
    }

    fn int_tuple(&mut self, depth: usize) -> Result<IntTuple, CuteError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("tuples nested deeper than {MAX_DEPTH}")));
        }
        if !self.eat("(") {
            return Ok(IntTuple::Int(self.int()?));
        }
        let mut items = vec![self.int_tuple(depth + 1)?];
        while self.eat(",") {
            // Python prints a 1-tuple with a trailing comma: `(2,)`.
            if self.text[self.pos..].trim_start().starts_with(')') {
                break;
            }
            items.push(self.int_tuple(depth + 1)?);
        }
        self.expect(")")?;
        Ok(IntTuple::Tuple(items))
    }

    fn end(&mut self) -> Result<(), CuteError> {
        self.skip_spaces();
        if self.pos == self.text.len() {
            Ok(())
        } else {
            Err(self.error("unexpected text after the layout"))
        }
    }
}

impl FromStr for IntTuple {
    type Err = CuteError;

    fn from_str(text: &str) -> Result<IntTuple, CuteError> {
        let mut c = Cursor { text, pos: 0 };
        let t = c.int_tuple(0)?;
        c.end()?;
        Ok(t)
    }
}

impl FromStr for CuteLayout {
    type Err = CuteError;

    /// `shape:stride`, e.g. `((2,4),8):((1,16),2)`.
    fn from_str(text: &str) -> Result<CuteLayout, CuteError> {
        let mut c = Cursor { text, pos: 0 };
        let layout = layout(&mut c)?;
        c.end()?;
        Ok(layout)
    }
}

fn layout(c: &mut Cursor<'_>) -> Result<CuteLayout, CuteError> {
    let shape = c.int_tuple(0)?;
    c.expect(":")?;
    let stride = c.int_tuple(0)?;
    Ok(CuteLayout { shape, stride })
}

impl FromStr for SwizzledLayout {
    type Err = CuteError;

    /// `shape:stride` or `Sw<B,M,S> o shape:stride`; CuTe's offset term (`Sw<3,4,3> o _0 o shape:stride`)
    /// is accepted when it is zero, since a nonzero offset makes the map affine, not linear.
    fn from_str(text: &str) -> Result<SwizzledLayout, CuteError> {
        let mut c = Cursor { text, pos: 0 };
        let mut swizzle = None;
        if c.eat("Sw<") {
            let bits = c.int()?;
            c.expect(",")?;
            let base = c.int()?;
            c.expect(",")?;
            let shift = c.int()?;
            c.expect(">")?;
            c.expect("o")?;
            swizzle = Some(Swizzle::new(bits, base, shift)?);
            let save = c.pos;
            // An optional offset: an integer followed by `o`.
            if let Ok(offset) = c.int() {
                if c.eat("o") {
                    if offset != 0 {
                        return Err(CuteError::Offset { offset });
                    }
                } else {
                    c.pos = save;
                }
            } else {
                c.pos = save;
            }
        }
        let layout = layout(&mut c)?;
        c.end()?;
        Ok(SwizzledLayout { layout, swizzle })
    }
}
