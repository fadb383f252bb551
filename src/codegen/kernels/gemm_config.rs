//! The configuration of the Hopper GEMM (`gemm_kernel`, its warp-specialised schedule, and
//! kernels a user builds on the same parts): tiles, pipeline depth, warps, the operands' boxes,
//! and the parameters and shared buffers every schedule declares.

use crate::layout::encoding::NvmmaShared;

use super::super::{CodegenError, DType, KernelBuilder, Result, Value};
use super::parts::{ceil_div, GemmLoop, TileGrid, TmaRing, TmaStore};

/// Tile, pipeline and thread configuration of [`gemm_kernel`](super::gemm_kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GemmConfig {
    /// Input element type: f16, bf16, fp8 (e4m3, e5m2; B given as `[N, K]`) or f32 (as tf32,
    /// B given as `[N, K]`). Accumulation is f32.
    pub dtype: DType,
    /// C's element type (f16, bf16 or f32).
    pub out_dtype: DType,
    /// Rows of C per CTA (a multiple of 16 × `num_warps`).
    pub block_m: u32,
    /// Columns of C per CTA (64 to 256, a multiple of 64).
    pub block_n: u32,
    /// K per stage: one 128-byte swizzled row (64 16-bit, 128 fp8 or 32 f32 elements).
    pub block_k: u32,
    /// Shared-memory stages of the ring (2 to 8).
    pub stages: u32,
    /// Warps per CTA (4 or 8: one or two warpgroups along M), the consumers' when
    /// `warp_specialized` (a producer warpgroup comes on top).
    pub num_warps: u32,
    /// Row tiles per group in the launch order.
    pub group_m: u32,
    /// B is given as `[N, K]` (C = A · Bᵀ).
    pub b_transposed: bool,
    /// Persistent: a grid of at most one CTA per SM ([`grid_persistent`](Self::grid_persistent)),
    /// each walking tiles `pid, pid + programs, …` in one loop over (tile, k-tile), so the ring
    /// prefetches the next tile's first k-tiles while the current one finishes and its epilogue
    /// overlaps the next tile's loads.
    pub persistent: bool,
    /// Warp-specialised (`gemm_ws.rs`): a producer warpgroup beside the `num_warps` consumer
    /// warps issues every load, stages are handed back through "empty" mbarriers instead of a
    /// CTA barrier per k-tile, and tiles are walked as in the persistent kernel (launch it on
    /// [`grid_persistent`](Self::grid_persistent) when `persistent`, else on [`grid`](Self::grid)).
    pub warp_specialized: bool,
    /// CTAs per cluster along M: 1 (no clusters), or 2: the two CTAs of a cluster compute
    /// neighbouring row tiles of the same columns, and each loads half of their shared B box and
    /// multicasts it to both, so B is read from L2 once per two tiles (the tiles' operand bytes
    /// per flop fall by a quarter at 128 × 128). Warp-specialised kernels (with B `[K, N]`,
    /// `block_n` of at least two 128-byte rows).
    pub cluster_m: u32,
}

/// Swizzle of every operand and of C: 128 bytes (one row of a TMA box).
const SWIZZLE: u16 = 128;

impl GemmConfig {
    /// 128 × 256 tiles (128 × 128 for f32), K of one 128-byte row per stage, 3 stages, 8 warps (two consumer
    /// warpgroups), groups of 8; C in the input type (f32 for f32 inputs, bf16 for fp8), B as
    /// `[K, N]` for 16-bit inputs and as `[N, K]` (K-major, which fp8 and tf32 need) otherwise.
    pub fn new(dtype: DType) -> GemmConfig {
        let bytes = dtype.bits() / 8;
        GemmConfig {
            dtype,
            out_dtype: match dtype {
                DType::F8E4M3 | DType::F8E5M2 => DType::BF16,
                d => d,
            },
            block_m: 128,
            // An f32 C of 128 × 256 would not fit beside the ring.
            block_n: if bytes == 4 { 128 } else { 256 },
            block_k: 128 / bytes,
            stages: 3,
            num_warps: 8,
            group_m: 8,
            b_transposed: bytes != 2,
            persistent: false,
            warp_specialized: false,
            cluster_m: 1,
        }
    }

