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
  %21 = phi float [ 0.000000e+00, %loop.pre ], [ %481, %join14 ]
  %22 = phi float [ 0.000000e+00, %loop.pre ], [ %482, %join14 ]
  %23 = phi float [ 0.000000e+00, %loop.pre ], [ %483, %join14 ]
  %24 = phi float [ 0.000000e+00, %loop.pre ], [ %484, %join14 ]
  %25 = phi float [ 0.000000e+00, %loop.pre ], [ %485, %join14 ]
  %26 = phi float [ 0.000000e+00, %loop.pre ], [ %486, %join14 ]
  %27 = phi float [ 0.000000e+00, %loop.pre ], [ %487, %join14 ]
  %28 = phi float [ 0.000000e+00, %loop.pre ], [ %488, %join14 ]
  %29 = phi float [ 0.000000e+00, %loop.pre ], [ %489, %join14 ]
  %30 = phi float [ 0.000000e+00, %loop.pre ], [ %490, %join14 ]
  %31 = phi float [ 0.000000e+00, %loop.pre ], [ %491, %join14 ]
  %32 = phi float [ 0.000000e+00, %loop.pre ], [ %492, %join14 ]
  %33 = phi float [ 0.000000e+00, %loop.pre ], [ %493, %join14 ]
  %34 = phi float [ 0.000000e+00, %loop.pre ], [ %494, %join14 ]
  %35 = phi float [ 0.000000e+00, %loop.pre ], [ %495, %join14 ]
  %36 = phi float [ 0.000000e+00, %loop.pre ], [ %496, %join14 ]
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
  br label %join

join:                                             ; preds = %masked, %loop.body
  %53 = phi <4 x float> [ %52, %masked ], [ zeroinitializer, %loop.body ]
  %54 = extractelement <4 x float> %53, i32 0
  %55 = extractelement <4 x float> %53, i32 1
  %56 = extractelement <4 x float> %53, i32 2
  %57 = extractelement <4 x float> %53, i32 3
  br i1 %41, label %masked1, label %join2

masked1:                                          ; preds = %join
  %58 = load <4 x float>, ptr addrspace(1) %49, align 16
  br label %join2

