//! A finished kernel and what it emits: LLVM IR (as built, or after LLVM's O3 pipeline), PTX,
//! AMDGPU assembly and code objects, and the signature a launcher checks.
//!
//! Code generation rewrites a module in place (on AMDGPU a second run on the same module aborts),
//! so every emission works on a fresh clone, except [`Kernel::into_ptx`], which consumes the
//! kernel.

use crate::codegen::ir::Program;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::FileType;
use inkwell::OptimizationLevel;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::emitter::clone_module;
use crate::codegen::report::{parse_ptxas_verbose, KernelReport, Recorded};
use crate::codegen::target::LlvmTarget;
use crate::codegen::target::{set_pass_gate, Target, Vendor};
use crate::signature::KernelSignature;

/// How much LLVM optimises before emitting. ptxas (or the driver's JIT) optimises the PTX again
/// in every case.
///
/// Compile latency (builder to PTX, `benches/compile.rs`; numbers in BENCHMARKS.md): at
/// [`OptLevel::O3`] a memcpy compiles in about 1.1 ms and a 64 × 64 transpose tile in
/// 2.4–2.8 ms of CPU time on the shared dev machine (6.3 M and 18.0 M instructions executed),
/// the Hopper GEMM in about 9–10 ms (94 M), with the same PTX as `default<O3>` followed by
/// LLVM's `-O3` NVPTX code generation except for tensor-core kernels with loops, which skip the
/// middle end (see [`OptLevel::O3`], `STRAIGHT_LINE_PIPELINE`, `LOOP_PIPELINE`,
/// `OptLevel::codegen_level`, and `set_llvm_options` and `set_pass_gate` in `target/mod.rs` for
/// what is left out and why). [`OptLevel::None`] and [`OptLevel::Fast`] generate code at `-O0`:
/// their PTX is longer and ptxas leaves more integer work in the SASS (memcpy: 64 SASS
/// instructions against 38), and they save little or no compile time (instructions executed per
/// compile, relative to O3: memcpy 0.67× and 0.85×, transpose 0.91× and 1.29×), so O3 is the
/// level to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OptLevel {
    /// The IR as built, code generation at `-O0`.
    None,
    /// A light clean-up (`early-cse`, `instcombine`, `simplifycfg`, `licm`, `dce`), code
    /// generation at `-O0`. The builder already chose vector widths and index arithmetic; this
    /// keeps them.
    Fast,
    /// The best code. The middle end is `default<O3>` on AMDGPU; NVIDIA kernels with loops get
    /// the passes of `default<O3>` that change their PTX (`LOOP_PIPELINE`), except tensor-core
    /// kernels (mma.sync, wgmma), which get none: their loops are a handful of address and
    /// phase updates around asynchronous copies and MMAs that ptxas cleans up as well (the
    /// Hopper GEMM's k-loop is 114 SASS instructions against 106, same registers), and the
    /// H200 runs them at the same speed (2026-11-25, five interleaved rounds: GEMM 8192³ f16,
    /// bf16 and fp8, ping-pong attention causal and not, every difference inside the
    /// run-to-run spread of ±3%), while the middle end was 40% of their compile (GEMM 166 M →
    /// 94 M instructions executed, ping-pong attention 468 M → 300 M). Loop-free NVIDIA
    /// kernels (the builder's straight-line code) get none either, since the builder
    /// emits their index arithmetic as it would come out (`lower/index_cse.rs`), or a light pipeline
    /// (`STRAIGHT_LINE_PIPELINE`) when they use math functions: the same PTX in a fraction of
    /// the time. Code generation is at `-O3` on AMDGPU and at `-O2` on NVIDIA, where it emits
    /// the same PTX.
    #[default]
    O3,
}

/// The middle-end pipeline of [`OptLevel::Fast`].
const FAST_PIPELINE: &str =
    "function(early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa(licm),dce)";

