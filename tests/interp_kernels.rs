//! The interpreter runs weft's ready-made kernels on the host, without a GPU, on small problems
//! with ragged edges, and every output matches the host reference: bit for bit where the kernel
//! only moves data, within stated tolerances where it computes in floating point. The
//! sanitizers catch a planted bug of each kind, naming the op and the line.
#![cfg(feature = "llvm")]

mod common;

use common::elementwise::{scale_kernel, CONFIGS_1D, TILES, TRANSPOSE_TILES};
use common::interp as ci;
use common::rng::Rng;
use half::f16;
use weft::codegen::interp::{self, InterpError, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{self, blocked_1d, GemmConfig, SoftmaxConfig};
use weft::codegen::{Context, DType, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, NvmmaShared, SwizzledShared};

/// f32 results against an f64 reference: relative error `rel` (or `abs` near zero).
fn close(got: &[f32], want: &[f64], rel: f64, abs: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    let mut bad = 0;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (f64::from(g) - w).abs();
        if !(err <= abs || err <= rel * w.abs()) {
            if bad < 5 {
                eprintln!("{what}: element {i}: got {g}, want {w}");
            }
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", want.len());
}

#[test]
fn memcpy_and_add_are_exact_and_leave_the_rest_alone() {
    let ctx = Context::new();
    let copy = kernels::memcpy_kernel(&ctx, Target::SM90, 512, 4, 4).unwrap();
    let add = kernels::add_kernel(&ctx, Target::SM90, 512, 4, 4).unwrap();
    let mut rng = Rng(7);
    // 1,040 elements: two full blocks and a ragged third.
    let n = 1040usize;
    let x = rng.vec(n);
    let y = rng.vec(n);
    let mut mem = Memory::new();
    let dx = mem.upload(&x);
    let dy = mem.upload(&y);
    let out = mem.alloc_poisoned::<f32>(n + 16);
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(out),
        LaunchArg::I32(n as i32),
    ];
    interp::run(&copy, [3, 1, 1], &args, &mut mem).unwrap();
    let got: Vec<f32> = mem.download(out);
    assert_eq!(&got[..n], &x[..]);
    assert!(
        got[n..].iter().all(|v| v.to_bits() == u32::MAX),
        "past the end was written"
    );
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(dy),
        LaunchArg::Buffer(out),
        LaunchArg::I32(n as i32),
    ];
    interp::run(&add, [3, 1, 1], &args, &mut mem).unwrap();
    let got: Vec<f32> = mem.download(out);
    for i in 0..n {
        assert_eq!(got[i].to_bits(), (x[i] + y[i]).to_bits(), "element {i}");
    }
}

#[test]
fn softmax_matches_the_f64_reference() {
    let ctx = Context::new();
    for (n, rows_per_cta) in [(1000usize, 1u32), (64, 4)] {
        let c = SoftmaxConfig::for_n(n as u32, rows_per_cta, 4, 4);
        let k = kernels::softmax_kernel(&ctx, Target::SM90, c).unwrap();
        let m = 5usize;
        let x = Rng(n as u64).vec(m * n);
        let mut mem = Memory::new();
        let dx = mem.upload(&x);
        let dy = mem.alloc_poisoned::<f32>(m * n);
        let grid = (m as u32).div_ceil(rows_per_cta);
        let args = [
            LaunchArg::Buffer(dx),
            LaunchArg::Buffer(dy),
            LaunchArg::I32(m as i32),
            LaunchArg::I32(n as i32),
        ];
        interp::run(&k, [grid, 1, 1], &args, &mut mem).unwrap();
        let got: Vec<f32> = mem.download(dy);
        // f32: exp and the division rounded once each, the sum in another order than f64's.
        close(
            &got,
            &kernels::softmax_reference(&x, n),
            1e-5,
            1e-9,
            &format!("softmax n={n}"),
        );
    }
}

