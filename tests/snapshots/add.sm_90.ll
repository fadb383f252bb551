target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @add(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, ptr addrspace(1) align 16 %z, i32 %n) #1 {
prologue:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %1, 31
  %warp = lshr i32 %1, 5
  %2 = and i32 %lane, 31
  %3 = shl i32 %2, 2
  %4 = and i32 %warp, 3
  %5 = shl i32 %4, 7
  %6 = xor i32 %3, %5
  br label %body

body:                                             ; preds = %prologue
  %7 = mul i32 %0, 1024
  %8 = add nuw i32 %6, 1
  %9 = add nuw i32 %6, 2
  %10 = add nuw i32 %6, 3
  %11 = add nuw i32 %6, 512
  %12 = add nuw i32 %6, 513
  %13 = add nuw i32 %6, 514
  %14 = add nuw i32 %6, 515
  %15 = add i32 %6, %7
  %16 = add i32 %8, %7
  %17 = add i32 %9, %7
  %18 = add i32 %10, %7
  %19 = add i32 %11, %7
  %20 = add i32 %12, %7
  %21 = add i32 %13, %7
  %22 = add i32 %14, %7
  %23 = icmp slt i32 %15, %n
  %24 = icmp slt i32 %16, %n
  %25 = icmp slt i32 %17, %n
  %26 = icmp slt i32 %18, %n
  %27 = icmp slt i32 %19, %n
  %28 = icmp slt i32 %20, %n
  %29 = icmp slt i32 %21, %n
  %30 = icmp slt i32 %22, %n
  %31 = getelementptr float, ptr addrspace(1) %x, i32 %15
  %32 = getelementptr float, ptr addrspace(1) %x, i32 %16
  %33 = getelementptr float, ptr addrspace(1) %x, i32 %17
  %34 = getelementptr float, ptr addrspace(1) %x, i32 %18
  %35 = getelementptr float, ptr addrspace(1) %x, i32 %19
  %36 = getelementptr float, ptr addrspace(1) %x, i32 %20
  %37 = getelementptr float, ptr addrspace(1) %x, i32 %21
  %38 = getelementptr float, ptr addrspace(1) %x, i32 %22
  %39 = getelementptr float, ptr addrspace(1) %y, i32 %15
  %40 = getelementptr float, ptr addrspace(1) %y, i32 %16
  %41 = getelementptr float, ptr addrspace(1) %y, i32 %17
  %42 = getelementptr float, ptr addrspace(1) %y, i32 %18
  %43 = getelementptr float, ptr addrspace(1) %y, i32 %19
  %44 = getelementptr float, ptr addrspace(1) %y, i32 %20
  %45 = getelementptr float, ptr addrspace(1) %y, i32 %21
  %46 = getelementptr float, ptr addrspace(1) %y, i32 %22
  %47 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %31, i1 %23)
  %48 = extractvalue { i32, i32, i32, i32 } %47, 0
  %49 = extractvalue { i32, i32, i32, i32 } %47, 1
  %50 = extractvalue { i32, i32, i32, i32 } %47, 2
  %51 = extractvalue { i32, i32, i32, i32 } %47, 3
  %52 = bitcast i32 %48 to float
  %53 = bitcast i32 %49 to float
  %54 = bitcast i32 %50 to float
  %55 = bitcast i32 %51 to float
  %56 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %35, i1 %27)
  %57 = extractvalue { i32, i32, i32, i32 } %56, 0
  %58 = extractvalue { i32, i32, i32, i32 } %56, 1
  %59 = extractvalue { i32, i32, i32, i32 } %56, 2
  %60 = extractvalue { i32, i32, i32, i32 } %56, 3
  %61 = bitcast i32 %57 to float
  %62 = bitcast i32 %58 to float
  %63 = bitcast i32 %59 to float
  %64 = bitcast i32 %60 to float
  %65 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %39, i1 %23)
  %66 = extractvalue { i32, i32, i32, i32 } %65, 0
  %67 = extractvalue { i32, i32, i32, i32 } %65, 1
  %68 = extractvalue { i32, i32, i32, i32 } %65, 2
  %69 = extractvalue { i32, i32, i32, i32 } %65, 3
  %70 = bitcast i32 %66 to float
  %71 = bitcast i32 %67 to float
  %72 = bitcast i32 %68 to float
  %73 = bitcast i32 %69 to float
  %74 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %43, i1 %27)
  %75 = extractvalue { i32, i32, i32, i32 } %74, 0
  %76 = extractvalue { i32, i32, i32, i32 } %74, 1
  %77 = extractvalue { i32, i32, i32, i32 } %74, 2
  %78 = extractvalue { i32, i32, i32, i32 } %74, 3
  %79 = bitcast i32 %75 to float
  %80 = bitcast i32 %76 to float
  %81 = bitcast i32 %77 to float
  %82 = bitcast i32 %78 to float
  %83 = fadd float %52, %70
  %84 = fadd float %53, %71
  %85 = fadd float %54, %72
  %86 = fadd float %55, %73
  %87 = fadd float %61, %79
  %88 = fadd float %62, %80
  %89 = fadd float %63, %81
  %90 = fadd float %64, %82
  %91 = getelementptr float, ptr addrspace(1) %z, i32 %15
  %92 = getelementptr float, ptr addrspace(1) %z, i32 %16
  %93 = getelementptr float, ptr addrspace(1) %z, i32 %17
  %94 = getelementptr float, ptr addrspace(1) %z, i32 %18
  %95 = getelementptr float, ptr addrspace(1) %z, i32 %19
  %96 = getelementptr float, ptr addrspace(1) %z, i32 %20
  %97 = getelementptr float, ptr addrspace(1) %z, i32 %21
  %98 = getelementptr float, ptr addrspace(1) %z, i32 %22
  %99 = bitcast float %83 to i32
  %100 = bitcast float %84 to i32
  %101 = bitcast float %85 to i32
  %102 = bitcast float %86 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %91, i32 %99, i32 %100, i32 %101, i32 %102, i1 %23)
  %103 = bitcast float %87 to i32
  %104 = bitcast float %88 to i32
  %105 = bitcast float %89 to i32
  %106 = bitcast float %90 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %95, i32 %103, i32 %104, i32 %105, i32 %106, i1 %27)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
