//! The shared-memory allocator: assigns each buffer a byte offset in the CTA's shared memory,
//! aligned as asked, takes freed bytes back for later buffers, and reports the peak, which the
//! kernel's signature carries ([`KernelSignature::shared_bytes`](crate::signature::KernelSignature::shared_bytes))
//! so a launch reserves it.
//!
//! Lowering is immediate, so there is no liveness analysis to run (Triton's allocator runs one
//! over the whole function): an op's scratch (a conversion's round trip, a reduction's or a
//! scan's partials) is freed when the op returns, and a user frees a buffer with
//! [`free_shared`](crate::codegen::KernelBuilder::free_shared). Freed bytes go on a free list;
//! a later request takes the first range that fits (or extends a free range that ends at the
//! peak), so two conversions in a row cost the larger scratch, not the sum. Requests under
//! [`REUSE_MIN_BYTES`] take only bytes that owe no barrier.
//!
//! Reuse needs a barrier: the old user's last reads (by any thread) must finish before the new
//! user's first write. A free range remembers whether a barrier has passed since it was freed
//! ([`fenced`](SharedMemory::fenced)); an allocation that takes unfenced bytes says so
//! ([`SharedAlloc::fence`]) and its caller synchronises before writing. Which barrier fences
//! what follows the control flow the builder emits:
//! - a barrier fences a range freed in the same scope (loop or branch body), or in a scope that
//!   has closed since (its code ran before the barrier); not one freed in an enclosing scope (the
//!   barrier's body may not run);
//! - inside a warp role, the barrier is the role's: it fences what the role freed, never what
//!   the CTA freed before the roles (other roles' threads may still read it), so a role takes
//!   CTA bytes only when already fenced, and nothing a role frees serves another role (roles run
//!   side by side). When the role ends its free ranges return to the CTA, unfenced;
//! - a replicated role's allocations are blocks of one copy per replica; a freed block serves
//!   only a later request of its role that fits its copies at the same stride, so each replica's
//!   new copy overlaps only that replica's old copy (which its own barrier fences).

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::target::Target;

/// The smallest request (bytes per replica) that takes freed bytes a barrier must fence first.
/// Below it the barrier costs more than the bytes save: a softmax's second reduction would add a
/// CTA barrier per row to spare 16 bytes. Fenced bytes are taken at any size (they cost nothing).
pub(crate) const REUSE_MIN_BYTES: u64 = 1024;

/// One buffer's place in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SharedAlloc {
    /// Byte offset from the start of the CTA's shared memory (a multiple of `align`).
    pub offset: u64,
    /// Size in bytes.
    pub bytes: u64,
    /// Alignment in bytes (a power of two).
    pub align: u64,
    /// The allocation's id, for [`SharedMemory::free`].
    pub id: usize,
    /// Whether the bytes were freed by an earlier user with no barrier since: the caller must
    /// synchronise (the barrier of its warp role, or the CTA's) before its first write.
    pub fence: bool,
}

/// An allocation's bookkeeping.
#[derive(Debug, Clone)]
struct Entry {
    alloc: SharedAlloc,
    /// The end of its last replica's copy.
    end: u64,
    /// The stride between replica copies (a replicated role's allocation).
    stride: Option<u64>,
    /// The warp role it was made in (`None`: the CTA).
    domain: Option<usize>,
    /// The scope it was made in: it is freed there.
    scope: u32,
    live: bool,
}

/// A range of freed bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FreeRange {
    start: u64,
    end: u64,
    /// The warp role that freed it (`None`: the CTA).
    domain: Option<usize>,
    /// The scope it was freed in.
    scope: u32,
    /// Whether a barrier of its domain has passed since (see the module doc).
    fenced: bool,
    /// A replicated block (reused whole, at this stride) rather than plain bytes.
    stride: Option<u64>,
}

/// The allocations of one kernel.
#[derive(Debug, Clone)]
pub(crate) struct SharedMemory {
    target: Target,
    /// Bytes a CTA may use on the target.
    capacity: u64,
    /// The peak: the end of the highest byte ever allocated.
    total: u64,
    entries: Vec<Entry>,
    free: Vec<FreeRange>,
    /// Copies of each new allocation: inside a replicated warp role, every replica needs its own
    /// scratch and buffers (they run the same code at the same time).
    replicas: u64,
    /// The warp role being emitted, if any.
    domain: Option<usize>,
    /// Buffers freed inside a loop body, held until it closes: (the body's scope, the range).
    /// The next iteration re-runs the body from its top, where the buffer is written again with
    /// no barrier after this iteration's last users of the bytes.
    held: Vec<(u32, FreeRange)>,
    /// The scopes of the loop bodies being emitted, innermost last.
    loops: Vec<u32>,
}

