target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @gemm_nn(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %a_map, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %b_map, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %c_map, i32 %m, i32 %n, i32 %k) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = and i32 %1, 3
  %3 = shl i32 %2, 1
  %4 = and i32 %1, 4
  %5 = icmp ne i32 %4, 0
  %6 = select i1 %5, i32 72, i32 0
  %7 = or disjoint i32 %3, %6
  %8 = and i32 %1, 8
  %9 = icmp ne i32 %8, 0
  %10 = select i1 %9, i32 144, i32 0
  %11 = or disjoint i32 %7, %10
  %12 = and i32 %1, 16
  %13 = icmp ne i32 %12, 0
  %14 = select i1 %13, i32 288, i32 0
  %15 = or disjoint i32 %11, %14
  %16 = and i32 %1, 96
  %17 = shl i32 %16, 5
  %18 = or disjoint i32 %15, %17
  br label %body

body:                                             ; preds = %prologue
  %19 = add i32 %m, 63
  %20 = sdiv i32 %19, 64
  %21 = add i32 %n, 63
  %22 = sdiv i32 %21, 64
  %23 = add i32 %k, 63
  %24 = sdiv i32 %23, 64
  %25 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1+0], $2;\0A@$0 mbarrier.init.shared::cta.b64 [$1+8], $2;\0Afence.mbarrier_init.release.cluster;", "b,r,r"(i1 %25, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32), i32 1)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %26 = shl i32 %22, 3
  %27 = sdiv i32 %0, %26
  %28 = shl i32 %27, 3
  %29 = sub i32 %20, %28
  %30 = call i32 @llvm.smin.i32(i32 %29, i32 8)
  %31 = srem i32 %0, %26
  %32 = srem i32 %31, %30
  %33 = add i32 %28, %32
  %34 = sdiv i32 %31, %30
  %35 = shl i32 %33, 6
  %36 = shl i32 %34, 6
  %37 = icmp slt i32 0, %24
  %38 = icmp eq i32 %1, 0
  %39 = and i1 %38, %37
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %39, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32), i32 16384)
  %40 = ptrtoint ptr %a_map to i64
  %41 = icmp eq i32 %1, 0
  %42 = and i1 %41, %37
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %42, i32 ptrtoint (ptr addrspace(3) @weft_smem to i32), i64 %40, i32 0, i32 %35, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32))
  %43 = ptrtoint ptr %b_map to i64
  %44 = icmp eq i32 %1, 0
  %45 = and i1 %44, %37
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %45, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16384) to i32), i64 %43, i32 %36, i32 0, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32))
  br label %loop.pre1

loop.pre:                                         ; No predecessors!
  br label %loop

