//! The searchers whose memory outlives one search, one per game that has
//! one: a server shares one set between all its requests, an arena run
//! keeps its own. A game with a solver of its own adds it here, and every
//! caller (the handlers, matches, the arena, reviews) reaches it the same
//! way.

use std::sync::Arc;

use crate::tables::cache::PigTables;

use super::connect_four::ConnectFourSolver;
use super::ishitori::{SolverConfig, SubtractionSolver};
use super::number_square::NumberSquareSolver;
use super::tictactoe::TicTacToeSolver;

/// How much each memo may hold.
#[derive(Clone, Copy, Debug)]
pub struct MemoSizes {
    /// Positions remembered by the tic-tac-toe and Number Square searches.
    pub positions: usize,
    /// Ishitori's cache of answers for short positions.
    pub ishitori_entries: usize,
    /// Connect Four's transposition table.
    pub connect_four_entries: usize,
}

/// Each solver behind an `Arc`, so that a search can take its own handle
/// onto a blocking thread.
#[derive(Clone)]
pub struct Solvers {
    pub pig_tables: Arc<PigTables>,
    pub tictactoe: Arc<TicTacToeSolver>,
    pub ishitori: Arc<SubtractionSolver>,
    pub number_square: Arc<NumberSquareSolver>,
    pub connect_four: Arc<ConnectFourSolver>,
}

impl Solvers {
    pub fn new(pig_tables: Arc<PigTables>, sizes: MemoSizes) -> Solvers {
        Solvers {
            pig_tables,
            tictactoe: Arc::new(TicTacToeSolver::new(sizes.positions)),
            ishitori: Arc::new(SubtractionSolver::new(SolverConfig {
                short_cache_capacity: sizes.ishitori_entries,
                ..SolverConfig::default()
            })),
            number_square: Arc::new(NumberSquareSolver::new(sizes.positions)),
            connect_four: Arc::new(ConnectFourSolver::new(sizes.connect_four_entries)),
        }
    }
}
