//! The types of tile-IR values: one enum, each kind with exactly the facts it has.

use std::fmt;
use std::sync::Arc;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::types::Type;
use crate::layout::LinearLayout;

/// A shared-memory buffer: where the allocator put it and how its offsets map to the tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SharedBuf {
    /// Byte offset in the CTA's shared memory.
    pub base: u64,
    /// The layout: in dim `offset` (element offsets before padding), out dims `dim0, dim1, …`.
    pub layout: LinearLayout,
    /// Padding of a padded shared layout: `(interval, padding)` pairs in elements (powers of two),
    /// each adding `padding` elements after every `interval`.
    pub padding: Vec<(u64, u64)>,
    /// How the layout was given, for messages.
    pub name: String,
    /// A power of two the byte offset of the buffer's first element is known to be a multiple
    /// of (the allocation's alignment, lowered by the offsets of views): a layout that swizzles
    /// on address bits (NVMMA for TMA and wgmma) needs its atom aligned.
    pub align: u64,
    /// The allocation the bytes belong to (the allocator's id): views share it, and
    /// `free_shared` retires it for every descriptor of it.
    pub alloc: usize,
    /// Whether this descriptor is a view (index, slice, permute, reshape, reinterpret) rather
    /// than the allocation itself: only the allocation is freed.
    pub view: bool,
    /// The bytes between the copies of an allocation made inside a replicated warp role (one
    /// copy per replica); `None` for a single copy.
    pub stride: Option<u64>,
}

impl SharedBuf {
    /// A view of the same allocation at static byte `base` with `layout`, `padding` and `name`.
    pub fn view_of(
        &self,
        base: u64,
        layout: LinearLayout,
        padding: Vec<(u64, u64)>,
        name: String,
        align: u64,
    ) -> SharedBuf {
        SharedBuf {
            base,
            layout,
            padding,
            name,
            align,
            alloc: self.alloc,
            view: true,
            stride: self.stride,
        }
    }
}

/// What a tile-IR value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IrType {
    /// One value, the same in every thread.
    Scalar(Type),
    /// A tile distributed over registers, lanes and warps.
    Tile {
        /// Element type.
        elem: Type,
        /// Tile shape.
        shape: Vec<u64>,
        /// Distributed layout.
        layout: Arc<TileLayout>,
    },
    /// A buffer (or a view of one) in shared memory.
    Shared {
        /// Element type.
        elem: Type,
        /// Logical shape.
        shape: Vec<u64>,
        /// Where it is and how it is laid out.
        buf: Arc<SharedBuf>,
    },
    /// An array of mbarriers in shared memory (`count` 1 for one barrier).
    Barriers {
        /// How many.
        count: u64,
    },
    /// A TMA tensor map parameter.
    TensorMap {
        /// Element type of the tensor it describes.
        elem: Type,
    },
    /// A token of an asynchronous copy group.
    Token,
}

impl IrType {
    /// The element type, for scalars, tiles, shared buffers and tensor maps.
    pub fn elem(&self) -> Option<Type> {
        match self {
            IrType::Scalar(t) => Some(*t),
            IrType::Tile { elem, .. } | IrType::Shared { elem, .. } => Some(*elem),
            IrType::TensorMap { elem } => Some(*elem),
            IrType::Barriers { .. } | IrType::Token => None,
        }
    }

    /// The shape of a tile or shared buffer; empty otherwise.
    pub fn shape(&self) -> &[u64] {
        match self {
            IrType::Tile { shape, .. } | IrType::Shared { shape, .. } => shape,
            _ => &[],
        }
    }
}

fn dims(shape: &[u64]) -> String {
    shape
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

impl fmt::Display for IrType {
    /// The type without its layout (the printer adds the layout alias).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IrType::Scalar(t) => write!(f, "{t}"),
            IrType::Tile { elem, shape, .. } => write!(f, "tensor<{}x{elem}>", dims(shape)),
            IrType::Shared { elem, shape, .. } => write!(f, "!shared<{}x{elem}>", dims(shape)),
            IrType::Barriers { count } => write!(f, "!mbarrier<{count}>"),
            IrType::TensorMap { elem } => write!(f, "!tensormap<{elem}>"),
            IrType::Token => write!(f, "!async.token"),
        }
    }
}
