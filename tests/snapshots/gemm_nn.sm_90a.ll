target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
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
  br label %loop.pre

loop.pre:                                         ; preds = %body
  br label %loop

loop:                                             ; preds = %loop.body, %loop.pre
  %iv = phi i32 [ 0, %loop.pre ], [ %iv.next, %loop.body ]
  %46 = phi float [ 0.000000e+00, %loop.pre ], [ %144, %loop.body ]
  %47 = phi float [ 0.000000e+00, %loop.pre ], [ %145, %loop.body ]
  %48 = phi float [ 0.000000e+00, %loop.pre ], [ %146, %loop.body ]
  %49 = phi float [ 0.000000e+00, %loop.pre ], [ %147, %loop.body ]
  %50 = phi float [ 0.000000e+00, %loop.pre ], [ %148, %loop.body ]
  %51 = phi float [ 0.000000e+00, %loop.pre ], [ %149, %loop.body ]
  %52 = phi float [ 0.000000e+00, %loop.pre ], [ %150, %loop.body ]
  %53 = phi float [ 0.000000e+00, %loop.pre ], [ %151, %loop.body ]
  %54 = phi float [ 0.000000e+00, %loop.pre ], [ %152, %loop.body ]
  %55 = phi float [ 0.000000e+00, %loop.pre ], [ %153, %loop.body ]
  %56 = phi float [ 0.000000e+00, %loop.pre ], [ %154, %loop.body ]
  %57 = phi float [ 0.000000e+00, %loop.pre ], [ %155, %loop.body ]
  %58 = phi float [ 0.000000e+00, %loop.pre ], [ %156, %loop.body ]
  %59 = phi float [ 0.000000e+00, %loop.pre ], [ %157, %loop.body ]
  %60 = phi float [ 0.000000e+00, %loop.pre ], [ %158, %loop.body ]
  %61 = phi float [ 0.000000e+00, %loop.pre ], [ %159, %loop.body ]
  %62 = phi float [ 0.000000e+00, %loop.pre ], [ %160, %loop.body ]
  %63 = phi float [ 0.000000e+00, %loop.pre ], [ %161, %loop.body ]
  %64 = phi float [ 0.000000e+00, %loop.pre ], [ %162, %loop.body ]
  %65 = phi float [ 0.000000e+00, %loop.pre ], [ %163, %loop.body ]
  %66 = phi float [ 0.000000e+00, %loop.pre ], [ %164, %loop.body ]
  %67 = phi float [ 0.000000e+00, %loop.pre ], [ %165, %loop.body ]
  %68 = phi float [ 0.000000e+00, %loop.pre ], [ %166, %loop.body ]
  %69 = phi float [ 0.000000e+00, %loop.pre ], [ %167, %loop.body ]
  %70 = phi float [ 0.000000e+00, %loop.pre ], [ %168, %loop.body ]
  %71 = phi float [ 0.000000e+00, %loop.pre ], [ %169, %loop.body ]
  %72 = phi float [ 0.000000e+00, %loop.pre ], [ %170, %loop.body ]
  %73 = phi float [ 0.000000e+00, %loop.pre ], [ %171, %loop.body ]
  %74 = phi float [ 0.000000e+00, %loop.pre ], [ %172, %loop.body ]
  %75 = phi float [ 0.000000e+00, %loop.pre ], [ %173, %loop.body ]
  %76 = phi float [ 0.000000e+00, %loop.pre ], [ %174, %loop.body ]
  %77 = phi float [ 0.000000e+00, %loop.pre ], [ %175, %loop.body ]
  %78 = phi i32 [ 0, %loop.pre ], [ %208, %loop.body ]
  %79 = phi i32 [ 0, %loop.pre ], [ %210, %loop.body ]
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
  %144 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 0
  %145 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 1
  %146 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 2
  %147 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 3
  %148 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 4
  %149 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 5
  %150 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 6
  %151 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 7
  %152 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 8
  %153 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 9
  %154 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 10
  %155 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 11
  %156 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 12
  %157 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 13
  %158 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 14
  %159 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 15
  %160 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 16
  %161 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 17
  %162 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 18
  %163 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 19
  %164 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 20
  %165 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 21
  %166 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 22
  %167 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 23
  %168 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 24
  %169 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 25
  %170 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 26
  %171 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 27
  %172 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 28
  %173 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 29
  %174 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 30
  %175 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %143, 31
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %176 = icmp eq i32 %78, 0
  %177 = sub i32 %78, 1
  %178 = select i1 %176, i32 1, i32 %177
  %179 = add i32 %iv, 1
  %180 = icmp slt i32 %179, %24
  %181 = shl i32 %179, 6
  %182 = mul i32 %178, 8
  %183 = add i32 40960, %182
  %184 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %183
  %185 = ptrtoint ptr addrspace(3) %184 to i32
  %186 = icmp eq i32 %1, 0
  %187 = and i1 %186, %180
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %187, i32 %185, i32 16384)
  %188 = mul i32 %178, 8192
  %189 = add i32 0, %188
  %190 = ptrtoint ptr %a_map to i64
  %191 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %183
  %192 = ptrtoint ptr addrspace(3) %191 to i32
  %193 = icmp eq i32 %1, 0
  %194 = and i1 %193, %180
  %195 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %189
  %196 = ptrtoint ptr addrspace(3) %195 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %194, i32 %196, i64 %190, i32 %181, i32 %35, i32 %192)
  %197 = mul i32 %178, 8192
  %198 = add i32 16384, %197
  %199 = ptrtoint ptr %b_map to i64
  %200 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %183
  %201 = ptrtoint ptr addrspace(3) %200 to i32
  %202 = icmp eq i32 %1, 0
  %203 = and i1 %202, %180
  %204 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %198
  %205 = ptrtoint ptr addrspace(3) %204 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %203, i32 %205, i64 %199, i32 %36, i32 %181, i32 %201)
  %206 = add i32 %78, 1
  %207 = icmp eq i32 %206, 2
  %208 = select i1 %207, i32 0, i32 %206
  %209 = xor i32 %79, 1
  %210 = select i1 %207, i32 %209, i32 %79
  %iv.next = add i32 %iv, 1
  br label %loop

