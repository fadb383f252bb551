target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @memcpy(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = shl i32 %1, 2
  br label %body

body:                                             ; preds = %prologue
  %3 = shl i32 %0, 11
  %4 = or disjoint i32 %2, %3
  %5 = or disjoint i32 %4, 512
  %6 = or disjoint i32 %4, 1024
  %7 = or disjoint i32 %4, 1536
  %8 = icmp slt i32 %4, %n
  %9 = icmp slt i32 %5, %n
  %10 = icmp slt i32 %6, %n
  %11 = icmp slt i32 %7, %n
  %12 = getelementptr float, ptr addrspace(1) %x, i32 %4
  %13 = getelementptr float, ptr addrspace(1) %x, i32 %5
  %14 = getelementptr float, ptr addrspace(1) %x, i32 %6
  %15 = getelementptr float, ptr addrspace(1) %x, i32 %7
  %16 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %12, i1 %8)
  %17 = extractvalue { i32, i32, i32, i32 } %16, 0
  %18 = extractvalue { i32, i32, i32, i32 } %16, 1
  %19 = extractvalue { i32, i32, i32, i32 } %16, 2
  %20 = extractvalue { i32, i32, i32, i32 } %16, 3
  %21 = bitcast i32 %17 to float
  %22 = bitcast i32 %18 to float
  %23 = bitcast i32 %19 to float
  %24 = bitcast i32 %20 to float
  %25 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %13, i1 %9)
  %26 = extractvalue { i32, i32, i32, i32 } %25, 0
  %27 = extractvalue { i32, i32, i32, i32 } %25, 1
  %28 = extractvalue { i32, i32, i32, i32 } %25, 2
  %29 = extractvalue { i32, i32, i32, i32 } %25, 3
  %30 = bitcast i32 %26 to float
  %31 = bitcast i32 %27 to float
  %32 = bitcast i32 %28 to float
  %33 = bitcast i32 %29 to float
  %34 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %14, i1 %10)
  %35 = extractvalue { i32, i32, i32, i32 } %34, 0
  %36 = extractvalue { i32, i32, i32, i32 } %34, 1
  %37 = extractvalue { i32, i32, i32, i32 } %34, 2
  %38 = extractvalue { i32, i32, i32, i32 } %34, 3
  %39 = bitcast i32 %35 to float
  %40 = bitcast i32 %36 to float
  %41 = bitcast i32 %37 to float
  %42 = bitcast i32 %38 to float
  %43 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %15, i1 %11)
  %44 = extractvalue { i32, i32, i32, i32 } %43, 0
  %45 = extractvalue { i32, i32, i32, i32 } %43, 1
  %46 = extractvalue { i32, i32, i32, i32 } %43, 2
  %47 = extractvalue { i32, i32, i32, i32 } %43, 3
  %48 = bitcast i32 %44 to float
  %49 = bitcast i32 %45 to float
  %50 = bitcast i32 %46 to float
  %51 = bitcast i32 %47 to float
  %52 = getelementptr float, ptr addrspace(1) %y, i32 %4
  %53 = getelementptr float, ptr addrspace(1) %y, i32 %5
  %54 = getelementptr float, ptr addrspace(1) %y, i32 %6
  %55 = getelementptr float, ptr addrspace(1) %y, i32 %7
  %56 = bitcast float %21 to i32
  %57 = bitcast float %22 to i32
  %58 = bitcast float %23 to i32
  %59 = bitcast float %24 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %52, i32 %56, i32 %57, i32 %58, i32 %59, i1 %8)
  %60 = bitcast float %30 to i32
  %61 = bitcast float %31 to i32
  %62 = bitcast float %32 to i32
  %63 = bitcast float %33 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %53, i32 %60, i32 %61, i32 %62, i32 %63, i1 %9)
  %64 = bitcast float %39 to i32
  %65 = bitcast float %40 to i32
  %66 = bitcast float %41 to i32
  %67 = bitcast float %42 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %54, i32 %64, i32 %65, i32 %66, i32 %67, i1 %10)
  %68 = bitcast float %48 to i32
  %69 = bitcast float %49 to i32
  %70 = bitcast float %50 to i32
  %71 = bitcast float %51 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %55, i32 %68, i32 %69, i32 %70, i32 %71, i1 %11)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.reqntid"="128" }
