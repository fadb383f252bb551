"""Timing and table rows shared by the GEMM anchor scripts (gemm_inference.py, gemm_quack.py)."""
from triton.testing import do_bench


def bench(fn):
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def row(w, impl, ms, flops, nbytes=None):
    s = f"{w:44s} | {impl:34s} | {ms:8.4f} ms | {flops / ms / 1e9:8.1f} TFLOP/s"
    if nbytes:
        s += f" | {nbytes / ms / 1e6:7.1f} GB/s"
    print(s, flush=True)


def guarded(name, f):
    try:
        f()
    except Exception as e:  # an op or kernel this install lacks, or a shape it refuses: say so, go on
        print(f"{name}: FAILED {type(e).__name__}: {str(e)[:240]}", flush=True)
