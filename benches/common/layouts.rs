//! The layouts the layout benches share (`benches/layout.rs`, `benches/layout_min.rs`).

use weft::layout::{Dim, LinearLayout};

/// An MMA-like invertible layout: 16 input bits (register 4, lane 5, warp 4, block 3) onto 256 × 256,
/// with a swizzle-like non-unit basis so solves do real elimination.
pub fn mma_like(names: [&str; 4]) -> LinearLayout {
    let u = |d0: u64, d1: u64| vec![d0, d1];
    LinearLayout::from_bases(
        [
            (names[0], vec![u(0, 1), u(8, 0), u(0, 8), u(0, 16)]),
            (names[1], vec![u(0, 2), u(0, 4), u(1, 0), u(2, 0), u(4, 0)]),
            (names[2], vec![u(16, 0), u(32, 1), u(64, 0), u(128, 0)]),
            (names[3], vec![u(0, 32), u(0, 64), u(3, 128)]),
        ],
        [("dim0", 256), ("dim1", 256)],
        true,
    )
    .unwrap()
}

/// A shared-memory-like layout: `offset` (16 bits) onto the same 256 × 256 tile, XOR-swizzled.
pub fn shared_like() -> LinearLayout {
    let mut bases = Vec::new();
    for c in 0..8 {
        bases.push(vec![0, 1u64 << c]);
    }
    for r in 0..8 {
        bases.push(vec![1u64 << r, (1u64 << r) & 0xff]);
    }
    LinearLayout::from_bases([("offset", bases)], [("dim0", 256), ("dim1", 256)], true).unwrap()
}

/// Every operand the layout benches use, built once.
pub struct Workloads {
    /// `mma_like` over register, lane, warp, block.
    pub reg: LinearLayout,
    /// The same dims with other bases (`reg → reg` conversions).
    pub other: LinearLayout,
    /// `shared_like`, and its inverse (`compose` target).
    pub shared: LinearLayout,
    pub to_offset: LinearLayout,
    /// `reg` split into register × lane and warp × block (the product's factors).
    pub lo: LinearLayout,
    pub hi: LinearLayout,
    /// `reg`'s bases as Triton stores them, for the baseline `apply`.
    pub unpacked: Vec<Vec<u64>>,
}

impl Workloads {
    pub fn new() -> Workloads {
        let reg = mma_like(["register", "lane", "warp", "block"]);
        let other = mma_like(["block", "warp", "lane", "register"])
            .transpose_ins(&["register", "lane", "warp", "block"])
            .unwrap();
        let shared = shared_like();
        assert_eq!(reg.total_in_bits(), 16);
        assert!(reg.is_invertible() && shared.is_invertible());
        let to_offset = shared.invert().unwrap();
        let lo = reg
            .sublayout(&["register", "lane"], &["dim0", "dim1"])
            .unwrap();
        let hi = reg
            .sublayout(&["warp", "block"], &["dim0", "dim1"])
            .unwrap();
        let unpacked = reg.all_bases().into_iter().flat_map(|(_, b)| b).collect();
        Workloads {
            reg,
            other,
            shared,
            to_offset,
            lo,
            hi,
            unpacked,
        }
    }
}

/// The baseline: `apply` on Triton's representation and loop (one XOR per out dim per set bit).
pub fn apply_unpacked(bases: &[Vec<u64>], x: u64) -> [u64; 2] {
    let mut out = [0u64; 2];
    for (k, basis) in bases.iter().enumerate() {
        if x >> k & 1 == 1 {
            for (o, v) in out.iter_mut().zip(basis) {
                *o ^= v;
            }
        }
    }
    out
}

/// The named `apply` inputs, as text and as `Dim` keys.
pub const NAMED: [(&str, u64); 4] = [("register", 5), ("lane", 17), ("warp", 9), ("block", 3)];
pub const KEYED: [(Dim, u64); 4] = [
    (Dim::REGISTER, 5),
    (Dim::LANE, 17),
    (Dim::WARP, 9),
    (Dim::BLOCK, 3),
];
