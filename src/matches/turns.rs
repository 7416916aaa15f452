//! Matches of two-player games, played through the [`Game`] trait: the
//! person's move, then the AI's and the dice's until the person is to move
//! again or the game is over. A game supplies only what is its own (see
//! [`TurnGame`]): its options, the JSON of its state and moves, and how its
//! AI values the moves; [`start`] and [`play`] do the rest.
//!
//! The store keeps a match in the game's own terms ([`Saved`]): its typed
//! options and every move played from the opening, dice included. The next
//! request rebuilds the game by replaying them, each checked against the
//! rules, so a stored game is always one the rules can reach (OpenSpiel
//! serialises a state the same way, as its history). A game whose matches
//! have no bound on their length but the server's cap (Ishitori, Pig) keeps
//! its typed position instead, so that reading a match back costs the same
//! at any length. The API's `state` object is only ever written, for
//! clients to read, never parsed back.
//!
//! A row whose record is missing or behind its ply (stored before records
//! were kept, or moved by a replica of such a version) gets one from its
//! history ([`rebuild`]): every entry read as the game's own move type and
//! replayed from the opening, and the replay must show the stored state.

use std::borrow::Cow;

use rand::RngCore;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::game::{Game, GameOutcome, Seat, Turn};

use super::engine::{
    corrupt, Actor, AiContext, AiSpec, EndReason, HistoryEntry, Log, Match, MatchError, MatchResult, MoveBudget,
    NewMatch, Progress, Scores, Winner,
};
use super::levels;
use super::read;
use crate::solve::solvers::Solvers;

/// One move the AI may play, valued on the levels' scale (1 = a sure win,
/// 0 = a sure loss for the mover).
pub(crate) struct Candidate<M> {
    pub mv: M,
    pub value: f64,
}

/// The AI's view of a position: the move it plays at its best, and every
/// move it considered with its value (empty when the search gave none).
pub(crate) struct Choice<M> {
    pub best: M,
    pub candidates: Vec<Candidate<M>>,
}

impl<M: Copy> Choice<M> {
    /// The move at `ai`'s level: the best at level 10, else a draw that
    /// favours better values.
    pub(crate) fn pick(&self, ai: &AiSpec, rng: &mut dyn RngCore) -> M {
        if ai.is_best() || self.candidates.is_empty() {
            return self.best;
        }
        let values: Vec<f64> = self.candidates.iter().map(|c| c.value).collect();
        levels::choose(&values, ai.level, rng)
            .and_then(|i| self.candidates.get(i))
            .map_or(self.best, |c| c.mv)
    }
}

/// What a two-player game brings to be played as a match (the dice, if it
/// has them, roll through [`TurnGame::roll`]).
pub(crate) trait TurnGame {
    /// The game's id in the API (`/matches`, `/arena`, the catalog).
    const ID: &'static str;
    type Game: Game;
    /// The options as a client sends them, every field defaulted: the one
    /// options type of the game, read the same way by its reviews, and the
    /// source of the catalog's defaults.
    type Options: Serialize + DeserializeOwned + Default;
    /// The options as the rules read them, checked (see
    /// [`TurnGame::rules`]) and stored (see [`Saved`]) so that a move never
    /// validates them again.
    type Rules: Clone + Serialize + DeserializeOwned;
    /// The move as a client sends it and the history and `legal_moves`
    /// show it: the one move type of the game, read the same way by its
    /// reviews.
    type Move: Serialize + DeserializeOwned;
    /// True for games that keep score (their results carry `scores`).
    const KEEPS_SCORE: bool = false;
    /// The AI's default budget per move (see [`super::MatchLimits`]).
    const MOVE_BUDGET: MoveBudget = MoveBudget::time(1000);

    /// What a record keeps in place of the moves from the opening:
    /// [`NoPosition`] for games whose matches are as short as their board,
    /// the game's own position for games whose matches can go on as long as
    /// the server lets them (a person may take one stone at a time, or hold
    /// at 0); for Number Square, the board a match showed before its deal
    /// was kept in its options (see [`TurnGame::unrecorded_start`]).
    type Position: Clone + Serialize + DeserializeOwned;

