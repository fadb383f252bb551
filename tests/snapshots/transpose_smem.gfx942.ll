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
  br label %join

join:                                             ; preds = %masked, %body
  %62 = phi <4 x float> [ %61, %masked ], [ zeroinitializer, %body ]
  %63 = extractelement <4 x float> %62, i32 0
  %64 = extractelement <4 x float> %62, i32 1
  %65 = extractelement <4 x float> %62, i32 2
  %66 = extractelement <4 x float> %62, i32 3
  br i1 %48, label %masked1, label %join2

masked1:                                          ; preds = %join
  %67 = load <4 x float>, ptr addrspace(1) %58, align 16
  br label %join2

join2:                                            ; preds = %masked1, %join
  %68 = phi <4 x float> [ %67, %masked1 ], [ zeroinitializer, %join ]
  %69 = extractelement <4 x float> %68, i32 0
  %70 = extractelement <4 x float> %68, i32 1
  %71 = extractelement <4 x float> %68, i32 2
  %72 = extractelement <4 x float> %68, i32 3
  br i1 %49, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %73 = load <4 x float>, ptr addrspace(1) %59, align 16
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %74 = phi <4 x float> [ %73, %masked3 ], [ zeroinitializer, %join2 ]
  %75 = extractelement <4 x float> %74, i32 0
  %76 = extractelement <4 x float> %74, i32 1
  %77 = extractelement <4 x float> %74, i32 2
  %78 = extractelement <4 x float> %74, i32 3
  br i1 %50, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %79 = load <4 x float>, ptr addrspace(1) %60, align 16
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %80 = phi <4 x float> [ %79, %masked5 ], [ zeroinitializer, %join4 ]
  %81 = extractelement <4 x float> %80, i32 0
  %82 = extractelement <4 x float> %80, i32 1
  %83 = extractelement <4 x float> %80, i32 2
  %84 = extractelement <4 x float> %80, i32 3
  %85 = or disjoint i32 %19, 128
  %86 = or disjoint i32 %19, 256
  %87 = or disjoint i32 %19, 384
  %88 = shl i32 %19, 2
  %89 = shl i32 %85, 2
  %90 = shl i32 %86, 2
  %91 = shl i32 %87, 2
  %92 = or disjoint i32 %36, 32
  %93 = or disjoint i32 %36, 64
  %94 = or disjoint i32 %36, 96
  %95 = shl i32 %36, 2
  %96 = shl i32 %92, 2
  %97 = shl i32 %93, 2
  %98 = shl i32 %94, 2
  %99 = insertelement <4 x float> poison, float %63, i32 0
  %100 = insertelement <4 x float> %99, float %69, i32 1
  %101 = insertelement <4 x float> %100, float %75, i32 2
  %102 = insertelement <4 x float> %101, float %81, i32 3
  %103 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %88
  store <4 x float> %102, ptr addrspace(3) %103, align 16
  %104 = insertelement <4 x float> poison, float %64, i32 0
  %105 = insertelement <4 x float> %104, float %70, i32 1
  %106 = insertelement <4 x float> %105, float %76, i32 2
  %107 = insertelement <4 x float> %106, float %82, i32 3
  %108 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %89
  store <4 x float> %107, ptr addrspace(3) %108, align 16
  %109 = insertelement <4 x float> poison, float %65, i32 0
  %110 = insertelement <4 x float> %109, float %71, i32 1
  %111 = insertelement <4 x float> %110, float %77, i32 2
  %112 = insertelement <4 x float> %111, float %83, i32 3
  %113 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %90
  store <4 x float> %112, ptr addrspace(3) %113, align 16
  %114 = insertelement <4 x float> poison, float %66, i32 0
  %115 = insertelement <4 x float> %114, float %72, i32 1
  %116 = insertelement <4 x float> %115, float %78, i32 2
  %117 = insertelement <4 x float> %116, float %84, i32 3
  %118 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %91
  store <4 x float> %117, ptr addrspace(3) %118, align 16
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %119 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %95
  %120 = load <4 x float>, ptr addrspace(3) %119, align 16
  %121 = extractelement <4 x float> %120, i32 0
  %122 = extractelement <4 x float> %120, i32 1
  %123 = extractelement <4 x float> %120, i32 2
  %124 = extractelement <4 x float> %120, i32 3
  %125 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %96
  %126 = load <4 x float>, ptr addrspace(3) %125, align 16
  %127 = extractelement <4 x float> %126, i32 0
  %128 = extractelement <4 x float> %126, i32 1
  %129 = extractelement <4 x float> %126, i32 2
  %130 = extractelement <4 x float> %126, i32 3
  %131 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %97
  %132 = load <4 x float>, ptr addrspace(3) %131, align 16
  %133 = extractelement <4 x float> %132, i32 0
  %134 = extractelement <4 x float> %132, i32 1
  %135 = extractelement <4 x float> %132, i32 2
  %136 = extractelement <4 x float> %132, i32 3
  %137 = getelementptr inbounds i8, ptr addrspace(3) @weft_smem, i32 %98
  %138 = load <4 x float>, ptr addrspace(3) %137, align 16
  %139 = extractelement <4 x float> %138, i32 0
  %140 = extractelement <4 x float> %138, i32 1
  %141 = extractelement <4 x float> %138, i32 2
  %142 = extractelement <4 x float> %138, i32 3
  %143 = shl i32 %1, 6
  %144 = shl i32 %0, 6
  %145 = or disjoint i32 %5, %143
  %146 = or disjoint i32 %145, 32
  %147 = or disjoint i32 %3, %144
  %148 = or disjoint i32 %147, 32
  %149 = icmp slt i32 %145, %m
  %150 = icmp slt i32 %146, %m
  %151 = icmp slt i32 %147, %n
  %152 = icmp slt i32 %148, %n
  %153 = and i1 %149, %151
  %154 = and i1 %150, %151
  %155 = and i1 %149, %152
  %156 = and i1 %150, %152
  %157 = mul i32 %147, %m
  %158 = mul i32 %148, %m
  %159 = add i32 %157, %145
  %160 = add i32 %157, %146
  %161 = add i32 %158, %145
  %162 = add i32 %158, %146
  %163 = getelementptr float, ptr addrspace(1) %y, i32 %159
  %164 = getelementptr float, ptr addrspace(1) %y, i32 %160
  %165 = getelementptr float, ptr addrspace(1) %y, i32 %161
  %166 = getelementptr float, ptr addrspace(1) %y, i32 %162
  br i1 %153, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %167 = insertelement <4 x float> poison, float %121, i32 0
  %168 = insertelement <4 x float> %167, float %127, i32 1
  %169 = insertelement <4 x float> %168, float %133, i32 2
  %170 = insertelement <4 x float> %169, float %139, i32 3
  store <4 x float> %170, ptr addrspace(1) %163, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %154, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %171 = insertelement <4 x float> poison, float %123, i32 0
  %172 = insertelement <4 x float> %171, float %129, i32 1
  %173 = insertelement <4 x float> %172, float %135, i32 2
  %174 = insertelement <4 x float> %173, float %141, i32 3
  store <4 x float> %174, ptr addrspace(1) %164, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %155, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %175 = insertelement <4 x float> poison, float %122, i32 0
  %176 = insertelement <4 x float> %175, float %128, i32 1
  %177 = insertelement <4 x float> %176, float %134, i32 2
  %178 = insertelement <4 x float> %177, float %140, i32 3
  store <4 x float> %178, ptr addrspace(1) %165, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %156, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %179 = insertelement <4 x float> poison, float %124, i32 0
  %180 = insertelement <4 x float> %179, float %130, i32 1
  %181 = insertelement <4 x float> %180, float %136, i32 2
  %182 = insertelement <4 x float> %181, float %142, i32 3
  store <4 x float> %182, ptr addrspace(1) %166, align 16
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
