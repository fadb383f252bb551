//! Global memory of the interpreter: allocations at distinct addresses, every access checked
//! (memcheck), so an out-of-bounds load or store is a typed error instead of a wrong answer.

use crate::codegen::interp::num::{from_bits, to_bits, Num};
use crate::codegen::types::DType;

/// A host element type that buffers can hold.
pub trait HostElem: Copy {
    /// Its element type.
    const DTYPE: DType;
    /// As an interpreter element.
    fn to_num(self) -> Num;
    /// From an interpreter element.
    fn from_num(n: Num) -> Self;
}

macro_rules! host_int {
    ($($t:ty => $d:ident),*) => {$(
        impl HostElem for $t {
            const DTYPE: DType = DType::$d;
            fn to_num(self) -> Num { Num::I(self as i64) }
            fn from_num(n: Num) -> Self { n.i() as $t }
        }
    )*};
}
host_int!(i8 => I8, i16 => I16, i32 => I32, i64 => I64);

impl HostElem for f32 {
    const DTYPE: DType = DType::F32;
    fn to_num(self) -> Num {
        Num::F(self as f64)
    }
    fn from_num(n: Num) -> Self {
        n.f() as f32
    }
}
impl HostElem for f64 {
    const DTYPE: DType = DType::F64;
    fn to_num(self) -> Num {
        Num::F(self)
    }
    fn from_num(n: Num) -> Self {
        n.f()
    }
}
impl HostElem for half::f16 {
    const DTYPE: DType = DType::F16;
    fn to_num(self) -> Num {
        Num::F(self.to_f64())
    }
    fn from_num(n: Num) -> Self {
        half::f16::from_f64(n.f())
    }
}
impl HostElem for half::bf16 {
    const DTYPE: DType = DType::BF16;
    fn to_num(self) -> Num {
        Num::F(self.to_f64())
    }
    fn from_num(n: Num) -> Self {
        half::bf16::from_f64(n.f())
    }
}

/// A buffer in the interpreter's global memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceBuffer {
    /// Its first byte's address (what a pointer parameter receives).
    pub addr: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The interpreter's global memory.
#[derive(Debug, Default)]
pub struct Memory {
    allocs: Vec<(u64, Vec<u8>)>,
    /// Allocations released by [`Memory::free`] (their bytes are gone; accesses are out of bounds).
    freed: Vec<bool>,
}

/// Where allocation `k` starts: far apart, so no pointer arithmetic slides from one into the
/// next unnoticed.
fn base_of(k: usize) -> u64 {
    (k as u64 + 1) << 36
}

impl Memory {
    /// Empty memory.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// A buffer of `bytes` bytes filled with `fill`.
    pub fn alloc_bytes(&mut self, bytes: u64, fill: u8) -> DeviceBuffer {
        let addr = base_of(self.allocs.len());
        self.allocs.push((addr, vec![fill; bytes as usize]));
        self.freed.push(false);
        DeviceBuffer { addr, bytes }
    }

    /// Releases `buf`: its bytes are dropped and its addresses are never handed out again, so a
    /// kernel still using them is out of bounds ("a freed buffer").
    pub fn free(&mut self, buf: DeviceBuffer) {
        if let Some((k, 0)) = self.find(buf.addr, 0) {
            self.allocs[k].1 = Vec::new();
            self.freed[k] = true;
        }
    }

    /// The `len` bytes at `addr`; `None` unless they lie inside one buffer.
    pub fn bytes(&self, addr: u64, len: u64) -> Option<&[u8]> {
        let (k, off) = self.find(addr, len)?;
        Some(&self.allocs[k].1[off..off + len as usize])
    }

    /// The `len` bytes at `addr`, writable; `None` unless they lie inside one buffer.
    pub fn bytes_mut(&mut self, addr: u64, len: u64) -> Option<&mut [u8]> {
        let (k, off) = self.find(addr, len)?;
        Some(&mut self.allocs[k].1[off..off + len as usize])
    }

