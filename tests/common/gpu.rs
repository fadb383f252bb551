//! Shared by the GPU tests: opening the device (or printing why the test is skipped).

use weft::runtime::{Backend, BackendKind};

/// The first CUDA GPU, or `None` after printing a `SKIP:` line saying why there is none.
#[cfg(feature = "cuda")]
pub fn device() -> Option<weft::runtime::cuda::Device> {
    open::<weft::runtime::cuda::Cuda>()
}

/// The CPU backend's device (the interpreter), emulating sm_90a: where every kernel suite also
/// runs, on reduced sizes.
#[cfg(feature = "llvm")]
pub fn cpu() -> weft::runtime::cpu::Device {
    weft::runtime::cpu::Device::new(weft::codegen::Target::SM90A).expect("the CPU device")
}

/// The first GPU of backend `B`, or `None` after printing a `SKIP:` line saying why there is none.
pub fn open<B: Backend>() -> Option<B::Device> {
    if !B::is_available() {
        let lib = match B::KIND {
            BackendKind::Cuda => "libcuda.so",
            BackendKind::Hip => "libamdhip64.so",
            BackendKind::Cpu => "the interpreter",
        };
        println!("SKIP: no {} driver ({lib} not found)", B::KIND);
        return None;
    }
    match B::open(0) {
        Ok(d) => Some(d),
        Err(e) => {
            println!("SKIP: no usable {} GPU: {e}", B::KIND);
            None
        }
    }
}

/// Loads the PTX of `k` on `dev` as a kernel checked against its signature; panics naming the
/// kernel when the driver refuses it.
#[cfg(all(feature = "cuda", feature = "llvm"))]
pub fn load_kernel(
    dev: &weft::runtime::cuda::Device,
    k: &weft::codegen::Kernel<'_>,
) -> weft::runtime::cuda::Kernel {
    use weft::runtime::prelude::*;
    let sig = k.signature();
    dev.load_ptx(&k.ptx().expect("PTX"))
        .unwrap_or_else(|e| panic!("{}: load: {e}", sig.name))
        .kernel(sig.clone())
        .unwrap_or_else(|e| panic!("{}: kernel: {e}", sig.name))
}

/// Runs `f` on the first CUDA GPU; without one, prints a `SKIP:` line saying why (as
/// [`device`]).
#[cfg(feature = "cuda")]
pub fn on_cuda(f: impl FnOnce(&weft::runtime::cuda::Device)) {
    on_cuda_with(&[], f)
}

/// [`on_cuda`] on a GPU that has every feature in `needs`; on one that lacks one, prints a
/// `SKIP:` line naming it.
#[cfg(feature = "cuda")]
pub fn on_cuda_with(needs: &[weft::target::Feature], f: impl FnOnce(&weft::runtime::cuda::Device)) {
    use weft::runtime::prelude::*;
    let Some(dev) = device() else { return };
    let target = dev.target().expect("the GPU's target");
    if let Some(missing) = needs.iter().find(|&&n| !target.supports(n)) {
        println!("SKIP: {target} has no {missing:?}");
        return;
    }
    f(&dev)
}
