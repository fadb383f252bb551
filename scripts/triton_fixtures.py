#!/usr/bin/env python3
"""Ground-truth fixtures for weft, produced by Triton 3.9 itself (on the CPU, no GPU needed).

Run with the Triton 3.9 venv:

    /opt/triton-venv/bin/python scripts/triton_fixtures.py [--out tests/fixtures] [--only encodings,conversions,...]

Writes, under ``tests/fixtures/`` (see ``tests/fixtures/README.md`` for the formats):

* ``encodings.json``       every Gluon layout kind -> TTGIR text + Triton's linear layout (or Triton's error)
* ``ttgir/*.mlir``         small TTGIR dumps of kernels compiled for cuda:90 (no GPU)
* ``ttgir_layouts.json``   every layout alias of those dumps -> linear layout for the shape it is used with
* ``conversions.json``     ``ttg.convert_layout`` pairs -> Triton's scratch bytes and lowered instruction counts
* ``bank_conflicts.json``  Gluon's ``bank_conflicts`` for (distributed, shared) layout pairs

Triton aborts the process (C++ ``assert`` / ``LLVM ERROR``) on some invalid parameters, so every query runs in a
worker subprocess; when the worker dies, the case is recorded as an error with the diagnostic Triton printed,
and a fresh worker takes over. Everything is deterministic (fixed seeds, sorted output).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import traceback

SEED = 20260522

# ---------------------------------------------------------------------------------------------------------------------
# Worker side: everything that touches Triton.
# ---------------------------------------------------------------------------------------------------------------------


class _Worker:
    """Answers one JSON request per stdin line; prints `{"partial": …}` lines, then one `{"result": …}` line."""

    def __init__(self):
        import warnings

        warnings.filterwarnings("ignore")
        os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
        from triton._C.libtriton import gluon_ir, ir
        import triton.experimental.gluon.language as gl
        from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout

        self.ir = ir
        self.gl = gl
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.b = gluon_ir.GluonOpBuilder(self.ctx)
        self.classes = {
            "BlockedLayout": gl.BlockedLayout,
            "SliceLayout": gl.SliceLayout,
            "DotOperandLayout": gl.DotOperandLayout,
            "NVMMADistributedLayout": gl.NVMMADistributedLayout,
            "DistributedLinearLayout": gl.DistributedLinearLayout,
            "AMDMFMALayout": AMDMFMALayout,
            "AMDWMMALayout": AMDWMMALayout,
            "SwizzledSharedLayout": gl.SwizzledSharedLayout,
            "NVMMASharedLayout": gl.NVMMASharedLayout,
            "PaddedSharedLayout": gl.PaddedSharedLayout,
            "SharedLinearLayout": gl.SharedLinearLayout,
        }
        try:  # gfx1250's partitioned shared memory (Triton 3.9)
            from triton.experimental.gluon.language.amd.cdna5 import PartitionedSharedLayout

            self.classes["PartitionedSharedLayout"] = PartitionedSharedLayout
        except ImportError:
            pass
        self.backend = None

    # -- helpers ------------------------------------------------------------------------------------------------------
    def emit(self, obj):
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    def build(self, spec):
        params = dict(spec["params"])
        for nested in ("parent", "partition_layout"):
            if nested in params:
                params[nested] = self.build(params[nested])
        return self.classes[spec["kind"]](**params)

    def is_shared(self, obj):
        from triton.experimental.gluon.language._layouts import SharedLayout

        return isinstance(obj, SharedLayout)

    def elem_ty(self, dtype):
        b = self.b
        return {
            "i8": b.get_int8_ty,
            "f16": b.get_half_ty,
            "bf16": b.get_bf16_ty,
            "f32": b.get_float_ty,
            "i32": b.get_int32_ty,
            "f64": b.get_double_ty,
            "i64": b.get_int64_ty,
            "i16": b.get_int16_ty,
        }[dtype]()

    def type_text(self, obj, attr, shape, dtype):
        """TTGIR type carrying the attribute, and the attribute text cut out of it."""
        et = self.elem_ty(dtype)
        if self.is_shared(obj):
            t = str(self.b.get_shared_mem_desc_ty(et, list(shape), attr, list(shape)))
            head = "!ttg.memdesc<"
            tail = ", #ttg.shared_memory, mutable>"
            assert t.startswith(head) and t.endswith(tail), t
            body = t[len(head):-len(tail)]
        else:
            t = str(self.b.get_distributed_ty(et, list(shape), attr))
            head = "tensor<"
            assert t.startswith(head) and t.endswith(">"), t
            body = t[len(head):-1]
        return t, body[body.index(", ") + 2:]

    def ll_json(self, obj, lin, shape):
        """Triton's linear layout (as returned by gluon to_linear_layout) in design.md's JSON form."""
        gl = self.gl
        if isinstance(lin, gl.DistributedLinearLayout):
            in_dims = [["register", lin.reg_bases], ["lane", lin.lane_bases], ["warp", lin.warp_bases],
                       ["block", lin.block_bases]]
            out_sizes = list(lin.shape)
            extra = {}
        elif isinstance(lin, gl.SharedLinearLayout):
            in_dims = [["offset", lin.offset_bases], ["block", lin.block_bases]]
            # The Python object does not carry the out-dim sizes; Triton's toLinearLayout(shape) of a shared
            # encoding has out dims of exactly `shape` (checked below: no basis leaves the shape).
            out_sizes = list(shape)
            for _, bases in in_dims:
                for v in bases:
                    assert all(0 <= c < s for c, s in zip(v, out_sizes)), (v, out_sizes)
            extra = {"alignment": lin.alignment}
        else:
            raise TypeError(f"unexpected linear layout object {type(lin)}")
        in_dims = [[n, [list(map(int, v)) for v in bases]] for n, bases in in_dims]
        out = {"in_dims": in_dims, "out_dims": [[f"dim{i}", int(s)] for i, s in enumerate(out_sizes)]}
        return out, extra

    def linear_layout(self, obj, attr, shape):
        lin = self.b.to_linear_layout(attr, list(shape))
        return self.ll_json(obj, lin, shape)

    # -- requests -----------------------------------------------------------------------------------------------------
    def stage(self, name):
        """Announce the stage about to run, so that an abort inside it is attributed to it."""
        self._stage = name
        self.emit({"partial": {"error_stage": name}})

    def fail(self, e):
        return {"error": _exc_message(e), "error_stage": self._stage, "error_type": type(e).__name__}

    def req_encoding(self, req):
        try:
            self.stage("gluon")
            obj = self.build(req["layout"])
            self.emit({"partial": {"gluon": repr(obj)}})
            self.stage("attribute")
            attr = obj._to_ir(self.b)
            self.stage("ttgir")
            dtype = req.get("dtype") or ("f16" if self.is_shared(obj) else "f32")
            ty, text = self.type_text(obj, attr, req["shape"], dtype)
            self.emit({"partial": {"ttgir": text, "type": ty}})
            if isinstance(obj, self.classes["PaddedSharedLayout"]):
                # Triton 3.9's toLinearLayout aborts on padded_shared ("padded shared encoding has no linear
                # layout; use paddedLinearLayout instead") and paddedLinearLayout has no Python binding.
                return {"layout_unavailable": "Triton 3.9 has no linear layout for padded_shared (toLinearLayout "
                                              "aborts: 'use paddedLinearLayout instead', which Python cannot reach)"}
            self.stage("linear_layout")
            layout, extra = self.linear_layout(obj, attr, req["shape"])
            res = {"layout": layout}
            res.update(extra)
            return res
        except Exception as e:  # Triton rejected the parameters: record its message
            return self.fail(e)

    def req_bank(self, req):
        try:
            self.stage("gluon")
            reg = self.build(req["reg"])
            sh = self.build(req["shared"])
            self.stage("attribute")
            ra, sa = reg._to_ir(self.b), sh._to_ir(self.b)
            _, rt = self.type_text(reg, ra, req["shape"], req["dtype"])
            _, st = self.type_text(sh, sa, req["shape"], req["dtype"])
            self.emit({"partial": {"reg_gluon": repr(reg), "shared_gluon": repr(sh), "reg_ttgir": rt,
                                   "shared_ttgir": st}})
            self.stage("linear_layout")
            rl, _ = self.linear_layout(reg, ra, req["shape"])
            self.emit({"partial": {"reg_layout": rl}})
            if not isinstance(sh, self.classes["PaddedSharedLayout"]):  # Triton has no linear layout for padded
                sl, _ = self.linear_layout(sh, sa, req["shape"])
                self.emit({"partial": {"shared_layout": sl}})
            self.stage("bank_conflicts")
            n = self.bank_conflicts_in_kernel(reg, sh, req["shape"], req["dtype"], rl)
            return {"bank_conflicts": int(n)}
        except Exception as e:
            return self.fail(e)

    def bank_conflicts_in_kernel(self, reg, sh, shape, dtype, reg_layout):
        """gl.bank_conflicts evaluated while Triton compiles a probe kernel (front end only).

        Calling GluonOpBuilder.get_shared_bank_conflicts directly from Python segfaults in Triton 3.9; inside a
        @gluon.jit kernel it works, so the probe kernel calls gl.bank_conflicts and we catch its result.
        """
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import triton_fixture_kernels as K
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import make_backend
        from triton.experimental.gluon._runtime import GluonASTSource
        from triton.experimental.gluon.language import _semantic

        gl = self.gl
        dt = {"i8": gl.int8, "f16": gl.float16, "bf16": gl.bfloat16, "f32": gl.float32, "f64": gl.float64,
              "i32": gl.int32, "i16": gl.int16, "i64": gl.int64}[dtype]
        got = []
        orig = _semantic.GluonSemantic.bank_conflicts

        def spy(this, distr_ty, shared_ty):
            n = orig(this, distr_ty, shared_ty)
            got.append(n)
            return n

        target = GPUTarget("cuda", CONVERT_ARCH, 32)
        backend = make_backend(target)
        warps = 1 << len(dict(reg_layout["in_dims"])["warp"])
        options = backend.parse_options({"num_warps": warps})
        reg_ty = gl.distributed_type(dt, list(shape), reg)
        sh_ty = gl.shared_memory_descriptor_type(dt, list(shape), sh, list(shape))
        src = GluonASTSource(fn=K.bank_conflicts_probe, signature={"REG_TY": "constexpr", "SH_TY": "constexpr"},
                             constexprs={"REG_TY": reg_ty, "SH_TY": sh_ty})
        ctx = self.ir.context()
        self.ir.load_dialects(ctx)
        backend.load_dialects(ctx)
        _semantic.GluonSemantic.bank_conflicts = spy
        try:
            src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
        finally:
            _semantic.GluonSemantic.bank_conflicts = orig
        if len(got) != 1:
            raise RuntimeError(f"probe kernel evaluated bank_conflicts {len(got)} times")
        return got[0]

    def cuda_backend(self):
        if self.backend is None:
            from triton.backends.compiler import GPUTarget
            from triton.backends.nvidia.compiler import CUDABackend

            self.backend = CUDABackend(GPUTarget("cuda", CONVERT_ARCH, 32))
        return self.backend

    def req_convert(self, req):
        from triton._C.libtriton import nvidia

        try:
            self.stage("gluon")
            src = self.build(req["src"])
            dst = self.build(req["dst"])
            self.stage("attribute")
            sa, da = src._to_ir(self.b), dst._to_ir(self.b)
            shape, dtype = req["shape"], req["dtype"]
            st_ty, st = self.type_text(src, sa, shape, dtype)
            dt_ty, dt = self.type_text(dst, da, shape, dtype)
            self.emit({"partial": {"src_gluon": repr(src), "dst_gluon": repr(dst), "src_ttgir": st, "dst_ttgir": dt}})
            self.stage("linear_layout")
            sl, _ = self.linear_layout(src, sa, shape)
            dl, _ = self.linear_layout(dst, da, shape)
            self.emit({"partial": {"src_layout": sl, "dst_layout": dl}})
            self.stage("module")
            text = _convert_module(st_ty, dt_ty, dtype, req["num_warps"], req.get("num_ctas", 1))
            be = self.cuda_backend()
            opts = be.parse_options({"num_warps": req["num_warps"], "num_ctas": req.get("num_ctas", 1)})
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "cvt.ttgir")
                with open(path, "w") as f:
                    f.write(text)
                ctx = self.ir.context()
                self.ir.load_dialects(ctx)
                be.load_dialects(ctx)
                self.stage("allocate_shared_memory")
                mod = self.ir.parse_mlir_module(path, ctx)
                mod.context = ctx
                pm = self.ir.pass_manager(ctx)
                from triton.backends.nvidia.compiler import get_ptx_version_from_options

                ptx_version = get_ptx_version_from_options(opts, CONVERT_ARCH)
                nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, CONVERT_ARCH, ptx_version)
                pm.run(mod, "allocate_shared_memory")
                alloc_text = mod.str_nodebug() if hasattr(mod, "str_nodebug") else str(mod)
                m = re.search(r"ttg\.convert_layout %\S+ \{([^}]*)\}", alloc_text)
                attrs = dict(re.findall(r"(allocation\.\w+) = (\d+)", m.group(1))) if m else {}
                res = {
                    "ttgir_module": text,
                    "scratch_bytes": int(attrs.get("allocation.size", 0)),
                    "module_shared_bytes": mod.get_int_attr("ttg.shared"),
                    "ptx_version": ptx_version,
                }
                self.emit({"partial": dict(res)})
                self.stage("make_llir")
                mod2 = self.ir.parse_mlir_module(path, ctx)
                mod2.context = ctx
                md = {}
                llir = be.make_llir(mod2, md, opts, CONVERT_ARCH)
                res["llir_counts"] = _count_llir(llir)
                self.emit({"partial": {"llir_counts": res["llir_counts"]}})
                self.stage("make_ptx")
                ptx = be.make_ptx(llir, md, opts, CONVERT_ARCH)
                res["ptx_counts"] = _count_ptx(ptx)
            return res
        except Exception as e:
            return self.fail(e)

    def req_ttgir_layout(self, req):
        """Linear layout of one type of a TTGIR dump, resolved through Triton's own parser."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "probe.mlir")
            with open(path, "w") as f:
                f.write(req["aliases"] + "\nmodule attributes {" + req["module_attrs"] + "} {\n  tt.func @probe(%a: "
                        + req["type"] + ") { tt.return }\n}\n")
            try:
                self.stage("parse")
                mod = self.ir.parse_mlir_module(path, self.ctx)
                arg = mod.get_function("probe").args(0)
                self.stage("gluon")
                if req["type"].startswith("!ttg.memdesc"):
                    obj = self.b.get_gluon_layout_from_memdesc(arg)
                else:
                    obj = self.b.get_gluon_layout_from_tensor(arg)
                self.emit({"partial": {"gluon": repr(obj)}})
                attr = obj._to_ir(self.b)
                if isinstance(obj, self.classes["PaddedSharedLayout"]):
                    return {"layout_unavailable": "Triton 3.9 has no linear layout for padded_shared"}
                self.stage("linear_layout")
                layout, extra = self.linear_layout(obj, attr, req["shape"])
                return {"layout": layout, **extra}
            except Exception as e:
                return self.fail(e)

    def req_ttgir_dump(self, req):
        """Compile one kernel of triton_fixture_kernels.py for cuda:90 and return its TTGIR without locations."""
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        from triton.experimental.gluon._runtime import GluonASTSource
        import triton_fixture_kernels as K

        name, kind, fn, sig, consts, opts = next(k for k in K.KERNELS if k[0] == req["name"])
        src = (GluonASTSource if kind == "gluon" else ASTSource)(fn=fn, signature=sig, constexprs=consts)
        k = triton.compile(src, target=GPUTarget("cuda", CONVERT_ARCH, 32), options=opts)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "k.ttgir")
            with open(path, "w") as f:
                f.write(k.asm["ttgir"])
            mod = self.ir.parse_mlir_module(path, self.ctx)
            text = mod.str_nodebug()
        return {"ttgir": text, "kind": kind, "constexprs": consts, "options": opts, "signature": sig}

    # -- Blackwell tensor memory ---------------------------------------------------------------------------------------
    def tmem_layout(self, spec):
        from triton.experimental.gluon.language.nvidia import blackwell as bw

        cls = {"TensorMemoryLayout": bw.TensorMemoryLayout, "TensorMemoryScalesLayout": bw.TensorMemoryScalesLayout}
        params = dict(spec["params"])
        if "block" in params:
            params["block"] = tuple(params["block"])
        return cls[spec["kind"]](**params)

    def req_tmem(self, req):
        """A tensor-memory layout: its Gluon repr, TTGIR text and Triton's `row, col -> dim0, dim1` layout."""
        try:
            self.stage("gluon")
            obj = self.tmem_layout(req["layout"])
            self.emit({"partial": {"gluon": repr(obj)}})
            self.stage("attribute")
            attr = obj._to_ir(self.b)
            self.stage("ttgir")
            shape = list(req["shape"])
            ty = str(self.b.get_tensor_mem_desc_ty(self.elem_ty(req["dtype"]), shape, attr, shape))
            head, tail = "!ttg.memdesc<", ", #ttng.tensor_memory, mutable>"
            assert ty.startswith(head) and ty.endswith(tail), ty
            body = ty[len(head):-len(tail)]
            self.emit({"partial": {"ttgir": body[body.index(", ") + 2:], "type": ty}})
            self.stage("linear_layout")
            lin = self.b.to_linear_layout(attr, shape)
            in_dims = [["row", [list(map(int, v)) for v in lin.rows]], ["col", [list(map(int, v)) for v in lin.cols]]]
            out = [[f"dim{i}", int(s)] for i, s in enumerate(lin.shape)]
            return {"layout": {"in_dims": in_dims, "out_dims": out}}
        except Exception as e:
            return self.fail(e)

    def req_amd_scale(self, req):
        """An AMD block-scaled MMA scale layout (gluon_ir.get_amd_mfma_scale_layout / get_amd_wmma_scale_layout)."""
        from triton._C.libtriton import gluon_ir

        try:
            self.stage("linear_layout")
            fn = {"mfma": gluon_ir.get_amd_mfma_scale_layout, "wmma": gluon_ir.get_amd_wmma_scale_layout}[req["fn"]]
            lin = fn(*req["args"])
            self.emit({"partial": {"gluon": repr(lin)}})
            layout, _ = self.ll_json(lin, lin, lin.shape)
            return {"layout": layout}
        except Exception as e:
            return self.fail(e)

    def req_partitioned_dot(self, req):
        """amd.cdna5.make_partitioned_dot_layouts: the operands' partitioned shared layouts and the WMMA
        layout, as Gluon objects (their layouts are those of their classes, checked in encodings.json and
        amd.json; Gluon's to_linear_layout refuses most of these WMMA layouts, whose register bases are not
        the permutation its LinearEncodingAttr requires)."""
        from triton.experimental.gluon.language.amd.cdna5 import make_partitioned_dot_layouts

        try:
            self.stage("gluon")
            a, b = self.build(req["a"]), self.build(req["b"])
            sa, sb, wmma = make_partitioned_dot_layouts(req["block_m"], req["block_n"], a, b, **req["kwargs"])
            self.stage("attribute")
            for obj in (sa, sb, wmma):
                obj._to_ir(self.b)  # the attribute verifier accepts each
            return {"shared_a": repr(sa), "shared_b": repr(sb), "wmma": repr(wmma)}
        except Exception as e:
            return self.fail(e)

    def req_efficient_padded(self, req):
        """amd.cdna4.compute_efficient_padded_shared_layout(dot_operand_layout, shape, dtype, is_k_contig): the
        PaddedSharedLayout, or None where the algorithm has no answer."""
        import triton.experimental.gluon.language as gl
        from triton.experimental.gluon.language.amd import cdna4

        try:
            self.stage("gluon")
            dot = self.build(req["dot"])
            self.emit({"partial": {"dot_gluon": repr(dot)}})
            dtype = getattr(gl, req["dtype"])
            out = cdna4.compute_efficient_padded_shared_layout(dot, list(req["shape"]), dtype, req["is_k_contig"])
            return {"gluon": repr(out) if out is not None else None}
        except Exception as e:
            return self.fail(e)

    def req_upcast_scale(self, req):
        """amd.get_scaled_upcast_fp4_scale_layout for a packed-fp4 (i8) tensor in `src` (GluonOpBuilder
        .get_scaled_upcast_fp4_scale_layout on a value of that type)."""
        try:
            self.stage("gluon")
            src = self.build(req["src"])
            self.emit({"partial": {"src_gluon": repr(src)}})
            self.stage("attribute")
            b = self.b
            if not getattr(self, "_fn_ready", False):
                mod = b.create_module()
                fn = b.get_or_insert_function(mod, "probe", b.get_function_ty([], []), "public", False)
                mod.push_back(fn)
                b.set_insertion_point_to_start(fn.add_entry_block())
                self._probe_module = mod
                self._fn_ready = True
            ty = b.get_distributed_ty(b.get_int8_ty(), list(req["shape"]), src._to_ir(b))
            value = b.create_poison(ty)
            self.stage("linear_layout")
            elem = {"bf16": self.gl.bfloat16, "f16": self.gl.float16}[req["elem"]]
            lin = b.get_scaled_upcast_fp4_scale_layout(value, req["scale_extent"], elem.to_ir(b), req["axis"])
            self.emit({"partial": {"gluon": repr(lin)}})
            layout, _ = self.ll_json(lin, lin, lin.shape)
            return {"layout": layout}
        except Exception as e:
            return self.fail(e)

    def req_tmem_reg(self, req):
        """Gluon's register layout for tcgen05.ld/st of a tensor-memory descriptor (`get_reg_layout`)."""
        from triton.experimental.gluon.language._semantic import _compute_tmem_reg_layout

        try:
            self.stage("gluon")
            obj = self.tmem_layout(req["layout"])
            dt = {"i8": self.gl.int8, "f16": self.gl.float16, "bf16": self.gl.bfloat16, "f32": self.gl.float32,
                  "i32": self.gl.int32, "i16": self.gl.int16}[req["dtype"]]
            self.stage("linear_layout")
            lin = _compute_tmem_reg_layout(dt, list(req["shape"]), list(req["alloc_shape"]), obj, req["num_warps"],
                                           req["instr_variant"])
            self.emit({"partial": {"gluon": repr(lin)}})
            layout, _ = self.ll_json(lin, lin, req["shape"])
            return {"layout": layout}
        except Exception as e:
            return self.fail(e)

    def serve(self):
        for line in sys.stdin:
            req = json.loads(line)
            handler = getattr(self, "req_" + req["op"])
            try:
                res = handler(req)
            except Exception as e:  # a bug in this script, not a Triton rejection
                res = {"worker_failure": traceback.format_exc(), "error": _exc_message(e)}
            self.emit({"result": res})


