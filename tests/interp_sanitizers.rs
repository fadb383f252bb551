//! The interpreter's sanitizers catch a planted bug of each kind, naming the op and the user's
//! line: an out-of-bounds store (memcheck), a shared-memory read racing another thread's write
//! with the barrier skipped (racecheck), a read of shared memory never written (initcheck), an
//! mbarrier wait for bytes that never arrive (a deadlock naming the wait); and a launch whose
//! arguments do not match the kernel's parameters is refused. (The kernel suites, `gpu_*`, run
//! every shipped kernel in the interpreter too, where these checks are on and stay quiet.)
#![cfg(feature = "llvm")]

mod common;

use half::f16;
use weft::codegen::interp::{self, InterpError, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{self, blocked_1d};
use weft::codegen::{Context, DType, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, NvmmaShared, SwizzledShared};

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
            assert!(loc.file.ends_with("interp_sanitizers.rs"), "{e}");
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

/// `cp.async` of a tile into shared memory, waited for, then read back in `back` with no
/// barrier; the result stored to `y`.
fn copy_then_read<'c>(
    ctx: &'c Context,
    back: &Blocked,
) -> weft::codegen::Result<weft::codegen::Kernel<'c>> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "cp", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let mine = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
    let shape = [16u64, 32];
    let offsets = |kb: &mut KernelBuilder<'_>, l: &Blocked| {
        let e = weft::layout::encoding::Encoding::from(l.clone());
        let (r, c) = kernels::tile_coords(kb, &e, shape, None, None).unwrap();
        let r = kb.mul(r, 32).unwrap();
        kb.add(r, c).unwrap()
    };
    let s = kb
        .alloc_shared(DType::F32, &shape, SwizzledShared::new(1, 1, 1, &[1, 0]))
        .unwrap();
    let o = offsets(&mut kb, &mine);
    let p = kb.add(x, o).unwrap();
    kb.async_copy_global_to_shared(s, p, None).unwrap();
    kb.async_commit_group().unwrap();
    kb.async_wait_group(0).unwrap();
    let t = kb.load_shared(s, (back, shape)).unwrap();
    let o = offsets(&mut kb, back);
    let p = kb.add(y, o).unwrap();
    kb.store(p, t, None).unwrap();
    kb.finish()
}

