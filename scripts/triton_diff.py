#!/usr/bin/env python3
"""Differential fuzzer: random layout parameters through Triton 3.9 and through weft's CLI, every disagreement printed.

    /opt/triton-venv/bin/python scripts/triton_diff.py --seed 1 --cases 20000 [--weft target/release/weft]
                                                       [--mix enc=90,bank=8,convert=2] [--save-failures F.json]

Each case is drawn at random (valid *and* invalid parameters) for one of:

* ``enc``: an encoding of any kind (blocked, slice, NVIDIA MMA v2/v3, dot operands of every parent, AMD MFMA incl.
  rank 3 and transposed, AMD WMMA v1-3 incl. rank 3, distributed linear incl. XOR warp bases, swizzled / NVMMA /
  padded / shared-linear shared layouts, multi-CTA), rank 1-3, shapes smaller than, equal to and larger than the
  tile, 1-16 warps. Triton's verdict (``GluonOpBuilder.to_linear_layout`` or its error) against ``weft layout
  <gluon text> --format json``; when Triton accepts, the TTGIR text Triton printed must give weft the same layout.
* ``bank``: a (distributed, shared) pair: ``gl.bank_conflicts`` (a probe kernel, as ``triton_fixtures.py``) against
  ``weft bank-conflicts --json``.
* ``convert``: a ``ttg.convert_layout`` compiled for cuda:90: Triton's decision (from the PTX) and scratch bytes
  against ``weft convert --json`` (``triton_kind`` must equal the decision; weft's shared scratch never above).

Triton runs in crash-isolated workers (it aborts the process on some bad parameters; see ``triton_fixtures.py``,
whose worker this script extends). Exit status: 0 when nothing disagreed, 1 otherwise. ``--save-failures`` writes
the disagreeing cases (with Triton's answers) as JSON, the input of ``--add-fixtures`` which appends them to
``tests/fixtures/fuzz_regressions.json`` (read by ``tests/fuzz_regressions.rs``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import triton_fixtures as tf  # noqa: E402

# ---------------------------------------------------------------------------------------------------------------------
# Worker: the fixture worker, answering a batch of cases per request, one line per case.
# ---------------------------------------------------------------------------------------------------------------------


class _DiffWorker(tf._Worker):

    def __init__(self):
        super().__init__()
        self._i = None
        self._out = sys.stdout

    def emit(self, obj):
        if "partial" in obj and self._i is not None:
            obj = {"i": self._i, "partial": obj["partial"]}
        self._out.write(json.dumps(obj) + "\n")
        self._out.flush()

    def req_bank(self, req):
        """`triton_fixtures.py`'s bank probe, without asking Gluon for the register layout of a generic
        linear layout: Gluon's `to_linear_layout` aborts on one whose layout keeps XOR bases
        (LinearEncodingAttr), while `gl.bank_conflicts`, which works on the type, counts it."""
        spec = req["reg"]
        lin = next((x for x in _specs(spec) if x["kind"] == "DistributedLinearLayout"), None)
        if lin is None:
            return super().req_bank(req)
        try:
            self.stage("gluon")
            reg = self.build(spec)
            sh = self.build(req["shared"])
            self.stage("attribute")
            reg._to_ir(self.b)
            sa = sh._to_ir(self.b)
            self.stage("linear_layout")
            if not isinstance(sh, self.classes["PaddedSharedLayout"]):
                self.linear_layout(sh, sa, req["shape"])
            warps = {"in_dims": [["warp", lin["params"]["warp_bases"]]]}
            self.stage("bank_conflicts")
            n = self.bank_conflicts_in_kernel(reg, sh, req["shape"], req["dtype"], warps)
            return {"bank_conflicts": int(n)}
        except Exception as e:
            return self.fail(e)

    def serve_cases(self, cases):
        for i, case in cases:
            self._i = i
            self.emit({"i": i, "start": True})
            handler = getattr(self, "req_" + case["op"])
            try:
                res = handler(case)
            except Exception as e:  # a Python-level Triton failure (or a bug of this script)
                res = {"error": tf._exc_message(e) or type(e).__name__, "error_type": type(e).__name__}
            res.pop("ttgir_module", None)
            self.emit({"i": i, "result": res})
        self._i = None
        self.emit({"done": True})


def _zygote():
    """The worker process: imports Triton once, then forks one child per request, so that a case that aborts the
    process costs a fork (milliseconds), not a new interpreter importing Triton (a third of a second)."""
    import triton.backends.nvidia.compiler  # noqa: F401  (warm imports, shared by the children)
    import triton.experimental.gluon.language  # noqa: F401
    from triton._C.libtriton import gluon_ir, ir  # noqa: F401

    for line in sys.stdin:
        req = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _DiffWorker().serve_cases(req["cases"])
            except BaseException:
                code = 3
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.stdout.write(json.dumps({"child_died": status}) + "\n")
            sys.stdout.flush()


class BatchRunner(tf.Runner):
    """Runs batches of cases in a worker; a case that kills the worker is recorded as an abort."""

    def __init__(self, timeout=300):
        self.timeout = timeout
        self.proc = None
        self.restarts = 0
        self.cache_dir = tempfile.mkdtemp(prefix="weft-diff-cache-")

    def _start(self):
        self.err = tempfile.TemporaryFile(mode="w+b")
        env = dict(os.environ)
        env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
        env["TRITON_CACHE_DIR"] = self.cache_dir
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err, env=env, bufsize=0,
                                     start_new_session=True)
        self._pending = b""

    def _kill(self):
        """Kill the worker and the child running the case (its own process group): a case Triton takes minutes
        on (e.g. a conversion with 65,536 registers per thread) must not keep a core busy."""
        os.killpg(self.proc.pid, 9)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
        import shutil

        shutil.rmtree(self.cache_dir, ignore_errors=True)

    def run(self, cases):
        """Results for `cases` (a list of requests), in order."""
        results = {}
        todo = list(enumerate(cases))
        while todo:
            if self.proc is None or self.proc.poll() is not None:
                self._start()
            self.err.seek(0, 2)
            err_start = self.err.tell()
            self.proc.stdin.write((json.dumps({"cases": todo}) + "\n").encode())
            self.proc.stdin.flush()
            cur, partial = None, {}
            while True:
                line = self._next_line()  # the fixture runner's reader (select with a timeout)
                msg = None if line is None else json.loads(line)
                if msg is None or "child_died" in msg:  # Triton aborted the process in case `cur`
                    if cur is None:
                        cur = todo[0][0]
                    self.err.seek(err_start)
                    stderr = self.err.read().decode(errors="replace")
                    if msg is None:
                        self.proc.wait()
                        self.proc = None
                    self.restarts += 1
                    if msg is None and self.timed_out:
                        partial.update({"error": f"Triton did not finish within {self.timeout} s",
                                        "error_type": "timeout"})
                    else:
                        partial.update({"error": tf._crash_message(stderr), "error_type": "abort"})
                    results[cur] = partial
                    todo = [(i, c) for i, c in todo if i not in results]
                    break
                if msg.get("done"):
                    todo = []
                    break
                if msg.get("start"):
                    cur, partial = msg["i"], {}
                elif "partial" in msg:
                    partial.update(msg["partial"])
                elif "result" in msg:
                    r = dict(partial)
                    r.update(msg["result"])
                    if "error" not in r:
                        r.pop("error_stage", None)
                    results[msg["i"]] = r
        return [results[i] for i in range(len(cases))]


# ---------------------------------------------------------------------------------------------------------------------
# Random parameters
# ---------------------------------------------------------------------------------------------------------------------

L = tf.L


class Gen:

    def __init__(self, rng):
        self.r = rng

    # -- small helpers ------------------------------------------------------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pow2(self, lo, hi):
        return 1 << self.r.randint(lo, hi)

    def bad_int(self, good):
        """A value next to `good` that breaks a rule (not a power of two, zero)."""
        return self.r.choice([0, 3, 5, 6, 12, good + 1 if good > 1 else 3])

    def split(self, total_log2, rank):
        """2^total_log2 split into `rank` power-of-two factors."""
        out = [0] * rank
        for _ in range(total_log2):
            out[self.r.randrange(rank)] += 1
        return [1 << e for e in out]

    def perm(self, rank):
        p = list(range(rank))
        self.r.shuffle(p)
        return p

    def shape(self, rank, tile=None):
        """Smaller than, equal to, or larger than `tile` (per dim), else random powers of two."""
        out = []
        for d in range(rank):
            t = tile[d] if tile else self.pow2(0, 6)
            k = self.r.choice([-2, -1, 0, 0, 1, 2])
            out.append(max(1, min(1 << 10, t << k if k >= 0 else t >> -k)))
        if self.chance(0.03):
            out[self.r.randrange(rank)] = self.r.choice([3, 6, 12, 48])
        total = 1
        for s in out:
            total *= s
        while total > (1 << 16):
            d = max(range(rank), key=lambda i: out[i])
            out[d] //= 2
            total //= 2
        return out

    def cga(self, rank, max_log2=2):
        n = self.r.choice([0, 0, 0, 1, 1, 2]) if max_log2 else 0
        bases = []
        for _ in range(n):
            if self.chance(0.15):
                bases.append([0] * rank)
            else:
                d = self.r.randrange(rank)
                bases.append([(1 << self.r.randint(0, 1)) if i == d else 0 for i in range(rank)])
        if bases and self.chance(0.05):  # invalid: not a power of two, or XOR of dims
            bases[0] = [self.r.choice([3, 1]) for _ in range(rank)]
        return bases

    # -- encodings ----------------------------------------------------------------------------------------------------
    def blocked(self, rank=None, warps_log2=None, lanes_log2=5):
        rank = rank or self.r.randint(1, 3)
        warps_log2 = self.r.randint(0, 4) if warps_log2 is None else warps_log2
        spt = [self.pow2(0, 3) for _ in range(rank)]
        tpw = self.split(lanes_log2, rank)
        wpc = self.split(warps_log2, rank)
        order = self.perm(rank)
        p = dict(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
        if self.chance(0.2):
            p["cga_layout"] = self.cga(rank)
        if self.chance(0.06):
            self.corrupt(p, ["size_per_thread", "threads_per_warp", "warps_per_cta", "order"])
        return L("BlockedLayout", **p), [s * t * w for s, t, w in zip(spt, tpw, wpc)]

    def corrupt(self, p, keys):
        keys = [k for k in keys if k in p]
        if not keys:
            return
        k = self.r.choice(keys)
        v = p[k]
        if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
            v = list(v)
            choice = self.r.randrange(3)
            if choice == 0:
                i = self.r.randrange(len(v))
                v[i] = self.bad_int(v[i])
            elif choice == 1:
                v = v + [1]
            else:
                v = v[:-1] if len(v) > 1 else [v[0], v[0]]
            p[k] = v
        elif isinstance(v, int):
            p[k] = self.bad_int(v)
        elif isinstance(v, bool):
            p[k] = not v

    def mma(self, rank=None, warps_log2=None):
        version = self.r.choice([2, 2, 3])
        if version == 3 and ((warps_log2 is not None and warps_log2 < 2) or (rank or 2) != 2):
            version = 2  # wgmma needs 4 warps and rank 2; the caller fixed the warps and rank
        if version == 3:
            rank = 2
            warps_log2 = max(2, self.r.randint(2, 4) if warps_log2 is None else warps_log2)
            n = self.r.choice([8, 16, 32, 64, 128, 256, 24, 48])
            k = self.r.choice([16, 16, 8, 32])
            instr = [16, n, k]
            wpc = [4 * x for x in self.split(warps_log2 - 2, 1)] if self.chance(0.5) else None
            if wpc is None:
                a = self.r.randint(2, warps_log2)
                wpc = [1 << a, 1 << (warps_log2 - a)]
            else:
                wpc = wpc + [1]
            tile = [16 * wpc[0], n * wpc[1]]
        else:
            rank = rank or self.r.choice([2, 2, 3])
            warps_log2 = self.r.randint(0, 4) if warps_log2 is None else warps_log2
            wpc = self.split(warps_log2, rank)
            instr = [16, 8] if rank == 2 else [1, 16, 8]
            tile = [i * w for i, w in zip(instr, wpc)]
        p = dict(version=[version, 0], warps_per_cta=wpc, instr_shape=instr)
        if self.chance(0.2):
            p["cga_layout"] = self.cga(rank)
        if self.chance(0.06):
            self.corrupt(p, ["warps_per_cta", "instr_shape"])
        return L("NVMMADistributedLayout", **p), tile

    def mfma(self, rank=None, warps_log2=None):
        version = self.r.randint(1, 4)
        rank = rank or self.r.choice([2, 2, 3])
        warps_log2 = self.r.randint(0, 4) if warps_log2 is None else warps_log2
        instr = self.r.choice([[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32], [64, 4, 4], [4, 64, 4],
                               [16, 16, 4], [32, 32, 4], [16, 16, 8], [32, 32, 64], [16, 16, 128]])
        transposed = self.chance(0.5)
        wpc = self.split(warps_log2, rank)
        p = dict(version=version, instr_shape=instr, transposed=transposed, warps_per_cta=wpc)
        if self.chance(0.2):
            p["element_bitwidth"] = self.r.choice([32, 64, 16])
        if self.chance(0.25):
            p["tiles_per_warp"] = [self.pow2(0, 1) for _ in range(rank)]
        if self.chance(0.15):
            p["cga_layout"] = self.cga(rank)
        if self.chance(0.06):
            self.corrupt(p, ["warps_per_cta", "instr_shape", "tiles_per_warp"] if "tiles_per_warp" in p else
                         ["warps_per_cta", "instr_shape"])
        tile = [1] * (rank - 2) + [instr[0], instr[1]]
        tile = [t * w for t, w in zip(tile, wpc)]
        return L("AMDMFMALayout", **p), tile

    def wmma(self, rank=None, warps_log2=None):
        version = self.r.randint(1, 3)
        rank = rank or self.r.choice([2, 2, 3])
        warps_log2 = self.r.randint(0, 4) if warps_log2 is None else warps_log2
        wb = []
        for d, n in enumerate(self.split(warps_log2, rank)):
            wb += [[(1 << j) if i == d else 0 for i in range(rank)] for j in range(n.bit_length() - 1)]
        self.r.shuffle(wb)
        if wb and self.chance(0.1):  # a broadcast warp, or a repeated basis
            wb[self.r.randrange(len(wb))] = self.r.choice([[0] * rank, wb[0]])
        p = dict(version=version, transposed=self.chance(0.5), warp_bases=wb)
        if rank != 2 or self.chance(0.3):
            p["rank"] = rank
        if version == 3 and self.chance(0.5):
            p["instr_shape"] = self.r.choice([[16, 16, 32], [16, 16, 64], [16, 16, 128], [16, 16, 16]])
        if self.chance(0.2):
            rb = []
            for _ in range(self.r.randint(1, 2)):
                d = self.r.randrange(rank)
                rb.append([(1 << self.r.randint(0, 2)) if i == d else 0 for i in range(rank)])
            p["reg_bases"] = rb
        if self.chance(0.15):
            p["cga_layout"] = self.cga(rank)
        if self.chance(0.06):
            self.corrupt(p, ["version", "rank", "instr_shape"] if "instr_shape" in p else ["version", "rank"])
        tile = [1] * (rank - 2) + [16, 16]
        return L("AMDWMMALayout", **p), tile

    def linear(self, rank=None, warps_log2=None, lanes_log2=5):
        rank = rank or self.r.randint(1, 3)
        warps_log2 = self.r.randint(0, 4) if warps_log2 is None else warps_log2
        shape = [self.pow2(0, 5) for _ in range(rank)]
        n_block = self.r.choice([0, 0, 0, 1])
        spec = tf.random_linear(self.r, shape, lanes_log2, warps_log2, n_block, broadcast=self.r.randint(0, 1))
        p = spec["params"]
        # XOR bases: Triton accepts warp bases moving in several dims (a generic linear layout); register / lane /
        # block bases that do are rejected.
        if rank > 1 and self.chance(0.3):
            dim_key = self.r.choice(["warp_bases", "warp_bases", "reg_bases", "lane_bases"])
            bases = p[dim_key]
            if bases:
                i = self.r.randrange(len(bases))
                others = [b for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases") for b in p[k] if any(b)]
                if others:
                    o = self.r.choice(others)
                    bases[i] = [a ^ b for a, b in zip(bases[i], o)]
        if self.chance(0.04):
            p["shape"] = [s * 2 for s in p["shape"]]
        return spec, p["shape"]

    def distributed(self, rank=None, warps_log2=None, nvidia_only=False):
        kinds = ["blocked"] * 4 + ["mma"] * 2 + ["linear"] * 2
        if not nvidia_only:
            kinds += ["mfma"] * 2 + ["wmma"] * 2
        kind = self.r.choice(kinds)
        return getattr(self, kind)(rank, warps_log2)

    def slice(self, rank=None, warps_log2=None, nvidia_only=False):
        prank = (rank + 1) if rank else self.r.randint(2, 3)
        if self.chance(0.7):
            parent, tile = self.distributed(prank, warps_log2, nvidia_only)
        else:
            parent, tile = self.dot_operand(prank, warps_log2, nvidia_only)
        prank = len(tile)
        dim = self.r.randrange(prank) if not self.chance(0.03) else prank
        tile = [t for i, t in enumerate(tile) if i != dim] or [1]
        return L("SliceLayout", dim=dim, parent=parent), tile

    def dot_operand(self, rank=None, warps_log2=None, nvidia_only=False):
        kinds = ["blocked", "mma", "mma"]
        if not nvidia_only:
            kinds += ["mfma", "mfma", "wmma", "wmma"]
        kind = self.r.choice(kinds)
        if kind == "blocked":
            parent, tile = self.blocked(rank if rank and rank >= 2 else self.r.randint(2, 3), warps_log2)
        else:
            parent, tile = getattr(self, kind)(rank, warps_log2)
        idx = self.r.choice([0, 1]) if not self.chance(0.02) else 2
        kw = self.r.choice([1, 2, 4, 8, 16, 0, 3]) if kind != "blocked" else self.r.choice([0, 0, 1, 2])
        return L("DotOperandLayout", operand_index=idx, parent=parent, k_width=kw), tile

    def swizzled(self, rank=None):
        rank = rank or self.r.randint(1, 3)
        p = dict(vec=self.pow2(0, 3), per_phase=self.pow2(0, 3), max_phase=self.pow2(0, 4), order=self.perm(rank))
        if self.chance(0.15):
            p["cga_layout"] = self.cga(rank)
        if self.chance(0.06):
            self.corrupt(p, ["vec", "per_phase", "max_phase", "order"])
        return L("SwizzledSharedLayout", **p), [self.pow2(0, 6) for _ in range(rank)]

    def nvmma_shared(self, rank=None):
        rank = rank or self.r.randint(1, 3)
        bits = self.r.choice([8, 16, 32, 64, 16])
        sw = self.r.choice([0, 32, 64, 128, 128])
        p = dict(swizzle_byte_width=sw, element_bitwidth=bits, rank=rank, transposed=self.chance(0.4),
                 fp4_padded=self.chance(0.08))
        if self.chance(0.15):
            p["cga_layout"] = self.cga(rank)
        if self.chance(0.05):
            self.corrupt(p, ["swizzle_byte_width", "element_bitwidth", "rank"])
        inner = max(1, (sw or 16) * 8 // bits)
        tile = [8] * (rank - 1) + [inner]
        if p["transposed"] and rank >= 2:
            tile[-1], tile[-2] = tile[-2], tile[-1]
        return L("NVMMASharedLayout", **p), tile

    def padded(self, rank=None):
        rank = rank or self.r.randint(1, 3)
        shape = [self.pow2(0, 5) for _ in range(rank)]
        pairs = [[self.pow2(1, 7), self.pow2(0, 3)] for _ in range(self.r.randint(1, 2))]
        if self.chance(0.1):
            pairs[0][0] = self.r.choice([3, 0, 12])
        spec = tf.padded_identity(pairs, shape, self.perm(rank))
        return spec, shape

    def shared_linear(self, rank=None):
        rank = rank or self.r.randint(1, 3)
        shape = [self.pow2(0, 5) for _ in range(rank)]
        bases = [tf.unit(rank, d, 1 << i) for d in range(rank) for i in range(shape[d].bit_length() - 1)]
        self.r.shuffle(bases)
        for i in range(len(bases)):  # XOR swizzles: a basis picks up bits of other dims
            if rank > 1 and self.chance(0.3):
                o = self.r.choice(bases)
                if o is not bases[i]:
                    bases[i] = [a ^ b for a, b in zip(bases[i], o)]
        if self.chance(0.1):
            bases.append([0] * rank)
        p = dict(offset_bases=bases)
        if self.chance(0.1):
            p["alignment"] = self.r.choice([16, 128, 1024])
        return L("SharedLinearLayout", **p), shape

    def encoding(self):
        kind = self.r.choice(["blocked", "blocked", "slice", "slice", "mma", "dot_operand", "dot_operand", "dot_operand",
                              "mfma", "mfma", "wmma", "wmma", "linear", "linear", "swizzled", "swizzled",
                              "nvmma_shared", "nvmma_shared", "nvmma_shared", "padded", "shared_linear"])
        spec, tile = getattr(self, kind)()
        return spec, tile

    def shared(self, rank):
        kind = self.r.choice(["swizzled", "swizzled", "nvmma_shared", "nvmma_shared", "shared_linear"])
        return getattr(self, kind)(rank)


def shape_str(shape):
    return "x".join(str(s) for s in shape)


def gluon_text(spec):
    """Gluon constructor text of a {kind, params} spec (what Gluon's repr prints, keyword arguments)."""

    def val(v):
        if isinstance(v, dict):
            return gluon_text(v)
        if isinstance(v, bool):
            return "True" if v else "False"
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return str(v)

    args = ", ".join(f"{k}={val(v)}" for k, v in spec["params"].items())
    return f"{spec['kind']}({args})"


def make_case(g, rng):
    what = rng.choices(["enc", "bank", "convert"], weights=MIX)[0]
    if what == "enc":
        spec, tile = g.encoding()
        rank = len(tile)
        shape = g.shape(rank, tile)
        case = {"op": "encoding", "layout": spec, "shape": shape}
        if spec["kind"] in ("SwizzledSharedLayout", "NVMMASharedLayout", "PaddedSharedLayout", "SharedLinearLayout"):
            case["dtype"] = rng.choice(["i8", "f16", "f32"])
        return case
    if what == "bank":
        rank = rng.randint(1, 3)
        warps = rng.randint(0, 3)
        reg, tile = (g.blocked(rank, warps) if rng.random() < 0.5 else
                     g.distributed(rank, warps, nvidia_only=True) if rng.random() < 0.6 else g.slice(rank, warps, True))
        rank = len(tile)
        sh, _ = g.shared(rank)
        shape = g.shape(rank, tile)
        return {"op": "bank", "reg": reg, "shared": sh, "shape": shape, "dtype": rng.choice(["i8", "f16", "f32"])}
    rank = rng.randint(1, 3)
    warps = rng.randint(0, 3)
    src, tile = (g.blocked(rank, warps) if rng.random() < 0.5 else g.distributed(rank, warps, nvidia_only=True))
    rank = len(tile)
    kinds = [lambda: g.blocked(rank, warps), lambda: g.linear(rank, warps), lambda: g.mma(rank, warps),
             lambda: g.slice(rank, warps, True), lambda: g.dot_operand(rank, warps, True)]
    dst, _ = rng.choice(kinds)()
    shape = g.shape(rank, tile)
    for spec in (src, dst):  # one CTA: the module is compiled with num-ctas 1
        while spec is not None:
            spec["params"].pop("cga_layout", None)
            if spec["kind"] == "DistributedLinearLayout":
                spec["params"]["reg_bases"] += spec["params"]["block_bases"]
                spec["params"]["block_bases"] = []
            spec = spec["params"].get("parent")
    return {"op": "convert", "src": src, "dst": dst, "shape": shape, "dtype": rng.choice(["f16", "f32", "i8"]),
            "num_warps": 1 << warps, "num_ctas": 1}


MIX = [90, 8, 2]

# ---------------------------------------------------------------------------------------------------------------------
# weft's side and the comparison
# ---------------------------------------------------------------------------------------------------------------------


def weft(bin_, args):
    p = subprocess.run([bin_] + args, capture_output=True, text=True, timeout=60)
    if p.returncode == 0:
        return {"ok": p.stdout}
    return {"err": (p.stderr.strip() or f"exit {p.returncode}")[:400], "rc": p.returncode}


def norm_layout(j):
    """A layout JSON with size-1 (no bases) input dims dropped: Triton lists all four, weft may not."""
    return {"in": {n: b for n, b in j["in_dims"] if b}, "out": [s for _, s in j["out_dims"]]}


def _specs(spec):
    while spec is not None:
        yield spec
        spec = spec["params"].get("parent")


def known_difference(case, tri):
    """Inputs where weft deliberately differs from Triton 3.9 (README, "Differences from Triton"): Triton lays
    out an MFMA layout with a zero in `warps_per_cta` / `tiles_per_warp` and an NVIDIA MMA layout with a zero
    in `instr_shape` (its `identity1D(0)` is empty, so 0 acts as 1), and reads `tiles_per_warp` out of
    bounds when its rank is wrong; weft rejects all of these. Also not compared: cases Triton did not finish
    within the worker's time limit (its answer is unknown)."""
    if tri.get("error_type") == "timeout":
        return "Triton did not finish within the time limit"
    if "error" in tri:
        return None
    for top in ("layout", "reg", "shared", "src", "dst"):
        for spec in _specs(case.get(top)):
            p = spec["params"]
            if spec["kind"] == "NVMMADistributedLayout" and 0 in p.get("instr_shape", []):
                return "NVMMADistributedLayout with a zero in instr_shape (Triton lays it out)"
            if spec["kind"] != "AMDMFMALayout":
                continue
            w, t = p.get("warps_per_cta", []), p.get("tiles_per_warp")
            if 0 in w or (t is not None and (0 in t or len(t) != len(w))):
                return "MFMA with a zero or mis-sized warps_per_cta / tiles_per_warp (Triton lays it out)"
    return None


def compare_encoding(bin_, case, tri):
    diffs = []
    why = known_difference(case, tri)
    if why:
        SKIPPED[why] = SKIPPED.get(why, 0) + 1
        return diffs
    shape = shape_str(case["shape"])
    w = weft(bin_, ["layout", gluon_text(case["layout"]), "--shape", shape, "--format", "json"])
    if w.get("rc", 0) not in (0, 2):
        diffs.append(("crash", f"weft exited {w['rc']}: {w['err']}"))
    t_err = "error" in tri
    if "layout_unavailable" in tri and "err" in w and "no linear layout" in w["err"]:
        return diffs
    if t_err != ("err" in w):
        if t_err:
            diffs.append(("accept/reject", f"Triton rejects ({tri.get('error_stage')}: {tri['error'][:200]}), weft "
                                           f"accepts"))
        else:
            diffs.append(("accept/reject", f"Triton accepts, weft rejects: {w['err']}"))
        return diffs
    if t_err or "layout" not in tri:
        return diffs
    if "layout_unavailable" in tri:  # padded shared: Triton 3.9 has no linear layout, weft says so too
        return diffs
    mine = norm_layout(json.loads(w["ok"]))
    theirs = norm_layout(tri["layout"])
    if mine != theirs:
        diffs.append(("layout", f"Triton {json.dumps(theirs)} weft {json.dumps(mine)}"))
    # The TTGIR text Triton printed must give the same layout. Not for a WMMA layout without bases: Triton
    # prints `ctaLayout = {}` (dropping the rank) and its own parser rejects that text ("Expected basis of
    # 'warp' not found").
    if "ttgir" in tri and "ctaLayout = {}" not in tri["ttgir"]:
        w2 = weft(bin_, ["layout", tri["ttgir"], "--shape", shape, "--format", "json"])
        if "err" in w2:
            diffs.append(("ttgir parse", f"{tri['ttgir']}: {w2['err']}"))
        elif norm_layout(json.loads(w2["ok"])) != theirs:
            diffs.append(("ttgir layout", f"{tri['ttgir']} gives a different layout"))
    return diffs


def compare_bank(bin_, case, tri):
    why = known_difference(case, tri)
    if why:
        SKIPPED[why] = SKIPPED.get(why, 0) + 1
        return []
    w = weft(bin_, ["bank-conflicts", gluon_text(case["reg"]), gluon_text(case["shared"]), "--shape",
                    shape_str(case["shape"]), "--dtype", case["dtype"], "--json"])
    if "error" in tri:
        if tri.get("error_stage") == "bank_conflicts" and tri.get("error_type") == "abort":
            SKIPPED["bank: Triton aborted computing the count"] = SKIPPED.get(
                "bank: Triton aborted computing the count", 0) + 1
            return []
        if "err" not in w:
            return [("bank accept/reject", f"Triton rejects ({tri.get('error_stage')}: {tri['error'][:200]}), weft "
                                           f"counts {json.loads(w['ok'])['bank_conflicts']}")]
        return []
    if "err" in w:
        return [("bank rejected", f"Triton {tri['bank_conflicts']}, weft: {w['err']}")]
    got = json.loads(w["ok"])["bank_conflicts"]
    if got != tri["bank_conflicts"]:
        return [("bank count", f"Triton {tri['bank_conflicts']}, weft {got}")]
    return []


def compare_convert(bin_, case, tri):
    why = known_difference(case, tri)
    if why:
        SKIPPED[why] = SKIPPED.get(why, 0) + 1
        return []
    if "error" in tri or "ptx_counts" not in tri:
        if "src_layout" in tri and "dst_layout" in tri:
            return [("convert triton error", tri.get("error", "")[:200])]
        return []
    decision = tf._decision(tri)
    w = weft(bin_, ["convert", gluon_text(case["src"]), gluon_text(case["dst"]), "--shape", shape_str(case["shape"]),
                    "--dtype", case["dtype"], "--target", "sm_90", "--json"])
    if "err" in w:
        return [("convert rejected", w["err"])]
    plan = json.loads(w["ok"])
    diffs = []
    if plan["triton_kind"] != decision:
        diffs.append(("plan decision", f"Triton {decision}, weft predicts {plan['triton_kind']} (plans "
                                       f"{plan['kind']})"))
    if plan["kind"] == "shared_memory" and decision == "shared_memory" and \
            plan["scratch_bytes"] > tri["scratch_bytes"]:
        diffs.append(("scratch bytes", f"Triton {tri['scratch_bytes']}, weft {plan['scratch_bytes']}"))
    return diffs


SKIPPED = {}
COMPARE = {"encoding": compare_encoding, "bank": compare_bank, "convert": compare_convert}


def summarize(case):
    if case["op"] == "encoding":
        return f"layout {gluon_text(case['layout'])} --shape {shape_str(case['shape'])}"
    if case["op"] == "bank":
        return (f"bank-conflicts '{gluon_text(case['reg'])}' '{gluon_text(case['shared'])}' --shape "
                f"{shape_str(case['shape'])} --dtype {case['dtype']}")
    return (f"convert '{gluon_text(case['src'])}' '{gluon_text(case['dst'])}' --shape {shape_str(case['shape'])} "
            f"--dtype {case['dtype']}")


FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "fuzz_regressions.json")


