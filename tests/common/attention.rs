//! The attention configurations the suites run (GPU and interpreter): both 16-bit types,
//! causal or not, every schedule, head dims 64 and 128, and 256; and one launch of the forward kernel
//! on any backend, for one length or a variable-length batch.

use super::launch::{launch, poisoned, PAD};
use weft::codegen::kernels::{AttentionConfig, AttentionSchedule};
use weft::codegen::DType;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, DeviceElem, KernelArgs};

/// The sequences of a launch and its arguments, shared with `examples/attention`.
#[path = "../../examples/common/attention.rs"]
mod forward;
pub use forward::{with_forward_args, Sequences};

/// Elements past the end of O, which must keep their poison.
pub const O_TAIL: usize = 1024;

/// Every schedule (serial, pipelined, ping-pong) over both types, both masks and head dims;
/// at head dim 64 ping-pong also with three consumers (192 rows), and the serial schedule
/// causal with its longest query blocks first.
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
                if schedule == AttentionSchedule::PingPong && head_dim == 64 {
                    v.push(c.with_consumers(3));
                }
                // Causal blocks in reverse order (longest first), once a type.
                if causal && schedule == AttentionSchedule::Serial && head_dim == 128 {
                    v.push(AttentionConfig {
                        longest_first: true,
                        ..c
                    });
                }
            }
        }
    }
    v
}

/// Head dim 256 (key blocks of 64, 32 for `Pipelined`: `AttentionConfig::with_head_dim`) in
/// every schedule, over both types and both masks.
pub fn configs_d256() -> Vec<AttentionConfig> {
    let mut v = Vec::new();
    for dtype in [DType::F16, DType::BF16] {
        for causal in [false, true] {
            let serial = AttentionConfig::new(dtype, causal);
            let pipelined = AttentionConfig {
                schedule: AttentionSchedule::Pipelined,
                ..serial
            };
            for c in [serial, pipelined, AttentionConfig::ping_pong(dtype, causal)] {
                v.push(c.with_head_dim(256));
            }
        }
    }
    v
}

/// One launch: a configuration and its sequences.
pub struct Case {
    pub c: AttentionConfig,
    pub seqs: Sequences,
}

impl Case {
    /// `heads` heads (batch · query heads) of `seq` rows each.
    pub fn fixed(c: AttentionConfig, heads: usize, seq: usize) -> Case {
        Case {
            c,
            seqs: Sequences::fixed(heads, seq),
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
        let (dev, c, what) = (self.dev, &self.case.c, self.what);
        let (rows_q, _) = self.case.seqs.rows(c);
        let up = |x: &[f32]| {
            dev.upload(&x.iter().map(|&y| to(y)).collect::<Vec<_>>())
                .unwrap()
        };
        let (dq, dk, dv) = (up(qkv[0]), up(qkv[1]), up(qkv[2]));
        // O's poisoned tail is the suites' 1024 elements, not `PAD`'s 64.
        let o = poisoned::<B, T>(dev, rows_q * c.head_dim as usize + O_TAIL - PAD);
        let bufs = [&dq, &dk, &dv, &o];
        let run = |args: &KernelArgs<'_>, grid| {
            // SAFETY: the kernel reads Q, K, V through maps that cover them and the cumulative
            // lengths, and writes O[0..rows_q·d) and lse[0..rows_q).
            unsafe { launch::<B>(dev, self.kernel, grid, args, what) }
        };
        with_forward_args::<B, T, _>(dev, c, &self.case.seqs, bufs, lse, self.scale, run)
            .unwrap_or_else(|e| panic!("{what}: the forward's arguments: {e}"));
        o.to_vec().unwrap().into_iter().map(from).collect()
    }
}