/// The free list at the start of a loop or branch body, to tell afterwards what the body changed.
#[derive(Debug, Clone)]
pub(crate) struct FreeSnapshot(Vec<FreeRange>);

impl SharedMemory {
    /// No allocations yet, with the target's capacity per CTA.
    pub fn new(target: Target) -> SharedMemory {
        SharedMemory {
            target,
            capacity: target.max_shared_bytes() as u64,
            total: 0,
            entries: Vec::new(),
            free: Vec::new(),
            replicas: 1,
            domain: None,
            held: Vec::new(),
            loops: Vec::new(),
        }
    }

    /// From now on, allocations are made by warp role `role`, each `replicas` copies one stride
    /// apart (1: a single one).
    pub fn enter_role(&mut self, role: usize, replicas: u64) {
        self.domain = Some(role);
        self.replicas = replicas.max(1);
    }

    /// Back to the CTA: what the role freed becomes CTA bytes, unfenced (the role's barriers
    /// did not order the other roles' threads).
    pub fn leave_role(&mut self) {
        if let Some(role) = self.domain.take() {
            for f in self.free.iter_mut().filter(|f| f.domain == Some(role)) {
                f.domain = None;
                f.fenced = false;
                f.stride = None;
            }
            self.coalesce();
        }
        self.replicas = 1;
    }

    /// The stride between the copies of the live replicated allocation holding byte `offset`
    /// (of its first copy), if it is one.
    pub fn replica_stride(&self, offset: u64) -> Option<u64> {
        self.entries
            .iter()
            .rev()
            .filter(|e| e.live)
            .find(|e| offset >= e.alloc.offset && offset < e.alloc.offset + e.alloc.bytes.max(1))
            .and_then(|e| e.stride)
    }

    /// Reserves `bytes` at a multiple of `align` (a power of two) for `op`, made in scope
    /// `scope`: freed bytes if a range fits, else past the peak. Fails with
    /// [`CodegenError::SharedMemoryExceeded`] past the target's capacity (the allocator is then
    /// unchanged).
    pub fn alloc(
        &mut self,
        op: &'static str,
        bytes: u64,
        align: u64,
        scope: u32,
    ) -> Result<SharedAlloc> {
        if align == 0 || !align.is_power_of_two() {
            return Err(CodegenError::arg(
                op,
                format!("shared-memory alignment {align} is not a power of two"),
            ));
        }
        let exceeded =
            |end: Option<u64>, capacity: u64, target: Target| CodegenError::SharedMemoryExceeded {
                op,
                requested: bytes,
                total: end.unwrap_or(u64::MAX),
                capacity,
                target: target.to_string(),
            };
        let stride = bytes.checked_next_multiple_of(align);
        let span = stride
            .and_then(|s| s.checked_mul(self.replicas - 1))
            .and_then(|s| s.checked_add(bytes))
            .ok_or_else(|| exceeded(None, self.capacity, self.target))?;
        let stride = stride.expect("checked with the span");
        let (offset, stride, fence) = match self.take_free(bytes, span, align) {
            Some(found) => found,
            None => {
                let offset = self.total.checked_next_multiple_of(align);
                let end = offset.and_then(|o| o.checked_add(span));
                match (offset, end) {
                    (Some(offset), Some(end)) if end <= self.capacity => {
                        self.total = end;
                        (offset, stride, false)
                    }
                    _ => return Err(exceeded(end, self.capacity, self.target)),
                }
            }
        };
        let a = SharedAlloc {
            offset,
            bytes,
            align,
            id: self.entries.len(),
            fence,
        };
        self.entries.push(Entry {
            alloc: a,
            end: offset + stride * (self.replicas - 1) + bytes,
            stride: (self.replicas > 1).then_some(stride),
            domain: self.domain,
            scope,
            live: true,
        });
        Ok(a)
    }

