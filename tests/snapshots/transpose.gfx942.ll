target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @transpose(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call i32 @llvm.amdgcn.workgroup.id.y()
  %2 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %3 = lshr i32 %2, 4
  %4 = and i32 %2, 15
  %5 = shl i32 %4, 2
  br label %body

body:                                             ; preds = %prologue
  %6 = shl i32 %0, 6
  %7 = shl i32 %1, 6
  %8 = or disjoint i32 %3, %6
  %9 = or disjoint i32 %8, 16
  %10 = or disjoint i32 %8, 32
  %11 = or disjoint i32 %8, 48
  %12 = or disjoint i32 %5, %7
  %13 = or disjoint i32 %12, 1
  %14 = or disjoint i32 %12, 2
  %15 = or disjoint i32 %12, 3
  %16 = mul i32 %8, %n
  %17 = mul i32 %9, %n
  %18 = mul i32 %10, %n
  %19 = mul i32 %11, %n
  %20 = add i32 %16, %12
  %21 = add i32 %17, %12
  %22 = add i32 %18, %12
  %23 = add i32 %19, %12
  %24 = getelementptr float, ptr addrspace(1) %x, i32 %20
  %25 = getelementptr float, ptr addrspace(1) %x, i32 %21
  %26 = getelementptr float, ptr addrspace(1) %x, i32 %22
  %27 = getelementptr float, ptr addrspace(1) %x, i32 %23
  %28 = load <4 x float>, ptr addrspace(1) %24, align 16
  %29 = extractelement <4 x float> %28, i32 0
  %30 = extractelement <4 x float> %28, i32 1
  %31 = extractelement <4 x float> %28, i32 2
  %32 = extractelement <4 x float> %28, i32 3
  %33 = load <4 x float>, ptr addrspace(1) %25, align 16
  %34 = extractelement <4 x float> %33, i32 0
  %35 = extractelement <4 x float> %33, i32 1
  %36 = extractelement <4 x float> %33, i32 2
  %37 = extractelement <4 x float> %33, i32 3
  %38 = load <4 x float>, ptr addrspace(1) %26, align 16
  %39 = extractelement <4 x float> %38, i32 0
  %40 = extractelement <4 x float> %38, i32 1
  %41 = extractelement <4 x float> %38, i32 2
  %42 = extractelement <4 x float> %38, i32 3
  %43 = load <4 x float>, ptr addrspace(1) %27, align 16
  %44 = extractelement <4 x float> %43, i32 0
  %45 = extractelement <4 x float> %43, i32 1
  %46 = extractelement <4 x float> %43, i32 2
  %47 = extractelement <4 x float> %43, i32 3
  %48 = mul i32 %12, %n
  %49 = mul i32 %13, %n
  %50 = mul i32 %14, %n
  %51 = mul i32 %15, %n
  %52 = add i32 %48, %8
  %53 = add i32 %49, %8
  %54 = add i32 %50, %8
  %55 = add i32 %51, %8
  %56 = add i32 %48, %9
  %57 = add i32 %49, %9
  %58 = add i32 %50, %9
  %59 = add i32 %51, %9
  %60 = add i32 %48, %10
  %61 = add i32 %49, %10
  %62 = add i32 %50, %10
  %63 = add i32 %51, %10
  %64 = add i32 %48, %11
  %65 = add i32 %49, %11
  %66 = add i32 %50, %11
  %67 = add i32 %51, %11
  %68 = getelementptr float, ptr addrspace(1) %y, i32 %52
  %69 = getelementptr float, ptr addrspace(1) %y, i32 %53
  %70 = getelementptr float, ptr addrspace(1) %y, i32 %54
  %71 = getelementptr float, ptr addrspace(1) %y, i32 %55
  %72 = getelementptr float, ptr addrspace(1) %y, i32 %56
  %73 = getelementptr float, ptr addrspace(1) %y, i32 %57
  %74 = getelementptr float, ptr addrspace(1) %y, i32 %58
  %75 = getelementptr float, ptr addrspace(1) %y, i32 %59
  %76 = getelementptr float, ptr addrspace(1) %y, i32 %60
  %77 = getelementptr float, ptr addrspace(1) %y, i32 %61
  %78 = getelementptr float, ptr addrspace(1) %y, i32 %62
  %79 = getelementptr float, ptr addrspace(1) %y, i32 %63
  %80 = getelementptr float, ptr addrspace(1) %y, i32 %64
  %81 = getelementptr float, ptr addrspace(1) %y, i32 %65
  %82 = getelementptr float, ptr addrspace(1) %y, i32 %66
  %83 = getelementptr float, ptr addrspace(1) %y, i32 %67
  store float %29, ptr addrspace(1) %68, align 4
  store float %30, ptr addrspace(1) %69, align 4
  store float %31, ptr addrspace(1) %70, align 4
  store float %32, ptr addrspace(1) %71, align 4
  store float %34, ptr addrspace(1) %72, align 4
  store float %35, ptr addrspace(1) %73, align 4
  store float %36, ptr addrspace(1) %74, align 4
  store float %37, ptr addrspace(1) %75, align 4
  store float %39, ptr addrspace(1) %76, align 4
  store float %40, ptr addrspace(1) %77, align 4
  store float %41, ptr addrspace(1) %78, align 4
  store float %42, ptr addrspace(1) %79, align 4
  store float %44, ptr addrspace(1) %80, align 4
  store float %45, ptr addrspace(1) %81, align 4
  store float %46, ptr addrspace(1) %82, align 4
  store float %47, ptr addrspace(1) %83, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
