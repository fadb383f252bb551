//! Device printing and assertions without a GPU: the PTX calls `vprintf` and `__assertfail` with
//! the right strings and ptxas accepts it; the interpreter prints the lines the host expects and
//! turns a false assertion into a typed error naming the user's line; `static_print` shows types
//! and layouts and emits nothing; bad input is a typed error. (`gpu_debug.rs` runs the same
//! kernels on a GPU.)
#![cfg(feature = "llvm")]

mod common;

use std::collections::BTreeMap;

use common::debug::{assert_kernel, mixed_print_kernel, mixed_print_lines, program_tile, quarters};
use common::rng::Rng;

use weft::codegen::interp::{self, InterpError, LaunchArg, Memory};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, PrintFormat, Target, WarpRole};
use weft::layout::encoding::{Blocked, SwizzledShared};

const ROWS: u64 = 16;
const COLS: u64 = 8;

/// One warp holding a 16 × 8 tile, 4 registers per thread, every element in one thread.
fn tile_layout() -> Blocked {
    Blocked::new(&[1, 4], &[16, 2], &[1, 1], &[1, 0])
}

/// A kernel (one warp) that loads program `p`'s 16 × 8 tile of `x` (row-major, `p · 128`
/// onwards) and prints it with prefix `x`, then prints the program id as a scalar.
fn print_kernel(ctx: &Context, target: Target, dtype: DType) -> weft::codegen::Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, target, "print_tile", 1).unwrap();
    let x = kb.arg_ptr("x", dtype, 16).unwrap();
    let (off, pid) = program_tile(&mut kb, &tile_layout(), ROWS, COLS);
    let p = kb.add(x, off).unwrap();
    let v = kb.load(p, None, None).unwrap();
    kb.device_print("x", &[v]).unwrap();
    kb.device_print("pid", &[pid]).unwrap();
    kb.finish().unwrap()
}

/// Runs `k` on `args` over `programs` programs and returns what it printed, line by line.
fn printed(
    k: &weft::codegen::Kernel<'_>,
    programs: u32,
    args: &[LaunchArg],
    mem: &mut Memory,
) -> Vec<String> {
    let mut out = Vec::new();
    interp::run_with(
        k,
        [programs, 1, 1],
        args,
        mem,
        &Default::default(),
        &mut out,
    )
    .unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// How many times each line occurs.
fn multiset(lines: &[String]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for l in lines {
        *m.entry(l.as_str()).or_insert(0) += 1;
    }
    m
}

/// The format strings of `ptx`: each `.global .b8 name[N] = {…}` decoded (without its NUL).
fn ptx_strings(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter(|l| l.contains(".b8") && l.contains("= {"))
        .filter_map(|l| {
            let body = l.split_once("= {")?.1.split_once('}')?.0;
            let bytes: Vec<u8> = body
                .split(',')
                .filter_map(|b| b.trim().parse::<u8>().ok())
                .take_while(|&b| b != 0)
                .collect();
            String::from_utf8(bytes).ok()
        })
        .collect()
}

#[test]
fn the_interpreter_prints_each_element_with_its_program_and_index() {
    let ctx = Context::new();
    let k = print_kernel(&ctx, Target::SM90, DType::F32);
    let n = (2 * ROWS * COLS) as usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 7.0).collect();
    let mut mem = Memory::new();
    let dx = mem.upload(&x);
    let lines = printed(&k, 2, &[LaunchArg::Buffer(dx)], &mut mem);

    let mut want = Vec::new();
    for p in 0..2u64 {
        for i in 0..ROWS {
            for j in 0..COLS {
                let v = x[(p * ROWS * COLS + i * COLS + j) as usize];
                want.push(format!(
                    "pid ({p}, 0, 0) idx ({i:>2}, {j}) x: {:.6}",
                    f64::from(v)
                ));
            }
        }
        want.push(format!("pid ({p}, 0, 0) pid: {p}"));
    }
    assert_eq!(lines.len(), want.len(), "{lines:#?}");
    assert_eq!(multiset(&lines), multiset(&want));
    // Programs run one after the other; within one, warp by warp, register by register, lane by
    // lane: lane 1 holds columns 4..8 of row 0, lane 2 row 1.
    assert!(lines[..129].iter().all(|l| l.starts_with("pid (0, 0, 0)")));
    assert_eq!(
        lines[0],
        format!("pid (0, 0, 0) idx ( 0, 0) x: {:.6}", x[0])
    );
    assert_eq!(
        lines[1],
        format!("pid (0, 0, 0) idx ( 0, 4) x: {:.6}", x[4])
    );
    assert_eq!(
        lines[2],
        format!("pid (0, 0, 0) idx ( 1, 0) x: {:.6}", x[8])
    );
    assert_eq!(lines[128], "pid (0, 0, 0) pid: 0");
}

