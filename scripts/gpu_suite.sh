#!/bin/bash
# The GPU check run on the H200 (see ../shared/gpu.md): unpack .gpu/bins.tar.zst (gpu_kernels, gpu_runtime,
# gpu_math, quickstart, bench_gpu; release builds with --features llvm,cuda, stripped), run the GPU tests,
# compute-sanitizer, bench_gpu and the same-run anchors. Copy it to .gpu/ and run `bash .gpu/gpu_suite.sh`.
cd "$(dirname "$0")" && ./zstd -q -d --long=31 bins.tar.zst -o b.tar && tar xf b.tar && rm b.tar && cd ..
B=.gpu/bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
for t in gpu_kernels gpu_runtime gpu_math; do
  echo "== $t"; $B/$t --test-threads=1 > $OUT/$t.log 2>&1; echo "rc=$?"; grep -E "test result|FAILED|panicked|SKIP" $OUT/$t.log | head -8
done
echo "== memcheck quickstart"; compute-sanitizer --tool memcheck $B/quickstart --small 2>&1 | grep -E "ERROR SUMMARY|match|mismatch|SKIP" | tail -3
echo "== racecheck quickstart"; compute-sanitizer --tool racecheck $B/quickstart --small 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY" | tail -2
echo "== memcheck gpu_kernels"; timeout 200 compute-sanitizer --tool memcheck $B/gpu_kernels --test-threads=1 > $OUT/memcheck_kernels.log 2>&1; echo "rc=$?"; grep -E "ERROR SUMMARY|test result" $OUT/memcheck_kernels.log | tail -3
echo "== bench_gpu"; $B/bench_gpu > $OUT/bench_gpu.txt 2>&1; echo "rc=$?"; tail -40 $OUT/bench_gpu.txt
echo "== anchors"; python3 .gpu/gluon_anchors.py memcpy strided > $OUT/anchors.txt 2>&1; cat $OUT/anchors.txt | tail -20