loop:                                             ; preds = %loop.pre
  %iv = phi i32 [ 0, %loop.pre ]
  %46 = phi float [ 0.000000e+00, %loop.pre ]
  %47 = phi float [ 0.000000e+00, %loop.pre ]
  %48 = phi float [ 0.000000e+00, %loop.pre ]
  %49 = phi float [ 0.000000e+00, %loop.pre ]
  %50 = phi float [ 0.000000e+00, %loop.pre ]
  %51 = phi float [ 0.000000e+00, %loop.pre ]
  %52 = phi float [ 0.000000e+00, %loop.pre ]
  %53 = phi float [ 0.000000e+00, %loop.pre ]
  %54 = phi float [ 0.000000e+00, %loop.pre ]
  %55 = phi float [ 0.000000e+00, %loop.pre ]
  %56 = phi float [ 0.000000e+00, %loop.pre ]
  %57 = phi float [ 0.000000e+00, %loop.pre ]
  %58 = phi float [ 0.000000e+00, %loop.pre ]
  %59 = phi float [ 0.000000e+00, %loop.pre ]
  %60 = phi float [ 0.000000e+00, %loop.pre ]
  %61 = phi float [ 0.000000e+00, %loop.pre ]
  %62 = phi float [ 0.000000e+00, %loop.pre ]
  %63 = phi float [ 0.000000e+00, %loop.pre ]
  %64 = phi float [ 0.000000e+00, %loop.pre ]
  %65 = phi float [ 0.000000e+00, %loop.pre ]
  %66 = phi float [ 0.000000e+00, %loop.pre ]
  %67 = phi float [ 0.000000e+00, %loop.pre ]
  %68 = phi float [ 0.000000e+00, %loop.pre ]
  %69 = phi float [ 0.000000e+00, %loop.pre ]
  %70 = phi float [ 0.000000e+00, %loop.pre ]
  %71 = phi float [ 0.000000e+00, %loop.pre ]
  %72 = phi float [ 0.000000e+00, %loop.pre ]
  %73 = phi float [ 0.000000e+00, %loop.pre ]
  %74 = phi float [ 0.000000e+00, %loop.pre ]
  %75 = phi float [ 0.000000e+00, %loop.pre ]
  %76 = phi float [ 0.000000e+00, %loop.pre ]
  %77 = phi float [ 0.000000e+00, %loop.pre ]
  %78 = phi i32 [ 0, %loop.pre ]
  %79 = phi i32 [ 0, %loop.pre ]
  %80 = icmp slt i32 %iv, %24
  br i1 %80, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %81 = mul i32 %78, 8
  %82 = add i32 40960, %81
  %83 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %82
  %84 = ptrtoint ptr addrspace(3) %83 to i32
  call void asm sideeffect "{\0A.reg .pred weft_done;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0A}", "r,r"(i32 %84, i32 %79)
  %85 = mul i32 %78, 8192
  %86 = add i32 0, %85
  %87 = mul i32 %78, 8192
  %88 = add i32 16384, %87
  %89 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %88
  %90 = ptrtoint ptr addrspace(3) %89 to i32
  %91 = zext i32 %90 to i64
  %92 = and i64 %91, 262143
  %93 = lshr i64 %92, 4
  %94 = or i64 %93, 4611686293305360384
  %95 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %86
  %96 = ptrtoint ptr addrspace(3) %95 to i32
  %97 = add i32 %96, 0
  %98 = zext i32 %97 to i64
  %99 = and i64 %98, 262143
  %100 = lshr i64 %99, 4
  %101 = or i64 %100, 4611686293305360384
  call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
  %102 = add i64 %101, 0
  %103 = add i64 %94, 0
  %104 = add i64 %101, 2
  %105 = add i64 %94, 128
  %106 = add i64 %101, 4
  %107 = add i64 %94, 256
  %108 = add i64 %101, 6
  %109 = add i64 %94, 384
  %110 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $66, $67, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $68, $69, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $70, $71, 1, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,l,l,l,l,l,l"(float %46, float %47, float %48, float %49, float %50, float %51, float %52, float %53, float %54, float %55, float %56, float %57, float %58, float %59, float %60, float %61, float %62, float %63, float %64, float %65, float %66, float %67, float %68, float %69, float %70, float %71, float %72, float %73, float %74, float %75, float %76, float %77, i64 %102, i64 %103, i64 %104, i64 %105, i64 %106, i64 %107, i64 %108, i64 %109)
  %111 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 0
  %112 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 1
  %113 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 2
  %114 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 3
  %115 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 4
  %116 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 5
  %117 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 6
  %118 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 7
  %119 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 8
  %120 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 9
  %121 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 10
  %122 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 11
  %123 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 12
  %124 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 13
  %125 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 14
  %126 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 15
  %127 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 16
  %128 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 17
  %129 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 18
  %130 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 19
  %131 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 20
  %132 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 21
  %133 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 22
  %134 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 23
  %135 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 24
  %136 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 25
  %137 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 26
  %138 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 27
  %139 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 28
  %140 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 29
  %141 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 30
  %142 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %110, 31
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  %143 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %111, float %112, float %113, float %114, float %115, float %116, float %117, float %118, float %119, float %120, float %121, float %122, float %123, float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %144 = icmp eq i32 %78, 0
  %145 = sub i32 %78, 1
  %146 = select i1 %144, i32 1, i32 %145
  %147 = add i32 %iv, 1
  %148 = icmp slt i32 %147, %24
  %149 = shl i32 %147, 6
  %150 = mul i32 %146, 8
  %151 = add i32 40960, %150
  %152 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %151
  %153 = ptrtoint ptr addrspace(3) %152 to i32
  %154 = icmp eq i32 %1, 0
  %155 = and i1 %154, %148
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %155, i32 %153, i32 16384)
  %156 = mul i32 %146, 8192
  %157 = add i32 0, %156
  %158 = ptrtoint ptr %a_map to i64
  %159 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %151
  %160 = ptrtoint ptr addrspace(3) %159 to i32
  %161 = icmp eq i32 %1, 0
  %162 = and i1 %161, %148
  %163 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %157
  %164 = ptrtoint ptr addrspace(3) %163 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %162, i32 %164, i64 %158, i32 %149, i32 %35, i32 %160)
  %165 = mul i32 %146, 8192
  %166 = add i32 16384, %165
  %167 = ptrtoint ptr %b_map to i64
  %168 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %151
  %169 = ptrtoint ptr addrspace(3) %168 to i32
  %170 = icmp eq i32 %1, 0
  %171 = and i1 %170, %148
  %172 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %166
  %173 = ptrtoint ptr addrspace(3) %172 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %171, i32 %173, i64 %167, i32 %36, i32 %149, i32 %169)
  unreachable

