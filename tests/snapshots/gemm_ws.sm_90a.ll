target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
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
  %5 = and i32 %role.tid, 1
  %6 = icmp ne i32 %5, 0
  %7 = select i1 %6, i32 72, i32 0
  %8 = and i32 %role.tid, 2
  %9 = icmp ne i32 %8, 0
  %10 = select i1 %9, i32 144, i32 0
  %11 = or disjoint i32 %7, %10
  %12 = and i32 %role.tid, 4
  %13 = icmp ne i32 %12, 0
  %14 = select i1 %13, i32 288, i32 0
  %15 = or disjoint i32 %11, %14
  %16 = and i32 %role.tid, 8
  %17 = shl i32 %16, 6
  %18 = or disjoint i32 %15, %17
  %19 = and i32 %role.tid, 16
  %20 = lshr i32 %19, 1
  %21 = xor i32 %18, %20
  %22 = and i32 %role.tid, 96
  %23 = shl i32 %22, 5
  %24 = or disjoint i32 %21, %23
  br label %body

body:                                             ; preds = %prologue
  %25 = add i32 %m, 63
  %26 = sdiv i32 %25, 64
  %27 = add i32 %n, 63
  %28 = sdiv i32 %27, 64
  %29 = add i32 %k, 63
  %30 = sdiv i32 %29, 64
  %31 = mul i32 %26, %28
  %32 = sub i32 %31, %0
  %33 = add i32 %32, %1
  %34 = sub i32 %33, 1
  %35 = sdiv i32 %34, %1
  %36 = icmp eq i32 %2, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1+0], $2;\0A@$0 mbarrier.init.shared::cta.b64 [$1+8], $2;\0Afence.mbarrier_init.release.cluster;", "b,r,r"(i1 %36, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40960) to i32), i32 1)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %37 = icmp eq i32 %2, 0
  call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1+0], $2;\0A@$0 mbarrier.init.shared::cta.b64 [$1+8], $2;\0Afence.mbarrier_init.release.cluster;", "b,r,r"(i1 %37, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 40976) to i32), i32 128)
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
  %38 = phi i32 [ 0, %loop.pre ], [ %53, %loop.exit4 ]
  %39 = icmp slt i32 %iv, %35
  br i1 %39, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %40 = mul i32 %iv, %1
  %41 = add i32 %0, %40
  %42 = shl i32 %28, 3
  %43 = sdiv i32 %41, %42
  %44 = shl i32 %43, 3
  %45 = sub i32 %26, %44
  %46 = call i32 @llvm.smin.i32(i32 %45, i32 8)
  %47 = srem i32 %41, %42
  %48 = srem i32 %47, %46
  %49 = add i32 %44, %48
  %50 = sdiv i32 %47, %46
  %51 = shl i32 %49, 6
  %52 = shl i32 %50, 6
  br label %loop.pre1

loop.exit:                                        ; preds = %loop
  br label %endif

loop.pre1:                                        ; preds = %loop.body
  br label %loop2

loop2:                                            ; preds = %loop.body3, %loop.pre1
  %iv5 = phi i32 [ 0, %loop.pre1 ], [ %iv.next, %loop.body3 ]
  %53 = phi i32 [ %38, %loop.pre1 ], [ %86, %loop.body3 ]
  %54 = icmp slt i32 %iv5, %30
  br i1 %54, label %loop.body3, label %loop.exit4

