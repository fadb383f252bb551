//! Running the `weft` binary from the CLI tests.

use std::process::{Command, Output};

/// Runs `weft` with `args`.
pub fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("run weft")
}

/// Runs `weft`, asserts success, returns stdout.
pub fn ok(args: &[&str]) -> String {
    let o = weft(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Exit status 2, nothing on stdout, one line on stderr that starts with `weft:` and contains `needle`.
pub fn fails(args: &[&str], needle: &str) {
    let o = weft(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("weft: "), "{err}");
    assert!(err.contains(needle), "{args:?}: `{err}` lacks `{needle}`");
    assert!(o.stdout.is_empty());
}
