//! Minimal launchers: CUDA (feature `cuda`) and HIP (feature `hip`).
