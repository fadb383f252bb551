"""Forward attention anchors for grouped KV heads and variable-length batches, beside examples/attention's
`gqa=G` and `varlen` rows: FlashAttention-4's sm90 path (flash_attn_func with fewer KV heads,
flash_attn_varlen_func with cu_seqlens) and cuDNN through torch SDPA (GQA only: `enable_gqa`). The shapes are
the example's: GQA at B4 H32 S8K (8 KV heads) and B16 H32 S2K; variable lengths as B sequences of the ragged
lengths examples/attention uses (S·(8 + (7i + 3) mod 17)/16, keys as long as queries), D128 and D64, f16 and
bf16, causal and not. `chunk` times short query sequences (16 or 128 tokens each, the example's `qlen=N`)
against ragged keys with 8 query heads a KV head (chunked prefill, speculative decoding; the causal mask aligned
bottom-right). TFLOP/s from the real lengths, halved for causal (the example's count). Each row is guarded: a
failure prints and the next one runs. FA4 is not installed on the GPU machine: carry it as wheels
(../shared/gpu.md).
Usage: python3 scripts/anchors/attention_varlen.py [gqa] [varlen] [chunk] [D=128] [G=8]   (D=, G=: that head dim,
that group only)
"""
import itertools, sys, torch
from attention_extra import bench, fa4_interface, guarded

def row(w, impl, ms, flops):
    print(f"{w:48s} | {impl:28s} | {ms:9.4f} ms | {flops / (ms * 1e-3) / 1e12:9.1f} TFLOP/s", flush=True)

def ragged(b, s):
    return [max(1, s * (8 + (i * 7 + 3) % 17) // 16) for i in range(b)]

heads_dims = [int(a[2:]) for a in sys.argv[1:] if a.startswith("D=")] or [128, 64]
groups = [int(a[2:]) for a in sys.argv[1:] if a.startswith("G=")]
steps = [a for a in sys.argv[1:] if a[:2] not in ("D=", "G=")] or ["gqa", "varlen"]
from torch.nn.attention import sdpa_kernel, SDPBackend
F = torch.nn.functional
fa4 = fa4_interface()
have_fa4 = fa4 is not None

for D in heads_dims:
    for dt in (torch.float16, torch.bfloat16):
        for causal in (False, True):
            tail = f"D{D} {str(dt)[6:]}{' causal' if causal else ''}"
            if "gqa" in steps:
                for (B, H, S, G) in [(4, 32, 8192, 4), (4, 32, 8192, 8), (16, 32, 2048, 4), (4, 32, 8192, 32)]:
                    if groups and G not in groups:
                        continue
                    w = f"fwd gqa={G} B{B} H{H} S{S} {tail}"
                    q = torch.randn(B, S, H, D, device="cuda", dtype=dt)
                    k, v = (torch.randn(B, S, H // G, D, device="cuda", dtype=dt) for _ in range(2))
                    fl = 4 * B * H * S * S * D / (2 if causal else 1)
                    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
                    def cudnn():
                        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                            row(w, "cuDNN (torch SDPA, GQA)", bench(lambda: F.scaled_dot_product_attention(
                                qt, kt, vt, is_causal=causal, enable_gqa=True)), fl)
                    guarded(w + " cudnn", cudnn)
                    if have_fa4:
                        guarded(w + " fa4", lambda: row(w, "FA4 sm90 (CuTe DSL)", bench(
                            lambda: fa4.flash_attn_func(q, k, v, causal=causal)), fl))
                    del q, k, v, qt, kt, vt
            if "varlen" in steps and have_fa4:
                for (B, H, S, G) in [(16, 16, 2048, 1), (4, 16, 8192, 1), (16, 32, 2048, 4)]:
                    w = f"fwd varlen{f' gqa={G}' if G > 1 else ''} B{B} H{H} S{S} {tail}"
                    lens = ragged(B, S)
                    cu = torch.tensor([0, *itertools.accumulate(lens)], device="cuda", dtype=torch.int32)
                    total = sum(lens)
                    q = torch.randn(total, H, D, device="cuda", dtype=dt)
                    k, v = (torch.randn(total, H // G, D, device="cuda", dtype=dt) for _ in range(2))
                    fl = sum(4 * H * l * l * D for l in lens) / (2 if causal else 1)
                    guarded(w + " fa4", lambda: row(w, "FA4 sm90 varlen (CuTe DSL)", bench(
                        lambda: fa4.flash_attn_varlen_func(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=cu,
                                                           max_seqlen_q=max(lens), max_seqlen_k=max(lens),
                                                           causal=causal)), fl))
                    del q, k, v
            if "chunk" in steps and have_fa4:
                for (B, H, S, G, QL) in [(16, 32, 8192, 8, 128), (16, 32, 8192, 8, 16), (64, 32, 4096, 8, 16)]:
                    w = f"fwd chunk q{QL} gqa={G} B{B} H{H} S{S} {tail}"
                    lens = ragged(B, S)
                    cu_k = torch.tensor([0, *itertools.accumulate(lens)], device="cuda", dtype=torch.int32)
                    cu_q = torch.arange(0, (B + 1) * QL, QL, device="cuda", dtype=torch.int32)
                    q = torch.randn(B * QL, H, D, device="cuda", dtype=dt)
                    k, v = (torch.randn(sum(lens), H // G, D, device="cuda", dtype=dt) for _ in range(2))
                    fl = sum(4 * H * QL * l * D for l in lens) / (2 if causal else 1)
                    guarded(w + " fa4", lambda: row(w, "FA4 sm90 varlen (CuTe DSL)", bench(
                        lambda: fa4.flash_attn_varlen_func(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k,
                                                           max_seqlen_q=QL, max_seqlen_k=max(lens),
                                                           causal=causal)), fl))
                    del q, k, v
