//! The autotuner on a fake backend: kernels are text (`cost=0.5 value=1`), a launch advances the
//! stream's virtual clock by the kernel's cost, and events read that clock. This runs the whole
//! tuning flow (sweep, failures by stage, checks, memory, disk cache hits, stale entries) with no
//! GPU.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::*;
use crate::runtime::args::{DevicePointer, KernelArgs};
use crate::runtime::backend::{self, KernelImage};
use crate::runtime::bench::{BenchOptions, Flush};
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::error::{BackendKind, DriverCode};
use crate::runtime::launch::{KernelAttrs, LaunchConfig};

#[derive(Debug)]
struct Gpu {
    clock: Mutex<f64>,
    launched: Mutex<Vec<String>>,
}

#[derive(Debug, Clone)]
struct Dev(Arc<Gpu>);

impl PartialEq for Dev {
    fn eq(&self, o: &Dev) -> bool {
        Arc::ptr_eq(&self.0, &o.0)
    }
}

#[derive(Debug, Clone)]
struct Str(Dev);

#[derive(Debug)]
struct Ev(f64);

struct Buf<T> {
    len: usize,
    dev: Dev,
    _t: std::marker::PhantomData<T>,
}

impl<T> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buf[{}]", self.len)
    }
}

#[derive(Debug, Clone)]
struct Md(Dev, String);

#[derive(Debug, Clone)]
struct Kn {
    dev: Dev,
    sig: KernelSignature,
    cost: f64,
    fails: bool,
}

struct Fake;

impl Backend for Fake {
    const KIND: BackendKind = BackendKind::Cuda;
    type Device = Dev;
    type Stream = Str;
    type Buffer<T: DeviceElem> = Buf<T>;
    type Module = Md;
    type Kernel = Kn;
    type Event = Ev;
    fn is_available() -> bool {
        true
    }
    fn device_count() -> Result<usize> {
        Ok(1)
    }
    fn open(_: usize) -> Result<Dev> {
        Ok(Dev(Arc::new(Gpu {
            clock: Mutex::new(0.0),
            launched: Mutex::new(vec![]),
        })))
    }
}

impl backend::Device for Dev {
    type Backend = Fake;
    fn ordinal(&self) -> usize {
        0
    }
    fn name(&self) -> &str {
        "Fake GPU"
    }
    fn arch(&self) -> &str {
        "sm_90"
    }
    fn target(&self) -> Result<Target> {
        Ok(Target::SM90A)
    }
    fn limits(&self) -> DeviceLimits {
        DeviceLimits::SM90
    }
    fn l2_bytes(&self) -> usize {
        1 << 20
    }
    fn driver_version(&self) -> String {
        "Fake 1.0".into()
    }
    fn stream(&self) -> Str {
        Str(self.clone())
    }
    fn new_stream(&self) -> Result<Str> {
        Ok(Str(self.clone()))
    }
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }
    fn load(&self, image: KernelImage<'_>) -> Result<Md> {
        match image {
            KernelImage::Ptx(t) if !t.contains("noload") => Ok(Md(self.clone(), t.to_string())),
            other => Err(other.not_for(BackendKind::Cuda)),
        }
    }
    fn alloc<T: DeviceElem>(&self, len: usize) -> Result<Buf<T>> {
        Ok(Buf {
            len,
            dev: self.clone(),
            _t: std::marker::PhantomData,
        })
    }
    fn take_drop_errors(&self) -> Vec<RuntimeError> {
        vec![]
    }
}

impl backend::Module for Md {
    type Backend = Fake;
    fn kernel(&self, sig: KernelSignature) -> Result<Kn> {
        let field = |name: &str| {
            self.1
                .split_whitespace()
                .find_map(|w| w.strip_prefix(name)?.strip_prefix('=')?.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        Ok(Kn {
            dev: self.0.clone(),
            sig,
            cost: field("cost"),
            fails: self.1.contains("fault"),
        })
    }
}

impl backend::Kernel for Kn {
    type Backend = Fake;
    fn signature(&self) -> &KernelSignature {
        &self.sig
    }
    fn attrs(&self) -> KernelAttrs {
        KernelAttrs {
            max_threads_per_block: 1024,
            static_shared_bytes: 0,
            num_regs: 32,
        }
    }
    fn device(&self) -> Dev {
        self.dev.clone()
    }
    fn reserve_dynamic_shared(&self, _: u32) -> Result<()> {
        Ok(())
    }
}

impl backend::Event for Ev {
    type Backend = Fake;
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }
    fn elapsed_ms(&self, end: &Ev) -> Result<f32> {
        Ok((end.0 - self.0) as f32)
    }
}

impl<T: DeviceElem> DevicePointer for Buf<T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }
    fn device_addr(&self) -> u64 {
        0x1000
    }
}

