//! Configurations as named integer parameters, and their enumeration from a product of ranges with
//! pruning predicates (Triton's `configs` and `prune_configs_by`).

#![forbid(unsafe_code)]

use std::fmt;

use super::TuneError;

/// One configuration: named integer parameters, in the order their space declared them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Config {
    params: Vec<(String, i64)>,
}

impl Config {
    /// A configuration of `(name, value)` pairs, in order.
    pub fn new<S: Into<String>>(params: impl IntoIterator<Item = (S, i64)>) -> Config {
        Config {
            params: params.into_iter().map(|(n, v)| (n.into(), v)).collect(),
        }
    }

    /// The value of parameter `name`.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.params.iter().find(|(n, _)| n == name).map(|p| p.1)
    }

    /// The value of parameter `name` as a `u32`: `Err(BadSpace)` when it is missing or out of range
    /// (for builder functions, which take `u32` sizes).
    pub fn u32(&self, name: &str) -> Result<u32, TuneError> {
        let v = self.get(name).ok_or_else(|| TuneError::BadSpace {
            reason: format!("config {self} has no parameter `{name}`"),
        })?;
        u32::try_from(v).map_err(|_| TuneError::BadSpace {
            reason: format!("parameter `{name}` = {v} of config {self} is not a u32"),
        })
    }

    /// The parameters, in order.
    pub fn params(&self) -> &[(String, i64)] {
        &self.params
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (n, v)) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n}={v}")?;
        }
        Ok(())
    }
}

/// `block=1024, per_thread=4`: the label an autotuner reports and caches.
impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

type Keep = Box<dyn Fn(&Config) -> bool + Send + Sync>;

/// The product of parameter ranges, less the configurations a predicate rejects.
///
/// ```
/// # #[cfg(feature = "autotune")] {
/// use weft::runtime::autotune::ConfigSpace;
/// let configs = ConfigSpace::new()
///     .param("block", [1024, 2048, 4096])
///     .param("per_thread", [4, 8])
///     .param("num_warps", [4, 8])
///     // per_thread elements for each of 32 lanes of every warp must fit in the block.
///     .keep(|c| c.get("per_thread").unwrap() * 32 * c.get("num_warps").unwrap() <= c.get("block").unwrap())
///     .configs()
///     .unwrap();
/// assert_eq!(configs.len(), 11);
/// assert_eq!(configs[0].to_string(), "block=1024, per_thread=4, num_warps=4");
/// # }
/// ```
#[derive(Default)]
pub struct ConfigSpace {
    params: Vec<(String, Vec<i64>)>,
    keep: Vec<Keep>,
}

impl fmt::Debug for ConfigSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConfigSpace")
            .field("params", &self.params)
            .field("predicates", &self.keep.len())
            .finish()
    }
}

impl ConfigSpace {
    /// An empty space (which has no configurations until a parameter is added).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds parameter `name` taking `values`, in order. The last parameter added varies fastest.
    pub fn param(mut self, name: impl Into<String>, values: impl IntoIterator<Item = i64>) -> Self {
        self.params
            .push((name.into(), values.into_iter().collect()));
        self
    }

    /// Keeps only the configurations for which `keep` is true (e.g. those whose shared memory fits).
    /// Several predicates must all hold.
    pub fn keep(mut self, keep: impl Fn(&Config) -> bool + Send + Sync + 'static) -> Self {
        self.keep.push(Box::new(keep));
        self
    }

    /// Number of configurations before pruning.
    pub fn unpruned_len(&self) -> usize {
        if self.params.is_empty() {
            return 0;
        }
        self.params.iter().map(|(_, v)| v.len()).product()
    }

