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
  %55 = srem i32 %53, 2
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
  %116 = phi float [ 0.000000e+00, %loop.pre10 ], [ %152, %loop.exit18 ]
  %117 = phi float [ 0.000000e+00, %loop.pre10 ], [ %153, %loop.exit18 ]
  %118 = phi float [ 0.000000e+00, %loop.pre10 ], [ %154, %loop.exit18 ]
  %119 = phi i32 [ 0, %loop.pre10 ], [ %155, %loop.exit18 ]
  %120 = icmp slt i32 %iv14, %35
  br i1 %120, label %loop.body12, label %loop.exit13

loop.body12:                                      ; preds = %loop11
  br label %loop.pre15

loop.exit13:                                      ; preds = %loop11
  %121 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %87, float %88, float %89, float %90, float %91, float %92, float %93, float %94, float %95, float %96, float %97, float %98, float %99, float %100, float %101, float %102, float %103, float %104, float %105, float %106, float %107, float %108, float %109, float %110, float %111, float %112, float %113, float %114, float %115, float %116, float %117, float %118)
  %122 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %122)
  br label %endif9

loop.pre15:                                       ; preds = %loop.body12
  br label %loop16

loop16:                                           ; preds = %endif22, %loop.pre15
  %iv19 = phi i32 [ 0, %loop.pre15 ], [ %iv.next23, %endif22 ]
  %123 = phi float [ %87, %loop.pre15 ], [ %192, %endif22 ]
  %124 = phi float [ %88, %loop.pre15 ], [ %193, %endif22 ]
  %125 = phi float [ %89, %loop.pre15 ], [ %194, %endif22 ]
  %126 = phi float [ %90, %loop.pre15 ], [ %195, %endif22 ]
  %127 = phi float [ %91, %loop.pre15 ], [ %196, %endif22 ]
  %128 = phi float [ %92, %loop.pre15 ], [ %197, %endif22 ]
  %129 = phi float [ %93, %loop.pre15 ], [ %198, %endif22 ]
  %130 = phi float [ %94, %loop.pre15 ], [ %199, %endif22 ]
  %131 = phi float [ %95, %loop.pre15 ], [ %200, %endif22 ]
  %132 = phi float [ %96, %loop.pre15 ], [ %201, %endif22 ]
  %133 = phi float [ %97, %loop.pre15 ], [ %202, %endif22 ]
  %134 = phi float [ %98, %loop.pre15 ], [ %203, %endif22 ]
  %135 = phi float [ %99, %loop.pre15 ], [ %204, %endif22 ]
  %136 = phi float [ %100, %loop.pre15 ], [ %205, %endif22 ]
  %137 = phi float [ %101, %loop.pre15 ], [ %206, %endif22 ]
  %138 = phi float [ %102, %loop.pre15 ], [ %207, %endif22 ]
  %139 = phi float [ %103, %loop.pre15 ], [ %208, %endif22 ]
  %140 = phi float [ %104, %loop.pre15 ], [ %209, %endif22 ]
  %141 = phi float [ %105, %loop.pre15 ], [ %210, %endif22 ]
  %142 = phi float [ %106, %loop.pre15 ], [ %211, %endif22 ]
  %143 = phi float [ %107, %loop.pre15 ], [ %212, %endif22 ]
  %144 = phi float [ %108, %loop.pre15 ], [ %213, %endif22 ]
  %145 = phi float [ %109, %loop.pre15 ], [ %214, %endif22 ]
  %146 = phi float [ %110, %loop.pre15 ], [ %215, %endif22 ]
  %147 = phi float [ %111, %loop.pre15 ], [ %216, %endif22 ]
  %148 = phi float [ %112, %loop.pre15 ], [ %217, %endif22 ]
  %149 = phi float [ %113, %loop.pre15 ], [ %218, %endif22 ]
  %150 = phi float [ %114, %loop.pre15 ], [ %219, %endif22 ]
  %151 = phi float [ %115, %loop.pre15 ], [ %220, %endif22 ]
  %152 = phi float [ %116, %loop.pre15 ], [ %221, %endif22 ]
  %153 = phi float [ %117, %loop.pre15 ], [ %222, %endif22 ]
  %154 = phi float [ %118, %loop.pre15 ], [ %223, %endif22 ]
  %155 = phi i32 [ %119, %loop.pre15 ], [ %424, %endif22 ]
  %156 = icmp slt i32 %iv19, %30
  br i1 %156, label %loop.body17, label %loop.exit18

