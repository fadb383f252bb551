target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @add(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %z, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %1, 31
  %warp = lshr i32 %1, 5
  %2 = and i32 %lane, 31
  %3 = shl i32 %2, 2
  %4 = and i32 %warp, 3
  %5 = shl i32 %4, 7
  %6 = xor i32 %3, %5
  br label %body

body:                                             ; preds = %prologue
  %7 = mul i32 %0, 1024
  %8 = add nuw i32 %6, 1
  %9 = add nuw i32 %6, 2
  %10 = add nuw i32 %6, 3
  %11 = add nuw i32 %6, 512
  %12 = add nuw i32 %6, 513
  %13 = add nuw i32 %6, 514
  %14 = add nuw i32 %6, 515
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
  %39 = getelementptr float, ptr addrspace(1) %y, i32 %15
  %40 = getelementptr float, ptr addrspace(1) %y, i32 %16
  %41 = getelementptr float, ptr addrspace(1) %y, i32 %17
  %42 = getelementptr float, ptr addrspace(1) %y, i32 %18
  %43 = getelementptr float, ptr addrspace(1) %y, i32 %19
  %44 = getelementptr float, ptr addrspace(1) %y, i32 %20
  %45 = getelementptr float, ptr addrspace(1) %y, i32 %21
  %46 = getelementptr float, ptr addrspace(1) %y, i32 %22
  br i1 %23, label %masked, label %join

masked:                                           ; preds = %body
  %47 = load <4 x float>, ptr addrspace(1) %31, align 16
  %48 = extractelement <4 x float> %47, i32 0
  %49 = extractelement <4 x float> %47, i32 1
  %50 = extractelement <4 x float> %47, i32 2
  %51 = extractelement <4 x float> %47, i32 3
  %52 = insertelement <4 x float> poison, float %48, i32 0
  %53 = insertelement <4 x float> %52, float %49, i32 1
  %54 = insertelement <4 x float> %53, float %50, i32 2
  %55 = insertelement <4 x float> %54, float %51, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %56 = phi <4 x float> [ %55, %masked ], [ zeroinitializer, %body ]
  %57 = extractelement <4 x float> %56, i32 0
  %58 = extractelement <4 x float> %56, i32 1
  %59 = extractelement <4 x float> %56, i32 2
  %60 = extractelement <4 x float> %56, i32 3
  br i1 %27, label %masked1, label %join2

masked1:                                          ; preds = %join
  %61 = load <4 x float>, ptr addrspace(1) %35, align 16
  %62 = extractelement <4 x float> %61, i32 0
  %63 = extractelement <4 x float> %61, i32 1
  %64 = extractelement <4 x float> %61, i32 2
  %65 = extractelement <4 x float> %61, i32 3
  %66 = insertelement <4 x float> poison, float %62, i32 0
  %67 = insertelement <4 x float> %66, float %63, i32 1
  %68 = insertelement <4 x float> %67, float %64, i32 2
  %69 = insertelement <4 x float> %68, float %65, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %70 = phi <4 x float> [ %69, %masked1 ], [ zeroinitializer, %join ]
  %71 = extractelement <4 x float> %70, i32 0
  %72 = extractelement <4 x float> %70, i32 1
  %73 = extractelement <4 x float> %70, i32 2
  %74 = extractelement <4 x float> %70, i32 3
  br i1 %23, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %75 = load <4 x float>, ptr addrspace(1) %39, align 16
  %76 = extractelement <4 x float> %75, i32 0
  %77 = extractelement <4 x float> %75, i32 1
  %78 = extractelement <4 x float> %75, i32 2
  %79 = extractelement <4 x float> %75, i32 3
  %80 = insertelement <4 x float> poison, float %76, i32 0
  %81 = insertelement <4 x float> %80, float %77, i32 1
  %82 = insertelement <4 x float> %81, float %78, i32 2
  %83 = insertelement <4 x float> %82, float %79, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %84 = phi <4 x float> [ %83, %masked3 ], [ zeroinitializer, %join2 ]
  %85 = extractelement <4 x float> %84, i32 0
  %86 = extractelement <4 x float> %84, i32 1
  %87 = extractelement <4 x float> %84, i32 2
  %88 = extractelement <4 x float> %84, i32 3
  br i1 %27, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %89 = load <4 x float>, ptr addrspace(1) %43, align 16
  %90 = extractelement <4 x float> %89, i32 0
  %91 = extractelement <4 x float> %89, i32 1
  %92 = extractelement <4 x float> %89, i32 2
  %93 = extractelement <4 x float> %89, i32 3
  %94 = insertelement <4 x float> poison, float %90, i32 0
  %95 = insertelement <4 x float> %94, float %91, i32 1
  %96 = insertelement <4 x float> %95, float %92, i32 2
  %97 = insertelement <4 x float> %96, float %93, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %98 = phi <4 x float> [ %97, %masked5 ], [ zeroinitializer, %join4 ]
  %99 = extractelement <4 x float> %98, i32 0
  %100 = extractelement <4 x float> %98, i32 1
  %101 = extractelement <4 x float> %98, i32 2
  %102 = extractelement <4 x float> %98, i32 3
  %103 = fadd float %57, %85
  %104 = fadd float %58, %86
  %105 = fadd float %59, %87
  %106 = fadd float %60, %88
  %107 = fadd float %71, %99
  %108 = fadd float %72, %100
  %109 = fadd float %73, %101
  %110 = fadd float %74, %102
  %111 = getelementptr float, ptr addrspace(1) %z, i32 %15
  %112 = getelementptr float, ptr addrspace(1) %z, i32 %16
  %113 = getelementptr float, ptr addrspace(1) %z, i32 %17
  %114 = getelementptr float, ptr addrspace(1) %z, i32 %18
  %115 = getelementptr float, ptr addrspace(1) %z, i32 %19
  %116 = getelementptr float, ptr addrspace(1) %z, i32 %20
  %117 = getelementptr float, ptr addrspace(1) %z, i32 %21
  %118 = getelementptr float, ptr addrspace(1) %z, i32 %22
  br i1 %23, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %119 = insertelement <4 x float> poison, float %103, i32 0
  %120 = insertelement <4 x float> %119, float %104, i32 1
  %121 = insertelement <4 x float> %120, float %105, i32 2
  %122 = insertelement <4 x float> %121, float %106, i32 3
  store <4 x float> %122, ptr addrspace(1) %111, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %27, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %123 = insertelement <4 x float> poison, float %107, i32 0
  %124 = insertelement <4 x float> %123, float %108, i32 1
  %125 = insertelement <4 x float> %124, float %109, i32 2
  %126 = insertelement <4 x float> %125, float %110, i32 3
  store <4 x float> %126, ptr addrspace(1) %115, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
