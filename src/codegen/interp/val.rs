//! A value while the interpreter runs a program: a scalar, a tile, or a handle to shared memory,
//! mbarriers or a tensor map.

use std::rc::Rc;

use crate::codegen::interp::num::Num;
use crate::codegen::interp::tile::Tile;
use crate::codegen::interp::TensorMapArg;

/// A value at run time.
#[derive(Debug, Clone)]
pub(crate) enum Val {
    /// A scalar.
    S(Num),
    /// A tile.
    T(Rc<Tile>),
    /// A shared buffer: its byte address in shared memory now (a ring indexed at run time
    /// moves it).
    Shared(u64),
    /// mbarriers: the index of the first in the CTA's table, and how many.
    Bars(usize, u64),
    /// A tensor map.
    Map(Rc<TensorMapArg>),
}
