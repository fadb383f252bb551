target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

define ptx_kernel void @gemm_nn_ws(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %a_map, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %b_map, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %c_map, i32 %m, i32 %n, i32 %k) #0 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %2 = call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = icmp ult i32 %2, 128
  %role.tid = sub i32 %2, 128
  %4 = icmp ult i32 %role.tid, 128
  %5 = and i32 %role.tid, 3
  %6 = shl i32 %5, 1
  %7 = and i32 %role.tid, 4
  %8 = icmp ne i32 %7, 0
  %9 = select i1 %8, i32 72, i32 0
  %10 = or disjoint i32 %6, %9
  %11 = and i32 %role.tid, 8
  %12 = icmp ne i32 %11, 0
  %13 = select i1 %12, i32 144, i32 0
  %14 = or disjoint i32 %10, %13
  %15 = and i32 %role.tid, 16
  %16 = icmp ne i32 %15, 0
  %17 = select i1 %16, i32 288, i32 0
  %18 = or disjoint i32 %14, %17
  %19 = and i32 %role.tid, 96
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
  %28 = mul i32 %23, %25
  %29 = sub i32 %28, %0
  %30 = add i32 %29, %1
  %31 = sub i32 %30, 1
  %32 = sdiv i32 %31, %1
  %33 = icmp eq i32 %2, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1+0], $2;\0A@$0 mbarrier.init.shared::cta.b64 [$1+8], $2;\0Afence.mbarrier_init.release.cluster;", "b,r,r"(i1 %33, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32), i32 1)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %34 = icmp eq i32 %2, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1+0], $2;\0A@$0 mbarrier.init.shared::cta.b64 [$1+8], $2;\0Afence.mbarrier_init.release.cluster;", "b,r,r"(i1 %34, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40976) to i32), i32 128)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %3, label %then, label %else

then:                                             ; preds = %body
  br label %loop.pre

else:                                             ; preds = %body
  br label %endif

endif:                                            ; preds = %else, %loop.exit
  br i1 %4, label %then7, label %else8

loop.pre:                                         ; preds = %then
  br label %loop

loop:                                             ; preds = %loop.exit4, %loop.pre
  %iv = phi i32 [ 0, %loop.pre ], [ %iv.next6, %loop.exit4 ]
  %35 = phi i32 [ 0, %loop.pre ], [ %50, %loop.exit4 ]
  %36 = icmp slt i32 %iv, %32
  br i1 %36, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %37 = mul i32 %iv, %1
  %38 = add i32 %0, %37
  %39 = shl i32 %25, 3
  %40 = sdiv i32 %38, %39
  %41 = shl i32 %40, 3
  %42 = sub i32 %23, %41
  %43 = call i32 @llvm.smin.i32(i32 %42, i32 8)
  %44 = srem i32 %38, %39
  %45 = srem i32 %44, %43
  %46 = add i32 %41, %45
  %47 = sdiv i32 %44, %43
  %48 = shl i32 %46, 6
  %49 = shl i32 %47, 6
  br label %loop.pre1

loop.exit:                                        ; preds = %loop
  br label %endif

loop.pre1:                                        ; preds = %loop.body
  br label %loop2

loop2:                                            ; preds = %loop.body3, %loop.pre1
  %iv5 = phi i32 [ 0, %loop.pre1 ], [ %iv.next, %loop.body3 ]
  %50 = phi i32 [ %35, %loop.pre1 ], [ %83, %loop.body3 ]
  %51 = icmp slt i32 %iv5, %27
  br i1 %51, label %loop.body3, label %loop.exit4

