//! GPU targets: what each can do, and how LLVM is set up for it.
//!
//! NVIDIA: `sm_80`, `sm_90`, `sm_90a`, always with PTX ISA 8.0 (`+ptx80`) so the PTX does not move
//! when LLVM's default does and stays within what the CUDA 13.0 driver accepts (≤ 9.0).
//! AMD: `gfx90a`, `gfx942`, `gfx950` (cargo feature `amdgpu`), 64 lanes per wavefront.

use std::fmt;
use std::sync::Once;

use inkwell::targets::{
    CodeModel, InitializationConfig, RelocMode, Target as LlvmTarget, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;

use super::error::{CodegenError, Result};

/// A GPU architecture the builder can emit code for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// NVIDIA Ampere (A100).
    Sm80,
    /// NVIDIA Hopper (H100) without the arch-specific features.
    Sm90,
    /// NVIDIA Hopper with the arch-specific features (wgmma, setmaxnreg).
    Sm90a,
    /// AMD CDNA2 (MI200).
    Gfx90a,
    /// AMD CDNA3 (MI300).
    Gfx942,
    /// AMD CDNA4 (MI350).
    Gfx950,
}

/// The vendor family of a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// NVPTX: PTX text, assembled by the driver or ptxas.
    Nvidia,
    /// AMDGPU: an ELF code object linked by `ld.lld`.
    Amd,
}

/// A hardware capability an op may need; checked by [`Target::supports`] before emission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Feature {
    /// fp8 e4m3 / e5m2 conversions (`cvt.*.e4m3x2`): sm_89 and later.
    Fp8,
    /// bf16 arithmetic instructions (rather than emulation through f32).
    Bf16Arith,
    /// Hopper warpgroup MMA: sm_90a only.
    Wgmma,
    /// 64-bit float atomic add.
    AtomicAddF64,
}

/// The PTX ISA every NVIDIA target is pinned to.
pub const PTX_ISA: (u32, u32) = (8, 0);

/// All targets, in a stable order (tests iterate it).
pub const ALL_TARGETS: [Target; 6] = [
    Target::Sm80,
    Target::Sm90,
    Target::Sm90a,
    Target::Gfx90a,
    Target::Gfx942,
    Target::Gfx950,
];

/// One cached target machine per (target, optimisation level) and thread.
type MachineEntry = ((Target, OptimizationLevel), std::rc::Rc<TargetMachine>);

impl Target {
    /// Parses `sm_80`, `sm_90`, `sm_90a`, `gfx90a`, `gfx942`, `gfx950`.
    pub fn parse(name: &str) -> Result<Target> {
        ALL_TARGETS
            .iter()
            .copied()
            .find(|t| t.name() == name)
            .ok_or_else(|| CodegenError::BadTarget {
                target: name.to_string(),
                reason:
                    "unknown target; expected one of sm_80, sm_90, sm_90a, gfx90a, gfx942, gfx950"
                        .into(),
            })
    }

