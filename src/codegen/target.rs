//! How LLVM is set up for a [`Target`] (the crate-wide description in [`crate::target`]): which
//! targets the builder emits code for, their triples, target machines and data layouts.
//!
//! NVIDIA: `sm_80`, `sm_90`, `sm_90a`, always with PTX ISA 8.0 (`+ptx80`) so the PTX does not move
//! when LLVM's default does and stays within what the CUDA 13.0 driver accepts (≤ 9.0).
//! AMD: `gfx90a`, `gfx942`, `gfx950` (cargo feature `amdgpu`), 64 lanes per wavefront.

use std::sync::Once;

use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, TargetMachine, TargetTriple};
use inkwell::OptimizationLevel;

use super::error::{CodegenError, Result};
pub use crate::target::{Feature, Target, Vendor};

/// The PTX ISA every NVIDIA target is pinned to.
pub const PTX_ISA: (u32, u32) = (8, 0);

/// Every target the builder emits code for, in a stable order (tests iterate it).
pub const ALL_TARGETS: [Target; 6] = [
    Target::SM80,
    Target::SM90,
    Target::SM90A,
    Target::GFX90A,
    Target::GFX942,
    Target::GFX950,
];

/// One cached target machine per (target, optimisation level) and thread.
type MachineEntry = ((Target, OptimizationLevel), std::rc::Rc<TargetMachine>);

/// The LLVM side of a target, for the builder.
pub(crate) trait LlvmTarget {
    /// Fails with [`CodegenError::Unsupported`] if the target lacks `feature`.
    fn require(self, feature: Feature, op: &'static str) -> Result<()>;
    /// The LLVM target triple.
    fn triple(self) -> &'static str;
    /// The LLVM CPU name (`sm_90a`, `gfx942`).
    fn cpu(self) -> String;
    /// The LLVM feature string (`+ptx80` pins the PTX ISA on NVIDIA).
    fn llvm_features(self) -> &'static str;
    /// The calling convention that marks a kernel entry: `ptx_kernel` (71) or `amdgpu_kernel` (91).
    fn kernel_calling_convention(self) -> u32;
    /// Fails unless the builder emits code for the target (one of [`ALL_TARGETS`]) and this build
    /// can (AMDGPU needs feature `amdgpu`).
    fn check_enabled(self) -> Result<()>;
    /// Runs `f` with this thread's target machine for (target, `level`), made on first use
    /// (making one costs a few hundred µs, a tenth of a small kernel's compile).
    fn with_machine<T>(
        self,
        level: OptimizationLevel,
        f: impl FnOnce(&TargetMachine) -> Result<T>,
    ) -> Result<T>;
    /// The LLVM data layout string of the target.
    fn data_layout(self) -> Result<String>;
}

impl LlvmTarget for Target {
    fn require(self, feature: Feature, op: &'static str) -> Result<()> {
        match self.missing(feature) {
            None => Ok(()),
            Some(reason) => Err(CodegenError::Unsupported {
                op,
                target: self.to_string(),
                reason: reason.into(),
            }),
        }
    }

    fn triple(self) -> &'static str {
        match self.vendor() {
            Vendor::Nvidia => "nvptx64-nvidia-cuda",
            Vendor::Amd => "amdgcn-amd-amdhsa",
        }
    }

    fn cpu(self) -> String {
        self.to_string()
    }

    fn llvm_features(self) -> &'static str {
        match self.vendor() {
            Vendor::Nvidia => "+ptx80",
            Vendor::Amd => "",
        }
    }

    fn kernel_calling_convention(self) -> u32 {
        match self.vendor() {
            Vendor::Nvidia => 71,
            Vendor::Amd => 91,
        }
    }

    fn check_enabled(self) -> Result<()> {
        if !ALL_TARGETS.contains(&self) {
            return Err(CodegenError::BadTarget {
                target: self.to_string(),
                reason:
                    "the builder emits code for sm_80, sm_90, sm_90a, gfx90a, gfx942 and gfx950"
                        .into(),
            });
        }
        if self.vendor() == Vendor::Amd && !cfg!(feature = "amdgpu") {
            return Err(CodegenError::BadTarget {
                target: self.to_string(),
                reason: "AMDGPU code generation needs weft's cargo feature `amdgpu`".into(),
            });
        }
        Ok(())
    }

    fn with_machine<T>(
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
                let tm = std::rc::Rc::new(machine(self, level)?);
                MACHINES.with(|m| m.borrow_mut().push(((self, level), tm.clone())));
                tm
            }
        };
        f(&tm)
    }

    fn data_layout(self) -> Result<String> {
        self.with_machine(OptimizationLevel::None, |tm| {
            Ok(tm
                .get_target_data()
                .get_data_layout()
                .as_str()
                .to_string_lossy()
                .into_owned())
        })
    }
}

