//! The f64 host reference of the forward attention with grouped KV heads (GQA/MQA) and
//! variable-length batches, in the packed head-major layout the kernel takes (see
//! [`attention_kernel`](super::attention_kernel)'s docs), with FlashAttention's conventions:
//! bottom-right causal alignment, and O = 0, lse = +inf for a row that sees no key.

use super::super::{CodegenError, Result};

/// The shape of a packed batch: `cu_seqlens_q` / `cu_seqlens_k` (`[batch + 1]`, from 0,
/// non-decreasing), query heads, query heads per KV head, head dimension.
#[derive(Debug, Clone, Copy)]
pub struct VarlenShape<'a> {
    /// Cumulative query lengths.
    pub cu_seqlens_q: &'a [i32],
    /// Cumulative key lengths (as many sequences as `cu_seqlens_q`).
    pub cu_seqlens_k: &'a [i32],
    /// Query heads (a multiple of `kv_group`).
    pub heads_q: usize,
    /// Query heads per KV head.
    pub kv_group: usize,
    /// Head dimension.
    pub head_dim: usize,
}

/// The lengths of a checked [`VarlenShape`].
struct Lengths {
    /// `(len_q, len_k)` of each sequence.
    pairs: Vec<(usize, usize)>,
    total_q: usize,
    total_k: usize,
}

impl VarlenShape<'_> {
    /// The sequence lengths and the totals, or what is wrong with the shape.
    fn lengths(&self) -> Result<Lengths> {
        let bad = |reason: String| CodegenError::arg("attention_varlen_reference", reason);
        let (cq, ck) = (self.cu_seqlens_q, self.cu_seqlens_k);
        if cq.len() != ck.len() || cq.is_empty() {
            return Err(bad(format!(
                "cu_seqlens_q has {} entries, cu_seqlens_k {}: batch + 1 each",
                cq.len(),
                ck.len()
            )));
        }
        if self.kv_group == 0 || !self.heads_q.is_multiple_of(self.kv_group) {
            return Err(bad(format!(
                "kv_group {} does not divide heads_q {}",
                self.kv_group, self.heads_q
            )));
        }
        let span = |cu: &[i32], name: &str| -> Result<Vec<usize>> {
            if cu[0] != 0 || cu.windows(2).any(|w| w[1] < w[0]) {
                return Err(bad(format!("{name} {cu:?}: from 0, non-decreasing")));
            }
            Ok(cu.windows(2).map(|w| (w[1] - w[0]) as usize).collect())
        };
        let (lq, lk) = (span(cq, "cu_seqlens_q")?, span(ck, "cu_seqlens_k")?);
        let total = |cu: &[i32]| cu[cu.len() - 1] as usize;
        Ok(Lengths {
            pairs: lq.into_iter().zip(lk).collect(),
            total_q: total(cq),
            total_k: total(ck),
        })
    }
}

