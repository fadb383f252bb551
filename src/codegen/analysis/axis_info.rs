//! What is known about the values of a tile along each of its dims, after Triton's axis analysis.
//!
//! For each tile dim `d` (all other coordinates fixed), the tile splits into aligned chunks of
//! `contiguity[d]` elements whose values step by one (one *element* for pointers), into aligned
//! chunks of `constancy[d]` equal elements, and the first value of every contiguity chunk is a
//! multiple of `divisibility[d]` (bytes for pointers). All three are powers of two. Memory ops
//! read them to pick vector widths; every rule below only ever under-states what holds.

use num_integer::Integer;
use smallvec::SmallVec;

/// The divisibility of zero, and the cap of every divisibility.
pub(crate) const MAX_DIV: u64 = 1 << 31;

/// The largest power of two dividing `v` (capped at [`MAX_DIV`]; zero gives the cap).
pub(crate) fn pow2_divisor(v: i64) -> u64 {
    if v == 0 {
        MAX_DIV
    } else {
        (1u64 << v.unsigned_abs().trailing_zeros()).min(MAX_DIV)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    a.gcd(&b)
}

/// Known facts about a value; rank 0 for scalars.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AxisInfo {
    /// Length of runs stepping by one, per dim.
    pub contiguity: SmallVec<[u64; 4]>,
    /// Power of two dividing the first value of each run, per dim.
    pub divisibility: SmallVec<[u64; 4]>,
    /// Length of runs of equal values, per dim.
    pub constancy: SmallVec<[u64; 4]>,
    /// Divisibility of a scalar (rank 0), or of every element when known.
    pub scalar_div: u64,
    /// The value, when every element holds the same known integer.
    pub constant: Option<i64>,
}

impl AxisInfo {
    /// Nothing known about a value of the given shape (or a scalar: `shape == []`).
    pub fn unknown(shape: &[u64]) -> AxisInfo {
        AxisInfo {
            contiguity: shape.iter().map(|_| 1).collect(),
            divisibility: shape.iter().map(|_| 1).collect(),
            constancy: shape.iter().map(|_| 1).collect(),
            scalar_div: 1,
            constant: None,
        }
    }

    /// A scalar known to be a multiple of `div`.
    pub fn scalar(div: u64) -> AxisInfo {
        AxisInfo {
            scalar_div: div.clamp(1, MAX_DIV),
            ..AxisInfo::unknown(&[])
        }
    }

    /// A known integer constant broadcast to `shape`.
    pub fn constant(value: i64, shape: &[u64]) -> AxisInfo {
        let div = pow2_divisor(value);
        AxisInfo {
            contiguity: shape.iter().map(|_| 1).collect(),
            divisibility: shape.iter().map(|_| div).collect(),
            constancy: shape.to_vec().into(),
            scalar_div: div,
            constant: Some(value),
        }
    }

    /// `start, start+1, …` along a 1-D tile of `size` elements.
    pub fn arange(start: i64, size: u64) -> AxisInfo {
        AxisInfo {
            contiguity: smallvec::smallvec![size],
            divisibility: smallvec::smallvec![pow2_divisor(start)],
            constancy: smallvec::smallvec![1],
            scalar_div: 1,
            constant: None,
        }
    }

    /// Tile rank (0 for scalars).
    pub fn rank(&self) -> usize {
        self.contiguity.len()
    }

    /// A power of two dividing *every* element (not only run starts).
    pub fn element_div(&self) -> u64 {
        if self.rank() == 0 {
            return self.scalar_div;
        }
        (0..self.rank())
            .map(|d| {
                if self.contiguity[d] > 1 {
                    1
                } else {
                    self.divisibility[d]
                }
            })
            .min()
            .unwrap_or(1)
    }

    /// The same facts for the value splat (or broadcast) to `shape`. A scalar becomes constant
    /// along every dim; a tile dim of size 1 becomes constant along its new size.
    pub fn broadcast_to(&self, from: &[u64], shape: &[u64]) -> AxisInfo {
        if self.rank() == 0 {
            let mut info = AxisInfo::unknown(shape);
            for (d, &size) in shape.iter().enumerate() {
                info.divisibility[d] = self.scalar_div;
                info.constancy[d] = size;
            }
            info.scalar_div = self.scalar_div;
            info.constant = self.constant;
            return info;
        }
        let mut info = self.clone();
        for d in 0..shape.len() {
            if from[d] == 1 && shape[d] != 1 {
                info.contiguity[d] = 1;
                info.divisibility[d] = self.element_div();
                info.constancy[d] = shape[d];
            }
        }
        info
    }

    /// `a + b` (or pointer `a` plus `b` elements of `elem_bytes` each; 1 for integers).
    pub fn add(a: &AxisInfo, b: &AxisInfo, elem_bytes: u64) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        for d in 0..a.rank() {
            r.contiguity[d] =
                gcd(a.contiguity[d], b.constancy[d]).max(gcd(a.constancy[d], b.contiguity[d]));
            r.divisibility[d] = gcd(
                a.divisibility[d],
                b.divisibility[d].saturating_mul(elem_bytes).min(MAX_DIV),
            );
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        r.scalar_div = gcd(
            a.scalar_div,
            b.scalar_div.saturating_mul(elem_bytes).min(MAX_DIV),
        );
        r.constant = match (a.constant, b.constant, elem_bytes) {
            (Some(x), Some(y), 1) => x.checked_add(y),
            _ => None,
        };
        r
    }