impl<T: DeviceElem> backend::Buffer<T> for Buf<T> {
    type Backend = Fake;
    fn len(&self) -> usize {
        self.len
    }
    fn device(&self) -> Dev {
        self.dev.clone()
    }
    fn fill_bytes(&mut self, _: u8) -> Result<()> {
        Ok(())
    }
    unsafe fn copy_from_host_unchecked(&mut self, _: &[T]) -> Result<()> {
        Ok(())
    }
    unsafe fn copy_to_host_unchecked(&self, _: &mut [T]) -> Result<()> {
        Ok(())
    }
    unsafe fn copy_from_unchecked(&mut self, _: &Self) -> Result<()> {
        Ok(())
    }
}

impl backend::Stream for Str {
    type Backend = Fake;
    fn device(&self) -> Dev {
        self.0.clone()
    }
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }
    fn record(&self) -> Result<Ev> {
        Ok(Ev(*self.0 .0.clock.lock().unwrap()))
    }
    fn wait(&self, _: &Ev) -> Result<()> {
        Ok(())
    }
    unsafe fn copy_async_unchecked(&self, _: u64, _: u64, _: usize) -> Result<()> {
        // The L2 flush: takes time, which must not show in the samples.
        *self.0 .0.clock.lock().unwrap() += 100.0;
        Ok(())
    }
    unsafe fn launch_unchecked(&self, k: &Kn, _: &LaunchConfig, _: &KernelArgs<'_>) -> Result<()> {
        if k.fails {
            return Err(RuntimeError::Launch {
                kernel: k.sig.name.clone(),
                code: DriverCode {
                    code: 1,
                    name: "CUDA_ERROR_INVALID_VALUE".into(),
                    description: String::new(),
                },
            });
        }
        *self.0 .0.clock.lock().unwrap() += k.cost;
        self.0
             .0
            .launched
            .lock()
            .unwrap()
            .push(format!("{}", k.cost));
        Ok(())
    }
}

/// The arguments: a size and the output the fake kernels "write" (their value).
struct Args {
    n: usize,
    out: Vec<f64>,
}

fn sig() -> KernelSignature {
    KernelSignature::parse("k(*f32, i32)").unwrap()
}

/// A tuner over `(name, kernel text)` configs; `builds` counts build calls.
fn tuner(
    configs: &[(&str, &str)],
    dir: &std::path::Path,
    builds: Arc<AtomicUsize>,
) -> Autotuner<Fake, (String, String), Args> {
    let configs: Vec<(String, String)> = configs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    Autotuner::<Fake, _, _>::new(
        "fake",
        configs,
        move |c: &(String, String), t: Target| {
            builds.fetch_add(1, Ordering::SeqCst);
            assert_eq!(t, Target::SM90A);
            if c.1.contains("nobuild") {
                return Err(format!("{} needs more registers than sm_90 has", c.0));
            }
            if c.1.contains("panic") {
                panic!("builder bug in {}", c.0);
            }
            Ok(Compiled::ptx(c.1.clone(), sig()))
        },
        |s: &Str, k: &Kn, _c: &(String, String), a: &Args| {
            // SAFETY: the fake backend touches no memory.
            unsafe { s.launch_unchecked(k, &LaunchConfig::new(1, 32, 0), &KernelArgs::new()) }?;
            let _ = (a.n, a.out.len());
            Ok(())
        },
    )
    .unwrap()
    .key(|a: &Args| format!("n={}", a.n))
    .options(TuneOptions {
        bench: BenchOptions {
            fixed: Some((2, 5)),
            flush: Flush::Bytes(1 << 10),
            ..BenchOptions::default()
        },
        cache_dir: Some(dir.to_path_buf()),
        print: Some(false),
        progress: Some(false),
        ..TuneOptions::default()
    })
}

