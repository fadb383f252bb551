target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @gemm_sm80(ptr addrspace(1) align 16 %a, ptr addrspace(1) align 16 %b, ptr addrspace(1) align 16 %c, i32 %m, i32 %n, i32 %k) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = lshr i32 %1, 2
  %3 = and i32 %1, 3
  %4 = shl i32 %3, 3
  %5 = lshr i32 %1, 3
  %6 = and i32 %1, 7
  %7 = shl i32 %6, 3
  %8 = and i32 %1, 7
  %9 = shl i32 %8, 3
  %10 = and i32 %1, 8
  %11 = icmp ne i32 %10, 0
  %12 = select i1 %11, i32 72, i32 0
  %13 = xor i32 %9, %12
  %14 = and i32 %1, 16
  %15 = icmp ne i32 %14, 0
  %16 = select i1 %15, i32 144, i32 0
  %17 = xor i32 %13, %16
  %18 = and i32 %1, 96
  %19 = shl i32 %18, 3
  %20 = or disjoint i32 %17, %19
  %21 = and i32 %1, 7
  %22 = shl i32 %21, 3
  %23 = and i32 %1, 8
  %24 = icmp ne i32 %23, 0
  %25 = select i1 %24, i32 72, i32 0
  %26 = xor i32 %22, %25
  %27 = and i32 %1, 16
  %28 = icmp ne i32 %27, 0
  %29 = select i1 %28, i32 144, i32 0
  %30 = xor i32 %26, %29
  %31 = and i32 %1, 32
  %32 = icmp ne i32 %31, 0
  %33 = select i1 %32, i32 288, i32 0
  %34 = xor i32 %30, %33
  %35 = and i32 %1, 64
  %36 = shl i32 %35, 3
  %37 = or disjoint i32 %34, %36
  %38 = and i32 %1, 1
  %39 = shl i32 %38, 5
  %40 = and i32 %1, 2
  %41 = icmp ne i32 %40, 0
  %42 = select i1 %41, i32 72, i32 0
  %43 = or disjoint i32 %39, %42
  %44 = and i32 %1, 4
  %45 = icmp ne i32 %44, 0
  %46 = select i1 %45, i32 144, i32 0
  %47 = or disjoint i32 %43, %46
  %48 = and i32 %1, 8
  %49 = shl i32 %48, 5
  %50 = or disjoint i32 %47, %49
  %51 = and i32 %1, 16
  %52 = lshr i32 %51, 1
  %53 = xor i32 %50, %52
  %54 = and i32 %1, 64
  %55 = shl i32 %54, 3
  %56 = or disjoint i32 %53, %55
  %57 = and i32 %1, 1
  %58 = icmp ne i32 %57, 0
  %59 = select i1 %58, i32 72, i32 0
  %60 = and i32 %1, 2
  %61 = icmp ne i32 %60, 0
  %62 = select i1 %61, i32 144, i32 0
  %63 = or disjoint i32 %59, %62
  %64 = and i32 %1, 4
  %65 = icmp ne i32 %64, 0
  %66 = select i1 %65, i32 288, i32 0
  %67 = or disjoint i32 %63, %66
  %68 = and i32 %1, 24
  %69 = shl i32 %68, 6
  %70 = or disjoint i32 %67, %69
  %71 = and i32 %1, 32
  %72 = lshr i32 %71, 2
  %73 = xor i32 %70, %72
  %74 = and i32 %1, 28
  %75 = lshr i32 %74, 2
  %76 = and i32 %1, 64
  %77 = lshr i32 %76, 2
  %78 = or disjoint i32 %75, %77
  %79 = and i32 %1, 3
  %80 = shl i32 %79, 1
  %81 = and i32 %1, 32
  %82 = lshr i32 %81, 2
  %83 = or disjoint i32 %80, %82
  br label %body

