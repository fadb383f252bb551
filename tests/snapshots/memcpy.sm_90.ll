target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @memcpy(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
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
  %7 = mul i32 %0, 2048
  %8 = add nuw i32 %6, 1
  %9 = add nuw i32 %6, 2
  %10 = add nuw i32 %6, 3
  %11 = add nuw i32 %6, 512
  %12 = add nuw i32 %6, 513
  %13 = add nuw i32 %6, 514
  %14 = add nuw i32 %6, 515
  %15 = add nuw i32 %6, 1024
  %16 = add nuw i32 %6, 1025
  %17 = add nuw i32 %6, 1026
  %18 = add nuw i32 %6, 1027
  %19 = add nuw i32 %6, 1536
  %20 = add nuw i32 %6, 1537
  %21 = add nuw i32 %6, 1538
  %22 = add nuw i32 %6, 1539
  %23 = add i32 %6, %7
  %24 = add i32 %8, %7
  %25 = add i32 %9, %7
  %26 = add i32 %10, %7
  %27 = add i32 %11, %7
  %28 = add i32 %12, %7
  %29 = add i32 %13, %7
  %30 = add i32 %14, %7
  %31 = add i32 %15, %7
  %32 = add i32 %16, %7
  %33 = add i32 %17, %7
  %34 = add i32 %18, %7
  %35 = add i32 %19, %7
  %36 = add i32 %20, %7
  %37 = add i32 %21, %7
  %38 = add i32 %22, %7
  %39 = icmp slt i32 %23, %n
  %40 = icmp slt i32 %24, %n
  %41 = icmp slt i32 %25, %n
  %42 = icmp slt i32 %26, %n
  %43 = icmp slt i32 %27, %n
  %44 = icmp slt i32 %28, %n
  %45 = icmp slt i32 %29, %n
  %46 = icmp slt i32 %30, %n
  %47 = icmp slt i32 %31, %n
  %48 = icmp slt i32 %32, %n
  %49 = icmp slt i32 %33, %n
  %50 = icmp slt i32 %34, %n
  %51 = icmp slt i32 %35, %n
  %52 = icmp slt i32 %36, %n
  %53 = icmp slt i32 %37, %n
  %54 = icmp slt i32 %38, %n
  %55 = getelementptr float, ptr addrspace(1) %x, i32 %23
  %56 = getelementptr float, ptr addrspace(1) %x, i32 %24
  %57 = getelementptr float, ptr addrspace(1) %x, i32 %25
  %58 = getelementptr float, ptr addrspace(1) %x, i32 %26
  %59 = getelementptr float, ptr addrspace(1) %x, i32 %27
  %60 = getelementptr float, ptr addrspace(1) %x, i32 %28
  %61 = getelementptr float, ptr addrspace(1) %x, i32 %29
  %62 = getelementptr float, ptr addrspace(1) %x, i32 %30
  %63 = getelementptr float, ptr addrspace(1) %x, i32 %31
  %64 = getelementptr float, ptr addrspace(1) %x, i32 %32
  %65 = getelementptr float, ptr addrspace(1) %x, i32 %33
  %66 = getelementptr float, ptr addrspace(1) %x, i32 %34
  %67 = getelementptr float, ptr addrspace(1) %x, i32 %35
  %68 = getelementptr float, ptr addrspace(1) %x, i32 %36
  %69 = getelementptr float, ptr addrspace(1) %x, i32 %37
  %70 = getelementptr float, ptr addrspace(1) %x, i32 %38
  br i1 %39, label %masked, label %join

masked:                                           ; preds = %body
  %71 = load <4 x float>, ptr addrspace(1) %55, align 16
  %72 = extractelement <4 x float> %71, i32 0
  %73 = extractelement <4 x float> %71, i32 1
  %74 = extractelement <4 x float> %71, i32 2
  %75 = extractelement <4 x float> %71, i32 3
  %76 = insertelement <4 x float> poison, float %72, i32 0
  %77 = insertelement <4 x float> %76, float %73, i32 1
  %78 = insertelement <4 x float> %77, float %74, i32 2
  %79 = insertelement <4 x float> %78, float %75, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %80 = phi <4 x float> [ %79, %masked ], [ zeroinitializer, %body ]
  %81 = extractelement <4 x float> %80, i32 0
  %82 = extractelement <4 x float> %80, i32 1
  %83 = extractelement <4 x float> %80, i32 2
  %84 = extractelement <4 x float> %80, i32 3
  br i1 %43, label %masked1, label %join2

masked1:                                          ; preds = %join
  %85 = load <4 x float>, ptr addrspace(1) %59, align 16
  %86 = extractelement <4 x float> %85, i32 0
  %87 = extractelement <4 x float> %85, i32 1
  %88 = extractelement <4 x float> %85, i32 2
  %89 = extractelement <4 x float> %85, i32 3
  %90 = insertelement <4 x float> poison, float %86, i32 0
  %91 = insertelement <4 x float> %90, float %87, i32 1
  %92 = insertelement <4 x float> %91, float %88, i32 2
  %93 = insertelement <4 x float> %92, float %89, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %94 = phi <4 x float> [ %93, %masked1 ], [ zeroinitializer, %join ]
  %95 = extractelement <4 x float> %94, i32 0
  %96 = extractelement <4 x float> %94, i32 1
  %97 = extractelement <4 x float> %94, i32 2
  %98 = extractelement <4 x float> %94, i32 3
  br i1 %47, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %99 = load <4 x float>, ptr addrspace(1) %63, align 16
  %100 = extractelement <4 x float> %99, i32 0
  %101 = extractelement <4 x float> %99, i32 1
  %102 = extractelement <4 x float> %99, i32 2
  %103 = extractelement <4 x float> %99, i32 3
  %104 = insertelement <4 x float> poison, float %100, i32 0
  %105 = insertelement <4 x float> %104, float %101, i32 1
  %106 = insertelement <4 x float> %105, float %102, i32 2
  %107 = insertelement <4 x float> %106, float %103, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %108 = phi <4 x float> [ %107, %masked3 ], [ zeroinitializer, %join2 ]
  %109 = extractelement <4 x float> %108, i32 0
  %110 = extractelement <4 x float> %108, i32 1
  %111 = extractelement <4 x float> %108, i32 2
  %112 = extractelement <4 x float> %108, i32 3
  br i1 %51, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %113 = load <4 x float>, ptr addrspace(1) %67, align 16
  %114 = extractelement <4 x float> %113, i32 0
  %115 = extractelement <4 x float> %113, i32 1
  %116 = extractelement <4 x float> %113, i32 2
  %117 = extractelement <4 x float> %113, i32 3
  %118 = insertelement <4 x float> poison, float %114, i32 0
  %119 = insertelement <4 x float> %118, float %115, i32 1
  %120 = insertelement <4 x float> %119, float %116, i32 2
  %121 = insertelement <4 x float> %120, float %117, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %122 = phi <4 x float> [ %121, %masked5 ], [ zeroinitializer, %join4 ]
  %123 = extractelement <4 x float> %122, i32 0
  %124 = extractelement <4 x float> %122, i32 1
  %125 = extractelement <4 x float> %122, i32 2
  %126 = extractelement <4 x float> %122, i32 3
  %127 = getelementptr float, ptr addrspace(1) %y, i32 %23
  %128 = getelementptr float, ptr addrspace(1) %y, i32 %24
  %129 = getelementptr float, ptr addrspace(1) %y, i32 %25
  %130 = getelementptr float, ptr addrspace(1) %y, i32 %26
  %131 = getelementptr float, ptr addrspace(1) %y, i32 %27
  %132 = getelementptr float, ptr addrspace(1) %y, i32 %28
  %133 = getelementptr float, ptr addrspace(1) %y, i32 %29
  %134 = getelementptr float, ptr addrspace(1) %y, i32 %30
  %135 = getelementptr float, ptr addrspace(1) %y, i32 %31
  %136 = getelementptr float, ptr addrspace(1) %y, i32 %32
  %137 = getelementptr float, ptr addrspace(1) %y, i32 %33
  %138 = getelementptr float, ptr addrspace(1) %y, i32 %34
  %139 = getelementptr float, ptr addrspace(1) %y, i32 %35
  %140 = getelementptr float, ptr addrspace(1) %y, i32 %36
  %141 = getelementptr float, ptr addrspace(1) %y, i32 %37
  %142 = getelementptr float, ptr addrspace(1) %y, i32 %38
  br i1 %39, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %143 = insertelement <4 x float> poison, float %81, i32 0
  %144 = insertelement <4 x float> %143, float %82, i32 1
  %145 = insertelement <4 x float> %144, float %83, i32 2
  %146 = insertelement <4 x float> %145, float %84, i32 3
  store <4 x float> %146, ptr addrspace(1) %127, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %43, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %147 = insertelement <4 x float> poison, float %95, i32 0
  %148 = insertelement <4 x float> %147, float %96, i32 1
  %149 = insertelement <4 x float> %148, float %97, i32 2
  %150 = insertelement <4 x float> %149, float %98, i32 3
  store <4 x float> %150, ptr addrspace(1) %131, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %47, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %151 = insertelement <4 x float> poison, float %109, i32 0
  %152 = insertelement <4 x float> %151, float %110, i32 1
  %153 = insertelement <4 x float> %152, float %111, i32 2
  %154 = insertelement <4 x float> %153, float %112, i32 3
  store <4 x float> %154, ptr addrspace(1) %135, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %51, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %155 = insertelement <4 x float> poison, float %123, i32 0
  %156 = insertelement <4 x float> %155, float %124, i32 1
  %157 = insertelement <4 x float> %156, float %125, i32 2
  %158 = insertelement <4 x float> %157, float %126, i32 3
  store <4 x float> %158, ptr addrspace(1) %139, align 16
  br label %join14

join14:                                           ; preds = %masked13, %join12
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
