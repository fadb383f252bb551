//! Autotuning: build a kernel in every configuration, check and time each, launch the best, and
//! remember the choice per key of the arguments, in memory and on disk.
//!
//! An [`Autotuner`] is made of
//! - a **name** (the kernel's; it names the cache file),
//! - the **configs**: any `Clone + Debug` type (a tuple, a struct, a [`Config`] of named
//!   parameters from a [`ConfigSpace`] product with pruning predicates); a config's `Debug` text is
//!   its label in reports and in the cache,
//! - a **build** function of a config and the device's [`Target`] returning [`Compiled`] (PTX,
//!   cubin or code object, and the signature); with feature `llvm` this calls a
//!   `weft::codegen` builder and takes `kernel.ptx()` and `kernel.signature()`,
//! - a **launch** function: given a stream, the loaded kernel of a config, the config and the
//!   arguments, it queues one launch (the `unsafe` launch contract is the caller's, in there),
//! - a **key** function of the arguments (shapes, dtypes): one choice is made per key.
//!
//! [`Autotuner::run`] on a key seen before launches the remembered choice. On a new key it looks in
//! the disk cache ([`disk`]): a hit rebuilds only the chosen config (and re-tunes if the kernel's
//! content hash changed). Otherwise it sweeps: every config is built and loaded (a config the
//! target cannot build, load or launch is skipped and reported, never fatal), checked against the
//! first working config's output when [`Autotuner::check`] asked for it, timed with
//! [`bench`](crate::runtime::bench), and the smallest median wins. The choice is stored, then
//! launched.
//!
//! A progress bar (`indicatif`) shows the sweep when stderr is a terminal; `WEFT_PRINT_AUTOTUNING=1`
//! prints the choice and the whole table to stderr.
//!
//! Bad input is a typed [`TuneError`]: an empty config list, a key function that panics, every
//! config failing (each named with its stage and reason).

pub mod disk;
pub mod space;

use std::collections::HashMap;
use std::fmt;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use disk::{DiskCache, Entry, EntryKey};
pub use space::{Config, ConfigSpace};

use super::backend::{Backend, Device, DeviceOf, KernelImage, KernelOf, Stream, StreamOf};
use super::bench::{BenchOptions, Bencher, GraphStream, Timing};
use super::error::{Result, RuntimeError};
use super::launch::DeviceLimits;
use crate::signature::KernelSignature;
use crate::target::Target;

/// A kernel image owned, as a build function returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedImage {
    /// PTX text (CUDA).
    Ptx(String),
    /// An ELF cubin or fatbin (CUDA).
    Cubin(Vec<u8>),
    /// An AMDGPU code object (HIP).
    CodeObject(Vec<u8>),
}

/// What a build function returns: the kernel image of one config, and its signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The image.
    pub image: OwnedImage,
    /// The signature launches are checked against.
    pub signature: KernelSignature,
}

impl Compiled {
    /// PTX text and its signature (e.g. `kernel.ptx()?` and `kernel.signature().clone()` of a
    /// `weft::codegen` kernel).
    pub fn ptx(text: impl Into<String>, signature: KernelSignature) -> Compiled {
        Compiled {
            image: OwnedImage::Ptx(text.into()),
            signature,
        }
    }

    /// An AMDGPU code object and its signature.
    pub fn code_object(bytes: Vec<u8>, signature: KernelSignature) -> Compiled {
        Compiled {
            image: OwnedImage::CodeObject(bytes),
            signature,
        }
    }

    /// The image as the backends load it.
    pub fn image(&self) -> KernelImage<'_> {
        match &self.image {
            OwnedImage::Ptx(t) => KernelImage::Ptx(t),
            OwnedImage::Cubin(b) => KernelImage::Cubin(b),
            OwnedImage::CodeObject(b) => KernelImage::CodeObject(b),
        }
    }

    /// A hash of the image and the signature, the same in every process (FNV-1a): the "kernel
    /// content" part of the disk cache's key.
    pub fn content_hash(&self) -> u64 {
        let (tag, bytes): (&[u8], &[u8]) = match &self.image {
            OwnedImage::Ptx(t) => (b"ptx", t.as_bytes()),
            OwnedImage::Cubin(b) => (b"cubin", b),
            OwnedImage::CodeObject(b) => (b"hsaco", b),
        };
        let mut all = Vec::with_capacity(bytes.len() + 64);
        all.extend_from_slice(tag);
        all.push(0);
        all.extend_from_slice(self.signature.to_string().as_bytes());
        all.push(0);
        all.extend_from_slice(bytes);
        disk::fnv1a(&all)
    }
}