loop.body3:                                       ; preds = %loop2
  %55 = and i32 %53, 1
  %56 = sdiv i32 %53, 2
  %57 = and i32 %56, 1
  %58 = xor i32 %57, 1
  %59 = mul i32 %55, 8
  %60 = add i32 40976, %59
  %61 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %60
  %62 = ptrtoint ptr addrspace(3) %61 to i32
  %63 = icmp eq i32 %2, 0
  call void asm sideeffect "{\0A.reg .pred weft_done;\0A@!$2 bra.uni weft_skip;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0Aweft_skip:\0A}", "r,r,b"(i32 %62, i32 %58, i1 %63)
  %64 = shl i32 %iv5, 6
  %65 = mul i32 %55, 8
  %66 = add i32 40960, %65
  %67 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %66
  %68 = ptrtoint ptr addrspace(3) %67 to i32
  %69 = icmp eq i32 %2, 0
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "b,r,r"(i1 %69, i32 %68, i32 16384)
  %70 = mul i32 %55, 8192
  %71 = add i32 0, %70
  %72 = ptrtoint ptr %a_map to i64
  %73 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %66
  %74 = ptrtoint ptr addrspace(3) %73 to i32
  %75 = icmp eq i32 %2, 0
  %76 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %71
  %77 = ptrtoint ptr addrspace(3) %76 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %75, i32 %77, i64 %72, i32 %64, i32 %51, i32 %74)
  %78 = mul i32 %55, 8192
  %79 = add i32 16384, %78
  %80 = ptrtoint ptr %b_map to i64
  %81 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %66
  %82 = ptrtoint ptr addrspace(3) %81 to i32
  %83 = icmp eq i32 %2, 0
  %84 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %79
  %85 = ptrtoint ptr addrspace(3) %84 to i32
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %83, i32 %85, i64 %80, i32 %52, i32 %64, i32 %82)
  %86 = add i32 %53, 1
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
  %87 = phi float [ 0.000000e+00, %loop.pre10 ], [ %124, %loop.exit18 ]
  %88 = phi float [ 0.000000e+00, %loop.pre10 ], [ %125, %loop.exit18 ]
  %89 = phi float [ 0.000000e+00, %loop.pre10 ], [ %126, %loop.exit18 ]
  %90 = phi float [ 0.000000e+00, %loop.pre10 ], [ %127, %loop.exit18 ]
  %91 = phi float [ 0.000000e+00, %loop.pre10 ], [ %128, %loop.exit18 ]
  %92 = phi float [ 0.000000e+00, %loop.pre10 ], [ %129, %loop.exit18 ]
  %93 = phi float [ 0.000000e+00, %loop.pre10 ], [ %130, %loop.exit18 ]
  %94 = phi float [ 0.000000e+00, %loop.pre10 ], [ %131, %loop.exit18 ]
  %95 = phi float [ 0.000000e+00, %loop.pre10 ], [ %132, %loop.exit18 ]
  %96 = phi float [ 0.000000e+00, %loop.pre10 ], [ %133, %loop.exit18 ]
  %97 = phi float [ 0.000000e+00, %loop.pre10 ], [ %134, %loop.exit18 ]
  %98 = phi float [ 0.000000e+00, %loop.pre10 ], [ %135, %loop.exit18 ]
  %99 = phi float [ 0.000000e+00, %loop.pre10 ], [ %136, %loop.exit18 ]
  %100 = phi float [ 0.000000e+00, %loop.pre10 ], [ %137, %loop.exit18 ]
  %101 = phi float [ 0.000000e+00, %loop.pre10 ], [ %138, %loop.exit18 ]
  %102 = phi float [ 0.000000e+00, %loop.pre10 ], [ %139, %loop.exit18 ]
  %103 = phi float [ 0.000000e+00, %loop.pre10 ], [ %140, %loop.exit18 ]
  %104 = phi float [ 0.000000e+00, %loop.pre10 ], [ %141, %loop.exit18 ]
  %105 = phi float [ 0.000000e+00, %loop.pre10 ], [ %142, %loop.exit18 ]
  %106 = phi float [ 0.000000e+00, %loop.pre10 ], [ %143, %loop.exit18 ]
  %107 = phi float [ 0.000000e+00, %loop.pre10 ], [ %144, %loop.exit18 ]
  %108 = phi float [ 0.000000e+00, %loop.pre10 ], [ %145, %loop.exit18 ]
  %109 = phi float [ 0.000000e+00, %loop.pre10 ], [ %146, %loop.exit18 ]
  %110 = phi float [ 0.000000e+00, %loop.pre10 ], [ %147, %loop.exit18 ]
  %111 = phi float [ 0.000000e+00, %loop.pre10 ], [ %148, %loop.exit18 ]
  %112 = phi float [ 0.000000e+00, %loop.pre10 ], [ %149, %loop.exit18 ]
  %113 = phi float [ 0.000000e+00, %loop.pre10 ], [ %150, %loop.exit18 ]
  %114 = phi float [ 0.000000e+00, %loop.pre10 ], [ %151, %loop.exit18 ]
  %115 = phi float [ 0.000000e+00, %loop.pre10 ], [ %152, %loop.exit18 ]
  %116 = phi float [ 0.000000e+00, %loop.pre10 ], [ %153, %loop.exit18 ]
  %117 = phi float [ 0.000000e+00, %loop.pre10 ], [ %154, %loop.exit18 ]
  %118 = phi float [ 0.000000e+00, %loop.pre10 ], [ %155, %loop.exit18 ]
  %119 = phi i32 [ 0, %loop.pre10 ], [ %156, %loop.exit18 ]
  %120 = icmp slt i32 %iv14, %35
  br i1 %120, label %loop.body12, label %loop.exit13

