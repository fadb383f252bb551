//! Forward attention (`kernels::attention_kernel`) built for sm_90a (ptxas, no spills checked by
//! ptxas -v on the GPU machine) and run on the GPU against an f64 host reference: f16 and bf16,
//! causal and not, several heads, on random data; O within the 16-bit rounding of the result and
//! the log-sum-exp within 1e-3. Without a driver or GPU the run prints `SKIP: <reason>` and passes.
#![cfg(feature = "llvm")]

mod common;

use common::attention::configs;
use weft::codegen::kernels::{attention_kernel, AttentionConfig, AttentionSchedule};
use weft::codegen::{Context, DType, Target};

/// Elements past the end of O and lse, which must keep their poison.
#[cfg(feature = "cuda")]
const PAD: usize = 1024;

#[test]
fn attention_assembles_with_wgmma_from_registers() {
    let ctx = Context::new();
    for c in configs() {
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        let ptx = k.ptx().unwrap();
        if let Ok(dir) = std::env::var("WEFT_DUMP_PTX") {
            let file = format!("{}_{}_d{}.ptx", k.signature().name, c.dtype, c.head_dim);
            std::fs::write(std::path::Path::new(&dir).join(file), &ptx).unwrap();
        }
        if c.schedule == AttentionSchedule::Pipelined {
            // As its docs say: P·V stays in flight across the loop's back edge, where the
            // carried accumulator is copied, and ptxas serialises the wgmmas.
            if let Some(log) = common::ptxas_log(&ptx, "sm_90a", &format!("{c:?}")) {
                assert!(log.contains("C7514"), "{c:?}: {log}");
            }
        } else {
            common::assemble(&ptx, "sm_90a", &format!("{c:?}"));
        }
        // S = Q Kᵀ from shared memory (D / 16 k-steps) and O += P V with P in registers (8
        // k-steps over block_n = 128) per key block. Serial: once, in the loop (the last block's
        // mask is a branch inside it). Pipelined: S of the first block before the loop, P V of
        // the last after it. Ping-pong: block 0 (S only) and the last block (S and P V) peeled
        // off the loop, and P V of the last block after it.
        let s_steps = (c.head_dim / 16) as usize;
        let (s_copies, pv_copies) = match c.schedule {
            AttentionSchedule::Serial => (1, 1),
            AttentionSchedule::Pipelined => (2, 2),
            AttentionSchedule::PingPong => (3, 3),
        };
        assert_eq!(
            ptx.matches("wgmma.mma_async").count(),
            s_steps * s_copies + 8 * pv_copies,
            "{c:?}"
        );
        let from_regs = ptx
            .lines()
            .filter(|l| l.contains("wgmma.mma_async") && l.contains("}, {"))
            .count();
        assert_eq!(
            from_regs,
            8 * pv_copies,
            "{c:?}: P · V takes A from registers"
        );
        // Pipelined and ping-pong: S of one block and P V of another are in flight together
        // while the softmax runs.
        assert_eq!(
            ptx.contains("wgmma.wait_group.sync.aligned 1;"),
            c.schedule != AttentionSchedule::Serial,
            "{c:?}"
        );
        // The epilogue of a block inside the sequence: TMA stores of O (one per 64 columns).
        assert_eq!(
            ptx.matches("cp.async.bulk.tensor.2d.global.shared::cta")
                .count(),
            (c.head_dim / 64) as usize,
            "{c:?}"
        );
        if c.schedule == AttentionSchedule::PingPong {
            // The producer gives registers to the consumers; turns pass through named barriers.
            assert!(ptx.contains("setmaxnreg.dec.sync.aligned.u32 24;"), "{c:?}");
            assert!(
                ptx.contains("setmaxnreg.inc.sync.aligned.u32 240;"),
                "{c:?}"
            );
            assert!(ptx.contains("bar.arrive"), "{c:?}");
        }
    }
    // A typed error names what is not supported.
    let mut c = AttentionConfig::new(DType::F16, false);
    c.head_dim = 96;
    let e = attention_kernel(&ctx, Target::SM90A, c).unwrap_err();
    assert!(e.to_string().contains("head_dim 96"), "{e}");
}

