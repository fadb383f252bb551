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
  %111 = load <4 x float>, ptr addrspace(1) %78, align 16
  %112 = extractelement <4 x float> %111, i32 0
  %113 = extractelement <4 x float> %111, i32 1
  %114 = extractelement <4 x float> %111, i32 2
  %115 = extractelement <4 x float> %111, i32 3
  %116 = load <4 x float>, ptr addrspace(1) %82, align 16
  %117 = extractelement <4 x float> %116, i32 0
  %118 = extractelement <4 x float> %116, i32 1
  %119 = extractelement <4 x float> %116, i32 2
  %120 = extractelement <4 x float> %116, i32 3
  %121 = load <4 x float>, ptr addrspace(1) %86, align 16
  %122 = extractelement <4 x float> %121, i32 0
  %123 = extractelement <4 x float> %121, i32 1
  %124 = extractelement <4 x float> %121, i32 2
  %125 = extractelement <4 x float> %121, i32 3
  %126 = load <4 x float>, ptr addrspace(1) %90, align 16
  %127 = extractelement <4 x float> %126, i32 0
  %128 = extractelement <4 x float> %126, i32 1
  %129 = extractelement <4 x float> %126, i32 2
  %130 = extractelement <4 x float> %126, i32 3
  %131 = load <4 x float>, ptr addrspace(1) %94, align 16
  %132 = extractelement <4 x float> %131, i32 0
  %133 = extractelement <4 x float> %131, i32 1
  %134 = extractelement <4 x float> %131, i32 2
  %135 = extractelement <4 x float> %131, i32 3
  %136 = load <4 x float>, ptr addrspace(1) %98, align 16
  %137 = extractelement <4 x float> %136, i32 0
  %138 = extractelement <4 x float> %136, i32 1
  %139 = extractelement <4 x float> %136, i32 2
  %140 = extractelement <4 x float> %136, i32 3
  %141 = load <4 x float>, ptr addrspace(1) %102, align 16
  %142 = extractelement <4 x float> %141, i32 0
  %143 = extractelement <4 x float> %141, i32 1
  %144 = extractelement <4 x float> %141, i32 2
  %145 = extractelement <4 x float> %141, i32 3
  %146 = mul i32 %30, %n
  %147 = mul i32 %31, %n
  %148 = mul i32 %32, %n
  %149 = mul i32 %33, %n
  %150 = add i32 %146, %19
  %151 = add i32 %147, %19
  %152 = add i32 %148, %19
  %153 = add i32 %149, %19
  %154 = add i32 %146, %20
  %155 = add i32 %147, %20
  %156 = add i32 %148, %20
  %157 = add i32 %149, %20
  %158 = add i32 %146, %21
  %159 = add i32 %147, %21
  %160 = add i32 %148, %21
  %161 = add i32 %149, %21
  %162 = add i32 %146, %22
  %163 = add i32 %147, %22
  %164 = add i32 %148, %22
  %165 = add i32 %149, %22
  %166 = add i32 %146, %23
  %167 = add i32 %147, %23
  %168 = add i32 %148, %23
  %169 = add i32 %149, %23
  %170 = add i32 %146, %24
  %171 = add i32 %147, %24
  %172 = add i32 %148, %24
  %173 = add i32 %149, %24
  %174 = add i32 %146, %25
  %175 = add i32 %147, %25
  %176 = add i32 %148, %25
  %177 = add i32 %149, %25
  %178 = add i32 %146, %26
  %179 = add i32 %147, %26
  %180 = add i32 %148, %26
  %181 = add i32 %149, %26
  %182 = getelementptr float, ptr addrspace(1) %y, i32 %150
  %183 = getelementptr float, ptr addrspace(1) %y, i32 %151
  %184 = getelementptr float, ptr addrspace(1) %y, i32 %152
  %185 = getelementptr float, ptr addrspace(1) %y, i32 %153
  %186 = getelementptr float, ptr addrspace(1) %y, i32 %154
  %187 = getelementptr float, ptr addrspace(1) %y, i32 %155
  %188 = getelementptr float, ptr addrspace(1) %y, i32 %156
  %189 = getelementptr float, ptr addrspace(1) %y, i32 %157
  %190 = getelementptr float, ptr addrspace(1) %y, i32 %158
  %191 = getelementptr float, ptr addrspace(1) %y, i32 %159
  %192 = getelementptr float, ptr addrspace(1) %y, i32 %160
  %193 = getelementptr float, ptr addrspace(1) %y, i32 %161
  %194 = getelementptr float, ptr addrspace(1) %y, i32 %162
  %195 = getelementptr float, ptr addrspace(1) %y, i32 %163
  %196 = getelementptr float, ptr addrspace(1) %y, i32 %164
  %197 = getelementptr float, ptr addrspace(1) %y, i32 %165
  %198 = getelementptr float, ptr addrspace(1) %y, i32 %166
  %199 = getelementptr float, ptr addrspace(1) %y, i32 %167
  %200 = getelementptr float, ptr addrspace(1) %y, i32 %168
  %201 = getelementptr float, ptr addrspace(1) %y, i32 %169
  %202 = getelementptr float, ptr addrspace(1) %y, i32 %170
  %203 = getelementptr float, ptr addrspace(1) %y, i32 %171
  %204 = getelementptr float, ptr addrspace(1) %y, i32 %172
  %205 = getelementptr float, ptr addrspace(1) %y, i32 %173
  %206 = getelementptr float, ptr addrspace(1) %y, i32 %174
  %207 = getelementptr float, ptr addrspace(1) %y, i32 %175
  %208 = getelementptr float, ptr addrspace(1) %y, i32 %176
  %209 = getelementptr float, ptr addrspace(1) %y, i32 %177
  %210 = getelementptr float, ptr addrspace(1) %y, i32 %178
  %211 = getelementptr float, ptr addrspace(1) %y, i32 %179
  %212 = getelementptr float, ptr addrspace(1) %y, i32 %180
  %213 = getelementptr float, ptr addrspace(1) %y, i32 %181
  store float %107, ptr addrspace(1) %182, align 4
  store float %108, ptr addrspace(1) %183, align 4
  store float %109, ptr addrspace(1) %184, align 4
  store float %110, ptr addrspace(1) %185, align 4
  store float %112, ptr addrspace(1) %186, align 4
  store float %113, ptr addrspace(1) %187, align 4
  store float %114, ptr addrspace(1) %188, align 4
  store float %115, ptr addrspace(1) %189, align 4
  store float %117, ptr addrspace(1) %190, align 4
  store float %118, ptr addrspace(1) %191, align 4
  store float %119, ptr addrspace(1) %192, align 4
  store float %120, ptr addrspace(1) %193, align 4
  store float %122, ptr addrspace(1) %194, align 4
  store float %123, ptr addrspace(1) %195, align 4
  store float %124, ptr addrspace(1) %196, align 4
  store float %125, ptr addrspace(1) %197, align 4
  store float %127, ptr addrspace(1) %198, align 4
  store float %128, ptr addrspace(1) %199, align 4
  store float %129, ptr addrspace(1) %200, align 4
  store float %130, ptr addrspace(1) %201, align 4
  store float %132, ptr addrspace(1) %202, align 4
  store float %133, ptr addrspace(1) %203, align 4
  store float %134, ptr addrspace(1) %204, align 4
  store float %135, ptr addrspace(1) %205, align 4
  store float %137, ptr addrspace(1) %206, align 4
  store float %138, ptr addrspace(1) %207, align 4
  store float %139, ptr addrspace(1) %208, align 4
  store float %140, ptr addrspace(1) %209, align 4
  store float %142, ptr addrspace(1) %210, align 4
  store float %143, ptr addrspace(1) %211, align 4
  store float %144, ptr addrspace(1) %212, align 4
  store float %145, ptr addrspace(1) %213, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
