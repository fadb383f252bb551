//! The 4-bit-weight GEMM (`gemm_w4_kernel`: int4 weights with group-128 scales, unpacked in
//! registers on the way to `mma.sync`, split-K, partials summed by `gemm_skinny_reduce_kernel`)
//! against the f64 host reference on ragged M and N (K is a multiple of the group) with f16
//! and bf16 tokens: on the CPU backend
//! (the interpreter) always, on the GPU when there is one; and its PTX through ptxas (no spills).
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, tol};
use common::launch::{launch_split_k, load, SplitOutputs};
use common::rng::Rng;
use weft::codegen::kernels::{
    gemm_skinny_reduce_kernel, gemm_w4_kernel, gemm_w4_reference, k_in_memory, W4Config, W4_GROUP,
};
use weft::codegen::{CodegenError, Context, DType, Target};
use weft::layout::convert::ConversionKind;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, DeviceElem, KernelArgs};

/// Runs both kernels on random int4 weights, scales in [1/64, 1/32) and tokens of quarters in
/// [-2, 2) (exact in 16 bits) with `splits` K ranges, the sum finished by the reduction kernel
/// and then by the kernel itself; checks Y against the host, and the two finishes' bits equal.
fn run<B: Backend>(dev: &B::Device, act: DType, [m, n, k]: [usize; 3], splits: u32) {
    let c = W4Config::new(act, m as u32);
    let bits = |c: W4Config| -> Vec<u16> {
        if act == DType::F16 {
            run_as::<B, f16>(dev, c, [m, n, k], splits, f16::from_f32, f16::to_f64)
                .into_iter()
                .map(f16::to_bits)
                .collect()
        } else {
            run_as::<B, bf16>(dev, c, [m, n, k], splits, bf16::from_f32, bf16::to_f64)
                .into_iter()
                .map(bf16::to_bits)
                .collect()
        }
    };
    let apart = bits(c.with_finish_in_kernel(false));
    for _ in 0..2 {
        assert_eq!(
            apart,
            bits(c.with_finish_in_kernel(true)),
            "gemm_w4 {m}x{n}x{k} in {splits} splits: finished in the kernel"
        );
    }
}

fn run_as<B: Backend, T: DeviceElem + Copy>(
    dev: &B::Device,
    c: W4Config,
    [m, n, k]: [usize; 3],
    splits: u32,
    to: fn(f32) -> T,
    from: fn(T) -> f64,
) -> Vec<T> {
    let act = c.act;
    let what = format!("gemm_w4 {m}x{n}x{k} in {splits} splits, {c:?}");
    let ctx = Context::new();
    let kp = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap();
    let kr = gemm_skinny_reduce_kernel(&ctx, Target::SM90A, act).unwrap();
    let (partial, reduce) = (load::<B>(dev, &kp, &what), load::<B>(dev, &kr, &what));
    let mut rng = Rng(41 + m as u64);
    let groups = k.div_ceil(W4_GROUP as usize);
    let x: Vec<f32> = (0..m * k)
        .map(|_| ((rng.next_u64() % 16) as f32 - 8.0) / 4.0)
        .collect();
    let w: Vec<u8> = (0..n * k / 2).map(|_| rng.next_u64() as u8).collect();
    // Scales exact in both 16-bit types.
    let s: Vec<f32> = (0..n * groups)
        .map(|_| (64 + rng.next_u64() % 64) as f32 / 4096.0)
        .collect();
    let want: Vec<f64> = gemm_w4_reference(&x, &w, &s, [m, n, k])
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect();
    let up = |v: &[f32]| {
        dev.upload(&v.iter().map(|&e| to(e)).collect::<Vec<T>>())
            .unwrap()
    };
    let (dx, ds) = (up(&x), up(&s));
    let dw = dev
        .upload(&w.iter().map(|&b| b as i8).collect::<Vec<i8>>())
        .unwrap();
    let (mu, nu) = (m as u64, n as u64);
    let out = SplitOutputs::<B, T>::new(dev, [m, n, splits as usize], c.tiles(mu, nu));
    let mut args = KernelArgs::new();
    args.ptr(&dw).ptr(&ds).ptr(&dx);
    let sizes = [m, n, k, splits as usize];
    let grid = c.grid(mu, nu, splits);
    // SAFETY: the kernel reads W (n · k / 2 bytes), the scales and X within their shapes
    // (rows and tokens clamped, groups inside K) and writes splits · m · n partials (finishing: m · n outputs, a ticket per tile).
    unsafe {
        launch_split_k::<B, T>(
            dev,
            (&partial, &reduce),
            args,
            &out,
            c.finish_in_kernel,
            sizes,
            grid,
            &what,
        )
    };
    let y = out.y.to_vec().unwrap()[..m * n].to_vec();
    let got: Vec<f64> = y.iter().map(|&v| from(v)).collect();
    close(&got, &want, tol(act), &what);
    y
}

