//! What the arena needs of a game beyond its match adapter: a run's node
//! cap, the names its players answer to, and the players that are the
//! game's own (the seed papers' AIs, Pig's policies). The match AI
//! (`best`, `level:N`) and `random` are the same for every game and are
//! built by the runner.

use rand::RngCore;

use crate::core::game::Game;
use crate::games::pig::{PigGame, PigMove, PigRules};
use crate::matches::players::{PigMatch, TurnGame};
use crate::matches::AiContext;

use super::players::Chooser;
use super::strategy::{number, Strategy};
use super::ArenaError;
use crate::games::pig::arena::PigPolicy;

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
