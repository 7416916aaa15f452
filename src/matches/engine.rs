//! A match's life: create it (options validated, defaults filled in, the AI
//! and the dice play first when they should), apply a person's move, let the
//! AI and the dice answer until the match is finished or waiting for the
//! person again.
//!
//! A [`Match`] is plain data: the store keeps it as text and reloads it on
//! every request. What the next move needs is [`Match::saved`], the game's
//! own record (see `turns`); `options` and `state` are what the API shows.
//! Every die and every random choice of the AI comes from the RNG the caller
//! passes, so with a seeded RNG (and search budgets that end by node count,
//! not by the clock) a match is repeatable.
//! The history is returned, not kept: each call hands back the entries it
//! added, numbered on from [`Match::ply`]; the store adds their time.
//!
//! Every game is played through the `Game` trait; its match adapter (a
//! `turns::TurnGame`) says only what is its own: its options, the JSON of
//! its state and moves, how its AI chooses, its dice. A new game is that
//! adapter and one line in `match_games!`.

use std::borrow::Cow;
use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::solve::limits::SearchLimits;
use crate::solve::solvers::Solvers;

use super::kind::{GameKind, MatchGames};
use super::levels::{MAX_LEVEL, MIN_LEVEL};
use super::read;
use super::turns::{self, TurnGame};

/// Why a match could not be created or a move not applied. Every variant
/// but [`MatchError::Corrupt`] and [`MatchError::Internal`] is the client's
/// doing (422), and its message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("game must be one of {names} (got {got:?})")]
    UnknownGame { got: String, names: String },
    /// A field of the wrong type, out of range, or missing.
    #[error("{field} {expected}")]
    Field { field: String, expected: String },
    #[error("{field} is not a known field; expected {known}")]
    UnknownField { field: String, known: String },
    /// The options break the game's rules (the game's own message).
    #[error("options: {0}")]
    Options(String),
    /// The move is well formed but not legal here (the game's own message).
    #[error("move: {0}")]
    IllegalMove(String),
    #[error("the match is finished; no more moves can be played")]
    Finished,
    /// A stored match that does not parse (500: the store's data is bad).
    #[error("the stored match is not valid: {0}")]
    Corrupt(String),
    /// A solver broke its promise (500).
    #[error("the AI could not move: {0}")]
    Internal(String),
    /// A stored match whose record is missing or behind its ply: it is
    /// rebuilt from its history ([`Match::rebuild_record`]) before it
    /// moves.
    #[error("the stored match has no record at its ply")]
    Unrecorded,
    /// What the AI needs is missing or busy on this server (503): chess
    /// without Stockfish (the detail says how to install it), or its
    /// engines all taken (`retry_after_secs` then says when to retry).
    #[error("{detail}")]
    Unavailable {
        detail: String,
        retry_after_secs: Option<u64>,
    },
}

