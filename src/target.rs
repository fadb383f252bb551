//! GPU targets: the one description of a GPU that the algebra, the builder and the launcher share.
//!
//! A [`Target`] names an architecture (`sm_90a`, `gfx942`) and answers what the rest of weft asks of
//! it: the vendor, lanes per warp, which instructions exist ([`Feature`]), how shared memory is banked
//! and how much of it one block may have. The conversion planner costs plans with it, the builder
//! checks every op against it before LLVM runs, and the launcher compares it with the device.
//!
//! This module depends on nothing else in the crate, so any part can use it.

#![forbid(unsafe_code)]

use std::fmt;

/// The vendor family of a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Vendor {
    /// NVIDIA: PTX text, assembled by the driver or ptxas.
    Nvidia,
    /// AMD: an ELF code object.
    Amd,
}

/// A hardware capability an op may need; see [`Target::supports`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Feature {
    /// fp8 e4m3 / e5m2 conversions (`cvt.*.e4m3x2`): sm_89 and later.
    Fp8,
    /// bf16 arithmetic instructions (rather than emulation through f32): sm_90 and later.
    Bf16Arith,
    /// Hopper warpgroup MMA (`wgmma`): the arch-specific `sm_90a` only.
    Wgmma,
    /// 64-bit float atomic add.
    AtomicAddF64,
    /// `ldmatrix` (shared → registers in MMA fragments): sm_75 and later.
    LdMatrix,
    /// `stmatrix` (registers → shared in MMA fragments): sm_90 and later.
    StMatrix,
    /// `mma.sync` tensor-core instructions with f16/bf16 inputs: sm_80 and later.
    MmaSync,
    /// `cp.async` global → shared copies with commit/wait groups: sm_80 and later.
    CpAsync,
    /// Shared-memory barriers (`mbarrier`): sm_80 and later (transaction counts: sm_90).
    Mbarrier,
    /// The tensor memory accelerator (`cp.async.bulk.tensor`) and tensor maps: sm_90 and later.
    Tma,
    /// `setmaxnreg` to move registers between warpgroups: the arch-specific `sm_90a` only.
    SetMaxNReg,
    /// CTA clusters (`.reqnctapercluster`, `barrier.cluster`, `mapa`, TMA multicast): sm_90 and
    /// later.
    Cluster,
    /// `ds_read_tr` transposing LDS reads: gfx950.
    DsReadTr,
    /// Printing from kernels (`vprintf`, and `__assertfail` for assertion messages): NVIDIA.
    Printf,
}

/// What went wrong naming a target.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{name}`: expected sm_70 … sm_120 (with `a` for arch-specific features), gfx908, gfx90a, gfx942 or gfx950")]
pub struct TargetError {
    /// The text that was given.
    pub name: String,
}

/// A GPU architecture.
///
/// NVIDIA targets are named by compute capability (`sm_80`, `sm_90`, and `sm_90a` for the
/// arch-specific features wgmma and setmaxnreg); AMD targets by gfx name (`gfx90a`, `gfx942`,
/// `gfx950`), with 64 lanes per wavefront unless [`Target::with_warp_size`] says 32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    vendor: Vendor,
    /// Compute capability × 10 on NVIDIA (90 for sm_90); the gfx number on AMD, with `gfx90a` as 910.
    version: u32,
    /// NVIDIA's `a` suffix: features that exist on this exact architecture only.
    arch_specific: bool,
    warp_size: u32,
}

impl Target {
    /// NVIDIA Ampere (A100).
    pub const SM80: Target = Target::nvidia(80, false);
    /// NVIDIA Hopper (H100, H200) without the arch-specific features.
    pub const SM90: Target = Target::nvidia(90, false);
    /// NVIDIA Hopper with the arch-specific features (wgmma, setmaxnreg).
    pub const SM90A: Target = Target::nvidia(90, true);
    /// AMD CDNA2 (MI200).
    pub const GFX90A: Target = Target::amd(910);
    /// AMD CDNA3 (MI300).
    pub const GFX942: Target = Target::amd(942);
    /// AMD CDNA4 (MI350).
    pub const GFX950: Target = Target::amd(950);

    const fn nvidia(sm: u32, arch_specific: bool) -> Target {
        Target {
            vendor: Vendor::Nvidia,
            version: sm,
            arch_specific,
            warp_size: 32,
        }
    }

    const fn amd(gfx: u32) -> Target {
        Target {
            vendor: Vendor::Amd,
            version: gfx,
            arch_specific: false,
            warp_size: 64,
        }
    }