#[test]
fn every_element_type_prints_as_the_host_expects() {
    let ctx = Context::new();
    let k = mixed_print_kernel(&ctx);
    let n = 2 * (common::debug::ROWS * common::debug::COLS) as usize;
    let (x, y) = (quarters(n, 3), Rng(4).vec(n));
    let mut mem = Memory::new();
    let (dx, dy) = (mem.upload(&x), mem.upload(&y));
    let lines = printed(
        &k,
        2,
        &[LaunchArg::Buffer(dx), LaunchArg::Buffer(dy)],
        &mut mem,
    );
    let want = mixed_print_lines(&x, &y, 2);
    assert_eq!(lines.len(), want.len());
    assert_eq!(multiset(&lines), multiset(&want));
    common::assemble(&k.ptx().unwrap(), "sm_90", "the mixed print kernel");
}

#[test]
fn a_broadcast_layout_prints_an_element_once_per_thread_holding_it() {
    // 32 lanes over 16 elements: lanes l and l + 16 hold element l.
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM80, "bcast", 1).unwrap();
    let l = Blocked::new(&[1], &[32], &[1], &[0]);
    let t = kb.arange(0, 16, (&l, [16u64])).unwrap();
    let t = kb.mul(t, 3).unwrap();
    kb.device_print("", &[t]).unwrap();
    let k = kb.finish().unwrap();
    let lines = printed(&k, 1, &[], &mut Memory::new());
    let m = multiset(&lines);
    assert_eq!(m.len(), 16, "{lines:#?}");
    for i in 0..16 {
        assert_eq!(
            m[format!("pid (0, 0, 0) idx ({i:>2}): {}", 3 * i).as_str()],
            2
        );
    }
    // One vprintf per register (one register per thread here).
    let ptx = k.ptx().unwrap();
    assert_eq!(vprintf_calls(&ptx), 1, "{ptx}");
    common::assemble(&ptx, "sm_80", "the broadcast print");
}

/// The `vprintf` calls in `ptx`.
fn vprintf_calls(ptx: &str) -> usize {
    ptx.lines()
        .filter(|l| l.trim_start().starts_with("call") && l.contains("vprintf"))
        .count()
}

#[test]
fn the_ptx_calls_vprintf_once_per_register_with_the_line_format_and_assembles() {
    let ctx = Context::new();
    for (target, arch) in [(Target::SM80, "sm_80"), (Target::SM90A, "sm_90a")] {
        let k = print_kernel(&ctx, target, DType::F16);
        let ptx = k.ptx().unwrap();
        assert!(
            ptx.contains(".extern .func  (.param .b32 func_retval0) vprintf"),
            "{ptx}"
        );
        // Four registers per thread and the scalar.
        assert_eq!(vprintf_calls(&ptx), 5, "{ptx}");
        let strings = ptx_strings(&ptx);
        assert_eq!(
            strings.len(),
            2,
            "one string per distinct format: {strings:?}"
        );
        assert!(
            strings.contains(&"pid (%d, %d, %d) idx (%2d, %1d) x: %f\n".to_string()),
            "{strings:?}"
        );
        assert!(
            strings.contains(&"pid (%d, %d, %d) pid: %d\n".to_string()),
            "{strings:?}"
        );
        // f16 travels as a double.
        assert!(ptx.contains("cvt.f64.f32"), "{ptx}");
        common::assemble(&ptx, arch, "the print kernel");
    }
}

/// Prints `v` in `format` from a one-warp kernel built by `build` and returns the interpreter's
/// line, after checking that ptxas takes the PTX.
fn print_one(
    format: PrintFormat,
    build: impl Fn(&mut KernelBuilder<'_>) -> Vec<weft::codegen::Value>,
) -> Vec<String> {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "fmt", 1).unwrap();
    let vals = build(&mut kb);
    kb.device_print_with("v", &vals, format).unwrap();
    let k = kb.finish().unwrap();
    common::assemble(&k.ptx().unwrap(), "sm_90a", "a format");
    printed(&k, 1, &[], &mut Memory::new())
}

