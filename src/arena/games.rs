//! What the arena needs of a game beyond its match adapter: a run's node
//! cap, the names its players answer to, and the players that are the
//! game's own (the seed papers' AIs, Pig's policies). The match AI
//! (`best`, `level:N`) and `random` are the same for every game and are
//! built by the runner.

use rand::RngCore;

use crate::games::game::Game;
use crate::games::nine_square::{Game as NineSquareGame, NineSquareMove};
use crate::games::number_square::NumberSquare;
use crate::games::pig::{PigGame, PigMove, PigRules};
use crate::matches::players::{
    nine_square_position, ConnectFourMatch, IshitoriMatch, NineSquareMatch, NumberSquareMatch, PigMatch,
    TicTacToeMatch, TurnGame,
};
use crate::matches::AiContext;
use crate::strategies::nine_square::greedy_placements;
use crate::strategies::number_square::lookahead2;

use super::pig::PigPolicy;
use super::players::Chooser;
use super::strategy::{number, Strategy};
use super::ArenaError;

/// A player of the game `T` plays.
pub(crate) type Player<T> = Box<dyn Chooser<<T as TurnGame>::Game>>;

pub(crate) trait ArenaGame: TurnGame {
    /// The node cap of a searched move in a run, when it differs from the
    /// match's (runs play many games).
    const ARENA_NODES: Option<u64> = None;
    /// What `best` is also called in this game (reports use this name).
    const BEST_NAME: &'static str = "best";
    /// The names of the game's own players, as error messages show them
    /// (a number's range in parentheses); every game also has `best` (as
    /// [`ArenaGame::BEST_NAME`]), `random` and `level:N`.
    const OWN_NAMES: &'static [&'static str] = &[];

    /// The game's own player called `name`; None when it has none by that
    /// name (`best`, `level:N` and `random` are every game's).
    fn own_strategy(_name: &str) -> Option<Strategy> {
        None
    }

    /// The player `strategy` names when it is one of this game's own, for
    /// a run under `options`; None for the match AI and `random`.
    fn own_player(
        _strategy: Strategy,
        _options: &Self::Options,
        _ctx: &AiContext,
    ) -> Result<Option<Player<Self>>, ArenaError> {
        Ok(None)
    }
}

impl ArenaGame for TicTacToeMatch {
    const BEST_NAME: &'static str = "perfect";
}

impl ArenaGame for IshitoriMatch {
    const BEST_NAME: &'static str = "optimal";
}

impl ArenaGame for ConnectFourMatch {
    /// Tens of milliseconds a move; exact from the middle game on.
    const ARENA_NODES: Option<u64> = Some(300_000);
}

impl ArenaGame for NumberSquareMatch {
    const OWN_NAMES: &'static [&'static str] = &["lookahead2"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "lookahead2").then_some(Strategy::Lookahead2)
    }

    fn own_player(strategy: Strategy, _: &Self::Options, _: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        Ok((strategy == Strategy::Lookahead2).then(|| Box::new(Lookahead2) as Player<Self>))
    }
}

impl ArenaGame for NineSquareMatch {
    const OWN_NAMES: &'static [&'static str] = &["greedy"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "greedy").then_some(Strategy::Greedy)
    }

    fn own_player(strategy: Strategy, _: &Self::Options, _: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        Ok((strategy == Strategy::Greedy).then(|| Box::new(Greedy) as Player<Self>))
    }
}

/// Every Pig player, `level:N` and `random` included, is a policy over the
/// exact table: the same policy the exact evaluation reads.
impl ArenaGame for PigMatch {
    const BEST_NAME: &'static str = "optimal";
    const OWN_NAMES: &'static [&'static str] = &["hold_at:N (N >= 1)", "kper"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        match name.split_once(':') {
            // hold_at:0 would pass every turn and never finish a game.
            Some(("hold_at", n)) => number(n).filter(|&n| n >= 1).map(Strategy::HoldAt),
            Some(_) => None,
            None => (name == "kper").then_some(Strategy::Kper),
        }
    }

    fn own_player(strategy: Strategy, rules: &PigRules, ctx: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        let table = ctx.solvers.pig_tables.get_blocking(*rules);
        Ok(Some(Box::new(PigPolicy::new(strategy, table)?)))
    }
}

/// Number Square: the seed paper's two-ply greedy AI.
pub struct Lookahead2;

impl Chooser<NumberSquare> for Lookahead2 {
    fn choose(
        &mut self,
        game: &NumberSquare,
        _: &mut dyn RngCore,
    ) -> Result<Vec<<NumberSquare as Game>::Move>, ArenaError> {
        let tile = lookahead2(game.board())
            .ok_or_else(|| ArenaError::Internal("lookahead2 found no tile in play".to_string()))?;
        Ok(vec![tile])
    }
}

/// Nine Square: the seed paper's greedy by line, all of a turn's marks.
pub struct Greedy;

impl Chooser<NineSquareGame> for Greedy {
    fn choose(&mut self, game: &NineSquareGame, _: &mut dyn RngCore) -> Result<Vec<NineSquareMove>, ArenaError> {
        let position = nine_square_position(game)
            .ok_or_else(|| ArenaError::Internal("greedy asked with no placement due".to_string()))?;
        Ok(greedy_placements(&position)
            .into_iter()
            .map(NineSquareMove::Place)
            .collect())
    }
}

/// A policy plays by its probability of rolling here.
impl Chooser<PigGame> for PigPolicy {
    fn choose(&mut self, game: &PigGame, rng: &mut dyn RngCore) -> Result<Vec<PigMove>, ArenaError> {
        let mover = game.to_move();
        let rolls = self.rolls(game.score(mover), game.score(1 - mover), game.turn_total(), rng);
        let mv = if rolls && game.legal_moves().contains(&PigMove::Roll) {
            PigMove::Roll
        } else {
            PigMove::Hold
        };
        Ok(vec![mv])
    }
}
