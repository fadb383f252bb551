//! `#ttg.partitioned_shared` (gfx1250, Gluon's `amd.cdna5.PartitionedSharedLayout`): a shared buffer split
//! along one dim into `numPartitions × numGroups` equal pieces kept in `numPartitions` separate physical
//! buffers, so that accesses to neighbouring pieces hit different LDS partitions.
//!
//! Piece `p` goes to partition `p % numPartitions`, at slot `p / numPartitions` of it. The layout is Triton
//! 3.9's `partitionedSharedToLinearLayout`: the inner layout of one piece (`offset, block → dims`), times a
//! `partition` input that picks the piece's low bits, times further `offset` bits that pick its group.

use std::sync::Arc;

use crate::layout::{Dim, LinearLayout, Result};

use super::{invalid, Encoding};

/// Triton's `PartitionedSharedEncodingAttr` / Gluon's `PartitionedSharedLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PartitionedShared {
    /// Physical buffers: a power of two, at least 2.
    pub num_partitions: u32,
    /// Pieces per buffer: a power of two.
    pub num_groups: u32,
    /// The tensor dim that is cut into pieces.
    pub partition_dim: u32,
    /// The layout of one piece (a shared layout).
    pub partition_layout: Arc<Encoding>,
}

impl PartitionedShared {
    /// The tensor rank (the inner layout's).
    pub fn rank(&self) -> Result<usize> {
        self.partition_layout.rank()
    }

    /// Checks the attribute verifier's rules.
    pub fn validate(&self) -> Result<()> {
        if self.num_partitions < 2 || !self.num_partitions.is_power_of_two() {
            return Err(invalid(
                "numPartitions",
                format!(
                    "numPartitions must be a power of 2 and at least 2, got {}",
                    self.num_partitions
                ),
            ));
        }
        if !self.num_groups.is_power_of_two() {
            return Err(invalid(
                "numGroups",
                format!("numGroups must be a power of 2, got {}", self.num_groups),
            ));
        }
        if !self.partition_layout.is_shared() {
            return Err(invalid(
                "partitionLayout",
                format!("{} is not a shared layout", self.partition_layout.kind()),
            ));
        }
        self.partition_layout.validate()?;
        let rank = self.rank()?;
        if self.partition_dim as usize >= rank {
            return Err(invalid(
                "partitionDim",
                format!(
                    "partitionDim ({}) must be less than the layout rank ({rank})",
                    self.partition_dim
                ),
            ));
        }
        Ok(())
    }

    /// The linear layout (`offset, block, partition → dims`) of a buffer of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        super::check_rank("shape", shape.len(), self.rank()?)?;
        super::cga::check_shape(shape)?;
        if let Encoding::PaddedShared(_) = *self.partition_layout {
            return Err(invalid(
                "partitionLayout",
                "a partitioned padded layout has no linear layout (Triton: use paddedLinearLayout instead)",
            ));
        }
        let d = self.partition_dim as usize;
        let pieces = u64::from(self.num_partitions) * u64::from(self.num_groups);
        if shape[d] < pieces {
            return Err(invalid(
                "shape",
                format!(
                    "dim {d} has {} elements, fewer than the {pieces} pieces it is cut into",
                    shape[d]
                ),
            ));
        }
        let mut piece = shape.to_vec();
        piece[d] /= pieces;
        let inner = self.partition_layout.tensor_layout(&piece)?;
        let partition =
            LinearLayout::identity_1d(u64::from(self.num_partitions), "partition", Dim::dim(d))?;
        let groups =
            LinearLayout::identity_1d(u64::from(self.num_groups), Dim::OFFSET, Dim::dim(d))?;
        (&(&inner * &partition)? * &groups)?.transpose_outs(&Dim::standard(shape.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::encoding::SwizzledShared;

    fn plain(p: u32, g: u32) -> PartitionedShared {
        PartitionedShared {
            num_partitions: p,
            num_groups: g,
            partition_dim: 0,
            partition_layout: Arc::new(Encoding::SwizzledShared(SwizzledShared::new(
                1,
                1,
                1,
                &[1, 0],
            ))),
        }
    }

    #[test]
    fn partitions_take_the_low_bits_of_the_piece_index_and_groups_the_high_ones() {
        // 64 rows in 4 pieces of 16: pieces 0 and 2 in partition 0, 1 and 3 in partition 1.
        let ll = plain(2, 2).to_linear_layout(&[64, 8]).unwrap();
        assert_eq!(ll.bases("partition").unwrap(), vec![vec![16, 0]]);
        assert_eq!(ll.bases("offset").unwrap().last().unwrap(), &vec![32, 0]);
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        assert!(plain(1, 1).to_linear_layout(&[64, 64]).is_err());
        assert!(plain(3, 1).to_linear_layout(&[64, 64]).is_err());
        assert!(plain(64, 2).to_linear_layout(&[64, 64]).is_err());
        let mut p = plain(2, 1);
        p.partition_dim = 2;
        assert!(p.to_linear_layout(&[64, 64]).is_err());
    }
}