    /// A freed range for a request of `span` bytes (`bytes` per replica) at `align`: (offset,
    /// replica stride, whether a barrier is owed). Takes a replicated block whole, or carves
    /// plain bytes out of the first range that fits, or extends a range that ends at the peak.
    fn take_free(&mut self, bytes: u64, span: u64, align: u64) -> Option<(u64, u64, bool)> {
        let domain = self.domain;
        let may_owe = bytes >= REUSE_MIN_BYTES;
        // Inside a role only the role's own ranges, and CTA ranges a CTA barrier has fenced.
        let usable = |f: &FreeRange| {
            (f.domain == domain && (f.fenced || may_owe)) || (f.domain.is_none() && f.fenced)
        };
        if self.replicas > 1 {
            let r = self.replicas - 1;
            let block = self.free.iter().position(|f| {
                f.domain == domain
                    && (f.fenced || may_owe)
                    && f.stride.is_some_and(|s| {
                        bytes <= s
                            && s % align == 0
                            && f.start % align == 0
                            && f.start + s * r + bytes <= f.end
                    })
            });
            if let Some(i) = block {
                let f = self.free.remove(i);
                return Some((f.start, f.stride.expect("a block"), !f.fenced));
            }
        }
        let stride = bytes.next_multiple_of(align);
        let fits = |f: &FreeRange| -> Option<u64> {
            let at = f.start.checked_next_multiple_of(align)?;
            (f.stride.is_none() && usable(f) && at.checked_add(span)? <= f.end).then_some(at)
        };
        if let Some((i, at)) = self
            .free
            .iter()
            .enumerate()
            .find_map(|(i, f)| Some((i, fits(f)?)))
        {
            let f = self.free.remove(i);
            self.give_back_rest(f, at, at + span);
            return Some((at, stride, !f.fenced));
        }
        // A range that ends at the peak grows past it.
        let total = self.total;
        let tail = self.free.iter().position(|f| {
            f.end == total && f.stride.is_none() && usable(f) && {
                let at = f.start.next_multiple_of(align);
                at < f.end && at.checked_add(span).is_some_and(|e| e <= self.capacity)
            }
        })?;
        let f = self.free.remove(tail);
        let at = f.start.next_multiple_of(align);
        self.give_back_rest(f, at, f.end);
        self.total = at + span;
        Some((at, stride, !f.fenced))
    }

    /// Returns the parts of `f` outside `[from, to)` to the free list.
    fn give_back_rest(&mut self, f: FreeRange, from: u64, to: u64) {
        if f.start < from {
            self.free.push(FreeRange { end: from, ..f });
        }
        if to < f.end {
            self.free.push(FreeRange { start: to, ..f });
        }
    }

    /// Frees allocation `id` (made in scope `scope`) for `op`: its bytes serve later requests;
    /// with `hold`, inside a loop body only once the innermost loop body closes (a user's buffer,
    /// which the body's next iteration writes again with no barrier of its own; op scratch is
    /// written after one).
    /// Freeing twice, or from another scope or warp role than the allocation's (a loop body
    /// freeing a buffer made before the loop would free it again on every iteration), is an
    /// error naming `what`.
    pub fn free(
        &mut self,
        op: &'static str,
        id: usize,
        scope: u32,
        what: &str,
        hold: bool,
    ) -> Result<()> {
        let domain = self.domain;
        let e = self
            .entries
            .get_mut(id)
            .ok_or_else(|| CodegenError::arg(op, format!("{what}: no such allocation")))?;
        if !e.live {
            return Err(CodegenError::arg(op, format!("{what} is already freed")));
        }
        if e.scope != scope || e.domain != domain {
            return Err(CodegenError::arg(
                op,
                format!(
                    "{what} was allocated in another loop or branch body (or warp role) than this \
                     one: free it where it was allocated"
                ),
            ));
        }
        e.live = false;
        let range = FreeRange {
            start: e.alloc.offset,
            end: e.end,
            domain,
            scope,
            fenced: false,
            stride: e.stride,
        };
        if let (true, Some(&body)) = (hold, self.loops.last()) {
            self.held.push((body, range));
        } else {
            self.free.push(range);
            self.coalesce();
        }
        Ok(())
    }

    /// The free list now, before a loop or branch body.
    pub fn snapshot(&self) -> FreeSnapshot {
        FreeSnapshot(self.free.clone())
    }

