"""Python-level speed of weft's layout algebra against Triton 3.9's own Python objects, same process, same
inputs: `compose`, `invert`, `apply`, `invert_and_compose` on `LinearLayout`s, and `to_linear_layout` of an
MMA layout object (Triton: `builder.to_linear_layout(layout._to_ir(builder), shape)`, what Gluon's
`to_linear_layout` does; also shown with the attribute built beforehand).

Needs `pip install triton==3.9.0` (CPU only) and the weft wheel built in release mode:

    maturin build --release -m bindings/python/Cargo.toml --out target/wheels
    pip install target/wheels/weft-*.whl triton==3.9.0
    python bindings/python/bench.py

Prints a Markdown table (ns per call: the best of several timed runs of many calls each, the two sides
interleaved run by run). On a loaded
machine, count instructions instead (no timing; the difference of two runs is the cost of N calls):

    valgrind --tool=callgrind python bindings/python/bench.py --only apply --side weft --calls 0
    valgrind --tool=callgrind python bindings/python/bench.py --only apply --side weft --calls 100000
"""

import argparse
import platform
import timeit

import weft


def best_ns(fn, number, repeat):
    """The fastest mean time per call over `repeat` runs of `number` calls, in ns."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def triton_ll(ll):
    """The same layout as a Triton LinearLayout (built from weft's bases)."""
    from triton._C.libtriton.linear_layout import LinearLayout as TLL

    return TLL.from_bases(
        ll.bases, [d for d, _ in ll.out_dims], [s for _, s in ll.out_dims], require_surjective=False
    )


def same(weft_ll, triton_obj):
    """True when a Triton LinearLayout has weft's bases and out dims."""
    return [(d, list(map(list, b))) for d, b in triton_obj.bases] == [
        (d, b) for d, b in weft_ll.bases
    ] and list(triton_obj.out_dims) == weft_ll.out_dims


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--number", type=int, default=20000, help="calls per timed run")
    ap.add_argument("--repeat", type=int, default=7, help="timed runs (the best is kept)")
    ap.add_argument("--only", help="run one operation (a row's name up to its first space) untimed")
    ap.add_argument("--side", choices=["weft", "triton"], default="weft", help="with --only: whose")
    ap.add_argument("--calls", type=int, default=100000, help="with --only: how many calls")
    args = ap.parse_args()

    import triton
    import triton.experimental.gluon.language as gl
    from triton._C.libtriton import gluon_ir, ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)

    # The workloads: 16-bit layouts of a 128x128 tile, 4 warps (as the Rust benchmarks).
    shape = [128, 128]
    mma_args = dict(version=[2, 0], warps_per_cta=[4, 1], instr_shape=[16, 8])
    w_mma = weft.NVMMADistributedLayout(**mma_args)
    t_mma = gl.NVMMADistributedLayout(**mma_args)
    blocked = weft.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0]).to_linear_layout(shape)
    shared = weft.SwizzledSharedLayout(8, 1, 8, [1, 0]).to_linear_layout(shape)
    shared = shared.sublayout(["offset"], ["dim0", "dim1"])
    mma = w_mma.to_linear_layout(shape)
    mma_inv = mma.invert()

    t_blocked, t_shared, t_mma_ll = triton_ll(blocked), triton_ll(shared), triton_ll(mma)
    t_shared_inv = t_shared.invert()
    w_shared_inv = shared.invert()
    point = {"register": 37, "lane": 19, "warp": 2, "block": 0}
    points = [{"register": i % 64, "lane": (i * 7) % 32, "warp": i % 4, "block": 0} for i in range(1000)]

    # Same answers before timing anything.
    t_attr = t_mma._to_ir(builder)
    t_lin = builder.to_linear_layout(t_attr, shape)
    assert [t_lin.reg_bases, t_lin.lane_bases, t_lin.warp_bases, t_lin.block_bases] == [
        b for _, b in mma.bases
    ], "to_linear_layout differs"
    assert same(blocked.compose(w_shared_inv), t_blocked.compose(t_shared_inv)), "compose differs"
    assert same(mma_inv, t_mma_ll.invert()), "invert differs"
    assert same(mma.invert_and_compose(blocked), t_mma_ll.invert_and_compose(t_blocked)), "invert_and_compose differs"
    assert mma.apply(point) == t_mma_ll.apply(point), "apply differs"
    assert mma.apply_many(points) == [t_mma_ll.apply(x) for x in points], "apply_many differs"

    rows = [
        ("compose", lambda: blocked.compose(w_shared_inv), lambda: t_blocked.compose(t_shared_inv)),
        ("invert", lambda: mma.invert(), lambda: t_mma_ll.invert()),
        ("invert_and_compose", lambda: mma.invert_and_compose(blocked),
         lambda: t_mma_ll.invert_and_compose(t_blocked)),
        ("apply", lambda: mma.apply(point), lambda: t_mma_ll.apply(point)),
        # 1,000 points in one call against Triton's apply on each (Triton has no batched form).
        ("apply_many (1,000 points per call)", lambda: mma.apply_many(points),
         lambda: [t_mma_ll.apply(x) for x in points]),
        ("to_linear_layout (MMA v2, 128x128)", lambda: w_mma.to_linear_layout(shape),
         lambda: builder.to_linear_layout(t_mma._to_ir(builder), shape)),
        ("to_linear_layout, Triton's attribute prebuilt", lambda: w_mma.to_linear_layout(shape),
         lambda: builder.to_linear_layout(t_attr, shape)),
    ]
    if args.only:
        for name, w, t in rows:
            if name.strip("`").split(" ")[0] == args.only and "prebuilt" not in name:
                f = w if args.side == "weft" else t
                for _ in range(args.calls):
                    f()
                return
        raise SystemExit(f"no operation {args.only!r}")
    print(f"weft {weft.__version__}, triton {triton.__version__}, Python {platform.python_version()}, "
          f"{platform.processor() or platform.machine()}; best of {args.repeat} runs x {args.number} calls")
    print()
    print("| operation | weft (ns) | Triton 3.9 (ns) | Triton / weft |")
    print("|---|---:|---:|---:|")
    for name, w, t in rows:
        # Interleaved, so that a burst of load on a shared machine hits both sides alike; the best run of
        # each is kept.
        wn = tn = float("inf")
        for _ in range(args.repeat):
            wn = min(wn, best_ns(w, args.number, 1))
            tn = min(tn, best_ns(t, max(args.number // 10, 100), 1))
        print(f"| `{name}` | {wn:,.0f} | {tn:,.0f} | {tn / wn:.1f}x |")


if __name__ == "__main__":
    main()
