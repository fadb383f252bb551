//! How many CTAs of a kernel an NVIDIA SM holds at once, from its threads, ptxas's register
//! count and its shared memory, and so how many bytes its loads can keep in flight per SM: the
//! figure a memory-bound kernel must raise to reach the copy bandwidth (an H100 or H200 needs
//! some 32–64 KB in flight per SM to cover HBM's latency).
//!
//! The limits are the CUDA occupancy calculator's for sm_80 and sm_90: 2048 threads and 32 CTAs
//! per SM, 65536 registers allocated per warp in units of 256 (a thread's count rounded up to
//! 8), shared memory of 164 KB (sm_80) or 228 KB (sm_90) per SM with 1 KB reserved per CTA.

use super::{CodegenError, Result, Target, Vendor};

/// What bounds [`Occupancy::ctas_per_sm`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OccupancyLimit {
    /// The SM's 2048 threads.
    Threads,
    /// The SM's 32 CTAs.
    Ctas,
    /// The register file (65536 per SM).
    Registers,
    /// Shared memory.
    Shared,
}

/// The CTAs of one kernel resident on an SM, and what stops one more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Occupancy {
    /// CTAs resident at once (0 when one does not fit).
    pub ctas_per_sm: u32,
    /// The resource that bounds them.
    pub limit: OccupancyLimit,
}

impl Occupancy {
    /// Bytes in flight per SM when every resident CTA has `bytes_per_cta` loads issued before
    /// their first use (an upper bound: a CTA reducing or storing has none in flight).
    pub fn bytes_in_flight(&self, bytes_per_cta: u64) -> u64 {
        self.ctas_per_sm as u64 * bytes_per_cta
    }
}

const THREADS_PER_SM: u32 = 2048;
const CTAS_PER_SM: u32 = 32;
const REGISTERS_PER_SM: u32 = 65536;
/// Registers are allocated per warp in units of this many.
const REGISTER_UNIT: u32 = 256;
const SHARED_RESERVED_PER_CTA: u64 = 1024;

/// The occupancy of CTAs of `threads` threads using `registers` registers a thread (ptxas's
/// `-v` figure) and `shared_bytes` of shared memory, on `target`.
///
/// Errors: an AMD target (its occupancy follows other rules), no threads, more than 1024
/// threads, or more than 255 registers a thread.
pub fn occupancy(
    target: Target,
    threads: u32,
    registers: u32,
    shared_bytes: u64,
) -> Result<Occupancy> {
    const OP: &str = "occupancy";
    if target.vendor() != Vendor::Nvidia {
        return Err(CodegenError::Unsupported {
            op: OP,
            target: target.to_string(),
            reason: "the occupancy rules here are NVIDIA's".into(),
        });
    }
    if !(1..=1024).contains(&threads) {
        return Err(CodegenError::arg(
            OP,
            format!("{threads} threads a CTA: 1 to 1024"),
        ));
    }
    if registers > 255 {
        return Err(CodegenError::arg(
            OP,
            format!("{registers} registers a thread: at most 255"),
        ));
    }
    let warps = threads.div_ceil(target.warp_size());
    let per_warp = (registers.max(1).next_multiple_of(8) * 32).next_multiple_of(REGISTER_UNIT);
    let by_regs = (REGISTERS_PER_SM / per_warp) / warps;
    let sm_shared: u64 = if target.sm().is_some_and(|s| s >= 90) {
        228 * 1024
    } else {
        164 * 1024
    };
    let by_shared = match shared_bytes {
        0 => u32::MAX,
        s if s > target.max_shared_bytes() as u64 => 0,
        s => (sm_shared / (s + SHARED_RESERVED_PER_CTA)) as u32,
    };
    let candidates = [
        (THREADS_PER_SM / threads, OccupancyLimit::Threads),
        (CTAS_PER_SM, OccupancyLimit::Ctas),
        (by_regs, OccupancyLimit::Registers),
        (by_shared, OccupancyLimit::Shared),
    ];
    let (ctas_per_sm, limit) = candidates
        .into_iter()
        .min_by_key(|&(n, _)| n)
        .unwrap_or((0, OccupancyLimit::Threads));
    Ok(Occupancy { ctas_per_sm, limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calculators_figures() {
        // 1024 threads at 64 registers fill the register file once; at 32, twice (threads).
        let o = occupancy(Target::SM90, 1024, 64, 0).unwrap();
        assert_eq!((o.ctas_per_sm, o.limit), (1, OccupancyLimit::Registers));
        let o = occupancy(Target::SM90, 1024, 32, 0).unwrap();
        assert_eq!((o.ctas_per_sm, o.limit), (2, OccupancyLimit::Threads));
        // 256 threads at 72 registers (rounded to 72: 2304 a warp, 28 warps): 3 CTAs.
        let o = occupancy(Target::SM90, 256, 70, 0).unwrap();
        assert_eq!((o.ctas_per_sm, o.limit), (3, OccupancyLimit::Registers));
        // 64 KB of shared memory a CTA: 3 on sm_90 (228 KB), 2 on sm_80 (164 KB).
        let o = occupancy(Target::SM90, 128, 32, 64 * 1024).unwrap();
        assert_eq!((o.ctas_per_sm, o.limit), (3, OccupancyLimit::Shared));
        let o = occupancy(Target::SM80, 128, 32, 64 * 1024).unwrap();
        assert_eq!(o.ctas_per_sm, 2);
        assert_eq!(o.bytes_in_flight(1000), 2000);
        // 32 threads at 16 registers: the 32-CTA cap.
        let o = occupancy(Target::SM90, 32, 16, 0).unwrap();
        assert_eq!((o.ctas_per_sm, o.limit), (32, OccupancyLimit::Ctas));
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(occupancy(Target::GFX942, 256, 32, 0).is_err());
        assert!(occupancy(Target::SM90, 0, 32, 0).is_err());
        assert!(occupancy(Target::SM90, 2048, 32, 0).is_err());
        assert!(occupancy(Target::SM90, 256, 256, 0).is_err());
        let o = occupancy(Target::SM90, 256, 32, 300 * 1024).unwrap();
        assert_eq!((o.ctas_per_sm, o.limit), (0, OccupancyLimit::Shared));
    }
}
