//! The World Xiangqi Federation's notation, the readable form players
//! write (`C2.5`, `H8+7`): the piece's letter, its file counted 1-9 from
//! the mover's right, `+` forward, `-` backward or `.` along the rank, then
//! for a piece moving straight along its file the ranks it goes and
//! otherwise the file it lands on. Two or more pieces of one kind on a
//! file are told apart by place: `+` the front one, `-` the rear one (and
//! with soldiers on several files, the file number before the place).

use super::board::{Kind, Position, Side, Square};
use super::notation::Move;

fn letter(kind: Kind) -> char {
    match kind {
        Kind::General => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Chariot => 'R',
        Kind::Cannon => 'C',
        Kind::Soldier => 'P',
    }
}

/// A file as the mover counts it: 1 on their right.
fn file_number(side: Side, square: Square) -> i8 {
    match side {
        Side::Red => 9 - square.file(),
        Side::Black => square.file() + 1,
    }
}

/// How far up the board a square is, from the mover's side.
fn ahead(side: Side, square: Square) -> i8 {
    match side {
        Side::Red => square.rank(),
        Side::Black => 9 - square.rank(),
    }
}

/// `mv` in WXF notation, in `position` (before the move). None when no
/// piece of the side to move stands on its origin.
pub fn wxf(position: &Position, mv: Move) -> Option<String> {
    let side = position.side_to_move();
    let piece = position.piece_at(mv.from).filter(|p| p.side == side)?;
    let kind = piece.kind;
    let same_on_file = |file: i8| -> Vec<Square> {
        let mut squares: Vec<Square> = (0..10)
            .filter_map(|rank| Square::new(file, rank))
            .filter(|&s| position.piece_at(s) == Some(piece))
            .collect();
        squares.sort_by_key(|&s| -ahead(side, s));
        squares
    };
    let tandem = same_on_file(mv.from.file());
    let count = tandem.len();
    let index = tandem.iter().position(|&s| s == mv.from)?;
    let place = if index == 0 {
        Some('+')
    } else if index + 1 == count {
        Some('-')
    } else {
        None
    };
    let file = file_number(side, mv.from);
    let crowded_files = (0..9).filter(|&f| same_on_file(f).len() >= 2).count();
    let head = match (count, place) {
        (1, _) => format!("{}{file}", letter(kind)),
        // Soldiers in tandem on several files: the file, then the place.
        (_, Some(p)) if kind == Kind::Soldier && crowded_files >= 2 => format!("{file}{p}"),
        (_, None) if kind == Kind::Soldier && crowded_files >= 2 => format!("{file}{file}"),
        // Four or five on a file: the ends doubled, the next ones by letter.
        (4.., Some(p)) => format!("{p}{p}"),
        (4.., None) if index == 1 => format!("{}+", letter(kind)),
        (4.., None) if index + 2 == count => format!("{}-", letter(kind)),
        (_, Some(p)) => format!("{}{p}", letter(kind)),
        (_, None) => format!("{}{file}", letter(kind)),
    };
    let rise = ahead(side, mv.to) - ahead(side, mv.from);
    let direction = match rise.signum() {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    let straight =
        matches!(kind, Kind::General | Kind::Chariot | Kind::Cannon | Kind::Soldier) && mv.from.file() == mv.to.file();
    let amount = if straight { rise.abs() } else { file_number(side, mv.to) };
    Some(format!("{head}{direction}{amount}"))
}

/// A line of moves (the game's coordinate notation, legal in turn from
/// `position`) in WXF; it stops at the first move it cannot read.
pub fn wxf_line(position: &Position, moves: &[String]) -> Vec<String> {
    let mut position = position.clone();
    let mut line = Vec::with_capacity(moves.len());
    for text in moves {
        let Ok(mv) = position.parse_move(text) else { break };
        let Some(readable) = wxf(&position, mv) else { break };
        line.push(readable);
        position = position.after(mv);
    }
    line
}