join2:                                            ; preds = %masked1, %join
  %59 = phi <4 x float> [ %58, %masked1 ], [ zeroinitializer, %join ]
  %60 = extractelement <4 x float> %59, i32 0
  %61 = extractelement <4 x float> %59, i32 1
  %62 = extractelement <4 x float> %59, i32 2
  %63 = extractelement <4 x float> %59, i32 3
  br i1 %42, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %64 = load <4 x float>, ptr addrspace(1) %50, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %65 = phi <4 x float> [ %64, %masked3 ], [ zeroinitializer, %join2 ]
  %66 = extractelement <4 x float> %65, i32 0
  %67 = extractelement <4 x float> %65, i32 1
  %68 = extractelement <4 x float> %65, i32 2
  %69 = extractelement <4 x float> %65, i32 3
  br i1 %43, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %70 = load <4 x float>, ptr addrspace(1) %51, align 16
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %71 = phi <4 x float> [ %70, %masked5 ], [ zeroinitializer, %join4 ]
  %72 = extractelement <4 x float> %71, i32 0
  %73 = extractelement <4 x float> %71, i32 1
  %74 = extractelement <4 x float> %71, i32 2
  %75 = extractelement <4 x float> %71, i32 3
  %76 = fadd float %54, %55
  %77 = fadd float %76, %56
  %78 = fadd float %77, %57
  %79 = fadd float %60, %61
  %80 = fadd float %79, %62
  %81 = fadd float %80, %63
  %82 = fadd float %66, %67
  %83 = fadd float %82, %68
  %84 = fadd float %83, %69
  %85 = fadd float %72, %73
  %86 = fadd float %85, %74
  %87 = fadd float %86, %75
  %88 = icmp ne i32 %6, 0
  %89 = bitcast float %78 to i32
  %90 = sub i32 %lane, 1
  %91 = shl i32 %90, 2
  %92 = call i32 @llvm.amdgcn.ds.bpermute(i32 %91, i32 %89)
  %93 = bitcast i32 %92 to float
  %94 = fadd float %93, %78
  %95 = icmp uge i32 %6, 1
  %96 = select i1 %95, float %94, float %78
  %97 = bitcast float %96 to i32
  %98 = sub i32 %lane, 2
  %99 = shl i32 %98, 2
  %100 = call i32 @llvm.amdgcn.ds.bpermute(i32 %99, i32 %97)
  %101 = bitcast i32 %100 to float
  %102 = fadd float %101, %96
  %103 = icmp uge i32 %6, 2
  %104 = select i1 %103, float %102, float %96
  %105 = bitcast float %104 to i32
  %106 = sub i32 %lane, 4
  %107 = shl i32 %106, 2
  %108 = call i32 @llvm.amdgcn.ds.bpermute(i32 %107, i32 %105)
  %109 = bitcast i32 %108 to float
  %110 = fadd float %109, %104
  %111 = icmp uge i32 %6, 4
  %112 = select i1 %111, float %110, float %104
  %113 = bitcast float %112 to i32
  %114 = sub i32 %lane, 8
  %115 = shl i32 %114, 2
  %116 = call i32 @llvm.amdgcn.ds.bpermute(i32 %115, i32 %113)
  %117 = bitcast i32 %116 to float
  %118 = fadd float %117, %112
  %119 = icmp uge i32 %6, 8
  %120 = select i1 %119, float %118, float %112
  %121 = bitcast float %120 to i32
  %122 = sub i32 %lane, 16
  %123 = shl i32 %122, 2
  %124 = call i32 @llvm.amdgcn.ds.bpermute(i32 %123, i32 %121)
  %125 = bitcast i32 %124 to float
  %126 = fadd float %125, %120
  %127 = icmp uge i32 %6, 16
  %128 = select i1 %127, float %126, float %120
  %129 = bitcast float %128 to i32
  %130 = sub i32 %lane, 1
  %131 = shl i32 %130, 2
  %132 = call i32 @llvm.amdgcn.ds.bpermute(i32 %131, i32 %129)
  %133 = bitcast i32 %132 to float
  %134 = bitcast float %128 to i32
  %135 = shl i32 %7, 2
  %136 = call i32 @llvm.amdgcn.ds.bpermute(i32 %135, i32 %134)
  %137 = bitcast float %81 to i32
  %138 = sub i32 %lane, 1
  %139 = shl i32 %138, 2
  %140 = call i32 @llvm.amdgcn.ds.bpermute(i32 %139, i32 %137)
  %141 = bitcast i32 %140 to float
  %142 = fadd float %141, %81
  %143 = icmp uge i32 %6, 1
  %144 = select i1 %143, float %142, float %81
  %145 = bitcast float %144 to i32
  %146 = sub i32 %lane, 2
  %147 = shl i32 %146, 2
  %148 = call i32 @llvm.amdgcn.ds.bpermute(i32 %147, i32 %145)
  %149 = bitcast i32 %148 to float
  %150 = fadd float %149, %144
  %151 = icmp uge i32 %6, 2
  %152 = select i1 %151, float %150, float %144
  %153 = bitcast float %152 to i32
  %154 = sub i32 %lane, 4
  %155 = shl i32 %154, 2
  %156 = call i32 @llvm.amdgcn.ds.bpermute(i32 %155, i32 %153)
  %157 = bitcast i32 %156 to float
  %158 = fadd float %157, %152
  %159 = icmp uge i32 %6, 4
  %160 = select i1 %159, float %158, float %152
  %161 = bitcast float %160 to i32
  %162 = sub i32 %lane, 8
  %163 = shl i32 %162, 2
  %164 = call i32 @llvm.amdgcn.ds.bpermute(i32 %163, i32 %161)
  %165 = bitcast i32 %164 to float
  %166 = fadd float %165, %160
  %167 = icmp uge i32 %6, 8
  %168 = select i1 %167, float %166, float %160
  %169 = bitcast float %168 to i32
  %170 = sub i32 %lane, 16
  %171 = shl i32 %170, 2
  %172 = call i32 @llvm.amdgcn.ds.bpermute(i32 %171, i32 %169)
  %173 = bitcast i32 %172 to float
  %174 = fadd float %173, %168
  %175 = icmp uge i32 %6, 16
  %176 = select i1 %175, float %174, float %168
  %177 = bitcast float %176 to i32
  %178 = sub i32 %lane, 1
  %179 = shl i32 %178, 2
  %180 = call i32 @llvm.amdgcn.ds.bpermute(i32 %179, i32 %177)
  %181 = bitcast i32 %180 to float
  %182 = bitcast float %176 to i32
  %183 = shl i32 %7, 2
  %184 = call i32 @llvm.amdgcn.ds.bpermute(i32 %183, i32 %182)
  %185 = bitcast float %84 to i32
  %186 = sub i32 %lane, 1
  %187 = shl i32 %186, 2
  %188 = call i32 @llvm.amdgcn.ds.bpermute(i32 %187, i32 %185)
  %189 = bitcast i32 %188 to float
  %190 = fadd float %189, %84
  %191 = icmp uge i32 %6, 1
  %192 = select i1 %191, float %190, float %84
  %193 = bitcast float %192 to i32
  %194 = sub i32 %lane, 2
  %195 = shl i32 %194, 2
  %196 = call i32 @llvm.amdgcn.ds.bpermute(i32 %195, i32 %193)
  %197 = bitcast i32 %196 to float
  %198 = fadd float %197, %192
  %199 = icmp uge i32 %6, 2
  %200 = select i1 %199, float %198, float %192
  %201 = bitcast float %200 to i32
  %202 = sub i32 %lane, 4
  %203 = shl i32 %202, 2
  %204 = call i32 @llvm.amdgcn.ds.bpermute(i32 %203, i32 %201)
  %205 = bitcast i32 %204 to float
  %206 = fadd float %205, %200
  %207 = icmp uge i32 %6, 4
  %208 = select i1 %207, float %206, float %200
  %209 = bitcast float %208 to i32
  %210 = sub i32 %lane, 8
  %211 = shl i32 %210, 2
  %212 = call i32 @llvm.amdgcn.ds.bpermute(i32 %211, i32 %209)
  %213 = bitcast i32 %212 to float
  %214 = fadd float %213, %208
  %215 = icmp uge i32 %6, 8
  %216 = select i1 %215, float %214, float %208
  %217 = bitcast float %216 to i32
  %218 = sub i32 %lane, 16
  %219 = shl i32 %218, 2
  %220 = call i32 @llvm.amdgcn.ds.bpermute(i32 %219, i32 %217)
  %221 = bitcast i32 %220 to float
  %222 = fadd float %221, %216
  %223 = icmp uge i32 %6, 16
  %224 = select i1 %223, float %222, float %216
  %225 = bitcast float %224 to i32
  %226 = sub i32 %lane, 1
  %227 = shl i32 %226, 2
  %228 = call i32 @llvm.amdgcn.ds.bpermute(i32 %227, i32 %225)
  %229 = bitcast i32 %228 to float
  %230 = bitcast float %224 to i32
  %231 = shl i32 %7, 2
  %232 = call i32 @llvm.amdgcn.ds.bpermute(i32 %231, i32 %230)
  %233 = bitcast float %87 to i32
  %234 = sub i32 %lane, 1
  %235 = shl i32 %234, 2
  %236 = call i32 @llvm.amdgcn.ds.bpermute(i32 %235, i32 %233)
  %237 = bitcast i32 %236 to float
  %238 = fadd float %237, %87
  %239 = icmp uge i32 %6, 1
  %240 = select i1 %239, float %238, float %87
  %241 = bitcast float %240 to i32
  %242 = sub i32 %lane, 2
  %243 = shl i32 %242, 2
  %244 = call i32 @llvm.amdgcn.ds.bpermute(i32 %243, i32 %241)
  %245 = bitcast i32 %244 to float
  %246 = fadd float %245, %240
  %247 = icmp uge i32 %6, 2
  %248 = select i1 %247, float %246, float %240
  %249 = bitcast float %248 to i32
  %250 = sub i32 %lane, 4
  %251 = shl i32 %250, 2
  %252 = call i32 @llvm.amdgcn.ds.bpermute(i32 %251, i32 %249)
  %253 = bitcast i32 %252 to float
  %254 = fadd float %253, %248
  %255 = icmp uge i32 %6, 4
  %256 = select i1 %255, float %254, float %248
  %257 = bitcast float %256 to i32
  %258 = sub i32 %lane, 8
  %259 = shl i32 %258, 2
  %260 = call i32 @llvm.amdgcn.ds.bpermute(i32 %259, i32 %257)
  %261 = bitcast i32 %260 to float
  %262 = fadd float %261, %256
  %263 = icmp uge i32 %6, 8
  %264 = select i1 %263, float %262, float %256
  %265 = bitcast float %264 to i32
  %266 = sub i32 %lane, 16
  %267 = shl i32 %266, 2
  %268 = call i32 @llvm.amdgcn.ds.bpermute(i32 %267, i32 %265)
  %269 = bitcast i32 %268 to float
  %270 = fadd float %269, %264
  %271 = icmp uge i32 %6, 16
  %272 = select i1 %271, float %270, float %264
  %273 = bitcast float %272 to i32
  %274 = sub i32 %lane, 1
  %275 = shl i32 %274, 2
  %276 = call i32 @llvm.amdgcn.ds.bpermute(i32 %275, i32 %273)
  %277 = bitcast i32 %276 to float
  %278 = bitcast float %272 to i32
  %279 = shl i32 %7, 2
  %280 = call i32 @llvm.amdgcn.ds.bpermute(i32 %279, i32 %278)
  %281 = fadd float %133, %54
  %282 = select i1 %88, float %281, float %54
  %283 = fadd float %133, %76
  %284 = select i1 %88, float %283, float %76
  %285 = fadd float %133, %77
  %286 = select i1 %88, float %285, float %77
  %287 = fadd float %133, %78
  %288 = select i1 %88, float %287, float %78
  %289 = fadd float %181, %60
  %290 = select i1 %88, float %289, float %60
  %291 = fadd float %181, %79
  %292 = select i1 %88, float %291, float %79
  %293 = fadd float %181, %80
  %294 = select i1 %88, float %293, float %80
  %295 = fadd float %181, %81
  %296 = select i1 %88, float %295, float %81
  %297 = fadd float %229, %66
  %298 = select i1 %88, float %297, float %66
  %299 = fadd float %229, %82
  %300 = select i1 %88, float %299, float %82
  %301 = fadd float %229, %83
  %302 = select i1 %88, float %301, float %83
  %303 = fadd float %229, %84
  %304 = select i1 %88, float %303, float %84
  %305 = fadd float %277, %72
  %306 = select i1 %88, float %305, float %72
  %307 = fadd float %277, %85
  %308 = select i1 %88, float %307, float %85
  %309 = fadd float %277, %86
  %310 = select i1 %88, float %309, float %86
  %311 = fadd float %277, %87
  %312 = select i1 %88, float %311, float %87
  %313 = fadd float %282, %21
  %314 = fadd float %284, %22
  %315 = fadd float %286, %23
  %316 = fadd float %288, %24
  %317 = fadd float %290, %25
  %318 = fadd float %292, %26
  %319 = fadd float %294, %27
  %320 = fadd float %296, %28
  %321 = fadd float %298, %29
  %322 = fadd float %300, %30
  %323 = fadd float %302, %31
  %324 = fadd float %304, %32
  %325 = fadd float %306, %33
  %326 = fadd float %308, %34
  %327 = fadd float %310, %35
  %328 = fadd float %312, %36
  %329 = getelementptr float, ptr addrspace(1) %y, i32 %44
  %330 = getelementptr float, ptr addrspace(1) %y, i32 %45
  %331 = getelementptr float, ptr addrspace(1) %y, i32 %46
  %332 = getelementptr float, ptr addrspace(1) %y, i32 %47
  br i1 %40, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %333 = insertelement <4 x float> poison, float %313, i32 0
  %334 = insertelement <4 x float> %333, float %314, i32 1
  %335 = insertelement <4 x float> %334, float %315, i32 2
  %336 = insertelement <4 x float> %335, float %316, i32 3
  store <4 x float> %336, ptr addrspace(1) %329, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %41, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %337 = insertelement <4 x float> poison, float %317, i32 0
  %338 = insertelement <4 x float> %337, float %318, i32 1
  %339 = insertelement <4 x float> %338, float %319, i32 2
  %340 = insertelement <4 x float> %339, float %320, i32 3
  store <4 x float> %340, ptr addrspace(1) %330, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %42, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %341 = insertelement <4 x float> poison, float %321, i32 0
  %342 = insertelement <4 x float> %341, float %322, i32 1
  %343 = insertelement <4 x float> %342, float %323, i32 2
  %344 = insertelement <4 x float> %343, float %324, i32 3
  store <4 x float> %344, ptr addrspace(1) %331, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %43, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %345 = insertelement <4 x float> poison, float %325, i32 0
  %346 = insertelement <4 x float> %345, float %326, i32 1
  %347 = insertelement <4 x float> %346, float %327, i32 2
  %348 = insertelement <4 x float> %347, float %328, i32 3
  store <4 x float> %348, ptr addrspace(1) %332, align 16
  br label %join14