#[test]
fn numbers_print_as_c_printf_writes_them() {
    let pid = "pid (0, 0, 0) v";
    let i8m1 = |kb: &mut KernelBuilder<'_>| vec![kb.const_int(DType::I8, -1).unwrap()];
    assert_eq!(
        print_one(PrintFormat::Decimal, i8m1),
        [format!("{pid}: -1")]
    );
    assert_eq!(
        print_one(PrintFormat::Unsigned, i8m1),
        [format!("{pid}: 255")]
    );
    assert_eq!(print_one(PrintFormat::Hex, i8m1), [format!("{pid}: 0xff")]);
    let i64m2 = |kb: &mut KernelBuilder<'_>| vec![kb.i64(-2).unwrap()];
    assert_eq!(
        print_one(PrintFormat::Decimal, i64m2),
        [format!("{pid}: -2")]
    );
    assert_eq!(
        print_one(PrintFormat::Unsigned, i64m2),
        [format!("{pid}: {}", u64::MAX - 1)]
    );
    assert_eq!(
        print_one(PrintFormat::Hex, i64m2),
        [format!("{pid}: 0xfffffffffffffffe")]
    );
    let yes = |kb: &mut KernelBuilder<'_>| {
        let a = kb.i32(3).unwrap();
        vec![kb.lt(a, 4).unwrap()]
    };
    assert_eq!(print_one(PrintFormat::Decimal, yes), [format!("{pid}: 1")]);
    // Floats: C's %f of the value (f16, bf16 and fp8 through f32), or the element's own bits.
    let floats = |kb: &mut KernelBuilder<'_>| {
        let h = kb.const_float(DType::F16, 1.0).unwrap();
        let b = kb.const_float(DType::BF16, -2.25).unwrap();
        let f = kb.f32(1.0 / 128.0).unwrap();
        let d = kb.const_float(DType::F64, 0.1).unwrap();
        let e = kb.f32(1.5).unwrap();
        let e = kb.cast(e, DType::F8E4M3).unwrap();
        vec![h, b, f, d, e]
    };
    let want = |vals: [&str; 5]| -> Vec<String> {
        vals.iter()
            .enumerate()
            .map(|(k, v)| format!("{pid} (operand {k}): {v}"))
            .collect()
    };
    // 1/128 = 0.0078125 is a tie at six decimals: C rounds it to even.
    assert_eq!(
        print_one(PrintFormat::Decimal, floats),
        want(["1.000000", "-2.250000", "0.007812", "0.100000", "1.500000"])
    );
    assert_eq!(
        print_one(PrintFormat::Hex, floats),
        want([
            "0x3c00",
            "0xc010",
            "0x3c000000",
            "0x3fb999999999999a",
            "0x3c"
        ])
    );
}

#[test]
fn a_print_without_values_prints_its_prefix_once_per_program() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "hello", 4).unwrap();
    kb.device_print("hello 100%", &[]).unwrap();
    let k = kb.finish().unwrap();
    let ptx = k.ptx().unwrap();
    assert!(ptx_strings(&ptx).contains(&"pid (%d, %d, %d) hello 100%%\n".to_string()));
    common::assemble(&ptx, "sm_90", "a print without values");
    let mut out = Vec::new();
    interp::run_with(
        &k,
        [2, 1, 2],
        &[],
        &mut Memory::new(),
        &Default::default(),
        &mut out,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "pid (0, 0, 0) hello 100%\npid (1, 0, 0) hello 100%\n\
         pid (0, 0, 1) hello 100%\npid (1, 0, 1) hello 100%\n"
    );
}

