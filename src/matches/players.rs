//! The match AI one turn at a time, and a game's options read as
//! `POST /matches` reads them, for code that plays whole games itself (the
//! arena). Going through here keeps the arena's `level:N` the very player a
//! match's AI is at level N (Pig's arena players are policies over its exact
//! table instead), and its options the options a match accepts.

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;

use crate::games::pig::PigRules;
use crate::solve::pig::PigTable;

use super::engine::{AiContext, GameKind, MatchError};
use super::pig;

pub(crate) use super::connect_four::ConnectFourMatch;
pub(crate) use super::ishitori::IshitoriMatch;
pub(crate) use super::nine_square::{position_of as nine_square_position, NineSquareMatch};
pub(crate) use super::number_square::NumberSquareMatch;
pub(crate) use super::pig::PigMatch;
pub(crate) use super::tictactoe::TicTacToeMatch;
pub(crate) use super::turns::{ai_moves, check_in_a_row, TurnGame};

/// A game's options as a match reads them: where every game of a series
/// starts (what they leave to chance is settled per game).
#[derive(Clone, Debug)]
pub(crate) enum Opening {
    Pig(<PigMatch as TurnGame>::Options),
    TicTacToe(<TicTacToeMatch as TurnGame>::Options),
    Ishitori(<IshitoriMatch as TurnGame>::Options),
    NumberSquare(<NumberSquareMatch as TurnGame>::Options),
    NineSquare(<NineSquareMatch as TurnGame>::Options),
    ConnectFour(<ConnectFourMatch as TurnGame>::Options),
}

/// Reads `options` as `POST /matches` does for `game`, and checks that a
/// game can start from them.
pub(crate) fn opening(game: GameKind, options: Option<&Value>, ctx: &AiContext) -> Result<Opening, MatchError> {
    fn read<T: TurnGame>(options: Option<&Value>, ctx: &AiContext) -> Result<T::Options, MatchError>
    where
        T::Options: Clone,
    {
        let parsed = T::parse_options(options, ctx)?;
        // Options whose opening is settled by chance are checked per game.
        let mut any_deal = StdRng::seed_from_u64(0);
        T::new_game(&T::settle(parsed.clone(), &mut any_deal)?, ctx)?;
        Ok(parsed)
    }
    Ok(match game {
        GameKind::Pig => Opening::Pig(read::<PigMatch>(options, ctx)?),
        GameKind::Tictactoe => Opening::TicTacToe(read::<TicTacToeMatch>(options, ctx)?),
        GameKind::Ishitori => Opening::Ishitori(read::<IshitoriMatch>(options, ctx)?),
        GameKind::NumberSquare => Opening::NumberSquare(read::<NumberSquareMatch>(options, ctx)?),
        GameKind::NineSquare => Opening::NineSquare(read::<NineSquareMatch>(options, ctx)?),
        GameKind::ConnectFour => Opening::ConnectFour(read::<ConnectFourMatch>(options, ctx)?),
    })
}

/// Pig: the rules the options name.
pub(crate) fn pig_rules(opening: &Opening) -> Option<PigRules> {
    match opening {
        Opening::Pig(rules) => Some(*rules),
        _ => None,
    }
}

/// Pig: rolling and holding on the levels' scale, in that order.
pub fn pig_level_values(table: &PigTable, i: u32, j: u32, k: u32) -> [f64; 2] {
    pig::level_values(table, i, j, k)
}
