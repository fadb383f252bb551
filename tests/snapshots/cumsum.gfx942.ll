target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @cumsum(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %2 = lshr i32 %1, 5
  %3 = and i32 %1, 31
  %4 = shl i32 %3, 2
  %lane = and i32 %1, 63
  %5 = lshr i32 %lane, 0
  %6 = and i32 %5, 31
  %7 = or i32 %lane, 31
  %lane15 = and i32 %1, 63
  br label %body

body:                                             ; preds = %prologue
  %8 = shl i32 %0, 5
  %9 = or disjoint i32 %2, %8
  %10 = or disjoint i32 %9, 8
  %11 = or disjoint i32 %9, 16
  %12 = or disjoint i32 %9, 24
  %13 = icmp slt i32 %9, %m
  %14 = icmp slt i32 %10, %m
  %15 = icmp slt i32 %11, %m
  %16 = icmp slt i32 %12, %m
  %17 = mul i32 %9, %n
  %18 = mul i32 %10, %n
  %19 = mul i32 %11, %n
  %20 = mul i32 %12, %n
  br label %loop.pre

loop.pre:                                         ; preds = %body
  br label %loop

loop:                                             ; preds = %join14, %loop.pre
  %iv = phi i32 [ 0, %loop.pre ], [ %iv.next, %join14 ]
  %21 = phi float [ 0.000000e+00, %loop.pre ], [ %513, %join14 ]
  %22 = phi float [ 0.000000e+00, %loop.pre ], [ %514, %join14 ]
  %23 = phi float [ 0.000000e+00, %loop.pre ], [ %515, %join14 ]
  %24 = phi float [ 0.000000e+00, %loop.pre ], [ %516, %join14 ]
  %25 = phi float [ 0.000000e+00, %loop.pre ], [ %517, %join14 ]
  %26 = phi float [ 0.000000e+00, %loop.pre ], [ %518, %join14 ]
  %27 = phi float [ 0.000000e+00, %loop.pre ], [ %519, %join14 ]
  %28 = phi float [ 0.000000e+00, %loop.pre ], [ %520, %join14 ]
  %29 = phi float [ 0.000000e+00, %loop.pre ], [ %521, %join14 ]
  %30 = phi float [ 0.000000e+00, %loop.pre ], [ %522, %join14 ]
  %31 = phi float [ 0.000000e+00, %loop.pre ], [ %523, %join14 ]
  %32 = phi float [ 0.000000e+00, %loop.pre ], [ %524, %join14 ]
  %33 = phi float [ 0.000000e+00, %loop.pre ], [ %525, %join14 ]
  %34 = phi float [ 0.000000e+00, %loop.pre ], [ %526, %join14 ]
  %35 = phi float [ 0.000000e+00, %loop.pre ], [ %527, %join14 ]
  %36 = phi float [ 0.000000e+00, %loop.pre ], [ %528, %join14 ]
  %37 = icmp slt i32 %iv, %n
  br i1 %37, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %38 = add i32 %4, %iv
  %39 = icmp slt i32 %38, %n
  %40 = and i1 %13, %39
  %41 = and i1 %14, %39
  %42 = and i1 %15, %39
  %43 = and i1 %16, %39
  %44 = add i32 %17, %38
  %45 = add i32 %18, %38
  %46 = add i32 %19, %38
  %47 = add i32 %20, %38
  %48 = getelementptr float, ptr addrspace(1) %x, i32 %44
  %49 = getelementptr float, ptr addrspace(1) %x, i32 %45
  %50 = getelementptr float, ptr addrspace(1) %x, i32 %46
  %51 = getelementptr float, ptr addrspace(1) %x, i32 %47
  br i1 %40, label %masked, label %join

loop.exit:                                        ; preds = %loop
  ret void

masked:                                           ; preds = %loop.body
  %52 = load <4 x float>, ptr addrspace(1) %48, align 16
  %53 = extractelement <4 x float> %52, i32 0
  %54 = extractelement <4 x float> %52, i32 1
  %55 = extractelement <4 x float> %52, i32 2
  %56 = extractelement <4 x float> %52, i32 3
  %57 = insertelement <4 x float> poison, float %53, i32 0
  %58 = insertelement <4 x float> %57, float %54, i32 1
  %59 = insertelement <4 x float> %58, float %55, i32 2
  %60 = insertelement <4 x float> %59, float %56, i32 3
  br label %join

join:                                             ; preds = %masked, %loop.body
  %61 = phi <4 x float> [ %60, %masked ], [ zeroinitializer, %loop.body ]
  %62 = extractelement <4 x float> %61, i32 0
  %63 = extractelement <4 x float> %61, i32 1
  %64 = extractelement <4 x float> %61, i32 2
  %65 = extractelement <4 x float> %61, i32 3
  br i1 %41, label %masked1, label %join2

masked1:                                          ; preds = %join
  %66 = load <4 x float>, ptr addrspace(1) %49, align 16
  %67 = extractelement <4 x float> %66, i32 0
  %68 = extractelement <4 x float> %66, i32 1
  %69 = extractelement <4 x float> %66, i32 2
  %70 = extractelement <4 x float> %66, i32 3
  %71 = insertelement <4 x float> poison, float %67, i32 0
  %72 = insertelement <4 x float> %71, float %68, i32 1
  %73 = insertelement <4 x float> %72, float %69, i32 2
  %74 = insertelement <4 x float> %73, float %70, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %75 = phi <4 x float> [ %74, %masked1 ], [ zeroinitializer, %join ]
  %76 = extractelement <4 x float> %75, i32 0
  %77 = extractelement <4 x float> %75, i32 1
  %78 = extractelement <4 x float> %75, i32 2
  %79 = extractelement <4 x float> %75, i32 3
  br i1 %42, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %80 = load <4 x float>, ptr addrspace(1) %50, align 16
  %81 = extractelement <4 x float> %80, i32 0
  %82 = extractelement <4 x float> %80, i32 1
  %83 = extractelement <4 x float> %80, i32 2
  %84 = extractelement <4 x float> %80, i32 3
  %85 = insertelement <4 x float> poison, float %81, i32 0
  %86 = insertelement <4 x float> %85, float %82, i32 1
  %87 = insertelement <4 x float> %86, float %83, i32 2
  %88 = insertelement <4 x float> %87, float %84, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %89 = phi <4 x float> [ %88, %masked3 ], [ zeroinitializer, %join2 ]
  %90 = extractelement <4 x float> %89, i32 0
  %91 = extractelement <4 x float> %89, i32 1
  %92 = extractelement <4 x float> %89, i32 2
  %93 = extractelement <4 x float> %89, i32 3
  br i1 %43, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %94 = load <4 x float>, ptr addrspace(1) %51, align 16
  %95 = extractelement <4 x float> %94, i32 0
  %96 = extractelement <4 x float> %94, i32 1
  %97 = extractelement <4 x float> %94, i32 2
  %98 = extractelement <4 x float> %94, i32 3
  %99 = insertelement <4 x float> poison, float %95, i32 0
  %100 = insertelement <4 x float> %99, float %96, i32 1
  %101 = insertelement <4 x float> %100, float %97, i32 2
  %102 = insertelement <4 x float> %101, float %98, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %103 = phi <4 x float> [ %102, %masked5 ], [ zeroinitializer, %join4 ]
  %104 = extractelement <4 x float> %103, i32 0
  %105 = extractelement <4 x float> %103, i32 1
  %106 = extractelement <4 x float> %103, i32 2
  %107 = extractelement <4 x float> %103, i32 3
  %108 = fadd float %62, %63
  %109 = fadd float %108, %64
  %110 = fadd float %109, %65
  %111 = fadd float %76, %77
  %112 = fadd float %111, %78
  %113 = fadd float %112, %79
  %114 = fadd float %90, %91
  %115 = fadd float %114, %92
  %116 = fadd float %115, %93
  %117 = fadd float %104, %105
  %118 = fadd float %117, %106
  %119 = fadd float %118, %107
  %120 = icmp ne i32 %6, 0
  %121 = bitcast float %110 to i32
  %122 = sub i32 %lane, 1
  %123 = shl i32 %122, 2
  %124 = call i32 @llvm.amdgcn.ds.bpermute(i32 %123, i32 %121)
  %125 = bitcast i32 %124 to float
  %126 = fadd float %125, %110
  %127 = icmp uge i32 %6, 1
  %128 = select i1 %127, float %126, float %110
  %129 = bitcast float %128 to i32
  %130 = sub i32 %lane, 2
  %131 = shl i32 %130, 2
  %132 = call i32 @llvm.amdgcn.ds.bpermute(i32 %131, i32 %129)
  %133 = bitcast i32 %132 to float
  %134 = fadd float %133, %128
  %135 = icmp uge i32 %6, 2
  %136 = select i1 %135, float %134, float %128
  %137 = bitcast float %136 to i32
  %138 = sub i32 %lane, 4
  %139 = shl i32 %138, 2
  %140 = call i32 @llvm.amdgcn.ds.bpermute(i32 %139, i32 %137)
  %141 = bitcast i32 %140 to float
  %142 = fadd float %141, %136
  %143 = icmp uge i32 %6, 4
  %144 = select i1 %143, float %142, float %136
  %145 = bitcast float %144 to i32
  %146 = sub i32 %lane, 8
  %147 = shl i32 %146, 2
  %148 = call i32 @llvm.amdgcn.ds.bpermute(i32 %147, i32 %145)
  %149 = bitcast i32 %148 to float
  %150 = fadd float %149, %144
  %151 = icmp uge i32 %6, 8
  %152 = select i1 %151, float %150, float %144
  %153 = bitcast float %152 to i32
  %154 = sub i32 %lane, 16
  %155 = shl i32 %154, 2
  %156 = call i32 @llvm.amdgcn.ds.bpermute(i32 %155, i32 %153)
  %157 = bitcast i32 %156 to float
  %158 = fadd float %157, %152
  %159 = icmp uge i32 %6, 16
  %160 = select i1 %159, float %158, float %152
  %161 = bitcast float %160 to i32
  %162 = sub i32 %lane, 1
  %163 = shl i32 %162, 2
  %164 = call i32 @llvm.amdgcn.ds.bpermute(i32 %163, i32 %161)
  %165 = bitcast i32 %164 to float
  %166 = bitcast float %160 to i32
  %167 = shl i32 %7, 2
  %168 = call i32 @llvm.amdgcn.ds.bpermute(i32 %167, i32 %166)
  %169 = bitcast float %113 to i32
  %170 = sub i32 %lane, 1
  %171 = shl i32 %170, 2
  %172 = call i32 @llvm.amdgcn.ds.bpermute(i32 %171, i32 %169)
  %173 = bitcast i32 %172 to float
  %174 = fadd float %173, %113
  %175 = icmp uge i32 %6, 1
  %176 = select i1 %175, float %174, float %113
  %177 = bitcast float %176 to i32
  %178 = sub i32 %lane, 2
  %179 = shl i32 %178, 2
  %180 = call i32 @llvm.amdgcn.ds.bpermute(i32 %179, i32 %177)
  %181 = bitcast i32 %180 to float
  %182 = fadd float %181, %176
  %183 = icmp uge i32 %6, 2
  %184 = select i1 %183, float %182, float %176
  %185 = bitcast float %184 to i32
  %186 = sub i32 %lane, 4
  %187 = shl i32 %186, 2
  %188 = call i32 @llvm.amdgcn.ds.bpermute(i32 %187, i32 %185)
  %189 = bitcast i32 %188 to float
  %190 = fadd float %189, %184
  %191 = icmp uge i32 %6, 4
  %192 = select i1 %191, float %190, float %184
  %193 = bitcast float %192 to i32
  %194 = sub i32 %lane, 8
  %195 = shl i32 %194, 2
  %196 = call i32 @llvm.amdgcn.ds.bpermute(i32 %195, i32 %193)
  %197 = bitcast i32 %196 to float
  %198 = fadd float %197, %192
  %199 = icmp uge i32 %6, 8
  %200 = select i1 %199, float %198, float %192
  %201 = bitcast float %200 to i32
  %202 = sub i32 %lane, 16
  %203 = shl i32 %202, 2
  %204 = call i32 @llvm.amdgcn.ds.bpermute(i32 %203, i32 %201)
  %205 = bitcast i32 %204 to float
  %206 = fadd float %205, %200
  %207 = icmp uge i32 %6, 16
  %208 = select i1 %207, float %206, float %200
  %209 = bitcast float %208 to i32
  %210 = sub i32 %lane, 1
  %211 = shl i32 %210, 2
  %212 = call i32 @llvm.amdgcn.ds.bpermute(i32 %211, i32 %209)
  %213 = bitcast i32 %212 to float
  %214 = bitcast float %208 to i32
  %215 = shl i32 %7, 2
  %216 = call i32 @llvm.amdgcn.ds.bpermute(i32 %215, i32 %214)
  %217 = bitcast float %116 to i32
  %218 = sub i32 %lane, 1
  %219 = shl i32 %218, 2
  %220 = call i32 @llvm.amdgcn.ds.bpermute(i32 %219, i32 %217)
  %221 = bitcast i32 %220 to float
  %222 = fadd float %221, %116
  %223 = icmp uge i32 %6, 1
  %224 = select i1 %223, float %222, float %116
  %225 = bitcast float %224 to i32
  %226 = sub i32 %lane, 2
  %227 = shl i32 %226, 2
  %228 = call i32 @llvm.amdgcn.ds.bpermute(i32 %227, i32 %225)
  %229 = bitcast i32 %228 to float
  %230 = fadd float %229, %224
  %231 = icmp uge i32 %6, 2
  %232 = select i1 %231, float %230, float %224
  %233 = bitcast float %232 to i32
  %234 = sub i32 %lane, 4
  %235 = shl i32 %234, 2
  %236 = call i32 @llvm.amdgcn.ds.bpermute(i32 %235, i32 %233)
  %237 = bitcast i32 %236 to float
  %238 = fadd float %237, %232
  %239 = icmp uge i32 %6, 4
  %240 = select i1 %239, float %238, float %232
  %241 = bitcast float %240 to i32
  %242 = sub i32 %lane, 8
  %243 = shl i32 %242, 2
  %244 = call i32 @llvm.amdgcn.ds.bpermute(i32 %243, i32 %241)
  %245 = bitcast i32 %244 to float
  %246 = fadd float %245, %240
  %247 = icmp uge i32 %6, 8
  %248 = select i1 %247, float %246, float %240
  %249 = bitcast float %248 to i32
  %250 = sub i32 %lane, 16
  %251 = shl i32 %250, 2
  %252 = call i32 @llvm.amdgcn.ds.bpermute(i32 %251, i32 %249)
  %253 = bitcast i32 %252 to float
  %254 = fadd float %253, %248
  %255 = icmp uge i32 %6, 16
  %256 = select i1 %255, float %254, float %248
  %257 = bitcast float %256 to i32
  %258 = sub i32 %lane, 1
  %259 = shl i32 %258, 2
  %260 = call i32 @llvm.amdgcn.ds.bpermute(i32 %259, i32 %257)
  %261 = bitcast i32 %260 to float
  %262 = bitcast float %256 to i32
  %263 = shl i32 %7, 2
  %264 = call i32 @llvm.amdgcn.ds.bpermute(i32 %263, i32 %262)
  %265 = bitcast float %119 to i32
  %266 = sub i32 %lane, 1
  %267 = shl i32 %266, 2
  %268 = call i32 @llvm.amdgcn.ds.bpermute(i32 %267, i32 %265)
  %269 = bitcast i32 %268 to float
  %270 = fadd float %269, %119
  %271 = icmp uge i32 %6, 1
  %272 = select i1 %271, float %270, float %119
  %273 = bitcast float %272 to i32
  %274 = sub i32 %lane, 2
  %275 = shl i32 %274, 2
  %276 = call i32 @llvm.amdgcn.ds.bpermute(i32 %275, i32 %273)
  %277 = bitcast i32 %276 to float
  %278 = fadd float %277, %272
  %279 = icmp uge i32 %6, 2
  %280 = select i1 %279, float %278, float %272
  %281 = bitcast float %280 to i32
  %282 = sub i32 %lane, 4
  %283 = shl i32 %282, 2
  %284 = call i32 @llvm.amdgcn.ds.bpermute(i32 %283, i32 %281)
  %285 = bitcast i32 %284 to float
  %286 = fadd float %285, %280
  %287 = icmp uge i32 %6, 4
  %288 = select i1 %287, float %286, float %280
  %289 = bitcast float %288 to i32
  %290 = sub i32 %lane, 8
  %291 = shl i32 %290, 2
  %292 = call i32 @llvm.amdgcn.ds.bpermute(i32 %291, i32 %289)
  %293 = bitcast i32 %292 to float
  %294 = fadd float %293, %288
  %295 = icmp uge i32 %6, 8
  %296 = select i1 %295, float %294, float %288
  %297 = bitcast float %296 to i32
  %298 = sub i32 %lane, 16
  %299 = shl i32 %298, 2
  %300 = call i32 @llvm.amdgcn.ds.bpermute(i32 %299, i32 %297)
  %301 = bitcast i32 %300 to float
  %302 = fadd float %301, %296
  %303 = icmp uge i32 %6, 16
  %304 = select i1 %303, float %302, float %296
  %305 = bitcast float %304 to i32
  %306 = sub i32 %lane, 1
  %307 = shl i32 %306, 2
  %308 = call i32 @llvm.amdgcn.ds.bpermute(i32 %307, i32 %305)
  %309 = bitcast i32 %308 to float
  %310 = bitcast float %304 to i32
  %311 = shl i32 %7, 2
  %312 = call i32 @llvm.amdgcn.ds.bpermute(i32 %311, i32 %310)
  %313 = fadd float %165, %62
  %314 = select i1 %120, float %313, float %62
  %315 = fadd float %165, %108
  %316 = select i1 %120, float %315, float %108
  %317 = fadd float %165, %109
  %318 = select i1 %120, float %317, float %109
  %319 = fadd float %165, %110
  %320 = select i1 %120, float %319, float %110
  %321 = fadd float %213, %76
  %322 = select i1 %120, float %321, float %76
  %323 = fadd float %213, %111
  %324 = select i1 %120, float %323, float %111
  %325 = fadd float %213, %112
  %326 = select i1 %120, float %325, float %112
  %327 = fadd float %213, %113
  %328 = select i1 %120, float %327, float %113
  %329 = fadd float %261, %90
  %330 = select i1 %120, float %329, float %90
  %331 = fadd float %261, %114
  %332 = select i1 %120, float %331, float %114
  %333 = fadd float %261, %115
  %334 = select i1 %120, float %333, float %115
  %335 = fadd float %261, %116
  %336 = select i1 %120, float %335, float %116
  %337 = fadd float %309, %104
  %338 = select i1 %120, float %337, float %104
  %339 = fadd float %309, %117
  %340 = select i1 %120, float %339, float %117
  %341 = fadd float %309, %118
  %342 = select i1 %120, float %341, float %118
  %343 = fadd float %309, %119
  %344 = select i1 %120, float %343, float %119
  %345 = fadd float %314, %21
  %346 = fadd float %316, %22
  %347 = fadd float %318, %23
  %348 = fadd float %320, %24
  %349 = fadd float %322, %25
  %350 = fadd float %324, %26
  %351 = fadd float %326, %27
  %352 = fadd float %328, %28
  %353 = fadd float %330, %29
  %354 = fadd float %332, %30
  %355 = fadd float %334, %31
  %356 = fadd float %336, %32
  %357 = fadd float %338, %33
  %358 = fadd float %340, %34
  %359 = fadd float %342, %35
  %360 = fadd float %344, %36
  %361 = getelementptr float, ptr addrspace(1) %y, i32 %44
  %362 = getelementptr float, ptr addrspace(1) %y, i32 %45
  %363 = getelementptr float, ptr addrspace(1) %y, i32 %46
  %364 = getelementptr float, ptr addrspace(1) %y, i32 %47
  br i1 %40, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %365 = insertelement <4 x float> poison, float %345, i32 0
  %366 = insertelement <4 x float> %365, float %346, i32 1
  %367 = insertelement <4 x float> %366, float %347, i32 2
  %368 = insertelement <4 x float> %367, float %348, i32 3
  store <4 x float> %368, ptr addrspace(1) %361, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %41, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %369 = insertelement <4 x float> poison, float %349, i32 0
  %370 = insertelement <4 x float> %369, float %350, i32 1
  %371 = insertelement <4 x float> %370, float %351, i32 2
  %372 = insertelement <4 x float> %371, float %352, i32 3
  store <4 x float> %372, ptr addrspace(1) %362, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %42, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %373 = insertelement <4 x float> poison, float %353, i32 0
  %374 = insertelement <4 x float> %373, float %354, i32 1
  %375 = insertelement <4 x float> %374, float %355, i32 2
  %376 = insertelement <4 x float> %375, float %356, i32 3
  store <4 x float> %376, ptr addrspace(1) %363, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %43, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %377 = insertelement <4 x float> poison, float %357, i32 0
  %378 = insertelement <4 x float> %377, float %358, i32 1
  %379 = insertelement <4 x float> %378, float %359, i32 2
  %380 = insertelement <4 x float> %379, float %360, i32 3
  store <4 x float> %380, ptr addrspace(1) %364, align 16
  br label %join14

join14:                                           ; preds = %masked13, %join12
  %381 = fadd float %62, %63
  %382 = fadd float %381, %64
  %383 = fadd float %382, %65
  %384 = fadd float %76, %77
  %385 = fadd float %384, %78
  %386 = fadd float %385, %79
  %387 = fadd float %90, %91
  %388 = fadd float %387, %92
  %389 = fadd float %388, %93
  %390 = fadd float %104, %105
  %391 = fadd float %390, %106
  %392 = fadd float %391, %107
  %393 = bitcast float %383 to i32
  %394 = xor i32 %lane15, 1
  %395 = shl i32 %394, 2
  %396 = call i32 @llvm.amdgcn.ds.bpermute(i32 %395, i32 %393)
  %397 = bitcast i32 %396 to float
  %398 = fadd float %383, %397
  %399 = bitcast float %386 to i32
  %400 = xor i32 %lane15, 1
  %401 = shl i32 %400, 2
  %402 = call i32 @llvm.amdgcn.ds.bpermute(i32 %401, i32 %399)
  %403 = bitcast i32 %402 to float
  %404 = fadd float %386, %403
  %405 = bitcast float %389 to i32
  %406 = xor i32 %lane15, 1
  %407 = shl i32 %406, 2
  %408 = call i32 @llvm.amdgcn.ds.bpermute(i32 %407, i32 %405)
  %409 = bitcast i32 %408 to float
  %410 = fadd float %389, %409
  %411 = bitcast float %392 to i32
  %412 = xor i32 %lane15, 1
  %413 = shl i32 %412, 2
  %414 = call i32 @llvm.amdgcn.ds.bpermute(i32 %413, i32 %411)
  %415 = bitcast i32 %414 to float
  %416 = fadd float %392, %415
  %417 = bitcast float %398 to i32
  %418 = xor i32 %lane15, 2
  %419 = shl i32 %418, 2
  %420 = call i32 @llvm.amdgcn.ds.bpermute(i32 %419, i32 %417)
  %421 = bitcast i32 %420 to float
  %422 = fadd float %398, %421
  %423 = bitcast float %404 to i32
  %424 = xor i32 %lane15, 2
  %425 = shl i32 %424, 2
  %426 = call i32 @llvm.amdgcn.ds.bpermute(i32 %425, i32 %423)
  %427 = bitcast i32 %426 to float
  %428 = fadd float %404, %427
  %429 = bitcast float %410 to i32
  %430 = xor i32 %lane15, 2
  %431 = shl i32 %430, 2
  %432 = call i32 @llvm.amdgcn.ds.bpermute(i32 %431, i32 %429)
  %433 = bitcast i32 %432 to float
  %434 = fadd float %410, %433
  %435 = bitcast float %416 to i32
  %436 = xor i32 %lane15, 2
  %437 = shl i32 %436, 2
  %438 = call i32 @llvm.amdgcn.ds.bpermute(i32 %437, i32 %435)
  %439 = bitcast i32 %438 to float
  %440 = fadd float %416, %439
  %441 = bitcast float %422 to i32
  %442 = xor i32 %lane15, 4
  %443 = shl i32 %442, 2
  %444 = call i32 @llvm.amdgcn.ds.bpermute(i32 %443, i32 %441)
  %445 = bitcast i32 %444 to float
  %446 = fadd float %422, %445
  %447 = bitcast float %428 to i32
  %448 = xor i32 %lane15, 4
  %449 = shl i32 %448, 2
  %450 = call i32 @llvm.amdgcn.ds.bpermute(i32 %449, i32 %447)
  %451 = bitcast i32 %450 to float
  %452 = fadd float %428, %451
  %453 = bitcast float %434 to i32
  %454 = xor i32 %lane15, 4
  %455 = shl i32 %454, 2
  %456 = call i32 @llvm.amdgcn.ds.bpermute(i32 %455, i32 %453)
  %457 = bitcast i32 %456 to float
  %458 = fadd float %434, %457
  %459 = bitcast float %440 to i32
  %460 = xor i32 %lane15, 4
  %461 = shl i32 %460, 2
  %462 = call i32 @llvm.amdgcn.ds.bpermute(i32 %461, i32 %459)
  %463 = bitcast i32 %462 to float
  %464 = fadd float %440, %463
  %465 = bitcast float %446 to i32
  %466 = xor i32 %lane15, 8
  %467 = shl i32 %466, 2
  %468 = call i32 @llvm.amdgcn.ds.bpermute(i32 %467, i32 %465)
  %469 = bitcast i32 %468 to float
  %470 = fadd float %446, %469
  %471 = bitcast float %452 to i32
  %472 = xor i32 %lane15, 8
  %473 = shl i32 %472, 2
  %474 = call i32 @llvm.amdgcn.ds.bpermute(i32 %473, i32 %471)
  %475 = bitcast i32 %474 to float
  %476 = fadd float %452, %475
  %477 = bitcast float %458 to i32
  %478 = xor i32 %lane15, 8
  %479 = shl i32 %478, 2
  %480 = call i32 @llvm.amdgcn.ds.bpermute(i32 %479, i32 %477)
  %481 = bitcast i32 %480 to float
  %482 = fadd float %458, %481
  %483 = bitcast float %464 to i32
  %484 = xor i32 %lane15, 8
  %485 = shl i32 %484, 2
  %486 = call i32 @llvm.amdgcn.ds.bpermute(i32 %485, i32 %483)
  %487 = bitcast i32 %486 to float
  %488 = fadd float %464, %487
  %489 = bitcast float %470 to i32
  %490 = xor i32 %lane15, 16
  %491 = shl i32 %490, 2
  %492 = call i32 @llvm.amdgcn.ds.bpermute(i32 %491, i32 %489)
  %493 = bitcast i32 %492 to float
  %494 = fadd float %470, %493
  %495 = bitcast float %476 to i32
  %496 = xor i32 %lane15, 16
  %497 = shl i32 %496, 2
  %498 = call i32 @llvm.amdgcn.ds.bpermute(i32 %497, i32 %495)
  %499 = bitcast i32 %498 to float
  %500 = fadd float %476, %499
  %501 = bitcast float %482 to i32
  %502 = xor i32 %lane15, 16
  %503 = shl i32 %502, 2
  %504 = call i32 @llvm.amdgcn.ds.bpermute(i32 %503, i32 %501)
  %505 = bitcast i32 %504 to float
  %506 = fadd float %482, %505
  %507 = bitcast float %488 to i32
  %508 = xor i32 %lane15, 16
  %509 = shl i32 %508, 2
  %510 = call i32 @llvm.amdgcn.ds.bpermute(i32 %509, i32 %507)
  %511 = bitcast i32 %510 to float
  %512 = fadd float %488, %511
  %513 = fadd float %21, %494
  %514 = fadd float %22, %494
  %515 = fadd float %23, %494
  %516 = fadd float %24, %494
  %517 = fadd float %25, %500
  %518 = fadd float %26, %500
  %519 = fadd float %27, %500
  %520 = fadd float %28, %500
  %521 = fadd float %29, %506
  %522 = fadd float %30, %506
  %523 = fadd float %31, %506
  %524 = fadd float %32, %506
  %525 = fadd float %33, %512
  %526 = fadd float %34, %512
  %527 = fadd float %35, %512
  %528 = fadd float %36, %512
  %iv.next = add i32 %iv, 128
  br label %loop
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #2

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
attributes #2 = { convergent nocallback nofree nounwind willreturn memory(none) }
