#!/usr/bin/env python3
"""Type-checks every example with exactly the features Cargo.toml declares for it.

`cargo test --all-features` builds the examples with every feature on, which hides an example that
uses a feature it does not declare (a user running `cargo run --example NAME --features <declared>`
would get a compile error). Examples without a `[[example]]` entry must build with no feature.
`cargo check` is enough: a missing feature is a compile error, and checking skips LLVM's link.
Examples are grouped by feature set, so each set compiles the crate once.
"""
import os
import subprocess
import sys
import tomllib

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
with open(os.path.join(root, "Cargo.toml"), "rb") as f:
    manifest = tomllib.load(f)
declared = {e["name"]: e.get("required-features", []) for e in manifest.get("example", [])}
names = sorted(
    f[:-3] for f in os.listdir(os.path.join(root, "examples")) if f.endswith(".rs")
) + sorted(
    d for d in os.listdir(os.path.join(root, "examples"))
    if os.path.isfile(os.path.join(root, "examples", d, "main.rs"))
)
groups = {}
for name in names:
    groups.setdefault(",".join(declared.get(name, [])), []).append(name)
for features, members in sorted(groups.items()):
    cmd = ["cargo", "check", "--quiet"]
    if features:
        cmd += ["--features", features]
    for m in members:
        cmd += ["--example", m]
    print(f"== examples with features [{features}]: {' '.join(members)}", flush=True)
    if subprocess.run(cmd, cwd=root).returncode != 0:
        sys.exit(f"examples {members} do not build with exactly the features [{features}]")
print(f"{len(names)} examples build with exactly their declared features")