/// Where a config failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Rejected by the tuner's prune predicate for this device.
    Pruned,
    /// The build function returned an error or panicked.
    Build,
    /// The driver did not load the image or find the kernel.
    Load,
    /// The launch was rejected, or the kernel faulted.
    Launch,
    /// Its output differs from the reference config's.
    Check,
    /// Timing failed.
    Bench,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Pruned => "pruned",
            Stage::Build => "build",
            Stage::Load => "load",
            Stage::Launch => "launch",
            Stage::Check => "check",
            Stage::Bench => "bench",
        })
    }
}

/// One config that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigFailure {
    /// The config's label.
    pub config: String,
    /// Where it failed.
    pub stage: Stage,
    /// The error.
    pub reason: String,
}

impl fmt::Display for ConfigFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}: {}", self.config, self.stage, self.reason)
    }
}

fn list(failures: &[ConfigFailure]) -> String {
    failures
        .iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Everything autotuning can fail with.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TuneError {
    /// The tuner was given no configs.
    #[error("autotuner `{kernel}`: the config list is empty")]
    NoConfigs {
        /// The kernel's name.
        kernel: String,
    },
    /// A [`ConfigSpace`] or a [`Config`] parameter is unusable.
    #[error("bad config space: {reason}")]
    BadSpace {
        /// What is wrong.
        reason: String,
    },
    /// The key function panicked.
    #[error("autotuner `{kernel}`: the key function panicked: {message}")]
    KeyPanicked {
        /// The kernel's name.
        kernel: String,
        /// The panic's message.
        message: String,
    },
    /// No config could be built, loaded, launched, checked and timed.
    #[error("autotuner `{kernel}`, key `{key}`: all {} configs failed: {}", failures.len(), list(failures))]
    AllFailed {
        /// The kernel's name.
        kernel: String,
        /// The key.
        key: String,
        /// Each config's failure.
        failures: Vec<ConfigFailure>,
    },
    /// The launch of the chosen config (or setting up the benchmark) failed.
    #[error("autotuner `{kernel}`: {source}")]
    Runtime {
        /// The kernel's name.
        kernel: String,
        /// The error (boxed: it is the largest variant, and every `Result` carries its size).
        source: Box<RuntimeError>,
    },
}

/// One row of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The config's position in the tuner's list.
    pub index: usize,
    /// The config's label.
    pub config: String,
    /// Its timing, or why it was skipped.
    pub outcome: std::result::Result<Timing, ConfigFailure>,
}

/// The result of a sweep: every config's row and the best one.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The kernel's name.
    pub kernel: String,
    /// The key of the arguments.
    pub key: String,
    /// The device's name.
    pub device: String,
    /// One row per config, in the tuner's order.
    pub rows: Vec<Row>,
    /// The row with the smallest median.
    pub best: usize,
    /// Wall time of the sweep.
    pub elapsed: Duration,
}

impl Report {
    /// The best row's timing.
    pub fn best_timing(&self) -> &Timing {
        match &self.rows[self.best].outcome {
            Ok(t) => t,
            Err(_) => unreachable!("the best row is always timed"),
        }
    }

