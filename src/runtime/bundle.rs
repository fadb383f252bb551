//! Ahead-of-time kernel bundles: kernels built once (in a `build.rs` or a generator program, with
//! the `llvm` feature) and shipped inside a binary that links only the runtime.
//!
//! A [`Bundle`] holds, per kernel and target, one image (PTX text or a cubin) and the kernel's
//! [`KernelSignature`], so launches from the bundle are checked exactly as launches of a freshly
//! built kernel. Its bytes ([`Bundle::to_bytes`]) are embedded with `include_bytes!` and read back
//! with [`Bundle::from_bytes`]; `cuda::Device::load_bundled` picks the entry the device can run.
//!
//! ```
//! use weft::runtime::{Bundle, BundleEntry, ImageKind, KernelSignature};
//! use weft::target::Target;
//! let sig = KernelSignature::parse("scale(x: *f32, a: f32, n: i32) [threads = 128]").unwrap();
//! let sm90 = Target::parse("sm_90").unwrap();
//! let mut bundle = Bundle::new();
//! bundle.push(BundleEntry::new(sig, sm90, ImageKind::Ptx, b".version 8.0\n".to_vec()))?;
//! let bytes = bundle.to_bytes();                  // what build.rs writes to OUT_DIR
//! let back = Bundle::from_bytes(&bytes)?;         // what the program reads from include_bytes!
//! assert_eq!(back, bundle);
//! let entry = back.select("scale", Target::parse("sm_90a").unwrap())?;
//! assert_eq!(entry.target, sm90);
//! # Ok::<(), weft::runtime::RuntimeError>(())
//! ```
//!
//! # Format (version 1, little-endian)
//! `WEFTBNDL`, `u32` version, `u32` entry count, then per entry: `u32` length and UTF-8 bytes of
//! the signature text ([`KernelSignature`]'s `Display`), `u32` length and bytes of the target name
//! (`sm_90a`), one byte of [`ImageKind`], `u64` length and bytes of the image. Reading checks every
//! length against the bytes left, so a truncated or foreign file is an error, never a panic.

#![forbid(unsafe_code)]

use std::fmt;

use super::error::{Result, RuntimeError};
use crate::signature::KernelSignature;
use crate::target::{Target, Vendor};

const MAGIC: &[u8; 8] = b"WEFTBNDL";
const VERSION: u32 = 1;

/// What an image of a bundle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// PTX text: the driver JIT-compiles it for the device (any device of its target or newer).
    Ptx,
    /// An ELF cubin (or fatbin) for exactly one architecture: loads without a JIT.
    Cubin,
}

impl ImageKind {
    fn byte(self) -> u8 {
        match self {
            ImageKind::Ptx => 0,
            ImageKind::Cubin => 1,
        }
    }

    fn from_byte(b: u8) -> Option<ImageKind> {
        match b {
            0 => Some(ImageKind::Ptx),
            1 => Some(ImageKind::Cubin),
            _ => None,
        }
    }
}

impl fmt::Display for ImageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ImageKind::Ptx => "PTX",
            ImageKind::Cubin => "cubin",
        })
    }
}

/// One kernel image with the signature launches are checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleEntry {
    /// Name, parameters, block size and shared memory of the kernel.
    pub signature: KernelSignature,
    /// The target the image was built for.
    pub target: Target,
    /// PTX or cubin.
    pub kind: ImageKind,
    /// The image's bytes (PTX text without a trailing NUL, or the cubin).
    pub image: Vec<u8>,
}

impl BundleEntry {
    /// An entry of `image` built for `target`.
    pub fn new(
        signature: KernelSignature,
        target: Target,
        kind: ImageKind,
        image: Vec<u8>,
    ) -> BundleEntry {
        BundleEntry {
            signature,
            target,
            kind,
            image,
        }
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.signature.name
    }

    /// The PTX text of a PTX entry (`Err` for a cubin, or PTX that is not UTF-8).
    pub fn ptx(&self) -> Result<&str> {
        if self.kind != ImageKind::Ptx {
            return Err(bad(format!(
                "`{}` for {} is a cubin, not PTX",
                self.name(),
                self.target
            )));
        }
        std::str::from_utf8(&self.image).map_err(|e| RuntimeError::InvalidImage {
            what: "PTX",
            reason: format!("not UTF-8 at byte {}", e.valid_up_to()),
        })
    }

    /// Whether a device of target `device` can run this image: a cubin only on its own
    /// architecture; PTX on its architecture or a newer one of the same vendor, except that
    /// architecture-specific PTX (`sm_90a`) runs only on that architecture.
    pub fn runs_on(&self, device: Target) -> bool {
        let (Some(built), Some(dev)) = (self.target.sm(), device.sm()) else {
            return false;
        };
        match self.kind {
            ImageKind::Cubin => built == dev,
            ImageKind::Ptx if self.target.is_arch_specific() => built == dev,
            ImageKind::Ptx => built <= dev,
        }
    }
}

