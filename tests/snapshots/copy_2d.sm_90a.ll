target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @copy_2d(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %m_out, i32 %n, i32 %stride_x) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %2 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = lshr i32 %2, 5
  %4 = and i32 %2, 31
  %5 = shl i32 %4, 2
  br label %body

body:                                             ; preds = %prologue
  %6 = shl i32 %1, 5
  %7 = shl i32 %0, 7
  %8 = or disjoint i32 %3, %6
  %9 = or disjoint i32 %8, 4
  %10 = or disjoint i32 %8, 8
  %11 = or disjoint i32 %8, 12
  %12 = or disjoint i32 %8, 16
  %13 = or disjoint i32 %8, 20
  %14 = or disjoint i32 %8, 24
  %15 = or disjoint i32 %8, 28
  %16 = or disjoint i32 %5, %7
  %17 = icmp slt i32 %8, %m_out
  %18 = icmp slt i32 %9, %m_out
  %19 = icmp slt i32 %10, %m_out
  %20 = icmp slt i32 %11, %m_out
  %21 = icmp slt i32 %12, %m_out
  %22 = icmp slt i32 %13, %m_out
  %23 = icmp slt i32 %14, %m_out
  %24 = icmp slt i32 %15, %m_out
  %25 = icmp slt i32 %16, %n
  %26 = and i1 %17, %25
  %27 = and i1 %18, %25
  %28 = and i1 %19, %25
  %29 = and i1 %20, %25
  %30 = and i1 %21, %25
  %31 = and i1 %22, %25
  %32 = and i1 %23, %25
  %33 = and i1 %24, %25
  %34 = shl i32 %8, 1
  %35 = shl i32 %9, 1
  %36 = shl i32 %10, 1
  %37 = shl i32 %11, 1
  %38 = shl i32 %12, 1
  %39 = shl i32 %13, 1
  %40 = shl i32 %14, 1
  %41 = shl i32 %15, 1
  %42 = mul i32 %34, %stride_x
  %43 = mul i32 %35, %stride_x
  %44 = mul i32 %36, %stride_x
  %45 = mul i32 %37, %stride_x
  %46 = mul i32 %38, %stride_x
  %47 = mul i32 %39, %stride_x
  %48 = mul i32 %40, %stride_x
  %49 = mul i32 %41, %stride_x
  %50 = add i32 %42, %16
  %51 = add i32 %43, %16
  %52 = add i32 %44, %16
  %53 = add i32 %45, %16
  %54 = add i32 %46, %16
  %55 = add i32 %47, %16
  %56 = add i32 %48, %16
  %57 = add i32 %49, %16
  %58 = getelementptr float, ptr addrspace(1) %x, i32 %50
  %59 = getelementptr float, ptr addrspace(1) %x, i32 %51
  %60 = getelementptr float, ptr addrspace(1) %x, i32 %52
  %61 = getelementptr float, ptr addrspace(1) %x, i32 %53
  %62 = getelementptr float, ptr addrspace(1) %x, i32 %54
  %63 = getelementptr float, ptr addrspace(1) %x, i32 %55
  %64 = getelementptr float, ptr addrspace(1) %x, i32 %56
  %65 = getelementptr float, ptr addrspace(1) %x, i32 %57
  %66 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %58, i1 %26)
  %67 = extractvalue { i32, i32, i32, i32 } %66, 0
  %68 = extractvalue { i32, i32, i32, i32 } %66, 1
  %69 = extractvalue { i32, i32, i32, i32 } %66, 2
  %70 = extractvalue { i32, i32, i32, i32 } %66, 3
  %71 = bitcast i32 %67 to float
  %72 = bitcast i32 %68 to float
  %73 = bitcast i32 %69 to float
  %74 = bitcast i32 %70 to float
  %75 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %59, i1 %27)
  %76 = extractvalue { i32, i32, i32, i32 } %75, 0
  %77 = extractvalue { i32, i32, i32, i32 } %75, 1
  %78 = extractvalue { i32, i32, i32, i32 } %75, 2
  %79 = extractvalue { i32, i32, i32, i32 } %75, 3
  %80 = bitcast i32 %76 to float
  %81 = bitcast i32 %77 to float
  %82 = bitcast i32 %78 to float
  %83 = bitcast i32 %79 to float
  %84 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %60, i1 %28)
  %85 = extractvalue { i32, i32, i32, i32 } %84, 0
  %86 = extractvalue { i32, i32, i32, i32 } %84, 1
  %87 = extractvalue { i32, i32, i32, i32 } %84, 2
  %88 = extractvalue { i32, i32, i32, i32 } %84, 3
  %89 = bitcast i32 %85 to float
  %90 = bitcast i32 %86 to float
  %91 = bitcast i32 %87 to float
  %92 = bitcast i32 %88 to float
  %93 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %61, i1 %29)
  %94 = extractvalue { i32, i32, i32, i32 } %93, 0
  %95 = extractvalue { i32, i32, i32, i32 } %93, 1
  %96 = extractvalue { i32, i32, i32, i32 } %93, 2
  %97 = extractvalue { i32, i32, i32, i32 } %93, 3
  %98 = bitcast i32 %94 to float
  %99 = bitcast i32 %95 to float
  %100 = bitcast i32 %96 to float
  %101 = bitcast i32 %97 to float
  %102 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %62, i1 %30)
  %103 = extractvalue { i32, i32, i32, i32 } %102, 0
  %104 = extractvalue { i32, i32, i32, i32 } %102, 1
  %105 = extractvalue { i32, i32, i32, i32 } %102, 2
  %106 = extractvalue { i32, i32, i32, i32 } %102, 3
  %107 = bitcast i32 %103 to float
  %108 = bitcast i32 %104 to float
  %109 = bitcast i32 %105 to float
  %110 = bitcast i32 %106 to float
  %111 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %63, i1 %31)
  %112 = extractvalue { i32, i32, i32, i32 } %111, 0
  %113 = extractvalue { i32, i32, i32, i32 } %111, 1
  %114 = extractvalue { i32, i32, i32, i32 } %111, 2
  %115 = extractvalue { i32, i32, i32, i32 } %111, 3
  %116 = bitcast i32 %112 to float
  %117 = bitcast i32 %113 to float
  %118 = bitcast i32 %114 to float
  %119 = bitcast i32 %115 to float
  %120 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %64, i1 %32)
  %121 = extractvalue { i32, i32, i32, i32 } %120, 0
  %122 = extractvalue { i32, i32, i32, i32 } %120, 1
  %123 = extractvalue { i32, i32, i32, i32 } %120, 2
  %124 = extractvalue { i32, i32, i32, i32 } %120, 3
  %125 = bitcast i32 %121 to float
  %126 = bitcast i32 %122 to float
  %127 = bitcast i32 %123 to float
  %128 = bitcast i32 %124 to float
  %129 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %65, i1 %33)
  %130 = extractvalue { i32, i32, i32, i32 } %129, 0
  %131 = extractvalue { i32, i32, i32, i32 } %129, 1
  %132 = extractvalue { i32, i32, i32, i32 } %129, 2
  %133 = extractvalue { i32, i32, i32, i32 } %129, 3
  %134 = bitcast i32 %130 to float
  %135 = bitcast i32 %131 to float
  %136 = bitcast i32 %132 to float
  %137 = bitcast i32 %133 to float
  %138 = mul i32 %8, %n
  %139 = mul i32 %9, %n
  %140 = mul i32 %10, %n
  %141 = mul i32 %11, %n
  %142 = mul i32 %12, %n
  %143 = mul i32 %13, %n
  %144 = mul i32 %14, %n
  %145 = mul i32 %15, %n
  %146 = add i32 %138, %16
  %147 = add i32 %139, %16
  %148 = add i32 %140, %16
  %149 = add i32 %141, %16
  %150 = add i32 %142, %16
  %151 = add i32 %143, %16
  %152 = add i32 %144, %16
  %153 = add i32 %145, %16
  %154 = getelementptr float, ptr addrspace(1) %y, i32 %146
  %155 = getelementptr float, ptr addrspace(1) %y, i32 %147
  %156 = getelementptr float, ptr addrspace(1) %y, i32 %148
  %157 = getelementptr float, ptr addrspace(1) %y, i32 %149
  %158 = getelementptr float, ptr addrspace(1) %y, i32 %150
  %159 = getelementptr float, ptr addrspace(1) %y, i32 %151
  %160 = getelementptr float, ptr addrspace(1) %y, i32 %152
  %161 = getelementptr float, ptr addrspace(1) %y, i32 %153
  %162 = bitcast float %71 to i32
  %163 = bitcast float %72 to i32
  %164 = bitcast float %73 to i32
  %165 = bitcast float %74 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %154, i32 %162, i32 %163, i32 %164, i32 %165, i1 %26)
  %166 = bitcast float %80 to i32
  %167 = bitcast float %81 to i32
  %168 = bitcast float %82 to i32
  %169 = bitcast float %83 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %155, i32 %166, i32 %167, i32 %168, i32 %169, i1 %27)
  %170 = bitcast float %89 to i32
  %171 = bitcast float %90 to i32
  %172 = bitcast float %91 to i32
  %173 = bitcast float %92 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %156, i32 %170, i32 %171, i32 %172, i32 %173, i1 %28)
  %174 = bitcast float %98 to i32
  %175 = bitcast float %99 to i32
  %176 = bitcast float %100 to i32
  %177 = bitcast float %101 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %157, i32 %174, i32 %175, i32 %176, i32 %177, i1 %29)
  %178 = bitcast float %107 to i32
  %179 = bitcast float %108 to i32
  %180 = bitcast float %109 to i32
  %181 = bitcast float %110 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %158, i32 %178, i32 %179, i32 %180, i32 %181, i1 %30)
  %182 = bitcast float %116 to i32
  %183 = bitcast float %117 to i32
  %184 = bitcast float %118 to i32
  %185 = bitcast float %119 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %159, i32 %182, i32 %183, i32 %184, i32 %185, i1 %31)
  %186 = bitcast float %125 to i32
  %187 = bitcast float %126 to i32
  %188 = bitcast float %127 to i32
  %189 = bitcast float %128 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %160, i32 %186, i32 %187, i32 %188, i32 %189, i1 %32)
  %190 = bitcast float %134 to i32
  %191 = bitcast float %135 to i32
  %192 = bitcast float %136 to i32
  %193 = bitcast float %137 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %161, i32 %190, i32 %191, i32 %192, i32 %193, i1 %33)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