/// A fresh LLVM target machine with code generation at `level`.
fn machine(target: Target, level: OptimizationLevel) -> Result<TargetMachine> {
    target.check_enabled()?;
    init_llvm_target(target.vendor());
    let triple = TargetTriple::create(target.triple());
    let llvm = inkwell::targets::Target::from_triple(&triple)
        .map_err(|e| CodegenError::llvm("target lookup", e))?;
    llvm.create_target_machine(
        &triple,
        &target.cpu(),
        target.llvm_features(),
        level,
        RelocMode::PIC,
        CodeModel::Default,
    )
    .ok_or_else(|| CodegenError::llvm("target machine", target))
}

/// Registers LLVM's NVPTX (or AMDGPU) back end once per process. Only these two are ever
/// initialised: each `initialize_*` pulls its back end's archives into the binary.
fn init_llvm_target(vendor: Vendor) {
    static OPTIONS: Once = Once::new();
    OPTIONS.call_once(set_llvm_options);
    static NVPTX: Once = Once::new();
    match vendor {
        Vendor::Nvidia => NVPTX.call_once(|| {
            inkwell::targets::Target::initialize_nvptx(&InitializationConfig::default())
        }),
        Vendor::Amd => init_amdgpu(),
    }
}

extern "C" {
    /// `shim/pass_gate.cpp`: installs the pass gate for NVIDIA (`nvptx` = 1) or AMD code on `ctx`.
    fn weft_set_pass_gate(ctx: llvm_sys::prelude::LLVMContextRef, nvptx: std::ffi::c_int);
    /// `shim/pass_gate.cpp`: whether `pass` runs under the gate for NVIDIA or AMD code.
    #[cfg(test)]
    fn weft_pass_gate_runs(
        nvptx: std::ffi::c_int,
        pass: *const std::ffi::c_char,
    ) -> std::ffi::c_int;
}

/// Installs on `module`'s context the passes `vendor`'s code generation skips, before each
/// pipeline or code generation run: NVIDIA code skips straight-line strength reduction and n-ary
/// reassociation, which NVPTX code generation runs at `-O1` and above. In LLVM 22 they would
/// execute 4.7 times the instructions of the rest of a 64 × 64 tile's compile (+91 M on 19 M;
/// SLSR's `canReuseInstruction` for every basis/candidate pair) and leave the builder's PTX
/// unchanged (memcpy, add, copy_2d, transpose). AMDGPU code runs them: there SLSR pays (a 64 × 64
/// transpose for gfx942 needs twice the VGPRs without it). The gate belongs to the LLVM context,
/// so what one kernel's target needs changes nothing for another's.
pub(crate) fn set_pass_gate(module: &inkwell::module::Module<'_>, vendor: Vendor) {
    // SAFETY: a live module; the shim only stores a reference to a static gate in its context.
    unsafe {
        let ctx = llvm_sys::core::LLVMGetModuleContext(module.as_mut_ptr());
        weft_set_pass_gate(ctx, (vendor == Vendor::Nvidia) as std::ffi::c_int);
    }
}

/// Whether code generation for `vendor` runs the pass `name` (its pass argument, e.g. `slsr`).
#[cfg(test)]
fn pass_runs(vendor: Vendor, name: &std::ffi::CStr) -> bool {
    // SAFETY: a NUL-terminated string the shim only reads during the call.
    unsafe {
        weft_pass_gate_runs((vendor == Vendor::Nvidia) as std::ffi::c_int, name.as_ptr()) != 0
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
///
/// Both name passes that do nothing for the builder's code on any target. Which passes a kernel's
/// code generation skips depends on its target and is chosen per kernel ([`set_pass_gate`]); no
/// option here depends on a cargo feature.
fn set_llvm_options() {
    let args = [
        c"weft".as_ptr(),
        c"-disable-vector-combine".as_ptr(),
        c"-disable-nvptx-load-store-vectorizer".as_ptr(),
    ];
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
    AMDGPU.call_once(|| {
        inkwell::targets::Target::initialize_amd_gpu(&InitializationConfig::default())
    });
}

#[cfg(not(feature = "amdgpu"))]
fn init_amdgpu() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvidia_code_generation_skips_the_straight_line_reassociations_only() {
        for pass in [c"slsr", c"nary-reassociate"] {
            assert!(!pass_runs(Vendor::Nvidia, pass), "{pass:?}");
            assert!(pass_runs(Vendor::Amd, pass), "{pass:?}");
        }
        for pass in [
            c"instcombine",
            c"early-cse",
            c"separate-const-offset-from-gep",
        ] {
            assert!(pass_runs(Vendor::Nvidia, pass), "{pass:?}");
        }
    }
}