#[test]
fn a_false_assertion_names_its_line_program_and_first_false_element() {
    let ctx = Context::new();
    let (k, tile, scalar) = assert_kernel(&ctx);
    let mut x = vec![1.0f32; 3 * 512];
    let run = |x: &[f32], n: i32| {
        let mut mem = Memory::new();
        let dx = mem.upload(x);
        let mut out = Vec::new();
        interp::run_with(
            &k,
            [3, 1, 1],
            &[LaunchArg::Buffer(dx), LaunchArg::I32(n)],
            &mut mem,
            &Default::default(),
            &mut out,
        )
    };
    run(&x, 5).unwrap();
    x[512 + 37] = 150.0;
    x[512 + 300] = 170.0;
    x[2 * 512 + 3] = 150.0;
    match run(&x, 5).unwrap_err() {
        InterpError::Assert {
            message,
            loc,
            program,
            index,
        } => {
            assert_eq!(message, "x must stay below 100");
            assert_eq!((loc.file, loc.line), tile);
            assert_eq!(program, [1, 0, 0]);
            assert_eq!(index, [37]);
        }
        e => panic!("expected an assertion failure, got {e}"),
    }
    let e = run(&vec![1.0; 3 * 512], 0).unwrap_err();
    let InterpError::Assert {
        loc,
        program,
        ref index,
        ref message,
    } = e
    else {
        panic!("expected an assertion failure, got {e}");
    };
    assert_eq!(
        ((loc.file, loc.line), program, index.len()),
        (scalar, [0, 0, 0], 0)
    );
    assert_eq!(message, "n must be positive");
    assert!(e.to_string().contains("device_assert failed"), "{e}");
}

#[test]
fn the_ptx_of_an_assertion_calls_assertfail_with_message_file_line_and_kernel() {
    let ctx = Context::new();
    let (k, (file, tile_line), _) = assert_kernel(&ctx);
    let ptx = k.ptx().unwrap();
    assert!(ptx.contains(".extern .func __assertfail"), "{ptx}");
    let calls = ptx
        .lines()
        .filter(|l| l.trim_start().starts_with("call") && l.contains("__assertfail"))
        .count();
    assert_eq!(calls, 2, "{ptx}");
    let strings = ptx_strings(&ptx);
    for s in [
        "x must stay below 100",
        "n must be positive",
        file,
        "check_below",
    ] {
        assert!(strings.contains(&s.to_string()), "{s}: {strings:?}");
    }
    assert!(
        ptx.contains(&format!("{tile_line};")),
        "the line {tile_line}: {ptx}"
    );
    assert!(ptx.contains("trap;"), "{ptx}");
    common::assemble(&ptx, "sm_90", "the assert kernel");
}

#[test]
fn the_tile_ir_shows_prints_and_asserts() {
    let ctx = Context::new();
    let (k, (_, tile_line), _) = assert_kernel(&ctx);
    let text = k.program().to_text(true);
    let line = text
        .lines()
        .find(|l| l.contains("weft.device_assert"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("weft.device_assert {message = \"x must stay below 100\"} %"),
        "{line}"
    );
    assert!(
        line.ends_with(&format!("common/debug.rs:{tile_line}")),
        "{line}"
    );
    let k = print_kernel(&ctx, Target::SM90, DType::F32);
    let text = k.program().to_string();
    assert!(
        text.contains("weft.device_print {prefix = \"x\", format = Decimal} %"),
        "{text}"
    );
    assert_eq!(text.matches("weft.device_print").count(), 2, "{text}");
}

#[test]
fn bad_operands_are_typed_errors_at_the_callers_line() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "bad", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let f = kb.f32(1.0).unwrap();
    let line = line!() + 1;
    let e = kb.device_print("p", &[x]).unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::InvalidType {
                op: "device_print",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.loc().map(|l| l.line), Some(line));
    let e = kb.device_assert(f, "f").unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::InvalidType {
                op: "device_assert",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("i1 condition"), "{e}");
    let s = kb
        .alloc_shared(DType::F32, &[8], SwizzledShared::new(1, 1, 1, &[0]))
        .unwrap();
    let e = kb.device_print("s", &[s]).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    let e = kb.device_print("a\0b", &[f]).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    let yes = kb.lt(f, 2.0).unwrap();
    let e = kb.device_assert(yes, "bad\0").unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::InvalidArgument {
                op: "device_assert",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("NUL byte at 3"), "{e}");
    // None of the refused calls was recorded.
    assert!(!kb.program().to_string().contains("weft.device_"));
}

#[cfg(feature = "amdgpu")]
#[test]
fn amdgpu_refuses_printing_and_traps_on_a_false_assertion() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::GFX942, "amd", 1).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    let e = kb.device_print("n", &[n]).unwrap_err();
    assert!(
        matches!(
            e.cause(),
            CodegenError::Unsupported {
                op: "device_print",
                ..
            }
        ),
        "{e}"
    );
    let ok = kb.gt(n, 0).unwrap();
    kb.device_assert(ok, "n must be positive").unwrap();
    let k = kb.finish().unwrap();
    let asm = k.amdgpu_asm(weft::codegen::OptLevel::O3).unwrap();
    assert!(asm.contains("s_trap"), "{asm}");
    // The interpreter still names the assertion.
    let e = interp::run(&k, [1, 1, 1], &[LaunchArg::I32(0)], &mut Memory::new()).unwrap_err();
    assert!(matches!(e, InterpError::Assert { .. }), "{e}");
}

