//! GNU Backgammon's Position ID: the position as an 80-bit key written in
//! 14 base64 characters (the start is `4HPwATDgc/ABMA`).
//!
//! The key lists the side not on roll first, then the side on roll, each
//! from its own side: its points 1..=24 and then its bar, each as that
//! many 1 bits followed by a 0 bit. Bit `i` of the key is bit `i % 8` of
//! byte `i / 8`; the 10 bytes are then written in base64, most
//! significant bit first, the last character holding 2 bits (gnubg's
//! `positionid.c`, `PositionKey` and `PositionIDFromKey`). Checkers not
//! listed are borne off.

use super::board::{Board, RulesError, Side, CHECKERS};

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Length of a Position ID.
pub const POSITION_ID_LEN: usize = 14;

/// The 25 counts of `side`, from its own side: its points 1..=24, then
/// its bar.
fn slots(board: &Board, side: Side) -> [u8; 25] {
    let mut slots = [0u8; 25];
    for (i, slot) in slots.iter_mut().take(24).enumerate() {
        let own_point = i + 1;
        let my_point = match side {
            Side::Me => own_point,
            Side::Opponent => 25 - own_point,
        };
        *slot = board.count(side, my_point);
    }
    slots[24] = board.bar(side);
    slots
}

impl Board {
    /// The 10-byte key (gnubg's `PositionKey`).
    pub fn position_key(&self) -> [u8; 10] {
        let mut key = [0u8; 10];
        let mut bit = 0usize;
        for side in [Side::Opponent, Side::Me] {
            for count in slots(self, side) {
                for _ in 0..count {
                    key[bit / 8] |= 1 << (bit % 8);
                    bit += 1;
                }
                bit += 1;
            }
        }
        key
    }

    /// The Position ID, 14 characters.
    pub fn position_id(&self) -> String {
        let key = self.position_key();
        // 80 bits, most significant first, padded with 4 zero bits to 84
        // = 14 characters of 6 bits.
        let bits = key.iter().fold(0u128, |acc, &byte| acc << 8 | u128::from(byte)) << 4;
        (0..POSITION_ID_LEN)
            .map(|i| char::from(BASE64[(bits >> (6 * (POSITION_ID_LEN - 1 - i))) as usize & 63]))
            .collect()
    }

    /// The board a Position ID describes, the side on roll being the
    /// mover. Errors name the `position` field: a wrong length or
    /// character, more than 15 checkers a side, both sides on one point.
    pub fn from_position_id(id: &str) -> Result<Board, RulesError> {
        let field = "position";
        let id = id.trim();
        if id.len() != POSITION_ID_LEN {
            return Err(RulesError::new(
                field,
                format!("a Position ID has 14 characters, not {}", id.len()),
            ));
        }
        let mut bits = 0u128;
        for c in id.bytes() {
            let Some(value) = BASE64.iter().position(|&b| b == c) else {
                return Err(RulesError::new(
                    field,
                    format!("{:?} is not a base64 character", char::from(c)),
                ));
            };
            bits = bits << 6 | value as u128;
        }
        let bits = bits >> 4;
        let mut key = [0u8; 10];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = (bits >> (8 * (9 - i))) as u8;
        }

        // Walk the key: a 1 adds a checker to the current slot, a 0 moves
        // to the next slot; 25 slots for each side.
        let mut counts = [[0u8; 25]; 2];
        let (mut side, mut slot) = (0usize, 0usize);
        for i in 0..80 {
            if key[i / 8] >> (i % 8) & 1 == 1 {
                if side >= 2 {
                    return Err(RulesError::new(field, "more checkers than the key has places for"));
                }
                counts[side][slot] += 1;
                if counts[side][slot] > CHECKERS {
                    return Err(RulesError::new(field, "more than 15 checkers on one point"));
                }
            } else if side < 2 {
                slot += 1;
                if slot == 25 {
                    side += 1;
                    slot = 0;
                }
            }
        }
        let [theirs, mine] = counts;
        let mut points = [0i8; 24];
        for (i, point) in points.iter_mut().enumerate() {
            let my_point = i + 1;
            let (m, t) = (mine[i], theirs[24 - my_point]);
            if m > 0 && t > 0 {
                return Err(RulesError::new(
                    field,
                    format!("both sides have checkers on point {my_point}"),
                ));
            }
            *point = m as i8 - t as i8;
        }
        let mut off = [0u8; 2];
        for (i, side_counts) in [mine, theirs].iter().enumerate() {
            let total: u32 = side_counts.iter().map(|&c| u32::from(c)).sum();
            if total > u32::from(CHECKERS) {
                return Err(RulesError::new(
                    field,
                    format!(
                        "{} has {total} checkers, more than 15",
                        ["the side on roll", "the other side"][i]
                    ),
                ));
            }
            off[i] = CHECKERS - total as u8;
        }
        Ok(Board::from_raw(points, [mine[24], theirs[24]], off))
    }
}
