target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @row_sum(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
  %2 = lshr i32 %1, 5
  %3 = and i32 %1, 31
  %4 = shl i32 %3, 2
  %lane = and i32 %1, 63
  %5 = and i32 %1, 31
  %rep = icmp eq i32 %5, 0
  br label %body

body:                                             ; preds = %prologue
  %6 = shl i32 %0, 5
  %7 = or disjoint i32 %2, %6
  %8 = or disjoint i32 %7, 8
  %9 = or disjoint i32 %7, 16
  %10 = or disjoint i32 %7, 24
  %11 = icmp slt i32 %7, %m
  %12 = icmp slt i32 %8, %m
  %13 = icmp slt i32 %9, %m
  %14 = icmp slt i32 %10, %m
  %15 = mul i32 %7, %n
  %16 = mul i32 %8, %n
  %17 = mul i32 %9, %n
  %18 = mul i32 %10, %n
  br label %loop.pre

loop.pre:                                         ; preds = %body
  br label %loop

loop:                                             ; preds = %join6, %loop.pre
  %iv = phi i32 [ 0, %loop.pre ], [ %iv.next, %join6 ]
  %19 = phi float [ 0.000000e+00, %loop.pre ], [ %220, %join6 ]
  %20 = phi float [ 0.000000e+00, %loop.pre ], [ %221, %join6 ]
  %21 = phi float [ 0.000000e+00, %loop.pre ], [ %222, %join6 ]
  %22 = phi float [ 0.000000e+00, %loop.pre ], [ %223, %join6 ]
  %23 = phi float [ 0.000000e+00, %loop.pre ], [ %224, %join6 ]
  %24 = phi float [ 0.000000e+00, %loop.pre ], [ %225, %join6 ]
  %25 = phi float [ 0.000000e+00, %loop.pre ], [ %226, %join6 ]
  %26 = phi float [ 0.000000e+00, %loop.pre ], [ %227, %join6 ]
  %27 = phi float [ 0.000000e+00, %loop.pre ], [ %228, %join6 ]
  %28 = phi float [ 0.000000e+00, %loop.pre ], [ %229, %join6 ]
  %29 = phi float [ 0.000000e+00, %loop.pre ], [ %230, %join6 ]
  %30 = phi float [ 0.000000e+00, %loop.pre ], [ %231, %join6 ]
  %31 = phi float [ 0.000000e+00, %loop.pre ], [ %232, %join6 ]
  %32 = phi float [ 0.000000e+00, %loop.pre ], [ %233, %join6 ]
  %33 = phi float [ 0.000000e+00, %loop.pre ], [ %234, %join6 ]
  %34 = phi float [ 0.000000e+00, %loop.pre ], [ %235, %join6 ]
  %35 = icmp slt i32 %iv, %n
  br i1 %35, label %loop.body, label %loop.exit

loop.body:                                        ; preds = %loop
  %36 = add i32 %4, %iv
  %37 = icmp slt i32 %36, %n
  %38 = and i1 %11, %37
  %39 = and i1 %12, %37
  %40 = and i1 %13, %37
  %41 = and i1 %14, %37
  %42 = add i32 %15, %36
  %43 = add i32 %16, %36
  %44 = add i32 %17, %36
  %45 = add i32 %18, %36
  %46 = getelementptr float, ptr addrspace(1) %x, i32 %42
  %47 = getelementptr float, ptr addrspace(1) %x, i32 %43
  %48 = getelementptr float, ptr addrspace(1) %x, i32 %44
  %49 = getelementptr float, ptr addrspace(1) %x, i32 %45
  br i1 %38, label %masked, label %join

loop.exit:                                        ; preds = %loop
  %50 = fadd float %19, %20
  %51 = fadd float %50, %21
  %52 = fadd float %51, %22
  %53 = fadd float %23, %24
  %54 = fadd float %53, %25
  %55 = fadd float %54, %26
  %56 = fadd float %27, %28
  %57 = fadd float %56, %29
  %58 = fadd float %57, %30
  %59 = fadd float %31, %32
  %60 = fadd float %59, %33
  %61 = fadd float %60, %34
  %62 = bitcast float %52 to i32
  %63 = xor i32 %lane, 1
  %64 = shl i32 %63, 2
  %65 = call i32 @llvm.amdgcn.ds.bpermute(i32 %64, i32 %62)
  %66 = bitcast i32 %65 to float
  %67 = fadd float %52, %66
  %68 = bitcast float %55 to i32
  %69 = xor i32 %lane, 1
  %70 = shl i32 %69, 2
  %71 = call i32 @llvm.amdgcn.ds.bpermute(i32 %70, i32 %68)
  %72 = bitcast i32 %71 to float
  %73 = fadd float %55, %72
  %74 = bitcast float %58 to i32
  %75 = xor i32 %lane, 1
  %76 = shl i32 %75, 2
  %77 = call i32 @llvm.amdgcn.ds.bpermute(i32 %76, i32 %74)
  %78 = bitcast i32 %77 to float
  %79 = fadd float %58, %78
  %80 = bitcast float %61 to i32
  %81 = xor i32 %lane, 1
  %82 = shl i32 %81, 2
  %83 = call i32 @llvm.amdgcn.ds.bpermute(i32 %82, i32 %80)
  %84 = bitcast i32 %83 to float
  %85 = fadd float %61, %84
  %86 = bitcast float %67 to i32
  %87 = xor i32 %lane, 2
  %88 = shl i32 %87, 2
  %89 = call i32 @llvm.amdgcn.ds.bpermute(i32 %88, i32 %86)
  %90 = bitcast i32 %89 to float
  %91 = fadd float %67, %90
  %92 = bitcast float %73 to i32
  %93 = xor i32 %lane, 2
  %94 = shl i32 %93, 2
  %95 = call i32 @llvm.amdgcn.ds.bpermute(i32 %94, i32 %92)
  %96 = bitcast i32 %95 to float
  %97 = fadd float %73, %96
  %98 = bitcast float %79 to i32
  %99 = xor i32 %lane, 2
  %100 = shl i32 %99, 2
  %101 = call i32 @llvm.amdgcn.ds.bpermute(i32 %100, i32 %98)
  %102 = bitcast i32 %101 to float
  %103 = fadd float %79, %102
  %104 = bitcast float %85 to i32
  %105 = xor i32 %lane, 2
  %106 = shl i32 %105, 2
  %107 = call i32 @llvm.amdgcn.ds.bpermute(i32 %106, i32 %104)
  %108 = bitcast i32 %107 to float
  %109 = fadd float %85, %108
  %110 = bitcast float %91 to i32
  %111 = xor i32 %lane, 4
  %112 = shl i32 %111, 2
  %113 = call i32 @llvm.amdgcn.ds.bpermute(i32 %112, i32 %110)
  %114 = bitcast i32 %113 to float
  %115 = fadd float %91, %114
  %116 = bitcast float %97 to i32
  %117 = xor i32 %lane, 4
  %118 = shl i32 %117, 2
  %119 = call i32 @llvm.amdgcn.ds.bpermute(i32 %118, i32 %116)
  %120 = bitcast i32 %119 to float
  %121 = fadd float %97, %120
  %122 = bitcast float %103 to i32
  %123 = xor i32 %lane, 4
  %124 = shl i32 %123, 2
  %125 = call i32 @llvm.amdgcn.ds.bpermute(i32 %124, i32 %122)
  %126 = bitcast i32 %125 to float
  %127 = fadd float %103, %126
  %128 = bitcast float %109 to i32
  %129 = xor i32 %lane, 4
  %130 = shl i32 %129, 2
  %131 = call i32 @llvm.amdgcn.ds.bpermute(i32 %130, i32 %128)
  %132 = bitcast i32 %131 to float
  %133 = fadd float %109, %132
  %134 = bitcast float %115 to i32
  %135 = xor i32 %lane, 8
  %136 = shl i32 %135, 2
  %137 = call i32 @llvm.amdgcn.ds.bpermute(i32 %136, i32 %134)
  %138 = bitcast i32 %137 to float
  %139 = fadd float %115, %138
  %140 = bitcast float %121 to i32
  %141 = xor i32 %lane, 8
  %142 = shl i32 %141, 2
  %143 = call i32 @llvm.amdgcn.ds.bpermute(i32 %142, i32 %140)
  %144 = bitcast i32 %143 to float
  %145 = fadd float %121, %144
  %146 = bitcast float %127 to i32
  %147 = xor i32 %lane, 8
  %148 = shl i32 %147, 2
  %149 = call i32 @llvm.amdgcn.ds.bpermute(i32 %148, i32 %146)
  %150 = bitcast i32 %149 to float
  %151 = fadd float %127, %150
  %152 = bitcast float %133 to i32
  %153 = xor i32 %lane, 8
  %154 = shl i32 %153, 2
  %155 = call i32 @llvm.amdgcn.ds.bpermute(i32 %154, i32 %152)
  %156 = bitcast i32 %155 to float
  %157 = fadd float %133, %156
  %158 = bitcast float %139 to i32
  %159 = xor i32 %lane, 16
  %160 = shl i32 %159, 2
  %161 = call i32 @llvm.amdgcn.ds.bpermute(i32 %160, i32 %158)
  %162 = bitcast i32 %161 to float
  %163 = fadd float %139, %162
  %164 = bitcast float %145 to i32
  %165 = xor i32 %lane, 16
  %166 = shl i32 %165, 2
  %167 = call i32 @llvm.amdgcn.ds.bpermute(i32 %166, i32 %164)
  %168 = bitcast i32 %167 to float
  %169 = fadd float %145, %168
  %170 = bitcast float %151 to i32
  %171 = xor i32 %lane, 16
  %172 = shl i32 %171, 2
  %173 = call i32 @llvm.amdgcn.ds.bpermute(i32 %172, i32 %170)
  %174 = bitcast i32 %173 to float
  %175 = fadd float %151, %174
  %176 = bitcast float %157 to i32
  %177 = xor i32 %lane, 16
  %178 = shl i32 %177, 2
  %179 = call i32 @llvm.amdgcn.ds.bpermute(i32 %178, i32 %176)
  %180 = bitcast i32 %179 to float
  %181 = fadd float %157, %180
  %182 = shl i32 %0, 5
  %183 = or disjoint i32 %2, %182
  %184 = or disjoint i32 %183, 8
  %185 = or disjoint i32 %183, 16
  %186 = or disjoint i32 %183, 24
  %187 = icmp slt i32 %183, %m
  %188 = icmp slt i32 %184, %m
  %189 = icmp slt i32 %185, %m
  %190 = icmp slt i32 %186, %m
  %191 = getelementptr float, ptr addrspace(1) %y, i32 %183
  %192 = getelementptr float, ptr addrspace(1) %y, i32 %184
  %193 = getelementptr float, ptr addrspace(1) %y, i32 %185
  %194 = getelementptr float, ptr addrspace(1) %y, i32 %186
  %195 = and i1 %187, %rep
  br i1 %195, label %masked7, label %join8

masked:                                           ; preds = %loop.body
  %196 = load <4 x float>, ptr addrspace(1) %46, align 16
  br label %join

join:                                             ; preds = %masked, %loop.body
  %197 = phi <4 x float> [ %196, %masked ], [ zeroinitializer, %loop.body ]
  %198 = extractelement <4 x float> %197, i32 0
  %199 = extractelement <4 x float> %197, i32 1
  %200 = extractelement <4 x float> %197, i32 2
  %201 = extractelement <4 x float> %197, i32 3
  br i1 %39, label %masked1, label %join2

masked1:                                          ; preds = %join
  %202 = load <4 x float>, ptr addrspace(1) %47, align 16
  br label %join2

join2:                                            ; preds = %masked1, %join
  %203 = phi <4 x float> [ %202, %masked1 ], [ zeroinitializer, %join ]
  %204 = extractelement <4 x float> %203, i32 0
  %205 = extractelement <4 x float> %203, i32 1
  %206 = extractelement <4 x float> %203, i32 2
  %207 = extractelement <4 x float> %203, i32 3
  br i1 %40, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %208 = load <4 x float>, ptr addrspace(1) %48, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %209 = phi <4 x float> [ %208, %masked3 ], [ zeroinitializer, %join2 ]
  %210 = extractelement <4 x float> %209, i32 0
  %211 = extractelement <4 x float> %209, i32 1
  %212 = extractelement <4 x float> %209, i32 2
  %213 = extractelement <4 x float> %209, i32 3
  br i1 %41, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %214 = load <4 x float>, ptr addrspace(1) %49, align 16
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %215 = phi <4 x float> [ %214, %masked5 ], [ zeroinitializer, %join4 ]
  %216 = extractelement <4 x float> %215, i32 0
  %217 = extractelement <4 x float> %215, i32 1
  %218 = extractelement <4 x float> %215, i32 2
  %219 = extractelement <4 x float> %215, i32 3
  %220 = fadd float %19, %198
  %221 = fadd float %20, %199
  %222 = fadd float %21, %200
  %223 = fadd float %22, %201
  %224 = fadd float %23, %204
  %225 = fadd float %24, %205
  %226 = fadd float %25, %206
  %227 = fadd float %26, %207
  %228 = fadd float %27, %210
  %229 = fadd float %28, %211
  %230 = fadd float %29, %212
  %231 = fadd float %30, %213
  %232 = fadd float %31, %216
  %233 = fadd float %32, %217
  %234 = fadd float %33, %218
  %235 = fadd float %34, %219
  %iv.next = add i32 %iv, 128
  br label %loop

masked7:                                          ; preds = %loop.exit
  store float %163, ptr addrspace(1) %191, align 4
  br label %join8

join8:                                            ; preds = %masked7, %loop.exit
  %236 = and i1 %188, %rep
  br i1 %236, label %masked9, label %join10

masked9:                                          ; preds = %join8
  store float %169, ptr addrspace(1) %192, align 4
  br label %join10

join10:                                           ; preds = %masked9, %join8
  %237 = and i1 %189, %rep
  br i1 %237, label %masked11, label %join12

masked11:                                         ; preds = %join10
  store float %175, ptr addrspace(1) %193, align 4
  br label %join12

join12:                                           ; preds = %masked11, %join10
  %238 = and i1 %190, %rep
  br i1 %238, label %masked13, label %join14

masked13:                                         ; preds = %join12
  store float %181, ptr addrspace(1) %194, align 4
  br label %join14

join14:                                           ; preds = %masked13, %join12
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #2

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
attributes #2 = { convergent nocallback nofree nounwind willreturn memory(none) }
