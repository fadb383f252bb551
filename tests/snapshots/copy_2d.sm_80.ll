target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @copy_2d(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m_out, i32 %n, i32 %stride_x) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %2, 31
  %warp = lshr i32 %2, 5
  %3 = and i32 %warp, 3
  %4 = and i32 %lane, 31
  %5 = shl i32 %4, 2
  br label %body

body:                                             ; preds = %prologue
  %6 = mul i32 %1, 32
  %7 = mul i32 %0, 128
  %8 = add nuw i32 %3, 4
  %9 = add nuw i32 %3, 8
  %10 = add nuw i32 %3, 12
  %11 = add nuw i32 %3, 16
  %12 = add nuw i32 %3, 20
  %13 = add nuw i32 %3, 24
  %14 = add nuw i32 %3, 28
  %15 = add i32 %3, %6
  %16 = add i32 %8, %6
  %17 = add i32 %9, %6
  %18 = add i32 %10, %6
  %19 = add i32 %11, %6
  %20 = add i32 %12, %6
  %21 = add i32 %13, %6
  %22 = add i32 %14, %6
  %23 = add nuw i32 %5, 1
  %24 = add nuw i32 %5, 2
  %25 = add nuw i32 %5, 3
  %26 = add i32 %5, %7
  %27 = add i32 %23, %7
  %28 = add i32 %24, %7
  %29 = add i32 %25, %7
  %30 = icmp slt i32 %15, %m_out
  %31 = icmp slt i32 %16, %m_out
  %32 = icmp slt i32 %17, %m_out
  %33 = icmp slt i32 %18, %m_out
  %34 = icmp slt i32 %19, %m_out
  %35 = icmp slt i32 %20, %m_out
  %36 = icmp slt i32 %21, %m_out
  %37 = icmp slt i32 %22, %m_out
  %38 = icmp slt i32 %26, %n
  %39 = icmp slt i32 %27, %n
  %40 = icmp slt i32 %28, %n
  %41 = icmp slt i32 %29, %n
  %42 = and i1 %30, %38
  %43 = and i1 %30, %39
  %44 = and i1 %30, %40
  %45 = and i1 %30, %41
  %46 = and i1 %31, %38
  %47 = and i1 %31, %39
  %48 = and i1 %31, %40
  %49 = and i1 %31, %41
  %50 = and i1 %32, %38
  %51 = and i1 %32, %39
  %52 = and i1 %32, %40
  %53 = and i1 %32, %41
  %54 = and i1 %33, %38
  %55 = and i1 %33, %39
  %56 = and i1 %33, %40
  %57 = and i1 %33, %41
  %58 = and i1 %34, %38
  %59 = and i1 %34, %39
  %60 = and i1 %34, %40
  %61 = and i1 %34, %41
  %62 = and i1 %35, %38
  %63 = and i1 %35, %39
  %64 = and i1 %35, %40
  %65 = and i1 %35, %41
  %66 = and i1 %36, %38
  %67 = and i1 %36, %39
  %68 = and i1 %36, %40
  %69 = and i1 %36, %41
  %70 = and i1 %37, %38
  %71 = and i1 %37, %39
  %72 = and i1 %37, %40
  %73 = and i1 %37, %41
  %74 = mul i32 %15, 2
  %75 = mul i32 %16, 2
  %76 = mul i32 %17, 2
  %77 = mul i32 %18, 2
  %78 = mul i32 %19, 2
  %79 = mul i32 %20, 2
  %80 = mul i32 %21, 2
  %81 = mul i32 %22, 2
  %82 = mul i32 %74, %stride_x
  %83 = mul i32 %75, %stride_x
  %84 = mul i32 %76, %stride_x
  %85 = mul i32 %77, %stride_x
  %86 = mul i32 %78, %stride_x
  %87 = mul i32 %79, %stride_x
  %88 = mul i32 %80, %stride_x
  %89 = mul i32 %81, %stride_x
  %90 = add i32 %82, %26
  %91 = add i32 %82, %27
  %92 = add i32 %82, %28
  %93 = add i32 %82, %29
  %94 = add i32 %83, %26
  %95 = add i32 %83, %27
  %96 = add i32 %83, %28
  %97 = add i32 %83, %29
  %98 = add i32 %84, %26
  %99 = add i32 %84, %27
  %100 = add i32 %84, %28
  %101 = add i32 %84, %29
  %102 = add i32 %85, %26
  %103 = add i32 %85, %27
  %104 = add i32 %85, %28
  %105 = add i32 %85, %29
  %106 = add i32 %86, %26
  %107 = add i32 %86, %27
  %108 = add i32 %86, %28
  %109 = add i32 %86, %29
  %110 = add i32 %87, %26
  %111 = add i32 %87, %27
  %112 = add i32 %87, %28
  %113 = add i32 %87, %29
  %114 = add i32 %88, %26
  %115 = add i32 %88, %27
  %116 = add i32 %88, %28
  %117 = add i32 %88, %29
  %118 = add i32 %89, %26
  %119 = add i32 %89, %27
  %120 = add i32 %89, %28
  %121 = add i32 %89, %29
  %122 = getelementptr float, ptr addrspace(1) %x, i32 %90
  %123 = getelementptr float, ptr addrspace(1) %x, i32 %91
  %124 = getelementptr float, ptr addrspace(1) %x, i32 %92
  %125 = getelementptr float, ptr addrspace(1) %x, i32 %93
  %126 = getelementptr float, ptr addrspace(1) %x, i32 %94
  %127 = getelementptr float, ptr addrspace(1) %x, i32 %95
  %128 = getelementptr float, ptr addrspace(1) %x, i32 %96
  %129 = getelementptr float, ptr addrspace(1) %x, i32 %97
  %130 = getelementptr float, ptr addrspace(1) %x, i32 %98
  %131 = getelementptr float, ptr addrspace(1) %x, i32 %99
  %132 = getelementptr float, ptr addrspace(1) %x, i32 %100
  %133 = getelementptr float, ptr addrspace(1) %x, i32 %101
  %134 = getelementptr float, ptr addrspace(1) %x, i32 %102
  %135 = getelementptr float, ptr addrspace(1) %x, i32 %103
  %136 = getelementptr float, ptr addrspace(1) %x, i32 %104
  %137 = getelementptr float, ptr addrspace(1) %x, i32 %105
  %138 = getelementptr float, ptr addrspace(1) %x, i32 %106
  %139 = getelementptr float, ptr addrspace(1) %x, i32 %107
  %140 = getelementptr float, ptr addrspace(1) %x, i32 %108
  %141 = getelementptr float, ptr addrspace(1) %x, i32 %109
  %142 = getelementptr float, ptr addrspace(1) %x, i32 %110
  %143 = getelementptr float, ptr addrspace(1) %x, i32 %111
  %144 = getelementptr float, ptr addrspace(1) %x, i32 %112
  %145 = getelementptr float, ptr addrspace(1) %x, i32 %113
  %146 = getelementptr float, ptr addrspace(1) %x, i32 %114
  %147 = getelementptr float, ptr addrspace(1) %x, i32 %115
  %148 = getelementptr float, ptr addrspace(1) %x, i32 %116
  %149 = getelementptr float, ptr addrspace(1) %x, i32 %117
  %150 = getelementptr float, ptr addrspace(1) %x, i32 %118
  %151 = getelementptr float, ptr addrspace(1) %x, i32 %119
  %152 = getelementptr float, ptr addrspace(1) %x, i32 %120
  %153 = getelementptr float, ptr addrspace(1) %x, i32 %121
  br i1 %42, label %masked, label %join

