//! CTA clusters: a kernel in clusters of two CTAs where each CTA loads half of a tile and
//! multicasts it to both, run in the interpreter against the source (ragged last rows); the
//! mistakes a cluster kernel can make, each caught with a typed error naming it (a barrier
//! expecting only its own CTA's bytes, a multicast into a peer that has not initialised its
//! barrier, a grid that is not a whole number of clusters, a cluster below sm_90); the copy
//! through a backend's checked launch (the CPU backend, and CUDA on a GPU with clusters); a
//! ping-pong of remote arrives; and the PTX, with `.reqnctapercluster`, accepted by ptxas.
#![cfg(feature = "llvm")]

mod common;

use half::f16;
use weft::codegen::interp::{self, InterpError, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{gemm_kernel, GemmConfig};
use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::NvmmaShared;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig, LaunchProblem, RuntimeError};

use common::launch::{launch, load};

/// Rows of the tile one cluster copies; each CTA loads half of them.
const TILE: u64 = 32;
const COLS: u64 = 64;

/// How the multicast kernel is (mis)built.
#[derive(Clone, Copy, PartialEq)]
enum Plan {
    Right,
    /// The barrier expects only the half this CTA loads itself.
    OwnHalfOnly,
    /// No cluster barrier between the barriers' initialisation and the first multicast.
    NoStartBarrier,
}

/// Cluster `c` (of two CTAs) copies rows `c·32 ..` of `src` to the same rows of `dst`: CTA `r`
/// loads rows `c·32 + r·16 ..` into half `r` of its buffer and of its peer's by one multicast,
/// waits for both halves on its barrier, then CTA 0 stores the top half and CTA 1 the bottom.
fn multicast_copy(ctx: &Context, plan: Plan) -> Result<Kernel<'_>, CodegenError> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "multicast_copy", 4)?;
    kb.cluster_dims([2, 1, 1])?;
    let src = kb.arg_tensor_map("src", DType::F16, &[16, COLS as u32], 128)?;
    let dst = kb.arg_tensor_map("dst", DType::F16, &[16, COLS as u32], 128)?;
    let buf = kb.alloc_shared(
        DType::F16,
        &[TILE, COLS],
        NvmmaShared::new(128, 16, 2, false),
    )?;
    let bars = kb.alloc_mbarriers(1, 1)?;
    let bar = kb.mbarrier_at(bars, 0)?;
    if plan != Plan::NoStartBarrier {
        kb.cluster_arrive_relaxed()?;
        kb.cluster_wait()?;
    }
    let rank = kb.cluster_cta_rank()?;
    let cid = kb.cluster_id(0)?;
    let halves = kb.reshape_shared(buf, &[2, TILE / 2, COLS])?;
    let mine = kb.index_shared(halves, rank)?;
    let bytes = kb.tma_bytes(buf)?;
    let expect = if plan == Plan::OwnHalfOnly {
        bytes / 2
    } else {
        bytes
    };
    kb.mbarrier_expect(bar, expect, None)?;
    let base = kb.mul(cid, TILE as i32)?;
    let half = kb.mul(rank, (TILE / 2) as i32)?;
    let row = kb.add(base, half)?;
    let zero = kb.i32(0)?;
    kb.tma_load_multicast(src, &[row, zero], mine, bar, 0b11, None)?;
    kb.mbarrier_wait(bar, 0)?;
    // Each CTA stores the half its peer loaded: the bytes crossed the cluster.
    let n = kb.cluster_num_ctas()?;
    let last = kb.sub(n, 1)?;
    let other = kb.sub(last, rank)?;
    let theirs = kb.index_shared(halves, other)?;
    let half = kb.mul(other, (TILE / 2) as i32)?;
    let row = kb.add(base, half)?;
    kb.tma_store(dst, &[row, zero], theirs)?;
    kb.tma_store_wait(0)?;
    kb.cluster_arrive()?;
    kb.cluster_wait()?;
    kb.finish()
}

fn source(rows: u64) -> Vec<f16> {
    (0..rows * COLS)
        .map(|i| f16::from_f32(((i * 7 + 3) % 251) as f32 - 125.0))
        .collect()
}