loop.body3:                                       ; preds = %loop2
  %52 = srem i32 %50, 2
  %53 = sdiv i32 %50, 2
  %54 = and i32 %53, 1
  %55 = xor i32 %54, 1
  %56 = mul i32 %52, 8
  %57 = add i32 40976, %56
  %58 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %57
  %59 = ptrtoint ptr addrspace(3) %58 to i32
  %60 = icmp eq i32 %2, 0
  call void asm sideeffect "{\0A.reg .pred weft_done;\0A@!$2 bra.uni weft_skip;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0Aweft_skip:\0A}", "r,r,b"(i32 %59, i32 %55, i1 %60)
  %61 = shl i32 %iv5, 6
  %62 = mul i32 %52, 8
  %63 = add i32 40960, %62
  %64 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %63
  %65 = ptrtoint ptr addrspace(3) %64 to i32
  %66 = icmp eq i32 %2, 0
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %66, i32 %65, i32 16384)
  %67 = mul i32 %52, 8192
  %68 = add i32 0, %67
  %69 = ptrtoint ptr %a_map to i64
  %70 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %63
  %71 = ptrtoint ptr addrspace(3) %70 to i32
  %72 = icmp eq i32 %2, 0
  %73 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %68
  %74 = ptrtoint ptr addrspace(3) %73 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %72, i32 %74, i64 %69, i32 %61, i32 %48, i32 %71)
  %75 = mul i32 %52, 8192
  %76 = add i32 16384, %75
  %77 = ptrtoint ptr %b_map to i64
  %78 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %63
  %79 = ptrtoint ptr addrspace(3) %78 to i32
  %80 = icmp eq i32 %2, 0
  %81 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %76
  %82 = ptrtoint ptr addrspace(3) %81 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %80, i32 %82, i64 %77, i32 %49, i32 %61, i32 %79)
  %83 = add i32 %50, 1
  %iv.next = add i32 %iv5, 1
  br label %loop2

loop.exit4:                                       ; preds = %loop2
  %iv.next6 = add i32 %iv, 1
  br label %loop

then7:                                            ; preds = %endif
  br label %loop.pre10

else8:                                            ; preds = %endif
  br label %endif9

endif9:                                           ; preds = %else8, %loop.exit13
  ret void

loop.pre10:                                       ; preds = %then7
  br label %loop11

loop11:                                           ; preds = %loop.exit18, %loop.pre10
  %iv14 = phi i32 [ 0, %loop.pre10 ], [ %iv.next24, %loop.exit18 ]
  %84 = phi float [ 0.000000e+00, %loop.pre10 ], [ %120, %loop.exit18 ]
  %85 = phi float [ 0.000000e+00, %loop.pre10 ], [ %121, %loop.exit18 ]
  %86 = phi float [ 0.000000e+00, %loop.pre10 ], [ %122, %loop.exit18 ]
  %87 = phi float [ 0.000000e+00, %loop.pre10 ], [ %123, %loop.exit18 ]
  %88 = phi float [ 0.000000e+00, %loop.pre10 ], [ %124, %loop.exit18 ]
  %89 = phi float [ 0.000000e+00, %loop.pre10 ], [ %125, %loop.exit18 ]
  %90 = phi float [ 0.000000e+00, %loop.pre10 ], [ %126, %loop.exit18 ]
  %91 = phi float [ 0.000000e+00, %loop.pre10 ], [ %127, %loop.exit18 ]
  %92 = phi float [ 0.000000e+00, %loop.pre10 ], [ %128, %loop.exit18 ]
  %93 = phi float [ 0.000000e+00, %loop.pre10 ], [ %129, %loop.exit18 ]
  %94 = phi float [ 0.000000e+00, %loop.pre10 ], [ %130, %loop.exit18 ]
  %95 = phi float [ 0.000000e+00, %loop.pre10 ], [ %131, %loop.exit18 ]
  %96 = phi float [ 0.000000e+00, %loop.pre10 ], [ %132, %loop.exit18 ]
  %97 = phi float [ 0.000000e+00, %loop.pre10 ], [ %133, %loop.exit18 ]
  %98 = phi float [ 0.000000e+00, %loop.pre10 ], [ %134, %loop.exit18 ]
  %99 = phi float [ 0.000000e+00, %loop.pre10 ], [ %135, %loop.exit18 ]
  %100 = phi float [ 0.000000e+00, %loop.pre10 ], [ %136, %loop.exit18 ]
  %101 = phi float [ 0.000000e+00, %loop.pre10 ], [ %137, %loop.exit18 ]
  %102 = phi float [ 0.000000e+00, %loop.pre10 ], [ %138, %loop.exit18 ]
  %103 = phi float [ 0.000000e+00, %loop.pre10 ], [ %139, %loop.exit18 ]
  %104 = phi float [ 0.000000e+00, %loop.pre10 ], [ %140, %loop.exit18 ]
  %105 = phi float [ 0.000000e+00, %loop.pre10 ], [ %141, %loop.exit18 ]
  %106 = phi float [ 0.000000e+00, %loop.pre10 ], [ %142, %loop.exit18 ]
  %107 = phi float [ 0.000000e+00, %loop.pre10 ], [ %143, %loop.exit18 ]
  %108 = phi float [ 0.000000e+00, %loop.pre10 ], [ %144, %loop.exit18 ]
  %109 = phi float [ 0.000000e+00, %loop.pre10 ], [ %145, %loop.exit18 ]
  %110 = phi float [ 0.000000e+00, %loop.pre10 ], [ %146, %loop.exit18 ]
  %111 = phi float [ 0.000000e+00, %loop.pre10 ], [ %147, %loop.exit18 ]
  %112 = phi float [ 0.000000e+00, %loop.pre10 ], [ %148, %loop.exit18 ]
  %113 = phi float [ 0.000000e+00, %loop.pre10 ], [ %149, %loop.exit18 ]
  %114 = phi float [ 0.000000e+00, %loop.pre10 ], [ %150, %loop.exit18 ]
  %115 = phi float [ 0.000000e+00, %loop.pre10 ], [ %151, %loop.exit18 ]
  %116 = phi i32 [ 0, %loop.pre10 ], [ %152, %loop.exit18 ]
  %117 = icmp slt i32 %iv14, %32
  br i1 %117, label %loop.body12, label %loop.exit13