#[test]
fn int4_weights_unpack_and_scale_in_the_interpreter() {
    let dev = common::gpu::cpu();
    type Cpu = weft::runtime::cpu::Cpu;
    // One token, two tiles of W rows (the second ragged), 3 groups in 2 splits.
    run::<Cpu>(&dev, DType::BF16, [1, 72, 384], 2);
    // 13 f16 tokens, 2 groups in 3 splits (the last empty).
    run::<Cpu>(&dev, DType::F16, [13, 64, 256], 3);
    // 70 tokens: two 64-token tiles of 128 rows over 8 warps (the second tile ragged).
    run::<Cpu>(&dev, DType::BF16, [70, 64, 256], 1);
    // 5 groups in one range (an odd count: the loop's second group past the end is not added),
    // 9 tokens (a 16-token tile) and 3 rows of W.
    run::<Cpu>(&dev, DType::BF16, [9, 3, 640], 1);
    // An empty K: no group to load ahead, Y is zero.
    run::<Cpu>(&dev, DType::BF16, [2, 8, 0], 1);
    // Tiles `new` does not pick: warps sharing W's rows (8 warps over 64 rows), 128 rows over
    // 4 warps (two row blocks a warp).
    for (block_m, block_n, num_warps) in [(64, 8, 8), (128, 16, 4)] {
        let c = W4Config {
            block_m,
            block_n,
            num_warps,
            ..W4Config::new(DType::BF16, 5)
        };
        run_as::<Cpu, bf16>(&dev, c, [5, 72, 384], 2, bf16::from_f32, bf16::to_f64);
    }
    // The other depths on 5 groups in one range: 1, 2 (two iterations and a half), 8 (one
    // iteration, three groups past the range computed and dropped).
    for depth in [1, 2, 8] {
        let c = W4Config {
            depth,
            ..W4Config::new(DType::BF16, 9)
        };
        run_as::<Cpu, bf16>(&dev, c, [9, 3, 640], 1, bf16::from_f32, bf16::to_f64);
    }
    // W through a shared-memory ring: more stages than a range has groups (8 over 5, and over
    // ranges of 2 and 1 group in 3 splits), a ring shorter than the depth (2 under 4), one
    // token, 70 (two 64-token tiles of 128 rows over 8 warps), and an empty K (the copies ahead
    // masked).
    for (w_stages, depth, mnk, splits) in [
        (8, 2, [9, 3, 640], 1),
        (3, 1, [1, 72, 640], 3),
        (2, 4, [1, 72, 640], 1),
        (4, 2, [70, 136, 384], 2),
        (4, 1, [2, 8, 0], 1),
    ] {
        let mut c = W4Config {
            w_stages,
            depth,
            ..W4Config::new(DType::BF16, mnk[0] as u32)
        };
        if mnk[0] > 64 {
            (c.block_m, c.block_n) = (128, 64);
        }
        run_as::<Cpu, bf16>(&dev, c, mnk, splits, bf16::from_f32, bf16::to_f64);
    }
}

#[cfg(feature = "cuda")]
#[test]
fn int4_weights_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    type Cuda = weft::runtime::cuda::Cuda;
    let sms = dev.props().sm_count;
    for act in [DType::BF16, DType::F16] {
        for (m, n, k) in [(1, 4096, 4096), (16, 1000, 2048), (128, 520, 1408)] {
            let splits = W4Config::new(act, m as u32).splits(m as u64, n as u64, k as u64, sms);
            run::<Cuda>(&dev, act, [m, n, k], splits);
        }
    }
}