masked:                                           ; preds = %body
  %154 = load <4 x float>, ptr addrspace(1) %122, align 16
  %155 = extractelement <4 x float> %154, i32 0
  %156 = extractelement <4 x float> %154, i32 1
  %157 = extractelement <4 x float> %154, i32 2
  %158 = extractelement <4 x float> %154, i32 3
  %159 = insertelement <4 x float> poison, float %155, i32 0
  %160 = insertelement <4 x float> %159, float %156, i32 1
  %161 = insertelement <4 x float> %160, float %157, i32 2
  %162 = insertelement <4 x float> %161, float %158, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %163 = phi <4 x float> [ %162, %masked ], [ zeroinitializer, %body ]
  %164 = extractelement <4 x float> %163, i32 0
  %165 = extractelement <4 x float> %163, i32 1
  %166 = extractelement <4 x float> %163, i32 2
  %167 = extractelement <4 x float> %163, i32 3
  br i1 %46, label %masked1, label %join2

masked1:                                          ; preds = %join
  %168 = load <4 x float>, ptr addrspace(1) %126, align 16
  %169 = extractelement <4 x float> %168, i32 0
  %170 = extractelement <4 x float> %168, i32 1
  %171 = extractelement <4 x float> %168, i32 2
  %172 = extractelement <4 x float> %168, i32 3
  %173 = insertelement <4 x float> poison, float %169, i32 0
  %174 = insertelement <4 x float> %173, float %170, i32 1
  %175 = insertelement <4 x float> %174, float %171, i32 2
  %176 = insertelement <4 x float> %175, float %172, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %177 = phi <4 x float> [ %176, %masked1 ], [ zeroinitializer, %join ]
  %178 = extractelement <4 x float> %177, i32 0
  %179 = extractelement <4 x float> %177, i32 1
  %180 = extractelement <4 x float> %177, i32 2
  %181 = extractelement <4 x float> %177, i32 3
  br i1 %50, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %182 = load <4 x float>, ptr addrspace(1) %130, align 16
  %183 = extractelement <4 x float> %182, i32 0
  %184 = extractelement <4 x float> %182, i32 1
  %185 = extractelement <4 x float> %182, i32 2
  %186 = extractelement <4 x float> %182, i32 3
  %187 = insertelement <4 x float> poison, float %183, i32 0
  %188 = insertelement <4 x float> %187, float %184, i32 1
  %189 = insertelement <4 x float> %188, float %185, i32 2
  %190 = insertelement <4 x float> %189, float %186, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %191 = phi <4 x float> [ %190, %masked3 ], [ zeroinitializer, %join2 ]
  %192 = extractelement <4 x float> %191, i32 0
  %193 = extractelement <4 x float> %191, i32 1
  %194 = extractelement <4 x float> %191, i32 2
  %195 = extractelement <4 x float> %191, i32 3
  br i1 %54, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %196 = load <4 x float>, ptr addrspace(1) %134, align 16
  %197 = extractelement <4 x float> %196, i32 0
  %198 = extractelement <4 x float> %196, i32 1
  %199 = extractelement <4 x float> %196, i32 2
  %200 = extractelement <4 x float> %196, i32 3
  %201 = insertelement <4 x float> poison, float %197, i32 0
  %202 = insertelement <4 x float> %201, float %198, i32 1
  %203 = insertelement <4 x float> %202, float %199, i32 2
  %204 = insertelement <4 x float> %203, float %200, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %205 = phi <4 x float> [ %204, %masked5 ], [ zeroinitializer, %join4 ]
  %206 = extractelement <4 x float> %205, i32 0
  %207 = extractelement <4 x float> %205, i32 1
  %208 = extractelement <4 x float> %205, i32 2
  %209 = extractelement <4 x float> %205, i32 3
  br i1 %58, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %210 = load <4 x float>, ptr addrspace(1) %138, align 16
  %211 = extractelement <4 x float> %210, i32 0
  %212 = extractelement <4 x float> %210, i32 1
  %213 = extractelement <4 x float> %210, i32 2
  %214 = extractelement <4 x float> %210, i32 3
  %215 = insertelement <4 x float> poison, float %211, i32 0
  %216 = insertelement <4 x float> %215, float %212, i32 1
  %217 = insertelement <4 x float> %216, float %213, i32 2
  %218 = insertelement <4 x float> %217, float %214, i32 3
  br label %join8

