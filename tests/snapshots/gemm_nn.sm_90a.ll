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
  %372 = fptrunc float %340 to half
  %373 = fptrunc float %341 to half
  %374 = fptrunc float %342 to half
  %375 = fptrunc float %343 to half
  %376 = fptrunc float %344 to half
  %377 = fptrunc float %345 to half
  %378 = fptrunc float %346 to half
  %379 = fptrunc float %347 to half
  %380 = fptrunc float %348 to half
  %381 = fptrunc float %349 to half
  %382 = fptrunc float %350 to half
  %383 = fptrunc float %351 to half
  %384 = fptrunc float %352 to half
  %385 = fptrunc float %353 to half
  %386 = fptrunc float %354 to half
  %387 = fptrunc float %355 to half
  %388 = fptrunc float %356 to half
  %389 = fptrunc float %357 to half
  %390 = fptrunc float %358 to half
  %391 = fptrunc float %359 to half
  %392 = fptrunc float %360 to half
  %393 = fptrunc float %361 to half
  %394 = fptrunc float %362 to half
  %395 = fptrunc float %363 to half
  %396 = fptrunc float %364 to half
  %397 = fptrunc float %365 to half
  %398 = fptrunc float %366 to half
  %399 = fptrunc float %367 to half
  %400 = fptrunc float %368 to half
  %401 = fptrunc float %369 to half
  %402 = fptrunc float %370 to half
  %403 = fptrunc float %371 to half
  %404 = or disjoint i32 %18, 512
  %405 = xor i32 %18, 8
  %406 = xor i32 %18, 520
  %407 = xor i32 %18, 16
  %408 = xor i32 %18, 528
  %409 = xor i32 %18, 24
  %410 = xor i32 %18, 536
  %411 = xor i32 %18, 32
  %412 = xor i32 %18, 544
  %413 = xor i32 %18, 40
  %414 = xor i32 %18, 552
  %415 = xor i32 %18, 48
  %416 = xor i32 %18, 560
  %417 = xor i32 %18, 56
  %418 = xor i32 %18, 568
  %419 = shl i32 %18, 1
  %420 = add i32 %419, 32768
  %421 = shl i32 %404, 1
  %422 = add i32 %421, 32768
  %423 = shl i32 %405, 1
  %424 = add i32 %423, 32768
  %425 = shl i32 %406, 1
  %426 = add i32 %425, 32768
  %427 = shl i32 %407, 1
  %428 = add i32 %427, 32768
  %429 = shl i32 %408, 1
  %430 = add i32 %429, 32768
  %431 = shl i32 %409, 1
  %432 = add i32 %431, 32768
  %433 = shl i32 %410, 1
  %434 = add i32 %433, 32768
  %435 = shl i32 %411, 1
  %436 = add i32 %435, 32768
  %437 = shl i32 %412, 1
  %438 = add i32 %437, 32768
  %439 = shl i32 %413, 1
  %440 = add i32 %439, 32768
  %441 = shl i32 %414, 1
  %442 = add i32 %441, 32768
  %443 = shl i32 %415, 1
  %444 = add i32 %443, 32768
  %445 = shl i32 %416, 1
  %446 = add i32 %445, 32768
  %447 = shl i32 %417, 1
  %448 = add i32 %447, 32768
  %449 = shl i32 %418, 1
  %450 = add i32 %449, 32768
  %451 = insertelement <2 x half> poison, half %372, i32 0
  %452 = insertelement <2 x half> %451, half %373, i32 1
  %453 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %420
  store <2 x half> %452, ptr addrspace(3) %453, align 4
  %454 = insertelement <2 x half> poison, half %374, i32 0
  %455 = insertelement <2 x half> %454, half %375, i32 1
  %456 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %422
  store <2 x half> %455, ptr addrspace(3) %456, align 4
  %457 = insertelement <2 x half> poison, half %376, i32 0
  %458 = insertelement <2 x half> %457, half %377, i32 1
  %459 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %424
  store <2 x half> %458, ptr addrspace(3) %459, align 4
  %460 = insertelement <2 x half> poison, half %378, i32 0
  %461 = insertelement <2 x half> %460, half %379, i32 1
  %462 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %426
  store <2 x half> %461, ptr addrspace(3) %462, align 4
  %463 = insertelement <2 x half> poison, half %380, i32 0
  %464 = insertelement <2 x half> %463, half %381, i32 1
  %465 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %428
  store <2 x half> %464, ptr addrspace(3) %465, align 4
  %466 = insertelement <2 x half> poison, half %382, i32 0
  %467 = insertelement <2 x half> %466, half %383, i32 1
  %468 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %430
  store <2 x half> %467, ptr addrspace(3) %468, align 4
  %469 = insertelement <2 x half> poison, half %384, i32 0
  %470 = insertelement <2 x half> %469, half %385, i32 1
  %471 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %432
  store <2 x half> %470, ptr addrspace(3) %471, align 4
  %472 = insertelement <2 x half> poison, half %386, i32 0
  %473 = insertelement <2 x half> %472, half %387, i32 1
  %474 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %434
  store <2 x half> %473, ptr addrspace(3) %474, align 4
  %475 = insertelement <2 x half> poison, half %388, i32 0
  %476 = insertelement <2 x half> %475, half %389, i32 1
  %477 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %436
  store <2 x half> %476, ptr addrspace(3) %477, align 4
  %478 = insertelement <2 x half> poison, half %390, i32 0
  %479 = insertelement <2 x half> %478, half %391, i32 1
  %480 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %438
  store <2 x half> %479, ptr addrspace(3) %480, align 4
  %481 = insertelement <2 x half> poison, half %392, i32 0
  %482 = insertelement <2 x half> %481, half %393, i32 1
  %483 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %440
  store <2 x half> %482, ptr addrspace(3) %483, align 4
  %484 = insertelement <2 x half> poison, half %394, i32 0
  %485 = insertelement <2 x half> %484, half %395, i32 1
  %486 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %442
  store <2 x half> %485, ptr addrspace(3) %486, align 4
  %487 = insertelement <2 x half> poison, half %396, i32 0
  %488 = insertelement <2 x half> %487, half %397, i32 1
  %489 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %444
  store <2 x half> %488, ptr addrspace(3) %489, align 4
  %490 = insertelement <2 x half> poison, half %398, i32 0
  %491 = insertelement <2 x half> %490, half %399, i32 1
  %492 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %446
  store <2 x half> %491, ptr addrspace(3) %492, align 4
  %493 = insertelement <2 x half> poison, half %400, i32 0
  %494 = insertelement <2 x half> %493, half %401, i32 1
  %495 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %448
  store <2 x half> %494, ptr addrspace(3) %495, align 4
  %496 = insertelement <2 x half> poison, half %402, i32 0
  %497 = insertelement <2 x half> %496, half %403, i32 1
  %498 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %450
  store <2 x half> %497, ptr addrspace(3) %498, align 4
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %499 = ptrtoint ptr %c_map to i64
  %500 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %500, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %499, i32 %36, i32 %35)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %500)
  %501 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %501)
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