    /// The rules of these options, or what is wrong with them (naming the
    /// field); matches and reviews read options through it.
    fn rules(options: Self::Options, solvers: &Solvers) -> Result<Self::Rules, String>;
    /// The options of these rules with every default filled in (what a
    /// match shows).
    fn options(rules: &Self::Rules) -> Self::Options;
    /// What the options leave to chance, settled before the game starts
    /// (Number Square deals its board), so that the stored options say
    /// everything a replay of the history needs; most games have nothing
    /// to settle.
    fn settle(options: Self::Rules, _rng: &mut dyn RngCore) -> Result<Self::Rules, MatchError> {
        Ok(options)
    }
    /// The opening position of settled options.
    fn opening(options: &Self::Rules) -> Result<Self::Game, MatchError>;
    /// The position the record keeps (None: it keeps the moves).
    fn position(_game: &Self::Game) -> Option<Self::Position> {
        None
    }
    /// The game at a record's kept or starting position, checked against
    /// the options.
    fn at_position(_options: &Self::Rules, _position: Self::Position) -> Result<Self::Game, MatchError> {
        Err(MatchError::Corrupt(
            "this game's records start at the opening".to_string(),
        ))
    }
    /// Where the record of a match whose opening its options do not say
    /// starts, read from its stored `state`, with the person's seat (see
    /// [`TurnGame::Position`]); None for every game whose options say it.
    fn unrecorded_start(_options: &Self::Rules, _state: &Value) -> Option<Result<(Self::Position, Seat), MatchError>> {
        None
    }
    /// The opening position of a new match, refusing one the AI could not
    /// play (checked once, at the start).
    fn new_game(options: &Self::Rules, _ctx: &AiContext) -> Result<Self::Game, MatchError> {
        Self::opening(options)
    }
    /// The API's `state` object; `human` is the person's seat.
    fn state_json(game: &Self::Game, human: Seat) -> Value;
    /// A client's move as the game's, checked against the rules.
    fn game_move(game: &Self::Game, mv: &Self::Move) -> Result<<Self::Game as Game>::Move, MatchError>;
    /// The game's move as a client writes it.
    fn api_move(game: &Self::Game, mv: <Self::Game as Game>::Move) -> Self::Move;
    /// The person's `move` object: the moves they play in a row. One for
    /// most games; a Nine Square turn places several marks.
    fn parse_turn(game: &Self::Game, mv: &Value) -> Result<Vec<<Self::Game as Game>::Move>, MatchError> {
        let mv: Self::Move = read::required(mv, "move")?;
        Ok(vec![Self::game_move(game, &mv)?])
    }
    /// The history's `move` object for the moves one actor played in a row
    /// from `game` (the inverse of [`TurnGame::parse_turn`]).
    fn turn_json(game: &Self::Game, moves: &[<Self::Game as Game>::Move]) -> Value {
        match moves {
            [mv] => move_json::<Self>(game, *mv),
            _ => Value::Array(moves.iter().map(|&mv| move_json::<Self>(game, mv)).collect()),
        }
    }
    /// The moves the AI plays in a row at its turn (the game not over), at
    /// `ai`'s level; most games play one, chosen from their
    /// [`Choice`] with [`Choice::pick`].
    fn ai_turn(
        game: &Self::Game,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<<Self::Game as Game>::Move>, MatchError>;
    /// Every reason a match of this game can end with, in the game's own
    /// words (the catalog lists them; [`TurnGame::end_reason`] answers one).
    const END_REASONS: &'static [EndReason];
    /// Why `game` ended with `outcome`: one of [`TurnGame::END_REASONS`].
    fn end_reason(game: &Self::Game, outcome: GameOutcome) -> EndReason;
    /// What the API shows of a stored options or state object; most games
    /// show it as stored.
    fn shown(stored: &Value) -> Cow<'_, Value> {
        Cow::Borrowed(stored)
    }
    /// The final scores of the person and the AI, for games that keep score
    /// (see [`TurnGame::KEEPS_SCORE`]).
    fn scores(_game: &Self::Game, _human: Seat) -> Option<Scores> {
        None
    }
    /// The move a player must play when it is the only one and not a choice
    /// (an Othello pass): the server plays it for the person too, and the
    /// history records it as theirs. None for most games.
    fn forced_move(_game: &Self::Game) -> Option<<Self::Game as Game>::Move> {
        None
    }
    /// Games with dice: the server's roll at a chance turn, and the face it
    /// shows (the history's `roll`). None for games without dice.
    fn roll(_game: &Self::Game, _rng: &mut dyn RngCore) -> Option<(<Self::Game as Game>::Move, u32)> {
        None
    }
    /// The chance outcome a die's face stands for (the inverse of
    /// [`TurnGame::roll`]'s pair); None for games without dice.
    fn face_outcome(_game: &Self::Game, _face: u32) -> Option<<Self::Game as Game>::Move> {
        None
    }
}

