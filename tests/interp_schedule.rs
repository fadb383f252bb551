//! The interpreter's random schedule exposes kernels that rely on an order the GPU does not
//! promise: a role reading global memory another role writes with no barrier between, and a
//! program reading what another program writes. In order, both kernels "work"; under random
//! seeds they give other results. Correct kernels give the same result under every seed: a grid
//! of independent programs, and the warp-specialised GEMM (producer and consumer roles handing
//! stages over through mbarriers), with no false alarm and no hang.
#![cfg(feature = "llvm")]

mod common;

use common::interp as ci;
use weft::codegen::interp::{self, LaunchArg, Memory, Options, Schedule};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, WarpRole};
use weft::layout::encoding::Blocked;

const N: i32 = 128;

/// Role 0 writes `data[i] = i + 1`; role 1 copies `data` to `out`, with no barrier between.
fn racy_roles(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "racy_roles", 8).unwrap();
    let data = kb.arg_ptr("data", DType::I32, 16).unwrap();
    let out = kb.arg_ptr("out", DType::I32, 16).unwrap();
    let roles = kb
        .warp_roles(&[WarpRole::new(4), WarpRole::new(4)])
        .unwrap();
    let flat = Blocked::new(&[1], &[32], &[4], &[0]);
    kb.in_role(roles[0], |kb| {
        let i = kb.arange(0, N, flat.clone())?;
        let v = kb.add(i, 1)?;
        let p = kb.add(data, i)?;
        kb.store(p, v, None)
    })
    .unwrap();
    kb.in_role(roles[1], |kb| {
        let i = kb.arange(0, N, flat.clone())?;
        let p = kb.add(data, i)?;
        let v = kb.load(p, None, None)?;
        let q = kb.add(out, i)?;
        kb.store(q, v, None)
    })
    .unwrap();
    kb.finish().unwrap()
}

/// Program `p` writes `chain[p + 1] = chain[p] + 1`: right only when programs run in order.
fn chained_programs(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90, "chain", 1).unwrap();
    let chain = kb.arg_ptr("chain", DType::I32, 16).unwrap();
    let pid = kb.program_id(0).unwrap();
    let here = kb.add(chain, pid).unwrap();
    let v = kb.load(here, None, None).unwrap();
    let v = kb.add(v, 1).unwrap();
    let next = kb.add(here, 1).unwrap();
    kb.store(next, v, None).unwrap();
    kb.finish().unwrap()
}

fn run_racy_roles(k: &Kernel<'_>, schedule: Schedule) -> Vec<i32> {
    let mut mem = Memory::new();
    let data = mem.upload(&vec![0i32; N as usize]);
    let out = mem.alloc_poisoned::<i32>(N as usize);
    let args = [LaunchArg::Buffer(data), LaunchArg::Buffer(out)];
    ci::launch_with(
        k,
        1u32,
        &args,
        &mut mem,
        &Options { schedule },
        "racy roles",
    );
    mem.download(out)
}

fn run_chain(k: &Kernel<'_>, programs: u32, schedule: Schedule) -> Vec<i32> {
    let mut mem = Memory::new();
    let chain = mem.upload(&vec![0i32; programs as usize + 1]);
    let args = [LaunchArg::Buffer(chain)];
    ci::launch_with(k, programs, &args, &mut mem, &Options { schedule }, "chain");
    mem.download(chain)
}

#[test]
fn a_role_reading_another_roles_writes_without_a_barrier_is_exposed() {
    let ctx = Context::new();
    let k = racy_roles(&ctx);
    let written: Vec<i32> = (1..=N).collect();
    // In order, role 0 runs to its end before role 1 starts: the bug stays hidden.
    assert_eq!(run_racy_roles(&k, Schedule::InOrder), written);
    assert_eq!(
        run_racy_roles(&k, Schedule::InOrder),
        written,
        "in order is reproducible"
    );
    // Some seed lets role 1 read before role 0 writes.
    let exposed = (0..32)
        .find(|&seed| run_racy_roles(&k, Schedule::Random { seed }) != written)
        .expect("no seed out of 32 reordered the roles");
    // A seed is reproducible.
    assert_eq!(
        run_racy_roles(&k, Schedule::Random { seed: exposed }),
        run_racy_roles(&k, Schedule::Random { seed: exposed })
    );
}

#[test]
fn a_program_reading_another_programs_writes_is_exposed() {
    let ctx = Context::new();
    let k = chained_programs(&ctx);
    let programs = 12;
    let in_order: Vec<i32> = (0..=programs as i32).collect();
    assert_eq!(run_chain(&k, programs, Schedule::InOrder), in_order);
    let shuffled = (0..8)
        .map(|seed| run_chain(&k, programs, Schedule::Random { seed }))
        .filter(|r| *r != in_order)
        .count();
    assert!(
        shuffled >= 6,
        "only {shuffled} of 8 seeds reordered the programs"
    );
}

#[test]
fn a_grid_runs_every_program_once_under_any_seed() {
    // Each program writes its own element: the order does not matter, every element is written.
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "own", 1).unwrap();
    let out = kb.arg_ptr("out", DType::I32, 16).unwrap();
    let x = kb.program_id(0).unwrap();
    let y = kb.program_id(1).unwrap();
    let gx = kb.num_programs(0).unwrap();
    let row = kb.mul(y, gx).unwrap();
    let at = kb.add(row, x).unwrap();
    let p = kb.add(out, at).unwrap();
    kb.store(p, at, None).unwrap();
    let k = kb.finish().unwrap();
    for seed in 0..6 {
        let mut mem = Memory::new();
        let buf = mem.alloc_poisoned::<i32>(35);
        let options = Options {
            schedule: Schedule::Random { seed },
        };
        interp::run_with(
            &k,
            [7, 5, 1],
            &[LaunchArg::Buffer(buf)],
            &mut mem,
            &options,
            &mut std::io::sink(),
        )
        .unwrap();
        let got: Vec<i32> = mem.download(buf);
        assert_eq!(got, (0..35).collect::<Vec<_>>(), "seed {seed}");
    }
}

/// The warp-specialised GEMM is right whatever order its tasks and programs run in, one tile per
/// program and persistent (checked through the CPU backend as in `gpu_gemm`).
#[test]
fn warp_specialised_gemm_holds_under_random_schedules() {
    use weft::codegen::kernels::GemmConfig;
    for seed in 0..3 {
        let mut w = GemmConfig::new(DType::F16);
        w.warp_specialized = true;
        w.persistent = seed == 2;
        let options = Options {
            schedule: Schedule::Random { seed },
        };
        let dev = weft::runtime::cpu::Device::with_options(Target::SM90A, options).unwrap();
        common::gemm::run_gemm::<weft::runtime::cpu::Cpu>(&dev, w, 129, 264, 64, 90 + seed);
    }
}