_DTYPE_BITS = {"i8": 8, "i16": 16, "f16": 16, "bf16": 16, "f32": 32, "i32": 32, "f64": 64, "i64": 64}
CONVERT_ARCH = 90


def _exc_message(e):
    msg = str(e).strip()
    if not msg and isinstance(e, AssertionError):
        # Gluon's bare `assert`: report the failing source line.
        tb = traceback.extract_tb(e.__traceback__)
        msg = "assert failed: " + (tb[-1].line or "") if tb else "assert failed"
    return msg


def _convert_module(src_ty, dst_ty, dtype, num_warps, num_ctas):
    """A kernel that loads a tensor in `src_ty`, converts it to `dst_ty` and stores it.

    Splat pointers keep the global accesses trivial; the load and store keep the conversion alive.
    """
    ptr = f"!tt.ptr<{dtype}>"
    src_ptr = src_ty.replace(f"x{dtype},", f"x{ptr},", 1)
    dst_ptr = dst_ty.replace(f"x{dtype},", f"x{ptr},", 1)
    return (f'module attributes {{"ttg.num-ctas" = {num_ctas} : i32, "ttg.num-warps" = {num_warps} : i32, '
            f'ttg.target = "cuda:{CONVERT_ARCH}", "ttg.threads-per-warp" = 32 : i32}} {{\n'
            f"  tt.func public @cvt(%in: {ptr}, %out: {ptr}) {{\n"
            f"    %p0 = tt.splat %in : {ptr} -> {src_ptr}\n"
            f"    %v = tt.load %p0 : {src_ptr}\n"
            f"    %c = ttg.convert_layout %v : {src_ty} -> {dst_ty}\n"
            f"    %p1 = tt.splat %out : {ptr} -> {dst_ptr}\n"
            f"    tt.store %p1, %c : {dst_ptr}\n"
            f"    tt.return\n  }}\n}}\n")


def _count_llir(llir):
    """Static counts of the data-movement operations in the LLVM IR (one thread's code)."""
    c = {}

    def add(k, n):
        if n:
            c[k] = c.get(k, 0) + n

    add("shfl_sync", len(re.findall(r"call [^\n]*@llvm\.nvvm\.shfl\.sync", llir)))
    add("load_shared", len(re.findall(r"= load [^\n]*ptr addrspace\(3\)", llir)))
    add("store_shared", len(re.findall(r"store [^\n]*ptr addrspace\(3\)", llir)))
    add("ldmatrix", len(re.findall(r"ldmatrix", llir)))
    add("stmatrix", len(re.findall(r"stmatrix", llir)))
    add("barrier", len(re.findall(r"@llvm\.nvvm\.barrier|bar\.sync|barrier\.sync", llir)))
    return c


def _count_ptx(ptx):
    """Static counts of PTX instructions by full opcode, for the data-movement ones."""
    c = {}
    for line in ptx.splitlines():
        line = line.strip()
        if line.startswith("@"):
            line = line.split(None, 1)[1] if " " in line else ""
        op = line.split(None, 1)[0] if line else ""
        op = op.rstrip(";")
        if re.match(r"(shfl|ld\.shared|st\.shared|ldmatrix|stmatrix|bar\.|barrier\.|ld\.global|st\.global|mapa|"
                    r"fence|atom\.shared|red\.shared)", op) or "::cluster" in op:
            c[op] = c.get(op, 0) + 1
    return dict(sorted(c.items()))


# ---------------------------------------------------------------------------------------------------------------------
# Parent side: run requests in a crash-isolated worker.
# ---------------------------------------------------------------------------------------------------------------------


class Runner:

    def __init__(self, timeout=120):
        self.timeout = timeout
        self.proc = None
        self.err = None
        self.restarts = 0
        self.cache_dir = None

    def _start(self):
        self.err = tempfile.TemporaryFile(mode="w+b")
        env = dict(os.environ)
        env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
        if "TRITON_CACHE_DIR" not in env:
            if self.cache_dir is None:
                self.cache_dir = tempfile.mkdtemp(prefix="weft-fixtures-cache-")
            env["TRITON_CACHE_DIR"] = self.cache_dir
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err, env=env, bufsize=0)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None
        if self.cache_dir is not None:
            import shutil

            shutil.rmtree(self.cache_dir, ignore_errors=True)
            self.cache_dir = None

    def request(self, req):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
            self._pending = b""
        self.err.seek(0, 2)
        err_start = self.err.tell()
        self.proc.stdin.write((json.dumps(req) + "\n").encode())
        self.proc.stdin.flush()
        partial = {}
        while True:
            line = self._next_line()
            if line is None:  # the worker died: Triton aborted
                self.proc.wait()
                self.err.seek(err_start)
                stderr = self.err.read().decode(errors="replace")
                self.proc = None
                self.restarts += 1
                partial.update({"error": _crash_message(stderr), "error_type": "abort"})
                return partial
            msg = json.loads(line)
            if "partial" in msg:
                partial.update(msg["partial"])
                continue
            res = msg["result"]
            if "worker_failure" in res:
                raise RuntimeError(f"worker failed on {req}:\n{res['worker_failure']}")
            out = dict(partial)
            out.update(res)
            if "error" not in out:
                out.pop("error_stage", None)
            self.err.seek(err_start)
            diag = _diagnostics(self.err.read().decode(errors="replace"))
            if "error" in out and diag and diag not in out["error"]:
                out["diagnostics"] = diag
            return out

    def _kill(self):
        os.kill(self.proc.pid, 9)

    def _next_line(self):
        """The worker's next line, or None when it died or stayed silent for `timeout` seconds (then it is killed
        and `timed_out` says so)."""
        self.timed_out = False
        while b"\n" not in self._pending:
            r, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
            if not r:
                self.timed_out = True
                self._kill()
                return None
            ch = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not ch:
                return None
            self._pending += ch
        line, self._pending = self._pending.split(b"\n", 1)
        return line


_NOISE = re.compile(r"nanobind|leaked|skipped remainder|refleaks|UserWarning|warn_once|^\s*$|reference counting")


def _diagnostics(stderr):
    lines = [ln.strip() for ln in stderr.splitlines() if not _NOISE.search(ln)]
    return " | ".join(lines)[:2000]


def _crash_message(stderr):
    """The diagnostics Triton printed before aborting: MLIR `error:` lines, `LLVM ERROR`, the failed assertion."""
    msgs = []
    for ln in stderr.splitlines():
        if _NOISE.search(ln):
            continue
        m = re.search(r"([\w./-]+\.(?:cpp|h)):(\d+): .*?(Assertion `.*' failed\.)", ln)
        if m:
            msgs.append(f"{os.path.basename(m.group(1))}:{m.group(2)}: {m.group(3)}")
        elif "LLVM ERROR" in ln or re.search(r"\berror:", ln):
            msgs.append(ln.strip())
    if not msgs:
        msgs = [_diagnostics(stderr)[-500:] or "worker died without a message"]
    return " | ".join(msgs)