/// Kernels built ahead of time, for several targets if wanted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bundle {
    entries: Vec<BundleEntry>,
}

fn bad(reason: String) -> RuntimeError {
    RuntimeError::Bundle { reason }
}

impl Bundle {
    /// An empty bundle.
    pub fn new() -> Bundle {
        Bundle::default()
    }

    /// Adds an entry; `Err` if one of the same kernel, target and kind is already there, if the
    /// target is not an NVIDIA one, or if the image is empty.
    pub fn push(&mut self, entry: BundleEntry) -> Result<&mut Bundle> {
        if entry.target.vendor() != Vendor::Nvidia {
            return Err(bad(format!(
                "`{}`: only NVIDIA targets are bundled, not {}",
                entry.name(),
                entry.target
            )));
        }
        if entry.image.is_empty() {
            return Err(bad(format!("`{}` has an empty image", entry.name())));
        }
        if self
            .entries
            .iter()
            .any(|e| e.name() == entry.name() && e.target == entry.target && e.kind == entry.kind)
        {
            return Err(bad(format!(
                "`{}` for {} ({}) is already in the bundle",
                entry.name(),
                entry.target,
                entry.kind
            )));
        }
        self.entries.push(entry);
        Ok(self)
    }

    /// The entries, in the order they were added.
    pub fn entries(&self) -> &[BundleEntry] {
        &self.entries
    }

    /// The distinct kernel names, in the order first added.
    pub fn kernel_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for e in &self.entries {
            if !names.contains(&e.name()) {
                names.push(e.name());
            }
        }
        names
    }

    /// The best entry of kernel `name` for a device of target `device`: a cubin for its exact
    /// architecture, else the PTX of the newest target it can run. `Err` names what the bundle has.
    pub fn select(&self, name: &str, device: Target) -> Result<&BundleEntry> {
        let of_name = || self.entries.iter().filter(|e| e.name() == name);
        let cubin = of_name().find(|e| e.kind == ImageKind::Cubin && e.runs_on(device));
        let ptx = of_name()
            .filter(|e| e.kind == ImageKind::Ptx && e.runs_on(device))
            .max_by_key(|e| (e.target.sm(), e.target.is_arch_specific()));
        cubin.or(ptx).ok_or_else(|| {
            let have: Vec<String> = of_name()
                .map(|e| format!("{} {}", e.target, e.kind))
                .collect();
            if have.is_empty() {
                bad(format!(
                    "no kernel `{name}` (the bundle has: {})",
                    self.kernel_names().join(", ")
                ))
            } else {
                bad(format!(
                    "no image of `{name}` runs on {device} (the bundle has {})",
                    have.join(", ")
                ))
            }
        })
    }

    /// The bundle's bytes (see the [module docs](self) for the format).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            let sig = e.signature.to_string();
            let target = e.target.to_string();
            out.extend_from_slice(&(sig.len() as u32).to_le_bytes());
            out.extend_from_slice(sig.as_bytes());
            out.extend_from_slice(&(target.len() as u32).to_le_bytes());
            out.extend_from_slice(target.as_bytes());
            out.push(e.kind.byte());
            out.extend_from_slice(&(e.image.len() as u64).to_le_bytes());
            out.extend_from_slice(&e.image);
        }
        out
    }

    /// Reads [`to_bytes`](Self::to_bytes)'s output; every malformation is an `Err` saying where.
    pub fn from_bytes(bytes: &[u8]) -> Result<Bundle> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8, "magic")? != MAGIC {
            return Err(bad("not a weft bundle (wrong magic bytes)".into()));
        }
        let version = r.u32("version")?;
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this weft reads version {VERSION}"
            )));
        }
        let count = r.u32("entry count")?;
        let mut bundle = Bundle::new();
        for i in 0..count {
            let sig_len = r.u32("signature length")? as u64;
            let sig = r.text(sig_len, "signature")?;
            let signature =
                KernelSignature::parse(sig).map_err(|e| bad(format!("entry {i}: {e}")))?;
            let target_len = r.u32("target length")? as u64;
            let name = r.text(target_len, "target")?;
            let target = Target::parse(name).map_err(|e| bad(format!("entry {i}: {e}")))?;
            let kind = r.take(1, "image kind")?[0];
            let kind = ImageKind::from_byte(kind)
                .ok_or_else(|| bad(format!("entry {i}: unknown image kind {kind}")))?;
            let image_len = r.u64("image length")?;
            let image = r.take(image_len, "image")?.to_vec();
            bundle
                .push(BundleEntry::new(signature, target, kind, image))
                .map_err(|e| bad(format!("entry {i}: {e}")))?;
        }
        if r.at != bytes.len() {
            return Err(bad(format!(
                "{} bytes follow the last entry",
                bytes.len() - r.at
            )));
        }
        Ok(bundle)
    }
}

