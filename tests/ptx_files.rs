//! The hand-written PTX kernels used by the GPU tests and benchmark are accepted by `ptxas` 13.0
//! (the same PTX level as driver 580), for sm_80 and sm_90. Skipped, with the reason printed, when
//! no ptxas is found (`$PTXAS`, or `/opt/cuda-nvcc/nvidia/cu13/bin/ptxas`).

use std::path::PathBuf;
use std::process::Command;

fn ptxas() -> Option<PathBuf> {
    let p = std::env::var_os("PTXAS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/cuda-nvcc/nvidia/cu13/bin/ptxas"));
    p.exists().then_some(p)
}

#[test]
fn hand_written_ptx_assembles() {
    let Some(ptxas) = ptxas() else {
        println!("SKIP: no ptxas (set PTXAS)");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ptx");
    let out = std::env::temp_dir().join(format!("weft-ptx-{}.cubin", std::process::id()));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ptx") {
            continue;
        }
        seen += 1;
        for arch in ["sm_80", "sm_90"] {
            let o = Command::new(&ptxas)
                .arg(format!("-arch={arch}"))
                .arg(&path)
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{} for {arch}: {}",
                path.display(),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    let _ = std::fs::remove_file(&out);
    assert_eq!(
        seen, 5,
        "saxpy, copy_v4, add_v4, copy_rows_v4 and smem_reverse"
    );
}