/// Runs the kernel over `clusters` clusters on a `rows`-row source; the destination.
fn run(k: &Kernel<'_>, grid: [u32; 3], rows: u64) -> Result<Vec<f16>, InterpError> {
    let mut mem = Memory::new();
    let s = mem.upload(&source(rows));
    let d = mem.upload(&vec![f16::from_f32(-1.0); (rows * COLS) as usize]);
    let map = |b| TensorMapArg::dense(b, DType::F16, &[rows, COLS]);
    interp::run(
        k,
        grid,
        &[LaunchArg::TensorMap(map(s)), LaunchArg::TensorMap(map(d))],
        &mut mem,
    )?;
    Ok(mem.download(d))
}

#[test]
fn each_cta_gets_both_halves_of_a_multicast_tile() {
    let ctx = Context::new();
    let k = multicast_copy(&ctx, Plan::Right).unwrap();
    assert_eq!(k.signature().cluster, Some([2, 1, 1]));
    assert!(k.signature().to_string().ends_with("cluster = 2x1x1]"));
    // The printed program names the cluster shape and the cluster ops.
    let text = k.program().to_text(false);
    for needle in [
        "cluster = [2, 1, 1]",
        "cluster_cta_rank",
        "tma_load_multicast",
        "cluster_arrive_relaxed",
        "cluster_wait",
    ] {
        assert!(text.contains(needle), "no `{needle}` in\n{text}");
    }
    // Three clusters; the last one's second half runs past the 90 rows (zeros, not stored).
    let rows = 90;
    let out = run(&k, [6, 1, 1], rows).unwrap();
    assert_eq!(out, source(rows));
    // Any order of clusters and of the tasks within them gives the same result.
    for seed in [1, 7] {
        let mut mem = Memory::new();
        let s = mem.upload(&source(rows));
        let d = mem.upload(&vec![f16::ZERO; (rows * COLS) as usize]);
        let map = |b| TensorMapArg::dense(b, DType::F16, &[rows, COLS]);
        let opts = interp::Options {
            schedule: interp::Schedule::Random { seed },
        };
        interp::run_with(
            &k,
            [6, 1, 1],
            &[LaunchArg::TensorMap(map(s)), LaunchArg::TensorMap(map(d))],
            &mut mem,
            &opts,
            &mut std::io::sink(),
        )
        .unwrap();
        assert_eq!(mem.download::<f16>(d), source(rows), "seed {seed}");
    }
}

/// The multicast copy through a backend's checked launch (the CPU backend always, CUDA on sm_90):
/// every row of a ragged source arrives; a grid of part of a cluster is refused before it reaches
/// the device.
fn multicast_copy_through_the_launcher<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = multicast_copy(&ctx, Plan::Right).unwrap();
    let what = format!("multicast_copy on {}", B::KIND);
    let kernel = load::<B>(dev, &k, &what);
    let rows = 90;
    let src = dev.upload(&source(rows)).unwrap();
    let dst = dev
        .upload(&vec![f16::from_f32(-1.0); (rows * COLS) as usize])
        .unwrap();
    let dims = [rows, COLS];
    let sm = dev
        .tensor_map(&src, &dims, &[COLS], &[16, 64], 128)
        .unwrap();
    let dm = dev
        .tensor_map(&dst, &dims, &[COLS], &[16, 64], 128)
        .unwrap();
    let mut args = KernelArgs::new();
    args.tensor_map(&sm).tensor_map(&dm);
    // SAFETY: the kernel reads and writes only through the two maps, which cover the buffers.
    unsafe { launch::<B>(dev, &kernel, (6, 1, 1), &args, &what) };
    assert_eq!(dst.to_vec().unwrap(), source(rows), "{what}");
    let cfg = LaunchConfig::for_kernel((5, 1, 1), k.signature()).unwrap();
    // SAFETY: refused before launching.
    let e = unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap_err();
    assert!(
        matches!(
            e,
            RuntimeError::LaunchConfig {
                problem: LaunchProblem::ClusterGrid { .. },
                ..
            }
        ),
        "{what}: {e}"
    );
}

#[test]
fn multicast_copy_through_the_launcher_in_the_interpreter() {
    multicast_copy_through_the_launcher::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn multicast_copy_through_the_launcher_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Cluster], |dev| {
        multicast_copy_through_the_launcher::<weft::runtime::cuda::Cuda>(dev)
    });
}