/// A cursor that checks every length against the bytes left.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: u64, what: &str) -> Result<&'a [u8]> {
        let left = (self.bytes.len() - self.at) as u64;
        if len > left {
            return Err(bad(format!(
                "truncated: the {what} at byte {} needs {len} bytes, {left} are left",
                self.at
            )));
        }
        let start = self.at;
        self.at += len as usize;
        Ok(&self.bytes[start..self.at])
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn text(&mut self, len: u64, what: &str) -> Result<&'a str> {
        let at = self.at;
        std::str::from_utf8(self.take(len, what)?)
            .map_err(|_| bad(format!("the {what} at byte {at} is not UTF-8")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str) -> Target {
        Target::parse(name).unwrap()
    }

    fn entry(name: &str, target: &str, kind: ImageKind, image: &[u8]) -> BundleEntry {
        let sig = KernelSignature::parse(&format!(
            "{name}(x: *f32 {{divisibility = 16}}, n: i32) [threads = 128, shared = 1024]"
        ))
        .unwrap();
        BundleEntry::new(sig, t(target), kind, image.to_vec())
    }

    fn sample() -> Bundle {
        let mut b = Bundle::new();
        b.push(entry("copy", "sm_80", ImageKind::Ptx, b"ptx80"))
            .unwrap();
        b.push(entry("copy", "sm_90a", ImageKind::Ptx, b"ptx90a"))
            .unwrap();
        b.push(entry("copy", "sm_90", ImageKind::Cubin, b"\x7fELF.."))
            .unwrap();
        b.push(entry("gemm", "sm_90a", ImageKind::Ptx, b"gemm"))
            .unwrap();
        b
    }

    #[test]
    fn bytes_round_trip_keeps_signatures_and_images() {
        let b = sample();
        let back = Bundle::from_bytes(&b.to_bytes()).unwrap();
        assert_eq!(back, b);
        assert_eq!(back.entries()[0].signature.shared_bytes, 1024);
        assert_eq!(back.entries()[0].signature.params[0].divisibility, 16);
        assert_eq!(back.kernel_names(), ["copy", "gemm"]);
    }

    #[test]
    fn select_prefers_the_exact_cubin_then_the_newest_ptx_that_runs() {
        let b = sample();
        assert_eq!(
            b.select("copy", t("sm_90a")).unwrap().kind,
            ImageKind::Cubin
        );
        let on_sm89 = b.select("copy", t("sm_89")).unwrap();
        assert_eq!((on_sm89.kind, on_sm89.target), (ImageKind::Ptx, t("sm_80")));
        // sm_90a PTX runs only on sm_90: a newer GPU gets the portable sm_80 PTX.
        assert_eq!(b.select("copy", t("sm_100")).unwrap().target, t("sm_80"));
        let err = b.select("gemm", t("sm_80")).unwrap_err().to_string();
        assert!(err.contains("no image of `gemm` runs on sm_80"), "{err}");
        assert!(err.contains("sm_90a PTX"), "{err}");
        let err = b.select("nope", t("sm_90")).unwrap_err().to_string();
        assert!(
            err.contains("no kernel `nope`") && err.contains("copy, gemm"),
            "{err}"
        );
    }

    #[test]
    fn every_truncation_and_corruption_is_an_error() {
        let bytes = sample().to_bytes();
        for cut in 0..bytes.len() {
            let err = Bundle::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(err, RuntimeError::Bundle { .. }),
                "cut {cut}: {err}"
            );
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(Bundle::from_bytes(&extra)
            .unwrap_err()
            .to_string()
            .contains("1 bytes follow"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(Bundle::from_bytes(&version)
            .unwrap_err()
            .to_string()
            .contains("version 9"));
        let mut kind = bytes.clone();
        // The first entry's kind byte sits after its signature and target.
        let sig_len = u32::from_le_bytes(kind[16..20].try_into().unwrap()) as usize;
        let kind_at = 20 + sig_len + 4 + "sm_80".len();
        kind[kind_at] = 7;
        assert!(Bundle::from_bytes(&kind)
            .unwrap_err()
            .to_string()
            .contains("unknown image kind 7"));
        // A huge declared length must not allocate or panic.
        let mut huge = bytes.clone();
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Bundle::from_bytes(&huge)
            .unwrap_err()
            .to_string()
            .contains("truncated"));
    }

    #[test]
    fn push_rejects_duplicates_empty_images_and_amd_targets() {
        let mut b = sample();
        let err = b
            .push(entry("copy", "sm_80", ImageKind::Ptx, b"again"))
            .unwrap_err();
        assert!(err.to_string().contains("already in the bundle"), "{err}");
        assert!(b.push(entry("x", "sm_80", ImageKind::Ptx, b"")).is_err());
        assert!(b
            .push(entry("x", "gfx942", ImageKind::Ptx, b"obj"))
            .is_err());
        assert!(b.entries()[3].ptx().is_ok());
        assert!(b.entries()[2].ptx().is_err());
    }
}