    /// The name LLVM and the vendors use (`sm_90a`, `gfx942`).
    pub fn name(self) -> &'static str {
        match self {
            Target::Sm80 => "sm_80",
            Target::Sm90 => "sm_90",
            Target::Sm90a => "sm_90a",
            Target::Gfx90a => "gfx90a",
            Target::Gfx942 => "gfx942",
            Target::Gfx950 => "gfx950",
        }
    }

    /// NVIDIA or AMD.
    pub fn vendor(self) -> Vendor {
        match self {
            Target::Sm80 | Target::Sm90 | Target::Sm90a => Vendor::Nvidia,
            _ => Vendor::Amd,
        }
    }

    /// Threads per warp (NVIDIA) or wavefront (CDNA).
    pub fn threads_per_warp(self) -> u32 {
        match self.vendor() {
            Vendor::Nvidia => 32,
            Vendor::Amd => 64,
        }
    }

    /// Largest number of warps (wavefronts) in one CTA (1024 threads).
    pub fn max_warps(self) -> u32 {
        1024 / self.threads_per_warp()
    }

    /// Whether the target has `feature`.
    pub fn supports(self, feature: Feature) -> bool {
        match feature {
            Feature::Fp8 => matches!(self, Target::Sm90 | Target::Sm90a),
            Feature::Bf16Arith => matches!(self, Target::Sm90 | Target::Sm90a),
            Feature::Wgmma => self == Target::Sm90a,
            Feature::AtomicAddF64 => true,
        }
    }

    /// Fails with [`CodegenError::Unsupported`] if the target lacks `feature`.
    pub(crate) fn require(self, feature: Feature, op: &'static str) -> Result<()> {
        if self.supports(feature) {
            return Ok(());
        }
        let reason = match feature {
            Feature::Fp8 => "fp8 conversions need sm_90 (NVIDIA)",
            Feature::Bf16Arith => "native bf16 arithmetic needs sm_90",
            Feature::Wgmma => "wgmma needs sm_90a",
            Feature::AtomicAddF64 => "f64 atomic add is missing",
        };
        Err(CodegenError::Unsupported {
            op,
            target: self.name().into(),
            reason: reason.into(),
        })
    }

    /// The LLVM target triple.
    pub fn triple(self) -> &'static str {
        match self.vendor() {
            Vendor::Nvidia => "nvptx64-nvidia-cuda",
            Vendor::Amd => "amdgcn-amd-amdhsa",
        }
    }

    /// The LLVM feature string (`+ptx80` pins the PTX ISA on NVIDIA).
    pub fn llvm_features(self) -> &'static str {
        match self.vendor() {
            Vendor::Nvidia => "+ptx80",
            Vendor::Amd => "",
        }
    }

    /// The calling convention that marks a kernel entry: `ptx_kernel` (71) or `amdgpu_kernel` (91).
    pub(crate) fn kernel_calling_convention(self) -> u32 {
        match self.vendor() {
            Vendor::Nvidia => 71,
            Vendor::Amd => 91,
        }
    }

    /// Fails unless this build can emit code for the target (AMDGPU needs feature `amdgpu`).
    pub(crate) fn check_enabled(self) -> Result<()> {
        if self.vendor() == Vendor::Amd && !cfg!(feature = "amdgpu") {
            return Err(CodegenError::BadTarget {
                target: self.name().into(),
                reason: "AMDGPU code generation needs weft's cargo feature `amdgpu`".into(),
            });
        }
        Ok(())
    }

    /// Runs `f` with this thread's target machine for (target, `level`), made on first use
    /// (making one costs a few hundred µs, a tenth of a small kernel's compile).
    pub(crate) fn with_machine<T>(
        self,
        level: OptimizationLevel,
        f: impl FnOnce(&TargetMachine) -> Result<T>,
    ) -> Result<T> {
        thread_local! {
            static MACHINES: std::cell::RefCell<Vec<MachineEntry>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let cached = MACHINES.with(|m| {
            m.borrow()
                .iter()
                .find(|(k, _)| *k == (self, level))
                .map(|(_, tm)| tm.clone())
        });
        let tm = match cached {
            Some(tm) => tm,
            None => {
                let tm = std::rc::Rc::new(self.machine(level)?);
                MACHINES.with(|m| m.borrow_mut().push(((self, level), tm.clone())));
                tm
            }
        };
        f(&tm)
    }

    /// The LLVM data layout string of the target.
    pub(crate) fn data_layout(self) -> Result<String> {
        self.with_machine(OptimizationLevel::None, |tm| {
            Ok(tm
                .get_target_data()
                .get_data_layout()
                .as_str()
                .to_string_lossy()
                .into_owned())
        })
    }

    /// A fresh LLVM target machine with code generation at `level`.
    fn machine(self, level: OptimizationLevel) -> Result<TargetMachine> {
        self.check_enabled()?;
        init_llvm_target(self.vendor());
        let triple = TargetTriple::create(self.triple());
        let target =
            LlvmTarget::from_triple(&triple).map_err(|e| CodegenError::llvm("target lookup", e))?;
        target
            .create_target_machine(
                &triple,
                self.name(),
                self.llvm_features(),
                level,
                RelocMode::PIC,
                CodeModel::Default,
            )
            .ok_or_else(|| CodegenError::llvm("target machine", self.name()))
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Target {
    type Err = CodegenError;
    fn from_str(s: &str) -> Result<Target> {
        Target::parse(s)
    }
}

/// Registers LLVM's NVPTX (or AMDGPU) back end once per process. Only these two are ever
/// initialised: each `initialize_*` pulls its back end's archives into the binary.
fn init_llvm_target(vendor: Vendor) {
    static OPTIONS: Once = Once::new();
    OPTIONS.call_once(set_llvm_options);
    static NVPTX: Once = Once::new();
    match vendor {
        Vendor::Nvidia => {
            NVPTX.call_once(|| LlvmTarget::initialize_nvptx(&InitializationConfig::default()))
        }
        Vendor::Amd => init_amdgpu(),
    }
}

/// Process-wide LLVM options, set once.
///
/// - `-disable-vector-combine`: the O3 pipeline's VectorCombine splits the builder's vector
///   loads into scalar ones (it judges scalar loads cheaper on GPUs), and the back end does not
///   always put them together again (it does not in unrolled loops), which would undo the vector
///   widths the layout algebra chose.
/// - `-disable-nvptx-load-store-vectorizer`: the builder already emits every global access at
///   the widest vector the layout allows, so NVPTX's load/store vectorizer finds nothing to do
///   (the PTX of the example kernels is identical), yet it would double the instructions a
///   64 × 64 tile's compile executes (+21 M on 19 M).
/// - `-opt-disable=slsr,nary-reassociate` (builds without feature `amdgpu`): LLVM 22's
///   straight-line strength reduction, run by NVPTX code generation at `-O1` and above, and
///   n-ary reassociation, which runs after it, would execute 4.7 times the instructions of the
///   rest of a 64 × 64 tile's compile (+91 M on 19 M; SLSR's redesign has a known compile-time
///   problem: `canReuseInstruction` for every basis/candidate pair); both leave the builder's
///   PTX unchanged (memcpy, add, copy_2d, transpose: the same PTX instructions). The option is
///   process-wide and names the passes, not the target, and on AMDGPU SLSR does pay (a 64 × 64
///   transpose for gfx942 needs twice the VGPRs without it), so builds that can emit AMDGPU code
///   keep both.
/// - `-instcombine-code-sinking=false` (builds without feature `amdgpu`): keeps the builder's
///   prologue (thread and block ids) a block of its own through the straight-line O3 pipeline
///   of kernels that use math functions (`emit.rs`; the other loop-free kernels run no middle
///   end, so nothing sinks), which made instruction selection of a 64 × 64 tile 6 % cheaper
///   with the same PTX. Sinking would move each id computation into the body, its only user. It
///   also applies to `default<O3>` (kernels with loops), where sinking moves a computation into
///   the one successor block that uses it: on NVIDIA, where masked accesses are predicated
///   rather than branched around, that saves little. AMDGPU builds (which branch around masked
///   accesses) do without it.
fn set_llvm_options() {
    let mut args = vec![
        c"weft".as_ptr(),
        c"-disable-vector-combine".as_ptr(),
        c"-disable-nvptx-load-store-vectorizer".as_ptr(),
    ];
    if !cfg!(feature = "amdgpu") {
        args.push(c"-opt-disable=slsr,nary-reassociate".as_ptr());
        args.push(c"-instcombine-code-sinking=false".as_ptr());
    }
    // SAFETY: valid NUL-terminated strings that outlive the call (static literals); this runs
    // once, before any pass pipeline.
    unsafe {
        llvm_sys::support::LLVMParseCommandLineOptions(
            args.len() as i32,
            args.as_ptr(),
            std::ptr::null(),
        )
    };
}

#[cfg(feature = "amdgpu")]
fn init_amdgpu() {
    static AMDGPU: Once = Once::new();
    AMDGPU.call_once(|| LlvmTarget::initialize_amd_gpu(&InitializationConfig::default()));
}

#[cfg(not(feature = "amdgpu"))]
fn init_amdgpu() {}
