//! The engine: a position in, an [`Analysis`] out, within the limits.
//!
//! A short midgame iterative deepening always runs first (it orders the
//! moves and is the answer if nothing better arrives). When the empties
//! are few enough for the budget ([`exact_reach`]), the exact solver then
//! finds the best move and its exact score, then, while the limits last,
//! the exact score of every other move. A search the limits stop is
//! thrown away and the last complete result stands.

use super::bits::{flips, legal_moves};
use super::endgame::Endgame;
use super::eval::DISC;
use super::geometry::{Geometry, Size};
use super::midgame::Midgame;
use super::rules::{final_score, OthelloState};
use super::square::{OthelloMove, Square};
use crate::core::evaluation::Evaluation;
use crate::core::outcome::Outcome;
use crate::games::game::Seat;
use crate::solve::limits::SearchLimits;
use crate::solve::table::{SharedTable, NO_MOVE};
use crate::solve::Progress;
use std::time::Duration;

/// One legal move's value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub square: Square,
    /// Final disc difference (empties to the winner) if `solved`; else an
    /// estimate in the same unit (for a move the search found worse than
    /// the best, a bound: at most this).
    pub score: i32,
    pub solved: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub player: Seat,
    /// The chosen move; a pass when the player has no square.
    pub best: OthelloMove,
    /// Final disc difference for the player to move under perfect play,
    /// empties to the winner (FFO convention), when `solved`; else the
    /// search's estimate in discs.
    pub score: i32,
    /// The score and the chosen move are exact.
    pub solved: bool,
    /// Plies to the end when solved (the empties), else the deepest
    /// complete midgame iteration.
    pub depth: u32,
    pub nodes: u64,
    /// Every legal square, in square order (a1, b1, ..., h8).
    pub moves: Vec<MoveValue>,
    /// From the chosen move on, passes included; as far as known.
    pub principal_variation: Vec<OthelloMove>,
    /// The principal variation reaches the end of the game.
    pub line_to_the_end: bool,
}

impl Analysis {
    /// Win, draw or loss for the player to move; None when not solved.
    pub fn outcome(&self) -> Option<Outcome> {
        self.evaluation().outcome
    }

    /// On the one evaluation scale; the plies to the end are known when the
    /// principal variation reaches it (passes are plies too).
    pub fn evaluation(&self) -> Evaluation {
        let plies_to_end = u32::try_from(self.principal_variation.len()).ok();
        evaluation(self.score, self.solved, plies_to_end.filter(|_| self.line_to_the_end))
    }

    /// The score exact and the principal variation played out to the end
    /// of the game: nothing a longer search would add.
    pub fn is_complete(&self) -> bool {
        self.solved && self.line_to_the_end
    }
}

/// Disc differences this far apart are about a likely win from a likely
/// loss: the scale on which an estimate becomes a win chance (answers,
/// reviews and the levels read it).
pub const DISCS_PER_UNIT: f64 = 4.0;

/// A disc difference for the mover on the one evaluation scale.
pub fn evaluation(score: i32, solved: bool, plies_to_end: Option<u32>) -> Evaluation {
    Evaluation::of_margin(f64::from(score), solved, plies_to_end, DISCS_PER_UNIT)
}

/// How hard the engine tries: the levels set these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The deepest midgame iteration.
    pub max_depth: u32,
    /// The exact solver is tried at most at this many empties (and only
    /// when the budget allows it).
    pub exact_empties: u32,
    /// After the best move is proved, prove the other moves' scores too.
    pub every_move_exact: bool,
}

impl Default for Settings {
    /// Full strength.
    fn default() -> Settings {
        Settings {
            max_depth: 64,
            exact_empties: 64,
            every_move_exact: true,
        }
    }
}

/// The exact value and one best move, nothing else: what the FFO test
/// suite asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub score: i32,
    pub best: OthelloMove,
    pub nodes: u64,
}

