target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@weft_smem = external addrspace(3) global [0 x i8], align 1024

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @transpose_smem(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call i32 @llvm.amdgcn.workgroup.id.y()
  %2 = call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()
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
  %16 = and i32 %2, 128
  %17 = icmp ne i32 %16, 0
  %18 = select i1 %17, i32 2064, i32 0
  %19 = xor i32 %15, %18
  %20 = and i32 %2, 1
  %21 = icmp ne i32 %20, 0
  %22 = select i1 %21, i32 516, i32 0
  %23 = and i32 %2, 2
  %24 = icmp ne i32 %23, 0
  %25 = select i1 %24, i32 1032, i32 0
  %26 = or disjoint i32 %22, %25
  %27 = and i32 %2, 4
  %28 = icmp ne i32 %27, 0
  %29 = select i1 %28, i32 2064, i32 0
  %30 = or disjoint i32 %26, %29
  %31 = and i32 %2, 24
  %32 = shl i32 %31, 4
  %33 = or disjoint i32 %30, %32
  %34 = and i32 %2, 224
  %35 = lshr i32 %34, 3
  %36 = xor i32 %33, %35
  br label %body

body:                                             ; preds = %prologue
  %37 = shl i32 %1, 6
  %38 = shl i32 %0, 6
  %39 = or disjoint i32 %3, %37
  %40 = or disjoint i32 %39, 32
  %41 = or disjoint i32 %5, %38
  %42 = or disjoint i32 %41, 32
  %43 = icmp slt i32 %39, %m
  %44 = icmp slt i32 %40, %m
  %45 = icmp slt i32 %41, %n
  %46 = icmp slt i32 %42, %n
  %47 = and i1 %43, %45
  %48 = and i1 %43, %46
  %49 = and i1 %44, %45
  %50 = and i1 %44, %46
  %51 = mul i32 %39, %n
  %52 = mul i32 %40, %n
  %53 = add i32 %51, %41
  %54 = add i32 %51, %42
  %55 = add i32 %52, %41
  %56 = add i32 %52, %42
  %57 = getelementptr float, ptr addrspace(1) %x, i32 %53
  %58 = getelementptr float, ptr addrspace(1) %x, i32 %54
  %59 = getelementptr float, ptr addrspace(1) %x, i32 %55
  %60 = getelementptr float, ptr addrspace(1) %x, i32 %56
  br i1 %47, label %masked, label %join

masked:                                           ; preds = %body
  %61 = load <4 x float>, ptr addrspace(1) %57, align 16
  %62 = extractelement <4 x float> %61, i32 0
  %63 = extractelement <4 x float> %61, i32 1
  %64 = extractelement <4 x float> %61, i32 2
  %65 = extractelement <4 x float> %61, i32 3
  %66 = insertelement <4 x float> poison, float %62, i32 0
  %67 = insertelement <4 x float> %66, float %63, i32 1
  %68 = insertelement <4 x float> %67, float %64, i32 2
  %69 = insertelement <4 x float> %68, float %65, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %70 = phi <4 x float> [ %69, %masked ], [ zeroinitializer, %body ]
  %71 = extractelement <4 x float> %70, i32 0
  %72 = extractelement <4 x float> %70, i32 1
  %73 = extractelement <4 x float> %70, i32 2
  %74 = extractelement <4 x float> %70, i32 3
  br i1 %48, label %masked1, label %join2

masked1:                                          ; preds = %join
  %75 = load <4 x float>, ptr addrspace(1) %58, align 16
  %76 = extractelement <4 x float> %75, i32 0
  %77 = extractelement <4 x float> %75, i32 1
  %78 = extractelement <4 x float> %75, i32 2
  %79 = extractelement <4 x float> %75, i32 3
  %80 = insertelement <4 x float> poison, float %76, i32 0
  %81 = insertelement <4 x float> %80, float %77, i32 1
  %82 = insertelement <4 x float> %81, float %78, i32 2
  %83 = insertelement <4 x float> %82, float %79, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %84 = phi <4 x float> [ %83, %masked1 ], [ zeroinitializer, %join ]
  %85 = extractelement <4 x float> %84, i32 0
  %86 = extractelement <4 x float> %84, i32 1
  %87 = extractelement <4 x float> %84, i32 2
  %88 = extractelement <4 x float> %84, i32 3
  br i1 %49, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %89 = load <4 x float>, ptr addrspace(1) %59, align 16
  %90 = extractelement <4 x float> %89, i32 0
  %91 = extractelement <4 x float> %89, i32 1
  %92 = extractelement <4 x float> %89, i32 2
  %93 = extractelement <4 x float> %89, i32 3
  %94 = insertelement <4 x float> poison, float %90, i32 0
  %95 = insertelement <4 x float> %94, float %91, i32 1
  %96 = insertelement <4 x float> %95, float %92, i32 2
  %97 = insertelement <4 x float> %96, float %93, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %98 = phi <4 x float> [ %97, %masked3 ], [ zeroinitializer, %join2 ]
  %99 = extractelement <4 x float> %98, i32 0
  %100 = extractelement <4 x float> %98, i32 1
  %101 = extractelement <4 x float> %98, i32 2
  %102 = extractelement <4 x float> %98, i32 3
  br i1 %50, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %103 = load <4 x float>, ptr addrspace(1) %60, align 16
  %104 = extractelement <4 x float> %103, i32 0
  %105 = extractelement <4 x float> %103, i32 1
  %106 = extractelement <4 x float> %103, i32 2
  %107 = extractelement <4 x float> %103, i32 3
  %108 = insertelement <4 x float> poison, float %104, i32 0
  %109 = insertelement <4 x float> %108, float %105, i32 1
  %110 = insertelement <4 x float> %109, float %106, i32 2
  %111 = insertelement <4 x float> %110, float %107, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %112 = phi <4 x float> [ %111, %masked5 ], [ zeroinitializer, %join4 ]
  %113 = extractelement <4 x float> %112, i32 0
  %114 = extractelement <4 x float> %112, i32 1
  %115 = extractelement <4 x float> %112, i32 2
  %116 = extractelement <4 x float> %112, i32 3
  %117 = or disjoint i32 %19, 128
  %118 = or disjoint i32 %19, 256
  %119 = or disjoint i32 %19, 384
  %120 = shl i32 %19, 2
  %121 = shl i32 %117, 2
  %122 = shl i32 %118, 2
  %123 = shl i32 %119, 2
  %124 = or disjoint i32 %36, 32
  %125 = or disjoint i32 %36, 64
  %126 = or disjoint i32 %36, 96
  %127 = shl i32 %36, 2
  %128 = shl i32 %124, 2
  %129 = shl i32 %125, 2
  %130 = shl i32 %126, 2
  %131 = insertelement <4 x float> poison, float %71, i32 0
  %132 = insertelement <4 x float> %131, float %85, i32 1
  %133 = insertelement <4 x float> %132, float %99, i32 2
  %134 = insertelement <4 x float> %133, float %113, i32 3
  %135 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %120
  store <4 x float> %134, ptr addrspace(3) %135, align 16
  %136 = insertelement <4 x float> poison, float %72, i32 0
  %137 = insertelement <4 x float> %136, float %86, i32 1
  %138 = insertelement <4 x float> %137, float %100, i32 2
  %139 = insertelement <4 x float> %138, float %114, i32 3
  %140 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %121
  store <4 x float> %139, ptr addrspace(3) %140, align 16
  %141 = insertelement <4 x float> poison, float %73, i32 0
  %142 = insertelement <4 x float> %141, float %87, i32 1
  %143 = insertelement <4 x float> %142, float %101, i32 2
  %144 = insertelement <4 x float> %143, float %115, i32 3
  %145 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %122
  store <4 x float> %144, ptr addrspace(3) %145, align 16
  %146 = insertelement <4 x float> poison, float %74, i32 0
  %147 = insertelement <4 x float> %146, float %88, i32 1
  %148 = insertelement <4 x float> %147, float %102, i32 2
  %149 = insertelement <4 x float> %148, float %116, i32 3
  %150 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %123
  store <4 x float> %149, ptr addrspace(3) %150, align 16
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %151 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %127
  %152 = load <4 x float>, ptr addrspace(3) %151, align 16
  %153 = extractelement <4 x float> %152, i32 0
  %154 = extractelement <4 x float> %152, i32 1
  %155 = extractelement <4 x float> %152, i32 2
  %156 = extractelement <4 x float> %152, i32 3
  %157 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %128
  %158 = load <4 x float>, ptr addrspace(3) %157, align 16
  %159 = extractelement <4 x float> %158, i32 0
  %160 = extractelement <4 x float> %158, i32 1
  %161 = extractelement <4 x float> %158, i32 2
  %162 = extractelement <4 x float> %158, i32 3
  %163 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %129
  %164 = load <4 x float>, ptr addrspace(3) %163, align 16
  %165 = extractelement <4 x float> %164, i32 0
  %166 = extractelement <4 x float> %164, i32 1
  %167 = extractelement <4 x float> %164, i32 2
  %168 = extractelement <4 x float> %164, i32 3
  %169 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %130
  %170 = load <4 x float>, ptr addrspace(3) %169, align 16
  %171 = extractelement <4 x float> %170, i32 0
  %172 = extractelement <4 x float> %170, i32 1
  %173 = extractelement <4 x float> %170, i32 2
  %174 = extractelement <4 x float> %170, i32 3
  %175 = shl i32 %1, 6
  %176 = shl i32 %0, 6
  %177 = or disjoint i32 %5, %175
  %178 = or disjoint i32 %177, 32
  %179 = or disjoint i32 %3, %176
  %180 = or disjoint i32 %179, 32
  %181 = icmp slt i32 %177, %m
  %182 = icmp slt i32 %178, %m
  %183 = icmp slt i32 %179, %n
  %184 = icmp slt i32 %180, %n
  %185 = and i1 %181, %183
  %186 = and i1 %182, %183
  %187 = and i1 %181, %184
  %188 = and i1 %182, %184
  %189 = mul i32 %179, %m
  %190 = mul i32 %180, %m
  %191 = add i32 %189, %177
  %192 = add i32 %189, %178
  %193 = add i32 %190, %177
  %194 = add i32 %190, %178
  %195 = getelementptr float, ptr addrspace(1) %y, i32 %191
  %196 = getelementptr float, ptr addrspace(1) %y, i32 %192
  %197 = getelementptr float, ptr addrspace(1) %y, i32 %193
  %198 = getelementptr float, ptr addrspace(1) %y, i32 %194
  br i1 %185, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %199 = insertelement <4 x float> poison, float %153, i32 0
  %200 = insertelement <4 x float> %199, float %159, i32 1
  %201 = insertelement <4 x float> %200, float %165, i32 2
  %202 = insertelement <4 x float> %201, float %171, i32 3
  store <4 x float> %202, ptr addrspace(1) %195, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %186, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %203 = insertelement <4 x float> poison, float %155, i32 0
  %204 = insertelement <4 x float> %203, float %161, i32 1
  %205 = insertelement <4 x float> %204, float %167, i32 2
  %206 = insertelement <4 x float> %205, float %173, i32 3
  store <4 x float> %206, ptr addrspace(1) %196, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %187, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %207 = insertelement <4 x float> poison, float %154, i32 0
  %208 = insertelement <4 x float> %207, float %160, i32 1
  %209 = insertelement <4 x float> %208, float %166, i32 2
  %210 = insertelement <4 x float> %209, float %172, i32 3
  store <4 x float> %210, ptr addrspace(1) %197, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %188, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %211 = insertelement <4 x float> poison, float %156, i32 0
  %212 = insertelement <4 x float> %211, float %162, i32 1
  %213 = insertelement <4 x float> %212, float %168, i32 2
  %214 = insertelement <4 x float> %213, float %174, i32 3
  store <4 x float> %214, ptr addrspace(1) %198, align 16
  br label %join14

join14:                                           ; preds = %masked13, %join12
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

; Function Attrs: convergent nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #2

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
attributes #2 = { convergent nocallback nofree nounwind willreturn }
