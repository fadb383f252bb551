target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @memcpy(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %2 = shl i32 %1, 2
  br label %body

body:                                             ; preds = %prologue
  %3 = shl i32 %0, 11
  %4 = or disjoint i32 %2, %3
  %5 = or disjoint i32 %4, 1024
  %6 = icmp slt i32 %4, %n
  %7 = icmp slt i32 %5, %n
  %8 = getelementptr float, ptr addrspace(1) %x, i32 %4
  %9 = getelementptr float, ptr addrspace(1) %x, i32 %5
  br i1 %6, label %masked, label %join

masked:                                           ; preds = %body
  %10 = load <4 x float>, ptr addrspace(1) %8, align 16
  br label %join

join:                                             ; preds = %masked, %body
  %11 = phi <4 x float> [ %10, %masked ], [ zeroinitializer, %body ]
  br i1 %7, label %masked1, label %join2

masked1:                                          ; preds = %join
  %12 = load <4 x float>, ptr addrspace(1) %9, align 16
  br label %join2

join2:                                            ; preds = %masked1, %join
  %13 = phi <4 x float> [ %12, %masked1 ], [ zeroinitializer, %join ]
  %14 = getelementptr float, ptr addrspace(1) %y, i32 %4
  %15 = getelementptr float, ptr addrspace(1) %y, i32 %5
  br i1 %6, label %masked3, label %join4

masked3:                                          ; preds = %join2
  store <4 x float> %11, ptr addrspace(1) %14, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  br i1 %7, label %masked5, label %join6

masked5:                                          ; preds = %join4
  store <4 x float> %13, ptr addrspace(1) %15, align 16
  br label %join6

join6:                                            ; preds = %masked5, %join4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
