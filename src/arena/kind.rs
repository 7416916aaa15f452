//! A game as the arena knows it without naming it: an [`ArenaKind`] is a
//! handle on a game's [`ArenaGame`], made by the match engine's
//! [`Adapter`], and [`ArenaGames`] is the list of them that the registry
//! hands down.

use std::fmt;

use crate::matches::{Adapter, GameKind, MatchError, MatchGames};

use super::games::ArenaGame;
use super::runner::Arena;
use super::strategy::Strategy;
use super::summary::{ExactChances, Tally};
use super::ArenaError;
use crate::matches::AiContext;
use crate::solve::limits::SearchLimits;

/// What a series asks of a game, without its types.
pub(crate) trait ArenaPlay: Send + Sync {
    fn kind(&self) -> GameKind;
    /// What `best` is also called in this game.
    fn best_name(&self) -> &'static str;
    /// The names of the game's own players, as error messages show them.
    fn own_names(&self) -> &'static [&'static str];
    fn own_strategy(&self, name: &str) -> Option<Strategy>;
    /// The node cap of a searched move in a run.
    fn arena_nodes(&self) -> u64;
    fn has_exact(&self) -> bool;
    fn keeps_score(&self) -> bool;
    fn check_options(&self, options: Option<&serde_json::Value>, ctx: &AiContext) -> Result<(), MatchError>;
    fn exact(&self, arena: &Arena) -> Result<ExactChances, ArenaError>;
    fn run(
        &self,
        arena: &Arena,
        games: u64,
        seed: u64,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Tally, ArenaError>;
}

#[allow(private_bounds)]
impl<T: ArenaGame + 'static> Adapter<T> {
    pub const ARENA: ArenaKind = ArenaKind(&Adapter::<T>::NEW);
}

impl<T: ArenaGame + 'static> ArenaPlay for Adapter<T> {
    fn kind(&self) -> GameKind {
        Adapter::<T>::KIND
    }

    fn best_name(&self) -> &'static str {
        T::BEST_NAME
    }

    fn own_names(&self) -> &'static [&'static str] {
        T::OWN_NAMES
    }

    fn own_strategy(&self, name: &str) -> Option<Strategy> {
        T::own_strategy(name)
    }

    fn arena_nodes(&self) -> u64 {
        T::ARENA_NODES.unwrap_or(T::MOVE_BUDGET.nodes)
    }

    fn has_exact(&self) -> bool {
        T::EXACT
    }

    fn keeps_score(&self) -> bool {
        T::KEEPS_SCORE
    }

    fn check_options(&self, options: Option<&serde_json::Value>, ctx: &AiContext) -> Result<(), MatchError> {
        crate::matches::players::check_options::<T>(options, ctx)
    }

    fn exact(&self, arena: &Arena) -> Result<ExactChances, ArenaError> {
        arena.exact_as::<T>()
    }

    fn run(
        &self,
        arena: &Arena,
        games: u64,
        seed: u64,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Tally, ArenaError> {
        arena.run_as::<T>(games, seed, limits, progress)
    }
}

/// One game the arena can play, by its id.
#[derive(Clone, Copy)]
pub struct ArenaKind(&'static dyn ArenaPlay);

impl ArenaKind {
    pub fn as_str(self) -> &'static str {
        self.0.kind().as_str()
    }

    pub fn kind(self) -> GameKind {
        self.0.kind()
    }

    pub(crate) fn play(self) -> &'static dyn ArenaPlay {
        self.0
    }
}

impl fmt::Debug for ArenaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArenaKind({:?})", self.as_str())
    }
}

impl fmt::Display for ArenaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The games the arena plays, in menu order: the list the registry hands
/// down, with the match games it is made of.
#[derive(Clone, Copy)]
pub struct ArenaGames {
    arena: &'static [ArenaKind],
    matches: MatchGames,
}

impl ArenaGames {
    pub const fn new(arena: &'static [ArenaKind], matches: MatchGames) -> ArenaGames {
        ArenaGames { arena, matches }
    }

    pub fn all(self) -> &'static [ArenaKind] {
        self.arena
    }

    /// The game called `id`, or an error that lists every id.
    pub fn find(self, id: &str) -> Result<ArenaKind, ArenaError> {
        match self.arena.iter().copied().find(|g| g.as_str() == id) {
            Some(game) => Ok(game),
            // The match engine's message, which lists every game.
            None => Err(self.matches.find(id).err().map_or_else(
                || ArenaError::Internal(format!("{id} is a match game but not an arena game")),
                ArenaError::Setup,
            )),
        }
    }
}
