//! The autotuning cache on disk: one small text file per kernel name, so a second process
//! re-benchmarks nothing.
//!
//! Directory: `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft`, else `~/.cache/weft`; files live in
//! its `autotune/` folder, named `<kernel>-<hash of the name>.v1.tsv`. The first line is
//! [`HEADER`]; each further line is one choice, tab-separated (tabs, newlines and backslashes in
//! fields escaped as `\t`, `\n`, `\\`):
//!
//! `configs hash · device name · driver version · key · chosen config · content hash · median ms`
//!
//! An entry is found by (hash of the config labels, device, driver, key). Its content hash is the
//! hash of the chosen config's kernel image and signature: the tuner rebuilds the chosen config,
//! and a different hash (the kernel's code changed) means the entry is stale and tuning runs again.
//!
//! A file with another header (corrupt, or another format version) is ignored with a warning, and
//! so is a malformed line; nothing here panics or fails a launch. Writers take an advisory lock
//! (`flock` on `<file>.lock`, which is never renamed), read the file afresh, merge their entry, write a
//! temporary file in the same directory and `rename` it over the old one: a reader always sees a
//! whole file, and concurrent writers (threads or processes) lose nothing. A writer killed
//! mid-write leaves at most a temporary file, which the next writer removes under the lock (no live
//! writer has one then); the kernel releases a dead writer's lock, so a stale lock file is harmless.

#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The first line of a cache file of this format version.
pub const HEADER: &str = "weft-autotune 1";

/// FNV-1a, 64 bits: a hash that is the same on every machine and in every Rust version (unlike
/// `DefaultHasher`), for cache keys on disk.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The cache directory from the environment: `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft`,
/// else `$HOME/.cache/weft`; `None` when none of them is set.
pub fn default_dir() -> Option<PathBuf> {
    let var = |n| {
        std::env::var_os(n)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("WEFT_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("weft")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("weft")))
}

/// What identifies one choice.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct EntryKey {
    /// Hash of the tuner's config labels (a changed list re-tunes).
    pub configs_hash: u64,
    /// The device's name.
    pub device: String,
    /// The driver's version.
    pub driver: String,
    /// The tuner's key of the arguments.
    pub key: String,
}

/// One remembered choice.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The chosen config's label.
    pub config: String,
    /// Hash of the chosen config's kernel image and signature.
    pub content_hash: u64,
    /// Its median time when it was chosen.
    pub median_ms: f64,
}

/// The cache file of one kernel.
#[derive(Debug, Clone)]
pub struct DiskCache {
    path: PathBuf,
}

fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '\t' => o.push_str("\\t"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            c => o.push(c),
        }
    }
    o
}

fn unescape(s: &str) -> Option<String> {
    let mut o = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            o.push(match it.next()? {
                '\\' => '\\',
                't' => '\t',
                'n' => '\n',
                'r' => '\r',
                _ => return None,
            });
        } else {
            o.push(c);
        }
    }
    Some(o)
}

fn parse_line(line: &str) -> Option<(EntryKey, Entry)> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 7 {
        return None;
    }
    let key = EntryKey {
        configs_hash: u64::from_str_radix(f[0], 16).ok()?,
        device: unescape(f[1])?,
        driver: unescape(f[2])?,
        key: unescape(f[3])?,
    };
    let median_ms: f64 = f[6].parse().ok()?;
    if !(median_ms.is_finite() && median_ms >= 0.0) {
        return None;
    }
    let entry = Entry {
        config: unescape(f[4])?,
        content_hash: u64::from_str_radix(f[5], 16).ok()?,
        median_ms,
    };
    Some((key, entry))
}

