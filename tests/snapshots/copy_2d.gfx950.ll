target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0

define amdgpu_kernel void @copy_2d(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m_out, i32 %n, i32 %stride_x) #1 {
prologue:
  %0 = call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = call i32 @llvm.amdgcn.workgroup.id.y()
  %2 = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %2, 63
  %warp = lshr i32 %2, 6
  %3 = and i32 %lane, 32
  %4 = lshr i32 %3, 5
  %5 = and i32 %warp, 3
  %6 = shl i32 %5, 1
  %7 = xor i32 %4, %6
  %8 = and i32 %lane, 31
  %9 = shl i32 %8, 2
  br label %body

body:                                             ; preds = %prologue
  %10 = mul i32 %1, 32
  %11 = mul i32 %0, 128
  %12 = add nuw i32 %7, 8
  %13 = add nuw i32 %7, 16
  %14 = add nuw i32 %7, 24
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
  %26 = icmp slt i32 %15, %m_out
  %27 = icmp slt i32 %16, %m_out
  %28 = icmp slt i32 %17, %m_out
  %29 = icmp slt i32 %18, %m_out
  %30 = icmp slt i32 %22, %n
  %31 = icmp slt i32 %23, %n
  %32 = icmp slt i32 %24, %n
  %33 = icmp slt i32 %25, %n
  %34 = and i1 %26, %30
  %35 = and i1 %26, %31
  %36 = and i1 %26, %32
  %37 = and i1 %26, %33
  %38 = and i1 %27, %30
  %39 = and i1 %27, %31
  %40 = and i1 %27, %32
  %41 = and i1 %27, %33
  %42 = and i1 %28, %30
  %43 = and i1 %28, %31
  %44 = and i1 %28, %32
  %45 = and i1 %28, %33
  %46 = and i1 %29, %30
  %47 = and i1 %29, %31
  %48 = and i1 %29, %32
  %49 = and i1 %29, %33
  %50 = mul i32 %15, 2
  %51 = mul i32 %16, 2
  %52 = mul i32 %17, 2
  %53 = mul i32 %18, 2
  %54 = mul i32 %50, %stride_x
  %55 = mul i32 %51, %stride_x
  %56 = mul i32 %52, %stride_x
  %57 = mul i32 %53, %stride_x
  %58 = add i32 %54, %22
  %59 = add i32 %54, %23
  %60 = add i32 %54, %24
  %61 = add i32 %54, %25
  %62 = add i32 %55, %22
  %63 = add i32 %55, %23
  %64 = add i32 %55, %24
  %65 = add i32 %55, %25
  %66 = add i32 %56, %22
  %67 = add i32 %56, %23
  %68 = add i32 %56, %24
  %69 = add i32 %56, %25
  %70 = add i32 %57, %22
  %71 = add i32 %57, %23
  %72 = add i32 %57, %24
  %73 = add i32 %57, %25
  %74 = getelementptr float, ptr addrspace(1) %x, i32 %58
  %75 = getelementptr float, ptr addrspace(1) %x, i32 %59
  %76 = getelementptr float, ptr addrspace(1) %x, i32 %60
  %77 = getelementptr float, ptr addrspace(1) %x, i32 %61
  %78 = getelementptr float, ptr addrspace(1) %x, i32 %62
  %79 = getelementptr float, ptr addrspace(1) %x, i32 %63
  %80 = getelementptr float, ptr addrspace(1) %x, i32 %64
  %81 = getelementptr float, ptr addrspace(1) %x, i32 %65
  %82 = getelementptr float, ptr addrspace(1) %x, i32 %66
  %83 = getelementptr float, ptr addrspace(1) %x, i32 %67
  %84 = getelementptr float, ptr addrspace(1) %x, i32 %68
  %85 = getelementptr float, ptr addrspace(1) %x, i32 %69
  %86 = getelementptr float, ptr addrspace(1) %x, i32 %70
  %87 = getelementptr float, ptr addrspace(1) %x, i32 %71
  %88 = getelementptr float, ptr addrspace(1) %x, i32 %72
  %89 = getelementptr float, ptr addrspace(1) %x, i32 %73
  br i1 %34, label %masked, label %join

