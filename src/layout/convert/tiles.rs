//! Shared-memory instruction tiles: which lanes of a warp hold contiguous data and which lanes supply
//! addresses, for every shared-memory instruction a target offers (Triton's `LocalMemOpTile`).
//!
//! A layout can use an instruction when it contains the instruction's tile: its first registers and the
//! lanes listed in `lane_contig` cover one contiguous 128-bit row, and the lanes in `lane_addr` index the
//! rows one instruction touches.

use std::fmt;

use crate::target::Target;

/// A shared-memory instruction family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Instruction {
    /// `st.shared` / `ld.shared` (NVIDIA) or `ds_write` / `ds_read` (AMD) of up to 128 bits per lane.
    LdSt,
    /// `stmatrix` (NVIDIA sm_90+): up to four 8×8 matrices of 16-bit values (x1, x2, x4) from registers.
    StMatrix,
    /// `stmatrix.trans`.
    StMatrixTrans,
    /// `ldmatrix` (NVIDIA sm_75+), x1, x2 or x4.
    LdMatrix,
    /// `ldmatrix.trans`.
    LdMatrixTrans,
    /// `ds_read_b64_tr_b16` (AMD gfx950): a transposing LDS read, tiled like `ldmatrix.trans`.
    DsReadTr,
}

impl Instruction {
    /// A short name for tables and JSON, given the bits one lane moves per instruction.
    pub fn name(self, target: Target, access_bits: u64, store: bool) -> String {
        match self {
            Instruction::LdSt => {
                let w = access_bits.clamp(8, 128);
                if target.is_amd() {
                    format!("{}_b{w}", if store { "ds_write" } else { "ds_read" })
                } else if w > 32 {
                    format!("{}.shared.v{}.b32", if store { "st" } else { "ld" }, w / 32)
                } else {
                    format!("{}.shared.b{w}", if store { "st" } else { "ld" })
                }
            }
            Instruction::StMatrix => format!("stmatrix.x{}", matrices(access_bits)),
            Instruction::StMatrixTrans => format!("stmatrix.x{}.trans", matrices(access_bits)),
            Instruction::LdMatrix => format!("ldmatrix.x{}", matrices(access_bits)),
            Instruction::LdMatrixTrans => format!("ldmatrix.x{}.trans", matrices(access_bits)),
            Instruction::DsReadTr => "ds_read_b64_tr_b16".into(),
        }
    }
}

/// 8×8 matrices of one `ldmatrix`/`stmatrix`: one per 32 bits each lane moves (x1, x2, x4).
fn matrices(access_bits: u64) -> u64 {
    (access_bits / 32).clamp(1, 4)
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The lane pattern of one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// The instruction.
    pub instruction: Instruction,
    /// Lane bits whose lanes hold the continuation of one contiguous row.
    pub lane_contig: &'static [usize],
    /// Lane bits whose lanes supply the addresses of the rows.
    pub lane_addr: &'static [usize],
}

fn tile(
    instruction: Instruction,
    lane_contig: &'static [usize],
    lane_addr: &'static [usize],
) -> Tile {
    Tile {
        instruction,
        lane_contig,
        lane_addr,
    }
}

/// The store (register → shared) and load (shared → register) tiles `target` offers for
/// `element_bits`-bit elements, plain `ld/st` first (Triton's `getSrcDstTiles`).
pub fn tiles_for(target: Target, element_bits: u32) -> (Vec<Tile>, Vec<Tile>) {
    let plain = tile(Instruction::LdSt, &[], &[0, 1, 2]);
    let mut store = Vec::with_capacity(3);
    store.push(plain.clone());
    let mut load = Vec::with_capacity(3);
    load.push(plain);
    match (target.sm(), target.gfx()) {
        (Some(sm), _) => {
            if sm >= 90 && element_bits <= 32 {
                store.push(tile(Instruction::StMatrix, &[0, 1], &[2, 3, 4]));
            }
            if sm >= 75 && element_bits <= 32 {
                load.push(tile(Instruction::LdMatrix, &[0, 1], &[2, 3, 4]));
            }
            if element_bits == 16 {
                if sm >= 90 {
                    store.push(tile(Instruction::StMatrixTrans, &[2, 3, 4], &[0, 1]));
                }
                if sm >= 75 {
                    load.push(tile(Instruction::LdMatrixTrans, &[2, 3, 4], &[0, 1]));
                }
            }
        }
        (None, gfx) => {
            if gfx.unwrap_or(0) >= 950 && element_bits == 16 {
                load.push(tile(Instruction::DsReadTr, &[2, 3, 4], &[0, 1]));
            }
        }
    }
    (store, load)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_follow_the_target() {
        let (st, ld) = tiles_for(Target::SM80, 16);
        assert_eq!(st.len(), 1, "no stmatrix before sm_90");
        assert!(ld
            .iter()
            .any(|t| t.instruction == Instruction::LdMatrixTrans));
        let (st, _) = tiles_for(Target::SM90, 16);
        assert!(st.iter().any(|t| t.instruction == Instruction::StMatrix));
        let (st, ld) = tiles_for(Target::SM90, 64);
        assert_eq!(
            (st.len(), ld.len()),
            (1, 1),
            "no matrix instructions for 64-bit elements"
        );
        let (_, ld) = tiles_for(Target::GFX950, 16);
        assert!(ld.iter().any(|t| t.instruction == Instruction::DsReadTr));
        assert_eq!(
            Instruction::LdMatrix.name(Target::SM90, 64, false),
            "ldmatrix.x2"
        );
        assert_eq!(
            Instruction::LdSt.name(Target::SM90, 128, true),
            "st.shared.v4.b32"
        );
        assert_eq!(
            Instruction::LdSt.name(Target::GFX942, 64, false),
            "ds_read_b64"
        );
    }
}
