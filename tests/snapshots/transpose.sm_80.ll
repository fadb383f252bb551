target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @transpose(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %2 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = lshr i32 %2, 4
  %4 = and i32 %2, 15
  %5 = shl i32 %4, 2
  br label %body

body:                                             ; preds = %prologue
  %6 = shl i32 %0, 6
  %7 = shl i32 %1, 6
  %8 = or disjoint i32 %3, %6
  %9 = or disjoint i32 %8, 8
  %10 = or disjoint i32 %8, 16
  %11 = or disjoint i32 %8, 24
  %12 = or disjoint i32 %8, 32
  %13 = or disjoint i32 %8, 40
  %14 = or disjoint i32 %8, 48
  %15 = or disjoint i32 %8, 56
  %16 = or disjoint i32 %5, %7
  %17 = or disjoint i32 %16, 1
  %18 = or disjoint i32 %16, 2
  %19 = or disjoint i32 %16, 3
  %20 = mul i32 %8, %n
  %21 = mul i32 %9, %n
  %22 = mul i32 %10, %n
  %23 = mul i32 %11, %n
  %24 = mul i32 %12, %n
  %25 = mul i32 %13, %n
  %26 = mul i32 %14, %n
  %27 = mul i32 %15, %n
  %28 = add i32 %20, %16
  %29 = add i32 %21, %16
  %30 = add i32 %22, %16
  %31 = add i32 %23, %16
  %32 = add i32 %24, %16
  %33 = add i32 %25, %16
  %34 = add i32 %26, %16
  %35 = add i32 %27, %16
  %36 = getelementptr float, ptr addrspace(1) %x, i32 %28
  %37 = getelementptr float, ptr addrspace(1) %x, i32 %29
  %38 = getelementptr float, ptr addrspace(1) %x, i32 %30
  %39 = getelementptr float, ptr addrspace(1) %x, i32 %31
  %40 = getelementptr float, ptr addrspace(1) %x, i32 %32
  %41 = getelementptr float, ptr addrspace(1) %x, i32 %33
  %42 = getelementptr float, ptr addrspace(1) %x, i32 %34
  %43 = getelementptr float, ptr addrspace(1) %x, i32 %35
  %44 = load <4 x float>, ptr addrspace(1) %36, align 16
  %45 = extractelement <4 x float> %44, i32 0
  %46 = extractelement <4 x float> %44, i32 1
  %47 = extractelement <4 x float> %44, i32 2
  %48 = extractelement <4 x float> %44, i32 3
  %49 = load <4 x float>, ptr addrspace(1) %37, align 16
  %50 = extractelement <4 x float> %49, i32 0
  %51 = extractelement <4 x float> %49, i32 1
  %52 = extractelement <4 x float> %49, i32 2
  %53 = extractelement <4 x float> %49, i32 3
  %54 = load <4 x float>, ptr addrspace(1) %38, align 16
  %55 = extractelement <4 x float> %54, i32 0
  %56 = extractelement <4 x float> %54, i32 1
  %57 = extractelement <4 x float> %54, i32 2
  %58 = extractelement <4 x float> %54, i32 3
  %59 = load <4 x float>, ptr addrspace(1) %39, align 16
  %60 = extractelement <4 x float> %59, i32 0
  %61 = extractelement <4 x float> %59, i32 1
  %62 = extractelement <4 x float> %59, i32 2
  %63 = extractelement <4 x float> %59, i32 3
  %64 = load <4 x float>, ptr addrspace(1) %40, align 16
  %65 = extractelement <4 x float> %64, i32 0
  %66 = extractelement <4 x float> %64, i32 1
  %67 = extractelement <4 x float> %64, i32 2
  %68 = extractelement <4 x float> %64, i32 3
  %69 = load <4 x float>, ptr addrspace(1) %41, align 16
  %70 = extractelement <4 x float> %69, i32 0
  %71 = extractelement <4 x float> %69, i32 1
  %72 = extractelement <4 x float> %69, i32 2
  %73 = extractelement <4 x float> %69, i32 3
  %74 = load <4 x float>, ptr addrspace(1) %42, align 16
  %75 = extractelement <4 x float> %74, i32 0
  %76 = extractelement <4 x float> %74, i32 1
  %77 = extractelement <4 x float> %74, i32 2
  %78 = extractelement <4 x float> %74, i32 3
  %79 = load <4 x float>, ptr addrspace(1) %43, align 16
  %80 = extractelement <4 x float> %79, i32 0
  %81 = extractelement <4 x float> %79, i32 1
  %82 = extractelement <4 x float> %79, i32 2
  %83 = extractelement <4 x float> %79, i32 3
  %84 = mul i32 %16, %n
  %85 = mul i32 %17, %n
  %86 = mul i32 %18, %n
  %87 = mul i32 %19, %n
  %88 = add i32 %84, %8
  %89 = add i32 %85, %8
  %90 = add i32 %86, %8
  %91 = add i32 %87, %8
  %92 = add i32 %84, %9
  %93 = add i32 %85, %9
  %94 = add i32 %86, %9
  %95 = add i32 %87, %9
  %96 = add i32 %84, %10
  %97 = add i32 %85, %10
  %98 = add i32 %86, %10
  %99 = add i32 %87, %10
  %100 = add i32 %84, %11
  %101 = add i32 %85, %11
  %102 = add i32 %86, %11
  %103 = add i32 %87, %11
  %104 = add i32 %84, %12
  %105 = add i32 %85, %12
  %106 = add i32 %86, %12
  %107 = add i32 %87, %12
  %108 = add i32 %84, %13
  %109 = add i32 %85, %13
  %110 = add i32 %86, %13
  %111 = add i32 %87, %13
  %112 = add i32 %84, %14
  %113 = add i32 %85, %14
  %114 = add i32 %86, %14
  %115 = add i32 %87, %14
  %116 = add i32 %84, %15
  %117 = add i32 %85, %15
  %118 = add i32 %86, %15
  %119 = add i32 %87, %15
  %120 = getelementptr float, ptr addrspace(1) %y, i32 %88
  %121 = getelementptr float, ptr addrspace(1) %y, i32 %89
  %122 = getelementptr float, ptr addrspace(1) %y, i32 %90
  %123 = getelementptr float, ptr addrspace(1) %y, i32 %91
  %124 = getelementptr float, ptr addrspace(1) %y, i32 %92
  %125 = getelementptr float, ptr addrspace(1) %y, i32 %93
  %126 = getelementptr float, ptr addrspace(1) %y, i32 %94
  %127 = getelementptr float, ptr addrspace(1) %y, i32 %95
  %128 = getelementptr float, ptr addrspace(1) %y, i32 %96
  %129 = getelementptr float, ptr addrspace(1) %y, i32 %97
  %130 = getelementptr float, ptr addrspace(1) %y, i32 %98
  %131 = getelementptr float, ptr addrspace(1) %y, i32 %99
  %132 = getelementptr float, ptr addrspace(1) %y, i32 %100
  %133 = getelementptr float, ptr addrspace(1) %y, i32 %101
  %134 = getelementptr float, ptr addrspace(1) %y, i32 %102
  %135 = getelementptr float, ptr addrspace(1) %y, i32 %103
  %136 = getelementptr float, ptr addrspace(1) %y, i32 %104
  %137 = getelementptr float, ptr addrspace(1) %y, i32 %105
  %138 = getelementptr float, ptr addrspace(1) %y, i32 %106
  %139 = getelementptr float, ptr addrspace(1) %y, i32 %107
  %140 = getelementptr float, ptr addrspace(1) %y, i32 %108
  %141 = getelementptr float, ptr addrspace(1) %y, i32 %109
  %142 = getelementptr float, ptr addrspace(1) %y, i32 %110
  %143 = getelementptr float, ptr addrspace(1) %y, i32 %111
  %144 = getelementptr float, ptr addrspace(1) %y, i32 %112
  %145 = getelementptr float, ptr addrspace(1) %y, i32 %113
  %146 = getelementptr float, ptr addrspace(1) %y, i32 %114
  %147 = getelementptr float, ptr addrspace(1) %y, i32 %115
  %148 = getelementptr float, ptr addrspace(1) %y, i32 %116
  %149 = getelementptr float, ptr addrspace(1) %y, i32 %117
  %150 = getelementptr float, ptr addrspace(1) %y, i32 %118
  %151 = getelementptr float, ptr addrspace(1) %y, i32 %119
  store float %45, ptr addrspace(1) %120, align 4
  store float %46, ptr addrspace(1) %121, align 4
  store float %47, ptr addrspace(1) %122, align 4
  store float %48, ptr addrspace(1) %123, align 4
  store float %50, ptr addrspace(1) %124, align 4
  store float %51, ptr addrspace(1) %125, align 4
  store float %52, ptr addrspace(1) %126, align 4
  store float %53, ptr addrspace(1) %127, align 4
  store float %55, ptr addrspace(1) %128, align 4
  store float %56, ptr addrspace(1) %129, align 4
  store float %57, ptr addrspace(1) %130, align 4
  store float %58, ptr addrspace(1) %131, align 4
  store float %60, ptr addrspace(1) %132, align 4
  store float %61, ptr addrspace(1) %133, align 4
  store float %62, ptr addrspace(1) %134, align 4
  store float %63, ptr addrspace(1) %135, align 4
  store float %65, ptr addrspace(1) %136, align 4
  store float %66, ptr addrspace(1) %137, align 4
  store float %67, ptr addrspace(1) %138, align 4
  store float %68, ptr addrspace(1) %139, align 4
  store float %70, ptr addrspace(1) %140, align 4
  store float %71, ptr addrspace(1) %141, align 4
  store float %72, ptr addrspace(1) %142, align 4
  store float %73, ptr addrspace(1) %143, align 4
  store float %75, ptr addrspace(1) %144, align 4
  store float %76, ptr addrspace(1) %145, align 4
  store float %77, ptr addrspace(1) %146, align 4
  store float %78, ptr addrspace(1) %147, align 4
  store float %80, ptr addrspace(1) %148, align 4
  store float %81, ptr addrspace(1) %149, align 4
  store float %82, ptr addrspace(1) %150, align 4
  store float %83, ptr addrspace(1) %151, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
