target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @layernorm(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %w, ptr addrspace(1) align 16 %b, i32 %m, i32 %n, float %eps) #1 {
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
  %40 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %30, i1 %26)
  %41 = extractvalue { i32, i32, i32, i32 } %40, 0
  %42 = extractvalue { i32, i32, i32, i32 } %40, 1
  %43 = extractvalue { i32, i32, i32, i32 } %40, 2
  %44 = extractvalue { i32, i32, i32, i32 } %40, 3
  %45 = bitcast i32 %41 to float
  %46 = bitcast i32 %42 to float
  %47 = bitcast i32 %43 to float
  %48 = bitcast i32 %44 to float
  %49 = getelementptr float, ptr addrspace(1) %w, i32 %2
  %50 = getelementptr float, ptr addrspace(1) %w, i32 %22
  %51 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %49, i1 %23)
  %52 = extractvalue { i32, i32, i32, i32 } %51, 0
  %53 = extractvalue { i32, i32, i32, i32 } %51, 1
  %54 = extractvalue { i32, i32, i32, i32 } %51, 2
  %55 = extractvalue { i32, i32, i32, i32 } %51, 3
  %56 = bitcast i32 %52 to float
  %57 = bitcast i32 %53 to float
  %58 = bitcast i32 %54 to float
  %59 = bitcast i32 %55 to float
  %60 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %50, i1 %24)
  %61 = extractvalue { i32, i32, i32, i32 } %60, 0
  %62 = extractvalue { i32, i32, i32, i32 } %60, 1
  %63 = extractvalue { i32, i32, i32, i32 } %60, 2
  %64 = extractvalue { i32, i32, i32, i32 } %60, 3
  %65 = bitcast i32 %61 to float
  %66 = bitcast i32 %62 to float
  %67 = bitcast i32 %63 to float
  %68 = bitcast i32 %64 to float
  %69 = getelementptr float, ptr addrspace(1) %b, i32 %2
  %70 = getelementptr float, ptr addrspace(1) %b, i32 %22
  %71 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %69, i1 %23)
  %72 = extractvalue { i32, i32, i32, i32 } %71, 0
  %73 = extractvalue { i32, i32, i32, i32 } %71, 1
  %74 = extractvalue { i32, i32, i32, i32 } %71, 2
  %75 = extractvalue { i32, i32, i32, i32 } %71, 3
  %76 = bitcast i32 %72 to float
  %77 = bitcast i32 %73 to float
  %78 = bitcast i32 %74 to float
  %79 = bitcast i32 %75 to float
  %80 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %70, i1 %24)
  %81 = extractvalue { i32, i32, i32, i32 } %80, 0
  %82 = extractvalue { i32, i32, i32, i32 } %80, 1
  %83 = extractvalue { i32, i32, i32, i32 } %80, 2
  %84 = extractvalue { i32, i32, i32, i32 } %80, 3
  %85 = bitcast i32 %81 to float
  %86 = bitcast i32 %82 to float
  %87 = bitcast i32 %83 to float
  %88 = bitcast i32 %84 to float
  %89 = sitofp i32 %n to float
  %90 = fadd contract float %36, %37
  %91 = fadd contract float %90, %38
  %92 = fadd contract float %91, %39
  %93 = fadd contract float %92, %45
  %94 = fadd contract float %93, %46
  %95 = fadd contract float %94, %47
  %96 = fadd contract float %95, %48
  %97 = bitcast float %96 to i32
  %98 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %97, i32 1, i32 31)
  %99 = bitcast i32 %98 to float
  %100 = fadd contract float %96, %99
  %101 = bitcast float %100 to i32
  %102 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %101, i32 2, i32 31)
  %103 = bitcast i32 %102 to float
  %104 = fadd contract float %100, %103
  %105 = bitcast float %104 to i32
  %106 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %105, i32 4, i32 31)
  %107 = bitcast i32 %106 to float
  %108 = fadd contract float %104, %107
  %109 = bitcast float %108 to i32
  %110 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %109, i32 8, i32 31)
  %111 = bitcast i32 %110 to float
  %112 = fadd contract float %108, %111
  %113 = bitcast float %112 to i32
  %114 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %113, i32 16, i32 31)
  %115 = bitcast i32 %114 to float
  %116 = fadd contract float %112, %115
  %117 = mul i32 %10, 1
  %118 = add i32 %117, 0
  %119 = mul i32 %118, 4
  %120 = add i32 %119, 0
  %121 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %120
  store float %116, ptr addrspace(3) %121, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %122 = load <4 x float>, ptr addrspace(3) @weft_smem, align 16
  %123 = extractelement <4 x float> %122, i32 0
  %124 = extractelement <4 x float> %122, i32 1
  %125 = fadd contract float %123, %124
  %126 = extractelement <4 x float> %122, i32 2
  %127 = fadd contract float %125, %126
  %128 = extractelement <4 x float> %122, i32 3
  %129 = fadd contract float %127, %128
  %130 = call float @llvm.nvvm.div.full(float %129, float %89)
  %131 = fsub contract float %36, %130
  %132 = fsub contract float %37, %130
  %133 = fsub contract float %38, %130
  %134 = fsub contract float %39, %130
  %135 = fsub contract float %45, %130
  %136 = fsub contract float %46, %130
  %137 = fsub contract float %47, %130
  %138 = fsub contract float %48, %130
  %139 = select i1 %23, float %131, float 0.000000e+00
  %140 = select i1 %23, float %132, float 0.000000e+00
  %141 = select i1 %23, float %133, float 0.000000e+00
  %142 = select i1 %23, float %134, float 0.000000e+00
  %143 = select i1 %24, float %135, float 0.000000e+00
  %144 = select i1 %24, float %136, float 0.000000e+00
  %145 = select i1 %24, float %137, float 0.000000e+00
  %146 = select i1 %24, float %138, float 0.000000e+00
  %147 = fmul contract float %139, %139
  %148 = fmul contract float %140, %140
  %149 = fmul contract float %141, %141
  %150 = fmul contract float %142, %142
  %151 = fmul contract float %143, %143
  %152 = fmul contract float %144, %144
  %153 = fmul contract float %145, %145
  %154 = fmul contract float %146, %146
  %155 = fadd contract float %147, %148
  %156 = fadd contract float %155, %149
  %157 = fadd contract float %156, %150
  %158 = fadd contract float %157, %151
  %159 = fadd contract float %158, %152
  %160 = fadd contract float %159, %153
  %161 = fadd contract float %160, %154
  %162 = bitcast float %161 to i32
  %163 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %162, i32 1, i32 31)
  %164 = bitcast i32 %163 to float
  %165 = fadd contract float %161, %164
  %166 = bitcast float %165 to i32
  %167 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %166, i32 2, i32 31)
  %168 = bitcast i32 %167 to float
  %169 = fadd contract float %165, %168
  %170 = bitcast float %169 to i32
  %171 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %170, i32 4, i32 31)
  %172 = bitcast i32 %171 to float
  %173 = fadd contract float %169, %172
  %174 = bitcast float %173 to i32
  %175 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %174, i32 8, i32 31)
  %176 = bitcast i32 %175 to float
  %177 = fadd contract float %173, %176
  %178 = bitcast float %177 to i32
  %179 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %178, i32 16, i32 31)
  %180 = bitcast i32 %179 to float
  %181 = fadd contract float %177, %180
  %182 = mul i32 %18, 1
  %183 = add i32 %182, 0
  %184 = mul i32 %183, 4
  %185 = add i32 %184, 16
  %186 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %185
  store float %181, ptr addrspace(3) %186, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %187 = load <4 x float>, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @weft_smem, i32 16), align 16
  %188 = extractelement <4 x float> %187, i32 0
  %189 = extractelement <4 x float> %187, i32 1
  %190 = fadd contract float %188, %189
  %191 = extractelement <4 x float> %187, i32 2
  %192 = fadd contract float %190, %191
  %193 = extractelement <4 x float> %187, i32 3
  %194 = fadd contract float %192, %193
  %195 = call float @llvm.nvvm.div.full(float %194, float %89)
  %196 = fadd contract float %195, %eps
  %197 = call float @llvm.sqrt.f32(float %196)
  %198 = fdiv float 1.000000e+00, %197
  %199 = fcmp olt float %196, 0x3810000000000000
  %200 = fmul float %196, 0x4190000000000000
  %201 = select i1 %199, float %200, float %196
  %202 = bitcast float %201 to i32
  %203 = ashr i32 %202, 23
  %204 = sub i32 %203, 127
  %205 = ashr i32 %204, 1
  %206 = add i32 %205, %205
  %207 = sub i32 0, %206
  %208 = add i32 %207, 127
  %209 = shl i32 %208, 23
  %210 = bitcast i32 %209 to float
  %211 = fmul float %201, %210
  %212 = call float @llvm.sqrt.f32(float %211)
  %213 = fdiv float 1.000000e+00, %212
  %214 = fmul float %213, %213
  %215 = fneg float %214
  %216 = call float @llvm.fma.f32(float %213, float %213, float %215)
  %217 = fmul float %211, %214
  %218 = fneg float %217
  %219 = call float @llvm.fma.f32(float %211, float %214, float %218)
  %220 = fsub float %217, 1.000000e+00
  %221 = call float @llvm.fma.f32(float %211, float %216, float %219)
  %222 = fadd float %220, %221
  %223 = fmul float -5.000000e-01, %213
  %224 = call float @llvm.fma.f32(float %223, float %222, float %213)
  %225 = select i1 %199, i32 13, i32 0
  %226 = sub i32 %225, %205
  %227 = ashr i32 %226, 1
  %228 = sub i32 %226, %227
  %229 = add i32 %227, 127
  %230 = shl i32 %229, 23
  %231 = bitcast i32 %230 to float
  %232 = fmul float %224, %231
  %233 = add i32 %228, 127
  %234 = shl i32 %233, 23
  %235 = bitcast i32 %234 to float
  %236 = fmul float %232, %235
  %237 = fcmp ogt float %196, 0.000000e+00
  %238 = fcmp olt float %196, 0x7FF0000000000000
  %239 = and i1 %237, %238
  %240 = select i1 %239, float %236, float %198
  %241 = fmul contract float %139, %240
  %242 = fmul contract float %140, %240
  %243 = fmul contract float %141, %240
  %244 = fmul contract float %142, %240
  %245 = fmul contract float %143, %240
  %246 = fmul contract float %144, %240
  %247 = fmul contract float %145, %240
  %248 = fmul contract float %146, %240
  %249 = call float @llvm.fma.f32(float %241, float %56, float %76)
  %250 = call float @llvm.fma.f32(float %242, float %57, float %77)
  %251 = call float @llvm.fma.f32(float %243, float %58, float %78)
  %252 = call float @llvm.fma.f32(float %244, float %59, float %79)
  %253 = call float @llvm.fma.f32(float %245, float %65, float %85)
  %254 = call float @llvm.fma.f32(float %246, float %66, float %86)
  %255 = call float @llvm.fma.f32(float %247, float %67, float %87)
  %256 = call float @llvm.fma.f32(float %248, float %68, float %88)
  %257 = getelementptr float, ptr addrspace(1) %y, i32 %27
  %258 = getelementptr float, ptr addrspace(1) %y, i32 %28
  %259 = bitcast float %249 to i32
  %260 = bitcast float %250 to i32
  %261 = bitcast float %251 to i32
  %262 = bitcast float %252 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %257, i32 %259, i32 %260, i32 %261, i32 %262, i1 %25)
  %263 = bitcast float %253 to i32
  %264 = bitcast float %254 to i32
  %265 = bitcast float %255 to i32
  %266 = bitcast float %256 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %258, i32 %263, i32 %264, i32 %265, i32 %266, i1 %26)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.div.full(float, float) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #5

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.sqrt.f32(float) #5

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(none) }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