/// A move as the API writes it (in the history and `legal_moves`).
pub(crate) fn move_json<T: TurnGame + ?Sized>(game: &T::Game, mv: <T::Game as Game>::Move) -> Value {
    // The games' move types are plain structs and enums: cannot fail.
    serde_json::to_value(T::api_move(game, mv)).unwrap_or(Value::Null)
}

/// A request's `options` (absent: every default) as the rules of `T`.
pub(crate) fn read_rules<T: TurnGame>(raw: Option<&Value>, solvers: &Solvers) -> Result<T::Rules, MatchError> {
    let options: T::Options = read::optional(raw, "options")?;
    T::rules(options, solvers).map_err(MatchError::Options)
}

/// The options a match shows: every default filled in.
fn options_json<T: TurnGame>(rules: &T::Rules) -> Result<Value, MatchError> {
    serde_json::to_value(T::options(rules)).map_err(|e| MatchError::Internal(format!("options: {e}")))
}

/// The match's result once the game is over (None while it goes on).
pub(crate) fn result_for<T: TurnGame>(game: &T::Game, human: Seat) -> Option<MatchResult> {
    let outcome = game.result()?;
    let winner = match outcome {
        GameOutcome::Draw => Winner::Draw,
        GameOutcome::Won(seat) if seat == human => Winner::Human,
        GameOutcome::Won(_) => Winner::Ai,
    };
    let reason = T::end_reason(game, outcome);
    debug_assert!(
        T::END_REASONS.contains(&reason),
        "{}'s end reason {reason} is not among its END_REASONS",
        T::ID
    );
    Some(MatchResult {
        scores: T::scores(game, human),
        ..MatchResult::new(winner, reason)
    })
}

/// The moves the AI plays at its level in `game` (its turn), each checked
/// against the rules as it is played.
pub(crate) fn ai_moves<T: TurnGame>(
    game: &T::Game,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
) -> Result<Vec<<T::Game as Game>::Move>, MatchError> {
    let moves = T::ai_turn(game, ai, ctx, rng)?;
    check_in_a_row(game, &moves).map_err(|e| MatchError::Internal(format!("the AI {e}")))?;
    Ok(moves)
}

/// Checks that one player may play `moves` in a row from `game`: at least
/// one, each legal when it is played, all in the same player's turn.
pub(crate) fn check_in_a_row<G: Game>(game: &G, moves: &[G::Move]) -> Result<(), String> {
    let mut after = game.clone();
    let turn = after.turn();
    if moves.is_empty() || !matches!(turn, Turn::Player(_)) {
        return Err("chose no move".to_string());
    }
    for &mv in moves {
        if after.turn() != turn || !after.legal_moves().contains(&mv) {
            return Err(format!("chose an illegal move: {mv:?}"));
        }
        after.play(mv);
    }
    Ok(())
}

/// What the store keeps of a match of `T`: the options as the game reads
/// them, the person's seat, and every move from the opening (chance
/// outcomes included) in the order they were played.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "O: Serialize, P: Serialize, M: Serialize",
    deserialize = "O: DeserializeOwned, P: DeserializeOwned, M: DeserializeOwned"
))]
struct Saved<O, P, M> {
    options: O,
    human: Seat,
    /// The match's ply when the record was written. A record behind the
    /// row's ply was left there by a replica of an earlier version; it is
    /// not read, and the row's history rebuilds it.
    ply: u64,
    /// Where the moves start from when not the opening (see
    /// [`TurnGame::Position`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    position: Option<P>,
    moves: Vec<M>,
}

/// The [`TurnGame::Position`] of games that keep their moves.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) enum NoPosition {}

/// A match of `T` in play: its options, the person's seat, where its
/// record starts (None: the opening), the game and the moves that led to
/// it from there.
struct InPlay<T: TurnGame> {
    options: T::Rules,
    human: Seat,
    start: Option<T::Position>,
    game: T::Game,
    moves: Vec<<T::Game as Game>::Move>,
}

impl<T: TurnGame> InPlay<T> {
    fn play(&mut self, mv: <T::Game as Game>::Move) {
        self.game.play(mv);
        self.moves.push(mv);
    }
}

/// True when the rules offer `mv` in `game` (a move or a chance outcome).
fn offered<G: Game>(game: &G, mv: G::Move) -> bool {
    match game.turn() {
        Turn::Player(_) => game.legal_moves().contains(&mv),
        Turn::Chance => game.chance_outcomes().iter().any(|&(outcome, _)| outcome == mv),
        Turn::Over => false,
    }
}

