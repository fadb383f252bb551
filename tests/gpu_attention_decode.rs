//! Paged decode attention (`kernels::attention_decode_kernel`, its splits merged in the kernel
//! or by `split_kv_combine_kernel`: every case both ways) against an f64 host reference: a KV
//! cache in pages shuffled through the block table (slots past a sequence's end hold page
//! numbers far outside the cache, so reading one is an out-of-bounds access the interpreter
//! reports), lengths that are not multiples of the page size
//! or the key block, an empty sequence (O = 0, lse = -inf) and short ones, a length past the
//! sequence's table row (cut to it), GQA ratios, one and
//! several query tokens (causal), more splits than a sequence has key blocks (empty splits), bf16
//! and f16 KV and fp8 e4m3 KV with per-head scales. Merged in the kernel, the interpreter runs the
//! CTAs in a shuffled order (any split may draw the last ticket), one split writes O directly, and
//! the tickets must be back at 0 after the launch. O within a few ulps of its 16-bit type
//! (`check::tol_attention`), the lse within 1e-3, the poison past both intact.
//!
//! Written once over the runtime's `Backend` traits: on the CPU backend (the interpreter) at head
//! dim 64 and small lengths, and on a CUDA GPU when there is one at head dim 128 and lengths up to
//! 3000. Without a GPU the GPU test prints `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, f32_bits, poison_intact, tol_attention, widen, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{
    attention_decode_kernel, decode_reference, split_kv_combine_kernel, CombineConfig,
    DecodeConfig, PagedKv,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, DeviceElem, KernelArgs, F8E4M3};

/// One problem: the shapes besides the config's.
#[derive(Debug, Clone)]
struct Case {
    c: DecodeConfig,
    heads_kv: usize,
    lens: Vec<i32>,
    /// Splits of the keys (`None`: `DecodeConfig::splits` for 132 SMs).
    splits: Option<u32>,
}

#[test]
fn decode_assembles_with_cp_async_and_mma() {
    let ctx = Context::new();
    for (target, arch, kv) in [
        (Target::SM80, "sm_80", DType::BF16),
        (Target::SM90A, "sm_90a", DType::F8E4M3),
    ] {
        for page in [16, 64, 128] {
            let c = DecodeConfig::new(DType::BF16, page, 4, 1).with_kv_dtype(kv);
            let k = attention_decode_kernel(&ctx, target, c).unwrap();
            let ptx = k.ptx().unwrap();
            common::assemble(&ptx, arch, &format!("{c:?}"));
            // K and V gathered 16 bytes per copy, S and O on mma.sync.
            assert!(ptx.contains("cp.async.cg.shared.global"), "{c:?}");
            assert!(
                !ptx.contains("cp.async.ca.shared.global"),
                "{c:?}: a narrow copy"
            );
            assert!(ptx.contains("mma.sync.aligned.m16n8k16"), "{c:?}");
            // 16-bit KV is read with ldmatrix (V transposed); fp8 is widened with cvt.
            if kv == DType::BF16 {
                assert!(ptx.contains("ldmatrix.sync.aligned"), "{c:?}");
                assert!(ptx.contains(".trans"), "{c:?}");
            } else {
                assert!(ptx.contains("e4m3x2"), "{c:?}");
            }
        }
    }
    // Merged in the kernel (`DecodeConfig::new` merges so up to 4 query rows; forced here up to
    // 16, which `with_merge_in_kernel` allows): no spills, and the ticket is a device-scope
    // atomic between a release and an acquire fence.
    for (group, q_len, d) in [
        (4, 1, 128),
        (4, 4, 128),
        (8, 2, 128),
        (1, 16, 64),
        (16, 1, 64),
    ] {
        let c = DecodeConfig {
            head_dim: d,
            ..DecodeConfig::new(DType::BF16, 64, group, q_len)
        };
        assert_eq!(c.merge_in_kernel, group * q_len <= 4, "{c:?}");
        let c = c.with_merge_in_kernel(true);
        let ptx = attention_decode_kernel(&ctx, Target::SM80, c)
            .unwrap()
            .ptx()
            .unwrap();
        common::assemble_without_spills(&ptx, "sm_80", &format!("{c:?}"));
        assert!(
            ptx.contains("atom.global.add.u32") || ptx.contains("atom.add.u32"),
            "{c:?}"
        );
        assert!(ptx.contains("fence.acq_rel.gpu"), "{c:?}");
    }
    for splits in [1, 2, 5, 33] {
        let c = CombineConfig::new(DType::BF16, 128, splits);
        let k = split_kv_combine_kernel(&ctx, Target::SM80, c).unwrap();
        common::assemble_without_spills(&k.ptx().unwrap(), "sm_80", &format!("{c:?}"));
    }
    // Typed errors name what is refused.
    let c = DecodeConfig::new(DType::BF16, 48, 4, 1);
    let e = attention_decode_kernel(&ctx, Target::SM80, c).unwrap_err();
    assert!(e.to_string().contains("page_size"), "{e}");
    let c = CombineConfig::new(DType::I32, 128, 4);
    let e = split_kv_combine_kernel(&ctx, Target::SM80, c).unwrap_err();
    assert!(e.to_string().contains("dtype i32"), "{e}");
    let c = CombineConfig {
        rows: 64,
        ..CombineConfig::new(DType::F32, 256, 4)
    };
    let e = split_kv_combine_kernel(&ctx, Target::SM80, c).unwrap_err();
    assert!(e.to_string().contains("8192 elements"), "{e}");
}

