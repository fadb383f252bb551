//! The 3-D extents of a launch: a grid in blocks, a block in threads.

#![forbid(unsafe_code)]

/// A 3-D extent of a grid (in blocks) or a block (in threads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// Extent along x.
    pub x: u32,
    /// Extent along y.
    pub y: u32,
    /// Extent along z.
    pub z: u32,
}

impl Dim3 {
    /// `(x, 1, 1)`.
    pub const fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }

    /// `(x, y, z)`.
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// x·y·z, without overflow.
    pub fn volume(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// Each axis with its letter, for messages naming the axis that breaks a limit.
    pub(crate) fn axes(self) -> [(char, u32); 3] {
        [('x', self.x), ('y', self.y), ('z', self.z)]
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Dim3 {
        Dim3::x(x)
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Dim3 {
        Dim3 { x, y, z }
    }
}