    /// Elements of `d` in one 128-byte swizzled row: the inner dim of every TMA box.
    fn row(d: DType) -> u32 {
        128 / (d.bits() / 8)
    }

    /// The launch grid for C of `m × n`: one CTA per tile (with clusters along M, a whole
    /// cluster per `cluster_m` row tiles, the last one's rows past M idle).
    pub fn grid(&self, m: u64, n: u64) -> (u32, u32, u32) {
        let cm = u64::from(self.cluster_m.max(1));
        let rows = u64::from(self.block_m) * cm;
        let tiles = m.div_ceil(rows) * n.div_ceil(u64::from(self.block_n)) * cm;
        (tiles as u32, 1, 1)
    }

    /// The launch grid of a persistent kernel on a device with `sms` SMs: one CTA per SM, at
    /// most one per tile, a whole number of clusters.
    pub fn grid_persistent(&self, m: u64, n: u64, sms: u32) -> (u32, u32, u32) {
        let cm = self.cluster_m.max(1);
        let ctas = self.grid(m, n).0.min(sms.max(cm));
        (ctas - ctas % cm, 1, 1)
    }

    /// The TMA box of A (`[block_m, block_k]`).
    pub fn a_box(&self) -> [u32; 2] {
        [self.block_m, self.block_k]
    }

    /// The TMA box of B: `[block_k, one row]`, or `[block_n, block_k]` when transposed (of
    /// `block_n / cluster_m` rows with clusters: each CTA loads its part).
    pub fn b_box(&self) -> [u32; 2] {
        if self.b_transposed {
            [self.block_n / self.cluster_m.max(1), self.block_k]
        } else {
            [self.block_k, Self::row(self.dtype)]
        }
    }

    /// The TMA box of C (`[block_m, one row of out_dtype]`).
    pub fn c_box(&self) -> [u32; 2] {
        [self.block_m, Self::row(self.out_dtype)]
    }

    /// The swizzle of every tensor map, in bytes.
    pub fn swizzle(&self) -> u16 {
        SWIZZLE
    }

    /// Shared memory the kernel uses (ring + C tile + barriers), in bytes.
    pub fn shared_bytes(&self) -> u64 {
        let e = u64::from(self.dtype.bits() / 8);
        let stage = u64::from(self.block_m * self.block_k + self.block_k * self.block_n) * e;
        let c = u64::from(self.block_m * self.block_n) * u64::from(self.out_dtype.bits() / 8);
        let barriers = if self.warp_specialized { 16 } else { 8 };
        stage * u64::from(self.stages) + c + barriers * u64::from(self.stages)
    }

    pub(super) fn check(&self) -> Result<()> {
        let bad = |reason: String| CodegenError::arg("gemm_kernel", reason);
        let sixteen = matches!(self.dtype, DType::F16 | DType::BF16);
        if !sixteen && !matches!(self.dtype, DType::F8E4M3 | DType::F8E5M2 | DType::F32) {
            return Err(bad(format!(
                "dtype {}: f16, bf16, f8e4m3, f8e5m2 or f32",
                self.dtype
            )));
        }
        if !sixteen && !self.b_transposed {
            return Err(bad(format!(
                "{} operands must be K-major: give B as [N, K] (b_transposed)",
                self.dtype
            )));
        }
        if !matches!(self.out_dtype, DType::F16 | DType::BF16 | DType::F32) {
            return Err(bad(format!(
                "out_dtype {}: f16, bf16 or f32",
                self.out_dtype
            )));
        }
        if !matches!(self.num_warps, 4 | 8) {
            return Err(bad(format!("{} warps: 4 or 8", self.num_warps)));
        }
        if self.block_k != Self::row(self.dtype) {
            return Err(bad(format!(
                "block_k {}: {} (one 128-byte swizzled row of {})",
                self.block_k,
                Self::row(self.dtype),
                self.dtype
            )));
        }
        if !self.block_m.is_multiple_of(16 * self.num_warps) || self.block_m > 256 {
            return Err(bad(format!(
                "block_m {}: a multiple of {} up to 256",
                self.block_m,
                16 * self.num_warps
            )));
        }
        if !self.block_n.is_power_of_two() || !(64..=256).contains(&self.block_n) {
            return Err(bad(format!("block_n {}: 64, 128 or 256", self.block_n)));
        }
        if !(2..=8).contains(&self.stages) {
            return Err(bad(format!("stages {}: 2 to 8", self.stages)));
        }
        if self.group_m == 0 {
            return Err(bad("group_m 0".into()));
        }
        match self.cluster_m {
            1 => {}
            // B `[K, N]` splits along N in whole 128-byte columns (one box each).
            2 if self.warp_specialized
                && (self.b_transposed || self.block_n / 2 >= Self::row(self.dtype)) => {}
            2 => {
                return Err(bad(format!(
                    "cluster_m 2: warp-specialised, with B as [N, K] or block_n at least {}",
                    2 * Self::row(self.dtype)
                )))
            }
            cm => return Err(bad(format!("cluster_m {cm}: 1 or 2"))),
        }
        Ok(())
    }
}

