//! The Pig table file: a versioned header, the values, a checksum.
//!
//! Layout (all little-endian):
//! `b"KIBITZPG"`, format version u32, variant u8, goal u32, die sides u32,
//! solve tolerance f64, value count u64, the values as f64, then CRC-32 of
//! everything before it. A file is served only if every field matches what
//! was asked for and the checksum holds.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::games::pig::solve::{PigTable, SOLVE_TOLERANCE};
use crate::games::pig::{PigRules, Variant};

const MAGIC: &[u8; 8] = b"KIBITZPG";
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 + 1 + 4 + 4 + 8 + 8;
const CHECKSUM_LEN: usize = 4;

#[derive(Debug, Error)]
pub enum TableFileError {
    #[error("cannot read or write the table file: {0}")]
    Io(#[from] io::Error),
    #[error("not a kibitz Pig table (bad magic)")]
    BadMagic,
    #[error("table format version {0} is not {FORMAT_VERSION}")]
    Version(u32),
    #[error("table is for {found}, expected {expected}")]
    Mismatch { found: String, expected: String },
    #[error("table file has the wrong size (expected {expected} bytes; found {got})")]
    Length { got: usize, expected: usize },
    #[error("checksum mismatch: the file is corrupt")]
    Checksum,
}

/// The conventional file name for a table in a data directory.
pub fn file_name(rules: &PigRules) -> String {
    format!(
        "pig-{}-goal{}-d{}.kpig",
        rules.variant(),
        rules.goal(),
        rules.die_sides()
    )
}

pub fn path_in(dir: &Path, rules: &PigRules) -> PathBuf {
    dir.join(file_name(rules))
}

fn describe(variant: u8, goal: u32, sides: u32) -> String {
    format!("variant #{variant}, goal {goal}, {sides} sides")
}

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Standard => 0,
        Variant::Progressive => 1,
    }
}

pub fn encode(table: &PigTable) -> Vec<u8> {
    let rules = table.rules();
    let values = table.values();
    let mut bytes = Vec::with_capacity(HEADER_LEN + values.len() * 8 + CHECKSUM_LEN);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.push(variant_code(rules.variant()));
    bytes.extend_from_slice(&rules.goal().to_le_bytes());
    bytes.extend_from_slice(&rules.die_sides().to_le_bytes());
    bytes.extend_from_slice(&SOLVE_TOLERANCE.to_le_bytes());
    bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let checksum = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Checks a header against what was asked for.
fn check_header(header: &[u8], rules: &PigRules) -> Result<(), TableFileError> {
    if header.len() < HEADER_LEN || &header[..8] != MAGIC {
        return Err(TableFileError::BadMagic);
    }
    let version = read_u32(header, 8);
    if version != FORMAT_VERSION {
        return Err(TableFileError::Version(version));
    }
    let (variant, goal, sides) = (header[12], read_u32(header, 13), read_u32(header, 17));
    let wanted = (variant_code(rules.variant()), rules.goal(), rules.die_sides());
    if (variant, goal, sides) != wanted {
        return Err(TableFileError::Mismatch {
            found: describe(variant, goal, sides),
            expected: describe(wanted.0, wanted.1, wanted.2),
        });
    }
    let count = u64::from_le_bytes(header[HEADER_LEN - 8..HEADER_LEN].try_into().unwrap_or([0; 8]));
    let expected = PigTable::state_count(rules) as u64;
    if count != expected {
        return Err(TableFileError::Length {
            got: count as usize,
            expected: expected as usize,
        });
    }
    Ok(())
}

/// Decodes a table held in memory, refusing anything that is not exactly
/// `rules`' table.
pub fn decode(bytes: &[u8], rules: &PigRules) -> Result<PigTable, TableFileError> {
    load_from(&mut io::Cursor::new(bytes), rules)
}

/// Reads a table: the body goes straight into the table's own storage (one
/// copy, no decoding pass), checksummed on the way.
fn load_from(reader: &mut impl Read, rules: &PigRules) -> Result<PigTable, TableFileError> {
    let count = PigTable::state_count(rules);
    let expected_len = HEADER_LEN + count * 8 + CHECKSUM_LEN;
    let mut header = [0u8; HEADER_LEN];
    read_or_short(reader, &mut header, expected_len)?;
    check_header(&header, rules)?;
    let mut values = vec![0.0f64; count];
    read_or_short(reader, bytemuck::cast_slice_mut(&mut values), expected_len)?;
    let mut stored = [0u8; CHECKSUM_LEN];
    read_or_short(reader, &mut stored, expected_len)?;
    if reader.read(&mut [0u8; 1])? != 0 {
        return Err(TableFileError::Length {
            got: expected_len + 1,
            expected: expected_len,
        });
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header);
    crc.update(bytemuck::cast_slice(&values));
    if crc.finalize() != u32::from_le_bytes(stored) {
        return Err(TableFileError::Checksum);
    }
    if cfg!(target_endian = "big") {
        for v in &mut values {
            *v = f64::from_bits(u64::from_le(v.to_bits()));
        }
    }
    PigTable::from_values(*rules, values).map_err(|e| TableFileError::Length {
        got: e.got,
        expected: e.expected,
    })
}

fn read_or_short(reader: &mut impl Read, buf: &mut [u8], expected_len: usize) -> Result<(), TableFileError> {
    reader.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => TableFileError::Length {
            got: 0,
            expected: expected_len,
        },
        _ => TableFileError::Io(e),
    })
}

pub fn load(path: &Path, rules: &PigRules) -> Result<PigTable, TableFileError> {
    load_from(&mut fs::File::open(path)?, rules)
}

/// Writes via a temporary file and a rename, so a crash mid-write never
/// leaves a half-written table under the real name.
pub fn save(path: &Path, table: &PigTable) -> Result<(), TableFileError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    // A name of its own per writer: two processes sharing a data directory
    // may write the same table at once.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("kpig.{}-{n}.tmp", std::process::id()));
    {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(&encode(table))?;
        file.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pig::solve::solve;

    fn rules(goal: i64, variant: Variant) -> PigRules {
        PigRules::new(goal, 6, variant, 200).unwrap()
    }

    #[test]
    fn a_table_survives_a_round_trip_bit_for_bit() {
        let table = solve(&rules(20, Variant::Standard));
        let back = decode(&encode(&table), table.rules()).unwrap();
        assert_eq!(back.values(), table.values());
    }

    #[test]
    fn any_flipped_byte_is_refused() {
        let table = solve(&rules(8, Variant::Progressive));
        let bytes = encode(&table);
        for at in (0..bytes.len()).step_by(7) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x20;
            assert!(decode(&bad, table.rules()).is_err(), "flip at {at} accepted");
        }
        assert!(decode(&bytes[..bytes.len() - 1], table.rules()).is_err());
    }

    #[test]
    fn a_table_for_other_rules_is_refused() {
        let table = solve(&rules(8, Variant::Progressive));
        let err = decode(&encode(&table), &rules(8, Variant::Standard)).unwrap_err();
        assert!(matches!(err, TableFileError::Mismatch { .. }), "{err}");
    }
}