/// The most empties the exact solver is expected to finish within
/// `budget`, one thread. Measured on this engine (release build, a shared
/// 2-core machine): 8x8 FFO positions with 20 empties take 0.6-0.8 s,
/// 22-23 empties 2-4 s; random 6x6 positions with 20 empties are all
/// solved within 1 s (100 of 100), with 22 empties 18 of 20. A wrong
/// guess costs only time: the midgame answer stands if the solver does
/// not finish.
pub fn exact_reach(size: Size, budget: Duration) -> u32 {
    let ms = budget.as_millis();
    let steps: &[(u128, u32)] = match size {
        Size::Four => return 16,
        Size::Six => &[
            (0, 14),
            (30, 16),
            (100, 18),
            (400, 20),
            (1_000, 21),
            (4_000, 23),
            (20_000, 25),
        ],
        Size::Eight => &[
            (0, 10),
            (30, 13),
            (100, 15),
            (400, 18),
            (1_000, 19),
            (4_000, 21),
            (20_000, 23),
            (100_000, 26),
        ],
    };
    steps
        .iter()
        .take_while(|&&(from, _)| ms >= from)
        .last()
        .map_or(0, |&(_, empties)| empties)
}

/// Half the width of the exact root's aspiration window, in discs.
const ASPIRATION: i32 = 4;
/// Depth of the midgame search that orders the root and guesses the value
/// before [`OthelloEngine::solve`].
const SOLVE_ESTIMATE_DEPTH: u32 = 6;

/// The most time the midgame search gets before a planned exact search.
/// Its deeper iterations order only the root (the exact search keeps its
/// own table entries) and guess the value: on FFO #45 (24 empties, a 120 s
/// budget) a 15 s midgame (an eighth) to depth 16 then the exact best took
/// 36.6 s in all, a 1 s one 29.3 s; on #47 (25 empties) 17.5 s against
/// 3.4 s (release build, a shared 2-core machine).
const MIDGAME_BEFORE_EXACT: Duration = Duration::from_secs(1);

/// Empties at or below which the midgame search is skipped: the exact
/// search is then cheaper than even a few midgame iterations.
const EXACT_ONLY_EMPTIES: u32 = 12;

/// The engine: a transposition table shared by all its searches (it is
/// lock-free; many threads may analyse at once).
pub struct OthelloEngine {
    table: SharedTable,
}

/// Result of the midgame iterative deepening.
struct Estimate {
    depth: u32,
    /// Each move's value in hundredths of a disc, best first; the others
    /// are upper bounds.
    values: Vec<(u32, i32)>,
    nodes: u64,
}

impl OthelloEngine {
    /// `table_entries`: positions the table holds (16 bytes each).
    pub fn new(table_entries: usize) -> OthelloEngine {
        OthelloEngine {
            table: SharedTable::new(table_entries),
        }
    }

    pub fn table(&self) -> &SharedTable {
        &self.table
    }

    /// Full strength within `limits`.
    pub fn analyze(&self, game: &OthelloState, limits: &SearchLimits) -> Analysis {
        self.analyze_with(game, limits, &Settings::default())
    }

    pub fn analyze_with(&self, game: &OthelloState, limits: &SearchLimits, settings: &Settings) -> Analysis {
        self.analyze_reporting(game, limits, settings, None)
    }

    /// [`OthelloEngine::analyze_with`], reporting the analysis as it stands
    /// after each completed midgame iteration (estimates, `solved: false`;
    /// a streamed answer's lines).
    pub fn analyze_reporting(
        &self,
        game: &OthelloState,
        limits: &SearchLimits,
        settings: &Settings,
        mut progress: Progress<'_, Analysis>,
    ) -> Analysis {
        if let Some(answer) = self.without_a_choice(game, limits, settings) {
            return answer;
        }
        let geo = game.geometry();
        let (p, o) = game.mover_and_opponent();
        let empties = game.empties();
        let exact_planned =
            empties <= settings.exact_empties && empties <= exact_reach(game.size(), limits.remaining());
        let estimate = if exact_planned && empties <= EXACT_ONLY_EMPTIES {
            self.static_order(geo, p, o)
        } else {
            self.midgame_estimate(game, limits, settings, exact_planned, &mut progress)
        };
        let mut endgame_nodes = 0;
        if exact_planned {
            match self.exact_answer(game, limits, settings, &estimate, &mut progress) {
                Ok(solved) => return solved,
                Err(spent) => endgame_nodes = spent,
            }
        }
        self.estimated_answer(game, limits, &estimate, endgame_nodes)
    }