join8:                                            ; preds = %masked7, %join6
  %219 = phi <4 x float> [ %218, %masked7 ], [ zeroinitializer, %join6 ]
  %220 = extractelement <4 x float> %219, i32 0
  %221 = extractelement <4 x float> %219, i32 1
  %222 = extractelement <4 x float> %219, i32 2
  %223 = extractelement <4 x float> %219, i32 3
  br i1 %62, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %224 = load <4 x float>, ptr addrspace(1) %142, align 16
  %225 = extractelement <4 x float> %224, i32 0
  %226 = extractelement <4 x float> %224, i32 1
  %227 = extractelement <4 x float> %224, i32 2
  %228 = extractelement <4 x float> %224, i32 3
  %229 = insertelement <4 x float> poison, float %225, i32 0
  %230 = insertelement <4 x float> %229, float %226, i32 1
  %231 = insertelement <4 x float> %230, float %227, i32 2
  %232 = insertelement <4 x float> %231, float %228, i32 3
  br label %join10

join10:                                           ; preds = %masked9, %join8
  %233 = phi <4 x float> [ %232, %masked9 ], [ zeroinitializer, %join8 ]
  %234 = extractelement <4 x float> %233, i32 0
  %235 = extractelement <4 x float> %233, i32 1
  %236 = extractelement <4 x float> %233, i32 2
  %237 = extractelement <4 x float> %233, i32 3
  br i1 %66, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %238 = load <4 x float>, ptr addrspace(1) %146, align 16
  %239 = extractelement <4 x float> %238, i32 0
  %240 = extractelement <4 x float> %238, i32 1
  %241 = extractelement <4 x float> %238, i32 2
  %242 = extractelement <4 x float> %238, i32 3
  %243 = insertelement <4 x float> poison, float %239, i32 0
  %244 = insertelement <4 x float> %243, float %240, i32 1
  %245 = insertelement <4 x float> %244, float %241, i32 2
  %246 = insertelement <4 x float> %245, float %242, i32 3
  br label %join12

