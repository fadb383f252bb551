//! Timing GPU work, as Triton's `do_bench` does, for any [`Backend`](super::Backend).
//!
//! [`bench`] runs a closure that queues work on a stream and times it with events:
//! 1. one untimed run (module loads, JIT, first-touch of memory);
//! 2. an estimate: [`BenchOptions::estimate_runs`] runs, each after an L2 flush, timed together;
//! 3. `n_warmup = warmup_ms / estimate` and `n_repeat = rep_ms / estimate` (at least 1 each,
//!    `n_repeat` at most [`BenchOptions::max_repeat`]), or the fixed counts of
//!    [`BenchOptions::fixed`];
//! 4. `n_warmup` untimed runs, then `n_repeat` runs, each after an L2 flush and between two events.
//!
//! The L2 flush copies one half of a scratch buffer over the other half on the same stream, before
//! the start event (so it is not timed): the buffer is [`Flush::Auto`] 256 MiB as in Triton, or
//! four times the device's L2 when that is larger. Without it, a kernel whose inputs fit in L2 is
//! timed on warm data.
//!
//! [`bench_graph`] removes launch overhead as Triton's `do_bench_cudagraph` does: the closure is
//! captured once into a graph to estimate its time, then `n_repeat` times into one graph, replayed
//! [`BenchOptions::graph_replays`] times; each sample is one replay divided by `n_repeat` (no L2
//! flush: the runs follow each other inside the graph). Streams that can capture implement
//! [`GraphStream`] (`cuda::Stream` does).
//!
//! The result is a [`Timing`]: every sample in milliseconds and their statistics.
//!
//! ```no_run
//! # #[cfg(feature = "cuda")]
//! # fn main() -> weft::runtime::Result<()> {
//! use weft::runtime::bench::{bench, BenchOptions};
//! use weft::runtime::cuda::Device;
//! use weft::runtime::prelude::*;
//!
//! let dev = Device::new(0)?;
//! let src = dev.alloc_zeroed::<f32>(1 << 26)?;
//! let mut dst = dev.alloc::<f32>(1 << 26)?;
//! let stream = dev.new_stream()?;
//! let t = bench(&stream, &BenchOptions::default(), |s| s.copy_async(&src, &mut dst))?;
//! println!("median {:.3} ms, p20 {:.3} ms", t.median, t.quantile(0.2).unwrap());
//! # Ok(()) }
//! # #[cfg(not(feature = "cuda"))] fn main() {}
//! ```

use std::fmt;

use super::args::DevicePointer;
use super::backend::{Buffer, BufferOf, Device, Event, Stream};
use super::error::{Result, RuntimeError};

/// How to flush the L2 cache between timed runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// No flush: runs after the first see a warm L2.
    Off,
    /// A scratch buffer of 256 MiB (Triton's), or four times the device's L2 when larger.
    Auto,
    /// A scratch buffer of this many bytes (half of it is read, the other half written).
    Bytes(usize),
}

/// Options of [`bench`] and [`bench_graph`]; the defaults are Triton's.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchOptions {
    /// Time budget of the untimed warm-up runs, in milliseconds (default 25).
    pub warmup_ms: f64,
    /// Time budget of the timed runs, in milliseconds (default 100).
    pub rep_ms: f64,
    /// Runs of the estimate (default 5).
    pub estimate_runs: usize,
    /// The most timed runs, whatever the budget (default 10 000): work of a few microseconds
    /// would otherwise ask for tens of thousands of events.
    pub max_repeat: usize,
    /// Fixed `(n_warmup, n_repeat)` instead of counts from the budget (and no estimate).
    pub fixed: Option<(usize, usize)>,
    /// The L2 flush before each timed run (default [`Flush::Auto`]; [`bench_graph`] never flushes).
    pub flush: Flush,
    /// Replays of the unrolled graph in [`bench_graph`], one sample each (default 10).
    pub graph_replays: usize,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            warmup_ms: 25.0,
            rep_ms: 100.0,
            estimate_runs: 5,
            max_repeat: 10_000,
            fixed: None,
            flush: Flush::Auto,
            graph_replays: 10,
        }
    }
}

impl BenchOptions {
    /// Fixed counts: `warmup` untimed runs, then `repeat` timed ones.
    pub fn fixed(warmup: usize, repeat: usize) -> Self {
        BenchOptions {
            fixed: Some((warmup, repeat)),
            ..Self::default()
        }
    }