# Disagreement classes weft does not reproduce yet (none now; the last one, conversions from a source broadcast
# across warps that Triton 3.9 lowers with warp shuffles, is fixed): (diff class, message prefix, note) triples.
OPEN_CLASSES = ()


def open_class(case, diffs=()):
    """A disagreement class weft does not reproduce yet (README, "Differences from Triton"); still printed."""
    for cls_open, prefix, note in OPEN_CLASSES:
        if any(cls == cls_open and msg.startswith(prefix) for cls, msg in diffs):
            return note
    return None


def fixture_record(f):
    """A disagreement as a regression fixture: the query as Gluon text, and Triton's answer."""
    c, t = f["case"], f["triton"]
    rec = {"op": c["op"], "classes": sorted({cls for cls, _ in f["diffs"]}), "shape": c["shape"]}
    if c["op"] == "encoding":
        rec["gluon"] = gluon_text(c["layout"])
        if "dtype" in c:
            rec["dtype"] = c["dtype"]
        for k in ("ttgir", "layout", "layout_unavailable", "error", "error_stage", "error_type"):
            if k in t:
                rec[k] = t[k]
    elif c["op"] == "bank":
        rec.update(reg=gluon_text(c["reg"]), shared=gluon_text(c["shared"]), dtype=c["dtype"])
        for k in ("bank_conflicts", "error"):
            if k in t:
                rec[k] = t[k]
    else:
        rec.update(src=gluon_text(c["src"]), dst=gluon_text(c["dst"]), dtype=c["dtype"], num_warps=c["num_warps"])
        for k in ("scratch_bytes", "error"):
            if k in t:
                rec[k] = t[k]
        if "ptx_counts" in t:
            rec["decision"] = tf._decision(t)
    if "error" in rec:
        rec["error"] = rec["error"][:300]
    if open_class(c, f["diffs"]):
        rec["open"] = open_class(c, f["diffs"])
    return rec


