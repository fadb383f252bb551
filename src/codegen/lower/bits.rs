//! Bit arithmetic over GF(2) that conversions plan with: XORs of basis columns, their span,
//! and register indices scattered to and gathered from chosen bit positions.

use crate::codegen::analysis::tile_layout::TileLayout;

/// XOR of the columns selected by the bits of `x`.
pub(crate) fn xor_cols(cols: &[u64], x: u64) -> u64 {
    cols.iter()
        .enumerate()
        .filter(|(i, _)| x >> i & 1 == 1)
        .fold(0, |a, (_, c)| a ^ c)
}

/// Every XOR combination of `cols`, 0 first, each once.
pub(crate) fn span(cols: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64];
    for &c in cols {
        if c != 0 && !out.contains(&c) {
            let more: Vec<u64> = out.iter().map(|x| x ^ c).collect();
            out.extend(more);
        }
    }
    out
}

/// Places the bits of `x` at `positions` (bit `i` of `x` → bit `positions[i]`).
pub(crate) fn scatter(x: u64, positions: &[usize]) -> u64 {
    positions
        .iter()
        .enumerate()
        .fold(0, |a, (i, &p)| a | (x >> i & 1) << p)
}

/// Reads the bits of `x` at `positions` into bits 0, 1, ….
pub(crate) fn gather(x: u64, positions: &[usize]) -> u64 {
    positions
        .iter()
        .enumerate()
        .fold(0, |a, (i, &p)| a | (x >> p & 1) << i)
}

/// The register bits whose bases are not zero (the plans drop the others: they hold copies).
pub(crate) fn kept_regs(l: &TileLayout) -> Vec<usize> {
    (0..l.reg.len())
        .filter(|&i| l.reg[i].iter().any(|&x| x != 0))
        .collect()
}

/// The packed register bits (`side` picks the destination or source bit of each pair) of
/// packed element `q` of a word.
pub(crate) fn scatter_packed(
    q: u64,
    packed: &[(usize, usize)],
    side: impl Fn(&(usize, usize)) -> usize,
) -> u64 {
    packed
        .iter()
        .enumerate()
        .fold(0, |a, (b, pk)| a | (q >> b & 1) << side(pk))
}
