//! `bindings/c/include/weft.h` is what cbindgen makes of weft-c's sources today (`WEFT_BLESS=1` rewrites it).

#[test]
fn header_is_current() {
    // The weft-c package, one folder up.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let config =
        cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the crate")
        .write(&mut generated);
    let path = format!("{dir}/include/weft.h");
    if std::env::var_os("WEFT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the header");
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "bindings/c/include/weft.h is stale: run `WEFT_BLESS=1 cargo test -p weft-c-header`"
    );
}