    /// `a - b`.
    pub fn sub(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::add(a, b, 1);
        for d in 0..a.rank() {
            r.contiguity[d] = gcd(a.contiguity[d], b.constancy[d]);
        }
        r.constant = match (a.constant, b.constant) {
            (Some(x), Some(y)) => x.checked_sub(y),
            _ => None,
        };
        r
    }

    /// `a * b`.
    pub fn mul(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        let (ea, eb) = (a.element_div(), b.element_div());
        for d in 0..a.rank() {
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
            r.contiguity[d] = match (a.constant, b.constant) {
                (_, Some(1)) => a.contiguity[d],
                (Some(1), _) => b.contiguity[d],
                _ => 1,
            };
            r.divisibility[d] = if r.contiguity[d] > 1 {
                gcd(a.divisibility[d], b.divisibility[d])
            } else {
                let ad = if a.contiguity[d] > 1 {
                    ea
                } else {
                    a.divisibility[d]
                };
                let bd = if b.contiguity[d] > 1 {
                    eb
                } else {
                    b.divisibility[d]
                };
                ad.saturating_mul(bd).min(MAX_DIV)
            };
        }
        r.scalar_div = ea.saturating_mul(eb).min(MAX_DIV);
        r.constant = match (a.constant, b.constant) {
            (Some(x), Some(y)) => x.checked_mul(y),
            _ => None,
        };
        if r.constant == Some(0) {
            return AxisInfo::constant(0, &vec![1; a.rank()]).with_constancy(&r.constancy);
        }
        r
    }

    /// `a / b` (integer).
    pub fn div(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        for d in 0..a.rank() {
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
            if let Some(c) = b
                .constant
                .filter(|c| *c > 0 && (*c as u64).is_power_of_two())
            {
                // An aligned run of `c` consecutive values has one quotient.
                let run = gcd(gcd(a.contiguity[d], c as u64), a.divisibility[d]);
                r.constancy[d] = r.constancy[d].max(gcd(run, b.constancy[d]));
                if a.contiguity[d] == 1 && a.divisibility[d] >= c as u64 {
                    r.divisibility[d] = a.divisibility[d] / c as u64;
                }
            }
        }
        r.constant = match (a.constant, b.constant) {
            (Some(x), Some(y)) if y != 0 => x.checked_div(y),
            _ => None,
        };
        r
    }

    /// `a % b` (integer).
    pub fn rem(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        for d in 0..a.rank() {
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
            if let Some(c) = b
                .constant
                .filter(|c| *c > 0 && (*c as u64).is_power_of_two())
            {
                let c = c as u64;
                r.contiguity[d] = gcd(gcd(a.contiguity[d], c), a.divisibility[d]);
                r.divisibility[d] = gcd(a.divisibility[d], c);
            }
        }
        r.constant = match (a.constant, b.constant) {
            (Some(x), Some(y)) if y != 0 => x.checked_rem(y),
            _ => None,
        };
        r
    }

