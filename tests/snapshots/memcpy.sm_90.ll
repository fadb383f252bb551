target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

define ptx_kernel void @memcpy(ptr addrspace(1) align 16 %x, ptr addrspace(1) align 16 %y, i32 %n) #1 {
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
  %7 = mul i32 %0, 2048
  %8 = add nuw i32 %6, 1
  %9 = add nuw i32 %6, 2
  %10 = add nuw i32 %6, 3
  %11 = add nuw i32 %6, 512
  %12 = add nuw i32 %6, 513
  %13 = add nuw i32 %6, 514
  %14 = add nuw i32 %6, 515
  %15 = add nuw i32 %6, 1024
  %16 = add nuw i32 %6, 1025
  %17 = add nuw i32 %6, 1026
  %18 = add nuw i32 %6, 1027
  %19 = add nuw i32 %6, 1536
  %20 = add nuw i32 %6, 1537
  %21 = add nuw i32 %6, 1538
  %22 = add nuw i32 %6, 1539
  %23 = add i32 %6, %7
  %24 = add i32 %8, %7
  %25 = add i32 %9, %7
  %26 = add i32 %10, %7
  %27 = add i32 %11, %7
  %28 = add i32 %12, %7
  %29 = add i32 %13, %7
  %30 = add i32 %14, %7
  %31 = add i32 %15, %7
  %32 = add i32 %16, %7
  %33 = add i32 %17, %7
  %34 = add i32 %18, %7
  %35 = add i32 %19, %7
  %36 = add i32 %20, %7
  %37 = add i32 %21, %7
  %38 = add i32 %22, %7
  %39 = icmp slt i32 %23, %n
  %40 = icmp slt i32 %24, %n
  %41 = icmp slt i32 %25, %n
  %42 = icmp slt i32 %26, %n
  %43 = icmp slt i32 %27, %n
  %44 = icmp slt i32 %28, %n
  %45 = icmp slt i32 %29, %n
  %46 = icmp slt i32 %30, %n
  %47 = icmp slt i32 %31, %n
  %48 = icmp slt i32 %32, %n
  %49 = icmp slt i32 %33, %n
  %50 = icmp slt i32 %34, %n
  %51 = icmp slt i32 %35, %n
  %52 = icmp slt i32 %36, %n
  %53 = icmp slt i32 %37, %n
  %54 = icmp slt i32 %38, %n
  %55 = getelementptr float, ptr addrspace(1) %x, i32 %23
  %56 = getelementptr float, ptr addrspace(1) %x, i32 %24
  %57 = getelementptr float, ptr addrspace(1) %x, i32 %25
  %58 = getelementptr float, ptr addrspace(1) %x, i32 %26
  %59 = getelementptr float, ptr addrspace(1) %x, i32 %27
  %60 = getelementptr float, ptr addrspace(1) %x, i32 %28
  %61 = getelementptr float, ptr addrspace(1) %x, i32 %29
  %62 = getelementptr float, ptr addrspace(1) %x, i32 %30
  %63 = getelementptr float, ptr addrspace(1) %x, i32 %31
  %64 = getelementptr float, ptr addrspace(1) %x, i32 %32
  %65 = getelementptr float, ptr addrspace(1) %x, i32 %33
  %66 = getelementptr float, ptr addrspace(1) %x, i32 %34
  %67 = getelementptr float, ptr addrspace(1) %x, i32 %35
  %68 = getelementptr float, ptr addrspace(1) %x, i32 %36
  %69 = getelementptr float, ptr addrspace(1) %x, i32 %37
  %70 = getelementptr float, ptr addrspace(1) %x, i32 %38
  %71 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %55, i1 %39)
  %72 = extractvalue { i32, i32, i32, i32 } %71, 0
  %73 = extractvalue { i32, i32, i32, i32 } %71, 1
  %74 = extractvalue { i32, i32, i32, i32 } %71, 2
  %75 = extractvalue { i32, i32, i32, i32 } %71, 3
  %76 = bitcast i32 %72 to float
  %77 = bitcast i32 %73 to float
  %78 = bitcast i32 %74 to float
  %79 = bitcast i32 %75 to float
  %80 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %59, i1 %43)
  %81 = extractvalue { i32, i32, i32, i32 } %80, 0
  %82 = extractvalue { i32, i32, i32, i32 } %80, 1
  %83 = extractvalue { i32, i32, i32, i32 } %80, 2
  %84 = extractvalue { i32, i32, i32, i32 } %80, 3
  %85 = bitcast i32 %81 to float
  %86 = bitcast i32 %82 to float
  %87 = bitcast i32 %83 to float
  %88 = bitcast i32 %84 to float
  %89 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %63, i1 %47)
  %90 = extractvalue { i32, i32, i32, i32 } %89, 0
  %91 = extractvalue { i32, i32, i32, i32 } %89, 1
  %92 = extractvalue { i32, i32, i32, i32 } %89, 2
  %93 = extractvalue { i32, i32, i32, i32 } %89, 3
  %94 = bitcast i32 %90 to float
  %95 = bitcast i32 %91 to float
  %96 = bitcast i32 %92 to float
  %97 = bitcast i32 %93 to float
  %98 = call { i32, i32, i32, i32 } asm sideeffect "mov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %67, i1 %51)
  %99 = extractvalue { i32, i32, i32, i32 } %98, 0
  %100 = extractvalue { i32, i32, i32, i32 } %98, 1
  %101 = extractvalue { i32, i32, i32, i32 } %98, 2
  %102 = extractvalue { i32, i32, i32, i32 } %98, 3
  %103 = bitcast i32 %99 to float
  %104 = bitcast i32 %100 to float
  %105 = bitcast i32 %101 to float
  %106 = bitcast i32 %102 to float
  %107 = getelementptr float, ptr addrspace(1) %y, i32 %23
  %108 = getelementptr float, ptr addrspace(1) %y, i32 %24
  %109 = getelementptr float, ptr addrspace(1) %y, i32 %25
  %110 = getelementptr float, ptr addrspace(1) %y, i32 %26
  %111 = getelementptr float, ptr addrspace(1) %y, i32 %27
  %112 = getelementptr float, ptr addrspace(1) %y, i32 %28
  %113 = getelementptr float, ptr addrspace(1) %y, i32 %29
  %114 = getelementptr float, ptr addrspace(1) %y, i32 %30
  %115 = getelementptr float, ptr addrspace(1) %y, i32 %31
  %116 = getelementptr float, ptr addrspace(1) %y, i32 %32
  %117 = getelementptr float, ptr addrspace(1) %y, i32 %33
  %118 = getelementptr float, ptr addrspace(1) %y, i32 %34
  %119 = getelementptr float, ptr addrspace(1) %y, i32 %35
  %120 = getelementptr float, ptr addrspace(1) %y, i32 %36
  %121 = getelementptr float, ptr addrspace(1) %y, i32 %37
  %122 = getelementptr float, ptr addrspace(1) %y, i32 %38
  %123 = bitcast float %76 to i32
  %124 = bitcast float %77 to i32
  %125 = bitcast float %78 to i32
  %126 = bitcast float %79 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %107, i32 %123, i32 %124, i32 %125, i32 %126, i1 %39)
  %127 = bitcast float %85 to i32
  %128 = bitcast float %86 to i32
  %129 = bitcast float %87 to i32
  %130 = bitcast float %88 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %111, i32 %127, i32 %128, i32 %129, i32 %130, i1 %43)
  %131 = bitcast float %94 to i32
  %132 = bitcast float %95 to i32
  %133 = bitcast float %96 to i32
  %134 = bitcast float %97 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %115, i32 %131, i32 %132, i32 %133, i32 %134, i1 %47)
  %135 = bitcast float %103 to i32
  %136 = bitcast float %104 to i32
  %137 = bitcast float %105 to i32
  %138 = bitcast float %106 to i32
  call void asm sideeffect "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"(ptr addrspace(1) %119, i32 %135, i32 %136, i32 %137, i32 %138, i1 %51)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { "nvvm.maxntid"="128" }