fn format_line(k: &EntryKey, e: &Entry) -> String {
    format!(
        "{:016x}\t{}\t{}\t{}\t{}\t{:016x}\t{}",
        k.configs_hash,
        escape(&k.device),
        escape(&k.driver),
        escape(&k.key),
        escape(&e.config),
        e.content_hash,
        e.median_ms
    )
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl DiskCache {
    /// The cache file of kernel `kernel` under `dir`.
    pub fn new(dir: &Path, kernel: &str) -> DiskCache {
        let safe: String = kernel
            .chars()
            .take(64)
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let file = format!("{safe}-{:016x}.v1.tsv", fnv1a(kernel.as_bytes()));
        DiskCache {
            path: dir.join("autotune").join(file),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every entry of the file, and the warnings about what was ignored (a missing file is no
    /// warning: it is an empty cache).
    pub fn load(&self) -> (BTreeMap<EntryKey, Entry>, Vec<String>) {
        let mut entries = BTreeMap::new();
        let mut warnings = Vec::new();
        let text = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (entries, warnings),
            Err(e) => {
                warnings.push(format!(
                    "cannot read the autotuning cache {}: {e}; ignoring it",
                    self.path.display()
                ));
                return (entries, warnings);
            }
        };
        let Ok(text) = String::from_utf8(text) else {
            warnings.push(format!(
                "the autotuning cache {} is not UTF-8 text (corrupt?); ignoring it",
                self.path.display()
            ));
            return (entries, warnings);
        };
        let mut lines = text.lines();
        match lines.next() {
            Some(HEADER) => {}
            first => {
                warnings.push(format!(
                    "the autotuning cache {} starts with {:?}, not {HEADER:?} (corrupt, or written by another weft version); ignoring it",
                    self.path.display(),
                    first.unwrap_or("").chars().take(40).collect::<String>()
                ));
                return (entries, warnings);
            }
        }
        for (i, line) in lines.enumerate() {
            if line.is_empty() {
                continue;
            }
            match parse_line(line) {
                Some((k, e)) => {
                    entries.insert(k, e);
                }
                None => warnings.push(format!(
                    "the autotuning cache {} has a malformed line {}; ignoring that line",
                    self.path.display(),
                    i + 2
                )),
            }
        }
        (entries, warnings)
    }

    /// The entry for `key`, and the warnings of reading the file.
    pub fn get(&self, key: &EntryKey) -> (Option<Entry>, Vec<String>) {
        let (mut all, warnings) = self.load();
        (all.remove(key), warnings)
    }

    /// The advisory lock file beside the cache file.
    fn lock_path(&self) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        self.path.with_file_name(name)
    }

    /// The prefix of this file's temporary files (`.<file name>.<pid>.<n>.tmp`).
    fn temp_prefix(&self) -> String {
        format!(
            ".{}.",
            self.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        )
    }

    /// Removes the temporary files of writers that died mid-write. Called with the lock held, when no
    /// live writer has one.
    fn remove_dead_temps(&self, dir: &Path) {
        let prefix = self.temp_prefix();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(&prefix) && name.ends_with(".tmp") {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    /// Records `entry` for `key`: under an exclusive advisory lock, reads the file afresh, merges, and
    /// replaces the file atomically (temporary file in the same directory, then `rename`), so no
    /// concurrent writer's entry is lost. Returns the warnings of reading.
    pub fn put(&self, key: EntryKey, entry: Entry) -> std::io::Result<Vec<String>> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.lock_path())?;
        // Released when `lock` is dropped, or by the kernel if this process dies.
        lock.lock()?;
        self.remove_dead_temps(dir);
        let (mut all, warnings) = self.load();
        all.insert(key, entry);
        let mut text = String::from(HEADER);
        text.push('\n');
        for (k, e) in &all {
            text.push_str(&format_line(k, e));
            text.push('\n');
        }
        let tmp = dir.join(format!(
            "{}{}.{}.tmp",
            self.temp_prefix(),
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let written = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            #[cfg(test)]
            tests::pause_if_asked();
            std::fs::rename(&tmp, &self.path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written.map(|()| warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> EntryKey {
        EntryKey {
            configs_hash: 0xfeed,
            device: "NVIDIA H200".into(),
            driver: "CUDA 13.0".into(),
            key: k.into(),
        }
    }

    fn entry(c: &str) -> Entry {
        Entry {
            config: c.into(),
            content_hash: 0x1234_5678_9abc_def0,
            median_ms: 0.125,
        }
    }

    #[test]
    fn round_trip_with_odd_characters() {
        let dir = tempfile::tempdir().unwrap();
        let c = DiskCache::new(dir.path(), "mem/cpy kernel");
        assert!(c.path().starts_with(dir.path().join("autotune")));
        assert!(!c.path().to_string_lossy().contains(' '));
        assert_eq!(
            c.get(&key("n=1")),
            (None, vec![]),
            "a missing file is an empty cache"
        );
        let odd = "n=1\tdtype=f32\nline two \\ back";
        c.put(key(odd), entry("block=1024,\tpt=4")).unwrap();
        c.put(key("n=2"), entry("(2048, 4, 4)")).unwrap();
        assert_eq!(c.get(&key(odd)), (Some(entry("block=1024,\tpt=4")), vec![]));
        assert_eq!(c.get(&key("n=2")).0, Some(entry("(2048, 4, 4)")));
        // Replacing an entry keeps one line per key.
        c.put(key("n=2"), entry("(4096, 8, 4)")).unwrap();
        let (all, w) = c.load();
        assert!(w.is_empty());
        assert_eq!(all.len(), 2);
        assert_eq!(all[&key("n=2")].config, "(4096, 8, 4)");
        // Other devices and drivers miss.
        let mut other = key("n=2");
        other.driver = "CUDA 12.8".into();
        assert_eq!(c.get(&other).0, None);
    }

    #[test]
    fn corrupt_and_foreign_files_are_ignored_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let c = DiskCache::new(dir.path(), "memcpy");
        std::fs::create_dir_all(c.path().parent().unwrap()).unwrap();
        for (bytes, says) in [
            (&b"\xff\xfe\x00garbage"[..], "not UTF-8"),
            (&b"{\"json\": true}\n"[..], "not \"weft-autotune 1\""),
            (
                &b"weft-autotune 2\n0\t1\t2\t3\t4\t5\t6\n"[..],
                "another weft version",
            ),
            (&b""[..], "starts with \"\""),
        ] {
            std::fs::write(c.path(), bytes).unwrap();
            let (all, w) = c.load();
            assert!(all.is_empty());
            assert_eq!(w.len(), 1, "{w:?}");
            assert!(w[0].contains(says), "{w:?}");
            // Writing replaces the bad file with a good one.
            let w = c.put(key("k"), entry("cfg")).unwrap();
            assert_eq!(w.len(), 1);
            assert_eq!(c.get(&key("k")), (Some(entry("cfg")), vec![]));
        }
        // Malformed lines are skipped, the good ones kept.
        let good = format_line(&key("k"), &entry("cfg"));
        let text = format!(
            "{HEADER}\n{good}\nnot a line\n0\tx\ty\tz\tc\tnothex\t1.0\n{}\n",
            format_line(&key("k2"), &entry("c2")).replace("0.125", "NaN")
        );
        std::fs::write(c.path(), text).unwrap();
        let (all, w) = c.load();
        assert_eq!(all.len(), 1);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].contains("malformed line 3"), "{w:?}");
    }

    /// In a writer process of `a_killed_writer_leaves_nothing_behind`: stops between writing the
    /// temporary file and renaming it, holding the lock, until killed.
    pub(super) fn pause_if_asked() {
        if std::env::var_os("WEFT_TEST_CACHE_PAUSE").is_some() {
            std::thread::sleep(std::time::Duration::from_secs(120));
        }
    }

    /// The files of the cache directory other than the cache file and its lock.
    fn leftovers(c: &DiskCache) -> Vec<String> {
        std::fs::read_dir(c.path().parent().unwrap())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !n.ends_with(".v1.tsv") && !n.ends_with(".v1.tsv.lock"))
            .collect()
    }

    fn spawn_writer(dir: &Path, keys: usize, pause: bool) -> std::process::Child {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "--exact",
            "runtime::autotune::disk::tests::writer_process",
            "--quiet",
        ])
        .env("WEFT_TEST_CACHE_WRITER", dir)
        .env("WEFT_TEST_CACHE_KEYS", keys.to_string())
        .stdout(std::process::Stdio::null());
        if pause {
            cmd.env("WEFT_TEST_CACHE_PAUSE", "1");
        }
        cmd.spawn().unwrap()
    }

    #[test]
    fn concurrent_writers_leave_a_valid_file() {
        let dir = tempfile::tempdir().unwrap();
        let c = DiskCache::new(dir.path(), "memcpy");
        std::thread::scope(|s| {
            for t in 0..8 {
                let c = c.clone();
                s.spawn(move || {
                    for i in 0..25 {
                        c.put(key(&format!("t{t} i{i}")), entry(&format!("cfg {t}.{i}")))
                            .unwrap();
                        // Every read in between sees a whole file.
                        let (_, w) = c.load();
                        assert!(w.is_empty(), "{w:?}");
                    }
                });
            }
        });
        let (all, w) = c.load();
        assert!(w.is_empty(), "{w:?}");
        // Every entry of every thread is there, intact.
        assert_eq!(all.len(), 8 * 25);
        for (k, e) in &all {
            let rest = k.key.strip_prefix('t').unwrap().replace(" i", ".");
            assert_eq!(e.config, format!("cfg {rest}"));
        }
        // No temporary files are left behind.
        assert!(leftovers(&c).is_empty(), "{:?}", leftovers(&c));
    }

    /// Not a test of its own: the body of the writer processes of
    /// `concurrent_processes_leave_a_valid_file` (it does nothing unless that test set its variable).
    #[test]
    fn writer_process() {
        let Some(dir) = std::env::var_os("WEFT_TEST_CACHE_WRITER") else {
            return;
        };
        let who = std::process::id();
        let keys: usize = std::env::var("WEFT_TEST_CACHE_KEYS")
            .ok()
            .and_then(|k| k.parse().ok())
            .unwrap_or(40);
        let c = DiskCache::new(Path::new(&dir), "memcpy");
        for i in 0..keys {
            c.put(
                key(&format!("p{who} i{i}")),
                entry(&format!("cfg {who}.{i}")),
            )
            .unwrap();
        }
    }

    /// 8 processes writing 200 keys each into one kernel's file: every entry is kept (without the
    /// lock, 225 of 1,601 survived).
    #[test]
    fn concurrent_processes_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let c = DiskCache::new(dir.path(), "memcpy");
        c.put(key("before"), entry("cfg before")).unwrap();
        let children: Vec<_> = (0..8)
            .map(|_| spawn_writer(dir.path(), 200, false))
            .collect();
        let pids: Vec<u32> = children.iter().map(|c| c.id()).collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        let (all, w) = c.load();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(all.len(), 8 * 200 + 1);
        for pid in pids {
            for i in 0..200 {
                let e = &all[&key(&format!("p{pid} i{i}"))];
                assert_eq!(e.config, format!("cfg {pid}.{i}"));
            }
        }
        assert_eq!(all[&key("before")].config, "cfg before");
        assert!(leftovers(&c).is_empty(), "{:?}", leftovers(&c));
    }

    /// A writer killed between writing its temporary file and renaming it (holding the lock): the
    /// next writer is not blocked by the dead one's lock, removes its temporary file, and keeps
    /// every entry written before.
    #[test]
    fn a_killed_writer_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let c = DiskCache::new(dir.path(), "memcpy");
        c.put(key("before"), entry("cfg before")).unwrap();
        let mut child = spawn_writer(dir.path(), 1, true);
        let t = std::time::Instant::now();
        while leftovers(&c).is_empty() {
            assert!(
                t.elapsed().as_secs() < 60,
                "the writer never wrote its temporary file"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(leftovers(&c).len(), 1, "{:?}", leftovers(&c));
        let t = std::time::Instant::now();
        c.put(key("after"), entry("cfg after")).unwrap();
        assert!(
            t.elapsed().as_secs() < 10,
            "blocked by a dead writer's lock"
        );
        assert!(leftovers(&c).is_empty(), "{:?}", leftovers(&c));
        let (all, w) = c.load();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(all.len(), 2);
        assert_eq!(all[&key("before")].config, "cfg before");
        assert_eq!(all[&key("after")].config, "cfg after");
    }

    #[test]
    fn hashes_are_stable() {
        // FNV-1a test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
