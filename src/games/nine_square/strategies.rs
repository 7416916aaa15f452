//! The seed paper's Nine Square player, greedy by line (the arena plays it
//! as `greedy`: `crate::games::nine_square::Greedy`).
//!
//! `greedy` is the seed paper's "greedy by line" (Agastyra, 2011): every mark
//! goes on the empty cell with the highest value, where a cell is worth 1 for
//! each line through it (its box's row, column and diagonals, and the grid's
//! row, column and diagonals of nine) that holds none of the opponent's
//! marks, plus 5 when the mark completes a line. Ties go to the first cell in
//! row-major order (the paper scans its candidate list in order and keeps a
//! strictly greater value). It looks at one placement at a time and ignores
//! the die, as the paper says.

use super::{line_len, lines_through, Board, Coord, Player, Position, CELLS};

/// The paper's bonus for a mark that completes a line.
const GREEDY_LINE_BONUS: u32 = 5;

/// The seed's greedy by line: one placement at a time, each on the cell of
/// highest value for the board as it is after the previous ones.
pub fn greedy_placements(position: &Position) -> Vec<Coord> {
    let mut board = *position.board();
    let player = position.player();
    let mut placements = Vec::with_capacity(position.placements_due());
    for _ in 0..position.placements_due() {
        let Some(cell) = greedy_cell(&board, player) else {
            break;
        };
        board.place_index(cell, player);
        placements.push(Coord::from_index(cell));
    }
    placements
}

/// The paper's `Optimasi` for one empty cell.
pub fn greedy_value(board: &Board, at: Coord, player: Player) -> u32 {
    let cell = at.index();
    let p = player.seat();
    let q = 1 - p;
    let mut value = 0;
    let mut completes = false;
    for &line in lines_through(cell) {
        let line = usize::from(line);
        if board.count(q, line) == 0 {
            value += 1;
            completes |= board.count(p, line) + 1 == line_len(line);
        }
    }
    if completes {
        value += GREEDY_LINE_BONUS;
    }
    value
}

/// The first empty cell of highest greedy value, row-major.
fn greedy_cell(board: &Board, player: Player) -> Option<usize> {
    let mut best: Option<(u32, usize)> = None;
    for cell in (0..CELLS).filter(|&c| board.mark_at(c) == 0) {
        let value = greedy_value(board, Coord::from_index(cell), player);
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, cell));
        }
    }
    best.map(|(_, cell)| cell)
}