    /// Any elementwise op whose result is constant where both inputs are (and, or, min, …).
    pub fn meet_constancy(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        for d in 0..a.rank() {
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        r
    }

    /// A unary op that keeps runs of equal values (casts, math).
    pub fn keep_constancy(a: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        r.constancy = a.constancy.clone();
        r
    }

    /// `a < b`, `a <= b`, `a > b`, `a >= b`: a run of `a` that starts at a multiple of `g` and
    /// stays below the next multiple of `g` compares the same against a multiple of `g`.
    pub fn ordered_compare(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::meet_constancy(a, b);
        for d in 0..a.rank() {
            let run = gcd(gcd(a.contiguity[d], a.divisibility[d]), b.divisibility[d]);
            r.constancy[d] = r.constancy[d].max(gcd(run, b.constancy[d]));
        }
        r
    }

    /// `select(c, x, y)`.
    pub fn select(c: &AxisInfo, x: &AxisInfo, y: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; c.rank()]);
        for d in 0..c.rank() {
            r.constancy[d] = gcd(c.constancy[d], gcd(x.constancy[d], y.constancy[d]));
            r.contiguity[d] = gcd(c.constancy[d], gcd(x.contiguity[d], y.contiguity[d]));
            r.divisibility[d] = gcd(x.divisibility[d], y.divisibility[d]);
        }
        r.scalar_div = gcd(x.scalar_div, y.scalar_div);
        r
    }

    /// The facts both `a` and `b` satisfy (merging two branches).
    pub fn join(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::unknown(&vec![1; a.rank()]);
        for d in 0..a.rank() {
            r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
            r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        r.scalar_div = gcd(a.scalar_div, b.scalar_div);
        r.constant = if a.constant == b.constant {
            a.constant
        } else {
            None
        };
        r
    }

    /// Whether every fact of `other` follows from `self` (all quantities are powers of two, so a
    /// larger one implies a smaller one).
    pub fn implies(&self, other: &AxisInfo) -> bool {
        let ge = |a: &[u64], b: &[u64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x >= y);
        ge(&self.contiguity, &other.contiguity)
            && ge(&self.divisibility, &other.divisibility)
            && ge(&self.constancy, &other.constancy)
            && self.scalar_div >= other.scalar_div
            && (other.constant.is_none() || self.constant == other.constant)
    }

    /// Permutes the dims: result dim `i` is input dim `perm[i]`.
    pub fn permute(&self, perm: &[usize]) -> AxisInfo {
        AxisInfo {
            contiguity: perm.iter().map(|&p| self.contiguity[p]).collect(),
            divisibility: perm.iter().map(|&p| self.divisibility[p]).collect(),
            constancy: perm.iter().map(|&p| self.constancy[p]).collect(),
            scalar_div: self.scalar_div,
            constant: self.constant,
        }
    }

    /// A new dim of size 1 at `axis`.
    pub fn expand_dims(&self, axis: usize) -> AxisInfo {
        let mut r = self.clone();
        r.contiguity.insert(axis, 1);
        r.divisibility.insert(axis, self.element_div());
        r.constancy.insert(axis, 1);
        r
    }

    /// What survives any reshuffle of elements into `shape`: constants and every element's
    /// divisibility.
    pub fn reshuffled(&self, shape: &[u64]) -> AxisInfo {
        match self.constant {
            Some(c) => AxisInfo::constant(c, shape),
            None => {
                let mut r = AxisInfo::unknown(shape);
                let e = self.element_div();
                r.divisibility.iter_mut().for_each(|x| *x = e);
                r.scalar_div = e;
                r
            }
        }
    }

    fn with_constancy(mut self, constancy: &[u64]) -> AxisInfo {
        self.constancy = constancy.into();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Enumerates a 1-D tile described by `values` and checks that `info` only claims what holds.
    fn holds(values: &[i64], info: &AxisInfo) -> bool {
        let n = values.len();
        let (c, dv, k) = (
            info.contiguity[0] as usize,
            info.divisibility[0],
            info.constancy[0] as usize,
        );
        let contiguous = (0..n).step_by(c).all(|s| {
            (1..c).all(|j| values[s + j] == values[s] + j as i64)
                && values[s].rem_euclid(dv as i64) == 0
        });
        let constant = (0..n)
            .step_by(k)
            .all(|s| (0..k).all(|j| values[s + j] == values[s]));
        contiguous && constant
    }

    #[test]
    fn add_mul_rem_div_are_sound_on_small_tiles() {
        // Exhaustive over aranges with small starts and constants.
        for start in 0..8i64 {
            for c in 1..9i64 {
                let a: Vec<i64> = (0..16).map(|i| start + i).collect();
                let ia = AxisInfo::arange(start, 16);
                let ic = AxisInfo::constant(c, &[16]);
                let cases: [(Vec<i64>, AxisInfo); 5] = [
                    (
                        a.iter().map(|x| x + c).collect(),
                        AxisInfo::add(&ia, &ic, 1),
                    ),
                    (a.iter().map(|x| x * c).collect(), AxisInfo::mul(&ia, &ic)),
                    (a.iter().map(|x| x % c).collect(), AxisInfo::rem(&ia, &ic)),
                    (a.iter().map(|x| x / c).collect(), AxisInfo::div(&ia, &ic)),
                    (a.iter().map(|x| x - c).collect(), AxisInfo::sub(&ia, &ic)),
                ];
                for (i, (vals, info)) in cases.iter().enumerate() {
                    assert!(
                        holds(vals, info),
                        "case {i} start {start} c {c}: {info:?} on {vals:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn compare_against_aligned_bound_is_constant_in_runs() {
        let ia = AxisInfo::arange(0, 16);
        let n = AxisInfo::scalar(4).broadcast_to(&[], &[16]);
        let r = AxisInfo::ordered_compare(&ia, &n);
        assert_eq!(r.constancy[0], 4);
        // Check against every multiple of 4 as the bound.
        for bound in (0..20).step_by(4) {
            let vals: Vec<i64> = (0..16).map(|i| (i < bound) as i64).collect();
            let k = r.constancy[0] as usize;
            assert!((0..16)
                .step_by(k)
                .all(|s| (0..k).all(|j| vals[s + j] == vals[s])));
        }
    }

    #[test]
    fn pointer_add_scales_divisibility_by_element_size() {
        let p = AxisInfo::scalar(16).broadcast_to(&[], &[128]);
        let off = AxisInfo::arange(0, 128);
        let r = AxisInfo::add(&p, &off, 4);
        assert_eq!(
            (r.contiguity[0], r.divisibility[0], r.constancy[0]),
            (128, 16, 1)
        );
    }
}