    /// The configs that were skipped, with why.
    pub fn failures(&self) -> Vec<&ConfigFailure> {
        self.rows
            .iter()
            .filter_map(|r| r.outcome.as_ref().err())
            .collect()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let best = &self.rows[self.best];
        writeln!(
            f,
            "weft autotuning `{}` for key `{}` on {}: {} configs in {:.2} s; best: {} ({:.4} ms median)",
            self.kernel,
            self.key,
            self.device,
            self.rows.len(),
            self.elapsed.as_secs_f64(),
            best.config,
            self.best_timing().median
        )?;
        let width = self
            .rows
            .iter()
            .map(|r| r.config.len())
            .max()
            .unwrap_or(6)
            .max(6);
        writeln!(
            f,
            "  {:width$}  {:>10}  {:>10}  {:>10}  {:>7}  status",
            "config", "median ms", "min ms", "p80 ms", "runs"
        )?;
        for r in &self.rows {
            let mark = if r.index == best.index {
                " <- best"
            } else {
                ""
            };
            match &r.outcome {
                Ok(t) => writeln!(
                    f,
                    "  {:width$}  {:>10.4}  {:>10.4}  {:>10.4}  {:>7}  ok{mark}",
                    r.config,
                    t.median,
                    t.min,
                    t.quantile(0.8).unwrap_or(t.max),
                    t.samples.len()
                )?,
                Err(e) => writeln!(
                    f,
                    "  {:width$}  {:>10}  {:>10}  {:>10}  {:>7}  skipped ({}): {}",
                    r.config, "-", "-", "-", "-", e.stage, e.reason
                )?,
            }
        }
        Ok(())
    }
}

/// The row with the smallest median (the first of equals); `None` when none was timed.
pub fn select(rows: &[Row]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, r) in rows.iter().enumerate() {
        if let Ok(t) = &r.outcome {
            if best.is_none_or(|(_, m)| t.median < m) {
                best = Some((i, t.median));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// The text of a panic payload.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

/// Runs a key function, turning a panic into [`TuneError::KeyPanicked`].
pub fn call_key<A>(
    kernel: &str,
    key: &dyn Fn(&A) -> String,
    args: &A,
) -> std::result::Result<String, TuneError> {
    catch_unwind(AssertUnwindSafe(|| key(args))).map_err(|p| TuneError::KeyPanicked {
        kernel: kernel.to_string(),
        message: panic_message(p),
    })
}

/// The key of a list of `Debug` parts, joined by `, `: e.g. `key_of(&[&n, &"f32"])`.
pub fn key_of(parts: &[&dyn fmt::Debug]) -> String {
    parts
        .iter()
        .map(|p| format!("{p:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compares `got` with `want`: equal lengths, and each element within `atol + rtol·|want|`
/// (NaN matches only NaN). `Err` names the first difference.
pub fn compare(got: &[f64], want: &[f64], atol: f64, rtol: f64) -> std::result::Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{} output elements, the reference has {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = if g.is_nan() || w.is_nan() {
            g.is_nan() && w.is_nan()
        } else {
            g == w || (g - w).abs() <= atol + rtol * w.abs()
        };
        if !ok {
            return Err(format!(
                "element {i} is {g}, the reference config gives {w}"
            ));
        }
    }
    Ok(())
}

/// Options of an [`Autotuner`].
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    /// How each config is timed.
    pub bench: BenchOptions,
    /// Use the disk cache (default true).
    pub disk_cache: bool,
    /// The cache directory; `None` for [`disk::default_dir`] (`$WEFT_CACHE_DIR`, …).
    pub cache_dir: Option<PathBuf>,
    /// Print the report to stderr; `None` for `WEFT_PRINT_AUTOTUNING=1`.
    pub print: Option<bool>,
    /// Show a progress bar; `None` for "when stderr is a terminal".
    pub progress: Option<bool>,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            bench: BenchOptions::default(),
            disk_cache: true,
            cache_dir: None,
            print: None,
            progress: None,
        }
    }
}

/// Where the config of a [`Tuned`] launch came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Chosen by a sweep in this call.
    Tuned,
    /// Remembered by this tuner from an earlier call.
    Memory,
    /// Read from the disk cache (only the chosen config was built).
    Disk,
}

/// What [`Autotuner::run`] launched.
#[derive(Debug, Clone)]
pub struct Tuned<C> {
    /// The config launched.
    pub config: C,
    /// Its position in the tuner's list.
    pub index: usize,
    /// Where the choice came from.
    pub source: Source,
    /// The sweep's report (for [`Source::Tuned`], and for later calls on the same key).
    pub report: Option<Arc<Report>>,
    /// The median time recorded when the config was chosen.
    pub median_ms: f64,
}

type BuildFn<C> = Box<dyn Fn(&C, Target) -> std::result::Result<Compiled, String> + Send + Sync>;
type LaunchFn<B, C, A> =
    Box<dyn Fn(&StreamOf<B>, &KernelOf<B>, &C, &A) -> Result<()> + Send + Sync>;
type KeyFn<A> = Box<dyn Fn(&A) -> String + Send + Sync>;
type PruneFn<C> = Box<dyn Fn(&C, &DeviceLimits) -> bool + Send + Sync>;
type TimerFn<B> = Box<
    dyn Fn(&Bencher<StreamOf<B>>, &mut dyn FnMut(&StreamOf<B>) -> Result<()>) -> Result<Timing>
        + Send
        + Sync,
>;
type ResetFn<A> = Box<dyn Fn(&mut A) -> Result<()> + Send + Sync>;
type ReadFn<A> = Box<dyn Fn(&A) -> Result<Vec<f64>> + Send + Sync>;
/// A sweep's report and each config's loaded kernel (`None` where it failed).
type Swept<B> = (Report, Vec<Option<KernelOf<B>>>);

struct Check<A> {
    reset: ResetFn<A>,
    read: ReadFn<A>,
    atol: f64,
    rtol: f64,
}

struct Choice<B: Backend> {
    index: usize,
    kernel: KernelOf<B>,
    median_ms: f64,
    report: Option<Arc<Report>>,
}

/// A kernel tuned over a list of configs; see the [module docs](self).
pub struct Autotuner<B: Backend, C, A> {
    name: String,
    configs: Vec<C>,
    labels: Vec<String>,
    build: BuildFn<C>,
    launch: LaunchFn<B, C, A>,
    key: KeyFn<A>,
    prune: Option<PruneFn<C>>,
    check: Option<Check<A>>,
    timer: TimerFn<B>,
    options: TuneOptions,
    memory: Mutex<HashMap<String, Arc<Choice<B>>>>,
}

impl<B: Backend, C, A> fmt::Debug for Autotuner<B, C, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Autotuner")
            .field("name", &self.name)
            .field("configs", &self.labels)
            .field("options", &self.options)
            .finish()
    }
}

