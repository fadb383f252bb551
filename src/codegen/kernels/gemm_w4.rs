//! 4-bit weights for decoding: `Y = X · dequant(W)ᵀ` with X f16 or bf16 `[M, K]` (M = 1–128
//! tokens) and W int4 `[N, K]` packed two to a byte along K (`w[n, k / 2]`: the low nibble holds
//! the even k, the high one the odd k), each nibble `q` meaning `(q - 8) · s[n, k / 128]` with
//! `s` `[N, ⌈K/128⌉]` in X's type (symmetric group-128 quantisation).
//!
//! As in the skinny GEMM, W fills the tensor cores' rows and the tokens their columns, and the K
//! blocks are split over programs (f32 partials summed in split order, by the last program of a
//! tile to arrive or by [`gemm_skinny_reduce_kernel`](super::gemm_skinny_reduce_kernel)). One K
//! block is one scale group: its words are unpacked in registers to `q - 8` (exact in 16 bits),
//! fed to `mma.sync` with the tokens, and the block's product is scaled by its group's scale per
//! row of W as it is added into the accumulator, so the scale multiplies 1/128 as many values as
//! dequantising W would. The loop computes `depth` groups per iteration while the next `depth`
//! groups' bytes and scales (and, for 8 tokens, the tokens) are loaded into the registers the
//! current ones leave: no loaded value moves between registers, so no move waits for a load.
//! Rows past N and tokens past M read the last row and token (their outputs are not stored), so
//! the loop's loads carry no mask.
//!
//! No operand goes through shared memory. A dot product may visit K in any order as long as
//! both operands agree, so the tensor cores see each group's K in an order of their own
//! ([`k_in_memory`]: a permutation of the 7 bits of k) chosen so that every thread's fragment
//! of W is 16 consecutive bytes of a row and its fragment of X 32 consecutive elements of a
//! token. Each thread loads exactly its `mma.sync` operands with 16-byte loads; the layouts'
//! algebra (a reshape, a permute, a reshape) turns memory's order into the tensor cores', and
//! what remains is a renaming of registers.
//!
//! Parameters: `w: ptr<i8>`, `scales: ptr<act>`, `x: ptr<act>`, `part: ptr<f32>` (`splits ·
//! M · N`), all 16-byte aligned, then `m, n, k, splits: i32` (K a multiple of 128, which the
//! launch checks). Grid [`W4Config::grid`].

use crate::layout::encoding::{
    DistributedLinear, DotOperand, Encoding, NvidiaMma, Slice, SwizzledShared,
};

use super::super::{
    CodegenError, Context, DType, IntoOperand, Kernel, KernelBuilder, Result, Target, Value,
};
use super::gemm::reference_output;
use super::layouts::tile_coords;
use super::parts::{
    ceil_div, pick_splits, split_grid, split_range, split_tiles, Epilogue, PartialStore,
    SplitFinish, FINISH_MAX_TOKENS,
};

/// Weights a scale covers along K, and the K of one block.
pub const W4_GROUP: u32 = 128;

/// Tiles of the 4-bit-weight GEMM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct W4Config {
    /// X's (and the scales') type: f16 or bf16.
    pub act: DType,
    /// Rows of W per program (64 or 128).
    pub block_m: u32,
    /// Tokens per program: 8 to 128, a power of two (at least M reads W once).
    pub block_n: u32,
    /// Warps per program (4, or 8 for wide token tiles).
    pub num_warps: u32,
    /// Groups a main-loop iteration computes (2, 4 or 8), and so how many groups of W each
    /// warp has in flight: the loads ahead that hide memory's latency.
    pub depth: u32,
    /// 0: W is loaded into registers `depth` groups ahead. 2–8: W also goes through a ring of
    /// that many groups in shared memory (`cp.async`, `w_stages · block_m · 64` bytes), so
    /// `w_stages - 1` groups are in flight without holding registers (needs `num_warps ≤
    /// block_m / 16`: each warp on rows of its own).
    pub w_stages: u32,
    /// Whether the kernel also finishes the sum, as
    /// [`SkinnyConfig::finish_in_kernel`](super::SkinnyConfig::finish_in_kernel) does: the last
    /// program of a tile adds the partials in split order and writes Y. Its parameters then go on
    /// after `part` with `y: ptr<act>` and `tickets: ptr<i32>` (one per tile, zero before the
    /// first launch; the kernel leaves them zero).
    pub finish_in_kernel: bool,
}