join12:                                           ; preds = %masked11, %join10
  %247 = phi <4 x float> [ %246, %masked11 ], [ zeroinitializer, %join10 ]
  %248 = extractelement <4 x float> %247, i32 0
  %249 = extractelement <4 x float> %247, i32 1
  %250 = extractelement <4 x float> %247, i32 2
  %251 = extractelement <4 x float> %247, i32 3
  br i1 %70, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %252 = load <4 x float>, ptr addrspace(1) %150, align 16
  %253 = extractelement <4 x float> %252, i32 0
  %254 = extractelement <4 x float> %252, i32 1
  %255 = extractelement <4 x float> %252, i32 2
  %256 = extractelement <4 x float> %252, i32 3
  %257 = insertelement <4 x float> poison, float %253, i32 0
  %258 = insertelement <4 x float> %257, float %254, i32 1
  %259 = insertelement <4 x float> %258, float %255, i32 2
  %260 = insertelement <4 x float> %259, float %256, i32 3
  br label %join14

join14:                                           ; preds = %masked13, %join12
  %261 = phi <4 x float> [ %260, %masked13 ], [ zeroinitializer, %join12 ]
  %262 = extractelement <4 x float> %261, i32 0
  %263 = extractelement <4 x float> %261, i32 1
  %264 = extractelement <4 x float> %261, i32 2
  %265 = extractelement <4 x float> %261, i32 3
  %266 = mul i32 %15, %n
  %267 = mul i32 %16, %n
  %268 = mul i32 %17, %n
  %269 = mul i32 %18, %n
  %270 = mul i32 %19, %n
  %271 = mul i32 %20, %n
  %272 = mul i32 %21, %n
  %273 = mul i32 %22, %n
  %274 = add i32 %266, %26
  %275 = add i32 %266, %27
  %276 = add i32 %266, %28
  %277 = add i32 %266, %29
  %278 = add i32 %267, %26
  %279 = add i32 %267, %27
  %280 = add i32 %267, %28
  %281 = add i32 %267, %29
  %282 = add i32 %268, %26
  %283 = add i32 %268, %27
  %284 = add i32 %268, %28
  %285 = add i32 %268, %29
  %286 = add i32 %269, %26
  %287 = add i32 %269, %27
  %288 = add i32 %269, %28
  %289 = add i32 %269, %29
  %290 = add i32 %270, %26
  %291 = add i32 %270, %27
  %292 = add i32 %270, %28
  %293 = add i32 %270, %29
  %294 = add i32 %271, %26
  %295 = add i32 %271, %27
  %296 = add i32 %271, %28
  %297 = add i32 %271, %29
  %298 = add i32 %272, %26
  %299 = add i32 %272, %27
  %300 = add i32 %272, %28
  %301 = add i32 %272, %29
  %302 = add i32 %273, %26
  %303 = add i32 %273, %27
  %304 = add i32 %273, %28
  %305 = add i32 %273, %29
  %306 = getelementptr float, ptr addrspace(1) %y, i32 %274
  %307 = getelementptr float, ptr addrspace(1) %y, i32 %275
  %308 = getelementptr float, ptr addrspace(1) %y, i32 %276
  %309 = getelementptr float, ptr addrspace(1) %y, i32 %277
  %310 = getelementptr float, ptr addrspace(1) %y, i32 %278
  %311 = getelementptr float, ptr addrspace(1) %y, i32 %279
  %312 = getelementptr float, ptr addrspace(1) %y, i32 %280
  %313 = getelementptr float, ptr addrspace(1) %y, i32 %281
  %314 = getelementptr float, ptr addrspace(1) %y, i32 %282
  %315 = getelementptr float, ptr addrspace(1) %y, i32 %283
  %316 = getelementptr float, ptr addrspace(1) %y, i32 %284
  %317 = getelementptr float, ptr addrspace(1) %y, i32 %285
  %318 = getelementptr float, ptr addrspace(1) %y, i32 %286
  %319 = getelementptr float, ptr addrspace(1) %y, i32 %287
  %320 = getelementptr float, ptr addrspace(1) %y, i32 %288
  %321 = getelementptr float, ptr addrspace(1) %y, i32 %289
  %322 = getelementptr float, ptr addrspace(1) %y, i32 %290
  %323 = getelementptr float, ptr addrspace(1) %y, i32 %291
  %324 = getelementptr float, ptr addrspace(1) %y, i32 %292
  %325 = getelementptr float, ptr addrspace(1) %y, i32 %293
  %326 = getelementptr float, ptr addrspace(1) %y, i32 %294
  %327 = getelementptr float, ptr addrspace(1) %y, i32 %295
  %328 = getelementptr float, ptr addrspace(1) %y, i32 %296
  %329 = getelementptr float, ptr addrspace(1) %y, i32 %297
  %330 = getelementptr float, ptr addrspace(1) %y, i32 %298
  %331 = getelementptr float, ptr addrspace(1) %y, i32 %299
  %332 = getelementptr float, ptr addrspace(1) %y, i32 %300
  %333 = getelementptr float, ptr addrspace(1) %y, i32 %301
  %334 = getelementptr float, ptr addrspace(1) %y, i32 %302
  %335 = getelementptr float, ptr addrspace(1) %y, i32 %303
  %336 = getelementptr float, ptr addrspace(1) %y, i32 %304
  %337 = getelementptr float, ptr addrspace(1) %y, i32 %305
  br i1 %42, label %masked15, label %join16