const CONFIGS: &[(&str, &str)] = &[
    ("a", "cost=3 value=1"),
    ("b", "cost=1 value=1"),
    ("c", "nobuild"),
    ("d", "noload"),
    ("e", "fault"),
    ("f", "cost=2 value=1"),
    ("g", "panic"),
];

#[test]
fn sweep_times_every_config_and_reports_failures_by_stage() {
    let dir = tempfile::tempdir().unwrap();
    let t = tuner(CONFIGS, dir.path(), Arc::default());
    let dev = Fake::open(0).unwrap();
    let mut args = Args { n: 7, out: vec![] };
    let r = t.sweep(&dev.stream(), &mut args).unwrap();
    assert_eq!(r.best, 1, "{r}");
    assert_eq!(r.key, "n=7");
    let medians: Vec<Option<f64>> = r
        .rows
        .iter()
        .map(|r| r.outcome.as_ref().ok().map(|t| t.median))
        .collect();
    // The flush (100 virtual ms) is outside the events.
    assert_eq!(
        medians,
        [Some(3.0), Some(1.0), None, None, None, Some(2.0), None]
    );
    let stages: Vec<(String, Stage)> = r
        .failures()
        .iter()
        .map(|f| (f.config.clone(), f.stage))
        .collect();
    assert_eq!(
        stages,
        [
            ("(\"c\", \"nobuild\")".to_string(), Stage::Build),
            ("(\"d\", \"noload\")".to_string(), Stage::Load),
            ("(\"e\", \"fault\")".to_string(), Stage::Launch),
            ("(\"g\", \"panic\")".to_string(), Stage::Build),
        ]
    );
    assert!(r.failures()[0].reason.contains("needs more registers"));
    assert!(r.failures()[3]
        .reason
        .contains("panicked: builder bug in g"));
    let text = r.to_string();
    assert!(text.contains("best: (\"b\", \"cost=1 value=1\")"), "{text}");
    assert!(text.contains("skipped (load)"), "{text}");
    assert_eq!(r.best_timing().samples.len(), 5);
    assert_eq!(r.best_timing().n_warmup, 2);
}

#[test]
fn memory_then_disk_then_stale() {
    let dir = tempfile::tempdir().unwrap();
    let builds = Arc::new(AtomicUsize::new(0));
    let dev = Fake::open(0).unwrap();
    let s = dev.stream();
    let mut args = Args {
        n: 1 << 20,
        out: vec![],
    };

    let t = tuner(CONFIGS, dir.path(), builds.clone());
    let first = t.run(&s, &mut args).unwrap();
    assert_eq!((first.index, first.source), (1, Source::Tuned));
    assert_eq!(first.config.0, "b");
    assert!(first.report.is_some());
    let after_tuning = builds.load(Ordering::SeqCst);
    assert_eq!(
        after_tuning,
        CONFIGS.len() + 1,
        "every config, then the best again for its hash"
    );
    assert_eq!(
        dev.0.launched.lock().unwrap().last().unwrap(),
        "1",
        "the best is launched last"
    );

    let again = t.run(&s, &mut args).unwrap();
    assert_eq!((again.index, again.source), (1, Source::Memory));
    assert_eq!(
        builds.load(Ordering::SeqCst),
        after_tuning,
        "memory hits build nothing"
    );

    // A second "process": a new tuner, same cache directory. Only the chosen config is built and
    // nothing is timed: one launch, of the chosen kernel.
    let t2 = tuner(CONFIGS, dir.path(), builds.clone());
    let launches = dev.0.launched.lock().unwrap().len();
    let hit = t2.run(&s, &mut args).unwrap();
    assert_eq!((hit.index, hit.source), (1, Source::Disk));
    assert_eq!(hit.median_ms, 1.0);
    assert_eq!(builds.load(Ordering::SeqCst), after_tuning + 1);
    assert_eq!(dev.0.launched.lock().unwrap().len(), launches + 1);

    // Another key tunes again.
    let mut other = Args { n: 3, out: vec![] };
    assert_eq!(t2.run(&s, &mut other).unwrap().source, Source::Tuned);

    // A changed config list (here, a label) is another entry: tuning runs again.
    let mut changed = CONFIGS.to_vec();
    changed[1] = ("b", "cost=1  value=1");
    let t3 = tuner(&changed, dir.path(), Arc::default());
    assert_ne!(t3.configs_hash(), t2.configs_hash());
    assert_eq!(t3.run(&s, &mut args).unwrap().source, Source::Tuned);
}