loop.body12:                                      ; preds = %loop11
  br label %loop.pre15

loop.exit13:                                      ; preds = %loop11
  %121 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %87, float %88, float %89, float %90, float %91, float %92, float %93, float %94, float %95, float %96, float %97, float %98, float %99, float %100, float %101, float %102)
  %122 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %103, float %104, float %105, float %106, float %107, float %108, float %109, float %110, float %111, float %112, float %113, float %114, float %115, float %116, float %117, float %118)
  %123 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %123)
  br label %endif9

loop.pre15:                                       ; preds = %loop.body12
  br label %loop16

loop16:                                           ; preds = %endif22, %loop.pre15
  %iv19 = phi i32 [ 0, %loop.pre15 ], [ %iv.next23, %endif22 ]
  %124 = phi float [ %87, %loop.pre15 ], [ %193, %endif22 ]
  %125 = phi float [ %88, %loop.pre15 ], [ %194, %endif22 ]
  %126 = phi float [ %89, %loop.pre15 ], [ %195, %endif22 ]
  %127 = phi float [ %90, %loop.pre15 ], [ %196, %endif22 ]
  %128 = phi float [ %91, %loop.pre15 ], [ %197, %endif22 ]
  %129 = phi float [ %92, %loop.pre15 ], [ %198, %endif22 ]
  %130 = phi float [ %93, %loop.pre15 ], [ %199, %endif22 ]
  %131 = phi float [ %94, %loop.pre15 ], [ %200, %endif22 ]
  %132 = phi float [ %95, %loop.pre15 ], [ %201, %endif22 ]
  %133 = phi float [ %96, %loop.pre15 ], [ %202, %endif22 ]
  %134 = phi float [ %97, %loop.pre15 ], [ %203, %endif22 ]
  %135 = phi float [ %98, %loop.pre15 ], [ %204, %endif22 ]
  %136 = phi float [ %99, %loop.pre15 ], [ %205, %endif22 ]
  %137 = phi float [ %100, %loop.pre15 ], [ %206, %endif22 ]
  %138 = phi float [ %101, %loop.pre15 ], [ %207, %endif22 ]
  %139 = phi float [ %102, %loop.pre15 ], [ %208, %endif22 ]
  %140 = phi float [ %103, %loop.pre15 ], [ %209, %endif22 ]
  %141 = phi float [ %104, %loop.pre15 ], [ %210, %endif22 ]
  %142 = phi float [ %105, %loop.pre15 ], [ %211, %endif22 ]
  %143 = phi float [ %106, %loop.pre15 ], [ %212, %endif22 ]
  %144 = phi float [ %107, %loop.pre15 ], [ %213, %endif22 ]
  %145 = phi float [ %108, %loop.pre15 ], [ %214, %endif22 ]
  %146 = phi float [ %109, %loop.pre15 ], [ %215, %endif22 ]
  %147 = phi float [ %110, %loop.pre15 ], [ %216, %endif22 ]
  %148 = phi float [ %111, %loop.pre15 ], [ %217, %endif22 ]
  %149 = phi float [ %112, %loop.pre15 ], [ %218, %endif22 ]
  %150 = phi float [ %113, %loop.pre15 ], [ %219, %endif22 ]
  %151 = phi float [ %114, %loop.pre15 ], [ %220, %endif22 ]
  %152 = phi float [ %115, %loop.pre15 ], [ %221, %endif22 ]
  %153 = phi float [ %116, %loop.pre15 ], [ %222, %endif22 ]
  %154 = phi float [ %117, %loop.pre15 ], [ %223, %endif22 ]
  %155 = phi float [ %118, %loop.pre15 ], [ %224, %endif22 ]
  %156 = phi i32 [ %119, %loop.pre15 ], [ %362, %endif22 ]
  %157 = icmp slt i32 %iv19, %30
  br i1 %157, label %loop.body17, label %loop.exit18

