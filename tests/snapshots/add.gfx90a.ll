target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @add(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %z, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %2 = shl i32 %1, 2
  br label %body

body:                                             ; preds = %prologue
  %3 = shl i32 %0, 10
  %4 = or disjoint i32 %2, %3
  %5 = icmp slt i32 %4, %n
  %6 = getelementptr float, ptr addrspace(1) %x, i32 %4
  %7 = getelementptr float, ptr addrspace(1) %y, i32 %4
  br i1 %5, label %masked, label %join

masked:                                           ; preds = %body
  %8 = load <4 x float>, ptr addrspace(1) %6, align 16
  %9 = extractelement <4 x float> %8, i32 0
  %10 = extractelement <4 x float> %8, i32 1
  %11 = extractelement <4 x float> %8, i32 2
  %12 = extractelement <4 x float> %8, i32 3
  %13 = insertelement <4 x float> poison, float %9, i32 0
  %14 = insertelement <4 x float> %13, float %10, i32 1
  %15 = insertelement <4 x float> %14, float %11, i32 2
  %16 = insertelement <4 x float> %15, float %12, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %17 = phi <4 x float> [ %16, %masked ], [ zeroinitializer, %body ]
  %18 = extractelement <4 x float> %17, i32 0
  %19 = extractelement <4 x float> %17, i32 1
  %20 = extractelement <4 x float> %17, i32 2
  %21 = extractelement <4 x float> %17, i32 3
  br i1 %5, label %masked1, label %join2

masked1:                                          ; preds = %join
  %22 = load <4 x float>, ptr addrspace(1) %7, align 16
  %23 = extractelement <4 x float> %22, i32 0
  %24 = extractelement <4 x float> %22, i32 1
  %25 = extractelement <4 x float> %22, i32 2
  %26 = extractelement <4 x float> %22, i32 3
  %27 = insertelement <4 x float> poison, float %23, i32 0
  %28 = insertelement <4 x float> %27, float %24, i32 1
  %29 = insertelement <4 x float> %28, float %25, i32 2
  %30 = insertelement <4 x float> %29, float %26, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %31 = phi <4 x float> [ %30, %masked1 ], [ zeroinitializer, %join ]
  %32 = extractelement <4 x float> %31, i32 0
  %33 = extractelement <4 x float> %31, i32 1
  %34 = extractelement <4 x float> %31, i32 2
  %35 = extractelement <4 x float> %31, i32 3
  %36 = fadd float %18, %32
  %37 = fadd float %19, %33
  %38 = fadd float %20, %34
  %39 = fadd float %21, %35
  %40 = getelementptr float, ptr addrspace(1) %z, i32 %4
  br i1 %5, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %41 = insertelement <4 x float> poison, float %36, i32 0
  %42 = insertelement <4 x float> %41, float %37, i32 1
  %43 = insertelement <4 x float> %42, float %38, i32 2
  %44 = insertelement <4 x float> %43, float %39, i32 3
  store <4 x float> %44, ptr addrspace(1) %40, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