#[test]
fn stale_content_under_the_same_label_retunes() {
    let dir = tempfile::tempdir().unwrap();
    let dev = Fake::open(0).unwrap();
    let s = dev.stream();
    let mut args = Args { n: 5, out: vec![] };
    // Labels are the config alone; the build reads the kernel "code" from a shared cell.
    let code = Arc::new(Mutex::new("cost=1 value=1".to_string()));
    let make = |code: Arc<Mutex<String>>| {
        Autotuner::<Fake, u32, Args>::new(
            "stale",
            vec![1u32, 2],
            move |c: &u32, _| -> std::result::Result<Compiled, String> {
                let cost = if *c == 1 {
                    code.lock().unwrap().clone()
                } else {
                    "cost=5".into()
                };
                Ok(Compiled::ptx(cost, sig()))
            },
            |s: &Str, k: &Kn, _: &u32, _: &Args| unsafe {
                s.launch_unchecked(k, &LaunchConfig::new(1, 32, 0), &KernelArgs::new())
            },
        )
        .unwrap()
        .options(TuneOptions {
            bench: BenchOptions::fixed(0, 3),
            cache_dir: Some(dir.path().to_path_buf()),
            print: Some(false),
            progress: Some(false),
            ..TuneOptions::default()
        })
    };
    assert_eq!(
        make(code.clone()).run(&s, &mut args).unwrap().source,
        Source::Tuned
    );
    assert_eq!(
        make(code.clone()).run(&s, &mut args).unwrap().source,
        Source::Disk
    );
    *code.lock().unwrap() = "cost=1 value=1 // edited".into();
    assert_eq!(
        make(code.clone()).run(&s, &mut args).unwrap().source,
        Source::Tuned
    );
    assert_eq!(make(code).run(&s, &mut args).unwrap().source, Source::Disk);
}