impl MatchError {
    /// True for errors caused by the request (422); false for the server's.
    pub fn is_client_error(&self) -> bool {
        !matches!(
            self,
            MatchError::Corrupt(_) | MatchError::Internal(_) | MatchError::Unrecorded | MatchError::Unavailable { .. }
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    InProgress,
    Finished,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    Human,
    Ai,
    Dice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    Human,
    Ai,
    Draw,
}

/// Final scores, for the games that keep score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    /// Signed: Number Square boards may hold negative tiles.
    pub human: i64,
    pub ai: i64,
}

/// Why a match ended, in the game's own words (snake_case, as a frontend
/// shows or translates them): each game names its reasons itself
/// ([`crate::matches::TurnGame::END_REASONS`]), so no shared list grows with
/// each game. Rows stored with any word read back as that word.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EndReason(Cow<'static, str>);

impl EndReason {
    /// A reason word a game declares (`"checkmate"`, `"line"`).
    pub const fn named(word: &'static str) -> EndReason {
        EndReason(Cow::Borrowed(word))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `{"winner": ..., "reason": ..., "scores": {"human", "ai"}}` (scores only
/// where the game has them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    pub winner: Winner,
    /// None only in rows stored before reasons were recorded, until they
    /// are rewritten ([`Match::rebuild_record`]).
    #[serde(default)]
    pub reason: Option<EndReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Scores>,
}

impl MatchResult {
    pub(crate) fn new(winner: Winner, reason: EndReason) -> MatchResult {
        MatchResult {
            winner,
            reason: Some(reason),
            scores: None,
        }
    }
}

/// One event. The HTTP layer adds `at` when it stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// 1 for the first entry; the match's `ply` is the last entry's.
    pub ply: u64,
    pub actor: Actor,
    /// The move object (as a person would send it); null for a roll.
    #[serde(rename = "move")]
    pub mv: Option<Value>,
    /// The die's face; null for a move.
    pub roll: Option<u32>,
}

/// Who the AI is: `{"strategy": "best", "level": 1..10}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiSpec {
    pub strategy: String,
    pub level: u8,
}

impl Default for AiSpec {
    fn default() -> Self {
        AiSpec {
            strategy: "best".to_string(),
            level: MAX_LEVEL,
        }
    }
}

impl AiSpec {
    /// Strategies every game's matches accept. (The seed papers' simple AIs
    /// could be added per game; today only the solver-backed one plays.)
    pub const STRATEGIES: [&'static str; 1] = ["best"];

    /// Reads the request's `ai` (absent or null: the default).
    pub fn parse(value: Option<&Value>) -> Result<AiSpec, MatchError> {
        let requested: AiRequest = read::optional(value, "ai")?;
        let strategy = requested.strategy.unwrap_or_else(|| "best".to_string());
        if !Self::STRATEGIES.contains(&strategy.as_str()) {
            return Err(MatchError::Field {
                field: "ai.strategy".to_string(),
                expected: format!(
                    "must be one of {:?} (got {:?})",
                    Self::STRATEGIES,
                    strategy.chars().take(40).collect::<String>()
                ),
            });
        }
        let level = match requested.level {
            None => MAX_LEVEL,
            Some(l) => u8::try_from(l)
                .ok()
                .filter(|l| (MIN_LEVEL..=MAX_LEVEL).contains(l))
                .ok_or_else(|| MatchError::Field {
                    field: "ai.level".to_string(),
                    expected: format!("must be an integer from {MIN_LEVEL} to {MAX_LEVEL} (got {l})"),
                })?,
        };
        Ok(AiSpec { strategy, level })
    }

    pub fn is_best(&self) -> bool {
        self.level >= MAX_LEVEL
    }
}

/// The request's `ai` as the client sends it.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AiRequest {
    strategy: Option<String>,
    level: Option<i64>,
}

/// How hard the AI may think per move in one game: its time, and a node
/// cap that makes searches repeatable (and big boards bounded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    pub time: Duration,
    pub nodes: u64,
}

impl MoveBudget {
    /// A budget of time alone, for solvers that count no nodes.
    pub const fn time(ms: u64) -> MoveBudget {
        MoveBudget {
            time: Duration::from_millis(ms),
            nodes: u64::MAX,
        }
    }

    pub fn search_limits(self) -> SearchLimits {
        SearchLimits::within(self.time).with_max_nodes(self.nodes)
    }
}

/// How many games' budgets [`MatchLimits`] can set apart from their
/// defaults (tests, the arena and the examples set one to four).
const BUDGET_OVERRIDES: usize = 16;

/// How hard the AI may think per move, game by game: each game's default
/// (its adapter's `MOVE_BUDGET`) unless set here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchLimits {
    overrides: [Option<(&'static str, MoveBudget)>; BUDGET_OVERRIDES],
}

impl MatchLimits {
    pub fn budget(&self, game: GameKind) -> MoveBudget {
        self.budget_of(game.as_str(), game.move_budget())
    }

    /// The budget of the game `id`, whose default is `default`.
    fn budget_of(&self, id: &str, default: MoveBudget) -> MoveBudget {
        self.overrides
            .iter()
            .flatten()
            .find(|(game, _)| *game == id)
            .map_or(default, |&(_, budget)| budget)
    }

    /// The budget of a move of the game `T` (a game's own code asks so).
    pub(crate) fn budget_for<T: TurnGame>(&self) -> MoveBudget {
        self.budget_of(T::ID, T::MOVE_BUDGET)
    }

    /// The search limits of a move of the game `T`.
    pub(crate) fn search_for<T: TurnGame>(&self) -> SearchLimits {
        self.budget_for::<T>().search_limits()
    }

    /// These limits with `game`'s budget replaced. Past
    /// `BUDGET_OVERRIDES` different games the last one is replaced.
    pub fn with_budget(mut self, game: GameKind, budget: MoveBudget) -> MatchLimits {
        let id = game.as_str();
        let slot = self
            .overrides
            .iter()
            .position(|o| o.is_none_or(|(g, _)| g == id))
            .unwrap_or(BUDGET_OVERRIDES - 1);
        self.overrides[slot] = Some((id, budget));
        self
    }

    /// The search limits of one AI move in `game`.
    pub fn search(&self, game: GameKind) -> SearchLimits {
        self.budget(game).search_limits()
    }
}

/// The solvers the AI uses (the server's shared ones) and its budgets.
#[derive(Clone, Copy)]
pub struct AiContext<'a> {
    pub solvers: &'a Solvers,
    pub limits: MatchLimits,
}

