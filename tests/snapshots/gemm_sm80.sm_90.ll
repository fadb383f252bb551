target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
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
  br label %loop.pre1

loop.pre:                                         ; No predecessors!
  br label %loop

loop:                                             ; preds = %loop.pre
  %iv = phi i32 [ 0, %loop.pre ]
  %180 = phi float [ 0.000000e+00, %loop.pre ]
  %181 = phi float [ 0.000000e+00, %loop.pre ]
  %182 = phi float [ 0.000000e+00, %loop.pre ]
  %183 = phi float [ 0.000000e+00, %loop.pre ]
  %184 = phi float [ 0.000000e+00, %loop.pre ]
  %185 = phi float [ 0.000000e+00, %loop.pre ]
  %186 = phi float [ 0.000000e+00, %loop.pre ]
  %187 = phi float [ 0.000000e+00, %loop.pre ]
  %188 = phi float [ 0.000000e+00, %loop.pre ]
  %189 = phi float [ 0.000000e+00, %loop.pre ]
  %190 = phi float [ 0.000000e+00, %loop.pre ]
  %191 = phi float [ 0.000000e+00, %loop.pre ]
  %192 = phi float [ 0.000000e+00, %loop.pre ]
  %193 = phi float [ 0.000000e+00, %loop.pre ]
  %194 = phi float [ 0.000000e+00, %loop.pre ]
  %195 = phi float [ 0.000000e+00, %loop.pre ]
  %196 = phi float [ 0.000000e+00, %loop.pre ]
  %197 = phi float [ 0.000000e+00, %loop.pre ]
  %198 = phi float [ 0.000000e+00, %loop.pre ]
  %199 = phi float [ 0.000000e+00, %loop.pre ]
  %200 = phi float [ 0.000000e+00, %loop.pre ]
  %201 = phi float [ 0.000000e+00, %loop.pre ]
  %202 = phi float [ 0.000000e+00, %loop.pre ]
  %203 = phi float [ 0.000000e+00, %loop.pre ]
  %204 = phi float [ 0.000000e+00, %loop.pre ]
  %205 = phi float [ 0.000000e+00, %loop.pre ]
  %206 = phi float [ 0.000000e+00, %loop.pre ]
  %207 = phi float [ 0.000000e+00, %loop.pre ]
  %208 = phi float [ 0.000000e+00, %loop.pre ]
  %209 = phi float [ 0.000000e+00, %loop.pre ]
  %210 = phi float [ 0.000000e+00, %loop.pre ]
  %211 = phi float [ 0.000000e+00, %loop.pre ]
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
  %279 = extractelement <2 x half> %278, i32 0
  %280 = extractelement <2 x half> %278, i32 1
  %281 = bitcast i32 %275 to <2 x half>
  %282 = extractelement <2 x half> %281, i32 0
  %283 = extractelement <2 x half> %281, i32 1
  %284 = bitcast i32 %276 to <2 x half>
  %285 = extractelement <2 x half> %284, i32 0
  %286 = extractelement <2 x half> %284, i32 1
  %287 = bitcast i32 %277 to <2 x half>
  %288 = extractelement <2 x half> %287, i32 0
  %289 = extractelement <2 x half> %287, i32 1
  %290 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %269
  %291 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %290)
  %292 = extractvalue { i32, i32, i32, i32 } %291, 0
  %293 = extractvalue { i32, i32, i32, i32 } %291, 1
  %294 = extractvalue { i32, i32, i32, i32 } %291, 2
  %295 = extractvalue { i32, i32, i32, i32 } %291, 3
  %296 = bitcast i32 %292 to <2 x half>
  %297 = extractelement <2 x half> %296, i32 0
  %298 = extractelement <2 x half> %296, i32 1
  %299 = bitcast i32 %293 to <2 x half>
  %300 = extractelement <2 x half> %299, i32 0
  %301 = extractelement <2 x half> %299, i32 1
  %302 = bitcast i32 %294 to <2 x half>
  %303 = extractelement <2 x half> %302, i32 0
  %304 = extractelement <2 x half> %302, i32 1
  %305 = bitcast i32 %295 to <2 x half>
  %306 = extractelement <2 x half> %305, i32 0
  %307 = extractelement <2 x half> %305, i32 1
  %308 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %270
  %309 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %308)
  %310 = extractvalue { i32, i32, i32, i32 } %309, 0
  %311 = extractvalue { i32, i32, i32, i32 } %309, 1
  %312 = extractvalue { i32, i32, i32, i32 } %309, 2
  %313 = extractvalue { i32, i32, i32, i32 } %309, 3
  %314 = bitcast i32 %310 to <2 x half>
  %315 = extractelement <2 x half> %314, i32 0
  %316 = extractelement <2 x half> %314, i32 1
  %317 = bitcast i32 %311 to <2 x half>
  %318 = extractelement <2 x half> %317, i32 0
  %319 = extractelement <2 x half> %317, i32 1
  %320 = bitcast i32 %312 to <2 x half>
  %321 = extractelement <2 x half> %320, i32 0
  %322 = extractelement <2 x half> %320, i32 1
  %323 = bitcast i32 %313 to <2 x half>
  %324 = extractelement <2 x half> %323, i32 0
  %325 = extractelement <2 x half> %323, i32 1
  %326 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %271
  %327 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %326)
  %328 = extractvalue { i32, i32, i32, i32 } %327, 0
  %329 = extractvalue { i32, i32, i32, i32 } %327, 1
  %330 = extractvalue { i32, i32, i32, i32 } %327, 2
  %331 = extractvalue { i32, i32, i32, i32 } %327, 3
  %332 = bitcast i32 %328 to <2 x half>
  %333 = extractelement <2 x half> %332, i32 0
  %334 = extractelement <2 x half> %332, i32 1
  %335 = bitcast i32 %329 to <2 x half>
  %336 = extractelement <2 x half> %335, i32 0
  %337 = extractelement <2 x half> %335, i32 1
  %338 = bitcast i32 %330 to <2 x half>
  %339 = extractelement <2 x half> %338, i32 0
  %340 = extractelement <2 x half> %338, i32 1
  %341 = bitcast i32 %331 to <2 x half>
  %342 = extractelement <2 x half> %341, i32 0
  %343 = extractelement <2 x half> %341, i32 1
  %344 = xor i32 %73, 16
  %345 = xor i32 %73, 32
  %346 = xor i32 %73, 48
  %347 = shl i32 %73, 1
  %348 = shl i32 %344, 1
  %349 = shl i32 %345, 1
  %350 = shl i32 %346, 1
  %351 = add i32 %347, %260
  %352 = add i32 %348, %260
  %353 = add i32 %349, %260
  %354 = add i32 %350, %260
  %355 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %351
  %356 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %355)
  %357 = extractvalue { i32, i32, i32, i32 } %356, 0
  %358 = extractvalue { i32, i32, i32, i32 } %356, 1
  %359 = extractvalue { i32, i32, i32, i32 } %356, 2
  %360 = extractvalue { i32, i32, i32, i32 } %356, 3
  %361 = bitcast i32 %357 to <2 x half>
  %362 = extractelement <2 x half> %361, i32 0
  %363 = extractelement <2 x half> %361, i32 1
  %364 = bitcast i32 %358 to <2 x half>
  %365 = extractelement <2 x half> %364, i32 0
  %366 = extractelement <2 x half> %364, i32 1
  %367 = bitcast i32 %359 to <2 x half>
  %368 = extractelement <2 x half> %367, i32 0
  %369 = extractelement <2 x half> %367, i32 1
  %370 = bitcast i32 %360 to <2 x half>
  %371 = extractelement <2 x half> %370, i32 0
  %372 = extractelement <2 x half> %370, i32 1
  %373 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %352
  %374 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %373)
  %375 = extractvalue { i32, i32, i32, i32 } %374, 0
  %376 = extractvalue { i32, i32, i32, i32 } %374, 1
  %377 = extractvalue { i32, i32, i32, i32 } %374, 2
  %378 = extractvalue { i32, i32, i32, i32 } %374, 3
  %379 = bitcast i32 %375 to <2 x half>
  %380 = extractelement <2 x half> %379, i32 0
  %381 = extractelement <2 x half> %379, i32 1
  %382 = bitcast i32 %376 to <2 x half>
  %383 = extractelement <2 x half> %382, i32 0
  %384 = extractelement <2 x half> %382, i32 1
  %385 = bitcast i32 %377 to <2 x half>
  %386 = extractelement <2 x half> %385, i32 0
  %387 = extractelement <2 x half> %385, i32 1
  %388 = bitcast i32 %378 to <2 x half>
  %389 = extractelement <2 x half> %388, i32 0
  %390 = extractelement <2 x half> %388, i32 1
  %391 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %353
  %392 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %391)
  %393 = extractvalue { i32, i32, i32, i32 } %392, 0
  %394 = extractvalue { i32, i32, i32, i32 } %392, 1
  %395 = extractvalue { i32, i32, i32, i32 } %392, 2
  %396 = extractvalue { i32, i32, i32, i32 } %392, 3
  %397 = bitcast i32 %393 to <2 x half>
  %398 = extractelement <2 x half> %397, i32 0
  %399 = extractelement <2 x half> %397, i32 1
  %400 = bitcast i32 %394 to <2 x half>
  %401 = extractelement <2 x half> %400, i32 0
  %402 = extractelement <2 x half> %400, i32 1
  %403 = bitcast i32 %395 to <2 x half>
  %404 = extractelement <2 x half> %403, i32 0
  %405 = extractelement <2 x half> %403, i32 1
  %406 = bitcast i32 %396 to <2 x half>
  %407 = extractelement <2 x half> %406, i32 0
  %408 = extractelement <2 x half> %406, i32 1
  %409 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %354
  %410 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %409)
  %411 = extractvalue { i32, i32, i32, i32 } %410, 0
  %412 = extractvalue { i32, i32, i32, i32 } %410, 1
  %413 = extractvalue { i32, i32, i32, i32 } %410, 2
  %414 = extractvalue { i32, i32, i32, i32 } %410, 3
  %415 = bitcast i32 %411 to <2 x half>
  %416 = extractelement <2 x half> %415, i32 0
  %417 = extractelement <2 x half> %415, i32 1
  %418 = bitcast i32 %412 to <2 x half>
  %419 = extractelement <2 x half> %418, i32 0
  %420 = extractelement <2 x half> %418, i32 1
  %421 = bitcast i32 %413 to <2 x half>
  %422 = extractelement <2 x half> %421, i32 0
  %423 = extractelement <2 x half> %421, i32 1
  %424 = bitcast i32 %414 to <2 x half>
  %425 = extractelement <2 x half> %424, i32 0
  %426 = extractelement <2 x half> %424, i32 1
  %427 = insertelement <2 x half> poison, half %279, i32 0
  %428 = insertelement <2 x half> %427, half %280, i32 1
  %429 = bitcast <2 x half> %428 to i32
  %430 = insertelement <2 x half> poison, half %282, i32 0
  %431 = insertelement <2 x half> %430, half %283, i32 1
  %432 = bitcast <2 x half> %431 to i32
  %433 = insertelement <2 x half> poison, half %285, i32 0
  %434 = insertelement <2 x half> %433, half %286, i32 1
  %435 = bitcast <2 x half> %434 to i32
  %436 = insertelement <2 x half> poison, half %288, i32 0
  %437 = insertelement <2 x half> %436, half %289, i32 1
  %438 = bitcast <2 x half> %437 to i32
  %439 = insertelement <2 x half> poison, half %297, i32 0
  %440 = insertelement <2 x half> %439, half %298, i32 1
  %441 = bitcast <2 x half> %440 to i32
  %442 = insertelement <2 x half> poison, half %300, i32 0
  %443 = insertelement <2 x half> %442, half %301, i32 1
  %444 = bitcast <2 x half> %443 to i32
  %445 = insertelement <2 x half> poison, half %303, i32 0
  %446 = insertelement <2 x half> %445, half %304, i32 1
  %447 = bitcast <2 x half> %446 to i32
  %448 = insertelement <2 x half> poison, half %306, i32 0
  %449 = insertelement <2 x half> %448, half %307, i32 1
  %450 = bitcast <2 x half> %449 to i32
  %451 = insertelement <2 x half> poison, half %315, i32 0
  %452 = insertelement <2 x half> %451, half %316, i32 1
  %453 = bitcast <2 x half> %452 to i32
  %454 = insertelement <2 x half> poison, half %318, i32 0
  %455 = insertelement <2 x half> %454, half %319, i32 1
  %456 = bitcast <2 x half> %455 to i32
  %457 = insertelement <2 x half> poison, half %321, i32 0
  %458 = insertelement <2 x half> %457, half %322, i32 1
  %459 = bitcast <2 x half> %458 to i32
  %460 = insertelement <2 x half> poison, half %324, i32 0
  %461 = insertelement <2 x half> %460, half %325, i32 1
  %462 = bitcast <2 x half> %461 to i32
  %463 = insertelement <2 x half> poison, half %333, i32 0
  %464 = insertelement <2 x half> %463, half %334, i32 1
  %465 = bitcast <2 x half> %464 to i32
  %466 = insertelement <2 x half> poison, half %336, i32 0
  %467 = insertelement <2 x half> %466, half %337, i32 1
  %468 = bitcast <2 x half> %467 to i32
  %469 = insertelement <2 x half> poison, half %339, i32 0
  %470 = insertelement <2 x half> %469, half %340, i32 1
  %471 = bitcast <2 x half> %470 to i32
  %472 = insertelement <2 x half> poison, half %342, i32 0
  %473 = insertelement <2 x half> %472, half %343, i32 1
  %474 = bitcast <2 x half> %473 to i32
  %475 = insertelement <2 x half> poison, half %362, i32 0
  %476 = insertelement <2 x half> %475, half %363, i32 1
  %477 = bitcast <2 x half> %476 to i32
  %478 = insertelement <2 x half> poison, half %365, i32 0
  %479 = insertelement <2 x half> %478, half %366, i32 1
  %480 = bitcast <2 x half> %479 to i32
  %481 = insertelement <2 x half> poison, half %368, i32 0
  %482 = insertelement <2 x half> %481, half %369, i32 1
  %483 = bitcast <2 x half> %482 to i32
  %484 = insertelement <2 x half> poison, half %371, i32 0
  %485 = insertelement <2 x half> %484, half %372, i32 1
  %486 = bitcast <2 x half> %485 to i32
  %487 = insertelement <2 x half> poison, half %380, i32 0
  %488 = insertelement <2 x half> %487, half %381, i32 1
  %489 = bitcast <2 x half> %488 to i32
  %490 = insertelement <2 x half> poison, half %383, i32 0
  %491 = insertelement <2 x half> %490, half %384, i32 1
  %492 = bitcast <2 x half> %491 to i32
  %493 = insertelement <2 x half> poison, half %386, i32 0
  %494 = insertelement <2 x half> %493, half %387, i32 1
  %495 = bitcast <2 x half> %494 to i32
  %496 = insertelement <2 x half> poison, half %389, i32 0
  %497 = insertelement <2 x half> %496, half %390, i32 1
  %498 = bitcast <2 x half> %497 to i32
  %499 = insertelement <2 x half> poison, half %398, i32 0
  %500 = insertelement <2 x half> %499, half %399, i32 1
  %501 = bitcast <2 x half> %500 to i32
  %502 = insertelement <2 x half> poison, half %401, i32 0
  %503 = insertelement <2 x half> %502, half %402, i32 1
  %504 = bitcast <2 x half> %503 to i32
  %505 = insertelement <2 x half> poison, half %404, i32 0
  %506 = insertelement <2 x half> %505, half %405, i32 1
  %507 = bitcast <2 x half> %506 to i32
  %508 = insertelement <2 x half> poison, half %407, i32 0
  %509 = insertelement <2 x half> %508, half %408, i32 1
  %510 = bitcast <2 x half> %509 to i32
  %511 = insertelement <2 x half> poison, half %416, i32 0
  %512 = insertelement <2 x half> %511, half %417, i32 1
  %513 = bitcast <2 x half> %512 to i32
  %514 = insertelement <2 x half> poison, half %419, i32 0
  %515 = insertelement <2 x half> %514, half %420, i32 1
  %516 = bitcast <2 x half> %515 to i32
  %517 = insertelement <2 x half> poison, half %422, i32 0
  %518 = insertelement <2 x half> %517, half %423, i32 1
  %519 = bitcast <2 x half> %518 to i32
  %520 = insertelement <2 x half> poison, half %425, i32 0
  %521 = insertelement <2 x half> %520, half %426, i32 1
  %522 = bitcast <2 x half> %521 to i32
  %523 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %429, i32 %432, i32 %435, i32 %438, i32 %477, i32 %480, float %180, float %181, float %182, float %183)
  %524 = extractvalue { float, float, float, float } %523, 0
  %525 = extractvalue { float, float, float, float } %523, 1
  %526 = extractvalue { float, float, float, float } %523, 2
  %527 = extractvalue { float, float, float, float } %523, 3
  %528 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %429, i32 %432, i32 %435, i32 %438, i32 %489, i32 %492, float %184, float %185, float %186, float %187)
  %529 = extractvalue { float, float, float, float } %528, 0
  %530 = extractvalue { float, float, float, float } %528, 1
  %531 = extractvalue { float, float, float, float } %528, 2
  %532 = extractvalue { float, float, float, float } %528, 3
  %533 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %429, i32 %432, i32 %435, i32 %438, i32 %501, i32 %504, float %188, float %189, float %190, float %191)
  %534 = extractvalue { float, float, float, float } %533, 0
  %535 = extractvalue { float, float, float, float } %533, 1
  %536 = extractvalue { float, float, float, float } %533, 2
  %537 = extractvalue { float, float, float, float } %533, 3
  %538 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %429, i32 %432, i32 %435, i32 %438, i32 %513, i32 %516, float %192, float %193, float %194, float %195)
  %539 = extractvalue { float, float, float, float } %538, 0
  %540 = extractvalue { float, float, float, float } %538, 1
  %541 = extractvalue { float, float, float, float } %538, 2
  %542 = extractvalue { float, float, float, float } %538, 3
  %543 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %453, i32 %456, i32 %459, i32 %462, i32 %477, i32 %480, float %196, float %197, float %198, float %199)
  %544 = extractvalue { float, float, float, float } %543, 0
  %545 = extractvalue { float, float, float, float } %543, 1
  %546 = extractvalue { float, float, float, float } %543, 2
  %547 = extractvalue { float, float, float, float } %543, 3
  %548 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %453, i32 %456, i32 %459, i32 %462, i32 %489, i32 %492, float %200, float %201, float %202, float %203)
  %549 = extractvalue { float, float, float, float } %548, 0
  %550 = extractvalue { float, float, float, float } %548, 1
  %551 = extractvalue { float, float, float, float } %548, 2
  %552 = extractvalue { float, float, float, float } %548, 3
  %553 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %453, i32 %456, i32 %459, i32 %462, i32 %501, i32 %504, float %204, float %205, float %206, float %207)
  %554 = extractvalue { float, float, float, float } %553, 0
  %555 = extractvalue { float, float, float, float } %553, 1
  %556 = extractvalue { float, float, float, float } %553, 2
  %557 = extractvalue { float, float, float, float } %553, 3
  %558 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %453, i32 %456, i32 %459, i32 %462, i32 %513, i32 %516, float %208, float %209, float %210, float %211)
  %559 = extractvalue { float, float, float, float } %558, 0
  %560 = extractvalue { float, float, float, float } %558, 1
  %561 = extractvalue { float, float, float, float } %558, 2
  %562 = extractvalue { float, float, float, float } %558, 3
  %563 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %483, i32 %486, float %524, float %525, float %526, float %527)
  %564 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %495, i32 %498, float %529, float %530, float %531, float %532)
  %565 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %507, i32 %510, float %534, float %535, float %536, float %537)
  %566 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %519, i32 %522, float %539, float %540, float %541, float %542)
  %567 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %483, i32 %486, float %544, float %545, float %546, float %547)
  %568 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %495, i32 %498, float %549, float %550, float %551, float %552)
  %569 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %507, i32 %510, float %554, float %555, float %556, float %557)
  %570 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %519, i32 %522, float %559, float %560, float %561, float %562)
  unreachable

loop.exit:                                        ; preds = %loop
  unreachable

loop.pre1:                                        ; preds = %body
  br label %loop2

loop2:                                            ; preds = %loop.body3, %loop.pre1
  %iv5 = phi i32 [ 0, %loop.pre1 ], [ %iv.next, %loop.body3 ]
  %571 = phi float [ 0.000000e+00, %loop.pre1 ], [ %955, %loop.body3 ]
  %572 = phi float [ 0.000000e+00, %loop.pre1 ], [ %956, %loop.body3 ]
  %573 = phi float [ 0.000000e+00, %loop.pre1 ], [ %957, %loop.body3 ]
  %574 = phi float [ 0.000000e+00, %loop.pre1 ], [ %958, %loop.body3 ]
  %575 = phi float [ 0.000000e+00, %loop.pre1 ], [ %960, %loop.body3 ]
  %576 = phi float [ 0.000000e+00, %loop.pre1 ], [ %961, %loop.body3 ]
  %577 = phi float [ 0.000000e+00, %loop.pre1 ], [ %962, %loop.body3 ]
  %578 = phi float [ 0.000000e+00, %loop.pre1 ], [ %963, %loop.body3 ]
  %579 = phi float [ 0.000000e+00, %loop.pre1 ], [ %965, %loop.body3 ]
  %580 = phi float [ 0.000000e+00, %loop.pre1 ], [ %966, %loop.body3 ]
  %581 = phi float [ 0.000000e+00, %loop.pre1 ], [ %967, %loop.body3 ]
  %582 = phi float [ 0.000000e+00, %loop.pre1 ], [ %968, %loop.body3 ]
  %583 = phi float [ 0.000000e+00, %loop.pre1 ], [ %970, %loop.body3 ]
  %584 = phi float [ 0.000000e+00, %loop.pre1 ], [ %971, %loop.body3 ]
  %585 = phi float [ 0.000000e+00, %loop.pre1 ], [ %972, %loop.body3 ]
  %586 = phi float [ 0.000000e+00, %loop.pre1 ], [ %973, %loop.body3 ]
  %587 = phi float [ 0.000000e+00, %loop.pre1 ], [ %975, %loop.body3 ]
  %588 = phi float [ 0.000000e+00, %loop.pre1 ], [ %976, %loop.body3 ]
  %589 = phi float [ 0.000000e+00, %loop.pre1 ], [ %977, %loop.body3 ]
  %590 = phi float [ 0.000000e+00, %loop.pre1 ], [ %978, %loop.body3 ]
  %591 = phi float [ 0.000000e+00, %loop.pre1 ], [ %980, %loop.body3 ]
  %592 = phi float [ 0.000000e+00, %loop.pre1 ], [ %981, %loop.body3 ]
  %593 = phi float [ 0.000000e+00, %loop.pre1 ], [ %982, %loop.body3 ]
  %594 = phi float [ 0.000000e+00, %loop.pre1 ], [ %983, %loop.body3 ]
  %595 = phi float [ 0.000000e+00, %loop.pre1 ], [ %985, %loop.body3 ]
  %596 = phi float [ 0.000000e+00, %loop.pre1 ], [ %986, %loop.body3 ]
  %597 = phi float [ 0.000000e+00, %loop.pre1 ], [ %987, %loop.body3 ]
  %598 = phi float [ 0.000000e+00, %loop.pre1 ], [ %988, %loop.body3 ]
  %599 = phi float [ 0.000000e+00, %loop.pre1 ], [ %990, %loop.body3 ]
  %600 = phi float [ 0.000000e+00, %loop.pre1 ], [ %991, %loop.body3 ]
  %601 = phi float [ 0.000000e+00, %loop.pre1 ], [ %992, %loop.body3 ]
  %602 = phi float [ 0.000000e+00, %loop.pre1 ], [ %993, %loop.body3 ]
  %603 = icmp slt i32 %iv5, %k
  br i1 %603, label %loop.body3, label %loop.exit4

loop.body3:                                       ; preds = %loop2
  %604 = sdiv i32 %iv5, 32
  %605 = srem i32 %604, 3
  call void asm sideeffect "cp.async.wait_group 1;", ""()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %606 = add i32 %604, 2
  %607 = srem i32 %606, 3
  %608 = add i32 %iv5, 64
  %609 = mul i32 %607, 4096
  %610 = add i32 0, %609
  %611 = mul i32 %607, 4096
  %612 = add i32 12288, %611
  %613 = sub i32 %k, %608
  %614 = icmp slt i32 %4, %613
  %615 = and i1 %101, %614
  %616 = and i1 %102, %614
  %617 = add i32 %105, %608
  %618 = add i32 %106, %608
  %619 = getelementptr half, ptr addrspace(1) %a, i32 %617
  %620 = getelementptr half, ptr addrspace(1) %a, i32 %618
  %621 = or disjoint i32 %20, 1024
  %622 = shl i32 %20, 1
  %623 = shl i32 %621, 1
  %624 = add i32 %622, %610
  %625 = add i32 %623, %610
  %626 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %624
  %627 = select i1 %615, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %626, ptr addrspace(1) %619, i32 %627)
  %628 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %625
  %629 = select i1 %616, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %628, ptr addrspace(1) %620, i32 %629)
  %630 = icmp slt i32 %5, %613
  %631 = icmp slt i32 %107, %613
  %632 = and i1 %630, %109
  %633 = and i1 %631, %109
  %634 = mul i32 %608, %n
  %635 = add i32 %112, %634
  %636 = add i32 %113, %634
  %637 = getelementptr half, ptr addrspace(1) %b, i32 %635
  %638 = getelementptr half, ptr addrspace(1) %b, i32 %636
  %639 = or disjoint i32 %37, 1024
  %640 = shl i32 %37, 1
  %641 = shl i32 %639, 1
  %642 = add i32 %640, %612
  %643 = add i32 %641, %612
  %644 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %642
  %645 = select i1 %632, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %644, ptr addrspace(1) %637, i32 %645)
  %646 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %643
  %647 = select i1 %633, i32 16, i32 0
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"(ptr addrspace(3) %646, ptr addrspace(1) %638, i32 %647)
  call void asm sideeffect "cp.async.commit_group;", ""()
  %648 = mul i32 %605, 4096
  %649 = add i32 0, %648
  %650 = mul i32 %605, 4096
  %651 = add i32 12288, %650
  %652 = xor i32 %56, 16
  %653 = or disjoint i32 %56, 1024
  %654 = xor i32 %56, 1040
  %655 = shl i32 %56, 1
  %656 = shl i32 %652, 1
  %657 = shl i32 %653, 1
  %658 = shl i32 %654, 1
  %659 = add i32 %655, %649
  %660 = add i32 %656, %649
  %661 = add i32 %657, %649
  %662 = add i32 %658, %649
  %663 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %659
  %664 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %663)
  %665 = extractvalue { i32, i32, i32, i32 } %664, 0
  %666 = extractvalue { i32, i32, i32, i32 } %664, 1
  %667 = extractvalue { i32, i32, i32, i32 } %664, 2
  %668 = extractvalue { i32, i32, i32, i32 } %664, 3
  %669 = bitcast i32 %665 to <2 x half>
  %670 = extractelement <2 x half> %669, i32 0
  %671 = extractelement <2 x half> %669, i32 1
  %672 = bitcast i32 %666 to <2 x half>
  %673 = extractelement <2 x half> %672, i32 0
  %674 = extractelement <2 x half> %672, i32 1
  %675 = bitcast i32 %667 to <2 x half>
  %676 = extractelement <2 x half> %675, i32 0
  %677 = extractelement <2 x half> %675, i32 1
  %678 = bitcast i32 %668 to <2 x half>
  %679 = extractelement <2 x half> %678, i32 0
  %680 = extractelement <2 x half> %678, i32 1
  %681 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %660
  %682 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %681)
  %683 = extractvalue { i32, i32, i32, i32 } %682, 0
  %684 = extractvalue { i32, i32, i32, i32 } %682, 1
  %685 = extractvalue { i32, i32, i32, i32 } %682, 2
  %686 = extractvalue { i32, i32, i32, i32 } %682, 3
  %687 = bitcast i32 %683 to <2 x half>
  %688 = extractelement <2 x half> %687, i32 0
  %689 = extractelement <2 x half> %687, i32 1
  %690 = bitcast i32 %684 to <2 x half>
  %691 = extractelement <2 x half> %690, i32 0
  %692 = extractelement <2 x half> %690, i32 1
  %693 = bitcast i32 %685 to <2 x half>
  %694 = extractelement <2 x half> %693, i32 0
  %695 = extractelement <2 x half> %693, i32 1
  %696 = bitcast i32 %686 to <2 x half>
  %697 = extractelement <2 x half> %696, i32 0
  %698 = extractelement <2 x half> %696, i32 1
  %699 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %661
  %700 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %699)
  %701 = extractvalue { i32, i32, i32, i32 } %700, 0
  %702 = extractvalue { i32, i32, i32, i32 } %700, 1
  %703 = extractvalue { i32, i32, i32, i32 } %700, 2
  %704 = extractvalue { i32, i32, i32, i32 } %700, 3
  %705 = bitcast i32 %701 to <2 x half>
  %706 = extractelement <2 x half> %705, i32 0
  %707 = extractelement <2 x half> %705, i32 1
  %708 = bitcast i32 %702 to <2 x half>
  %709 = extractelement <2 x half> %708, i32 0
  %710 = extractelement <2 x half> %708, i32 1
  %711 = bitcast i32 %703 to <2 x half>
  %712 = extractelement <2 x half> %711, i32 0
  %713 = extractelement <2 x half> %711, i32 1
  %714 = bitcast i32 %704 to <2 x half>
  %715 = extractelement <2 x half> %714, i32 0
  %716 = extractelement <2 x half> %714, i32 1
  %717 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %662
  %718 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %717)
  %719 = extractvalue { i32, i32, i32, i32 } %718, 0
  %720 = extractvalue { i32, i32, i32, i32 } %718, 1
  %721 = extractvalue { i32, i32, i32, i32 } %718, 2
  %722 = extractvalue { i32, i32, i32, i32 } %718, 3
  %723 = bitcast i32 %719 to <2 x half>
  %724 = extractelement <2 x half> %723, i32 0
  %725 = extractelement <2 x half> %723, i32 1
  %726 = bitcast i32 %720 to <2 x half>
  %727 = extractelement <2 x half> %726, i32 0
  %728 = extractelement <2 x half> %726, i32 1
  %729 = bitcast i32 %721 to <2 x half>
  %730 = extractelement <2 x half> %729, i32 0
  %731 = extractelement <2 x half> %729, i32 1
  %732 = bitcast i32 %722 to <2 x half>
  %733 = extractelement <2 x half> %732, i32 0
  %734 = extractelement <2 x half> %732, i32 1
  %735 = xor i32 %73, 16
  %736 = xor i32 %73, 32
  %737 = xor i32 %73, 48
  %738 = shl i32 %73, 1
  %739 = shl i32 %735, 1
  %740 = shl i32 %736, 1
  %741 = shl i32 %737, 1
  %742 = add i32 %738, %651
  %743 = add i32 %739, %651
  %744 = add i32 %740, %651
  %745 = add i32 %741, %651
  %746 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %742
  %747 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %746)
  %748 = extractvalue { i32, i32, i32, i32 } %747, 0
  %749 = extractvalue { i32, i32, i32, i32 } %747, 1
  %750 = extractvalue { i32, i32, i32, i32 } %747, 2
  %751 = extractvalue { i32, i32, i32, i32 } %747, 3
  %752 = bitcast i32 %748 to <2 x half>
  %753 = extractelement <2 x half> %752, i32 0
  %754 = extractelement <2 x half> %752, i32 1
  %755 = bitcast i32 %749 to <2 x half>
  %756 = extractelement <2 x half> %755, i32 0
  %757 = extractelement <2 x half> %755, i32 1
  %758 = bitcast i32 %750 to <2 x half>
  %759 = extractelement <2 x half> %758, i32 0
  %760 = extractelement <2 x half> %758, i32 1
  %761 = bitcast i32 %751 to <2 x half>
  %762 = extractelement <2 x half> %761, i32 0
  %763 = extractelement <2 x half> %761, i32 1
  %764 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %743
  %765 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %764)
  %766 = extractvalue { i32, i32, i32, i32 } %765, 0
  %767 = extractvalue { i32, i32, i32, i32 } %765, 1
  %768 = extractvalue { i32, i32, i32, i32 } %765, 2
  %769 = extractvalue { i32, i32, i32, i32 } %765, 3
  %770 = bitcast i32 %766 to <2 x half>
  %771 = extractelement <2 x half> %770, i32 0
  %772 = extractelement <2 x half> %770, i32 1
  %773 = bitcast i32 %767 to <2 x half>
  %774 = extractelement <2 x half> %773, i32 0
  %775 = extractelement <2 x half> %773, i32 1
  %776 = bitcast i32 %768 to <2 x half>
  %777 = extractelement <2 x half> %776, i32 0
  %778 = extractelement <2 x half> %776, i32 1
  %779 = bitcast i32 %769 to <2 x half>
  %780 = extractelement <2 x half> %779, i32 0
  %781 = extractelement <2 x half> %779, i32 1
  %782 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %744
  %783 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %782)
  %784 = extractvalue { i32, i32, i32, i32 } %783, 0
  %785 = extractvalue { i32, i32, i32, i32 } %783, 1
  %786 = extractvalue { i32, i32, i32, i32 } %783, 2
  %787 = extractvalue { i32, i32, i32, i32 } %783, 3
  %788 = bitcast i32 %784 to <2 x half>
  %789 = extractelement <2 x half> %788, i32 0
  %790 = extractelement <2 x half> %788, i32 1
  %791 = bitcast i32 %785 to <2 x half>
  %792 = extractelement <2 x half> %791, i32 0
  %793 = extractelement <2 x half> %791, i32 1
  %794 = bitcast i32 %786 to <2 x half>
  %795 = extractelement <2 x half> %794, i32 0
  %796 = extractelement <2 x half> %794, i32 1
  %797 = bitcast i32 %787 to <2 x half>
  %798 = extractelement <2 x half> %797, i32 0
  %799 = extractelement <2 x half> %797, i32 1
  %800 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %745
  %801 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr addrspace(3) %800)
  %802 = extractvalue { i32, i32, i32, i32 } %801, 0
  %803 = extractvalue { i32, i32, i32, i32 } %801, 1
  %804 = extractvalue { i32, i32, i32, i32 } %801, 2
  %805 = extractvalue { i32, i32, i32, i32 } %801, 3
  %806 = bitcast i32 %802 to <2 x half>
  %807 = extractelement <2 x half> %806, i32 0
  %808 = extractelement <2 x half> %806, i32 1
  %809 = bitcast i32 %803 to <2 x half>
  %810 = extractelement <2 x half> %809, i32 0
  %811 = extractelement <2 x half> %809, i32 1
  %812 = bitcast i32 %804 to <2 x half>
  %813 = extractelement <2 x half> %812, i32 0
  %814 = extractelement <2 x half> %812, i32 1
  %815 = bitcast i32 %805 to <2 x half>
  %816 = extractelement <2 x half> %815, i32 0
  %817 = extractelement <2 x half> %815, i32 1
  %818 = insertelement <2 x half> poison, half %670, i32 0
  %819 = insertelement <2 x half> %818, half %671, i32 1
  %820 = bitcast <2 x half> %819 to i32
  %821 = insertelement <2 x half> poison, half %673, i32 0
  %822 = insertelement <2 x half> %821, half %674, i32 1
  %823 = bitcast <2 x half> %822 to i32
  %824 = insertelement <2 x half> poison, half %676, i32 0
  %825 = insertelement <2 x half> %824, half %677, i32 1
  %826 = bitcast <2 x half> %825 to i32
  %827 = insertelement <2 x half> poison, half %679, i32 0
  %828 = insertelement <2 x half> %827, half %680, i32 1
  %829 = bitcast <2 x half> %828 to i32
  %830 = insertelement <2 x half> poison, half %688, i32 0
  %831 = insertelement <2 x half> %830, half %689, i32 1
  %832 = bitcast <2 x half> %831 to i32
  %833 = insertelement <2 x half> poison, half %691, i32 0
  %834 = insertelement <2 x half> %833, half %692, i32 1
  %835 = bitcast <2 x half> %834 to i32
  %836 = insertelement <2 x half> poison, half %694, i32 0
  %837 = insertelement <2 x half> %836, half %695, i32 1
  %838 = bitcast <2 x half> %837 to i32
  %839 = insertelement <2 x half> poison, half %697, i32 0
  %840 = insertelement <2 x half> %839, half %698, i32 1
  %841 = bitcast <2 x half> %840 to i32
  %842 = insertelement <2 x half> poison, half %706, i32 0
  %843 = insertelement <2 x half> %842, half %707, i32 1
  %844 = bitcast <2 x half> %843 to i32
  %845 = insertelement <2 x half> poison, half %709, i32 0
  %846 = insertelement <2 x half> %845, half %710, i32 1
  %847 = bitcast <2 x half> %846 to i32
  %848 = insertelement <2 x half> poison, half %712, i32 0
  %849 = insertelement <2 x half> %848, half %713, i32 1
  %850 = bitcast <2 x half> %849 to i32
  %851 = insertelement <2 x half> poison, half %715, i32 0
  %852 = insertelement <2 x half> %851, half %716, i32 1
  %853 = bitcast <2 x half> %852 to i32
  %854 = insertelement <2 x half> poison, half %724, i32 0
  %855 = insertelement <2 x half> %854, half %725, i32 1
  %856 = bitcast <2 x half> %855 to i32
  %857 = insertelement <2 x half> poison, half %727, i32 0
  %858 = insertelement <2 x half> %857, half %728, i32 1
  %859 = bitcast <2 x half> %858 to i32
  %860 = insertelement <2 x half> poison, half %730, i32 0
  %861 = insertelement <2 x half> %860, half %731, i32 1
  %862 = bitcast <2 x half> %861 to i32
  %863 = insertelement <2 x half> poison, half %733, i32 0
  %864 = insertelement <2 x half> %863, half %734, i32 1
  %865 = bitcast <2 x half> %864 to i32
  %866 = insertelement <2 x half> poison, half %753, i32 0
  %867 = insertelement <2 x half> %866, half %754, i32 1
  %868 = bitcast <2 x half> %867 to i32
  %869 = insertelement <2 x half> poison, half %756, i32 0
  %870 = insertelement <2 x half> %869, half %757, i32 1
  %871 = bitcast <2 x half> %870 to i32
  %872 = insertelement <2 x half> poison, half %759, i32 0
  %873 = insertelement <2 x half> %872, half %760, i32 1
  %874 = bitcast <2 x half> %873 to i32
  %875 = insertelement <2 x half> poison, half %762, i32 0
  %876 = insertelement <2 x half> %875, half %763, i32 1
  %877 = bitcast <2 x half> %876 to i32
  %878 = insertelement <2 x half> poison, half %771, i32 0
  %879 = insertelement <2 x half> %878, half %772, i32 1
  %880 = bitcast <2 x half> %879 to i32
  %881 = insertelement <2 x half> poison, half %774, i32 0
  %882 = insertelement <2 x half> %881, half %775, i32 1
  %883 = bitcast <2 x half> %882 to i32
  %884 = insertelement <2 x half> poison, half %777, i32 0
  %885 = insertelement <2 x half> %884, half %778, i32 1
  %886 = bitcast <2 x half> %885 to i32
  %887 = insertelement <2 x half> poison, half %780, i32 0
  %888 = insertelement <2 x half> %887, half %781, i32 1
  %889 = bitcast <2 x half> %888 to i32
  %890 = insertelement <2 x half> poison, half %789, i32 0
  %891 = insertelement <2 x half> %890, half %790, i32 1
  %892 = bitcast <2 x half> %891 to i32
  %893 = insertelement <2 x half> poison, half %792, i32 0
  %894 = insertelement <2 x half> %893, half %793, i32 1
  %895 = bitcast <2 x half> %894 to i32
  %896 = insertelement <2 x half> poison, half %795, i32 0
  %897 = insertelement <2 x half> %896, half %796, i32 1
  %898 = bitcast <2 x half> %897 to i32
  %899 = insertelement <2 x half> poison, half %798, i32 0
  %900 = insertelement <2 x half> %899, half %799, i32 1
  %901 = bitcast <2 x half> %900 to i32
  %902 = insertelement <2 x half> poison, half %807, i32 0
  %903 = insertelement <2 x half> %902, half %808, i32 1
  %904 = bitcast <2 x half> %903 to i32
  %905 = insertelement <2 x half> poison, half %810, i32 0
  %906 = insertelement <2 x half> %905, half %811, i32 1
  %907 = bitcast <2 x half> %906 to i32
  %908 = insertelement <2 x half> poison, half %813, i32 0
  %909 = insertelement <2 x half> %908, half %814, i32 1
  %910 = bitcast <2 x half> %909 to i32
  %911 = insertelement <2 x half> poison, half %816, i32 0
  %912 = insertelement <2 x half> %911, half %817, i32 1
  %913 = bitcast <2 x half> %912 to i32
  %914 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %820, i32 %823, i32 %826, i32 %829, i32 %868, i32 %871, float %571, float %572, float %573, float %574)
  %915 = extractvalue { float, float, float, float } %914, 0
  %916 = extractvalue { float, float, float, float } %914, 1
  %917 = extractvalue { float, float, float, float } %914, 2
  %918 = extractvalue { float, float, float, float } %914, 3
  %919 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %820, i32 %823, i32 %826, i32 %829, i32 %880, i32 %883, float %575, float %576, float %577, float %578)
  %920 = extractvalue { float, float, float, float } %919, 0
  %921 = extractvalue { float, float, float, float } %919, 1
  %922 = extractvalue { float, float, float, float } %919, 2
  %923 = extractvalue { float, float, float, float } %919, 3
  %924 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %820, i32 %823, i32 %826, i32 %829, i32 %892, i32 %895, float %579, float %580, float %581, float %582)
  %925 = extractvalue { float, float, float, float } %924, 0
  %926 = extractvalue { float, float, float, float } %924, 1
  %927 = extractvalue { float, float, float, float } %924, 2
  %928 = extractvalue { float, float, float, float } %924, 3
  %929 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %820, i32 %823, i32 %826, i32 %829, i32 %904, i32 %907, float %583, float %584, float %585, float %586)
  %930 = extractvalue { float, float, float, float } %929, 0
  %931 = extractvalue { float, float, float, float } %929, 1
  %932 = extractvalue { float, float, float, float } %929, 2
  %933 = extractvalue { float, float, float, float } %929, 3
  %934 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %844, i32 %847, i32 %850, i32 %853, i32 %868, i32 %871, float %587, float %588, float %589, float %590)
  %935 = extractvalue { float, float, float, float } %934, 0
  %936 = extractvalue { float, float, float, float } %934, 1
  %937 = extractvalue { float, float, float, float } %934, 2
  %938 = extractvalue { float, float, float, float } %934, 3
  %939 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %844, i32 %847, i32 %850, i32 %853, i32 %880, i32 %883, float %591, float %592, float %593, float %594)
  %940 = extractvalue { float, float, float, float } %939, 0
  %941 = extractvalue { float, float, float, float } %939, 1
  %942 = extractvalue { float, float, float, float } %939, 2
  %943 = extractvalue { float, float, float, float } %939, 3
  %944 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %844, i32 %847, i32 %850, i32 %853, i32 %892, i32 %895, float %595, float %596, float %597, float %598)
  %945 = extractvalue { float, float, float, float } %944, 0
  %946 = extractvalue { float, float, float, float } %944, 1
  %947 = extractvalue { float, float, float, float } %944, 2
  %948 = extractvalue { float, float, float, float } %944, 3
  %949 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %844, i32 %847, i32 %850, i32 %853, i32 %904, i32 %907, float %599, float %600, float %601, float %602)
  %950 = extractvalue { float, float, float, float } %949, 0
  %951 = extractvalue { float, float, float, float } %949, 1
  %952 = extractvalue { float, float, float, float } %949, 2
  %953 = extractvalue { float, float, float, float } %949, 3
  %954 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %832, i32 %835, i32 %838, i32 %841, i32 %874, i32 %877, float %915, float %916, float %917, float %918)
  %955 = extractvalue { float, float, float, float } %954, 0
  %956 = extractvalue { float, float, float, float } %954, 1
  %957 = extractvalue { float, float, float, float } %954, 2
  %958 = extractvalue { float, float, float, float } %954, 3
  %959 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %832, i32 %835, i32 %838, i32 %841, i32 %886, i32 %889, float %920, float %921, float %922, float %923)
  %960 = extractvalue { float, float, float, float } %959, 0
  %961 = extractvalue { float, float, float, float } %959, 1
  %962 = extractvalue { float, float, float, float } %959, 2
  %963 = extractvalue { float, float, float, float } %959, 3
  %964 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %832, i32 %835, i32 %838, i32 %841, i32 %898, i32 %901, float %925, float %926, float %927, float %928)
  %965 = extractvalue { float, float, float, float } %964, 0
  %966 = extractvalue { float, float, float, float } %964, 1
  %967 = extractvalue { float, float, float, float } %964, 2
  %968 = extractvalue { float, float, float, float } %964, 3
  %969 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %832, i32 %835, i32 %838, i32 %841, i32 %910, i32 %913, float %930, float %931, float %932, float %933)
  %970 = extractvalue { float, float, float, float } %969, 0
  %971 = extractvalue { float, float, float, float } %969, 1
  %972 = extractvalue { float, float, float, float } %969, 2
  %973 = extractvalue { float, float, float, float } %969, 3
  %974 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %856, i32 %859, i32 %862, i32 %865, i32 %874, i32 %877, float %935, float %936, float %937, float %938)
  %975 = extractvalue { float, float, float, float } %974, 0
  %976 = extractvalue { float, float, float, float } %974, 1
  %977 = extractvalue { float, float, float, float } %974, 2
  %978 = extractvalue { float, float, float, float } %974, 3
  %979 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %856, i32 %859, i32 %862, i32 %865, i32 %886, i32 %889, float %940, float %941, float %942, float %943)
  %980 = extractvalue { float, float, float, float } %979, 0
  %981 = extractvalue { float, float, float, float } %979, 1
  %982 = extractvalue { float, float, float, float } %979, 2
  %983 = extractvalue { float, float, float, float } %979, 3
  %984 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %856, i32 %859, i32 %862, i32 %865, i32 %898, i32 %901, float %945, float %946, float %947, float %948)
  %985 = extractvalue { float, float, float, float } %984, 0
  %986 = extractvalue { float, float, float, float } %984, 1
  %987 = extractvalue { float, float, float, float } %984, 2
  %988 = extractvalue { float, float, float, float } %984, 3
  %989 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %856, i32 %859, i32 %862, i32 %865, i32 %910, i32 %913, float %950, float %951, float %952, float %953)
  %990 = extractvalue { float, float, float, float } %989, 0
  %991 = extractvalue { float, float, float, float } %989, 1
  %992 = extractvalue { float, float, float, float } %989, 2
  %993 = extractvalue { float, float, float, float } %989, 3
  %iv.next = add i32 %iv5, 32
  br label %loop2

loop.exit4:                                       ; preds = %loop2
  call void asm sideeffect "cp.async.wait_group 0;", ""()
  %994 = or disjoint i32 %78, %97
  %995 = or disjoint i32 %994, 8
  %996 = or disjoint i32 %994, 32
  %997 = or disjoint i32 %994, 40
  %998 = or disjoint i32 %83, %98
  %999 = or disjoint i32 %998, 16
  %1000 = or disjoint i32 %998, 32
  %1001 = or disjoint i32 %998, 48
  %1002 = icmp slt i32 %994, %m
  %1003 = icmp slt i32 %996, %m
  %1004 = icmp slt i32 %998, %n
  %1005 = icmp slt i32 %999, %n
  %1006 = icmp slt i32 %1000, %n
  %1007 = icmp slt i32 %1001, %n
  %1008 = and i1 %1002, %1004
  %1009 = and i1 %1002, %1005
  %1010 = and i1 %1002, %1006
  %1011 = and i1 %1002, %1007
  %1012 = and i1 %1003, %1004
  %1013 = and i1 %1003, %1005
  %1014 = and i1 %1003, %1006
  %1015 = and i1 %1003, %1007
  %1016 = mul i32 %994, %n
  %1017 = mul i32 %995, %n
  %1018 = mul i32 %996, %n
  %1019 = mul i32 %997, %n
  %1020 = add i32 %1016, %998
  %1021 = add i32 %1017, %998
  %1022 = add i32 %1016, %999
  %1023 = add i32 %1017, %999
  %1024 = add i32 %1016, %1000
  %1025 = add i32 %1017, %1000
  %1026 = add i32 %1016, %1001
  %1027 = add i32 %1017, %1001
  %1028 = add i32 %1018, %998
  %1029 = add i32 %1019, %998
  %1030 = add i32 %1018, %999
  %1031 = add i32 %1019, %999
  %1032 = add i32 %1018, %1000
  %1033 = add i32 %1019, %1000
  %1034 = add i32 %1018, %1001
  %1035 = add i32 %1019, %1001
  %1036 = getelementptr half, ptr addrspace(1) %c, i32 %1020
  %1037 = getelementptr half, ptr addrspace(1) %c, i32 %1021
  %1038 = getelementptr half, ptr addrspace(1) %c, i32 %1022
  %1039 = getelementptr half, ptr addrspace(1) %c, i32 %1023
  %1040 = getelementptr half, ptr addrspace(1) %c, i32 %1024
  %1041 = getelementptr half, ptr addrspace(1) %c, i32 %1025
  %1042 = getelementptr half, ptr addrspace(1) %c, i32 %1026
  %1043 = getelementptr half, ptr addrspace(1) %c, i32 %1027
  %1044 = getelementptr half, ptr addrspace(1) %c, i32 %1028
  %1045 = getelementptr half, ptr addrspace(1) %c, i32 %1029
  %1046 = getelementptr half, ptr addrspace(1) %c, i32 %1030
  %1047 = getelementptr half, ptr addrspace(1) %c, i32 %1031
  %1048 = getelementptr half, ptr addrspace(1) %c, i32 %1032
  %1049 = getelementptr half, ptr addrspace(1) %c, i32 %1033
  %1050 = getelementptr half, ptr addrspace(1) %c, i32 %1034
  %1051 = getelementptr half, ptr addrspace(1) %c, i32 %1035
  %1052 = insertelement <2 x float> poison, float %571, i32 0
  %1053 = insertelement <2 x float> %1052, float %572, i32 1
  %1054 = fptrunc <2 x float> %1053 to <2 x half>
  %1055 = extractelement <2 x half> %1054, i32 0
  %1056 = extractelement <2 x half> %1054, i32 1
  %1057 = insertelement <2 x float> poison, float %573, i32 0
  %1058 = insertelement <2 x float> %1057, float %574, i32 1
  %1059 = fptrunc <2 x float> %1058 to <2 x half>
  %1060 = extractelement <2 x half> %1059, i32 0
  %1061 = extractelement <2 x half> %1059, i32 1
  %1062 = insertelement <2 x float> poison, float %575, i32 0
  %1063 = insertelement <2 x float> %1062, float %576, i32 1
  %1064 = fptrunc <2 x float> %1063 to <2 x half>
  %1065 = extractelement <2 x half> %1064, i32 0
  %1066 = extractelement <2 x half> %1064, i32 1
  %1067 = insertelement <2 x float> poison, float %577, i32 0
  %1068 = insertelement <2 x float> %1067, float %578, i32 1
  %1069 = fptrunc <2 x float> %1068 to <2 x half>
  %1070 = extractelement <2 x half> %1069, i32 0
  %1071 = extractelement <2 x half> %1069, i32 1
  %1072 = insertelement <2 x float> poison, float %579, i32 0
  %1073 = insertelement <2 x float> %1072, float %580, i32 1
  %1074 = fptrunc <2 x float> %1073 to <2 x half>
  %1075 = extractelement <2 x half> %1074, i32 0
  %1076 = extractelement <2 x half> %1074, i32 1
  %1077 = insertelement <2 x float> poison, float %581, i32 0
  %1078 = insertelement <2 x float> %1077, float %582, i32 1
  %1079 = fptrunc <2 x float> %1078 to <2 x half>
  %1080 = extractelement <2 x half> %1079, i32 0
  %1081 = extractelement <2 x half> %1079, i32 1
  %1082 = insertelement <2 x float> poison, float %583, i32 0
  %1083 = insertelement <2 x float> %1082, float %584, i32 1
  %1084 = fptrunc <2 x float> %1083 to <2 x half>
  %1085 = extractelement <2 x half> %1084, i32 0
  %1086 = extractelement <2 x half> %1084, i32 1
  %1087 = insertelement <2 x float> poison, float %585, i32 0
  %1088 = insertelement <2 x float> %1087, float %586, i32 1
  %1089 = fptrunc <2 x float> %1088 to <2 x half>
  %1090 = extractelement <2 x half> %1089, i32 0
  %1091 = extractelement <2 x half> %1089, i32 1
  %1092 = insertelement <2 x float> poison, float %587, i32 0
  %1093 = insertelement <2 x float> %1092, float %588, i32 1
  %1094 = fptrunc <2 x float> %1093 to <2 x half>
  %1095 = extractelement <2 x half> %1094, i32 0
  %1096 = extractelement <2 x half> %1094, i32 1
  %1097 = insertelement <2 x float> poison, float %589, i32 0
  %1098 = insertelement <2 x float> %1097, float %590, i32 1
  %1099 = fptrunc <2 x float> %1098 to <2 x half>
  %1100 = extractelement <2 x half> %1099, i32 0
  %1101 = extractelement <2 x half> %1099, i32 1
  %1102 = insertelement <2 x float> poison, float %591, i32 0
  %1103 = insertelement <2 x float> %1102, float %592, i32 1
  %1104 = fptrunc <2 x float> %1103 to <2 x half>
  %1105 = extractelement <2 x half> %1104, i32 0
  %1106 = extractelement <2 x half> %1104, i32 1
  %1107 = insertelement <2 x float> poison, float %593, i32 0
  %1108 = insertelement <2 x float> %1107, float %594, i32 1
  %1109 = fptrunc <2 x float> %1108 to <2 x half>
  %1110 = extractelement <2 x half> %1109, i32 0
  %1111 = extractelement <2 x half> %1109, i32 1
  %1112 = insertelement <2 x float> poison, float %595, i32 0
  %1113 = insertelement <2 x float> %1112, float %596, i32 1
  %1114 = fptrunc <2 x float> %1113 to <2 x half>
  %1115 = extractelement <2 x half> %1114, i32 0
  %1116 = extractelement <2 x half> %1114, i32 1
  %1117 = insertelement <2 x float> poison, float %597, i32 0
  %1118 = insertelement <2 x float> %1117, float %598, i32 1
  %1119 = fptrunc <2 x float> %1118 to <2 x half>
  %1120 = extractelement <2 x half> %1119, i32 0
  %1121 = extractelement <2 x half> %1119, i32 1
  %1122 = insertelement <2 x float> poison, float %599, i32 0
  %1123 = insertelement <2 x float> %1122, float %600, i32 1
  %1124 = fptrunc <2 x float> %1123 to <2 x half>
  %1125 = extractelement <2 x half> %1124, i32 0
  %1126 = extractelement <2 x half> %1124, i32 1
  %1127 = insertelement <2 x float> poison, float %601, i32 0
  %1128 = insertelement <2 x float> %1127, float %602, i32 1
  %1129 = fptrunc <2 x float> %1128 to <2 x half>
  %1130 = extractelement <2 x half> %1129, i32 0
  %1131 = extractelement <2 x half> %1129, i32 1
  %1132 = insertelement <2 x half> poison, half %1055, i32 0
  %1133 = insertelement <2 x half> %1132, half %1056, i32 1
  %1134 = bitcast <2 x half> %1133 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1036, i32 %1134, i1 %1008)
  %1135 = insertelement <2 x half> poison, half %1060, i32 0
  %1136 = insertelement <2 x half> %1135, half %1061, i32 1
  %1137 = bitcast <2 x half> %1136 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1037, i32 %1137, i1 %1008)
  %1138 = insertelement <2 x half> poison, half %1065, i32 0
  %1139 = insertelement <2 x half> %1138, half %1066, i32 1
  %1140 = bitcast <2 x half> %1139 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1038, i32 %1140, i1 %1009)
  %1141 = insertelement <2 x half> poison, half %1070, i32 0
  %1142 = insertelement <2 x half> %1141, half %1071, i32 1
  %1143 = bitcast <2 x half> %1142 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1039, i32 %1143, i1 %1009)
  %1144 = insertelement <2 x half> poison, half %1075, i32 0
  %1145 = insertelement <2 x half> %1144, half %1076, i32 1
  %1146 = bitcast <2 x half> %1145 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1040, i32 %1146, i1 %1010)
  %1147 = insertelement <2 x half> poison, half %1080, i32 0
  %1148 = insertelement <2 x half> %1147, half %1081, i32 1
  %1149 = bitcast <2 x half> %1148 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1041, i32 %1149, i1 %1010)
  %1150 = insertelement <2 x half> poison, half %1085, i32 0
  %1151 = insertelement <2 x half> %1150, half %1086, i32 1
  %1152 = bitcast <2 x half> %1151 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1042, i32 %1152, i1 %1011)
  %1153 = insertelement <2 x half> poison, half %1090, i32 0
  %1154 = insertelement <2 x half> %1153, half %1091, i32 1
  %1155 = bitcast <2 x half> %1154 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1043, i32 %1155, i1 %1011)
  %1156 = insertelement <2 x half> poison, half %1095, i32 0
  %1157 = insertelement <2 x half> %1156, half %1096, i32 1
  %1158 = bitcast <2 x half> %1157 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1044, i32 %1158, i1 %1012)
  %1159 = insertelement <2 x half> poison, half %1100, i32 0
  %1160 = insertelement <2 x half> %1159, half %1101, i32 1
  %1161 = bitcast <2 x half> %1160 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1045, i32 %1161, i1 %1012)
  %1162 = insertelement <2 x half> poison, half %1105, i32 0
  %1163 = insertelement <2 x half> %1162, half %1106, i32 1
  %1164 = bitcast <2 x half> %1163 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1046, i32 %1164, i1 %1013)
  %1165 = insertelement <2 x half> poison, half %1110, i32 0
  %1166 = insertelement <2 x half> %1165, half %1111, i32 1
  %1167 = bitcast <2 x half> %1166 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1047, i32 %1167, i1 %1013)
  %1168 = insertelement <2 x half> poison, half %1115, i32 0
  %1169 = insertelement <2 x half> %1168, half %1116, i32 1
  %1170 = bitcast <2 x half> %1169 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1048, i32 %1170, i1 %1014)
  %1171 = insertelement <2 x half> poison, half %1120, i32 0
  %1172 = insertelement <2 x half> %1171, half %1121, i32 1
  %1173 = bitcast <2 x half> %1172 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1049, i32 %1173, i1 %1014)
  %1174 = insertelement <2 x half> poison, half %1125, i32 0
  %1175 = insertelement <2 x half> %1174, half %1126, i32 1
  %1176 = bitcast <2 x half> %1175 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1050, i32 %1176, i1 %1015)
  %1177 = insertelement <2 x half> poison, half %1130, i32 0
  %1178 = insertelement <2 x half> %1177, half %1131, i32 1
  %1179 = bitcast <2 x half> %1178 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %1051, i32 %1179, i1 %1015)
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
