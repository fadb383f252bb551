//! The attention configurations the suites run (GPU and interpreter): both 16-bit types,
//! causal or not, every schedule, head dims 64 and 128; and one launch of the forward kernel
//! on any backend, for one length or a variable-length batch.

use super::launch::{launch, poisoned, PAD};
use weft::codegen::kernels::{AttentionConfig, AttentionSchedule};
use weft::codegen::DType;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, DeviceElem, KernelArgs};

/// Elements past the end of O, which must keep their poison.
pub const O_TAIL: usize = 1024;

/// Every schedule (serial, pipelined, ping-pong) over both types, both masks and head dims.
pub fn configs() -> Vec<AttentionConfig> {
    let mut v = Vec::new();
    for dtype in [DType::F16, DType::BF16] {
        for causal in [false, true] {
            for (schedule, head_dim) in [
                (AttentionSchedule::Serial, 128),
                (AttentionSchedule::Pipelined, 128),
                (AttentionSchedule::Serial, 64),
                (AttentionSchedule::PingPong, 128),
                (AttentionSchedule::PingPong, 64),
            ] {
                let mut c = match schedule {
                    AttentionSchedule::PingPong => AttentionConfig::ping_pong(dtype, causal),
                    _ => AttentionConfig::new(dtype, causal),
                };
                c.schedule = schedule;
                c.head_dim = head_dim;
                v.push(c);
            }
        }
    }
    v
}

/// One launch: a configuration, its query heads (batch · heads for one length) and the
/// sequence lengths (one pair for one length).
pub struct Case {
    pub c: AttentionConfig,
    pub heads_q: usize,
    pub lens_q: Vec<i32>,
    pub lens_k: Vec<i32>,
}

/// The cumulative lengths `[0, l0, l0 + l1, …]`.
pub fn cumulative(lens: &[i32]) -> Vec<i32> {
    std::iter::once(0)
        .chain(lens.iter().scan(0, |s, &l| {
            *s += l;
            Some(*s)
        }))
        .collect()
}

impl Case {
    /// `heads` heads (batch · query heads) of `seq` rows each.
    pub fn fixed(c: AttentionConfig, heads: usize, seq: usize) -> Case {
        Case {
            c,
            heads_q: heads,
            lens_q: vec![seq as i32],
            lens_k: vec![seq as i32],
        }
    }
}

/// One launch of a case.
pub struct Run<'a, B: Backend> {
    pub dev: &'a B::Device,
    pub kernel: &'a B::Kernel,
    pub case: &'a Case,
    pub scale: f64,
    pub what: &'a str,
}

impl<B: Backend> Run<'_, B> {
    /// Uploads Q, K, V converted by `to`, runs the kernel into a poisoned O and `lse`, and
    /// returns all of O (with its poisoned tail) read back through `from`.
    pub fn run<T: DeviceElem>(
        &self,
        qkv: [&[f32]; 3],
        lse: &B::Buffer<f32>,
        to: impl Fn(f32) -> T,
        from: impl Fn(T) -> f64,
    ) -> Vec<f64> {
        let (dev, c, case) = (self.dev, self.case.c, self.case);
        let d = u64::from(c.head_dim);
        let (cu_q, cu_k) = (cumulative(&case.lens_q), cumulative(&case.lens_k));
        let total = |cu: &[i32]| cu[cu.len() - 1] as u64;
        let rows_q = case.heads_q as u64 * total(&cu_q);
        let rows_k = (case.heads_q / c.kv_group as usize) as u64 * total(&cu_k);
        let up = |x: &[f32]| {
            dev.upload(&x.iter().map(|&y| to(y)).collect::<Vec<_>>())
                .unwrap()
        };
        let (dq, dk, dv) = (up(qkv[0]), up(qkv[1]), up(qkv[2]));
        // O's poisoned tail is the suites' 1024 elements, not `PAD`'s 64.
        let o = poisoned::<B, T>(dev, (rows_q * d) as usize + O_TAIL - PAD);
        let map = |b, rows: u64, boxed: [u32; 2]| {
            dev.tensor_map(b, &[rows, d], &[d], &boxed, c.swizzle())
                .unwrap()
        };
        let (qm, km, vm) = (
            map(&dq, rows_q, c.q_box()),
            map(&dk, rows_k, c.kv_box()),
            map(&dv, rows_k, c.kv_box()),
        );
        let om = map(&o, rows_q, c.q_box());
        let cu_q = dev.upload(&cu_q).unwrap();
        let cu_k = dev.upload(&cu_k).unwrap();
        let mut args = KernelArgs::new();
        args.tensor_map(&qm)
            .tensor_map(&km)
            .tensor_map(&vm)
            .tensor_map(&om)
            .ptr(&o)
            .ptr(lse);
        let grid = if c.varlen {
            args.ptr(&cu_q).ptr(&cu_k);
            let longest = case.lens_q.iter().copied().max().unwrap_or(0) as u64;
            c.varlen_grid(longest, case.heads_q as u64, case.lens_q.len() as u64)
        } else {
            args.scalar(case.lens_q[0]);
            c.grid(case.lens_q[0] as u64, case.heads_q as u64)
        };
        args.scalar((self.scale * std::f64::consts::LOG2_E) as f32);
        // SAFETY: the kernel reads Q, K, V through maps that cover them and the cumulative
        // lengths, and writes O[0..rows_q·d) and lse[0..rows_q).
        unsafe { launch::<B>(dev, self.kernel, grid, &args, self.what) };
        o.to_vec().unwrap().into_iter().map(from).collect()
    }
}
