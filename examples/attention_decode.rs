//! attention_decode: paged decode attention (GQA, split-KV, bf16 or fp8 e4m3 KV) and its
//! split-KV combine, checked against an f64 host reference and timed against a device copy.
//!
//! `cargo run --release --example attention_decode --features llvm,cuda [-- sm_90a] [quick|one] [bn=N]
//! [stages=N] [warps=N] [splits=N] [merge=kernel|apart]`
//!
//! With a GPU: GQA 32 query heads over 8 KV heads, D 128, bf16 Q; each row of the table is one
//! shape (batch × length, query tokens, page size, KV type), the split count from
//! `DecodeConfig::splits` for the GPU's multiprocessors. Every run's O is checked against the host
//! for the first and last sequence (max abs error printed). The splits are merged as
//! `DecodeConfig::new` chooses (in the decode kernel up to 4 query rows, by the separate merge
//! kernel past that); `merge=kernel` or `merge=apart` forces one way for every row, so the two
//! can be timed side by side. Times are medians of `weft::runtime::bench` (CUDA events, L2
//! flushed before each run) of the decode kernel and, merging apart, the merge kernel together; GB/s counts the KV bytes read once; the device-to-device copy of the same
//! bytes is timed in the same run (its GB/s counts the bytes read and written), and the ratio is
//! decode GB/s over copy GB/s. `quick` runs the first rows only, `one` the first (B1 L32K);
//! `bn=` (keys a step), `stages=` and `warps=` override `DecodeConfig::new`'s tiles, and
//! `splits=` `DecodeConfig::splits`, for a sweep.
//!
//! Without a GPU (or without `cuda`): the same check in weft's interpreter on 3 sequences of
//! 37, 0 and 150 keys in 3 splits (bf16 KV, one token, merged in the kernel; fp8 KV, 3 tokens
//! causal, merged apart; `tests/gpu_attention_decode.rs` runs both ways for both).
//!
//! The kernels are [`weft::codegen::kernels::attention_decode_kernel`] and
//! [`weft::codegen::kernels::split_kv_combine_kernel`] (when merging apart).
mod common;

use common::Result;
use weft::codegen::kernels::{
    attention_decode_kernel, decode_reference, split_kv_combine_kernel, CombineConfig,
    DecodeConfig, PagedKv,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::{BufferOf, KernelOf};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, DeviceElem, KernelArgs, LaunchConfig, F8E4M3};

/// KV heads and query heads per KV head (GQA 32/8).
const HEADS_KV: usize = 8;
const GROUP: u32 = 4;

/// One row of the table.
#[derive(Debug, Clone, Copy)]
struct Shape {
    batch: usize,
    len: usize,
    q_len: u32,
    page: u32,
    fp8: bool,
}

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!(
            "# paged decode attention on {}",
            common::gpu::describe(&dev)
        );
        let sms = dev.props().sm_count;
        println!();
        println!("| shape (GQA 32/8, D128) | splits | merge | check (max abs err O) | weft µs | weft GB/s | copy GB/s | weft / copy |");
        println!("|---|---|---|---|---|---|---|---|");
        let quick = std::env::args().any(|a| a == "quick");
        let mut shapes = timed_shapes();
        if quick {
            shapes.truncate(3);
        }
        if std::env::args().any(|a| a == "one") {
            shapes.truncate(1);
        }
        for s in shapes {
            run::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, s, sms, None)?;
        }
        return Ok(());
    }
    let dev = common::interpreter(target)?;
    println!("# paged decode attention in the interpreter ({target})");
    // One merge each (the test suite runs both ways for both): bf16 in the kernel, fp8 apart.
    for (q_len, fp8, merge) in [(1, false, true), (3, true, false)] {
        let s = Shape {
            batch: 3,
            len: 0,
            q_len,
            page: 16,
            fp8,
        };
        run::<weft::runtime::cpu::Cpu>(&dev, &ctx, target, s, 132, Some(merge))?;
    }
    common::interpreted(
        "paged decode (GQA 4, D128, pages of 16, 37/0/150 keys in 3 splits: bf16 KV one token merged in the kernel, fp8 KV three tokens causal by the split-KV merge): O matches f64 for every sequence",
    );
    Ok(())
}

