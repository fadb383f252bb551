//! The [`LinearLayout`] type: storage, checked construction, accessors and evaluation.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{DimSide, LayoutError, Result};
use super::gf2;
use super::Dim;

/// Most bits a layout has on either side.
pub const MAX_BITS: u32 = 64;
/// Most bits one dimension has (its size must fit in a `u64`).
pub const MAX_DIM_BITS: u32 = 63;
/// Most dims a layout has on either side. Bits are capped at 64 but size-1 dims have none, so the number of
/// dims is capped too (as many as bits: every real layout has far fewer).
pub const MAX_DIMS: usize = 64;

/// A named dimension and its size as a power of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DimSpec {
    pub(crate) name: Dim,
    pub(crate) log2: u32,
}

/// A placeholder for fixed-size buffers (size 1 `register`); never part of a finished layout unless written.
impl Default for DimSpec {
    fn default() -> DimSpec {
        DimSpec {
            name: Dim::REGISTER,
            log2: 0,
        }
    }
}

/// A linear map over GF(2) from named input dims (hardware: `register`, `lane`, `warp`, `block`, or `offset`)
/// to named output dims (tensor: `dim0`, `dim1`, …).
///
/// Input bit i of a dim maps to a *basis vector*; any input maps to the XOR of the bases of its set bits. Dim
/// order is minor to major: it matters for products, reshapes and flattening.
///
/// Storage is a packed bit matrix: one `u64` column per input bit (input dims in order, low bit first), in
/// which output dim j occupies bits `shift_j .. shift_j + log2(size_j)` (output dims in order, the first
/// lowest). So `apply` is an XOR of columns and `compose` applies the outer layout to each column.
#[derive(PartialEq, Eq, Hash)]
pub struct LinearLayout {
    pub(crate) ins: SmallVec<[DimSpec; 4]>,
    pub(crate) outs: SmallVec<[DimSpec; 4]>,
    pub(crate) cols: SmallVec<[u64; 16]>,
}

/// Coordinates by named dim, as [`LinearLayout::apply`] returns them (inline up to four dims, as Triton's
/// `SmallVector`).
pub type Coords = SmallVec<[(Dim, u64); 4]>;

/// Bases of one input dim: `bases[i]` is the image of input `2^i`, one coordinate per output dim.
pub type Bases = Vec<Vec<u64>>;

pub(crate) fn log2_exact(size: u64, what: impl FnOnce() -> String) -> Result<u32> {
    if size == 0 || !size.is_power_of_two() {
        return Err(LayoutError::NotPowerOfTwo { what: what(), size });
    }
    Ok(size.trailing_zeros())
}

fn total_bits(specs: &[DimSpec]) -> u32 {
    specs.iter().map(|d| d.log2).sum()
}

fn check_specs(specs: &[DimSpec], side: DimSide) -> Result<()> {
    check_dim_count(specs.len(), side)?;
    for (i, d) in specs.iter().enumerate() {
        if specs[..i].iter().any(|e| e.name == d.name) {
            return Err(LayoutError::DuplicateDim { side, name: d.name });
        }
        if d.log2 > MAX_DIM_BITS {
            return Err(LayoutError::TooManyBits {
                what: format!("{side} dim `{}`", d.name),
                bits: d.log2,
                limit: MAX_DIM_BITS,
            });
        }
    }
    let bits = total_bits(specs);
    if bits > MAX_BITS {
        return Err(LayoutError::TooManyBits {
            what: format!("the {side} dims together"),
            bits,
            limit: MAX_BITS,
        });
    }
    Ok(())
}

/// Errs when `count` dims are more than [`MAX_DIMS`].
pub(crate) fn check_dim_count(count: usize, side: DimSide) -> Result<()> {
    if count > MAX_DIMS {
        return Err(LayoutError::TooManyDims {
            side,
            count,
            limit: MAX_DIMS,
        });
    }
    Ok(())
}

/// Where `name` is in `specs`, looking first at `likely` (lists usually share their order), by id.
#[inline]
pub(crate) fn position_of(specs: &[DimSpec], name: Dim, likely: usize) -> Option<usize> {
    match specs.get(likely) {
        Some(d) if d.name == name => Some(likely),
        _ => specs.iter().position(|d| d.name == name),
    }
}

