//! Shared memory of one CTA, with the checks compute-sanitizer makes: a read of a byte another
//! thread wrote since the last barrier (racecheck), a read of a byte an asynchronous copy has
//! not been waited for (racecheck), and a read of a byte never written (initcheck). And one the
//! hardware makes silently: a write to bytes a `wgmma` group may still read (the tensor cores
//! read their shared operands at any time until the `wgmma_wait` that retires the group; the
//! interpreter reads them at issue, so without this check an early release of a stage would
//! look right here and be wrong on the GPU).

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
    /// Bytes that wgmma op `op` may still read: its group is not retired yet.
    ReadByWgmma {
        /// The wgmma op.
        op: u32,
    },
}

/// One wgmma group's shared operands: byte ranges `[start, end)` the tensor cores may read
/// until task `task` retires the group.
#[derive(Debug)]
struct WgmmaReads {
    task: u32,
    op: u32,
    ranges: Vec<(u64, u64)>,
}

/// The CTA's shared memory.
#[derive(Debug)]
pub struct SharedMem {
    bytes: Vec<u8>,
    marks: Vec<Option<Mark>>,
    epoch: u64,
    /// The wgmma groups in flight, oldest first.
    wgmma: Vec<WgmmaReads>,
}

impl SharedMem {
    /// `size` bytes, none written.
    pub fn new(size: u64) -> SharedMem {
        SharedMem {
            bytes: vec![0; size as usize],
            marks: vec![None; size as usize],
            epoch: 0,
            wgmma: Vec::new(),
        }
    }

    /// A wgmma group of task `task` (op `op`) issued over `ranges` of shared bytes.
    pub fn wgmma_issued(&mut self, task: u32, op: u32, ranges: Vec<(u64, u64)>) {
        self.wgmma.push(WgmmaReads { task, op, ranges });
    }

    /// How many groups `wgmma_wait(pending)` in task `task` retires.
    pub fn wgmma_retiring(&self, task: u32, pending: usize) -> usize {
        let mine = self.wgmma.iter().filter(|g| g.task == task).count();
        mine.saturating_sub(pending)
    }

    /// `wgmma_wait(pending)` in task `task`: all but its newest `pending` groups are done.
    pub fn wgmma_waited(&mut self, task: u32, pending: usize) {
        let mut retire = self.wgmma_retiring(task, pending);
        self.wgmma.retain(|g| {
            let done = g.task == task && retire > 0;
            if done {
                retire -= 1;
            }
            !done
        });
    }

    /// A barrier of every thread: what was written before it is visible after it.
    pub fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// Asynchronous copies waited for: their bytes are the writes of `thread` now, or with
    /// `None` of the threads that issued them (`cp.async.wait_group` makes a thread's own copies
    /// visible to it), published to other threads by the next barrier.
    pub fn complete_async(&mut self, thread: Option<u32>) {
        let epoch = self.epoch;
        for m in self.marks.iter_mut().flatten() {
            if m.in_flight {
                m.in_flight = false;
                m.thread = thread.unwrap_or(m.thread);
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
        let read = self
            .wgmma
            .iter()
            .find(|g| g.ranges.iter().any(|&(lo, hi)| addr < hi && lo < end));
        if let Some(g) = read {
            return Err(Fault::ReadByWgmma { op: g.op });
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
