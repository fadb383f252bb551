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
  %115 = load float, ptr addrspace(3) @weft_smem, align 4
  %116 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 4), align 4
  %117 = fadd contract float %115, %116
  %118 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 8), align 4
  %119 = fadd contract float %117, %118
  %120 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 12), align 4
  %121 = fadd contract float %119, %120
  %122 = fdiv float %121, %70
  %123 = fsub contract float %36, %122
  %124 = fsub contract float %37, %122
  %125 = fsub contract float %38, %122
  %126 = fsub contract float %39, %122
  %127 = select i1 %22, float %123, float 0.000000e+00
  %128 = select i1 %22, float %124, float 0.000000e+00
  %129 = select i1 %22, float %125, float 0.000000e+00
  %130 = select i1 %22, float %126, float 0.000000e+00
  %131 = fmul contract float %127, %127
  %132 = fmul contract float %128, %128
  %133 = fmul contract float %129, %129
  %134 = fmul contract float %130, %130
  %135 = fadd contract float %131, %132
  %136 = fadd contract float %135, %133
  %137 = fadd contract float %136, %134
  %138 = bitcast float %137 to i32
  %139 = xor i32 %lane5, 1
  %140 = shl i32 %139, 2
  %141 = call i32 @llvm.amdgcn.ds.bpermute(i32 %140, i32 %138)
  %142 = bitcast i32 %141 to float
  %143 = fadd contract float %137, %142
  %144 = bitcast float %143 to i32
  %145 = xor i32 %lane5, 2
  %146 = shl i32 %145, 2
  %147 = call i32 @llvm.amdgcn.ds.bpermute(i32 %146, i32 %144)
  %148 = bitcast i32 %147 to float
  %149 = fadd contract float %143, %148
  %150 = bitcast float %149 to i32
  %151 = xor i32 %lane5, 4
  %152 = shl i32 %151, 2
  %153 = call i32 @llvm.amdgcn.ds.bpermute(i32 %152, i32 %150)
  %154 = bitcast i32 %153 to float
  %155 = fadd contract float %149, %154
  %156 = bitcast float %155 to i32
  %157 = xor i32 %lane5, 8
  %158 = shl i32 %157, 2
  %159 = call i32 @llvm.amdgcn.ds.bpermute(i32 %158, i32 %156)
  %160 = bitcast i32 %159 to float
  %161 = fadd contract float %155, %160
  %162 = bitcast float %161 to i32
  %163 = xor i32 %lane5, 16
  %164 = shl i32 %163, 2
  %165 = call i32 @llvm.amdgcn.ds.bpermute(i32 %164, i32 %162)
  %166 = bitcast i32 %165 to float
  %167 = fadd contract float %161, %166
  %168 = bitcast float %167 to i32
  %169 = xor i32 %lane5, 32
  %170 = shl i32 %169, 2
  %171 = call i32 @llvm.amdgcn.ds.bpermute(i32 %170, i32 %168)
  %172 = bitcast i32 %171 to float
  %173 = fadd contract float %167, %172
  %174 = mul i32 %18, 1
  %175 = add i32 %174, 0
  %176 = mul i32 %175, 4
  %177 = add i32 %176, 16
  %178 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %177
  store float %173, ptr addrspace(3) %178, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %179 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 4
  %180 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 20), align 4
  %181 = fadd contract float %179, %180
  %182 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 24), align 4
  %183 = fadd contract float %181, %182
  %184 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 28), align 4
  %185 = fadd contract float %183, %184
  %186 = fdiv float %185, %70
  %187 = fadd contract float %186, %eps
  %188 = call float @llvm.sqrt.f32(float %187)
  %189 = fdiv float 1.000000e+00, %188
  %190 = fcmp olt float %187, 0x3810000000000000
  %191 = fmul float %187, 0x4190000000000000
  %192 = select i1 %190, float %191, float %187
  %193 = bitcast float %192 to i32
  %194 = ashr i32 %193, 23
  %195 = sub i32 %194, 127
  %196 = ashr i32 %195, 1
  %197 = add i32 %196, %196
  %198 = sub i32 0, %197
  %199 = add i32 %198, 127
  %200 = shl i32 %199, 23
  %201 = bitcast i32 %200 to float
  %202 = fmul float %192, %201
  %203 = call float @llvm.sqrt.f32(float %202)
  %204 = fdiv float 1.000000e+00, %203
  %205 = fmul float %204, %204
  %206 = fneg float %205
  %207 = call float @llvm.fma.f32(float %204, float %204, float %206)
  %208 = fmul float %202, %205
  %209 = fneg float %208
  %210 = call float @llvm.fma.f32(float %202, float %205, float %209)
  %211 = fsub float %208, 1.000000e+00
  %212 = call float @llvm.fma.f32(float %202, float %207, float %210)
  %213 = fadd float %211, %212
  %214 = fmul float -5.000000e-01, %204
  %215 = call float @llvm.fma.f32(float %214, float %213, float %204)
  %216 = select i1 %190, i32 13, i32 0
  %217 = sub i32 %216, %196
  %218 = ashr i32 %217, 1
  %219 = sub i32 %217, %218
  %220 = add i32 %218, 127
  %221 = shl i32 %220, 23
  %222 = bitcast i32 %221 to float
  %223 = fmul float %215, %222
  %224 = add i32 %219, 127
  %225 = shl i32 %224, 23
  %226 = bitcast i32 %225 to float
  %227 = fmul float %223, %226
  %228 = fcmp ogt float %187, 0.000000e+00
  %229 = fcmp olt float %187, 0x7FF0000000000000
  %230 = and i1 %228, %229
  %231 = select i1 %230, float %227, float %189
  %232 = fmul contract float %127, %231
  %233 = fmul contract float %128, %231
  %234 = fmul contract float %129, %231
  %235 = fmul contract float %130, %231
  %236 = call float @llvm.fma.f32(float %232, float %51, float %66)
  %237 = call float @llvm.fma.f32(float %233, float %52, float %67)
  %238 = call float @llvm.fma.f32(float %234, float %53, float %68)
  %239 = call float @llvm.fma.f32(float %235, float %54, float %69)
  %240 = getelementptr float, ptr addrspace(1) %y, i32 %24
  br i1 %23, label %masked7, label %join8

masked7:                                          ; preds = %join4
  %241 = insertelement <4 x float> poison, float %236, i32 0
  %242 = insertelement <4 x float> %241, float %237, i32 1
  %243 = insertelement <4 x float> %242, float %238, i32 2
  %244 = insertelement <4 x float> %243, float %239, i32 3
  store <4 x float> %244, ptr addrspace(1) %240, align 16
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
