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
  %39 = extractelement <4 x float> %38, i32 0
  %40 = extractelement <4 x float> %38, i32 1
  %41 = extractelement <4 x float> %38, i32 2
  %42 = extractelement <4 x float> %38, i32 3
  %43 = insertelement <4 x float> poison, float %39, i32 0
  %44 = insertelement <4 x float> %43, float %40, i32 1
  %45 = insertelement <4 x float> %44, float %41, i32 2
  %46 = insertelement <4 x float> %45, float %42, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %47 = phi <4 x float> [ %46, %masked ], [ zeroinitializer, %body ]
  %48 = extractelement <4 x float> %47, i32 0
  %49 = extractelement <4 x float> %47, i32 1
  %50 = extractelement <4 x float> %47, i32 2
  %51 = extractelement <4 x float> %47, i32 3
  br i1 %19, label %masked1, label %join2

masked1:                                          ; preds = %join
  %52 = load <4 x float>, ptr addrspace(1) %35, align 16
  %53 = extractelement <4 x float> %52, i32 0
  %54 = extractelement <4 x float> %52, i32 1
  %55 = extractelement <4 x float> %52, i32 2
  %56 = extractelement <4 x float> %52, i32 3
  %57 = insertelement <4 x float> poison, float %53, i32 0
  %58 = insertelement <4 x float> %57, float %54, i32 1
  %59 = insertelement <4 x float> %58, float %55, i32 2
  %60 = insertelement <4 x float> %59, float %56, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %61 = phi <4 x float> [ %60, %masked1 ], [ zeroinitializer, %join ]
  %62 = extractelement <4 x float> %61, i32 0
  %63 = extractelement <4 x float> %61, i32 1
  %64 = extractelement <4 x float> %61, i32 2
  %65 = extractelement <4 x float> %61, i32 3
  br i1 %20, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %66 = load <4 x float>, ptr addrspace(1) %36, align 16
  %67 = extractelement <4 x float> %66, i32 0
  %68 = extractelement <4 x float> %66, i32 1
  %69 = extractelement <4 x float> %66, i32 2
  %70 = extractelement <4 x float> %66, i32 3
  %71 = insertelement <4 x float> poison, float %67, i32 0
  %72 = insertelement <4 x float> %71, float %68, i32 1
  %73 = insertelement <4 x float> %72, float %69, i32 2
  %74 = insertelement <4 x float> %73, float %70, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %75 = phi <4 x float> [ %74, %masked3 ], [ zeroinitializer, %join2 ]
  %76 = extractelement <4 x float> %75, i32 0
  %77 = extractelement <4 x float> %75, i32 1
  %78 = extractelement <4 x float> %75, i32 2
  %79 = extractelement <4 x float> %75, i32 3
  br i1 %21, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %80 = load <4 x float>, ptr addrspace(1) %37, align 16
  %81 = extractelement <4 x float> %80, i32 0
  %82 = extractelement <4 x float> %80, i32 1
  %83 = extractelement <4 x float> %80, i32 2
  %84 = extractelement <4 x float> %80, i32 3
  %85 = insertelement <4 x float> poison, float %81, i32 0
  %86 = insertelement <4 x float> %85, float %82, i32 1
  %87 = insertelement <4 x float> %86, float %83, i32 2
  %88 = insertelement <4 x float> %87, float %84, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %89 = phi <4 x float> [ %88, %masked5 ], [ zeroinitializer, %join4 ]
  %90 = extractelement <4 x float> %89, i32 0
  %91 = extractelement <4 x float> %89, i32 1
  %92 = extractelement <4 x float> %89, i32 2
  %93 = extractelement <4 x float> %89, i32 3
  %94 = mul i32 %8, %n
  %95 = mul i32 %9, %n
  %96 = mul i32 %10, %n
  %97 = mul i32 %11, %n
  %98 = add i32 %94, %12
  %99 = add i32 %95, %12
  %100 = add i32 %96, %12
  %101 = add i32 %97, %12
  %102 = getelementptr float, ptr addrspace(1) %y, i32 %98
  %103 = getelementptr float, ptr addrspace(1) %y, i32 %99
  %104 = getelementptr float, ptr addrspace(1) %y, i32 %100
  %105 = getelementptr float, ptr addrspace(1) %y, i32 %101
  br i1 %18, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %106 = insertelement <4 x float> poison, float %48, i32 0
  %107 = insertelement <4 x float> %106, float %49, i32 1
  %108 = insertelement <4 x float> %107, float %50, i32 2
  %109 = insertelement <4 x float> %108, float %51, i32 3
  store <4 x float> %109, ptr addrspace(1) %102, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %19, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %110 = insertelement <4 x float> poison, float %62, i32 0
  %111 = insertelement <4 x float> %110, float %63, i32 1
  %112 = insertelement <4 x float> %111, float %64, i32 2
  %113 = insertelement <4 x float> %112, float %65, i32 3
  store <4 x float> %113, ptr addrspace(1) %103, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %20, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %114 = insertelement <4 x float> poison, float %76, i32 0
  %115 = insertelement <4 x float> %114, float %77, i32 1
  %116 = insertelement <4 x float> %115, float %78, i32 2
  %117 = insertelement <4 x float> %116, float %79, i32 3
  store <4 x float> %117, ptr addrspace(1) %104, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %21, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %118 = insertelement <4 x float> poison, float %90, i32 0
  %119 = insertelement <4 x float> %118, float %91, i32 1
  %120 = insertelement <4 x float> %119, float %92, i32 2
  %121 = insertelement <4 x float> %120, float %93, i32 3
  store <4 x float> %121, ptr addrspace(1) %105, align 16
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