    /// `Err(BadOption)` naming the first option out of range.
    pub fn validate(&self) -> Result<()> {
        let bad =
            |what: &'static str, reason: String| Err(RuntimeError::BadOption { what, reason });
        if !(self.warmup_ms.is_finite() && self.warmup_ms >= 0.0) {
            return bad(
                "benchmark option `warmup_ms`",
                format!(
                    "{} is not a finite number of milliseconds ≥ 0",
                    self.warmup_ms
                ),
            );
        }
        if !(self.rep_ms.is_finite() && self.rep_ms > 0.0) {
            return bad(
                "benchmark option `rep_ms`",
                format!("{} is not a finite number of milliseconds > 0", self.rep_ms),
            );
        }
        if self.estimate_runs == 0 {
            return bad(
                "benchmark option `estimate_runs`",
                "must be at least 1".into(),
            );
        }
        if self.max_repeat == 0 {
            return bad("benchmark option `max_repeat`", "must be at least 1".into());
        }
        if let Some((_, 0)) = self.fixed {
            return bad(
                "benchmark option `fixed`",
                "the number of timed runs must be at least 1".into(),
            );
        }
        if self.graph_replays == 0 {
            return bad(
                "benchmark option `graph_replays`",
                "must be at least 1".into(),
            );
        }
        if let Flush::Bytes(b) = self.flush {
            if b < 2 {
                return bad(
                    "benchmark option `flush`",
                    format!("a flush buffer of {b} B cannot be split in two halves"),
                );
            }
        }
        Ok(())
    }

    /// `(n_warmup, n_repeat)` for work estimated at `estimate_ms` per run: the time budgets divided
    /// by the estimate, at least 1 each, `n_repeat` at most `max_repeat` (and `n_warmup` at most
    /// `max_repeat` too). A zero or non-finite estimate gives the most runs allowed.
    pub fn counts(&self, estimate_ms: f64) -> (usize, usize) {
        if let Some(f) = self.fixed {
            return f;
        }
        let n = |budget: f64| {
            if estimate_ms > 0.0 && estimate_ms.is_finite() {
                ((budget / estimate_ms) as usize).clamp(1, self.max_repeat)
            } else {
                self.max_repeat
            }
        };
        (n(self.warmup_ms), n(self.rep_ms))
    }

    /// The flush buffer's size on a device with `l2_bytes` of L2 (0 for [`Flush::Off`]).
    pub fn flush_bytes(&self, l2_bytes: usize) -> usize {
        match self.flush {
            Flush::Off => 0,
            Flush::Auto => (256usize << 20).max(l2_bytes.saturating_mul(4)),
            Flush::Bytes(b) => b,
        }
    }
}

/// Samples of a benchmark in milliseconds, with their statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// Every sample, in the order measured.
    pub samples: Vec<f64>,
    /// The smallest sample.
    pub min: f64,
    /// The largest sample.
    pub max: f64,
    /// The median (the 0.5 quantile, interpolated between the two middle samples of an even count).
    pub median: f64,
    /// The arithmetic mean.
    pub mean: f64,
    /// The standard deviation (population: divided by the count).
    pub std: f64,
    /// Untimed warm-up runs (after the first run and the estimate).
    pub n_warmup: usize,
    /// Timed runs per sample's worth: one for [`bench`], the graph's unrolled count for
    /// [`bench_graph`].
    pub n_repeat: usize,
    sorted: Vec<f64>,
}

impl Timing {
    /// The statistics of `samples` (milliseconds); `Err(BadOption)` when there are none or one is
    /// not a finite number ≥ 0.
    pub fn from_samples(samples: Vec<f64>) -> Result<Timing> {
        if samples.is_empty() {
            return Err(RuntimeError::BadOption {
                what: "timing samples",
                reason: "there are none".into(),
            });
        }
        if let Some((i, s)) = samples
            .iter()
            .enumerate()
            .find(|(_, s)| !(s.is_finite() && **s >= 0.0))
        {
            return Err(RuntimeError::BadOption {
                what: "timing samples",
                reason: format!("sample {i} is {s}, not a finite time ≥ 0"),
            });
        }
        let mut sorted = samples.clone();
        sorted.sort_by(f64::total_cmp);
        let n = samples.len() as f64;
        let mean = samples.iter().sum::<f64>() / n;
        let var = samples.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
        let mut t = Timing {
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            median: 0.0,
            mean,
            std: var.sqrt(),
            n_warmup: 0,
            n_repeat: samples.len(),
            samples,
            sorted,
        };
        t.median = t.interpolate(0.5);
        Ok(t)
    }

