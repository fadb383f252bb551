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
  %81 = phi i32 [ 0, %loop.pre ], [ %176, %loop.body ]
  %82 = phi i32 [ 0, %loop.pre ], [ %179, %loop.body ]
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
  %176 = xor i32 %81, 1
  %177 = xor i32 %82, 1
  %178 = icmp eq i32 %81, 1
  %179 = select i1 %178, i32 %177, i32 %82
  %iv.next = add i32 %iv, 1
  br label %loop

loop.exit:                                        ; preds = %loop
  %180 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %49, float %50, float %51, float %52, float %53, float %54, float %55, float %56, float %57, float %58, float %59, float %60, float %61, float %62, float %63, float %64)
  %181 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 0
  %182 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 1
  %183 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 2
  %184 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 3
  %185 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 4
  %186 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 5
  %187 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 6
  %188 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 7
  %189 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 8
  %190 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 9
  %191 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 10
  %192 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 11
  %193 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 12
  %194 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 13
  %195 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 14
  %196 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %180, 15
  %197 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %65, float %66, float %67, float %68, float %69, float %70, float %71, float %72, float %73, float %74, float %75, float %76, float %77, float %78, float %79, float %80)
  %198 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 0
  %199 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 1
  %200 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 2
  %201 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 3
  %202 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 4
  %203 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 5
  %204 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 6
  %205 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 7
  %206 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 8
  %207 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 9
  %208 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 10
  %209 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 11
  %210 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 12
  %211 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 13
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 14
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %197, 15
  %214 = insertelement <2 x float> poison, float %181, i32 0
  %215 = insertelement <2 x float> %214, float %182, i32 1
  %216 = fptrunc <2 x float> %215 to <2 x half>
  %217 = insertelement <2 x float> poison, float %183, i32 0
  %218 = insertelement <2 x float> %217, float %184, i32 1
  %219 = fptrunc <2 x float> %218 to <2 x half>
  %220 = insertelement <2 x float> poison, float %185, i32 0
  %221 = insertelement <2 x float> %220, float %186, i32 1
  %222 = fptrunc <2 x float> %221 to <2 x half>
  %223 = insertelement <2 x float> poison, float %187, i32 0
  %224 = insertelement <2 x float> %223, float %188, i32 1
  %225 = fptrunc <2 x float> %224 to <2 x half>
  %226 = insertelement <2 x float> poison, float %189, i32 0
  %227 = insertelement <2 x float> %226, float %190, i32 1
  %228 = fptrunc <2 x float> %227 to <2 x half>
  %229 = insertelement <2 x float> poison, float %191, i32 0
  %230 = insertelement <2 x float> %229, float %192, i32 1
  %231 = fptrunc <2 x float> %230 to <2 x half>
  %232 = insertelement <2 x float> poison, float %193, i32 0
  %233 = insertelement <2 x float> %232, float %194, i32 1
  %234 = fptrunc <2 x float> %233 to <2 x half>
  %235 = insertelement <2 x float> poison, float %195, i32 0
  %236 = insertelement <2 x float> %235, float %196, i32 1
  %237 = fptrunc <2 x float> %236 to <2 x half>
  %238 = insertelement <2 x float> poison, float %198, i32 0
  %239 = insertelement <2 x float> %238, float %199, i32 1
  %240 = fptrunc <2 x float> %239 to <2 x half>
  %241 = insertelement <2 x float> poison, float %200, i32 0
  %242 = insertelement <2 x float> %241, float %201, i32 1
  %243 = fptrunc <2 x float> %242 to <2 x half>
  %244 = insertelement <2 x float> poison, float %202, i32 0
  %245 = insertelement <2 x float> %244, float %203, i32 1
  %246 = fptrunc <2 x float> %245 to <2 x half>
  %247 = insertelement <2 x float> poison, float %204, i32 0
  %248 = insertelement <2 x float> %247, float %205, i32 1
  %249 = fptrunc <2 x float> %248 to <2 x half>
  %250 = insertelement <2 x float> poison, float %206, i32 0
  %251 = insertelement <2 x float> %250, float %207, i32 1
  %252 = fptrunc <2 x float> %251 to <2 x half>
  %253 = insertelement <2 x float> poison, float %208, i32 0
  %254 = insertelement <2 x float> %253, float %209, i32 1
  %255 = fptrunc <2 x float> %254 to <2 x half>
  %256 = insertelement <2 x float> poison, float %210, i32 0
  %257 = insertelement <2 x float> %256, float %211, i32 1
  %258 = fptrunc <2 x float> %257 to <2 x half>
  %259 = insertelement <2 x float> poison, float %212, i32 0
  %260 = insertelement <2 x float> %259, float %213, i32 1
  %261 = fptrunc <2 x float> %260 to <2 x half>
  %262 = xor i32 %21, 16
  %263 = xor i32 %21, 32
  %264 = xor i32 %21, 48
  %265 = shl i32 %21, 1
  %266 = add i32 %265, 32768
  %267 = shl i32 %262, 1
  %268 = add i32 %267, 32768
  %269 = shl i32 %263, 1
  %270 = add i32 %269, 32768
  %271 = shl i32 %264, 1
  %272 = add i32 %271, 32768
  %273 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %266
  %274 = bitcast <2 x half> %216 to i32
  %275 = bitcast <2 x half> %219 to i32
  %276 = bitcast <2 x half> %222 to i32
  %277 = bitcast <2 x half> %225 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %273, i32 %274, i32 %275, i32 %276, i32 %277)
  %278 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %268
  %279 = bitcast <2 x half> %228 to i32
  %280 = bitcast <2 x half> %231 to i32
  %281 = bitcast <2 x half> %234 to i32
  %282 = bitcast <2 x half> %237 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %278, i32 %279, i32 %280, i32 %281, i32 %282)
  %283 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %270
  %284 = bitcast <2 x half> %240 to i32
  %285 = bitcast <2 x half> %243 to i32
  %286 = bitcast <2 x half> %246 to i32
  %287 = bitcast <2 x half> %249 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %283, i32 %284, i32 %285, i32 %286, i32 %287)
  %288 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %272
  %289 = bitcast <2 x half> %252 to i32
  %290 = bitcast <2 x half> %255 to i32
  %291 = bitcast <2 x half> %258 to i32
  %292 = bitcast <2 x half> %261 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %288, i32 %289, i32 %290, i32 %291, i32 %292)
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %293 = ptrtoint ptr %c_map to i64
  %294 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %294, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %293, i32 %39, i32 %38)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %294)
  %295 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %295)
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