/// Attention on the host in f64 over a packed batch: `q` `[heads_q · total_q, d]`, `k`, `v`
/// `[heads_kv · total_k, d]` (values as f32; query head `h` reads KV head `h / kv_group`);
/// returns O `[heads_q · total_q, d]` and the log-sum-exp `[heads_q · total_q]` of
/// `q·kᵀ·scale`. Causal: query `i` sees keys `j ≤ i + len_k - len_q`. An error names a shape the
/// inputs do not have.
pub fn attention_varlen_reference(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    shape: &VarlenShape<'_>,
    scale: f64,
    causal: bool,
) -> Result<(Vec<f32>, Vec<f32>)> {
    let Lengths {
        pairs,
        total_q,
        total_k,
    } = shape.lengths()?;
    let (hq, d) = (shape.heads_q, shape.head_dim);
    let hkv = hq / shape.kv_group;
    let (nq, nkv) = (hq * total_q * d, hkv * total_k * d);
    if q.len() < nq || k.len() < nkv || v.len() < nkv {
        return Err(CodegenError::arg(
            "attention_varlen_reference",
            format!(
                "q, k, v have {}, {}, {} values: {nq}, {nkv}, {nkv} needed",
                q.len(),
                k.len(),
                v.len()
            ),
        ));
    }
    let mut o = vec![0f32; nq];
    let mut lse = vec![f32::INFINITY; hq * total_q];
    let mut s = Vec::new();
    for h in 0..hq {
        let (mut sq, mut sk) = (0usize, 0usize);
        for &(len_q, len_k) in &pairs {
            let (q0, k0) = (h * total_q + sq, (h / shape.kv_group) * total_k + sk);
            for i in 0..len_q {
                // Bottom-right: the last query row sees every key.
                let keys = if causal {
                    (i + len_k + 1).saturating_sub(len_q).min(len_k)
                } else {
                    len_k
                };
                if keys == 0 {
                    continue; // O stays 0, lse +inf.
                }
                let qi = &q[(q0 + i) * d..][..d];
                s.clear();
                s.extend((0..keys).map(|j| {
                    let kj = &k[(k0 + j) * d..][..d];
                    let dot: f64 = qi.iter().zip(kj).map(|(&a, &b)| a as f64 * b as f64).sum();
                    dot * scale
                }));
                let mx = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                s.iter_mut().for_each(|x| *x = (*x - mx).exp());
                let sum: f64 = s.iter().sum();
                for t in 0..d {
                    let acc: f64 = (0..keys)
                        .map(|j| s[j] * f64::from(v[(k0 + j) * d + t]))
                        .sum();
                    o[(q0 + i) * d + t] = (acc / sum) as f32;
                }
                lse[q0 + i] = (mx + sum.ln()) as f32;
            }
            sq += len_q;
            sk += len_k;
        }
    }
    Ok((o, lse))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One sequence, one head, d = 1: the softmax weights of the visible keys, by hand.
    #[test]
    fn bottom_right_causal_and_empty_rows() {
        // 3 queries, 2 keys: query 0 sees none, query 1 key 0, query 2 both.
        let shape = VarlenShape {
            cu_seqlens_q: &[0, 3],
            cu_seqlens_k: &[0, 2],
            heads_q: 1,
            kv_group: 1,
            head_dim: 1,
        };
        let (q, k, v) = ([1.0, 1.0, 1.0], [0.0, (2f32).ln()], [10.0, 40.0]);
        let (o, lse) = attention_varlen_reference(&q, &k, &v, &shape, 1.0, true).unwrap();
        assert_eq!((o[0], lse[0]), (0.0, f32::INFINITY));
        assert_eq!((o[1], lse[1]), (10.0, 0.0));
        // Weights 1 and 2: (10 + 80) / 3; lse ln 3.
        assert!((o[2] - 30.0).abs() < 1e-5 && (lse[2] - 3f32.ln()).abs() < 1e-6);
        let (o, _) = attention_varlen_reference(&q, &k, &v, &shape, 1.0, false).unwrap();
        assert!(o.iter().all(|&x| (x - 30.0).abs() < 1e-5));
    }

    /// Two query heads on one KV head read the same keys; a second sequence reads its own.
    #[test]
    fn grouped_heads_and_sequences_read_their_own_keys() {
        let shape = VarlenShape {
            cu_seqlens_q: &[0, 1, 2],
            cu_seqlens_k: &[0, 1, 3],
            heads_q: 2,
            kv_group: 2,
            head_dim: 1,
        };
        // Q [2 heads · 2 tokens]; K, V [1 head · 3 tokens].
        let (q, k, v) = ([0.0; 4], [0.0; 3], [5.0, 7.0, 9.0]);
        let (o, _) = attention_varlen_reference(&q, &k, &v, &shape, 1.0, false).unwrap();
        assert_eq!(o, vec![5.0, 8.0, 5.0, 8.0]);
        let short = attention_varlen_reference(&q, &k[..2], &v, &shape, 1.0, false);
        assert!(short.unwrap_err().to_string().contains("needed"));
        let odd = VarlenShape {
            kv_group: 3,
            ..shape
        };
        let e = attention_varlen_reference(&q, &k, &v, &odd, 1.0, false).unwrap_err();
        assert!(e.to_string().contains("kv_group 3"), "{e}");
    }
}
