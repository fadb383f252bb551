//! The checks every checked launch goes through, written once for every backend: the arguments
//! against the kernel's [`KernelSignature`] (count, types, promised divisibility) and the launch's
//! block size and shared memory against what the code was built for.

#![forbid(unsafe_code)]

use super::args::KernelArg;
use super::error::{LaunchProblem, Result, RuntimeError};
use super::launch::LaunchConfig;
use crate::signature::{KernelSignature, ParamType};

/// Checks argument types against `sig`: the count first, then each type.
pub fn check_types(sig: &KernelSignature, types: &[ParamType]) -> Result<()> {
    if types.len() != sig.params.len() {
        return Err(RuntimeError::ArgCount {
            kernel: sig.name.clone(),
            expected: sig.params.len(),
            got: types.len(),
            signature: sig.to_string(),
        });
    }
    for (index, (p, &got)) in sig.params.iter().zip(types).enumerate() {
        // A signature that assumes nothing of a tensor map (`tensormap`) takes any.
        let any_map = p.ty == ParamType::TensorMap(None) && matches!(got, ParamType::TensorMap(_));
        if p.ty != got && !any_map {
            return Err(RuntimeError::ArgType {
                kernel: sig.name.clone(),
                index,
                expected: p.ty,
                got,
            });
        }
    }
    Ok(())
}

/// Checks `args` against `sig`: their types, then every divisibility the code assumes (an address
/// or integer that breaks one would make vectorised or index-folded code read the wrong elements).
pub fn check_args(sig: &KernelSignature, args: &[KernelArg]) -> Result<()> {
    let types: Vec<ParamType> = args.iter().map(KernelArg::param_type).collect();
    check_types(sig, &types)?;
    for (index, (p, arg)) in sig.params.iter().zip(args).enumerate() {
        let value = match *arg {
            KernelArg::Ptr { addr, .. } => addr,
            KernelArg::I32(v) => v as i64 as u64,
            KernelArg::I64(v) => v as u64,
            KernelArg::U32(v) => v as u64,
            KernelArg::U64(v) => v,
            KernelArg::F32(_) | KernelArg::F64(_) | KernelArg::TensorMap(_) => continue,
        };
        if p.divisibility > 1 && value % p.divisibility != 0 {
            return Err(RuntimeError::Divisibility {
                kernel: sig.name.clone(),
                index,
                param: p.name.clone(),
                value: match *arg {
                    KernelArg::Ptr { addr, .. } => format!("address {addr:#x}"),
                    KernelArg::I32(v) => v.to_string(),
                    KernelArg::I64(v) => v.to_string(),
                    _ => value.to_string(),
                },
                divisibility: p.divisibility,
            });
        }
    }
    Ok(())
}

/// Checks the block size and dynamic shared memory of `config` against what `sig`'s code was built
/// for: the exact block size (`.reqntid`), and at least the shared memory it uses.
pub fn check_config(sig: &KernelSignature, config: &LaunchConfig) -> Result<()> {
    let err = |problem| RuntimeError::LaunchConfig {
        kernel: sig.name.clone(),
        problem,
    };
    if let Some(expected) = sig.threads_per_block {
        let b = config.block;
        if b.volume() != expected as u64 || b.y != 1 || b.z != 1 {
            return Err(err(LaunchProblem::BlockSize { expected, got: b }));
        }
    }
    if config.shared_mem_bytes < sig.shared_bytes {
        return Err(err(LaunchProblem::TooLittleShared {
            needs: sig.shared_bytes,
            got: config.shared_mem_bytes,
        }));
    }
    if let Some(cluster) = sig.cluster {
        if let Some(t) = sig
            .target
            .filter(|t| !t.supports(crate::target::Feature::Cluster))
        {
            return Err(err(LaunchProblem::ClusterArch {
                cluster,
                what: "the code's target",
                arch: t.to_string(),
            }));
        }
        let g = config.grid;
        let fits = [g.x, g.y, g.z]
            .iter()
            .zip(cluster)
            .all(|(&n, c)| c > 0 && n % c == 0);
        if !fits {
            return Err(err(LaunchProblem::ClusterGrid { grid: g, cluster }));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Dim3;
    use crate::signature::ElemType;

    fn sig() -> KernelSignature {
        KernelSignature::parse(
            "k(x: *f32 {divisibility = 16}, n: i32 {divisibility = 8}, a: f32) [threads = 128, shared = 1024]",
        )
        .unwrap()
    }

    #[test]
    fn divisibility_is_checked_on_addresses_and_integers() {
        let ok = [
            KernelArg::Ptr {
                elem: ElemType::F32,
                addr: 0x1000,
            },
            KernelArg::I32(64),
            KernelArg::F32(1.5),
        ];
        check_args(&sig(), &ok).unwrap();
        let mut bad = ok;
        bad[0] = KernelArg::Ptr {
            elem: ElemType::F32,
            addr: 0x1004,
        };
        match check_args(&sig(), &bad) {
            Err(e @ RuntimeError::Divisibility { index: 0, .. }) => {
                assert!(e.to_string().contains("`x`"), "{e}");
                assert!(e.to_string().contains("16"), "{e}");
            }
            other => panic!("expected Divisibility, got {other:?}"),
        }
        let mut bad = ok;
        bad[1] = KernelArg::I32(-4);
        assert!(matches!(
            check_args(&sig(), &bad),
            Err(RuntimeError::Divisibility { index: 1, .. })
        ));
    }

    #[test]
    fn block_size_and_shared_memory_are_checked() {
        let good = LaunchConfig::new(4, 128, 1024);
        check_config(&sig(), &good).unwrap();
        for bad in [
            LaunchConfig::new(4, 256, 1024),
            LaunchConfig::new(4, Dim3::new(64, 2, 1), 1024),
        ] {
            let e = check_config(&sig(), &bad).unwrap_err();
            assert!(e.to_string().contains("128 threads"), "{e}");
        }
        let e = check_config(&sig(), &LaunchConfig::new(4, 128, 512)).unwrap_err();
        assert!(e.to_string().contains("1024"), "{e}");
    }

    #[test]
    fn a_cluster_needs_a_whole_number_of_clusters_and_sm_90() {
        let mut s = sig();
        s.cluster = Some([2, 1, 1]);
        s.target = Some(crate::target::Target::SM90);
        check_config(&s, &LaunchConfig::new(Dim3::new(6, 3, 1), 128, 1024)).unwrap();
        let e = check_config(&s, &LaunchConfig::new(Dim3::new(5, 3, 1), 128, 1024)).unwrap_err();
        assert!(
            matches!(
                e,
                RuntimeError::LaunchConfig {
                    problem: LaunchProblem::ClusterGrid { .. },
                    ..
                }
            ),
            "{e}"
        );
        s.target = Some(crate::target::Target::SM80);
        let e = check_config(&s, &LaunchConfig::new(Dim3::new(6, 3, 1), 128, 1024)).unwrap_err();
        assert!(e.to_string().contains("sm_80"), "{e}");
    }
}