    /// Every configuration, the last parameter varying fastest (as `itertools.product`), less the
    /// pruned ones. `Err(BadSpace)` for no parameters, a parameter without values, a name or a
    /// value given twice, or a space whose every configuration is pruned.
    pub fn configs(&self) -> Result<Vec<Config>, TuneError> {
        let bad = |reason: String| Err(TuneError::BadSpace { reason });
        if self.params.is_empty() {
            return bad("the space has no parameters".into());
        }
        for (i, (name, values)) in self.params.iter().enumerate() {
            if values.is_empty() {
                return bad(format!("parameter `{name}` has no values"));
            }
            if self.params[..i].iter().any(|(n, _)| n == name) {
                return bad(format!("parameter `{name}` is declared twice"));
            }
            if let Some((j, v)) = values
                .iter()
                .enumerate()
                .find(|(j, v)| values[..*j].contains(v))
            {
                return bad(format!(
                    "parameter `{name}` lists the value {v} twice (again at position {j})"
                ));
            }
        }
        let mut out = Vec::new();
        let mut idx = vec![0usize; self.params.len()];
        'all: loop {
            let c = Config {
                params: self
                    .params
                    .iter()
                    .zip(&idx)
                    .map(|((n, v), &i)| (n.clone(), v[i]))
                    .collect(),
            };
            if self.keep.iter().all(|k| k(&c)) {
                out.push(c);
            }
            // Odometer step, last parameter fastest.
            for d in (0..idx.len()).rev() {
                idx[d] += 1;
                if idx[d] < self.params[d].1.len() {
                    continue 'all;
                }
                idx[d] = 0;
            }
            break;
        }
        if out.is_empty() {
            return bad(format!(
                "every one of the {} configurations is pruned",
                self.unpruned_len()
            ));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_order_and_pruning() {
        let s = ConfigSpace::new()
            .param("a", [1, 2])
            .param("b", [10, 20, 30]);
        assert_eq!(s.unpruned_len(), 6);
        let all: Vec<String> = s.configs().unwrap().iter().map(|c| c.to_string()).collect();
        assert_eq!(
            all,
            [
                "a=1, b=10",
                "a=1, b=20",
                "a=1, b=30",
                "a=2, b=10",
                "a=2, b=20",
                "a=2, b=30"
            ]
        );
        let pruned = s
            .keep(|c| c.get("a").unwrap() * c.get("b").unwrap() <= 30)
            .keep(|c| c.get("b") != Some(20));
        let kept: Vec<String> = pruned
            .configs()
            .unwrap()
            .iter()
            .map(|c| format!("{c:?}"))
            .collect();
        assert_eq!(kept, ["a=1, b=10", "a=1, b=30", "a=2, b=10"]);
    }

    #[test]
    fn shared_memory_pruning_counts() {
        // A matmul-like space: stages × (BM × BK + BK × BN) × 2 bytes must fit 228 KiB.
        let s = ConfigSpace::new()
            .param("bm", [64, 128, 256])
            .param("bn", [64, 128, 256])
            .param("bk", [32, 64])
            .param("stages", [2, 3, 4, 5])
            .keep(|c| {
                let g = |n| c.get(n).unwrap();
                g("stages") * (g("bm") * g("bk") + g("bk") * g("bn")) * 2 <= 228 * 1024
            });
        let configs = s.configs().unwrap();
        // Exhaustive count of the same predicate.
        let mut want = 0;
        for bm in [64, 128, 256] {
            for bn in [64, 128, 256] {
                for bk in [32, 64] {
                    for st in [2, 3, 4, 5] {
                        want += (st * (bm * bk + bk * bn) * 2 <= 228 * 1024) as usize;
                    }
                }
            }
        }
        assert_eq!(configs.len(), want);
        assert!(want < 72 && want > 0);
        assert!(configs.iter().all(|c| c.params().len() == 4));
    }

    #[test]
    fn bad_spaces_are_named() {
        let msg = |s: ConfigSpace| s.configs().unwrap_err().to_string();
        assert!(msg(ConfigSpace::new()).contains("no parameters"));
        assert!(msg(ConfigSpace::new().param("x", [])).contains("`x` has no values"));
        assert!(msg(ConfigSpace::new().param("x", [1]).param("x", [2]))
            .contains("`x` is declared twice"));
        assert!(msg(ConfigSpace::new().param("x", [1, 2, 1])).contains("value 1 twice"));
        assert!(msg(ConfigSpace::new().param("x", [1, 2]).keep(|_| false))
            .contains("every one of the 2 configurations is pruned"));
    }

    #[test]
    fn typed_parameters() {
        let c = Config::new([("block", 1024), ("neg", -1)]);
        assert_eq!(c.u32("block").unwrap(), 1024);
        assert!(c.u32("neg").unwrap_err().to_string().contains("`neg` = -1"));
        assert!(c
            .u32("nope")
            .unwrap_err()
            .to_string()
            .contains("no parameter `nope`"));
    }
}
