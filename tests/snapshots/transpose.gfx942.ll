target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @transpose(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call i32 @llvm.amdgcn.workgroup.id.y()
  %2 = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %2, 63
  %warp = lshr i32 %2, 6
  %3 = and i32 %lane, 48
  %4 = lshr i32 %3, 4
  %5 = and i32 %warp, 3
  %6 = shl i32 %5, 2
  %7 = xor i32 %4, %6
  %8 = and i32 %lane, 15
  %9 = shl i32 %8, 2
  br label %body

body:                                             ; preds = %prologue
  %10 = mul i32 %0, 64
  %11 = mul i32 %1, 64
  %12 = add nuw i32 %7, 16
  %13 = add nuw i32 %7, 32
  %14 = add nuw i32 %7, 48
  %15 = add i32 %7, %10
  %16 = add i32 %12, %10
  %17 = add i32 %13, %10
  %18 = add i32 %14, %10
  %19 = add nuw i32 %9, 1
  %20 = add nuw i32 %9, 2
  %21 = add nuw i32 %9, 3
  %22 = add i32 %9, %11
  %23 = add i32 %19, %11
  %24 = add i32 %20, %11
  %25 = add i32 %21, %11
  %26 = mul i32 %15, %n
  %27 = mul i32 %16, %n
  %28 = mul i32 %17, %n
  %29 = mul i32 %18, %n
  %30 = add i32 %26, %22
  %31 = add i32 %26, %23
  %32 = add i32 %26, %24
  %33 = add i32 %26, %25
  %34 = add i32 %27, %22
  %35 = add i32 %27, %23
  %36 = add i32 %27, %24
  %37 = add i32 %27, %25
  %38 = add i32 %28, %22
  %39 = add i32 %28, %23
  %40 = add i32 %28, %24
  %41 = add i32 %28, %25
  %42 = add i32 %29, %22
  %43 = add i32 %29, %23
  %44 = add i32 %29, %24
  %45 = add i32 %29, %25
  %46 = getelementptr float, ptr addrspace(1) %x, i32 %30
  %47 = getelementptr float, ptr addrspace(1) %x, i32 %31
  %48 = getelementptr float, ptr addrspace(1) %x, i32 %32
  %49 = getelementptr float, ptr addrspace(1) %x, i32 %33
  %50 = getelementptr float, ptr addrspace(1) %x, i32 %34
  %51 = getelementptr float, ptr addrspace(1) %x, i32 %35
  %52 = getelementptr float, ptr addrspace(1) %x, i32 %36
  %53 = getelementptr float, ptr addrspace(1) %x, i32 %37
  %54 = getelementptr float, ptr addrspace(1) %x, i32 %38
  %55 = getelementptr float, ptr addrspace(1) %x, i32 %39
  %56 = getelementptr float, ptr addrspace(1) %x, i32 %40
  %57 = getelementptr float, ptr addrspace(1) %x, i32 %41
  %58 = getelementptr float, ptr addrspace(1) %x, i32 %42
  %59 = getelementptr float, ptr addrspace(1) %x, i32 %43
  %60 = getelementptr float, ptr addrspace(1) %x, i32 %44
  %61 = getelementptr float, ptr addrspace(1) %x, i32 %45
  %62 = load <4 x float>, ptr addrspace(1) %46, align 16
  %63 = extractelement <4 x float> %62, i32 0
  %64 = extractelement <4 x float> %62, i32 1
  %65 = extractelement <4 x float> %62, i32 2
  %66 = extractelement <4 x float> %62, i32 3
  %67 = insertelement <4 x float> poison, float %63, i32 0
  %68 = insertelement <4 x float> %67, float %64, i32 1
  %69 = insertelement <4 x float> %68, float %65, i32 2
  %70 = insertelement <4 x float> %69, float %66, i32 3
  %71 = extractelement <4 x float> %70, i32 0
  %72 = extractelement <4 x float> %70, i32 1
  %73 = extractelement <4 x float> %70, i32 2
  %74 = extractelement <4 x float> %70, i32 3
  %75 = load <4 x float>, ptr addrspace(1) %50, align 16
  %76 = extractelement <4 x float> %75, i32 0
  %77 = extractelement <4 x float> %75, i32 1
  %78 = extractelement <4 x float> %75, i32 2
  %79 = extractelement <4 x float> %75, i32 3
  %80 = insertelement <4 x float> poison, float %76, i32 0
  %81 = insertelement <4 x float> %80, float %77, i32 1
  %82 = insertelement <4 x float> %81, float %78, i32 2
  %83 = insertelement <4 x float> %82, float %79, i32 3
  %84 = extractelement <4 x float> %83, i32 0
  %85 = extractelement <4 x float> %83, i32 1
  %86 = extractelement <4 x float> %83, i32 2
  %87 = extractelement <4 x float> %83, i32 3
  %88 = load <4 x float>, ptr addrspace(1) %54, align 16
  %89 = extractelement <4 x float> %88, i32 0
  %90 = extractelement <4 x float> %88, i32 1
  %91 = extractelement <4 x float> %88, i32 2
  %92 = extractelement <4 x float> %88, i32 3
  %93 = insertelement <4 x float> poison, float %89, i32 0
  %94 = insertelement <4 x float> %93, float %90, i32 1
  %95 = insertelement <4 x float> %94, float %91, i32 2
  %96 = insertelement <4 x float> %95, float %92, i32 3
  %97 = extractelement <4 x float> %96, i32 0
  %98 = extractelement <4 x float> %96, i32 1
  %99 = extractelement <4 x float> %96, i32 2
  %100 = extractelement <4 x float> %96, i32 3
  %101 = load <4 x float>, ptr addrspace(1) %58, align 16
  %102 = extractelement <4 x float> %101, i32 0
  %103 = extractelement <4 x float> %101, i32 1
  %104 = extractelement <4 x float> %101, i32 2
  %105 = extractelement <4 x float> %101, i32 3
  %106 = insertelement <4 x float> poison, float %102, i32 0
  %107 = insertelement <4 x float> %106, float %103, i32 1
  %108 = insertelement <4 x float> %107, float %104, i32 2
  %109 = insertelement <4 x float> %108, float %105, i32 3
  %110 = extractelement <4 x float> %109, i32 0
  %111 = extractelement <4 x float> %109, i32 1
  %112 = extractelement <4 x float> %109, i32 2
  %113 = extractelement <4 x float> %109, i32 3
  %114 = mul i32 %22, %n
  %115 = mul i32 %23, %n
  %116 = mul i32 %24, %n
  %117 = mul i32 %25, %n
  %118 = add i32 %114, %15
  %119 = add i32 %115, %15
  %120 = add i32 %116, %15
  %121 = add i32 %117, %15
  %122 = add i32 %114, %16
  %123 = add i32 %115, %16
  %124 = add i32 %116, %16
  %125 = add i32 %117, %16
  %126 = add i32 %114, %17
  %127 = add i32 %115, %17
  %128 = add i32 %116, %17
  %129 = add i32 %117, %17
  %130 = add i32 %114, %18
  %131 = add i32 %115, %18
  %132 = add i32 %116, %18
  %133 = add i32 %117, %18
  %134 = getelementptr float, ptr addrspace(1) %y, i32 %118
  %135 = getelementptr float, ptr addrspace(1) %y, i32 %119
  %136 = getelementptr float, ptr addrspace(1) %y, i32 %120
  %137 = getelementptr float, ptr addrspace(1) %y, i32 %121
  %138 = getelementptr float, ptr addrspace(1) %y, i32 %122
  %139 = getelementptr float, ptr addrspace(1) %y, i32 %123
  %140 = getelementptr float, ptr addrspace(1) %y, i32 %124
  %141 = getelementptr float, ptr addrspace(1) %y, i32 %125
  %142 = getelementptr float, ptr addrspace(1) %y, i32 %126
  %143 = getelementptr float, ptr addrspace(1) %y, i32 %127
  %144 = getelementptr float, ptr addrspace(1) %y, i32 %128
  %145 = getelementptr float, ptr addrspace(1) %y, i32 %129
  %146 = getelementptr float, ptr addrspace(1) %y, i32 %130
  %147 = getelementptr float, ptr addrspace(1) %y, i32 %131
  %148 = getelementptr float, ptr addrspace(1) %y, i32 %132
  %149 = getelementptr float, ptr addrspace(1) %y, i32 %133
  store float %71, ptr addrspace(1) %134, align 4
  store float %72, ptr addrspace(1) %135, align 4
  store float %73, ptr addrspace(1) %136, align 4
  store float %74, ptr addrspace(1) %137, align 4
  store float %84, ptr addrspace(1) %138, align 4
  store float %85, ptr addrspace(1) %139, align 4
  store float %86, ptr addrspace(1) %140, align 4
  store float %87, ptr addrspace(1) %141, align 4
  store float %97, ptr addrspace(1) %142, align 4
  store float %98, ptr addrspace(1) %143, align 4
  store float %99, ptr addrspace(1) %144, align 4
  store float %100, ptr addrspace(1) %145, align 4
  store float %110, ptr addrspace(1) %146, align 4
  store float %111, ptr addrspace(1) %147, align 4
  store float %112, ptr addrspace(1) %148, align 4
  store float %113, ptr addrspace(1) %149, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
