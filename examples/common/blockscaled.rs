//! What `examples/gemm_blockscaled` and the block-scaled suite (`tests/gemm_blockscaled.rs`,
//! which includes this file by `#[path]`) share around the kernel's scales: uploading them in the
//! form the chosen `ScaleLoads` reads (row-major behind pointers, or M-/N-major behind tensor
//! maps) and passing them.

use weft::codegen::kernels::{
    mn_major_stride, scales_mn_major, GemmConfig, ScaleLoads, B_SCALES_SPREAD, SCALE_BLOCK,
};
use weft::runtime::backend::BufferOf;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, TensorMap};

/// A's and B's scales on the device as `loads` reads them, for an `m × n × k` problem.
pub struct DeviceScales<B: Backend> {
    a: BufferOf<B, f32>,
    b: BufferOf<B, f32>,
    /// Staged: the columns of A's and B's M-/N-major scales (B's N blocks spread
    /// `B_SCALES_SPREAD` apart) and the K blocks.
    staged: Option<[usize; 3]>,
}

impl<B: Backend> DeviceScales<B> {
    /// Uploads row-major `sa` `[a_rows, ⌈k/128⌉]` and `sb` `[b_rows, ⌈k/128⌉]` (a GEMM's M and
    /// ⌈N/128⌉; a grouped one's rows and experts · N/128), transposed by `scales_mn_major` when
    /// `loads` is `Staged` (B's N blocks `B_SCALES_SPREAD` columns apart, so that each tile's box
    /// starts 16-byte aligned).
    pub fn upload(
        dev: &B::Device,
        [sa, sb]: [&[f32]; 2],
        [a_rows, b_rows]: [usize; 2],
        k: usize,
        loads: ScaleLoads,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let kbs = k.div_ceil(SCALE_BLOCK);
        if loads != ScaleLoads::Staged {
            return Ok(DeviceScales {
                a: dev.upload(sa)?,
                b: dev.upload(sb)?,
                staged: None,
            });
        }
        Ok(DeviceScales {
            a: dev.upload(&scales_mn_major(sa, a_rows, kbs, 1)?)?,
            b: dev.upload(&scales_mn_major(sb, b_rows, kbs, B_SCALES_SPREAD)?)?,
            staged: Some([a_rows, b_rows * B_SCALES_SPREAD, kbs]),
        })
    }

    /// The tensor maps `c`'s staged kernel reads the scales through (`None` unless staged):
    /// `[max(⌈k/128⌉, 1), columns]` with rows `mn_major_stride(columns)` apart.
    pub fn maps(
        &self,
        dev: &B::Device,
        c: &GemmConfig,
    ) -> weft::runtime::Result<Option<[TensorMap<'_>; 2]>> {
        let Some([a_rows, b_rows, kbs]) = self.staged else {
            return Ok(None);
        };
        let map = |buf, rows: usize, bx: [u32; 2]| {
            let stride = mn_major_stride(rows) as u64;
            dev.tensor_map(buf, &[kbs.max(1) as u64, rows as u64], &[stride], &bx, 0)
        };
        Ok(Some([
            map(&self.a, a_rows, c.a_scales_box())?,
            map(&self.b, b_rows, c.b_scales_box())?,
        ]))
    }

    /// Appends the scale arguments: the pointers, or `maps` when staged.
    pub fn push<'a>(&'a self, args: &mut KernelArgs<'a>, maps: Option<&'a [TensorMap<'a>; 2]>) {
        match maps {
            Some([a, b]) => args.tensor_map(a).tensor_map(b),
            None => args.ptr(&self.a).ptr(&self.b),
        };
    }
}