impl GemmConfig {
    /// Fails unless `cluster_m` is 1: for the kernels without a cluster schedule.
    pub(super) fn no_clusters(&self, op: &'static str) -> Result<()> {
        if self.cluster_m != 1 {
            return Err(CodegenError::arg(
                op,
                format!(
                    "cluster_m {}: this kernel has no cluster schedule (1)",
                    self.cluster_m
                ),
            ));
        }
        Ok(())
    }

    /// The tile grid of C and the K blocks per tile.
    pub fn tiles(
        &self,
        kb: &mut KernelBuilder<'_>,
        [m, n, k]: [Value; 3],
    ) -> Result<(TileGrid, Value)> {
        let grid = TileGrid::new(kb, [m, n], [self.block_m, self.block_n], self.group_m)?;
        let k_tiles = ceil_div(kb, k, self.block_k as i32)?;
        Ok((grid, k_tiles))
    }

    /// Where a persistent program works: its index and the program count it walks tiles by,
    /// the tile grid and K blocks per tile ([`tiles`](Self::tiles)), and with clusters its rank
    /// in its cluster (the programs are then the clusters, [`cluster_tiles`](Self::cluster_tiles)).
    pub fn placement(
        &self,
        kb: &mut KernelBuilder<'_>,
        mnk: [Value; 3],
    ) -> Result<(TileGrid, Value, [Value; 2], Option<Value>)> {
        if self.cluster_m > 1 {
            let (grid, k_tiles, [cid, clusters, rank]) = self.cluster_tiles(kb, mnk)?;
            return Ok((grid, k_tiles, [cid, clusters], Some(rank)));
        }
        let pid = kb.program_id(0)?;
        let programs = kb.num_programs(0)?;
        let (grid, k_tiles) = self.tiles(kb, mnk)?;
        Ok((grid, k_tiles, [pid, programs], None))
    }

    /// [`tiles`](Self::tiles) for a kernel in clusters of `cluster_m` CTAs along M: the grid
    /// of the clusters' tiles (`cluster_m` row tiles each), this CTA's rows of each, and the K
    /// blocks per tile; and the cluster's index, the number of clusters and the CTA's rank (the
    /// program index and count a persistent loop walks tiles by, and what the loads split by).
    pub fn cluster_tiles(
        &self,
        kb: &mut KernelBuilder<'_>,
        [m, n, k]: [Value; 3],
    ) -> Result<(TileGrid, Value, [Value; 3])> {
        let cm = self.cluster_m;
        let rank = kb.cluster_cta_rank()?;
        let cid = kb.cluster_id(0)?;
        let ctas = kb.num_programs(0)?;
        let clusters = kb.div(ctas, cm as i32)?;
        let grid = TileGrid::new(kb, [m, n], [self.block_m * cm, self.block_n], self.group_m)?;
        let rows = kb.mul(rank, self.block_m as i32)?;
        let k_tiles = ceil_div(kb, k, self.block_k as i32)?;
        Ok((grid.offset_rows(rows), k_tiles, [cid, clusters, rank]))
    }

    /// The ring of a warp-specialised kernel: `stages` stages of [`stage_bytes`](Self::stage_bytes),
    /// with `consumers` threads releasing each; with clusters, every CTA's consumer warps
    /// release each stage to every CTA ([`TmaRing::shared_by`]), and the cluster meets once the
    /// barriers are initialised, before any CTA multicasts into another.
    pub fn ring(&self, kb: &mut KernelBuilder<'_>, consumers: u32) -> Result<TmaRing> {
        self.ring_with(kb, consumers, 0)
    }

