//! Conversion planning checked against ground truth: the bank-conflict formula against the brute-force
//! wavefront simulator, and every plan executed on the host against the destination layout.

use proptest::prelude::*;
use weft::layout::convert::simulate::{
    execute_shared_plan, execute_shuffle_plan, simulate_shared_access,
};
use weft::layout::convert::{
    bank_conflicts_detail, classify, plan_conversion, plan_shared, plan_shuffle, ConversionKind,
    Level, Target,
};
use weft::layout::LinearLayout;

/// A 2-D distributed layout from flattened bases (dim0 is the low `a` bits).
fn layout2d(a: u32, b: u32, reg: &[u64], lane: &[u64], warp: &[u64]) -> LinearLayout {
    let split = |v: &[u64]| -> Vec<Vec<u64>> {
        v.iter()
            .map(|&x| vec![x & ((1 << a) - 1), x >> a])
            .collect()
    };
    LinearLayout::from_bases(
        [
            ("register", split(reg)),
            ("lane", split(lane)),
            ("warp", split(warp)),
            ("block", vec![]),
        ],
        [("dim0", 1u64 << a), ("dim1", 1u64 << b)],
        true,
    )
    .unwrap()
}

fn shared2d(a: u32, b: u32, offset: &[u64]) -> LinearLayout {
    let split = |v: &[u64]| -> Vec<Vec<u64>> {
        v.iter()
            .map(|&x| vec![x & ((1 << a) - 1), x >> a])
            .collect()
    };
    LinearLayout::from_bases(
        [("offset", split(offset))],
        [("dim0", 1u64 << a), ("dim1", 1u64 << b)],
        true,
    )
    .unwrap()
}

/// A random invertible basis of `n` bits: a permutation of unit vectors mixed by a few XORs.
fn basis(n: u32) -> impl Strategy<Value = Vec<u64>> {
    (
        Just((0..n).map(|i| 1u64 << i).collect::<Vec<_>>()).prop_shuffle(),
        prop::collection::vec((0..n as usize, 0..n as usize), 0..3),
    )
        .prop_map(|(mut v, mixes)| {
            for (i, j) in mixes {
                if i != j {
                    v[i] ^= v[j];
                }
            }
            v
        })
}

/// A random distributed layout of a `2^a × 2^b` tensor: 32 lanes, `w` warp bits, registers for the rest,
/// with zero (broadcast) bases where the tensor is too small or by chance.
fn distributed(a: u32, b: u32, w: usize) -> impl Strategy<Value = LinearLayout> {
    distributed_lanes(a, b, 5, w)
}