/// The decode shapes: batch 1 at 32K keys (each page size), batch 32 and 128 at 8K,
/// speculative widths 4–16, fp8 KV.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn timed_shapes() -> Vec<Shape> {
    let s = |batch, len, q_len, page, fp8| Shape {
        batch,
        len,
        q_len,
        page,
        fp8,
    };
    vec![
        s(1, 32768, 1, 64, false),
        s(128, 8192, 1, 64, false),
        s(32, 8192, 1, 64, false),
        s(1, 32768, 1, 16, false),
        s(1, 32768, 1, 128, false),
        s(128, 8192, 1, 16, false),
        s(1, 32768, 4, 64, false),
        s(1, 32768, 8, 64, false),
        s(1, 32768, 16, 64, false),
        s(32, 8192, 4, 64, false),
        s(32, 8192, 16, 64, false),
        s(1, 32768, 1, 64, true),
        s(128, 8192, 1, 64, true),
    ]
}

/// The keys of each sequence: the shape's length, or (a check-only run) 37, 0 and 150.
fn lengths(s: Shape) -> Vec<i32> {
    if s.len == 0 {
        vec![37, 0, 150]
    } else {
        vec![s.len as i32; s.batch]
    }
}

/// Runs shape `s` on `dev` (any backend): checks O against the host and, timed (`check` is
/// `None`), prints its timed row; `check` is whether the splits are merged in the kernel.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    s: Shape,
    sms: u32,
    check: Option<bool>,
) -> Result<()> {
    let time = check.is_none();
    let mut c = DecodeConfig::new(DType::BF16, s.page, GROUP, s.q_len);
    if let Some(m) = check {
        c.merge_in_kernel = m;
    }
    // `bn=`, `stages=`, `warps=` on the command line override the tiles, `splits=` the split
    // count (a sweep), `merge=` where the splits are merged.
    let mut splits = None;
    for a in std::env::args() {
        let Some((key, val)) = a.split_once('=') else {
            continue;
        };
        if key == "merge" {
            c.merge_in_kernel = match val {
                "kernel" => true,
                "apart" => false,
                _ => return Err(format!("{a}: merge=kernel or merge=apart").into()),
            };
            continue;
        }
        let val: u32 = val.parse()?;
        match key {
            "bn" => c.block_n = val,
            "stages" => c.stages = val,
            "warps" => c.num_warps = val,
            "splits" if val == 0 => return Err("splits=0: at least 1".into()),
            "splits" => splits = Some(val),
            _ => {
                return Err(
                    format!("unknown option {a}: bn=, stages=, warps=, splits= or merge=").into(),
                )
            }
        }
    }
    // The interpreter's check on 3 splits, so that a merge has something to merge (the
    // heuristic gives these short sequences one).
    if check.is_some() {
        splits = splits.or(Some(3));
    }
    if s.fp8 {
        let c = c.with_kv_dtype(DType::F8E4M3);
        // Values up to about 20: e4m3's range used, scales bringing them back to about 1.
        run_typed::<B, F8E4M3>(dev, ctx, target, c, s, (sms, splits), time, |x| {
            F8E4M3::from_f32(x * 20.0)
        })
    } else {
        run_typed::<B, bf16>(dev, ctx, target, c, s, (sms, splits), time, bf16::from_f32)
    }
}