loop.body12:                                      ; preds = %loop11
  br label %loop.pre15

loop.exit13:                                      ; preds = %loop11
  %118 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %84, float %85, float %86, float %87, float %88, float %89, float %90, float %91, float %92, float %93, float %94, float %95, float %96, float %97, float %98, float %99, float %100, float %101, float %102, float %103, float %104, float %105, float %106, float %107, float %108, float %109, float %110, float %111, float %112, float %113, float %114, float %115)
  %119 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %119)
  br label %endif9

loop.pre15:                                       ; preds = %loop.body12
  br label %loop16

loop16:                                           ; preds = %endif22, %loop.pre15
  %iv19 = phi i32 [ 0, %loop.pre15 ], [ %iv.next23, %endif22 ]
  %120 = phi float [ %84, %loop.pre15 ], [ %222, %endif22 ]
  %121 = phi float [ %85, %loop.pre15 ], [ %223, %endif22 ]
  %122 = phi float [ %86, %loop.pre15 ], [ %224, %endif22 ]
  %123 = phi float [ %87, %loop.pre15 ], [ %225, %endif22 ]
  %124 = phi float [ %88, %loop.pre15 ], [ %226, %endif22 ]
  %125 = phi float [ %89, %loop.pre15 ], [ %227, %endif22 ]
  %126 = phi float [ %90, %loop.pre15 ], [ %228, %endif22 ]
  %127 = phi float [ %91, %loop.pre15 ], [ %229, %endif22 ]
  %128 = phi float [ %92, %loop.pre15 ], [ %230, %endif22 ]
  %129 = phi float [ %93, %loop.pre15 ], [ %231, %endif22 ]
  %130 = phi float [ %94, %loop.pre15 ], [ %232, %endif22 ]
  %131 = phi float [ %95, %loop.pre15 ], [ %233, %endif22 ]
  %132 = phi float [ %96, %loop.pre15 ], [ %234, %endif22 ]
  %133 = phi float [ %97, %loop.pre15 ], [ %235, %endif22 ]
  %134 = phi float [ %98, %loop.pre15 ], [ %236, %endif22 ]
  %135 = phi float [ %99, %loop.pre15 ], [ %237, %endif22 ]
  %136 = phi float [ %100, %loop.pre15 ], [ %238, %endif22 ]
  %137 = phi float [ %101, %loop.pre15 ], [ %239, %endif22 ]
  %138 = phi float [ %102, %loop.pre15 ], [ %240, %endif22 ]
  %139 = phi float [ %103, %loop.pre15 ], [ %241, %endif22 ]
  %140 = phi float [ %104, %loop.pre15 ], [ %242, %endif22 ]
  %141 = phi float [ %105, %loop.pre15 ], [ %243, %endif22 ]
  %142 = phi float [ %106, %loop.pre15 ], [ %244, %endif22 ]
  %143 = phi float [ %107, %loop.pre15 ], [ %245, %endif22 ]
  %144 = phi float [ %108, %loop.pre15 ], [ %246, %endif22 ]
  %145 = phi float [ %109, %loop.pre15 ], [ %247, %endif22 ]
  %146 = phi float [ %110, %loop.pre15 ], [ %248, %endif22 ]
  %147 = phi float [ %111, %loop.pre15 ], [ %249, %endif22 ]
  %148 = phi float [ %112, %loop.pre15 ], [ %250, %endif22 ]
  %149 = phi float [ %113, %loop.pre15 ], [ %251, %endif22 ]
  %150 = phi float [ %114, %loop.pre15 ], [ %252, %endif22 ]
  %151 = phi float [ %115, %loop.pre15 ], [ %253, %endif22 ]
  %152 = phi i32 [ %116, %loop.pre15 ], [ %486, %endif22 ]
  %153 = icmp slt i32 %iv19, %27
  br i1 %153, label %loop.body17, label %loop.exit18