/// The middle-end pipeline of [`OptLevel::O3`] for loop-free NVIDIA kernels that use math
/// functions. The other loop-free NVIDIA kernels get no middle end at all: the builder emits
/// straight-line code with its vector widths chosen, masked accesses predicated (no branches),
/// index arithmetic in the form instcombine would give it (disjoint `or`s, constant offsets
/// outermost, shifts for power-of-two factors: `lower/index_cse.rs`) and the thread index's range on
/// its call, and shares equal index instructions itself (the SelectionDAG also merges equal
/// nodes of a block; NVPTX's own early CSE finds nothing left, `set_pass_gate`). Measured on
/// the memcpy, add, copy_2d and transpose kernels (sm_90): the same PTX instruction count,
/// ptxas register count and SASS as with this pipeline on the builder's former IR (also for
/// every other O3 kernel the codegen tests assemble), for a quarter fewer instructions executed
/// per compile of a 64 × 64 tile (26.0 M → 19.4 M).
/// The math lowering (`math/`: polynomials, f16 through f32) is written plainly and leaves
/// folding to instcombine (dropping it costs 2–11 SASS instructions per function), so kernels
/// that use it keep this pipeline. Instcombine does not sink into the body
/// (`set_llvm_options` in `target/mod.rs`), so the prologue (thread and block ids) stays a block of
/// its own: instruction selection works one block at a time, and its known-bits queries stop at
/// the prologue's values.
const STRAIGHT_LINE_PIPELINE: &str = "function(nvvm-intr-range,instcombine<no-verify-fixpoint>)";

/// The middle-end pipeline of [`OptLevel::O3`] for NVIDIA kernels with loops: the function
/// passes of `default<O3>` (LLVM 22, in its order and with its options) without which some
/// kernel's PTX changes. The builder's kernels are one function with no calls (the inliner and
/// the interprocedural passes find nothing), no allocas or memcpys (SROA, mem2reg, memcpyopt), no
/// vectorisable scalar code (it chose every access's width) and each element written once (DSE).
/// Dropping each of `default<O3>`'s 67 function passes in turn (and `ipsccp`, the one module pass
/// that matters) kept the PTX of every shipped kernel in 103 configurations
/// (`examples/compile_probe.rs sweep`: GEMMs with wgmma, warp-specialised or with mma.sync;
/// attention with each schedule; softmax, layernorm, row sum, cumsum, transposes, copies) byte
/// for byte the same as with `default<O3>` without 49 of them. What the kept passes do there:
/// CSE and instcombine of the builder's per-iteration index arithmetic, rotation, LICM and
/// unswitching of the loops (the warp-specialised kernels' role branches), `indvars`, GVN across
/// the rotated loops, runtime unrolling and the last CFG clean-ups. This pipeline alone saves
/// about a sixth of the instructions a compile executes (the compile-latency section of
/// BENCHMARKS.md, 2026-11-25).
const LOOP_PIPELINE: &str = "\
function(simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;no-switch-range-to-icmp;\
no-switch-to-arithmetic;no-switch-to-lookup;keep-loops;no-hoist-common-insts;\
no-hoist-loads-stores-with-cond-faulting;no-sink-common-insts;speculate-blocks;\
simplify-cond-branch;no-speculate-unpredictables>,\
early-cse<>),\
ipsccp,\
function(instcombine<max-iterations=1;no-verify-fixpoint>,\
early-cse<memssa>,\
instcombine<max-iterations=1;no-verify-fixpoint>,\
reassociate,\
loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>,\
loop-rotate<header-duplication;\
no-prepare-for-lto>,licm<allowspeculation>,simple-loop-unswitch<nontrivial;trivial>),\
instcombine<max-iterations=1;no-verify-fixpoint>,\
loop(loop-idiom,indvars,extra-simple-loop-unswitch-passes,loop-deletion,loop-unroll-full),\
gvn<>,\
sccp,\
correlated-propagation,\
simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;\
switch-to-arithmetic;no-switch-to-lookup;keep-loops;hoist-common-insts;\
no-hoist-loads-stores-with-cond-faulting;sink-common-insts;speculate-blocks;\
simplify-cond-branch;no-speculate-unpredictables>,\
loop-unroll<O3>,\
instcombine<max-iterations=1;no-verify-fixpoint>,\
loop-mssa(licm<allowspeculation>),\
div-rem-pairs)";

impl OptLevel {
    /// LLVM's code generation level. [`OptLevel::O3`] generates NVIDIA code at `-O2`: what
    /// NVPTX adds at `-O3` is GVN instead of early CSE around its straight-line optimisations,
    /// which leaves the builder's PTX unchanged (memcpy, add, copy_2d, transpose: the same PTX
    /// instructions) and would add a fifth to the instructions a 64 × 64 tile's compile executes.
    fn codegen_level(self, target: Target) -> OptimizationLevel {
        target.lowering().codegen_level(self)
    }
}

/// Whether any function of `module` has a cycle in its control flow. Every cycle has an edge
/// from a block to one at or before it in layout order, so looking for such edges finds all
/// loops (and perhaps an irreducible non-loop, which only costs compile time).
fn has_loops(module: &Module<'_>) -> bool {
    module.get_functions().any(|f| {
        let blocks = f.get_basic_blocks();
        blocks.iter().enumerate().any(|(i, bb)| {
            bb.get_terminator().is_some_and(|t| {
                t.get_operands()
                    .flatten()
                    .filter_map(|o| o.block())
                    .any(|succ| blocks[..=i].contains(&succ))
            })
        })
    })
}

