//! `Kernel::report()`: the builder's predictions for the shipped kernels, checked against the
//! planner (`plan_conversion`), the bank-conflict algebra (`bank_conflicts_detail`) and the PTX
//! the kernel emits; its table and its JSON.
use weft::codegen::kernels::{self, Tile2d, TRANSPOSE_CONFIGS};
use weft::codegen::{CodegenError, Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::convert::{bank_conflicts_detail, plan_conversion, ConversionKind, Instruction};
use weft::layout::encoding::{Encoding, SwizzledShared};
use weft::layout::LinearLayout;

const TILE: Tile2d = Tile2d {
    rows: 32,
    cols: 128,
    per_thread: 4,
    num_warps: 4,
};

/// `ld.shared` and `st.shared` instructions in the PTX (straight-line kernels: each runs once).
fn ptx_shared(ptx: &str) -> (u64, u64) {
    let count = |what: &str| ptx.lines().filter(|l| l.contains(what)).count() as u64;
    (count("ld.shared"), count("st.shared"))
}

fn linear(e: impl Into<Encoding>, shape: &[u64]) -> LinearLayout {
    e.into().to_linear_layout(shape).unwrap()
}

/// `y = x` through a `convert_layout` from the kernels' tile layout to the transposed thread
/// order; returns the kernel and the two layouts.
fn convert_kernel(ctx: &Context, t: Target) -> (Kernel<'_>, LinearLayout, LinearLayout) {
    let shape = [TILE.rows as u64, TILE.cols as u64];
    let a = kernels::tile_layout(t, TILE).unwrap();
    let b = kernels::smem_read_layout(t, TILE).unwrap();
    let mut kb = KernelBuilder::new(ctx, t, "convert", TILE.num_warps).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let y = kb.arg_ptr("y", DType::F32, 16).unwrap();
    let (ra, ca) = kernels::tile_coords(&mut kb, &a.clone().into(), shape, None, None).unwrap();
    let off = kb.mul(ra, TILE.cols as i32).unwrap();
    let off = kb.add(off, ca).unwrap();
    let p = kb.add(x, off).unwrap();
    let v = kb.load(p, None, None).unwrap();
    kb.label("to columns");
    let w = kb.convert_layout(v, &b).unwrap();
    let (rb, cb) = kernels::tile_coords(&mut kb, &b.clone().into(), shape, None, None).unwrap();
    let off = kb.mul(rb, TILE.cols as i32).unwrap();
    let off = kb.add(off, cb).unwrap();
    let p = kb.add(y, off).unwrap();
    kb.store(p, w, None).unwrap();
    let k = kb.finish().unwrap();
    (k, linear(a, &shape), linear(b, &shape))
}

#[test]
fn a_conversion_row_is_what_the_planner_planned() {
    for t in [Target::SM80, Target::SM90A, Target::GFX942] {
        if !cfg!(feature = "amdgpu") && t.vendor() == weft::codegen::Vendor::Amd {
            continue;
        }
        let ctx = Context::new();
        let (k, a, b) = convert_kernel(&ctx, t);
        let plan = plan_conversion(&a, &b, 32, t).unwrap();
        let r = k.report();
        let rows: Vec<_> = r.rows.iter().map(|r| r.op.as_str()).collect();
        assert_eq!(rows, ["load", "convert_layout", "store"], "{t}\n{r}");
        let row = &r.rows[1];
        assert_eq!(row.source, "to columns");
        let c = row.conversion.expect("a conversion row has its plan");
        assert_eq!(c.kind, plan.kind, "{t}");
        assert_eq!(c.executed, ConversionKind::SharedMemory, "{t}");
        // The builder runs the planner's plan, `ldmatrix`/`stmatrix` included.
        let sp = plan.shared.clone().unwrap();
        assert_eq!(c.scratch_bytes, sp.scratch_bytes, "{t}");
        assert_eq!(row.scratch_bytes, sp.scratch_bytes, "{t}");
        assert_eq!(
            (c.read_conflicts, c.write_conflicts),
            (sp.read_conflicts, sp.write_conflicts),
            "{t}"
        );
        assert_eq!(c.repetitions, sp.repetitions(), "{t}");
        assert_eq!(row.barriers, 2 * sp.repetitions() - 1, "{t}");
        // The wavefronts counted address by address for every emitted `ld/st.shared` agree
        // with the plan's conflicts per phase (matrix instructions are not counted yet).
        let (ld, st) = (row.shared_loads, row.shared_stores);
        let ptx =
            (t.vendor() == weft::codegen::Vendor::Nvidia).then(|| ptx_shared(&k.ptx().unwrap()));
        if sp.load_instruction == Instruction::LdSt {
            assert_eq!(
                ld.conflicts(),
                sp.read_conflicts * ld.ideal_wavefronts,
                "{t}\n{r}"
            );
            assert_eq!(ld.vector_bytes, sp.load_vector * 4, "{t}");
            if let Some((ptx_ld, _)) = ptx {
                assert_eq!(ptx_ld, ld.instructions, "{t}");
            }
        }
        if sp.store_instruction == Instruction::LdSt {
            assert_eq!(
                st.conflicts(),
                sp.write_conflicts * st.ideal_wavefronts,
                "{t}\n{r}"
            );
            assert_eq!(st.vector_bytes, sp.store_vector * 4, "{t}");
            if let Some((_, ptx_st)) = ptx {
                assert_eq!(ptx_st, st.instructions, "{t}");
            }
        }
    }
}

#[test]
fn an_unswizzled_buffer_shows_the_conflicts_the_algebra_predicts() {
    let shape = [TILE.rows as u64, TILE.cols as u64];
    // Unswizzled: a warp reads 8 rows of one column group, 7 extra wavefronts per access.
    // Swizzled by 4-element groups over 8 rows: the read still meets 4 rows per bank.
    for (sw, read_conflicts) in [
        (SwizzledShared::new(1, 1, 1, &[1, 0]), 7),
        (SwizzledShared::new(4, 1, 8, &[1, 0]), 3),
    ] {
        let ctx = Context::new();
        let t = Target::SM90A;
        let k = kernels::smem_round_trip_kernel(&ctx, t, TILE, sw.clone()).unwrap();
        let r = k.report();
        let ops: Vec<_> = r.rows.iter().map(|r| r.op.as_str()).collect();
        assert_eq!(
            ops,
            ["load", "store_shared", "barrier", "load_shared", "store"],
            "{r}"
        );
        assert!(r.straight_line());
        let shared = linear(sw, &shape);
        let write = linear(kernels::tile_layout(t, TILE).unwrap(), &shape);
        let read = linear(kernels::smem_read_layout(t, TILE).unwrap(), &shape);
        for (row, reg) in [
            (&r.rows[1].shared_stores, write),
            (&r.rows[3].shared_loads, read),
        ] {
            let d = bank_conflicts_detail(&reg, &shared, 32).unwrap();
            assert_eq!(row.vector_bytes, d.vector * 4, "{r}");
            assert_eq!(row.conflicts(), d.conflicts * row.ideal_wavefronts, "{r}");
        }
        let ld = &r.rows[3].shared_loads;
        assert_eq!(ld.conflicts(), read_conflicts * ld.ideal_wavefronts, "{r}");
        let ld = r.shared_loads();
        let st = r.shared_stores();
        assert_eq!(
            ptx_shared(&k.ptx().unwrap()),
            (ld.instructions, st.instructions)
        );
    }
}

#[test]
fn global_rows_show_the_vector_width() {
    let ctx = Context::new();
    // 2048 f32 over 4 warps, 4 per thread: four 16-byte loads and stores per thread.
    let k = kernels::memcpy_kernel(&ctx, Target::SM90, 2048, 4, 4).unwrap();
    let r = k.report();
    assert_eq!(r.rows.len(), 2, "{r}");
    for (row, op) in r.rows.iter().zip(["load", "store"]) {
        assert_eq!(row.op, op);
        let g = row.global.unwrap();
        assert_eq!((g.vector, g.bytes, g.accesses), (4, 16, 4), "{r}");
        assert!(row.source.starts_with("mod.rs:"), "{}", row.source);
        assert_eq!(row.operand, "f32[2048]");
    }
}

#[test]
fn shipped_kernels_predict_their_ptx_shared_accesses() {
    let ctx = Context::new();
    for t in [Target::SM80, Target::SM90A] {
        let ks = [
            kernels::transpose_smem_kernel(&ctx, t, TRANSPOSE_CONFIGS[0]).unwrap(),
            kernels::softmax_kernel(&ctx, t, kernels::SoftmaxConfig::for_n(1024, 1, 4, 4)).unwrap(),
            kernels::layernorm_kernel(&ctx, t, kernels::LayernormConfig::for_n(4096, 1, 4, 8))
                .unwrap(),
        ];
        let sw = SwizzledShared::new(1, 1, 1, &[1, 0]);
        let round_trip = kernels::smem_round_trip_kernel(&ctx, t, TILE, sw).unwrap();
        for k in ks.iter().chain([&round_trip]) {
            let r = k.report();
            assert!(r.straight_line(), "{r}");
            let ptx = k.ptx().unwrap();
            let predicted = (
                r.shared_loads().instructions,
                r.shared_stores().instructions,
            );
            assert_eq!(ptx_shared(&ptx), predicted, "{t}\n{r}");
            let global = |op: &str| -> u64 {
                r.rows_of(op)
                    .map(|row| row.global.map_or(0, |g| g.accesses))
                    .sum()
            };
            let count = |what: &str| ptx.lines().filter(|l| l.contains(what)).count() as u64;
            assert_eq!(
                (count("ld.global"), count("st.global")),
                (global("load"), global("store")),
                "{t}\n{r}"
            );
        }
        // The transpose's middle conversion goes through the planner's swizzle: no conflicts.
        let r = ks[0].report();
        let conv: Vec<_> = r.rows_of("convert_layout").collect();
        assert!(conv.iter().any(|c| c.shared_loads.instructions > 0), "{r}");
        assert!(conv.iter().all(|c| c.shared_loads.conflicts() == 0), "{r}");
        // Softmax: two reductions across 4 warps, 5 butterflies each.
        let red: Vec<_> = r.rows_of("reduce").collect();
        assert!(red.is_empty());
        let s = ks[1].report();
        let red: Vec<_> = s.rows_of("reduce").collect();
        assert_eq!(red.len(), 2, "{s}");
        for row in red {
            assert_eq!(row.shuffles, 5, "{s}");
            assert_eq!(row.barriers, 1, "{s}");
            assert_eq!(row.scratch_bytes, 16, "{s}");
            // The 4 partials side by side: one 16-byte read.
            assert_eq!(row.shared_loads.instructions, 1, "{s}");
            assert_eq!(row.shared_loads.vector_bytes, 16, "{s}");
        }
    }
}

#[test]
fn loops_are_marked_and_labels_name_rows() {
    let ctx = Context::new();
    let k = kernels::row_sum_kernel(&ctx, Target::SM90, TILE).unwrap();
    let r = k.report();
    assert!(!r.straight_line());
    assert!(r.rows[0].in_body && r.rows[0].op == "load", "{r}");
    assert!(
        r.rows.iter().any(|row| row.op == "reduce" && !row.in_body),
        "{r}"
    );
    let text = r.to_string();
    assert!(text.contains("* in a loop or branch body"), "{text}");

    // A failing op records nothing; the label waits for the next recorded op.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let l = kernels::blocked_1d(Target::SM90, 4, 4, 512).unwrap();
    kb.label("bad");
    let o = kb.arange(0, 512, &l).unwrap();
    assert!(kb.convert_layout(o, &l).is_ok());
    let p = kb.add(x, o).unwrap();
    assert!(kb.load(o, None, None).is_err());
    let v = kb.load(p, None, None).unwrap();
    kb.store(p, v, None).unwrap();
    let k = kb.finish().unwrap();
    let r = k.report();
    let got: Vec<_> = r
        .rows
        .iter()
        .map(|r| (r.op.as_str(), r.source.as_str()))
        .collect();
    assert_eq!(got[0], ("convert_layout", "bad"));
    assert_eq!(r.rows[0].conversion.unwrap().kind, ConversionKind::Noop);
    assert_eq!(got.len(), 3, "{r}");
    assert!(got[1].1.starts_with("codegen_report.rs:"), "{r}");
}

/// The report is read off the program: one row per reported op the program holds, in program
/// order, in a body exactly when its op sits in a loop or branch region; `argmax`'s inner
/// reduction adds to its row.
#[test]
fn rows_are_the_reported_ops_of_the_program() {
    use weft::codegen::ir::{OpKind, Program, RegionId};
    let ctx = Context::new();
    let t = Target::SM90;
    let mut kb = KernelBuilder::new(&ctx, t, "rows", 4).unwrap();
    let x = kb.arg_ptr("x", DType::F32, 16).unwrap();
    let n = kb.arg_i32("n", 1).unwrap();
    let l = kernels::blocked_1d(t, 4, 4, 512).unwrap();
    let offs = kb.arange(0, 512, &l).unwrap();
    let p = kb.add(x, offs).unwrap();
    let v = kb.load(p, None, None).unwrap();
    kb.for_each(0, n, 1, |kb, _| {
        let w = kb.load(p, None, None)?;
        kb.barrier()?;
        kb.store(p, w, None)
    })
    .unwrap();
    let small = kb.lt(n, 8).unwrap();
    kb.if_then(small, |kb| kb.store(p, v, None)).unwrap();
    kb.argmax(v, 0).unwrap();
    let k = kb.finish().unwrap();

    fn reported(p: &Program, r: RegionId, depth: u32, out: &mut Vec<(&'static str, bool)>) {
        for &id in &p.region(r).ops {
            let op = p.op(id);
            let name = match op.kind {
                OpKind::Load { .. } => Some("load"),
                OpKind::Store { .. } => Some("store"),
                OpKind::Barrier => Some("barrier"),
                OpKind::ArgMax(_) => Some("argmax"),
                _ => None,
            };
            out.extend(name.map(|n| (n, depth > 0)));
            for &b in &op.regions {
                reported(p, b, depth + 1, out);
            }
        }
    }
    let mut want = Vec::new();
    reported(k.program(), k.program().body, 0, &mut want);
    let r = k.report();
    let got: Vec<(&str, bool)> = r.rows.iter().map(|r| (r.op.as_str(), r.in_body)).collect();
    assert_eq!(got, want, "{r}");
    assert_eq!(got.iter().filter(|(_, body)| *body).count(), 4, "{r}");
    let argmax = r.rows_of("argmax").next().unwrap();
    assert!(argmax.shuffles > 0 && argmax.barriers > 0, "{r}");
}

#[test]
fn the_table_is_aligned() {
    let ctx = Context::new();
    let k = kernels::transpose_smem_kernel(&ctx, Target::SM90A, TRANSPOSE_CONFIGS[0]).unwrap();
    let text = k.report().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "kernel transpose_smem on sm_90a: 4 warps of 32, 16384 bytes of shared memory"
    );
    assert!(lines[1].starts_with("#  op"), "{text}");
    // Every column starts at the same position on every line.
    let col = lines[1].find("ld.shared/warp").unwrap();
    for l in &lines[2..] {
        assert_eq!(l.chars().nth(col - 1), Some(' '), "{text}");
    }
    assert!(text.contains("8×v4 masked"), "{text}");
    assert!(text.contains("8×16B +0"), "{text}");
    assert!(
        text.contains("shared_memory: conflicts rd 0 wr 0, 1 rep"),
        "{text}"
    );
}

#[cfg(feature = "serde")]
#[test]
fn the_report_round_trips_through_json() {
    let ctx = Context::new();
    let k = kernels::softmax_kernel(
        &ctx,
        Target::SM90,
        kernels::SoftmaxConfig::for_n(1024, 1, 4, 4),
    )
    .unwrap();
    let json = k.report().to_json();
    let back = weft::codegen::KernelReport::from_json(&json).unwrap();
    assert_eq!(back, k.report());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rows"][1]["op"], "reduce");
    assert_eq!(v["rows"][1]["shuffles"], 5);
    assert_eq!(v["rows"][0]["global"]["vector"], 4);
}

#[test]
fn ptxas_adds_registers_or_says_why_not() {
    let ctx = Context::new();
    let k = kernels::transpose_smem_kernel(&ctx, Target::SM90A, TRANSPOSE_CONFIGS[0]).unwrap();
    match k.report_with_ptxas() {
        Ok(r) => {
            let p = r.ptxas.unwrap();
            assert!(p.registers > 0 && p.registers <= 255, "{p:?}");
            assert_eq!(p.spill_store_bytes, 0);
            assert!(r.to_string().contains("ptxas: "), "{r}");
        }
        Err(CodegenError::Ptxas(why)) => eprintln!("SKIP ptxas figures: {why}"),
        Err(e) => panic!("{e}"),
    }
    #[cfg(feature = "amdgpu")]
    {
        let a = kernels::memcpy_kernel(&ctx, Target::GFX942, 2048, 4, 4).unwrap();
        assert!(matches!(
            (a.report_with_ptxas()).as_ref().map_err(|e| e.cause()),
            Err(CodegenError::Unsupported { .. })
        ));
    }
}
