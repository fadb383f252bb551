target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @gemm_nn(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %a_map, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %b_map, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %c_map, i32 %m, i32 %n, i32 %k) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = and i32 %1, 1
  %3 = icmp ne i32 %2, 0
  %4 = select i1 %3, i32 72, i32 0
  %5 = and i32 %1, 2
  %6 = icmp ne i32 %5, 0
  %7 = select i1 %6, i32 144, i32 0
  %8 = or disjoint i32 %4, %7
  %9 = and i32 %1, 4
  %10 = icmp ne i32 %9, 0
  %11 = select i1 %10, i32 288, i32 0
  %12 = or disjoint i32 %8, %11
  %13 = and i32 %1, 8
  %14 = shl i32 %13, 6
  %15 = or disjoint i32 %12, %14
  %16 = and i32 %1, 16
  %17 = lshr i32 %16, 1
  %18 = xor i32 %15, %17
  %19 = and i32 %1, 96
  %20 = shl i32 %19, 5
  %21 = or disjoint i32 %18, %20
  br label %body

body:                                             ; preds = %prologue
  %22 = add i32 %m, 63
  %23 = sdiv i32 %22, 64
  %24 = add i32 %n, 63
  %25 = sdiv i32 %24, 64
  %26 = add i32 %k, 63
  %27 = sdiv i32 %26, 64
  %28 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1+0], $2;\0A@$0 mbarrier.init.shared::cta.b64 [$1+8], $2;\0Afence.mbarrier_init.release.cluster;", "b,r,r"(i1 %28, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32), i32 1)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %29 = shl i32 %25, 3
  %30 = sdiv i32 %0, %29
  %31 = shl i32 %30, 3
  %32 = sub i32 %23, %31
  %33 = call i32 @llvm.smin.i32(i32 %32, i32 8)
  %34 = srem i32 %0, %29
  %35 = srem i32 %34, %33
  %36 = add i32 %31, %35
  %37 = sdiv i32 %34, %33
  %38 = shl i32 %36, 6
  %39 = shl i32 %37, 6
  %40 = icmp slt i32 0, %27
  %41 = icmp eq i32 %1, 0
  %42 = and i1 %41, %40
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %42, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32), i32 16384)
  %43 = ptrtoint ptr %a_map to i64
  %44 = icmp eq i32 %1, 0
  %45 = and i1 %44, %40
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %45, i32 ptrtoint (ptr addrspace(3) @weft_smem to i32), i64 %43, i32 0, i32 %38, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32))
  %46 = ptrtoint ptr %b_map to i64
  %47 = icmp eq i32 %1, 0
  %48 = and i1 %47, %40
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %48, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16384) to i32), i64 %46, i32 %39, i32 0, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32))
  br label %loop.pre

loop.pre:                                         ; preds = %body
  br label %loop

