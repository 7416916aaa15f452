//! What the arena needs of a game beyond its match adapter: a run's node
//! cap, the names its players answer to, and the players that are the
//! game's own (the seed papers' AIs, Pig's policies). The match AI
//! (`best`, `level:N`) and `random` are the same for every game and are
//! built by the runner.

use crate::matches::players::TurnGame;
use crate::matches::AiContext;

use super::players::Chooser;
use super::strategy::Strategy;
use super::summary::ExactChances;
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
    /// Whether [`ArenaGame::exact`] evaluates this game's players.
    const EXACT: bool = false;

    /// The game's own player called `name`; None when it has none by that
    /// name (`best`, `level:N` and `random` are every game's).
    fn own_strategy(_name: &str) -> Option<Strategy> {
        None
    }

    /// The player `strategy` names when it is one of this game's own, for
    /// a run under `options`; None for the match AI and `random`.
    fn own_player(
        _strategy: Strategy,
        _options: &Self::Rules,
        _ctx: &AiContext,
    ) -> Result<Option<Player<Self>>, ArenaError> {
        Ok(None)
    }

    /// A's chances against B computed exactly, for a game whose players
    /// can be evaluated without sampling; None for the others.
    fn exact(
        _a: Strategy,
        _b: Strategy,
        _options: &Self::Rules,
        _ctx: &AiContext,
    ) -> Option<Result<ExactChances, ArenaError>> {
        None
    }
}
