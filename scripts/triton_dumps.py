#!/usr/bin/env python3
"""Real TTGIR dumps for several targets, written by Triton itself on the CPU (no GPU):

    /opt/triton-venv/bin/python scripts/triton_dumps.py [--out tests/fixtures]

Compiles the Triton kernels of ``scripts/triton_fixture_kernels.py`` (matmul, softmax, flash-attention forward,
layer norm, reductions, ``tl.cumsum`` scans) with ``triton.compile`` for ``cuda:80``, ``cuda:90`` and ``hip:gfx942``,
the matmul with ``num_ctas=2`` (a CTA cluster: multi-CTA layouts) for ``cuda:90``, and those of
``scripts/triton_more_kernels.py`` (persistent TMA matmul, fp8 and block-scaled dots, grouped GEMM, attention
backward, layer-norm backward, sort/topk, gather, histogram, 3-D reductions, split/join chains) for ``cuda:90``,
``cuda:100``, ``hip:gfx942`` and ``hip:gfx950`` (a ``GPUTarget``; only the TTGIR stage is kept) and writes
``ttgir_targets/<kernel>_<target>.mlir`` plus ``ttgir_targets.json``: for every (encoding, shape) of every type in
every dump, the layout Triton 3.9 gives it (Gluon's ``to_linear_layout``), or Triton's error (Gluon has no class for
``#ttg.amd_rotating_shared``, so those entries carry an error and only weft's parse is checked).
``tests/ttgir_targets.rs`` reads them. Uses the crash-isolated worker of ``triton_fixtures.py``.

With ``--dumps-only`` under an older Triton it writes only that version's dumps, to
``ttgir_targets/triton<version>/``: ``/opt/triton35-venv/bin/python scripts/triton_dumps.py --dumps-only`` (Triton 3.5
prints multi-CTA layouts with ``CTAsPerCGA``, ``CTASplitNum``, ``CTAOrder`` and MFMA ``instrShape = [M, N]``) and
``/opt/triton36-venv/bin/python ...`` for Triton 3.6 (a venv with ``pip install triton==3.6.0``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import triton_fixtures as tf  # noqa: E402

TARGETS = [("cuda", 80, 32), ("cuda", 90, 32), ("hip", "gfx942", 64)]
# The targets of the kernels of triton_more_kernels.py: Hopper, Blackwell (tensor memory, TMA mbarriers), CDNA3
# and CDNA4 (padded shared layouts, scaled MFMA).
MORE_TARGETS = [("cuda", 90, 32), ("cuda", 100, 32), ("hip", "gfx942", 64), ("hip", "gfx950", 64)]
# (kernel of triton_fixture_kernels.KERNELS, the targets it is compiled for)
KERNELS = [
    ("matmul_sm90", TARGETS),
    ("softmax_sm90", TARGETS),
    ("attention", TARGETS),
    ("layernorm", TARGETS),
    ("reduce", TARGETS),
    ("cumsum", TARGETS),
    ("matmul_2cta", [("cuda", 90, 32)]),  # num_ctas=2: clusters exist from sm_90 on
    ("tma_persistent_matmul", MORE_TARGETS),
    ("fp8_matmul", MORE_TARGETS),
    ("block_scaled_matmul", MORE_TARGETS),
    ("grouped_matmul", MORE_TARGETS),
    ("attention_bwd", MORE_TARGETS),
    ("layernorm_bwd", MORE_TARGETS),
    ("sort_topk", MORE_TARGETS),
    ("gather", MORE_TARGETS),
    ("histogram", MORE_TARGETS),
    ("reduce3d", MORE_TARGETS),
    ("split_join", MORE_TARGETS),
]


def kernel_entry(name):
    """The entry of `name` in triton_fixture_kernels.KERNELS or triton_more_kernels.KERNELS."""
    import triton_fixture_kernels as K
    import triton_more_kernels as M

    return next(k for k in K.KERNELS + M.KERNELS if k[0] == name)


def dump_name(name, target):
    return f"{name.replace('_sm90', '')}_{target[0]}_{target[1]}.mlir"


class _DumpWorker(tf._Worker):

    def __init__(self):
        super().__init__()
        # Parsing a dump (and its types) needs the dialects of every target's backend.
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import make_backend

        for backend, arch, warp in TARGETS + MORE_TARGETS:
            make_backend(GPUTarget(backend, arch, warp)).load_dialects(self.ctx)

    def req_target_dump(self, req):
        """Compile one Triton kernel of triton_fixture_kernels.py for `target`; its TTGIR without locations."""
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        name, kind, fn, sig, consts, opts = kernel_entry(req["name"])
        backend, arch, warp = req["target"]
        src = ASTSource(fn=fn, signature=sig, constexprs=consts)
        try:
            k = triton.compile(src, target=GPUTarget(backend, arch, warp), options=opts)
        except Exception as e:  # a later stage (assembly) may need tools the wheel lacks: keep the TTGIR
            return {"error": tf._exc_message(e)}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "k.ttgir")
            with open(path, "w") as f:
                f.write(k.asm["ttgir"])
            mod = self.ir.parse_mlir_module(path, self.ctx)
            text = mod.str_nodebug()
        return {"ttgir": text, "constexprs": consts, "options": opts}


def dumps_only(out):
    """Older Triton (3.5, 3.6: a venv of its own): only the dumps, in ttgir_targets/triton<version>/, compiled in
    this process (their Gluon lacks classes the layout queries need)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    ver = ".".join(triton.__version__.split(".")[:2])
    d = os.path.join(out, "ttgir_targets", f"triton{ver}")
    os.makedirs(d, exist_ok=True)
    for name, targets in KERNELS[:7]:  # the first set: older versions' dumps of the same kernels
        _, _, fn, sig, consts, opts = kernel_entry(name)
        for backend, arch, warp in targets:
            src = ASTSource(fn=fn, signature=sig, constexprs=consts)
            k = triton.compile(src, target=GPUTarget(backend, arch, warp), options=opts)
            text = re.sub(r" loc\([^()]*(\([^()]*\)[^()]*)*\)", "", k.asm["ttgir"])
            text = "\n".join(ln for ln in text.splitlines() if not ln.startswith("#loc"))
            fname = dump_name(name, (backend, arch))
            with open(os.path.join(d, fname), "w") as f:
                f.write(text + "\n")
            print(f"triton {triton.__version__}: {fname}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "tests", "fixtures"))
    ap.add_argument("--dumps-only", action="store_true",
                    help="older Triton: write ttgir_targets/triton<version>/*.mlir only (no layout queries)")
    args = ap.parse_args()
    if args.worker:
        _DumpWorker().serve()
        return
    if args.dumps_only:
        dumps_only(os.path.normpath(args.out))
        return
    out = os.path.normpath(args.out)
    dump_dir = os.path.join(out, "ttgir_targets")
    os.makedirs(dump_dir, exist_ok=True)
    runner = tf.Runner(timeout=900)  # tl.sort/tl.topk of 1024 columns compile for over a minute per target
    runner._start = _start_dump_worker.__get__(runner)
    files, older = {}, {}
    try:
        for name, targets in KERNELS:
            for target in targets:
                r = runner.request({"op": "target_dump", "name": name, "target": list(target)})
                fname = dump_name(name, target)
                if "ttgir" not in r:
                    print(f"{fname}: {r.get('error')}", file=sys.stderr)
                    continue
                text = r["ttgir"]
                with open(os.path.join(dump_dir, fname), "w") as f:
                    f.write(text)
                aliases, layouts = dump_layouts(runner, text)
                files[fname] = {"kernel": name, "target": f"{target[0]}:{target[1]}", "aliases": aliases,
                                "layouts": layouts}
                print(f"{fname}: {len(aliases)} aliases, {len(layouts)} typed layouts", file=sys.stderr)
        # Older versions' dumps (written by --dumps-only): Triton 3.9's layout of every type it can parse (3.6
        # prints the 3.9 syntax; 3.5's CTAsPerCGA fields are rejected, recorded as errors).
        for ver in sorted(os.listdir(dump_dir)):
            vdir = os.path.join(dump_dir, ver)
            if not (ver.startswith("triton") and os.path.isdir(vdir)):
                continue
            for fname in sorted(os.listdir(vdir)):
                with open(os.path.join(vdir, fname)) as f:
                    text = f.read()
                aliases, layouts = dump_layouts(runner, text)
                older[f"{ver}/{fname}"] = {"aliases": aliases, "layouts": layouts}
                ok = sum(1 for x in layouts if "layout" in x)
                print(f"{ver}/{fname}: Triton 3.9 lays out {ok} of {len(layouts)} types", file=sys.stderr)
    finally:
        runner.close()
    tf._write_json(os.path.join(out, "ttgir_targets.json"), {
        "generator": "scripts/triton_dumps.py",
        "triton_version": tf._triton_version(),
        "files": files,
        "older_versions": older,
    })


def dump_layouts(runner, text):
    """A dump's aliases and, per (encoding, shape) of its types, Triton's layout (or error) through the worker."""
    alias_lines = [ln for ln in text.splitlines() if re.match(r"#\w+ = ", ln)]
    aliases = {ln.split(" = ", 1)[0]: ln.split(" = ", 1)[1] for ln in alias_lines}
    mattrs = re.search(r"^module attributes \{(.*)\} \{$", text, re.M).group(1)
    layouts = []
    for enc, shape, ty in tf._ttgir_types(text):
        lr = runner.request({"op": "ttgir_layout", "aliases": "\n".join(alias_lines), "module_attrs": mattrs,
                             "type": ty, "shape": shape})
        rec = {"encoding": enc, "shape": shape, "type": ty}
        for k in ("layout", "error"):
            if k in lr:
                rec[k] = lr[k] if k != "error" else lr[k][:300]
        layouts.append(rec)
    return aliases, layouts


def _start_dump_worker(self):
    """tf.Runner._start, launching this script's worker."""
    import subprocess

    self.err = tempfile.TemporaryFile(mode="w+b")
    env = dict(os.environ)
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    if self.cache_dir is None:
        # TRITON_CACHE_DIR reuses compiled kernels across runs (sort/topk takes a minute per target).
        self.cache_dir = os.environ.get("TRITON_CACHE_DIR") or tempfile.mkdtemp(prefix="weft-dumps-cache-")
    env["TRITON_CACHE_DIR"] = self.cache_dir
    self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=self.err, env=env, bufsize=0)


if __name__ == "__main__":
    main()
