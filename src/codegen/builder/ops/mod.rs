//! The tile ops, each an `impl KernelBuilder` block: creation, elementwise arithmetic, casts,
//! shape ops, math, global memory and structured control flow; shared memory, conversions,
//! reductions and scans; asynchronous copies (`async_copy.rs`: cp.async; `tma.rs`), mbarriers,
//! `ldmatrix`, tensor-core dots (`mma.rs`: mma.sync; `wgmma.rs`), tile scheduling and warp
//! specialisation (`warp_roles.rs`: roles, register budgets, named barriers); device printing and
//! assertions, build-time prints (`debug.rs`).

pub(crate) mod activation;
pub(crate) mod async_copy;
pub(crate) mod block_offsets;
pub(crate) mod cast;
pub(crate) mod cluster;
pub(crate) mod control;
pub(crate) mod convert;
pub(crate) mod create;
pub(crate) mod debug;
pub(crate) mod early_return;
pub(crate) mod elementwise;
pub(crate) mod global;
pub(crate) mod layout_arg;
pub(crate) mod ldmatrix;
pub(crate) mod math;
pub(crate) mod mbarrier;
pub(crate) mod mma;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod schedule;
pub(crate) mod shape;
pub(crate) mod shared;
pub(crate) mod shared_lifetime;
pub(crate) mod shared_views;
pub(crate) mod slice_layout;
pub(crate) mod tma;
pub(crate) mod warp_roles;
pub(crate) mod wgmma;
