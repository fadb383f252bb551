//! An mbarrier's state in the interpreter: expected arrivals, pending ones, transaction bytes and
//! the phase.

/// An mbarrier's state.
#[derive(Debug, Clone)]
pub(crate) struct Mbar {
    pub(crate) expected: u64,
    pub(crate) pending: u64,
    pub(crate) tx: i64,
    pub(crate) phase: u32,
}

impl Mbar {
    /// `count` arrivals and `tx` bytes (negative: bytes landed); the phase completes when
    /// both reach zero.
    pub(crate) fn arrive(&mut self, count: u64, tx: i64) {
        self.pending = self.pending.saturating_sub(count);
        self.tx += tx;
        if self.pending == 0 && self.tx == 0 {
            self.phase ^= 1;
            self.pending = self.expected;
        }
    }
}
