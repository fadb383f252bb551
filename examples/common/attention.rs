//! The launch of the forward attention kernel (`kernels::attention_kernel`) on any backend, for
//! one length or a variable-length batch: its sequences, and its arguments and grid over buffers
//! the caller owns. Written once for `examples/attention` and the attention test suites, which
//! include this file by `#[path]` (a test cannot import an example's modules).
//!
//! It stays out of the crate: the kernel's parameters are already checked at launch against its
//! signature, and what varies between callers (poisoned or plain outputs, a timed or a checked
//! launch, the element conversions) is the caller's, so a public helper would be a shape that
//! only these callers use.

use weft::codegen::kernels::AttentionConfig;
use weft::runtime::backend::BufferOf;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, DeviceElem, KernelArgs};

/// The sequences of one launch: query heads (batch · heads for one length) and the lengths (one
/// pair for one length; a variable-length batch otherwise).
#[derive(Debug, Clone)]
pub struct Sequences {
    pub heads_q: usize,
    pub lens_q: Vec<i32>,
    pub lens_k: Vec<i32>,
}

/// The cumulative lengths `[0, l0, l0 + l1, …]`.
fn cumulative(lens: &[i32]) -> Vec<i32> {
    std::iter::once(0)
        .chain(lens.iter().scan(0, |s, &l| {
            *s += l;
            Some(*s)
        }))
        .collect()
}

impl Sequences {
    /// `heads` heads (batch · query heads) of `seq` rows each.
    pub fn fixed(heads: usize, seq: usize) -> Sequences {
        Sequences {
            heads_q: heads,
            lens_q: vec![seq as i32],
            lens_k: vec![seq as i32],
        }
    }

    /// The cumulative lengths of queries and of keys (`cu_seqlens_q`, `cu_seqlens_k`).
    pub fn cumulative(&self) -> [Vec<i32>; 2] {
        [cumulative(&self.lens_q), cumulative(&self.lens_k)]
    }

    /// Rows of Q (and O) and of K (and V) under `c`'s grouping: heads times tokens.
    pub fn rows(&self, c: &AttentionConfig) -> (usize, usize) {
        let sum = |l: &[i32]| l.iter().map(|&x| x as usize).sum::<usize>();
        let heads_kv = self.heads_q / c.kv_group as usize;
        (
            self.heads_q * sum(&self.lens_q),
            heads_kv * sum(&self.lens_k),
        )
    }

    /// FLOPs of the two GEMMs (halved for causal, as FlashAttention's benchmarks count).
    pub fn flops(&self, c: &AttentionConfig) -> f64 {
        let pairs: f64 = self
            .lens_q
            .iter()
            .zip(&self.lens_k)
            .map(|(&q, &k)| q as f64 * k as f64)
            .sum();
        let half = if c.causal { 2.0 } else { 1.0 };
        4.0 * self.heads_q as f64 * pairs * c.head_dim as f64 / half
    }
}

/// Builds the forward's arguments over `q`, `k`, `v` and `o` (`[rows, D]` each, rows as
/// [`Sequences::rows`] counts them) and `lse`, with the softmax scale `scale` (before its
/// factor log2(e)), and hands them with the grid to `launch`, which launches it: the tensor
/// maps borrow the buffers, so the arguments live only inside this call.
pub fn with_forward_args<B: Backend, T: DeviceElem, R>(
    dev: &B::Device,
    c: &AttentionConfig,
    seqs: &Sequences,
    [q, k, v, o]: [&BufferOf<B, T>; 4],
    lse: &BufferOf<B, f32>,
    scale: f64,
    launch: impl FnOnce(&KernelArgs<'_>, (u32, u32, u32)) -> R,
) -> weft::runtime::Result<R> {
    let d = u64::from(c.head_dim);
    let (rows_q, rows_k) = seqs.rows(c);
    // Q and O: `[heads · tokens, D]`, or `[heads, tokens, D]` with packed heads.
    let heads = seqs.heads_q as u64;
    let (q_shape, q_strides) = c.q_map_shape(heads, rows_q as u64 / heads.max(1));
    let q_map = |b| dev.tensor_map(b, &q_shape, &q_strides, &c.q_box(), c.swizzle());
    let kv_map = |b| dev.tensor_map(b, &[rows_k as u64, d], &[d], &c.kv_box(), c.swizzle());
    let qm = q_map(q)?;
    let km = kv_map(k)?;
    let vm = kv_map(v)?;
    let om = q_map(o)?;
    let [cu_q, cu_k] = seqs.cumulative();
    let (cu_q, cu_k) = (dev.upload(&cu_q)?, dev.upload(&cu_k)?);
    let mut args = KernelArgs::new();
    args.tensor_map(&qm)
        .tensor_map(&km)
        .tensor_map(&vm)
        .tensor_map(&om)
        .ptr(o)
        .ptr(lse);
    let grid = if c.varlen {
        args.ptr(&cu_q).ptr(&cu_k);
        let longest = seqs.lens_q.iter().copied().max().unwrap_or(0) as u64;
        c.varlen_grid(longest, seqs.heads_q as u64, seqs.lens_q.len() as u64)
    } else {
        args.scalar(seqs.lens_q[0]);
        c.grid(seqs.lens_q[0] as u64, seqs.heads_q as u64)
    };
    args.scalar((scale * std::f64::consts::LOG2_E) as f32);
    Ok(launch(&args, grid))
}