/// A verified kernel module.
pub struct Kernel<'ctx> {
    module: Module<'ctx>,
    target: Target,
    signature: KernelSignature,
    /// Whether the kernel has loops (chooses the [`OptLevel::O3`] pipeline).
    loops: bool,
    /// Whether it lowered a math function (chooses the [`OptLevel::O3`] pipeline).
    float_math: bool,
    /// Whether it uses tensor cores (chooses the pass gate, `target::set_pass_gate`).
    tensor_cores: bool,
    /// What the builder predicted for each op ([`Kernel::report`]).
    report: Recorded,
    /// The tile IR the builder recorded ([`Kernel::program`]).
    program: Program,
}

impl std::fmt::Debug for Kernel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("signature", &self.signature)
            .finish()
    }
}

impl<'ctx> Kernel<'ctx> {
    pub(crate) fn new(
        module: Module<'ctx>,
        target: Target,
        signature: KernelSignature,
        float_math: bool,
        tensor_cores: bool,
        report: Recorded,
        program: Program,
    ) -> Kernel<'ctx> {
        let loops = has_loops(&module);
        Kernel {
            module,
            target,
            signature,
            loops,
            float_math,
            tensor_cores,
            report,
            program,
        }
    }

    /// The kernel as the tile IR the builder recorded: print it (`{}`), or
    /// [`to_text(true)`](Program::to_text) with each op's source line.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// What the builder predicted for every global and shared access, conversion, reduction
    /// and scan it emitted: vector widths, shared instructions and bank conflicts per warp,
    /// shuffles, scratch bytes, barriers (see [`KernelReport`]; `println!("{}", k.report())`
    /// prints it as a table).
    pub fn report(&self) -> KernelReport {
        self.report.render(&self.program)
    }

    /// [`report`](Self::report) with ptxas's registers, spills and stack frame for the PTX
    /// ([`OptLevel::O3`]), from `ptxas -v` (`$PTXAS`, else `ptxas` on the `PATH`). NVIDIA
    /// targets only; a missing or failing ptxas is [`CodegenError::Ptxas`].
    pub fn report_with_ptxas(&self) -> Result<KernelReport> {
        self.require(Vendor::Nvidia, "report_with_ptxas")?;
        let ptx = self.ptx()?;
        let text = run_ptxas(&ptx, &self.target.to_string())?;
        let mut r = self.report();
        r.ptxas = Some(parse_ptxas_verbose(&text, &self.signature.name)?);
        Ok(r)
    }

    /// The kernel's name, parameters and block size.
    pub fn signature(&self) -> &KernelSignature {
        &self.signature
    }

    /// The target it was built for.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The LLVM IR as built (verified).
    pub fn llvm_ir(&self) -> String {
        self.module.print_to_string().to_string()
    }

    /// The LLVM IR after `opt`.
    pub fn llvm_ir_opt(&self, opt: OptLevel) -> Result<String> {
        Ok(self.prepared(opt)?.print_to_string().to_string())
    }

    /// Whether [`OptLevel::O3`] runs `LOOP_PIPELINE` (NVIDIA kernels with loops).
    /// Whether the kernel is an NVIDIA tensor-core kernel with loops, which gets no middle end at
    /// [`OptLevel::O3`] (see [`OptLevel::O3`]).
    fn tensor_core_loops(&self, opt: OptLevel) -> bool {
        self.tensor_cores && self.loop_pipeline(opt)
    }

    fn loop_pipeline(&self, opt: OptLevel) -> bool {
        opt == OptLevel::O3 && self.loops && self.target.lowering().straight_line_without_o3()
    }

    /// A copy of the module after `opt`'s middle end.
    fn prepared(&self, opt: OptLevel) -> Result<Module<'ctx>> {
        // `self.module` was verified by `finish` and is not modified after.
        let m = clone_module(&self.module);
        self.optimise(&m, opt)?;
        Ok(m)
    }

    /// Runs `opt`'s middle end on `m` (this kernel's module or a copy of it).
    fn optimise(&self, m: &Module<'ctx>, opt: OptLevel) -> Result<()> {
        let passes = match opt {
            OptLevel::None => return Ok(()),
            OptLevel::Fast => FAST_PIPELINE,
            OptLevel::O3 if self.tensor_core_loops(opt) => return Ok(()),
            OptLevel::O3 if self.loop_pipeline(opt) => LOOP_PIPELINE,
            OptLevel::O3 if !self.target.lowering().straight_line_without_o3() => "default<O3>",
            OptLevel::O3 if self.float_math => STRAIGHT_LINE_PIPELINE,
            OptLevel::O3 => return Ok(()),
        };
        set_pass_gate(m, self.target.vendor(), self.tensor_cores, false);
        self.target
            .with_machine(opt.codegen_level(self.target), |tm| {
                m.run_passes(passes, tm, PassBuilderOptions::create())
                    .map_err(|e| CodegenError::llvm("optimisation pipeline", e.to_string()))
            })
    }

    fn codegen(&self, opt: OptLevel, file: FileType) -> Result<Vec<u8>> {
        let m = self.prepared(opt)?;
        self.emit(&m, opt, file)
    }

    /// Code generation of `m` (already through `opt`'s middle end), which it rewrites.
    fn emit(&self, m: &Module<'ctx>, opt: OptLevel, file: FileType) -> Result<Vec<u8>> {
        set_pass_gate(m, self.target.vendor(), self.tensor_cores, true);
        self.target
            .with_machine(opt.codegen_level(self.target), |tm| {
                let buf = tm
                    .write_to_memory_buffer(m, file)
                    .map_err(|e| CodegenError::llvm("codegen", e.to_string()))?;
                Ok(buf.as_slice().to_vec())
            })
    }

    /// Loads the kernel on `dev` of any backend, in the form that backend runs: PTX on CUDA, an
    /// AMDGPU code object on HIP, the recorded program on the CPU (the interpreter). The
    /// kernel is checked against its signature at every launch.
    pub fn load_on<B: crate::runtime::Backend>(
        &self,
        dev: &B::Device,
    ) -> std::result::Result<B::Kernel, crate::runtime::RuntimeError> {
        use crate::runtime::{BackendKind, Device as _, KernelImage, Module as _, RuntimeError};
        let invalid = |what: &'static str| {
            move |e: CodegenError| RuntimeError::InvalidImage {
                what,
                reason: e.to_string(),
            }
        };
        let module = match B::KIND {
            BackendKind::Cuda => dev.load(KernelImage::Ptx(&self.ptx().map_err(invalid("PTX"))?)),
            BackendKind::Hip => dev.load(KernelImage::CodeObject(
                &self.code_object().map_err(invalid("code object"))?,
            )),
            BackendKind::Cpu => dev.load(KernelImage::Program(&self.program)),
        }?;
        module.kernel(self.signature.clone())
    }

    /// PTX text at the default [`OptLevel::O3`] (NVIDIA targets).
    pub fn ptx(&self) -> Result<String> {
        self.ptx_with(OptLevel::O3)
    }

    /// [`ptx`](Self::ptx), consuming the kernel: code generation works on the kernel's own
    /// module instead of a copy (4% of the attention kernel's compile), for the common case of
    /// a kernel built to be loaded once.
    pub fn into_ptx(self) -> Result<String> {
        self.require(Vendor::Nvidia, "into_ptx")?;
        self.optimise(&self.module, OptLevel::O3)?;
        let bytes = self.emit(&self.module, OptLevel::O3, FileType::Assembly)?;
        String::from_utf8(bytes).map_err(|e| CodegenError::llvm("codegen", e))
    }

    /// The kernel as an ahead-of-time [`BundleEntry`](crate::runtime::BundleEntry): its
    /// signature, target and PTX together (NVIDIA targets), for a bundle a runtime-only binary
    /// embeds (see [`runtime::bundle`](crate::runtime::bundle)).
    pub fn into_bundle_entry(self) -> Result<crate::runtime::BundleEntry> {
        let (signature, target) = (self.signature.clone(), self.target);
        let ptx = self.into_ptx()?;
        Ok(crate::runtime::BundleEntry::new(
            signature,
            target,
            crate::runtime::ImageKind::Ptx,
            ptx.into_bytes(),
        ))
    }

    /// PTX text after `opt` (NVIDIA targets).
    pub fn ptx_with(&self, opt: OptLevel) -> Result<String> {
        self.require(Vendor::Nvidia, "ptx")?;
        let bytes = self.codegen(opt, FileType::Assembly)?;
        String::from_utf8(bytes).map_err(|e| CodegenError::llvm("codegen", e))
    }

    /// The target's assembly after `opt`: PTX on NVIDIA, AMDGPU assembly on AMD.
    pub fn assembly(&self, opt: OptLevel) -> Result<String> {
        match self.target.vendor() {
            Vendor::Nvidia => self.ptx_with(opt),
            Vendor::Amd => self.amdgpu_asm(opt),
        }
    }

    /// AMDGPU assembly after `opt` (AMD targets).
    pub fn amdgpu_asm(&self, opt: OptLevel) -> Result<String> {
        self.require(Vendor::Amd, "amdgpu_asm")?;
        let bytes = self.codegen(opt, FileType::Assembly)?;
        String::from_utf8(bytes).map_err(|e| CodegenError::llvm("codegen", e))
    }

    /// The relocatable object LLVM emits for AMD targets (link it with [`Kernel::code_object`]).
    pub fn amdgpu_object(&self, opt: OptLevel) -> Result<Vec<u8>> {
        self.require(Vendor::Amd, "amdgpu_object")?;
        self.codegen(opt, FileType::Object)
    }

    /// A loadable AMDGPU code object (`.hsaco`): the object linked by `ld.lld -shared`. The linker
    /// is `$WEFT_LLD`, else `ld.lld-22`, else `ld.lld`.
    pub fn code_object(&self) -> Result<Vec<u8>> {
        let obj = self.amdgpu_object(OptLevel::O3)?;
        link_code_object(&obj, &self.signature.name)
    }

    fn require(&self, vendor: Vendor, op: &'static str) -> Result<()> {
        if self.target.vendor() == vendor {
            return Ok(());
        }
        Err(CodegenError::Unsupported {
            op,
            target: self.target.to_string(),
            reason: match vendor {
                Vendor::Nvidia => "PTX is emitted for NVIDIA targets only".into(),
                Vendor::Amd => "AMDGPU objects are emitted for AMD targets only".into(),
            },
        })
    }
}