    /// Parses `sm_NN` / `sm_NNa` (NN from 70 to 120), `gfx908`, `gfx90a`, `gfx942`, `gfx950`.
    pub fn parse(name: &str) -> Result<Target, TargetError> {
        let bad = || TargetError {
            name: name.chars().take(64).collect(),
        };
        if let Some(n) = name.strip_prefix("sm_") {
            let (digits, arch_specific) = match n.strip_suffix('a') {
                Some(d) => (d, true),
                None => (n, false),
            };
            if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(bad());
            }
            let sm: u32 = digits.parse().map_err(|_| bad())?;
            if !(70..=120).contains(&sm) || (arch_specific && sm < 90) {
                return Err(bad());
            }
            return Ok(Target::nvidia(sm, arch_specific));
        }
        match name {
            "gfx908" => Ok(Target::amd(908)),
            "gfx90a" => Ok(Target::amd(910)),
            "gfx942" => Ok(Target::amd(942)),
            "gfx950" => Ok(Target::amd(950)),
            _ => Err(bad()),
        }
    }

    /// The same architecture with `lanes` lanes per warp (AMD's wave32 mode; NVIDIA warps are
    /// always 32). `None` for any other size.
    pub fn with_warp_size(self, lanes: u32) -> Option<Target> {
        match (self.vendor, lanes) {
            (Vendor::Nvidia, 32) | (Vendor::Amd, 32 | 64) => Some(Target {
                warp_size: lanes,
                ..self
            }),
            _ => None,
        }
    }

    /// NVIDIA or AMD.
    pub fn vendor(self) -> Vendor {
        self.vendor
    }

    /// Whether this is an AMD target.
    pub fn is_amd(self) -> bool {
        self.vendor == Vendor::Amd
    }

    /// Compute capability × 10 (NVIDIA), or `None` on AMD.
    pub fn sm(self) -> Option<u32> {
        (self.vendor == Vendor::Nvidia).then_some(self.version)
    }

    /// The gfx number (AMD; `gfx90a` is 910), or `None` on NVIDIA.
    pub fn gfx(self) -> Option<u32> {
        (self.vendor == Vendor::Amd).then_some(self.version)
    }

    /// Whether NVIDIA's arch-specific (`a`) features are enabled.
    pub fn is_arch_specific(self) -> bool {
        self.arch_specific
    }

    /// Lanes per warp (NVIDIA) or wavefront (AMD).
    pub fn warp_size(self) -> u32 {
        self.warp_size
    }

    /// The most warps (wavefronts) one block may have: 1024 threads.
    pub fn max_warps(self) -> u32 {
        1024 / self.warp_size
    }

    /// Whether the target has `feature`.
    pub fn supports(self, feature: Feature) -> bool {
        let v = self.version;
        match self.vendor {
            Vendor::Nvidia => match feature {
                Feature::Fp8 => v >= 89,
                Feature::Bf16Arith | Feature::StMatrix | Feature::Tma | Feature::Cluster => v >= 90,
                Feature::Wgmma | Feature::SetMaxNReg => v == 90 && self.arch_specific,
                Feature::AtomicAddF64 => v >= 60,
                Feature::LdMatrix => v >= 75,
                Feature::MmaSync | Feature::CpAsync | Feature::Mbarrier => v >= 80,
                Feature::DsReadTr => false,
                Feature::Printf => true,
            },
            Vendor::Amd => match feature {
                Feature::AtomicAddF64 => true,
                Feature::DsReadTr => v >= 950,
                _ => false,
            },
        }
    }

    /// Why the target lacks `feature`, for error messages (`None` when it has it).
    pub fn missing(self, feature: Feature) -> Option<&'static str> {
        if self.supports(feature) {
            return None;
        }
        Some(match feature {
            Feature::Fp8 => "fp8 conversions need sm_89 or later (NVIDIA)",
            Feature::Bf16Arith => "native bf16 arithmetic needs sm_90 or later (NVIDIA)",
            Feature::Wgmma => "wgmma needs sm_90a",
            Feature::AtomicAddF64 => "f64 atomic add needs sm_60 or later",
            Feature::LdMatrix => "ldmatrix needs sm_75 or later (NVIDIA)",
            Feature::StMatrix => "stmatrix needs sm_90 or later (NVIDIA)",
            Feature::MmaSync => "mma.sync needs sm_80 or later (NVIDIA)",
            Feature::CpAsync => "cp.async needs sm_80 or later (NVIDIA)",
            Feature::Mbarrier => "mbarrier needs sm_80 or later (NVIDIA)",
            Feature::Tma => "TMA needs sm_90 or later (NVIDIA)",
            Feature::Cluster => "CTA clusters need sm_90 or later (NVIDIA)",
            Feature::SetMaxNReg => "setmaxnreg needs sm_90a",
            Feature::DsReadTr => "ds_read_tr needs gfx950",
            Feature::Printf => {
                "weft has no AMDGPU printf lowering (device printing needs NVIDIA's vprintf)"
            }
        })
    }

    /// Shared-memory (LDS) banks: 32 banks of 4 bytes on NVIDIA and CDNA alike (gfx950: 64).
    pub fn shared_banks(self) -> u32 {
        match self.vendor {
            Vendor::Nvidia => 32,
            Vendor::Amd if self.version >= 950 => 64,
            Vendor::Amd => 32,
        }
    }

    /// Bytes of one shared-memory bank.
    pub fn shared_bank_bytes(self) -> u32 {
        4
    }

    /// The most shared memory (LDS) one block may use, in bytes, with the opt-in above the default
    /// 48 KB on NVIDIA: 227 KB on sm_90 and sm_100, 163 KB on sm_80 and sm_87, 99 KB on sm_86, sm_89
    /// and sm_120, 96 KB on sm_70, 64 KB on sm_75; 64 KB LDS on CDNA2/3 and 160 KB on gfx950.
    pub fn max_shared_bytes(self) -> u32 {
        let kb = match (self.vendor, self.version) {
            (Vendor::Nvidia, 70..=74) => 96,
            (Vendor::Nvidia, 75..=79) => 64,
            (Vendor::Nvidia, 80 | 87) => 163,
            (Vendor::Nvidia, 90..=119) => 227,
            (Vendor::Nvidia, _) => 99,
            (Vendor::Amd, 950..) => 160,
            (Vendor::Amd, _) => 64,
        };
        kb * 1024
    }

    /// Shared memory one block gets without opting in (48 KB on NVIDIA; all of it on AMD).
    pub fn default_shared_bytes(self) -> u32 {
        match self.vendor {
            Vendor::Nvidia => 48 * 1024,
            Vendor::Amd => self.max_shared_bytes(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.vendor {
            Vendor::Nvidia => {
                write!(f, "sm_{}", self.version)?;
                if self.arch_specific {
                    f.write_str("a")?;
                }
                Ok(())
            }
            Vendor::Amd if self.version == 910 => f.write_str("gfx90a"),
            Vendor::Amd => write!(f, "gfx{}", self.version),
        }
    }
}

impl std::str::FromStr for Target {
    type Err = TargetError;
    fn from_str(s: &str) -> Result<Target, TargetError> {
        Target::parse(s)
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl serde::Serialize for Target {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> serde::Deserialize<'de> for Target {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Target, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Target::parse(&name).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        for t in [
            "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120",
            "gfx908", "gfx90a", "gfx942", "gfx950",
        ] {
            assert_eq!(Target::parse(t).unwrap().to_string(), t);
        }
        for (t, c) in [
            ("sm_80", Target::SM80),
            ("sm_90", Target::SM90),
            ("sm_90a", Target::SM90A),
            ("gfx90a", Target::GFX90A),
            ("gfx942", Target::GFX942),
            ("gfx950", Target::GFX950),
        ] {
            assert_eq!(Target::parse(t).unwrap(), c);
        }
    }

    #[test]
    fn bad_names_are_errors_that_quote_them() {
        for t in [
            "", "sm_", "sm_8", "sm_80a", "sm_1000", "sm_x0", "sm_+90", "gfx1100", "SM_90",
        ] {
            let e = Target::parse(t).unwrap_err();
            assert_eq!(e.name, t);
            assert!(e.to_string().contains(&format!("`{t}`")));
        }
        let long = "x".repeat(10_000);
        assert!(Target::parse(&long).unwrap_err().to_string().len() < 300);
    }

    #[test]
    fn features_follow_the_architecture() {
        assert!(Target::SM90A.supports(Feature::Wgmma));
        assert!(!Target::SM90.supports(Feature::Wgmma));
        assert!(!Target::parse("sm_100a").unwrap().supports(Feature::Wgmma));
        assert!(Target::SM80.supports(Feature::CpAsync));
        assert!(!Target::SM80.supports(Feature::Tma));
        assert!(Target::SM90.supports(Feature::Tma));
        assert!(!Target::SM80.supports(Feature::Fp8));
        assert!(Target::parse("sm_89").unwrap().supports(Feature::Fp8));
        assert!(Target::GFX950.supports(Feature::DsReadTr));
        assert!(!Target::GFX942.supports(Feature::DsReadTr));
        assert!(!Target::GFX942.supports(Feature::CpAsync));
        assert_eq!(
            Target::SM90.missing(Feature::Wgmma),
            Some("wgmma needs sm_90a")
        );
        assert_eq!(Target::SM90A.missing(Feature::Wgmma), None);
    }

    #[test]
    fn warps_and_shared_memory() {
        assert_eq!(Target::SM90.warp_size(), 32);
        assert_eq!(Target::GFX942.warp_size(), 64);
        assert_eq!(Target::GFX942.max_warps(), 16);
        assert_eq!(Target::GFX942.with_warp_size(32).unwrap().max_warps(), 32);
        assert_eq!(Target::SM90.with_warp_size(64), None);
        assert_eq!(Target::SM90.max_shared_bytes(), 232_448);
        assert_eq!(Target::SM80.max_shared_bytes(), 166_912);
        assert_eq!(Target::GFX942.max_shared_bytes(), 65_536);
        assert!(Target::SM90.default_shared_bytes() < Target::SM90.max_shared_bytes());
    }
}
