//! Tiles as the interpreter holds them: a shape and its elements in row-major order. The
//! layout does not change a tile's values; it says which threads hold each element, which the
//! sanitizers need ([`holders`]).

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::interp::num::Num;

/// A tile's values.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    /// Its shape.
    pub shape: Vec<u64>,
    /// Its elements, row-major.
    pub data: Vec<Num>,
}

impl Tile {
    /// A tile of `shape` filled with `x`.
    pub fn filled(shape: &[u64], x: Num) -> Tile {
        Tile {
            shape: shape.to_vec(),
            data: vec![x; shape.iter().product::<u64>() as usize],
        }
    }

    /// The coordinates of flat index `i`.
    pub fn coords(shape: &[u64], mut i: u64) -> Vec<u64> {
        let mut c = vec![0; shape.len()];
        for d in (0..shape.len()).rev() {
            c[d] = i % shape[d];
            i /= shape[d];
        }
        c
    }

    /// The flat index of `coords`.
    pub fn index(shape: &[u64], coords: &[u64]) -> u64 {
        coords
            .iter()
            .zip(shape)
            .fold(0, |acc, (&c, &s)| acc * s + c)
    }

    /// The tile broadcast to `shape` (size-1 dims repeated; equal rank).
    pub fn broadcast(&self, shape: &[u64]) -> Tile {
        if self.shape == shape {
            return self.clone();
        }
        let n: u64 = shape.iter().product();
        let data = (0..n)
            .map(|i| {
                let c = Tile::coords(shape, i);
                let src: Vec<u64> = c
                    .iter()
                    .zip(&self.shape)
                    .map(|(&x, &s)| if s == 1 { 0 } else { x })
                    .collect();
                self.data[Tile::index(&self.shape, &src) as usize]
            })
            .collect();
        Tile {
            shape: shape.to_vec(),
            data,
        }
    }
}

/// For each element (row-major), the threads (`lane + warp * threads_per_warp`) that hold it in
/// `layout`.
pub fn holders(layout: &TileLayout, threads_per_warp: u32) -> Vec<Vec<u32>> {
    let shape = &layout.shape;
    let n: u64 = shape.iter().product();
    let mut out = vec![Vec::new(); n as usize];
    let xor = |acc: &mut Vec<u64>, b: &Vec<u64>| {
        for (a, x) in acc.iter_mut().zip(b) {
            *a ^= x;
        }
    };
    let lanes = 1u32 << layout.lane.len();
    let warps = 1u32 << layout.warp.len();
    for w in 0..warps {
        for l in 0..lanes {
            let mut t = vec![0u64; shape.len()];
            for (bit, b) in layout.lane.iter().enumerate() {
                if l >> bit & 1 == 1 {
                    xor(&mut t, b);
                }
            }
            for (bit, b) in layout.warp.iter().enumerate() {
                if w >> bit & 1 == 1 {
                    xor(&mut t, b);
                }
            }
            for r in 0..1u64 << layout.reg.len() {
                let mut c = t.clone();
                for (bit, b) in layout.reg.iter().enumerate() {
                    if r >> bit & 1 == 1 {
                        xor(&mut c, b);
                    }
                }
                let thread = l + w * threads_per_warp;
                let e = &mut out[Tile::index(shape, &c) as usize];
                if !e.contains(&thread) {
                    e.push(thread);
                }
            }
        }
    }
    out
}
