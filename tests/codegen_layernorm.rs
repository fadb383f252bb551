//! `kernels::layernorm_kernel` without a GPU: its PTX assembles with ptxas for sm_80 and sm_90
//! (and it builds a code object for gfx942 with `amdgpu`), its signature records the promises
//! (16-byte aligned pointers, `n` a multiple of `n_divisibility`, `eps: f32`), its accesses are
//! as wide as the promised divisibility of `n` allows, it reduces across warps through shared
//! memory, the host reference is right on rows worked by hand, and bad configurations and
//! shapes are typed errors.
#![cfg(feature = "llvm")]

mod common;

use common::{assemble, assemble_without_spills, global_accesses};
use weft::codegen::kernels::{
    layernorm_kernel, layernorm_reference, LayernormConfig, LAYERNORM_MAX_PER_THREAD,
};
use weft::codegen::{CodegenError, Context, OptLevel, Target};
use weft::layout::encoding::Blocked;

/// Configurations with one warp, warps along the rows, along the columns and both, copies, and
/// the 16K row of `examples/layernorm.rs`.
fn configs() -> Vec<(LayernormConfig, &'static str)> {
    let f = LayernormConfig::for_n;
    vec![
        (f(16384, 1, 4, 16), "16K row, 16 warps"),
        (f(16384, 1, 4, 32), "16K row, 32 warps"),
        (f(1000, 2, 4, 4), "n 1000"),
        (f(17, 16, 1, 4), "n 17, warps along rows"),
        (f(17, 1, 4, 4), "n 17, copies"),
        (f(4096, 4, 4, 16), "4096, warps on both dims"),
        (f(16, 8, 4, 1), "16, one warp"),
        (f(1, 32, 1, 1), "one column"),
    ]
}

#[test]
fn layernorm_assembles_for_sm80_and_sm90() {
    for (c, what) in configs() {
        for t in [Target::SM80, Target::SM90] {
            let ctx = Context::new();
            let k = layernorm_kernel(&ctx, t, c).unwrap_or_else(|e| panic!("{what} {t}: {e}"));
            let ptx = k.ptx().unwrap();
            assemble(&ptx, &t.to_string(), &format!("layernorm {what}"));
            let fast = k.ptx_with(OptLevel::Fast).unwrap();
            assemble(&fast, &t.to_string(), &format!("layernorm {what} (Fast)"));
            let sig = k.signature().to_string();
            let div = c.n_divisibility;
            let n = if div == 1 {
                "n: i32,".to_string()
            } else {
                format!("n: i32 {{divisibility = {div}}},")
            };
            assert!(
                sig.starts_with(
                    "layernorm(x: *f32 {divisibility = 16}, y: *f32 {divisibility = 16}, \
                     w: *f32 {divisibility = 16}, b: *f32 {divisibility = 16}, m: i32, "
                ),
                "{what}: {sig}"
            );
            assert!(sig.contains(&n), "{what}: {sig} lacks `{n}`");
            assert!(sig.contains("eps: f32"), "{what}: {sig}");
            // The mean over a runtime n: one correctly rounded division per row, no approx.
            assert!(!ptx.contains("div.approx"), "{what}: approximate division");
        }
    }
}

/// The 16K-row configurations of `examples/layernorm.rs` with one row per CTA keep everything
/// in registers on sm_90 (`ptxas -v` reports no spills): `w` and `b` are loaded after the
/// statistics, so their registers are not held across the reductions.
#[test]
fn the_16k_row_configs_do_not_spill_on_sm90() {
    for (r, p, w) in [(1, 4, 16), (1, 8, 16), (1, 4, 32)] {
        let ctx = Context::new();
        let c = LayernormConfig::for_n(16384, r, p, w);
        let ptx = layernorm_kernel(&ctx, Target::SM90, c)
            .unwrap()
            .ptx()
            .unwrap();
        assemble_without_spills(&ptx, "sm_90", &format!("{c:?}"));
    }
}

