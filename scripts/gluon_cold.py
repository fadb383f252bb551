"""Gluon's compile latency for the memcpy kernel, to set beside weft's builder -> loaded kernel time.

Run on the GPU machine next to gluon_anchors.py (which it imports):
    CUDA_CACHE_DISABLE=1 python3 scripts/gluon_cold.py [dir of gluon_anchors.py]
A fresh TRITON_CACHE_DIR, so every call compiles: the first is cold (first in process), then the
median of distinct configurations (each a new specialisation: Gluon -> TTGIR -> LLVM -> PTX ->
cubin, plus the module load). Each time includes the launch and a synchronize.
"""
import os
import statistics
import sys
import tempfile
import time

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="weft-gluon-cold-")
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from gluon_anchors import gl_memcpy  # noqa: E402

n = 1 << 20
x = torch.randn(n, device="cuda")
y = torch.empty_like(x)
torch.cuda.synchronize()
times = []
for spt, nw, xb in ((4, 4, 2048), (4, 4, 1024), (4, 4, 4096), (4, 8, 1024), (4, 8, 2048), (4, 8, 4096), (8, 4, 4096)):
    layout = gl.BlockedLayout([spt], [32], [nw], [0])
    t = time.perf_counter()
    gl_memcpy[(n // xb,)](x, y, n, xb, layout, num_warps=nw)
    torch.cuda.synchronize()
    times.append((time.perf_counter() - t) * 1e3)
    assert torch.equal(x, y)
    y.zero_()
print(f"gluon memcpy compile+load+first launch (CUDA_CACHE_DISABLE={os.environ.get('CUDA_CACHE_DISABLE', 'unset')}): "
      f"cold {times[0]:.1f} ms, warm median of {len(times) - 1} {statistics.median(times[1:]):.1f} ms "
      f"(all: {', '.join(f'{t:.1f}' for t in times)})", flush=True)