/// As [`distributed`] with `2^lane_bits` lanes per warp.
fn distributed_lanes(
    a: u32,
    b: u32,
    lane_bits: usize,
    w: usize,
) -> impl Strategy<Value = LinearLayout> {
    let n = a + b;
    (basis(n), any::<u64>(), 0usize..2).prop_map(move |(bs, seed, extra)| {
        let nonreg = lane_bits + w;
        let nreg = (n as usize).saturating_sub(nonreg) + extra;
        let slots = nreg + nonreg;
        // Choose which slots hold the basis vectors (n of them), deterministically from the seed.
        let mut order: Vec<usize> = (0..slots).collect();
        let mut s = seed;
        for i in (1..slots).rev() {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let mut cols = vec![0u64; slots];
        for (k, &slot) in order.iter().take(n as usize).enumerate() {
            cols[slot] = bs[k];
        }
        layout2d(
            a,
            b,
            &cols[..nreg],
            &cols[nreg..nreg + 5],
            &cols[nreg + 5..],
        )
    })
}

fn pair() -> impl Strategy<Value = (LinearLayout, LinearLayout, u32)> {
    (3u32..6, 3u32..6, 0usize..3).prop_flat_map(|(a, b, w)| {
        (
            distributed(a, b, w),
            distributed(a, b, w),
            prop::sample::select(vec![8u32, 16, 32, 64]),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/convert_plans.txt"))), ..ProptestConfig::default() })]

    /// The closed-form bank-conflict count equals the brute-force wavefront count.
    #[test]
    fn bank_conflict_formula_matches_simulator(
        (reg, bits, off) in (3u32..6, 3u32..6).prop_flat_map(|(a, b)| {
            (distributed(a, b, 2), prop::sample::select(vec![8u32, 16, 32, 64]), basis(a + b).prop_map(move |o| (a, b, o)))
        })
    ) {
        let (a, b, offset) = off;
        let shared = shared2d(a, b, &offset);
        let d = bank_conflicts_detail(&reg, &shared, bits).unwrap();
        let sim = simulate_shared_access(&reg, &shared, bits, d.vector).unwrap();
        prop_assert_eq!(sim.conflicts_per_phase(), Some(d.conflicts), "{:?} {:?}", reg, shared);
    }

    /// Every plan, executed on the host, reproduces the destination layout.
    #[test]
    fn plans_reproduce_destination((src, dst, bits) in pair()) {
        for target in [Target::SM80, Target::SM90] {
            let plan = plan_conversion(&src, &dst, bits, target).unwrap();
            plan.verify().unwrap();
            if let Some(s) = &plan.shared { execute_shared_plan(s).unwrap(); }
            if let Some(s) = &plan.shuffle { execute_shuffle_plan(s).unwrap(); }
        }
    }

    /// Wave64 (AMD gfx942): plans execute with 64 lanes per warp.
    #[test]
    fn wave64_plans_reproduce_destination(
        (src, dst, bits) in (3u32..6, 3u32..6, 0usize..2).prop_flat_map(|(a, b, w)| {
            (distributed_lanes(a, b, 6, w), distributed_lanes(a, b, 6, w), prop::sample::select(vec![8u32, 16, 32]))
        })
    ) {
        let plan = plan_conversion(&src, &dst, bits, Target::GFX942).unwrap();
        plan.verify().unwrap();
        if let Some(s) = &plan.shuffle { execute_shuffle_plan(s).unwrap(); }
        if let Some(s) = &plan.shared { execute_shared_plan(s).unwrap(); }
    }

    /// The chosen plan is never costlier than any alternative, and where Triton would shuffle weft needs
    /// no more shuffles than Triton's bound (R 32-bit registers after Triton's packing).
    #[test]
    fn chosen_plan_is_cheapest((src, dst, bits) in pair()) {
        let plan = plan_conversion(&src, &dst, bits, Target::SM90).unwrap();
        prop_assert!(plan.alternatives.iter().all(|a| plan.cost <= a.1));
        // (Where Triton reads a source broadcast across warps within each warp, weft plans shared memory.)
        if plan.triton_kind == ConversionKind::WarpShuffle && !plan.classification.reads_broadcast_copies {
            let s = plan.shuffle.as_ref().unwrap();
            // Triton: R = 32-bit registers after packing nPack = min(log2(32/bits) ≤ 2, regs − m) low bits.
            let nonzero = |l: &LinearLayout| l.bases("register").unwrap().iter().filter(|b| b.iter().any(|&x| x != 0)).count() as u32;
            let n_reg = nonzero(&src).max(nonzero(&dst));
            let m = plan.classification.mixed_transpositions.unwrap() as u32;
            let pack = match bits { 8 => 2, 16 => 1, _ => 0 }.min(n_reg.saturating_sub(m));
            let regs = (1u64 << (n_reg - pack)) * (bits as u64).div_ceil(32);
            // Triton's lowerings use at most R shuffles (R/2 for a bare transposition, see the unit tests).
            let triton_shuffles = regs;
            prop_assert!(s.shuffles as u64 <= triton_shuffles.max(1), "{} > {}", s.shuffles, triton_shuffles);
        }
    }

    /// Every shared plan is valid, whatever the level, and a warp-local pair always gets a shuffle plan
    /// (unless warp-local only by reading broadcast copies, which weft's shuffle plans do not do).
    #[test]
    fn shared_plans_always_execute((src, dst, bits) in pair()) {
        let p = plan_shared(&src, &dst, bits, Target::SM90).unwrap();
        execute_shared_plan(&p).unwrap();
        let c = classify(&src, &dst).unwrap();
        if c.level == Level::Lane && !c.reads_broadcast_copies {
            let s = plan_shuffle(&src, &dst, bits).unwrap();
            execute_shuffle_plan(&s).unwrap();
        }
    }
}

/// MMA v2 accumulator tile for a 16×16 f32 tensor, one warp: the layout of the issue text.
fn mma_v2_16x16() -> LinearLayout {
    LinearLayout::from_bases(
        [
            ("register", vec![vec![0, 1], vec![8, 0], vec![0, 8]]),
            (
                "lane",
                vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0]],
            ),
            ("warp", vec![]),
            ("block", vec![]),
        ],
        [("dim0", 16), ("dim1", 16)],
        true,
    )
    .unwrap()
}

/// Blocked sizePerThread [1, 8], threadsPerWarp [16, 2] wait: [8, 4], order [1, 0], one warp, 16×16... as bases.
fn blocked_16x16() -> LinearLayout {
    LinearLayout::from_bases(
        [
            ("register", vec![vec![0, 1], vec![0, 2], vec![8, 0]]),
            (
                "lane",
                vec![vec![0, 4], vec![0, 8], vec![1, 0], vec![2, 0], vec![4, 0]],
            ),
            ("warp", vec![]),
            ("block", vec![]),
        ],
        [("dim0", 16), ("dim1", 16)],
        true,
    )
    .unwrap()
}

#[test]
fn mma_to_blocked_is_warp_local_and_executes() {
    let src = mma_v2_16x16();
    let dst = blocked_16x16();
    let plan = plan_conversion(&src, &dst, 16, Target::SM80).unwrap();
    assert_eq!(plan.classification.level, Level::Lane);
    plan.verify().unwrap();
    let s = plan
        .shuffle
        .as_ref()
        .expect("a warp-local conversion gets a shuffle plan");
    execute_shuffle_plan(s).unwrap();
}

/// The JSON names the kind and the numbers of design.md.
#[cfg(feature = "serde")]
#[test]
fn mma_to_blocked_json_names_the_kind_and_the_numbers() {
    let plan = plan_conversion(&mma_v2_16x16(), &blocked_16x16(), 16, Target::SM80).unwrap();
    let j = plan.to_json();
    assert!(j.starts_with(&format!("{{\"kind\": \"{}\"", plan.kind)));
    assert!(
        j.contains("\"scratch_bytes\"")
            && j.contains("\"shuffles\"")
            && j.contains("\"bank_conflicts\"")
    );
}

#[test]
fn single_transposition_costs_half_the_registers_in_shuffles() {
    // register bit 0 <-> lane bit 0 on a 4-register, 32-lane, 32-bit tile.
    let src = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
    let dst = layout2d(3, 5, &[8, 2, 4], &[1, 16, 32, 64, 128], &[]);
    let c = classify(&src, &dst).unwrap();
    assert_eq!(c.mixed_transpositions, Some(1));
    assert_eq!(c.triton_kind(), ConversionKind::WarpShuffle);
    let p = plan_shuffle(&src, &dst, 32).unwrap();
    execute_shuffle_plan(&p).unwrap();
    // 8 registers: Triton's ship lowering uses R/2 = 4 shuffles and 1.5 R = 12 selects.
    assert_eq!(p.shuffles, 4);
    assert!(
        p.instructions() <= 4 + 12,
        "{} instructions",
        p.instructions()
    );
}

#[test]
fn lane_permutation_costs_one_shuffle_per_register_and_packs_halves() {
    let src = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
    let dst = layout2d(3, 5, &[1, 2, 4], &[16, 8, 32, 64, 128], &[]);
    let p32 = plan_shuffle(&src, &dst, 32).unwrap();
    assert_eq!((p32.shuffles, p32.selects), (8, 0));
    let p16 = plan_shuffle(&src, &dst, 16).unwrap();
    assert_eq!((p16.shuffles, p16.elements_per_word), (4, 2));
    execute_shuffle_plan(&p16).unwrap();
    let p8 = plan_shuffle(&src, &dst, 8).unwrap();
    assert_eq!((p8.shuffles, p8.elements_per_word), (2, 4));
    execute_shuffle_plan(&p8).unwrap();
}

#[test]
fn register_only_and_noop() {
    let a = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
    let b = layout2d(3, 5, &[2, 1, 4], &[8, 16, 32, 64, 128], &[]);
    assert_eq!(
        plan_conversion(&a, &a, 16, Target::SM80).unwrap().kind,
        ConversionKind::Noop
    );
    let p = plan_conversion(&a, &b, 16, Target::SM80).unwrap();
    assert_eq!(p.kind, ConversionKind::RegisterPermute);
    assert_eq!(p.scratch_bytes(), 0);
}

/// Triton's blocked layout for a 2-D shape (broadcast where the tile is larger, registers wrap where smaller).
fn blocked(
    spt: [u64; 2],
    tpw: [u64; 2],
    wpc: [u64; 2],
    order: [usize; 2],
    shape: [u64; 2],
) -> LinearLayout {
    let mut covered = [1u64, 1];
    let step = |counts: [u64; 2], covered: &mut [u64; 2]| -> Vec<Vec<u64>> {
        let mut bases = Vec::new();
        for &d in &order {
            let mut n = counts[d];
            while n > 1 {
                let mut b = vec![0, 0];
                if covered[d] < shape[d] {
                    b[d] = covered[d];
                }
                covered[d] *= 2;
                bases.push(b);
                n /= 2;
            }
        }
        bases
    };
    let mut reg = step(spt, &mut covered);
    let lane = step(tpw, &mut covered);
    let warp = step(wpc, &mut covered);
    for &d in &order {
        while covered[d] < shape[d] {
            let mut b = vec![0, 0];
            b[d] = covered[d];
            reg.push(b);
            covered[d] *= 2;
        }
    }
    LinearLayout::from_bases(
        [
            ("register", reg),
            ("lane", lane),
            ("warp", warp),
            ("block", vec![]),
        ],
        [("dim0", shape[0]), ("dim1", shape[1])],
        true,
    )
    .unwrap()
}

#[test]
fn transpose_across_warps_goes_through_shared_memory() {
    // 64x64 f16, 4 warps: row-major blocked to column-major blocked.
    let src = blocked([1, 8], [4, 8], [4, 1], [1, 0], [64, 64]);
    let dst = blocked([8, 1], [8, 4], [1, 4], [0, 1], [64, 64]);
    let p = plan_conversion(&src, &dst, 16, Target::SM90).unwrap();
    assert_eq!(p.kind, ConversionKind::SharedMemory);
    assert_eq!(p.triton_kind, ConversionKind::SharedMemory);
    p.verify().unwrap();
    let s = p.shared.as_ref().unwrap();
    // 8 f16 per thread contiguous on each side: 128-bit stores and loads, conflict-free.
    assert_eq!((s.store_vector, s.load_vector), (8, 8));
    assert_eq!((s.read_conflicts, s.write_conflicts), (0, 0));
    assert!(s.scratch_bytes <= 64 * 64 * 2);
    println!("{p}");
}

#[test]
fn bad_input_is_an_error() {
    let a = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
    let b = layout2d(5, 3, &[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
    assert!(plan_conversion(&a, &b, 16, Target::SM80).is_err());
    assert!(plan_conversion(&a, &a, 0, Target::SM80).is_err());
    assert!(Target::parse("sm_8x").is_err());
    assert_eq!(Target::parse("sm_90a").unwrap(), Target::SM90A);
}

/// Arbitrary layouts (not surjective, zero or repeated bases, odd dims) and parameters: every public
/// planning function answers with a value or a typed error, never a panic.
mod no_panic {
    use super::*;
    use weft::layout::convert::{bank_conflicts, minimal_conversion};

    fn arbitrary() -> impl Strategy<Value = Option<LinearLayout>> {
        (
            prop::collection::vec(0u64..64, 0..4),
            prop::collection::vec(0u64..64, 0..6),
            prop::collection::vec(0u64..64, 0..3),
            any::<bool>(),
        )
            .prop_map(|(r, l, w, offset)| {
                let split = |v: &[u64]| -> Vec<Vec<u64>> {
                    v.iter().map(|&x| vec![x & 7, x >> 3]).collect()
                };
                if offset {
                    LinearLayout::from_bases(
                        [(
                            "offset",
                            split(&r.iter().chain(&l).copied().collect::<Vec<_>>()),
                        )],
                        [("dim0", 8u64), ("dim1", 8)],
                        false,
                    )
                    .ok()
                } else {
                    LinearLayout::from_bases(
                        [
                            ("register", split(&r)),
                            ("lane", split(&l)),
                            ("warp", split(&w)),
                        ],
                        [("dim0", 8u64), ("dim1", 8)],
                        false,
                    )
                    .ok()
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/convert_plans.txt"))), ..ProptestConfig::default() })]
        #[test]
        fn never_panics(a in arbitrary(), b in arbitrary(), bits in 0u32..140, amd in any::<bool>()) {
            let (Some(a), Some(b)) = (a, b) else { return Ok(()) };
            let target = if amd { Target::GFX942 } else { Target::SM80 };
            let _ = minimal_conversion(&a, &b);
            let _ = classify(&a, &b);
            if let Ok(p) = plan_conversion(&a, &b, bits, target) {
                let _ = p.verify();
                #[cfg(feature = "serde")]
                let _ = p.to_json();
                let _ = p.to_string();
            }
            if let Ok(p) = plan_shuffle(&a, &b, bits) {
                let _ = execute_shuffle_plan(&p);
            }
            if let Ok(p) = plan_shared(&a, &b, bits, target) {
                let _ = execute_shared_plan(&p);
            }
            let _ = bank_conflicts(&a, &b, bits);
            let _ = simulate_shared_access(&a, &b, bits, 1 << (bits % 4));
        }
    }
}

#[test]
fn costs_order_the_kinds() {
    // One register/lane transposition: shuffling half the registers beats a shared-memory round trip.
    let src = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
    let dst = layout2d(3, 5, &[8, 2, 4], &[1, 16, 32, 64, 128], &[]);
    let p = plan_conversion(&src, &dst, 32, Target::SM80).unwrap();
    assert_eq!(p.kind, ConversionKind::WarpShuffle);
    let shared = p
        .alternatives
        .iter()
        .find(|a| a.0 == ConversionKind::SharedMemory)
        .unwrap()
        .1;
    assert!(p.cost < shared, "{:?}", p.alternatives);
    // Across warps only shared memory remains, and it costs more than nothing.
    let a = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 64], &[128]);
    let b = layout2d(3, 5, &[1, 2, 4], &[8, 16, 32, 128], &[64]);
    let q = plan_conversion(&a, &b, 32, Target::SM80).unwrap();
    assert_eq!(q.kind, ConversionKind::SharedMemory);
    assert!(q.cost.cycles > 0 && q.scratch_bytes() > 0);
    q.verify().unwrap();
    // A cross-CTA conversion is costlier than that round trip.
    let c = weft::layout::convert::cross_cta_cost(8);
    assert!(c > q.cost);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/convert_plans.txt"))), ..ProptestConfig::default() })]

    /// The bank conflicts a shared plan reports for its plain stores and loads are those the brute-force
    /// simulator counts on the plan's own scratch layout, at the plan's vector widths.
    #[test]
    fn shared_plan_conflicts_match_simulation((src, dst, bits) in pair()) {
        use weft::layout::convert::Instruction;
        let p = plan_shared(&src, &dst, bits, Target::SM80).unwrap();
        let total = p.layout.total_in_size();
        let scratch = p.layout.reshape_ins(&[("offset", total)]).unwrap();
        if p.store_instruction == Instruction::LdSt {
            let sim = simulate_shared_access(&src, &scratch, p.element_bits, p.store_vector).unwrap();
            prop_assert_eq!(sim.conflicts_per_phase(), Some(p.write_conflicts));
        }
        if p.load_instruction == Instruction::LdSt {
            let sim = simulate_shared_access(&dst, &scratch, p.element_bits, p.load_vector).unwrap();
            prop_assert_eq!(sim.conflicts_per_phase(), Some(p.read_conflicts));
        }
    }
}
