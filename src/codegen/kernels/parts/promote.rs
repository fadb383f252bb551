//! The warp-specialised main loop of a GEMM whose K blocks carry their own scales (fp8 with
//! block scales, as DeepSeek's): each K block's wgmma writes a fresh partial accumulator, and the
//! previous block's partial is scaled and added into the f32 main accumulator while this one runs
//! on the tensor cores. Two partials are live at a time (the one in flight, the one being
//! promoted), so the tensor cores never wait for a promotion: the wait before it leaves one group
//! in flight (`wgmma_wait(1)`).
//!
//! ptxas keeps the wgmma pipeline only if no instruction touches an in-flight accumulator's
//! registers. So a "fresh" partial is not zeros (whose moves would be new registers) but a wgmma
//! with scale-d = 0 into the registers of a partial already promoted, and the loop handles two K
//! blocks a step, the two partials in two fixed sets of registers (one a step would need them
//! swapped at the back edge: copies of an accumulator in flight).

use crate::codegen::{DType, KernelBuilder, Result, Role, Value};

use super::gemm_loop::produce;
use super::{Epilogue, GemmLoop};

/// The scale of each K block's partial product.
pub trait BlockScale {
    /// The scale of K block `kt` of the tile at `origin` (first row and column), as a tile the
    /// accumulator can be multiplied by (broadcast: `[block_m, 1]` for per-row scales). Called
    /// right after the block's wgmma is issued, so its loads run under it; `stage` is the ring
    /// stage holding block `kt` (waited for, not yet released), `None` for a block loaded
    /// [`ahead`](Self::ahead) of its stage.
    fn scale(
        &self,
        kb: &mut KernelBuilder<'_>,
        origin: [Value; 2],
        kt: Value,
        stage: Option<Value>,
    ) -> Result<Value>;

    /// Whether the main loop loads K block `kt + 1`'s scale right after block `kt`'s wgmma
    /// (and block 0's before the tile's first wgmma), not block `kt`'s: a whole block ahead of
    /// its use, so that no instruction among a block's wgmmas waits for loads issued under the
    /// same block (ptxas hoists the scale's arithmetic there). `scale` is then also called with
    /// `kt` one past the last K block, and must mask its loads there. Off by default.
    fn ahead(&self) -> bool {
        false
    }
}

