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
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef) const override {
    for (const char *name : skipped)
      if (pass == name)
        return false;
    return true;
  }
  bool isEnabled() const override { return true; }

private:
  static constexpr const char *skipped[] = {
      "slsr", "Straight line strength reduction",
      "nary-reassociate", "Nary reassociation"};
};

SkipPasses nvptx_gate;

} // namespace

extern "C" {

// Installs on `ctx` the gate for code of vendor `nvptx` (1: NVIDIA, 0: AMD, whose gate is LLVM's
// global one, which runs every pass unless the process was given -opt-bisect/-opt-disable).
void weft_set_pass_gate(LLVMContextRef ctx, int nvptx) {
  llvm::LLVMContext *c = llvm::unwrap(ctx);
  if (nvptx)
    c->setOptPassGate(nvptx_gate);
  else
    c->setOptPassGate(llvm::getGlobalPassGate());
}

// Whether `pass` runs under the gate for vendor `nvptx` (for weft's tests).
int weft_pass_gate_runs(int nvptx, const char *pass) {
  if (!nvptx)
    return 1;
  return nvptx_gate.shouldRunPass(pass, "") ? 1 : 0;
}
}
