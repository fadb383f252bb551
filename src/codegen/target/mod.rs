//! How LLVM is set up for a [`Target`] (the crate-wide description in [`crate::target`]): which
//! targets the builder emits code for, their triples, target machines and data layouts.
//!
//! NVIDIA: `sm_80`, `sm_90`, `sm_90a`, always with PTX ISA 8.0 (`+ptx80`) so the PTX does not move
//! when LLVM's default does and stays within what the CUDA 13.0 driver accepts (≤ 9.0).
//! AMD: `gfx90a`, `gfx942`, `gfx950` (cargo feature `amdgpu`), 64 lanes per wavefront.

pub(crate) mod amdgpu;
pub(crate) mod nvptx;

use std::sync::Once;

use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, TargetMachine, TargetTriple};
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::OptimizationLevel;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::CacheHint;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::{self, Emitter};
use crate::codegen::lower::OptLevel;
use crate::codegen::types::DType;
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

/// What lowers differently per vendor: one implementation each ([`nvptx::Nvptx`],
/// [`amdgpu::Amdgpu`]), reached through [`LlvmTarget::lowering`], so that ops never match on the
/// vendor themselves.
pub(crate) trait Lowering: Sync {
    /// The LLVM target triple.
    fn triple(&self) -> &'static str;
    /// The LLVM feature string (`+ptx80` pins the PTX ISA on NVIDIA).
    fn llvm_features(&self) -> &'static str;
    /// The calling convention that marks a kernel entry: `ptx_kernel` (71) or `amdgpu_kernel` (91).
    fn kernel_calling_convention(&self) -> u32;
    /// The string attribute of the kernel function that states its block size of `threads`.
    fn block_size_attribute(&self, threads: u32) -> (&'static str, String);
    /// The intrinsic that reads the thread's index in the CTA.
    fn thread_index_sreg(&self) -> &'static str;
    /// The index of this CTA along grid axis `axis` (named `x`, `y`, `z`).
    fn program_id<'ctx>(
        &self,
        lx: &mut LowerCtx<'ctx>,
        axis: u32,
        name: &str,
    ) -> Result<IntValue<'ctx>>;
    /// The number of CTAs along grid axis `axis`.
    fn num_programs<'ctx>(
        &self,
        lx: &mut LowerCtx<'ctx>,
        axis: u32,
        name: &str,
    ) -> Result<IntValue<'ctx>>;
    /// The sync scope of device-wide atomics (Triton's `gpu` scope).
    fn device_sync_scope(&self) -> &'static str;
    /// Whether an acquire-release `atomicrmw` needs fences around it to keep its ordering: LLVM's
    /// NVPTX back end emits every `atomicrmw` as a relaxed `atom` (it keeps `cmpxchg`'s).
    fn fences_read_modify_write(&self) -> bool {
        false
    }
    /// Whether a masked access of `vec` elements of `elem` is one predicated instruction
    /// ([`global_access`](Self::global_access)) rather than a branch around a plain one.
    fn predicates_access(&self, elem: DType, vec: usize) -> bool;
    /// Lowers a global access the target's own way (inline PTX for hinted or predicated
    /// accesses on NVIDIA); `None` leaves it to a plain LLVM load or store.
    fn global_access<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        a: &GlobalAccess<'ctx, '_>,
    ) -> Option<Result<Vec<BasicValueEnum<'ctx>>>>;
    /// The target's fast (approximate) intrinsic for `f`, if it has one; with `ftz`, its form
    /// that flushes subnormals to zero where there is one.
    fn fast_math(&self, f: FastFn, is64: bool, ftz: bool) -> Option<FastIntrinsic>;
    /// The intrinsic of Triton's default f32 division (`llvm.nvvm.div.full`, PTX's
    /// `div.full.f32`), or `None` where the target's fast division is a plain `fdiv` with
    /// approximate-function flags.
    fn fast_div_f32(&self) -> Option<&'static str>;
    /// Whether the back end cannot lower a bf16 remainder.
    fn lacks_bf16_rem(&self) -> bool;
    /// Whether `target` rounds two f32 to f16 or bf16 in one instruction (`cvt.rn.f16x2.f32`).
    fn narrows_f32_pairs(&self, target: Target) -> bool;
    /// Whether the target has named barriers of a thread count (`bar.sync id, n`), which warp
    /// roles synchronise through.
    fn has_named_barriers(&self) -> bool;
    /// LLVM's code generation level for `opt`.
    fn codegen_level(&self, opt: OptLevel) -> OptimizationLevel;
    /// Whether loop-free kernels may skip `default<O3>` at [`OptLevel::O3`] (`lower/output.rs`).
    fn straight_line_without_o3(&self) -> bool;
    /// A barrier of every thread of the CTA that also orders their shared-memory accesses
    /// (`bar.sync 0`; `s_barrier` between workgroup fences).
    fn barrier(&self, em: &Emitter<'_>) -> Result<()>;
    /// The `i32` `val` of lane `src` of this warp (`shfl.sync.idx`, `ds_bpermute`); `lane` is
    /// this thread's lane id.
    fn shuffle_idx<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        src: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>>;
    /// The `i32` `val` of lane `lane - delta` (`shfl.sync.up`); lanes below `delta` get an
    /// unspecified value (callers mask them). `lane` is this thread's lane id.
    fn shuffle_up<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        delta: u32,
        lane: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let d = em.ctx.i32_type().const_int(delta as u64, false);
        let src = em.b.build_int_sub(lane, d, "")?;
        self.shuffle_idx(em, val, src)
    }
    /// The `i32` `val` of lane `lane ^ mask` (`shfl.sync.bfly`); `lane` is this thread's lane id.
    fn shuffle_xor<'ctx>(
        &self,
        em: &Emitter<'ctx>,
        val: IntValue<'ctx>,
        mask: u32,
        lane: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>>;
}