/// The warp-specialised main loop with a per-K-block scale: program `pid` of `programs` walks
/// `tiles` tiles (`pid, pid + programs, …`); the `producer` role loads every K block as in
/// [`gemm_mainloop_ws`](super::gemm_mainloop_ws); the `consumer` role issues each block's wgmma
/// into a fresh partial accumulator, then waits until only it is in flight, releases the previous
/// block's stage and adds that block's partial times its scale into the main accumulator, which
/// ends each tile in `epilogue`. `lp.k_tiles` must be at least 1 (the consumer peels the first
/// K block of each tile). The ring needs empty barriers for the consumer's threads. Waits for the
/// last stores before it returns.
pub fn gemm_mainloop_ws_scaled(
    kb: &mut KernelBuilder<'_>,
    lp: &GemmLoop,
    [producer, consumer]: [Role; 2],
    [pid, programs, tiles]: [Value; 3],
    scale: &dyn BlockScale,
    epilogue: &dyn Epilogue,
) -> Result<()> {
    produce(kb, lp, producer, [pid, programs, tiles])?;
    kb.in_role(consumer, |kb| {
        let ahead = scale.ahead();
        // Waits for fill `it` and issues its wgmma into the registers of `free` (an accumulator
        // already promoted: scale-d = 0 ignores its values, and no instruction writes them while
        // a wgmma may use them), then loads its scale.
        let issue = |kb: &mut KernelBuilder<'_>,
                     [it, kt, free]: [Value; 3],
                     origin: [Value; 2]|
         -> Result<(Value, Value)> {
            let (st, ph) = lp.ring.stage_of(kb, it)?;
            let (a_t, b_t) = lp.wait(kb, st, ph)?;
            let fresh = kb.const_int(DType::I1, 0)?;
            let partial = kb.wgmma_with(a_t, b_t, free, Some(fresh))?;
            let (kt, stage) = if ahead {
                (kb.add(kt, 1)?, None)
            } else {
                (kt, Some(st))
            };
            let s = scale.scale(kb, origin, kt, stage)?;
            Ok((partial, s))
        };
        // The scale of the block just issued, and the one loaded ahead to carry to the next
        // (`issued`: what `issue` loaded; `next`: the scale loaded a block before, if ahead).
        let shift = |issued: Value, next: Option<Value>| match next {
            Some(s) => (s, Some(issued)),
            None => (issued, None),
        };
        // `main + partial · s` once `partial` (of fill `fill`) is done, with only `pending`
        // groups left in flight; the fill's stage is released. Returns the new main accumulator
        // and the done partial (whose registers the next wgmma may take).
        let promote = |kb: &mut KernelBuilder<'_>,
                       pending: u32,
                       [main, partial, s, fill]: [Value; 4]|
         -> Result<(Value, Value)> {
            let done = kb.wgmma_wait(pending, &[partial])?[0];
            let (st, _) = lp.ring.stage_of(kb, fill)?;
            lp.ring.release(kb, st)?;
            Ok((kb.fma(done, s, main)?, done))
        };
        let zero = kb.i32(0)?;
        let (ra, rb) = (lp.zeros(kb)?, lp.zeros(kb)?);
        kb.for_range(0, tiles, 1, &[zero, ra, rb], |kb, local, carried| {
            let (it0, ra, rb) = (carried[0], carried[1], carried[2]);
            let at = lp.grid.persistent_origin(kb, pid, programs, local)?;
            let at = [at.0, at.1];
            let first = match ahead {
                true => Some(scale.scale(kb, at, zero, None)?),
                false => None,
            };
            let (p0, s0) = issue(kb, [it0, zero, ra], at)?;
            let (s0, next0) = match first {
                Some(f) => (f, Some(s0)),
                None => (s0, None),
            };
            let main0 = lp.zeros(kb)?;
            // K blocks 1.. in pairs: the two partials alternate between two fixed sets of
            // registers, so no copy of an in-flight accumulator is needed at the loop's back
            // edge (ptxas would serialise the wgmmas for it). `it` is the next fill.
            let k_rest = kb.sub(lp.k_tiles, 1)?;
            let pairs = kb.div(k_rest, 2)?;
            let it1 = kb.add(it0, 1)?;
            // Carried: main, the partial in flight and its scale, (ahead) the next block's
            // scale, the free partial's registers, the next fill.
            let o = usize::from(ahead);
            let carried = [&[main0, p0, s0][..], next0.as_slice(), &[rb, it1]].concat();
            let out = kb.for_range(0, pairs, 1, &carried, |kb, j, c| {
                let (main, pa, sa, next) = (c[0], c[1], c[2], ahead.then(|| c[3]));
                let (rb, it) = (c[3 + o], c[4 + o]);
                let kt = kb.mul(j, 2)?;
                let kt = kb.add(kt, 1)?;
                let (pb, sb) = issue(kb, [it, kt, rb], at)?;
                let (sb, next) = shift(sb, next);
                let prev = kb.sub(it, 1)?;
                let (main, ra) = promote(kb, 1, [main, pa, sa, prev])?;
                let it_b = kb.add(it, 1)?;
                let kt_b = kb.add(kt, 1)?;
                let (pa, sa) = issue(kb, [it_b, kt_b, ra], at)?;
                let (sa, next) = shift(sa, next);
                let (main, rb) = promote(kb, 1, [main, pb, sb, it])?;
                let it = kb.add(it, 2)?;
                Ok([&[main, pa, sa][..], next.as_slice(), &[rb, it]].concat())
            })?;
            let (main, pa, sa, next) = (out[0], out[1], out[2], ahead.then(|| out[3]));
            let (rb, it) = (out[3 + o], out[4 + o]);
            // An odd K block left: issue it, then promote both; else promote the last.
            let odd = kb.rem(k_rest, 2)?;
            let odd = kb.ne(odd, 0)?;
            let prev = kb.sub(it, 1)?;
            let done = kb.if_(
                odd,
                |kb| {
                    let kt = kb.sub(lp.k_tiles, 1)?;
                    let (pb, sb) = issue(kb, [it, kt, rb], at)?;
                    let (sb, _) = shift(sb, next);
                    let (main, ra) = promote(kb, 1, [main, pa, sa, prev])?;
                    let (main, rb) = promote(kb, 0, [main, pb, sb, it])?;
                    Ok(vec![main, ra, rb, kb.add(it, 1)?])
                },
                |kb| {
                    let (main, ra) = promote(kb, 0, [main, pa, sa, prev])?;
                    Ok(vec![main, ra, rb, it])
                },
            )?;
            epilogue.store(kb, done[0], at)?;
            Ok(vec![done[3], done[1], done[2]])
        })?;
        // Nothing may leave the kernel with a store reading shared memory.
        kb.tma_store_wait(0)
    })
}
