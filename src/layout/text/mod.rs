//! Text forms of a layout: the JSON of design.md ([`LinearLayout::to_json`]) and Triton's bases dump ([`LinearLayout::to_bases_string`], also `Display`).

mod bases;
mod json;
