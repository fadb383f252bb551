//! A small tokenizer shared by the TTGIR and Gluon parsers: identifiers (with `.`), integers, and
//! single-character punctuation, each with its 1-based line and column for error messages.

use crate::layout::error::excerpt;
use crate::layout::{LayoutError, Result};

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A name such as `ttg.blocked`, `sizePerThread`, `True`.
    Ident(String),
    /// A non-negative integer.
    Int(u64),
    /// Any other single character.
    Punct(char),
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Spanned {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// A cursor over the tokens of one text.
pub(crate) struct Lexer {
    toks: Vec<Spanned>,
    pos: usize,
    end: (usize, usize),
    format: &'static str,
}

impl Lexer {
    /// Splits `text` into tokens.
    pub(crate) fn new(text: &str, format: &'static str) -> Result<Lexer> {
        let mut toks = Vec::new();
        let (mut line, mut column) = (1, 1);
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let (l, col) = (line, column);
            if c == '\n' {
                line += 1;
                column = 1;
                i += 1;
                continue;
            }
            if c.is_whitespace() {
                column += 1;
                i += 1;
                continue;
            }
            if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                column += i - start;
                let v = s.parse::<u64>().map_err(|_| LayoutError::Parse {
                    format,
                    line: l,
                    column: col,
                    message: format!("integer {} is too large", excerpt(&s)),
                })?;
                toks.push(Spanned {
                    tok: Tok::Int(v),
                    line: l,
                    column: col,
                });
                continue;
            }
            if c.is_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.')
                {
                    i += 1;
                }
                column += i - start;
                let s: String = chars[start..i].iter().collect();
                toks.push(Spanned {
                    tok: Tok::Ident(s),
                    line: l,
                    column: col,
                });
                continue;
            }
            toks.push(Spanned {
                tok: Tok::Punct(c),
                line: l,
                column: col,
            });
            column += 1;
            i += 1;
        }
        Ok(Lexer {
            toks,
            pos: 0,
            end: (line, column),
            format,
        })
    }

    /// The next token without consuming it.
    pub(crate) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|s| &s.tok)
    }

    /// The token after the next one.
    pub(crate) fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.pos + 1).map(|s| &s.tok)
    }

    /// Consumes the next token.
    pub(crate) fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|s| s.tok.clone());
        self.pos += 1;
        t
    }

    /// True when every token is consumed.
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// An error at the current token.
    pub(crate) fn err(&self, message: impl Into<String>) -> LayoutError {
        let (line, column) = self
            .toks
            .get(self.pos)
            .map_or(self.end, |s| (s.line, s.column));
        LayoutError::Parse {
            format: self.format,
            line,
            column,
            message: message.into(),
        }
    }

    /// An error at the previous token.
    pub(crate) fn err_prev(&self, message: impl Into<String>) -> LayoutError {
        let (line, column) = self
            .toks
            .get(self.pos.saturating_sub(1))
            .map_or(self.end, |s| (s.line, s.column));
        LayoutError::Parse {
            format: self.format,
            line,
            column,
            message: message.into(),
        }
    }

    /// Consumes `c` or fails naming it.
    pub(crate) fn expect(&mut self, c: char) -> Result<()> {
        match self.peek() {
            Some(Tok::Punct(p)) if *p == c => {
                self.pos += 1;
                Ok(())
            }
            other => Err(self.err(format!("expected `{c}`, found {}", describe(other)))),
        }
    }

    /// Consumes `c` if it is next.
    pub(crate) fn eat(&mut self, c: char) -> bool {
        if matches!(self.peek(), Some(Tok::Punct(p)) if *p == c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes an identifier.
    pub(crate) fn ident(&mut self) -> Result<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            other => Err(self.err(format!("expected a name, found {}", describe(other)))),
        }
    }

    /// Consumes an integer.
    pub(crate) fn int(&mut self) -> Result<u64> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v;
                self.pos += 1;
                Ok(v)
            }
            Some(Tok::Punct('-')) => Err(self.err("negative numbers are not allowed here")),
            other => Err(self.err(format!("expected an integer, found {}", describe(other)))),
        }
    }
}

/// How a token reads in an error message.
pub(crate) fn describe(t: Option<&Tok>) -> String {
    match t {
        None => "the end of the text".into(),
        Some(Tok::Ident(s)) => format!("`{}`", excerpt(s)),
        Some(Tok::Int(v)) => format!("`{v}`"),
        Some(Tok::Punct(c)) => format!("`{}`", excerpt(c.encode_utf8(&mut [0; 4]))),
    }
}
