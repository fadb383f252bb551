//! Hand-parsed text forms of layouts and encodings: Triton's bases dump ([`LinearLayout::to_bases_string`],
//! also `Display`), TTGIR attribute syntax ([`ttgir`]) and Gluon constructor syntax ([`gluon`]). JSON is not
//! here: it goes through serde (feature `serde`, module `layout::json`).
//!
//! [`LinearLayout::to_bases_string`]: crate::layout::LinearLayout::to_bases_string

#![forbid(unsafe_code)]

mod bases;
pub mod gluon;
mod lex;
pub mod ttgir;
mod value;

pub use value::Val;

use crate::layout::encoding::Encoding;
use crate::layout::Result;

/// Parses an encoding written either as TTGIR attribute text (`#ttg.blocked<{…}>`) or as Gluon
/// constructor text (`BlockedLayout(…)`), the two spellings the `weft layout` command accepts.
pub fn parse_any(text: &str) -> Result<Encoding> {
    if text.trim_start().starts_with('#') {
        ttgir::parse_encoding(text)
    } else {
        gluon::parse_encoding(text)
    }
}

/// The most characters of an input token an error message quotes.
pub const EXCERPT_CHARS: usize = 60;

/// An input token as error messages quote it: control characters escaped (`\n`, `\u{1b}`), and cut to
/// [`EXCERPT_CHARS`] characters with `…` when longer, so an error stays one short line whatever the input.
pub fn excerpt(token: &str) -> String {
    excerpt_with(token, EXCERPT_CHARS)
}

/// [`excerpt`] with a limit of `max_chars` characters.
pub fn excerpt_with(token: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in token.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