/// `cp.async.wait_group` makes a thread's own copies visible to it: read back in the layout
/// that copied them, no barrier is needed; read by other threads, one is.
#[test]
fn a_waited_copy_is_its_own_threads_but_not_the_others() {
    let ctx = Context::new();
    let mut mem = Memory::new();
    let vals: Vec<f32> = (0..16 * 32).map(|i| i as f32).collect();
    let x = mem.upload(&vals);
    let y = mem.alloc_poisoned::<f32>(16 * 32);
    let args = [LaunchArg::Buffer(x), LaunchArg::Buffer(y)];
    let mine = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
    let k = copy_then_read(&ctx, &mine).unwrap();
    interp::run(&k, [1, 1, 1], &args, &mut mem).unwrap();
    assert_eq!(mem.download::<f32>(y), vals);
    // Read by other threads: the verifier asks for the barrier.
    let other = Blocked::new(&[4, 1], &[8, 4], &[1, 4], &[0, 1]);
    let e = copy_then_read(&ctx, &other).unwrap_err().to_string();
    assert!(
        e.contains("async_copy_global_to_shared") && e.contains("barrier"),
        "{e}"
    );
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

#[test]
fn grids_whose_program_count_overflows_are_refused() {
    let ctx = Context::new();
    let k = kernels::memcpy_kernel(&ctx, Target::SM90, 512, 4, 4).unwrap();
    let mut mem = Memory::new();
    let (x, y) = (mem.alloc_poisoned::<f32>(16), mem.alloc_poisoned::<f32>(16));
    let args = [
        LaunchArg::Buffer(x),
        LaunchArg::Buffer(y),
        LaunchArg::I32(16),
    ];
    let e = interp::run(&k, [u32::MAX; 3], &args, &mut mem).unwrap_err();
    assert!(
        matches!(&e, InterpError::BadLaunch { reason, .. } if reason.contains("overflows")),
        "{e}"
    );
}

/// The tensor cores read a wgmma's shared operands until the `wgmma_wait` that retires its
/// group, so writing them in between (a stage released or refilled before its wait) is wrong
/// on the GPU although the interpreter has already read them: an error naming the write and
/// the wgmma. The same write after the wait is fine.
#[test]
fn writing_a_wgmma_operand_before_its_wait_names_the_write_and_the_wgmma() {
    use common::wgmma::{cases, wgmma_kernel_rewriting_b};
    let c = cases()[0];
    assert_eq!(c.dtype, DType::F16);
    let halves = |n: u64| {
        (0..n)
            .map(|i| f16::from_f32((i % 7) as f32 - 3.0))
            .collect::<Vec<_>>()
    };
    let ctx = Context::new();
    let run = |early: bool| {
        let k = wgmma_kernel_rewriting_b(&ctx, c, Some(early));
        let mut mem = Memory::new();
        let a = mem.upload(&halves(c.m * c.k));
        let b = mem.upload(&halves(c.k * c.n));
        let out = mem.alloc_poisoned::<f32>((c.m * c.n) as usize);
        let args = [a, b, out].map(LaunchArg::Buffer);
        interp::run(&k, [1, 1, 1], &args, &mut mem)
    };
    run(false).unwrap();
    let e = run(true).unwrap_err();
    match &e {
        InterpError::Fault { op, what, .. } => {
            assert_eq!(op, "store_shared", "{e}");
            assert!(
                what.contains("wgmma at") && what.contains("wgmma_wait"),
                "{e}"
            );
        }
        _ => panic!("expected the write to be refused, got {e}"),
    }
}

/// A TMA box must start 16-byte aligned in global memory: its innermost coordinate times the
/// element size a multiple of 16 bytes (the GPU ends `cp.async.bulk.tensor` with an illegal
/// instruction otherwise, whatever the map). The interpreter refuses such a load or store,
/// naming the op and the coordinate, and runs the aligned ones.
#[test]
fn a_tma_box_at_an_unaligned_innermost_coordinate_is_a_fault() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
    let src = kb.arg_tensor_map("src", DType::F32, &[64], 0).unwrap();
    let dst = kb.arg_tensor_map("dst", DType::F32, &[64], 0).unwrap();
    let load_at = kb.arg_i32("load_at", 1).unwrap();
    let store_at = kb.arg_i32("store_at", 1).unwrap();
    let buf = kb
        .alloc_shared(DType::F32, &[64], NvmmaShared::new(0, 32, 1, false))
        .unwrap();
    let bars = kb.alloc_mbarriers(1, 1).unwrap();
    let bar = kb.mbarrier_at(bars, 0).unwrap();
    let bytes = kb.tma_bytes(buf).unwrap();
    kb.mbarrier_expect(bar, bytes, None).unwrap();
    kb.tma_load(src, &[load_at], buf, bar, None).unwrap();
    kb.mbarrier_wait(bar, 0).unwrap();
    kb.tma_store(dst, &[store_at], buf).unwrap();
    kb.tma_store_wait(0).unwrap();
    let k = kb.finish().unwrap();
    let mut mem = Memory::new();
    let n = 2060u64;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let data = mem.upload(&x);
    let out = mem.upload(&vec![0f32; n as usize]);
    let args = |load: i32, store: i32| {
        [
            LaunchArg::TensorMap(TensorMapArg::dense(data, DType::F32, &[n])),
            LaunchArg::TensorMap(TensorMapArg::dense(out, DType::F32, &[n])),
            LaunchArg::I32(load),
            LaunchArg::I32(store),
        ]
    };
    // 1028 and 64 f32 start 16-byte aligned: rows 1028.. land at 64.. .
    interp::run(&k, [1, 1, 1], &args(1028, 64), &mut mem).unwrap();
    let got = mem.download::<f32>(out);
    assert_eq!(got[64..128], x[1028..1092]);
    // 1030 f32 (a second head's first row at seq 1030) is 4120 bytes: a load the GPU faults on.
    for (load, store, op) in [(1030, 64, "tma_load"), (1028, 66, "tma_store")] {
        let e = interp::run(&k, [1, 1, 1], &args(load, store), &mut mem).unwrap_err();
        match &e {
            InterpError::Fault { op: got, what, .. } => {
                assert_eq!(got, op, "{e}");
                assert!(what.contains("multiple of 16 bytes"), "{e}");
            }
            _ => panic!("expected a fault of {op}, got {e}"),
        }
    }
}