/// The tile's layout: lanes, then warps along the row, the rest down the rows (Triton's choice).
#[test]
fn layouts_put_lanes_then_warps_along_the_row() {
    let l = |n, r, p, w| {
        LayernormConfig::for_n(n, r, p, w)
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
    let amd = LayernormConfig::for_n(1024, 1, 4, 4)
        .layout(Target::GFX942)
        .unwrap();
    assert_eq!(amd, Blocked::new(&[1, 4], &[1, 64], &[1, 4], &[1, 0]));
}

#[cfg(feature = "amdgpu")]
#[test]
fn layernorm_builds_for_gfx942() {
    // 32 warps of 64 lanes are more than a CDNA workgroup's 1024 threads.
    for (c, what) in configs().into_iter().filter(|(c, _)| c.num_warps <= 16) {
        let ctx = Context::new();
        let k = layernorm_kernel(&ctx, Target::GFX942, c)
            .unwrap_or_else(|e| panic!("{what} gfx942: {e}"));
        let co = k.code_object().unwrap();
        assert_eq!(&co[..4], b"\x7fELF", "{what}");
    }
}

/// n a multiple of 16 (or 4): every load and store is a 16-byte vector (x, y, and w, b once
/// per CTA); of 2: 8 bytes; any n: scalar accesses.
#[test]
fn accesses_are_as_wide_as_the_divisibility_of_n_allows() {
    let ctx = Context::new();
    let c = LayernormConfig::for_n(16384, 1, 4, 16);
    assert_eq!(c.n_divisibility, 16);
    assert_eq!(c.block_n, 16384);
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap();
    let ptx = k.ptx().unwrap();
    let acc = global_accesses(&ptx);
    // 16384 / (512 threads × 4) = 8 vectors per thread of each of x, w, b in and y out.
    assert_eq!(acc.len(), 32, "{acc:?}");
    assert!(acc.iter().all(|a| a.contains(".v4")), "{acc:?}");
    let loads = acc.iter().filter(|a| a.starts_with("ld.")).count();
    assert_eq!(loads, 24, "{acc:?}");
    // The row sums cross warps through shared memory.
    assert!(ptx.contains("bar.sync"), "cross-warp reduction");
    assert!(ptx.contains("shfl.sync.bfly"), "in-warp reduction");

    // Two rows per CTA share one load of w and b: the 32 warps all lie along the row (1024
    // threads × 4 columns), so each thread holds 16 columns of both rows: 2 × 4 vectors of x,
    // 4 each of w and b, 2 × 4 of y.
    let c = LayernormConfig::for_n(16384, 2, 4, 32);
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    let loads = acc.iter().filter(|a| a.starts_with("ld.")).count();
    assert_eq!((loads, acc.len() - loads), (8 + 4 + 4, 8), "{acc:?}");
    assert!(acc.iter().all(|a| a.contains(".v4")), "{acc:?}");

    // 8 | n: rows start 32-byte aligned, still 16-byte vectors.
    let c = LayernormConfig::for_n(1000, 1, 4, 8);
    assert_eq!(c.n_divisibility, 8);
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert_eq!(acc.len(), 4, "{acc:?}");
    assert!(acc.iter().all(|a| a.contains(".v4")), "{acc:?}");

    // 2 | n: 8-byte vectors for x and y (w and b, at offsets from 0, are 16-byte aligned
    // either way, but their tail mask is only known to 2 columns).
    let c = LayernormConfig::for_n(1002, 1, 4, 8);
    assert_eq!(c.n_divisibility, 2);
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert!(
        !acc.is_empty() && acc.iter().all(|a| a.contains(".v2")),
        "{acc:?}"
    );

    let c = LayernormConfig::for_n(1001, 1, 4, 8);
    assert_eq!(c.n_divisibility, 1);
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap();
    let acc = global_accesses(&k.ptx().unwrap());
    assert!(acc.iter().all(|a| !a.contains(".v")), "{acc:?}");
}

/// The reference on rows worked by hand.
#[test]
fn reference_matches_hand_computed_rows() {
    // Row [1, 2, 3, 4]: mean 2.5, var 1.25; row [5, 5, 5, 5]: var 0, y = b.
    let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, 5.0, 5.0, 5.0];
    let w = [1.0f32, 2.0, 0.5, -1.0];
    let b = [0.0f32, 1.0, -1.0, 0.25];
    let y = layernorm_reference(&x, &w, &b, 4, 0.0);
    let s = 1.25f64.sqrt();
    let want = [
        -1.5 / s,
        -0.5 / s * 2.0 + 1.0,
        0.5 / s * 0.5 - 1.0,
        -1.5 / s + 0.25,
    ];
    for (g, w) in y[..4].iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{y:?}");
    }
    // var 0 with eps: 0 / sqrt(eps) = 0, so y = b.
    let y = layernorm_reference(&x, &w, &b, 4, 1e-5);
    for (g, &bj) in y[4..].iter().zip(&b) {
        assert_eq!(*g, bj as f64);
    }
}

