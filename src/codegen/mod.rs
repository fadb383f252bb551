//! The tile-op builder: lowers tile ops to LLVM IR, PTX and AMDGPU code objects.