loop.exit:                                        ; preds = %loop
  unreachable

loop.pre1:                                        ; preds = %body
  br label %loop2

loop2:                                            ; preds = %loop.body3, %loop.pre1
  %iv5 = phi i32 [ 0, %loop.pre1 ], [ %iv.next, %loop.body3 ]
  %174 = phi float [ 0.000000e+00, %loop.pre1 ], [ %272, %loop.body3 ]
  %175 = phi float [ 0.000000e+00, %loop.pre1 ], [ %273, %loop.body3 ]
  %176 = phi float [ 0.000000e+00, %loop.pre1 ], [ %274, %loop.body3 ]
  %177 = phi float [ 0.000000e+00, %loop.pre1 ], [ %275, %loop.body3 ]
  %178 = phi float [ 0.000000e+00, %loop.pre1 ], [ %276, %loop.body3 ]
  %179 = phi float [ 0.000000e+00, %loop.pre1 ], [ %277, %loop.body3 ]
  %180 = phi float [ 0.000000e+00, %loop.pre1 ], [ %278, %loop.body3 ]
  %181 = phi float [ 0.000000e+00, %loop.pre1 ], [ %279, %loop.body3 ]
  %182 = phi float [ 0.000000e+00, %loop.pre1 ], [ %280, %loop.body3 ]
  %183 = phi float [ 0.000000e+00, %loop.pre1 ], [ %281, %loop.body3 ]
  %184 = phi float [ 0.000000e+00, %loop.pre1 ], [ %282, %loop.body3 ]
  %185 = phi float [ 0.000000e+00, %loop.pre1 ], [ %283, %loop.body3 ]
  %186 = phi float [ 0.000000e+00, %loop.pre1 ], [ %284, %loop.body3 ]
  %187 = phi float [ 0.000000e+00, %loop.pre1 ], [ %285, %loop.body3 ]
  %188 = phi float [ 0.000000e+00, %loop.pre1 ], [ %286, %loop.body3 ]
  %189 = phi float [ 0.000000e+00, %loop.pre1 ], [ %287, %loop.body3 ]
  %190 = phi float [ 0.000000e+00, %loop.pre1 ], [ %288, %loop.body3 ]
  %191 = phi float [ 0.000000e+00, %loop.pre1 ], [ %289, %loop.body3 ]
  %192 = phi float [ 0.000000e+00, %loop.pre1 ], [ %290, %loop.body3 ]
  %193 = phi float [ 0.000000e+00, %loop.pre1 ], [ %291, %loop.body3 ]
  %194 = phi float [ 0.000000e+00, %loop.pre1 ], [ %292, %loop.body3 ]
  %195 = phi float [ 0.000000e+00, %loop.pre1 ], [ %293, %loop.body3 ]
  %196 = phi float [ 0.000000e+00, %loop.pre1 ], [ %294, %loop.body3 ]
  %197 = phi float [ 0.000000e+00, %loop.pre1 ], [ %295, %loop.body3 ]
  %198 = phi float [ 0.000000e+00, %loop.pre1 ], [ %296, %loop.body3 ]
  %199 = phi float [ 0.000000e+00, %loop.pre1 ], [ %297, %loop.body3 ]
  %200 = phi float [ 0.000000e+00, %loop.pre1 ], [ %298, %loop.body3 ]
  %201 = phi float [ 0.000000e+00, %loop.pre1 ], [ %299, %loop.body3 ]
  %202 = phi float [ 0.000000e+00, %loop.pre1 ], [ %300, %loop.body3 ]
  %203 = phi float [ 0.000000e+00, %loop.pre1 ], [ %301, %loop.body3 ]
  %204 = phi float [ 0.000000e+00, %loop.pre1 ], [ %302, %loop.body3 ]
  %205 = phi float [ 0.000000e+00, %loop.pre1 ], [ %303, %loop.body3 ]
  %206 = phi i32 [ 0, %loop.pre1 ], [ %336, %loop.body3 ]
  %207 = phi i32 [ 0, %loop.pre1 ], [ %338, %loop.body3 ]
  %208 = icmp slt i32 %iv5, %24
  br i1 %208, label %loop.body3, label %loop.exit4

