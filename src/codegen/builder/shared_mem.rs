//! The shared-memory allocator: assigns each buffer a byte offset in the CTA's shared memory,
//! aligned as asked, and reports the total, which the kernel's signature carries
//! ([`KernelSignature::shared_bytes`](crate::signature::KernelSignature::shared_bytes)) so a
//! launch reserves it. Buffers live as long as the kernel (no reuse yet).

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::target::Target;

/// One buffer's place in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SharedAlloc {
    /// Byte offset from the start of the CTA's shared memory (a multiple of `align`).
    pub offset: u64,
    /// Size in bytes.
    pub bytes: u64,
    /// Alignment in bytes (a power of two).
    pub align: u64,
}

/// The allocations of one kernel.
#[derive(Debug, Clone)]
pub(crate) struct SharedMemory {
    target: Target,
    /// Bytes a CTA may use on the target.
    capacity: u64,
    /// The end of the last allocation.
    total: u64,
    allocs: Vec<SharedAlloc>,
    /// Copies of each new allocation: inside a replicated warp role, every replica needs its own
    /// scratch and buffers (they run the same code at the same time).
    replicas: u64,
    /// Replicated allocations: (first copy's offset, its bytes, the stride between copies).
    replicated: Vec<(u64, u64, u64)>,
}

impl SharedMemory {
    /// No allocations yet, with the target's capacity per CTA.
    pub fn new(target: Target) -> SharedMemory {
        SharedMemory {
            target,
            capacity: target.max_shared_bytes() as u64,
            total: 0,
            allocs: Vec::new(),
            replicas: 1,
            replicated: Vec::new(),
        }
    }

    /// From now on, each allocation is `count` copies one stride apart (1: a single one).
    pub fn set_replicas(&mut self, count: u64) {
        self.replicas = count.max(1);
    }

    /// The stride between the copies of the replicated allocation holding byte `offset` (a
    /// first copy's), if it is one.
    pub fn replica_stride(&self, offset: u64) -> Option<u64> {
        self.replicated
            .iter()
            .find(|&&(start, bytes, _)| offset >= start && offset < start + bytes.max(1))
            .map(|&(_, _, stride)| stride)
    }

    /// Reserves `bytes` at the next multiple of `align` (a power of two) for `op`. Fails with
    /// [`CodegenError::SharedMemoryExceeded`] past the target's capacity (the allocator is then
    /// unchanged).
    #[cfg_attr(not(test), allow(dead_code))] // the shared-memory ops call it
    pub fn alloc(&mut self, op: &'static str, bytes: u64, align: u64) -> Result<SharedAlloc> {
        if align == 0 || !align.is_power_of_two() {
            return Err(CodegenError::arg(
                op,
                format!("shared-memory alignment {align} is not a power of two"),
            ));
        }
        let stride = bytes.checked_next_multiple_of(align);
        let span = stride
            .and_then(|s| s.checked_mul(self.replicas - 1))
            .and_then(|s| s.checked_add(bytes));
        let offset = self.total.checked_next_multiple_of(align);
        let end = offset.and_then(|o| o.checked_add(span?));
        match (offset, end) {
            (Some(offset), Some(end)) if end <= self.capacity => {
                let a = SharedAlloc {
                    offset,
                    bytes,
                    align,
                };
                self.total = end;
                self.allocs.push(a);
                if self.replicas > 1 {
                    let stride = stride.expect("checked with the end");
                    self.replicated.push((offset, bytes, stride));
                }
                Ok(a)
            }
            _ => Err(CodegenError::SharedMemoryExceeded {
                op,
                requested: bytes,
                total: end.unwrap_or(u64::MAX),
                capacity: self.capacity,
                target: self.target.to_string(),
            }),
        }
    }

    /// Bytes of shared memory the kernel uses: the end of its last buffer.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The buffers, in allocation order.
    #[cfg_attr(not(test), allow(dead_code))] // the shared-memory ops call it
    pub fn allocs(&self) -> &[SharedAlloc] {
        &self.allocs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicated_allocations_take_a_copy_per_replica_one_stride_apart() {
        let mut s = SharedMemory::new(Target::SM90);
        s.alloc("t", 8, 8).unwrap();
        s.set_replicas(3);
        let a = s.alloc("t", 20, 16).unwrap();
        assert_eq!(a.offset, 16);
        // Copies at 16, 48, 80 (stride 32): the total ends after the third.
        assert_eq!(s.total(), 80 + 20);
        assert_eq!(s.replica_stride(16), Some(32));
        assert_eq!(s.replica_stride(35), Some(32));
        assert_eq!(s.replica_stride(0), None, "made before the role");
        s.set_replicas(1);
        let b = s.alloc("t", 4, 4).unwrap();
        assert_eq!((b.offset, s.replica_stride(b.offset)), (100, None));
    }

    #[test]
    fn offsets_are_aligned_and_the_total_is_the_end_of_the_last_buffer() {
        let mut s = SharedMemory::new(Target::SM90);
        assert_eq!(s.total(), 0);
        let a = s.alloc("t", 6, 2).unwrap();
        assert_eq!((a.offset, a.bytes), (0, 6));
        let b = s.alloc("t", 4, 16).unwrap();
        assert_eq!(b.offset, 16);
        let c = s.alloc("t", 1, 1).unwrap();
        assert_eq!(c.offset, 20);
        let d = s.alloc("t", 8, 8).unwrap();
        assert_eq!(d.offset, 24);
        assert_eq!(s.total(), 32);
        assert_eq!(s.allocs().len(), 4);
        assert!(s.allocs().iter().all(|a| a.offset % a.align == 0));
    }

    #[test]
    fn the_whole_capacity_fits_and_one_byte_more_is_a_typed_error() {
        for t in [Target::SM80, Target::SM90, Target::GFX942] {
            let cap = t.max_shared_bytes() as u64;
            let mut s = SharedMemory::new(t);
            s.alloc("t", cap, 128).unwrap();
            assert_eq!(s.total(), cap);
            let e = s.alloc("local_alloc", 1, 1).unwrap_err();
            assert_eq!(
                e,
                CodegenError::SharedMemoryExceeded {
                    op: "local_alloc",
                    requested: 1,
                    total: cap + 1,
                    capacity: cap,
                    target: t.to_string(),
                }
            );
            assert_eq!(s.total(), cap, "a failed request changes nothing");
        }
    }

    #[test]
    fn a_request_above_the_capacity_names_its_size() {
        let mut s = SharedMemory::new(Target::SM90);
        let e = s.alloc("local_alloc", 300_000, 16).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("300000 bytes"), "{msg}");
        assert!(msg.contains("232448"), "{msg}");
        assert!(msg.contains("sm_90"), "{msg}");
        // Alignment padding counts too.
        s.alloc("t", 1, 1).unwrap();
        let cap = Target::SM90.max_shared_bytes() as u64;
        assert!(s.alloc("t", cap - 8, 16).is_err());
        assert!(s.alloc("t", u64::MAX, 1).is_err());
        assert!(s.alloc("t", 1, 3).is_err());
    }
}
