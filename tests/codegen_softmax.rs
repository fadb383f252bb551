//! `kernels::softmax_kernel` without a GPU: its PTX assembles with ptxas for sm_80 and sm_90
//! (and it builds a code object for gfx942 with `amdgpu`), its accesses are as wide as the
//! promised divisibility of `n` allows (16-byte vectors from 4 up), it computes exp with `ex2.approx` and reduces
//! across warps through shared memory, and bad configurations and shapes are typed errors.
#![cfg(feature = "llvm")]

mod common;

use common::{assemble, global_accesses};
use weft::codegen::kernels::{softmax_kernel, SoftmaxConfig, SOFTMAX_MAX_PER_THREAD};
use weft::codegen::{CodegenError, Context, OptLevel, Target};
use weft::layout::encoding::Blocked;

/// Configurations with one warp, warps along the rows, along the columns and both, copies, and
/// the 16K row of `examples/softmax.rs`.
fn configs() -> Vec<(SoftmaxConfig, &'static str)> {
    let f = SoftmaxConfig::for_n;
    vec![
        (f(16384, 1, 4, 16), "16K row, 16 warps"),
        (f(1000, 2, 4, 4), "n 1000"),
        (f(17, 16, 1, 4), "n 17, warps along rows"),
        (f(17, 1, 4, 4), "n 17, copies"),
        (f(4096, 4, 4, 16), "4096, warps on both dims"),
        (f(16, 8, 4, 1), "16, one warp"),
        (f(1, 32, 1, 1), "one column"),
    ]
}

#[test]
fn softmax_assembles_for_sm80_and_sm90() {
    for (c, what) in configs() {
        for t in [Target::SM80, Target::SM90] {
            let ctx = Context::new();
            let k = softmax_kernel(&ctx, t, c).unwrap_or_else(|e| panic!("{what} {t}: {e}"));
            let ptx = k.ptx().unwrap();
            assemble(&ptx, &t.to_string(), &format!("softmax {what}"));
            let fast = k.ptx_with(OptLevel::Fast).unwrap();
            assemble(&fast, &t.to_string(), &format!("softmax {what} (Fast)"));
            assert!(ptx.contains("ex2.approx"), "{what}: exp2 is ex2.approx");
            let sig = k.signature().to_string();
            assert!(
                sig.starts_with("softmax(x: *f32 {divisibility = 16}, y: *f32 {divisibility = 16}, m: i32, n: i32"),
                "{sig}"
            );
        }
    }
}

/// The tile's layout: lanes, then warps along the row, the rest down the rows (Triton's choice).
#[test]
fn layouts_put_lanes_then_warps_along_the_row() {
    let l = |n, r, p, w| {
        SoftmaxConfig::for_n(n, r, p, w)
            .layout(Target::SM90)
            .unwrap()
    };
    assert_eq!(
        l(16384, 1, 4, 16),
        Blocked::new(&[1, 4], &[1, 32], &[1, 16], &[1, 0])
    );
    assert_eq!(
        l(1000, 4, 4, 16),
        Blocked::new(&[1, 4], &[1, 32], &[2, 8], &[1, 0])
    );
    assert_eq!(
        l(17, 16, 1, 4),
        Blocked::new(&[1, 1], &[1, 32], &[4, 1], &[1, 0])
    );
    assert_eq!(
        l(16, 8, 4, 1),
        Blocked::new(&[1, 4], &[8, 4], &[1, 1], &[1, 0])
    );
    let amd = SoftmaxConfig::for_n(1024, 1, 4, 4)
        .layout(Target::GFX942)
        .unwrap();
    assert_eq!(amd, Blocked::new(&[1, 4], &[1, 64], &[1, 4], &[1, 0]));
}

#[cfg(feature = "amdgpu")]
#[test]
fn softmax_builds_for_gfx942() {
    for (c, what) in configs() {
        let ctx = Context::new();
        let k = softmax_kernel(&ctx, Target::GFX942, c)
            .unwrap_or_else(|e| panic!("{what} gfx942: {e}"));
        let co = k.code_object().unwrap();
        assert_eq!(&co[..4], b"\x7fELF", "{what}");
    }
}