join14:                                           ; preds = %masked13, %join12
  %349 = fadd float %54, %55
  %350 = fadd float %349, %56
  %351 = fadd float %350, %57
  %352 = fadd float %60, %61
  %353 = fadd float %352, %62
  %354 = fadd float %353, %63
  %355 = fadd float %66, %67
  %356 = fadd float %355, %68
  %357 = fadd float %356, %69
  %358 = fadd float %72, %73
  %359 = fadd float %358, %74
  %360 = fadd float %359, %75
  %361 = bitcast float %351 to i32
  %362 = xor i32 %lane15, 1
  %363 = shl i32 %362, 2
  %364 = call i32 @llvm.amdgcn.ds.bpermute(i32 %363, i32 %361)
  %365 = bitcast i32 %364 to float
  %366 = fadd float %351, %365
  %367 = bitcast float %354 to i32
  %368 = xor i32 %lane15, 1
  %369 = shl i32 %368, 2
  %370 = call i32 @llvm.amdgcn.ds.bpermute(i32 %369, i32 %367)
  %371 = bitcast i32 %370 to float
  %372 = fadd float %354, %371
  %373 = bitcast float %357 to i32
  %374 = xor i32 %lane15, 1
  %375 = shl i32 %374, 2
  %376 = call i32 @llvm.amdgcn.ds.bpermute(i32 %375, i32 %373)
  %377 = bitcast i32 %376 to float
  %378 = fadd float %357, %377
  %379 = bitcast float %360 to i32
  %380 = xor i32 %lane15, 1
  %381 = shl i32 %380, 2
  %382 = call i32 @llvm.amdgcn.ds.bpermute(i32 %381, i32 %379)
  %383 = bitcast i32 %382 to float
  %384 = fadd float %360, %383
  %385 = bitcast float %366 to i32
  %386 = xor i32 %lane15, 2
  %387 = shl i32 %386, 2
  %388 = call i32 @llvm.amdgcn.ds.bpermute(i32 %387, i32 %385)
  %389 = bitcast i32 %388 to float
  %390 = fadd float %366, %389
  %391 = bitcast float %372 to i32
  %392 = xor i32 %lane15, 2
  %393 = shl i32 %392, 2
  %394 = call i32 @llvm.amdgcn.ds.bpermute(i32 %393, i32 %391)
  %395 = bitcast i32 %394 to float
  %396 = fadd float %372, %395
  %397 = bitcast float %378 to i32
  %398 = xor i32 %lane15, 2
  %399 = shl i32 %398, 2
  %400 = call i32 @llvm.amdgcn.ds.bpermute(i32 %399, i32 %397)
  %401 = bitcast i32 %400 to float
  %402 = fadd float %378, %401
  %403 = bitcast float %384 to i32
  %404 = xor i32 %lane15, 2
  %405 = shl i32 %404, 2
  %406 = call i32 @llvm.amdgcn.ds.bpermute(i32 %405, i32 %403)
  %407 = bitcast i32 %406 to float
  %408 = fadd float %384, %407
  %409 = bitcast float %390 to i32
  %410 = xor i32 %lane15, 4
  %411 = shl i32 %410, 2
  %412 = call i32 @llvm.amdgcn.ds.bpermute(i32 %411, i32 %409)
  %413 = bitcast i32 %412 to float
  %414 = fadd float %390, %413
  %415 = bitcast float %396 to i32
  %416 = xor i32 %lane15, 4
  %417 = shl i32 %416, 2
  %418 = call i32 @llvm.amdgcn.ds.bpermute(i32 %417, i32 %415)
  %419 = bitcast i32 %418 to float
  %420 = fadd float %396, %419
  %421 = bitcast float %402 to i32
  %422 = xor i32 %lane15, 4
  %423 = shl i32 %422, 2
  %424 = call i32 @llvm.amdgcn.ds.bpermute(i32 %423, i32 %421)
  %425 = bitcast i32 %424 to float
  %426 = fadd float %402, %425
  %427 = bitcast float %408 to i32
  %428 = xor i32 %lane15, 4
  %429 = shl i32 %428, 2
  %430 = call i32 @llvm.amdgcn.ds.bpermute(i32 %429, i32 %427)
  %431 = bitcast i32 %430 to float
  %432 = fadd float %408, %431
  %433 = bitcast float %414 to i32
  %434 = xor i32 %lane15, 8
  %435 = shl i32 %434, 2
  %436 = call i32 @llvm.amdgcn.ds.bpermute(i32 %435, i32 %433)
  %437 = bitcast i32 %436 to float
  %438 = fadd float %414, %437
  %439 = bitcast float %420 to i32
  %440 = xor i32 %lane15, 8
  %441 = shl i32 %440, 2
  %442 = call i32 @llvm.amdgcn.ds.bpermute(i32 %441, i32 %439)
  %443 = bitcast i32 %442 to float
  %444 = fadd float %420, %443
  %445 = bitcast float %426 to i32
  %446 = xor i32 %lane15, 8
  %447 = shl i32 %446, 2
  %448 = call i32 @llvm.amdgcn.ds.bpermute(i32 %447, i32 %445)
  %449 = bitcast i32 %448 to float
  %450 = fadd float %426, %449
  %451 = bitcast float %432 to i32
  %452 = xor i32 %lane15, 8
  %453 = shl i32 %452, 2
  %454 = call i32 @llvm.amdgcn.ds.bpermute(i32 %453, i32 %451)
  %455 = bitcast i32 %454 to float
  %456 = fadd float %432, %455
  %457 = bitcast float %438 to i32
  %458 = xor i32 %lane15, 16
  %459 = shl i32 %458, 2
  %460 = call i32 @llvm.amdgcn.ds.bpermute(i32 %459, i32 %457)
  %461 = bitcast i32 %460 to float
  %462 = fadd float %438, %461
  %463 = bitcast float %444 to i32
  %464 = xor i32 %lane15, 16
  %465 = shl i32 %464, 2
  %466 = call i32 @llvm.amdgcn.ds.bpermute(i32 %465, i32 %463)
  %467 = bitcast i32 %466 to float
  %468 = fadd float %444, %467
  %469 = bitcast float %450 to i32
  %470 = xor i32 %lane15, 16
  %471 = shl i32 %470, 2
  %472 = call i32 @llvm.amdgcn.ds.bpermute(i32 %471, i32 %469)
  %473 = bitcast i32 %472 to float
  %474 = fadd float %450, %473
  %475 = bitcast float %456 to i32
  %476 = xor i32 %lane15, 16
  %477 = shl i32 %476, 2
  %478 = call i32 @llvm.amdgcn.ds.bpermute(i32 %477, i32 %475)
  %479 = bitcast i32 %478 to float
  %480 = fadd float %456, %479
  %481 = fadd float %21, %462
  %482 = fadd float %22, %462
  %483 = fadd float %23, %462
  %484 = fadd float %24, %462
  %485 = fadd float %25, %468
  %486 = fadd float %26, %468
  %487 = fadd float %27, %468
  %488 = fadd float %28, %468
  %489 = fadd float %29, %474
  %490 = fadd float %30, %474
  %491 = fadd float %31, %474
  %492 = fadd float %32, %474
  %493 = fadd float %33, %480
  %494 = fadd float %34, %480
  %495 = fadd float %35, %480
  %496 = fadd float %36, %480
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
