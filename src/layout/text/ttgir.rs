//! TTGIR attribute text.
use crate::layout::encoding::Encoding;
/// Prints.
pub fn print_encoding(e: &Encoding) -> String {
    format!("{e:?}")
}