/// [`run`] with the cache stored as `K` (`to` converts a value in [-1, 1)) and `splits` of the
/// keys, or `DecodeConfig::splits`' count for `sms` multiprocessors.
#[allow(clippy::too_many_arguments)]
fn run_typed<B: Backend, K: DeviceElem + Into<Widened>>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    c: DecodeConfig,
    s: Shape,
    (sms, splits): (u32, Option<u32>),
    time: bool,
    to: impl Fn(f32) -> K,
) -> Result<()> {
    let lens = lengths(s);
    let batch = lens.len();
    let (d, ps) = (c.head_dim as usize, c.page_size as usize);
    let ql = c.q_len as usize;
    let hq = HEADS_KV * GROUP as usize;
    let max_len = lens.iter().copied().max().unwrap_or(0) as usize;
    let max_pages = max_len.div_ceil(ps).max(1);
    let pages = batch * max_pages;
    // The pages in a shuffled order, as an allocator hands them out; values in [-1, 1).
    let seed = 7 + u64::from(s.q_len);
    let mut order: Vec<i32> = (0..pages as i32).collect();
    for (i, r) in (1..order.len()).rev().zip(common::random(pages, seed)) {
        let j = ((r + 4.0) / 8.0 * (i + 1) as f32) as usize;
        order.swap(i, j.min(i));
    }
    let n_kv = pages * ps * HEADS_KV * d;
    let gen = |n, seed| common::random(n, seed).into_iter().map(|x| x / 4.0);
    let k: Vec<K> = gen(n_kv, seed + 1).map(&to).collect();
    let vv: Vec<K> = gen(n_kv, seed + 2).map(&to).collect();
    let q: Vec<f32> = gen(batch * ql * hq * d, seed + 3)
        .map(|x| bf16::from_f32(x).to_f32())
        .collect();
    let (scale_k, scale_v): (Vec<f32>, Vec<f32>) = (0..HEADS_KV)
        .map(|h| {
            if c.fp8_kv() {
                (0.05 + 0.005 * h as f32, 0.05 + 0.002 * h as f32)
            } else {
                (1.0, 1.0)
            }
        })
        .unzip();
    let splits =
        splits.unwrap_or_else(|| c.splits(batch as u32, HEADS_KV as u32, max_len as u32, sms));

    let decode_k = attention_decode_kernel(ctx, target, c)?;
    let decode_sig = decode_k.signature().clone();
    let decode: KernelOf<B> = decode_k.load_on::<B>(dev)?;
    let cc = CombineConfig::new(c.dtype, c.head_dim, splits);
    let combine_k = split_kv_combine_kernel(ctx, target, cc)?;
    let combine_sig = combine_k.signature().clone();
    let combine: KernelOf<B> = combine_k.load_on::<B>(dev)?;
    let bufs = c.buffers(batch as u32, HEADS_KV as u32, splits)?;
    let rows = bufs.rows;
    let dq: BufferOf<B, bf16> =
        dev.upload(&q.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>())?;
    let (dk, dv) = (dev.upload(&k)?, dev.upload(&vv)?);
    let table = dev.upload(&order)?;
    let dlens = dev.upload(&lens)?;
    // A buffer the kernel does not read (no partials at one split merged in the kernel) still
    // gets one element: every argument is a real allocation.
    let o_part = dev.alloc::<f32>(bufs.o_part.max(1))?;
    let lse_part = dev.alloc::<f32>(bufs.lse_part.max(1))?;
    let counters = dev.upload(&vec![0i32; bufs.counters.max(1)])?;
    let (dsk, dsv) = (dev.upload(&scale_k)?, dev.upload(&scale_v)?);
    let mut o = dev.alloc::<bf16>(rows * d)?;
    o.fill_bytes(0xFF)?;
    let lse = dev.alloc::<f32>(rows)?;
    let scale = 1.0 / (d as f64).sqrt();
    let mut args = KernelArgs::new();
    args.ptr(&dq)
        .ptr(&dk)
        .ptr(&dv)
        .ptr(&table)
        .ptr(&dlens)
        .ptr(&o_part)
        .ptr(&lse_part);
    if c.merge_in_kernel {
        args.ptr(&o).ptr(&lse).ptr(&counters);
    }
    args.scalar(max_pages as i32)
        .scalar((scale * std::f64::consts::LOG2_E) as f32);
    if c.fp8_kv() {
        args.ptr(&dsk).ptr(&dsv);
    }
    let mut cargs = KernelArgs::new();
    cargs
        .ptr(&o_part)
        .ptr(&lse_part)
        .ptr(&o)
        .ptr(&lse)
        .scalar(rows as i32)
        .scalar(splits as i32);
    let cfg = LaunchConfig::for_kernel(c.grid(batch as u32, HEADS_KV as u32, splits), &decode_sig)?;
    let ccfg = LaunchConfig::for_kernel(cc.grid(rows as u64), &combine_sig)?;
    let apart = !c.merge_in_kernel;
    // SAFETY: the kernel reads Q, the caches at the pages the table lists for keys below each
    // length (all inside the cache) and writes the partials of every row (merging in the
    // kernel: O and lse, through one zeroed ticket per sequence and KV head); the merge kernel
    // reads those partials and writes O and lse of every row.
    unsafe {
        common::launch_once::<B>(dev, &decode, &cfg, &args)?;
        if apart {
            common::launch_once::<B>(dev, &combine, &ccfg, &cargs)?;
        }
    }
    if counters.to_vec()?.iter().any(|&t| t != 0) {
        return Err("the merge's tickets were not left at zero".into());
    }
    let got: Vec<f32> = o.to_vec()?.into_iter().map(|x| x.to_f32()).collect();

    // The first and the last sequence against the host, each as a cache of its own pages.
    let mut err = 0f32;
    for b in [0, batch - 1] {
        let own = &order[b * max_pages..(b + 1) * max_pages];
        let page_elems = ps * HEADS_KV * d;
        let gather = |x: &[K], sc: &[f32]| -> Vec<f32> {
            own.iter()
                .flat_map(|&p| &x[p as usize * page_elems..(p as usize + 1) * page_elems])
                .enumerate()
                .map(|(i, &e)| e.into().0 * sc[(i / d) % HEADS_KV])
                .collect()
        };
        let (kr, vr) = (gather(&k, &scale_k), gather(&vv, &scale_v));
        let local: Vec<i32> = (0..max_pages as i32).collect();
        let kv = PagedKv {
            k: &kr,
            v: &vr,
            block_table: &local,
            seq_lens: &lens[b..=b],
            max_pages,
            heads_kv: HEADS_KV,
        };
        let per = ql * hq * d;
        let (want, _) = decode_reference(&c, &q[b * per..(b + 1) * per], &kv, scale)
            .ok_or("the cache does not hold the sequence")?;
        for (g, w) in got[b * per..(b + 1) * per].iter().zip(&want) {
            let e = (g - w).abs();
            err = if e.is_nan() {
                f32::INFINITY
            } else {
                err.max(e)
            };
        }
    }
    let keys = if s.len == 0 {
        "37/0/150".to_string()
    } else {
        s.len.to_string()
    };
    let name = format!(
        "B{batch} L{keys} q{} page {} {} KV",
        s.q_len,
        s.page,
        if c.fp8_kv() { "fp8" } else { "bf16" }
    );
    let merge = if apart { "apart" } else { "in kernel" };
    if err > 3e-2 {
        return Err(format!("{name}: O differs from the host by {err}").into());
    }
    if !time {
        println!("{name}, merged {merge}: ok (max abs err {err:.1e})");
        return Ok(());
    }
    let kv_bytes: usize = lens.iter().map(|&l| l as usize).sum::<usize>()
        * HEADS_KV
        * d
        * 2
        * std::mem::size_of::<K>();
    // SAFETY: as the checked launches above.
    let ms = common::time::<B>(dev, |st| unsafe {
        st.launch(&decode, &cfg, &args)?;
        if apart {
            st.launch(&combine, &ccfg, &cargs)?;
        }
        Ok(())
    })?;
    let src = dev.alloc::<u8>(kv_bytes)?;
    let mut dst = dev.alloc::<u8>(kv_bytes)?;
    let copy_ms = common::time::<B>(dev, |st| st.copy_async(&src, &mut dst))?;
    let gbs = kv_bytes as f64 / (ms * 1e6);
    let copy_gbs = 2.0 * kv_bytes as f64 / (copy_ms * 1e6);
    println!(
        "| {name} | {splits} | {merge} | ok ({err:.1e}) | {:.1} | {gbs:.0} | {copy_gbs:.0} | {:.2} |",
        ms * 1e3,
        gbs / copy_gbs
    );
    Ok(())
}

/// A cache element's value as f32, for the host reference.
struct Widened(f32);

impl From<bf16> for Widened {
    fn from(x: bf16) -> Self {
        Widened(x.to_f32())
    }
}

impl From<F8E4M3> for Widened {
    fn from(x: F8E4M3) -> Self {
        Widened(x.to_f32())
    }
}