loop.body3:                                       ; preds = %loop2
  %209 = mul i32 %206, 8
  %210 = add i32 40960, %209
  %211 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %210
  %212 = ptrtoint ptr addrspace(3) %211 to i32
  call void asm sideeffect "{\0A.reg .pred weft_done;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0A}", "r,r"(i32 %212, i32 %207)
  %213 = mul i32 %206, 8192
  %214 = add i32 0, %213
  %215 = mul i32 %206, 8192
  %216 = add i32 16384, %215
  %217 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %216
  %218 = ptrtoint ptr addrspace(3) %217 to i32
  %219 = zext i32 %218 to i64
  %220 = and i64 %219, 262143
  %221 = lshr i64 %220, 4
  %222 = or i64 %221, 4611686293305360384
  %223 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %214
  %224 = ptrtoint ptr addrspace(3) %223 to i32
  %225 = add i32 %224, 0
  %226 = zext i32 %225 to i64
  %227 = and i64 %226, 262143
  %228 = lshr i64 %227, 4
  %229 = or i64 %228, 4611686293305360384
  call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
  %230 = add i64 %229, 0
  %231 = add i64 %222, 0
  %232 = add i64 %229, 2
  %233 = add i64 %222, 128
  %234 = add i64 %229, 4
  %235 = add i64 %222, 256
  %236 = add i64 %229, 6
  %237 = add i64 %222, 384
  %238 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $66, $67, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $68, $69, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $70, $71, 1, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,l,l,l,l,l,l"(float %174, float %175, float %176, float %177, float %178, float %179, float %180, float %181, float %182, float %183, float %184, float %185, float %186, float %187, float %188, float %189, float %190, float %191, float %192, float %193, float %194, float %195, float %196, float %197, float %198, float %199, float %200, float %201, float %202, float %203, float %204, float %205, i64 %230, i64 %231, i64 %232, i64 %233, i64 %234, i64 %235, i64 %236, i64 %237)
  %239 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 0
  %240 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 1
  %241 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 2
  %242 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 3
  %243 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 4
  %244 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 5
  %245 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 6
  %246 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 7
  %247 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 8
  %248 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 9
  %249 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 10
  %250 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 11
  %251 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 12
  %252 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 13
  %253 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 14
  %254 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 15
  %255 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 16
  %256 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 17
  %257 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 18
  %258 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 19
  %259 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 20
  %260 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 21
  %261 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 22
  %262 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 23
  %263 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 24
  %264 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 25
  %265 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 26
  %266 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 27
  %267 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 28
  %268 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 29
  %269 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 30
  %270 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %238, 31
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  %271 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %239, float %240, float %241, float %242, float %243, float %244, float %245, float %246, float %247, float %248, float %249, float %250, float %251, float %252, float %253, float %254, float %255, float %256, float %257, float %258, float %259, float %260, float %261, float %262, float %263, float %264, float %265, float %266, float %267, float %268, float %269, float %270)
  %272 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 0
  %273 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 1
  %274 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 2
  %275 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 3
  %276 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 4
  %277 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 5
  %278 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 6
  %279 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 7
  %280 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 8
  %281 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 9
  %282 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 10
  %283 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 11
  %284 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 12
  %285 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 13
  %286 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 14
  %287 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 15
  %288 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 16
  %289 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 17
  %290 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 18
  %291 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 19
  %292 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 20
  %293 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 21
  %294 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 22
  %295 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 23
  %296 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 24
  %297 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 25
  %298 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 26
  %299 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 27
  %300 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 28
  %301 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 29
  %302 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 30
  %303 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %271, 31
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %304 = icmp eq i32 %206, 0
  %305 = sub i32 %206, 1
  %306 = select i1 %304, i32 1, i32 %305
  %307 = add i32 %iv5, 1
  %308 = icmp slt i32 %307, %24
  %309 = shl i32 %307, 6
  %310 = mul i32 %306, 8
  %311 = add i32 40960, %310
  %312 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %311
  %313 = ptrtoint ptr addrspace(3) %312 to i32
  %314 = icmp eq i32 %1, 0
  %315 = and i1 %314, %308
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %315, i32 %313, i32 16384)
  %316 = mul i32 %306, 8192
  %317 = add i32 0, %316
  %318 = ptrtoint ptr %a_map to i64
  %319 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %311
  %320 = ptrtoint ptr addrspace(3) %319 to i32
  %321 = icmp eq i32 %1, 0
  %322 = and i1 %321, %308
  %323 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %317
  %324 = ptrtoint ptr addrspace(3) %323 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %322, i32 %324, i64 %318, i32 %309, i32 %35, i32 %320)
  %325 = mul i32 %306, 8192
  %326 = add i32 16384, %325
  %327 = ptrtoint ptr %b_map to i64
  %328 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %311
  %329 = ptrtoint ptr addrspace(3) %328 to i32
  %330 = icmp eq i32 %1, 0
  %331 = and i1 %330, %308
  %332 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %326
  %333 = ptrtoint ptr addrspace(3) %332 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %331, i32 %333, i64 %327, i32 %36, i32 %309, i32 %329)
  %334 = add i32 %206, 1
  %335 = icmp eq i32 %334, 2
  %336 = select i1 %335, i32 0, i32 %334
  %337 = xor i32 %207, 1
  %338 = select i1 %335, i32 %337, i32 %207
  %iv.next = add i32 %iv5, 1
  br label %loop2

