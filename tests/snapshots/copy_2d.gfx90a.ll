target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @copy_2d(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m_out, i32 %n, i32 %stride_x) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call i32 @llvm.amdgcn.workgroup.id.y()
  %2 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %3 = lshr i32 %2, 5
  %4 = and i32 %2, 31
  %5 = shl i32 %4, 2
  br label %body

body:                                             ; preds = %prologue
  %6 = shl i32 %1, 5
  %7 = shl i32 %0, 7
  %8 = or disjoint i32 %3, %6
  %9 = or disjoint i32 %8, 8
  %10 = or disjoint i32 %8, 16
  %11 = or disjoint i32 %8, 24
  %12 = or disjoint i32 %5, %7
  %13 = icmp slt i32 %8, %m_out
  %14 = icmp slt i32 %9, %m_out
  %15 = icmp slt i32 %10, %m_out
  %16 = icmp slt i32 %11, %m_out
  %17 = icmp slt i32 %12, %n
  %18 = and i1 %13, %17
  %19 = and i1 %14, %17
  %20 = and i1 %15, %17
  %21 = and i1 %16, %17
  %22 = shl i32 %8, 1
  %23 = shl i32 %9, 1
  %24 = shl i32 %10, 1
  %25 = shl i32 %11, 1
  %26 = mul i32 %22, %stride_x
  %27 = mul i32 %23, %stride_x
  %28 = mul i32 %24, %stride_x
  %29 = mul i32 %25, %stride_x
  %30 = add i32 %26, %12
  %31 = add i32 %27, %12
  %32 = add i32 %28, %12
  %33 = add i32 %29, %12
  %34 = getelementptr float, ptr addrspace(1) %x, i32 %30
  %35 = getelementptr float, ptr addrspace(1) %x, i32 %31
  %36 = getelementptr float, ptr addrspace(1) %x, i32 %32
  %37 = getelementptr float, ptr addrspace(1) %x, i32 %33
  br i1 %18, label %masked, label %join

masked:                                           ; preds = %body
  %38 = load <4 x float>, ptr addrspace(1) %34, align 16
  br label %join

join:                                             ; preds = %masked, %body
  %39 = phi <4 x float> [ %38, %masked ], [ zeroinitializer, %body ]
  br i1 %19, label %masked1, label %join2

masked1:                                          ; preds = %join
  %40 = load <4 x float>, ptr addrspace(1) %35, align 16
  br label %join2

join2:                                            ; preds = %masked1, %join
  %41 = phi <4 x float> [ %40, %masked1 ], [ zeroinitializer, %join ]
  br i1 %20, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %42 = load <4 x float>, ptr addrspace(1) %36, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %43 = phi <4 x float> [ %42, %masked3 ], [ zeroinitializer, %join2 ]
  br i1 %21, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %44 = load <4 x float>, ptr addrspace(1) %37, align 16
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %45 = phi <4 x float> [ %44, %masked5 ], [ zeroinitializer, %join4 ]
  %46 = mul i32 %8, %n
  %47 = mul i32 %9, %n
  %48 = mul i32 %10, %n
  %49 = mul i32 %11, %n
  %50 = add i32 %46, %12
  %51 = add i32 %47, %12
  %52 = add i32 %48, %12
  %53 = add i32 %49, %12
  %54 = getelementptr float, ptr addrspace(1) %y, i32 %50
  %55 = getelementptr float, ptr addrspace(1) %y, i32 %51
  %56 = getelementptr float, ptr addrspace(1) %y, i32 %52
  %57 = getelementptr float, ptr addrspace(1) %y, i32 %53
  br i1 %18, label %masked7, label %join8

masked7:                                          ; preds = %join6
  store <4 x float> %39, ptr addrspace(1) %54, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %19, label %masked9, label %join10

masked9:                                          ; preds = %join8
  store <4 x float> %41, ptr addrspace(1) %55, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %20, label %masked11, label %join12

masked11:                                         ; preds = %join10
  store <4 x float> %43, ptr addrspace(1) %56, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %21, label %masked13, label %join14

masked13:                                         ; preds = %join12
  store <4 x float> %45, ptr addrspace(1) %57, align 16
  br label %join14

join14:                                           ; preds = %masked13, %join12
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