loop.body17:                                      ; preds = %loop16
  %157 = srem i32 %155, 2
  %158 = sdiv i32 %155, 2
  %159 = and i32 %158, 1
  %160 = mul i32 %157, 8
  %161 = add i32 40960, %160
  %162 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %161
  %163 = ptrtoint ptr addrspace(3) %162 to i32
  call void asm sideeffect "{\0A.reg .pred weft_done;\0Aweft_wait:\0Ambarrier.try_wait.parity.shared::cta.b64 weft_done, [$0], $1;\0A@!weft_done bra.uni weft_wait;\0A}", "r,r"(i32 %163, i32 %159)
  %164 = mul i32 %157, 8192
  %165 = add i32 0, %164
  %166 = mul i32 %157, 8192
  %167 = add i32 16384, %166
  %168 = icmp ne i32 %iv19, 0
  %169 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %167
  %170 = ptrtoint ptr addrspace(3) %169 to i32
  %171 = zext i32 %170 to i64
  %172 = and i64 %171, 262143
  %173 = lshr i64 %172, 4
  %174 = or i64 %173, 4611686293305360384
  %175 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %165
  %176 = ptrtoint ptr addrspace(3) %175 to i32
  %177 = add i32 %176, 0
  %178 = zext i32 %177 to i64
  %179 = and i64 %178, 262143
  %180 = lshr i64 %179, 4
  %181 = or i64 %180, 4611686293305360384
  call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
  %182 = zext i1 %168 to i32
  %183 = add i64 %181, 0
  %184 = add i64 %174, 0
  %185 = add i64 %181, 2
  %186 = add i64 %174, 128
  %187 = add i64 %181, 4
  %188 = add i64 %174, 256
  %189 = add i64 %181, 6
  %190 = add i64 %174, 384
  %191 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred weft_scale_d;\0Asetp.ne.b32 weft_scale_d, $64, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $65, $66, weft_scale_d, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $67, $68, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $69, $70, 1, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $71, $72, 1, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,r,l,l,l,l,l,l,l,l"(float %123, float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151, float %152, float %153, float %154, i32 %182, i64 %183, i64 %184, i64 %185, i64 %186, i64 %187, i64 %188, i64 %189, i64 %190)
  %192 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 0
  %193 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 1
  %194 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 2
  %195 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 3
  %196 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 4
  %197 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 5
  %198 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 6
  %199 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 7
  %200 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 8
  %201 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 9
  %202 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 10
  %203 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 11
  %204 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 12
  %205 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 13
  %206 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 14
  %207 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 15
  %208 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 16
  %209 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 17
  %210 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 18
  %211 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 19
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 20
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 21
  %214 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 22
  %215 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 23
  %216 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 24
  %217 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 25
  %218 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 26
  %219 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 27
  %220 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 28
  %221 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 29
  %222 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 30
  %223 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %191, 31
  call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
  call void asm sideeffect "wgmma.wait_group.sync.aligned 1;", ""()
  %224 = icmp sge i32 %155, 1
  br i1 %224, label %then20, label %else21