/// Every case on `dev` (on `merging`, with the splits merged in the kernel; on `dev`, by the
/// separate merge): O and lse against the host.
fn decode_matches_the_host<B: Backend>(dev: &B::Device, merging: &B::Device, cases: &[Case]) {
    for case in cases {
        for merge in [false, true] {
            let case = Case {
                c: case.c.with_merge_in_kernel(merge),
                ..case.clone()
            };
            decode_case::<B>(if merge { merging } else { dev }, &case);
        }
    }
}

/// One case on `dev`: O and lse against the host.
fn decode_case<B: Backend>(dev: &B::Device, case: &Case) {
    let ctx = Context::new();
    {
        let c = case.c;
        let what = format!("{case:?}");
        let (d, ps) = (c.head_dim as usize, c.page_size as usize);
        let (hkv, batch) = (case.heads_kv, case.lens.len());
        let hq = hkv * c.group as usize;
        let ql = c.q_len as usize;
        let max_len = case.lens.iter().copied().max().unwrap_or(0).max(0) as usize;
        let max_pages = max_len.div_ceil(ps).max(1);
        // Pages of every sequence, shuffled over the cache, plus two never referenced.
        let pages = batch * max_pages + 2;
        let mut rng = Rng(0xDEC0DE + (d * ps * hkv + ql) as u64);
        let mut order: Vec<i32> = (0..pages as i32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut table = vec![1 << 30; batch * max_pages];
        for (b, &len) in case.lens.iter().enumerate() {
            for p in 0..(len.max(0) as usize).div_ceil(ps) {
                table[b * max_pages + p] = order[b * max_pages + p];
            }
        }
        let round = |x: f32| match c.dtype {
            DType::F16 => f16::from_f32(x).to_f32(),
            _ => bf16::from_f32(x).to_f32(),
        };
        let q: Vec<f32> = (0..batch * ql * hq * d)
            .map(|_| round(rng.f32() / 4.0))
            .collect();
        let n_kv = pages * ps * hkv * d;
        let fp8 = c.fp8_kv();
        // KV as stored (rounded to its type) and, for fp8, per-head scales.
        let (scale_k, scale_v): (Vec<f32>, Vec<f32>) = (0..hkv)
            .map(|h| {
                if fp8 {
                    (0.05 + 0.02 * h as f32, 0.1 + 0.03 * h as f32)
                } else {
                    (1.0, 1.0)
                }
            })
            .unzip();
        let stored = |rng: &mut Rng| -> Vec<f32> {
            (0..n_kv)
                .map(|_| {
                    let x = rng.f32() / 4.0;
                    if fp8 {
                        F8E4M3::from_f32(x * 20.0).to_f32()
                    } else {
                        round(x)
                    }
                })
                .collect()
        };
        let (ks, vs) = (stored(&mut rng), stored(&mut rng));
        // What the reference sees: stored values times their head's scale.
        let scaled = |x: &[f32], s: &[f32]| -> Vec<f32> {
            x.iter()
                .enumerate()
                .map(|(i, &v)| v * s[(i / d) % hkv])
                .collect()
        };
        let (kr, vr) = (scaled(&ks, &scale_k), scaled(&vs, &scale_v));
        let scale = 1.0 / (d as f64).sqrt();
        let kv = PagedKv {
            k: &kr,
            v: &vr,
            block_table: &table,
            seq_lens: &case.lens,
            max_pages,
            heads_kv: hkv,
        };
        let (want_o, want_lse) = decode_reference(&c, &q, &kv, scale).expect("a valid cache");
        let splits = case
            .splits
            .unwrap_or_else(|| c.splits(batch as u32, hkv as u32, max_len as u32, 132));

        let kernel = load::<B>(
            dev,
            &attention_decode_kernel(&ctx, Target::SM90A, c).unwrap(),
            &what,
        );
        let combine_k = split_kv_combine_kernel(
            &ctx,
            Target::SM90A,
            CombineConfig::new(c.dtype, c.head_dim, splits),
        )
        .unwrap();
        let combine = load::<B>(dev, &combine_k, &what);
        let bufs = c.buffers(batch as u32, hkv as u32, splits).unwrap();
        let rows = bufs.rows;
        let o_part = dev.alloc::<f32>(bufs.o_part.max(1)).unwrap();
        let lse_part = dev.alloc::<f32>(bufs.lse_part.max(1)).unwrap();
        let counters = dev.upload(&vec![0i32; bufs.counters.max(1)]).unwrap();
        let lse = poisoned::<B, f32>(dev, rows);
        let run = Run::<B> {
            dev,
            kernel: &kernel,
            combine: &combine,
            counters: &counters,
            case,
            splits,
            what: &what,
        };
        // A sequence that fills its table row is passed 1000 keys longer: the kernel cuts it to
        // the row (and reads nothing past it).
        let device_lens: Vec<i32> = case
            .lens
            .iter()
            .map(|&l| {
                if l as usize == max_pages * ps {
                    l + 1000
                } else {
                    l
                }
            })
            .collect();
        let tables = (
            dev.upload(&table).unwrap(),
            dev.upload(&device_lens).unwrap(),
        );
        let partials = (&o_part, &lse_part);
        let scales = (dev.upload(&scale_k).unwrap(), dev.upload(&scale_v).unwrap());
        let qk = (scale * std::f64::consts::LOG2_E) as f32;
        let inputs = Inputs {
            q: &q,
            k: &ks,
            v: &vs,
            tables: (&tables.0, &tables.1),
            scales: (&scales.0, &scales.1),
            max_pages,
            qk,
        };
        let got: Vec<f64> = match (c.dtype, fp8) {
            (DType::F16, false) => run.run(
                &inputs,
                partials,
                &lse,
                f16::from_f32,
                f16::from_f32,
                f16::to_f64,
            ),
            (DType::F16, true) => run.run(
                &inputs,
                partials,
                &lse,
                f16::from_f32,
                F8E4M3::from_f32,
                f16::to_f64,
            ),
            (_, false) => run.run(
                &inputs,
                partials,
                &lse,
                bf16::from_f32,
                bf16::from_f32,
                bf16::to_f64,
            ),
            (_, true) => run.run(
                &inputs,
                partials,
                &lse,
                bf16::from_f32,
                F8E4M3::from_f32,
                bf16::to_f64,
            ),
        };
        let n = rows * d;
        assert!(got[n..].iter().all(|x| x.is_nan()), "{what}: wrote past O");
        // The merge's tickets are left as found, for the next launch.
        assert!(
            counters.to_vec().unwrap().iter().all(|&t| t == 0),
            "{what}: tickets left non-zero"
        );
        let want_o = widen(&want_o);
        let max_err = close(&got[..n], &want_o, tol_attention(c.dtype), &what);
        let got_lse = lse.to_vec().unwrap();
        poison_intact(&got_lse, rows, f32_bits, &format!("{what} lse"));
        // -inf where no key is seen, as the reference says; elsewhere within 1e-3.
        for (i, (&g, &w)) in got_lse.iter().zip(&want_lse).enumerate() {
            assert_eq!(
                g == f32::NEG_INFINITY,
                w == f32::NEG_INFINITY,
                "{what}: lse {i}: {g} vs {w}"
            );
        }
        let finite = |x: &[f32]| -> Vec<f64> {
            x.iter()
                .map(|&v| if v.is_finite() { f64::from(v) } else { 0.0 })
                .collect()
        };
        let lse_bound = Tol {
            rel: 1e-3,
            abs: 1e-3,
        };
        let max_lse = close(
            &finite(&got_lse[..rows]),
            &finite(&want_lse),
            lse_bound,
            &format!("{what} lse"),
        );
        println!(
            "{what} on {}: {splits} splits ok, max abs error O {max_err:.2e}, lse {max_lse:.2e}",
            B::KIND
        );
    }
}

/// The host inputs of one run.
struct Inputs<'a, B: Backend> {
    q: &'a [f32],
    k: &'a [f32],
    v: &'a [f32],
    tables: (&'a B::Buffer<i32>, &'a B::Buffer<i32>),
    scales: (&'a B::Buffer<f32>, &'a B::Buffer<f32>),
    max_pages: usize,
    qk: f32,
}

