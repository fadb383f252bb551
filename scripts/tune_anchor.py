"""Same-run baselines for `runtime::bench` and `runtime::autotune` (run on the GPU machine, in the same call
as `examples/autotune` and `examples/bench_gpu`):

1. Triton's `do_bench` on a weft kernel: the PTX of `examples/memcpy` (2048 f32 per CTA, 4 per thread,
   4 warps), loaded through the driver API and launched on torch tensors of 1 GiB each, to compare with the
   median `runtime::bench` reports for the same config in `examples/autotune`'s sweep.
2. Triton's `@triton.autotune` of a memcpy over 12 configs on the same 1 GiB, from a cold cache: the wall
   time of the first call (compiles included), to compare with `examples/autotune`'s tuning time.

    python3 scripts/tune_anchor.py memcpy.ptx
"""
import ctypes
import os
import sys
import tempfile
import time

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()  # cold: every config compiles
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.testing import do_bench  # noqa: E402

N = 256 << 20  # 1 GiB of f32, as examples/autotune's default


def weft_kernel_do_bench(ptx_path, x, y):
    cuda = ctypes.CDLL("libcuda.so.1")
    ptx = open(ptx_path, "rb").read() + b"\0"
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    assert cuda.cuModuleLoadData(ctypes.byref(mod), ptx) == 0, "cuModuleLoadData"
    assert cuda.cuModuleGetFunction(ctypes.byref(fn), mod, b"memcpy") == 0, "cuModuleGetFunction"
    px, py, pn = ctypes.c_uint64(x.data_ptr()), ctypes.c_uint64(y.data_ptr()), ctypes.c_int32(N)
    params = (ctypes.c_void_p * 3)(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in (px, py, pn)])
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def launch():
        rc = cuda.cuLaunchKernel(fn, N // 2048, 1, 1, 128, 1, 1, 0, stream, params, None)
        assert rc == 0, f"cuLaunchKernel {rc}"

    y.zero_()
    launch()
    torch.cuda.synchronize()
    assert torch.equal(x, y), "the weft memcpy's output differs"
    ms = do_bench(launch, warmup=25, rep=200, return_mode="median")
    print(f"do_bench weft memcpy (block 2048, spt 4, nw 4) 1 GiB | {ms:.4f} ms | {2 * 4 * N / ms / 1e6:.1f} GB/s")
    ms = do_bench(lambda: y.copy_(x), warmup=25, rep=200, return_mode="median")
    print(f"do_bench torch copy_ (D2D) 1 GiB | {ms:.4f} ms | {2 * 4 * N / ms / 1e6:.1f} GB/s")


CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (1024, 2048, 4096, 8192, 16384, 32768) for w in (4, 8)]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def tuned_copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


def triton_autotune(x, y):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    tuned_copy[lambda m: (triton.cdiv(N, m["BLOCK"]),)](x, y, N)
    torch.cuda.synchronize()
    secs = time.perf_counter() - t0
    assert torch.equal(x, y)
    print(f"triton.autotune memcpy, {len(CONFIGS)} configs, cold cache: {secs:.2f} s, chose {tuned_copy.best_config}")


if __name__ == "__main__":
    torch.manual_seed(0)
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} triton {triton.__version__}")
    x = torch.randn(N, device="cuda")
    y = torch.empty_like(x)
    weft_kernel_do_bench(sys.argv[1], x, y)
    triton_autotune(x, y)