/// One global load (`store` is `None`) or store of `vec` consecutive elements at `ptr`.
pub(crate) struct GlobalAccess<'ctx, 'a> {
    /// The address of the first element.
    pub ptr: PointerValue<'ctx>,
    /// The element type.
    pub elem: DType,
    /// Elements moved.
    pub vec: usize,
    /// The cache policy.
    pub hint: CacheHint,
    /// The values to store (in memory form), or `None` for a load.
    pub store: Option<&'a [BasicValueEnum<'ctx>]>,
    /// Where the access happens, if not everywhere.
    pub pred: Option<IntValue<'ctx>>,
}

/// Functions with fast target-specific lowerings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastFn {
    Rsqrt,
    Sin,
    Cos,
    Exp2,
    Log2,
}

/// A fast intrinsic: fixed to its type, or overloaded on the float type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastIntrinsic {
    Fixed(&'static str),
    Overloaded(&'static str),
}

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
    /// The vendor's lowering: the one place the builder dispatches on the vendor.
    fn lowering(self) -> &'static dyn Lowering;
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
        self.lowering().triple()
    }

    fn cpu(self) -> String {
        self.to_string()
    }

    fn llvm_features(self) -> &'static str {
        self.lowering().llvm_features()
    }

    fn lowering(self) -> &'static dyn Lowering {
        match self.vendor() {
            Vendor::Nvidia => &nvptx::Nvptx,
            Vendor::Amd => &amdgpu::Amdgpu,
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

/// Installs on `module`'s context the passes `vendor`'s code generation skips, before each
/// pipeline or code generation run: NVIDIA code skips straight-line strength reduction and n-ary
/// reassociation, which NVPTX code generation runs at `-O1` and above. In LLVM 22 they would
/// execute 4.7 times the instructions of the rest of a 64 × 64 tile's compile (+91 M on 19 M;
/// SLSR's `canReuseInstruction` for every basis/candidate pair) and leave the builder's PTX
/// unchanged (memcpy, add, copy_2d, transpose). AMDGPU code runs them: there SLSR pays (a 64 × 64
/// transpose for gfx942 needs twice the VGPRs without it). The gate belongs to the LLVM context,
/// so what one kernel's target needs changes nothing for another's. NVIDIA kernels with tensor-core
/// ops also skip the SLP vectoriser and dead-store elimination: they find nothing there (the builder
/// chose every memory access's width and writes each element once; accumulators are inline-asm
/// operands) and took 29% of the GEMM's compile (385 M → 276 M instructions, identical PTX).
/// NVIDIA code generation (`codegen`) also skips NVPTX's early CSE, which finds nothing left to
/// merge in the builder's code (it shares index arithmetic itself, `lower/index_cse.rs`, and the
/// middle end ran CSE where there is one): the same PTX for every shipped kernel in 103
/// configurations (`examples/compile_probe.rs sweep`) but the mma.sync GEMMs and the pipelined
/// attention (registers renamed: the same cubin, or for two A·Bᵀ GEMMs a cubin as large or
/// smaller with the same register count) and the warp-specialised GEMMs (a zero materialised by
/// two more `mov`s: the same register count and cubin size), for 8 M fewer instructions per GEMM
/// compile, 17 M per attention compile and 4 M per 16K-row softmax compile (of 37 M).
pub(crate) fn set_pass_gate(
    module: &inkwell::module::Module<'_>,
    vendor: Vendor,
    tensor_cores: bool,
    codegen: bool,
) {
    use emitter::PassGate;
    let gate = match (vendor, tensor_cores, codegen) {
        (Vendor::Nvidia, false, false) => PassGate::Nvidia,
        (Vendor::Nvidia, false, true) => PassGate::NvidiaCodegen,
        (Vendor::Nvidia, true, false) => PassGate::NvidiaTensorCores,
        (Vendor::Nvidia, true, true) => PassGate::NvidiaTensorCoresCodegen,
        _ => PassGate::Amd,
    };
    emitter::install_pass_gate(module, gate);
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
/// - `-nvptx-short-ptr`: NVPTX pointers into shared, constant and local memory are 32 bits
///   (data layout `p3:32:32-p4:32:32-p5:32:32`), as Triton sets it. Those windows are at most a
///   few hundred KB, so the 64-bit pointers NVPTX uses by default only cost: every shared
///   address was built in 64-bit registers (`add.s64`, `cvt.u64.u32`) and cut back to 32 bits for
///   the `.shared` operands of inline PTX. The option is read when a target machine is made, and
///   the data layout every module gets comes from that machine.
///
/// The first two name passes that do nothing for the builder's code on any target; the third
/// only changes NVPTX. Which passes a kernel's code generation skips depends on its target and is
/// chosen per kernel ([`set_pass_gate`]); no option here depends on a cargo feature.
fn set_llvm_options() {
    emitter::parse_command_line(&[
        c"weft",
        c"-disable-vector-combine",
        c"-disable-nvptx-load-store-vectorizer",
        c"-nvptx-short-ptr",
    ]);
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
        use emitter::PassGate::{
            Amd, Nvidia, NvidiaCodegen, NvidiaTensorCores, NvidiaTensorCoresCodegen,
        };
        let nvidia = [
            Nvidia,
            NvidiaTensorCores,
            NvidiaCodegen,
            NvidiaTensorCoresCodegen,
        ];
        for pass in [c"slsr", c"nary-reassociate"] {
            for gate in nvidia {
                assert!(!emitter::pass_runs(gate, pass), "{gate:?} {pass:?}");
            }
            assert!(emitter::pass_runs(Amd, pass), "{pass:?}");
        }
        for pass in [
            c"instcombine",
            c"separate-const-offset-from-gep",
            c"EarlyCSEPass",
        ] {
            for gate in nvidia {
                assert!(emitter::pass_runs(gate, pass), "{gate:?} {pass:?}");
            }
        }
        // Only tensor-core kernels skip the SLP vectoriser and dead-store elimination.
        for pass in [c"SLPVectorizerPass", c"DSEPass"] {
            assert!(emitter::pass_runs(Nvidia, pass), "{pass:?}");
            assert!(emitter::pass_runs(NvidiaCodegen, pass), "{pass:?}");
            assert!(!emitter::pass_runs(NvidiaTensorCores, pass), "{pass:?}");
            assert!(
                !emitter::pass_runs(NvidiaTensorCoresCodegen, pass),
                "{pass:?}"
            );
        }
        // Only NVIDIA code generation skips NVPTX's early CSE (legacy pass argument and name);
        // the middle end's (`EarlyCSEPass`, above) is never skipped.
        for pass in [c"early-cse", c"Early CSE"] {
            assert!(emitter::pass_runs(Nvidia, pass), "{pass:?}");
            assert!(emitter::pass_runs(NvidiaTensorCores, pass), "{pass:?}");
            assert!(!emitter::pass_runs(NvidiaCodegen, pass), "{pass:?}");
            assert!(
                !emitter::pass_runs(NvidiaTensorCoresCodegen, pass),
                "{pass:?}"
            );
            assert!(emitter::pass_runs(Amd, pass), "{pass:?}");
        }
    }
}