/// The decode kernel and the combine of one case.
struct Run<'a, B: Backend> {
    dev: &'a B::Device,
    kernel: &'a B::Kernel,
    combine: &'a B::Kernel,
    /// The merge's tickets (used when the kernel merges its splits).
    counters: &'a B::Buffer<i32>,
    case: &'a Case,
    splits: u32,
    what: &'a str,
}

impl<B: Backend> Run<'_, B> {
    /// Uploads Q (through `to_q`) and the caches (through `to_kv`), runs the kernel (and the
    /// separate merge, unless the kernel merges) into a poisoned O and `lse`, and returns all of
    /// O read back through `from`.
    #[allow(clippy::too_many_arguments)]
    fn run<T: DeviceElem, K: DeviceElem>(
        &self,
        x: &Inputs<'_, B>,
        (o_part, lse_part): (&B::Buffer<f32>, &B::Buffer<f32>),
        lse: &B::Buffer<f32>,
        to_q: impl Fn(f32) -> T,
        to_kv: impl Fn(f32) -> K,
        from: impl Fn(T) -> f64,
    ) -> Vec<f64> {
        let (dev, c) = (self.dev, self.case.c);
        let q = dev
            .upload(&x.q.iter().map(|&v| to_q(v)).collect::<Vec<_>>())
            .unwrap();
        let k = dev
            .upload(&x.k.iter().map(|&v| to_kv(v)).collect::<Vec<_>>())
            .unwrap();
        let v = dev
            .upload(&x.v.iter().map(|&v| to_kv(v)).collect::<Vec<_>>())
            .unwrap();
        let batch = self.case.lens.len();
        let rows = batch * c.q_len as usize * self.case.heads_kv * c.group as usize;
        let o = poisoned::<B, T>(dev, rows * c.head_dim as usize);
        let mut args = KernelArgs::new();
        args.ptr(&q)
            .ptr(&k)
            .ptr(&v)
            .ptr(x.tables.0)
            .ptr(x.tables.1)
            .ptr(o_part)
            .ptr(lse_part);
        if c.merge_in_kernel {
            args.ptr(&o).ptr(lse).ptr(self.counters);
        }
        args.scalar(x.max_pages as i32).scalar(x.qk);
        if c.fp8_kv() {
            args.ptr(x.scales.0).ptr(x.scales.1);
        }
        let grid = c.grid(batch as u32, self.case.heads_kv as u32, self.splits);
        // SAFETY: the kernel reads Q, the caches through the block table's entries of keys
        // below each length (all inside the cache), and writes the partials of every row (and,
        // merging, O and lse, through one zeroed ticket per sequence and KV head).
        unsafe { launch::<B>(dev, self.kernel, grid, &args, self.what) };
        if c.merge_in_kernel {
            return o.to_vec().unwrap().into_iter().map(from).collect();
        }
        let mut args = KernelArgs::new();
        args.ptr(o_part)
            .ptr(lse_part)
            .ptr(&o)
            .ptr(lse)
            .scalar(rows as i32)
            .scalar(self.splits as i32);
        // SAFETY: the combine reads `splits` partials of `rows` rows and writes O and lse of
        // those rows.
        let grid = CombineConfig::new(c.dtype, c.head_dim, self.splits).grid(rows as u64);
        unsafe { launch::<B>(dev, self.combine, grid, &args, self.what) };
        o.to_vec().unwrap().into_iter().map(from).collect()
    }
}