impl<B: Backend, C: Clone + fmt::Debug, A> Autotuner<B, C, A> {
    /// A tuner of kernel `name` over `configs`, built by `build` and launched by `launch`; the
    /// key defaults to one key for all arguments (set one with [`Autotuner::key`]).
    /// `Err(NoConfigs)` for an empty list.
    pub fn new<E: fmt::Display>(
        name: impl Into<String>,
        configs: Vec<C>,
        build: impl Fn(&C, Target) -> std::result::Result<Compiled, E> + Send + Sync + 'static,
        launch: impl Fn(&StreamOf<B>, &KernelOf<B>, &C, &A) -> Result<()> + Send + Sync + 'static,
    ) -> std::result::Result<Self, TuneError> {
        let name = name.into();
        if configs.is_empty() {
            return Err(TuneError::NoConfigs { kernel: name });
        }
        let labels = configs.iter().map(|c| format!("{c:?}")).collect();
        Ok(Autotuner {
            name,
            configs,
            labels,
            build: Box::new(move |c, t| build(c, t).map_err(|e| e.to_string())),
            launch: Box::new(launch),
            key: Box::new(|_| String::new()),
            prune: None,
            check: None,
            timer: Box::new(|b, work| b.run(work)),
            options: TuneOptions::default(),
            memory: Mutex::new(HashMap::new()),
        })
    }

    /// The key of the arguments (shapes, dtypes, …): one choice per key.
    pub fn key(mut self, key: impl Fn(&A) -> String + Send + Sync + 'static) -> Self {
        self.key = Box::new(key);
        self
    }

    /// Skips the configs for which `keep(config, device limits)` is false (e.g. too much shared
    /// memory for this device); they are reported as pruned.
    pub fn prune(
        mut self,
        keep: impl Fn(&C, &DeviceLimits) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.prune = Some(Box::new(keep));
        self
    }

