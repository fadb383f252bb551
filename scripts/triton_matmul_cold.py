"""Triton's compile latency for its `tl.dot` matmul (the `gemm_triton` anchor's kernel), to set beside
weft's builder -> PTX time of `kernels::gemm_kernel` (benches/compile.rs).

Run on the GPU machine next to gluon_anchors.py (which it imports):
    CUDA_CACHE_DISABLE=1 python3 scripts/triton_matmul_cold.py [dir of gluon_anchors.py]
A fresh TRITON_CACHE_DIR, so every call compiles: the first is cold (first in process), then the
median of distinct configurations (each a new specialisation: Triton -> TTGIR -> LLVM -> PTX -> cubin,
plus the module load). Each time includes the launch and a synchronize.
"""
import os
import statistics
import sys
import tempfile
import time

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="weft-triton-cold-")
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
from gluon_anchors import tl_matmul  # noqa: E402

S = 1024
a = torch.randn((S, S), device="cuda", dtype=torch.float16)
b = torch.randn((S, S), device="cuda", dtype=torch.float16)
c = torch.empty((S, S), device="cuda", dtype=torch.float16)
torch.cuda.synchronize()
times = []
for BM, BN, BK, nw, ns in ((128, 256, 64, 8, 3), (128, 128, 64, 4, 4), (128, 256, 64, 8, 4), (64, 128, 64, 4, 3),
                           (128, 64, 64, 4, 4), (64, 256, 64, 8, 3)):
    t = time.perf_counter()
    tl_matmul[(S // BM * (S // BN),)](a, b, c, S, S, S, BM, BN, BK, 8, num_warps=nw, num_stages=ns)
    torch.cuda.synchronize()
    times.append((time.perf_counter() - t) * 1e3)
torch.testing.assert_close(c.float(), (a @ b).float(), atol=1, rtol=2e-2)
print(f"triton tl.dot matmul compile+load+first launch (CUDA_CACHE_DISABLE={os.environ.get('CUDA_CACHE_DISABLE', 'unset')}): "
      f"cold {times[0]:.1f} ms, warm median of {len(times) - 1} {statistics.median(times[1:]):.1f} ms "
      f"(all: {', '.join(f'{t:.1f}' for t in times)})", flush=True)