/// Runs the f16 GEMM of `c` on an `m × n × kd` problem (grid of `programs` when persistent)
/// and checks it against the host.
fn run_gemm(c: GemmConfig, (m, n, kd): (usize, usize, usize), programs: u32, what: &str) {
    let ctx = Context::new();
    let k = kernels::gemm_kernel(&ctx, Target::SM90A, c).unwrap();
    let mut rng = Rng(3);
    let a: Vec<f16> = (0..m * kd).map(|_| f16::from_f32(rng.f32())).collect();
    let b: Vec<f16> = (0..kd * n).map(|_| f16::from_f32(rng.f32())).collect();
    let mut mem = Memory::new();
    let da = mem.upload(&a);
    let db = mem.upload(&b);
    let dc = mem.alloc_poisoned::<f16>(m * n);
    let args = [
        LaunchArg::TensorMap(TensorMapArg::dense(da, DType::F16, &[m as u64, kd as u64])),
        LaunchArg::TensorMap(TensorMapArg::dense(db, DType::F16, &[kd as u64, n as u64])),
        LaunchArg::TensorMap(TensorMapArg::dense(dc, DType::F16, &[m as u64, n as u64])),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
        LaunchArg::I32(kd as i32),
    ];
    let grid = if c.persistent {
        c.grid_persistent(m as u64, n as u64, programs)
    } else {
        c.grid(m as u64, n as u64)
    };
    interp::run(&k, [grid.0, grid.1, grid.2], &args, &mut mem).unwrap();
    let got: Vec<f32> = mem.download::<f16>(dc).iter().map(|v| v.to_f32()).collect();
    let af: Vec<f32> = a.iter().map(|v| v.to_f32()).collect();
    let bf: Vec<f32> = b.iter().map(|v| v.to_f32()).collect();
    let want: Vec<f64> = kernels::gemm_reference(&af, &bf, m, n, kd, false)
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    // An f32 accumulator rounded to f16 at the end: half an f16 ulp, plus the sum's order.
    close(&got, &want, 2e-3, 2e-2, what);
}

#[test]
fn a_tensor_core_gemm_with_tma_and_mbarriers_matches_the_host() {
    // Ragged in every dim: TMA zero-fills past the edges and clips the store.
    run_gemm(GemmConfig::new(DType::F16), (136, 72, 80), 1, "gemm f16");
}

#[test]
fn the_warp_specialised_gemm_runs_its_roles_as_cooperating_tasks() {
    // A producer role loading through a ring of full/empty mbarriers and a consumer role
    // releasing stages: more k-tiles than stages, and two tiles per program.
    let mut c = GemmConfig::new(DType::F16);
    c.warp_specialized = true;
    c.persistent = true;
    c.stages = 2;
    c.block_n = 64;
    run_gemm(c, (136, 72, 320), 2, "gemm f16 warp-specialised");
}

#[test]
fn memcheck_names_the_out_of_bounds_store() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "oob", 4).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let l = blocked_1d(Target::SM90, 4, 4, 512).unwrap();
    let offs = kb.arange(0, 512, &l).unwrap();
    let p = kb.add(y, offs).unwrap();
    // No mask: a buffer of 500 elements is written past its end.
    let line = line!() + 1;
    kb.store(p, 1.0f32, None).unwrap();
    let k = kb.finish().unwrap();
    let mut mem = Memory::new();
    let out = mem.alloc_poisoned::<f32>(500);
    let e = interp::run(&k, [1, 1, 1], &[LaunchArg::Buffer(out)], &mut mem).unwrap_err();
    match &e {
        InterpError::OutOfBounds {
            op, loc, address, ..
        } => {
            assert_eq!(op, "store");
            assert_eq!(loc.line, line, "{e}");
            assert!(address.contains("byte 2000 of a 2000-byte buffer"), "{e}");
        }
        _ => panic!("expected memcheck, got {e}"),
    }
}

