target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @softmax(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m, i32 %n) #1 {
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
  %lane1 = and i32 %1, 63
  %warp2 = lshr i32 %1, 6
  %11 = lshr i32 %warp2, 0
  %12 = and i32 %11, 1
  %13 = shl i32 %12, 0
  %14 = or i32 0, %13
  %15 = lshr i32 %warp2, 1
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
  %32 = select i1 %23, float %28, float 0xFFF0000000000000
  %33 = select i1 %23, float %29, float 0xFFF0000000000000
  %34 = select i1 %23, float %30, float 0xFFF0000000000000
  %35 = select i1 %23, float %31, float 0xFFF0000000000000
  %36 = call float @llvm.maxnum.f32(float %32, float %33)
  %37 = call float @llvm.maxnum.f32(float %36, float %34)
  %38 = call float @llvm.maxnum.f32(float %37, float %35)
  %39 = bitcast float %38 to i32
  %40 = xor i32 %lane, 1
  %41 = shl i32 %40, 2
  %42 = call i32 @llvm.amdgcn.ds.bpermute(i32 %41, i32 %39)
  %43 = bitcast i32 %42 to float
  %44 = call float @llvm.maxnum.f32(float %38, float %43)
  %45 = bitcast float %44 to i32
  %46 = xor i32 %lane, 2
  %47 = shl i32 %46, 2
  %48 = call i32 @llvm.amdgcn.ds.bpermute(i32 %47, i32 %45)
  %49 = bitcast i32 %48 to float
  %50 = call float @llvm.maxnum.f32(float %44, float %49)
  %51 = bitcast float %50 to i32
  %52 = xor i32 %lane, 4
  %53 = shl i32 %52, 2
  %54 = call i32 @llvm.amdgcn.ds.bpermute(i32 %53, i32 %51)
  %55 = bitcast i32 %54 to float
  %56 = call float @llvm.maxnum.f32(float %50, float %55)
  %57 = bitcast float %56 to i32
  %58 = xor i32 %lane, 8
  %59 = shl i32 %58, 2
  %60 = call i32 @llvm.amdgcn.ds.bpermute(i32 %59, i32 %57)
  %61 = bitcast i32 %60 to float
  %62 = call float @llvm.maxnum.f32(float %56, float %61)
  %63 = bitcast float %62 to i32
  %64 = xor i32 %lane, 16
  %65 = shl i32 %64, 2
  %66 = call i32 @llvm.amdgcn.ds.bpermute(i32 %65, i32 %63)
  %67 = bitcast i32 %66 to float
  %68 = call float @llvm.maxnum.f32(float %62, float %67)
  %69 = bitcast float %68 to i32
  %70 = xor i32 %lane, 32
  %71 = shl i32 %70, 2
  %72 = call i32 @llvm.amdgcn.ds.bpermute(i32 %71, i32 %69)
  %73 = bitcast i32 %72 to float
  %74 = call float @llvm.maxnum.f32(float %68, float %73)
  %75 = mul i32 %10, 1
  %76 = add i32 %75, 0
  %77 = mul i32 %76, 4
  %78 = add i32 %77, 0
  %79 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %78
  store float %74, ptr addrspace(3) %79, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %80 = load <4 x float>, ptr addrspace(3) @weft_smem, align 16
  %81 = extractelement <4 x float> %80, i32 0
  %82 = extractelement <4 x float> %80, i32 1
  %83 = call float @llvm.maxnum.f32(float %81, float %82)
  %84 = extractelement <4 x float> %80, i32 2
  %85 = call float @llvm.maxnum.f32(float %83, float %84)
  %86 = extractelement <4 x float> %80, i32 3
  %87 = call float @llvm.maxnum.f32(float %85, float %86)
  %88 = fmul float %87, 0xBFF7154760000000
  %89 = call float @llvm.fma.f32(float %32, float 0x3FF7154760000000, float %88)
  %90 = call float @llvm.fma.f32(float %33, float 0x3FF7154760000000, float %88)
  %91 = call float @llvm.fma.f32(float %34, float 0x3FF7154760000000, float %88)
  %92 = call float @llvm.fma.f32(float %35, float 0x3FF7154760000000, float %88)
  %93 = call float @llvm.exp2.f32(float %89)
  %94 = call float @llvm.exp2.f32(float %90)
  %95 = call float @llvm.exp2.f32(float %91)
  %96 = call float @llvm.exp2.f32(float %92)
  %97 = fadd float %93, %94
  %98 = fadd float %97, %95
  %99 = fadd float %98, %96
  %100 = bitcast float %99 to i32
  %101 = xor i32 %lane1, 1
  %102 = shl i32 %101, 2
  %103 = call i32 @llvm.amdgcn.ds.bpermute(i32 %102, i32 %100)
  %104 = bitcast i32 %103 to float
  %105 = fadd float %99, %104
  %106 = bitcast float %105 to i32
  %107 = xor i32 %lane1, 2
  %108 = shl i32 %107, 2
  %109 = call i32 @llvm.amdgcn.ds.bpermute(i32 %108, i32 %106)
  %110 = bitcast i32 %109 to float
  %111 = fadd float %105, %110
  %112 = bitcast float %111 to i32
  %113 = xor i32 %lane1, 4
  %114 = shl i32 %113, 2
  %115 = call i32 @llvm.amdgcn.ds.bpermute(i32 %114, i32 %112)
  %116 = bitcast i32 %115 to float
  %117 = fadd float %111, %116
  %118 = bitcast float %117 to i32
  %119 = xor i32 %lane1, 8
  %120 = shl i32 %119, 2
  %121 = call i32 @llvm.amdgcn.ds.bpermute(i32 %120, i32 %118)
  %122 = bitcast i32 %121 to float
  %123 = fadd float %117, %122
  %124 = bitcast float %123 to i32
  %125 = xor i32 %lane1, 16
  %126 = shl i32 %125, 2
  %127 = call i32 @llvm.amdgcn.ds.bpermute(i32 %126, i32 %124)
  %128 = bitcast i32 %127 to float
  %129 = fadd float %123, %128
  %130 = bitcast float %129 to i32
  %131 = xor i32 %lane1, 32
  %132 = shl i32 %131, 2
  %133 = call i32 @llvm.amdgcn.ds.bpermute(i32 %132, i32 %130)
  %134 = bitcast i32 %133 to float
  %135 = fadd float %129, %134
  %136 = mul i32 %18, 1
  %137 = add i32 %136, 0
  %138 = mul i32 %137, 4
  %139 = add i32 %138, 16
  %140 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %139
  store float %135, ptr addrspace(3) %140, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %141 = load <4 x float>, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 16
  %142 = extractelement <4 x float> %141, i32 0
  %143 = extractelement <4 x float> %141, i32 1
  %144 = fadd float %142, %143
  %145 = extractelement <4 x float> %141, i32 2
  %146 = fadd float %144, %145
  %147 = extractelement <4 x float> %141, i32 3
  %148 = fadd float %146, %147
  %149 = fdiv arcp afn float 1.000000e+00, %148
  %150 = fmul float %93, %149
  %151 = fmul float %94, %149
  %152 = fmul float %95, %149
  %153 = fmul float %96, %149
  %154 = getelementptr float, ptr addrspace(1) %y, i32 %24
  br i1 %23, label %masked3, label %join4

masked3:                                          ; preds = %join
  %155 = insertelement <4 x float> poison, float %150, i32 0
  %156 = insertelement <4 x float> %155, float %151, i32 1
  %157 = insertelement <4 x float> %156, float %152, i32 2
  %158 = insertelement <4 x float> %157, float %153, i32 3
  store <4 x float> %158, ptr addrspace(1) %154, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maxnum.f32(float, float) #2

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #3

; Function Attrs: convergent nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.exp2.f32(float) #2

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #4 = { convergent nocallback nofree nounwind willreturn }
