//! A kernel cache keyed by kernel content and target, shared by the backends.
//!
//! Loading a module JIT-compiles PTX (milliseconds) or at least parses a binary, so a program that
//! launches the same generated kernel many times loads it once. The key is exact: the full image
//! bytes, the kernel name and the target (e.g. `sm_90` on device 0), never a hash alone, so two
//! different kernels can never share an entry.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::error::Result;

/// Identifies one compiled kernel on one target.
#[derive(Debug, Clone)]
pub struct CacheKey {
    target: String,
    kernel: String,
    content: Arc<[u8]>,
    digest: u64,
}

impl CacheKey {
    /// A key for kernel `kernel` of the image `content` (PTX text or binary) loaded for `target`.
    pub fn new(target: impl Into<String>, kernel: impl Into<String>, content: &[u8]) -> Self {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        content.hash(&mut h);
        CacheKey {
            target: target.into(),
            kernel: kernel.into(),
            content: content.into(),
            digest: h.finish(),
        }
    }

    /// The target this key is for.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The kernel name.
    pub fn kernel(&self) -> &str {
        &self.kernel
    }
}

impl PartialEq for CacheKey {
    fn eq(&self, other: &Self) -> bool {
        self.digest == other.digest
            && self.target == other.target
            && self.kernel == other.kernel
            && self.content == other.content
    }
}

impl Eq for CacheKey {}

impl Hash for CacheKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.target.hash(state);
        self.kernel.hash(state);
        self.digest.hash(state);
    }
}

/// A thread-safe map from [`CacheKey`] to a loaded kernel `V`, counting hits and misses.
#[derive(Debug)]
pub struct KernelCache<V> {
    map: Mutex<HashMap<CacheKey, V>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<V> Default for KernelCache<V> {
    fn default() -> Self {
        KernelCache {
            map: Mutex::new(HashMap::new()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }
}

impl<V: Clone> KernelCache<V> {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The cached value for `key`, or the result of `load` (stored only if it succeeds). Loads are
    /// serialised, so one kernel is never compiled twice at once.
    pub fn get_or_load(&self, key: CacheKey, load: impl FnOnce() -> Result<V>) -> Result<V> {
        // A poisoned lock only means another thread panicked mid-insert; the map itself is intact.
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = map.get(&key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(v.clone());
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let v = load()?;
        map.insert(key, v.clone());
        Ok(v)
    }

    /// Number of lookups answered from the cache.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Number of lookups that had to load.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// Number of cached kernels.
    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every entry (modules are unloaded once no kernel handle refers to them).
    pub fn clear(&self) {
        self.map.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}