body:                                             ; preds = %prologue
  %84 = add i32 %m, 63
  %85 = sdiv i32 %84, 64
  %86 = add i32 %n, 63
  %87 = sdiv i32 %86, 64
  %88 = shl i32 %87, 3
  %89 = sdiv i32 %0, %88
  %90 = shl i32 %89, 3
  %91 = sub i32 %85, %90
  %92 = call i32 @llvm.smin.i32(i32 %91, i32 8)
  %93 = srem i32 %0, %88
  %94 = srem i32 %93, %92
  %95 = add i32 %90, %94
  %96 = sdiv i32 %93, %92
  %97 = shl i32 %95, 6
  %98 = shl i32 %96, 6
  %99 = or disjoint i32 %2, %97
  %100 = or disjoint i32 %99, 32
  %101 = icmp slt i32 %99, %m
  %102 = icmp slt i32 %100, %m
  %103 = mul i32 %99, %k
  %104 = mul i32 %100, %k
  %105 = add i32 %103, %4
  %106 = add i32 %104, %4
  %107 = or disjoint i32 %5, 16
  %108 = or disjoint i32 %7, %98
  %109 = icmp slt i32 %108, %n
  %110 = mul i32 %5, %n
  %111 = mul i32 %107, %n
  %112 = add i32 %110, %108
  %113 = add i32 %111, %108
  %114 = sub i32 %k, 0
  %115 = icmp slt i32 %4, %114
  %116 = and i1 %101, %115
  %117 = and i1 %102, %115
  %118 = getelementptr half, ptr addrspace(1) %a, i32 %105
  %119 = getelementptr half, ptr addrspace(1) %a, i32 %106
  %120 = or disjoint i32 %20, 1024
  %121 = shl i32 %20, 1
  %122 = shl i32 %120, 1
  %123 = add i32 %121, 0
  %124 = add i32 %122, 0
  %125 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %123
  %126 = select i1 %116, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %125, ptr addrspace(1) %118, i32 %126)
  %127 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %124
  %128 = select i1 %117, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %127, ptr addrspace(1) %119, i32 %128)
  %129 = icmp slt i32 %5, %114
  %130 = icmp slt i32 %107, %114
  %131 = and i1 %129, %109
  %132 = and i1 %130, %109
  %133 = mul i32 %n, 0
  %134 = or disjoint i32 %112, %133
  %135 = or disjoint i32 %113, %133
  %136 = getelementptr half, ptr addrspace(1) %b, i32 %134
  %137 = getelementptr half, ptr addrspace(1) %b, i32 %135
  %138 = or disjoint i32 %37, 1024
  %139 = shl i32 %37, 1
  %140 = shl i32 %138, 1
  %141 = add i32 %139, 12288
  %142 = add i32 %140, 12288
  %143 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %141
  %144 = select i1 %131, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %143, ptr addrspace(1) %136, i32 %144)
  %145 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %142
  %146 = select i1 %132, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %145, ptr addrspace(1) %137, i32 %146)
  call void asm sideeffect "cp.async.commit_group;", ""()
  %147 = sub i32 %k, 32
  %148 = icmp slt i32 %4, %147
  %149 = and i1 %101, %148
  %150 = and i1 %102, %148
  %151 = add i32 %105, 32
  %152 = add i32 %106, 32
  %153 = getelementptr half, ptr addrspace(1) %a, i32 %151
  %154 = getelementptr half, ptr addrspace(1) %a, i32 %152
  %155 = shl i32 %20, 1
  %156 = shl i32 %120, 1
  %157 = add i32 %155, 4096
  %158 = add i32 %156, 4096
  %159 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %157
  %160 = select i1 %149, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %159, ptr addrspace(1) %153, i32 %160)
  %161 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %158
  %162 = select i1 %150, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %161, ptr addrspace(1) %154, i32 %162)
  %163 = icmp slt i32 %5, %147
  %164 = icmp slt i32 %107, %147
  %165 = and i1 %163, %109
  %166 = and i1 %164, %109
  %167 = shl i32 %n, 5
  %168 = add i32 %112, %167
  %169 = add i32 %113, %167
  %170 = getelementptr half, ptr addrspace(1) %b, i32 %168
  %171 = getelementptr half, ptr addrspace(1) %b, i32 %169
  %172 = shl i32 %37, 1
  %173 = shl i32 %138, 1
  %174 = add i32 %172, 16384
  %175 = add i32 %173, 16384
  %176 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %174
  %177 = select i1 %165, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %176, ptr addrspace(1) %170, i32 %177)
  %178 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %175
  %179 = select i1 %166, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %178, ptr addrspace(1) %171, i32 %179)
  call void asm sideeffect "cp.async.commit_group;", ""()
  br label %loop.pre

loop.pre:                                         ; preds = %body
  br label %loop

