//! weft: fast GPU kernels with explicit layouts.
//!
//! Triton's Gluon showed that kernel authors win when layouts, shared memory and asynchrony are explicit
//! instead of guessed by a compiler. weft gives the same control to Rust, without MLIR, in three parts:
//!
//! | part | module | feature | depends on |
//! |---|---|---|---|
//! | linear-layout algebra over GF(2), encodings, conversion planning | [`layout`] | always | [`target`] |
//! | tile-op builder emitting LLVM IR, PTX and AMDGPU code objects | `codegen` | `llvm`, `amdgpu` | `layout`, [`signature`] |
//! | minimal launcher (CUDA through cudarc, HIP loaded at run time) | [`runtime`] | `cuda`, `hip` | [`signature`] |
//!
//! Two small dependency-free modules tie them together: [`target::Target`], the one description of a GPU
//! (the planner costs plans with it, the builder checks ops against it, the launcher compares devices with
//! it), and [`signature::KernelSignature`], what a kernel assumes of its launch. The builder hands each
//! kernel's signature to the launcher as it is, and every checked launch verifies it.
//!
//! # The model in one example
//!
//! A *layout* says which hardware slot holds which tensor element. weft writes every layout, Triton's
//! blocked, MMA and shared encodings included, as one [`layout::LinearLayout`]: a map from hardware bits
//! (`register`, `lane`, `warp`) to tensor coordinates (`dim0`, `dim1`) that is linear over GF(2). Input bit i of
//! a dim maps to a *basis vector*; any input maps to the XOR of its set bits' bases. Because the map is linear,
//! every question about a layout is a small bit-matrix computation.
//!
//! ```
//! use weft::layout::text::parse_any;
//! use weft::layout::convert::{plan_conversion, Target};
//!
//! // A 32×32 f16 tile, read row by row: each thread holds 4 consecutive elements of a row,
//! // 8 threads span a row, 4 warps stack down the rows.
//! let rows = parse_any(
//!     "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
//! )?
//! .to_linear_layout(&[32, 32])?;
//! // register bits step along dim1 (1, 2), then wrap to rows 16 (the tile is 16 rows tall)…
//! assert_eq!(rows.bases("register")?, vec![vec![0, 1], vec![0, 2], vec![16, 0]]);
//! // …lanes step columns 4, 8, 16 then rows 1, 2; warps step rows 4, 8.
//! assert_eq!(rows.bases("lane")?, vec![vec![0, 4], vec![0, 8], vec![0, 16], vec![1, 0], vec![2, 0]]);
//!
//! // Which element does lane 9 (= 0b01001: lane bits 0 and 3), register 2 of warp 0 hold?
//! // The XOR of the bases (0,4), (1,0) and (0,2): row 1, column 6.
//! let at = rows.apply(&[("register", 2), ("lane", 9), ("warp", 0)])?;
//! assert_eq!((at[0].1, at[1].1), (1, 6));
//!
//! // The same tile read column by column (a transpose of the access pattern).
//! let cols = parse_any(
//!     "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>",
//! )?
//! .to_linear_layout(&[32, 32])?;
//!
//! // Converting between them: `invert_and_compose` says where each source slot's element lives in the
//! // destination (C with rows(x) = cols(C(x))). Data crosses warps, so it must go through shared memory…
//! let moves = rows.invert_and_compose(&cols)?;
//! assert!(moves.has_out_dim("warp"));
//! // …and the planner picks the swizzled shared-memory layout, the instructions and their cost.
//! let plan = plan_conversion(&rows, &cols, 16, Target::SM90)?;
//! assert!(plan.scratch_bytes() > 0);
//! assert_eq!(plan.bank_conflicts(), (0, 0));
//! println!("{plan}"); // a table; with feature `serde`, `plan.to_json()` gives design.md's JSON
//! # Ok::<(), weft::layout::LayoutError>(())
//! ```
//!
//! The builder (feature `llvm`) takes these layouts as they are: every tile value carries one, the lane and
//! warp ids are read once, each register's coordinate is a constant XOR of their bases, and each global access
//! gets the widest vector the layout's register contiguity allows. Ops also take the shape-free encodings
//! (`Blocked`, `Slice`, …) and lay them out for the tile's shape, as Gluon does. See `codegen` and
//! `examples/quickstart.rs`.
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod layout;
pub mod signature;
pub mod target;

#[cfg(feature = "llvm")]
#[cfg_attr(docsrs, doc(cfg(feature = "llvm")))]
pub mod codegen;

pub mod runtime;

/// The README's Rust examples run as doctests, so the first example a reader sees cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
