//! The seed paper's Number Square AI, `lookahead2` (the arena plays it as
//! `crate::arena::games::Lookahead2`), and the boards a seed deals.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{Board, BoardError, Tile};

/// The board a seed deals: `size` x `size` holding 1..=size^2 shuffled by
/// `StdRng::seed_from_u64(seed)` (the same seed always deals the same board,
/// so both seats of a pair can play it).
pub fn deal(size: usize, seed: u64) -> Result<Board, BoardError> {
    Board::shuffled(size, &mut StdRng::seed_from_u64(seed))
}

/// The seed paper's two-ply greedy AI: the tile whose value minus the
/// opponent's best greedy reply is largest (ties: the first in row-major
/// order). `None` once the game is over.
pub fn lookahead2(board: &Board) -> Option<Tile> {
    let mut best: Option<(Tile, i64)> = None;
    for (tile, score) in lookahead2_scores(board) {
        if best.is_none_or(|(_, best_score)| score > best_score) {
            best = Some((tile, score));
        }
    }
    best.map(|(tile, _)| tile)
}

/// Every legal tile (row-major) with its `lookahead2` score: its value minus
/// the opponent's best reply, where a reply is worth its value minus the
/// best tile left for us after it. A move that ends the game is worth its
/// real margin from here on: its value, as nothing follows (the scores so far
/// would add the same constant to every move, so they are left out).
pub fn lookahead2_scores(board: &Board) -> Vec<(Tile, i64)> {
    board
        .legal_moves()
        .into_iter()
        .filter_map(|tile| {
            let played = board.play(tile).ok()?;
            let score = played.points - best_greedy_reply(&played.board);
            Some((tile, score))
        })
        .collect()
}

/// The opponent's best reply as the paper scores it (0 if the game is over).
fn best_greedy_reply(board: &Board) -> i64 {
    board
        .legal_moves()
        .into_iter()
        .filter_map(|reply| board.play(reply).ok())
        .map(|played| played.points - best_tile(&played.board))
        .max()
        .unwrap_or(0)
}

/// The most valuable tile the mover can take now (0 if the game is over).
fn best_tile(board: &Board) -> i64 {
    board
        .legal_moves()
        .into_iter()
        .filter_map(|tile| board.value_at(tile))
        .max()
        .unwrap_or(0)
}