loop.exit18:                                      ; preds = %loop16
  %225 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %123, float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151, float %152, float %153, float %154)
  %226 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 0
  %227 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 1
  %228 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 2
  %229 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 3
  %230 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 4
  %231 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 5
  %232 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 6
  %233 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 7
  %234 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 8
  %235 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 9
  %236 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 10
  %237 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 11
  %238 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 12
  %239 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 13
  %240 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 14
  %241 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 15
  %242 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 16
  %243 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 17
  %244 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 18
  %245 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 19
  %246 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 20
  %247 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 21
  %248 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 22
  %249 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 23
  %250 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 24
  %251 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 25
  %252 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 26
  %253 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 27
  %254 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 28
  %255 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 29
  %256 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 30
  %257 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %225, 31
  %258 = mul i32 %iv14, %1
  %259 = add i32 %0, %258
  %260 = shl i32 %28, 3
  %261 = sdiv i32 %259, %260
  %262 = shl i32 %261, 3
  %263 = sub i32 %26, %262
  %264 = call i32 @llvm.smin.i32(i32 %263, i32 8)
  %265 = srem i32 %259, %260
  %266 = srem i32 %265, %264
  %267 = add i32 %262, %266
  %268 = sdiv i32 %265, %264
  %269 = shl i32 %267, 6
  %270 = shl i32 %268, 6
  %271 = insertelement <2 x float> poison, float %226, i32 0
  %272 = insertelement <2 x float> %271, float %227, i32 1
  %273 = fptrunc <2 x float> %272 to <2 x half>
  %274 = extractelement <2 x half> %273, i32 0
  %275 = extractelement <2 x half> %273, i32 1
  %276 = insertelement <2 x float> poison, float %228, i32 0
  %277 = insertelement <2 x float> %276, float %229, i32 1
  %278 = fptrunc <2 x float> %277 to <2 x half>
  %279 = extractelement <2 x half> %278, i32 0
  %280 = extractelement <2 x half> %278, i32 1
  %281 = insertelement <2 x float> poison, float %230, i32 0
  %282 = insertelement <2 x float> %281, float %231, i32 1
  %283 = fptrunc <2 x float> %282 to <2 x half>
  %284 = extractelement <2 x half> %283, i32 0
  %285 = extractelement <2 x half> %283, i32 1
  %286 = insertelement <2 x float> poison, float %232, i32 0
  %287 = insertelement <2 x float> %286, float %233, i32 1
  %288 = fptrunc <2 x float> %287 to <2 x half>
  %289 = extractelement <2 x half> %288, i32 0
  %290 = extractelement <2 x half> %288, i32 1
  %291 = insertelement <2 x float> poison, float %234, i32 0
  %292 = insertelement <2 x float> %291, float %235, i32 1
  %293 = fptrunc <2 x float> %292 to <2 x half>
  %294 = extractelement <2 x half> %293, i32 0
  %295 = extractelement <2 x half> %293, i32 1
  %296 = insertelement <2 x float> poison, float %236, i32 0
  %297 = insertelement <2 x float> %296, float %237, i32 1
  %298 = fptrunc <2 x float> %297 to <2 x half>
  %299 = extractelement <2 x half> %298, i32 0
  %300 = extractelement <2 x half> %298, i32 1
  %301 = insertelement <2 x float> poison, float %238, i32 0
  %302 = insertelement <2 x float> %301, float %239, i32 1
  %303 = fptrunc <2 x float> %302 to <2 x half>
  %304 = extractelement <2 x half> %303, i32 0
  %305 = extractelement <2 x half> %303, i32 1
  %306 = insertelement <2 x float> poison, float %240, i32 0
  %307 = insertelement <2 x float> %306, float %241, i32 1
  %308 = fptrunc <2 x float> %307 to <2 x half>
  %309 = extractelement <2 x half> %308, i32 0
  %310 = extractelement <2 x half> %308, i32 1
  %311 = insertelement <2 x float> poison, float %242, i32 0
  %312 = insertelement <2 x float> %311, float %243, i32 1
  %313 = fptrunc <2 x float> %312 to <2 x half>
  %314 = extractelement <2 x half> %313, i32 0
  %315 = extractelement <2 x half> %313, i32 1
  %316 = insertelement <2 x float> poison, float %244, i32 0
  %317 = insertelement <2 x float> %316, float %245, i32 1
  %318 = fptrunc <2 x float> %317 to <2 x half>
  %319 = extractelement <2 x half> %318, i32 0
  %320 = extractelement <2 x half> %318, i32 1
  %321 = insertelement <2 x float> poison, float %246, i32 0
  %322 = insertelement <2 x float> %321, float %247, i32 1
  %323 = fptrunc <2 x float> %322 to <2 x half>
  %324 = extractelement <2 x half> %323, i32 0
  %325 = extractelement <2 x half> %323, i32 1
  %326 = insertelement <2 x float> poison, float %248, i32 0
  %327 = insertelement <2 x float> %326, float %249, i32 1
  %328 = fptrunc <2 x float> %327 to <2 x half>
  %329 = extractelement <2 x half> %328, i32 0
  %330 = extractelement <2 x half> %328, i32 1
  %331 = insertelement <2 x float> poison, float %250, i32 0
  %332 = insertelement <2 x float> %331, float %251, i32 1
  %333 = fptrunc <2 x float> %332 to <2 x half>
  %334 = extractelement <2 x half> %333, i32 0
  %335 = extractelement <2 x half> %333, i32 1
  %336 = insertelement <2 x float> poison, float %252, i32 0
  %337 = insertelement <2 x float> %336, float %253, i32 1
  %338 = fptrunc <2 x float> %337 to <2 x half>
  %339 = extractelement <2 x half> %338, i32 0
  %340 = extractelement <2 x half> %338, i32 1
  %341 = insertelement <2 x float> poison, float %254, i32 0
  %342 = insertelement <2 x float> %341, float %255, i32 1
  %343 = fptrunc <2 x float> %342 to <2 x half>
  %344 = extractelement <2 x half> %343, i32 0
  %345 = extractelement <2 x half> %343, i32 1
  %346 = insertelement <2 x float> poison, float %256, i32 0
  %347 = insertelement <2 x float> %346, float %257, i32 1
  %348 = fptrunc <2 x float> %347 to <2 x half>
  %349 = extractelement <2 x half> %348, i32 0
  %350 = extractelement <2 x half> %348, i32 1
  %351 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.wait_group.read 0;", "b"(i1 %351)
  call void asm sideeffect "bar.sync 1, 128;", ""()
  %352 = xor i32 %24, 16
  %353 = xor i32 %24, 32
  %354 = xor i32 %24, 48
  %355 = shl i32 %24, 1
  %356 = add i32 %355, 32768
  %357 = shl i32 %352, 1
  %358 = add i32 %357, 32768
  %359 = shl i32 %353, 1
  %360 = add i32 %359, 32768
  %361 = shl i32 %354, 1
  %362 = add i32 %361, 32768
  %363 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %356
  %364 = insertelement <2 x half> poison, half %274, i32 0
  %365 = insertelement <2 x half> %364, half %275, i32 1
  %366 = bitcast <2 x half> %365 to i32
  %367 = insertelement <2 x half> poison, half %279, i32 0
  %368 = insertelement <2 x half> %367, half %280, i32 1
  %369 = bitcast <2 x half> %368 to i32
  %370 = insertelement <2 x half> poison, half %284, i32 0
  %371 = insertelement <2 x half> %370, half %285, i32 1
  %372 = bitcast <2 x half> %371 to i32
  %373 = insertelement <2 x half> poison, half %289, i32 0
  %374 = insertelement <2 x half> %373, half %290, i32 1
  %375 = bitcast <2 x half> %374 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %363, i32 %366, i32 %369, i32 %372, i32 %375)
  %376 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %358
  %377 = insertelement <2 x half> poison, half %294, i32 0
  %378 = insertelement <2 x half> %377, half %295, i32 1
  %379 = bitcast <2 x half> %378 to i32
  %380 = insertelement <2 x half> poison, half %299, i32 0
  %381 = insertelement <2 x half> %380, half %300, i32 1
  %382 = bitcast <2 x half> %381 to i32
  %383 = insertelement <2 x half> poison, half %304, i32 0
  %384 = insertelement <2 x half> %383, half %305, i32 1
  %385 = bitcast <2 x half> %384 to i32
  %386 = insertelement <2 x half> poison, half %309, i32 0
  %387 = insertelement <2 x half> %386, half %310, i32 1
  %388 = bitcast <2 x half> %387 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %376, i32 %379, i32 %382, i32 %385, i32 %388)
  %389 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %360
  %390 = insertelement <2 x half> poison, half %314, i32 0
  %391 = insertelement <2 x half> %390, half %315, i32 1
  %392 = bitcast <2 x half> %391 to i32
  %393 = insertelement <2 x half> poison, half %319, i32 0
  %394 = insertelement <2 x half> %393, half %320, i32 1
  %395 = bitcast <2 x half> %394 to i32
  %396 = insertelement <2 x half> poison, half %324, i32 0
  %397 = insertelement <2 x half> %396, half %325, i32 1
  %398 = bitcast <2 x half> %397 to i32
  %399 = insertelement <2 x half> poison, half %329, i32 0
  %400 = insertelement <2 x half> %399, half %330, i32 1
  %401 = bitcast <2 x half> %400 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %389, i32 %392, i32 %395, i32 %398, i32 %401)
  %402 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %362
  %403 = insertelement <2 x half> poison, half %334, i32 0
  %404 = insertelement <2 x half> %403, half %335, i32 1
  %405 = bitcast <2 x half> %404 to i32
  %406 = insertelement <2 x half> poison, half %339, i32 0
  %407 = insertelement <2 x half> %406, half %340, i32 1
  %408 = bitcast <2 x half> %407 to i32
  %409 = insertelement <2 x half> poison, half %344, i32 0
  %410 = insertelement <2 x half> %409, half %345, i32 1
  %411 = bitcast <2 x half> %410 to i32
  %412 = insertelement <2 x half> poison, half %349, i32 0
  %413 = insertelement <2 x half> %412, half %350, i32 1
  %414 = bitcast <2 x half> %413 to i32
  call void asm sideeffect "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "l,r,r,r,r"(ptr addrspace(3) %402, i32 %405, i32 %408, i32 %411, i32 %414)
  call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
  call void asm sideeffect "bar.sync 1, 128;", ""()
  %415 = ptrtoint ptr %c_map to i64
  %416 = icmp eq i32 %role.tid, 0
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$2, {$3, $4}], [$1];", "b,r,l,r,r"(i1 %416, i32 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 32768) to i32), i64 %415, i32 %270, i32 %269)
  call void asm sideeffect "@$0 cp.async.bulk.commit_group;", "b"(i1 %416)
  %iv.next24 = add i32 %iv14, 1
  br label %loop11

then20:                                           ; preds = %loop.body17
  %417 = sub i32 %155, 1
  %418 = srem i32 %417, 2
  %419 = sdiv i32 %417, 2
  %420 = mul i32 %418, 8
  %421 = add i32 40976, %420
  %422 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %421
  %423 = ptrtoint ptr addrspace(3) %422 to i32
  call void asm sideeffect "mbarrier.arrive.shared::cta.b64 _, [$0];", "r"(i32 %423)
  br label %endif22

else21:                                           ; preds = %loop.body17
  br label %endif22

endif22:                                          ; preds = %else21, %then20
  %424 = add i32 %155, 1
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