#[test]
fn the_verifier_counts_a_multicast_once_per_receiving_cta() {
    let ctx = Context::new();
    let Err(e) = multicast_copy(&ctx, Plan::OwnHalfOnly) else {
        panic!("a barrier expecting half the bytes was accepted");
    };
    let text = e.to_string();
    assert!(
        text.contains("expects 2048 bytes") && text.contains("bring 4096"),
        "{text}"
    );
}

#[test]
fn a_multicast_before_the_peer_initialised_its_barrier_is_an_error() {
    let ctx = Context::new();
    let k = multicast_copy(&ctx, Plan::NoStartBarrier).unwrap();
    let e = run(&k, [2, 1, 1], 32).unwrap_err();
    match &e {
        InterpError::Fault { op, what, .. } => {
            assert_eq!(op, "tma_load_multicast", "{e}");
            assert!(what.contains("has not initialised"), "{e}");
        }
        _ => panic!("expected a fault, got {e}"),
    }
}

#[test]
fn a_grid_of_part_of_a_cluster_is_refused() {
    let ctx = Context::new();
    let k = multicast_copy(&ctx, Plan::Right).unwrap();
    let e = run(&k, [3, 1, 1], 48).unwrap_err();
    assert!(
        matches!(&e, InterpError::BadLaunch { reason, .. } if reason.contains("not a multiple of the cluster")),
        "{e}"
    );
}

#[test]
fn clusters_need_sm_90_and_a_declared_shape() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM80, "k", 4).unwrap();
    let e = kb.cluster_dims([2, 1, 1]).unwrap_err();
    assert!(e.to_string().contains("sm_90"), "{e}");
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let e = kb.cluster_cta_rank().unwrap_err();
    assert!(e.to_string().contains("cluster_dims"), "{e}");
    for bad in [[0, 1, 1], [4, 4, 1]] {
        let e = kb.cluster_dims(bad).unwrap_err();
        assert!(e.to_string().contains("at most 8"), "{e}");
    }
    kb.cluster_dims([2, 1, 1]).unwrap();
    let e = kb.cluster_dims([1, 2, 1]).unwrap_err();
    assert!(e.to_string().contains("already"), "{e}");
    let bars = kb.alloc_mbarriers(1, 1).unwrap();
    let bar = kb.mbarrier_at(bars, 0).unwrap();
    let e = kb.mbarrier_arrive_cluster(bar, 2).unwrap_err();
    assert!(e.to_string().contains("rank 2"), "{e}");
}

/// CTA 0 arrives on CTA 1's barrier, which waits for it and then arrives back on CTA 0's; each
/// writes `rounds` to `out[rank]` only after the other's arrive. Without CTA 0's arrive, CTA 1
/// waits for ever: a deadlock naming its rank.
fn ping_pong(ctx: &Context, ping: bool) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "ping_pong", 1).unwrap();
    kb.cluster_dims([2, 1, 1]).unwrap();
    let out = kb.arg_ptr("out", DType::I32, 4).unwrap();
    let bars = kb.alloc_mbarriers(1, 32).unwrap();
    let bar = kb.mbarrier_at(bars, 0).unwrap();
    kb.cluster_arrive().unwrap();
    kb.cluster_wait().unwrap();
    let rank = kb.cluster_cta_rank().unwrap();
    let is0 = kb.eq(rank, 0).unwrap();
    kb.if_(
        is0,
        |kb| {
            if ping {
                kb.mbarrier_arrive_cluster(bar, 1)?;
            }
            kb.mbarrier_wait(bar, 0)?;
            Ok(vec![])
        },
        |kb| {
            kb.mbarrier_wait(bar, 0)?;
            kb.mbarrier_arrive_cluster(bar, 0)?;
            Ok(vec![])
        },
    )
    .unwrap();
    let cid = kb.cluster_id(0).unwrap();
    let at = kb.mul(cid, 2).unwrap();
    let at = kb.add(at, rank).unwrap();
    let p = kb.add(out, at).unwrap();
    let v = kb.add(rank, 10).unwrap();
    kb.store(p, v, None).unwrap();
    kb.cluster_arrive().unwrap();
    kb.cluster_wait().unwrap();
    kb.finish().unwrap()
}

