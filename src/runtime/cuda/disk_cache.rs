//! A persistent kernel cache: PTX compiled once per device architecture and driver, kept on disk
//! as a cubin, so a later process loads the kernel without the JIT.
//!
//! Files live in [`DiskCache::from_env`]'s folder (`$WEFT_CACHE_DIR/kernels`, else
//! `$XDG_CACHE_HOME/weft/kernels`, else `~/.cache/weft/kernels`), one per (PTX, architecture),
//! named `<FNV-1a of the PTX>-<arch>.cubin`. A file holds a header line (`weft-cubin 1`), the
//! driver's CUDA version, the architecture, the PTX's length and the PTX itself, then the cubin:
//! an entry is used only when all of them equal the request, so a hash collision, another driver
//! or a changed kernel never loads a wrong image, it only compiles again. Writers write a
//! temporary file in the same folder and rename it over the entry, so concurrent processes never
//! see half a file (the last writer wins, with an equal cubin).
//!
//! A cache that cannot be read or written never fails a load: the kernel is compiled and loaded
//! as without a cache, and [`Loaded::store_error`] says what went wrong.

#![forbid(unsafe_code)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::device::Device;
use super::module::Kernel;
use crate::runtime::autotune::disk::fnv1a;
use crate::runtime::bundle::{Bundle, ImageKind};
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::prelude::*;
use crate::signature::KernelSignature;

const HEADER: &str = "weft-cubin 1";

/// Where a loaded kernel came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The cubin was in the cache: no JIT ran.
    Cached,
    /// The PTX was compiled (and stored, unless [`Loaded::store_error`] says otherwise).
    Compiled,
    /// The bundle had a cubin for this device: loaded as it is.
    BundledCubin,
}

/// A kernel loaded through the cache.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The kernel, with its signature for checked launches.
    pub kernel: Kernel,
    /// Where it came from.
    pub source: Source,
    /// Why a freshly compiled cubin could not be stored (the kernel works regardless).
    pub store_error: Option<RuntimeError>,
}

/// A persistent cache of compiled kernels in one folder.
#[derive(Debug, Clone)]
pub struct DiskCache {
    dir: PathBuf,
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

fn cache_err(path: &Path, reason: impl std::fmt::Display) -> RuntimeError {
    RuntimeError::DiskCache {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

impl DiskCache {
    /// A cache in `dir` (created when the first entry is written).
    pub fn new(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache { dir: dir.into() }
    }

    /// The cache in weft's cache folder: `$WEFT_CACHE_DIR/kernels`, else
    /// `$XDG_CACHE_HOME/weft/kernels`, else `$HOME/.cache/weft/kernels`; `Err` when none is set.
    pub fn from_env() -> Result<DiskCache> {
        crate::runtime::autotune::disk::default_dir()
            .map(|d| DiskCache::new(d.join("kernels")))
            .ok_or_else(|| RuntimeError::DiskCache {
                path: String::new(),
                reason: "none of WEFT_CACHE_DIR, XDG_CACHE_HOME and HOME is set".into(),
            })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds `ptx` compiled for `dev`.
    pub fn entry_path(&self, dev: &Device, ptx: &str) -> PathBuf {
        self.dir.join(format!(
            "{:016x}-{}.cubin",
            fnv1a(ptx.as_bytes()),
            dev.arch()
        ))
    }

    fn header(dev: &Device, ptx: &str) -> Vec<u8> {
        let (major, minor) = dev.props().driver_version;
        format!(
            "{HEADER}\ndriver {major}.{minor}\narch {}\nptx {}\n",
            dev.arch(),
            ptx.len()
        )
        .into_bytes()
    }

    /// The cached cubin of `ptx` for `dev`, if a file holds exactly this request.
    fn read(&self, dev: &Device, ptx: &str) -> Option<Vec<u8>> {
        let bytes = fs::read(self.entry_path(dev, ptx)).ok()?;
        let header = Self::header(dev, ptx);
        let rest = bytes.strip_prefix(header.as_slice())?;
        let cubin = rest.strip_prefix(ptx.as_bytes())?;
        (!cubin.is_empty()).then(|| cubin.to_vec())
    }

    /// Stores `cubin` as the entry of `ptx` on `dev`: a temporary file, then a rename.
    fn write(&self, dev: &Device, ptx: &str, cubin: &[u8]) -> Result<()> {
        fs::create_dir_all(&self.dir).map_err(|e| cache_err(&self.dir, e))?;
        let path = self.entry_path(dev, ptx);
        let tmp = self.dir.join(format!(
            ".{}.{}.{}.tmp",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            std::process::id(),
            TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(&Self::header(dev, ptx))?;
            f.write_all(ptx.as_bytes())?;
            f.write_all(cubin)?;
            f.sync_all()
        });
        let renamed = written.and_then(|()| fs::rename(&tmp, &path));
        if let Err(e) = renamed {
            let _ = fs::remove_file(&tmp);
            return Err(cache_err(&path, e));
        }
        Ok(())
    }

    /// The kernel `signature.name` of `ptx` on `dev`: from the cached cubin when there is one,
    /// else compiled by the driver's linker, stored, and loaded.
    pub fn load_ptx(&self, dev: &Device, ptx: &str, signature: KernelSignature) -> Result<Loaded> {
        if let Some(cubin) = self.read(dev, ptx) {
            // A cubin that no longer loads (a corrupt file) is compiled again below.
            if let Ok(kernel) = dev
                .load_cubin(&cubin)
                .and_then(|m| m.kernel(signature.clone()))
            {
                return Ok(Loaded {
                    kernel,
                    source: Source::Cached,
                    store_error: None,
                });
            }
        }
        let cubin = dev.compile_ptx(ptx)?;
        let kernel = dev.load_cubin(&cubin)?.kernel(signature)?;
        Ok(Loaded {
            kernel,
            source: Source::Compiled,
            store_error: self.write(dev, ptx, &cubin).err(),
        })
    }

    /// Kernel `name` of `bundle` on `dev` (the entry [`Bundle::select`] picks): a bundled cubin
    /// loads as it is, PTX goes through the cache.
    pub fn load_bundled(&self, dev: &Device, bundle: &Bundle, name: &str) -> Result<Loaded> {
        let entry = bundle.select(name, dev.target()?)?;
        match entry.kind {
            ImageKind::Cubin => Ok(Loaded {
                kernel: dev
                    .load_cubin(&entry.image)?
                    .kernel(entry.signature.clone())?,
                source: Source::BundledCubin,
                store_error: None,
            }),
            ImageKind::Ptx => self.load_ptx(dev, entry.ptx()?, entry.signature.clone()),
        }
    }

    /// Compiles every kernel of `bundle` that `dev` can run and the cache does not hold yet, so
    /// that the first real use of each loads without a JIT. Returns how many were compiled; a
    /// kernel no image of which runs on `dev` is skipped.
    pub fn warm_up(&self, dev: &Device, bundle: &Bundle) -> Result<usize> {
        let target = dev.target()?;
        let mut compiled = 0;
        for name in bundle.kernel_names() {
            let Ok(entry) = bundle.select(name, target) else {
                continue;
            };
            if entry.kind != ImageKind::Ptx {
                continue;
            }
            let ptx = entry.ptx()?;
            if self.read(dev, ptx).is_none() {
                let cubin = dev.compile_ptx(ptx)?;
                self.write(dev, ptx, &cubin)?;
                compiled += 1;
            }
        }
        Ok(compiled)
    }
}