    /// The answer where the player has no choice: a finished game, or a
    /// pass (the opponent's analysis, negated). None when it has a move.
    fn without_a_choice(&self, game: &OthelloState, limits: &SearchLimits, settings: &Settings) -> Option<Analysis> {
        let player = game.to_move();
        if game.is_over() {
            return Some(Analysis {
                player,
                best: OthelloMove::Pass,
                score: game.final_score(player),
                solved: true,
                depth: 0,
                nodes: 0,
                moves: Vec::new(),
                principal_variation: Vec::new(),
                line_to_the_end: true,
            });
        }
        if game.move_bits() != 0 {
            return None;
        }
        let mut after = *game;
        after.pass_turn();
        let reply = self.analyze_with(&after, limits, settings);
        let mut principal_variation = vec![OthelloMove::Pass];
        principal_variation.extend(reply.principal_variation);
        Some(Analysis {
            player,
            best: OthelloMove::Pass,
            score: -reply.score,
            solved: reply.solved,
            depth: reply.depth,
            nodes: reply.nodes,
            moves: Vec::new(),
            principal_variation,
            line_to_the_end: reply.line_to_the_end,
        })
    }

    /// The midgame search's estimate of every move, each completed
    /// iteration reported to `progress`. When the exact solver follows
    /// (`exact_planned`), the midgame gets an eighth of the budget, at most
    /// MIDGAME_BEFORE_EXACT: enough to order the moves, and the answer if
    /// the solver does not finish.
    fn midgame_estimate(
        &self,
        game: &OthelloState,
        limits: &SearchLimits,
        settings: &Settings,
        exact_planned: bool,
        progress: &mut Progress<'_, Analysis>,
    ) -> Estimate {
        let geo = game.geometry();
        let player = game.to_move();
        let (p, o) = game.mover_and_opponent();
        let midgame_limits = if exact_planned {
            limits.slice((limits.remaining() / 8).min(MIDGAME_BEFORE_EXACT))
        } else {
            limits.clone()
        };
        let mut report = |estimate: &Estimate, nodes: u64| {
            if let (Some(report), Some(&(best, value))) = (progress.as_deref_mut(), estimate.values.first()) {
                report(&Analysis {
                    player,
                    best: OthelloMove::Play(square(best)),
                    score: to_discs(value, geo),
                    solved: false,
                    depth: estimate.depth,
                    nodes,
                    moves: move_list(estimate.values.iter().map(|&(sq, v)| (sq, to_discs(v, geo), false))),
                    principal_variation: vec![OthelloMove::Play(square(best))],
                    line_to_the_end: false,
                });
            }
        };
        let max_depth = settings.max_depth.min(game.empties());
        self.iterative_deepening(geo, p, o, &midgame_limits, max_depth, &mut report)
    }

