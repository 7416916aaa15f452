//! A game as matches know it without naming it: a [`GameKind`] is a handle
//! on a game's match adapter (a [`TurnGame`]), made by [`Adapter`], and
//! [`MatchGames`] is the list of them that the registry hands down. The
//! match engine, the store and the arena find a game by its id in that
//! list; nothing here knows which games there are.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use rand::RngCore;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::solve::solvers::Solvers;

use super::engine::{
    AiContext, AiSpec, EndReason, HistoryEntry, Log, Match, MatchError, MoveBudget, NewMatch, Progress,
};
use super::turns::{self, TurnGame};

/// What the match engine asks of a game, without its types: the
/// monomorphised entry points of its adapter.
pub(crate) trait MatchGame: Send + Sync {
    fn id(&self) -> &'static str;
    fn move_budget(&self) -> MoveBudget;
    fn end_reasons(&self) -> &'static [EndReason];
    fn start(
        &self,
        request: &NewMatch,
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<(Value, Progress), MatchError>;
    fn play(
        &self,
        stored: &Match,
        mv: &Value,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError>;
    fn shown<'a>(&self, stored: &'a Value) -> Cow<'a, Value>;
    fn rebuild(&self, stored: &Match, history: &[HistoryEntry], solvers: &Solvers) -> Result<Progress, MatchError>;
}

/// A game's match adapter as a value: `Adapter::<T>::KIND` is its
/// [`GameKind`] (the arena makes its own handle from the same type).
pub struct Adapter<T>(PhantomData<fn() -> T>);

impl<T> Adapter<T> {
    pub(crate) const NEW: Adapter<T> = Adapter(PhantomData);
}

#[allow(private_bounds)]
impl<T: TurnGame + 'static> Adapter<T> {
    pub const KIND: GameKind = GameKind(&Adapter::<T>::NEW);
}

impl<T: TurnGame + 'static> MatchGame for Adapter<T> {
    fn id(&self) -> &'static str {
        T::ID
    }

    fn move_budget(&self) -> MoveBudget {
        T::MOVE_BUDGET
    }

    fn end_reasons(&self) -> &'static [EndReason] {
        T::END_REASONS
    }

    fn start(
        &self,
        request: &NewMatch,
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<(Value, Progress), MatchError> {
        turns::start::<T>(request, ai, ai_first, ctx, rng, log)
    }

    fn play(
        &self,
        stored: &Match,
        mv: &Value,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        turns::play::<T>(stored, mv, ctx, rng, log)
    }

    fn shown<'a>(&self, stored: &'a Value) -> Cow<'a, Value> {
        T::shown(stored)
    }

    fn rebuild(&self, stored: &Match, history: &[HistoryEntry], solvers: &Solvers) -> Result<Progress, MatchError> {
        turns::rebuild::<T>(stored, history, solvers)
    }
}

/// One game that can be played as a match, by its id (`"pig"`).
#[derive(Clone, Copy)]
pub struct GameKind(&'static dyn MatchGame);

impl GameKind {
    pub fn as_str(self) -> &'static str {
        self.0.id()
    }

    /// The AI's default budget per move in this game.
    pub fn move_budget(self) -> MoveBudget {
        self.0.move_budget()
    }

    /// Every reason a match of this game can end with, in its own words.
    pub fn end_reasons(self) -> &'static [EndReason] {
        self.0.end_reasons()
    }

    pub(crate) fn adapter(self) -> &'static dyn MatchGame {
        self.0
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for GameKind {}

impl Hash for GameKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameKind({:?})", self.as_str())
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The games that can be played as matches, in menu order: the list the
/// registry hands down.
#[derive(Clone, Copy)]
pub struct MatchGames(&'static [GameKind]);

impl MatchGames {
    pub const fn new(games: &'static [GameKind]) -> MatchGames {
        MatchGames(games)
    }

    pub fn all(self) -> &'static [GameKind] {
        self.0
    }

    /// The game called `id`, or an error that lists every id.
    pub fn find(self, id: &str) -> Result<GameKind, MatchError> {
        self.0
            .iter()
            .copied()
            .find(|g| g.as_str() == id)
            .ok_or_else(|| MatchError::UnknownGame {
                got: id.chars().take(40).collect(),
                names: self.quoted_names(),
            })
    }

    /// Every game's id in quotes, comma-separated (for messages).
    fn quoted_names(self) -> String {
        self.0
            .iter()
            .map(|g| format!("{:?}", g.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Debug for MatchGames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}