    fn interpolate(&self, q: f64) -> f64 {
        let s = &self.sorted;
        let pos = q * (s.len() - 1) as f64;
        let lo = pos.floor() as usize;
        let hi = pos.ceil() as usize;
        s[lo] + (s[hi] - s[lo]) * (pos - lo as f64)
    }

    /// The `q` quantile (`0 ≤ q ≤ 1`) with linear interpolation between samples, as
    /// `numpy.quantile` and `torch.quantile` (which Triton's `quantiles` use) compute it; `None`
    /// for `q` outside [0, 1].
    pub fn quantile(&self, q: f64) -> Option<f64> {
        (0.0..=1.0).contains(&q).then(|| self.interpolate(q))
    }

    /// The quantiles `qs`, in order; `Err(BadOption)` naming the first `q` outside [0, 1].
    pub fn quantiles(&self, qs: &[f64]) -> Result<Vec<f64>> {
        qs.iter()
            .map(|&q| {
                self.quantile(q).ok_or_else(|| RuntimeError::BadOption {
                    what: "quantile",
                    reason: format!("{q} is not in [0, 1]"),
                })
            })
            .collect()
    }

    /// The samples sorted ascending.
    pub fn sorted(&self) -> &[f64] {
        &self.sorted
    }
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "median {:.4} ms (min {:.4}, mean {:.4}, max {:.4}, {} samples)",
            self.median,
            self.min,
            self.mean,
            self.max,
            self.samples.len()
        )
    }
}

/// Times work on one stream, keeping the L2-flush buffer between calls (allocating 256 MiB per
/// benchmark would cost more than many of the kernels timed). [`bench`] is `Bencher::new` then
/// [`Bencher::run`].
pub struct Bencher<S: Stream> {
    stream: S,
    options: BenchOptions,
    flush: Option<BufferOf<S::Backend, u8>>,
}

impl<S: Stream> fmt::Debug for Bencher<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bencher")
            .field("stream", &self.stream)
            .field("options", &self.options)
            .field("flush_bytes", &self.flush.as_ref().map(|b| b.len()))
            .finish()
    }
}

impl<S: Stream> Bencher<S> {
    /// A bencher for `stream`: checks `options` and allocates the flush buffer.
    pub fn new(stream: &S, options: &BenchOptions) -> Result<Self> {
        options.validate()?;
        let dev = stream.device();
        let bytes = options.flush_bytes(dev.l2_bytes());
        let flush = if bytes >= 2 {
            let mut b = dev.alloc::<u8>(bytes)?;
            b.fill_bytes(0x5a)?;
            Some(b)
        } else {
            None
        };
        Ok(Bencher {
            stream: stream.clone(),
            options: options.clone(),
            flush,
        })
    }

    /// The options this bencher runs with.
    pub fn options(&self) -> &BenchOptions {
        &self.options
    }

    /// The stream work is queued on.
    pub fn stream(&self) -> &S {
        &self.stream
    }

    /// Queues the L2 flush (nothing for [`Flush::Off`]).
    pub fn flush(&self) -> Result<()> {
        if let Some(b) = &self.flush {
            let half = b.len() / 2;
            let base = b.device_addr();
            // SAFETY: both halves lie inside the live buffer `b` of this stream's device and do
            // not overlap; `self` keeps `b` alive, and `run` synchronizes before returning.
            unsafe {
                self.stream
                    .copy_async_unchecked(base, base + half as u64, half)
            }?;
        }
        Ok(())
    }

    /// Times `work` (which queues its work on the stream it is given) as described in the
    /// [module docs](self).
    pub fn run(&self, mut work: impl FnMut(&S) -> Result<()>) -> Result<Timing> {
        let s = &self.stream;
        work(s)?;
        s.synchronize()?;
        let (n_warmup, n_repeat) = match self.options.fixed {
            Some(f) => f,
            None => {
                let runs = self.options.estimate_runs;
                let start = s.record()?;
                for _ in 0..runs {
                    self.flush()?;
                    work(s)?;
                }
                let end = s.record()?;
                let est = start.elapsed_ms(&end)? as f64 / runs as f64;
                self.options.counts(est)
            }
        };
        for _ in 0..n_warmup {
            work(s)?;
        }
        let mut events = Vec::with_capacity(n_repeat);
        for _ in 0..n_repeat {
            self.flush()?;
            let start = s.record()?;
            work(s)?;
            let end = s.record()?;
            events.push((start, end));
        }
        s.synchronize()?;
        let samples = events
            .iter()
            .map(|(a, b)| a.elapsed_ms(b).map(f64::from))
            .collect::<Result<Vec<_>>>()?;
        let mut t = Timing::from_samples(samples)?;
        t.n_warmup = n_warmup;
        t.n_repeat = 1;
        Ok(t)
    }
}

