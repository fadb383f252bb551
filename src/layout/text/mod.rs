//! Text forms of a layout: the JSON of design.md ([`LinearLayout::to_json`]) and Triton's bases dump.

mod json;
