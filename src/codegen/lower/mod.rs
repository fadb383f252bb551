//! Lowering to LLVM IR: the [`LowerCtx`](context::LowerCtx) that every lowering function takes
//! (the emitter, the value map, index CSE and known bits, thread coordinates, the report sink),
//! and the finished kernel's pipelines and outputs (IR, PTX, code objects).

pub(crate) mod async_copy;
pub(crate) mod atomic;
pub(crate) mod bits;
pub(crate) mod cast;
pub(crate) mod combine_body;
pub(crate) mod composite;
pub(crate) mod context;
pub(crate) mod control;
pub(crate) mod convert;
pub(crate) mod convert_layout;
pub(crate) mod convert_plan;
pub(crate) mod create;
pub(crate) mod debug;
pub(crate) mod domain_barrier;
pub(crate) mod elementwise;
pub(crate) mod emitter;
pub(crate) mod fast_div;
pub(crate) mod fed;
pub(crate) mod function;
pub(crate) mod global;
pub(crate) mod global_ops;
pub(crate) mod index_arith;
pub(crate) mod index_cse;
pub(crate) mod ldmatrix;
pub(crate) mod math;
pub(crate) mod mbarrier;
pub(crate) mod mma;
pub(crate) mod mma_plan;
pub(crate) mod output;
pub(crate) mod program;
pub(crate) mod program_reduce;
pub(crate) mod reduce;
pub(crate) mod reduce_shape;
pub(crate) mod reduce_stages;
pub(crate) mod replica;
pub(crate) mod report_row;
pub(crate) mod scan;
pub(crate) mod scan_shape;
pub(crate) mod scan_stages;
pub(crate) mod scratch;
pub(crate) mod scratch_side;
pub(crate) mod shape;
pub(crate) mod shared;
pub(crate) mod shared_views;
pub(crate) mod shuffle_exec;
pub(crate) mod staged;
pub(crate) mod thread;
pub(crate) mod thread_coords;
pub(crate) mod tma;
pub(crate) mod values;
pub(crate) mod warp_roles;
pub(crate) mod wgmma;

pub use output::{Kernel, OptLevel};