loop:                                             ; preds = %loop.body, %loop.pre
  %iv = phi i32 [ 0, %loop.pre ], [ %iv.next, %loop.body ]
  %180 = phi float [ 0.000000e+00, %loop.pre ], [ %436, %loop.body ]
  %181 = phi float [ 0.000000e+00, %loop.pre ], [ %437, %loop.body ]
  %182 = phi float [ 0.000000e+00, %loop.pre ], [ %438, %loop.body ]
  %183 = phi float [ 0.000000e+00, %loop.pre ], [ %439, %loop.body ]
  %184 = phi float [ 0.000000e+00, %loop.pre ], [ %441, %loop.body ]
  %185 = phi float [ 0.000000e+00, %loop.pre ], [ %442, %loop.body ]
  %186 = phi float [ 0.000000e+00, %loop.pre ], [ %443, %loop.body ]
  %187 = phi float [ 0.000000e+00, %loop.pre ], [ %444, %loop.body ]
  %188 = phi float [ 0.000000e+00, %loop.pre ], [ %446, %loop.body ]
  %189 = phi float [ 0.000000e+00, %loop.pre ], [ %447, %loop.body ]
  %190 = phi float [ 0.000000e+00, %loop.pre ], [ %448, %loop.body ]
  %191 = phi float [ 0.000000e+00, %loop.pre ], [ %449, %loop.body ]
  %192 = phi float [ 0.000000e+00, %loop.pre ], [ %451, %loop.body ]
  %193 = phi float [ 0.000000e+00, %loop.pre ], [ %452, %loop.body ]
  %194 = phi float [ 0.000000e+00, %loop.pre ], [ %453, %loop.body ]
  %195 = phi float [ 0.000000e+00, %loop.pre ], [ %454, %loop.body ]
  %196 = phi float [ 0.000000e+00, %loop.pre ], [ %456, %loop.body ]
  %197 = phi float [ 0.000000e+00, %loop.pre ], [ %457, %loop.body ]
  %198 = phi float [ 0.000000e+00, %loop.pre ], [ %458, %loop.body ]
  %199 = phi float [ 0.000000e+00, %loop.pre ], [ %459, %loop.body ]
  %200 = phi float [ 0.000000e+00, %loop.pre ], [ %461, %loop.body ]
  %201 = phi float [ 0.000000e+00, %loop.pre ], [ %462, %loop.body ]
  %202 = phi float [ 0.000000e+00, %loop.pre ], [ %463, %loop.body ]
  %203 = phi float [ 0.000000e+00, %loop.pre ], [ %464, %loop.body ]
  %204 = phi float [ 0.000000e+00, %loop.pre ], [ %466, %loop.body ]
  %205 = phi float [ 0.000000e+00, %loop.pre ], [ %467, %loop.body ]
  %206 = phi float [ 0.000000e+00, %loop.pre ], [ %468, %loop.body ]
  %207 = phi float [ 0.000000e+00, %loop.pre ], [ %469, %loop.body ]
  %208 = phi float [ 0.000000e+00, %loop.pre ], [ %471, %loop.body ]
  %209 = phi float [ 0.000000e+00, %loop.pre ], [ %472, %loop.body ]
  %210 = phi float [ 0.000000e+00, %loop.pre ], [ %473, %loop.body ]
  %211 = phi float [ 0.000000e+00, %loop.pre ], [ %474, %loop.body ]
  %212 = icmp slt i32 %iv, %k
  br i1 %212, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %213 = sdiv i32 %iv, 32
  %214 = srem i32 %213, 3
  call void asm sideeffect "cp.async.wait_group 1;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %215 = add i32 %213, 2
  %216 = srem i32 %215, 3
  %217 = add i32 %iv, 64
  %218 = mul i32 %216, 4096
  %219 = add i32 0, %218
  %220 = mul i32 %216, 4096
  %221 = add i32 12288, %220
  %222 = sub i32 %k, %217
  %223 = icmp slt i32 %4, %222
  %224 = and i1 %101, %223
  %225 = and i1 %102, %223
  %226 = add i32 %105, %217
  %227 = add i32 %106, %217
  %228 = getelementptr half, ptr addrspace(1) %a, i32 %226
  %229 = getelementptr half, ptr addrspace(1) %a, i32 %227
  %230 = or disjoint i32 %20, 1024
  %231 = shl i32 %20, 1
  %232 = shl i32 %230, 1
  %233 = add i32 %231, %219
  %234 = add i32 %232, %219
  %235 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %233
  %236 = select i1 %224, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %235, ptr addrspace(1) %228, i32 %236)
  %237 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %234
  %238 = select i1 %225, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %237, ptr addrspace(1) %229, i32 %238)
  %239 = icmp slt i32 %5, %222
  %240 = icmp slt i32 %107, %222
  %241 = and i1 %239, %109
  %242 = and i1 %240, %109
  %243 = mul i32 %217, %n
  %244 = add i32 %112, %243
  %245 = add i32 %113, %243
  %246 = getelementptr half, ptr addrspace(1) %b, i32 %244
  %247 = getelementptr half, ptr addrspace(1) %b, i32 %245
  %248 = or disjoint i32 %37, 1024
  %249 = shl i32 %37, 1
  %250 = shl i32 %248, 1
  %251 = add i32 %249, %221
  %252 = add i32 %250, %221
  %253 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %251
  %254 = select i1 %241, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %253, ptr addrspace(1) %246, i32 %254)
  %255 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %252
  %256 = select i1 %242, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %255, ptr addrspace(1) %247, i32 %256)
  call void asm sideeffect "cp.async.commit_group;", ""()
  %257 = mul i32 %214, 4096
  %258 = add i32 0, %257
  %259 = mul i32 %214, 4096
  %260 = add i32 12288, %259
  %261 = xor i32 %56, 16
  %262 = or disjoint i32 %56, 1024
  %263 = xor i32 %56, 1040
  %264 = shl i32 %56, 1
  %265 = shl i32 %261, 1
  %266 = shl i32 %262, 1
  %267 = shl i32 %263, 1
  %268 = add i32 %264, %258
  %269 = add i32 %265, %258
  %270 = add i32 %266, %258
  %271 = add i32 %267, %258
  %272 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %268
  %273 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %272)
  %274 = extractvalue { i32, i32, i32, i32 } %273, 0
  %275 = extractvalue { i32, i32, i32, i32 } %273, 1
  %276 = extractvalue { i32, i32, i32, i32 } %273, 2
  %277 = extractvalue { i32, i32, i32, i32 } %273, 3
  %278 = bitcast i32 %274 to <2 x half>
  %279 = bitcast i32 %275 to <2 x half>
  %280 = bitcast i32 %276 to <2 x half>
  %281 = bitcast i32 %277 to <2 x half>
  %282 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %269
  %283 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %282)
  %284 = extractvalue { i32, i32, i32, i32 } %283, 0
  %285 = extractvalue { i32, i32, i32, i32 } %283, 1
  %286 = extractvalue { i32, i32, i32, i32 } %283, 2
  %287 = extractvalue { i32, i32, i32, i32 } %283, 3
  %288 = bitcast i32 %284 to <2 x half>
  %289 = bitcast i32 %285 to <2 x half>
  %290 = bitcast i32 %286 to <2 x half>
  %291 = bitcast i32 %287 to <2 x half>
  %292 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %270
  %293 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %292)
  %294 = extractvalue { i32, i32, i32, i32 } %293, 0
  %295 = extractvalue { i32, i32, i32, i32 } %293, 1
  %296 = extractvalue { i32, i32, i32, i32 } %293, 2
  %297 = extractvalue { i32, i32, i32, i32 } %293, 3
  %298 = bitcast i32 %294 to <2 x half>
  %299 = bitcast i32 %295 to <2 x half>
  %300 = bitcast i32 %296 to <2 x half>
  %301 = bitcast i32 %297 to <2 x half>
  %302 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %271
  %303 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %302)
  %304 = extractvalue { i32, i32, i32, i32 } %303, 0
  %305 = extractvalue { i32, i32, i32, i32 } %303, 1
  %306 = extractvalue { i32, i32, i32, i32 } %303, 2
  %307 = extractvalue { i32, i32, i32, i32 } %303, 3
  %308 = bitcast i32 %304 to <2 x half>
  %309 = bitcast i32 %305 to <2 x half>
  %310 = bitcast i32 %306 to <2 x half>
  %311 = bitcast i32 %307 to <2 x half>
  %312 = xor i32 %73, 16
  %313 = xor i32 %73, 32
  %314 = xor i32 %73, 48
  %315 = shl i32 %73, 1
  %316 = shl i32 %312, 1
  %317 = shl i32 %313, 1
  %318 = shl i32 %314, 1
  %319 = add i32 %315, %260
  %320 = add i32 %316, %260
  %321 = add i32 %317, %260
  %322 = add i32 %318, %260
  %323 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %319
  %324 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %323)
  %325 = extractvalue { i32, i32, i32, i32 } %324, 0
  %326 = extractvalue { i32, i32, i32, i32 } %324, 1
  %327 = extractvalue { i32, i32, i32, i32 } %324, 2
  %328 = extractvalue { i32, i32, i32, i32 } %324, 3
  %329 = bitcast i32 %325 to <2 x half>
  %330 = bitcast i32 %326 to <2 x half>
  %331 = bitcast i32 %327 to <2 x half>
  %332 = bitcast i32 %328 to <2 x half>
  %333 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %320
  %334 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %333)
  %335 = extractvalue { i32, i32, i32, i32 } %334, 0
  %336 = extractvalue { i32, i32, i32, i32 } %334, 1
  %337 = extractvalue { i32, i32, i32, i32 } %334, 2
  %338 = extractvalue { i32, i32, i32, i32 } %334, 3
  %339 = bitcast i32 %335 to <2 x half>
  %340 = bitcast i32 %336 to <2 x half>
  %341 = bitcast i32 %337 to <2 x half>
  %342 = bitcast i32 %338 to <2 x half>
  %343 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %321
  %344 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %343)
  %345 = extractvalue { i32, i32, i32, i32 } %344, 0
  %346 = extractvalue { i32, i32, i32, i32 } %344, 1
  %347 = extractvalue { i32, i32, i32, i32 } %344, 2
  %348 = extractvalue { i32, i32, i32, i32 } %344, 3
  %349 = bitcast i32 %345 to <2 x half>
  %350 = bitcast i32 %346 to <2 x half>
  %351 = bitcast i32 %347 to <2 x half>
  %352 = bitcast i32 %348 to <2 x half>
  %353 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %322
  %354 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %353)
  %355 = extractvalue { i32, i32, i32, i32 } %354, 0
  %356 = extractvalue { i32, i32, i32, i32 } %354, 1
  %357 = extractvalue { i32, i32, i32, i32 } %354, 2
  %358 = extractvalue { i32, i32, i32, i32 } %354, 3
  %359 = bitcast i32 %355 to <2 x half>
  %360 = bitcast i32 %356 to <2 x half>
  %361 = bitcast i32 %357 to <2 x half>
  %362 = bitcast i32 %358 to <2 x half>
  %363 = bitcast <2 x half> %278 to i32
  %364 = bitcast <2 x half> %279 to i32
  %365 = bitcast <2 x half> %280 to i32
  %366 = bitcast <2 x half> %281 to i32
  %367 = bitcast <2 x half> %288 to i32
  %368 = bitcast <2 x half> %289 to i32
  %369 = bitcast <2 x half> %290 to i32
  %370 = bitcast <2 x half> %291 to i32
  %371 = bitcast <2 x half> %298 to i32
  %372 = bitcast <2 x half> %299 to i32
  %373 = bitcast <2 x half> %300 to i32
  %374 = bitcast <2 x half> %301 to i32
  %375 = bitcast <2 x half> %308 to i32
  %376 = bitcast <2 x half> %309 to i32
  %377 = bitcast <2 x half> %310 to i32
  %378 = bitcast <2 x half> %311 to i32
  %379 = bitcast <2 x half> %329 to i32
  %380 = bitcast <2 x half> %330 to i32
  %381 = bitcast <2 x half> %331 to i32
  %382 = bitcast <2 x half> %332 to i32
  %383 = bitcast <2 x half> %339 to i32
  %384 = bitcast <2 x half> %340 to i32
  %385 = bitcast <2 x half> %341 to i32
  %386 = bitcast <2 x half> %342 to i32
  %387 = bitcast <2 x half> %349 to i32
  %388 = bitcast <2 x half> %350 to i32
  %389 = bitcast <2 x half> %351 to i32
  %390 = bitcast <2 x half> %352 to i32
  %391 = bitcast <2 x half> %359 to i32
  %392 = bitcast <2 x half> %360 to i32
  %393 = bitcast <2 x half> %361 to i32
  %394 = bitcast <2 x half> %362 to i32
  %395 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %363, i32 %364, i32 %365, i32 %366, i32 %379, i32 %380, float %180, float %181, float %182, float %183)
  %396 = extractvalue { float, float, float, float } %395, 0
  %397 = extractvalue { float, float, float, float } %395, 1
  %398 = extractvalue { float, float, float, float } %395, 2
  %399 = extractvalue { float, float, float, float } %395, 3
  %400 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %363, i32 %364, i32 %365, i32 %366, i32 %383, i32 %384, float %184, float %185, float %186, float %187)
  %401 = extractvalue { float, float, float, float } %400, 0
  %402 = extractvalue { float, float, float, float } %400, 1
  %403 = extractvalue { float, float, float, float } %400, 2
  %404 = extractvalue { float, float, float, float } %400, 3
  %405 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %363, i32 %364, i32 %365, i32 %366, i32 %387, i32 %388, float %188, float %189, float %190, float %191)
  %406 = extractvalue { float, float, float, float } %405, 0
  %407 = extractvalue { float, float, float, float } %405, 1
  %408 = extractvalue { float, float, float, float } %405, 2
  %409 = extractvalue { float, float, float, float } %405, 3
  %410 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %363, i32 %364, i32 %365, i32 %366, i32 %391, i32 %392, float %192, float %193, float %194, float %195)
  %411 = extractvalue { float, float, float, float } %410, 0
  %412 = extractvalue { float, float, float, float } %410, 1
  %413 = extractvalue { float, float, float, float } %410, 2
  %414 = extractvalue { float, float, float, float } %410, 3
  %415 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %371, i32 %372, i32 %373, i32 %374, i32 %379, i32 %380, float %196, float %197, float %198, float %199)
  %416 = extractvalue { float, float, float, float } %415, 0
  %417 = extractvalue { float, float, float, float } %415, 1
  %418 = extractvalue { float, float, float, float } %415, 2
  %419 = extractvalue { float, float, float, float } %415, 3
  %420 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %371, i32 %372, i32 %373, i32 %374, i32 %383, i32 %384, float %200, float %201, float %202, float %203)
  %421 = extractvalue { float, float, float, float } %420, 0
  %422 = extractvalue { float, float, float, float } %420, 1
  %423 = extractvalue { float, float, float, float } %420, 2
  %424 = extractvalue { float, float, float, float } %420, 3
  %425 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %371, i32 %372, i32 %373, i32 %374, i32 %387, i32 %388, float %204, float %205, float %206, float %207)
  %426 = extractvalue { float, float, float, float } %425, 0
  %427 = extractvalue { float, float, float, float } %425, 1
  %428 = extractvalue { float, float, float, float } %425, 2
  %429 = extractvalue { float, float, float, float } %425, 3
  %430 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %371, i32 %372, i32 %373, i32 %374, i32 %391, i32 %392, float %208, float %209, float %210, float %211)
  %431 = extractvalue { float, float, float, float } %430, 0
  %432 = extractvalue { float, float, float, float } %430, 1
  %433 = extractvalue { float, float, float, float } %430, 2
  %434 = extractvalue { float, float, float, float } %430, 3
  %435 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %367, i32 %368, i32 %369, i32 %370, i32 %381, i32 %382, float %396, float %397, float %398, float %399)
  %436 = extractvalue { float, float, float, float } %435, 0
  %437 = extractvalue { float, float, float, float } %435, 1
  %438 = extractvalue { float, float, float, float } %435, 2
  %439 = extractvalue { float, float, float, float } %435, 3
  %440 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %367, i32 %368, i32 %369, i32 %370, i32 %385, i32 %386, float %401, float %402, float %403, float %404)
  %441 = extractvalue { float, float, float, float } %440, 0
  %442 = extractvalue { float, float, float, float } %440, 1
  %443 = extractvalue { float, float, float, float } %440, 2
  %444 = extractvalue { float, float, float, float } %440, 3
  %445 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %367, i32 %368, i32 %369, i32 %370, i32 %389, i32 %390, float %406, float %407, float %408, float %409)
  %446 = extractvalue { float, float, float, float } %445, 0
  %447 = extractvalue { float, float, float, float } %445, 1
  %448 = extractvalue { float, float, float, float } %445, 2
  %449 = extractvalue { float, float, float, float } %445, 3
  %450 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %367, i32 %368, i32 %369, i32 %370, i32 %393, i32 %394, float %411, float %412, float %413, float %414)
  %451 = extractvalue { float, float, float, float } %450, 0
  %452 = extractvalue { float, float, float, float } %450, 1
  %453 = extractvalue { float, float, float, float } %450, 2
  %454 = extractvalue { float, float, float, float } %450, 3
  %455 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %375, i32 %376, i32 %377, i32 %378, i32 %381, i32 %382, float %416, float %417, float %418, float %419)
  %456 = extractvalue { float, float, float, float } %455, 0
  %457 = extractvalue { float, float, float, float } %455, 1
  %458 = extractvalue { float, float, float, float } %455, 2
  %459 = extractvalue { float, float, float, float } %455, 3
  %460 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %375, i32 %376, i32 %377, i32 %378, i32 %385, i32 %386, float %421, float %422, float %423, float %424)
  %461 = extractvalue { float, float, float, float } %460, 0
  %462 = extractvalue { float, float, float, float } %460, 1
  %463 = extractvalue { float, float, float, float } %460, 2
  %464 = extractvalue { float, float, float, float } %460, 3
  %465 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %375, i32 %376, i32 %377, i32 %378, i32 %389, i32 %390, float %426, float %427, float %428, float %429)
  %466 = extractvalue { float, float, float, float } %465, 0
  %467 = extractvalue { float, float, float, float } %465, 1
  %468 = extractvalue { float, float, float, float } %465, 2
  %469 = extractvalue { float, float, float, float } %465, 3
  %470 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %375, i32 %376, i32 %377, i32 %378, i32 %393, i32 %394, float %431, float %432, float %433, float %434)
  %471 = extractvalue { float, float, float, float } %470, 0
  %472 = extractvalue { float, float, float, float } %470, 1
  %473 = extractvalue { float, float, float, float } %470, 2
  %474 = extractvalue { float, float, float, float } %470, 3
  %iv.next = add i32 %iv, 32
  br label %loop

