target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @softmax(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = shl i32 %1, 2
  %warp = lshr i32 %1, 5
  %3 = lshr i32 %warp, 0
  %4 = and i32 %3, 1
  %5 = shl i32 %4, 0
  %6 = or i32 0, %5
  %7 = lshr i32 %warp, 1
  %8 = and i32 %7, 1
  %9 = shl i32 %8, 1
  %10 = or i32 %6, %9
  %warp2 = lshr i32 %1, 5
  %11 = lshr i32 %warp2, 0
  %12 = and i32 %11, 1
  %13 = shl i32 %12, 0
  %14 = or i32 0, %13
  %15 = lshr i32 %warp2, 1
  %16 = and i32 %15, 1
  %17 = shl i32 %16, 1
  %18 = or i32 %14, %17
  br label %body

body:                                             ; preds = %prologue
  %19 = shl i32 %0, 0
  %20 = icmp slt i32 %19, %m
  %21 = mul i32 %19, %n
  %22 = or disjoint i32 %2, 512
  %23 = icmp slt i32 %2, %n
  %24 = icmp slt i32 %22, %n
  %25 = and i1 %20, %23
  %26 = and i1 %20, %24
  %27 = add i32 %21, %2
  %28 = add i32 %21, %22
  %29 = getelementptr float, ptr addrspace(1) %x, i32 %27
  %30 = getelementptr float, ptr addrspace(1) %x, i32 %28
  %31 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %29, i1 %25)
  %32 = extractvalue { i32, i32, i32, i32 } %31, 0
  %33 = extractvalue { i32, i32, i32, i32 } %31, 1
  %34 = extractvalue { i32, i32, i32, i32 } %31, 2
  %35 = extractvalue { i32, i32, i32, i32 } %31, 3
  %36 = bitcast i32 %32 to float
  %37 = bitcast i32 %33 to float
  %38 = bitcast i32 %34 to float
  %39 = bitcast i32 %35 to float
  %40 = select i1 %25, float %36, float 0xFFF0000000000000
  %41 = select i1 %25, float %37, float 0xFFF0000000000000
  %42 = select i1 %25, float %38, float 0xFFF0000000000000
  %43 = select i1 %25, float %39, float 0xFFF0000000000000
  %44 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %30, i1 %26)
  %45 = extractvalue { i32, i32, i32, i32 } %44, 0
  %46 = extractvalue { i32, i32, i32, i32 } %44, 1
  %47 = extractvalue { i32, i32, i32, i32 } %44, 2
  %48 = extractvalue { i32, i32, i32, i32 } %44, 3
  %49 = bitcast i32 %45 to float
  %50 = bitcast i32 %46 to float
  %51 = bitcast i32 %47 to float
  %52 = bitcast i32 %48 to float
  %53 = select i1 %26, float %49, float 0xFFF0000000000000
  %54 = select i1 %26, float %50, float 0xFFF0000000000000
  %55 = select i1 %26, float %51, float 0xFFF0000000000000
  %56 = select i1 %26, float %52, float 0xFFF0000000000000
  %57 = call float @llvm.maxnum.f32(float %40, float %41)
  %58 = call float @llvm.maxnum.f32(float %57, float %42)
  %59 = call float @llvm.maxnum.f32(float %58, float %43)
  %60 = call float @llvm.maxnum.f32(float %59, float %53)
  %61 = call float @llvm.maxnum.f32(float %60, float %54)
  %62 = call float @llvm.maxnum.f32(float %61, float %55)
  %63 = call float @llvm.maxnum.f32(float %62, float %56)
  %64 = bitcast float %63 to i32
  %65 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %64, i32 1, i32 31)
  %66 = bitcast i32 %65 to float
  %67 = call float @llvm.maxnum.f32(float %63, float %66)
  %68 = bitcast float %67 to i32
  %69 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %68, i32 2, i32 31)
  %70 = bitcast i32 %69 to float
  %71 = call float @llvm.maxnum.f32(float %67, float %70)
  %72 = bitcast float %71 to i32
  %73 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %72, i32 4, i32 31)
  %74 = bitcast i32 %73 to float
  %75 = call float @llvm.maxnum.f32(float %71, float %74)
  %76 = bitcast float %75 to i32
  %77 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %76, i32 8, i32 31)
  %78 = bitcast i32 %77 to float
  %79 = call float @llvm.maxnum.f32(float %75, float %78)
  %80 = bitcast float %79 to i32
  %81 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %80, i32 16, i32 31)
  %82 = bitcast i32 %81 to float
  %83 = call float @llvm.maxnum.f32(float %79, float %82)
  %84 = mul i32 %10, 1
  %85 = add i32 %84, 0
  %86 = mul i32 %85, 4
  %87 = add i32 %86, 0
  %88 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %87
  store float %83, ptr addrspace(3) %88, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %89 = load <4 x float>, ptr addrspace(3) @weft_smem, align 16
  %90 = extractelement <4 x float> %89, i32 0
  %91 = extractelement <4 x float> %89, i32 1
  %92 = call float @llvm.maxnum.f32(float %90, float %91)
  %93 = extractelement <4 x float> %89, i32 2
  %94 = call float @llvm.maxnum.f32(float %92, float %93)
  %95 = extractelement <4 x float> %89, i32 3
  %96 = call float @llvm.maxnum.f32(float %94, float %95)
  %97 = fmul float %96, 0xBFF7154760000000
  %98 = call float @llvm.fma.f32(float %40, float 0x3FF7154760000000, float %97)
  %99 = call float @llvm.fma.f32(float %41, float 0x3FF7154760000000, float %97)
  %100 = call float @llvm.fma.f32(float %42, float 0x3FF7154760000000, float %97)
  %101 = call float @llvm.fma.f32(float %43, float 0x3FF7154760000000, float %97)
  %102 = call float @llvm.fma.f32(float %53, float 0x3FF7154760000000, float %97)
  %103 = call float @llvm.fma.f32(float %54, float 0x3FF7154760000000, float %97)
  %104 = call float @llvm.fma.f32(float %55, float 0x3FF7154760000000, float %97)
  %105 = call float @llvm.fma.f32(float %56, float 0x3FF7154760000000, float %97)
  %106 = call float @llvm.nvvm.ex2.approx.f32(float %98)
  %107 = call float @llvm.nvvm.ex2.approx.f32(float %99)
  %108 = call float @llvm.nvvm.ex2.approx.f32(float %100)
  %109 = call float @llvm.nvvm.ex2.approx.f32(float %101)
  %110 = call float @llvm.nvvm.ex2.approx.f32(float %102)
  %111 = call float @llvm.nvvm.ex2.approx.f32(float %103)
  %112 = call float @llvm.nvvm.ex2.approx.f32(float %104)
  %113 = call float @llvm.nvvm.ex2.approx.f32(float %105)
  %114 = fadd float %106, %107
  %115 = fadd float %114, %108
  %116 = fadd float %115, %109
  %117 = fadd float %116, %110
  %118 = fadd float %117, %111
  %119 = fadd float %118, %112
  %120 = fadd float %119, %113
  %121 = bitcast float %120 to i32
  %122 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %121, i32 1, i32 31)
  %123 = bitcast i32 %122 to float
  %124 = fadd float %120, %123
  %125 = bitcast float %124 to i32
  %126 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %125, i32 2, i32 31)
  %127 = bitcast i32 %126 to float
  %128 = fadd float %124, %127
  %129 = bitcast float %128 to i32
  %130 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %129, i32 4, i32 31)
  %131 = bitcast i32 %130 to float
  %132 = fadd float %128, %131
  %133 = bitcast float %132 to i32
  %134 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %133, i32 8, i32 31)
  %135 = bitcast i32 %134 to float
  %136 = fadd float %132, %135
  %137 = bitcast float %136 to i32
  %138 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %137, i32 16, i32 31)
  %139 = bitcast i32 %138 to float
  %140 = fadd float %136, %139
  %141 = mul i32 %18, 1
  %142 = add i32 %141, 0
  %143 = mul i32 %142, 4
  %144 = add i32 %143, 16
  %145 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %144
  store float %140, ptr addrspace(3) %145, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %146 = load <4 x float>, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 16
  %147 = extractelement <4 x float> %146, i32 0
  %148 = extractelement <4 x float> %146, i32 1
  %149 = fadd float %147, %148
  %150 = extractelement <4 x float> %146, i32 2
  %151 = fadd float %149, %150
  %152 = extractelement <4 x float> %146, i32 3
  %153 = fadd float %151, %152
  %154 = call float @llvm.nvvm.div.full(float 1.000000e+00, float %153)
  %155 = fmul float %106, %154
  %156 = fmul float %107, %154
  %157 = fmul float %108, %154
  %158 = fmul float %109, %154
  %159 = fmul float %110, %154
  %160 = fmul float %111, %154
  %161 = fmul float %112, %154
  %162 = fmul float %113, %154
  %163 = getelementptr float, ptr addrspace(1) %y, i32 %27
  %164 = getelementptr float, ptr addrspace(1) %y, i32 %28
  %165 = bitcast float %155 to i32
  %166 = bitcast float %156 to i32
  %167 = bitcast float %157 to i32
  %168 = bitcast float %158 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %163, i32 %165, i32 %166, i32 %167, i32 %168, i1 %25)
  %169 = bitcast float %159 to i32
  %170 = bitcast float %160 to i32
  %171 = bitcast float %161 to i32
  %172 = bitcast float %162 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %164, i32 %169, i32 %170, i32 %171, i32 %172, i1 %26)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maxnum.f32(float, float) #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.f32(float) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.div.full(float, float) #5

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(none) }
