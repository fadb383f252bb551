//! A CUDA kernel cache: one load per (kernel content, kernel name, device target).

#![forbid(unsafe_code)]

use super::device::Device;
use super::module::Kernel;
use crate::runtime::cache::{CacheKey, KernelCache as Cache};
use crate::runtime::error::Result;
use crate::runtime::prelude::*;
use crate::signature::KernelSignature;

/// Loaded CUDA kernels keyed by their PTX or cubin bytes, name and target (`sm_90@0`: the
/// architecture and the device ordinal, since a module belongs to one device's context).
#[derive(Debug, Default)]
pub struct KernelCache {
    cache: Cache<Kernel>,
}

impl KernelCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn target(dev: &Device) -> String {
        format!("{}@{}", dev.arch(), dev.props().ordinal)
    }

    /// The kernel `signature.name` of `ptx` on `dev`, JIT-compiled on the first request only.
    pub fn ptx(&self, dev: &Device, ptx: &str, signature: KernelSignature) -> Result<Kernel> {
        let key = CacheKey::new(Self::target(dev), signature.name.clone(), ptx.as_bytes());
        self.cache
            .get_or_load(key, || dev.load_ptx(ptx)?.kernel(signature))
    }

    /// The kernel `signature.name` of the cubin `image` on `dev`, loaded on the first request only.
    pub fn cubin(&self, dev: &Device, image: &[u8], signature: KernelSignature) -> Result<Kernel> {
        let key = CacheKey::new(Self::target(dev), signature.name.clone(), image);
        self.cache
            .get_or_load(key, || dev.load_cubin(image)?.kernel(signature))
    }

    /// Lookups answered from the cache.
    pub fn hits(&self) -> u64 {
        self.cache.hits()
    }

    /// Lookups that loaded a module.
    pub fn misses(&self) -> u64 {
        self.cache.misses()
    }

    /// Number of cached kernels.
    pub fn len(&self) -> usize {
        self.cache.len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }
}
