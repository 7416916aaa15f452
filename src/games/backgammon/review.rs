//! Backgammon reviews as players know them: every decision (checker play,
//! double or roll, take or pass) set beside the best by GNU Backgammon,
//! its equity lost, and per side an error rate and a luck figure.
//!
//! - **Equity lost**: the best choice's equity less the chosen one's, for
//!   the side deciding, normalized to the cube (cubeful; the exact
//!   table's cubeless equity in the races it covers).
//! - **Judgments** use GNU Backgammon's thresholds on the equity lost:
//!   under 0.04 `good` (or `best`), from 0.04 `inaccuracy` (gnubg's
//!   "doubtful"), from 0.08 `mistake` ("bad"), from 0.16 `blunder`
//!   ("very bad"). `loss` in points is half the equity lost (a single
//!   game's equity is 2 points - 1), at most 1.
//! - **Error rate**: the mean equity lost per decision, in thousandths
//!   (gnubg's mEMG per decision).
//! - **Luck**: for each roll a side played, the equity of its best play
//!   with those dice less the position's equity before the roll (what
//!   the average roll was worth), summed per side. The opening roll is
//!   not counted (nobody was on roll before it).

use futures_util::stream::{self, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use super::answer::engine;
use super::bearoff::exact_plays;
use super::game::{BackgammonMove, BackgammonState, Phase};
use super::gnubg::{GnubgPool, Strength};
use super::matches::{situation_of, BackgammonMatch, MatchMove};
use crate::core::game::{Game, Seat, Turn};
use crate::matches::turns::TurnGame;
use crate::review::{Entry, Extras, Judgment, Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// Equity lost from which a decision is gnubg's "doubtful".
pub const DOUBTFUL_FROM: f64 = 0.04;
/// From here gnubg's "bad" (an error).
pub const ERROR_FROM: f64 = 0.08;
/// From here gnubg's "very bad" (a blunder).
pub const BLUNDER_FROM: f64 = 0.16;

/// One step of a match's history: the dice or a decision.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum HistoryStep {
    Roll(u32),
    Decision(MatchMove),
}

/// A decision replayed: the match before it, who made it, what.
struct Decision {
    ply: u64,
    seat: Seat,
    before: BackgammonState,
    chosen: BackgammonMove,
    shown: Value,
    /// The game's state before its roll, when this is a checker play after
    /// a roll other than a game's opening one (for the luck).
    before_roll: Option<BackgammonState>,
    /// The only legal move: nothing to ask gnubg.
    forced: bool,
}

/// How a decision came out.
struct Judged {
    best: f64,
    played: f64,
    best_move: Value,
    exact: bool,
    luck: Option<f64>,
    win_after: f64,
}

/// The judgment of a decision that gave up `equity_loss`.
pub fn judge(equity_loss: f64, chosen_is_best: bool) -> Judgment {
    match equity_loss {
        _ if chosen_is_best => Judgment::Best,
        l if l < DOUBTFUL_FROM => Judgment::Good,
        l if l < ERROR_FROM => Judgment::Inaccuracy,
        l if l < BLUNDER_FROM => Judgment::Mistake,
        _ => Judgment::Blunder,
    }
}

/// Replays a match's history from its opening: every roll and decision
/// checked by the rules, the decisions kept.
fn replay(length: u32, steps: &[Step<HistoryStep>], names: [&str; 2]) -> Result<Vec<Decision>, ReviewError> {
    let mut game = BackgammonState::new(length);
    let mut decisions = Vec::new();
    let mut before_roll = None;
    for (index, step) in steps.iter().enumerate() {
        match (&step.mv, game.turn()) {
            (HistoryStep::Roll(face), Turn::Chance) => {
                let outcome = BackgammonMatch::face_outcome(&game, *face)
                    .filter(|o| game.chance_outcomes().iter().any(|(c, _)| c == o))
                    .ok_or_else(|| ReviewError::at(index, format!("{face} is not a roll here")))?;
                before_roll = (game.phase() == Phase::Rolling).then_some(game);
                game.play(outcome);
            }
            (HistoryStep::Decision(mv), Turn::Player(seat)) => {
                if step.seat.is_some_and(|s| s != seat) {
                    return Err(ReviewError::at(index, format!("it is {}'s turn", names[seat])));
                }
                let chosen =
                    BackgammonMatch::game_move(&game, mv).map_err(|e| ReviewError::at(index, e.to_string()))?;
                let is_play = matches!(chosen, BackgammonMove::Play(_));
                decisions.push(Decision {
                    ply: step.ply,
                    seat,
                    before: game,
                    chosen,
                    shown: serde_json::to_value(BackgammonMatch::api_move(&game, chosen)).unwrap_or(Value::Null),
                    before_roll: if is_play { before_roll.take() } else { None },
                    forced: game.legal_moves().len() < 2,
                });
                game.play(chosen);
            }
            _ => {
                return Err(ReviewError::at(
                    index,
                    "out of turn (a roll where a decision is due, or the reverse)",
                ))
            }
        }
    }
    Ok(decisions)
}

fn situation(game: &BackgammonState, seat: Seat) -> super::gnubg::Situation {
    situation_of(game, seat).for_gnubg()
}

/// gnubg's cube decision for `seat` on roll in `game`.
async fn cube_of(
    pool: &GnubgPool,
    game: &BackgammonState,
    seat: Seat,
    limits: &SearchLimits,
) -> Result<super::gnubg::CubeDecision, String> {
    pool.cube(&situation(game, seat), &Strength::default(), limits)
        .await
        .map_err(|e| e.to_string())
}

/// One decision judged by gnubg (or the exact table); Err names what
/// failed.
async fn judge_decision(pool: &GnubgPool, d: &Decision, limits: &SearchLimits) -> Result<Judged, String> {
    let strength = Strength::default();
    if d.forced {
        return Ok(Judged {
            best: f64::NAN,
            played: f64::NAN,
            best_move: d.shown.clone(),
            exact: true,
            luck: None,
            win_after: f64::NAN,
        });
    }
    let api =
        |mv: BackgammonMove| serde_json::to_value(BackgammonMatch::api_move(&d.before, mv)).unwrap_or(Value::Null);
    match (d.before.phase(), d.chosen) {
        (Phase::Moving(dice), BackgammonMove::Play(result)) => {
            let board = d.before.board_of(d.seat);
            if let Some(exact) = exact_plays(&board, dice) {
                let best = exact.first().ok_or("no play")?;
                let played = exact
                    .iter()
                    .find(|p| p.play.result == result)
                    .ok_or("the play is not listed")?;
                return Ok(Judged {
                    best: best.race.equity,
                    played: played.race.equity,
                    best_move: api(BackgammonMove::Play(best.play.result)),
                    exact: true,
                    luck: None,
                    win_after: played.race.win,
                });
            }
            let analysis = pool
                .moves(&situation(&d.before, d.seat), dice.values(), &strength, limits)
                .await
                .map_err(|e| e.to_string())?;
            let after_id = result.flipped().position_id();
            let best = analysis.plays.first().ok_or("no play")?;
            let played = analysis
                .plays
                .iter()
                .find(|p| p.position_after == after_id)
                .ok_or("gnubg did not list the play")?;
            let best_result = super::plays::legal_plays(&board, dice)
                .into_iter()
                .find(|p| p.result.flipped().position_id() == best.position_after)
                .map(|p| p.result)
                .ok_or("gnubg's best play is not a legal one")?;
            let luck = match &d.before_roll {
                Some(before) => {
                    let value = pool
                        .evaluate(&situation(before, d.seat), &strength, limits)
                        .await
                        .map_err(|e| e.to_string())?;
                    Some(best.equity - value.no_double_equity)
                }
                None => None,
            };
            Ok(Judged {
                best: best.equity,
                played: played.equity,
                best_move: api(BackgammonMove::Play(best_result)),
                exact: false,
                luck,
                win_after: played.probabilities.win,
            })
        }
        (Phase::CubeOrRoll, chosen) => {
            let decision = cube_of(pool, &d.before, d.seat, limits).await?;
            let e = decision.equities;
            let doubling = e.double_take.min(e.double_pass);
            let (best, best_move) = if doubling > e.no_double {
                (doubling, BackgammonMove::Double)
            } else {
                (e.no_double, BackgammonMove::RollOn)
            };
            let played = if chosen == BackgammonMove::Double {
                doubling
            } else {
                e.no_double
            };
            Ok(Judged {
                best,
                played,
                best_move: api(best_move),
                exact: false,
                luck: None,
                win_after: decision.probabilities.win,
            })
        }
        (Phase::Responding, chosen) => {
            let doubler = 1 - d.seat;
            let decision = cube_of(pool, &d.before, doubler, limits).await?;
            let (take, pass) = (-decision.equities.double_take, -decision.equities.double_pass);
            let (best, best_move) = if take >= pass {
                (take, BackgammonMove::Take)
            } else {
                (pass, BackgammonMove::Pass)
            };
            let played = if chosen == BackgammonMove::Take { take } else { pass };
            Ok(Judged {
                best,
                played,
                best_move: api(best_move),
                exact: false,
                luck: None,
                win_after: 1.0 - decision.probabilities.win,
            })
        }
        _ => Err("a decision out of its phase".to_string()),
    }
}

/// The entry of a move that was the only legal one: the best, by force.
fn forced_entry(d: &Decision, names: [&str; 2], first_view: f64) -> Entry {
    Entry {
        ply: d.ply,
        actor: names[d.seat].to_string(),
        mv: d.shown.clone(),
        best_moves: vec![d.shown.clone()],
        value_before: json!({"equity": null}),
        value_played: json!({"equity": null}),
        loss: 0.0,
        judgment: Judgment::Best,
        exact: true,
        value: 2.0 * first_view - 1.0,
        extras: equity_loss(0.0),
    }
}

/// The review of a match's history within `budget_ms`, shared out over its
/// decisions (two at a time: the pool has a process per core).
pub async fn review(
    solvers: &crate::solve::solvers::Solvers,
    length: u32,
    steps: &[Step<HistoryStep>],
    names: [&'static str; 2],
    budget_ms: u64,
) -> Result<Review, ReviewError> {
    let decisions = replay(length, steps, names)?;
    let engine = engine(solvers);
    let pool = &engine.0;
    if let Some(reason) = pool.unavailable_reason() {
        return Err(ReviewError::Unavailable(reason.to_string()));
    }
    // Rolls take a second question each (the luck).
    let asked = decisions.iter().filter(|d| !d.forced);
    let questions = asked.clone().count() + asked.filter(|d| d.before_roll.is_some()).count();
    let per_question = budget_ms / questions.max(1) as u64;
    let limits = SearchLimits::within(std::time::Duration::from_millis(per_question.max(20) * 2));
    let questions: Vec<_> = decisions.iter().map(|d| judge_decision(pool, d, &limits)).collect();
    let judged: Vec<Result<Judged, String>> = stream::iter(questions).buffered(2).collect().await;
    let mut entries = Vec::with_capacity(decisions.len());
    let mut luck = [0.0f64; 2];
    let mut lost = [0.0f64; 2];
    // The first player's chances after the last judged decision (a forced
    // move changes nothing worth a question).
    let mut first_view = 0.5;
    for (d, judged) in decisions.iter().zip(judged) {
        let j = judged.map_err(|e| ReviewError::Unavailable(format!("gnubg could not judge ply {}: {e}", d.ply)))?;
        if d.forced {
            entries.push(forced_entry(d, names, first_view));
            continue;
        }
        let equity = (j.best - j.played).max(0.0);
        lost[d.seat] += equity;
        luck[d.seat] += j.luck.unwrap_or(0.0);
        first_view = if d.seat == 0 { j.win_after } else { 1.0 - j.win_after };
        entries.push(Entry {
            ply: d.ply,
            actor: names[d.seat].to_string(),
            mv: d.shown.clone(),
            best_moves: vec![j.best_move.clone()],
            value_before: json!({"equity": j.best}),
            value_played: json!({"equity": j.played}),
            loss: (equity / 2.0).min(1.0),
            judgment: judge(equity, j.best_move == d.shown || equity <= 1e-9),
            exact: j.exact,
            value: 2.0 * first_view - 1.0,
            extras: equity_loss(equity),
        });
    }
    let mut review = Review::new(BackgammonMatch::ID, names, entries);
    for (seat, (_, summary)) in review.players.0.iter_mut().enumerate() {
        let decisions = f64::from(summary.moves.max(1));
        let error_rate = (lost[seat] / decisions * 1000.0 * 10.0).round() / 10.0;
        summary.extras.insert("error_rate".into(), json!(error_rate));
        summary
            .extras
            .insert("luck".into(), json!((luck[seat] * 1000.0).round() / 1000.0));
    }
    Ok(review)
}

/// A decision's `equity_loss`: the equity it gave up against the best.
fn equity_loss(equity: f64) -> Extras {
    Extras::from_iter([("equity_loss".to_string(), json!(equity))])
}
