"""Decode anchors that ../shared/bench/attention_anchors.py lacks, for examples/attention_decode's rows: FA4's
sm90 paged decode at pages of 16 and 64 as well as 128, speculative widths (4, 8, 16 query tokens per sequence,
causal), and the torch device-to-device copy of the same KV bytes (the bandwidth bar). GQA 32/8, D128, bf16 KV;
GB/s counts the KV bytes read once, as weft's example does. Each row is guarded: a failure prints and the next
one runs. FA4 is not installed on the GPU machine: carry it as wheels (../shared/gpu.md).
Usage: python3 scripts/anchors/attention_extra.py
The timing harness (`bench`, `guarded`, `fa4_interface`) is shared: attention_varlen.py imports it.
"""
import traceback, torch
from triton.testing import do_bench

def bench(fn):
    """Median milliseconds of `fn` over triton's do_bench."""
    return do_bench(fn, warmup=25, rep=200, return_mode="median")

def row(w, impl, ms, nbytes):
    print(f"{w:44s} | {impl:32s} | {ms * 1e3:9.1f} us | {nbytes / (ms * 1e-3) / 1e9:9.1f} GB/s", flush=True)

def guarded(name, f):
    """Runs one row; a failure prints and leaves the next row to run."""
    try:
        f()
    except Exception as e:
        print(f"{name}: FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
        traceback.print_exc(limit=2)

def fa4_interface():
    """FA4's CuTe DSL interface module, or None (with the reason printed) where it is not installed."""
    try:
        import flash_attn.cute.interface as fa4
        return fa4
    except Exception as e:
        print("FA4 import failed:", e)
        return None

def main():
    fa4 = fa4_interface()
    Hq, Hkv, D, dt = 32, 8, 128, torch.bfloat16
    shapes = [(1, 32768, 1, 16), (1, 32768, 1, 64), (128, 8192, 1, 16), (128, 8192, 1, 64),
              (1, 32768, 4, 64), (1, 32768, 8, 64), (1, 32768, 16, 64), (32, 8192, 4, 64), (32, 8192, 16, 64)]
    for (B, L, sq, P) in shapes:
        w = f"decode B{B} L{L} q{sq} page {P}"
        q = torch.randn(B, sq, Hq, D, device="cuda", dtype=dt)
        kp = torch.randn(B * L // P, P, Hkv, D, device="cuda", dtype=dt); vp = torch.randn_like(kp)
        pt = torch.randperm(B * L // P, device="cuda", dtype=torch.int32).reshape(B, L // P)
        sk = torch.full((B,), L, device="cuda", dtype=torch.int32)
        nbytes = 2 * kp.numel() * kp.element_size()
        if fa4 is not None:
            guarded(w + " fa4", lambda: row(w, f"FA4 sm90 paged (page {P})", bench(
                lambda: fa4.flash_attn_varlen_func(q, kp, vp, page_table=pt, seqused_k=sk, max_seqlen_q=sq, causal=sq > 1)), nbytes))
        src = torch.empty(nbytes, device="cuda", dtype=torch.uint8); dst = torch.empty_like(src)
        # The copy's GB/s counts the bytes read and written, as weft's example counts its copy.
        guarded(w + " copy", lambda: row(w, "D2D copy (KV bytes, read+write)", bench(lambda: dst.copy_(src)), 2 * nbytes))
        del q, kp, vp, src, dst

if __name__ == "__main__":
    main()