loop.exit:                                        ; preds = %loop
  call void asm sideeffect "cp.async.wait_group 0;", ""()
  %475 = or disjoint i32 %78, %97
  %476 = or disjoint i32 %475, 8
  %477 = or disjoint i32 %475, 32
  %478 = or disjoint i32 %475, 40
  %479 = or disjoint i32 %83, %98
  %480 = or disjoint i32 %479, 16
  %481 = or disjoint i32 %479, 32
  %482 = or disjoint i32 %479, 48
  %483 = icmp slt i32 %475, %m
  %484 = icmp slt i32 %477, %m
  %485 = icmp slt i32 %479, %n
  %486 = icmp slt i32 %480, %n
  %487 = icmp slt i32 %481, %n
  %488 = icmp slt i32 %482, %n
  %489 = and i1 %483, %485
  %490 = and i1 %483, %486
  %491 = and i1 %483, %487
  %492 = and i1 %483, %488
  %493 = and i1 %484, %485
  %494 = and i1 %484, %486
  %495 = and i1 %484, %487
  %496 = and i1 %484, %488
  %497 = mul i32 %475, %n
  %498 = mul i32 %476, %n
  %499 = mul i32 %477, %n
  %500 = mul i32 %478, %n
  %501 = add i32 %497, %479
  %502 = add i32 %498, %479
  %503 = add i32 %497, %480
  %504 = add i32 %498, %480
  %505 = add i32 %497, %481
  %506 = add i32 %498, %481
  %507 = add i32 %497, %482
  %508 = add i32 %498, %482
  %509 = add i32 %499, %479
  %510 = add i32 %500, %479
  %511 = add i32 %499, %480
  %512 = add i32 %500, %480
  %513 = add i32 %499, %481
  %514 = add i32 %500, %481
  %515 = add i32 %499, %482
  %516 = add i32 %500, %482
  %517 = getelementptr half, ptr addrspace(1) %c, i32 %501
  %518 = getelementptr half, ptr addrspace(1) %c, i32 %502
  %519 = getelementptr half, ptr addrspace(1) %c, i32 %503
  %520 = getelementptr half, ptr addrspace(1) %c, i32 %504
  %521 = getelementptr half, ptr addrspace(1) %c, i32 %505
  %522 = getelementptr half, ptr addrspace(1) %c, i32 %506
  %523 = getelementptr half, ptr addrspace(1) %c, i32 %507
  %524 = getelementptr half, ptr addrspace(1) %c, i32 %508
  %525 = getelementptr half, ptr addrspace(1) %c, i32 %509
  %526 = getelementptr half, ptr addrspace(1) %c, i32 %510
  %527 = getelementptr half, ptr addrspace(1) %c, i32 %511
  %528 = getelementptr half, ptr addrspace(1) %c, i32 %512
  %529 = getelementptr half, ptr addrspace(1) %c, i32 %513
  %530 = getelementptr half, ptr addrspace(1) %c, i32 %514
  %531 = getelementptr half, ptr addrspace(1) %c, i32 %515
  %532 = getelementptr half, ptr addrspace(1) %c, i32 %516
  %533 = insertelement <2 x float> poison, float %180, i32 0
  %534 = insertelement <2 x float> %533, float %181, i32 1
  %535 = fptrunc <2 x float> %534 to <2 x half>
  %536 = insertelement <2 x float> poison, float %182, i32 0
  %537 = insertelement <2 x float> %536, float %183, i32 1
  %538 = fptrunc <2 x float> %537 to <2 x half>
  %539 = insertelement <2 x float> poison, float %184, i32 0
  %540 = insertelement <2 x float> %539, float %185, i32 1
  %541 = fptrunc <2 x float> %540 to <2 x half>
  %542 = insertelement <2 x float> poison, float %186, i32 0
  %543 = insertelement <2 x float> %542, float %187, i32 1
  %544 = fptrunc <2 x float> %543 to <2 x half>
  %545 = insertelement <2 x float> poison, float %188, i32 0
  %546 = insertelement <2 x float> %545, float %189, i32 1
  %547 = fptrunc <2 x float> %546 to <2 x half>
  %548 = insertelement <2 x float> poison, float %190, i32 0
  %549 = insertelement <2 x float> %548, float %191, i32 1
  %550 = fptrunc <2 x float> %549 to <2 x half>
  %551 = insertelement <2 x float> poison, float %192, i32 0
  %552 = insertelement <2 x float> %551, float %193, i32 1
  %553 = fptrunc <2 x float> %552 to <2 x half>
  %554 = insertelement <2 x float> poison, float %194, i32 0
  %555 = insertelement <2 x float> %554, float %195, i32 1
  %556 = fptrunc <2 x float> %555 to <2 x half>
  %557 = insertelement <2 x float> poison, float %196, i32 0
  %558 = insertelement <2 x float> %557, float %197, i32 1
  %559 = fptrunc <2 x float> %558 to <2 x half>
  %560 = insertelement <2 x float> poison, float %198, i32 0
  %561 = insertelement <2 x float> %560, float %199, i32 1
  %562 = fptrunc <2 x float> %561 to <2 x half>
  %563 = insertelement <2 x float> poison, float %200, i32 0
  %564 = insertelement <2 x float> %563, float %201, i32 1
  %565 = fptrunc <2 x float> %564 to <2 x half>
  %566 = insertelement <2 x float> poison, float %202, i32 0
  %567 = insertelement <2 x float> %566, float %203, i32 1
  %568 = fptrunc <2 x float> %567 to <2 x half>
  %569 = insertelement <2 x float> poison, float %204, i32 0
  %570 = insertelement <2 x float> %569, float %205, i32 1
  %571 = fptrunc <2 x float> %570 to <2 x half>
  %572 = insertelement <2 x float> poison, float %206, i32 0
  %573 = insertelement <2 x float> %572, float %207, i32 1
  %574 = fptrunc <2 x float> %573 to <2 x half>
  %575 = insertelement <2 x float> poison, float %208, i32 0
  %576 = insertelement <2 x float> %575, float %209, i32 1
  %577 = fptrunc <2 x float> %576 to <2 x half>
  %578 = insertelement <2 x float> poison, float %210, i32 0
  %579 = insertelement <2 x float> %578, float %211, i32 1
  %580 = fptrunc <2 x float> %579 to <2 x half>
  %581 = bitcast <2 x half> %535 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %517, i32 %581, i1 %489)
  %582 = bitcast <2 x half> %538 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %518, i32 %582, i1 %489)
  %583 = bitcast <2 x half> %541 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %519, i32 %583, i1 %490)
  %584 = bitcast <2 x half> %544 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %520, i32 %584, i1 %490)
  %585 = bitcast <2 x half> %547 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %521, i32 %585, i1 %491)
  %586 = bitcast <2 x half> %550 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %522, i32 %586, i1 %491)
  %587 = bitcast <2 x half> %553 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %523, i32 %587, i1 %492)
  %588 = bitcast <2 x half> %556 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %524, i32 %588, i1 %492)
  %589 = bitcast <2 x half> %559 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %525, i32 %589, i1 %493)
  %590 = bitcast <2 x half> %562 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %526, i32 %590, i1 %493)
  %591 = bitcast <2 x half> %565 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %527, i32 %591, i1 %494)
  %592 = bitcast <2 x half> %568 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %528, i32 %592, i1 %494)
  %593 = bitcast <2 x half> %571 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %529, i32 %593, i1 %495)
  %594 = bitcast <2 x half> %574 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %530, i32 %594, i1 %495)
  %595 = bitcast <2 x half> %577 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %531, i32 %595, i1 %496)
  %596 = bitcast <2 x half> %580 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %532, i32 %596, i1 %496)
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind }
