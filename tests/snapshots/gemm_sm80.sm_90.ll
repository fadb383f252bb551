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
  %180 = phi float [ 0.000000e+00, %loop.pre ], [ %564, %loop.body ]
  %181 = phi float [ 0.000000e+00, %loop.pre ], [ %565, %loop.body ]
  %182 = phi float [ 0.000000e+00, %loop.pre ], [ %566, %loop.body ]
  %183 = phi float [ 0.000000e+00, %loop.pre ], [ %567, %loop.body ]
  %184 = phi float [ 0.000000e+00, %loop.pre ], [ %569, %loop.body ]
  %185 = phi float [ 0.000000e+00, %loop.pre ], [ %570, %loop.body ]
  %186 = phi float [ 0.000000e+00, %loop.pre ], [ %571, %loop.body ]
  %187 = phi float [ 0.000000e+00, %loop.pre ], [ %572, %loop.body ]
  %188 = phi float [ 0.000000e+00, %loop.pre ], [ %574, %loop.body ]
  %189 = phi float [ 0.000000e+00, %loop.pre ], [ %575, %loop.body ]
  %190 = phi float [ 0.000000e+00, %loop.pre ], [ %576, %loop.body ]
  %191 = phi float [ 0.000000e+00, %loop.pre ], [ %577, %loop.body ]
  %192 = phi float [ 0.000000e+00, %loop.pre ], [ %579, %loop.body ]
  %193 = phi float [ 0.000000e+00, %loop.pre ], [ %580, %loop.body ]
  %194 = phi float [ 0.000000e+00, %loop.pre ], [ %581, %loop.body ]
  %195 = phi float [ 0.000000e+00, %loop.pre ], [ %582, %loop.body ]
  %196 = phi float [ 0.000000e+00, %loop.pre ], [ %584, %loop.body ]
  %197 = phi float [ 0.000000e+00, %loop.pre ], [ %585, %loop.body ]
  %198 = phi float [ 0.000000e+00, %loop.pre ], [ %586, %loop.body ]
  %199 = phi float [ 0.000000e+00, %loop.pre ], [ %587, %loop.body ]
  %200 = phi float [ 0.000000e+00, %loop.pre ], [ %589, %loop.body ]
  %201 = phi float [ 0.000000e+00, %loop.pre ], [ %590, %loop.body ]
  %202 = phi float [ 0.000000e+00, %loop.pre ], [ %591, %loop.body ]
  %203 = phi float [ 0.000000e+00, %loop.pre ], [ %592, %loop.body ]
  %204 = phi float [ 0.000000e+00, %loop.pre ], [ %594, %loop.body ]
  %205 = phi float [ 0.000000e+00, %loop.pre ], [ %595, %loop.body ]
  %206 = phi float [ 0.000000e+00, %loop.pre ], [ %596, %loop.body ]
  %207 = phi float [ 0.000000e+00, %loop.pre ], [ %597, %loop.body ]
  %208 = phi float [ 0.000000e+00, %loop.pre ], [ %599, %loop.body ]
  %209 = phi float [ 0.000000e+00, %loop.pre ], [ %600, %loop.body ]
  %210 = phi float [ 0.000000e+00, %loop.pre ], [ %601, %loop.body ]
  %211 = phi float [ 0.000000e+00, %loop.pre ], [ %602, %loop.body ]
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
  %564 = extractvalue { float, float, float, float } %563, 0
  %565 = extractvalue { float, float, float, float } %563, 1
  %566 = extractvalue { float, float, float, float } %563, 2
  %567 = extractvalue { float, float, float, float } %563, 3
  %568 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %495, i32 %498, float %529, float %530, float %531, float %532)
  %569 = extractvalue { float, float, float, float } %568, 0
  %570 = extractvalue { float, float, float, float } %568, 1
  %571 = extractvalue { float, float, float, float } %568, 2
  %572 = extractvalue { float, float, float, float } %568, 3
  %573 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %507, i32 %510, float %534, float %535, float %536, float %537)
  %574 = extractvalue { float, float, float, float } %573, 0
  %575 = extractvalue { float, float, float, float } %573, 1
  %576 = extractvalue { float, float, float, float } %573, 2
  %577 = extractvalue { float, float, float, float } %573, 3
  %578 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %441, i32 %444, i32 %447, i32 %450, i32 %519, i32 %522, float %539, float %540, float %541, float %542)
  %579 = extractvalue { float, float, float, float } %578, 0
  %580 = extractvalue { float, float, float, float } %578, 1
  %581 = extractvalue { float, float, float, float } %578, 2
  %582 = extractvalue { float, float, float, float } %578, 3
  %583 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %483, i32 %486, float %544, float %545, float %546, float %547)
  %584 = extractvalue { float, float, float, float } %583, 0
  %585 = extractvalue { float, float, float, float } %583, 1
  %586 = extractvalue { float, float, float, float } %583, 2
  %587 = extractvalue { float, float, float, float } %583, 3
  %588 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %495, i32 %498, float %549, float %550, float %551, float %552)
  %589 = extractvalue { float, float, float, float } %588, 0
  %590 = extractvalue { float, float, float, float } %588, 1
  %591 = extractvalue { float, float, float, float } %588, 2
  %592 = extractvalue { float, float, float, float } %588, 3
  %593 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %507, i32 %510, float %554, float %555, float %556, float %557)
  %594 = extractvalue { float, float, float, float } %593, 0
  %595 = extractvalue { float, float, float, float } %593, 1
  %596 = extractvalue { float, float, float, float } %593, 2
  %597 = extractvalue { float, float, float, float } %593, 3
  %598 = call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"(i32 %465, i32 %468, i32 %471, i32 %474, i32 %519, i32 %522, float %559, float %560, float %561, float %562)
  %599 = extractvalue { float, float, float, float } %598, 0
  %600 = extractvalue { float, float, float, float } %598, 1
  %601 = extractvalue { float, float, float, float } %598, 2
  %602 = extractvalue { float, float, float, float } %598, 3
  %iv.next = add i32 %iv, 32
  br label %loop

loop.exit:                                        ; preds = %loop
  call void asm sideeffect "cp.async.wait_group 0;", ""()
  %603 = or disjoint i32 %78, %97
  %604 = or disjoint i32 %603, 8
  %605 = or disjoint i32 %603, 32
  %606 = or disjoint i32 %603, 40
  %607 = or disjoint i32 %83, %98
  %608 = or disjoint i32 %607, 16
  %609 = or disjoint i32 %607, 32
  %610 = or disjoint i32 %607, 48
  %611 = icmp slt i32 %603, %m
  %612 = icmp slt i32 %605, %m
  %613 = icmp slt i32 %607, %n
  %614 = icmp slt i32 %608, %n
  %615 = icmp slt i32 %609, %n
  %616 = icmp slt i32 %610, %n
  %617 = and i1 %611, %613
  %618 = and i1 %611, %614
  %619 = and i1 %611, %615
  %620 = and i1 %611, %616
  %621 = and i1 %612, %613
  %622 = and i1 %612, %614
  %623 = and i1 %612, %615
  %624 = and i1 %612, %616
  %625 = mul i32 %603, %n
  %626 = mul i32 %604, %n
  %627 = mul i32 %605, %n
  %628 = mul i32 %606, %n
  %629 = add i32 %625, %607
  %630 = add i32 %626, %607
  %631 = add i32 %625, %608
  %632 = add i32 %626, %608
  %633 = add i32 %625, %609
  %634 = add i32 %626, %609
  %635 = add i32 %625, %610
  %636 = add i32 %626, %610
  %637 = add i32 %627, %607
  %638 = add i32 %628, %607
  %639 = add i32 %627, %608
  %640 = add i32 %628, %608
  %641 = add i32 %627, %609
  %642 = add i32 %628, %609
  %643 = add i32 %627, %610
  %644 = add i32 %628, %610
  %645 = getelementptr half, ptr addrspace(1) %c, i32 %629
  %646 = getelementptr half, ptr addrspace(1) %c, i32 %630
  %647 = getelementptr half, ptr addrspace(1) %c, i32 %631
  %648 = getelementptr half, ptr addrspace(1) %c, i32 %632
  %649 = getelementptr half, ptr addrspace(1) %c, i32 %633
  %650 = getelementptr half, ptr addrspace(1) %c, i32 %634
  %651 = getelementptr half, ptr addrspace(1) %c, i32 %635
  %652 = getelementptr half, ptr addrspace(1) %c, i32 %636
  %653 = getelementptr half, ptr addrspace(1) %c, i32 %637
  %654 = getelementptr half, ptr addrspace(1) %c, i32 %638
  %655 = getelementptr half, ptr addrspace(1) %c, i32 %639
  %656 = getelementptr half, ptr addrspace(1) %c, i32 %640
  %657 = getelementptr half, ptr addrspace(1) %c, i32 %641
  %658 = getelementptr half, ptr addrspace(1) %c, i32 %642
  %659 = getelementptr half, ptr addrspace(1) %c, i32 %643
  %660 = getelementptr half, ptr addrspace(1) %c, i32 %644
  %661 = insertelement <2 x float> poison, float %180, i32 0
  %662 = insertelement <2 x float> %661, float %181, i32 1
  %663 = fptrunc <2 x float> %662 to <2 x half>
  %664 = extractelement <2 x half> %663, i32 0
  %665 = extractelement <2 x half> %663, i32 1
  %666 = insertelement <2 x float> poison, float %182, i32 0
  %667 = insertelement <2 x float> %666, float %183, i32 1
  %668 = fptrunc <2 x float> %667 to <2 x half>
  %669 = extractelement <2 x half> %668, i32 0
  %670 = extractelement <2 x half> %668, i32 1
  %671 = insertelement <2 x float> poison, float %184, i32 0
  %672 = insertelement <2 x float> %671, float %185, i32 1
  %673 = fptrunc <2 x float> %672 to <2 x half>
  %674 = extractelement <2 x half> %673, i32 0
  %675 = extractelement <2 x half> %673, i32 1
  %676 = insertelement <2 x float> poison, float %186, i32 0
  %677 = insertelement <2 x float> %676, float %187, i32 1
  %678 = fptrunc <2 x float> %677 to <2 x half>
  %679 = extractelement <2 x half> %678, i32 0
  %680 = extractelement <2 x half> %678, i32 1
  %681 = insertelement <2 x float> poison, float %188, i32 0
  %682 = insertelement <2 x float> %681, float %189, i32 1
  %683 = fptrunc <2 x float> %682 to <2 x half>
  %684 = extractelement <2 x half> %683, i32 0
  %685 = extractelement <2 x half> %683, i32 1
  %686 = insertelement <2 x float> poison, float %190, i32 0
  %687 = insertelement <2 x float> %686, float %191, i32 1
  %688 = fptrunc <2 x float> %687 to <2 x half>
  %689 = extractelement <2 x half> %688, i32 0
  %690 = extractelement <2 x half> %688, i32 1
  %691 = insertelement <2 x float> poison, float %192, i32 0
  %692 = insertelement <2 x float> %691, float %193, i32 1
  %693 = fptrunc <2 x float> %692 to <2 x half>
  %694 = extractelement <2 x half> %693, i32 0
  %695 = extractelement <2 x half> %693, i32 1
  %696 = insertelement <2 x float> poison, float %194, i32 0
  %697 = insertelement <2 x float> %696, float %195, i32 1
  %698 = fptrunc <2 x float> %697 to <2 x half>
  %699 = extractelement <2 x half> %698, i32 0
  %700 = extractelement <2 x half> %698, i32 1
  %701 = insertelement <2 x float> poison, float %196, i32 0
  %702 = insertelement <2 x float> %701, float %197, i32 1
  %703 = fptrunc <2 x float> %702 to <2 x half>
  %704 = extractelement <2 x half> %703, i32 0
  %705 = extractelement <2 x half> %703, i32 1
  %706 = insertelement <2 x float> poison, float %198, i32 0
  %707 = insertelement <2 x float> %706, float %199, i32 1
  %708 = fptrunc <2 x float> %707 to <2 x half>
  %709 = extractelement <2 x half> %708, i32 0
  %710 = extractelement <2 x half> %708, i32 1
  %711 = insertelement <2 x float> poison, float %200, i32 0
  %712 = insertelement <2 x float> %711, float %201, i32 1
  %713 = fptrunc <2 x float> %712 to <2 x half>
  %714 = extractelement <2 x half> %713, i32 0
  %715 = extractelement <2 x half> %713, i32 1
  %716 = insertelement <2 x float> poison, float %202, i32 0
  %717 = insertelement <2 x float> %716, float %203, i32 1
  %718 = fptrunc <2 x float> %717 to <2 x half>
  %719 = extractelement <2 x half> %718, i32 0
  %720 = extractelement <2 x half> %718, i32 1
  %721 = insertelement <2 x float> poison, float %204, i32 0
  %722 = insertelement <2 x float> %721, float %205, i32 1
  %723 = fptrunc <2 x float> %722 to <2 x half>
  %724 = extractelement <2 x half> %723, i32 0
  %725 = extractelement <2 x half> %723, i32 1
  %726 = insertelement <2 x float> poison, float %206, i32 0
  %727 = insertelement <2 x float> %726, float %207, i32 1
  %728 = fptrunc <2 x float> %727 to <2 x half>
  %729 = extractelement <2 x half> %728, i32 0
  %730 = extractelement <2 x half> %728, i32 1
  %731 = insertelement <2 x float> poison, float %208, i32 0
  %732 = insertelement <2 x float> %731, float %209, i32 1
  %733 = fptrunc <2 x float> %732 to <2 x half>
  %734 = extractelement <2 x half> %733, i32 0
  %735 = extractelement <2 x half> %733, i32 1
  %736 = insertelement <2 x float> poison, float %210, i32 0
  %737 = insertelement <2 x float> %736, float %211, i32 1
  %738 = fptrunc <2 x float> %737 to <2 x half>
  %739 = extractelement <2 x half> %738, i32 0
  %740 = extractelement <2 x half> %738, i32 1
  %741 = insertelement <2 x half> poison, half %664, i32 0
  %742 = insertelement <2 x half> %741, half %665, i32 1
  %743 = bitcast <2 x half> %742 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %645, i32 %743, i1 %617)
  %744 = insertelement <2 x half> poison, half %669, i32 0
  %745 = insertelement <2 x half> %744, half %670, i32 1
  %746 = bitcast <2 x half> %745 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %646, i32 %746, i1 %617)
  %747 = insertelement <2 x half> poison, half %674, i32 0
  %748 = insertelement <2 x half> %747, half %675, i32 1
  %749 = bitcast <2 x half> %748 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %647, i32 %749, i1 %618)
  %750 = insertelement <2 x half> poison, half %679, i32 0
  %751 = insertelement <2 x half> %750, half %680, i32 1
  %752 = bitcast <2 x half> %751 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %648, i32 %752, i1 %618)
  %753 = insertelement <2 x half> poison, half %684, i32 0
  %754 = insertelement <2 x half> %753, half %685, i32 1
  %755 = bitcast <2 x half> %754 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %649, i32 %755, i1 %619)
  %756 = insertelement <2 x half> poison, half %689, i32 0
  %757 = insertelement <2 x half> %756, half %690, i32 1
  %758 = bitcast <2 x half> %757 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %650, i32 %758, i1 %619)
  %759 = insertelement <2 x half> poison, half %694, i32 0
  %760 = insertelement <2 x half> %759, half %695, i32 1
  %761 = bitcast <2 x half> %760 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %651, i32 %761, i1 %620)
  %762 = insertelement <2 x half> poison, half %699, i32 0
  %763 = insertelement <2 x half> %762, half %700, i32 1
  %764 = bitcast <2 x half> %763 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %652, i32 %764, i1 %620)
  %765 = insertelement <2 x half> poison, half %704, i32 0
  %766 = insertelement <2 x half> %765, half %705, i32 1
  %767 = bitcast <2 x half> %766 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %653, i32 %767, i1 %621)
  %768 = insertelement <2 x half> poison, half %709, i32 0
  %769 = insertelement <2 x half> %768, half %710, i32 1
  %770 = bitcast <2 x half> %769 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %654, i32 %770, i1 %621)
  %771 = insertelement <2 x half> poison, half %714, i32 0
  %772 = insertelement <2 x half> %771, half %715, i32 1
  %773 = bitcast <2 x half> %772 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %655, i32 %773, i1 %622)
  %774 = insertelement <2 x half> poison, half %719, i32 0
  %775 = insertelement <2 x half> %774, half %720, i32 1
  %776 = bitcast <2 x half> %775 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %656, i32 %776, i1 %622)
  %777 = insertelement <2 x half> poison, half %724, i32 0
  %778 = insertelement <2 x half> %777, half %725, i32 1
  %779 = bitcast <2 x half> %778 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %657, i32 %779, i1 %623)
  %780 = insertelement <2 x half> poison, half %729, i32 0
  %781 = insertelement <2 x half> %780, half %730, i32 1
  %782 = bitcast <2 x half> %781 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %658, i32 %782, i1 %623)
  %783 = insertelement <2 x half> poison, half %734, i32 0
  %784 = insertelement <2 x half> %783, half %735, i32 1
  %785 = bitcast <2 x half> %784 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %659, i32 %785, i1 %624)
  %786 = insertelement <2 x half> poison, half %739, i32 0
  %787 = insertelement <2 x half> %786, half %740, i32 1
  %788 = bitcast <2 x half> %787 to i32
  call void asm sideeffect "@$2 st.global.b32 [$0], {$1};", "l,r,b"(ptr addrspace(1) %660, i32 %788, i1 %624)
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
