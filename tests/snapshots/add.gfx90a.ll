target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @add(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %z, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %1, 63
  %warp = lshr i32 %1, 6
  %2 = and i32 %lane, 63
  %3 = shl i32 %2, 2
  %4 = and i32 %warp, 3
  %5 = shl i32 %4, 8
  %6 = xor i32 %3, %5
  br label %body

body:                                             ; preds = %prologue
  %7 = mul i32 %0, 1024
  %8 = add nuw i32 %6, 1
  %9 = add nuw i32 %6, 2
  %10 = add nuw i32 %6, 3
  %11 = add i32 %6, %7
  %12 = add i32 %8, %7
  %13 = add i32 %9, %7
  %14 = add i32 %10, %7
  %15 = icmp slt i32 %11, %n
  %16 = icmp slt i32 %12, %n
  %17 = icmp slt i32 %13, %n
  %18 = icmp slt i32 %14, %n
  %19 = getelementptr float, ptr addrspace(1) %x, i32 %11
  %20 = getelementptr float, ptr addrspace(1) %x, i32 %12
  %21 = getelementptr float, ptr addrspace(1) %x, i32 %13
  %22 = getelementptr float, ptr addrspace(1) %x, i32 %14
  %23 = getelementptr float, ptr addrspace(1) %y, i32 %11
  %24 = getelementptr float, ptr addrspace(1) %y, i32 %12
  %25 = getelementptr float, ptr addrspace(1) %y, i32 %13
  %26 = getelementptr float, ptr addrspace(1) %y, i32 %14
  br i1 %15, label %masked, label %join

masked:                                           ; preds = %body
  %27 = load <4 x float>, ptr addrspace(1) %19, align 16
  %28 = extractelement <4 x float> %27, i32 0
  %29 = extractelement <4 x float> %27, i32 1
  %30 = extractelement <4 x float> %27, i32 2
  %31 = extractelement <4 x float> %27, i32 3
  %32 = insertelement <4 x float> poison, float %28, i32 0
  %33 = insertelement <4 x float> %32, float %29, i32 1
  %34 = insertelement <4 x float> %33, float %30, i32 2
  %35 = insertelement <4 x float> %34, float %31, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %36 = phi <4 x float> [ %35, %masked ], [ zeroinitializer, %body ]
  %37 = extractelement <4 x float> %36, i32 0
  %38 = extractelement <4 x float> %36, i32 1
  %39 = extractelement <4 x float> %36, i32 2
  %40 = extractelement <4 x float> %36, i32 3
  br i1 %15, label %masked1, label %join2

masked1:                                          ; preds = %join
  %41 = load <4 x float>, ptr addrspace(1) %23, align 16
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
  %55 = fadd float %37, %51
  %56 = fadd float %38, %52
  %57 = fadd float %39, %53
  %58 = fadd float %40, %54
  %59 = getelementptr float, ptr addrspace(1) %z, i32 %11
  %60 = getelementptr float, ptr addrspace(1) %z, i32 %12
  %61 = getelementptr float, ptr addrspace(1) %z, i32 %13
  %62 = getelementptr float, ptr addrspace(1) %z, i32 %14
  br i1 %15, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %63 = insertelement <4 x float> poison, float %55, i32 0
  %64 = insertelement <4 x float> %63, float %56, i32 1
  %65 = insertelement <4 x float> %64, float %57, i32 2
  %66 = insertelement <4 x float> %65, float %58, i32 3
  store <4 x float> %66, ptr addrspace(1) %59, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
