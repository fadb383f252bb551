target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @transpose_smem(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %2 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = lshr i32 %2, 3
  %4 = and i32 %2, 7
  %5 = shl i32 %4, 2
  %6 = and i32 %2, 31
  %7 = shl i32 %6, 2
  %8 = and i32 %2, 32
  %9 = icmp ne i32 %8, 0
  %10 = select i1 %9, i32 516, i32 0
  %11 = xor i32 %7, %10
  %12 = and i32 %2, 64
  %13 = icmp ne i32 %12, 0
  %14 = select i1 %13, i32 1032, i32 0
  %15 = xor i32 %11, %14
  %16 = and i32 %2, 1
  %17 = icmp ne i32 %16, 0
  %18 = select i1 %17, i32 516, i32 0
  %19 = and i32 %2, 2
  %20 = icmp ne i32 %19, 0
  %21 = select i1 %20, i32 1032, i32 0
  %22 = or disjoint i32 %18, %21
  %23 = and i32 %2, 4
  %24 = icmp ne i32 %23, 0
  %25 = select i1 %24, i32 2064, i32 0
  %26 = or disjoint i32 %22, %25
  %27 = and i32 %2, 24
  %28 = shl i32 %27, 4
  %29 = or disjoint i32 %26, %28
  %30 = and i32 %2, 96
  %31 = lshr i32 %30, 3
  %32 = xor i32 %29, %31
  br label %body

body:                                             ; preds = %prologue
  %33 = shl i32 %1, 6
  %34 = shl i32 %0, 6
  %35 = or disjoint i32 %3, %33
  %36 = or disjoint i32 %35, 16
  %37 = or disjoint i32 %35, 32
  %38 = or disjoint i32 %35, 48
  %39 = or disjoint i32 %5, %34
  %40 = or disjoint i32 %39, 32
  %41 = icmp slt i32 %35, %m
  %42 = icmp slt i32 %36, %m
  %43 = icmp slt i32 %37, %m
  %44 = icmp slt i32 %38, %m
  %45 = icmp slt i32 %39, %n
  %46 = icmp slt i32 %40, %n
  %47 = and i1 %41, %45
  %48 = and i1 %41, %46
  %49 = and i1 %42, %45
  %50 = and i1 %42, %46
  %51 = and i1 %43, %45
  %52 = and i1 %43, %46
  %53 = and i1 %44, %45
  %54 = and i1 %44, %46
  %55 = mul i32 %35, %n
  %56 = mul i32 %36, %n
  %57 = mul i32 %37, %n
  %58 = mul i32 %38, %n
  %59 = add i32 %55, %39
  %60 = add i32 %55, %40
  %61 = add i32 %56, %39
  %62 = add i32 %56, %40
  %63 = add i32 %57, %39
  %64 = add i32 %57, %40
  %65 = add i32 %58, %39
  %66 = add i32 %58, %40
  %67 = getelementptr float, ptr addrspace(1) %x, i32 %59
  %68 = getelementptr float, ptr addrspace(1) %x, i32 %60
  %69 = getelementptr float, ptr addrspace(1) %x, i32 %61
  %70 = getelementptr float, ptr addrspace(1) %x, i32 %62
  %71 = getelementptr float, ptr addrspace(1) %x, i32 %63
  %72 = getelementptr float, ptr addrspace(1) %x, i32 %64
  %73 = getelementptr float, ptr addrspace(1) %x, i32 %65
  %74 = getelementptr float, ptr addrspace(1) %x, i32 %66
  %75 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %67, i1 %47)
  %76 = extractvalue { i32, i32, i32, i32 } %75, 0
  %77 = extractvalue { i32, i32, i32, i32 } %75, 1
  %78 = extractvalue { i32, i32, i32, i32 } %75, 2
  %79 = extractvalue { i32, i32, i32, i32 } %75, 3
  %80 = bitcast i32 %76 to float
  %81 = bitcast i32 %77 to float
  %82 = bitcast i32 %78 to float
  %83 = bitcast i32 %79 to float
  %84 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %68, i1 %48)
  %85 = extractvalue { i32, i32, i32, i32 } %84, 0
  %86 = extractvalue { i32, i32, i32, i32 } %84, 1
  %87 = extractvalue { i32, i32, i32, i32 } %84, 2
  %88 = extractvalue { i32, i32, i32, i32 } %84, 3
  %89 = bitcast i32 %85 to float
  %90 = bitcast i32 %86 to float
  %91 = bitcast i32 %87 to float
  %92 = bitcast i32 %88 to float
  %93 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %69, i1 %49)
  %94 = extractvalue { i32, i32, i32, i32 } %93, 0
  %95 = extractvalue { i32, i32, i32, i32 } %93, 1
  %96 = extractvalue { i32, i32, i32, i32 } %93, 2
  %97 = extractvalue { i32, i32, i32, i32 } %93, 3
  %98 = bitcast i32 %94 to float
  %99 = bitcast i32 %95 to float
  %100 = bitcast i32 %96 to float
  %101 = bitcast i32 %97 to float
  %102 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %70, i1 %50)
  %103 = extractvalue { i32, i32, i32, i32 } %102, 0
  %104 = extractvalue { i32, i32, i32, i32 } %102, 1
  %105 = extractvalue { i32, i32, i32, i32 } %102, 2
  %106 = extractvalue { i32, i32, i32, i32 } %102, 3
  %107 = bitcast i32 %103 to float
  %108 = bitcast i32 %104 to float
  %109 = bitcast i32 %105 to float
  %110 = bitcast i32 %106 to float
  %111 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %71, i1 %51)
  %112 = extractvalue { i32, i32, i32, i32 } %111, 0
  %113 = extractvalue { i32, i32, i32, i32 } %111, 1
  %114 = extractvalue { i32, i32, i32, i32 } %111, 2
  %115 = extractvalue { i32, i32, i32, i32 } %111, 3
  %116 = bitcast i32 %112 to float
  %117 = bitcast i32 %113 to float
  %118 = bitcast i32 %114 to float
  %119 = bitcast i32 %115 to float
  %120 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %72, i1 %52)
  %121 = extractvalue { i32, i32, i32, i32 } %120, 0
  %122 = extractvalue { i32, i32, i32, i32 } %120, 1
  %123 = extractvalue { i32, i32, i32, i32 } %120, 2
  %124 = extractvalue { i32, i32, i32, i32 } %120, 3
  %125 = bitcast i32 %121 to float
  %126 = bitcast i32 %122 to float
  %127 = bitcast i32 %123 to float
  %128 = bitcast i32 %124 to float
  %129 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %73, i1 %53)
  %130 = extractvalue { i32, i32, i32, i32 } %129, 0
  %131 = extractvalue { i32, i32, i32, i32 } %129, 1
  %132 = extractvalue { i32, i32, i32, i32 } %129, 2
  %133 = extractvalue { i32, i32, i32, i32 } %129, 3
  %134 = bitcast i32 %130 to float
  %135 = bitcast i32 %131 to float
  %136 = bitcast i32 %132 to float
  %137 = bitcast i32 %133 to float
  %138 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %74, i1 %54)
  %139 = extractvalue { i32, i32, i32, i32 } %138, 0
  %140 = extractvalue { i32, i32, i32, i32 } %138, 1
  %141 = extractvalue { i32, i32, i32, i32 } %138, 2
  %142 = extractvalue { i32, i32, i32, i32 } %138, 3
  %143 = bitcast i32 %139 to float
  %144 = bitcast i32 %140 to float
  %145 = bitcast i32 %141 to float
  %146 = bitcast i32 %142 to float
  %147 = or disjoint i32 %15, 128
  %148 = or disjoint i32 %15, 256
  %149 = or disjoint i32 %15, 384
  %150 = xor i32 %15, 2064
  %151 = xor i32 %15, 2192
  %152 = xor i32 %15, 2320
  %153 = xor i32 %15, 2448
  %154 = shl i32 %15, 2
  %155 = shl i32 %147, 2
  %156 = shl i32 %148, 2
  %157 = shl i32 %149, 2
  %158 = shl i32 %150, 2
  %159 = shl i32 %151, 2
  %160 = shl i32 %152, 2
  %161 = shl i32 %153, 2
  %162 = or disjoint i32 %32, 32
  %163 = or disjoint i32 %32, 64
  %164 = or disjoint i32 %32, 96
  %165 = xor i32 %32, 16
  %166 = xor i32 %32, 48
  %167 = xor i32 %32, 80
  %168 = xor i32 %32, 112
  %169 = shl i32 %32, 2
  %170 = shl i32 %162, 2
  %171 = shl i32 %163, 2
  %172 = shl i32 %164, 2
  %173 = shl i32 %165, 2
  %174 = shl i32 %166, 2
  %175 = shl i32 %167, 2
  %176 = shl i32 %168, 2
  %177 = insertelement <4 x float> poison, float %80, i32 0
  %178 = insertelement <4 x float> %177, float %89, i32 1
  %179 = insertelement <4 x float> %178, float %116, i32 2
  %180 = insertelement <4 x float> %179, float %125, i32 3
  %181 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %154
  store <4 x float> %180, ptr addrspace(3) %181, align 16
  %182 = insertelement <4 x float> poison, float %81, i32 0
  %183 = insertelement <4 x float> %182, float %90, i32 1
  %184 = insertelement <4 x float> %183, float %117, i32 2
  %185 = insertelement <4 x float> %184, float %126, i32 3
  %186 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %155
  store <4 x float> %185, ptr addrspace(3) %186, align 16
  %187 = insertelement <4 x float> poison, float %82, i32 0
  %188 = insertelement <4 x float> %187, float %91, i32 1
  %189 = insertelement <4 x float> %188, float %118, i32 2
  %190 = insertelement <4 x float> %189, float %127, i32 3
  %191 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %156
  store <4 x float> %190, ptr addrspace(3) %191, align 16
  %192 = insertelement <4 x float> poison, float %83, i32 0
  %193 = insertelement <4 x float> %192, float %92, i32 1
  %194 = insertelement <4 x float> %193, float %119, i32 2
  %195 = insertelement <4 x float> %194, float %128, i32 3
  %196 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %157
  store <4 x float> %195, ptr addrspace(3) %196, align 16
  %197 = insertelement <4 x float> poison, float %98, i32 0
  %198 = insertelement <4 x float> %197, float %107, i32 1
  %199 = insertelement <4 x float> %198, float %134, i32 2
  %200 = insertelement <4 x float> %199, float %143, i32 3
  %201 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %158
  store <4 x float> %200, ptr addrspace(3) %201, align 16
  %202 = insertelement <4 x float> poison, float %99, i32 0
  %203 = insertelement <4 x float> %202, float %108, i32 1
  %204 = insertelement <4 x float> %203, float %135, i32 2
  %205 = insertelement <4 x float> %204, float %144, i32 3
  %206 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %159
  store <4 x float> %205, ptr addrspace(3) %206, align 16
  %207 = insertelement <4 x float> poison, float %100, i32 0
  %208 = insertelement <4 x float> %207, float %109, i32 1
  %209 = insertelement <4 x float> %208, float %136, i32 2
  %210 = insertelement <4 x float> %209, float %145, i32 3
  %211 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %160
  store <4 x float> %210, ptr addrspace(3) %211, align 16
  %212 = insertelement <4 x float> poison, float %101, i32 0
  %213 = insertelement <4 x float> %212, float %110, i32 1
  %214 = insertelement <4 x float> %213, float %137, i32 2
  %215 = insertelement <4 x float> %214, float %146, i32 3
  %216 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %161
  store <4 x float> %215, ptr addrspace(3) %216, align 16
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %217 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %169
  %218 = load <4 x float>, ptr addrspace(3) %217, align 16
  %219 = extractelement <4 x float> %218, i32 0
  %220 = extractelement <4 x float> %218, i32 1
  %221 = extractelement <4 x float> %218, i32 2
  %222 = extractelement <4 x float> %218, i32 3
  %223 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %170
  %224 = load <4 x float>, ptr addrspace(3) %223, align 16
  %225 = extractelement <4 x float> %224, i32 0
  %226 = extractelement <4 x float> %224, i32 1
  %227 = extractelement <4 x float> %224, i32 2
  %228 = extractelement <4 x float> %224, i32 3
  %229 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %171
  %230 = load <4 x float>, ptr addrspace(3) %229, align 16
  %231 = extractelement <4 x float> %230, i32 0
  %232 = extractelement <4 x float> %230, i32 1
  %233 = extractelement <4 x float> %230, i32 2
  %234 = extractelement <4 x float> %230, i32 3
  %235 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %172
  %236 = load <4 x float>, ptr addrspace(3) %235, align 16
  %237 = extractelement <4 x float> %236, i32 0
  %238 = extractelement <4 x float> %236, i32 1
  %239 = extractelement <4 x float> %236, i32 2
  %240 = extractelement <4 x float> %236, i32 3
  %241 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %173
  %242 = load <4 x float>, ptr addrspace(3) %241, align 16
  %243 = extractelement <4 x float> %242, i32 0
  %244 = extractelement <4 x float> %242, i32 1
  %245 = extractelement <4 x float> %242, i32 2
  %246 = extractelement <4 x float> %242, i32 3
  %247 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %174
  %248 = load <4 x float>, ptr addrspace(3) %247, align 16
  %249 = extractelement <4 x float> %248, i32 0
  %250 = extractelement <4 x float> %248, i32 1
  %251 = extractelement <4 x float> %248, i32 2
  %252 = extractelement <4 x float> %248, i32 3
  %253 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %175
  %254 = load <4 x float>, ptr addrspace(3) %253, align 16
  %255 = extractelement <4 x float> %254, i32 0
  %256 = extractelement <4 x float> %254, i32 1
  %257 = extractelement <4 x float> %254, i32 2
  %258 = extractelement <4 x float> %254, i32 3
  %259 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %176
  %260 = load <4 x float>, ptr addrspace(3) %259, align 16
  %261 = extractelement <4 x float> %260, i32 0
  %262 = extractelement <4 x float> %260, i32 1
  %263 = extractelement <4 x float> %260, i32 2
  %264 = extractelement <4 x float> %260, i32 3
  %265 = or disjoint i32 %5, %33
  %266 = or disjoint i32 %265, 32
  %267 = or disjoint i32 %3, %34
  %268 = or disjoint i32 %267, 16
  %269 = or disjoint i32 %267, 32
  %270 = or disjoint i32 %267, 48
  %271 = icmp slt i32 %265, %m
  %272 = icmp slt i32 %266, %m
  %273 = icmp slt i32 %267, %n
  %274 = icmp slt i32 %268, %n
  %275 = icmp slt i32 %269, %n
  %276 = icmp slt i32 %270, %n
  %277 = and i1 %271, %273
  %278 = and i1 %272, %273
  %279 = and i1 %271, %274
  %280 = and i1 %272, %274
  %281 = and i1 %271, %275
  %282 = and i1 %272, %275
  %283 = and i1 %271, %276
  %284 = and i1 %272, %276
  %285 = mul i32 %267, %m
  %286 = mul i32 %268, %m
  %287 = mul i32 %269, %m
  %288 = mul i32 %270, %m
  %289 = add i32 %285, %265
  %290 = add i32 %285, %266
  %291 = add i32 %286, %265
  %292 = add i32 %286, %266
  %293 = add i32 %287, %265
  %294 = add i32 %287, %266
  %295 = add i32 %288, %265
  %296 = add i32 %288, %266
  %297 = getelementptr float, ptr addrspace(1) %y, i32 %289
  %298 = getelementptr float, ptr addrspace(1) %y, i32 %290
  %299 = getelementptr float, ptr addrspace(1) %y, i32 %291
  %300 = getelementptr float, ptr addrspace(1) %y, i32 %292
  %301 = getelementptr float, ptr addrspace(1) %y, i32 %293
  %302 = getelementptr float, ptr addrspace(1) %y, i32 %294
  %303 = getelementptr float, ptr addrspace(1) %y, i32 %295
  %304 = getelementptr float, ptr addrspace(1) %y, i32 %296
  %305 = bitcast float %219 to i32
  %306 = bitcast float %225 to i32
  %307 = bitcast float %231 to i32
  %308 = bitcast float %237 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %297, i32 %305, i32 %306, i32 %307, i32 %308, i1 %277)
  %309 = bitcast float %221 to i32
  %310 = bitcast float %227 to i32
  %311 = bitcast float %233 to i32
  %312 = bitcast float %239 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %298, i32 %309, i32 %310, i32 %311, i32 %312, i1 %278)
  %313 = bitcast float %243 to i32
  %314 = bitcast float %249 to i32
  %315 = bitcast float %255 to i32
  %316 = bitcast float %261 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %299, i32 %313, i32 %314, i32 %315, i32 %316, i1 %279)
  %317 = bitcast float %245 to i32
  %318 = bitcast float %251 to i32
  %319 = bitcast float %257 to i32
  %320 = bitcast float %263 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %300, i32 %317, i32 %318, i32 %319, i32 %320, i1 %280)
  %321 = bitcast float %220 to i32
  %322 = bitcast float %226 to i32
  %323 = bitcast float %232 to i32
  %324 = bitcast float %238 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %301, i32 %321, i32 %322, i32 %323, i32 %324, i1 %281)
  %325 = bitcast float %222 to i32
  %326 = bitcast float %228 to i32
  %327 = bitcast float %234 to i32
  %328 = bitcast float %240 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %302, i32 %325, i32 %326, i32 %327, i32 %328, i1 %282)
  %329 = bitcast float %244 to i32
  %330 = bitcast float %250 to i32
  %331 = bitcast float %256 to i32
  %332 = bitcast float %262 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %303, i32 %329, i32 %330, i32 %331, i32 %332, i1 %283)
  %333 = bitcast float %246 to i32
  %334 = bitcast float %252 to i32
  %335 = bitcast float %258 to i32
  %336 = bitcast float %264 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %304, i32 %333, i32 %334, i32 %335, i32 %336, i1 %284)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
attributes #2 = { convergent nocallback nounwind }