/// The stored record of a match at `ply`: the options, and the game
/// rebuilt from its moves (each one checked against the rules). None when
/// the record is of an earlier ply.
fn restore<T: TurnGame>(saved: &str, ply: u64) -> Result<Option<InPlay<T>>, MatchError> {
    let saved: Saved<T::Rules, T::Position, <T::Game as Game>::Move> =
        serde_json::from_str(saved).map_err(|e| MatchError::Corrupt(format!("saved: {e}")))?;
    if saved.ply != ply {
        return Ok(None);
    }
    let game = match &saved.position {
        Some(position) => T::at_position(&saved.options, position.clone()),
        None => T::opening(&saved.options),
    }
    .map_err(corrupt)?;
    let mut in_play = InPlay {
        options: saved.options,
        human: saved.human,
        start: saved.position,
        game,
        moves: Vec::with_capacity(saved.moves.len()),
    };
    for (index, &mv) in saved.moves.iter().enumerate() {
        if !offered(&in_play.game, mv) {
            return Err(MatchError::Corrupt(format!(
                "saved: move {index} ({mv:?}) is not legal"
            )));
        }
        in_play.play(mv);
    }
    Ok(Some(in_play))
}

/// The record [`restore`] reads back at `ply`: the game's position where
/// it keeps one, else where the record starts and the moves since.
fn save<T: TurnGame>(in_play: InPlay<T>, ply: u64) -> Result<String, MatchError> {
    let (position, moves) = match T::position(&in_play.game) {
        Some(position) => (Some(position), Vec::new()),
        None => (in_play.start, in_play.moves),
    };
    let saved = Saved {
        options: in_play.options,
        human: in_play.human,
        ply,
        position,
        moves,
    };
    serde_json::to_string(&saved).map_err(|e| MatchError::Internal(format!("the match could not be saved: {e}")))
}