/// A kernel that writes a tile to shared memory and reads it back in another layout; `sync`
/// says how the write is published (the verifier sees no barrier missing: the branch hides it).
fn round_trip(
    ctx: &Context,
    write: bool,
    barrier_in_branch: bool,
) -> (weft::codegen::Kernel<'_>, u32) {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "rt", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let flag = kb.arg_i32("flag", 1).unwrap();
    let l = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
    let t = kb.zeros((&l, [64u64, 64]), DType::F32).unwrap();
    let s = kb
        .alloc_shared(DType::F32, &[64, 64], SwizzledShared::new(1, 1, 1, &[1, 0]))
        .unwrap();
    if write {
        kb.store_shared(s, t).unwrap();
    }
    let on = kb.ne(flag, 0).unwrap();
    kb.if_then(on, |kb| {
        if barrier_in_branch {
            kb.barrier()
        } else {
            Ok(())
        }
    })
    .unwrap();
    let other = Blocked::new(&[4, 1], &[8, 4], &[1, 4], &[0, 1]);
    let line = line!() + 1;
    let back = kb.load_shared(s, (&other, [64u64, 64])).unwrap();
    let r = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(1, other.clone().into()),
        )
        .unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let r = kb.mul(r, 64).unwrap();
    let c = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(0, other.clone().into()),
        )
        .unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    let off = kb.add(r, c).unwrap();
    let p = kb.add(x, off).unwrap();
    kb.store(p, back, None).unwrap();
    (kb.finish().unwrap(), line)
}

#[test]
fn racecheck_and_initcheck_name_the_read_and_the_write() {
    let ctx = Context::new();
    let mut mem = Memory::new();
    let out = mem.alloc_poisoned::<f32>(64 * 64);
    // The barrier runs (flag = 1): no hazard, zeros read back.
    let (k, _) = round_trip(&ctx, true, true);
    interp::run(
        &k,
        [1, 1, 1],
        &[LaunchArg::Buffer(out), LaunchArg::I32(1)],
        &mut mem,
    )
    .unwrap();
    assert!(mem.download::<f32>(out).iter().all(|&v| v == 0.0));
    // It is skipped (flag = 0): another thread's write is read before any barrier.
    let e = interp::run(
        &k,
        [1, 1, 1],
        &[LaunchArg::Buffer(out), LaunchArg::I32(0)],
        &mut mem,
    )
    .unwrap_err();
    match &e {
        InterpError::Race {
            op, writer_op, loc, ..
        } => {
            assert_eq!(
                (op.as_str(), writer_op.as_str()),
                ("load_shared", "store_shared")
            );
            assert!(loc.file.ends_with("interp_kernels.rs"), "{e}");
        }
        _ => panic!("expected racecheck, got {e}"),
    }
    // Nothing was written at all.
    let (k, line) = round_trip(&ctx, false, true);
    let e = interp::run(
        &k,
        [1, 1, 1],
        &[LaunchArg::Buffer(out), LaunchArg::I32(1)],
        &mut mem,
    )
    .unwrap_err();
    match &e {
        InterpError::Uninitialized { loc, .. } => assert_eq!(loc.line, line, "{e}"),
        _ => panic!("expected initcheck, got {e}"),
    }
}