    /// The endgame solved from the midgame's `estimate` (its order and its
    /// guess): the exact answer with its line, every move proved too when
    /// the settings ask (each reported to `progress` as it is); None when
    /// the solver did not finish within `limits` (`Err` with the nodes it
    /// searched).
    fn exact_answer(
        &self,
        game: &OthelloState,
        limits: &SearchLimits,
        settings: &Settings,
        estimate: &Estimate,
        progress: &mut Progress<'_, Analysis>,
    ) -> Result<Analysis, u64> {
        let geo = game.geometry();
        let player = game.to_move();
        let (p, o) = game.mover_and_opponent();
        let mut endgame = Endgame::new(geo, &self.table, limits);
        let guess = (estimate.depth > 0).then(|| to_discs(estimate.values[0].1, geo));
        let Some((mut values, score)) = self.exact_root(&mut endgame, geo, p, o, &estimate.values, guess) else {
            return Err(endgame.nodes);
        };
        let best = values[0].0;
        let mut principal_variation = vec![OthelloMove::Play(square(best))];
        let turned = flips(p, o, best);
        let bit = 1u64 << best;
        // The line first: it is cheap once the table holds the proof; the
        // other moves' scores may take the rest.
        let (line, line_to_the_end) = principal_line(&mut endgame, geo, o & !turned, p | turned | bit, -score);
        principal_variation.extend(line);
        let solved = |values: &[RootValue], nodes: u64| Analysis {
            player,
            best: OthelloMove::Play(square(best)),
            score,
            solved: true,
            depth: game.empties(),
            nodes,
            moves: move_list(values.iter().copied()),
            principal_variation: principal_variation.clone(),
            line_to_the_end,
        };
        if settings.every_move_exact {
            // A streamed answer says the best move is proved as soon as it
            // is, then each other move as it is proved (as Connect Four's
            // does): proving them all may take the rest of the budget, and
            // a client that only wants the exact best can hang up at the
            // first solved line.
            let mut report = |values: &[RootValue], nodes: u64| {
                if let Some(report) = progress.as_deref_mut() {
                    report(&solved(values, estimate.nodes + nodes));
                }
            };
            prove_every_move(&mut endgame, p, o, &mut values, &mut report);
        }
        Ok(solved(&values, estimate.nodes + endgame.nodes))
    }

    /// The midgame's answer: its best move and estimates, with the line
    /// its search gives (`endgame_nodes`: what a solver that did not
    /// finish searched too).
    fn estimated_answer(
        &self,
        game: &OthelloState,
        limits: &SearchLimits,
        estimate: &Estimate,
        endgame_nodes: u64,
    ) -> Analysis {
        let geo = game.geometry();
        let (p, o) = game.mover_and_opponent();
        let best = estimate.values[0].0;
        let search = Midgame::new(geo, &self.table, limits);
        let turned = flips(p, o, best);
        let mut principal_variation = vec![OthelloMove::Play(square(best))];
        principal_variation.extend(midgame_line(
            &search,
            geo,
            o & !turned,
            p | turned | (1u64 << best),
            estimate.depth.saturating_sub(1),
        ));
        Analysis {
            player: game.to_move(),
            best: OthelloMove::Play(square(best)),
            score: to_discs(estimate.values[0].1, geo),
            solved: false,
            depth: estimate.depth,
            nodes: estimate.nodes + endgame_nodes,
            moves: move_list(estimate.values.iter().map(|&(sq, v)| (sq, to_discs(v, geo), false))),
            principal_variation,
            line_to_the_end: false,
        }
    }

    /// The exact score and one best move (no other move's score, no
    /// principal variation): what the FFO suite and Edax's `-solve` give.
    /// None when the limits ran out first.
    pub fn solve(&self, game: &OthelloState, limits: &SearchLimits) -> Option<Solution> {
        let geo = game.geometry();
        if game.is_over() {
            return Some(Solution {
                score: game.final_score(game.to_move()),
                best: OthelloMove::Pass,
                nodes: 0,
            });
        }
        let (p, o) = game.mover_and_opponent();
        let mut endgame = Endgame::new(geo, &self.table, limits);
        if game.move_bits() == 0 {
            let score = endgame.exact(o, p)?;
            return Some(Solution {
                score: -score,
                best: OthelloMove::Pass,
                nodes: endgame.nodes,
            });
        }
        // A shallow midgame search first: a better order for the root,
        // and a guess for its aspiration window.
        let estimate = self.iterative_deepening(
            geo,
            p,
            o,
            limits,
            SOLVE_ESTIMATE_DEPTH.min(game.empties()),
            &mut |_, _| {},
        );
        endgame.nodes += estimate.nodes;
        let guess = (estimate.depth > 0).then(|| to_discs(estimate.values[0].1, geo));
        let (values, score) = self.exact_root(&mut endgame, geo, p, o, &estimate.values, guess)?;
        Some(Solution {
            score,
            best: OthelloMove::Play(square(values[0].0)),
            nodes: endgame.nodes,
        })
    }