/// The cases: `d` the head dim, `long` the longest sequence.
fn cases(d: u32, long: i32) -> Vec<Case> {
    let cfg = |page, group, q_len| DecodeConfig {
        head_dim: d,
        ..DecodeConfig::new(DType::BF16, page, group, q_len)
    };
    vec![
        // GQA 4, one token, an empty and a short sequence, several splits (some empty).
        Case {
            c: cfg(16, 4, 1),
            heads_kv: 2,
            lens: vec![long, 0, 5],
            splits: Some(3),
        },
        // Page 64 over 16-key blocks of a 64-key step: speculative 3 tokens, causal, GQA 2.
        Case {
            c: cfg(64, 2, 3),
            heads_kv: 1,
            lens: vec![long - 40, 2],
            splits: Some(2),
        },
        // Page 128, MHA (group 1), f16, the split count the heuristic picks.
        Case {
            c: DecodeConfig {
                dtype: DType::F16,
                kv_dtype: DType::F16,
                ..cfg(128, 1, 1)
            },
            heads_kv: 3,
            lens: vec![long + 3],
            splits: None,
        },
        // 9 tokens × GQA 4 = 36 query rows: a 64-row tile over 8 warps; a sequence shorter
        // than its tokens (3 keys: the first tokens see none).
        Case {
            c: cfg(64, 4, 9),
            heads_kv: 1,
            lens: vec![long, 3],
            splits: Some(2),
        },
        // One warp a CTA over 32-key steps and a 4-stage ring (no cross-warp reductions).
        Case {
            c: DecodeConfig {
                num_warps: 1,
                block_n: 32,
                stages: 4,
                ..cfg(64, 2, 3)
            },
            heads_kv: 2,
            lens: vec![long - 7, 33],
            splits: Some(3),
        },
        // A sequence filling its 4 pages of 16 (passed 1000 keys longer), MHA.
        Case {
            c: cfg(16, 1, 1),
            heads_kv: 1,
            lens: vec![64, 30],
            splits: Some(2),
        },
        // fp8 KV with per-head scales, GQA 8, 2 tokens.
        Case {
            c: cfg(16, 8, 2).with_kv_dtype(DType::F8E4M3),
            heads_kv: 2,
            lens: vec![long, 17],
            splits: Some(2),
        },
        // Many splits over 16-key steps (the short sequences' later ones empty), GQA 8, 4
        // tokens causal (32 rows), odd lengths.
        Case {
            c: DecodeConfig {
                block_n: 16,
                ..cfg(16, 8, 4)
            },
            heads_kv: 2,
            lens: vec![long + 1, 3, 19],
            splits: Some(11),
        },
        // One split of several sequences: O written directly when merged in the kernel.
        Case {
            c: cfg(16, 4, 1),
            heads_kv: 2,
            lens: vec![long, 1, 0, 40],
            splits: Some(1),
        },
    ]
}

