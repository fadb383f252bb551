//! Checks on kernel images before they reach a driver.
//!
//! `cuModuleLoadData` and `hipModuleLoadData` take a pointer without a length and trust the image's
//! own headers, so a truncated or mislabelled image would make the driver read past the end of the
//! slice. These checks verify that the headers describe memory inside the slice.

#![forbid(unsafe_code)]

use super::error::{Result, RuntimeError};

/// The ELF machine number of AMD GPU code objects.
pub const EM_AMDGPU: u16 = 224;
/// The ELF machine number of NVIDIA cubins.
pub const EM_CUDA: u16 = 190;

/// Reads the `.version X.Y` directive of PTX text, if present.
pub fn ptx_isa_version(ptx: &str) -> Option<(u32, u32)> {
    ptx.lines().find_map(|line| {
        let rest = line.trim().strip_prefix(".version")?;
        let (major, minor) = rest.trim().split_once('.')?;
        Some((major.trim().parse().ok()?, minor.trim().parse().ok()?))
    })
}

fn u16_at(image: &[u8], o: usize) -> Option<u64> {
    image
        .get(o..o + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]) as u64)
}

fn u64_at(image: &[u8], o: usize) -> Option<u64> {
    let b: [u8; 8] = image.get(o..o + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

/// Checks a little-endian ELF64 image for `machine`: magic, class, machine, and that the program and
/// section header tables lie inside the image. `what` names the image in errors.
pub fn check_elf64(image: &[u8], machine: u16, what: &'static str) -> Result<()> {
    let bad = |reason: String| Err(RuntimeError::InvalidImage { what, reason });
    let len = image.len() as u64;
    if !image.starts_with(b"\x7fELF") {
        return bad("not an ELF image (wrong magic bytes)".into());
    }
    if image.get(4) != Some(&2) || image.get(5) != Some(&1) {
        return bad("only little-endian 64-bit ELF images are accepted".into());
    }
    let (Some(m), Some(phoff), Some(shoff), Some(phsz), Some(phn), Some(shsz), Some(shn)) = (
        u16_at(image, 0x12),
        u64_at(image, 0x20),
        u64_at(image, 0x28),
        u16_at(image, 0x36),
        u16_at(image, 0x38),
        u16_at(image, 0x3a),
        u16_at(image, 0x3c),
    ) else {
        return bad(format!("the ELF header is truncated ({len} bytes)"));
    };
    if m != machine as u64 {
        return bad(format!("ELF machine is {m}, expected {machine}"));
    }
    for (table, off, n, size) in [("program", phoff, phn, phsz), ("section", shoff, shn, shsz)] {
        if off.checked_add(n * size).is_none_or(|end| end > len) {
            return bad(format!(
                "the ELF {table} header table ends past the image ({len} bytes)"
            ));
        }
    }
    Ok(())
}

/// Checks an NVIDIA fatbin: magic, and that the declared size fits in the image.
pub fn check_fatbin(image: &[u8]) -> Result<()> {
    let bad = |reason: String| {
        Err(RuntimeError::InvalidImage {
            what: "fatbin",
            reason,
        })
    };
    let len = image.len() as u64;
    if !image.starts_with(&0xBA55_ED50u32.to_le_bytes()) {
        return bad("not a fatbin (wrong magic bytes)".into());
    }
    let (Some(header), Some(body)) = (u16_at(image, 6), u64_at(image, 8)) else {
        return bad(format!("the fatbin header is truncated ({len} bytes)"));
    };
    if header.checked_add(body).is_none_or(|end| end > len) {
        return bad(format!(
            "the fatbin declares {} bytes but the image has {len}",
            header.saturating_add(body)
        ));
    }
    Ok(())
}
