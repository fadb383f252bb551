//! Shared memory of one CTA, with the checks compute-sanitizer makes: a read of a byte another
//! thread wrote since the last barrier (racecheck), a read of a byte an asynchronous copy has
//! not been waited for (racecheck), and a read of a byte never written (initcheck).

/// Who last wrote a byte, and how far that write is published.
#[derive(Debug, Clone, Copy)]
struct Mark {
    /// The writing thread.
    thread: u32,
    /// The barrier epoch of the write.
    epoch: u64,
    /// The op that wrote it (index into the program's ops).
    op: u32,
    /// Whether an asynchronous copy wrote it and no wait has covered it yet.
    in_flight: bool,
}

/// What a read found wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Written by another thread after the last barrier; `op` wrote it.
    Race {
        /// The writing op.
        op: u32,
        /// The writing thread.
        writer: u32,
    },
    /// Written by an asynchronous copy not yet waited for.
    InFlight {
        /// The copying op.
        op: u32,
    },
    /// Never written.
    Uninitialized,
    /// Past the end of shared memory.
    OutOfBounds,
}

/// The CTA's shared memory.
#[derive(Debug)]
pub struct SharedMem {
    bytes: Vec<u8>,
    marks: Vec<Option<Mark>>,
    epoch: u64,
}

impl SharedMem {
    /// `size` bytes, none written.
    pub fn new(size: u64) -> SharedMem {
        SharedMem {
            bytes: vec![0; size as usize],
            marks: vec![None; size as usize],
            epoch: 0,
        }
    }

    /// A barrier of every thread: what was written before it is visible after it.
    pub fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// Asynchronous copies waited for: their bytes are the waiting threads' writes now
    /// (published to other threads by the next barrier).
    pub fn complete_async(&mut self, thread: u32) {
        let epoch = self.epoch;
        for m in self.marks.iter_mut().flatten() {
            if m.in_flight {
                m.in_flight = false;
                m.thread = thread;
                m.epoch = epoch;
            }
        }
    }

    /// Writes `size` bytes of `bits` at `addr` by `thread` in op `op`.
    pub fn write(
        &mut self,
        addr: u64,
        size: u64,
        bits: u64,
        thread: u32,
        op: u32,
        async_copy: bool,
    ) -> Result<(), Fault> {
        let end = addr + size;
        if end > self.bytes.len() as u64 {
            return Err(Fault::OutOfBounds);
        }
        for i in 0..size {
            let a = (addr + i) as usize;
            self.bytes[a] = (bits >> (8 * i)) as u8;
            self.marks[a] = Some(Mark {
                thread,
                epoch: self.epoch,
                op,
                in_flight: async_copy,
            });
        }
        Ok(())
    }

    /// Reads `size` bytes at `addr` for `threads`; with `published`, a write is visible to its
    /// own thread only until a barrier.
    pub fn read(&self, addr: u64, size: u64, threads: &[u32]) -> Result<u64, Fault> {
        let end = addr + size;
        if end > self.bytes.len() as u64 {
            return Err(Fault::OutOfBounds);
        }
        let mut bits = 0u64;
        for i in (0..size).rev() {
            let a = (addr + i) as usize;
            match self.marks[a] {
                None => return Err(Fault::Uninitialized),
                Some(m) if m.in_flight => return Err(Fault::InFlight { op: m.op }),
                Some(m) if m.epoch == self.epoch && threads.iter().any(|&t| t != m.thread) => {
                    return Err(Fault::Race {
                        op: m.op,
                        writer: m.thread,
                    })
                }
                Some(_) => {}
            }
            bits = (bits << 8) | self.bytes[a] as u64;
        }
        Ok(bits)
    }
}
