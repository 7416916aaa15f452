//! The seed paper's AI (`lookahead2`), a random player, and a game loop for
//! pitting any two move choosers against each other.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use thiserror::Error;

use crate::games::number_square::{Board, BoardError, GameEnd, MoveError, Tile};

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

/// A uniformly random legal tile; `None` once the game is over.
pub fn random<R: Rng + ?Sized>(board: &Board, rng: &mut R) -> Option<Tile> {
    board.legal_moves().choose(rng).copied()
}

/// A whole game, as played by [`play_game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The tiles taken, in order; the first player took the even-numbered
    /// ones (0, 2, ...).
    pub moves: Vec<Tile>,
    pub first_score: i64,
    pub second_score: i64,
    pub end: GameEnd,
    pub final_board: Board,
}

impl GameRecord {
    /// The first player's score minus the second's.
    pub fn margin(&self) -> i64 {
        self.first_score - self.second_score
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("the board given is already finished")]
    AlreadyOver,
    #[error("the player to move at ply {ply} chose no move")]
    NoMoveChosen { ply: usize },
    #[error("the player to move at ply {ply} chose an illegal move: {source}")]
    IllegalMove { ply: usize, source: MoveError },
}

/// Plays `start` to the end, `first` moving first. Each chooser gets the
/// board it is to move on. Every game ends within size^2 moves.
pub fn play_game<F, S>(start: &Board, mut first: F, mut second: S) -> Result<GameRecord, PlayError>
where
    F: FnMut(&Board) -> Option<Tile>,
    S: FnMut(&Board) -> Option<Tile>,
{
    if start.is_over() {
        return Err(PlayError::AlreadyOver);
    }
    let mut board = start.clone();
    let mut moves = Vec::new();
    let mut scores = [0i64; 2];
    loop {
        if let Some(end) = board.end() {
            return Ok(GameRecord {
                moves,
                first_score: scores[0],
                second_score: scores[1],
                end,
                final_board: board,
            });
        }
        let ply = moves.len();
        let choice = if ply % 2 == 0 { first(&board) } else { second(&board) };
        let tile = choice.ok_or(PlayError::NoMoveChosen { ply })?;
        let played = board
            .play(tile)
            .map_err(|source| PlayError::IllegalMove { ply, source })?;
        scores[ply % 2] += played.points;
        moves.push(tile);
        board = played.board;
    }
}
