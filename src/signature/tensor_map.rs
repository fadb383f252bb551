//! What a kernel assumes of a TMA tensor map parameter: the element type, the box (the tile one
//! copy moves) and the swizzle. The kernel's shared buffers are laid out for exactly that box and
//! swizzle, so a tensor map encoded with another box would fill them wrongly; the launcher compares
//! the map it is given with this record.

use std::fmt;

use super::ElemType;

/// The most dims a tensor map has (the driver's limit).
pub const MAX_TMA_RANK: usize = 5;

/// What a kernel assumes of a tensor map (`tensormap<f16 128x64 swizzle=128>` in text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TensorMapSpec {
    /// Element type of the tensor.
    pub elem: ElemType,
    /// Number of dims (1 to 5).
    pub rank: u8,
    /// The box, outermost dim first (as a tile's shape is written); entries past `rank` are 0.
    pub box_dims: [u32; MAX_TMA_RANK],
    /// Swizzle span in bytes: 0 (none), 32, 64 or 128.
    pub swizzle: u16,
}

impl TensorMapSpec {
    /// A spec for a box of `box_dims` (outermost first). Fails when the rank is not 1 to 5, a box
    /// dim is not 1 to 256, the swizzle is not 0/32/64/128, or the box's inner row is longer than
    /// the swizzle span (the hardware swizzles rows of at most that many bytes).
    pub fn new(elem: ElemType, box_dims: &[u32], swizzle: u16) -> Result<TensorMapSpec, String> {
        if box_dims.is_empty() || box_dims.len() > MAX_TMA_RANK {
            return Err(format!(
                "a tensor map has 1 to {MAX_TMA_RANK} dims, not {}",
                box_dims.len()
            ));
        }
        if let Some(b) = box_dims.iter().find(|&&b| b == 0 || b > 256) {
            return Err(format!("box dim {b}: each must be 1 to 256"));
        }
        if !matches!(swizzle, 0 | 32 | 64 | 128) {
            return Err(format!("swizzle {swizzle}: must be 0, 32, 64 or 128 bytes"));
        }
        let inner_bytes =
            u64::from(*box_dims.last().expect("not empty")) * elem.size_bytes() as u64;
        if !inner_bytes.is_multiple_of(16) {
            return Err(format!(
                "the box's inner dim is {inner_bytes} bytes: TMA moves multiples of 16 bytes"
            ));
        }
        if swizzle != 0 && inner_bytes > u64::from(swizzle) {
            return Err(format!(
                "the box's inner dim is {inner_bytes} bytes, more than the {swizzle}-byte swizzle span"
            ));
        }
        let mut dims = [0; MAX_TMA_RANK];
        dims[..box_dims.len()].copy_from_slice(box_dims);
        Ok(TensorMapSpec {
            elem,
            rank: box_dims.len() as u8,
            box_dims: dims,
            swizzle,
        })
    }

    /// The box, outermost dim first.
    pub fn box_shape(&self) -> &[u32] {
        &self.box_dims[..self.rank as usize]
    }

    /// Bytes one box fills in shared memory (what an mbarrier expects per copy).
    pub fn box_bytes(&self) -> u64 {
        self.box_shape()
            .iter()
            .map(|&b| u64::from(b))
            .product::<u64>()
            * self.elem.size_bytes() as u64
    }

    /// Reads `f16 128x64 swizzle=128` (the part inside `tensormap<…>`).
    pub(crate) fn parse(text: &str) -> Result<TensorMapSpec, String> {
        let mut words = text.split_whitespace();
        let (Some(elem), Some(dims), Some(sw), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(format!(
                "expected `tensormap<ELEM AxB swizzle=S>`, got `tensormap<{text}>`"
            ));
        };
        let elem =
            ElemType::from_name(elem).ok_or_else(|| format!("unknown element type `{elem}`"))?;
        let dims: Vec<u32> = dims
            .split('x')
            .map(|d| {
                d.parse::<u32>()
                    .map_err(|_| format!("box dim `{d}` is not a number"))
            })
            .collect::<Result<_, _>>()?;
        let sw = sw
            .strip_prefix("swizzle=")
            .and_then(|s| s.parse::<u16>().ok())
            .ok_or_else(|| format!("expected `swizzle=S`, got `{sw}`"))?;
        TensorMapSpec::new(elem, &dims, sw)
    }
}

impl fmt::Display for TensorMapSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims: Vec<String> = self.box_shape().iter().map(|d| d.to_string()).collect();
        write!(
            f,
            "{} {} swizzle={}",
            self.elem,
            dims.join("x"),
            self.swizzle
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_prints_and_parses_back() {
        let s = TensorMapSpec::new(ElemType::F16, &[128, 64], 128).unwrap();
        assert_eq!(s.to_string(), "f16 128x64 swizzle=128");
        assert_eq!(TensorMapSpec::parse(&s.to_string()).unwrap(), s);
        assert_eq!(s.box_bytes(), 128 * 64 * 2);
        assert_eq!(s.box_shape(), &[128, 64]);
    }

    #[test]
    fn the_hardware_limits_are_checked() {
        assert!(TensorMapSpec::new(ElemType::F16, &[128, 128], 128)
            .unwrap_err()
            .contains("swizzle span"));
        assert!(TensorMapSpec::new(ElemType::F16, &[512, 64], 128)
            .unwrap_err()
            .contains("1 to 256"));
        assert!(TensorMapSpec::new(ElemType::F16, &[], 0).is_err());
        assert!(TensorMapSpec::new(ElemType::F16, &[1; 6], 0).is_err());
        assert!(TensorMapSpec::new(ElemType::F16, &[64, 4], 0)
            .unwrap_err()
            .contains("16 bytes"));
        assert!(TensorMapSpec::new(ElemType::F16, &[64, 64], 48).is_err());
        assert!(TensorMapSpec::parse("f16 64 swizzle=x").is_err());
        assert!(TensorMapSpec::parse("f17 64x64 swizzle=128").is_err());
    }
}