/// `POST /matches` as the HTTP layer reads it; everything but `game` may be
/// absent. `options` and `ai` stay JSON so that their errors name the field.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct NewMatch {
    pub game: String,
    #[serde(default, deserialize_with = "super::read::optional_unique_keys")]
    pub options: Option<Value>,
    #[serde(default, deserialize_with = "super::read::optional_unique_keys")]
    pub ai: Option<Value>,
    #[serde(default)]
    pub ai_first: Option<bool>,
}

/// A match without its history (see the module notes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Match {
    pub game: GameKind,
    /// With every default filled in.
    pub options: Value,
    pub ai: AiSpec,
    pub ai_first: bool,
    pub status: Status,
    /// The number of history entries so far.
    pub ply: u64,
    /// The game's state object as the API shows it (see the contract);
    /// written for clients, never read back (Number Square's from before
    /// its deal was kept excepted, once, see `TurnGame::unrecorded_start`).
    pub state: Value,
    /// The game's own record of the match (typed options, the person's
    /// seat, every move played), from which the next move rebuilds it.
    /// None in rows stored before it was kept, until they are rewritten
    /// ([`Match::rebuild_record`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved: Option<String>,
    /// The person's legal moves in the move format while the match waits
    /// for them (Nine Square: the empty cells a placement may use); None
    /// once it is finished, and in rows stored before they were kept,
    /// until they are rewritten.
    #[serde(default)]
    pub legal_moves: Option<Vec<Value>>,
    /// None while in progress.
    pub result: Option<MatchResult>,
}

/// A match as [`Match::to_value`] writes it, its game by id.
#[derive(Deserialize)]
struct Written {
    game: String,
    options: Value,
    ai: AiSpec,
    ai_first: bool,
    status: Status,
    ply: u64,
    state: Value,
    #[serde(default)]
    saved: Option<String>,
    #[serde(default)]
    legal_moves: Option<Vec<Value>>,
    result: Option<MatchResult>,
}

/// What a game adapter hands back after its part of a request.
pub(crate) struct Progress {
    pub state: Value,
    /// The person's legal moves (empty once the game is over).
    pub legal_moves: Vec<Value>,
    pub result: Option<MatchResult>,
    /// The match's new [`Match::saved`].
    pub saved: String,
}

/// The history entries one request adds, numbered on from the match's ply.
pub(crate) struct Log {
    last_ply: u64,
    entries: Vec<HistoryEntry>,
}

impl Log {
    fn new(last_ply: u64) -> Log {
        Log {
            last_ply,
            entries: Vec::new(),
        }
    }

    fn push(&mut self, actor: Actor, mv: Option<Value>, roll: Option<u32>) {
        self.last_ply += 1;
        self.entries.push(HistoryEntry {
            ply: self.last_ply,
            actor,
            mv,
            roll,
        });
    }

    /// The match's ply after the entries so far.
    pub(crate) fn ply(&self) -> u64 {
        self.last_ply
    }

    pub(crate) fn human(&mut self, mv: Value) {
        self.push(Actor::Human, Some(mv), None);
    }

    pub(crate) fn ai(&mut self, mv: Value) {
        self.push(Actor::Ai, Some(mv), None);
    }

    pub(crate) fn dice(&mut self, face: u32) {
        self.push(Actor::Dice, None, Some(face));
    }
}

/// A state that fails to parse is the store's fault, not the client's.
pub(crate) fn corrupt(error: MatchError) -> MatchError {
    match error {
        MatchError::Corrupt(_) => error,
        other => MatchError::Corrupt(format!("state: {other}")),
    }
}

impl Match {
    /// A new match, after the AI's and the dice's opening moves (when the AI
    /// goes first, or the person's die is rolled). Returns the match and the
    /// history entries so far.
    pub fn create(
        games: MatchGames,
        request: &NewMatch,
        ctx: &AiContext,
        rng: &mut impl RngCore,
    ) -> Result<(Match, Vec<HistoryEntry>), MatchError> {
        let rng: &mut dyn RngCore = rng;
        let game = games.find(&request.game)?;
        let ai = AiSpec::parse(request.ai.as_ref())?;
        let ai_first = request.ai_first.unwrap_or(false);
        let mut log = Log::new(0);
        let (options, progress) = game.adapter().start(request, &ai, ai_first, ctx, rng, &mut log)?;
        let m = Match {
            game,
            options,
            ai,
            ai_first,
            status: if progress.result.is_some() {
                Status::Finished
            } else {
                Status::InProgress
            },
            ply: log.last_ply,
            state: progress.state,
            saved: Some(progress.saved),
            legal_moves: progress.result.is_none().then_some(progress.legal_moves),
            result: progress.result,
        };
        Ok((m, log.entries))
    }

