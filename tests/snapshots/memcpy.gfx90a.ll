target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @memcpy(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
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
  %7 = mul i32 %0, 2048
  %8 = add nuw i32 %6, 1
  %9 = add nuw i32 %6, 2
  %10 = add nuw i32 %6, 3
  %11 = add nuw i32 %6, 1024
  %12 = add nuw i32 %6, 1025
  %13 = add nuw i32 %6, 1026
  %14 = add nuw i32 %6, 1027
  %15 = add i32 %6, %7
  %16 = add i32 %8, %7
  %17 = add i32 %9, %7
  %18 = add i32 %10, %7
  %19 = add i32 %11, %7
  %20 = add i32 %12, %7
  %21 = add i32 %13, %7
  %22 = add i32 %14, %7
  %23 = icmp slt i32 %15, %n
  %24 = icmp slt i32 %16, %n
  %25 = icmp slt i32 %17, %n
  %26 = icmp slt i32 %18, %n
  %27 = icmp slt i32 %19, %n
  %28 = icmp slt i32 %20, %n
  %29 = icmp slt i32 %21, %n
  %30 = icmp slt i32 %22, %n
  %31 = getelementptr float, ptr addrspace(1) %x, i32 %15
  %32 = getelementptr float, ptr addrspace(1) %x, i32 %16
  %33 = getelementptr float, ptr addrspace(1) %x, i32 %17
  %34 = getelementptr float, ptr addrspace(1) %x, i32 %18
  %35 = getelementptr float, ptr addrspace(1) %x, i32 %19
  %36 = getelementptr float, ptr addrspace(1) %x, i32 %20
  %37 = getelementptr float, ptr addrspace(1) %x, i32 %21
  %38 = getelementptr float, ptr addrspace(1) %x, i32 %22
  br i1 %23, label %masked, label %join

masked:                                           ; preds = %body
  %39 = load <4 x float>, ptr addrspace(1) %31, align 16
  %40 = extractelement <4 x float> %39, i32 0
  %41 = extractelement <4 x float> %39, i32 1
  %42 = extractelement <4 x float> %39, i32 2
  %43 = extractelement <4 x float> %39, i32 3
  %44 = insertelement <4 x float> poison, float %40, i32 0
  %45 = insertelement <4 x float> %44, float %41, i32 1
  %46 = insertelement <4 x float> %45, float %42, i32 2
  %47 = insertelement <4 x float> %46, float %43, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %48 = phi <4 x float> [ %47, %masked ], [ zeroinitializer, %body ]
  %49 = extractelement <4 x float> %48, i32 0
  %50 = extractelement <4 x float> %48, i32 1
  %51 = extractelement <4 x float> %48, i32 2
  %52 = extractelement <4 x float> %48, i32 3
  br i1 %27, label %masked1, label %join2

masked1:                                          ; preds = %join
  %53 = load <4 x float>, ptr addrspace(1) %35, align 16
  %54 = extractelement <4 x float> %53, i32 0
  %55 = extractelement <4 x float> %53, i32 1
  %56 = extractelement <4 x float> %53, i32 2
  %57 = extractelement <4 x float> %53, i32 3
  %58 = insertelement <4 x float> poison, float %54, i32 0
  %59 = insertelement <4 x float> %58, float %55, i32 1
  %60 = insertelement <4 x float> %59, float %56, i32 2
  %61 = insertelement <4 x float> %60, float %57, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %62 = phi <4 x float> [ %61, %masked1 ], [ zeroinitializer, %join ]
  %63 = extractelement <4 x float> %62, i32 0
  %64 = extractelement <4 x float> %62, i32 1
  %65 = extractelement <4 x float> %62, i32 2
  %66 = extractelement <4 x float> %62, i32 3
  %67 = getelementptr float, ptr addrspace(1) %y, i32 %15
  %68 = getelementptr float, ptr addrspace(1) %y, i32 %16
  %69 = getelementptr float, ptr addrspace(1) %y, i32 %17
  %70 = getelementptr float, ptr addrspace(1) %y, i32 %18
  %71 = getelementptr float, ptr addrspace(1) %y, i32 %19
  %72 = getelementptr float, ptr addrspace(1) %y, i32 %20
  %73 = getelementptr float, ptr addrspace(1) %y, i32 %21
  %74 = getelementptr float, ptr addrspace(1) %y, i32 %22
  br i1 %23, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %75 = insertelement <4 x float> poison, float %49, i32 0
  %76 = insertelement <4 x float> %75, float %50, i32 1
  %77 = insertelement <4 x float> %76, float %51, i32 2
  %78 = insertelement <4 x float> %77, float %52, i32 3
  store <4 x float> %78, ptr addrspace(1) %67, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  br i1 %27, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %79 = insertelement <4 x float> poison, float %63, i32 0
  %80 = insertelement <4 x float> %79, float %64, i32 1
  %81 = insertelement <4 x float> %80, float %65, i32 2
  %82 = insertelement <4 x float> %81, float %66, i32 3
  store <4 x float> %82, ptr addrspace(1) %71, align 16
  br label %join6

join6:                                            ; preds = %masked5, %join4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
