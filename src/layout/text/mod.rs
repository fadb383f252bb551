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

pub use crate::layout::error::{excerpt, excerpt_with, EXCERPT_CHARS};
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