loop.exit:                                        ; preds = %loop
  %211 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %46, float %47, float %48, float %49, float %50, float %51, float %52, float %53, float %54, float %55, float %56, float %57, float %58, float %59, float %60, float %61, float %62, float %63, float %64, float %65, float %66, float %67, float %68, float %69, float %70, float %71, float %72, float %73, float %74, float %75, float %76, float %77)
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 0
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 1
  %214 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 2
  %215 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 3
  %216 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 4
  %217 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 5
  %218 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 6
  %219 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 7
  %220 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 8
  %221 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 9
  %222 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 10
  %223 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 11
  %224 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 12
  %225 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 13
  %226 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 14
  %227 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 15
  %228 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 16
  %229 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 17
  %230 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 18
  %231 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 19
  %232 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 20
  %233 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 21
  %234 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 22
  %235 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 23
  %236 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 24
  %237 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 25
  %238 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 26
  %239 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 27
  %240 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 28
  %241 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 29
  %242 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 30
  %243 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %211, 31
  %244 = insertelement <2 x float> poison, float %212, i32 0
  %245 = insertelement <2 x float> %244, float %213, i32 1
  %246 = fptrunc <2 x float> %245 to <2 x half>
  %247 = extractelement <2 x half> %246, i32 0
  %248 = extractelement <2 x half> %246, i32 1
  %249 = insertelement <2 x float> poison, float %214, i32 0
  %250 = insertelement <2 x float> %249, float %215, i32 1
  %251 = fptrunc <2 x float> %250 to <2 x half>
  %252 = extractelement <2 x half> %251, i32 0
  %253 = extractelement <2 x half> %251, i32 1
  %254 = insertelement <2 x float> poison, float %216, i32 0
  %255 = insertelement <2 x float> %254, float %217, i32 1
  %256 = fptrunc <2 x float> %255 to <2 x half>
  %257 = extractelement <2 x half> %256, i32 0
  %258 = extractelement <2 x half> %256, i32 1
  %259 = insertelement <2 x float> poison, float %218, i32 0
  %260 = insertelement <2 x float> %259, float %219, i32 1
  %261 = fptrunc <2 x float> %260 to <2 x half>
  %262 = extractelement <2 x half> %261, i32 0
  %263 = extractelement <2 x half> %261, i32 1
  %264 = insertelement <2 x float> poison, float %220, i32 0
  %265 = insertelement <2 x float> %264, float %221, i32 1
  %266 = fptrunc <2 x float> %265 to <2 x half>
  %267 = extractelement <2 x half> %266, i32 0
  %268 = extractelement <2 x half> %266, i32 1
  %269 = insertelement <2 x float> poison, float %222, i32 0
  %270 = insertelement <2 x float> %269, float %223, i32 1
  %271 = fptrunc <2 x float> %270 to <2 x half>
  %272 = extractelement <2 x half> %271, i32 0
  %273 = extractelement <2 x half> %271, i32 1
  %274 = insertelement <2 x float> poison, float %224, i32 0
  %275 = insertelement <2 x float> %274, float %225, i32 1
  %276 = fptrunc <2 x float> %275 to <2 x half>
  %277 = extractelement <2 x half> %276, i32 0
  %278 = extractelement <2 x half> %276, i32 1
  %279 = insertelement <2 x float> poison, float %226, i32 0
  %280 = insertelement <2 x float> %279, float %227, i32 1
  %281 = fptrunc <2 x float> %280 to <2 x half>
  %282 = extractelement <2 x half> %281, i32 0
  %283 = extractelement <2 x half> %281, i32 1
  %284 = insertelement <2 x float> poison, float %228, i32 0
  %285 = insertelement <2 x float> %284, float %229, i32 1
  %286 = fptrunc <2 x float> %285 to <2 x half>
  %287 = extractelement <2 x half> %286, i32 0
  %288 = extractelement <2 x half> %286, i32 1
  %289 = insertelement <2 x float> poison, float %230, i32 0
  %290 = insertelement <2 x float> %289, float %231, i32 1
  %291 = fptrunc <2 x float> %290 to <2 x half>
  %292 = extractelement <2 x half> %291, i32 0
  %293 = extractelement <2 x half> %291, i32 1
  %294 = insertelement <2 x float> poison, float %232, i32 0
  %295 = insertelement <2 x float> %294, float %233, i32 1
  %296 = fptrunc <2 x float> %295 to <2 x half>
  %297 = extractelement <2 x half> %296, i32 0
  %298 = extractelement <2 x half> %296, i32 1
  %299 = insertelement <2 x float> poison, float %234, i32 0
  %300 = insertelement <2 x float> %299, float %235, i32 1
  %301 = fptrunc <2 x float> %300 to <2 x half>
  %302 = extractelement <2 x half> %301, i32 0
  %303 = extractelement <2 x half> %301, i32 1
  %304 = insertelement <2 x float> poison, float %236, i32 0
  %305 = insertelement <2 x float> %304, float %237, i32 1
  %306 = fptrunc <2 x float> %305 to <2 x half>
  %307 = extractelement <2 x half> %306, i32 0
  %308 = extractelement <2 x half> %306, i32 1
  %309 = insertelement <2 x float> poison, float %238, i32 0
  %310 = insertelement <2 x float> %309, float %239, i32 1
  %311 = fptrunc <2 x float> %310 to <2 x half>
  %312 = extractelement <2 x half> %311, i32 0
  %313 = extractelement <2 x half> %311, i32 1
  %314 = insertelement <2 x float> poison, float %240, i32 0
  %315 = insertelement <2 x float> %314, float %241, i32 1
  %316 = fptrunc <2 x float> %315 to <2 x half>
  %317 = extractelement <2 x half> %316, i32 0
  %318 = extractelement <2 x half> %316, i32 1
  %319 = insertelement <2 x float> poison, float %242, i32 0
  %320 = insertelement <2 x float> %319, float %243, i32 1
  %321 = fptrunc <2 x float> %320 to <2 x half>
  %322 = extractelement <2 x half> %321, i32 0
  %323 = extractelement <2 x half> %321, i32 1
  %324 = or disjoint i32 %18, 512
  %325 = xor i32 %18, 8
  %326 = xor i32 %18, 520
  %327 = xor i32 %18, 16
  %328 = xor i32 %18, 528
  %329 = xor i32 %18, 24
  %330 = xor i32 %18, 536
  %331 = xor i32 %18, 32
  %332 = xor i32 %18, 544
  %333 = xor i32 %18, 40
  %334 = xor i32 %18, 552
  %335 = xor i32 %18, 48
  %336 = xor i32 %18, 560
  %337 = xor i32 %18, 56
  %338 = xor i32 %18, 568
  %339 = shl i32 %18, 1
  %340 = add i32 %339, 32768
  %341 = shl i32 %324, 1
  %342 = add i32 %341, 32768
  %343 = shl i32 %325, 1
  %344 = add i32 %343, 32768
  %345 = shl i32 %326, 1
  %346 = add i32 %345, 32768
  %347 = shl i32 %327, 1
  %348 = add i32 %347, 32768
  %349 = shl i32 %328, 1
  %350 = add i32 %349, 32768
  %351 = shl i32 %329, 1
  %352 = add i32 %351, 32768
  %353 = shl i32 %330, 1
  %354 = add i32 %353, 32768
  %355 = shl i32 %331, 1
  %356 = add i32 %355, 32768
  %357 = shl i32 %332, 1
  %358 = add i32 %357, 32768
  %359 = shl i32 %333, 1
  %360 = add i32 %359, 32768
  %361 = shl i32 %334, 1
  %362 = add i32 %361, 32768
  %363 = shl i32 %335, 1
  %364 = add i32 %363, 32768
  %365 = shl i32 %336, 1
  %366 = add i32 %365, 32768
  %367 = shl i32 %337, 1
  %368 = add i32 %367, 32768
  %369 = shl i32 %338, 1
  %370 = add i32 %369, 32768
  %371 = insertelement <2 x half> poison, half %247, i32 0
  %372 = insertelement <2 x half> %371, half %248, i32 1
  %373 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %340
  store <2 x half> %372, ptr addrspace(3) %373, align 4
  %374 = insertelement <2 x half> poison, half %252, i32 0
  %375 = insertelement <2 x half> %374, half %253, i32 1
  %376 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %342
  store <2 x half> %375, ptr addrspace(3) %376, align 4
  %377 = insertelement <2 x half> poison, half %257, i32 0
  %378 = insertelement <2 x half> %377, half %258, i32 1
  %379 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %344
  store <2 x half> %378, ptr addrspace(3) %379, align 4
  %380 = insertelement <2 x half> poison, half %262, i32 0
  %381 = insertelement <2 x half> %380, half %263, i32 1
  %382 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %346
  store <2 x half> %381, ptr addrspace(3) %382, align 4
  %383 = insertelement <2 x half> poison, half %267, i32 0
  %384 = insertelement <2 x half> %383, half %268, i32 1
  %385 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %348
  store <2 x half> %384, ptr addrspace(3) %385, align 4
  %386 = insertelement <2 x half> poison, half %272, i32 0
  %387 = insertelement <2 x half> %386, half %273, i32 1
  %388 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %350
  store <2 x half> %387, ptr addrspace(3) %388, align 4
  %389 = insertelement <2 x half> poison, half %277, i32 0
  %390 = insertelement <2 x half> %389, half %278, i32 1
  %391 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %352
  store <2 x half> %390, ptr addrspace(3) %391, align 4
  %392 = insertelement <2 x half> poison, half %282, i32 0
  %393 = insertelement <2 x half> %392, half %283, i32 1
  %394 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %354
  store <2 x half> %393, ptr addrspace(3) %394, align 4
  %395 = insertelement <2 x half> poison, half %287, i32 0
  %396 = insertelement <2 x half> %395, half %288, i32 1
  %397 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %356
  store <2 x half> %396, ptr addrspace(3) %397, align 4
  %398 = insertelement <2 x half> poison, half %292, i32 0
  %399 = insertelement <2 x half> %398, half %293, i32 1
  %400 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %358
  store <2 x half> %399, ptr addrspace(3) %400, align 4
  %401 = insertelement <2 x half> poison, half %297, i32 0
  %402 = insertelement <2 x half> %401, half %298, i32 1
  %403 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %360
  store <2 x half> %402, ptr addrspace(3) %403, align 4
  %404 = insertelement <2 x half> poison, half %302, i32 0
  %405 = insertelement <2 x half> %404, half %303, i32 1
  %406 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %362
  store <2 x half> %405, ptr addrspace(3) %406, align 4
  %407 = insertelement <2 x half> poison, half %307, i32 0
  %408 = insertelement <2 x half> %407, half %308, i32 1
  %409 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %364
  store <2 x half> %408, ptr addrspace(3) %409, align 4
  %410 = insertelement <2 x half> poison, half %312, i32 0
  %411 = insertelement <2 x half> %410, half %313, i32 1
  %412 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %366
  store <2 x half> %411, ptr addrspace(3) %412, align 4
  %413 = insertelement <2 x half> poison, half %317, i32 0
  %414 = insertelement <2 x half> %413, half %318, i32 1
  %415 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %368
  store <2 x half> %414, ptr addrspace(3) %415, align 4
  %416 = insertelement <2 x half> poison, half %322, i32 0
  %417 = insertelement <2 x half> %416, half %323, i32 1
  %418 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %370
  store <2 x half> %417, ptr addrspace(3) %418, align 4
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %419 = ptrtoint ptr %c_map to i64
  %420 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %420, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %419, i32 %36, i32 %35)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %420)
  %421 = icmp eq i32 %1, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %421)
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
