"""Forward attention anchors at head dim 256, which ../shared/bench/attention_anchors.py does not time, beside
examples/attention's `d=256` rows: FlashAttention-4's sm90 path (CuTe DSL) and cuDNN through torch SDPA at
FlashAttention-3's D256 benchmark shape B4 H8 S8K (and B4 H8 S2K / B16 H8 S2K unless shapes are given), f16
and bf16, causal and not. TFLOP/s as the example counts them (4·B·H·S²·D, halved for causal). Each row is
guarded: a failure prints and the next one runs. FA4 is not installed on the GPU machine: carry it as wheels
(../shared/gpu.md).
Usage: python3 scripts/anchors/attention_d256.py [B H S ...]   (triples; default 4 8 8192, 4 8 2048, 16 8 2048)
"""
import sys, torch
from attention_extra import bench, fa4_interface, guarded

D = 256

def row(w, impl, ms, flops):
    print(f"{w:40s} | {impl:28s} | {ms:9.4f} ms | {flops / (ms * 1e-3) / 1e12:9.1f} TFLOP/s", flush=True)

def shapes(args):
    """(B, H, S) triples from the command line, or the default ones."""
    nums = [int(a) for a in args]
    if not nums:
        return [(4, 8, 8192), (4, 8, 2048), (16, 8, 2048)]
    if len(nums) % 3:
        sys.exit("give B H S triples")
    return [tuple(nums[i:i + 3]) for i in range(0, len(nums), 3)]

def main():
    from torch.nn.attention import sdpa_kernel, SDPBackend
    F = torch.nn.functional
    fa4 = fa4_interface()
    for (B, H, S) in shapes(sys.argv[1:]):
        for dt in (torch.float16, torch.bfloat16):
            for causal in (False, True):
                w = f"fwd B{B} H{H} S{S} D{D} {str(dt)[6:]}{' causal' if causal else ''}"
                q, k, v = (torch.randn(B, S, H, D, device="cuda", dtype=dt) for _ in range(3))
                fl = 4 * B * H * S * S * D / (2 if causal else 1)
                qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
                def cudnn():
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        row(w, "cuDNN (torch SDPA)", bench(
                            lambda: F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal)), fl)
                guarded(w + " cudnn", cudnn)
                if fa4 is not None:
                    guarded(w + " fa4", lambda: row(w, "FA4 sm90 (CuTe DSL)", bench(
                        lambda: fa4.flash_attn_func(q, k, v, causal=causal)), fl))
                del q, k, v, qt, kt, vt

if __name__ == "__main__":
    main()
