target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @layernorm(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %w, ptr addrspace(1) align 16 %b, i32 %m, i32 %n, float %eps) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %2 = shl i32 %1, 2
  %lane = and i32 %1, 63
  %warp = lshr i32 %1, 6
  %3 = lshr i32 %warp, 0
  %4 = and i32 %3, 1
  %5 = shl i32 %4, 0
  %6 = or i32 0, %5
  %7 = lshr i32 %warp, 1
  %8 = and i32 %7, 1
  %9 = shl i32 %8, 1
  %10 = or i32 %6, %9
  %lane5 = and i32 %1, 63
  %warp6 = lshr i32 %1, 6
  %11 = lshr i32 %warp6, 0
  %12 = and i32 %11, 1
  %13 = shl i32 %12, 0
  %14 = or i32 0, %13
  %15 = lshr i32 %warp6, 1
  %16 = and i32 %15, 1
  %17 = shl i32 %16, 1
  %18 = or i32 %14, %17
  br label %body

body:                                             ; preds = %prologue
  %19 = shl i32 %0, 0
  %20 = icmp slt i32 %19, %m
  %21 = mul i32 %19, %n
  %22 = icmp slt i32 %2, %n
  %23 = and i1 %20, %22
  %24 = add i32 %21, %2
  %25 = getelementptr float, ptr addrspace(1) %x, i32 %24
  br i1 %23, label %masked, label %join

masked:                                           ; preds = %body
  %26 = load <4 x float>, ptr addrspace(1) %25, align 16
  %27 = extractelement <4 x float> %26, i32 0
  %28 = extractelement <4 x float> %26, i32 1
  %29 = extractelement <4 x float> %26, i32 2
  %30 = extractelement <4 x float> %26, i32 3
  %31 = insertelement <4 x float> poison, float %27, i32 0
  %32 = insertelement <4 x float> %31, float %28, i32 1
  %33 = insertelement <4 x float> %32, float %29, i32 2
  %34 = insertelement <4 x float> %33, float %30, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %35 = phi <4 x float> [ %34, %masked ], [ zeroinitializer, %body ]
  %36 = extractelement <4 x float> %35, i32 0
  %37 = extractelement <4 x float> %35, i32 1
  %38 = extractelement <4 x float> %35, i32 2
  %39 = extractelement <4 x float> %35, i32 3
  %40 = getelementptr float, ptr addrspace(1) %w, i32 %2
  br i1 %22, label %masked1, label %join2