#[test]
fn checks_skip_configs_whose_output_differs() {
    let dir = tempfile::tempdir().unwrap();
    let dev = Fake::open(0).unwrap();
    let configs = [
        ("a", "cost=3 value=1"),
        ("wrong", "cost=0.5 value=2"),
        ("b", "cost=1 value=1.0000001"),
    ];
    let t = tuner(&configs, dir.path(), Arc::default());
    // The fake kernels write nothing: `read` returns the value of the last kernel launched
    // (found by its cost).
    let values: std::collections::HashMap<String, f64> =
        [("3", 1.0), ("0.5", 2.0), ("1", 1.0000001)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
    let launched = dev.0.clone();
    let t = t.check(
        |a: &mut Args| {
            a.out = vec![f64::NAN; 4];
            Ok(())
        },
        move |_a: &Args| {
            let last = launched.launched.lock().unwrap().last().cloned().unwrap();
            Ok(vec![values[&last]; 4])
        },
        0.0,
        1e-6,
    );
    let mut args = Args { n: 4, out: vec![] };
    let r = t.sweep(&dev.stream(), &mut args).unwrap();
    assert_eq!(
        r.rows[r.best].config, "(\"b\", \"cost=1 value=1.0000001\")",
        "{r}"
    );
    let f = r.failures();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].stage, Stage::Check);
    assert!(
        f[0].reason
            .contains("element 0 is 2, the reference config gives 1"),
        "{}",
        f[0]
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    // No configs.
    let e = Autotuner::<Fake, u32, Args>::new(
        "empty",
        vec![],
        |_: &u32, _| -> std::result::Result<Compiled, String> { unreachable!() },
        |_: &Str, _: &Kn, _: &u32, _: &Args| Ok(()),
    )
    .unwrap_err();
    assert_eq!(
        e,
        TuneError::NoConfigs {
            kernel: "empty".into()
        }
    );
    assert_eq!(e.to_string(), "autotuner `empty`: the config list is empty");

    // A key function that panics.
    let dev = Fake::open(0).unwrap();
    let t = tuner(CONFIGS, dir.path(), Arc::default()).key(|a: &Args| {
        assert!(a.n > 0, "n must be positive");
        String::new()
    });
    let mut zero = Args { n: 0, out: vec![] };
    match t.run(&dev.stream(), &mut zero) {
        Err(TuneError::KeyPanicked { kernel, message }) => {
            assert_eq!(kernel, "fake");
            assert_eq!(message, "n must be positive");
        }
        other => panic!("{other:?}"),
    }
    assert!(call_key("k", &|_: &u32| panic!("{}", 42), &1)
        .unwrap_err()
        .to_string()
        .contains("42"));

    // Every config fails: each is named with its stage.
    let t = tuner(
        &[("x", "nobuild"), ("y", "noload")],
        dir.path(),
        Arc::default(),
    );
    let mut args = Args { n: 1, out: vec![] };
    match t.run(&dev.stream(), &mut args) {
        Err(e @ TuneError::AllFailed { .. }) => {
            let text = e.to_string();
            assert!(
                text.starts_with("autotuner `fake`, key `n=1`: all 2 configs failed: "),
                "{text}"
            );
            assert!(
                text.contains("[(\"x\", \"nobuild\")] build: x needs more registers"),
                "{text}"
            );
            assert!(
                text.contains("[(\"y\", \"noload\")] load: invalid PTX"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Nothing was cached for the failed key.
    assert!(t.disk_cache().unwrap().load().0.is_empty());
}

#[test]
fn pruned_configs_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let dev = Fake::open(0).unwrap();
    let t = tuner(
        &[("big", "cost=0.1"), ("small", "cost=1")],
        dir.path(),
        Arc::default(),
    )
    .prune(|c: &(String, String), limits: &DeviceLimits| {
        !(c.0 == "big" && limits.max_shared_per_block_optin < 256 * 1024)
    });
    let r = t
        .sweep(&dev.stream(), &mut Args { n: 1, out: vec![] })
        .unwrap();
    assert_eq!(r.best, 1);
    assert_eq!(r.failures()[0].stage, Stage::Pruned);
}

#[test]
fn a_corrupt_cache_file_is_ignored_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let dev = Fake::open(0).unwrap();
    let t = tuner(CONFIGS, dir.path(), Arc::default());
    let path = t.disk_cache().unwrap().path().to_path_buf();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"\x00\x01 not a cache").unwrap();
    let mut args = Args { n: 9, out: vec![] };
    assert_eq!(
        t.run(&dev.stream(), &mut args).unwrap().source,
        Source::Tuned
    );
    let (all, warnings) = t.disk_cache().unwrap().load();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(all.len(), 1);
    let t2 = tuner(CONFIGS, dir.path(), Arc::default());
    assert_eq!(
        t2.run(&dev.stream(), &mut args).unwrap().source,
        Source::Disk
    );
}

#[test]
fn selection_and_comparison() {
    let row = |i: usize, m: Option<f64>| Row {
        index: i,
        config: format!("{i}"),
        outcome: match m {
            Some(m) => Ok(Timing::from_samples(vec![m]).unwrap()),
            None => Err(ConfigFailure {
                config: format!("{i}"),
                stage: Stage::Build,
                reason: "no".into(),
            }),
        },
    };
    assert_eq!(
        select(&[
            row(0, None),
            row(1, Some(2.0)),
            row(2, Some(1.0)),
            row(3, Some(1.0))
        ]),
        Some(2)
    );
    assert_eq!(select(&[row(0, None)]), None);
    assert_eq!(select(&[]), None);
    assert!(compare(&[1.0, f64::NAN], &[1.0, f64::NAN], 0.0, 0.0).is_ok());
    assert!(compare(&[1.0], &[f64::NAN], 0.0, 0.0).is_err());
    assert!(compare(&[1.0], &[1.0, 2.0], 0.0, 0.0)
        .unwrap_err()
        .contains("1 output elements"));
    assert!(compare(&[1.05], &[1.0], 0.0, 0.1).is_ok());
    assert!(compare(&[1.05], &[1.0], 0.01, 0.01).is_err());
    assert_eq!(
        key_of(&[&1024usize, &"f32", &(16, 32)]),
        "1024, \"f32\", (16, 32)"
    );
}
