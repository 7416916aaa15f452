//! Simple Nine Square players and a whole-game runner for the arena.
//!
//! `greedy` is the seed paper's "greedy by line" (Agastyra, 2011): every mark
//! goes on the empty cell with the highest value, where a cell is worth 1 for
//! each line through it (its box's row, column and diagonals, and the grid's
//! row, column and diagonals of nine) that holds none of the opponent's
//! marks, plus 5 when the mark completes a line. Ties go to the first cell in
//! row-major order (the paper scans its candidate list in order and keeps a
//! strictly greater value). It looks at one placement at a time and ignores
//! the die, as the paper says.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::games::nine_square::{
    line_len, lines_through, Board, Coord, Game, Player, Position, Score, Turn, CELLS, DIE_FACES,
};
use crate::solve::limits::SearchLimits;
use crate::solve::nine_square::best_placements;

/// The paper's bonus for a mark that completes a line.
const GREEDY_LINE_BONUS: u32 = 5;

/// A named way to choose a turn's placements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The dice-aware search, `per_move` of time a turn, optionally also
    /// capped in nodes (repeatable whatever the machine's speed).
    Best { per_move: Duration, max_nodes: Option<u64> },
    /// The seed paper's greedy by line.
    Greedy,
    /// Uniformly random empty cells.
    Random,
}

impl Strategy {
    /// The placements for `position`'s turn; `rng` supplies the randomness
    /// (the search's seed included).
    pub fn placements(&self, position: &Position, rng: &mut StdRng) -> Vec<Coord> {
        match self {
            Strategy::Best { per_move, max_nodes } => {
                let mut limits = SearchLimits::within(*per_move);
                if let Some(max_nodes) = max_nodes {
                    limits = limits.with_max_nodes(*max_nodes);
                }
                best_placements(position, &limits, rng.gen()).placements
            }
            Strategy::Greedy => greedy_placements(position),
            Strategy::Random => random_placements(position, rng),
        }
    }
}

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

/// Distinct empty cells chosen uniformly at random.
pub fn random_placements(position: &Position, rng: &mut impl Rng) -> Vec<Coord> {
    let empties: Vec<Coord> = position.board().empty_cells().collect();
    empties
        .choose_multiple(rng, position.placements_due())
        .copied()
        .collect()
}

/// A finished game between two strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub score: Score,
    /// Turns played (rolls).
    pub turns: u32,
}

impl PlayedGame {
    /// The winner, or None for a draw.
    pub fn winner(&self) -> Option<Player> {
        self.score.leader()
    }
}

/// Plays a whole game, `x` moving first. The dice come from their own
/// stream seeded by `seed`, so two games with the same seed see the same
/// sequence of rolls whatever the strategies do; the strategies' own
/// randomness comes from a second stream derived from the same seed.
pub fn play_game(x: &Strategy, o: &Strategy, seed: u64) -> PlayedGame {
    let mut dice = StdRng::seed_from_u64(seed);
    let mut choices = StdRng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut game = Game::new();
    let mut turns = 0;
    while let Turn::Roll(player) = game.turn() {
        let die = dice.gen_range(1..=DIE_FACES);
        turns += 1;
        if game.roll(die).is_err() {
            break;
        }
        let Some(position) = game.position(die) else {
            break;
        };
        let strategy = if player == Player::X { x } else { o };
        let placements = strategy.placements(&position, &mut choices);
        play_turn(&mut game, &placements);
    }
    PlayedGame {
        score: game.board().score(),
        turns,
    }
}

/// Applies a strategy's placements; should one be refused (a strategy bug),
/// the turn is finished on the first empty cells so the game still ends.
fn play_turn(game: &mut Game, placements: &[Coord]) {
    for &at in placements {
        if !matches!(game.turn(), Turn::Place { .. }) {
            return;
        }
        if game.place(at).is_err() {
            break;
        }
    }
    while matches!(game.turn(), Turn::Place { .. }) {
        let Some(at) = game.board().empty_cells().next() else {
            return;
        };
        if game.place(at).is_err() {
            return;
        }
    }
}