masked:                                           ; preds = %body
  %90 = load <4 x float>, ptr addrspace(1) %74, align 16
  %91 = extractelement <4 x float> %90, i32 0
  %92 = extractelement <4 x float> %90, i32 1
  %93 = extractelement <4 x float> %90, i32 2
  %94 = extractelement <4 x float> %90, i32 3
  %95 = insertelement <4 x float> poison, float %91, i32 0
  %96 = insertelement <4 x float> %95, float %92, i32 1
  %97 = insertelement <4 x float> %96, float %93, i32 2
  %98 = insertelement <4 x float> %97, float %94, i32 3
  br label %join

join:                                             ; preds = %masked, %body
  %99 = phi <4 x float> [ %98, %masked ], [ zeroinitializer, %body ]
  %100 = extractelement <4 x float> %99, i32 0
  %101 = extractelement <4 x float> %99, i32 1
  %102 = extractelement <4 x float> %99, i32 2
  %103 = extractelement <4 x float> %99, i32 3
  br i1 %38, label %masked1, label %join2

masked1:                                          ; preds = %join
  %104 = load <4 x float>, ptr addrspace(1) %78, align 16
  %105 = extractelement <4 x float> %104, i32 0
  %106 = extractelement <4 x float> %104, i32 1
  %107 = extractelement <4 x float> %104, i32 2
  %108 = extractelement <4 x float> %104, i32 3
  %109 = insertelement <4 x float> poison, float %105, i32 0
  %110 = insertelement <4 x float> %109, float %106, i32 1
  %111 = insertelement <4 x float> %110, float %107, i32 2
  %112 = insertelement <4 x float> %111, float %108, i32 3
  br label %join2

join2:                                            ; preds = %masked1, %join
  %113 = phi <4 x float> [ %112, %masked1 ], [ zeroinitializer, %join ]
  %114 = extractelement <4 x float> %113, i32 0
  %115 = extractelement <4 x float> %113, i32 1
  %116 = extractelement <4 x float> %113, i32 2
  %117 = extractelement <4 x float> %113, i32 3
  br i1 %42, label %masked3, label %join4

masked3:                                          ; preds = %join2
  %118 = load <4 x float>, ptr addrspace(1) %82, align 16
  %119 = extractelement <4 x float> %118, i32 0
  %120 = extractelement <4 x float> %118, i32 1
  %121 = extractelement <4 x float> %118, i32 2
  %122 = extractelement <4 x float> %118, i32 3
  %123 = insertelement <4 x float> poison, float %119, i32 0
  %124 = insertelement <4 x float> %123, float %120, i32 1
  %125 = insertelement <4 x float> %124, float %121, i32 2
  %126 = insertelement <4 x float> %125, float %122, i32 3
  br label %join4

join4:                                            ; preds = %masked3, %join2
  %127 = phi <4 x float> [ %126, %masked3 ], [ zeroinitializer, %join2 ]
  %128 = extractelement <4 x float> %127, i32 0
  %129 = extractelement <4 x float> %127, i32 1
  %130 = extractelement <4 x float> %127, i32 2
  %131 = extractelement <4 x float> %127, i32 3
  br i1 %46, label %masked5, label %join6

masked5:                                          ; preds = %join4
  %132 = load <4 x float>, ptr addrspace(1) %86, align 16
  %133 = extractelement <4 x float> %132, i32 0
  %134 = extractelement <4 x float> %132, i32 1
  %135 = extractelement <4 x float> %132, i32 2
  %136 = extractelement <4 x float> %132, i32 3
  %137 = insertelement <4 x float> poison, float %133, i32 0
  %138 = insertelement <4 x float> %137, float %134, i32 1
  %139 = insertelement <4 x float> %138, float %135, i32 2
  %140 = insertelement <4 x float> %139, float %136, i32 3
  br label %join6