    /// Applies the person's `move` and the AI's and dice's answers. On
    /// success returns the new history entries; on error the match is
    /// unchanged. The caller checks the request's `ply` first.
    pub fn play(
        &mut self,
        mv: &Value,
        ctx: &AiContext,
        rng: &mut impl RngCore,
    ) -> Result<Vec<HistoryEntry>, MatchError> {
        let rng: &mut dyn RngCore = rng;
        if self.status == Status::Finished {
            return Err(MatchError::Finished);
        }
        let mut log = Log::new(self.ply);
        let progress = self.game.adapter().play(self, mv, ctx, rng, &mut log)?;
        self.status = if progress.result.is_some() {
            Status::Finished
        } else {
            Status::InProgress
        };
        self.state = progress.state;
        self.saved = Some(progress.saved);
        self.legal_moves = progress.result.is_none().then_some(progress.legal_moves);
        self.result = progress.result;
        self.ply = log.last_ply;
        Ok(log.entries)
    }

    /// The options object as the API shows it (see [`Match::shown`]).
    pub fn shown_options(&self) -> Cow<'_, Value> {
        self.shown(&self.options)
    }

    /// The state object as the API shows it (see [`Match::shown`]).
    pub fn shown_state(&self) -> Cow<'_, Value> {
        self.shown(&self.state)
    }

    /// What the API shows of a stored object: Ishitori's heaps also as
    /// decimal strings; every other game's as stored.
    fn shown<'a>(&self, value: &'a Value) -> Cow<'a, Value> {
        self.game.adapter().shown(value)
    }

    pub fn to_value(&self) -> Value {
        // Plain structs of strings, numbers and JSON values: cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Reloads a match written by [`Match::to_value`], its game one of
    /// `games`. Its record (`saved`) is replayed through the rules on the
    /// next move.
    pub fn from_value(value: Value, games: MatchGames) -> Result<Match, MatchError> {
        let written: Written = serde_json::from_value(value).map_err(|e| MatchError::Corrupt(e.to_string()))?;
        let m = Match {
            game: games
                .find(&written.game)
                .map_err(|e| MatchError::Corrupt(e.to_string()))?,
            options: written.options,
            ai: written.ai,
            ai_first: written.ai_first,
            status: written.status,
            ply: written.ply,
            state: written.state,
            saved: written.saved,
            legal_moves: written.legal_moves,
            result: written.result,
        };
        m.check()?;
        Ok(m)
    }

    /// True when the match's record is the one at its ply; false for a
    /// row stored before records were kept, or last moved by a replica of
    /// such a version.
    pub fn has_record(&self) -> bool {
        self.saved
            .as_deref()
            .is_some_and(|saved| turns::record_ply(saved) == Some(self.ply))
    }

    /// Gives a match without a record at its ply the one its `history`
    /// (every entry, from ply 1) replays to, with the legal moves and the
    /// result (its end reason) the rules give; a history that does not
    /// replay to the stored state is [`MatchError::Corrupt`].
    pub fn rebuild_record(&mut self, history: &[HistoryEntry], solvers: &Solvers) -> Result<(), MatchError> {
        let progress = self.game.adapter().rebuild(self, history, solvers)?;
        let winner = |result: &Option<MatchResult>| result.as_ref().map(|r| r.winner);
        if winner(&progress.result) != winner(&self.result) {
            return Err(MatchError::Corrupt(
                "its history ends otherwise than its result says".to_string(),
            ));
        }
        self.saved = Some(progress.saved);
        self.legal_moves = progress.result.is_none().then_some(progress.legal_moves);
        self.result = progress.result;
        Ok(())
    }

    /// The invariants a stored match must keep (its record is replayed
    /// through the rules on the next move).
    pub fn check(&self) -> Result<(), MatchError> {
        if !(MIN_LEVEL..=MAX_LEVEL).contains(&self.ai.level) {
            return Err(MatchError::Corrupt(format!(
                "ai.level {} is out of range",
                self.ai.level
            )));
        }
        if (self.status == Status::Finished) != self.result.is_some() {
            return Err(MatchError::Corrupt("status and result disagree".to_string()));
        }
        Ok(())
    }
}