    /// [`ring`](Self::ring) whose stages also receive `extra` bytes beside A's and B's boxes
    /// (a block-scaled GEMM's staged scales).
    pub fn ring_with(
        &self,
        kb: &mut KernelBuilder<'_>,
        consumers: u32,
        extra: u32,
    ) -> Result<TmaRing> {
        let cm = self.cluster_m;
        let bytes = self.stage_bytes() + extra;
        if cm == 1 {
            return TmaRing::new(kb, self.stages, bytes, Some(consumers));
        }
        let warps = consumers / kb.threads_per_warp();
        let ring = TmaRing::new(kb, self.stages, bytes, Some(warps * cm))?;
        kb.cluster_arrive_relaxed()?;
        kb.cluster_wait()?;
        Ok(ring.shared_by(cm))
    }

    /// With clusters, the cluster meets before its CTAs exit, so none exits while a peer may
    /// still multicast into its shared memory or arrive on its barriers. Nothing without.
    pub fn leave_cluster(&self, kb: &mut KernelBuilder<'_>) -> Result<()> {
        if self.cluster_m == 1 {
            return Ok(());
        }
        kb.cluster_arrive()?;
        kb.cluster_wait()
    }

    /// Bytes one ring stage receives (A's and B's boxes).
    pub fn stage_bytes(&self) -> u32 {
        (self.block_m * self.block_k + self.block_k * self.block_n) * (self.dtype.bits() / 8)
    }

    /// The main loop's operands: the maps and rings of A and B, and the ring's barriers.
    pub fn mainloop(
        &self,
        [a_map, b_map, a_ring, b_ring]: [Value; 4],
        ring: TmaRing,
        grid: TileGrid,
        k_tiles: Value,
    ) -> GemmLoop {
        GemmLoop {
            a_map,
            b_map,
            a_ring,
            b_ring,
            ring,
            grid,
            k_tiles,
            block: [self.block_m, self.block_n, self.block_k],
            warps: self.num_warps,
            b_transposed: self.b_transposed,
            k_first: None,
            cluster_rank: None,
            scales: None,
        }
    }

    /// The plain epilogue: C in `out_dtype` through the staging buffer and a TMA store.
    pub fn tma_store(&self, staging: Value, map: Value, reused: bool) -> TmaStore {
        TmaStore {
            staging,
            map,
            out: self.out_dtype,
            reused,
        }
    }
}

/// Declares the parameters every schedule takes: `a_map, b_map, c_map, m, n, k`.
pub fn declare_params(kb: &mut KernelBuilder<'_>, c: &GemmConfig) -> Result<[Value; 6]> {
    Ok([
        kb.arg_tensor_map("a_map", c.dtype, &c.a_box(), SWIZZLE)?,
        kb.arg_tensor_map("b_map", c.dtype, &c.b_box(), SWIZZLE)?,
        kb.arg_tensor_map("c_map", c.out_dtype, &c.c_box(), SWIZZLE)?,
        kb.arg_i32("m", 1)?,
        kb.arg_i32("n", 1)?,
        kb.arg_i32("k", 1)?,
    ])
}

/// The A and B rings (`stages` buffers of one K block each) and C's staging buffer, 128-byte
/// swizzled.
pub fn alloc_buffers(kb: &mut KernelBuilder<'_>, c: &GemmConfig) -> Result<[Value; 3]> {
    let (bm, bn, bk) = (
        u64::from(c.block_m),
        u64::from(c.block_n),
        u64::from(c.block_k),
    );
    let swz = NvmmaShared::new(u32::from(SWIZZLE), c.dtype.bits(), 2, false);
    let stages = u64::from(c.stages);
    let a_ring = kb.alloc_shared_buffers(c.dtype, stages, &[bm, bk], &swz)?;
    let b_shape = if c.b_transposed { [bn, bk] } else { [bk, bn] };
    let b_ring = kb.alloc_shared_buffers(c.dtype, stages, &b_shape, &swz)?;
    let out_swz = NvmmaShared::new(u32::from(SWIZZLE), c.out_dtype.bits(), 2, false);
    let c_smem = kb.alloc_shared(c.out_dtype, &[bm, bn], &out_swz)?;
    Ok([a_ring, b_ring, c_smem])
}