loop.body17:                                      ; preds = %loop16
  %158 = and i32 %156, 1
  %159 = sdiv i32 %156, 2
  %160 = and i32 %159, 1
  %161 = mul i32 %158, 8
  %162 = add i32 40960, %161
  %163 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %162
  %164 = ptrtoint ptr addrspace(3) %163 to i32
  call void asm sideeffect "{\0A.reg .pred weft_done;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0A}", "r,r"(i32 %164, i32 %160)
  %165 = mul i32 %158, 8192
  %166 = add i32 0, %165
  %167 = mul i32 %158, 8192
  %168 = add i32 16384, %167
  %169 = icmp ne i32 %iv19, 0
  %170 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %168
  %171 = ptrtoint ptr addrspace(3) %170 to i32
  %172 = zext i32 %171 to i64
  %173 = and i64 %172, 262143
  %174 = lshr i64 %173, 4
  %175 = or i64 %174, 4611686293305360384
  %176 = add i64 %175, 0
  %177 = add i64 %175, 128
  %178 = add i64 %175, 256
  %179 = add i64 %175, 384
  %180 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %166
  %181 = ptrtoint ptr addrspace(3) %180 to i32
  %182 = add i32 %181, 0
  %183 = zext i32 %182 to i64
  %184 = and i64 %183, 262143
  %185 = lshr i64 %184, 4
  %186 = or i64 %185, 4611686293305360384
  %187 = add i64 %186, 0
  %188 = add i64 %186, 2
  %189 = add i64 %186, 4
  %190 = add i64 %186, 6
  %191 = zext i1 %169 to i32
  %192 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.fence.sync.aligned;\0A{\0A.reg .pred weft_scale_d;\0Asetp.ne.b32 weft_scale_d, $64, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $65, $66, weft_scale_d, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $67, $68, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $69, $70, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $71, $72, 1, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,r,l,l,l,l,l,l,l,l"(float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151, float %152, float %153, float %154, float %155, i32 %191, i64 %187, i64 %176, i64 %188, i64 %177, i64 %189, i64 %178, i64 %190, i64 %179)
  %193 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 0
  %194 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 1
  %195 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 2
  %196 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 3
  %197 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 4
  %198 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 5
  %199 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 6
  %200 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 7
  %201 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 8
  %202 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 9
  %203 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 10
  %204 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 11
  %205 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 12
  %206 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 13
  %207 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 14
  %208 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 15
  %209 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 16
  %210 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 17
  %211 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 18
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 19
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 20
  %214 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 21
  %215 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 22
  %216 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 23
  %217 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 24
  %218 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 25
  %219 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 26
  %220 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 27
  %221 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 28
  %222 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 29
  %223 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 30
  %224 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %192, 31
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  call void asm sideeffect "wgmma.wait_group.sync.aligned 1;", ""()
  %225 = icmp sge i32 %156, 1
  br i1 %225, label %then20, label %else21

loop.exit18:                                      ; preds = %loop16
  %226 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139)
  %227 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 0
  %228 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 1
  %229 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 2
  %230 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 3
  %231 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 4
  %232 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 5
  %233 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 6
  %234 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 7
  %235 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 8
  %236 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 9
  %237 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 10
  %238 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 11
  %239 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 12
  %240 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 13
  %241 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 14
  %242 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %226, 15
  %243 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"(float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151, float %152, float %153, float %154, float %155)
  %244 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 0
  %245 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 1
  %246 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 2
  %247 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 3
  %248 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 4
  %249 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 5
  %250 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 6
  %251 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 7
  %252 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 8
  %253 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 9
  %254 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 10
  %255 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 11
  %256 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 12
  %257 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 13
  %258 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 14
  %259 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %243, 15
  %260 = mul i32 %iv14, %1
  %261 = add i32 %0, %260
  %262 = shl i32 %28, 3
  %263 = sdiv i32 %261, %262
  %264 = shl i32 %263, 3
  %265 = sub i32 %26, %264
  %266 = call i32 @llvm.smin.i32(i32 %265, i32 8)
  %267 = srem i32 %261, %262
  %268 = srem i32 %267, %266
  %269 = add i32 %264, %268
  %270 = sdiv i32 %267, %266
  %271 = shl i32 %269, 6
  %272 = shl i32 %270, 6
  %273 = insertelement <2 x float> poison, float %227, i32 0
  %274 = insertelement <2 x float> %273, float %228, i32 1
  %275 = fptrunc <2 x float> %274 to <2 x half>
  %276 = insertelement <2 x float> poison, float %229, i32 0
  %277 = insertelement <2 x float> %276, float %230, i32 1
  %278 = fptrunc <2 x float> %277 to <2 x half>
  %279 = insertelement <2 x float> poison, float %231, i32 0
  %280 = insertelement <2 x float> %279, float %232, i32 1
  %281 = fptrunc <2 x float> %280 to <2 x half>
  %282 = insertelement <2 x float> poison, float %233, i32 0
  %283 = insertelement <2 x float> %282, float %234, i32 1
  %284 = fptrunc <2 x float> %283 to <2 x half>
  %285 = insertelement <2 x float> poison, float %235, i32 0
  %286 = insertelement <2 x float> %285, float %236, i32 1
  %287 = fptrunc <2 x float> %286 to <2 x half>
  %288 = insertelement <2 x float> poison, float %237, i32 0
  %289 = insertelement <2 x float> %288, float %238, i32 1
  %290 = fptrunc <2 x float> %289 to <2 x half>
  %291 = insertelement <2 x float> poison, float %239, i32 0
  %292 = insertelement <2 x float> %291, float %240, i32 1
  %293 = fptrunc <2 x float> %292 to <2 x half>
  %294 = insertelement <2 x float> poison, float %241, i32 0
  %295 = insertelement <2 x float> %294, float %242, i32 1
  %296 = fptrunc <2 x float> %295 to <2 x half>
  %297 = insertelement <2 x float> poison, float %244, i32 0
  %298 = insertelement <2 x float> %297, float %245, i32 1
  %299 = fptrunc <2 x float> %298 to <2 x half>
  %300 = insertelement <2 x float> poison, float %246, i32 0
  %301 = insertelement <2 x float> %300, float %247, i32 1
  %302 = fptrunc <2 x float> %301 to <2 x half>
  %303 = insertelement <2 x float> poison, float %248, i32 0
  %304 = insertelement <2 x float> %303, float %249, i32 1
  %305 = fptrunc <2 x float> %304 to <2 x half>
  %306 = insertelement <2 x float> poison, float %250, i32 0
  %307 = insertelement <2 x float> %306, float %251, i32 1
  %308 = fptrunc <2 x float> %307 to <2 x half>
  %309 = insertelement <2 x float> poison, float %252, i32 0
  %310 = insertelement <2 x float> %309, float %253, i32 1
  %311 = fptrunc <2 x float> %310 to <2 x half>
  %312 = insertelement <2 x float> poison, float %254, i32 0
  %313 = insertelement <2 x float> %312, float %255, i32 1
  %314 = fptrunc <2 x float> %313 to <2 x half>
  %315 = insertelement <2 x float> poison, float %256, i32 0
  %316 = insertelement <2 x float> %315, float %257, i32 1
  %317 = fptrunc <2 x float> %316 to <2 x half>
  %318 = insertelement <2 x float> poison, float %258, i32 0
  %319 = insertelement <2 x float> %318, float %259, i32 1
  %320 = fptrunc <2 x float> %319 to <2 x half>
  %321 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %321)
  call void asm sideeffect "bar.sync 1, 128;", ""()
  %322 = xor i32 %24, 16
  %323 = xor i32 %24, 32
  %324 = xor i32 %24, 48
  %325 = shl i32 %24, 1
  %326 = add i32 %325, 32768
  %327 = shl i32 %322, 1
  %328 = add i32 %327, 32768
  %329 = shl i32 %323, 1
  %330 = add i32 %329, 32768
  %331 = shl i32 %324, 1
  %332 = add i32 %331, 32768
  %333 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %326
  %334 = bitcast <2 x half> %275 to i32
  %335 = bitcast <2 x half> %278 to i32
  %336 = bitcast <2 x half> %281 to i32
  %337 = bitcast <2 x half> %284 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %333, i32 %334, i32 %335, i32 %336, i32 %337)
  %338 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %328
  %339 = bitcast <2 x half> %287 to i32
  %340 = bitcast <2 x half> %290 to i32
  %341 = bitcast <2 x half> %293 to i32
  %342 = bitcast <2 x half> %296 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %338, i32 %339, i32 %340, i32 %341, i32 %342)
  %343 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %330
  %344 = bitcast <2 x half> %299 to i32
  %345 = bitcast <2 x half> %302 to i32
  %346 = bitcast <2 x half> %305 to i32
  %347 = bitcast <2 x half> %308 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %343, i32 %344, i32 %345, i32 %346, i32 %347)
  %348 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %332
  %349 = bitcast <2 x half> %311 to i32
  %350 = bitcast <2 x half> %314 to i32
  %351 = bitcast <2 x half> %317 to i32
  %352 = bitcast <2 x half> %320 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %348, i32 %349, i32 %350, i32 %351, i32 %352)
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void asm sideeffect "bar.sync 1, 128;", ""()
  %353 = ptrtoint ptr %c_map to i64
  %354 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %354, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %353, i32 %272, i32 %271)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %354)
  %iv.next24 = add i32 %iv14, 1
  br label %loop11

then20:                                           ; preds = %loop.body17
  %355 = sub i32 %156, 1
  %356 = and i32 %355, 1
  %357 = sdiv i32 %355, 2
  %358 = mul i32 %356, 8
  %359 = add i32 40976, %358
  %360 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %359
  %361 = ptrtoint ptr addrspace(3) %360 to i32
  call void asm sideeffect "mbarrier.arrive.shared::cta.b64 _, [$0];", "r"(i32 %361)
  br label %endif22

else21:                                           ; preds = %loop.body17
  br label %endif22

endif22:                                          ; preds = %else21, %then20
  %362 = add i32 %156, 1
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