#[cfg(feature = "cuda")]
#[test]
fn attention_matches_the_host() {
    use common::gpu::device;
    use common::rng::Rng;
    use weft::codegen::kernels::attention_reference;
    use weft::runtime::prelude::*;
    use weft::runtime::{bf16, f16};
    let Some(dev) = device() else { return };
    if !dev.target().unwrap().supports(weft::target::Feature::Wgmma) {
        println!("SKIP: no wgmma on this GPU");
        return;
    }
    let ctx = Context::new();
    // `WEFT_ATTENTION_SCHEDULE=PingPong` (etc.) runs one schedule (under compute-sanitizer).
    let only = std::env::var("WEFT_ATTENTION_SCHEDULE").ok();
    for c in configs() {
        if only
            .as_ref()
            .is_some_and(|s| *s != format!("{:?}", c.schedule))
        {
            continue;
        }
        let k = attention_kernel(&ctx, Target::SM90A, c).unwrap();
        let kernel = common::gpu::load_kernel(&dev, &k);
        // Multiples of the block and odd lengths (masked key tails, rows past the end unstored).
        for (heads, seq) in [(1usize, 128usize), (3, 384), (2, 1000), (3, 77), (2, 300)] {
            let d = c.head_dim as usize;
            let mut rng = Rng(heads as u64 * 1000 + seq as u64);
            let n = heads * seq * d;
            // Inputs rounded to the 16-bit type first, so the reference sees what the GPU sees.
            let round = |x: f32| match c.dtype {
                DType::F16 => f16::from_f32(x).to_f32(),
                _ => bf16::from_f32(x).to_f32(),
            };
            let mut gen =
                |n: usize| -> Vec<f32> { (0..n).map(|_| round(rng.f32() / 2.0)).collect() };
            let (q, kk, v) = (gen(n), gen(n), gen(n));
            let scale = 1.0 / (d as f64).sqrt();
            let (want_o, want_lse) =
                attention_reference(&q, &kk, &v, heads, seq, d, scale, c.causal);
            let mut lse = dev.alloc::<f32>(heads * seq + PAD).unwrap();
            lse.fill_bytes(0xFF).unwrap();
            let launch = Launch {
                kernel: &kernel,
                k: &k,
                c,
                heads,
                seq,
                scale,
            };
            let got: Vec<f32> = match c.dtype {
                DType::F16 => launch.run(&dev, [&q, &kk, &v], &lse, f16::from_f32, f16::to_f32),
                _ => launch.run(&dev, [&q, &kk, &v], &lse, bf16::from_f32, bf16::to_f32),
            };
            let got_lse = lse.to_vec().unwrap();
            // Nothing past the last row was written (the poison stays NaN).
            assert!(
                got[n..].iter().all(|x| x.is_nan()),
                "{c:?} heads {heads} seq {seq}: wrote past O"
            );
            let got = &got[..n];
            assert!(
                got_lse[heads * seq..].iter().all(|x| x.is_nan()),
                "{c:?}: wrote past lse"
            );
            // P is rounded to 16 bits before P·V, as in FlashAttention.
            let tol = if c.dtype == DType::F16 { 4e-3 } else { 3e-2 };
            let mut max_err = 0f32;
            for (i, (g, w)) in got.iter().zip(&want_o).enumerate() {
                let e = (g - w).abs();
                max_err = max_err.max(e);
                assert!(
                    e <= tol,
                    "{c:?} heads {heads} seq {seq}: O[{}] = {g}, want {w}",
                    i
                );
            }
            let mut max_lse = 0f32;
            for (i, (g, w)) in got_lse.iter().zip(&want_lse).enumerate() {
                let e = (g - w).abs();
                max_lse = max_lse.max(e);
                assert!(
                    e <= 1e-3 * w.abs().max(1.0),
                    "{c:?} heads {heads} seq {seq}: lse[{i}] = {g}, want {w}"
                );
            }
            println!("{c:?} heads {heads} seq {seq}: ok, max abs error O {max_err:.2e}, lse {max_lse:.2e}");
        }
    }
}

/// One launch of the attention kernel on `heads` heads of `seq` rows.
#[cfg(feature = "cuda")]
struct Launch<'a, 'c> {
    kernel: &'a weft::runtime::cuda::Kernel,
    k: &'a weft::codegen::Kernel<'c>,
    c: AttentionConfig,
    heads: usize,
    seq: usize,
    scale: f64,
}

#[cfg(feature = "cuda")]
impl Launch<'_, '_> {
    /// Uploads Q, K, V converted by `to`, runs the kernel into a poisoned O (PAD elements longer)
    /// and `lse`, and returns O read back through `from`.
    fn run<T: weft::runtime::DeviceElem>(
        &self,
        dev: &weft::runtime::cuda::Device,
        qkv: [&[f32]; 3],
        lse: &weft::runtime::cuda::Buffer<f32>,
        to: impl Fn(f32) -> T,
        from: impl Fn(T) -> f32,
    ) -> Vec<f32> {
        use weft::runtime::cuda::TensorMap;
        use weft::runtime::prelude::*;
        use weft::runtime::{KernelArgs, LaunchConfig};
        let c = self.c;
        let d = c.head_dim as u64;
        let rows = (self.heads * self.seq) as u64;
        let up = |x: &[f32]| {
            dev.upload(&x.iter().map(|&y| to(y)).collect::<Vec<_>>())
                .unwrap()
        };
        let (dq, dk, dv) = (up(qkv[0]), up(qkv[1]), up(qkv[2]));
        let mut o = dev.alloc::<T>(rows as usize * d as usize + PAD).unwrap();
        o.fill_bytes(0xFF).unwrap();
        let map = |b, boxed: [u32; 2]| {
            TensorMap::tiled(b, &[rows, d], &[d], &boxed, c.swizzle()).unwrap()
        };
        let (qm, km, vm) = (
            map(&dq, c.q_box()),
            map(&dk, c.kv_box()),
            map(&dv, c.kv_box()),
        );
        // O's map covers the rows exactly: the padding after them must stay untouched.
        let om = map(&o, c.q_box());
        let mut args = KernelArgs::new();
        args.tensor_map(&qm)
            .tensor_map(&km)
            .tensor_map(&vm)
            .tensor_map(&om)
            .ptr(&o)
            .ptr(lse)
            .scalar(self.seq as i32)
            .scalar((self.scale * std::f64::consts::LOG2_E) as f32);
        let grid = c.grid(self.seq as u64, self.heads as u64);
        let cfg = LaunchConfig::for_kernel(grid, self.k.signature()).unwrap();
        // SAFETY: the kernel reads Q, K, V through maps that cover them and writes
        // O[0..heads·seq·d) and lse[0..heads·seq).
        unsafe { dev.stream().launch(self.kernel, &cfg, &args).unwrap() };
        o.to_vec().unwrap().into_iter().map(from).collect()
    }
}