loop:                                             ; preds = %loop.body, %loop.pre
  %iv = phi i32 [ 0, %loop.pre ], [ %iv.next, %loop.body ]
  %49 = phi float [ 0.000000e+00, %loop.pre ], [ %114, %loop.body ]
  %50 = phi float [ 0.000000e+00, %loop.pre ], [ %115, %loop.body ]
  %51 = phi float [ 0.000000e+00, %loop.pre ], [ %116, %loop.body ]
  %52 = phi float [ 0.000000e+00, %loop.pre ], [ %117, %loop.body ]
  %53 = phi float [ 0.000000e+00, %loop.pre ], [ %118, %loop.body ]
  %54 = phi float [ 0.000000e+00, %loop.pre ], [ %119, %loop.body ]
  %55 = phi float [ 0.000000e+00, %loop.pre ], [ %120, %loop.body ]
  %56 = phi float [ 0.000000e+00, %loop.pre ], [ %121, %loop.body ]
  %57 = phi float [ 0.000000e+00, %loop.pre ], [ %122, %loop.body ]
  %58 = phi float [ 0.000000e+00, %loop.pre ], [ %123, %loop.body ]
  %59 = phi float [ 0.000000e+00, %loop.pre ], [ %124, %loop.body ]
  %60 = phi float [ 0.000000e+00, %loop.pre ], [ %125, %loop.body ]
  %61 = phi float [ 0.000000e+00, %loop.pre ], [ %126, %loop.body ]
  %62 = phi float [ 0.000000e+00, %loop.pre ], [ %127, %loop.body ]
  %63 = phi float [ 0.000000e+00, %loop.pre ], [ %128, %loop.body ]
  %64 = phi float [ 0.000000e+00, %loop.pre ], [ %129, %loop.body ]
  %65 = phi float [ 0.000000e+00, %loop.pre ], [ %130, %loop.body ]
  %66 = phi float [ 0.000000e+00, %loop.pre ], [ %131, %loop.body ]
  %67 = phi float [ 0.000000e+00, %loop.pre ], [ %132, %loop.body ]
  %68 = phi float [ 0.000000e+00, %loop.pre ], [ %133, %loop.body ]
  %69 = phi float [ 0.000000e+00, %loop.pre ], [ %134, %loop.body ]
  %70 = phi float [ 0.000000e+00, %loop.pre ], [ %135, %loop.body ]
  %71 = phi float [ 0.000000e+00, %loop.pre ], [ %136, %loop.body ]
  %72 = phi float [ 0.000000e+00, %loop.pre ], [ %137, %loop.body ]
  %73 = phi float [ 0.000000e+00, %loop.pre ], [ %138, %loop.body ]
  %74 = phi float [ 0.000000e+00, %loop.pre ], [ %139, %loop.body ]
  %75 = phi float [ 0.000000e+00, %loop.pre ], [ %140, %loop.body ]
  %76 = phi float [ 0.000000e+00, %loop.pre ], [ %141, %loop.body ]
  %77 = phi float [ 0.000000e+00, %loop.pre ], [ %142, %loop.body ]
  %78 = phi float [ 0.000000e+00, %loop.pre ], [ %143, %loop.body ]
  %79 = phi float [ 0.000000e+00, %loop.pre ], [ %144, %loop.body ]
  %80 = phi float [ 0.000000e+00, %loop.pre ], [ %145, %loop.body ]
  %81 = phi i32 [ 0, %loop.pre ], [ %178, %loop.body ]
  %82 = phi i32 [ 0, %loop.pre ], [ %180, %loop.body ]
  %83 = icmp slt i32 %iv, %27
  br i1 %83, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %84 = mul i32 %81, 8
  %85 = add i32 40960, %84
  %86 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %85
  %87 = ptrtoint ptr addrspace(3) %86 to i32
  call void asm sideeffect "{\0A.reg .pred weft_done;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0A}", "r,r"(i32 %87, i32 %82)
  %88 = mul i32 %81, 8192
  %89 = add i32 0, %88
  %90 = mul i32 %81, 8192
  %91 = add i32 16384, %90
  %92 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %91
  %93 = ptrtoint ptr addrspace(3) %92 to i32
  %94 = zext i32 %93 to i64
  %95 = and i64 %94, 262143
  %96 = lshr i64 %95, 4
  %97 = or i64 %96, 4611686293305360384
  %98 = add i64 %97, 0
  %99 = add i64 %97, 128
  %100 = add i64 %97, 256
  %101 = add i64 %97, 384
  %102 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %89
  %103 = ptrtoint ptr addrspace(3) %102 to i32
  %104 = add i32 %103, 0
  %105 = zext i32 %104 to i64
  %106 = and i64 %105, 262143
  %107 = lshr i64 %106, 4
  %108 = or i64 %107, 4611686293305360384
  %109 = add i64 %108, 0
  %110 = add i64 %108, 2
  %111 = add i64 %108, 4
  %112 = add i64 %108, 6
  %113 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.fence.sync.aligned;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $66, $67, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $68, $69, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $70, $71, 1, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,l,l,l,l,l,l"(float %49, float %50, float %51, float %52, float %53, float %54, float %55, float %56, float %57, float %58, float %59, float %60, float %61, float %62, float %63, float %64, float %65, float %66, float %67, float %68, float %69, float %70, float %71, float %72, float %73, float %74, float %75, float %76, float %77, float %78, float %79, float %80, i64 %109, i64 %98, i64 %110, i64 %99, i64 %111, i64 %100, i64 %112, i64 %101)
  %114 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 0
  %115 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 1
  %116 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 2
  %117 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 3
  %118 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 4
  %119 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 5
  %120 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 6
  %121 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 7
  %122 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 8
  %123 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 9
  %124 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 10
  %125 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 11
  %126 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 12
  %127 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 13
  %128 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 14
  %129 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 15
  %130 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 16
  %131 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 17
  %132 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 18
  %133 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 19
  %134 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 20
  %135 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 21
  %136 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 22
  %137 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 23
  %138 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 24
  %139 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 25
  %140 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 26
  %141 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 27
  %142 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 28
  %143 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 29
  %144 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 30
  %145 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %113, 31
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  call void asm sideeffect "wgmma.wait_group.sync.aligned 1;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %146 = icmp eq i32 %81, 0
  %147 = sub i32 %81, 1
  %148 = select i1 %146, i32 1, i32 %147
  %149 = add i32 %iv, 1
  %150 = icmp slt i32 %149, %27
  %151 = shl i32 %149, 6
  %152 = mul i32 %148, 8
  %153 = add i32 40960, %152
  %154 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %153
  %155 = ptrtoint ptr addrspace(3) %154 to i32
  %156 = icmp eq i32 %1, 0
  %157 = and i1 %156, %150
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %157, i32 %155, i32 16384)
  %158 = mul i32 %148, 8192
  %159 = add i32 0, %158
  %160 = ptrtoint ptr %a_map to i64
  %161 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %153
  %162 = ptrtoint ptr addrspace(3) %161 to i32
  %163 = icmp eq i32 %1, 0
  %164 = and i1 %163, %150
  %165 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %159
  %166 = ptrtoint ptr addrspace(3) %165 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %164, i32 %166, i64 %160, i32 %151, i32 %38, i32 %162)
  %167 = mul i32 %148, 8192
  %168 = add i32 16384, %167
  %169 = ptrtoint ptr %b_map to i64
  %170 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %153
  %171 = ptrtoint ptr addrspace(3) %170 to i32
  %172 = icmp eq i32 %1, 0
  %173 = and i1 %172, %150
  %174 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %168
  %175 = ptrtoint ptr addrspace(3) %174 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %173, i32 %175, i64 %169, i32 %39, i32 %151, i32 %171)
  %176 = add i32 %81, 1
  %177 = icmp eq i32 %176, 2
  %178 = select i1 %177, i32 0, i32 %176
  %179 = xor i32 %82, 1
  %180 = select i1 %177, i32 %179, i32 %82
  %iv.next = add i32 %iv, 1
  br label %loop

