target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @transpose(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %2, 31
  %warp = lshr i32 %2, 5
  %3 = and i32 %lane, 16
  %4 = lshr i32 %3, 4
  %5 = and i32 %warp, 3
  %6 = shl i32 %5, 1
  %7 = xor i32 %4, %6
  %8 = and i32 %lane, 15
  %9 = shl i32 %8, 2
  br label %body

body:                                             ; preds = %prologue
  %10 = mul i32 %0, 64
  %11 = mul i32 %1, 64
  %12 = add nuw i32 %7, 8
  %13 = add nuw i32 %7, 16
  %14 = add nuw i32 %7, 24
  %15 = add nuw i32 %7, 32
  %16 = add nuw i32 %7, 40
  %17 = add nuw i32 %7, 48
  %18 = add nuw i32 %7, 56
  %19 = add i32 %7, %10
  %20 = add i32 %12, %10
  %21 = add i32 %13, %10
  %22 = add i32 %14, %10
  %23 = add i32 %15, %10
  %24 = add i32 %16, %10
  %25 = add i32 %17, %10
  %26 = add i32 %18, %10
  %27 = add nuw i32 %9, 1
  %28 = add nuw i32 %9, 2
  %29 = add nuw i32 %9, 3
  %30 = add i32 %9, %11
  %31 = add i32 %27, %11
  %32 = add i32 %28, %11
  %33 = add i32 %29, %11
  %34 = mul i32 %19, %n
  %35 = mul i32 %20, %n
  %36 = mul i32 %21, %n
  %37 = mul i32 %22, %n
  %38 = mul i32 %23, %n
  %39 = mul i32 %24, %n
  %40 = mul i32 %25, %n
  %41 = mul i32 %26, %n
  %42 = add i32 %34, %30
  %43 = add i32 %34, %31
  %44 = add i32 %34, %32
  %45 = add i32 %34, %33
  %46 = add i32 %35, %30
  %47 = add i32 %35, %31
  %48 = add i32 %35, %32
  %49 = add i32 %35, %33
  %50 = add i32 %36, %30
  %51 = add i32 %36, %31
  %52 = add i32 %36, %32
  %53 = add i32 %36, %33
  %54 = add i32 %37, %30
  %55 = add i32 %37, %31
  %56 = add i32 %37, %32
  %57 = add i32 %37, %33
  %58 = add i32 %38, %30
  %59 = add i32 %38, %31
  %60 = add i32 %38, %32
  %61 = add i32 %38, %33
  %62 = add i32 %39, %30
  %63 = add i32 %39, %31
  %64 = add i32 %39, %32
  %65 = add i32 %39, %33
  %66 = add i32 %40, %30
  %67 = add i32 %40, %31
  %68 = add i32 %40, %32
  %69 = add i32 %40, %33
  %70 = add i32 %41, %30
  %71 = add i32 %41, %31
  %72 = add i32 %41, %32
  %73 = add i32 %41, %33
  %74 = getelementptr float, ptr addrspace(1) %x, i32 %42
  %75 = getelementptr float, ptr addrspace(1) %x, i32 %43
  %76 = getelementptr float, ptr addrspace(1) %x, i32 %44
  %77 = getelementptr float, ptr addrspace(1) %x, i32 %45
  %78 = getelementptr float, ptr addrspace(1) %x, i32 %46
  %79 = getelementptr float, ptr addrspace(1) %x, i32 %47
  %80 = getelementptr float, ptr addrspace(1) %x, i32 %48
  %81 = getelementptr float, ptr addrspace(1) %x, i32 %49
  %82 = getelementptr float, ptr addrspace(1) %x, i32 %50
  %83 = getelementptr float, ptr addrspace(1) %x, i32 %51
  %84 = getelementptr float, ptr addrspace(1) %x, i32 %52
  %85 = getelementptr float, ptr addrspace(1) %x, i32 %53
  %86 = getelementptr float, ptr addrspace(1) %x, i32 %54
  %87 = getelementptr float, ptr addrspace(1) %x, i32 %55
  %88 = getelementptr float, ptr addrspace(1) %x, i32 %56
  %89 = getelementptr float, ptr addrspace(1) %x, i32 %57
  %90 = getelementptr float, ptr addrspace(1) %x, i32 %58
  %91 = getelementptr float, ptr addrspace(1) %x, i32 %59
  %92 = getelementptr float, ptr addrspace(1) %x, i32 %60
  %93 = getelementptr float, ptr addrspace(1) %x, i32 %61
  %94 = getelementptr float, ptr addrspace(1) %x, i32 %62
  %95 = getelementptr float, ptr addrspace(1) %x, i32 %63
  %96 = getelementptr float, ptr addrspace(1) %x, i32 %64
  %97 = getelementptr float, ptr addrspace(1) %x, i32 %65
  %98 = getelementptr float, ptr addrspace(1) %x, i32 %66
  %99 = getelementptr float, ptr addrspace(1) %x, i32 %67
  %100 = getelementptr float, ptr addrspace(1) %x, i32 %68
  %101 = getelementptr float, ptr addrspace(1) %x, i32 %69
  %102 = getelementptr float, ptr addrspace(1) %x, i32 %70
  %103 = getelementptr float, ptr addrspace(1) %x, i32 %71
  %104 = getelementptr float, ptr addrspace(1) %x, i32 %72
  %105 = getelementptr float, ptr addrspace(1) %x, i32 %73
  %106 = load <4 x float>, ptr addrspace(1) %74, align 16
  %107 = extractelement <4 x float> %106, i32 0
  %108 = extractelement <4 x float> %106, i32 1
  %109 = extractelement <4 x float> %106, i32 2
  %110 = extractelement <4 x float> %106, i32 3
  %111 = insertelement <4 x float> poison, float %107, i32 0
  %112 = insertelement <4 x float> %111, float %108, i32 1
  %113 = insertelement <4 x float> %112, float %109, i32 2
  %114 = insertelement <4 x float> %113, float %110, i32 3
  %115 = extractelement <4 x float> %114, i32 0
  %116 = extractelement <4 x float> %114, i32 1
  %117 = extractelement <4 x float> %114, i32 2
  %118 = extractelement <4 x float> %114, i32 3
  %119 = load <4 x float>, ptr addrspace(1) %78, align 16
  %120 = extractelement <4 x float> %119, i32 0
  %121 = extractelement <4 x float> %119, i32 1
  %122 = extractelement <4 x float> %119, i32 2
  %123 = extractelement <4 x float> %119, i32 3
  %124 = insertelement <4 x float> poison, float %120, i32 0
  %125 = insertelement <4 x float> %124, float %121, i32 1
  %126 = insertelement <4 x float> %125, float %122, i32 2
  %127 = insertelement <4 x float> %126, float %123, i32 3
  %128 = extractelement <4 x float> %127, i32 0
  %129 = extractelement <4 x float> %127, i32 1
  %130 = extractelement <4 x float> %127, i32 2
  %131 = extractelement <4 x float> %127, i32 3
  %132 = load <4 x float>, ptr addrspace(1) %82, align 16
  %133 = extractelement <4 x float> %132, i32 0
  %134 = extractelement <4 x float> %132, i32 1
  %135 = extractelement <4 x float> %132, i32 2
  %136 = extractelement <4 x float> %132, i32 3
  %137 = insertelement <4 x float> poison, float %133, i32 0
  %138 = insertelement <4 x float> %137, float %134, i32 1
  %139 = insertelement <4 x float> %138, float %135, i32 2
  %140 = insertelement <4 x float> %139, float %136, i32 3
  %141 = extractelement <4 x float> %140, i32 0
  %142 = extractelement <4 x float> %140, i32 1
  %143 = extractelement <4 x float> %140, i32 2
  %144 = extractelement <4 x float> %140, i32 3
  %145 = load <4 x float>, ptr addrspace(1) %86, align 16
  %146 = extractelement <4 x float> %145, i32 0
  %147 = extractelement <4 x float> %145, i32 1
  %148 = extractelement <4 x float> %145, i32 2
  %149 = extractelement <4 x float> %145, i32 3
  %150 = insertelement <4 x float> poison, float %146, i32 0
  %151 = insertelement <4 x float> %150, float %147, i32 1
  %152 = insertelement <4 x float> %151, float %148, i32 2
  %153 = insertelement <4 x float> %152, float %149, i32 3
  %154 = extractelement <4 x float> %153, i32 0
  %155 = extractelement <4 x float> %153, i32 1
  %156 = extractelement <4 x float> %153, i32 2
  %157 = extractelement <4 x float> %153, i32 3
  %158 = load <4 x float>, ptr addrspace(1) %90, align 16
  %159 = extractelement <4 x float> %158, i32 0
  %160 = extractelement <4 x float> %158, i32 1
  %161 = extractelement <4 x float> %158, i32 2
  %162 = extractelement <4 x float> %158, i32 3
  %163 = insertelement <4 x float> poison, float %159, i32 0
  %164 = insertelement <4 x float> %163, float %160, i32 1
  %165 = insertelement <4 x float> %164, float %161, i32 2
  %166 = insertelement <4 x float> %165, float %162, i32 3
  %167 = extractelement <4 x float> %166, i32 0
  %168 = extractelement <4 x float> %166, i32 1
  %169 = extractelement <4 x float> %166, i32 2
  %170 = extractelement <4 x float> %166, i32 3
  %171 = load <4 x float>, ptr addrspace(1) %94, align 16
  %172 = extractelement <4 x float> %171, i32 0
  %173 = extractelement <4 x float> %171, i32 1
  %174 = extractelement <4 x float> %171, i32 2
  %175 = extractelement <4 x float> %171, i32 3
  %176 = insertelement <4 x float> poison, float %172, i32 0
  %177 = insertelement <4 x float> %176, float %173, i32 1
  %178 = insertelement <4 x float> %177, float %174, i32 2
  %179 = insertelement <4 x float> %178, float %175, i32 3
  %180 = extractelement <4 x float> %179, i32 0
  %181 = extractelement <4 x float> %179, i32 1
  %182 = extractelement <4 x float> %179, i32 2
  %183 = extractelement <4 x float> %179, i32 3
  %184 = load <4 x float>, ptr addrspace(1) %98, align 16
  %185 = extractelement <4 x float> %184, i32 0
  %186 = extractelement <4 x float> %184, i32 1
  %187 = extractelement <4 x float> %184, i32 2
  %188 = extractelement <4 x float> %184, i32 3
  %189 = insertelement <4 x float> poison, float %185, i32 0
  %190 = insertelement <4 x float> %189, float %186, i32 1
  %191 = insertelement <4 x float> %190, float %187, i32 2
  %192 = insertelement <4 x float> %191, float %188, i32 3
  %193 = extractelement <4 x float> %192, i32 0
  %194 = extractelement <4 x float> %192, i32 1
  %195 = extractelement <4 x float> %192, i32 2
  %196 = extractelement <4 x float> %192, i32 3
  %197 = load <4 x float>, ptr addrspace(1) %102, align 16
  %198 = extractelement <4 x float> %197, i32 0
  %199 = extractelement <4 x float> %197, i32 1
  %200 = extractelement <4 x float> %197, i32 2
  %201 = extractelement <4 x float> %197, i32 3
  %202 = insertelement <4 x float> poison, float %198, i32 0
  %203 = insertelement <4 x float> %202, float %199, i32 1
  %204 = insertelement <4 x float> %203, float %200, i32 2
  %205 = insertelement <4 x float> %204, float %201, i32 3
  %206 = extractelement <4 x float> %205, i32 0
  %207 = extractelement <4 x float> %205, i32 1
  %208 = extractelement <4 x float> %205, i32 2
  %209 = extractelement <4 x float> %205, i32 3
  %210 = mul i32 %30, %n
  %211 = mul i32 %31, %n
  %212 = mul i32 %32, %n
  %213 = mul i32 %33, %n
  %214 = add i32 %210, %19
  %215 = add i32 %211, %19
  %216 = add i32 %212, %19
  %217 = add i32 %213, %19
  %218 = add i32 %210, %20
  %219 = add i32 %211, %20
  %220 = add i32 %212, %20
  %221 = add i32 %213, %20
  %222 = add i32 %210, %21
  %223 = add i32 %211, %21
  %224 = add i32 %212, %21
  %225 = add i32 %213, %21
  %226 = add i32 %210, %22
  %227 = add i32 %211, %22
  %228 = add i32 %212, %22
  %229 = add i32 %213, %22
  %230 = add i32 %210, %23
  %231 = add i32 %211, %23
  %232 = add i32 %212, %23
  %233 = add i32 %213, %23
  %234 = add i32 %210, %24
  %235 = add i32 %211, %24
  %236 = add i32 %212, %24
  %237 = add i32 %213, %24
  %238 = add i32 %210, %25
  %239 = add i32 %211, %25
  %240 = add i32 %212, %25
  %241 = add i32 %213, %25
  %242 = add i32 %210, %26
  %243 = add i32 %211, %26
  %244 = add i32 %212, %26
  %245 = add i32 %213, %26
  %246 = getelementptr float, ptr addrspace(1) %y, i32 %214
  %247 = getelementptr float, ptr addrspace(1) %y, i32 %215
  %248 = getelementptr float, ptr addrspace(1) %y, i32 %216
  %249 = getelementptr float, ptr addrspace(1) %y, i32 %217
  %250 = getelementptr float, ptr addrspace(1) %y, i32 %218
  %251 = getelementptr float, ptr addrspace(1) %y, i32 %219
  %252 = getelementptr float, ptr addrspace(1) %y, i32 %220
  %253 = getelementptr float, ptr addrspace(1) %y, i32 %221
  %254 = getelementptr float, ptr addrspace(1) %y, i32 %222
  %255 = getelementptr float, ptr addrspace(1) %y, i32 %223
  %256 = getelementptr float, ptr addrspace(1) %y, i32 %224
  %257 = getelementptr float, ptr addrspace(1) %y, i32 %225
  %258 = getelementptr float, ptr addrspace(1) %y, i32 %226
  %259 = getelementptr float, ptr addrspace(1) %y, i32 %227
  %260 = getelementptr float, ptr addrspace(1) %y, i32 %228
  %261 = getelementptr float, ptr addrspace(1) %y, i32 %229
  %262 = getelementptr float, ptr addrspace(1) %y, i32 %230
  %263 = getelementptr float, ptr addrspace(1) %y, i32 %231
  %264 = getelementptr float, ptr addrspace(1) %y, i32 %232
  %265 = getelementptr float, ptr addrspace(1) %y, i32 %233
  %266 = getelementptr float, ptr addrspace(1) %y, i32 %234
  %267 = getelementptr float, ptr addrspace(1) %y, i32 %235
  %268 = getelementptr float, ptr addrspace(1) %y, i32 %236
  %269 = getelementptr float, ptr addrspace(1) %y, i32 %237
  %270 = getelementptr float, ptr addrspace(1) %y, i32 %238
  %271 = getelementptr float, ptr addrspace(1) %y, i32 %239
  %272 = getelementptr float, ptr addrspace(1) %y, i32 %240
  %273 = getelementptr float, ptr addrspace(1) %y, i32 %241
  %274 = getelementptr float, ptr addrspace(1) %y, i32 %242
  %275 = getelementptr float, ptr addrspace(1) %y, i32 %243
  %276 = getelementptr float, ptr addrspace(1) %y, i32 %244
  %277 = getelementptr float, ptr addrspace(1) %y, i32 %245
  store float %115, ptr addrspace(1) %246, align 4
  store float %116, ptr addrspace(1) %247, align 4
  store float %117, ptr addrspace(1) %248, align 4
  store float %118, ptr addrspace(1) %249, align 4
  store float %128, ptr addrspace(1) %250, align 4
  store float %129, ptr addrspace(1) %251, align 4
  store float %130, ptr addrspace(1) %252, align 4
  store float %131, ptr addrspace(1) %253, align 4
  store float %141, ptr addrspace(1) %254, align 4
  store float %142, ptr addrspace(1) %255, align 4
  store float %143, ptr addrspace(1) %256, align 4
  store float %144, ptr addrspace(1) %257, align 4
  store float %154, ptr addrspace(1) %258, align 4
  store float %155, ptr addrspace(1) %259, align 4
  store float %156, ptr addrspace(1) %260, align 4
  store float %157, ptr addrspace(1) %261, align 4
  store float %167, ptr addrspace(1) %262, align 4
  store float %168, ptr addrspace(1) %263, align 4
  store float %169, ptr addrspace(1) %264, align 4
  store float %170, ptr addrspace(1) %265, align 4
  store float %180, ptr addrspace(1) %266, align 4
  store float %181, ptr addrspace(1) %267, align 4
  store float %182, ptr addrspace(1) %268, align 4
  store float %183, ptr addrspace(1) %269, align 4
  store float %193, ptr addrspace(1) %270, align 4
  store float %194, ptr addrspace(1) %271, align 4
  store float %195, ptr addrspace(1) %272, align 4
  store float %196, ptr addrspace(1) %273, align 4
  store float %206, ptr addrspace(1) %274, align 4
  store float %207, ptr addrspace(1) %275, align 4
  store float %208, ptr addrspace(1) %276, align 4
  store float %209, ptr addrspace(1) %277, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
