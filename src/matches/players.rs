//! The match AI one move at a time, and a game's opening from a match's
//! `options`, for code that plays whole games itself (the arena). Going
//! through here keeps the arena's `level:N` the very player a match's AI is
//! at level N, and its options the options a match accepts.

use rand::RngCore;
use serde_json::Value;

use crate::games::connect_four::ConnectFour;
use crate::games::game::Game;
use crate::games::ishitori::Ishitori;
use crate::games::nine_square::{Coord, Position as NineSquarePosition};
use crate::games::number_square::{Board as NumberSquareBoard, Tile};
use crate::games::pig::PigRules;
use crate::games::tictactoe::TicTacToe;
use crate::solve::pig::PigTable;

use super::engine::{AiContext, AiSpec, GameKind, MatchError, MatchGame};
use super::turns;

pub(crate) use super::turns::TurnGame;
use super::{nine_square, number_square, pig};

pub(crate) use super::connect_four::ConnectFourMatch;
pub(crate) use super::ishitori::IshitoriMatch;
pub(crate) use super::tictactoe::TicTacToeMatch;

/// Where every game of a series starts.
#[derive(Clone, Debug)]
pub enum Opening {
    Pig(PigRules),
    TicTacToe(TicTacToe),
    Ishitori(Ishitori),
    NumberSquare(NumberSquareOpening),
    NineSquare,
    ConnectFour(ConnectFour),
}

#[derive(Clone, Debug)]
pub enum NumberSquareOpening {
    /// A fresh board of this side for each game, 1..=size^2 shuffled.
    Dealt(usize),
    /// This board for every game.
    Board(NumberSquareBoard),
}

/// Reads `options` as `POST /matches` does for `game`.
pub fn opening(game: GameKind, options: Option<&Value>, ctx: &AiContext) -> Result<Opening, MatchError> {
    Ok(match game {
        GameKind::Pig => Opening::Pig(pig::PigMatch::parse_options(options, ctx)?),
        GameKind::Tictactoe => Opening::TicTacToe(TicTacToeMatch::new_game(
            &TicTacToeMatch::parse_options(options, ctx)?,
            ctx,
        )?),
        GameKind::Ishitori => Opening::Ishitori(IshitoriMatch::new_game(
            &IshitoriMatch::parse_options(options, ctx)?,
            ctx,
        )?),
        GameKind::NumberSquare => Opening::NumberSquare(number_square_opening(options, ctx)?),
        GameKind::NineSquare => {
            nine_square::NineSquareMatch::parse_options(options, ctx)?;
            Opening::NineSquare
        }
        GameKind::ConnectFour => Opening::ConnectFour(ConnectFourMatch::new_game(
            &ConnectFourMatch::parse_options(options, ctx)?,
            ctx,
        )?),
    })
}

/// `size` (default 8) or `board`, read by the match adapter.
fn number_square_opening(options: Option<&Value>, ctx: &AiContext) -> Result<NumberSquareOpening, MatchError> {
    Ok(match number_square::NumberSquareMatch::parse_options(options, ctx)? {
        number_square::Deal::Shuffled(size) => NumberSquareOpening::Dealt(size),
        number_square::Deal::Given(rows) => NumberSquareOpening::Board(
            NumberSquareBoard::from_rows(&rows).map_err(|e| MatchError::Options(e.to_string()))?,
        ),
    })
}

/// Pig: rolling and holding on the levels' scale, in that order.
pub fn pig_level_values(table: &PigTable, i: u32, j: u32, k: u32) -> [f64; 2] {
    pig::level_values(table, i, j, k)
}

/// Number Square: the tile the AI takes.
pub fn number_square_tile(
    board: &NumberSquareBoard,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
) -> Result<Tile, MatchError> {
    number_square::ai_move(board, ai, ctx, rng)
}

/// Nine Square: the turn's placements, in order.
pub fn nine_square_placements(
    position: &NineSquarePosition,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
) -> Vec<Coord> {
    nine_square::ai_placements(position, ai, ctx, rng)
}

/// A two-player game without dice: the move the match AI plays.
pub(crate) fn turn_move<T: TurnGame>(
    game: &T::Game,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
) -> Result<<T::Game as Game>::Move, MatchError> {
    turns::ai_move::<T>(game, ai, ctx, rng)
}