masked1:                                          ; preds = %join
  %41 = load <4 x float>, ptr addrspace(1) %40, align 16
  %42 = extractelement <4 x float> %41, i32 0
  %43 = extractelement <4 x float> %41, i32 1
  %44 = extractelement <4 x float> %41, i32 2
  %45 = extractelement <4 x float> %41, i32 3
  %46 = insertelement <4 x float> poison, float %42, i32 0
  %47 = insertelement <4 x float> %46, float %43, i32 1
  %48 = insertelement <4 x float> %47, float %44, i32 2
  %49 = insertelement <4 x float> %48, float %45, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %50 = phi <4 x float> [ %49, %masked1 ], [ zeroinitializer, %join ]
  %51 = extractelement <4 x float> %50, i32 0
  %52 = extractelement <4 x float> %50, i32 1
  %53 = extractelement <4 x float> %50, i32 2
  %54 = extractelement <4 x float> %50, i32 3
  %55 = getelementptr float, ptr addrspace(1) %b, i32 %2
  br i1 %22, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %56 = load <4 x float>, ptr addrspace(1) %55, align 16
  %57 = extractelement <4 x float> %56, i32 0
  %58 = extractelement <4 x float> %56, i32 1
  %59 = extractelement <4 x float> %56, i32 2
  %60 = extractelement <4 x float> %56, i32 3
  %61 = insertelement <4 x float> poison, float %57, i32 0
  %62 = insertelement <4 x float> %61, float %58, i32 1
  %63 = insertelement <4 x float> %62, float %59, i32 2
  %64 = insertelement <4 x float> %63, float %60, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %65 = phi <4 x float> [ %64, %masked3 ], [ zeroinitializer, %join2 ]
  %66 = extractelement <4 x float> %65, i32 0
  %67 = extractelement <4 x float> %65, i32 1
  %68 = extractelement <4 x float> %65, i32 2
  %69 = extractelement <4 x float> %65, i32 3
  %70 = sitofp i32 %n to float
  %71 = fadd contract float %36, %37
  %72 = fadd contract float %71, %38
  %73 = fadd contract float %72, %39
  %74 = bitcast float %73 to i32
  %75 = xor i32 %lane, 1
  %76 = shl i32 %75, 2
  %77 = call i32 @llvm.amdgcn.ds.bpermute(i32 %76, i32 %74)
  %78 = bitcast i32 %77 to float
  %79 = fadd contract float %73, %78
  %80 = bitcast float %79 to i32
  %81 = xor i32 %lane, 2
  %82 = shl i32 %81, 2
  %83 = call i32 @llvm.amdgcn.ds.bpermute(i32 %82, i32 %80)
  %84 = bitcast i32 %83 to float
  %85 = fadd contract float %79, %84
  %86 = bitcast float %85 to i32
  %87 = xor i32 %lane, 4
  %88 = shl i32 %87, 2
  %89 = call i32 @llvm.amdgcn.ds.bpermute(i32 %88, i32 %86)
  %90 = bitcast i32 %89 to float
  %91 = fadd contract float %85, %90
  %92 = bitcast float %91 to i32
  %93 = xor i32 %lane, 8
  %94 = shl i32 %93, 2
  %95 = call i32 @llvm.amdgcn.ds.bpermute(i32 %94, i32 %92)
  %96 = bitcast i32 %95 to float
  %97 = fadd contract float %91, %96
  %98 = bitcast float %97 to i32
  %99 = xor i32 %lane, 16
  %100 = shl i32 %99, 2
  %101 = call i32 @llvm.amdgcn.ds.bpermute(i32 %100, i32 %98)
  %102 = bitcast i32 %101 to float
  %103 = fadd contract float %97, %102
  %104 = bitcast float %103 to i32
  %105 = xor i32 %lane, 32
  %106 = shl i32 %105, 2
  %107 = call i32 @llvm.amdgcn.ds.bpermute(i32 %106, i32 %104)
  %108 = bitcast i32 %107 to float
  %109 = fadd contract float %103, %108
  %110 = mul i32 %10, 1
  %111 = add i32 %110, 0
  %112 = mul i32 %111, 4
  %113 = add i32 %112, 0
  %114 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %113
  store float %109, ptr addrspace(3) %114, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %115 = load <4 x float>, ptr addrspace(3) @weft_smem, align 16
  %116 = extractelement <4 x float> %115, i32 0
  %117 = extractelement <4 x float> %115, i32 1
  %118 = fadd contract float %116, %117
  %119 = extractelement <4 x float> %115, i32 2
  %120 = fadd contract float %118, %119
  %121 = extractelement <4 x float> %115, i32 3
  %122 = fadd contract float %120, %121
  %123 = fdiv float %122, %70
  %124 = fsub contract float %36, %123
  %125 = fsub contract float %37, %123
  %126 = fsub contract float %38, %123
  %127 = fsub contract float %39, %123
  %128 = select i1 %22, float %124, float 0.000000e+00
  %129 = select i1 %22, float %125, float 0.000000e+00
  %130 = select i1 %22, float %126, float 0.000000e+00
  %131 = select i1 %22, float %127, float 0.000000e+00
  %132 = fmul contract float %128, %128
  %133 = fmul contract float %129, %129
  %134 = fmul contract float %130, %130
  %135 = fmul contract float %131, %131
  %136 = fadd contract float %132, %133
  %137 = fadd contract float %136, %134
  %138 = fadd contract float %137, %135
  %139 = bitcast float %138 to i32
  %140 = xor i32 %lane5, 1
  %141 = shl i32 %140, 2
  %142 = call i32 @llvm.amdgcn.ds.bpermute(i32 %141, i32 %139)
  %143 = bitcast i32 %142 to float
  %144 = fadd contract float %138, %143
  %145 = bitcast float %144 to i32
  %146 = xor i32 %lane5, 2
  %147 = shl i32 %146, 2
  %148 = call i32 @llvm.amdgcn.ds.bpermute(i32 %147, i32 %145)
  %149 = bitcast i32 %148 to float
  %150 = fadd contract float %144, %149
  %151 = bitcast float %150 to i32
  %152 = xor i32 %lane5, 4
  %153 = shl i32 %152, 2
  %154 = call i32 @llvm.amdgcn.ds.bpermute(i32 %153, i32 %151)
  %155 = bitcast i32 %154 to float
  %156 = fadd contract float %150, %155
  %157 = bitcast float %156 to i32
  %158 = xor i32 %lane5, 8
  %159 = shl i32 %158, 2
  %160 = call i32 @llvm.amdgcn.ds.bpermute(i32 %159, i32 %157)
  %161 = bitcast i32 %160 to float
  %162 = fadd contract float %156, %161
  %163 = bitcast float %162 to i32
  %164 = xor i32 %lane5, 16
  %165 = shl i32 %164, 2
  %166 = call i32 @llvm.amdgcn.ds.bpermute(i32 %165, i32 %163)
  %167 = bitcast i32 %166 to float
  %168 = fadd contract float %162, %167
  %169 = bitcast float %168 to i32
  %170 = xor i32 %lane5, 32
  %171 = shl i32 %170, 2
  %172 = call i32 @llvm.amdgcn.ds.bpermute(i32 %171, i32 %169)
  %173 = bitcast i32 %172 to float
  %174 = fadd contract float %168, %173
  %175 = mul i32 %18, 1
  %176 = add i32 %175, 0
  %177 = mul i32 %176, 4
  %178 = add i32 %177, 16
  %179 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %178
  store float %174, ptr addrspace(3) %179, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %180 = load <4 x float>, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 16
  %181 = extractelement <4 x float> %180, i32 0
  %182 = extractelement <4 x float> %180, i32 1
  %183 = fadd contract float %181, %182
  %184 = extractelement <4 x float> %180, i32 2
  %185 = fadd contract float %183, %184
  %186 = extractelement <4 x float> %180, i32 3
  %187 = fadd contract float %185, %186
  %188 = fdiv float %187, %70
  %189 = fadd contract float %188, %eps
  %190 = call float @llvm.sqrt.f32(float %189)
  %191 = fdiv float 1.000000e+00, %190
  %192 = fcmp olt float %189, 0x3810000000000000
  %193 = fmul float %189, 0x4190000000000000
  %194 = select i1 %192, float %193, float %189
  %195 = bitcast float %194 to i32
  %196 = ashr i32 %195, 23
  %197 = sub i32 %196, 127
  %198 = ashr i32 %197, 1
  %199 = add i32 %198, %198
  %200 = sub i32 0, %199
  %201 = add i32 %200, 127
  %202 = shl i32 %201, 23
  %203 = bitcast i32 %202 to float
  %204 = fmul float %194, %203
  %205 = call float @llvm.sqrt.f32(float %204)
  %206 = fdiv float 1.000000e+00, %205
  %207 = fmul float %206, %206
  %208 = fneg float %207
  %209 = call float @llvm.fma.f32(float %206, float %206, float %208)
  %210 = fmul float %204, %207
  %211 = fneg float %210
  %212 = call float @llvm.fma.f32(float %204, float %207, float %211)
  %213 = fsub float %210, 1.000000e+00
  %214 = call float @llvm.fma.f32(float %204, float %209, float %212)
  %215 = fadd float %213, %214
  %216 = fmul float -5.000000e-01, %206
  %217 = call float @llvm.fma.f32(float %216, float %215, float %206)
  %218 = select i1 %192, i32 13, i32 0
  %219 = sub i32 %218, %198
  %220 = ashr i32 %219, 1
  %221 = sub i32 %219, %220
  %222 = add i32 %220, 127
  %223 = shl i32 %222, 23
  %224 = bitcast i32 %223 to float
  %225 = fmul float %217, %224
  %226 = add i32 %221, 127
  %227 = shl i32 %226, 23
  %228 = bitcast i32 %227 to float
  %229 = fmul float %225, %228
  %230 = fcmp ogt float %189, 0.000000e+00
  %231 = fcmp olt float %189, 0x7FF0000000000000
  %232 = and i1 %230, %231
  %233 = select i1 %232, float %229, float %191
  %234 = fmul contract float %128, %233
  %235 = fmul contract float %129, %233
  %236 = fmul contract float %130, %233
  %237 = fmul contract float %131, %233
  %238 = call float @llvm.fma.f32(float %234, float %51, float %66)
  %239 = call float @llvm.fma.f32(float %235, float %52, float %67)
  %240 = call float @llvm.fma.f32(float %236, float %53, float %68)
  %241 = call float @llvm.fma.f32(float %237, float %54, float %69)
  %242 = getelementptr float, ptr addrspace(1) %y, i32 %24
  br i1 %23, label %masked7, label %join8

masked7:                                          ; preds = %join4
  %243 = insertelement <4 x float> poison, float %238, i32 0
  %244 = insertelement <4 x float> %243, float %239, i32 1
  %245 = insertelement <4 x float> %244, float %240, i32 2
  %246 = insertelement <4 x float> %245, float %241, i32 3
  store <4 x float> %246, ptr addrspace(1) %242, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #2

; Function Attrs: convergent nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.sqrt.f32(float) #4

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
attributes #2 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #3 = { convergent nocallback nofree nounwind willreturn }
attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