impl W4Config {
    /// The fewest tokens that cover `m` (at least 8: one `mma.sync` column block; at most 64,
    /// more take tiles of 64) over 64 rows of W and 4 warps, or from 64 tokens 128 rows and 8
    /// warps (each warp its own 16 rows, so no weight is unpacked twice), the sum finished in
    /// the kernel up to [`FINISH_MAX_TOKENS`] tokens (one launch instead of two), depth 4 for
    /// 8-token tiles (100 registers), else 2 (from 16 tokens deeper loops cost more residency
    /// than they hide), and W in registers (`w_stages` 0).
    pub fn new(act: DType, m: u32) -> W4Config {
        let block_n = m.clamp(8, 64).next_power_of_two();
        W4Config {
            act,
            block_m: if block_n >= 64 { 128 } else { 64 },
            block_n,
            num_warps: if block_n >= 64 { 8 } else { 4 },
            depth: if block_n <= 8 { 4 } else { 2 },
            w_stages: 0,
            finish_in_kernel: block_n <= FINISH_MAX_TOKENS,
        }
    }

    /// This configuration with the sum finished in the kernel (or not).
    pub fn with_finish_in_kernel(self, finish_in_kernel: bool) -> W4Config {
        W4Config {
            finish_in_kernel,
            ..self
        }
    }

    /// Output tiles, each with its ticket when the kernel finishes the sum.
    pub fn tiles(&self, m: u64, n: u64) -> u64 {
        split_tiles(n, m, [self.block_m, self.block_n])
    }

    /// The grid: one program per (tile, split).
    /// A count past `u32` saturates ([`split_grid`]).
    pub fn grid(&self, m: u64, n: u64, splits: u32) -> (u32, u32, u32) {
        split_grid(self.tiles(m, n), splits)
    }

    /// K ranges on a device of `sms` SMs: the count with the least modelled time
    /// ([`pick_splits`]) for the packed weights and scales, four programs resident on an SM
    /// with 4 warps up to 32 tokens (two at 64: about 200 registers; one with 8 warps), each
    /// range at least `depth` groups (one iteration).
    pub fn splits(&self, m: u64, n: u64, k: u64, sms: u32) -> u32 {
        let tiles = self.tiles(m, n);
        let groups = k.div_ceil(u64::from(W4_GROUP));
        let per_sm = match (self.num_warps, self.block_n) {
            (4, ..=32) => 4,
            (4, _) => 2,
            _ => 1,
        };
        let w_bytes = n * k / 2 + n * groups * 2;
        pick_splits(
            tiles,
            groups / u64::from(self.depth),
            u64::from(sms) * per_sm,
            w_bytes,
            8 * m * n,
        )
    }

    fn check(&self) -> Result<()> {
        let bad = |reason: String| Err(CodegenError::arg("gemm_w4_kernel", reason));
        if !matches!(self.act, DType::F16 | DType::BF16) {
            return bad(format!("act {}: f16 or bf16", self.act));
        }
        if !matches!(self.block_m, 64 | 128) {
            return bad(format!("block_m {}: 64 or 128", self.block_m));
        }
        if !self.block_n.is_power_of_two() || !(8..=128).contains(&self.block_n) {
            return bad(format!(
                "block_n {}: a power of two from 8 to 128",
                self.block_n
            ));
        }
        if !matches!(self.num_warps, 4 | 8) {
            return bad(format!("num_warps {}: 4 or 8", self.num_warps));
        }
        if !matches!(self.depth, 1 | 2 | 4 | 8) {
            return bad(format!("depth {}: 1, 2, 4 or 8", self.depth));
        }
        if self.w_stages == 1 || self.w_stages > 8 {
            return bad(format!("w_stages {}: 0 or 2 to 8", self.w_stages));
        }
        // A thread reads back only what it copied, which needs W's rows unshared by warps.
        if self.w_stages > 0 && self.num_warps > self.block_m / 16 {
            return bad(format!(
                "w_stages {} with {} warps over {} rows: the ring needs each warp on rows of its own",
                self.w_stages, self.num_warps, self.block_m
            ));
        }
        Ok(())
    }
}