/// Checks the dim lists of a layout under construction.
pub(crate) fn check_total(ins: &[DimSpec], outs: &[DimSpec]) -> Result<()> {
    check_specs(ins, DimSide::In)?;
    check_specs(outs, DimSide::Out)
}

#[inline]
pub(crate) fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The `log2` bits of `c` starting at bit `shift` (0 when `shift` is 64: a trailing size-1 dim).
#[inline]
pub(crate) fn bits_at(c: u64, shift: u32, log2: u32) -> u64 {
    c.checked_shr(shift).unwrap_or(0) & low_mask(log2)
}

/// The fields of a packed word, one per dim of `specs` (in order, the first lowest), with the dims' names.
pub(crate) fn named_fields(specs: &[DimSpec], word: u64) -> impl Iterator<Item = (Dim, u64)> + '_ {
    specs.iter().scan(0u32, move |shift, d| {
        let v = bits_at(word, *shift, d.log2);
        *shift += d.log2;
        Some((d.name, v))
    })
}

/// `v << shift`, 0 when `shift` is 64 (only ever with `v == 0`: a trailing size-1 dim).
#[inline]
pub(crate) fn place(v: u64, shift: u32) -> u64 {
    v.checked_shl(shift).unwrap_or(0)
}

impl LinearLayout {
    // ----- construction -------------------------------------------------------------------------------------

    /// Builds a layout from already packed columns. Callers guarantee the invariants (distinct names, sizes
    /// in range, every column inside the output bits).
    pub(crate) fn from_parts(
        ins: SmallVec<[DimSpec; 4]>,
        outs: SmallVec<[DimSpec; 4]>,
        cols: SmallVec<[u64; 16]>,
    ) -> LinearLayout {
        let l = LinearLayout { ins, outs, cols };
        l.debug_check_parts();
        l
    }

    /// In debug builds, checks what [`LinearLayout::from_parts`] callers guarantee: one column per input
    /// bit, every column inside the output bits.
    #[inline]
    pub(crate) fn debug_check_parts(&self) {
        debug_assert_eq!(self.cols.len() as u32, total_bits(&self.ins));
        debug_assert!(self
            .cols
            .iter()
            .all(|c| c & !low_mask(total_bits(&self.outs)) == 0));
    }

    /// The layout with no dims: the unit of the product `*`.
    pub fn empty() -> LinearLayout {
        LinearLayout {
            ins: SmallVec::new(),
            outs: SmallVec::new(),
            cols: SmallVec::new(),
        }
    }

    /// `L(x) = x` from `in_dim` to `out_dim`, both of `size`. Size 0 gives [`LinearLayout::empty`] (as Triton).
    pub fn identity_1d(
        size: u64,
        in_dim: impl Into<Dim>,
        out_dim: impl Into<Dim>,
    ) -> Result<LinearLayout> {
        if size == 0 {
            return Ok(LinearLayout::empty());
        }
        let log2 = log2_exact(size, || "identity_1d".into())?;
        Self::strided_log2(log2, 0, in_dim.into(), out_dim.into(), log2)
    }

    /// `L(x) = stride · x`: out size `stride · size`, surjective only when `stride` is 1.
    pub fn strided_1d(
        size: u64,
        stride: u64,
        in_dim: impl Into<Dim>,
        out_dim: impl Into<Dim>,
    ) -> Result<LinearLayout> {
        if size == 0 {
            return Ok(LinearLayout::empty());
        }
        let log2 = log2_exact(size, || "strided_1d size".into())?;
        let s = log2_exact(stride, || "strided_1d stride".into())?;
        Self::strided_log2(log2, s, in_dim.into(), out_dim.into(), log2 + s)
    }

    fn strided_log2(
        log2: u32,
        shift: u32,
        in_dim: Dim,
        out_dim: Dim,
        out_log2: u32,
    ) -> Result<LinearLayout> {
        let ins: SmallVec<[DimSpec; 4]> = smallvec::smallvec![DimSpec { name: in_dim, log2 }];
        let outs: SmallVec<[DimSpec; 4]> = smallvec::smallvec![DimSpec {
            name: out_dim,
            log2: out_log2
        }];
        check_specs(&ins, DimSide::In)?;
        check_specs(&outs, DimSide::Out)?;
        let cols = (0..log2).map(|i| 1u64 << (i + shift)).collect();
        Ok(LinearLayout { ins, outs, cols })
    }