def add_fixtures(paths, per_class):
    """Appends the disagreements saved by --save-failures to tests/fixtures/fuzz_regressions.json, at most
    `per_class` new cases per (op, kind, class), skipping queries already there."""
    doc = {"generator": "scripts/triton_diff.py --add-fixtures", "triton_version": tf._triton_version(),
           "note": "cases where weft once disagreed with Triton 3.9 (found by the differential fuzzer); "
                   "read by tests/fuzz_regressions.rs", "cases": []}
    if os.path.exists(FIXTURES):
        with open(FIXTURES) as f:
            doc = json.load(f)
    seen = {json.dumps({k: v for k, v in r.items() if k in ("op", "gluon", "reg", "shared", "src", "dst", "shape",
                                                            "dtype")}, sort_keys=True) for r in doc["cases"]}
    taken = {}
    for path in paths:
        with open(path) as f:
            for fail in json.load(f):
                rec = fixture_record(fail)
                key = json.dumps({k: v for k, v in rec.items() if k in ("op", "gluon", "reg", "shared", "src", "dst",
                                                                        "shape", "dtype")}, sort_keys=True)
                kind = (fail["case"].get("layout") or fail["case"].get("reg") or fail["case"]["src"])["kind"]
                cls = (rec["op"], kind, tuple(rec["classes"]))
                if key in seen or taken.get(cls, 0) >= per_class:
                    continue
                seen.add(key)
                taken[cls] = taken.get(cls, 0) + 1
                rec["id"] = len(doc["cases"])
                doc["cases"].append(rec)
    tf._write_json(FIXTURES, doc)
    print(f"{sum(taken.values())} cases added; {len(doc['cases'])} in {os.path.normpath(FIXTURES)}")