#[test]
fn static_print_shows_types_and_layouts_and_emits_nothing() {
    let ctx = Context::new();
    let build = |show: bool| {
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "show", 1).unwrap();
        let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
        let l = tile_layout();
        let t = kb.zeros((&l, [ROWS, COLS]), DType::F16).unwrap();
        let pid = kb.program_id(0).unwrap();
        let text = kb.static_text("acc", &[t, pid, x]).unwrap();
        if show {
            kb.static_print("acc", &[t, pid, x]).unwrap();
            kb.static_assert(ROWS * COLS == 128, "the tile has 128 elements")
                .unwrap();
        }
        let (e, line) = (kb.static_assert(ROWS > 64, "ROWS > 64"), line!());
        let e = e.unwrap_err();
        assert_eq!(e.loc().map(|l| l.line), Some(line));
        assert!(e.to_string().contains("static_assert: ROWS > 64"), "{e}");
        let c = kb.cast(t, DType::F32).unwrap();
        let p = kb.splat(x, (&l, [ROWS, COLS])).unwrap();
        kb.store(p, c, None).unwrap();
        (text, kb.finish().unwrap())
    };
    let (text, shown) = build(true);
    let (_, plain) = build(false);
    assert_eq!(
        text,
        "acc: tensor<16x8xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], \
         warpsPerCTA = [1, 1], order = [1, 0]}>>; i32; ptr<f32>"
    );
    assert_eq!(shown.ptx().unwrap(), plain.ptx().unwrap());
    // A shared buffer: its layout on the same line, and where it lies.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "show_shared", 1).unwrap();
    let s = kb
        .alloc_shared(DType::F32, &[8, 8], SwizzledShared::new(1, 1, 1, &[1, 0]))
        .unwrap();
    let text = kb.static_text("", &[s]).unwrap();
    assert!(text.starts_with("!shared<8x8xf32, "), "{text}");
    assert!(
        text.contains(
            "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}"
        ),
        "{text}"
    );
    assert!(
        text.ends_with(", offset 0>") && !text.contains('\n'),
        "{text}"
    );
    assert_eq!(shown.program().to_string(), plain.program().to_string());
}

#[test]
fn prints_in_loops_branches_and_warp_roles_come_from_each_task() {
    // A one-warp role printing a tile, and a role of two one-warp replicas each printing its
    // replica number, and its loop counter where it is even.
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "roles", 3).unwrap();
    let roles = kb
        .warp_roles(&[WarpRole::new(1), WarpRole::new(1).replicas(2)])
        .unwrap();
    kb.in_role(roles[0], |kb| {
        let l = Blocked::new(&[1], &[32], &[1], &[0]);
        let t = kb.arange(100, 132, (&l, [32u64]))?;
        kb.device_print("tile", &[t])?;
        kb.device_print("producer", &[])
    })
    .unwrap();
    kb.in_role(roles[1], |kb| {
        let r = kb.role_replica()?;
        kb.device_print("replica", &[r])?;
        kb.for_range(0, 4, 1, &[], |kb, i, _| {
            let odd = kb.and(i, 1)?;
            let even = kb.eq(odd, 0)?;
            kb.if_then(even, |kb| kb.device_print("i", &[r, i]))?;
            Ok(vec![])
        })?;
        Ok(())
    })
    .unwrap();
    let k = kb.finish().unwrap();
    common::assemble(&k.ptx().unwrap(), "sm_90", "prints in roles");
    let lines = printed(&k, 1, &[], &mut Memory::new());
    let pid = "pid (0, 0, 0)";
    let mut want: Vec<String> = (0..32)
        .map(|i| format!("{pid} idx ({i:>2}) tile: {}", 100 + i))
        .collect();
    want.push(format!("{pid} producer"));
    for r in 0..2 {
        want.push(format!("{pid} replica: {r}"));
        for i in [0, 2] {
            want.push(format!("{pid} i (operand 0): {r}"));
            want.push(format!("{pid} i (operand 1): {i}"));
        }
    }
    assert_eq!(multiset(&lines), multiset(&want), "{lines:#?}");
}
