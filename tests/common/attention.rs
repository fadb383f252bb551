//! The attention configurations the suites run (GPU and interpreter): both 16-bit types,
//! causal or not, every schedule, head dims 64 and 128.

use weft::codegen::kernels::{AttentionConfig, AttentionSchedule};
use weft::codegen::DType;

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