loop.exit:                                        ; preds = %loop
  %181 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %49, float %50, float %51, float %52, float %53, float %54, float %55, float %56, float %57, float %58, float %59, float %60, float %61, float %62, float %63, float %64)
  %182 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 0
  %183 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 1
  %184 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 2
  %185 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 3
  %186 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 4
  %187 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 5
  %188 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 6
  %189 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 7
  %190 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 8
  %191 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 9
  %192 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 10
  %193 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 11
  %194 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 12
  %195 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 13
  %196 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 14
  %197 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %181, 15
  %198 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %65, float %66, float %67, float %68, float %69, float %70, float %71, float %72, float %73, float %74, float %75, float %76, float %77, float %78, float %79, float %80)
  %199 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 0
  %200 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 1
  %201 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 2
  %202 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 3
  %203 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 4
  %204 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 5
  %205 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 6
  %206 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 7
  %207 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 8
  %208 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 9
  %209 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 10
  %210 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 11
  %211 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 12
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 13
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 14
  %214 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %198, 15
  %215 = insertelement <2 x float> poison, float %182, i32 0
  %216 = insertelement <2 x float> %215, float %183, i32 1
  %217 = fptrunc <2 x float> %216 to <2 x half>
  %218 = insertelement <2 x float> poison, float %184, i32 0
  %219 = insertelement <2 x float> %218, float %185, i32 1
  %220 = fptrunc <2 x float> %219 to <2 x half>
  %221 = insertelement <2 x float> poison, float %186, i32 0
  %222 = insertelement <2 x float> %221, float %187, i32 1
  %223 = fptrunc <2 x float> %222 to <2 x half>
  %224 = insertelement <2 x float> poison, float %188, i32 0
  %225 = insertelement <2 x float> %224, float %189, i32 1
  %226 = fptrunc <2 x float> %225 to <2 x half>
  %227 = insertelement <2 x float> poison, float %190, i32 0
  %228 = insertelement <2 x float> %227, float %191, i32 1
  %229 = fptrunc <2 x float> %228 to <2 x half>
  %230 = insertelement <2 x float> poison, float %192, i32 0
  %231 = insertelement <2 x float> %230, float %193, i32 1
  %232 = fptrunc <2 x float> %231 to <2 x half>
  %233 = insertelement <2 x float> poison, float %194, i32 0
  %234 = insertelement <2 x float> %233, float %195, i32 1
  %235 = fptrunc <2 x float> %234 to <2 x half>
  %236 = insertelement <2 x float> poison, float %196, i32 0
  %237 = insertelement <2 x float> %236, float %197, i32 1
  %238 = fptrunc <2 x float> %237 to <2 x half>
  %239 = insertelement <2 x float> poison, float %199, i32 0
  %240 = insertelement <2 x float> %239, float %200, i32 1
  %241 = fptrunc <2 x float> %240 to <2 x half>
  %242 = insertelement <2 x float> poison, float %201, i32 0
  %243 = insertelement <2 x float> %242, float %202, i32 1
  %244 = fptrunc <2 x float> %243 to <2 x half>
  %245 = insertelement <2 x float> poison, float %203, i32 0
  %246 = insertelement <2 x float> %245, float %204, i32 1
  %247 = fptrunc <2 x float> %246 to <2 x half>
  %248 = insertelement <2 x float> poison, float %205, i32 0
  %249 = insertelement <2 x float> %248, float %206, i32 1
  %250 = fptrunc <2 x float> %249 to <2 x half>
  %251 = insertelement <2 x float> poison, float %207, i32 0
  %252 = insertelement <2 x float> %251, float %208, i32 1
  %253 = fptrunc <2 x float> %252 to <2 x half>
  %254 = insertelement <2 x float> poison, float %209, i32 0
  %255 = insertelement <2 x float> %254, float %210, i32 1
  %256 = fptrunc <2 x float> %255 to <2 x half>
  %257 = insertelement <2 x float> poison, float %211, i32 0
  %258 = insertelement <2 x float> %257, float %212, i32 1
  %259 = fptrunc <2 x float> %258 to <2 x half>
  %260 = insertelement <2 x float> poison, float %213, i32 0
  %261 = insertelement <2 x float> %260, float %214, i32 1
  %262 = fptrunc <2 x float> %261 to <2 x half>
  %263 = xor i32 %21, 16
  %264 = xor i32 %21, 32
  %265 = xor i32 %21, 48
  %266 = shl i32 %21, 1
  %267 = add i32 %266, 32768
  %268 = shl i32 %263, 1
  %269 = add i32 %268, 32768
  %270 = shl i32 %264, 1
  %271 = add i32 %270, 32768
  %272 = shl i32 %265, 1
  %273 = add i32 %272, 32768
  %274 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %267
  %275 = bitcast <2 x half> %217 to i32
  %276 = bitcast <2 x half> %220 to i32
  %277 = bitcast <2 x half> %223 to i32
  %278 = bitcast <2 x half> %226 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %274, i32 %275, i32 %276, i32 %277, i32 %278)
  %279 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %269
  %280 = bitcast <2 x half> %229 to i32
  %281 = bitcast <2 x half> %232 to i32
  %282 = bitcast <2 x half> %235 to i32
  %283 = bitcast <2 x half> %238 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %279, i32 %280, i32 %281, i32 %282, i32 %283)
  %284 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %271
  %285 = bitcast <2 x half> %241 to i32
  %286 = bitcast <2 x half> %244 to i32
  %287 = bitcast <2 x half> %247 to i32
  %288 = bitcast <2 x half> %250 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %284, i32 %285, i32 %286, i32 %287, i32 %288)
  %289 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %273
  %290 = bitcast <2 x half> %253 to i32
  %291 = bitcast <2 x half> %256 to i32
  %292 = bitcast <2 x half> %259 to i32
  %293 = bitcast <2 x half> %262 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %289, i32 %290, i32 %291, i32 %292, i32 %293)
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %294 = ptrtoint ptr %c_map to i64
  %295 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %295, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %294, i32 %39, i32 %38)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %295)
  %296 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %296)
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