/// `ptxas -v -arch=<arch>` of `ptx`; its diagnostics (stderr and stdout) on success.
fn run_ptxas(ptx: &str, arch: &str) -> Result<String> {
    static N: AtomicU64 = AtomicU64::new(0);
    let ptxas = std::env::var("PTXAS").unwrap_or_else(|_| "ptxas".into());
    let stem = format!(
        "weft-{}-{}-ptxas",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let dir = std::env::temp_dir();
    let src: PathBuf = dir.join(format!("{stem}.ptx"));
    let out: PathBuf = dir.join(format!("{stem}.cubin"));
    std::fs::write(&src, ptx)
        .map_err(|e| CodegenError::Ptxas(format!("writing {}: {e}", src.display())))?;
    let res = Command::new(&ptxas)
        .arg("-v")
        .arg(format!("-arch={arch}"))
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output();
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&out);
    let res = res.map_err(|e| {
        CodegenError::Ptxas(format!(
            "cannot run `{ptxas}` ({e}); set PTXAS to ptxas's path"
        ))
    })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&res.stderr),
        String::from_utf8_lossy(&res.stdout)
    );
    if !res.status.success() {
        return Err(CodegenError::Ptxas(format!(
            "`{ptxas} -arch={arch}` failed ({}): {}",
            res.status,
            text.trim()
        )));
    }
    Ok(text)
}

