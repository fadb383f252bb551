//! Links LLVM 22 statically when the `llvm` feature is on.
//!
//! Only the archive members that are referenced end up in a binary (NVPTX alone: about 30 MB;
//! AMDGPU adds about 25 MB). zlib, zstd, libffi and libstdc++ are linked statically too, so binaries
//! need only glibc and libgcc_s and run on a GPU machine without LLVM. `static:-bundle` keeps the
//! ~375 MB of LLVM archives out of this crate's rlib: the final link finds them.
//!
//! `WEFT_LLVM_LINK=dynamic` links `libLLVM-22.so` instead (the test script's choice: see below).
//!
//! `LLVM_CONFIG` selects another `llvm-config` (default `llvm-config-22`). Without one, the script
//! prints a warning and returns, so `cargo check`, `clippy` and `doc` still work; a real link then
//! fails with undefined LLVM symbols. See `scripts/setup.sh` for the packages.
use std::path::Path;
use std::process::Command;

/// Compiles the builder's one C++ file (per-context pass gates; see its header comment) against
/// LLVM's headers. Linked before the LLVM archives, which resolve its symbols.
fn compile_shim() {
    let src = "src/codegen/shim/pass_gate.cpp";
    println!("cargo:rerun-if-changed={src}");
    let flags = llvm_config(&["--cxxflags"]).expect("llvm-config --cxxflags");
    let mut build = cc::Build::new();
    // libstdc++ is linked statically below; LLVM is built without RTTI, so the shim is too.
    build
        .cpp(true)
        .cpp_link_stdlib(None)
        .file(src)
        .warnings(false)
        .flag("-fno-rtti");
    for f in flags.split_whitespace() {
        build.flag(f);
    }
    build.compile("weft_llvm_shim");
}

/// Runs `llvm-config` with `args`; `None` if it is missing or fails.
fn llvm_config(args: &[&str]) -> Option<String> {
    let bin = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-22".into());
    let out = Command::new(&bin).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout)
        .ok()
        .map(|s| s.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
    println!("cargo:rerun-if-env-changed=WEFT_LLVM_LINK");
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_LLVM").is_none() {
        return;
    }
    let Some(libdir) = llvm_config(&["--libdir"]) else {
        println!(
            "cargo:warning=llvm-config-22 not found: run scripts/setup.sh \
             (llvm-22-dev libpolly-22-dev); linking will fail"
        );
        return;
    };
    let version = llvm_config(&["--version"]).unwrap_or_default();
    if !version.starts_with("22.") {
        panic!("weft needs LLVM 22, but llvm-config reports '{version}' (set LLVM_CONFIG)");
    }
    if !Path::new(&libdir).join("libPolly.a").exists() {
        // llvm-config lists Polly even when libpolly-22-dev is missing; the link would fail
        // later with a less helpful message.
        panic!("{libdir}/libPolly.a is missing: install libpolly-22-dev (scripts/setup.sh)");
    }
    println!("cargo:rustc-link-search=native={libdir}");
    compile_shim();
    if std::env::var("WEFT_LLVM_LINK").as_deref() == Ok("dynamic") {
        // libLLVM-22.so from the same packages: a test binary shrinks from ~150 MB to a few, so a
        // full test run writes a fraction of the disk and links faster. Such binaries need
        // libLLVM-22.so on the machine that runs them, so GPU and release builds stay static.
        println!("cargo:rustc-link-lib=dylib=LLVM-22");
        println!("cargo:rustc-link-lib=dylib=stdc++");
        return;
    }
    let libs = llvm_config(&["--link-static", "--libnames"]).expect("llvm-config --libnames");
    for lib in libs.split_whitespace() {
        let name = lib.trim_start_matches("lib").trim_end_matches(".a");
        println!("cargo:rustc-link-lib=static:-bundle={name}");
    }
    // ffi: LLVMInterpreter (pulled in through inkwell's ExecutionEngine) needs it.
    for name in ["z", "zstd", "ffi"] {
        println!("cargo:rustc-link-lib=static:-bundle={name}");
    }
    let out = Command::new("g++")
        .arg("-print-file-name=libstdc++.a")
        .output()
        .expect("g++ is needed to locate libstdc++.a (apt install g++)");
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if let Some(dir) = Path::new(&path).parent() {
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
    println!("cargo:rustc-link-lib=static:-bundle=stdc++");
    for name in ["rt", "dl", "m"] {
        println!("cargo:rustc-link-lib=dylib={name}");
    }
}