/// Where the tensor cores' `k` (0..128) of a group sits in memory. A thread's `mma.sync`
/// fragment holds the k whose bits 1–2 are its lane % 4 (bit 0 picks the half of an operand
/// register, bits 3–6 the register). Memory puts those lane bits on top (bits 5–6), so a
/// thread's 32 k of a row are 4 consecutive 32-bit words; within a word, nibbles `j` and
/// `j + 4` (j < 4) are the two halves of one operand register, so one shift and mask of the
/// word unpacks them together.
pub fn k_in_memory(k: u64) -> u64 {
    let bit = |i: u32| (k >> i) & 1;
    bit(3) | bit(4) << 1 | bit(0) << 2 | bit(5) << 3 | bit(6) << 4 | ((k >> 1) & 3) << 5
}

/// The layout of an operand `[.., K]` of `op` (a dot operand of `shape`, K = one group at
/// `k_dim`) as it lies in memory: `[rows, K]` with K in [`k_in_memory`]'s order, and the
/// registers that step along K alone first, in ascending order (so a thread's run of
/// consecutive elements is its leading registers: one vector load).
fn operand_in_memory(op: &Encoding, shape: [u64; 2], k_dim: usize) -> Result<DistributedLinear> {
    let d = DistributedLinear::from_linear_layout(&op.tensor_layout(&shape)?)?;
    let to_memory = |b: &Vec<u64>| vec![b[1 - k_dim], k_in_memory(b[k_dim])];
    let mut reg: Vec<Vec<u64>> = d.reg_bases.iter().map(to_memory).collect();
    reg.sort_by_key(|b| if b[0] == 0 { (0, b[1]) } else { (1, 0) });
    Ok(DistributedLinear {
        reg_bases: reg,
        lane_bases: d.lane_bases.iter().map(to_memory).collect(),
        warp_bases: d.warp_bases.iter().map(to_memory).collect(),
        block_bases: Vec::new(),
        shape: vec![shape[1 - k_dim], shape[k_dim]],
    })
}

/// [`operand_in_memory`] for packed 4-bit values: `[rows, K / 2]` bytes, the register that held
/// K's bit 0 (the nibble within a byte) dropped.
fn packed_in_memory(op: &Encoding, shape: [u64; 2], k_dim: usize) -> Result<DistributedLinear> {
    let mut d = operand_in_memory(op, shape, k_dim)?;
    let nibble = |b: &Vec<u64>| b[1] & 1 != 0;
    let bad = d.lane_bases.iter().chain(&d.warp_bases).any(nibble)
        || d.reg_bases.first().is_none_or(|b| *b != [0, 1])
        || d.reg_bases[1..].iter().any(nibble);
    if bad {
        return Err(CodegenError::arg(
            "gemm_w4_kernel",
            "the operand layout does not hold k and k + 1 in one register pair",
        ));
    }
    d.reg_bases.remove(0);
    let half = |b: &mut Vec<u64>| b[1] >>= 1;
    d.reg_bases.iter_mut().for_each(half);
    d.lane_bases.iter_mut().for_each(half);
    d.warp_bases.iter_mut().for_each(half);
    d.shape[1] /= 2;
    Ok(d)
}

/// `t` `[rows, K]` (K = one group, in memory's order) in the tensor cores' order: the inverse of
/// [`k_in_memory`] as a reshape, a permute and a reshape, which move no data: memory's k bits
/// (from the top) are lane (2), word (2), h, j (2); the tensor cores' are word, j, lane, h.
fn k_from_memory(kb: &mut KernelBuilder<'_>, t: Value, rows: u64) -> Result<Value> {
    let t = kb.reshape(t, &[rows, 4, 4, 2, 2, 2])?;
    let t = kb.permute(t, &[0, 2, 4, 5, 1, 3])?;
    kb.reshape(t, &[rows, u64::from(W4_GROUP)])
}

