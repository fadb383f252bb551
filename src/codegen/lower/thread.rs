//! The cache of thread coordinates: the special registers read so far and each layout's thread
//! part, kept per warp-role view (lowered by `thread_coords.rs`).

use std::collections::HashMap;

use inkwell::values::IntValue;

/// The lane and warp bases of a layout: layouts with equal ones share thread coordinates.
pub(crate) type ThreadKey = (Vec<Vec<u64>>, Vec<Vec<u64>>);

/// The special registers read so far and the thread coordinates computed so far, all in the
/// prologue, so every later block can use them.
#[derive(Debug, Default)]
pub(crate) struct ThreadIds<'ctx> {
    /// Special registers, by intrinsic name.
    pub(crate) sregs: HashMap<String, IntValue<'ctx>>,
    /// The thread part of each layout's coordinates, by lane and warp bases.
    pub(crate) coords: HashMap<ThreadKey, Vec<IntValue<'ctx>>>,
}

impl<'ctx> ThreadIds<'ctx> {
    /// Starts the view of a warp role whose thread index is `tid` (relative to the role's first
    /// thread; `sreg` names the thread-index register it stands for) and returns the outer view,
    /// to be put back when the role ends. Special registers read so far are kept; thread
    /// coordinates are the role's own.
    pub(crate) fn for_role(&mut self, sreg: &str, tid: IntValue<'ctx>) -> ThreadIds<'ctx> {
        let mut sregs = self.sregs.clone();
        sregs.insert(sreg.to_string(), tid);
        std::mem::replace(
            self,
            ThreadIds {
                sregs,
                coords: HashMap::new(),
            },
        )
    }
}