loop.body17:                                      ; preds = %loop16
  %154 = srem i32 %152, 2
  %155 = sdiv i32 %152, 2
  %156 = and i32 %155, 1
  %157 = mul i32 %154, 8
  %158 = add i32 40960, %157
  %159 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %158
  %160 = ptrtoint ptr addrspace(3) %159 to i32
  call void asm sideeffect "{\0A.reg .pred weft_done;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0A}", "r,r"(i32 %160, i32 %156)
  %161 = mul i32 %154, 8192
  %162 = add i32 0, %161
  %163 = mul i32 %154, 8192
  %164 = add i32 16384, %163
  %165 = icmp ne i32 %iv19, 0
  %166 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %164
  %167 = ptrtoint ptr addrspace(3) %166 to i32
  %168 = zext i32 %167 to i64
  %169 = and i64 %168, 262143
  %170 = lshr i64 %169, 4
  %171 = or i64 %170, 4611686293305360384
  %172 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %162
  %173 = ptrtoint ptr addrspace(3) %172 to i32
  %174 = add i32 %173, 0
  %175 = zext i32 %174 to i64
  %176 = and i64 %175, 262143
  %177 = lshr i64 %176, 4
  %178 = or i64 %177, 4611686293305360384
  call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
  %179 = zext i1 %165 to i32
  %180 = add i64 %178, 0
  %181 = add i64 %171, 0
  %182 = add i64 %178, 2
  %183 = add i64 %171, 128
  %184 = add i64 %178, 4
  %185 = add i64 %171, 256
  %186 = add i64 %178, 6
  %187 = add i64 %171, 384
  %188 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred weft_scale_d;\0Asetp.ne.b32 weft_scale_d, $64, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $65, $66, weft_scale_d, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $67, $68, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $69, $70, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $71, $72, 1, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,r,l,l,l,l,l,l,l,l"(float %120, float %121, float %122, float %123, float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151, i32 %179, i64 %180, i64 %181, i64 %182, i64 %183, i64 %184, i64 %185, i64 %186, i64 %187)
  %189 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 0
  %190 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 1
  %191 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 2
  %192 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 3
  %193 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 4
  %194 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 5
  %195 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 6
  %196 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 7
  %197 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 8
  %198 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 9
  %199 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 10
  %200 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 11
  %201 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 12
  %202 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 13
  %203 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 14
  %204 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 15
  %205 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 16
  %206 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 17
  %207 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 18
  %208 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 19
  %209 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 20
  %210 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 21
  %211 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 22
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 23
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 24
  %214 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 25
  %215 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 26
  %216 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 27
  %217 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 28
  %218 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 29
  %219 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 30
  %220 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %188, 31
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  %221 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %189, float %190, float %191, float %192, float %193, float %194, float %195, float %196, float %197, float %198, float %199, float %200, float %201, float %202, float %203, float %204, float %205, float %206, float %207, float %208, float %209, float %210, float %211, float %212, float %213, float %214, float %215, float %216, float %217, float %218, float %219, float %220)
  %222 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 0
  %223 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 1
  %224 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 2
  %225 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 3
  %226 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 4
  %227 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 5
  %228 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 6
  %229 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 7
  %230 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 8
  %231 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 9
  %232 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 10
  %233 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 11
  %234 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 12
  %235 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 13
  %236 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 14
  %237 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 15
  %238 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 16
  %239 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 17
  %240 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 18
  %241 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 19
  %242 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 20
  %243 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 21
  %244 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 22
  %245 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 23
  %246 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 24
  %247 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 25
  %248 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 26
  %249 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 27
  %250 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 28
  %251 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 29
  %252 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 30
  %253 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %221, 31
  %254 = icmp sge i32 %152, 1
  br i1 %254, label %then20, label %else21

