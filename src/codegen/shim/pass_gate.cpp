// Per-context pass gates for weft's builder (the only C++ in weft: LLVM's C API has no way to
// choose passes per context).
//
// LLVM's `-opt-disable=` is process-wide. weft needs it per kernel: NVPTX code generation runs
// straight-line strength reduction and n-ary reassociation, which cost several times the rest of
// a tile kernel's compile and leave its PTX unchanged, while on AMDGPU they pay (half the VGPRs
// of a 64 x 64 transpose). So each compile installs the gate its target needs on the kernel's
// LLVMContext, and nothing global depends on which targets a build can emit.
#include "llvm-c/Core.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/OptBisect.h"

namespace {

// Skips the passes named in `skipped` (by pass argument or legacy pass name).
class SkipPasses final : public llvm::OptPassGate {
public:
  SkipPasses(bool tensor_cores, bool codegen) : tensor_cores(tensor_cores), codegen(codegen) {}
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef) const override {
    for (const char *name : skipped)
      if (pass == name)
        return false;
    // Code generation: NVPTX's early CSE (three runs around its straight-line optimisations)
    // finds nothing left to merge in the builder's code (identical PTX for every shipped kernel
    // but a few tensor-core ones: registers renamed, same register counts and cubin sizes or
    // smaller; see `set_pass_gate` in target/mod.rs), yet costs 4% of the GEMM's compile, 6% of
    // the attention kernel's and 11% of the softmax's.
    if (codegen && (pass == "early-cse" || pass == "Early CSE"))
      return false;
    // Tensor-core kernels: the SLP vectoriser finds nothing (the builder chose every memory
    // access's width; accumulators are inline-asm operands) and dead-store elimination finds no
    // dead store (the builder writes each element once), yet on the GEMM they cost 13% and 16% of
    // the compile (MemorySSA over every inline-asm call); its PTX is identical without them.
    if (tensor_cores && (pass == "SLPVectorizerPass" || pass == "slp-vectorizer" || pass == "DSEPass" || pass == "dse"))
      return false;
    return true;
  }
  bool isEnabled() const override { return true; }

private:
  bool tensor_cores;
  bool codegen;
  static constexpr const char *skipped[] = {
      "slsr", "Straight line strength reduction",
      "nary-reassociate", "Nary reassociation"};
};

SkipPasses nvptx_gate(false, false);
SkipPasses nvptx_tensor_gate(true, false);
SkipPasses nvptx_tensor_codegen_gate(true, true);
SkipPasses nvptx_codegen_gate(false, true);

SkipPasses *gate_of(int mode) {
  switch (mode) {
  case 1:
    return &nvptx_gate;
  case 2:
    return &nvptx_tensor_gate;
  case 3:
    return &nvptx_tensor_codegen_gate;
  case 4:
    return &nvptx_codegen_gate;
  default:
    return nullptr;
  }
}

} // namespace

extern "C" {

// Installs on `ctx` the gate of `mode`: 0 AMD (LLVM's global gate, which runs every pass unless
// the process was given -opt-bisect/-opt-disable), 1 NVIDIA, 2 NVIDIA with tensor-core ops,
// 3 and 4 the code generation of NVIDIA kernels with and without tensor-core ops.
void weft_set_pass_gate(LLVMContextRef ctx, int mode) {
  llvm::LLVMContext *c = llvm::unwrap(ctx);
  if (SkipPasses *gate = gate_of(mode))
    c->setOptPassGate(*gate);
  else
    c->setOptPassGate(llvm::getGlobalPassGate());
}

// Whether `pass` runs under the gate of `mode` (for weft's tests).
int weft_pass_gate_runs(int mode, const char *pass) {
  const SkipPasses *gate = gate_of(mode);
  return !gate || gate->shouldRunPass(pass, "") ? 1 : 0;
}
}
