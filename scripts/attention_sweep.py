"""cuDNN SDPA (torch) forward attention over sequence lengths, the anchor for `examples/attention.rs`
at other shapes than `gluon_anchors.py attention` measures (B4 H16 S8K D128).

    python3 scripts/attention_sweep.py [D ...]   # default: D 64 and 128, S 1K to 16K, f16, causal and not

Prints one line per (D, S, causal): milliseconds and TFLOP/s (4·B·H·S²·D, halved when causal) of the
median of Triton's `do_bench`, with B·H·S = 4·16·8192 tokens kept constant (B·H = 512K / S).
"""
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from triton.testing import do_bench


def main():
    dims = [int(a) for a in sys.argv[1:]] or [64, 128]
    for d in dims:
        for s in (1024, 2048, 4096, 8192, 16384):
            bh = 4 * 16 * 8192 // s
            q, k, v = (torch.randn((1, bh, s, d), device="cuda", dtype=torch.float16) for _ in range(3))
            for causal in (False, True):
                flops = 4 * bh * s * s * d / (2 if causal else 1)
                with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                    f = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                    f()
                    ms = do_bench(f, warmup=25, rep=200, return_mode="median")
                print(f"cudnn D{d} S{s} BH{bh}{' causal' if causal else ''}: {ms:.4f} ms {flops / ms / 1e9:.1f} TFLOP/s")


if __name__ == "__main__":
    main()
