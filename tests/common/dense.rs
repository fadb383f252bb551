//! A naive dense reference: a layout as the full table of its values, every operation by brute force.
//!
//! Nothing here uses weft's algebra beyond reading a layout's dims and bases, so agreement with weft checks
//! the packed implementation against the definitions.
#![allow(dead_code)]

use weft::layout::LinearLayout;

/// A layout as a table: `table[x]` lists the output values (one per out dim) of packed input `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dense {
    pub ins: Vec<(String, u32)>,
    pub outs: Vec<(String, u32)>,
    pub table: Vec<Vec<u64>>,
}

pub fn bits(dims: &[(String, u32)]) -> u32 {
    dims.iter().map(|d| d.1).sum()
}

/// Splits packed `x` into per-dim values (first dim lowest).
pub fn split(dims: &[(String, u32)], x: u64) -> Vec<u64> {
    let mut shift = 0;
    dims.iter()
        .map(|(_, b)| {
            let v = (x >> shift) & ((1u64 << b) - 1);
            shift += b;
            v
        })
        .collect()
}

/// Packs per-dim values (first dim lowest).
pub fn pack(dims: &[(String, u32)], values: &[u64]) -> u64 {
    let mut shift = 0;
    let mut x = 0;
    for ((_, b), v) in dims.iter().zip(values) {
        x |= v << shift;
        shift += b;
    }
    x
}

/// The value of dim `name` in `values` (0 if absent).
pub fn get(dims: &[(String, u32)], values: &[u64], name: &str) -> u64 {
    dims.iter()
        .position(|d| d.0 == name)
        .map_or(0, |i| values[i])
}

pub fn log2_of(dims: &[(String, u32)], name: &str) -> u32 {
    dims.iter().find(|d| d.0 == name).map_or(0, |d| d.1)
}

impl Dense {
    /// The table of `l`, computed from its bases by XOR.
    pub fn of(l: &LinearLayout) -> Dense {
        let ins: Vec<(String, u32)> = l
            .in_dims()
            .map(|(d, s)| (d.to_string(), s.trailing_zeros()))
            .collect();
        let outs: Vec<(String, u32)> = l
            .out_dims()
            .map(|(d, s)| (d.to_string(), s.trailing_zeros()))
            .collect();
        let bases: Vec<Vec<u64>> = l.all_bases().into_iter().flat_map(|(_, b)| b).collect();
        let n = bits(&ins);
        let table = (0..1u64 << n)
            .map(|x| {
                let mut v = vec![0u64; outs.len()];
                for (k, b) in bases.iter().enumerate() {
                    if x >> k & 1 == 1 {
                        for (a, c) in v.iter_mut().zip(b) {
                            *a ^= c;
                        }
                    }
                }
                v
            })
            .collect();
        Dense { ins, outs, table }
    }

    pub fn in_bits(&self) -> u32 {
        bits(&self.ins)
    }

    /// The value at per-dim inputs given by name (missing dims are 0).
    pub fn at(&self, named: &[(String, u64)]) -> Vec<u64> {
        let values: Vec<u64> = self
            .ins
            .iter()
            .map(|(n, _)| named.iter().find(|(m, _)| m == n).map_or(0, |p| p.1))
            .collect();
        self.table[pack(&self.ins, &values) as usize].clone()
    }

    /// Named outputs of packed input `x`.
    pub fn named(&self, x: u64) -> Vec<(String, u64)> {
        self.outs
            .iter()
            .map(|d| d.0.clone())
            .zip(self.table[x as usize].iter().copied())
            .collect()
    }

    /// Image of the unit input `e_k` (global input bit k).
    pub fn unit(&self, k: u32) -> Vec<u64> {
        self.table[1usize << k].clone()
    }

    pub fn is_injective(&self) -> bool {
        let mut seen = std::collections::HashSet::new();
        self.table.iter().all(|v| seen.insert(v.clone()))
    }

    pub fn image_size(&self) -> usize {
        self.table
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len()
    }

    pub fn is_surjective(&self) -> bool {
        self.image_size() as u64 == 1u64 << bits(&self.outs)
    }
}

/// `outer ∘ inner` by table lookup.
pub fn compose(inner: &Dense, outer: &Dense) -> Dense {
    let table = inner
        .table
        .iter()
        .map(|v| {
            let named: Vec<(String, u64)> = inner
                .outs
                .iter()
                .map(|d| d.0.clone())
                .zip(v.iter().copied())
                .collect();
            outer.at(&named)
        })
        .collect();
    Dense {
        ins: inner.ins.clone(),
        outs: outer.outs.clone(),
        table,
    }
}

/// The product's value at every input of the given product dims: inner on the low bits of each in dim,
/// outer on the high ones, outer's outputs shifted above inner's.
pub fn product(
    inner: &Dense,
    outer: &Dense,
    ins: &[(String, u32)],
    outs: &[(String, u32)],
) -> Dense {
    let table = (0..1u64 << bits(ins))
        .map(|x| {
            let v = split(ins, x);
            let mut vi = Vec::new();
            let mut vo = Vec::new();
            for ((name, _), val) in ins.iter().zip(&v) {
                let li = log2_of(&inner.ins, name);
                vi.push((name.clone(), val & ((1u64 << li) - 1)));
                vo.push((name.clone(), val >> li));
            }
            let ri = inner.at(&vi);
            let ro = outer.at(&vo);
            outs.iter()
                .map(|(name, _)| {
                    let a = get(&inner.outs, &ri, name);
                    let b = get(&outer.outs, &ro, name);
                    a | (b << log2_of(&inner.outs, name))
                })
                .collect()
        })
        .collect();
    Dense {
        ins: ins.to_vec(),
        outs: outs.to_vec(),
        table,
    }
}

/// Every vector reachable as an XOR of a subset of `vs` (brute force, 2^len subsets).
pub fn span(vs: &[u64]) -> std::collections::HashSet<u64> {
    (0..1u64 << vs.len())
        .map(|s| {
            (0..vs.len())
                .filter(|&i| s >> i & 1 == 1)
                .fold(0, |a, i| a ^ vs[i])
        })
        .collect()
}

/// Packs a list of per-out-dim values into one integer with `dims`' widths.
pub fn flat(dims: &[(String, u32)], v: &[u64]) -> u64 {
    pack(dims, v)
}