    /// The moves in fastest-first order, with no values: the order for a
    /// search that skips the midgame.
    fn static_order(&self, geo: &'static Geometry, p: u64, o: u64) -> Estimate {
        let limits = SearchLimits::within(Duration::from_secs(1));
        let search = Midgame::new(geo, &self.table, &limits);
        let values = search
            .ordered_moves(p, o, u32::from(NO_MOVE), 2)
            .into_iter()
            .map(|(sq, _)| (sq, 0))
            .collect();
        Estimate {
            depth: 0,
            values,
            nodes: 0,
        }
    }

    fn iterative_deepening(
        &self,
        geo: &'static Geometry,
        p: u64,
        o: u64,
        limits: &SearchLimits,
        max_depth: u32,
        on_depth: &mut dyn FnMut(&Estimate, u64),
    ) -> Estimate {
        let mut search = Midgame::new(geo, &self.table, limits);
        let mut order: Vec<(u32, u64)> = search.ordered_moves(p, o, u32::from(NO_MOVE), 2);
        let mut result = Estimate {
            depth: 0,
            values: order.iter().map(|&(sq, _)| (sq, 0)).collect(),
            nodes: 0,
        };
        let infinity = geo.squares * DISC + 1;
        for depth in 1..=max_depth.max(1) {
            let mut alpha = -infinity;
            let mut values = Vec::with_capacity(order.len());
            for (i, &(sq, turned)) in order.iter().enumerate() {
                let (child_p, child_o) = (o & !turned, p | turned | (1u64 << sq));
                let value = if i == 0 {
                    -search.search(child_p, child_o, depth - 1, -infinity, infinity)
                } else {
                    let probe = -search.search(child_p, child_o, depth - 1, -alpha - 1, -alpha);
                    if probe > alpha {
                        -search.search(child_p, child_o, depth - 1, -infinity, -probe)
                    } else {
                        probe
                    }
                };
                if search.aborted() {
                    break;
                }
                alpha = alpha.max(value);
                values.push((sq, value));
            }
            if search.aborted() {
                break;
            }
            // Best first; the sort is stable, so equals keep their order.
            let mut ranked: Vec<((u32, i32), (u32, u64))> = values.into_iter().zip(order).collect();
            ranked.sort_by_key(|&((_, value), _)| std::cmp::Reverse(value));
            order = ranked.iter().map(|&(_, mv)| mv).collect();
            result.values = ranked.iter().map(|&(value, _)| value).collect();
            result.depth = depth;
            on_depth(&result, search.nodes);
            if limits.exhausted(search.nodes) {
                break;
            }
        }
        result.nodes = search.nodes;
        result
    }

    /// The exact root: a principal variation search over the moves in the
    /// given order. Returns (square, score, exact) best first (the others
    /// only bounded: at most their score) and the best score; None if the
    /// best move was not proved within the limits.
    #[allow(clippy::type_complexity)]
    fn exact_root(
        &self,
        endgame: &mut Endgame<'_>,
        geo: &'static Geometry,
        p: u64,
        o: u64,
        order: &[(u32, i32)],
        guess: Option<i32>,
    ) -> Option<(Vec<(u32, i32, bool)>, i32)> {
        let bound = geo.squares;
        let mut alpha = -bound - 1;
        let mut values = Vec::with_capacity(order.len());
        for (i, &(sq, _)) in order.iter().enumerate() {
            let turned = flips(p, o, sq);
            let (child_p, child_o) = (o & !turned, p | turned | (1u64 << sq));
            let (value, exact) = if i == 0 {
                // An aspiration window around the estimate: a narrow
                // window proves less, and the estimate is usually close.
                let value = match guess {
                    Some(guess) => {
                        let (low, high) = (guess - ASPIRATION, guess + ASPIRATION);
                        let value = -endgame.search(child_p, child_o, -high, -low);
                        if value <= low {
                            -endgame.search(child_p, child_o, -value - 1, bound)
                        } else if value >= high {
                            -endgame.search(child_p, child_o, -bound, -value + 1)
                        } else {
                            value
                        }
                    }
                    None => -endgame.search(child_p, child_o, -bound, bound),
                };
                (value, true)
            } else {
                let probe = -endgame.search(child_p, child_o, -alpha - 1, -alpha);
                if probe > alpha {
                    (-endgame.search(child_p, child_o, -bound, -probe), true)
                } else {
                    (probe, false)
                }
            };
            if endgame.aborted() {
                return None;
            }
            alpha = alpha.max(value);
            values.push((sq, value, exact));
        }
        // Best first; among equal scores the proved one.
        values.sort_by_key(|&(_, value, exact)| (std::cmp::Reverse(value), !exact));
        let score = values[0].1;
        Some((values, score))
    }
}