    /// Checks every config's output against the first working config's: before each config's
    /// checked launch `reset` poisons the outputs, after it `read` returns them, and they must
    /// match within `atol + rtol·|reference|` (see [`compare`]).
    pub fn check(
        mut self,
        reset: impl Fn(&mut A) -> Result<()> + Send + Sync + 'static,
        read: impl Fn(&A) -> Result<Vec<f64>> + Send + Sync + 'static,
        atol: f64,
        rtol: f64,
    ) -> Self {
        self.check = Some(Check {
            reset: Box::new(reset),
            read: Box::new(read),
            atol,
            rtol,
        });
        self
    }

    /// Replaces the options.
    pub fn options(mut self, options: TuneOptions) -> Self {
        self.options = options;
        self
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The configs, in order.
    pub fn configs(&self) -> &[C] {
        &self.configs
    }

    /// The configs' labels (their `Debug` text).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The hash of the config labels, part of the disk cache's key.
    pub fn configs_hash(&self) -> u64 {
        disk::fnv1a(self.labels.join("\n").as_bytes())
    }

    /// The key of `args`; `Err(KeyPanicked)` when the key function panics.
    pub fn key_of(&self, args: &A) -> std::result::Result<String, TuneError> {
        call_key(&self.name, &*self.key, args)
    }

    /// The disk cache file, unless disabled or no cache directory is known.
    pub fn disk_cache(&self) -> Option<DiskCache> {
        if !self.options.disk_cache {
            return None;
        }
        let dir = self.options.cache_dir.clone().or_else(disk::default_dir)?;
        Some(DiskCache::new(&dir, &self.name))
    }

    /// Forgets the choices made in this process (the disk cache stays).
    pub fn forget(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Choice<B>>>> {
        self.memory.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn runtime(&self, source: RuntimeError) -> TuneError {
        TuneError::Runtime {
            kernel: self.name.clone(),
            source: Box::new(source),
        }
    }

    fn fail(&self, index: usize, stage: Stage, reason: impl fmt::Display) -> ConfigFailure {
        ConfigFailure {
            config: self.labels[index].clone(),
            stage,
            reason: reason.to_string(),
        }
    }

    /// Builds config `index` for `target` and loads it on `dev`: the kernel and its content hash.
    fn prepare(
        &self,
        index: usize,
        dev: &DeviceOf<B>,
        target: Target,
    ) -> std::result::Result<(KernelOf<B>, u64), ConfigFailure> {
        let c = &self.configs[index];
        let compiled = catch_unwind(AssertUnwindSafe(|| (self.build)(c, target)))
            .map_err(|p| {
                self.fail(
                    index,
                    Stage::Build,
                    format!("panicked: {}", panic_message(p)),
                )
            })?
            .map_err(|e| self.fail(index, Stage::Build, e))?;
        let kernel = dev
            .load_kernel(compiled.image(), compiled.signature.clone())
            .map_err(|e| self.fail(index, Stage::Load, e))?;
        Ok((kernel, compiled.content_hash()))
    }

    fn show_progress(&self) -> bool {
        self.options
            .progress
            .unwrap_or_else(|| std::io::stderr().is_terminal())
    }

    fn print_report(&self) -> bool {
        self.options
            .print
            .unwrap_or_else(|| std::env::var("WEFT_PRINT_AUTOTUNING").is_ok_and(|v| v == "1"))
    }

    /// Times every config on `stream` with `args` (after the checks, when asked), without
    /// remembering or launching anything: the exhaustive sweep. `Err(AllFailed)` when no config
    /// could be timed.
    pub fn sweep(
        &self,
        stream: &StreamOf<B>,
        args: &mut A,
    ) -> std::result::Result<Report, TuneError> {
        let key = self.key_of(args)?;
        self.sweep_keyed(stream, args, &key).map(|(r, _)| r)
    }

    fn sweep_keyed(
        &self,
        stream: &StreamOf<B>,
        args: &mut A,
        key: &str,
    ) -> std::result::Result<Swept<B>, TuneError> {
        let started = Instant::now();
        let dev = stream.device();
        let target = dev.target().map_err(|e| self.runtime(e))?;
        let limits = dev.limits();
        let bencher = Bencher::new(stream, &self.options.bench).map_err(|e| self.runtime(e))?;
        let bar = if self.show_progress() {
            indicatif::ProgressBar::new(self.configs.len() as u64)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "autotuning {prefix} [{bar:30}] {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_prefix(self.name.clone());
        let mut reference: Option<Vec<f64>> = None;
        let mut rows = Vec::with_capacity(self.configs.len());
        let mut kernels = Vec::with_capacity(self.configs.len());
        for (i, c) in self.configs.iter().enumerate() {
            bar.set_message(self.labels[i].clone());
            let outcome = self.try_config(
                i,
                c,
                &dev,
                target,
                &limits,
                stream,
                &bencher,
                args,
                &mut reference,
            );
            let (outcome, kernel) = match outcome {
                Ok((t, k)) => (Ok(t), Some(k)),
                Err(e) => (Err(e), None),
            };
            rows.push(Row {
                index: i,
                config: self.labels[i].clone(),
                outcome,
            });
            kernels.push(kernel);
            bar.inc(1);
        }
        bar.finish_and_clear();
        let Some(best) = select(&rows) else {
            return Err(TuneError::AllFailed {
                kernel: self.name.clone(),
                key: key.to_string(),
                failures: rows.into_iter().filter_map(|r| r.outcome.err()).collect(),
            });
        };
        let report = Report {
            kernel: self.name.clone(),
            key: key.to_string(),
            device: dev.name().to_string(),
            rows,
            best,
            elapsed: started.elapsed(),
        };
        Ok((report, kernels))
    }

    #[allow(clippy::too_many_arguments)]
    fn try_config(
        &self,
        i: usize,
        c: &C,
        dev: &DeviceOf<B>,
        target: Target,
        limits: &DeviceLimits,
        stream: &StreamOf<B>,
        bencher: &Bencher<StreamOf<B>>,
        args: &mut A,
        reference: &mut Option<Vec<f64>>,
    ) -> std::result::Result<(Timing, KernelOf<B>), ConfigFailure> {
        if let Some(keep) = &self.prune {
            if !keep(c, limits) {
                return Err(self.fail(
                    i,
                    Stage::Pruned,
                    "the prune predicate rejects it on this device",
                ));
            }
        }
        let (kernel, _) = self.prepare(i, dev, target)?;
        if let Some(check) = &self.check {
            (check.reset)(args).map_err(|e| self.fail(i, Stage::Check, format!("reset: {e}")))?;
            (self.launch)(stream, &kernel, c, args).map_err(|e| self.fail(i, Stage::Launch, e))?;
            stream
                .synchronize()
                .map_err(|e| self.fail(i, Stage::Launch, e))?;
            let out =
                (check.read)(args).map_err(|e| self.fail(i, Stage::Check, format!("read: {e}")))?;
            match reference {
                None => *reference = Some(out),
                Some(want) => compare(&out, want, check.atol, check.rtol)
                    .map_err(|e| self.fail(i, Stage::Check, e))?,
            }
        }
        let a: &A = args;
        let mut work = |s: &StreamOf<B>| (self.launch)(s, &kernel, c, a);
        let timing = (self.timer)(bencher, &mut work).map_err(|e| {
            let stage = match e {
                RuntimeError::Launch { .. }
                | RuntimeError::LaunchConfig { .. }
                | RuntimeError::ArgCount { .. }
                | RuntimeError::ArgType { .. }
                | RuntimeError::Divisibility { .. }
                | RuntimeError::KernelFault { .. } => Stage::Launch,
                _ => Stage::Bench,
            };
            self.fail(i, stage, e)
        })?;
        Ok((timing, kernel))
    }

    /// Launches the best config for `args` on `stream`, tuning first if this key is new (see the
    /// [module docs](self)). Returns what was launched.
    pub fn run(
        &self,
        stream: &StreamOf<B>,
        args: &mut A,
    ) -> std::result::Result<Tuned<C>, TuneError> {
        let key = self.key_of(args)?;
        let dev = stream.device();
        let memory_key = format!("{}\u{1f}{}\u{1f}{key}", dev.ordinal(), dev.name());
        let remembered = self.lock().get(&memory_key).cloned();
        if let Some(choice) = remembered {
            return self.launch_choice(stream, args, &choice, Source::Memory);
        }
        let entry_key = EntryKey {
            configs_hash: self.configs_hash(),
            device: dev.name().to_string(),
            driver: dev.driver_version(),
            key: key.clone(),
        };
        let cache = self.disk_cache();
        if let Some(cache) = &cache {
            let (entry, warnings) = cache.get(&entry_key);
            for w in warnings {
                eprintln!("weft: warning: {w}");
            }
            if let Some(choice) = entry.and_then(|e| self.choice_from_disk(&dev, &e)) {
                let choice = Arc::new(choice);
                if self.print_report() {
                    eprintln!(
                        "weft autotuning `{}` for key `{key}` on {}: cache hit in {}, {} ({:.4} ms median when tuned); nothing re-timed",
                        self.name,
                        dev.name(),
                        cache.path().display(),
                        self.labels[choice.index],
                        choice.median_ms
                    );
                }
                self.lock().insert(memory_key, choice.clone());
                return self.launch_choice(stream, args, &choice, Source::Disk);
            }
        }
        let (report, mut kernels) = self.sweep_keyed(stream, args, &key)?;
        let best = report.best;
        let kernel = kernels[best].take().expect("the best config was loaded");
        let median_ms = report.best_timing().median;
        if self.print_report() {
            eprint!("{report}");
        }
        if let Some(cache) = &cache {
            // Rebuilding for the hash is cheap next to the sweep; a build that now fails only
            // means nothing is written.
            let target = dev.target().map_err(|e| self.runtime(e))?;
            if let Ok(compiled) = (self.build)(&self.configs[best], target) {
                let entry = Entry {
                    config: self.labels[best].clone(),
                    content_hash: compiled.content_hash(),
                    median_ms,
                };
                match cache.put(entry_key, entry) {
                    Ok(warnings) => {
                        for w in warnings {
                            eprintln!("weft: warning: {w}");
                        }
                    }
                    Err(e) => eprintln!(
                        "weft: warning: cannot write the autotuning cache {}: {e}",
                        cache.path().display()
                    ),
                }
            }
        }
        let choice = Arc::new(Choice {
            index: best,
            kernel,
            median_ms,
            report: Some(Arc::new(report)),
        });
        self.lock().insert(memory_key, choice.clone());
        self.launch_choice(stream, args, &choice, Source::Tuned)
    }

    /// The choice of a disk entry, if its config is still in the list and builds to the same content.
    fn choice_from_disk(&self, dev: &DeviceOf<B>, e: &Entry) -> Option<Choice<B>> {
        let index = self.labels.iter().position(|l| *l == e.config)?;
        let target = dev.target().ok()?;
        match self.prepare(index, dev, target) {
            Ok((kernel, hash)) if hash == e.content_hash => Some(Choice {
                index,
                kernel,
                median_ms: e.median_ms,
                report: None,
            }),
            Ok(_) => {
                if self.print_report() {
                    eprintln!(
                        "weft autotuning `{}`: the cached choice {} was built from other kernel code; re-tuning",
                        self.name, e.config
                    );
                }
                None
            }
            Err(f) => {
                eprintln!(
                    "weft: warning: the cached autotuning choice cannot be used ({f}); re-tuning"
                );
                None
            }
        }
    }

    fn launch_choice(
        &self,
        stream: &StreamOf<B>,
        args: &A,
        choice: &Choice<B>,
        source: Source,
    ) -> std::result::Result<Tuned<C>, TuneError> {
        let c = &self.configs[choice.index];
        (self.launch)(stream, &choice.kernel, c, args).map_err(|e| self.runtime(e))?;
        Ok(Tuned {
            config: c.clone(),
            index: choice.index,
            source,
            report: choice.report.clone(),
            median_ms: choice.median_ms,
        })
    }
}

impl<B: Backend, C: Clone + fmt::Debug, A> Autotuner<B, C, A>
where
    StreamOf<B>: GraphStream,
{
    /// Times each config with [`bench_graph`](crate::runtime::bench::bench_graph) (CUDA graphs:
    /// no launch overhead in the samples) instead of event timing around each launch.
    pub fn with_graphs(mut self) -> Self {
        self.timer =
            Box::new(|b, work| crate::runtime::bench::bench_graph(b.stream(), b.options(), work));
        self
    }
}

#[cfg(test)]
mod tests;