#[test]
fn decode_matches_the_host_in_the_interpreter() {
    // The merging kernel's CTAs in a shuffled order: any of a KV head's splits may draw the last
    // ticket (the in-order schedule makes it always the last split).
    let options = weft::codegen::interp::Options {
        schedule: weft::codegen::interp::Schedule::Random { seed: 11 },
    };
    let shuffled = weft::runtime::cpu::Device::with_options(Target::SM90A, options).unwrap();
    decode_matches_the_host::<weft::runtime::cpu::Cpu>(
        &common::gpu::cpu(),
        &shuffled,
        &cases(64, 150),
    );
}

#[cfg(feature = "cuda")]
#[test]
fn decode_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        let mut all = cases(128, 3001);
        all.extend(cases(64, 777));
        decode_matches_the_host::<weft::runtime::cuda::Cuda>(dev, dev, &all);
    });
}

/// The split-KV combine alone, f32 out, against an f64 host merge: 1, 2, 3, 5, 33 and 70 splits
/// (the tiling of each: one to 32 rows a program over 37 rows, the last program ragged; several
/// split blocks, the last ragged), empty splits (lse = -inf), a row no split saw a key of (O 0,
/// lse -inf), head dims 16, 64 and 128.
fn combine_matches_the_host<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let rows = 37;
    for d in [16usize, 64, 128] {
        for splits in [1usize, 2, 3, 5, 33, 70] {
            let cc = CombineConfig::new(DType::F32, d as u32, splits as u32);
            let combine_k = split_kv_combine_kernel(&ctx, Target::SM90A, cc).unwrap();
            let combine = load::<B>(dev, &combine_k, "combine");
            let what = format!("combine d {d}, {splits} splits, {cc:?}");
            let mut rng = Rng(0xC0 + (d * splits) as u64);
            let o_part: Vec<f32> = (0..splits * rows * d).map(|_| rng.f32()).collect();
            // Row 3 saw no key in any split; every third split of row 1 none either.
            let lse_part: Vec<f32> = (0..splits * rows)
                .map(|i| {
                    let (s, r) = (i / rows, i % rows);
                    if r == 3 || (r == 1 && s % 3 == 2) {
                        f32::NEG_INFINITY
                    } else {
                        rng.f32() * 8.0
                    }
                })
                .collect();
            let mut want_o = vec![0f64; rows * d];
            let mut want_lse = vec![f64::NEG_INFINITY; rows];
            for r in 0..rows {
                let l = |s: usize| f64::from(lse_part[s * rows + r]);
                let m = (0..splits).map(l).fold(f64::NEG_INFINITY, f64::max);
                if m == f64::NEG_INFINITY {
                    continue;
                }
                let sum: f64 = (0..splits).map(|s| (l(s) - m).exp()).sum();
                for (t, w) in want_o[r * d..][..d].iter_mut().enumerate() {
                    *w = (0..splits)
                        .map(|s| (l(s) - m).exp() * f64::from(o_part[(s * rows + r) * d + t]))
                        .sum::<f64>()
                        / sum;
                }
                want_lse[r] = m + sum.ln();
            }
            let (op, lp) = (dev.upload(&o_part).unwrap(), dev.upload(&lse_part).unwrap());
            let o = poisoned::<B, f32>(dev, rows * d);
            let lse = poisoned::<B, f32>(dev, rows);
            let mut args = KernelArgs::new();
            args.ptr(&op)
                .ptr(&lp)
                .ptr(&o)
                .ptr(&lse)
                .scalar(rows as i32)
                .scalar(splits as i32);
            // SAFETY: the combine reads `splits` partials of `rows` rows and writes O and lse
            // of those rows.
            unsafe { launch::<B>(dev, &combine, cc.grid(rows as u64), &args, &what) };
            let got_o = o.to_vec().unwrap();
            let got_lse = lse.to_vec().unwrap();
            poison_intact(&got_o, rows * d, f32_bits, &what);
            poison_intact(&got_lse, rows, f32_bits, &what);
            let t = Tol {
                rel: 1e-5,
                abs: 1e-6,
            };
            close(&widen(&got_o), &want_o, t, &what);
            assert_eq!(got_lse[3], f32::NEG_INFINITY, "{what}: the empty row's lse");
            assert!(
                got_o[3 * d..][..d].iter().all(|&x| x == 0.0),
                "{what}: the empty row's O"
            );
            for r in (0..rows).filter(|&r| r != 3) {
                let err = (f64::from(got_lse[r]) - want_lse[r]).abs();
                assert!(
                    err < 1e-5 * want_lse[r].abs().max(1.0),
                    "{what}: lse of row {r}: {err:e}"
                );
            }
        }
    }
}

#[test]
fn combine_matches_the_host_in_the_interpreter() {
    combine_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn combine_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda(combine_matches_the_host::<weft::runtime::cuda::Cuda>);
}