/// A root move's square, its score and whether that score is exact (else
/// an upper bound).
type RootValue = (u32, i32, bool);

/// Replaces the bounds among `values` by exact scores while the limits
/// last, best bound first (keeping the proved best move first). `report`
/// sees the values (and the endgame's nodes) before the first proof and
/// after each one.
fn prove_every_move(
    endgame: &mut Endgame<'_>,
    p: u64,
    o: u64,
    values: &mut [RootValue],
    report: &mut dyn FnMut(&[RootValue], u64),
) {
    report(values, endgame.nodes);
    for i in 0..values.len() {
        let (sq, _, exact) = values[i];
        if exact {
            continue;
        }
        let turned = flips(p, o, sq);
        let Some(value) = endgame.exact(o & !turned, p | turned | (1u64 << sq)) else {
            break;
        };
        values[i] = (sq, -value, true);
        report(values, endgame.nodes);
    }
    values.sort_by_key(|&(_, value, exact)| (std::cmp::Reverse(value), !exact));
}

fn square(index: u32) -> Square {
    // Indices come from move words of a 64-bit board: always below 64.
    Square::from_index(index).unwrap_or_else(|| unreachable!("square index {index}"))
}

fn to_discs(centi: i32, geo: &Geometry) -> i32 {
    ((centi as f64 / f64::from(DISC)).round() as i32).clamp(-geo.squares, geo.squares)
}

fn move_list(values: impl Iterator<Item = (u32, i32, bool)>) -> Vec<MoveValue> {
    let mut moves: Vec<MoveValue> = values
        .map(|(sq, score, solved)| MoveValue {
            square: square(sq),
            score,
            solved,
        })
        .collect();
    moves.sort_by_key(|m| m.square);
    moves
}

/// A best line from a position of known exact `value`: at each step a move
/// whose child has exactly the opposite value (each checked by a narrow
/// search, which the table makes cheap). With true if it reaches the end of
/// the game, false if the limits ran out first.
fn principal_line(
    endgame: &mut Endgame<'_>,
    geo: &'static Geometry,
    mut p: u64,
    mut o: u64,
    mut value: i32,
) -> (Vec<OthelloMove>, bool) {
    let mut line = Vec::new();
    loop {
        let empty = geo.mask & !(p | o);
        let moves = legal_moves(p, o, empty);
        if moves == 0 {
            if legal_moves(o, p, empty) == 0 {
                debug_assert_eq!(final_score(geo, p, o), value);
                return (line, true);
            }
            line.push(OthelloMove::Pass);
            (p, o, value) = (o, p, -value);
            continue;
        }
        let mut next = None;
        for sq in super::bits::Squares(moves) {
            let turned = flips(p, o, sq);
            let (child_p, child_o) = (o & !turned, p | turned | (1u64 << sq));
            let child = endgame.search(child_p, child_o, -value - 1, -value + 1);
            if endgame.aborted() {
                return (line, false);
            }
            if child == -value {
                next = Some((sq, child_p, child_o));
                break;
            }
        }
        let Some((sq, child_p, child_o)) = next else {
            return (line, false);
        };
        line.push(OthelloMove::Play(square(sq)));
        (p, o, value) = (child_p, child_o, -value);
    }
}