/// n a multiple of 16 (or 4): every load and store is a 16-byte vector; of 2: 8 bytes; any n:
/// scalar accesses.
#[test]
fn accesses_are_as_wide_as_the_divisibility_of_n_allows() {
    let ctx = Context::new();
    let c = SoftmaxConfig::for_n(16384, 1, 4, 16);
    assert_eq!(c.n_divisibility, 16);
    assert_eq!(c.block_n, 16384);
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap();
    let ptx = k.ptx().unwrap();
    let acc = global_accesses(&ptx);
    // 16384 / (512 threads × 4) = 8 vectors in and 8 out per thread.
    assert_eq!(acc.len(), 16, "{acc:?}");
    assert!(acc.iter().all(|a| a.contains(".v4")), "{acc:?}");
    // The row max and sum cross warps through shared memory.
    assert!(ptx.contains("bar.sync"), "cross-warp reduction");
    assert!(ptx.contains("shfl.sync.bfly"), "in-warp reduction");
    assert!(k
        .signature()
        .to_string()
        .contains("n: i32 {divisibility = 16}"));
    // The masked-off `-inf` is selected with each vector's predicate: one compare per vector
    // (8 column masks and the row mask), not one per element.
    let setp = ptx.lines().filter(|l| l.contains("setp.")).count();
    assert!(setp <= 12, "{setp} compares");

    // 8 | n: rows start 32-byte aligned, still 16-byte vectors.
    let c = SoftmaxConfig::for_n(1000, 1, 4, 8);
    assert_eq!(c.n_divisibility, 8);
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert_eq!(acc.len(), 2, "{acc:?}");
    assert!(acc.iter().all(|a| a.contains(".v4")), "{acc:?}");

    // 2 | n: 8-byte vectors.
    let c = SoftmaxConfig::for_n(1002, 1, 4, 8);
    assert_eq!(c.n_divisibility, 2);
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert!(
        !acc.is_empty() && acc.iter().all(|a| a.contains(".v2")),
        "{acc:?}"
    );

    let c = SoftmaxConfig::for_n(1001, 1, 4, 8);
    assert_eq!(c.n_divisibility, 1);
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert!(acc.iter().all(|a| !a.contains(".v")), "{acc:?}");
}

fn arg_error(c: SoftmaxConfig, needle: &str) {
    let ctx = Context::new();
    match softmax_kernel(&ctx, Target::SM90, c) {
        Err(e @ CodegenError::InvalidArgument { .. }) => {
            assert!(
                e.to_string().contains(needle),
                "{c:?}: `{e}` lacks `{needle}`"
            )
        }
        Err(e) => panic!("{c:?}: wrong error {e:?}"),
        Ok(_) => panic!("{c:?}: accepted"),
    };
}

#[test]
fn bad_configs_are_typed_errors() {
    let ok = SoftmaxConfig::for_n(1024, 1, 4, 4);
    arg_error(
        SoftmaxConfig {
            block_n: 1000,
            ..ok
        },
        "block_n = 1000",
    );
    arg_error(SoftmaxConfig { block_n: 0, ..ok }, "block_n = 0");
    arg_error(
        SoftmaxConfig {
            block_n: 1 << 17,
            ..ok
        },
        "block_n",
    );
    arg_error(
        SoftmaxConfig {
            rows_per_cta: 3,
            ..ok
        },
        "rows_per_cta = 3",
    );
    arg_error(
        SoftmaxConfig {
            rows_per_cta: 0,
            ..ok
        },
        "rows_per_cta = 0",
    );
    arg_error(
        SoftmaxConfig {
            per_thread: 6,
            ..ok
        },
        "per_thread = 6",
    );
    arg_error(
        SoftmaxConfig {
            per_thread: 32,
            ..ok
        },
        "per_thread = 32",
    );
    arg_error(
        SoftmaxConfig {
            num_warps: 64,
            ..ok
        },
        "num_warps = 64",
    );
    arg_error(SoftmaxConfig { num_warps: 3, ..ok }, "num_warps = 3");
    arg_error(
        SoftmaxConfig {
            n_divisibility: 32,
            ..ok
        },
        "n_divisibility = 32",
    );
    arg_error(
        SoftmaxConfig {
            block_n: 2,
            ..SoftmaxConfig::for_n(2, 1, 4, 1)
        },
        "per_thread = 4 is more than the row tile block_n = 2",
    );
    // 16384 f32 over 64 threads: 256 per thread.
    arg_error(
        SoftmaxConfig::for_n(16384, 1, 4, 2),
        &format!("more than {SOFTMAX_MAX_PER_THREAD}"),
    );
}

#[test]
fn shapes_the_kernel_cannot_do_are_typed_errors() {
    let c = SoftmaxConfig::for_n(1000, 2, 4, 4);
    assert_eq!(c.block_n, 1024);
    assert_eq!(c.grid(37), 19);
    c.check_shape(37, 1000).unwrap();
    c.check_shape(37, 1024).unwrap();
    let msg = |m, n| c.check_shape(m, n).unwrap_err().to_string();
    assert!(
        msg(37, 1032).contains("n = 1032 > block_n = 1024"),
        "{}",
        msg(37, 1032)
    );
    assert!(msg(37, 999).contains("not a multiple of n_divisibility = 8"));
    assert!(msg(0, 1000).contains("empty"));
    assert!(msg(37, 0).contains("empty"));
    assert!(msg(1 << 22, 1000).contains("i32"));
    let f = SoftmaxConfig::for_n(17, 1, 1, 1);
    assert_eq!((f.block_n, f.n_divisibility), (32, 1));
    let f = SoftmaxConfig::for_n(48, 1, 1, 1);
    assert_eq!((f.block_n, f.n_divisibility), (64, 16));
}