    /// A loop body `scope` is being emitted (until [`scope_closed`](Self::scope_closed)).
    pub fn loop_opened(&mut self, scope: u32) {
        self.loops.push(scope);
    }

    /// Body `scope` has closed: its held buffers are freed, and every free range the body made
    /// or changed (since `before`) is unfenced. A loop body may run no time and a branch body
    /// may be skipped, so what its barriers fenced, and bytes it took and gave back, hold only
    /// on some paths; the next user after the body synchronises again.
    pub fn scope_closed(&mut self, scope: u32, before: &FreeSnapshot) {
        if self.loops.last() == Some(&scope) {
            self.loops.pop();
        }
        let (released, kept): (Vec<_>, Vec<_>) =
            self.held.drain(..).partition(|&(s, _)| s == scope);
        self.held = kept;
        let domain = self.domain;
        // A role's body (and its loops) closes after the role has ended: its bytes go to the CTA.
        self.free
            .extend(released.into_iter().map(|(_, r)| FreeRange {
                domain,
                stride: if r.domain == domain { r.stride } else { None },
                ..r
            }));
        for f in self.free.iter_mut() {
            if !before.0.contains(f) {
                f.fenced = false;
            }
        }
        self.coalesce();
    }

    /// Whether allocation `id` has been freed.
    pub fn is_freed(&self, id: usize) -> bool {
        self.entries.get(id).is_some_and(|e| !e.live)
    }

    /// A barrier of the current domain (the CTA's, or the current role's) was emitted in scope
    /// `scope`: it fences the domain's ranges freed there or in scopes `closed` says have ended.
    pub fn fenced(&mut self, scope: u32, closed: impl Fn(u32) -> bool) {
        let domain = self.domain;
        for f in self.free.iter_mut() {
            if f.domain == domain && (f.scope == scope || closed(f.scope)) {
                f.fenced = true;
            }
        }
        self.coalesce();
    }

    /// Merges adjacent plain ranges that agree on domain and fence (and, unfenced, on the scope
    /// a barrier must be in to fence them).
    fn coalesce(&mut self) {
        self.free.sort_by_key(|f| f.start);
        let mut out: Vec<FreeRange> = Vec::with_capacity(self.free.len());
        for f in self.free.drain(..) {
            match out.last_mut() {
                Some(l)
                    if l.end == f.start
                        && l.stride.is_none()
                        && f.stride.is_none()
                        && (l.domain, l.fenced) == (f.domain, f.fenced)
                        && (l.fenced || l.scope == f.scope) =>
                {
                    l.end = f.end;
                }
                _ => out.push(f),
            }
        }
        self.free = out;
    }

    /// After a loop body's recording that its carried facts broke (it is recorded again): the
    /// allocator as it was before it, keeping only the peak (a harmless over-reservation).
    pub fn restore(&mut self, before: SharedMemory) {
        let total = self.total.max(before.total);
        *self = before;
        self.total = total;
    }