/// Each thread loads exactly its `mma.sync` fragments (W's K visited in `k_in_memory`'s order),
/// so no operand crosses shared memory: both conversions only rename registers, the kernel
/// reserves no shared memory and the weights and tokens come in 16-byte loads.
#[test]
fn the_int4_kernel_loads_its_operands_where_the_tensor_cores_want_them() {
    let mut seen = [false; W4_GROUP as usize];
    for k in 0..u64::from(W4_GROUP) {
        let at = k_in_memory(k) as usize;
        assert!(
            at < seen.len() && !seen[at],
            "k_in_memory is not a permutation at {k}"
        );
        seen[at] = true;
    }
    for m in [1, 16, 64, 128] {
        // The main loop alone: finishing the sum hands its ticket over in shared memory.
        let c = W4Config::new(DType::BF16, m).with_finish_in_kernel(false);
        let ctx = Context::new();
        let k = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap();
        let r = k.report();
        assert_eq!(r.shared_bytes, 0, "{c:?} reserves shared memory");
        let converts: Vec<_> = r
            .rows
            .iter()
            .filter_map(|row| row.conversion.filter(|_| row.op == "convert_layout"))
            .collect();
        assert_eq!(
            converts.len(),
            2 * c.depth as usize,
            "{c:?}: the A and B operand conversions of the groups an iteration computes"
        );
        for f in converts {
            assert!(
                matches!(
                    f.executed,
                    ConversionKind::Noop | ConversionKind::RegisterPermute
                ),
                "{c:?}: an operand conversion runs as {:?}",
                f.executed
            );
        }
        let vectors: Vec<u64> = r
            .rows
            .iter()
            .filter(|row| row.op == "load" && row.in_body)
            .filter_map(|row| row.global.map(|g| g.bytes))
            .collect();
        // W, X (in the loop from 64 tokens, else a group ahead) and the scales.
        assert!(
            vectors.iter().filter(|&&b| b == 16).count() >= 2,
            "{c:?}: the weights and tokens are not 16-byte loads: {vectors:?}"
        );
    }
}

#[test]
fn the_int4_kernel_assembles_without_spills() {
    for act in [DType::BF16, DType::F16] {
        for (m, finish) in [1, 16, 64, 128]
            .into_iter()
            .flat_map(|m| [(m, false), (m, true)])
        {
            let c = W4Config::new(act, m).with_finish_in_kernel(finish);
            let what = format!("gemm_w4 {c:?}");
            let ctx = Context::new();
            let k = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap();
            let ptx = k.ptx().unwrap();
            common::assemble_without_spills(&ptx, "sm_90a", &what);
        }
    }
}

#[test]
fn bad_int4_configurations_and_references_are_typed_errors() {
    let ctx = Context::new();
    let mut c = W4Config::new(DType::BF16, 1);
    c.act = DType::F32;
    let e = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    let mut c = W4Config::new(DType::BF16, 1);
    c.depth = 3;
    let e = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("depth 3"), "{e}");
    let mut c = W4Config::new(DType::BF16, 1);
    c.w_stages = 1;
    let e = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("w_stages 1"), "{e}");
    // The ring with warps sharing W's rows (8 warps over 64 rows): a thread would read bytes
    // another thread copied.
    let mut c = W4Config::new(DType::BF16, 128);
    (c.block_m, c.w_stages) = (64, 4);
    let e = gemm_w4_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("rows of its own"), "{e}");
    let mut c = W4Config::new(DType::BF16, 1);
    c.block_n = 48;
    assert!(gemm_w4_kernel(&ctx, Target::SM90A, c).is_err());
    // A grid past u32 saturates (the launch then refuses it) instead of wrapping; a zero tile
    // size divides nothing by zero.
    assert_eq!(c.grid(1, 1 << 40, 1 << 20).0, u32::MAX);
    c.block_m = 0;
    assert!(c.tiles(4, 4) > 0 && gemm_w4_kernel(&ctx, Target::SM90A, c).is_err());
    // K odd, and a W too short.
    assert!(gemm_w4_reference(&[0.0; 3], &[0; 2], &[1.0; 1], [1, 1, 3]).is_err());
    assert!(gemm_w4_reference(&[0.0; 4], &[0; 1], &[1.0; 1], [1, 1, 4]).is_err());
    // An output too large to allocate is an error, not an abort.
    assert!(gemm_w4_reference(&[], &[], &[], [usize::MAX / 2, 4, 0]).is_err());
}