    /// `L(x) = 0` (every input broadcast to element 0), with an out dim of `out_size` (use 1 for a
    /// surjective result).
    pub fn zeros_1d(
        size: u64,
        in_dim: impl Into<Dim>,
        out_dim: impl Into<Dim>,
        out_size: u64,
    ) -> Result<LinearLayout> {
        if size == 0 {
            return Ok(LinearLayout::empty());
        }
        let log2 = log2_exact(size, || "zeros_1d size".into())?;
        let out_log2 = log2_exact(out_size, || "zeros_1d out size".into())?;
        let ins: SmallVec<[DimSpec; 4]> = smallvec::smallvec![DimSpec {
            name: in_dim.into(),
            log2
        }];
        let outs: SmallVec<[DimSpec; 4]> = smallvec::smallvec![DimSpec {
            name: out_dim.into(),
            log2: out_log2
        }];
        check_specs(&ins, DimSide::In)?;
        check_specs(&outs, DimSide::Out)?;
        Ok(LinearLayout {
            ins,
            outs,
            cols: smallvec::smallvec![0; log2 as usize],
        })
    }

    /// Checked construction from bases with explicit out-dim sizes (Triton's constructor with `outDims`).
    ///
    /// `bases` lists the input dims in order; an input dim with `n` bases has size `2^n`. Every basis has one
    /// coordinate per out dim, each below that dim's size. With `require_surjective`, every output must be
    /// reached.
    pub fn from_bases<D: Into<Dim>, E: Into<Dim>>(
        bases: impl IntoIterator<Item = (D, Bases)>,
        out_dims: impl IntoIterator<Item = (E, u64)>,
        require_surjective: bool,
    ) -> Result<LinearLayout> {
        let mut outs: SmallVec<[DimSpec; 4]> = SmallVec::new();
        let mut out_dims = out_dims.into_iter();
        while let Some((name, size)) = out_dims.next() {
            if outs.len() == MAX_DIMS {
                // Counted without interning the rest of the names.
                check_dim_count(MAX_DIMS + 1 + out_dims.by_ref().count(), DimSide::Out)?;
            }
            let name = name.into();
            let log2 = log2_exact(size, || format!("out dim `{name}`"))?;
            outs.push(DimSpec { name, log2 });
        }
        check_specs(&outs, DimSide::Out)?;
        let sizes: Vec<u64> = outs.iter().map(|d| 1u64 << d.log2).collect();
        Self::from_bases_with(bases, outs, &sizes, require_surjective)
    }

    /// Checked construction from bases with out-dim sizes inferred: each out dim gets the smallest power of
    /// two above its largest coordinate, and the layout must be surjective (Triton's constructor with
    /// `outDimNames`).
    pub fn from_bases_inferred<D: Into<Dim>, E: Into<Dim>>(
        bases: impl IntoIterator<Item = (D, Bases)>,
        out_names: impl IntoIterator<Item = E>,
    ) -> Result<LinearLayout> {
        Self::from_bases_inferred_with(bases, out_names, true)
    }

