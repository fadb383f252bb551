target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @add(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %z, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = shl i32 %1, 2
  br label %body

body:                                             ; preds = %prologue
  %3 = shl i32 %0, 10
  %4 = or disjoint i32 %2, %3
  %5 = or disjoint i32 %4, 512
  %6 = icmp slt i32 %4, %n
  %7 = icmp slt i32 %5, %n
  %8 = getelementptr float, ptr addrspace(1) %x, i32 %4
  %9 = getelementptr float, ptr addrspace(1) %x, i32 %5
  %10 = getelementptr float, ptr addrspace(1) %y, i32 %4
  %11 = getelementptr float, ptr addrspace(1) %y, i32 %5
  %12 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %8, i1 %6)
  %13 = extractvalue { i32, i32, i32, i32 } %12, 0
  %14 = extractvalue { i32, i32, i32, i32 } %12, 1
  %15 = extractvalue { i32, i32, i32, i32 } %12, 2
  %16 = extractvalue { i32, i32, i32, i32 } %12, 3
  %17 = bitcast i32 %13 to float
  %18 = bitcast i32 %14 to float
  %19 = bitcast i32 %15 to float
  %20 = bitcast i32 %16 to float
  %21 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %9, i1 %7)
  %22 = extractvalue { i32, i32, i32, i32 } %21, 0
  %23 = extractvalue { i32, i32, i32, i32 } %21, 1
  %24 = extractvalue { i32, i32, i32, i32 } %21, 2
  %25 = extractvalue { i32, i32, i32, i32 } %21, 3
  %26 = bitcast i32 %22 to float
  %27 = bitcast i32 %23 to float
  %28 = bitcast i32 %24 to float
  %29 = bitcast i32 %25 to float
  %30 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %10, i1 %6)
  %31 = extractvalue { i32, i32, i32, i32 } %30, 0
  %32 = extractvalue { i32, i32, i32, i32 } %30, 1
  %33 = extractvalue { i32, i32, i32, i32 } %30, 2
  %34 = extractvalue { i32, i32, i32, i32 } %30, 3
  %35 = bitcast i32 %31 to float
  %36 = bitcast i32 %32 to float
  %37 = bitcast i32 %33 to float
  %38 = bitcast i32 %34 to float
  %39 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %11, i1 %7)
  %40 = extractvalue { i32, i32, i32, i32 } %39, 0
  %41 = extractvalue { i32, i32, i32, i32 } %39, 1
  %42 = extractvalue { i32, i32, i32, i32 } %39, 2
  %43 = extractvalue { i32, i32, i32, i32 } %39, 3
  %44 = bitcast i32 %40 to float
  %45 = bitcast i32 %41 to float
  %46 = bitcast i32 %42 to float
  %47 = bitcast i32 %43 to float
  %48 = fadd float %17, %35
  %49 = fadd float %18, %36
  %50 = fadd float %19, %37
  %51 = fadd float %20, %38
  %52 = fadd float %26, %44
  %53 = fadd float %27, %45
  %54 = fadd float %28, %46
  %55 = fadd float %29, %47
  %56 = getelementptr float, ptr addrspace(1) %z, i32 %4
  %57 = getelementptr float, ptr addrspace(1) %z, i32 %5
  %58 = bitcast float %48 to i32
  %59 = bitcast float %49 to i32
  %60 = bitcast float %50 to i32
  %61 = bitcast float %51 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %56, i32 %58, i32 %59, i32 %60, i32 %61, i1 %6)
  %62 = bitcast float %52 to i32
  %63 = bitcast float %53 to i32
  %64 = bitcast float %54 to i32
  %65 = bitcast float %55 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %57, i32 %62, i32 %63, i32 %64, i32 %65, i1 %7)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
