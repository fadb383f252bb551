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
  br label %join

join:                                             ; preds = %masked, %body
  %27 = phi <4 x float> [ %26, %masked ], [ zeroinitializer, %body ]
  %28 = extractelement <4 x float> %27, i32 0
  %29 = extractelement <4 x float> %27, i32 1
  %30 = extractelement <4 x float> %27, i32 2
  %31 = extractelement <4 x float> %27, i32 3
  %32 = getelementptr float, ptr addrspace(1) %w, i32 %2
  br i1 %22, label %masked1, label %join2

masked1:                                          ; preds = %join
  %33 = load <4 x float>, ptr addrspace(1) %32, align 16
  br label %join2

join2:                                            ; preds = %masked1, %join
  %34 = phi <4 x float> [ %33, %masked1 ], [ zeroinitializer, %join ]
  %35 = extractelement <4 x float> %34, i32 0
  %36 = extractelement <4 x float> %34, i32 1
  %37 = extractelement <4 x float> %34, i32 2
  %38 = extractelement <4 x float> %34, i32 3
  %39 = getelementptr float, ptr addrspace(1) %b, i32 %2
  br i1 %22, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %40 = load <4 x float>, ptr addrspace(1) %39, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %41 = phi <4 x float> [ %40, %masked3 ], [ zeroinitializer, %join2 ]
  %42 = extractelement <4 x float> %41, i32 0
  %43 = extractelement <4 x float> %41, i32 1
  %44 = extractelement <4 x float> %41, i32 2
  %45 = extractelement <4 x float> %41, i32 3
  %46 = sitofp i32 %n to float
  %47 = fadd contract float %28, %29
  %48 = fadd contract float %47, %30
  %49 = fadd contract float %48, %31
  %50 = bitcast float %49 to i32
  %51 = xor i32 %lane, 1
  %52 = shl i32 %51, 2
  %53 = call i32 @llvm.amdgcn.ds.bpermute(i32 %52, i32 %50)
  %54 = bitcast i32 %53 to float
  %55 = fadd contract float %49, %54
  %56 = bitcast float %55 to i32
  %57 = xor i32 %lane, 2
  %58 = shl i32 %57, 2
  %59 = call i32 @llvm.amdgcn.ds.bpermute(i32 %58, i32 %56)
  %60 = bitcast i32 %59 to float
  %61 = fadd contract float %55, %60
  %62 = bitcast float %61 to i32
  %63 = xor i32 %lane, 4
  %64 = shl i32 %63, 2
  %65 = call i32 @llvm.amdgcn.ds.bpermute(i32 %64, i32 %62)
  %66 = bitcast i32 %65 to float
  %67 = fadd contract float %61, %66
  %68 = bitcast float %67 to i32
  %69 = xor i32 %lane, 8
  %70 = shl i32 %69, 2
  %71 = call i32 @llvm.amdgcn.ds.bpermute(i32 %70, i32 %68)
  %72 = bitcast i32 %71 to float
  %73 = fadd contract float %67, %72
  %74 = bitcast float %73 to i32
  %75 = xor i32 %lane, 16
  %76 = shl i32 %75, 2
  %77 = call i32 @llvm.amdgcn.ds.bpermute(i32 %76, i32 %74)
  %78 = bitcast i32 %77 to float
  %79 = fadd contract float %73, %78
  %80 = bitcast float %79 to i32
  %81 = xor i32 %lane, 32
  %82 = shl i32 %81, 2
  %83 = call i32 @llvm.amdgcn.ds.bpermute(i32 %82, i32 %80)
  %84 = bitcast i32 %83 to float
  %85 = fadd contract float %79, %84
  %86 = mul i32 %10, 1
  %87 = add i32 %86, 0
  %88 = mul i32 %87, 4
  %89 = add i32 %88, 0
  %90 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %89
  store float %85, ptr addrspace(3) %90, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %91 = load <4 x float>, ptr addrspace(3) @weft_smem, align 16
  %92 = extractelement <4 x float> %91, i32 0
  %93 = extractelement <4 x float> %91, i32 1
  %94 = fadd contract float %92, %93
  %95 = extractelement <4 x float> %91, i32 2
  %96 = fadd contract float %94, %95
  %97 = extractelement <4 x float> %91, i32 3
  %98 = fadd contract float %96, %97
  %99 = fdiv arcp afn float %98, %46
  %100 = fsub contract float %28, %99
  %101 = fsub contract float %29, %99
  %102 = fsub contract float %30, %99
  %103 = fsub contract float %31, %99
  %104 = select i1 %22, float %100, float 0.000000e+00
  %105 = select i1 %22, float %101, float 0.000000e+00
  %106 = select i1 %22, float %102, float 0.000000e+00
  %107 = select i1 %22, float %103, float 0.000000e+00
  %108 = fmul contract float %104, %104
  %109 = fmul contract float %105, %105
  %110 = fmul contract float %106, %106
  %111 = fmul contract float %107, %107
  %112 = fadd contract float %108, %109
  %113 = fadd contract float %112, %110
  %114 = fadd contract float %113, %111
  %115 = bitcast float %114 to i32
  %116 = xor i32 %lane5, 1
  %117 = shl i32 %116, 2
  %118 = call i32 @llvm.amdgcn.ds.bpermute(i32 %117, i32 %115)
  %119 = bitcast i32 %118 to float
  %120 = fadd contract float %114, %119
  %121 = bitcast float %120 to i32
  %122 = xor i32 %lane5, 2
  %123 = shl i32 %122, 2
  %124 = call i32 @llvm.amdgcn.ds.bpermute(i32 %123, i32 %121)
  %125 = bitcast i32 %124 to float
  %126 = fadd contract float %120, %125
  %127 = bitcast float %126 to i32
  %128 = xor i32 %lane5, 4
  %129 = shl i32 %128, 2
  %130 = call i32 @llvm.amdgcn.ds.bpermute(i32 %129, i32 %127)
  %131 = bitcast i32 %130 to float
  %132 = fadd contract float %126, %131
  %133 = bitcast float %132 to i32
  %134 = xor i32 %lane5, 8
  %135 = shl i32 %134, 2
  %136 = call i32 @llvm.amdgcn.ds.bpermute(i32 %135, i32 %133)
  %137 = bitcast i32 %136 to float
  %138 = fadd contract float %132, %137
  %139 = bitcast float %138 to i32
  %140 = xor i32 %lane5, 16
  %141 = shl i32 %140, 2
  %142 = call i32 @llvm.amdgcn.ds.bpermute(i32 %141, i32 %139)
  %143 = bitcast i32 %142 to float
  %144 = fadd contract float %138, %143
  %145 = bitcast float %144 to i32
  %146 = xor i32 %lane5, 32
  %147 = shl i32 %146, 2
  %148 = call i32 @llvm.amdgcn.ds.bpermute(i32 %147, i32 %145)
  %149 = bitcast i32 %148 to float
  %150 = fadd contract float %144, %149
  %151 = mul i32 %18, 1
  %152 = add i32 %151, 0
  %153 = mul i32 %152, 4
  %154 = add i32 %153, 16
  %155 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %154
  store float %150, ptr addrspace(3) %155, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %156 = load <4 x float>, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 16
  %157 = extractelement <4 x float> %156, i32 0
  %158 = extractelement <4 x float> %156, i32 1
  %159 = fadd contract float %157, %158
  %160 = extractelement <4 x float> %156, i32 2
  %161 = fadd contract float %159, %160
  %162 = extractelement <4 x float> %156, i32 3
  %163 = fadd contract float %161, %162
  %164 = fdiv arcp afn float %163, %46
  %165 = fadd contract float %164, %eps
  %166 = call float @llvm.sqrt.f32(float %165)
  %167 = fdiv float 1.000000e+00, %166
  %168 = fcmp olt float %165, 0x3810000000000000
  %169 = fmul float %165, 0x4190000000000000
  %170 = select i1 %168, float %169, float %165
  %171 = bitcast float %170 to i32
  %172 = ashr i32 %171, 23
  %173 = sub i32 %172, 127
  %174 = ashr i32 %173, 1
  %175 = add i32 %174, %174
  %176 = sub i32 0, %175
  %177 = add i32 %176, 127
  %178 = shl i32 %177, 23
  %179 = bitcast i32 %178 to float
  %180 = fmul float %170, %179
  %181 = call float @llvm.sqrt.f32(float %180)
  %182 = fdiv float 1.000000e+00, %181
  %183 = fmul float %182, %182
  %184 = fneg float %183
  %185 = call float @llvm.fma.f32(float %182, float %182, float %184)
  %186 = fmul float %180, %183
  %187 = fneg float %186
  %188 = call float @llvm.fma.f32(float %180, float %183, float %187)
  %189 = fsub float %186, 1.000000e+00
  %190 = call float @llvm.fma.f32(float %180, float %185, float %188)
  %191 = fadd float %189, %190
  %192 = fmul float -5.000000e-01, %182
  %193 = call float @llvm.fma.f32(float %192, float %191, float %182)
  %194 = select i1 %168, i32 13, i32 0
  %195 = sub i32 %194, %174
  %196 = ashr i32 %195, 1
  %197 = sub i32 %195, %196
  %198 = add i32 %196, 127
  %199 = shl i32 %198, 23
  %200 = bitcast i32 %199 to float
  %201 = fmul float %193, %200
  %202 = add i32 %197, 127
  %203 = shl i32 %202, 23
  %204 = bitcast i32 %203 to float
  %205 = fmul float %201, %204
  %206 = fcmp ogt float %165, 0.000000e+00
  %207 = fcmp olt float %165, 0x7FF0000000000000
  %208 = and i1 %206, %207
  %209 = select i1 %208, float %205, float %167
  %210 = fmul contract float %104, %209
  %211 = fmul contract float %105, %209
  %212 = fmul contract float %106, %209
  %213 = fmul contract float %107, %209
  %214 = call float @llvm.fma.f32(float %210, float %35, float %42)
  %215 = call float @llvm.fma.f32(float %211, float %36, float %43)
  %216 = call float @llvm.fma.f32(float %212, float %37, float %44)
  %217 = call float @llvm.fma.f32(float %213, float %38, float %45)
  %218 = getelementptr float, ptr addrspace(1) %y, i32 %24
  br i1 %23, label %masked7, label %join8

masked7:                                          ; preds = %join4
  %219 = insertelement <4 x float> poison, float %214, i32 0
  %220 = insertelement <4 x float> %219, float %215, i32 1
  %221 = insertelement <4 x float> %220, float %216, i32 2
  %222 = insertelement <4 x float> %221, float %217, i32 3
  store <4 x float> %222, ptr addrspace(1) %218, align 16
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