/// CTA 1 arrives on CTA 0's barrier with no cluster barrier before the kernel ends: CTA 0 may
/// have exited (its shared memory gone), which the interpreter names under the schedules that
/// let CTA 0 run ahead.
#[test]
fn an_arrive_on_a_peer_that_may_have_exited_is_an_error() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "late_arrive", 1).unwrap();
    kb.cluster_dims([2, 1, 1]).unwrap();
    let bars = kb.alloc_mbarriers(1, 32).unwrap();
    let bar = kb.mbarrier_at(bars, 0).unwrap();
    kb.cluster_arrive().unwrap();
    kb.cluster_wait().unwrap();
    let rank = kb.cluster_cta_rank().unwrap();
    let is1 = kb.eq(rank, 1).unwrap();
    let line = line!() + 1;
    kb.if_then(is1, |kb| kb.mbarrier_arrive_cluster(bar, 0))
        .unwrap();
    let k = kb.finish().unwrap();
    let mut caught = 0;
    for seed in 0..16 {
        let opts = interp::Options {
            schedule: interp::Schedule::Random { seed },
        };
        let (mut mem, mut out) = (Memory::new(), std::io::sink());
        let Err(e) = interp::run_with(&k, [2, 1, 1], &[], &mut mem, &opts, &mut out) else {
            continue;
        };
        match &e {
            InterpError::Fault { op, what, loc, .. } => {
                assert_eq!(
                    (op.as_str(), loc.line),
                    ("mbarrier_arrive_cluster", line),
                    "{e}"
                );
                assert!(what.contains("has exited"), "{e}");
                caught += 1;
            }
            _ => panic!("seed {seed}: expected a fault, got {e}"),
        }
    }
    assert!(caught > 0, "no schedule let CTA 0 exit first");
}

#[test]
fn remote_arrives_reach_the_peer_barrier() {
    let ctx = Context::new();
    let k = ping_pong(&ctx, true);
    let mut mem = Memory::new();
    let out = mem.upload(&[0i32; 4]);
    interp::run(&k, [4, 1, 1], &[LaunchArg::Buffer(out)], &mut mem).unwrap();
    assert_eq!(mem.download::<i32>(out), vec![10, 11, 10, 11]);
    let k = ping_pong(&ctx, false);
    let e = interp::run(&k, [2, 1, 1], &[LaunchArg::Buffer(out)], &mut mem).unwrap_err();
    match &e {
        InterpError::Deadlock { waits } => {
            assert!(waits.iter().any(|w| w.starts_with("CTA rank 0")), "{e}");
            assert!(waits.iter().any(|w| w.starts_with("CTA rank 1")), "{e}");
        }
        _ => panic!("expected a deadlock, got {e}"),
    }
}

/// The warp-specialised GEMMs in clusters of two at their default tiles (128 × 256, two consumer
/// warpgroups): fp8 (B `[N, K]`, split by rows) and f16 (B `[K, N]`, split by columns) assemble
/// with no spills and no serialised wgmma.
#[test]
fn cluster_gemms_assemble_without_spills() {
    let ctx = Context::new();
    for dtype in [DType::F8E4M3, DType::F16] {
        let c = GemmConfig {
            warp_specialized: true,
            persistent: true,
            cluster_m: 2,
            ..GemmConfig::new(dtype)
        };
        let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap();
        assert_eq!(k.signature().cluster, Some([2, 1, 1]));
        let ptx = k.ptx().unwrap();
        assert!(ptx.contains("multicast::cluster"), "{dtype}");
        common::assemble_without_spills(&ptx, "sm_90a", &format!("gemm {dtype} cluster_m 2"));
    }
}

#[test]
fn ptxas_accepts_the_cluster_kernel() {
    let ctx = Context::new();
    let k = multicast_copy(&ctx, Plan::Right).unwrap();
    let ptx = k.ptx().unwrap();
    for needle in [
        ".reqnctapercluster 2, 1, 1",
        ".explicitcluster",
        "%cluster_ctarank",
        "%clusterid.x",
        "multicast::cluster",
        "barrier.cluster.arrive.relaxed;",
        "barrier.cluster.wait.acquire;",
    ] {
        assert!(ptx.contains(needle), "no `{needle}` in the PTX");
    }
    common::assemble_without_spills(&ptx, "sm_90a", "multicast_copy");
    let k = ping_pong(&ctx, true);
    let ptx = k.ptx().unwrap();
    assert!(ptx.contains("mapa.shared::cluster.u32"));
    common::assemble_without_spills(&ptx, "sm_90", "ping_pong");
}
