//! The launcher's checks, on a machine without a GPU: no driver is a typed error (never a panic),
//! signatures reject wrong arguments, launch configurations reject impossible shapes, kernel images
//! are validated before any driver sees them.

use proptest::prelude::*;
use weft::runtime::image::{check_elf64, check_fatbin, EM_AMDGPU, EM_CUDA};
use weft::runtime::{
    check_config, check_types, ptx_isa_version, CacheKey, DeviceLimits, Dim3, ElemType, KernelArg,
    KernelArgs, KernelAttrs, KernelCache, KernelSignature, LaunchConfig, LaunchProblem, ParamType,
    RuntimeError, SharedMemPlan,
};

// ---------------------------------------------------------------- no driver, no panic

#[cfg(feature = "cuda")]
#[test]
fn cuda_without_driver_is_a_typed_error() {
    use weft::runtime::{cuda, BackendKind};
    if cuda::is_available() {
        // A machine with the driver: a device that cannot exist is still an error, not a panic.
        match cuda::Device::new(1 << 20) {
            Err(RuntimeError::DeviceOutOfRange { ordinal, .. }) => assert_eq!(ordinal, 1 << 20),
            Err(RuntimeError::NoDevice { .. }) => {}
            other => panic!("expected DeviceOutOfRange or NoDevice, got {other:?}"),
        }
        return;
    }
    for result in [
        cuda::Device::new(0).map(|_| ()),
        cuda::Device::count().map(|_| ()),
        cuda::driver_version().map(|_| ()),
    ] {
        match result {
            Err(
                e @ RuntimeError::NoDriver {
                    backend: BackendKind::Cuda,
                    ..
                },
            ) => {
                assert!(
                    e.to_string().contains("libcuda"),
                    "message should name the library: {e}"
                )
            }
            other => panic!("expected NoDriver, got {other:?}"),
        }
    }
}

#[cfg(feature = "hip")]
#[test]
fn hip_without_runtime_is_a_typed_error() {
    use weft::runtime::{hip, BackendKind};
    if hip::is_available() {
        assert!(hip::Device::new(1 << 20).is_err());
        return;
    }
    for result in [
        hip::Device::new(0).map(|_| ()),
        hip::Device::count().map(|_| ()),
        hip::driver_version().map(|_| ()),
    ] {
        match result {
            Err(
                e @ RuntimeError::NoDriver {
                    backend: BackendKind::Hip,
                    ..
                },
            ) => {
                assert!(
                    e.to_string().contains("libamdhip64"),
                    "message should name the library: {e}"
                )
            }
            other => panic!("expected NoDriver, got {other:?}"),
        }
    }
}

// ---------------------------------------------------------------- signatures

fn param_strategy() -> impl Strategy<Value = ParamType> {
    prop_oneof![
        proptest::sample::select(ElemType::ALL.to_vec()).prop_map(ParamType::Ptr),
        proptest::sample::select(vec![
            ParamType::I32,
            ParamType::I64,
            ParamType::U32,
            ParamType::U64,
            ParamType::F32,
            ParamType::F64
        ]),
    ]
}