/// Builds the 4-bit-weight partial-product kernel for `target` (sm_80 or later). See the
/// module docs.
pub fn gemm_w4_kernel(ctx: &Context, target: Target, c: W4Config) -> Result<Kernel<'_>> {
    c.check()?;
    let mut kb = KernelBuilder::new(ctx, target, "gemm_w4", c.num_warps)?;
    let w = kb.arg_ptr("w", DType::I8, 16)?;
    let scales = kb.arg_ptr("scales", c.act, 2)?;
    let x = kb.arg_ptr("x", c.act, 16)?;
    let part = kb.arg_ptr("part", DType::F32, 16)?;
    let finish = match c.finish_in_kernel {
        true => Some((
            kb.arg_ptr("y", c.act, 16)?,
            kb.arg_ptr("tickets", DType::I32, 4)?,
        )),
        false => None,
    };
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", 1)?;
    // K a multiple of the group: every row of W and X starts 16-byte aligned, so their loads
    // are 16-byte vectors.
    let k = kb.arg_i32("k", W4_GROUP as u64)?;
    let splits = kb.arg_i32("splits", 1)?;
    let (bm, bn, g) = (c.block_m, c.block_n, W4_GROUP);
    // Warps side by side along W's rows as far as they go: a warp that shares its rows with
    // another would unpack the same weights again.
    let along_m = c.num_warps.min(bm / 16);
    let acc_l = NvidiaMma::ampere(&[along_m, c.num_warps / along_m]);
    let a_l = DotOperand::new(0, acc_l.clone().into(), 2);
    let b_l = DotOperand::new(1, acc_l.clone().into(), 2);
    let acc_e: Encoding = acc_l.clone().into();
    // Program pid: tile pid % tiles (token tiles fastest, so that the programs reading the same
    // rows of W run together and all but one find them in L2), split pid / tiles.
    let row_tiles = ceil_div(&mut kb, n, bm as i32)?;
    let tok_tiles = ceil_div(&mut kb, m, bn as i32)?;
    let tiles = kb.mul(row_tiles, tok_tiles)?;
    let pid = kb.program_id(0)?;
    let tile = kb.rem(pid, tiles)?;
    let split = kb.div(pid, tiles)?;
    let t_tile = kb.rem(tile, tok_tiles)?;
    let r_tile = kb.div(tile, tok_tiles)?;
    let orow = kb.mul(r_tile, bm as i32)?;
    let otok = kb.mul(t_tile, bn as i32)?;
    let groups = ceil_div(&mut kb, k, g as i32)?;
    let (first, mine) = split_range(&mut kb, groups, splits, split)?;
    let half_k = kb.div(k, 2)?;
    let half_k = kb.assume(half_k, u64::from(W4_GROUP / 2), 1)?;
    // Each thread loads its own operands: 16 bytes of a row of W, 32 elements of a token.
    let (a_e, b_e): (Encoding, Encoding) = (a_l.clone().into(), b_l.clone().into());
    let w_l: Encoding = packed_in_memory(&a_e, [bm.into(), g.into()], 1)?.into();
    let x_l: Encoding = operand_in_memory(&b_e, [g.into(), bn.into()], 0)?.into();
    let (w_rows, w_cols) = tile_coords(
        &mut kb,
        &w_l,
        [bm.into(), u64::from(g / 2)],
        Some(orow),
        None,
    )?;
    let (x_rows, x_cols) = tile_coords(&mut kb, &x_l, [bn.into(), g.into()], Some(otok), None)?;
    // Rows of W past N and tokens past M read the last ones instead (their outputs are not
    // stored) and every group read lies inside K, so the main loop's loads need no mask: only
    // the loads ahead of it, which run even when K is empty.
    let n_last = kb.sub(n, 1)?;
    let w_rows = kb.min(w_rows, n_last)?;
    let m_last = kb.sub(m, 1)?;
    let x_rows = kb.min(x_rows, m_last)?;
    let w_row_at = kb.mul(w_rows, half_k)?;
    let x_row_at = kb.mul(x_rows, k)?;
    // Group `gi`'s bytes of W, and the same bytes as 32-bit words `[rows, 16]`.
    let w_ptrs = |kb: &mut KernelBuilder<'_>, gi: Value| -> Result<Value> {
        let b0 = kb.mul(gi, g as i32 / 2)?;
        let wc = kb.add(w_cols, b0)?;
        let at = kb.add(w_row_at, wc)?;
        kb.add(w, at)
    };
    let words = |kb: &mut KernelBuilder<'_>, bytes: Value| -> Result<Value> {
        let bytes = kb.reshape(bytes, &[bm.into(), u64::from(g / 8), 4])?;
        kb.bitcast(bytes, DType::I32)
    };
    // Read as words where they are loaded, so that they travel to later groups as the
    // registers the load filled.
    let load_w = |kb: &mut KernelBuilder<'_>, gi: Value, guard: Option<Value>| -> Result<Value> {
        let pw = w_ptrs(kb, gi)?;
        let bytes = kb.load(pw, guard, None)?;
        words(kb, bytes)
    };
    // The ring of W in shared memory (`w_stages` > 0): each thread copies its own 16-byte pieces
    // of a group and later reads back exactly those (the copy and the read share `w_l`), so its
    // own `cp.async` wait is all that orders them: no barrier, and a slot is refilled right after
    // its reader has unpacked it. One commit group per group of W keeps the wait count fixed.
    let ring = match c.w_stages {
        0 => None,
        stages => {
            let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
            let shape = [u64::from(bm), u64::from(g / 2)];
            Some(kb.alloc_shared_buffers(DType::I8, stages.into(), &shape, plain)?)
        }
    };
    let copy_w = |kb: &mut KernelBuilder<'_>, ring: Value, gi: Value, slot: Value, guard| {
        let pw = w_ptrs(kb, gi)?;
        let buf = kb.index_shared(ring, slot)?;
        kb.async_copy_global_to_shared(buf, pw, guard)?;
        kb.async_commit_group().map(|_| ())
    };
    let read_w = |kb: &mut KernelBuilder<'_>, ring: Value, slot: Value| -> Result<Value> {
        let buf = kb.index_shared(ring, slot)?;
        let bytes = kb.load_shared(buf, &w_l)?;
        words(kb, bytes)
    };
    // Group `gi`'s columns of X.
    let load_x = |kb: &mut KernelBuilder<'_>, gi: Value, guard: Option<Value>| -> Result<Value> {
        let k0 = kb.mul(gi, g as i32)?;
        let xc = kb.add(x_cols, k0)?;
        let at = kb.add(x_row_at, xc)?;
        let px = kb.add(x, at)?;
        kb.load(px, guard, None)
    };
    // Each row's scale of group `gi`, in the accumulator's rows.
    let s_rows = kb.arange(0, bm as i32, Slice::new(1, acc_e.clone()))?;
    let s_rows = kb.add(s_rows, orow)?;
    let s_rows = kb.min(s_rows, n_last)?;
    let s_at = kb.mul(s_rows, groups)?;
    let zero_acc = kb.zeros((&acc_l, [u64::from(bm), u64::from(bn)]), DType::F32)?;
    let last = kb.add(first, mine)?;
    // Group `gi`, or the range's last group past it (loaded again, unused: no branch), and
    // never past K's last group (an empty range still loads its first group ahead).
    let last1 = kb.sub(last, 1)?;
    let last1 = kb.max(last1, first)?;
    let groups1 = kb.sub(groups, 1)?;
    let last1 = kb.min(last1, groups1)?;
    let clamp = |kb: &mut KernelBuilder<'_>, gi: Value| -> Result<Value> { kb.min(gi, last1) };
    // Whether K has a group at all: the loads ahead of the loop run even when it has not.
    let any_k = kb.gt(groups, 0)?;
    // The 16-bit float whose ulp is 1, in both halves of a word: 128 (bf16) or 1024 (f16).
    let (magic, magic_bias) = match c.act {
        DType::BF16 => (0x4300_4300, 128.0 + 8.0),
        _ => (0x6400_6400, 1024.0 + 8.0),
    };
    // Up to 32 tokens, where unpacking W is most of the loop, the magic lives in a register:
    // as a constant it would be folded into the `or`, and the mask-and-or below is one LOP3
    // only with at most one immediate. `n >> 31` is zero (n is a count) but not known to be.
    // (From 64 tokens the register it takes makes ptxas spill.)
    let magic = if bn <= 32 {
        let sign = kb.shr(n, 31)?;
        kb.or(sign, magic)?.into_operand()
    } else {
        magic.into_operand()
    };
    // Group `gi`'s scales.
    let load_s = |kb: &mut KernelBuilder<'_>, gi: Value, guard: Option<Value>| -> Result<Value> {
        let at = kb.add(s_at, gi)?;
        let ps = kb.add(scales, at)?;
        kb.load(ps, guard, None)
    };
    // One group's product: unpack W a word at a time (nibbles j and j + 4 land in the two
    // 16-bit halves as the 16-bit float `magic + q`, exact: its ulp is 1; one subtraction makes
    // `q - 8`), multiply with the tokens on the tensor cores, scale per row of W and accumulate.
    let group = |kb: &mut KernelBuilder<'_>, acc: Value, words: Value, xt: Value, st: Value| {
        let mut halves = Vec::with_capacity(4);
        for j in 0..4 {
            let t = kb.shr(words, 4 * j)?;
            let t = kb.and(t, 0x000f_000f)?;
            let t = kb.or(t, magic)?;
            halves.push(kb.bitcast(t, c.act)?);
        }
        // [rows, words, h, j / 2, j % 2]: memory's order of k.
        let j_even = kb.join(halves[0], halves[2])?;
        let j_odd = kb.join(halves[1], halves[3])?;
        let q = kb.join(j_even, j_odd)?;
        let q = kb.sub(q, magic_bias)?;
        let q = k_from_memory(kb, q, bm.into())?;
        let qa = kb.convert_layout(q, &a_l)?;
        let xt = k_from_memory(kb, xt, bn.into())?;
        let xt = kb.permute(xt, &[1, 0])?;
        let xb = kb.convert_layout(xt, &b_l)?;
        let zero = kb.zeros((&acc_l, [u64::from(bm), u64::from(bn)]), DType::F32)?;
        let p = kb.dot(qa, xb, zero)?;
        let s = kb.cast(st, DType::F32)?;
        let s = kb.expand_dims(s, 1)?;
        kb.fma(p, s, acc)
    };
    // `depth` groups per iteration, so that a value loaded ahead is used where it was loaded
    // to: a loop carrying it one group on would move it between registers, and the move waits
    // for the load. W (the stream) and its scales are loaded `depth` groups ahead, each group's
    // loads issued as soon as the group before has used the registers they refill, so `depth`
    // groups of W are in flight while one computes. The tokens (shared by every program, from
    // L2) come `depth` groups ahead too while that stays small (8 tokens at depth 2), else
    // one group ahead within the iteration: `depth` groups of 16 tokens would cost more
    // residency than the latency they hide. Groups past the range (a count not a multiple of
    // `depth`) are computed on the last group's data and not added.
    let depth = c.depth as usize;
    let x_ahead = bn * c.depth <= 16;
    let ahead = |kb: &mut KernelBuilder<'_>, gi: Value, by: usize| -> Result<Value> {
        let g = kb.add(gi, by as i32)?;
        clamp(kb, g)
    };
    let guard = Some(any_k);
    let mut init = vec![zero_acc];
    let firsts = (0..depth)
        .map(|i| ahead(&mut kb, first, i))
        .collect::<Result<Vec<_>>>()?;
    let stages = c.w_stages as usize;
    match ring {
        Some(ring) => {
            let shape = [u64::from(bm), u64::from(g / 2)];
            let live = kb.broadcast_to(any_k, (&w_l, shape))?;
            for s in 0..stages - 1 {
                let gi = ahead(&mut kb, first, s)?;
                let slot = kb.i32(s as i32)?;
                copy_w(&mut kb, ring, gi, slot, Some(live))?;
            }
        }
        None => {
            for &gi in &firsts {
                init.push(load_w(&mut kb, gi, guard)?);
            }
        }
    }
    let n_w = if ring.is_some() { 0 } else { depth };
    for &gi in &firsts {
        init.push(load_s(&mut kb, gi, guard)?);
    }
    if x_ahead {
        for &gi in &firsts {
            init.push(load_x(&mut kb, gi, guard)?);
        }
    }
    let out = kb.for_range(first, last, c.depth, &init, |kb, gi, c_| {
        let (ws, ss) = (&c_[1..1 + n_w], &c_[1 + n_w..1 + n_w + depth]);
        let x_of = |kb: &mut KernelBuilder<'_>, i: usize| -> Result<Value> {
            match x_ahead {
                true => Ok(c_[1 + n_w + depth + i]),
                false => {
                    let g = ahead(kb, gi, i)?;
                    load_x(kb, g, None)
                }
            }
        };
        let (mut acc, mut xi) = (c_[0], x_of(kb, 0)?);
        let (mut next_w, mut next_s, mut next_x) = (Vec::new(), Vec::new(), Vec::new());
        // The ring slot of group `gi + by`: its place in the range, modulo the stages.
        let slot = |kb: &mut KernelBuilder<'_>, by: usize| -> Result<Value> {
            let at = kb.sub(gi, first)?;
            let at = kb.add(at, by as i32)?;
            kb.rem(at, c.w_stages as i32)
        };
        for i in 0..depth {
            let x_next = (i + 1 < depth).then(|| x_of(kb, i + 1)).transpose()?;
            let w_i = match ring {
                Some(ring) => {
                    kb.async_wait_group(c.w_stages - 2)?;
                    let here = slot(kb, i)?;
                    read_w(kb, ring, here)?
                }
                None => ws[i],
            };
            let sum = group(kb, acc, w_i, xi, ss[i])?;
            // Each load follows the group that used the registers (or the slot) it refills.
            if let Some(ring) = ring {
                let g = ahead(kb, gi, i + stages - 1)?;
                let refill = slot(kb, i + stages - 1)?;
                copy_w(kb, ring, g, refill, None)?;
            }
            let g = ahead(kb, gi, depth + i)?;
            if ring.is_none() {
                next_w.push(load_w(kb, g, None)?);
            }
            next_s.push(load_s(kb, g, None)?);
            if x_ahead {
                next_x.push(load_x(kb, g, None)?);
            }
            acc = match i {
                0 => sum,
                _ => {
                    let at = kb.add(gi, i as i32)?;
                    let inside = kb.lt(at, last)?;
                    kb.where_(inside, sum, acc)?
                }
            };
            if let Some(x) = x_next {
                xi = x;
            }
        }
        Ok(std::iter::once(acc)
            .chain(next_w)
            .chain(next_s)
            .chain(next_x)
            .collect())
    })?;
    if ring.is_some() {
        kb.async_wait_group(0)?;
    }
    let mn = kb.mul(m, n)?;
    let base = kb.mul(split, mn)?;
    let partial = PartialStore {
        part,
        m,
        n,
        base,
        layout: acc_e,
        block: [bm as i32, bn as i32],
    };
    match finish {
        Some((y, tickets)) => SplitFinish {
            partial,
            y,
            out: c.act,
            ticket: kb.add(tickets, tile)?,
            splits: kb.max(splits, 1)?,
        }
        .store(&mut kb, out[0], [orow, otok])?,
        None => partial.store(&mut kb, out[0], [orow, otok])?,
    }
    kb.finish()
}