masked15:                                         ; preds = %join14
  %338 = insertelement <4 x float> poison, float %164, i32 0
  %339 = insertelement <4 x float> %338, float %165, i32 1
  %340 = insertelement <4 x float> %339, float %166, i32 2
  %341 = insertelement <4 x float> %340, float %167, i32 3
  store <4 x float> %341, ptr addrspace(1) %306, align 16
  br label %join16

join16:                                           ; preds = %masked15, %join14
  br i1 %46, label %masked17, label %join18

masked17:                                         ; preds = %join16
  %342 = insertelement <4 x float> poison, float %178, i32 0
  %343 = insertelement <4 x float> %342, float %179, i32 1
  %344 = insertelement <4 x float> %343, float %180, i32 2
  %345 = insertelement <4 x float> %344, float %181, i32 3
  store <4 x float> %345, ptr addrspace(1) %310, align 16
  br label %join18

join18:                                           ; preds = %masked17, %join16
  br i1 %50, label %masked19, label %join20

masked19:                                         ; preds = %join18
  %346 = insertelement <4 x float> poison, float %192, i32 0
  %347 = insertelement <4 x float> %346, float %193, i32 1
  %348 = insertelement <4 x float> %347, float %194, i32 2
  %349 = insertelement <4 x float> %348, float %195, i32 3
  store <4 x float> %349, ptr addrspace(1) %314, align 16
  br label %join20