/// An argument of the given type, with an arbitrary value.
fn arg_of(p: ParamType, v: u64) -> KernelArg {
    match p {
        ParamType::Ptr(elem) => KernelArg::Ptr { elem, addr: v },
        ParamType::I32 => KernelArg::I32(v as i32),
        ParamType::I64 => KernelArg::I64(v as i64),
        ParamType::U32 => KernelArg::U32(v as u32),
        ParamType::U64 => KernelArg::U64(v),
        ParamType::F32 => KernelArg::F32(v as f32),
        ParamType::F64 => KernelArg::F64(v as f64),
        ParamType::TensorMap(_) => unreachable!("param_strategy draws no tensor maps"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/runtime_errors.txt"))), ..ProptestConfig::default() })]
    #[test]
    fn signature_print_parse_roundtrip(params in proptest::collection::vec(param_strategy(), 0..12)) {
        let sig = KernelSignature::new("k_0", params);
        let text = sig.to_string();
        prop_assert_eq!(KernelSignature::parse(&text).unwrap(), sig);
    }

    #[test]
    fn matching_args_pass_and_any_single_change_is_named(
        params in proptest::collection::vec(param_strategy(), 1..10),
        values in proptest::collection::vec(any::<u64>(), 10),
        which in any::<prop::sample::Index>(),
        other in param_strategy(),
    ) {
        let sig = KernelSignature::new("k", params.clone());
        let mut args = KernelArgs::new();
        for (p, v) in params.iter().zip(&values) {
            args.push(arg_of(*p, *v));
        }
        prop_assert!(check_types(&sig, &args.types()).is_ok());

        let i = which.index(params.len());
        let mut types = args.types();
        types[i] = other;
        match check_types(&sig, &types) {
            Ok(()) => prop_assert_eq!(other, params[i]),
            Err(RuntimeError::ArgType { kernel, index, expected, got }) => {
                prop_assert_eq!(kernel, "k");
                prop_assert_eq!(index, i);
                prop_assert_eq!(expected, params[i]);
                prop_assert_eq!(got, other);
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }

    #[test]
    fn arg_count_mismatch_reports_both_counts(params in proptest::collection::vec(param_strategy(), 0..8), extra in 1usize..4) {
        let sig = KernelSignature::new("k", params.clone());
        let mut longer: Vec<ParamType> = params.clone();
        longer.extend(std::iter::repeat_n(ParamType::I32, extra));
        for given in [longer, params[..params.len().saturating_sub(extra)].to_vec()] {
            if given.len() == params.len() { continue; }
            match check_types(&sig, &given) {
                Err(RuntimeError::ArgCount { expected, got, .. }) => {
                    prop_assert_eq!(expected, params.len());
                    prop_assert_eq!(got, given.len());
                }
                other => prop_assert!(false, "expected ArgCount, got {other:?}"),
            }
        }
    }
}

#[test]
fn signature_parse_accepts_rust_pointer_spellings() {
    let a = KernelSignature::parse("saxpy(*mut f32, *const f32, * f32, f32, u32)").unwrap();
    let b = KernelSignature::parse("saxpy(*f32,*f32,*f32,f32,u32)").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.params[0].ty, ParamType::Ptr(ElemType::F32));
    assert_eq!(a.to_string(), "saxpy(*f32, *f32, *f32, f32, u32)");
    assert_eq!(KernelSignature::parse("empty()").unwrap().params, vec![]);
}

#[test]
fn signature_parse_errors_name_the_problem() {
    let cases = [
        ("saxpy", "missing `(`"),
        ("saxpy(f32", "missing `)`"),
        ("(f32)", "non-empty identifier"),
        ("k(*f33)", "unknown element type `f33`"),
        ("k(f32, bool)", "at byte 6: `bool` is not a parameter type"),
        ("k(f32,,f32)", "`` is not a parameter type"),
    ];
    for (text, needle) in cases {
        match KernelSignature::parse(text) {
            Err(e) => {
                assert!(
                    e.to_string().contains(needle),
                    "`{text}`: `{e}` should contain `{needle}`"
                )
            }
            Ok(s) => panic!("`{text}`: expected an error, got {s:?}"),
        }
    }
}

#[test]
fn kernel_args_encode_native_bytes_in_slots() {
    let mut args = KernelArgs::new();
    args.raw_ptr(ElemType::BF16, 0x1122_3344_5566_7788)
        .scalar(-5i32)
        .scalar(1.5f32)
        .scalar(u64::MAX)
        .scalar(-2.25f64);
    let map = weft::runtime::TensorMapArg {
        spec: weft::runtime::TensorMapSpec::new(ElemType::F16, &[64, 64], 128).unwrap(),
        bytes: std::array::from_fn(|i| i as u8),
    };
    args.push(weft::runtime::KernelArg::TensorMap(map));
    let slots = args.to_slots();
    assert_eq!(slots.len(), 6);
    let w8 = |i: usize| -> [u8; 8] { slots[i].0[..8].try_into().unwrap() };
    let w4 = |i: usize| -> [u8; 4] { slots[i].0[..4].try_into().unwrap() };
    assert_eq!(u64::from_ne_bytes(w8(0)), 0x1122_3344_5566_7788);
    assert_eq!(i32::from_ne_bytes(w4(1)), -5);
    assert_eq!(f32::from_ne_bytes(w4(2)), 1.5);
    assert_eq!(u64::from_ne_bytes(w8(3)), u64::MAX);
    assert_eq!(f64::from_ne_bytes(w8(4)), -2.25);
    // A tensor map travels whole, from a 64-byte aligned slot.
    assert_eq!(slots[5].0, map.bytes);
    assert_eq!(slots[5].0.as_ptr() as usize % 64, 0);
    assert_eq!(
        args.types(),
        vec![
            ParamType::Ptr(ElemType::BF16),
            ParamType::I32,
            ParamType::F32,
            ParamType::U64,
            ParamType::F64,
            ParamType::TensorMap(Some(map.spec))
        ]
    );
}

#[test]
fn param_bytes_follow_alignment() {
    // *f32 (8) + i32 (4) + pad 4 + f64 (8) + u32 (4) = 28
    let sig = KernelSignature::parse("k(*f32, i32, f64, u32)").unwrap();
    assert_eq!(sig.param_bytes(), 28);
}

// ---------------------------------------------------------------- launch configurations

const ATTRS: KernelAttrs = KernelAttrs {
    max_threads_per_block: 1024,
    static_shared_bytes: 0,
    num_regs: 32,
};

fn problem(cfg: LaunchConfig, attrs: &KernelAttrs) -> Option<LaunchProblem> {
    match cfg.validate("k", &DeviceLimits::SM90, attrs) {
        Ok(_) => None,
        Err(RuntimeError::LaunchConfig { kernel, problem }) => {
            assert_eq!(kernel, "k");
            Some(problem)
        }
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn zero_extents_are_rejected_per_axis() {
    for (what, axis) in [
        ("grid", 0),
        ("grid", 1),
        ("grid", 2),
        ("block", 0),
        ("block", 1),
        ("block", 2),
    ] {
        let mut g = [4u32, 2, 1];
        let mut b = [32u32, 2, 1];
        if what == "grid" {
            g[axis] = 0
        } else {
            b[axis] = 0
        }
        let cfg = LaunchConfig::new((g[0], g[1], g[2]), (b[0], b[1], b[2]), 0);
        assert_eq!(
            problem(cfg, &ATTRS),
            Some(LaunchProblem::ZeroExtent {
                what,
                axis: ['x', 'y', 'z'][axis]
            })
        );
    }
}

#[test]
fn block_shapes_match_the_device_rule() {
    // Every block shape on a coarse grid of extents: valid iff each axis is within its limit and
    // the volume is at most 1024.
    let extents = [1u32, 2, 3, 16, 32, 64, 65, 512, 1024, 1025, 4096];
    for &x in &extents {
        for &y in &extents {
            for &z in &extents {
                let ok =
                    x <= 1024 && y <= 1024 && z <= 64 && (x as u64 * y as u64 * z as u64) <= 1024;
                let p = problem(LaunchConfig::new(1, (x, y, z), 0), &ATTRS);
                assert_eq!(p.is_none(), ok, "block ({x},{y},{z}): {p:?}");
            }
        }
    }
}

#[test]
fn grid_limits_and_kernel_thread_limit() {
    assert_eq!(
        problem(LaunchConfig::new((1, 65536, 1), 32, 0), &ATTRS),
        Some(LaunchProblem::GridExtent {
            axis: 'y',
            value: 65536,
            max: 65535
        })
    );
    assert_eq!(
        problem(LaunchConfig::new(1u32 << 31, 32, 0), &ATTRS),
        Some(LaunchProblem::GridExtent {
            axis: 'x',
            value: 1 << 31,
            max: i32::MAX as u32
        })
    );
    assert!(problem(LaunchConfig::new(i32::MAX as u32, 32, 0), &ATTRS).is_none());
    let heavy = KernelAttrs {
        max_threads_per_block: 256,
        ..ATTRS
    };
    assert!(matches!(
        problem(LaunchConfig::new(1, 512, 0), &heavy),
        Some(LaunchProblem::TooManyThreads {
            threads: 512,
            max: 256,
            ..
        })
    ));
}

#[test]
fn shared_memory_opt_in_boundaries() {
    let plan = |dynamic: u32, static_bytes: u32| {
        LaunchConfig::new(1, 128, dynamic).validate(
            "k",
            &DeviceLimits::SM90,
            &KernelAttrs {
                static_shared_bytes: static_bytes,
                ..ATTRS
            },
        )
    };
    assert_eq!(plan(0, 0).unwrap(), SharedMemPlan::Default);
    assert_eq!(plan(48 * 1024, 0).unwrap(), SharedMemPlan::Default);
    assert_eq!(
        plan(48 * 1024 + 1, 0).unwrap(),
        SharedMemPlan::OptIn {
            dynamic_bytes: 48 * 1024 + 1
        }
    );
    assert_eq!(plan(47 * 1024, 1024).unwrap(), SharedMemPlan::Default);
    assert_eq!(
        plan(47 * 1024 + 1, 1024).unwrap(),
        SharedMemPlan::OptIn {
            dynamic_bytes: 47 * 1024 + 1
        }
    );
    assert_eq!(
        plan(227 * 1024, 0).unwrap(),
        SharedMemPlan::OptIn {
            dynamic_bytes: 227 * 1024
        }
    );
    match plan(226 * 1024 + 1, 1024) {
        Err(
            e @ RuntimeError::LaunchConfig {
                problem: LaunchProblem::SharedMemory { .. },
                ..
            },
        ) => {
            assert!(
                e.to_string().contains("1024 B static + 231425 B dynamic"),
                "{e}"
            )
        }
        other => panic!("expected SharedMemory, got {other:?}"),
    }
}

#[test]
fn for_items_covers_every_item_once() {
    for n in [0u64, 1, 255, 256, 257, 1 << 20, (1 << 20) + 3] {
        let cfg = LaunchConfig::for_items(n, 1024, 256).unwrap();
        assert_eq!(cfg.block, Dim3::x(256));
        let covered = cfg.grid.x as u64 * 1024;
        assert!(covered >= n && covered < n.max(1) + 1024, "n={n}: {cfg:?}");
    }
    assert!(matches!(
        LaunchConfig::for_items(u64::MAX, 1, 256),
        Err(RuntimeError::Overflow { .. })
    ));
    assert!(LaunchConfig::for_items(10, 0, 256).is_err());
}

// ---------------------------------------------------------------- launches shaped by the signature

#[test]
fn for_kernel_takes_block_and_shared_memory_from_the_signature() {
    let sig = KernelSignature::parse("k(*f32, i32) [threads = 256, shared = 4096]").unwrap();
    let cfg = LaunchConfig::for_kernel((7, 3, 1), &sig).unwrap();
    assert_eq!(cfg.grid, Dim3::new(7, 3, 1));
    assert_eq!(cfg.block, Dim3::x(256));
    assert_eq!(cfg.shared_mem_bytes, 4096);
    check_config(&sig, &cfg).unwrap();
    // Giving more shared memory than the code uses stays allowed; less does not.
    check_config(&sig, &cfg.with_shared_mem(8192)).unwrap();
    assert!(check_config(&sig, &cfg.with_shared_mem(4092)).is_err());

    let no_block = KernelSignature::parse("k(*f32, i32)").unwrap();
    match LaunchConfig::for_kernel(4, &no_block) {
        Err(
            e @ RuntimeError::LaunchConfig {
                problem: LaunchProblem::NoBlockSize,
                ..
            },
        ) => assert!(e.to_string().contains("kernel `k`"), "{e}"),
        other => panic!("expected NoBlockSize, got {other:?}"),
    }
}

// ---------------------------------------------------------------- kernel cache

#[test]
fn cache_loads_each_key_once_and_keeps_failures_out() {
    let cache: KernelCache<u32> = KernelCache::new();
    let mut loads = 0;
    let mut get = |target: &str, kernel: &str, content: &[u8], cache: &KernelCache<u32>| {
        cache.get_or_load(CacheKey::new(target, kernel, content), || {
            loads += 1;
            Ok(loads)
        })
    };
    assert_eq!(get("sm_90@0", "copy", b"ptx-a", &cache).unwrap(), 1);
    assert_eq!(get("sm_90@0", "copy", b"ptx-a", &cache).unwrap(), 1);
    assert_eq!(get("sm_90@1", "copy", b"ptx-a", &cache).unwrap(), 2); // other device
    assert_eq!(get("sm_90@0", "add", b"ptx-a", &cache).unwrap(), 3); // other kernel
    assert_eq!(get("sm_90@0", "copy", b"ptx-b", &cache).unwrap(), 4); // other content
    assert_eq!((cache.hits(), cache.misses(), cache.len()), (1, 4, 4));

    let failed = cache.get_or_load(CacheKey::new("sm_90@0", "bad", b"x"), || {
        Err(RuntimeError::InvalidImage {
            what: "PTX",
            reason: "test".into(),
        })
    });
    assert!(failed.is_err());
    assert_eq!(cache.len(), 4, "a failed load is not cached");
    assert_eq!(
        cache
            .get_or_load(CacheKey::new("sm_90@0", "bad", b"x"), || Ok(9))
            .unwrap(),
        9
    );
}

// ---------------------------------------------------------------- kernel images

/// A minimal ELF64 header for `machine` whose section table claims `shnum` entries at `shoff`.
fn elf(machine: u16, len: usize, shoff: u64, shnum: u16) -> Vec<u8> {
    let mut b = vec![0u8; len.max(64)];
    b[..4].copy_from_slice(b"\x7fELF");
    b[4] = 2;
    b[5] = 1;
    b[0x12..0x14].copy_from_slice(&machine.to_le_bytes());
    b[0x28..0x30].copy_from_slice(&shoff.to_le_bytes());
    b[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
    b[0x3c..0x3e].copy_from_slice(&shnum.to_le_bytes());
    b.truncate(len);
    b
}

#[test]
fn elf_checks_keep_the_driver_inside_the_image() {
    assert!(check_elf64(
        &elf(EM_AMDGPU, 64 + 2 * 64, 64, 2),
        EM_AMDGPU,
        "code object"
    )
    .is_ok());
    let cases: [(Vec<u8>, &str); 5] = [
        (
            elf(EM_AMDGPU, 64 + 64, 64, 2),
            "section header table ends past the image",
        ),
        (elf(EM_AMDGPU, 40, 0, 0), "ELF header is truncated"),
        (elf(EM_CUDA, 64, 0, 0), "machine is 190, expected 224"),
        (b"\x7fELF\x01\x01".to_vec(), "little-endian 64-bit"),
        (b"hello".to_vec(), "wrong magic"),
    ];
    for (image, needle) in cases {
        let e = check_elf64(&image, EM_AMDGPU, "code object").unwrap_err();
        assert!(
            e.to_string().contains(needle),
            "`{e}` should contain `{needle}`"
        );
    }
    // A huge section count must not overflow the bound check.
    assert!(check_elf64(&elf(EM_AMDGPU, 128, u64::MAX - 10, 2), EM_AMDGPU, "x").is_err());
}

#[test]
fn a_real_cubin_passes_the_checks() {
    let cubin = include_bytes!("ptx/saxpy.sm_90.cubin");
    assert!(check_elf64(cubin, EM_CUDA, "cubin").is_ok());
    assert!(
        check_elf64(&cubin[..cubin.len() / 2], EM_CUDA, "cubin").is_err(),
        "a truncated cubin is rejected"
    );
}

#[test]
fn fatbin_size_is_checked() {
    let mut fb = vec![0u8; 64];
    fb[..4].copy_from_slice(&0xBA55_ED50u32.to_le_bytes());
    fb[6..8].copy_from_slice(&16u16.to_le_bytes());
    fb[8..16].copy_from_slice(&48u64.to_le_bytes());
    assert!(check_fatbin(&fb).is_ok());
    fb[8..16].copy_from_slice(&49u64.to_le_bytes());
    assert!(check_fatbin(&fb)
        .unwrap_err()
        .to_string()
        .contains("declares 65 bytes"));
}

#[test]
fn ptx_version_is_read_from_the_directive() {
    assert_eq!(ptx_isa_version(include_str!("ptx/saxpy.ptx")), Some((8, 0)));
    assert_eq!(
        ptx_isa_version("// c\n  .version 9.1\n.target sm_90"),
        Some((9, 1))
    );
    assert_eq!(ptx_isa_version(".target sm_90"), None);
}

#[test]
fn errors_print_what_happened() {
    let e = RuntimeError::PtxTooNew {
        ptx_isa: "9.1".into(),
        driver: "13.0".into(),
    };
    assert!(e
        .to_string()
        .contains("PTX ISA 9.1 is too new for this driver (CUDA 13.0)"));
    let e = check_types(
        &KernelSignature::parse("k(*f32)").unwrap(),
        &[ParamType::Ptr(ElemType::F16)],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel `k` argument 0 must be *f32, got *f16"
    );
    let e = check_types(&KernelSignature::parse("k(*f32, u32)").unwrap(), &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel `k` takes 2 argument(s) k(*f32, u32), got 0"
    );
}