/// The 4-bit-weight GEMM on the host in f64: `Y[i, j] = Σ_k X[i, k] · (q[j, k] - 8) · s[j, k /
/// 128]` from X as f32, the packed bytes and the scales as f32. Fails when a slice is shorter
/// than the shapes say or K is odd.
pub fn gemm_w4_reference(
    x: &[f32],
    w: &[u8],
    s: &[f32],
    [m, n, k]: [usize; 3],
) -> Result<Vec<f32>> {
    let groups = k.div_ceil(W4_GROUP as usize);
    let ok = k.is_multiple_of(2)
        && m.checked_mul(k).is_some_and(|l| x.len() >= l)
        && n.checked_mul(k / 2).is_some_and(|l| w.len() >= l)
        && n.checked_mul(groups).is_some_and(|l| s.len() >= l);
    if !ok {
        return Err(CodegenError::arg(
            "gemm_w4_reference",
            format!("slices shorter than {m}×{n}×{k} needs, or K odd"),
        ));
    }
    let q = |j: usize, p: usize| -> f64 {
        let byte = w[j * k / 2 + p / 2];
        let nib = if p.is_multiple_of(2) {
            byte & 15
        } else {
            byte >> 4
        };
        f64::from(nib) - 8.0
    };
    let mut y = reference_output("gemm_w4_reference", m, n)?;
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0f64;
            for p in 0..k {
                let sc = f64::from(s[j * groups + p / W4_GROUP as usize]);
                acc += f64::from(x[i * k + p]) * q(j, p) * sc;
            }
            y[i * n + j] = acc as f32;
        }
    }
    Ok(y)
}