join6:                                            ; preds = %masked5, %join4
  %141 = phi <4 x float> [ %140, %masked5 ], [ zeroinitializer, %join4 ]
  %142 = extractelement <4 x float> %141, i32 0
  %143 = extractelement <4 x float> %141, i32 1
  %144 = extractelement <4 x float> %141, i32 2
  %145 = extractelement <4 x float> %141, i32 3
  %146 = mul i32 %15, %n
  %147 = mul i32 %16, %n
  %148 = mul i32 %17, %n
  %149 = mul i32 %18, %n
  %150 = add i32 %146, %22
  %151 = add i32 %146, %23
  %152 = add i32 %146, %24
  %153 = add i32 %146, %25
  %154 = add i32 %147, %22
  %155 = add i32 %147, %23
  %156 = add i32 %147, %24
  %157 = add i32 %147, %25
  %158 = add i32 %148, %22
  %159 = add i32 %148, %23
  %160 = add i32 %148, %24
  %161 = add i32 %148, %25
  %162 = add i32 %149, %22
  %163 = add i32 %149, %23
  %164 = add i32 %149, %24
  %165 = add i32 %149, %25
  %166 = getelementptr float, ptr addrspace(1) %y, i32 %150
  %167 = getelementptr float, ptr addrspace(1) %y, i32 %151
  %168 = getelementptr float, ptr addrspace(1) %y, i32 %152
  %169 = getelementptr float, ptr addrspace(1) %y, i32 %153
  %170 = getelementptr float, ptr addrspace(1) %y, i32 %154
  %171 = getelementptr float, ptr addrspace(1) %y, i32 %155
  %172 = getelementptr float, ptr addrspace(1) %y, i32 %156
  %173 = getelementptr float, ptr addrspace(1) %y, i32 %157
  %174 = getelementptr float, ptr addrspace(1) %y, i32 %158
  %175 = getelementptr float, ptr addrspace(1) %y, i32 %159
  %176 = getelementptr float, ptr addrspace(1) %y, i32 %160
  %177 = getelementptr float, ptr addrspace(1) %y, i32 %161
  %178 = getelementptr float, ptr addrspace(1) %y, i32 %162
  %179 = getelementptr float, ptr addrspace(1) %y, i32 %163
  %180 = getelementptr float, ptr addrspace(1) %y, i32 %164
  %181 = getelementptr float, ptr addrspace(1) %y, i32 %165
  br i1 %34, label %masked7, label %join8

masked7:                                          ; preds = %join6
  %182 = insertelement <4 x float> poison, float %100, i32 0
  %183 = insertelement <4 x float> %182, float %101, i32 1
  %184 = insertelement <4 x float> %183, float %102, i32 2
  %185 = insertelement <4 x float> %184, float %103, i32 3
  store <4 x float> %185, ptr addrspace(1) %166, align 16
  br label %join8

join8:                                            ; preds = %masked7, %join6
  br i1 %38, label %masked9, label %join10

masked9:                                          ; preds = %join8
  %186 = insertelement <4 x float> poison, float %114, i32 0
  %187 = insertelement <4 x float> %186, float %115, i32 1
  %188 = insertelement <4 x float> %187, float %116, i32 2
  %189 = insertelement <4 x float> %188, float %117, i32 3
  store <4 x float> %189, ptr addrspace(1) %170, align 16
  br label %join10

join10:                                           ; preds = %masked9, %join8
  br i1 %42, label %masked11, label %join12

masked11:                                         ; preds = %join10
  %190 = insertelement <4 x float> poison, float %128, i32 0
  %191 = insertelement <4 x float> %190, float %129, i32 1
  %192 = insertelement <4 x float> %191, float %130, i32 2
  %193 = insertelement <4 x float> %192, float %131, i32 3
  store <4 x float> %193, ptr addrspace(1) %174, align 16
  br label %join12

join12:                                           ; preds = %masked11, %join10
  br i1 %46, label %masked13, label %join14

masked13:                                         ; preds = %join12
  %194 = insertelement <4 x float> poison, float %142, i32 0
  %195 = insertelement <4 x float> %194, float %143, i32 1
  %196 = insertelement <4 x float> %195, float %144, i32 2
  %197 = insertelement <4 x float> %196, float %145, i32 3
  store <4 x float> %197, ptr addrspace(1) %178, align 16
  br label %join14

join14:                                           ; preds = %masked13, %join12
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "amdgpu-flat-work-group-size"="256,256" }