    /// [`from_bases_inferred`](Self::from_bases_inferred) that checks surjectivity only when
    /// `require_surjective` (Triton's `LinearLayout(bases, outDimNames, requireSurjective)`).
    pub fn from_bases_inferred_with<D: Into<Dim>, E: Into<Dim>>(
        bases: impl IntoIterator<Item = (D, Bases)>,
        out_names: impl IntoIterator<Item = E>,
        require_surjective: bool,
    ) -> Result<LinearLayout> {
        let mut out_names = out_names.into_iter();
        let names: Vec<Dim> = out_names.by_ref().take(MAX_DIMS).map(Into::into).collect();
        check_dim_count(names.len() + out_names.count(), DimSide::Out)?;
        let mut rest = bases.into_iter();
        let bases: Vec<(Dim, Bases)> = rest
            .by_ref()
            .take(MAX_DIMS)
            .map(|(d, b)| (d.into(), b))
            .collect();
        check_dim_count(bases.len() + rest.count(), DimSide::In)?;
        let mut max = vec![0u64; names.len()];
        for (d, bs) in &bases {
            for (i, b) in bs.iter().enumerate() {
                if b.len() != names.len() {
                    return Err(LayoutError::BasisArity {
                        in_dim: *d,
                        index: i,
                        got: b.len(),
                        expected: names.len(),
                    });
                }
                for (m, &v) in max.iter_mut().zip(b) {
                    *m = (*m).max(v);
                }
            }
        }
        let mut outs: SmallVec<[DimSpec; 4]> = SmallVec::new();
        for (name, m) in names.into_iter().zip(&max) {
            let log2 = 64 - m.leading_zeros();
            outs.push(DimSpec { name, log2 });
        }
        check_specs(&outs, DimSide::Out)?;
        let sizes: Vec<u64> = outs.iter().map(|d| 1u64 << d.log2).collect();
        Self::from_bases_with(bases, outs, &sizes, require_surjective)
    }

    fn from_bases_with<D: Into<Dim>>(
        bases: impl IntoIterator<Item = (D, Bases)>,
        outs: SmallVec<[DimSpec; 4]>,
        sizes: &[u64],
        require_surjective: bool,
    ) -> Result<LinearLayout> {
        let mut ins: SmallVec<[DimSpec; 4]> = SmallVec::new();
        let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
        let mut bases = bases.into_iter();
        while let Some((name, bs)) = bases.next() {
            if ins.len() == MAX_DIMS {
                check_dim_count(MAX_DIMS + 1 + bases.by_ref().count(), DimSide::In)?;
            }
            let name = name.into();
            let log2 = u32::try_from(bs.len()).unwrap_or(u32::MAX);
            ins.push(DimSpec { name, log2 });
            check_specs(&ins, DimSide::In)?;
            for (i, b) in bs.iter().enumerate() {
                if b.len() != outs.len() {
                    return Err(LayoutError::BasisArity {
                        in_dim: name,
                        index: i,
                        got: b.len(),
                        expected: outs.len(),
                    });
                }
                let mut col = 0u64;
                let mut shift = 0;
                for ((o, &v), &size) in outs.iter().zip(b).zip(sizes) {
                    if v >= size {
                        return Err(LayoutError::BasisOutOfRange {
                            in_dim: name,
                            index: i,
                            out_dim: o.name,
                            value: v,
                            size,
                        });
                    }
                    col |= place(v, shift);
                    shift += o.log2;
                }
                cols.push(col);
            }
        }
        let l = LinearLayout { ins, outs, cols };
        if require_surjective && !l.is_surjective() {
            return Err(LayoutError::NotSurjective {
                rank: l.rank(),
                out_bits: l.total_out_bits(),
            });
        }
        Ok(l)
    }

    // ----- dims ---------------------------------------------------------------------------------------------

    pub(crate) fn in_index(&self, name: &str) -> Result<usize> {
        self.ins
            .iter()
            .position(|d| d.name == *name)
            .ok_or_else(|| LayoutError::UnknownDim {
                side: DimSide::In,
                name: Dim::new(name),
            })
    }

    pub(crate) fn out_index(&self, name: &str) -> Result<usize> {
        self.outs
            .iter()
            .position(|d| d.name == *name)
            .ok_or_else(|| LayoutError::UnknownDim {
                side: DimSide::Out,
                name: Dim::new(name),
            })
    }

    /// First column of input dim `i`.
    pub(crate) fn in_offset(&self, i: usize) -> usize {
        self.ins[..i].iter().map(|d| d.log2 as usize).sum()
    }

    /// Bit shift of output dim `j` inside a packed column.
    pub(crate) fn out_shift(&self, j: usize) -> u32 {
        self.outs[..j].iter().map(|d| d.log2).sum()
    }