/// Links an AMDGPU object into a code object with `ld.lld -shared`.
fn link_code_object(obj: &[u8], name: &str) -> Result<Vec<u8>> {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let stem = format!(
        "weft-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let o: PathBuf = dir.join(format!("{stem}.o"));
    let so: PathBuf = dir.join(format!("{stem}.hsaco"));
    std::fs::write(&o, obj)
        .map_err(|e| CodegenError::Link(format!("writing {}: {e}", o.display())))?;
    let candidates: Vec<String> = match std::env::var("WEFT_LLD") {
        Ok(p) => vec![p],
        Err(_) => vec!["ld.lld-22".into(), "ld.lld".into()],
    };
    let mut last = String::new();
    let mut result = None;
    for lld in &candidates {
        match Command::new(lld)
            .arg("-shared")
            .arg(&o)
            .arg("-o")
            .arg(&so)
            .output()
        {
            Ok(out) if out.status.success() => {
                result = Some(std::fs::read(&so).map_err(|e| CodegenError::Link(e.to_string())));
                break;
            }
            Ok(out) => {
                last = format!("{lld}: {}", String::from_utf8_lossy(&out.stderr).trim());
                break;
            }
            Err(e) => last = format!("{lld}: {e}"),
        }
    }
    let _ = std::fs::remove_file(&o);
    let _ = std::fs::remove_file(&so);
    result.unwrap_or_else(|| {
        Err(CodegenError::Link(format!(
            "{last} (install lld-22 or set WEFT_LLD)"
        )))
    })
}
