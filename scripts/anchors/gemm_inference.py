"""Peers of weft's inference GEMMs (examples/gemm_blockscaled.rs, gemm_skinny.rs, gemm_grouped.rs) on the GPU
machine, at the same shapes, beside what ../shared/bench/gemm_anchors.py already times (cuBLAS bf16 skinny, cuBLASLt
fp8 per-tensor and blockwise, torch._grouped_mm bf16): the device copy bandwidth (the skinny GEMMs' roofline), cuBLASLt
fp8 at skinny shapes, the masked MoE layout as torch.bmm over padded blocks, torch's int4 weight-only GEMM, and
DeepGEMM when its wheel is installed. Each section is guarded: a missing op prints FAILED and the rest runs.

python3 scripts/anchors/gemm_inference.py
"""
import torch

from gemm_harness import bench, guarded, row


dev = "cuda"
print(torch.cuda.get_device_name(), torch.__version__)

# The roofline of the skinny GEMMs: a device-to-device copy (reads and writes: 2 x bytes).
for nbytes in (8192 * 8192 * 2, 28672 * 4096 * 2):
    src = torch.empty(nbytes, dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    ms = bench(lambda: dst.copy_(src))
    print(f"{'device copy ' + str(nbytes >> 20) + ' MiB':44s} | {'torch copy_':34s} | {ms:8.4f} ms | {2 * nbytes / ms / 1e6:7.1f} GB/s")

# Skinny fp8: cuBLASLt per-tensor at decoding shapes.
for M in (1, 16, 64, 128):
    for (N, K) in ((8192, 8192), (28672, 4096)):
        Mp = max(M, 16)  # cuBLASLt fp8 wants M a multiple of 16
        a = torch.randn(Mp, K, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(N, K, device=dev).to(torch.float8_e4m3fn).t()
        one = torch.ones((), device=dev)
        guarded("skinny fp8", lambda: row(f"skinny fp8 M{M} N{N} K{K}", f"cuBLASLt per-tensor (M {Mp})",
                                          bench(lambda: torch._scaled_mm(a, b, one, one, out_dtype=torch.bfloat16)),
                                          2 * M * N * K, N * K))

# int4 weights, group 128: torch's weight-only int4 GEMM (tinygemm) at M 1-128.
for M in (1, 16, 64, 128):
    for (N, K) in ((8192, 8192), (28672, 4096)):
        def int4():
            x = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
            w = torch.randint(0, 16, (N, K), device=dev, dtype=torch.int32)
            packed = (w[:, ::2] << 4 | w[:, 1::2]).to(torch.uint8)
            wp = torch._convert_weight_to_int4pack(packed, 8)
            sz = torch.rand(K // 128, N, 2, device=dev, dtype=torch.bfloat16)
            row(f"int4 M{M} N{N} K{K}", "torch._weight_int4pack_mm",
                bench(lambda: torch._weight_int4pack_mm(x, wp, 128, sz)), 2 * M * N * K, N * K // 2)
        guarded("int4", int4)

# Masked MoE layout: padded blocks of m_max rows per expert, as one batched GEMM.
for (E, Tper, N, K) in ((8, 4096, 4096, 7168), (8, 8192, 7168, 2048)):
    a = torch.randn(E, Tper, K, device=dev, dtype=torch.bfloat16)
    w = torch.randn(E, N, K, device=dev, dtype=torch.bfloat16).transpose(1, 2)
    guarded("masked bmm", lambda: row(f"masked bf16 E{E} T/E{Tper} N{N} K{K}", "torch.bmm (padded blocks)",
                                      bench(lambda: torch.bmm(a, w)), 2 * E * Tper * N * K))

# DeepGEMM (fp8 1x128 / 128x128), when installed.
def deep_gemm_section():
    import deep_gemm
    for (M, N, K) in ((4096, 7168, 16384), (8192, 8192, 8192), (128, 7168, 16384), (64, 2112, 7168)):
        a = torch.randn(M, K, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(N, K, device=dev).to(torch.float8_e4m3fn)
        sa = torch.rand(M, K // 128, device=dev) + 0.5
        sb = torch.rand(N // 128, K // 128, device=dev) + 0.5
        out = torch.empty(M, N, device=dev, dtype=torch.bfloat16)
        row(f"fp8 blockscaled M{M} N{N} K{K}", "DeepGEMM",
            bench(lambda: deep_gemm.fp8_gemm_nt((a, sa), (b, sb), out)), 2 * M * N * K)
guarded("DeepGEMM", deep_gemm_section)