    /// Input dim names, in order.
    pub fn in_dim_names(&self) -> impl DoubleEndedIterator<Item = &Dim> + ExactSizeIterator + '_ {
        self.ins.iter().map(|d| &d.name)
    }

    /// Output dim names, in order.
    pub fn out_dim_names(&self) -> impl DoubleEndedIterator<Item = &Dim> + ExactSizeIterator + '_ {
        self.outs.iter().map(|d| &d.name)
    }

    /// Input dims with their sizes, in order.
    pub fn in_dims(&self) -> impl DoubleEndedIterator<Item = (&Dim, u64)> + ExactSizeIterator + '_ {
        self.ins.iter().map(|d| (&d.name, 1u64 << d.log2))
    }

    /// Output dims with their sizes, in order.
    pub fn out_dims(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&Dim, u64)> + ExactSizeIterator + '_ {
        self.outs.iter().map(|d| (&d.name, 1u64 << d.log2))
    }

    /// Number of input dims.
    pub fn num_in_dims(&self) -> usize {
        self.ins.len()
    }

    /// Number of output dims.
    pub fn num_out_dims(&self) -> usize {
        self.outs.len()
    }

    /// Whether the layout has input dim `name`.
    pub fn has_in_dim(&self, name: &str) -> bool {
        self.ins.iter().any(|d| d.name == *name)
    }

    /// Whether the layout has output dim `name`.
    pub fn has_out_dim(&self, name: &str) -> bool {
        self.outs.iter().any(|d| d.name == *name)
    }

    /// log2 of the size of input dim `name`.
    pub fn in_dim_size_log2(&self, name: &str) -> Result<u32> {
        Ok(self.ins[self.in_index(name)?].log2)
    }

    /// Size of input dim `name`.
    pub fn in_dim_size(&self, name: &str) -> Result<u64> {
        Ok(1u64 << self.in_dim_size_log2(name)?)
    }

    /// log2 of the size of output dim `name`.
    pub fn out_dim_size_log2(&self, name: &str) -> Result<u32> {
        Ok(self.outs[self.out_index(name)?].log2)
    }

    /// Size of output dim `name`.
    pub fn out_dim_size(&self, name: &str) -> Result<u64> {
        Ok(1u64 << self.out_dim_size_log2(name)?)
    }

    /// Total input bits (log2 of the product of the input sizes).
    pub fn total_in_bits(&self) -> u32 {
        self.cols.len() as u32
    }

    /// Total output bits (log2 of the product of the output sizes).
    pub fn total_out_bits(&self) -> u32 {
        total_bits(&self.outs)
    }

    /// Product of the input sizes (saturates at `u64::MAX` for 64 bits).
    pub fn total_in_size(&self) -> u64 {
        1u64.checked_shl(self.total_in_bits()).unwrap_or(u64::MAX)
    }

    /// Product of the output sizes (saturates at `u64::MAX` for 64 bits).
    pub fn total_out_size(&self) -> u64 {
        1u64.checked_shl(self.total_out_bits()).unwrap_or(u64::MAX)
    }

    // ----- bases --------------------------------------------------------------------------------------------

    /// Splits a packed output column into one coordinate per output dim.
    pub(crate) fn unpack(&self, col: u64) -> SmallVec<[u64; 4]> {
        named_fields(&self.outs, col).map(|(_, v)| v).collect()
    }

    /// The image of input `2^bit` of `in_dim`: one coordinate per output dim.
    pub fn basis(&self, in_dim: &str, bit: u32) -> Result<SmallVec<[u64; 4]>> {
        let i = self.in_index(in_dim)?;
        if bit >= self.ins[i].log2 {
            return Err(LayoutError::ValueOutOfRange {
                dim: self.ins[i].name,
                value: 1u64 << bit.min(63),
                size: 1u64 << self.ins[i].log2,
            });
        }
        Ok(self.unpack(self.cols[self.in_offset(i) + bit as usize]))
    }

    /// One coordinate of a basis: the image of input `2^bit` of `in_dim` on `out_dim`.
    pub fn basis_component(&self, in_dim: &str, bit: u32, out_dim: &str) -> Result<u64> {
        let j = self.out_index(out_dim)?;
        Ok(self.basis(in_dim, bit)?[j])
    }

    /// All bases of `in_dim`.
    pub fn bases(&self, in_dim: &str) -> Result<Bases> {
        let i = self.in_index(in_dim)?;
        let off = self.in_offset(i);
        Ok(self.cols[off..off + self.ins[i].log2 as usize]
            .iter()
            .map(|&c| self.unpack(c).to_vec())
            .collect())
    }

    /// Every input dim with its bases, in order (the data of Triton's `getBases()`).
    pub fn all_bases(&self) -> Vec<(Dim, Bases)> {
        let mut off = 0;
        self.ins
            .iter()
            .map(|d| {
                let n = d.log2 as usize;
                let b = self.cols[off..off + n]
                    .iter()
                    .map(|&c| self.unpack(c).to_vec())
                    .collect();
                off += n;
                (d.name, b)
            })
            .collect()
    }

    /// The packed bit matrix: one `u64` column per input bit (input dims in order, low bits first); within a
    /// column output dim j occupies the bits after those of dims `0..j`.
    pub fn columns(&self) -> &[u64] {
        &self.cols
    }

    /// The bit matrix as rows, as Triton's `getMatrix`: one `u64` per output bit (output dims in order, low bit
    /// first), bit c of a row being input bit c.
    pub fn matrix_rows(&self) -> Vec<u64> {
        gf2::transpose(&self.cols, self.total_out_bits() as usize)
    }

    // ----- evaluation ---------------------------------------------------------------------------------------

    /// Evaluates the layout: XOR of the bases of every set input bit. Inputs may name dims in any order (as
    /// [`Dim`]s, which compare as integers, or as text); dims not named are 0. Returns one `(out dim, value)`
    /// pair per output dim, in order, without allocating for up to four out dims. For many evaluations,
    /// [`LinearLayout::pack_inputs`] and [`LinearLayout::apply_packed`] skip the name lookups.
    ///
    ///
    /// The coordinates are built inline, where the caller keeps them: a `Result<Coords>` returned from a
    /// call is moved out with wide loads of what narrow stores just wrote, which the CPU cannot forward
    /// (about 6 ns, as much as the rest of the call).
    #[inline(always)]
    pub fn apply<D: Clone + Into<Dim>>(&self, inputs: &[(D, u64)]) -> Result<Coords> {
        let out = gf2::mul_vec(&self.cols, self.pack_named(inputs)?);
        let outs = &self.outs[..];
        if outs.len() > 4 {
            return Ok(self.unpack_named(out));
        }
        // A fixed count of four entries (unused ones zero), so the buffer lives in registers and is written
        // once, straight into the result: a buffer filled in memory and then copied is read with wide loads
        // of narrow stores, which the CPU cannot forward.
        let mut shift = 0u32;
        let buf: [(Dim, u64); 4] = std::array::from_fn(|k| match outs.get(k) {
            Some(o) => {
                // `shift` is 64 only for a trailing size-1 dim, whose mask is 0; a dim has at most 63 bits,
                // so the mask needs no check for 64.
                let v = (out >> (shift & 63)) & !(u64::MAX << o.log2);
                shift += o.log2;
                (o.name, v)
            }
            None => (Dim::REGISTER, 0),
        });
        Ok(SmallVec::from_buf_and_len(buf, outs.len()))
    }

    /// [`LinearLayout::apply`]'s coordinates of a packed output word, for any number of out dims.
    #[inline(never)]
    fn unpack_named(&self, out: u64) -> Coords {
        named_fields(&self.outs, out).collect()
    }

    /// The packed input word of named inputs (see [`LinearLayout::apply`]).
    ///
    /// Inputs usually name the first dims in order: that case is one straight-line pass (names, ranges
    /// and packing checked together, branch-free); anything else takes the general path.
    #[inline(always)]
    fn pack_named<D: Clone + Into<Dim>>(&self, inputs: &[(D, u64)]) -> Result<u64> {
        if inputs.len() <= self.ins.len() {
            let (mut packed, mut shift, mut same, mut over) = (0u64, 0u32, true, 0u64);
            for ((name, value), d) in inputs.iter().zip(&self.ins) {
                same &= name.clone().into() == d.name;
                over |= value >> d.log2;
                // `shift` reaches 64 only past every bit, where the dim has size 1 and `value` must be 0.
                packed |= value << (shift & 63);
                shift += d.log2;
            }
            if same && over == 0 {
                return Ok(packed);
            }
        }
        self.pack_named_any(inputs)
    }

    /// [`LinearLayout::pack_named`] for inputs in any order (or failing).
    #[cold]
    #[inline(never)]
    fn pack_named_any<D: Clone + Into<Dim>>(&self, inputs: &[(D, u64)]) -> Result<u64> {
        let mut packed = 0u64;
        for (name, value) in inputs {
            let (i, shift) = self.in_position(name.clone().into())?;
            let d = &self.ins[i];
            if *value >> d.log2 != 0 {
                return Err(LayoutError::ValueOutOfRange {
                    dim: d.name,
                    value: *value,
                    size: 1u64 << d.log2,
                });
            }
            // A dim named twice adds its values (the map is linear), as two separate applications would.
            packed ^= *value << (shift & 63);
        }
        Ok(packed)
    }

    /// Evaluates the layout on packed inputs: bit c of `input` is input bit c (input dims in order, low bits
    /// first); the result packs the output dims the same way. Bits above the layout's inputs are ignored.
    #[inline]
    pub fn apply_packed(&self, input: u64) -> u64 {
        gf2::mul_vec(&self.cols, input)
    }

    /// Index and first packed bit of input dim `name`.
    #[inline(never)]
    fn in_position(&self, name: Dim) -> Result<(usize, u32)> {
        let mut shift = 0u32;
        for (i, d) in self.ins.iter().enumerate() {
            if d.name == name {
                return Ok((i, shift));
            }
            shift += d.log2;
        }
        Err(LayoutError::UnknownDim {
            side: DimSide::In,
            name,
        })
    }

    /// Packs per-dim input values (in input-dim order) into the word [`apply_packed`](Self::apply_packed)
    /// takes.
    pub fn pack_inputs(&self, values: &[u64]) -> Result<u64> {
        if values.len() != self.ins.len() {
            return Err(LayoutError::DimMismatch(format!(
                "{} input values for {} input dims",
                values.len(),
                self.ins.len()
            )));
        }
        let mut packed = 0u64;
        let mut shift = 0;
        for (d, &v) in self.ins.iter().zip(values) {
            if v >> d.log2 != 0 {
                return Err(LayoutError::ValueOutOfRange {
                    dim: d.name,
                    value: v,
                    size: 1u64 << d.log2,
                });
            }
            if shift < 64 {
                packed |= v << shift;
            }
            shift += d.log2;
        }
        Ok(packed)
    }

    /// Splits a packed output word into one value per output dim.
    pub fn unpack_outputs(&self, packed: u64) -> Vec<u64> {
        self.unpack(packed).to_vec()
    }

    // ----- properties ---------------------------------------------------------------------------------------

    /// GF(2) rank of the bit matrix.
    pub fn rank(&self) -> u32 {
        gf2::rank(&self.cols)
    }

    /// Every output is reached (rank = output bits).
    pub fn is_surjective(&self) -> bool {
        self.rank() == self.total_out_bits()
    }

    /// No two inputs map to the same output (rank = input bits).
    pub fn is_injective(&self) -> bool {
        self.rank() == self.total_in_bits()
    }

    /// Surjective with as many inputs as outputs.
    pub fn is_invertible(&self) -> bool {
        self.total_in_bits() == self.total_out_bits() && self.is_surjective()
    }

    /// Equal bases and output dim names, whatever the output sizes.
    pub fn equal_ignoring_out_dim_sizes(&self, other: &LinearLayout) -> bool {
        self.ins == other.ins
            && self.outs.len() == other.outs.len()
            && self
                .outs
                .iter()
                .zip(&other.outs)
                .all(|(a, b)| a.name == b.name)
            && self.all_bases() == other.all_bases()
    }
}

/// A copy of three plain arrays (`SmallVec`'s own `clone` goes element by element).
impl Clone for LinearLayout {
    fn clone(&self) -> LinearLayout {
        LinearLayout {
            ins: SmallVec::from_slice(&self.ins),
            outs: SmallVec::from_slice(&self.outs),
            cols: SmallVec::from_slice(&self.cols),
        }
    }
}

impl std::fmt::Debug for LinearLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LinearLayout {{")?;
        for (name, bases) in self.all_bases() {
            write!(f, " {name}: {bases:?};")?;
        }
        write!(f, " outs: [")?;
        for (i, (n, s)) in self.out_dims().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{n} ({s})")?;
        }
        write!(f, "] }}")
    }
}
