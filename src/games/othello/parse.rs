//! Loose input (row strings and a player) into a position that can be
//! searched, or an error naming what is wrong.

use super::geometry::Size;
use super::rules::{OthelloState, BLACK, WHITE};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OthelloParseError {
    #[error("size = {0}; expected 4, 6 or 8")]
    Size(i64),
    #[error("board has {0} rows; expected 4, 6 or 8 row strings")]
    RowCount(usize),
    #[error("board has {rows} rows but size is {size}")]
    SizeMismatch { size: u32, rows: usize },
    #[error("board[{row}] has {found} squares; expected {expected}")]
    RowLength { row: usize, found: usize, expected: u32 },
    #[error("board[{row}] has {found:?} at column {col}; only 'X', 'O' and '.' are allowed")]
    BadCharacter { row: usize, col: usize, found: char },
    #[error("the board has {0} discs; a game always has at least the four of the start")]
    TooFewDiscs(u32),
    #[error("player is missing; expected \"X\" or \"O\", the side to move")]
    MissingPlayer,
    #[error("player is {0:?}; expected \"X\" or \"O\"")]
    BadPlayer(String),
    #[error("neither side can move: the game is already over")]
    GameOver,
}

/// Reads `board` (row strings, top row first) with `player` to move. The
/// size, when given, must match the rows. The position may require the
/// mover to pass; it may not be finished.
pub fn parse_position<S: AsRef<str>>(
    size: Option<i64>,
    board: &[S],
    player: Option<&str>,
) -> Result<OthelloState, OthelloParseError> {
    let size = match size {
        Some(side) => Some(
            u32::try_from(side)
                .ok()
                .and_then(Size::from_side)
                .ok_or(OthelloParseError::Size(side))?,
        ),
        None => None,
    };
    let from_rows = u32::try_from(board.len()).ok().and_then(Size::from_side);
    let size = match (size, from_rows) {
        (Some(size), _) if size.side() as usize != board.len() => {
            return Err(OthelloParseError::SizeMismatch {
                size: size.side(),
                rows: board.len(),
            })
        }
        (_, Some(size)) => size,
        (_, None) => return Err(OthelloParseError::RowCount(board.len())),
    };
    let side = size.side();
    let mut discs = [0u64; 2];
    for (row, text) in board.iter().enumerate() {
        let text = text.as_ref();
        let found = text.chars().count();
        if found != side as usize {
            return Err(OthelloParseError::RowLength {
                row,
                found,
                expected: side,
            });
        }
        for (col, c) in text.chars().enumerate() {
            let b = 1u64 << (row * 8 + col);
            match c {
                'X' => discs[BLACK] |= b,
                'O' => discs[WHITE] |= b,
                '.' => {}
                found => return Err(OthelloParseError::BadCharacter { row, col, found }),
            }
        }
    }
    let count = (discs[0] | discs[1]).count_ones();
    if count < 4 {
        return Err(OthelloParseError::TooFewDiscs(count));
    }
    let to_move = match player {
        None => return Err(OthelloParseError::MissingPlayer),
        Some("X") => BLACK,
        Some("O") => WHITE,
        Some(other) => return Err(OthelloParseError::BadPlayer(other.to_string())),
    };
    // The rows were checked square by square: the discs lie on the board
    // and never on both colours.
    let game =
        OthelloState::from_discs(size, discs[BLACK], discs[WHITE], to_move).ok_or(OthelloParseError::GameOver)?;
    if game.is_over() {
        return Err(OthelloParseError::GameOver);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_6: [&str; 6] = ["......", "......", "..OX..", "..XO..", "......", "......"];

    #[test]
    fn the_start_reads_back_as_the_start() {
        let game = parse_position(Some(6), &START_6, Some("X"));
        assert_eq!(game, Ok(OthelloState::new(Size::Six)));
        assert_eq!(
            parse_position(None, &OthelloState::new(Size::Eight).rows(), Some("X")),
            Ok(OthelloState::new(Size::Eight))
        );
    }

    #[test]
    fn each_problem_is_named() {
        use OthelloParseError::*;
        assert_eq!(parse_position(Some(5), &START_6, Some("X")), Err(Size(5)));
        assert_eq!(
            parse_position(Some(8), &START_6, Some("X")),
            Err(SizeMismatch { size: 8, rows: 6 })
        );
        assert_eq!(parse_position(None, &START_6[..5], Some("X")), Err(RowCount(5)));
        let mut rows = START_6.map(String::from);
        rows[1] = ".....".into();
        assert_eq!(
            parse_position(None, &rows, Some("X")),
            Err(RowLength {
                row: 1,
                found: 5,
                expected: 6
            })
        );
        rows[1] = "..x...".into();
        assert_eq!(
            parse_position(None, &rows, Some("X")),
            Err(BadCharacter {
                row: 1,
                col: 2,
                found: 'x'
            })
        );
        rows[1] = "......".into();
        rows[2] = "..O...".into();
        assert_eq!(parse_position(None, &rows, Some("X")), Err(TooFewDiscs(3)));
        assert_eq!(parse_position(None, &START_6, None), Err(MissingPlayer));
        assert_eq!(parse_position(None, &START_6, Some("B")), Err(BadPlayer("B".into())));
        let finished = ["XXXX", "XXXX", "XXXX", "XXX."];
        assert_eq!(parse_position(None, &finished, Some("O")), Err(GameOver));
        let messages = [Size(5).to_string(), GameOver.to_string(), MissingPlayer.to_string()];
        assert!(messages[0].contains("size") && messages[1].contains("over") && messages[2].contains("player"));
    }

    #[test]
    fn a_side_that_must_pass_is_accepted() {
        // O has no move, X has.
        let rows = ["XXXX", "XXXX", "XXXO", "XO.."];
        let game = parse_position(None, &rows, Some("O")).unwrap();
        assert!(game.must_pass());
    }
}
