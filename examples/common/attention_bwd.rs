//! What `examples/attention_bwd` and the backward suite (`tests/gpu_attention_bwd.rs`, which
//! includes this file by `#[path]`) share around the gradient kernels: the arguments they take
//! and the measure of a gradient against the host reference.

use weft::codegen::kernels::{AttentionBwdConfig, BwdEngine};
use weft::runtime::backend::BufferOf;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, DeviceElem, KernelArgs, TensorMap};

/// What both gradient kernels (dK/dV and dQ) read: Q, K, V and dO, and the forward's
/// log-sum-exp and the delta pre-pass's rows.
pub struct GradInputs<'a, B: Backend, T: DeviceElem> {
    pub q: &'a BufferOf<B, T>,
    pub k: &'a BufferOf<B, T>,
    pub v: &'a BufferOf<B, T>,
    pub d_o: &'a BufferOf<B, T>,
    pub lse: &'a BufferOf<B, f32>,
    pub delta: &'a BufferOf<B, f32>,
}

impl<'a, B: Backend, T: DeviceElem> GradInputs<'a, B, T> {
    /// The tensor maps of Q, K, V and dO that `c`'s engine reads them through: the wgmma
    /// engine's (over `hq` query heads of `seq` rows), or none for mma.sync, which takes
    /// pointers.
    pub fn maps(
        &self,
        dev: &B::Device,
        c: &AttentionBwdConfig,
        (hq, seq): (usize, usize),
    ) -> weft::runtime::Result<Option<[TensorMap<'a>; 4]>> {
        if c.engine != BwdEngine::Wgmma {
            return Ok(None);
        }
        let d = c.head_dim as u64;
        let hkv = hq / c.group as usize;
        let map = |b: &'a BufferOf<B, T>, rows: usize| {
            dev.tensor_map(b, &[rows as u64, d], &[d], &c.tma_box(), c.swizzle())
        };
        Ok(Some([
            map(self.q, hq * seq)?,
            map(self.k, hkv * seq)?,
            map(self.v, hkv * seq)?,
            map(self.d_o, hq * seq)?,
        ]))
    }

    /// A gradient kernel's arguments: Q, K, V and dO (as pointers, or through `maps`), lse
    /// and delta, its outputs `outs`, then `seq`, the softmax scale times log2(e) and the scale.
    pub fn args<'b>(
        &self,
        maps: Option<&'b [TensorMap<'b>; 4]>,
        outs: &[&'b BufferOf<B, T>],
        seq: usize,
        scale: f64,
    ) -> KernelArgs<'b>
    where
        'a: 'b,
    {
        let mut args = KernelArgs::new();
        match maps {
            Some(m) => args
                .tensor_map(&m[0])
                .tensor_map(&m[1])
                .tensor_map(&m[2])
                .tensor_map(&m[3]),
            None => args.ptr(self.q).ptr(self.k).ptr(self.v).ptr(self.d_o),
        };
        args.ptr(self.lse).ptr(self.delta);
        for o in outs {
            args.ptr(*o);
        }
        args.scalar(seq as i32)
            .scalar((scale * std::f64::consts::LOG2_E) as f32)
            .scalar(scale as f32);
        args
    }
}

/// How far a gradient is from the host's: the largest `|got - want|` over the largest `|want|`
/// (at least 1e-6), infinite where an element is NaN.
pub fn gradient_error(got: impl IntoIterator<Item = f64>, want: &[f64]) -> f64 {
    let top = want.iter().fold(1e-6f64, |m, x| m.max(x.abs()));
    let err = got.into_iter().zip(want).fold(0f64, |m, (g, w)| {
        let e = (g - w).abs();
        if e.is_nan() {
            f64::INFINITY
        } else {
            m.max(e)
        }
    });
    err / top
}
