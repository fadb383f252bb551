//! A layout's bit matrix as one table per 4 input bits, so that evaluating one packed input is one lookup
//! and XOR per nibble instead of one masked XOR per input bit: what `apply` on a single point spends its
//! arithmetic on. At most 16 tables of 16 words (2 KiB) per layout, made once on its first `apply`.

/// `tables[k][n]` is the XOR of the columns of input bits `4k .. 4k + 4` selected by the nibble `n`.
pub struct NibbleTables {
    tables: Vec<[u64; 16]>,
}

impl NibbleTables {
    /// The tables of the columns `cols` (column `i` is the image of input bit `i`).
    pub fn new(cols: &[u64]) -> NibbleTables {
        let tables = cols
            .chunks(4)
            .map(|group| {
                let mut t = [0u64; 16];
                for (n, slot) in t.iter_mut().enumerate() {
                    *slot = group
                        .iter()
                        .enumerate()
                        .filter(|(b, _)| n >> b & 1 == 1)
                        .fold(0, |acc, (_, &c)| acc ^ c);
                }
                t
            })
            .collect();
        NibbleTables { tables }
    }

    /// The XOR of the columns of `x`'s set bits; bits above the last column are ignored.
    #[inline]
    pub fn apply(&self, x: u64) -> u64 {
        self.tables
            .iter()
            .enumerate()
            .fold(0, |out, (k, t)| out ^ t[(x >> (4 * k) & 15) as usize])
    }
}