#[test]
fn a_wait_for_bytes_that_never_arrive_is_a_deadlock_naming_the_wait() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
    let src = kb.arg_tensor_map("src", DType::F16, &[64, 32], 64).unwrap();
    let flag = kb.arg_i32("flag", 1).unwrap();
    let buf = kb
        .alloc_shared(DType::F16, &[64, 64], NvmmaShared::new(64, 16, 2, false))
        .unwrap();
    let bars = kb.alloc_mbarriers(1, 1).unwrap();
    let bar = kb.mbarrier_at(bars, 0).unwrap();
    let bytes = kb.tma_bytes(buf).unwrap();
    kb.mbarrier_expect(bar, bytes, None).unwrap();
    let zero = kb.i32(0).unwrap();
    let on = kb.ne(flag, 0).unwrap();
    // The copy is issued only when `flag` is set: otherwise the expected bytes never arrive.
    kb.if_then(on, |kb| kb.tma_load(src, &[zero, zero], buf, bar, None))
        .unwrap();
    let line = line!() + 1;
    kb.mbarrier_wait(bar, 0).unwrap();
    let k = kb.finish().unwrap();
    let mut mem = Memory::new();
    let data = mem.upload(&vec![f16::from_f32(1.0); 64 * 64]);
    let map = TensorMapArg::dense(data, DType::F16, &[64, 64]);
    interp::run(
        &k,
        [1, 1, 1],
        &[LaunchArg::TensorMap(map.clone()), LaunchArg::I32(1)],
        &mut mem,
    )
    .unwrap();
    let e = interp::run(
        &k,
        [1, 1, 1],
        &[LaunchArg::TensorMap(map), LaunchArg::I32(0)],
        &mut mem,
    )
    .unwrap_err();
    match &e {
        InterpError::Deadlock { waits } => {
            assert_eq!(waits.len(), 1);
            assert!(waits[0].contains(&format!(":{line}:")), "{e}");
            assert!(waits[0].contains("8192 bytes still expected"), "{e}");
        }
        _ => panic!("expected a deadlock, got {e}"),
    }
}

#[test]
fn launches_are_checked_against_the_parameters() {
    let ctx = Context::new();
    let k = kernels::memcpy_kernel(&ctx, Target::SM90, 512, 4, 4).unwrap();
    let mut mem = Memory::new();
    let b = mem.alloc_poisoned::<f32>(16);
    let e = interp::run(&k, [1, 1, 1], &[LaunchArg::Buffer(b)], &mut mem).unwrap_err();
    assert!(matches!(e, InterpError::BadLaunch { .. }), "{e}");
    let e = interp::run(
        &k,
        [1, 1, 1],
        &[LaunchArg::Buffer(b), LaunchArg::I32(3), LaunchArg::I32(16)],
        &mut mem,
    )
    .unwrap_err();
    assert!(e.to_string().contains("parameter `y`"), "{e}");
}

/// Lengths for a 1-D block (multiples of 16, as the kernels declare): shorter than a block, a
/// ragged tail, exactly two blocks (the GPU suite's sizes, scaled down).
fn lengths(block: u32) -> [usize; 3] {
    let b = block as usize;
    [16, b + 16 * 7, 2 * b]
}

/// One 1-D kernel over `n` elements with its own argument list; returns the output.
fn run_1d(
    k: &weft::codegen::Kernel<'_>,
    block: u32,
    inputs: &[&[f32]],
    scalar: Option<f32>,
    n: usize,
    what: &str,
) -> Vec<f32> {
    let mut mem = Memory::new();
    let mut args: Vec<LaunchArg> = inputs
        .iter()
        .map(|x| LaunchArg::Buffer(mem.upload(x)))
        .collect();
    let out = ci::poisoned::<f32>(&mut mem, n);
    args.push(LaunchArg::Buffer(out));
    args.extend(scalar.map(LaunchArg::F32));
    args.push(LaunchArg::I32(n as i32));
    ci::launch(k, n.div_ceil(block as usize) as u32, &args, &mut mem, what);
    let got: Vec<f32> = mem.download(out);
    ci::poison_intact(&got, n, ci::f32_bits, what);
    got
}