/// The AI moves and the dice roll while it is their turn; then the match
/// is over or the person's again.
fn answer<T: TurnGame>(
    in_play: &mut InPlay<T>,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<(), MatchError> {
    loop {
        match in_play.game.turn() {
            Turn::Player(seat) if seat != in_play.human => {
                let moves = ai_moves::<T>(&in_play.game, ai, ctx, rng)?;
                log.ai(T::turn_json(&in_play.game, &moves));
                for mv in moves {
                    in_play.play(mv);
                }
            }
            Turn::Player(_) => match T::forced_move(&in_play.game) {
                Some(mv) => {
                    log.human(T::turn_json(&in_play.game, &[mv]));
                    in_play.play(mv);
                }
                None => return Ok(()),
            },
            Turn::Over => return Ok(()),
            Turn::Chance => {
                let (outcome, face) = T::roll(&in_play.game, rng)
                    .ok_or_else(|| MatchError::Internal("a chance turn in a game without dice".to_string()))?;
                log.dice(face);
                in_play.play(outcome);
            }
        }
    }
}

/// What the store and the API get once the person is to move again or
/// the game is over.
fn progress<T: TurnGame>(in_play: InPlay<T>, ply: u64) -> Result<Progress, MatchError> {
    let (game, human) = (&in_play.game, in_play.human);
    let legal_moves = game
        .legal_moves()
        .into_iter()
        .map(|mv| move_json::<T>(game, mv))
        .collect();
    let state = T::state_json(game, human);
    let result = result_for::<T>(game, human);
    Ok(Progress {
        state,
        legal_moves,
        result,
        saved: save(in_play, ply)?,
    })
}

/// A new match of `T`: its options read and settled, then the AI and the
/// dice play until the person is to move. Returns the options as the API
/// shows them.
pub(crate) fn start<T: TurnGame>(
    request: &NewMatch,
    ai: &AiSpec,
    ai_first: bool,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<(Value, Progress), MatchError> {
    let options = T::settle(read_rules::<T>(request.options.as_ref(), ctx.solvers)?, rng)?;
    let shown_options = options_json::<T>(&options)?;
    let mut in_play = InPlay::<T> {
        game: T::new_game(&options, ctx)?,
        options,
        human: Seat::from(ai_first),
        start: None,
        moves: Vec::new(),
    };
    answer(&mut in_play, ai, ctx, rng, log)?;
    Ok((shown_options, progress(in_play, log.ply())?))
}

/// The stored match of `T` as the game sees it, from its record; a record
/// missing or behind the row's ply is [`MatchError::Unrecorded`] (the
/// caller rebuilds it from the history, see [`rebuild`]).
fn resume<T: TurnGame>(stored: &Match) -> Result<InPlay<T>, MatchError> {
    match &stored.saved {
        Some(saved) => restore::<T>(saved, stored.ply)?.ok_or(MatchError::Unrecorded),
        None => Err(MatchError::Unrecorded),
    }
}

/// A stored match of `T` as its history replays it: from the opening its
/// options say (or, where they do not say it, the start its state shows),
/// each entry read as the game's own move type and checked against the
/// rules. What it shows must be what the row shows; then its record, legal
/// moves and result are the row's.
pub(crate) fn rebuild<T: TurnGame>(
    stored: &Match,
    history: &[HistoryEntry],
    solvers: &Solvers,
) -> Result<Progress, MatchError> {
    let options: T::Options = read::required(&stored.options, "options").map_err(corrupt)?;
    let rules = T::rules(options, solvers).map_err(|e| MatchError::Corrupt(format!("options: {e}")))?;
    if let Some(start) = T::unrecorded_start(&rules, &stored.state) {
        // Nothing before this start replays: the record starts at the
        // row's ply, with no moves.
        let (position, human) = start.map_err(corrupt)?;
        let in_play = InPlay::<T> {
            game: T::at_position(&rules, position.clone()).map_err(corrupt)?,
            options: rules,
            human,
            start: Some(position),
            moves: Vec::new(),
        };
        return progress(in_play, stored.ply);
    }
    let mut in_play = InPlay::<T> {
        game: T::opening(&rules).map_err(corrupt)?,
        options: rules,
        human: Seat::from(stored.ai_first),
        start: None,
        moves: Vec::new(),
    };
    for (index, entry) in history.iter().enumerate() {
        let replayed = if entry.ply == index as u64 + 1 {
            replay_entry(&mut in_play, entry)
        } else {
            Err("entries are not numbered 1, 2, 3, ...".to_string())
        };
        replayed.map_err(|e| MatchError::Corrupt(format!("history at ply {}: {e}", entry.ply)))?;
    }
    let rebuilt = progress(in_play, stored.ply)?;
    if history.len() as u64 != stored.ply || rebuilt.state != stored.state {
        return Err(MatchError::Corrupt(
            "its history does not replay to its state".to_string(),
        ));
    }
    Ok(rebuilt)
}

/// One history entry played on `in_play`: a roll as the chance outcome its
/// face stands for, a move as the game reads its `move` object.
fn replay_entry<T: TurnGame>(in_play: &mut InPlay<T>, entry: &HistoryEntry) -> Result<(), String> {
    match (entry.actor, &entry.mv, entry.roll) {
        (Actor::Dice, None, Some(face)) => {
            let outcome = T::face_outcome(&in_play.game, face)
                .filter(|&outcome| in_play.game.turn() == Turn::Chance && offered(&in_play.game, outcome))
                .ok_or_else(|| format!("a roll of {face} is not a chance outcome here"))?;
            in_play.play(outcome);
        }
        (actor @ (Actor::Human | Actor::Ai), Some(mv), None) => {
            let seat = if actor == Actor::Human {
                in_play.human
            } else {
                1 - in_play.human
            };
            if in_play.game.turn() != Turn::Player(seat) {
                return Err(format!("it is not the {actor:?} player's turn"));
            }
            let moves = T::parse_turn(&in_play.game, mv).map_err(|e| e.to_string())?;
            check_in_a_row(&in_play.game, &moves)?;
            for mv in moves {
                in_play.play(mv);
            }
        }
        _ => return Err("neither a move nor a roll".to_string()),
    }
    Ok(())
}

/// The person's move in a stored match of `T` (refused if illegal), then
/// the AI's and the dice's answers.
pub(crate) fn play<T: TurnGame>(
    stored: &Match,
    mv: &Value,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<Progress, MatchError> {
    let mut in_play = resume::<T>(stored)?;
    let human = in_play.human;
    if in_play.game.turn() != Turn::Player(human) {
        return Err(MatchError::Corrupt("state: it is not the person's turn".to_string()));
    }
    let moves = T::parse_turn(&in_play.game, mv)?;
    log.human(T::turn_json(&in_play.game, &moves));
    for mv in moves {
        if in_play.game.turn() != Turn::Player(human) || !in_play.game.legal_moves().contains(&mv) {
            return Err(MatchError::IllegalMove(format!(
                "{} is not a legal move here",
                move_json::<T>(&in_play.game, mv)
            )));
        }
        in_play.play(mv);
    }
    answer(&mut in_play, &stored.ai, ctx, rng, log)?;
    progress(in_play, log.ply())
}

/// The ply a record was written at; None for text that is not a record.
pub(crate) fn record_ply(saved: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Ply {
        ply: u64,
    }
    serde_json::from_str::<Ply>(saved).ok().map(|p| p.ply)
}