    /// Copies `len` bytes from `src` to `dst` (device to device, no host copy in between);
    /// `None` unless each range lies inside one buffer.
    pub fn copy(&mut self, src: u64, dst: u64, len: u64) -> Option<()> {
        let ((ks, os), (kd, od)) = (self.find(src, len)?, self.find(dst, len)?);
        let n = len as usize;
        if ks == kd {
            self.allocs[ks].1.copy_within(os..os + n, od);
        } else {
            let (lo, hi) = self.allocs.split_at_mut(ks.max(kd));
            let (from, to) = if ks < kd {
                (&lo[ks].1, &mut hi[0].1)
            } else {
                (&hi[0].1, &mut lo[kd].1)
            };
            to[od..od + n].copy_from_slice(&from[os..os + n]);
        }
        Some(())
    }

    /// A buffer holding `data`.
    pub fn upload<T: HostElem>(&mut self, data: &[T]) -> DeviceBuffer {
        let size = T::DTYPE.mem_bytes();
        let buf = self.alloc_bytes(data.len() as u64 * size, 0);
        for (i, x) in data.iter().enumerate() {
            let bits = to_bits(x.to_num(), T::DTYPE);
            self.write(buf.addr + i as u64 * size, size, bits)
                .expect("inside the buffer just made");
        }
        buf
    }

    /// A buffer of `len` elements of `T`, every byte `0xFF` (poison: a float NaN, an integer
    /// -1), so that what a kernel does not write is seen.
    pub fn alloc_poisoned<T: HostElem>(&mut self, len: usize) -> DeviceBuffer {
        self.alloc_bytes(len as u64 * T::DTYPE.mem_bytes(), 0xFF)
    }

    /// The contents of `buf` as elements of `T`.
    pub fn download<T: HostElem>(&self, buf: DeviceBuffer) -> Vec<T> {
        let size = T::DTYPE.mem_bytes();
        (0..buf.bytes / size)
            .map(|i| {
                let bits = self.read(buf.addr + i * size, size).unwrap_or(0);
                T::from_num(from_bits(bits, T::DTYPE))
            })
            .collect()
    }

    fn find(&self, addr: u64, size: u64) -> Option<(usize, usize)> {
        let k = (addr >> 36).checked_sub(1)? as usize;
        let (base, bytes) = self.allocs.get(k)?;
        let off = addr.checked_sub(*base)?;
        (off.checked_add(size)? <= bytes.len() as u64).then_some((k, off as usize))
    }

    /// The `size`-byte little-endian word at `addr`; `None` outside every buffer.
    pub fn read(&self, addr: u64, size: u64) -> Option<u64> {
        let (k, off) = self.find(addr, size)?;
        let b = &self.allocs[k].1[off..off + size as usize];
        Some(b.iter().rev().fold(0u64, |acc, &x| (acc << 8) | x as u64))
    }

    /// Writes the low `size` bytes of `bits` at `addr`; `None` outside every buffer.
    pub fn write(&mut self, addr: u64, size: u64, bits: u64) -> Option<()> {
        let (k, off) = self.find(addr, size)?;
        for i in 0..size as usize {
            self.allocs[k].1[off + i] = (bits >> (8 * i)) as u8;
        }
        Some(())
    }

    /// Whether `addr` lies in a buffer (for error messages).
    pub fn describe(&self, addr: u64) -> String {
        match (addr >> 36)
            .checked_sub(1)
            .and_then(|k| self.allocs.get(k as usize))
        {
            Some(_) if self.freed[((addr >> 36) - 1) as usize] => {
                format!("address {addr:#x}, in a freed buffer")
            }
            Some((base, bytes)) => format!(
                "byte {} of a {}-byte buffer",
                addr as i128 - *base as i128,
                bytes.len()
            ),
            None => format!("address {addr:#x}, in no buffer"),
        }
    }
}
