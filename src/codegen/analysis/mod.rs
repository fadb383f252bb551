//! Pure planning, no inkwell: what is known of values (contiguity, divisibility, constancy) and
//! how a tile layout becomes per-register coordinates and vector runs.

pub(crate) mod axis_info;
pub(crate) mod matrix_plan;
pub(crate) mod operand_feeds;
pub(crate) mod shared_offsets;
pub(crate) mod tile_layout;
pub(crate) mod tma_boxes;