#[test]
fn memcpy_add_and_scale_match_the_host_in_every_configuration() {
    let ctx = Context::new();
    for (ci_, &(block, per_thread, warps)) in CONFIGS_1D.iter().enumerate() {
        let copy = kernels::memcpy_kernel(&ctx, Target::SM90, block, per_thread, warps).unwrap();
        let add = kernels::add_kernel(&ctx, Target::SM90, block, per_thread, warps).unwrap();
        for n in lengths(block) {
            let mut rng = Rng(100 + ci_ as u64);
            let (x, y) = (rng.vec(n), rng.vec(n));
            let what = format!("memcpy block {block} per_thread {per_thread} warps {warps} n {n}");
            let got = run_1d(&copy, block, &[&x], None, n, &what);
            ci::exact(&got, &x, ci::f32_bits, &what);
            // One f32 add: the same rounding as the host's.
            let what = format!("add block {block} per_thread {per_thread} warps {warps} n {n}");
            let got = run_1d(&add, block, &[&x, &y], None, n, &what);
            let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
            ci::exact(&got, &want, ci::f32_bits, &what);
        }
    }
    let block = 512;
    let k = scale_kernel(&ctx, block);
    for n in lengths(block) {
        let mut rng = Rng(300);
        let (x, a) = (rng.vec(n), rng.f32());
        let what = format!("scale n {n}");
        let got = run_1d(&k, block, &[&x], Some(a), n, &what);
        let want: Vec<f32> = x.iter().map(|v| a * v).collect();
        ci::exact(&got, &want, ci::f32_bits, &what);
    }
}

#[test]
fn copy_2d_takes_every_other_row_of_a_strided_matrix() {
    let ctx = Context::new();
    // (rows of y, columns, row stride of x): ragged in both dims, x's rows padded past n.
    let shapes = [(37usize, 144usize, 176usize), (5, 16, 48)];
    for (ti, &t) in TILES.iter().enumerate() {
        let k = kernels::copy_2d_kernel(&ctx, Target::SM90, t).unwrap();
        for &(m_out, n, stride) in &shapes {
            let m = 2 * m_out;
            let x = Rng(400 + ti as u64).vec(m * stride);
            let what = format!("copy_2d {t:?} m_out {m_out} n {n} stride {stride}");
            let mut mem = Memory::new();
            let dx = mem.upload(&x);
            let dy = ci::poisoned::<f32>(&mut mem, m_out * n);
            let args = [
                LaunchArg::Buffer(dx),
                LaunchArg::Buffer(dy),
                LaunchArg::I32(m_out as i32),
                LaunchArg::I32(n as i32),
                LaunchArg::I32(stride as i32),
            ];
            let grid = (
                n.div_ceil(t.cols as usize) as u32,
                m_out.div_ceil(t.rows as usize) as u32,
                1,
            );
            ci::launch(&k, grid, &args, &mut mem, &what);
            let got: Vec<f32> = mem.download(dy);
            let want: Vec<f32> = (0..m_out * n)
                .map(|i| x[2 * (i / n) * stride + i % n])
                .collect();
            ci::exact(&got, &want, ci::f32_bits, &what);
            ci::poison_intact(&got, m_out * n, ci::f32_bits, &what);
        }
    }
}

#[test]
fn register_transpose_matches_the_host() {
    let ctx = Context::new();
    for (ti, &t) in TRANSPOSE_TILES.iter().enumerate() {
        let k = kernels::transpose_kernel(&ctx, Target::SM90, t).unwrap();
        // The kernel has no mask: n a multiple of both tile sizes.
        let n = 128usize;
        let x = Rng(500 + ti as u64).vec(n * n);
        let what = format!("transpose {t:?} n {n}");
        let mut mem = Memory::new();
        let dx = mem.upload(&x);
        let dy = ci::poisoned::<f32>(&mut mem, n * n);
        let args = [
            LaunchArg::Buffer(dx),
            LaunchArg::Buffer(dy),
            LaunchArg::I32(n as i32),
        ];
        let grid = (
            (n / t.rows as usize) as u32,
            (n / t.cols as usize) as u32,
            1,
        );
        ci::launch(&k, grid, &args, &mut mem, &what);
        let got: Vec<f32> = mem.download(dy);
        let want: Vec<f32> = (0..n * n).map(|i| x[(i % n) * n + i / n]).collect();
        ci::exact(&got, &want, ci::f32_bits, &what);
        ci::poison_intact(&got, n * n, ci::f32_bits, &what);
    }
}