/// Times `work` on `stream` with events, warm-up and repetitions from the time budget of `options`
/// and an L2 flush before each timed run; see the [module docs](self).
pub fn bench<S: Stream>(
    stream: &S,
    options: &BenchOptions,
    work: impl FnMut(&S) -> Result<()>,
) -> Result<Timing> {
    Bencher::new(stream, options)?.run(work)
}

/// A stream whose work can be captured into a graph and replayed (CUDA graphs).
pub trait GraphStream: Stream {
    /// An instantiated graph, replayable on the stream it was captured on.
    type Graph;

    /// Captures the work `work` queues on this stream (in relaxed mode) into an instantiated
    /// graph. The stream must not be the legacy default stream, and `work` must only queue work
    /// (no synchronization, allocation or host copies) while capturing.
    fn capture(&self, work: &mut dyn FnMut(&Self) -> Result<()>) -> Result<Self::Graph>;

    /// Queues one replay of `graph` on this stream.
    fn replay(&self, graph: &Self::Graph) -> Result<()>;
}

/// Times `work` without launch overhead, as Triton's `do_bench_cudagraph`: on a new stream of the
/// same device, one run, a graph of one run replayed [`BenchOptions::estimate_runs`] times for the
/// estimate, then a graph of `n_repeat = rep_ms / estimate` runs (capped by `max_repeat`, or
/// `fixed`) replayed [`BenchOptions::graph_replays`] times. Each sample is a replay's time divided
/// by `n_repeat`. `work` must launch on the stream it is given.
pub fn bench_graph<S: GraphStream>(
    stream: &S,
    options: &BenchOptions,
    mut work: impl FnMut(&S) -> Result<()>,
) -> Result<Timing> {
    options.validate()?;
    let dev = stream.device();
    // The caller's stream may be the legacy default stream, which cannot be captured.
    let s: S = dev.new_stream()?;
    let before = stream.record()?;
    s.wait(&before)?;
    work(&s)?;
    s.synchronize()?;
    let n_repeat = match options.fixed {
        Some((_, r)) => r,
        None => {
            let one = s.capture(&mut work)?;
            s.replay(&one)?;
            s.synchronize()?;
            let start = s.record()?;
            for _ in 0..options.estimate_runs {
                s.replay(&one)?;
            }
            let end = s.record()?;
            let est = start.elapsed_ms(&end)? as f64 / options.estimate_runs as f64;
            options.counts(est).1
        }
    };
    let graph = s.capture(&mut |st: &S| {
        for _ in 0..n_repeat {
            work(st)?;
        }
        Ok(())
    })?;
    // One untimed replay uploads the graph and warms the caches.
    s.replay(&graph)?;
    s.synchronize()?;
    let mut events = Vec::with_capacity(options.graph_replays);
    for _ in 0..options.graph_replays {
        let start = s.record()?;
        s.replay(&graph)?;
        let end = s.record()?;
        events.push((start, end));
    }
    s.synchronize()?;
    let samples = events
        .iter()
        .map(|(a, b)| a.elapsed_ms(b).map(|ms| ms as f64 / n_repeat as f64))
        .collect::<Result<Vec<_>>>()?;
    let mut t = Timing::from_samples(samples)?;
    t.n_warmup = 1;
    t.n_repeat = n_repeat;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn statistics_of_known_samples() {
        let t = Timing::from_samples(vec![4.0, 1.0, 3.0, 2.0, 5.0]).unwrap();
        assert_eq!((t.min, t.max, t.median, t.mean), (1.0, 5.0, 3.0, 3.0));
        assert!(close(t.std, 2f64.sqrt()));
        assert_eq!(
            t.samples,
            vec![4.0, 1.0, 3.0, 2.0, 5.0],
            "measured order kept"
        );
        assert_eq!(t.sorted(), &[1.0, 2.0, 3.0, 4.0, 5.0]);
        // numpy.quantile([1,2,3,4,5], [0, .2, .25, .5, .8, 1]) = [1, 1.8, 2, 3, 4.2, 5]
        let q = t.quantiles(&[0.0, 0.2, 0.25, 0.5, 0.8, 1.0]).unwrap();
        for (got, want) in q.iter().zip([1.0, 1.8, 2.0, 3.0, 4.2, 5.0]) {
            assert!(close(*got, want), "{q:?}");
        }
    }

    #[test]
    fn even_counts_interpolate_the_median() {
        let t = Timing::from_samples(vec![10.0, 1.0, 2.0, 3.0]).unwrap();
        assert!(close(t.median, 2.5));
        assert!(close(t.mean, 4.0));
        // numpy.quantile([1,2,3,10], 0.9) = 7.9
        assert!(close(t.quantile(0.9).unwrap(), 7.9));
        let one = Timing::from_samples(vec![0.25]).unwrap();
        assert_eq!(
            (one.min, one.median, one.max, one.std),
            (0.25, 0.25, 0.25, 0.0)
        );
        assert_eq!(one.quantile(0.37), Some(0.25));
    }

    #[test]
    fn bad_samples_and_quantiles_are_errors() {
        assert!(matches!(
            Timing::from_samples(vec![]),
            Err(RuntimeError::BadOption {
                what: "timing samples",
                ..
            })
        ));
        let e = Timing::from_samples(vec![1.0, f64::NAN]).unwrap_err();
        assert!(e.to_string().contains("sample 1 is NaN"), "{e}");
        assert!(Timing::from_samples(vec![-1.0]).is_err());
        let t = Timing::from_samples(vec![1.0, 2.0]).unwrap();
        assert_eq!(t.quantile(1.5), None);
        assert_eq!(t.quantile(f64::NAN), None);
        let e = t.quantiles(&[0.5, -0.1]).unwrap_err();
        assert_eq!(e.to_string(), "bad quantile: -0.1 is not in [0, 1]");
    }

    #[test]
    fn counts_follow_the_budget() {
        let o = BenchOptions::default();
        // 0.5 ms per run: 25 / 0.5 warm-up runs, 100 / 0.5 timed runs.
        assert_eq!(o.counts(0.5), (50, 200));
        // Longer than the budget: one of each.
        assert_eq!(o.counts(500.0), (1, 1));
        // Very short work is capped; a zero estimate gets the cap.
        assert_eq!(o.counts(1e-6), (10_000, 10_000));
        assert_eq!(o.counts(0.0), (10_000, 10_000));
        assert_eq!(o.counts(f64::NAN), (10_000, 10_000));
        assert_eq!(BenchOptions::fixed(3, 7).counts(0.5), (3, 7));
    }

    #[test]
    fn flush_sizes() {
        let o = BenchOptions::default();
        assert_eq!(o.flush_bytes(50 << 20), 256 << 20, "Triton's 256 MiB");
        assert_eq!(o.flush_bytes(128 << 20), 512 << 20, "four times a large L2");
        let off = BenchOptions {
            flush: Flush::Off,
            ..o.clone()
        };
        assert_eq!(off.flush_bytes(50 << 20), 0);
        let fixed = BenchOptions {
            flush: Flush::Bytes(1 << 20),
            ..o
        };
        assert_eq!(fixed.flush_bytes(50 << 20), 1 << 20);
    }

    #[test]
    fn bad_options_are_named() {
        let cases = [
            (
                BenchOptions {
                    rep_ms: 0.0,
                    ..Default::default()
                },
                "rep_ms",
            ),
            (
                BenchOptions {
                    warmup_ms: f64::INFINITY,
                    ..Default::default()
                },
                "warmup_ms",
            ),
            (
                BenchOptions {
                    estimate_runs: 0,
                    ..Default::default()
                },
                "estimate_runs",
            ),
            (BenchOptions::fixed(1, 0), "fixed"),
            (
                BenchOptions {
                    flush: Flush::Bytes(1),
                    ..Default::default()
                },
                "flush",
            ),
            (
                BenchOptions {
                    graph_replays: 0,
                    ..Default::default()
                },
                "graph_replays",
            ),
        ];
        for (o, name) in cases {
            let e = o.validate().unwrap_err();
            assert!(e.to_string().contains(name), "{name}: {e}");
        }
        assert!(BenchOptions::default().validate().is_ok());
    }
}