loop.exit4:                                       ; preds = %loop2
  %339 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %174, float %175, float %176, float %177, float %178, float %179, float %180, float %181, float %182, float %183, float %184, float %185, float %186, float %187, float %188, float %189, float %190, float %191, float %192, float %193, float %194, float %195, float %196, float %197, float %198, float %199, float %200, float %201, float %202, float %203, float %204, float %205)
  %340 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 0
  %341 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 1
  %342 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 2
  %343 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 3
  %344 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 4
  %345 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 5
  %346 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 6
  %347 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 7
  %348 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 8
  %349 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 9
  %350 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 10
  %351 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 11
  %352 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 12
  %353 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 13
  %354 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 14
  %355 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 15
  %356 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 16
  %357 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 17
  %358 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 18
  %359 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 19
  %360 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 20
  %361 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 21
  %362 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 22
  %363 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 23
  %364 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 24
  %365 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 25
  %366 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 26
  %367 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 27
  %368 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 28
  %369 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 29
  %370 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 30
  %371 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %339, 31
  %372 = insertelement <2 x float> poison, float %340, i32 0
  %373 = insertelement <2 x float> %372, float %341, i32 1
  %374 = fptrunc <2 x float> %373 to <2 x half>
  %375 = extractelement <2 x half> %374, i32 0
  %376 = extractelement <2 x half> %374, i32 1
  %377 = insertelement <2 x float> poison, float %342, i32 0
  %378 = insertelement <2 x float> %377, float %343, i32 1
  %379 = fptrunc <2 x float> %378 to <2 x half>
  %380 = extractelement <2 x half> %379, i32 0
  %381 = extractelement <2 x half> %379, i32 1
  %382 = insertelement <2 x float> poison, float %344, i32 0
  %383 = insertelement <2 x float> %382, float %345, i32 1
  %384 = fptrunc <2 x float> %383 to <2 x half>
  %385 = extractelement <2 x half> %384, i32 0
  %386 = extractelement <2 x half> %384, i32 1
  %387 = insertelement <2 x float> poison, float %346, i32 0
  %388 = insertelement <2 x float> %387, float %347, i32 1
  %389 = fptrunc <2 x float> %388 to <2 x half>
  %390 = extractelement <2 x half> %389, i32 0
  %391 = extractelement <2 x half> %389, i32 1
  %392 = insertelement <2 x float> poison, float %348, i32 0
  %393 = insertelement <2 x float> %392, float %349, i32 1
  %394 = fptrunc <2 x float> %393 to <2 x half>
  %395 = extractelement <2 x half> %394, i32 0
  %396 = extractelement <2 x half> %394, i32 1
  %397 = insertelement <2 x float> poison, float %350, i32 0
  %398 = insertelement <2 x float> %397, float %351, i32 1
  %399 = fptrunc <2 x float> %398 to <2 x half>
  %400 = extractelement <2 x half> %399, i32 0
  %401 = extractelement <2 x half> %399, i32 1
  %402 = insertelement <2 x float> poison, float %352, i32 0
  %403 = insertelement <2 x float> %402, float %353, i32 1
  %404 = fptrunc <2 x float> %403 to <2 x half>
  %405 = extractelement <2 x half> %404, i32 0
  %406 = extractelement <2 x half> %404, i32 1
  %407 = insertelement <2 x float> poison, float %354, i32 0
  %408 = insertelement <2 x float> %407, float %355, i32 1
  %409 = fptrunc <2 x float> %408 to <2 x half>
  %410 = extractelement <2 x half> %409, i32 0
  %411 = extractelement <2 x half> %409, i32 1
  %412 = insertelement <2 x float> poison, float %356, i32 0
  %413 = insertelement <2 x float> %412, float %357, i32 1
  %414 = fptrunc <2 x float> %413 to <2 x half>
  %415 = extractelement <2 x half> %414, i32 0
  %416 = extractelement <2 x half> %414, i32 1
  %417 = insertelement <2 x float> poison, float %358, i32 0
  %418 = insertelement <2 x float> %417, float %359, i32 1
  %419 = fptrunc <2 x float> %418 to <2 x half>
  %420 = extractelement <2 x half> %419, i32 0
  %421 = extractelement <2 x half> %419, i32 1
  %422 = insertelement <2 x float> poison, float %360, i32 0
  %423 = insertelement <2 x float> %422, float %361, i32 1
  %424 = fptrunc <2 x float> %423 to <2 x half>
  %425 = extractelement <2 x half> %424, i32 0
  %426 = extractelement <2 x half> %424, i32 1
  %427 = insertelement <2 x float> poison, float %362, i32 0
  %428 = insertelement <2 x float> %427, float %363, i32 1
  %429 = fptrunc <2 x float> %428 to <2 x half>
  %430 = extractelement <2 x half> %429, i32 0
  %431 = extractelement <2 x half> %429, i32 1
  %432 = insertelement <2 x float> poison, float %364, i32 0
  %433 = insertelement <2 x float> %432, float %365, i32 1
  %434 = fptrunc <2 x float> %433 to <2 x half>
  %435 = extractelement <2 x half> %434, i32 0
  %436 = extractelement <2 x half> %434, i32 1
  %437 = insertelement <2 x float> poison, float %366, i32 0
  %438 = insertelement <2 x float> %437, float %367, i32 1
  %439 = fptrunc <2 x float> %438 to <2 x half>
  %440 = extractelement <2 x half> %439, i32 0
  %441 = extractelement <2 x half> %439, i32 1
  %442 = insertelement <2 x float> poison, float %368, i32 0
  %443 = insertelement <2 x float> %442, float %369, i32 1
  %444 = fptrunc <2 x float> %443 to <2 x half>
  %445 = extractelement <2 x half> %444, i32 0
  %446 = extractelement <2 x half> %444, i32 1
  %447 = insertelement <2 x float> poison, float %370, i32 0
  %448 = insertelement <2 x float> %447, float %371, i32 1
  %449 = fptrunc <2 x float> %448 to <2 x half>
  %450 = extractelement <2 x half> %449, i32 0
  %451 = extractelement <2 x half> %449, i32 1
  %452 = or disjoint i32 %18, 512
  %453 = xor i32 %18, 8
  %454 = xor i32 %18, 520
  %455 = xor i32 %18, 16
  %456 = xor i32 %18, 528
  %457 = xor i32 %18, 24
  %458 = xor i32 %18, 536
  %459 = xor i32 %18, 32
  %460 = xor i32 %18, 544
  %461 = xor i32 %18, 40
  %462 = xor i32 %18, 552
  %463 = xor i32 %18, 48
  %464 = xor i32 %18, 560
  %465 = xor i32 %18, 56
  %466 = xor i32 %18, 568
  %467 = shl i32 %18, 1
  %468 = add i32 %467, 32768
  %469 = shl i32 %452, 1
  %470 = add i32 %469, 32768
  %471 = shl i32 %453, 1
  %472 = add i32 %471, 32768
  %473 = shl i32 %454, 1
  %474 = add i32 %473, 32768
  %475 = shl i32 %455, 1
  %476 = add i32 %475, 32768
  %477 = shl i32 %456, 1
  %478 = add i32 %477, 32768
  %479 = shl i32 %457, 1
  %480 = add i32 %479, 32768
  %481 = shl i32 %458, 1
  %482 = add i32 %481, 32768
  %483 = shl i32 %459, 1
  %484 = add i32 %483, 32768
  %485 = shl i32 %460, 1
  %486 = add i32 %485, 32768
  %487 = shl i32 %461, 1
  %488 = add i32 %487, 32768
  %489 = shl i32 %462, 1
  %490 = add i32 %489, 32768
  %491 = shl i32 %463, 1
  %492 = add i32 %491, 32768
  %493 = shl i32 %464, 1
  %494 = add i32 %493, 32768
  %495 = shl i32 %465, 1
  %496 = add i32 %495, 32768
  %497 = shl i32 %466, 1
  %498 = add i32 %497, 32768
  %499 = insertelement <2 x half> poison, half %375, i32 0
  %500 = insertelement <2 x half> %499, half %376, i32 1
  %501 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %468
  store <2 x half> %500, ptr addrspace(3) %501, align 4
  %502 = insertelement <2 x half> poison, half %380, i32 0
  %503 = insertelement <2 x half> %502, half %381, i32 1
  %504 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %470
  store <2 x half> %503, ptr addrspace(3) %504, align 4
  %505 = insertelement <2 x half> poison, half %385, i32 0
  %506 = insertelement <2 x half> %505, half %386, i32 1
  %507 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %472
  store <2 x half> %506, ptr addrspace(3) %507, align 4
  %508 = insertelement <2 x half> poison, half %390, i32 0
  %509 = insertelement <2 x half> %508, half %391, i32 1
  %510 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %474
  store <2 x half> %509, ptr addrspace(3) %510, align 4
  %511 = insertelement <2 x half> poison, half %395, i32 0
  %512 = insertelement <2 x half> %511, half %396, i32 1
  %513 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %476
  store <2 x half> %512, ptr addrspace(3) %513, align 4
  %514 = insertelement <2 x half> poison, half %400, i32 0
  %515 = insertelement <2 x half> %514, half %401, i32 1
  %516 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %478
  store <2 x half> %515, ptr addrspace(3) %516, align 4
  %517 = insertelement <2 x half> poison, half %405, i32 0
  %518 = insertelement <2 x half> %517, half %406, i32 1
  %519 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %480
  store <2 x half> %518, ptr addrspace(3) %519, align 4
  %520 = insertelement <2 x half> poison, half %410, i32 0
  %521 = insertelement <2 x half> %520, half %411, i32 1
  %522 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %482
  store <2 x half> %521, ptr addrspace(3) %522, align 4
  %523 = insertelement <2 x half> poison, half %415, i32 0
  %524 = insertelement <2 x half> %523, half %416, i32 1
  %525 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %484
  store <2 x half> %524, ptr addrspace(3) %525, align 4
  %526 = insertelement <2 x half> poison, half %420, i32 0
  %527 = insertelement <2 x half> %526, half %421, i32 1
  %528 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %486
  store <2 x half> %527, ptr addrspace(3) %528, align 4
  %529 = insertelement <2 x half> poison, half %425, i32 0
  %530 = insertelement <2 x half> %529, half %426, i32 1
  %531 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %488
  store <2 x half> %530, ptr addrspace(3) %531, align 4
  %532 = insertelement <2 x half> poison, half %430, i32 0
  %533 = insertelement <2 x half> %532, half %431, i32 1
  %534 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %490
  store <2 x half> %533, ptr addrspace(3) %534, align 4
  %535 = insertelement <2 x half> poison, half %435, i32 0
  %536 = insertelement <2 x half> %535, half %436, i32 1
  %537 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %492
  store <2 x half> %536, ptr addrspace(3) %537, align 4
  %538 = insertelement <2 x half> poison, half %440, i32 0
  %539 = insertelement <2 x half> %538, half %441, i32 1
  %540 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %494
  store <2 x half> %539, ptr addrspace(3) %540, align 4
  %541 = insertelement <2 x half> poison, half %445, i32 0
  %542 = insertelement <2 x half> %541, half %446, i32 1
  %543 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %496
  store <2 x half> %542, ptr addrspace(3) %543, align 4
  %544 = insertelement <2 x half> poison, half %450, i32 0
  %545 = insertelement <2 x half> %544, half %451, i32 1
  %546 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %498
  store <2 x half> %545, ptr addrspace(3) %546, align 4
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %547 = ptrtoint ptr %c_map to i64
  %548 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %548, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %547, i32 %36, i32 %35)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %548)
  %549 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %549)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #3

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