def main():
    global MIX
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--weft", default=os.path.join(HERE, "..", "target", "release", "weft"))
    ap.add_argument("--mix", default="enc=90,bank=8,convert=2", help="relative weights of the case families")
    ap.add_argument("--save-failures", help="write the disagreeing cases with Triton's answers to this JSON file")
    ap.add_argument("--quiet", action="store_true", help="one line per disagreement class, not per case")
    ap.add_argument("--add-fixtures", nargs="+", metavar="FAILURES_JSON",
                    help="append saved disagreements to tests/fixtures/fuzz_regressions.json (no fuzzing)")
    ap.add_argument("--per-class", type=int, default=3, help="with --add-fixtures: new cases kept per class")
    args = ap.parse_args()
    if args.worker:
        _zygote()
        return 0
    if args.add_fixtures:
        add_fixtures(args.add_fixtures, args.per_class)
        return 0
    m = dict(kv.split("=") for kv in args.mix.split(","))
    MIX = [int(m.get("enc", 0)), int(m.get("bank", 0)), int(m.get("convert", 0))]
    rng = random.Random(args.seed)
    g = Gen(rng)
    cases = [make_case(g, rng) for _ in range(args.cases)]
    runner = BatchRunner()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
    t0 = time.time()
    classes, failures, counts = {}, [], {}
    try:
        for start in range(0, len(cases), args.batch):
            chunk = cases[start:start + args.batch]
            tri = runner.run(chunk)
            futs = [pool.submit(COMPARE[c["op"]], args.weft, c, t) for c, t in zip(chunk, tri)]
            for k, (c, t, f) in enumerate(zip(chunk, tri, futs)):
                diffs = f.result()
                counts[c["op"]] = counts.get(c["op"], 0) + 1
                for cls, msg in diffs:
                    kind = (c.get("layout") or c.get("reg") or c.get("src"))["kind"]
                    key = f"{c['op']}/{kind}/{cls}" + (" [open]" if open_class(c, diffs) else "")
                    classes[key] = classes.get(key, 0) + 1
                    if not args.quiet or classes[key] <= 3:
                        print(f"[{start + k}] {key}: {summarize(c)}\n    {msg}", flush=True)
                if diffs:
                    failures.append({"case": c, "triton": t, "diffs": diffs})
            print(f"-- {start + len(chunk)}/{len(cases)} cases, {len(failures)} disagreeing, "
                  f"{time.time() - t0:.0f}s, {runner.restarts} worker restarts", file=sys.stderr, flush=True)
    finally:
        runner.close()
    n_open = sum(1 for f in failures if open_class(f["case"], f["diffs"]))
    print(f"\nseed {args.seed}: {len(cases)} cases ({counts}), {len(failures)} disagreeing ({n_open} in open "
          f"classes), {datetime.date.today()}")
    for k, n in sorted(classes.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d}  {k}")
    for k, n in SKIPPED.items():
        print(f"  not compared: {n} ({k})")
    if args.save_failures:
        with open(args.save_failures, "w") as f:
            json.dump(failures, f, indent=1)
    return 1 if len(failures) > n_open else 0


if __name__ == "__main__":
    sys.exit(main())