fn arg_error(c: LayernormConfig, needle: &str) {
    let ctx = Context::new();
    match layernorm_kernel(&ctx, Target::SM90, c) {
        Err(e) if matches!(e.cause(), CodegenError::InvalidArgument { .. }) => {
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
    let ok = LayernormConfig::for_n(1024, 1, 4, 4);
    arg_error(
        LayernormConfig {
            block_n: 1000,
            ..ok
        },
        "block_n = 1000",
    );
    arg_error(LayernormConfig { block_n: 0, ..ok }, "block_n = 0");
    arg_error(
        LayernormConfig {
            block_n: 1 << 17,
            ..ok
        },
        "block_n",
    );
    arg_error(
        LayernormConfig {
            rows_per_cta: 3,
            ..ok
        },
        "rows_per_cta = 3",
    );
    arg_error(
        LayernormConfig {
            rows_per_cta: 0,
            ..ok
        },
        "rows_per_cta = 0",
    );
    arg_error(
        LayernormConfig {
            per_thread: 6,
            ..ok
        },
        "per_thread = 6",
    );
    arg_error(
        LayernormConfig {
            per_thread: 32,
            ..ok
        },
        "per_thread = 32",
    );
    arg_error(
        LayernormConfig {
            num_warps: 64,
            ..ok
        },
        "num_warps = 64",
    );
    arg_error(LayernormConfig { num_warps: 3, ..ok }, "num_warps = 3");
    arg_error(
        LayernormConfig {
            n_divisibility: 32,
            ..ok
        },
        "n_divisibility = 32",
    );
    arg_error(
        LayernormConfig {
            n_divisibility: 3,
            ..ok
        },
        "n_divisibility = 3",
    );
    arg_error(
        LayernormConfig {
            block_n: 2,
            ..LayernormConfig::for_n(2, 1, 4, 1)
        },
        "per_thread = 4 is more than the row tile block_n = 2",
    );
    // 16384 f32 over 128 threads: 128 per thread of x, and 128 each of w and b.
    arg_error(
        LayernormConfig::for_n(16384, 1, 4, 4),
        &format!("more than {LAYERNORM_MAX_PER_THREAD}"),
    );
    // 8192 over 4 warps: 64 of x, 64 each of w and b: 192 > 128 although the tile alone fits.
    arg_error(
        LayernormConfig::for_n(8192, 1, 4, 4),
        "64 per thread, and 64 each of w and b: 192",
    );
    // Eight 2048-rows over 4 warps, all along the row: 8 × 16 = 128 of x (the softmax's
    // bound would take it), and 16 each of w and b.
    arg_error(
        LayernormConfig::for_n(2048, 8, 4, 4),
        "128 per thread, and 16 each of w and b: 160",
    )
}

#[test]
fn shapes_the_kernel_cannot_do_are_typed_errors() {
    let c = LayernormConfig::for_n(1000, 2, 4, 4);
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
    let f = LayernormConfig::for_n(17, 1, 1, 1);
    assert_eq!((f.block_n, f.n_divisibility), (32, 1));
    let f = LayernormConfig::for_n(48, 1, 1, 1);
    assert_eq!((f.block_n, f.n_divisibility), (64, 16));
}