loop.exit18:                                      ; preds = %loop16
  %255 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %120, float %121, float %122, float %123, float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151)
  %256 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 0
  %257 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 1
  %258 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 2
  %259 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 3
  %260 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 4
  %261 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 5
  %262 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 6
  %263 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 7
  %264 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 8
  %265 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 9
  %266 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 10
  %267 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 11
  %268 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 12
  %269 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 13
  %270 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 14
  %271 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 15
  %272 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 16
  %273 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 17
  %274 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 18
  %275 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 19
  %276 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 20
  %277 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 21
  %278 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 22
  %279 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 23
  %280 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 24
  %281 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 25
  %282 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 26
  %283 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 27
  %284 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 28
  %285 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 29
  %286 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 30
  %287 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %255, 31
  %288 = mul i32 %iv14, %1
  %289 = add i32 %0, %288
  %290 = shl i32 %25, 3
  %291 = sdiv i32 %289, %290
  %292 = shl i32 %291, 3
  %293 = sub i32 %23, %292
  %294 = call i32 @llvm.smin.i32(i32 %293, i32 8)
  %295 = srem i32 %289, %290
  %296 = srem i32 %295, %294
  %297 = add i32 %292, %296
  %298 = sdiv i32 %295, %294
  %299 = shl i32 %297, 6
  %300 = shl i32 %298, 6
  %301 = insertelement <2 x float> poison, float %256, i32 0
  %302 = insertelement <2 x float> %301, float %257, i32 1
  %303 = fptrunc <2 x float> %302 to <2 x half>
  %304 = extractelement <2 x half> %303, i32 0
  %305 = extractelement <2 x half> %303, i32 1
  %306 = insertelement <2 x float> poison, float %258, i32 0
  %307 = insertelement <2 x float> %306, float %259, i32 1
  %308 = fptrunc <2 x float> %307 to <2 x half>
  %309 = extractelement <2 x half> %308, i32 0
  %310 = extractelement <2 x half> %308, i32 1
  %311 = insertelement <2 x float> poison, float %260, i32 0
  %312 = insertelement <2 x float> %311, float %261, i32 1
  %313 = fptrunc <2 x float> %312 to <2 x half>
  %314 = extractelement <2 x half> %313, i32 0
  %315 = extractelement <2 x half> %313, i32 1
  %316 = insertelement <2 x float> poison, float %262, i32 0
  %317 = insertelement <2 x float> %316, float %263, i32 1
  %318 = fptrunc <2 x float> %317 to <2 x half>
  %319 = extractelement <2 x half> %318, i32 0
  %320 = extractelement <2 x half> %318, i32 1
  %321 = insertelement <2 x float> poison, float %264, i32 0
  %322 = insertelement <2 x float> %321, float %265, i32 1
  %323 = fptrunc <2 x float> %322 to <2 x half>
  %324 = extractelement <2 x half> %323, i32 0
  %325 = extractelement <2 x half> %323, i32 1
  %326 = insertelement <2 x float> poison, float %266, i32 0
  %327 = insertelement <2 x float> %326, float %267, i32 1
  %328 = fptrunc <2 x float> %327 to <2 x half>
  %329 = extractelement <2 x half> %328, i32 0
  %330 = extractelement <2 x half> %328, i32 1
  %331 = insertelement <2 x float> poison, float %268, i32 0
  %332 = insertelement <2 x float> %331, float %269, i32 1
  %333 = fptrunc <2 x float> %332 to <2 x half>
  %334 = extractelement <2 x half> %333, i32 0
  %335 = extractelement <2 x half> %333, i32 1
  %336 = insertelement <2 x float> poison, float %270, i32 0
  %337 = insertelement <2 x float> %336, float %271, i32 1
  %338 = fptrunc <2 x float> %337 to <2 x half>
  %339 = extractelement <2 x half> %338, i32 0
  %340 = extractelement <2 x half> %338, i32 1
  %341 = insertelement <2 x float> poison, float %272, i32 0
  %342 = insertelement <2 x float> %341, float %273, i32 1
  %343 = fptrunc <2 x float> %342 to <2 x half>
  %344 = extractelement <2 x half> %343, i32 0
  %345 = extractelement <2 x half> %343, i32 1
  %346 = insertelement <2 x float> poison, float %274, i32 0
  %347 = insertelement <2 x float> %346, float %275, i32 1
  %348 = fptrunc <2 x float> %347 to <2 x half>
  %349 = extractelement <2 x half> %348, i32 0
  %350 = extractelement <2 x half> %348, i32 1
  %351 = insertelement <2 x float> poison, float %276, i32 0
  %352 = insertelement <2 x float> %351, float %277, i32 1
  %353 = fptrunc <2 x float> %352 to <2 x half>
  %354 = extractelement <2 x half> %353, i32 0
  %355 = extractelement <2 x half> %353, i32 1
  %356 = insertelement <2 x float> poison, float %278, i32 0
  %357 = insertelement <2 x float> %356, float %279, i32 1
  %358 = fptrunc <2 x float> %357 to <2 x half>
  %359 = extractelement <2 x half> %358, i32 0
  %360 = extractelement <2 x half> %358, i32 1
  %361 = insertelement <2 x float> poison, float %280, i32 0
  %362 = insertelement <2 x float> %361, float %281, i32 1
  %363 = fptrunc <2 x float> %362 to <2 x half>
  %364 = extractelement <2 x half> %363, i32 0
  %365 = extractelement <2 x half> %363, i32 1
  %366 = insertelement <2 x float> poison, float %282, i32 0
  %367 = insertelement <2 x float> %366, float %283, i32 1
  %368 = fptrunc <2 x float> %367 to <2 x half>
  %369 = extractelement <2 x half> %368, i32 0
  %370 = extractelement <2 x half> %368, i32 1
  %371 = insertelement <2 x float> poison, float %284, i32 0
  %372 = insertelement <2 x float> %371, float %285, i32 1
  %373 = fptrunc <2 x float> %372 to <2 x half>
  %374 = extractelement <2 x half> %373, i32 0
  %375 = extractelement <2 x half> %373, i32 1
  %376 = insertelement <2 x float> poison, float %286, i32 0
  %377 = insertelement <2 x float> %376, float %287, i32 1
  %378 = fptrunc <2 x float> %377 to <2 x half>
  %379 = extractelement <2 x half> %378, i32 0
  %380 = extractelement <2 x half> %378, i32 1
  %381 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %381)
  call void asm sideeffect "bar.sync 1, 128;", ""()
  %382 = or disjoint i32 %21, 512
  %383 = xor i32 %21, 8
  %384 = xor i32 %21, 520
  %385 = xor i32 %21, 16
  %386 = xor i32 %21, 528
  %387 = xor i32 %21, 24
  %388 = xor i32 %21, 536
  %389 = xor i32 %21, 32
  %390 = xor i32 %21, 544
  %391 = xor i32 %21, 40
  %392 = xor i32 %21, 552
  %393 = xor i32 %21, 48
  %394 = xor i32 %21, 560
  %395 = xor i32 %21, 56
  %396 = xor i32 %21, 568
  %397 = shl i32 %21, 1
  %398 = add i32 %397, 32768
  %399 = shl i32 %382, 1
  %400 = add i32 %399, 32768
  %401 = shl i32 %383, 1
  %402 = add i32 %401, 32768
  %403 = shl i32 %384, 1
  %404 = add i32 %403, 32768
  %405 = shl i32 %385, 1
  %406 = add i32 %405, 32768
  %407 = shl i32 %386, 1
  %408 = add i32 %407, 32768
  %409 = shl i32 %387, 1
  %410 = add i32 %409, 32768
  %411 = shl i32 %388, 1
  %412 = add i32 %411, 32768
  %413 = shl i32 %389, 1
  %414 = add i32 %413, 32768
  %415 = shl i32 %390, 1
  %416 = add i32 %415, 32768
  %417 = shl i32 %391, 1
  %418 = add i32 %417, 32768
  %419 = shl i32 %392, 1
  %420 = add i32 %419, 32768
  %421 = shl i32 %393, 1
  %422 = add i32 %421, 32768
  %423 = shl i32 %394, 1
  %424 = add i32 %423, 32768
  %425 = shl i32 %395, 1
  %426 = add i32 %425, 32768
  %427 = shl i32 %396, 1
  %428 = add i32 %427, 32768
  %429 = insertelement <2 x half> poison, half %304, i32 0
  %430 = insertelement <2 x half> %429, half %305, i32 1
  %431 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %398
  store <2 x half> %430, ptr addrspace(3) %431, align 4
  %432 = insertelement <2 x half> poison, half %309, i32 0
  %433 = insertelement <2 x half> %432, half %310, i32 1
  %434 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %400
  store <2 x half> %433, ptr addrspace(3) %434, align 4
  %435 = insertelement <2 x half> poison, half %314, i32 0
  %436 = insertelement <2 x half> %435, half %315, i32 1
  %437 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %402
  store <2 x half> %436, ptr addrspace(3) %437, align 4
  %438 = insertelement <2 x half> poison, half %319, i32 0
  %439 = insertelement <2 x half> %438, half %320, i32 1
  %440 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %404
  store <2 x half> %439, ptr addrspace(3) %440, align 4
  %441 = insertelement <2 x half> poison, half %324, i32 0
  %442 = insertelement <2 x half> %441, half %325, i32 1
  %443 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %406
  store <2 x half> %442, ptr addrspace(3) %443, align 4
  %444 = insertelement <2 x half> poison, half %329, i32 0
  %445 = insertelement <2 x half> %444, half %330, i32 1
  %446 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %408
  store <2 x half> %445, ptr addrspace(3) %446, align 4
  %447 = insertelement <2 x half> poison, half %334, i32 0
  %448 = insertelement <2 x half> %447, half %335, i32 1
  %449 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %410
  store <2 x half> %448, ptr addrspace(3) %449, align 4
  %450 = insertelement <2 x half> poison, half %339, i32 0
  %451 = insertelement <2 x half> %450, half %340, i32 1
  %452 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %412
  store <2 x half> %451, ptr addrspace(3) %452, align 4
  %453 = insertelement <2 x half> poison, half %344, i32 0
  %454 = insertelement <2 x half> %453, half %345, i32 1
  %455 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %414
  store <2 x half> %454, ptr addrspace(3) %455, align 4
  %456 = insertelement <2 x half> poison, half %349, i32 0
  %457 = insertelement <2 x half> %456, half %350, i32 1
  %458 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %416
  store <2 x half> %457, ptr addrspace(3) %458, align 4
  %459 = insertelement <2 x half> poison, half %354, i32 0
  %460 = insertelement <2 x half> %459, half %355, i32 1
  %461 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %418
  store <2 x half> %460, ptr addrspace(3) %461, align 4
  %462 = insertelement <2 x half> poison, half %359, i32 0
  %463 = insertelement <2 x half> %462, half %360, i32 1
  %464 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %420
  store <2 x half> %463, ptr addrspace(3) %464, align 4
  %465 = insertelement <2 x half> poison, half %364, i32 0
  %466 = insertelement <2 x half> %465, half %365, i32 1
  %467 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %422
  store <2 x half> %466, ptr addrspace(3) %467, align 4
  %468 = insertelement <2 x half> poison, half %369, i32 0
  %469 = insertelement <2 x half> %468, half %370, i32 1
  %470 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %424
  store <2 x half> %469, ptr addrspace(3) %470, align 4
  %471 = insertelement <2 x half> poison, half %374, i32 0
  %472 = insertelement <2 x half> %471, half %375, i32 1
  %473 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %426
  store <2 x half> %472, ptr addrspace(3) %473, align 4
  %474 = insertelement <2 x half> poison, half %379, i32 0
  %475 = insertelement <2 x half> %474, half %380, i32 1
  %476 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %428
  store <2 x half> %475, ptr addrspace(3) %476, align 4
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void asm sideeffect "bar.sync 1, 128;", ""()
  %477 = ptrtoint ptr %c_map to i64
  %478 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %478, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %477, i32 %300, i32 %299)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %478)
  %iv.next24 = add i32 %iv14, 1
  br label %loop11

then20:                                           ; preds = %loop.body17
  %479 = sub i32 %152, 1
  %480 = srem i32 %479, 2
  %481 = sdiv i32 %479, 2
  %482 = mul i32 %480, 8
  %483 = add i32 40976, %482
  %484 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %483
  %485 = ptrtoint ptr addrspace(3) %484 to i32
  call void asm sideeffect "mbarrier.arrive.shared::cta.b64 _, [$0];", "r"(i32 %485)
  br label %endif22

else21:                                           ; preds = %loop.body17
  br label %endif22

endif22:                                          ; preds = %else21, %then20
  %486 = add i32 %152, 1
  %iv.next23 = add i32 %iv19, 1
  br label %loop16
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #3

attributes #0 = { "nvvm.reqntid"="256" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