/// The midgame's expected line: the table's moves, as far as they go.
fn midgame_line(search: &Midgame<'_>, geo: &Geometry, mut p: u64, mut o: u64, plies: u32) -> Vec<OthelloMove> {
    let mut line = Vec::new();
    for _ in 0..plies {
        let empty = geo.mask & !(p | o);
        let moves = legal_moves(p, o, empty);
        if moves == 0 {
            if legal_moves(o, p, empty) == 0 {
                break;
            }
            line.push(OthelloMove::Pass);
            (p, o) = (o, p);
            continue;
        }
        let Some(sq) = search.table_move(p, o).filter(|&sq| moves & (1u64 << sq) != 0) else {
            break;
        };
        let turned = flips(p, o, sq);
        line.push(OthelloMove::Play(square(sq)));
        (p, o) = (o & !turned, p | turned | (1u64 << sq));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_budget_reaches_20_empties_on_6x6_and_more_time_reaches_further() {
        assert_eq!(exact_reach(Size::Six, Duration::from_secs(1)), 21);
        assert_eq!(exact_reach(Size::Four, Duration::ZERO), 16);
        for size in [Size::Six, Size::Eight] {
            let reaches: Vec<u32> = [0, 50, 200, 1_000, 10_000, 1_000_000]
                .iter()
                .map(|&ms| exact_reach(size, Duration::from_millis(ms)))
                .collect();
            assert!(reaches.windows(2).all(|w| w[0] <= w[1]), "{reaches:?}");
        }
    }

    #[test]
    fn a_report_comes_once_the_best_is_proved_then_after_each_other_move() {
        // A 6x6 ending of 16 empties with several moves, reached by always
        // playing the last legal square (passing when there is none).
        let mut game = OthelloState::new(Size::Six);
        while game.empties() > 16 || game.legal_squares().len() < 3 {
            assert!(game.empties() > 12 && !game.is_over(), "no ending found");
            let mv = game
                .legal_squares()
                .last()
                .map_or(OthelloMove::Pass, |&sq| OthelloMove::Play(sq));
            game.try_play(mv).unwrap();
        }
        let engine = OthelloEngine::new(1 << 16);
        let mut reports = Vec::new();
        let analysis = engine.analyze_reporting(
            &game,
            &SearchLimits::within(Duration::from_secs(30)),
            &Settings::default(),
            Some(&mut |a: &Analysis| reports.push(a.clone())),
        );
        assert!(
            analysis.solved && analysis.moves.iter().all(|m| m.solved),
            "{analysis:?}"
        );
        let solved: Vec<&Analysis> = reports.iter().filter(|a| a.solved).collect();
        assert!(!solved.is_empty(), "no solved report: {reports:?}");
        let proved = |a: &Analysis| a.moves.iter().filter(|m| m.solved).count();
        for (i, report) in solved.iter().enumerate() {
            // Already exact: the final answer's move and score.
            assert_eq!(
                (report.best, report.score),
                (analysis.best, analysis.score),
                "{report:?}"
            );
            assert!(
                report
                    .moves
                    .iter()
                    .any(|m| OthelloMove::Play(m.square) == analysis.best && m.solved && m.score == analysis.score),
                "{report:?}"
            );
            if i > 0 {
                assert_eq!(proved(report), proved(solved[i - 1]) + 1, "{reports:?}");
            }
        }
        assert_eq!(solved.last().map(|a| &a.moves), Some(&analysis.moves));
    }

    #[test]
    fn a_search_out_of_time_still_answers_with_a_legal_move() {
        let engine = OthelloEngine::new(1 << 12);
        let game = OthelloState::new(Size::Eight);
        let analysis = engine.analyze(&game, &SearchLimits::within(Duration::ZERO));
        let OthelloMove::Play(square) = analysis.best else {
            panic!("a pass at the start");
        };
        assert!(game.legal_squares().contains(&square));
        assert!(!analysis.solved);
        assert_eq!(analysis.moves.len(), 4);
    }
}
