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
  %40 = select i1 %23, float %36, float 0xFFF0000000000000
  %41 = select i1 %23, float %37, float 0xFFF0000000000000
  %42 = select i1 %23, float %38, float 0xFFF0000000000000
  %43 = select i1 %23, float %39, float 0xFFF0000000000000
  %44 = call float @llvm.maxnum.f32(float %40, float %41)
  %45 = call float @llvm.maxnum.f32(float %44, float %42)
  %46 = call float @llvm.maxnum.f32(float %45, float %43)
  %47 = bitcast float %46 to i32
  %48 = xor i32 %lane, 1
  %49 = shl i32 %48, 2
  %50 = call i32 @llvm.amdgcn.ds.bpermute(i32 %49, i32 %47)
  %51 = bitcast i32 %50 to float
  %52 = call float @llvm.maxnum.f32(float %46, float %51)
  %53 = bitcast float %52 to i32
  %54 = xor i32 %lane, 2
  %55 = shl i32 %54, 2
  %56 = call i32 @llvm.amdgcn.ds.bpermute(i32 %55, i32 %53)
  %57 = bitcast i32 %56 to float
  %58 = call float @llvm.maxnum.f32(float %52, float %57)
  %59 = bitcast float %58 to i32
  %60 = xor i32 %lane, 4
  %61 = shl i32 %60, 2
  %62 = call i32 @llvm.amdgcn.ds.bpermute(i32 %61, i32 %59)
  %63 = bitcast i32 %62 to float
  %64 = call float @llvm.maxnum.f32(float %58, float %63)
  %65 = bitcast float %64 to i32
  %66 = xor i32 %lane, 8
  %67 = shl i32 %66, 2
  %68 = call i32 @llvm.amdgcn.ds.bpermute(i32 %67, i32 %65)
  %69 = bitcast i32 %68 to float
  %70 = call float @llvm.maxnum.f32(float %64, float %69)
  %71 = bitcast float %70 to i32
  %72 = xor i32 %lane, 16
  %73 = shl i32 %72, 2
  %74 = call i32 @llvm.amdgcn.ds.bpermute(i32 %73, i32 %71)
  %75 = bitcast i32 %74 to float
  %76 = call float @llvm.maxnum.f32(float %70, float %75)
  %77 = bitcast float %76 to i32
  %78 = xor i32 %lane, 32
  %79 = shl i32 %78, 2
  %80 = call i32 @llvm.amdgcn.ds.bpermute(i32 %79, i32 %77)
  %81 = bitcast i32 %80 to float
  %82 = call float @llvm.maxnum.f32(float %76, float %81)
  %83 = mul i32 %10, 1
  %84 = add i32 %83, 0
  %85 = mul i32 %84, 4
  %86 = add i32 %85, 0
  %87 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %86
  store float %82, ptr addrspace(3) %87, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %88 = load float, ptr addrspace(3) @weft_smem, align 4
  %89 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 4), align 4
  %90 = call float @llvm.maxnum.f32(float %88, float %89)
  %91 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 8), align 4
  %92 = call float @llvm.maxnum.f32(float %90, float %91)
  %93 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 12), align 4
  %94 = call float @llvm.maxnum.f32(float %92, float %93)
  %95 = fmul float %94, 0xBFF7154760000000
  %96 = call float @llvm.fma.f32(float %40, float 0x3FF7154760000000, float %95)
  %97 = call float @llvm.fma.f32(float %41, float 0x3FF7154760000000, float %95)
  %98 = call float @llvm.fma.f32(float %42, float 0x3FF7154760000000, float %95)
  %99 = call float @llvm.fma.f32(float %43, float 0x3FF7154760000000, float %95)
  %100 = call float @llvm.exp2.f32(float %96)
  %101 = call float @llvm.exp2.f32(float %97)
  %102 = call float @llvm.exp2.f32(float %98)
  %103 = call float @llvm.exp2.f32(float %99)
  %104 = fadd float %100, %101
  %105 = fadd float %104, %102
  %106 = fadd float %105, %103
  %107 = bitcast float %106 to i32
  %108 = xor i32 %lane1, 1
  %109 = shl i32 %108, 2
  %110 = call i32 @llvm.amdgcn.ds.bpermute(i32 %109, i32 %107)
  %111 = bitcast i32 %110 to float
  %112 = fadd float %106, %111
  %113 = bitcast float %112 to i32
  %114 = xor i32 %lane1, 2
  %115 = shl i32 %114, 2
  %116 = call i32 @llvm.amdgcn.ds.bpermute(i32 %115, i32 %113)
  %117 = bitcast i32 %116 to float
  %118 = fadd float %112, %117
  %119 = bitcast float %118 to i32
  %120 = xor i32 %lane1, 4
  %121 = shl i32 %120, 2
  %122 = call i32 @llvm.amdgcn.ds.bpermute(i32 %121, i32 %119)
  %123 = bitcast i32 %122 to float
  %124 = fadd float %118, %123
  %125 = bitcast float %124 to i32
  %126 = xor i32 %lane1, 8
  %127 = shl i32 %126, 2
  %128 = call i32 @llvm.amdgcn.ds.bpermute(i32 %127, i32 %125)
  %129 = bitcast i32 %128 to float
  %130 = fadd float %124, %129
  %131 = bitcast float %130 to i32
  %132 = xor i32 %lane1, 16
  %133 = shl i32 %132, 2
  %134 = call i32 @llvm.amdgcn.ds.bpermute(i32 %133, i32 %131)
  %135 = bitcast i32 %134 to float
  %136 = fadd float %130, %135
  %137 = bitcast float %136 to i32
  %138 = xor i32 %lane1, 32
  %139 = shl i32 %138, 2
  %140 = call i32 @llvm.amdgcn.ds.bpermute(i32 %139, i32 %137)
  %141 = bitcast i32 %140 to float
  %142 = fadd float %136, %141
  %143 = mul i32 %18, 1
  %144 = add i32 %143, 0
  %145 = mul i32 %144, 4
  %146 = add i32 %145, 16
  %147 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %146
  store float %142, ptr addrspace(3) %147, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %148 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 4
  %149 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 20), align 4
  %150 = fadd float %148, %149
  %151 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 24), align 4
  %152 = fadd float %150, %151
  %153 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 28), align 4
  %154 = fadd float %152, %153
  %155 = fdiv float 1.000000e+00, %154
  %156 = fmul float %100, %155
  %157 = fmul float %101, %155
  %158 = fmul float %102, %155
  %159 = fmul float %103, %155
  %160 = getelementptr float, ptr addrspace(1) %y, i32 %24
  br i1 %23, label %masked3, label %join4

masked3:                                          ; preds = %join
  %161 = insertelement <4 x float> poison, float %156, i32 0
  %162 = insertelement <4 x float> %161, float %157, i32 1
  %163 = insertelement <4 x float> %162, float %158, i32 2
  %164 = insertelement <4 x float> %163, float %159, i32 3
  store <4 x float> %164, ptr addrspace(1) %160, align 16
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