# ---------------------------------------------------------------------------------------------------------------------
# Case generation
# ---------------------------------------------------------------------------------------------------------------------


def L(kind, **params):
    return {"kind": kind, "params": params}


def blocked(spt, tpw, wpc, order, cga=None):
    p = dict(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
    if cga is not None:
        p["cga_layout"] = cga
    return L("BlockedLayout", **p)


def mma(version, wpc, instr, cga=None):
    p = dict(version=version, warps_per_cta=wpc, instr_shape=instr)
    if cga is not None:
        p["cga_layout"] = cga
    return L("NVMMADistributedLayout", **p)


def mfma(version, instr, transposed, wpc, element_bitwidth=None, tiles_per_warp=None, cga=None):
    p = dict(version=version, instr_shape=instr, transposed=transposed, warps_per_cta=wpc)
    if element_bitwidth is not None:
        p["element_bitwidth"] = element_bitwidth
    if tiles_per_warp is not None:
        p["tiles_per_warp"] = tiles_per_warp
    if cga is not None:
        p["cga_layout"] = cga
    return L("AMDMFMALayout", **p)


def wmma(version, transposed, warp_bases, reg_bases=None, instr=None, cga=None, rank=None):
    p = dict(version=version, transposed=transposed, warp_bases=warp_bases)
    if reg_bases is not None:
        p["reg_bases"] = reg_bases
    if instr is not None:
        p["instr_shape"] = instr
    if cga is not None:
        p["cga_layout"] = cga
    if rank is not None:
        p["rank"] = rank
    return L("AMDWMMALayout", **p)


def sl(dim, parent):
    return L("SliceLayout", dim=dim, parent=parent)


def dot(idx, parent, k_width):
    return L("DotOperandLayout", operand_index=idx, parent=parent, k_width=k_width)


def linear(reg, lane, warp, block, shape):
    return L("DistributedLinearLayout", reg_bases=reg, lane_bases=lane, warp_bases=warp, block_bases=block,
             shape=shape)


def swz(vec, per_phase, max_phase, order, cga=None):
    p = dict(vec=vec, per_phase=per_phase, max_phase=max_phase, order=order)
    if cga is not None:
        p["cga_layout"] = cga
    return L("SwizzledSharedLayout", **p)


def nvmma_sh(swizzle, bits, rank=2, transposed=False, fp4_padded=False, cga=None):
    p = dict(swizzle_byte_width=swizzle, element_bitwidth=bits, rank=rank, transposed=transposed,
             fp4_padded=fp4_padded)
    if cga is not None:
        p["cga_layout"] = cga
    return L("NVMMASharedLayout", **p)


def padded(pairs, offset_bases, cga, shape):
    return L("PaddedSharedLayout", interval_padding_pairs=pairs, offset_bases=offset_bases, cga_layout=cga,
             shape=shape)


def padded_identity(pairs, shape, order, cga=()):
    """PaddedSharedLayout.with_identity_for, expanded to explicit constructor arguments."""
    cga = [list(v) for v in cga]
    per_cta = list(shape)
    for d in range(len(shape)):
        m = max([v[d] for v in cga], default=0)
        per_cta[d] //= (2 * m if m else 1)
    offs = []
    for d in order:
        for i in range(per_cta[d].bit_length() - 1):
            offs.append([1 << i if j == d else 0 for j in range(len(shape))])
    return padded(pairs, offs, cga, shape)


def shared_linear(offset, block=None, alignment=None):
    p = dict(offset_bases=offset)
    if block is not None:
        p["block_bases"] = block
    if alignment is not None:
        p["alignment"] = alignment
    return L("SharedLinearLayout", **p)


def unit(rank, d, v):
    return [v if i == d else 0 for i in range(rank)]


def random_linear(rng, shape, n_lane, n_warp, n_block=0, broadcast=0):
    """A random surjective distributed linear layout onto `shape` with 2^n_lane lanes, 2^n_warp warps.

    Triton's LinearEncodingAttr verifier wants a permutation matrix once broadcast (zero) bases are removed,
    so every basis is a single power of two in a single dimension (no XOR mixing).
    """
    rank = len(shape)
    bases = [unit(rank, d, 1 << i) for d in range(rank) for i in range(shape[d].bit_length() - 1)]
    rng.shuffle(bases)
    zeros = [[0] * rank for _ in range(broadcast)]
    pool = bases + zeros
    need = n_lane + n_warp + n_block
    while len(pool) < need:
        pool.append([0] * rank)
    rng.shuffle(pool)
    lane = pool[:n_lane]
    warp = pool[n_lane:n_lane + n_warp]
    block = pool[n_lane + n_warp:need]
    reg = pool[need:]
    return linear(reg, lane, warp, block, list(shape))


def encoding_cases():
    """(layout spec, shape, note) for every layout kind."""
    rng = random.Random(SEED)
    cases = []

    def add(spec, shape, note=None, dtype=None):
        c = {"layout": spec, "shape": list(shape)}
        if note:
            c["note"] = note
        if dtype:
            c["dtype"] = dtype
        cases.append(c)

    # --- BlockedLayout -------------------------------------------------------------------------------------------
    b1 = [([1], [32], [4], [0]), ([4], [32], [1], [0]), ([8], [32], [8], [0]), ([2], [64], [4], [0])]
    for spt, tpw, wpc, order in b1:
        tile = spt[0] * tpw[0] * wpc[0]
        for s in sorted({max(tile // 4, 1), tile, tile * 4}):
            add(blocked(spt, tpw, wpc, order), [s])
    b2 = [
        ([1, 4], [8, 4], [4, 1], [1, 0]),
        ([4, 1], [4, 8], [1, 4], [0, 1]),
        ([1, 1], [32, 1], [4, 1], [0, 1]),
        ([1, 8], [4, 8], [2, 2], [1, 0]),
        ([2, 2], [4, 8], [2, 4], [0, 1]),
        ([1, 1], [1, 32], [1, 8], [1, 0]),
        ([1, 4], [16, 4], [4, 1], [1, 0]),  # 64 threads per warp (CDNA)
        ([8, 1], [8, 8], [1, 4], [0, 1]),  # 64 threads per warp (CDNA)
        ([2, 1], [2, 16], [8, 1], [1, 0]),
    ]
    for spt, tpw, wpc, order in b2:
        tile = [spt[i] * tpw[i] * wpc[i] for i in range(2)]
        shapes = [tile, [max(tile[0] // 2, 1), max(tile[1] // 4, 1)], [tile[0] * 2, tile[1] * 4], [1, tile[1]],
                  [tile[0] * 8, 2]]
        for s in shapes:
            add(blocked(spt, tpw, wpc, order), s)
    b3 = [
        ([1, 1, 4], [2, 4, 4], [2, 2, 1], [2, 1, 0]),
        ([2, 1, 1], [4, 4, 2], [1, 2, 2], [0, 1, 2]),
        ([1, 2, 2], [1, 8, 4], [4, 1, 1], [1, 2, 0]),
    ]
    for spt, tpw, wpc, order in b3:
        tile = [spt[i] * tpw[i] * wpc[i] for i in range(3)]
        for s in (tile, [max(t // 2, 1) for t in tile], [t * 2 for t in tile], [2, 8, 64]):
            add(blocked(spt, tpw, wpc, order), s)
    # multi-CTA (cga_layout: one basis per log2(num_ctas), in units of the per-CTA tile)
    for cga, shape in [([[1, 0]], [64, 64]), ([[0, 1]], [64, 128]), ([[1, 0], [0, 1]], [128, 128]),
                       ([[0, 0]], [32, 64]), ([[1, 0], [2, 0]], [256, 32]), ([[0, 1], [0, 0]], [32, 64]),
                       ([[1, 0], [0, 1]], [16, 16])]:
        add(blocked([1, 4], [8, 4], [4, 1], [1, 0], cga), shape)
    add(blocked([4], [32], [4], [0], [[1], [2]]), [2048])
    add(blocked([1, 1, 4], [2, 4, 4], [2, 2, 1], [2, 1, 0], [[0, 0, 1], [1, 0, 0]]), [8, 16, 32])
    # random valid blocked layouts
    for _ in range(30):
        rank = rng.choice([1, 2, 2, 2, 3])
        lanes = rng.choice([5, 5, 5, 6])
        warps = rng.choice([0, 1, 2, 3])

        def split(total):
            parts = [0] * rank
            for _ in range(total):
                parts[rng.randrange(rank)] += 1
            return [1 << p for p in parts]

        spt = [1 << rng.randint(0, 3) for _ in range(rank)]
        tpw, wpc = split(lanes), split(warps)
        order = list(range(rank))
        rng.shuffle(order)
        shape = [1 << rng.randint(0, 7) for _ in range(rank)]
        add(blocked(spt, tpw, wpc, order), shape, note="random")

    # --- NVMMADistributedLayout v2 (mma.sync) --------------------------------------------------------------------
    mma2_parents = []
    for wpc in ([1, 1], [2, 2], [4, 1], [1, 4], [2, 4], [8, 1]):
        p = mma([2, 0], wpc, [16, 8])
        mma2_parents.append(p)
        tile = [16 * wpc[0], 8 * wpc[1]]
        for s in (tile, [8, 8], [64, 64], [128, 256]):
            add(p, s)
    add(mma([2, 0], [2, 2, 1], [1, 16, 8]), [2, 32, 16])
    add(mma([2, 0], [1, 2, 2], [1, 16, 8]), [4, 64, 64])
    add(mma([2, 0], [2, 2], [16, 8], [[1, 0]]), [128, 64], note="multi-CTA")
    add(mma([2, 0], [2, 2], [16, 8], [[0, 1], [1, 0]]), [128, 128], note="multi-CTA")
    # --- NVMMADistributedLayout v3 (wgmma): every legal instrShape --------------------------------------------------
    for k, dt in ((16, "f16"), (8, "tf32"), (32, "i8/fp8")):
        for n in range(8, 257, 8):
            shape_n = 1 << (n - 1).bit_length()
            add(mma([3, 0], [4, 1], [16, n, k]), [64, shape_n], note=f"wgmma instr N={n} K={k} ({dt})")
    for wpc in ([8, 1], [4, 2], [16, 1]):
        for s in ([128, 128], [64, 64], [256, 256]):
            add(mma([3, 0], wpc, [16, 64, 16]), s)
    add(mma([3, 0], [4, 1], [16, 128, 16]), [32, 64], note="smaller than tile")
    add(mma([3, 0], [4, 1], [16, 128, 16], [[1, 0]]), [128, 128], note="multi-CTA")
    add(mma([3, 0], [4, 1], [16, 256, 16], [[0, 1], [1, 0]]), [256, 512], note="multi-CTA")

    # --- DotOperandLayout ------------------------------------------------------------------------------------------
    for parent in (mma([2, 0], [2, 2], [16, 8]), mma([2, 0], [4, 1], [16, 8]), mma([2, 0], [1, 4], [16, 8])):
        for idx in (0, 1):
            for kw in (1, 2, 4, 8):
                add(dot(idx, parent, kw), [64, 64])
        add(dot(0, parent, 2), [16, 16], note="smaller than tile")
        add(dot(1, parent, 2), [128, 256])
    add(dot(0, mma([2, 0], [2, 2, 1], [1, 16, 8]), 2), [2, 32, 32])
    add(dot(1, mma([2, 0], [2, 2, 1], [1, 16, 8]), 2), [2, 32, 32])
    add(dot(0, mma([2, 0], [2, 2], [16, 8], [[1, 0]]), 2), [128, 64], note="multi-CTA")
    add(dot(1, mma([2, 0], [2, 2], [16, 8], [[0, 1]]), 2), [64, 128], note="multi-CTA")
    for instr, kw in (([16, 64, 16], 2), ([16, 128, 16], 2), ([16, 64, 8], 1), ([16, 64, 32], 4), ([16, 256, 16], 2)):
        for wpc in ([4, 1], [8, 1]):
            add(dot(0, mma([3, 0], wpc, instr), kw), [64 * wpc[0] // 4 * 2, 64])
    add(dot(0, mma([3, 0], [4, 1], [16, 64, 16]), 2), [128, 128], note="larger")
    add(dot(0, mma([3, 0], [4, 1], [16, 64, 16], [[1, 0]]), 2), [128, 64], note="multi-CTA")
    for parent in (blocked([1, 4], [8, 4], [4, 1], [1, 0]), blocked([2, 2], [4, 8], [2, 2], [0, 1])):
        for idx in (0, 1):
            add(dot(idx, parent, 0), [64, 64])
            add(dot(idx, parent, 0), [16, 128])
    add(dot(0, blocked([1, 1, 4], [2, 4, 4], [2, 2, 1], [2, 1, 0]), 0), [4, 32, 32])

    # --- AMDMFMALayout ----------------------------------------------------------------------------------------------
    mfma_shapes = {
        1: [[32, 32, 8], [16, 16, 16], [32, 32, 4], [16, 16, 4], [64, 4, 4], [4, 64, 4]],
        2: [[32, 32, 8], [16, 16, 16], [32, 32, 4], [16, 16, 4], [64, 4, 4], [4, 64, 4]],
        3: [[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32], [16, 16, 4], [64, 4, 4], [4, 64, 4]],
        4: [[32, 32, 16], [16, 16, 32], [32, 32, 64], [16, 16, 128], [32, 32, 8], [16, 16, 16], [64, 4, 4]],
    }
    for version, shapes in mfma_shapes.items():
        for instr in shapes:
            for tr in (False, True):
                add(mfma(version, instr, tr, [2, 2]), [128, 128])
    for instr in ([32, 32, 8], [16, 16, 16]):
        for tpw in ([1, 1], [2, 2], [2, 1], [1, 4]):
            for tr in (False, True):
                add(mfma(3, instr, tr, [2, 2], tiles_per_warp=tpw), [128, 128])
        add(mfma(3, instr, False, [4, 1]), [16, 16], note="smaller than tile")
        add(mfma(3, instr, True, [1, 4]), [256, 64])
        add(mfma(3, instr, False, [1, 2, 2]), [2, 64, 64])
        add(mfma(3, instr, False, [2, 2], cga=[[1, 0]]), [256, 128], note="multi-CTA")
    for instr in ([16, 16, 4], [32, 32, 4]):
        for tr in (False, True):
            add(mfma(3, instr, tr, [2, 2], element_bitwidth=64), [64, 64])
            add(mfma(4, instr, tr, [2, 2], element_bitwidth=64), [128, 64])
    add(mfma(4, [16, 16, 32], False, [2, 2], 64, [2, 1]), [128, 128])

    # --- AMDWMMALayout ----------------------------------------------------------------------------------------------
    for version, instr in ((1, None), (1, [16, 16, 16]), (2, [16, 16, 16]), (3, [16, 16, 32]), (3, [16, 16, 64]),
                           (3, [16, 16, 128]), (3, [16, 16, 4]), (3, [32, 16, 128]), (2, [16, 16, 32])):
        for tr in (False, True):
            add(wmma(version, tr, [[0, 1], [1, 0]], instr=instr), [64, 64])
    add(wmma(2, False, [[1, 0], [2, 0]], instr=[16, 16, 16]), [128, 32])
    add(wmma(2, True, [[0, 1]], reg_bases=[[1, 0]], instr=[16, 16, 16]), [32, 64])
    add(wmma(3, False, [[0, 1], [1, 0]], reg_bases=[[0, 2]], instr=[16, 16, 32]), [32, 128])
    add(wmma(3, False, [[0, 1], [1, 0]], instr=[16, 16, 32]), [8, 8], note="smaller than tile")
    add(wmma(2, False, [[0, 1], [0, 0]], instr=[16, 16, 16]), [32, 32], note="broadcast warp")
    add(wmma(2, False, [[0, 1, 0], [1, 0, 0]], instr=[16, 16, 16], rank=3), [2, 32, 32])
    add(wmma(3, False, [[0, 1], [1, 0]], instr=[16, 16, 32], cga=[[1, 0]]), [64, 32], note="multi-CTA")

    # --- SliceLayout ------------------------------------------------------------------------------------------------
    for parent, pshape in (
        (blocked([1, 4], [8, 4], [4, 1], [1, 0]), [64, 64]),
        (blocked([4, 1], [4, 8], [1, 4], [0, 1]), [32, 128]),
        (blocked([1, 4], [8, 4], [4, 1], [1, 0], [[1, 0]]), [64, 64]),
        (mma([2, 0], [2, 2], [16, 8]), [64, 64]),
        (mma([3, 0], [4, 1], [16, 64, 16]), [128, 64]),
        (mma([3, 0], [4, 2], [16, 128, 16]), [128, 256]),
        (mfma(3, [32, 32, 8], True, [2, 2]), [64, 64]),
        (mfma(4, [16, 16, 32], False, [4, 1]), [64, 64]),
        (wmma(2, False, [[0, 1], [1, 0]], instr=[16, 16, 16]), [64, 64]),
        (dot(0, mma([2, 0], [2, 2], [16, 8]), 2), [64, 64]),
        (linear([[0, 1], [4, 0]], [[0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], [[8, 0], [0, 16]], [], [16, 32]),
         [16, 32]),
    ):
        for dim in (0, 1):
            for s in (pshape[1 - dim], pshape[1 - dim] // 8, pshape[1 - dim] * 4):
                add(sl(dim, parent), [s])
    b3p = blocked([1, 2, 2], [1, 8, 4], [4, 1, 1], [1, 2, 0])
    for dim in (0, 1, 2):
        add(sl(dim, b3p), [16, 64] if dim != 2 else [4, 32])
    add(sl(0, sl(1, b3p)), [32], note="nested slice")

    # --- DistributedLinearLayout -----------------------------------------------------------------------------------
    add(linear([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[8, 0]], [], [16, 8]), [16, 8])
    add(linear([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[8, 0]], [], [16, 8]), [64, 64], note="larger")
    add(linear([[0, 1], [0, 2]], [[0, 0], [0, 4], [1, 0], [2, 0], [4, 0]], [[8, 0], [0, 0]], [], [16, 8]), [16, 8],
        note="broadcast lane and warp")
    add(linear([[1], [2]], [[4], [8], [16], [32], [64]], [[128]], [[256]], [512]), [512], note="multi-CTA")
    for _ in range(24):
        rank = rng.choice([1, 2, 2, 3])
        shape = [1 << rng.randint(1 if rank > 1 else 5, 6) for _ in range(rank)]
        total = sum(s.bit_length() - 1 for s in shape)
        n_lane = 5
        n_warp = rng.randint(0, 3)
        n_block = rng.choice([0, 0, 1])
        bc = rng.randint(0, 2) + max(0, n_lane + n_warp + n_block - total)
        spec = random_linear(rng, shape, n_lane, n_warp, n_block, broadcast=bc)
        add(spec, shape, note="random")
        if rng.random() < 0.3:
            add(spec, [s * 2 for s in shape], note="random, larger shape")

    # --- SwizzledSharedLayout -------------------------------------------------------------------------------------
    for vec, pp, mp in ((1, 1, 1), (8, 1, 8), (8, 2, 4), (4, 4, 2), (2, 1, 16), (16, 1, 8), (8, 4, 2)):
        for order in ([1, 0], [0, 1]):
            for s in ([64, 64], [16, 128], [8, 8]):
                add(swz(vec, pp, mp, order), s)
    add(swz(4, 1, 1, [0]), [256])
    add(swz(8, 2, 4, [2, 1, 0]), [2, 32, 64])
    add(swz(8, 1, 8, [0, 2, 1]), [4, 64, 16])
    add(swz(8, 2, 4, [1, 0], [[1, 0]]), [128, 64], note="multi-CTA")
    add(swz(8, 2, 4, [1, 0], [[0, 1], [0, 0]]), [64, 128], note="multi-CTA broadcast")

    # --- NVMMASharedLayout ------------------------------------------------------------------------------------------
    for bits, dt in ((8, "i8"), (16, "f16"), (32, "f32")):
        for swizzle in (0, 32, 64, 128):
            for tr in (False, True):
                for s in ([64, 128], [128, 64], [8, 16], [256, 32]):
                    add(nvmma_sh(swizzle, bits, transposed=tr), s, dtype=dt)
    for s in ([64, 64], [128, 128], [32, 256]):
        for tr in (False, True):
            add(nvmma_sh(128, 8, fp4_padded=True, transposed=tr), s, dtype="i8")
    add(nvmma_sh(128, 16, rank=3), [2, 64, 64], dtype="f16")
    add(nvmma_sh(64, 16, rank=3, transposed=True), [4, 32, 64], dtype="f16")
    add(nvmma_sh(128, 16, cga=[[1, 0]]), [128, 64], dtype="f16", note="multi-CTA")
    add(nvmma_sh(128, 16, cga=[[0, 1], [1, 0]]), [128, 128], dtype="f16", note="multi-CTA")
    add(nvmma_sh(128, 16, rank=1), [256], dtype="f16")
    add(nvmma_sh(0, 64), [32, 32], dtype="f64")

    # --- PaddedSharedLayout -----------------------------------------------------------------------------------------
    for pairs in ([[32, 4]], [[64, 8]], [[32, 4], [128, 8]], [[16, 1]]):
        for order in ([1, 0], [0, 1]):
            add(padded_identity(pairs, [64, 64], order), [64, 64])
    add(padded_identity([[8, 1]], [256], [0]), [256])
    add(padded_identity([[64, 4]], [2, 32, 64], [2, 1, 0]), [2, 32, 64])
    add(padded([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4]), [8, 4], note="docstring example")
    add(padded([[2, 2]], [[2], [1], [4]], [], [8]), [8], note="permuted offsets")
    add(padded_identity([[32, 4]], [128, 64], [1, 0], cga=[[1, 0]]), [128, 64], note="multi-CTA")

    # --- SharedLinearLayout -----------------------------------------------------------------------------------------
    add(shared_linear([[0, 1], [0, 2], [1, 0], [2, 0]]), [4, 4])
    add(shared_linear([[0, 1], [0, 2], [0, 4], [1, 1], [2, 2], [4, 4]], alignment=128), [8, 8])
    add(shared_linear([[1], [2], [4], [8]], block=[[16]], alignment=1024), [32], note="multi-CTA")
    add(shared_linear([[0, 1, 0], [0, 2, 0], [0, 0, 1], [1, 0, 0], [0, 0, 2]]), [2, 4, 4])
    for _ in range(6):
        shape = [1 << rng.randint(1, 5), 1 << rng.randint(1, 5)]
        bases = [unit(2, d, 1 << i) for d in range(2) for i in range(shape[d].bit_length() - 1)]
        rng.shuffle(bases)
        for i in range(1, len(bases)):
            if rng.random() < 0.3:
                j = rng.randrange(i)
                bases[i] = [a ^ b for a, b in zip(bases[i], bases[j])]
        add(shared_linear(bases, alignment=rng.choice([16, 128, 1024])), shape, note="random")
    return cases


def encoding_error_cases():
    """Parameter sets Triton is expected to reject (whatever Triton says is recorded)."""
    e = []

    def add(spec, shape, why):
        e.append({"layout": spec, "shape": shape, "note": why})

    add(blocked([1, 4], [8, 4], [4, 1], [0, 0]), [64, 64], "order not a permutation")
    add(blocked([1, 4], [8, 4], [4, 1], [2, 0]), [64, 64], "order out of range")
    add(blocked([1, 3], [8, 4], [4, 1], [1, 0]), [64, 64], "size_per_thread not a power of two")
    add(blocked([1, 4], [8, 3], [4, 1], [1, 0]), [64, 64], "threads_per_warp not a power of two")
    add(blocked([1, 4], [8, 4], [3, 1], [1, 0]), [64, 64], "warps_per_cta not a power of two")
    add(blocked([1, 4], [8, 4], [4], [1, 0]), [64, 64], "rank mismatch")
    add(blocked([1, 4], [8, 4], [4, 1], [1, 0], [[1]]), [64, 64], "cga_layout basis rank")
    add(blocked([1, 4], [8, 4], [4, 1], [1, 0], [[3, 0]]), [64, 64], "cga_layout basis not a power of two")
    add(blocked([1, 4], [8, 4], [4, 1], [1, 0]), [48, 64], "shape not a power of two")
    add(sl(2, blocked([1, 4], [8, 4], [4, 1], [1, 0])), [64], "slice dim out of range")
    add(sl(0, blocked([4], [32], [4], [0])), [1], "slice of a rank-1 parent")
    add(mma([1, 0], [2, 2], [16, 8]), [64, 64], "mma version 1")
    add(mma([4, 0], [2, 2], [16, 8]), [64, 64], "mma version 4")
    add(mma([3, 0], [4, 1], [16, 60, 16]), [64, 64], "wgmma N not a multiple of 8")
    add(mma([3, 0], [4, 1], [16, 264, 16]), [64, 512], "wgmma N above 256")
    add(mma([3, 0], [4, 1], [32, 64, 16]), [64, 64], "wgmma M not 16")
    add(mma([3, 0], [2, 1], [16, 64, 16]), [64, 64], "wgmma needs a warpgroup (4 warps)")
    add(mma([2, 0], [2, 2], [16, 16]), [64, 64], "mma v2 instr shape")
    add(mma([2, 0], [3, 1], [16, 8]), [64, 64], "mma warps not a power of two")
    add(dot(1, mma([3, 0], [4, 1], [16, 64, 16]), 2), [64, 64], "wgmma B operand in registers")
    add(dot(2, mma([2, 0], [2, 2], [16, 8]), 2), [64, 64], "operand index 2")
    add(dot(0, mma([2, 0], [2, 2], [16, 8]), 0), [64, 64], "k_width 0 with an MMA parent")
    add(dot(0, blocked([1, 4], [8, 4], [4, 1], [1, 0]), 2), [64, 64], "k_width with a blocked parent")
    add(dot(0, sl(0, blocked([1, 4], [8, 4], [4, 1], [1, 0])), 0), [64], "dot operand of a slice parent")
    add(mfma(5, [32, 32, 8], False, [2, 2]), [64, 64], "mfma version 5")
    add(mfma(0, [32, 32, 8], False, [2, 2]), [64, 64], "mfma version 0")
    add(mfma(3, [8, 8, 4], False, [2, 2]), [64, 64], "mfma instr shape 8x8")
    add(mfma(3, [4, 4, 4], False, [2, 2]), [64, 64], "mfma instr shape 4x4")
    add(mfma(3, [32, 32], False, [2, 2]), [64, 64], "mfma instr shape without K")
    add(mfma(3, [32, 32, 8], False, [2, 2], element_bitwidth=16), [64, 64], "mfma element bitwidth 16")
    add(mfma(3, [32, 32, 8], False, [2, 2], element_bitwidth=64), [64, 64], "f64 mfma with 32x32x8")
    add(mfma(3, [32, 32, 8], False, [3, 1]), [64, 64], "mfma warps not a power of two")
    add(wmma(4, False, [[0, 1], [1, 0]]), [64, 64], "wmma version 4")
    add(wmma(0, False, [[0, 1], [1, 0]]), [64, 64], "wmma version 0")
    add(wmma(3, False, [[0, 1], [1, 0]]), [64, 64], "wmma v3 with the default 16x16x16 instr shape")
    add(wmma(1, False, [[0, 1], [1, 0]], instr=[16, 16, 32]), [64, 64], "wmma v1 instr shape")
    add(wmma(2, False, [[0, 1, 0]]), [64, 64], "wmma warp basis rank")
    add(wmma(2, False, [[0, 3]], instr=[16, 16, 16]), [64, 64], "wmma warp basis not a power of two")
    add(linear([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0]], [[8, 0]], [], [16, 8]), [16, 8],
        "linear: only 16 lanes")
    add(linear([[0, 3]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[8, 0]], [], [16, 8]), [16, 8],
        "linear: basis not a power of two / not surjective")
    add(linear([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0]], [], [16, 8]), [16, 8],
        "linear: basis outside the shape")
    add(linear([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [], [], [16, 8]), [16, 8],
        "linear: not surjective")
    add(linear([[1, 1], [0, 2]], [[0, 0], [0, 4], [1, 0], [2, 0], [4, 0]], [[8, 0], [0, 0]], [], [16, 8]), [16, 8],
        "linear: register basis moves in two dims (xor)")
    add(linear([[0, 1], [0, 2]], [[0, 4], [1, 0], [2, 0], [4, 0], [8, 0]], [[3, 0]], [], [16, 8]), [16, 8],
        "linear: warp basis not a permutation")
    add(swz(3, 1, 1, [1, 0]), [64, 64], "swizzled vec 3")
    add(swz(8, 1, 8, [0, 0]), [64, 64], "swizzled order not a permutation")
    add(swz(8, 3, 8, [1, 0]), [64, 64], "swizzled per_phase 3")
    add(nvmma_sh(96, 16), [64, 64], "nvmma swizzle 96")
    add(nvmma_sh(128, 4), [64, 64], "nvmma element bitwidth 4")
    add(nvmma_sh(64, 8, fp4_padded=True), [64, 64], "fp4_padded with 64B swizzle")
    add(nvmma_sh(128, 16, fp4_padded=True), [64, 64], "fp4_padded with 16-bit elements")
    add(nvmma_sh(128, 16, rank=2, cga=[[1, 0, 0]]), [64, 64], "nvmma cga rank")
    add(padded([[32, 4], [32, 8]], [[0, 1], [0, 2]], [], [4, 4]), [4, 4], "padded: repeated interval")
    add(padded([[24, 4]], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4]), [4, 4], "padded: interval not a power of two")
    add(padded([[32, 3]], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4]), [4, 4], "padded: padding not a power of two")
    add(padded([], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4]), [4, 4], "padded: no interval")
    add(padded([[32, 4]], [[0, 1], [0, 2], [1, 0]], [], [4, 4]), [4, 4], "padded: offsets do not cover the shape")
    add(shared_linear([[0, 1], [0, 2], [1, 0], [2, 0]], alignment=24), [4, 4], "shared linear alignment 24")
    add(shared_linear([]), [4, 4], "shared linear without bases")
    add(shared_linear([[0, 1], [0, 1], [1, 0], [2, 0]]), [4, 4], "shared linear not injective")
    add(shared_linear([[0, 3], [1, 0]]), [2, 4], "shared linear basis not a power of two")
    return e


# ---------------------------------------------------------------------------------------------------------------------
# Drivers
# ---------------------------------------------------------------------------------------------------------------------


def _dumps(obj, indent=0):
    """JSON with one key per line, but bases, shapes and other lists of numbers kept on one line."""

    def flat(o):
        return not isinstance(o, (dict, list)) or (isinstance(o, list) and all(
            not isinstance(x, dict) and (not isinstance(x, list) or all(not isinstance(y, (dict, list)) for y in x))
            for x in o))

    pad = " " * (indent + 1)
    if isinstance(obj, dict) and obj:
        items = [f"{pad}{json.dumps(k)}: {_dumps(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(obj, list) and obj and not flat(obj):
        if all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) for x in obj):  # [[name, bases], ...]
            return json.dumps(obj)
        items = [pad + _dumps(v, indent + 1) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    return json.dumps(obj)


def _write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(_dumps(obj))
        f.write("\n")


def run_encodings(runner, out_dir):
    valid = encoding_cases()
    invalid = encoding_error_cases()
    results = []
    for i, case in enumerate(valid + invalid):
        req = {"op": "encoding", "layout": case["layout"], "shape": case["shape"]}
        if "dtype" in case:
            req["dtype"] = case["dtype"]
        r = runner.request(req)
        rec = {"id": i, "kind": case["layout"]["kind"], "params": case["layout"]["params"], "shape": case["shape"]}
        if "note" in case:
            rec["note"] = case["note"]
        if "dtype" in case:
            rec["dtype"] = case["dtype"]
        rec["listed_invalid"] = i >= len(valid)
        for k in ("gluon", "ttgir", "type", "layout", "layout_unavailable", "alignment", "error", "error_stage",
                  "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        if "layout" in r:
            dims = dict((n, len(b)) for n, b in r["layout"]["in_dims"])
            if "lane" in dims:
                rec["threads_per_warp"] = 1 << dims["lane"]
                rec["num_warps"] = 1 << dims["warp"]
            rec["num_ctas"] = 1 << dims.get("block", 0)
        results.append(rec)
        _progress("encodings", i + 1, len(valid) + len(invalid))
    doc = {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": ENCODING_FIELDS,
        "cases": results,
    }
    _write_json(os.path.join(out_dir, "encodings.json"), doc)
    n_err = sum(1 for r in results if "error" in r)
    print(f"\nencodings: {len(results)} cases, {n_err} errors, {runner.restarts} worker restarts", file=sys.stderr)
    return results


ENCODING_FIELDS = {
    "id": "case number",
    "kind": "Gluon layout class name",
    "params": "Gluon constructor keyword arguments (nested layouts as {kind, params})",
    "shape": "tensor shape given to Triton's toLinearLayout",
    "dtype": "element type used to print the type (shared layouts; absent: f32 distributed, f16 shared)",
    "note": "why the case is here",
    "listed_invalid": "true for parameter sets the generator lists as invalid; Triton's verdict is whether 'error' is present",
    "gluon": "repr() of the Gluon object Triton's Python front end built (all fields, defaults included)",
    "ttgir": "the attribute text Triton prints (parents inline)",
    "type": "the full tensor<...> / !ttg.memdesc<...> type text",
    "layout": "Triton's linear layout: {in_dims: [[name, bases]], out_dims: [[name, size]]}",
    "layout_unavailable": "why there is no layout although Triton accepted the parameters (padded_shared)",
    "alignment": "shared layouts: alignment Triton reports (bytes)",
    "threads_per_warp, num_warps, num_ctas": "distributed layouts: 2^(number of lane / warp / block bases)",
    "error": "Triton's message when it rejected the case (exception text, or the diagnostics printed before an abort)",
    "error_stage": "gluon (Python constructor) | attribute (MLIR attribute verifier) | ttgir | linear_layout",
    "error_type": "Python exception type, or 'abort' when Triton killed the process (C++ assert / LLVM ERROR)",
}


# --- TTGIR dumps -----------------------------------------------------------------------------------------------------

def _balanced(text, i):
    """Index just past the `>` closing the `<` at text[i - 1], skipping nested <>, {}, [] and ()."""
    depth = 1
    while depth:
        ch = text[i]
        if ch in "<{[(":
            depth += 1
        elif ch in ">}])" and not (ch == ">" and text[i - 1] == "-"):
            depth -= 1
        i += 1
    return i


def _split_top(body):
    """Split at top-level ", "."""
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch in "<{[(":
            depth += 1
        elif ch in ">}])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def _ttgir_types(text):
    """(encoding text, shape, full type) for every tensor<...> / !ttg.memdesc<...> type with an encoding."""
    found = {}
    for m in re.finditer(r"(tensor|!ttg\.memdesc)<", text):
        end = _balanced(text, m.end())
        ty = text[m.start():end]
        parts = _split_top(ty[m.end() - m.start():-1])
        if len(parts) < 2 or not parts[1].startswith("#"):
            continue
        dims = parts[0].split("x")
        shape = [int(d) for d in dims if d.isdigit()]
        if len(shape) != len(dims) - 1:  # dynamic dims or odd element type: skip
            continue
        found.setdefault((parts[1], tuple(shape)), ty)
    return [(e, list(s), t) for (e, s), t in sorted(found.items())]


def run_ttgir(runner, out_dir):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import triton_fixture_kernels as K

    ttgir_dir = os.path.join(out_dir, "ttgir")
    os.makedirs(ttgir_dir, exist_ok=True)
    files = {}
    for name, *_ in K.KERNELS:
        if not name.endswith("_sm90"):  # the other kernels are triton_dumps.py's (several targets)
            continue
        r = runner.request({"op": "ttgir_dump", "name": name})
        if "error" in r:
            print(f"ttgir {name}: {r['error']}", file=sys.stderr)
            continue
        fname = f"{name}.mlir"
        with open(os.path.join(ttgir_dir, fname), "w") as f:
            f.write(r["ttgir"])
        text = r["ttgir"]
        alias_lines = [ln for ln in text.splitlines() if re.match(r"#\w+ = ", ln)]
        aliases = {ln.split(" = ", 1)[0]: ln.split(" = ", 1)[1] for ln in alias_lines}
        mattrs = re.search(r"^module attributes \{(.*)\} \{$", text, re.M).group(1)
        items = [{"encoding": e, "shape": s, "type": t} for e, s, t in _ttgir_types(text)]
        layouts = []
        for it in items:
            lr = runner.request({"op": "ttgir_layout", "aliases": "\n".join(alias_lines), "module_attrs": mattrs,
                                 "type": it["type"], "shape": it["shape"]})
            enc = it["encoding"]
            rec = {"encoding": enc, "attribute": aliases.get(enc, enc), "shape": it["shape"], "type": it["type"]}
            if enc in aliases:
                rec["alias"] = enc
            for k in ("gluon", "layout", "layout_unavailable", "alignment", "error", "error_stage", "error_type"):
                if k in lr:
                    rec[k] = lr[k]
            if "error" in lr and it["type"].startswith("!ttg.memdesc") and len(it["shape"]) > 2:
                rec["note"] = ("a lower-rank shared encoding on a multi-buffer allocation: Triton applies it per "
                               "buffer (trailing dims, see the entry of the indexed memdesc); toLinearLayout on the "
                               "full shape aborts")
            layouts.append(rec)
        files[fname] = {"kernel": name, "source": r["kind"], "constexprs": r["constexprs"], "options": r["options"],
                        "target": f"cuda:{CONVERT_ARCH}", "aliases": aliases, "layouts": layouts}
    _write_json(os.path.join(out_dir, "ttgir_layouts.json"), {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": {
            "aliases": "every `#name = <attribute>` line of the dump",
            "layouts": "one entry per (encoding, shape) of a tensor<...> or !ttg.memdesc<...> type in the dump; "
                       "encoding: as written in the type (an alias such as #blocked, or inline text such as "
                       "#ttg.slice<{dim = 1, parent = #blocked}> that refers to aliases); alias: set when the "
                       "encoding is an alias; attribute: the alias's definition (or the inline text); type: the "
                       "first type seen; gluon: repr of the layout Triton parsed; layout: Triton's linear layout "
                       "for `shape` (memdesc: the memdesc shape, not the allocation shape)",
        },
        "files": files,
    })
    print(f"ttgir: {len(files)} dumps", file=sys.stderr)


# --- conversions -----------------------------------------------------------------------------------------------------


def conversion_pairs():
    """(src, dst, shape, num_warps, note) pairs of distributed layouts of one shape, for cuda:90."""
    rng = random.Random(SEED + 1)
    P = []

    def add(src, dst, shape, nw=4, note=None, ctas=1):
        P.append({"src": src, "dst": dst, "shape": shape, "num_warps": nw, "note": note, "num_ctas": ctas})

    B = blocked
    b_row = B([1, 4], [8, 4], [4, 1], [1, 0])
    b_col = B([4, 1], [4, 8], [1, 4], [0, 1])
    b_row8 = B([1, 8], [4, 8], [4, 1], [1, 0])
    b_rows = B([1, 1], [1, 32], [4, 1], [1, 0])
    b_cols = B([1, 1], [32, 1], [1, 4], [0, 1])
    b_sq = B([2, 2], [4, 8], [2, 2], [1, 0])
    # blocked <-> blocked
    add(b_row, b_row, [64, 64], note="identical")
    add(b_row, b_col, [64, 64], note="transpose of the thread order")
    add(b_row, b_row8, [64, 64], note="vector width 4 -> 8")
    add(b_rows, b_cols, [128, 128])
    add(b_sq, b_row, [32, 64])
    add(B([1, 4], [8, 4], [4, 1], [1, 0]), B([1, 4], [8, 4], [2, 2], [1, 0]), [64, 64], note="warps move")
    add(B([1, 1], [32, 1], [4, 1], [1, 0]), B([1, 1], [32, 1], [4, 1], [0, 1]), [128, 1], note="order only (1 col)")
    add(B([2, 1], [32, 1], [4, 1], [0, 1]), B([1, 2], [32, 1], [4, 1], [1, 0]), [256, 2], note="register swap")
    add(B([1, 2], [1, 32], [4, 1], [1, 0]), B([1, 2], [2, 16], [4, 1], [1, 0]), [8, 64], note="lanes move")
    add(B([1, 1], [2, 16], [4, 1], [1, 0]), B([1, 1], [16, 2], [4, 1], [1, 0]), [32, 32], note="lanes transpose")
    add(B([4], [32], [4], [0]), B([1], [32], [4], [0]), [512], note="1-D vector 4 -> 1")
    add(B([1], [32], [4], [0]), B([1], [32], [4], [0]), [64], note="1-D broadcast identical")
    add(B([1, 1, 4], [2, 4, 4], [2, 2, 1], [2, 1, 0]), B([4, 1, 1], [4, 4, 2], [1, 2, 2], [0, 1, 2]), [8, 16, 16])
    add(B([1, 4], [8, 4], [4, 1], [1, 0]), B([1, 4], [8, 4], [4, 1], [1, 0]), [16, 16], note="smaller than tile")
    add(B([1, 4], [8, 4], [8, 1], [1, 0]), B([4, 1], [4, 8], [1, 8], [0, 1]), [128, 128], nw=8)
    # blocked <-> slice (rank 1)
    add(sl(1, b_row), B([1], [32], [4], [0]), [64])
    add(B([1], [32], [4], [0]), sl(0, b_row), [64])
    add(sl(0, b_row), sl(1, b_col), [128])
    add(sl(1, b_row), sl(1, b_col), [64])
    add(sl(0, B([1, 4], [8, 4], [4, 1], [1, 0])), B([4], [32], [4], [0]), [512])
    # MMA v2 / v3 <-> blocked
    m2 = mma([2, 0], [2, 2], [16, 8])
    m2b = mma([2, 0], [4, 1], [16, 8])
    m3 = mma([3, 0], [4, 1], [16, 64, 16])
    m3b = mma([3, 0], [4, 1], [16, 128, 16])
    m3w8 = mma([3, 0], [8, 1], [16, 128, 16])
    for m, shape in ((m2, [64, 64]), (m2b, [64, 32]), (m3, [64, 64]), (m3b, [128, 128]), (m3, [128, 64])):
        add(m, b_row, shape)
        add(b_row, m, shape)
        add(m, b_row8, shape)
        add(m, b_rows, shape)
    add(m3w8, B([1, 8], [4, 8], [8, 1], [1, 0]), [128, 128], nw=8)
    add(m2, m2b, [64, 64], note="mma v2 warps change")
    add(m3, m3b, [64, 128], note="mma v3 instr N 64 -> 128")
    add(sl(1, m3), B([1], [32], [4], [0]), [64], note="slice of wgmma acc")
    add(sl(0, m2), sl(0, b_row), [64])
    # dot operand <-> blocked, mma -> dot operand
    for idx, kw in ((0, 2), (1, 2), (0, 4), (1, 4), (0, 8)):
        add(b_row, dot(idx, m2, kw), [64, 64])
        add(dot(idx, m2, kw), b_row, [64, 64])
    add(m2, dot(0, m2, 2), [64, 64], note="mma v2 acc -> A operand (chained dot)")
    add(m3, dot(0, m3, 2), [64, 64], note="wgmma acc -> register A operand")
    add(b_row, dot(0, m3, 2), [64, 64])
    add(b_row, dot(0, B([1, 4], [8, 4], [4, 1], [1, 0]), 0), [64, 64], note="FMA dot operand")
    add(dot(1, B([4, 1], [4, 8], [1, 4], [0, 1]), 0), b_col, [64, 64], note="FMA dot operand")
    # linear layouts: hand-made register / lane permutations and random pairs
    lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    add(linear([[0, 1], [8, 0]], lane, [[16, 0], [32, 0]], [], [64, 8]),
        linear([[8, 0], [0, 1]], lane, [[16, 0], [32, 0]], [], [64, 8]), [64, 8], note="register permutation")
    add(linear([[0, 1], [8, 0]], lane, [[16, 0], [32, 0]], [], [64, 8]),
        linear([[0, 1], [1, 0]], [[0, 2], [0, 4], [8, 0], [2, 0], [4, 0]], [[16, 0], [32, 0]], [], [64, 8]),
        [64, 8], note="register <-> lane swap")
    add(linear([[0, 1], [8, 0]], lane, [[16, 0], [32, 0]], [], [64, 8]),
        linear([[0, 1], [8, 0]], [[0, 2], [0, 4], [1, 0], [2, 0], [16, 0]], [[4, 0], [32, 0]], [], [64, 8]),
        [64, 8], note="lane <-> warp swap")
    add(linear([[0, 1], [0, 0]], lane, [[8, 0], [0, 0]], [], [16, 8]), linear([[0, 1]], [[0, 2], [0, 4], [1, 0],
        [2, 0], [4, 0]], [[8, 0], [0, 0]], [], [16, 8]), [16, 8], note="register broadcast dropped")
    for _ in range(20):
        shape = rng.choice([[64, 64], [32, 128], [128, 16], [16, 16], [256]])
        nw = rng.choice([1, 2, 3])
        a = random_linear(rng, shape, 5, nw, 0, broadcast=rng.randint(0, 1))
        bl = random_linear(rng, shape, 5, nw, 0, broadcast=rng.randint(0, 1))
        if rng.random() < 0.3:  # keep lanes and warps, permute registers only
            bl = json.loads(json.dumps(a))
            rng.shuffle(bl["params"]["reg_bases"])
        add(a, bl, shape, nw=1 << nw, note="random linear")
    # warp-local: same warp bases, register and lane bases shuffled together (shuffle candidates)
    for _ in range(12):
        shape = rng.choice([[64, 64], [32, 32], [16, 64], [128]])
        a = random_linear(rng, shape, 5, 2, 0)
        pa = a["params"]
        regs_lanes = pa["reg_bases"] + pa["lane_bases"]
        rng.shuffle(regs_lanes)
        n_reg = len(pa["reg_bases"])
        bl = linear(regs_lanes[:n_reg], regs_lanes[n_reg:], pa["warp_bases"], [], pa["shape"])
        add(a, bl, shape, nw=4, note="random warp-local (same warp bases)")
    add(B([1, 2], [32, 1], [4, 1], [1, 0]), B([2, 1], [16, 2], [4, 1], [1, 0]), [128, 2], note="warp-local")
    add(B([4, 1], [8, 4], [4, 1], [0, 1]), B([1, 4], [32, 1], [4, 1], [1, 0]), [128, 4], note="warp-local")
    # multi-CTA (cluster of 2) on sm_90
    add(B([1, 4], [8, 4], [4, 1], [1, 0], [[1, 0]]), B([1, 4], [8, 4], [4, 1], [1, 0], [[0, 1]]), [64, 64],
        note="cross-CTA: CTA split dim 0 -> dim 1", ctas=2)
    add(B([1, 4], [8, 4], [4, 1], [1, 0], [[1, 0]]), B([4, 1], [4, 8], [1, 4], [0, 1], [[1, 0]]), [64, 64],
        note="same CTA split, intra-CTA conversion", ctas=2)
    add(B([1, 4], [8, 4], [4, 1], [1, 0], [[0, 0]]), B([1, 4], [8, 4], [4, 1], [1, 0], [[1, 0]]), [64, 64],
        note="broadcast across CTAs -> split", ctas=2)
    return P


def run_conversions(runner, out_dir):
    pairs = conversion_pairs()
    dtypes = ["f16", "f32", "i8"]
    out = []
    n = len(pairs) * len(dtypes)
    for i, p in enumerate(pairs):
        for dt in dtypes:
            req = {"op": "convert", "src": p["src"], "dst": p["dst"], "shape": p["shape"], "dtype": dt,
                   "num_warps": p["num_warps"], "num_ctas": p["num_ctas"]}
            r = runner.request(req)
            rec = {"id": len(out), "src": p["src"], "dst": p["dst"], "shape": p["shape"], "dtype": dt,
                   "num_warps": p["num_warps"], "num_ctas": p["num_ctas"], "target": f"cuda:{CONVERT_ARCH}"}
            if p["note"]:
                rec["note"] = p["note"]
            for k in ("src_gluon", "dst_gluon", "src_ttgir", "dst_ttgir", "src_layout", "dst_layout", "scratch_bytes",
                      "module_shared_bytes", "llir_counts", "ptx_counts", "error", "error_stage", "error_type",
                      "diagnostics"):
                if k in r:
                    rec[k] = r[k]
            if "ptx_counts" in r:
                rec["decision"] = _decision(r)
            out.append(rec)
            _progress("conversions", len(out), n)
    _write_json(os.path.join(out_dir, "conversions.json"), {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": CONVERSION_FIELDS,
        "cases": out,
    })
    print(f"\nconversions: {len(out)} cases, {sum('error' in r for r in out)} errors", file=sys.stderr)


CONVERSION_FIELDS = {
    "src, dst": "the two layouts as {kind, params} (Gluon constructor arguments)",
    "src_gluon, dst_gluon, src_ttgir, dst_ttgir": "their Gluon repr and TTGIR attribute text",
    "src_layout, dst_layout": "Triton's linear layouts for `shape`",
    "shape, dtype, num_warps, num_ctas, target": "the tensor and the module the conversion was compiled in",
    "scratch_bytes": "allocation.size Triton's allocate-shared-memory pass (cuda:90) gave the ttg.convert_layout "
                     "(0: no scratch)",
    "module_shared_bytes": "the module's ttg.shared after that pass",
    "llir_counts": "static counts in the LLVM IR after make_llir (one thread's code): shfl_sync, load_shared / "
                   "store_shared (addrspace 3), ldmatrix, stmatrix, barrier; absent keys are 0",
    "ptx_counts": "static counts of PTX opcodes after make_ptx (shfl.*, ld/st.shared.*, ldmatrix.*, stmatrix.*, "
                  "bar.*, barrier.*, ld/st.global.*, mapa, *::cluster); absent keys are 0. ld/st.global come from "
                  "the test harness (load of the source, store of the result), not from the conversion",
    "decision": "derived from the lowering: cross_cta (cluster shared memory used), shared_memory (ld/st.shared, "
                "ldmatrix or stmatrix in the PTX), warp_shuffle (shfl), noop (src and dst linear layouts equal), "
                "else register_permute",
    "error, error_stage, error_type": "when Triton failed on the case (error_type 'abort': the process died)",
}


def _decision(r):
    pc = r["ptx_counts"]
    ops = " ".join(pc)
    if "::cluster" in ops or "mapa" in ops:
        return "cross_cta"
    if re.search(r"\b(ld\.shared|st\.shared|ldmatrix|stmatrix)", ops):
        return "shared_memory"
    if "shfl" in ops:
        return "warp_shuffle"
    if r.get("src_layout") == r.get("dst_layout"):
        return "noop"
    return "register_permute"


# --- bank conflicts --------------------------------------------------------------------------------------------------


def bank_conflict_cases():
    rng = random.Random(SEED + 2)
    B = blocked
    regs = [
        B([1, 8], [4, 8], [4, 1], [1, 0]),
        B([1, 4], [8, 4], [4, 1], [1, 0]),
        B([1, 1], [1, 32], [4, 1], [1, 0]),
        B([8, 1], [8, 4], [1, 4], [0, 1]),
        B([1, 1], [32, 1], [1, 4], [0, 1]),
        B([2, 2], [4, 8], [2, 2], [1, 0]),
        mma([2, 0], [2, 2], [16, 8]),
        mma([3, 0], [4, 1], [16, 64, 16]),
        dot(0, mma([2, 0], [2, 2], [16, 8]), 2),
        dot(1, mma([2, 0], [2, 2], [16, 8]), 2),
        dot(0, mma([2, 0], [2, 2], [16, 8]), 4),
        linear([[0, 1], [0, 2], [0, 4]], [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], [[4, 0], [8, 0]], [], [16, 64]),
    ]
    shareds = [
        swz(1, 1, 1, [1, 0]),
        swz(8, 1, 8, [1, 0]),
        swz(8, 2, 4, [1, 0]),
        swz(4, 1, 8, [0, 1]),
        swz(2, 4, 2, [1, 0]),
        nvmma_sh(0, 16),
        nvmma_sh(32, 16),
        nvmma_sh(64, 16),
        nvmma_sh(128, 16),
        nvmma_sh(128, 16, transposed=True),
        shared_linear([[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0],
                       [32, 0]]),
    ]
    cases = []
    for r in regs:
        for s in shareds:
            for dt in ("f16", ):
                cases.append({"reg": r, "shared": s, "shape": [64, 64], "dtype": dt})
    # other element widths and shapes
    for _ in range(60):
        dt = rng.choice(["i8", "f32", "f16"])
        bits = _DTYPE_BITS[dt]
        shape = rng.choice([[64, 64], [128, 64], [32, 128]])
        r = rng.choice(regs[:6])
        kind = rng.choice(["swz", "nvmma"])
        if kind == "swz":
            s = swz(rng.choice([1, 2, 4, 8, 16]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8]),
                    rng.choice([[1, 0], [0, 1]]))
        elif kind == "nvmma":
            s = nvmma_sh(rng.choice([0, 32, 64, 128]), bits, transposed=rng.random() < 0.3)
        else:
            s = padded_identity([[rng.choice([16, 32, 64, 128]), rng.choice([1, 2, 4, 8])]], shape,
                                rng.choice([[1, 0], [0, 1]]))
        cases.append({"reg": r, "shared": s, "shape": shape, "dtype": dt})
    # padded_shared: Triton 3.9 aborts (toLinearLayout has no linear layout for it); a few cases document that
    for r in regs[:2]:
        for s in (padded_identity([[32, 4]], [64, 64], [1, 0]), padded_identity([[64, 8]], [64, 64], [0, 1])):
            cases.append({"reg": r, "shared": s, "shape": [64, 64], "dtype": "f16"})
    # 1-D and 3-D
    cases.append({"reg": B([4], [32], [4], [0]), "shared": swz(1, 1, 1, [0]), "shape": [1024], "dtype": "f32"})
    cases.append({"reg": B([1], [32], [4], [0]), "shared": swz(4, 1, 1, [0]), "shape": [512], "dtype": "f32"})
    cases.append({"reg": B([1, 1, 4], [2, 4, 4], [2, 2, 1], [2, 1, 0]), "shared": swz(4, 2, 4, [2, 1, 0]),
                  "shape": [4, 32, 32], "dtype": "f16"})
    return cases


def run_bank_conflicts(runner, out_dir):
    cases = bank_conflict_cases()
    out = []
    for i, c in enumerate(cases):
        r = runner.request({"op": "bank", **c})
        rec = {"id": i, "reg": c["reg"], "shared": c["shared"], "shape": c["shape"], "dtype": c["dtype"]}
        for k in ("reg_gluon", "shared_gluon", "reg_ttgir", "shared_ttgir", "reg_layout", "shared_layout",
                  "bank_conflicts", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        out.append(rec)
        _progress("bank_conflicts", i + 1, len(cases))
    _write_json(os.path.join(out_dir, "bank_conflicts.json"), {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": {
            "reg, shared": "distributed and shared layouts as {kind, params}",
            "reg_gluon, shared_gluon, reg_ttgir, shared_ttgir": "Gluon repr and TTGIR text",
            "reg_layout, shared_layout": "Triton's linear layouts for `shape` (absent for padded_shared: Triton has "
                                         "none)",
            "bank_conflicts": "GluonOpBuilder.get_shared_bank_conflicts(reg, shared, shape, bitwidth), what "
                              "gl.bank_conflicts returns: excess wavefronts per ld/st.shared instruction",
        },
        "cases": out,
    })
    print(f"\nbank_conflicts: {len(out)} cases, {sum('error' in r for r in out)} errors", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------------------------
# Blackwell tensor memory (`tmem.json`)
# ---------------------------------------------------------------------------------------------------------------------


def tmem(block, col_stride, cga=None, two_ctas=None, fp4_padded=None):
    p = dict(block=list(block), col_stride=col_stride)
    if cga is not None:
        p["cga_layout"] = cga
    if two_ctas is not None:
        p["two_ctas"] = two_ctas
    if fp4_padded is not None:
        p["fp4_padded"] = fp4_padded
    return L("TensorMemoryLayout", **p)


def tmem_scales(cga=None):
    return L("TensorMemoryScalesLayout", **({} if cga is None else {"cga_layout": cga}))


def tmem_cases():
    """(spec, shape, dtype, note, listed_invalid) for TensorMemoryLayout and TensorMemoryScalesLayout."""
    c = []

    def add(spec, shape, dtype="f32", note=None, invalid=False):
        c.append((spec, list(shape), dtype, note, invalid))

    for bm in (64, 128):
        for bn in (1, 8, 32, 64, 128, 256, 512):
            for shape in ([bm, bn], [bm, max(bn // 2, 1)], [2 * bm, bn], [bm, 2 * bn], [256, 256], [64, 16], [128, 1]):
                add(tmem((bm, bn), 1), shape)
    for cs, dt in ((2, "f16"), (4, "i8"), (1, "f16"), (2, "bf16")):
        for bm in (64, 128):
            for shape in ([bm, 64], [128, 128], [bm, 1], [bm, 2], [256, 32]):
                add(tmem((bm, 64), cs), shape, dt)
    add(tmem((128, 64), 1, fp4_padded=True), [128, 64], "i8", "fp4 padded")
    add(tmem((128, 128), 1, fp4_padded=True), [128, 256], "i8", "fp4 padded")
    add(tmem((64, 64), 2, fp4_padded=True), [64, 64], "i8", "fp4 padded")
    for cga, shape in (([[1, 0]], [256, 64]), ([[0, 1]], [128, 128]), ([[1, 0], [0, 1]], [256, 128]),
                       ([[0, 0]], [128, 64]), ([[1, 0], [0, 0]], [256, 64]), ([[0, 1], [1, 0]], [256, 256]),
                       ([[1, 0], [2, 0]], [512, 64]), ([[1, 0]], [128, 64]), ([[1, 0]], [512, 128])):
        for bm in (64, 128):
            add(tmem((bm, 64), 1, cga), shape, note="multi-CTA")
            add(tmem((bm, 64), 1, cga, two_ctas=True), shape, note="multi-CTA, two CTAs")
    add(tmem((128, 64), 1, two_ctas=True), [128, 64], note="two CTAs without a CGA")
    add(tmem((64, 128), 2, [[1, 0]], two_ctas=True), [128, 128], "f16", note="two CTAs, M=64, unpacked")
    # rejected parameters
    add(tmem((32, 64), 1), [128, 64], note="blockM 32", invalid=True)
    add(tmem((256, 64), 1), [128, 64], note="blockM 256", invalid=True)
    add(tmem((128, 0), 1), [128, 64], note="blockN 0", invalid=True)
    add(tmem((128, 48), 1), [128, 64], note="blockN not a power of two", invalid=True)
    add(tmem((128, 1024), 1), [128, 1024], note="blockN above 512", invalid=True)
    add(tmem((128, 64), 3), [128, 64], note="colStride 3", invalid=True)
    add(tmem((128, 64), 8), [128, 64], note="colStride 8", invalid=True)
    add(tmem((128, 64), 0), [128, 64], note="colStride 0", invalid=True)
    add(tmem((128, 64), 1, [[3, 0]]), [256, 64], note="CGA basis not a power of two", invalid=True)
    add(tmem((128, 64), 1, [[1, 0, 0]]), [256, 64], note="CGA basis of rank 3", invalid=True)
    add(tmem((128, 64), 1), [128, 48], note="shape not a power of two", invalid=True)
    add(tmem((128, 64), 1), [2, 128, 64], note="rank 3", invalid=True)
    add(tmem((128, 64), 2), [128, 64], "f32", note="colStride 2 with 32-bit elements", invalid=True)
    add(tmem((128, 64), 4), [128, 64], "f16", note="colStride 4 with 16-bit elements", invalid=True)
    # scales
    for shape in ([128, 4], [128, 8], [64, 4], [256, 16], [32, 2], [128, 1], [128, 2], [512, 32], [32, 1],
                  [256, 4], [64, 64]):
        add(tmem_scales(), shape, "i8")
    for cga, shape in (([[1, 0]], [256, 4]), ([[0, 1]], [128, 8]), ([[1, 0], [0, 1]], [256, 8]), ([[0, 0]], [128, 4])):
        add(tmem_scales(cga), shape, "i8", note="multi-CTA")
    add(tmem_scales(), [128, 4], "f32", note="scales of 32-bit elements", invalid=True)
    add(tmem_scales([[3, 0]]), [256, 4], "i8", note="CGA basis not a power of two", invalid=True)
    return c


def tmem_reg_cases():
    """(tmem spec, dtype, shape, alloc_shape, num_warps, instr_variant, note) for get_reg_layout."""
    c = []
    variants = ("32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn")
    for v in variants:
        for bm in (64, 128):
            for bn, shape in ((64, [bm, 64]), (128, [bm, 128]), (256, [bm, 256]), (32, [bm, 32]), (16, [bm, 16]),
                              (64, [2 * bm, 128]), (8, [bm, 8])):
                for nw in (4, 8, 16):
                    c.append((tmem((bm, bn), 1), "f32", shape, shape, nw, v, None))
        for cs, dt in ((1, "f16"), (2, "f16"), (4, "i8"), (1, "i8"), (2, "bf16")):
            for nw in (4, 8):
                c.append((tmem((128, 128), cs), dt, [128, 128], [128, 128], nw, v, "narrow elements"))
                c.append((tmem((64, 64), cs), dt, [64, 64], [64, 64], nw, v, "narrow elements"))
        c.append((tmem((128, 64), 1), "f32", [128, 64], [2, 128, 64], 4, v, "multi-buffered allocation"))
        c.append((tmem((128, 128), 1), "f32", [128, 64], [128, 128], 4, v, "subslice"))
        for cga, shape in (([[1, 0]], [256, 64]), ([[0, 1]], [128, 128])):
            for tc in (False, True):
                c.append((tmem((128, 64), 1, cga, two_ctas=tc), "f32", shape, shape, 4, v, "multi-CTA"))
        c.append((tmem_scales(), "i8", [128, 4], [128, 4], 4, v, "scales"))
        c.append((tmem_scales(), "i8", [128, 8], [128, 8], 4, v, "scales"))
    # rejected
    c.append((tmem((128, 64), 1), "f32", [128, 64], [128, 64], 2, "32x32b", "2 warps"))
    c.append((tmem((128, 64), 1), "f32", [128, 64], [128, 64], 6, "32x32b", "6 warps"))
    c.append((tmem((128, 64), 1), "f32", [128, 64], [128, 64], 4, "16x32bx2", "16x32bx2 is inferred, not requested"))
    c.append((tmem((128, 64), 1), "f32", [128, 64], [128, 64], 4, "32x16b", "unknown variant"))
    c.append((tmem((128, 64), 1), "f32", [128], [128], 4, "32x32b", "rank 1"))
    c.append((tmem((128, 8), 1), "f32", [128, 8], [128, 8], 4, "16x256b", "too few columns for 16x256b"))
    c.append((tmem((128, 1), 1), "f32", [128, 1], [128, 1], 4, "32x32b_splitn", "splitn with one column"))
    # A seeded random sample: any layout, element width, warp count and message, views of larger allocations
    # (wider, taller, multi-buffered). Scales with a CGA layout viewed inside a larger allocation are sampled
    # into their own file (tmem_scales.json), so that this one stays as it was generated.
    rng = random.Random(SEED + 9)
    cgas = [None, [[1, 0]], [[0, 1]], [[1, 0], [0, 1]], [[1, 0], [2, 0]], [[0, 0]], [[1, 0], [0, 0]], [[0, 1], [1, 0]]]
    while len(c) < 1400:
        if rng.random() < 0.9:
            t = tmem((rng.choice([64, 128]), 1 << rng.randint(0, 9)), rng.choice([1, 1, 2, 4]), rng.choice(cgas),
                     two_ctas=True if rng.random() < 0.3 else None, fp4_padded=True if rng.random() < 0.15 else None)
            dt = rng.choice(["f32", "f16", "bf16", "i8"])
        else:
            t, dt = tmem_scales(rng.choice([None, [[1, 0]], [[0, 1]], [[1, 0], [0, 1]], [[0, 0]]])), "i8"
        shape = [1 << rng.randint(6, 9), 1 << rng.randint(0, 9)]
        alloc = rng.choice([shape, shape, [shape[0], shape[1] * 2], [shape[0], shape[1] * 4], [shape[0] * 2, shape[1]],
                            [2] + shape])
        if t["kind"] == "TensorMemoryScalesLayout" and t["params"] and alloc[-2:] != shape:
            continue
        c.append((t, dt, shape, alloc, rng.choice([4, 4, 8, 8, 16, 32]),
                  rng.choice(["32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn"]), "random"))
    return c


def run_tmem(runner, out_dir):
    results = []
    enc = tmem_cases()
    regs = tmem_reg_cases()
    for i, (spec, shape, dtype, note, invalid) in enumerate(enc):
        r = runner.request({"op": "tmem", "layout": spec, "shape": shape, "dtype": dtype})
        rec = {"id": len(results), "kind": spec["kind"], "params": spec["params"], "shape": shape, "dtype": dtype}
        if note:
            rec["note"] = note
        rec["listed_invalid"] = invalid
        for k in ("gluon", "ttgir", "type", "layout", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("tmem", i + 1, len(enc) + len(regs))
    for i, (spec, dtype, shape, alloc, nw, v, note) in enumerate(regs):
        r = runner.request({"op": "tmem_reg", "layout": spec, "dtype": dtype, "shape": shape, "alloc_shape": alloc,
                            "num_warps": nw, "instr_variant": v})
        rec = {"id": len(results), "kind": "tmem_reg_layout", "tmem": spec, "dtype": dtype, "shape": shape,
               "alloc_shape": alloc, "num_warps": nw, "instr_variant": v}
        if note:
            rec["note"] = note
        for k in ("gluon", "layout", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("tmem", len(enc) + i + 1, len(enc) + len(regs))
    doc = {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": TMEM_FIELDS,
        "cases": results,
    }
    _write_json(os.path.join(out_dir, "tmem.json"), doc)
    n_err = sum(1 for r in results if "error" in r)
    print(f"\ntmem: {len(results)} cases, {n_err} errors, {runner.restarts} worker restarts", file=sys.stderr)


def tmem_scales_cases():
    """Scale tiles of 32 and 64 rows per CTA, one to eight 32-bit columns, 4-16 warps, every message, alone and
    as views of wider allocations; then a seeded random sample of scales with CGA layouts viewed inside larger
    allocations (the class tmem_reg_cases leaves out)."""
    c = []
    for rows in (32, 64):
        for cols in (1, 2, 4, 8, 16, 32):
            for nw in (4, 8, 16):
                for v in ("32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn"):
                    for mult in (1, 2, 4):
                        c.append((tmem_scales(), "i8", [rows, cols], [rows, cols * mult], nw, v, "32/64 rows"))
    rng = random.Random(SEED + 41)
    while len(c) < 1440:
        cga = rng.choice([[[1, 0]], [[0, 1]], [[1, 0], [0, 1]], [[0, 0]], [[0, 1], [1, 0]]])
        shape = [1 << rng.randint(6, 9), 1 << rng.randint(0, 9)]
        alloc = rng.choice([[shape[0], shape[1] * 2], [shape[0], shape[1] * 4], [shape[0] * 2, shape[1]],
                            [2] + shape, shape])
        c.append((tmem_scales(cga), "i8", shape, alloc, rng.choice([4, 8, 16]),
                  rng.choice(["32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn"]), "random, CGA view"))
    return c


def run_tmem_scales(runner, out_dir):
    results = []
    cases = tmem_scales_cases()
    for i, (spec, dtype, shape, alloc, nw, v, note) in enumerate(cases):
        r = runner.request({"op": "tmem_reg", "layout": spec, "dtype": dtype, "shape": shape, "alloc_shape": alloc,
                            "num_warps": nw, "instr_variant": v})
        rec = {"id": i, "kind": "tmem_reg_layout", "tmem": spec, "dtype": dtype, "shape": shape,
               "alloc_shape": alloc, "num_warps": nw, "instr_variant": v, "note": note}
        for k in ("gluon", "layout", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("tmem_scales", i + 1, len(cases))
    doc = {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": TMEM_FIELDS,
        "cases": results,
    }
    _write_json(os.path.join(out_dir, "tmem_scales.json"), doc)
    n_err = sum(1 for r in results if "error" in r)
    print(f"\ntmem_scales: {len(results)} cases, {n_err} errors", file=sys.stderr)


TMEM_FIELDS = {
    "id": "case number",
    "kind": "TensorMemoryLayout | TensorMemoryScalesLayout (a layout) or tmem_reg_layout (get_reg_layout of one)",
    "params": "Gluon constructor keyword arguments of the layout",
    "tmem": "tmem_reg_layout: the tensor-memory layout of the descriptor ({kind, params})",
    "shape": "tensor shape (the descriptor shape for tmem_reg_layout)",
    "alloc_shape": "tmem_reg_layout: the descriptor's allocation shape",
    "dtype": "element type",
    "num_warps": "tmem_reg_layout: warps of the load/store",
    "instr_variant": "tmem_reg_layout: the tcgen05.ld/st message (32x32b, 16x64b, 16x128b, 16x256b, 32x32b_splitn)",
    "note": "why the case is here",
    "listed_invalid": "layouts: the generator lists the case as invalid; Triton's verdict is whether 'error' is present",
    "gluon": "repr() of the Gluon object (the layout, or the DistributedLinearLayout get_reg_layout returned)",
    "ttgir": "the attribute text Triton prints",
    "type": "the full !ttg.memdesc<...> type text",
    "layout": "Triton's linear layout: layouts map row, col -> dim0, dim1 (the Python object carries no block bases); "
              "tmem_reg_layout maps register, lane, warp, block -> dim0, dim1",
    "error": "Triton's message when it rejected the case",
    "error_stage": "gluon | attribute | ttgir | linear_layout",
    "error_type": "Python exception type, or 'abort' when Triton killed the process",
}


# ---------------------------------------------------------------------------------------------------------------------
# AMD: gfx1250's partitioned shared memory and the block-scaled MMA scale layouts (`amd.json`)
# ---------------------------------------------------------------------------------------------------------------------


def partitioned(num_partitions, num_groups, partition_dim, inner):
    return L("PartitionedSharedLayout", num_partitions=num_partitions, num_groups=num_groups,
             partition_dim=partition_dim, partition_layout=inner)


def partitioned_cases():
    """(spec, shape, note, listed_invalid) for PartitionedSharedLayout."""
    c = []
    inners = [swz(1, 1, 1, [1, 0]), swz(8, 2, 4, [1, 0]), swz(4, 1, 8, [0, 1]), nvmma_sh(128, 16), nvmma_sh(64, 16),
              shared_linear([[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]])]
    for inner in inners:
        for p, g, d in ((2, 1, 0), (2, 2, 0), (4, 1, 1), (2, 1, 1), (2, 4, 0), (1, 1, 0), (4, 2, 1)):
            for shape in ([64, 64], [128, 32], [32, 128]):
                if inner["kind"] == "SharedLinearLayout":
                    shape = [8 * p * g if d == 0 else 8, 4 * p * g if d == 1 else 4]
                c.append((partitioned(p, g, d, inner), shape, None, False))
    c.append((partitioned(2, 1, 0, swz(8, 1, 8, [2, 1, 0])), [4, 32, 64], "rank 3", False))
    c.append((partitioned(2, 2, 2, swz(8, 1, 8, [2, 1, 0])), [4, 32, 64], "rank 3", False))
    c.append((partitioned(2, 1, 0, swz(4, 1, 1, [0])), [256], "rank 1", False))
    c.append((partitioned(2, 1, 0, swz(8, 2, 4, [1, 0], [[1, 0]])), [128, 64], "multi-CTA inner layout", False))
    c.append((partitioned(2, 1, 0, swz(1, 1, 1, [1, 0])), [2, 64], "one row per piece", False))
    # rejected
    c.append((partitioned(3, 1, 0, swz(1, 1, 1, [1, 0])), [64, 64], "3 partitions", True))
    c.append((partitioned(2, 3, 0, swz(1, 1, 1, [1, 0])), [64, 64], "3 groups", True))
    c.append((partitioned(2, 1, 2, swz(1, 1, 1, [1, 0])), [64, 64], "partition dim out of range", True))
    c.append((partitioned(2, 1, -1, swz(1, 1, 1, [1, 0])), [64, 64], "negative partition dim", True))
    c.append((partitioned(64, 2, 0, swz(1, 1, 1, [1, 0])), [64, 64], "more pieces than rows", True))
    c.append((partitioned(2, 1, 0, padded_identity([[32, 4]], [32, 64], [1, 0])), [64, 64],
              "padded inner layout (no linear layout)", True))
    c.append((partitioned(2, 1, 0, partitioned(2, 1, 0, swz(1, 1, 1, [1, 0]))), [64, 64], "nested", True))
    c.append((partitioned(2, 1, 0, swz(1, 1, 1, [0])), [64, 64], "inner rank 1 for a rank-2 tensor", True))
    return c


def mfma_scale_cases():
    """get_amd_mfma_scale_layout(op_idx, shape, mfma_m_dim, tiles_per_warp, warps_per_cta)."""
    c = []
    for op in (0, 1):
        for mdim in (16, 32):
            for tpw in ([1, 1], [2, 1], [1, 2], [2, 2]):
                for wpc in ([1, 1], [2, 2], [4, 1], [1, 4], [2, 4]):
                    for shape in ([128, 4], [64, 8], [32, 2], [256, 16], [16, 1]):
                        c.append(("mfma", [op, shape, mdim, tpw, wpc]))
    return c


def wmma_scale_cases():
    """get_amd_wmma_scale_layout(op_idx, shape, m_dim, n_dim, transposed, scale_factor, reg_bases, warp_bases,
    cga_bases): a seeded sample of the parameter grid."""
    rng = random.Random(SEED + 27)
    grid = []
    for op in (0, 1):
        for mn in ((16, 16), (32, 16), (16, 32), (32, 32)):
            for tr in (False, True):
                for sf in (32, 16):
                    for reg in ([], [[1, 0]], [[0, 1]]):
                        for warp in ([], [[0, 1], [1, 0]], [[1, 0], [0, 1]], [[1, 0], [2, 0]], [[0, 0], [1, 0]]):
                            for cga in ([], [[1, 0]], [[0, 1]]):
                                for shape in ([64, 4], [128, 8], [16, 2], [256, 16], [32, 1], [64, 16]):
                                    grid.append((op, shape, mn[0], mn[1], tr, sf, reg, warp, cga))
    picked = rng.sample(grid, 700)
    # every (op, M, N, transposed) with the plainest tiling, so each instruction shape is covered
    for op in (0, 1):
        for mn in ((16, 16), (32, 16), (16, 32), (32, 32)):
            for tr in (False, True):
                for shape in ([64, 4], [16, 4], [256, 8]):
                    picked.append((op, shape, mn[0], mn[1], tr, 32, [], [[0, 1], [1, 0]], []))
    return [("wmma", list(a)) for a in picked]


def upcast_scale_cases():
    """(src spec, packed i8 shape, scale extent along axis, axis, output type) for
    amd.get_scaled_upcast_fp4_scale_layout."""
    c = []
    srcs = [
        (blocked([1, 16], [8, 8], [1, 1], [1, 0]), [64, 128]),
        (blocked([1, 4], [8, 8], [4, 1], [1, 0]), [64, 64]),
        (blocked([4, 1], [8, 8], [1, 4], [0, 1]), [64, 64]),
        (blocked([2, 2], [4, 16], [2, 2], [1, 0]), [32, 128]),
        (blocked([1, 1], [64, 1], [4, 1], [0, 1]), [256, 16]),
        (blocked([1, 8], [16, 4], [2, 2], [1, 0]), [128, 64]),
        (linear([[0, 1], [0, 2]], [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0]], [[16, 0]], [], [32, 16]),
         [32, 16]),
        (dot(0, mfma(4, [16, 16, 128], True, [2, 2]), 16), [64, 64]),
        (dot(1, mfma(4, [32, 32, 64], True, [2, 2]), 16), [64, 64]),
        (dot(0, mfma(3, [32, 32, 16], False, [4, 1]), 8), [128, 32]),
        (mfma(4, [16, 16, 32], True, [4, 1]), [64, 64]),
        (blocked([1, 16], [8, 4], [4, 1], [1, 0]), [32, 64]),
    ]
    for src, shape in srcs:
        for axis in (0, 1):
            out = shape[axis] * 2
            for sf in (2, 8, 16, 32, 64):
                if out % sf == 0:
                    c.append((src, shape, out // sf, axis, "bf16"))
        c.append((src, shape, shape[1] * 2 // 32, 1, "f16"))
    # rejected: a scale extent that does not divide the output, or an axis out of range
    c.append((srcs[0][0], srcs[0][1], 3, 1, "bf16"))
    c.append((srcs[0][0], srcs[0][1], 8, 2, "bf16"))
    return c


def run_amd(runner, out_dir):
    results = []
    part = partitioned_cases()
    mfma_s = mfma_scale_cases() + wmma_scale_cases()
    total = len(part) + len(mfma_s)
    for i, (spec, shape, note, invalid) in enumerate(part):
        r = runner.request({"op": "encoding", "layout": spec, "shape": shape})
        rec = {"id": len(results), "kind": spec["kind"], "params": spec["params"], "shape": shape}
        if note:
            rec["note"] = note
        rec["listed_invalid"] = invalid
        for k in ("gluon", "ttgir", "type", "layout", "alignment", "error", "error_stage", "error_type",
                  "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("amd", i + 1, total)
    ups = upcast_scale_cases()
    total += len(ups)
    for i, (src, shape, n, axis, elem) in enumerate(ups):
        r = runner.request({"op": "upcast_scale", "src": src, "shape": shape, "scale_extent": n, "axis": axis,
                            "elem": elem})
        rec = {"id": len(results), "kind": "upcast_fp4_scale_layout", "src": src, "shape": shape,
               "scale_extent": n, "axis": axis, "elem": elem}
        for k in ("src_gluon", "gluon", "layout", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("amd", len(part) + i + 1, total)
    for i, (fn, args) in enumerate(mfma_s):
        r = runner.request({"op": "amd_scale", "fn": fn, "args": args})
        names = (["op_idx", "shape", "m_dim", "tiles_per_warp", "warps_per_cta"] if fn == "mfma" else
                 ["op_idx", "shape", "m_dim", "n_dim", "transposed", "scale_factor", "reg_bases", "warp_bases",
                  "cga_bases"])
        rec = {"id": len(results), "kind": f"{fn}_scale_layout", "args": dict(zip(names, args))}
        for k in ("gluon", "layout", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("amd", len(part) + len(ups) + i + 1, total)
    doc = {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": AMD_FIELDS,
        "cases": results,
    }
    _write_json(os.path.join(out_dir, "amd.json"), doc)
    n_err = sum(1 for r in results if "error" in r)
    print(f"\namd: {len(results)} cases, {n_err} errors, {runner.restarts} worker restarts", file=sys.stderr)


def partitioned_dot_cases():
    """(block_m, block_n, block_k, keyword arguments) for amd.cdna5.make_partitioned_dot_layouts: a grid
    over warps, instruction shapes, transpositions and slices, and the parameter sets Gluon rejects."""
    c = []
    for bm, bn, bk in ((64, 64, 32), (128, 128, 64), (256, 128, 64), (128, 256, 128), (256, 256, 32)):
        for nw in (4, 8):
            for instr in ([16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 128]):
                for a_t, b_t in ((False, False), (True, False), (False, True), (True, True)):
                    for tr in (True, False):
                        for sm, sn in ((None, None), (bm // 2, None), (None, bn // 2), (bm // 2, bn // 2)):
                            kw = {"num_warps": nw, "instr_shape": instr, "a_transposed": a_t, "b_transposed": b_t,
                                  "transposed": tr}
                            if sm is not None:
                                kw["slice_m"] = sm
                            if sn is not None:
                                kw["slice_n"] = sn
                            c.append((bm, bn, bk, kw))
    rng = random.Random(SEED + 31)
    picked = rng.sample(c, 420)
    # rejected: warps, slices, blocks too small for two partitions
    base = {"num_warps": 4, "instr_shape": [16, 16, 32]}
    for bm, bn, kw in ((64, 64, dict(base, num_warps=2)), (32, 64, base), (64, 16, base),
                       (128, 128, dict(base, slice_m=96)), (128, 128, dict(base, slice_m=256)),
                       (128, 128, dict(base, slice_n=8)), (128, 128, dict(base, slice_m=32)),
                       (48, 64, base), (64, 64, dict(base, instr_shape=[16, 16, 8]))):
        picked.append((bm, bn, 64, kw))
    return picked


EFFICIENT_DTYPES = ("float16", "bfloat16", "float8e4nv", "uint8", "float32", "int8")


def efficient_padded_cases():
    """(dot operand spec, shape, dtype, is_k_contig) for amd.cdna4.compute_efficient_padded_shared_layout: a
    seeded sample of MFMA v4 instruction shapes, operands, kWidths, tiles and element types."""
    rng = random.Random(SEED + 37)
    grid = []
    for instr in ([16, 16, 32], [32, 32, 16], [16, 16, 128], [32, 32, 64]):
        for op in (0, 1):
            for kw in (2, 4, 8, 16, 32):
                for wpc, cga in (([2, 2], None), ([4, 1], None), ([1, 4], None), ([2, 2], [[1, 0]]),
                                 ([2, 2], [[0, 1]])):
                    for mn in (16, 32, 64, 128, 256):
                        for k in (16, 32, 64, 128, 256, 512):
                            for dtype in EFFICIENT_DTYPES:
                                for contig in (True, False):
                                    shape = [mn, k] if op == 0 else [k, mn]
                                    d = dot(op, mfma(4, instr, True, wpc, cga=cga), kw)
                                    grid.append((d, shape, dtype, contig))
    return rng.sample(grid, 1200)


def run_efficient_padded(runner, out_dir):
    results = []
    cases = efficient_padded_cases()
    for i, (d, shape, dtype, contig) in enumerate(cases):
        r = runner.request({"op": "efficient_padded", "dot": d, "shape": shape, "dtype": dtype,
                            "is_k_contig": contig})
        rec = {"id": i, "dot": d, "shape": shape, "dtype": dtype, "is_k_contig": contig}
        for k in ("dot_gluon", "gluon", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("efficient_padded", i + 1, len(cases))
    doc = {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": {
            "dot, shape, dtype, is_k_contig": "the arguments of amd.cdna4.compute_efficient_padded_shared_layout "
                                              "(dtype: a triton.experimental.gluon.language name)",
            "dot_gluon": "repr() of the dot operand layout",
            "gluon": "repr() of the PaddedSharedLayout returned, or null where Gluon returns None",
            "error, error_stage, error_type, diagnostics": "as in encodings.json",
        },
        "cases": results,
    }
    _write_json(os.path.join(out_dir, "efficient_padded.json"), doc)
    n_none = sum(1 for r in results if r.get("gluon", 0) is None)
    n_err = sum(1 for r in results if "error" in r)
    print(f"\nefficient_padded: {len(results)} cases, {n_none} None, {n_err} errors", file=sys.stderr)


def _operand_layout(rows, cols, pairs_bits):
    """A padded layout for an operand tile of rows x cols (contiguous dim 1), padding every row."""
    return padded_identity([[cols, pairs_bits]], [rows, cols], [1, 0])


def run_partitioned_dot(runner, out_dir):
    results = []
    cases = partitioned_dot_cases()
    for i, (bm, bn, bk, kw) in enumerate(cases):
        a_t, b_t = kw.get("a_transposed", False), kw.get("b_transposed", False)
        a = _operand_layout(*((bk, bm) if a_t else (bm, bk)), 8)
        b = _operand_layout(*((bn, bk) if b_t else (bk, bn)), 4)
        r = runner.request({"op": "partitioned_dot", "block_m": bm, "block_n": bn, "a": a, "b": b, "kwargs": kw})
        rec = {"id": i, "block_m": bm, "block_n": bn, "a": a, "b": b, "kwargs": kw}
        for k in ("shared_a", "shared_b", "wmma", "error", "error_stage", "error_type", "diagnostics"):
            if k in r:
                rec[k] = r[k]
        results.append(rec)
        _progress("partitioned_dot", i + 1, len(cases))
    doc = {
        "generator": "scripts/triton_fixtures.py",
        "triton_version": _triton_version(),
        "fields": {
            "block_m, block_n, kwargs": "the arguments of amd.cdna5.make_partitioned_dot_layouts",
            "a, b": "original_layout_a / original_layout_b ({kind, params}: PaddedSharedLayouts)",
            "shared_a, shared_b, wmma": "repr() of the three layouts Gluon returns (each accepted by Triton's "
                                        "attribute verifier)",
            "error, error_stage, error_type, diagnostics": "as in encodings.json",
        },
        "cases": results,
    }
    _write_json(os.path.join(out_dir, "partitioned_dot.json"), doc)
    n_err = sum(1 for r in results if "error" in r)
    print(f"\npartitioned_dot: {len(results)} cases, {n_err} errors, {runner.restarts} worker restarts",
          file=sys.stderr)


AMD_FIELDS = {
    "id": "case number",
    "kind": "PartitionedSharedLayout (fields as in encodings.json) | mfma_scale_layout | wmma_scale_layout | "
            "upcast_fp4_scale_layout",
    "src, src_gluon, scale_extent, axis, elem": "upcast_fp4_scale_layout: the packed-fp4 tensor's layout (spec and "
                                               "Gluon repr), the scale extent along axis, the upcast type",
    "params, shape, note, listed_invalid, gluon, ttgir, type, layout, alignment": "as in encodings.json",
    "args": "the arguments of gluon_ir.get_amd_mfma_scale_layout / get_amd_wmma_scale_layout (what "
            "amd.cdna4.get_mfma_scale_layout / amd.cdna5.get_wmma_scale_layout pass)",
    "error, error_stage, error_type, diagnostics": "as in encodings.json",
}


def _triton_version():
    import triton

    return triton.__version__


def _progress(what, i, n):
    if sys.stderr.isatty() or i == n or i % 50 == 0:
        print(f"\r{what}: {i}/{n}", end="", file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                                  "fixtures"))
    ap.add_argument("--only",
                    default="encodings,ttgir,conversions,bank_conflicts,tmem,tmem_scales,amd,partitioned_dot,"
                            "efficient_padded")
    args = ap.parse_args()
    if args.worker:
        _Worker().serve()
        return
    out = os.path.normpath(args.out)
    only = set(args.only.split(","))
    runner = Runner()
    try:
        if "encodings" in only:
            run_encodings(runner, out)
        if "ttgir" in only:
            run_ttgir(runner, out)
        if "conversions" in only:
            run_conversions(runner, out)
        if "bank_conflicts" in only:
            run_bank_conflicts(runner, out)
        if "tmem" in only:
            run_tmem(runner, out)
        if "tmem_scales" in only:
            run_tmem_scales(runner, out)
        if "amd" in only:
            run_amd(runner, out)
        if "partitioned_dot" in only:
            run_partitioned_dot(runner, out)
        if "efficient_padded" in only:
            run_efficient_padded(runner, out)
    finally:
        runner.close()


if __name__ == "__main__":
    main()
