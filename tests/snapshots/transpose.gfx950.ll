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
  %67 = load <4 x float>, ptr addrspace(1) %50, align 16
  %68 = extractelement <4 x float> %67, i32 0
  %69 = extractelement <4 x float> %67, i32 1
  %70 = extractelement <4 x float> %67, i32 2
  %71 = extractelement <4 x float> %67, i32 3
  %72 = load <4 x float>, ptr addrspace(1) %54, align 16
  %73 = extractelement <4 x float> %72, i32 0
  %74 = extractelement <4 x float> %72, i32 1
  %75 = extractelement <4 x float> %72, i32 2
  %76 = extractelement <4 x float> %72, i32 3
  %77 = load <4 x float>, ptr addrspace(1) %58, align 16
  %78 = extractelement <4 x float> %77, i32 0
  %79 = extractelement <4 x float> %77, i32 1
  %80 = extractelement <4 x float> %77, i32 2
  %81 = extractelement <4 x float> %77, i32 3
  %82 = mul i32 %22, %n
  %83 = mul i32 %23, %n
  %84 = mul i32 %24, %n
  %85 = mul i32 %25, %n
  %86 = add i32 %82, %15
  %87 = add i32 %83, %15
  %88 = add i32 %84, %15
  %89 = add i32 %85, %15
  %90 = add i32 %82, %16
  %91 = add i32 %83, %16
  %92 = add i32 %84, %16
  %93 = add i32 %85, %16
  %94 = add i32 %82, %17
  %95 = add i32 %83, %17
  %96 = add i32 %84, %17
  %97 = add i32 %85, %17
  %98 = add i32 %82, %18
  %99 = add i32 %83, %18
  %100 = add i32 %84, %18
  %101 = add i32 %85, %18
  %102 = getelementptr float, ptr addrspace(1) %y, i32 %86
  %103 = getelementptr float, ptr addrspace(1) %y, i32 %87
  %104 = getelementptr float, ptr addrspace(1) %y, i32 %88
  %105 = getelementptr float, ptr addrspace(1) %y, i32 %89
  %106 = getelementptr float, ptr addrspace(1) %y, i32 %90
  %107 = getelementptr float, ptr addrspace(1) %y, i32 %91
  %108 = getelementptr float, ptr addrspace(1) %y, i32 %92
  %109 = getelementptr float, ptr addrspace(1) %y, i32 %93
  %110 = getelementptr float, ptr addrspace(1) %y, i32 %94
  %111 = getelementptr float, ptr addrspace(1) %y, i32 %95
  %112 = getelementptr float, ptr addrspace(1) %y, i32 %96
  %113 = getelementptr float, ptr addrspace(1) %y, i32 %97
  %114 = getelementptr float, ptr addrspace(1) %y, i32 %98
  %115 = getelementptr float, ptr addrspace(1) %y, i32 %99
  %116 = getelementptr float, ptr addrspace(1) %y, i32 %100
  %117 = getelementptr float, ptr addrspace(1) %y, i32 %101
  store float %63, ptr addrspace(1) %102, align 4
  store float %64, ptr addrspace(1) %103, align 4
  store float %65, ptr addrspace(1) %104, align 4
  store float %66, ptr addrspace(1) %105, align 4
  store float %68, ptr addrspace(1) %106, align 4
  store float %69, ptr addrspace(1) %107, align 4
  store float %70, ptr addrspace(1) %108, align 4
  store float %71, ptr addrspace(1) %109, align 4
  store float %73, ptr addrspace(1) %110, align 4
  store float %74, ptr addrspace(1) %111, align 4
  store float %75, ptr addrspace(1) %112, align 4
  store float %76, ptr addrspace(1) %113, align 4
  store float %78, ptr addrspace(1) %114, align 4
  store float %79, ptr addrspace(1) %115, align 4
  store float %80, ptr addrspace(1) %116, align 4
  store float %81, ptr addrspace(1) %117, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