    /// Bytes of shared memory the kernel uses: the peak.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The buffers, in allocation order.
    #[cfg_attr(not(test), allow(dead_code))] // the unit tests read it
    pub fn allocs(&self) -> Vec<SharedAlloc> {
        self.entries.iter().map(|e| e.alloc).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicated_allocations_take_a_copy_per_replica_one_stride_apart() {
        let mut s = SharedMemory::new(Target::SM90);
        s.alloc("t", 8, 8, 0).unwrap();
        s.enter_role(0, 3);
        let a = s.alloc("t", 20, 16, 0).unwrap();
        assert_eq!(a.offset, 16);
        // Copies at 16, 48, 80 (stride 32): the total ends after the third.
        assert_eq!(s.total(), 80 + 20);
        assert_eq!(s.replica_stride(16), Some(32));
        assert_eq!(s.replica_stride(35), Some(32));
        assert_eq!(s.replica_stride(0), None, "made before the role");
        s.leave_role();
        let b = s.alloc("t", 4, 4, 0).unwrap();
        assert_eq!((b.offset, s.replica_stride(b.offset)), (100, None));
    }

    #[test]
    fn offsets_are_aligned_and_the_total_is_the_end_of_the_last_buffer() {
        let mut s = SharedMemory::new(Target::SM90);
        assert_eq!(s.total(), 0);
        let a = s.alloc("t", 6, 2, 0).unwrap();
        assert_eq!((a.offset, a.bytes), (0, 6));
        let b = s.alloc("t", 4, 16, 0).unwrap();
        assert_eq!(b.offset, 16);
        let c = s.alloc("t", 1, 1, 0).unwrap();
        assert_eq!(c.offset, 20);
        let d = s.alloc("t", 8, 8, 0).unwrap();
        assert_eq!(d.offset, 24);
        assert_eq!(s.total(), 32);
        assert_eq!(s.allocs().len(), 4);
        assert!(s.allocs().iter().all(|a| a.offset % a.align == 0));
        assert!(
            s.allocs().iter().all(|a| !a.fence),
            "fresh bytes owe no barrier"
        );
    }

    #[test]
    fn the_whole_capacity_fits_and_one_byte_more_is_a_typed_error() {
        for t in [Target::SM80, Target::SM90, Target::GFX942] {
            let cap = t.max_shared_bytes() as u64;
            let mut s = SharedMemory::new(t);
            s.alloc("t", cap, 128, 0).unwrap();
            assert_eq!(s.total(), cap);
            let e = s.alloc("local_alloc", 1, 1, 0).unwrap_err();
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
        let e = s.alloc("local_alloc", 300_000, 16, 0).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("300000 bytes"), "{msg}");
        assert!(msg.contains("232448"), "{msg}");
        assert!(msg.contains("sm_90"), "{msg}");
        // Alignment padding counts too.
        s.alloc("t", 1, 1, 0).unwrap();
        let cap = Target::SM90.max_shared_bytes() as u64;
        assert!(s.alloc("t", cap - 8, 16, 0).is_err());
        assert!(s.alloc("t", u64::MAX, 1, 0).is_err());
        assert!(s.alloc("t", 1, 3, 0).is_err());
    }

    /// Allocates `bytes` at scope 0, aligned 16.
    fn take(s: &mut SharedMemory, bytes: u64) -> SharedAlloc {
        s.alloc("t", bytes, 16, 0).unwrap()
    }

    #[test]
    fn freed_bytes_serve_the_next_request_and_the_peak_is_the_max_not_the_sum() {
        let mut s = SharedMemory::new(Target::SM90);
        let keep = take(&mut s, 64);
        let a = take(&mut s, 8192);
        s.free("t", a.id, 0, "a", false).unwrap();
        // A smaller request fits inside; a barrier is owed (the old user's reads).
        let b = take(&mut s, 4096);
        assert_eq!((b.offset, b.fence), (a.offset, true));
        s.free("t", b.id, 0, "b", false).unwrap();
        // A larger one grows the freed range at the peak: 64 + 16384, not 64 + 8192 + 16384.
        let c = take(&mut s, 16384);
        assert_eq!((c.offset, c.fence), (64, true));
        assert_eq!(s.total(), 64 + 16384);
        assert!(!s.is_freed(keep.id) && s.is_freed(a.id) && !s.is_freed(c.id));
    }

    #[test]
    fn a_barrier_in_the_freeing_scope_or_after_it_closed_fences_but_one_in_a_nested_body_does_not()
    {
        let mut s = SharedMemory::new(Target::SM90);
        let a = take(&mut s, 2048);
        s.free("t", a.id, 0, "a", false).unwrap();
        // A barrier inside a loop body (scope 3) may not run: still unfenced.
        s.fenced(3, |_| false);
        let b = take(&mut s, 2048);
        assert!(b.fence);
        s.free("t", b.id, 0, "b", false).unwrap();
        s.fenced(0, |_| false);
        let c = take(&mut s, 2048);
        assert!(!c.fence, "fenced by a barrier in the same scope");
        // Freed in a body (scope 5) that has since closed: a barrier after it fences.
        let d = s.alloc("t", 128, 16, 5).unwrap();
        s.free("t", d.id, 5, "d", false).unwrap();
        s.fenced(0, |sc| sc == 5);
        let e = s.alloc("t", 128, 16, 0).unwrap();
        assert_eq!((e.offset, e.fence), (d.offset, false));
    }

    #[test]
    fn frees_are_checked() {
        let mut s = SharedMemory::new(Target::SM90);
        let a = take(&mut s, 256);
        let e = s
            .free("free_shared", a.id, 2, "shared<64xf32>", true)
            .unwrap_err();
        assert!(e.to_string().contains("where it was allocated"), "{e}");
        s.free("free_shared", a.id, 0, "shared<64xf32>", false)
            .unwrap();
        let e = s
            .free("free_shared", a.id, 0, "shared<64xf32>", true)
            .unwrap_err();
        assert!(
            e.to_string().contains("shared<64xf32> is already freed"),
            "{e}"
        );
    }

    #[test]
    fn roles_never_take_bytes_another_role_or_an_unfenced_cta_freed() {
        let mut s = SharedMemory::new(Target::SM90);
        let a = take(&mut s, 1024);
        s.free("t", a.id, 0, "a", false).unwrap();
        s.enter_role(0, 1);
        // Unfenced CTA bytes: other roles' threads may still read them.
        let b = s.alloc("t", 1024, 16, 1).unwrap();
        assert_eq!(b.offset, 1024);
        s.free("t", b.id, 1, "b", false).unwrap();
        let c = s.alloc("t", 1024, 16, 1).unwrap();
        assert_eq!(
            (c.offset, c.fence),
            (1024, true),
            "the role's own bytes, after its barrier"
        );
        s.free("t", c.id, 1, "c", false).unwrap();
        s.leave_role();
        s.enter_role(1, 1);
        let d = s.alloc("t", 1024, 16, 2).unwrap();
        assert_eq!(
            d.offset, 2048,
            "not role 0's bytes: role 0 may still read them"
        );
        s.leave_role();
        // Back in the CTA, a CTA barrier fences everything freed.
        s.fenced(0, |sc| sc != 0);
        let e = take(&mut s, 2048);
        assert_eq!((e.offset, e.fence), (0, false));
    }

    #[test]
    fn a_replicated_block_is_reused_whole_at_its_stride() {
        let mut s = SharedMemory::new(Target::SM90);
        s.enter_role(0, 2);
        let a = s.alloc("t", 1100, 16, 1).unwrap();
        assert_eq!(s.replica_stride(a.offset), Some(1104));
        s.free("t", a.id, 1, "a", false).unwrap();
        // Fits each copy in the old copy of the same replica: same place, same stride.
        let b = s.alloc("t", 1024, 16, 1).unwrap();
        assert_eq!((b.offset, b.fence), (a.offset, true));
        assert_eq!(s.replica_stride(b.offset), Some(1104));
        s.free("t", b.id, 1, "b", false).unwrap();
        // Too large for a copy: new bytes.
        let c = s.alloc("t", 2000, 16, 1).unwrap();
        assert_eq!(c.offset, 2208, "after the block's 1104 + 1100 bytes");
        assert_eq!(s.replica_stride(c.offset), Some(2000));
        s.free("t", c.id, 1, "c", false).unwrap();
        // A small request takes only fenced bytes: new ones past the peak.
        let d = s.alloc("t", 64, 16, 1).unwrap();
        assert_eq!((d.offset, d.fence), (2208 + 2000 + 2000, false));
        s.leave_role();
    }

    #[test]
    fn a_body_holds_its_freed_buffers_and_unfences_what_it_changed() {
        let mut s = SharedMemory::new(Target::SM90);
        let a = take(&mut s, 2048);
        let _keep = take(&mut s, 16);
        s.free("t", a.id, 0, "a", false).unwrap();
        s.fenced(0, |_| false);
        let before = s.snapshot();
        s.loop_opened(4);
        // In a loop body (scope 4): a buffer freed there is held until the body closes.
        let b = s.alloc("t", 4096, 16, 4).unwrap();
        s.free("t", b.id, 4, "b", true).unwrap();
        let c = s.alloc("t", 4096, 16, 4).unwrap();
        assert_ne!(
            c.offset, b.offset,
            "held: the next iteration writes b's bytes again"
        );
        // It takes the fenced range from before the body, and gives it back fenced in the body.
        let d = s.alloc("t", 2048, 16, 4).unwrap();
        assert_eq!((d.offset, d.fence), (a.offset, false));
        s.free("t", d.id, 4, "d", false).unwrap();
        s.fenced(4, |_| false);
        s.scope_closed(4, &before);
        // The body may not have run: neither its fence nor its free counts after it.
        let e = take(&mut s, 2048);
        assert_eq!((e.offset, e.fence), (a.offset, true));
        let f = take(&mut s, 4096);
        assert_eq!((f.offset, f.fence), (b.offset, true));
    }
}