join20:                                           ; preds = %masked19, %join18
  br i1 %54, label %masked21, label %join22

masked21:                                         ; preds = %join20
  %350 = insertelement <4 x float> poison, float %206, i32 0
  %351 = insertelement <4 x float> %350, float %207, i32 1
  %352 = insertelement <4 x float> %351, float %208, i32 2
  %353 = insertelement <4 x float> %352, float %209, i32 3
  store <4 x float> %353, ptr addrspace(1) %318, align 16
  br label %join22

join22:                                           ; preds = %masked21, %join20
  br i1 %58, label %masked23, label %join24

masked23:                                         ; preds = %join22
  %354 = insertelement <4 x float> poison, float %220, i32 0
  %355 = insertelement <4 x float> %354, float %221, i32 1
  %356 = insertelement <4 x float> %355, float %222, i32 2
  %357 = insertelement <4 x float> %356, float %223, i32 3
  store <4 x float> %357, ptr addrspace(1) %322, align 16
  br label %join24

join24:                                           ; preds = %masked23, %join22
  br i1 %62, label %masked25, label %join26

masked25:                                         ; preds = %join24
  %358 = insertelement <4 x float> poison, float %234, i32 0
  %359 = insertelement <4 x float> %358, float %235, i32 1
  %360 = insertelement <4 x float> %359, float %236, i32 2
  %361 = insertelement <4 x float> %360, float %237, i32 3
  store <4 x float> %361, ptr addrspace(1) %326, align 16
  br label %join26

join26:                                           ; preds = %masked25, %join24
  br i1 %66, label %masked27, label %join28

masked27:                                         ; preds = %join26
  %362 = insertelement <4 x float> poison, float %248, i32 0
  %363 = insertelement <4 x float> %362, float %249, i32 1
  %364 = insertelement <4 x float> %363, float %250, i32 2
  %365 = insertelement <4 x float> %364, float %251, i32 3
  store <4 x float> %365, ptr addrspace(1) %330, align 16
  br label %join28

join28:                                           ; preds = %masked27, %join26
  br i1 %70, label %masked29, label %join30

masked29:                                         ; preds = %join28
  %366 = insertelement <4 x float> poison, float %262, i32 0
  %367 = insertelement <4 x float> %366, float %263, i32 1
  %368 = insertelement <4 x float> %367, float %264, i32 2
  %369 = insertelement <4 x float> %368, float %265, i32 3
  store <4 x float> %369, ptr addrspace(1) %334, align 16
  br label %join30

join30:                                           ; preds = %masked29, %join28
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
