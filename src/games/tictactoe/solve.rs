//! Perfect (where affordable) tic-tac-toe on m,n,k boards.
//!
//! One [`TicTacToeSolver`] per server holds a memo shared by every request:
//! positions are stored under (rows, cols, k, the board's canonical image
//! among its 8 symmetries on a square, 4 on a rectangle), each with its
//! score, whether that score is exact or a lower or upper bound, the depth
//! it was searched to and the best move.
//!
//! [`TicTacToeSolver::analyze`] deepens iteratively until the position is
//! solved, the depth reaches the end of the game, or the limits run out, and
//! answers from the last completed depth. Every legal move gets a score;
//! the chosen move has the highest, the lowest index among equals.
//!
//! Exactness. With at most 25 empty cells every empty cell is searched, so
//! a win or loss found is exact (with the fastest win and the slowest loss)
//! and a search to the end of the game proves draws too. Bigger boards are
//! searched only within two cells of a stone (a dozen best candidates deeper
//! in the tree, plus every move that makes a threat), with a threat-aware
//! evaluation at the horizon: there only results of up to 4 plies count as
//! proved (`solved` needs the chosen move proved and, unless it wins, every
//! other move proved too), and moves far from every stone get
//! a one-ply estimate, ranked below every searched move unless it proves a
//! loss.

mod board;
mod search;

use super::{Player, Position};
use crate::core::evaluation::Evaluation;
use crate::solve::limits::SearchLimits;
use crate::solve::memo::MemoStats;
use crate::solve::solvers::{GameSolver, MemoSizes};
use crate::solve::Progress;

use board::{Geometry, SearchBoard, INFINITY, MATE_THRESHOLD};
use search::{is_mate, plies_of_mate, root_move, static_move, Cells, Memo, Search};

/// Positions with at most this many empty cells keep deepening after a win
/// is proved, so that every move's outcome gets proved too (cheap: the 4x4
/// board from empty is solved within seconds).
const PROVE_EVERY_MOVE_EMPTIES: usize = 16;

/// Positions with at most this many empty cells are searched to the end at
/// once: that costs well under a millisecond, less than the intermediate
/// depths of iterative deepening would.
const SEARCH_TO_THE_END_EMPTIES: usize = 9;

pub use crate::core::outcome::Outcome;

/// One legal move and what it leads to. `plies_to_end` counts this move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    pub index: usize,
    /// None when not proved.
    pub outcome: Option<Outcome>,
    pub plies_to_end: Option<u32>,
    /// Positive is good for the mover: a win in p plies scores 1,000,000 - p,
    /// a loss -(1,000,000 - p), a proved draw 0; estimates stay within
    /// 500,000 either way.
    pub score: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub player: Player,
    /// Cell index (row * cols + col) of the chosen move.
    pub best_move: usize,
    /// For the player to move; None when not proved.
    pub outcome: Option<Outcome>,
    pub plies_to_end: Option<u32>,
    pub score: i32,
    /// True when the chosen move's outcome and length are proved and no
    /// other move can do better.
    pub solved: bool,
    /// Plies searched in the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// Every legal move, lowest index first.
    pub moves: Vec<MoveAnalysis>,
    /// The chosen move and the best replies that follow, as far as known.
    pub principal_variation: Vec<usize>,
}

/// Unproved scores at this magnitude (estimates stay within 500,000) are
/// worth about three quarters of a game: the scale on which an estimate
/// becomes a win chance (answers, reviews and the levels read it).
pub const HEURISTIC_SCALE: f64 = 500_000.0;

/// A value on the one evaluation scale: the outcome where proved, else the
/// score's estimate.
pub fn evaluation(outcome: Option<Outcome>, plies_to_end: Option<u32>, score: i32) -> Evaluation {
    match outcome {
        Some(outcome) => Evaluation::proved(outcome, plies_to_end),
        None => Evaluation::estimate(f64::from(score), HEURISTIC_SCALE),
    }
}

impl MoveAnalysis {
    pub fn evaluation(&self) -> Evaluation {
        evaluation(self.outcome, self.plies_to_end, self.score)
    }
}

impl Analysis {
    pub fn evaluation(&self) -> Evaluation {
        evaluation(self.outcome, self.plies_to_end, self.score)
    }
}

/// The solver: a memo shared by all requests. `Send + Sync`.
pub struct TicTacToeSolver {
    memo: Memo,
}

/// What the root search knows about one legal move.
#[derive(Clone, Copy)]
struct RootMove {
    index: usize,
    score: i32,
    /// Searched beyond the one-ply estimate (big boards search only some).
    searched: bool,
}

impl GameSolver for TicTacToeSolver {
    fn build(sizes: &MemoSizes) -> Self {
        TicTacToeSolver::new(sizes.positions)
    }
}

impl TicTacToeSolver {
    /// `memo_capacity`: most positions remembered at once (at least 2).
    pub fn new(memo_capacity: usize) -> TicTacToeSolver {
        TicTacToeSolver {
            memo: Memo::new(memo_capacity.max(2)),
        }
    }

    pub fn memo_stats(&self) -> MemoStats {
        self.memo.stats()
    }

    /// The best move for the player to move, every move's value and the
    /// principal variation, within `limits`.
    pub fn analyze(&self, position: &Position, limits: &SearchLimits) -> Analysis {
        self.analyze_reporting(position, limits, None)
    }

    /// [`TicTacToeSolver::analyze`], reporting the analysis after each
    /// completed depth that does not finish the search (its principal
    /// variation follows the memo only, so reporting costs no search).
    pub fn analyze_reporting(
        &self,
        position: &Position,
        limits: &SearchLimits,
        mut progress: Progress<'_, Analysis>,
    ) -> Analysis {
        let geo = Geometry::new(position.rows(), position.cols(), position.k());
        let mut search = Search::new(Cells::new(SearchBoard::new(&geo, position), &self.memo), limits);
        let empties = position.board().empty_cells();
        let restricted = geo.restricts(empties);

        let mut root: Vec<RootMove> = position
            .legal_moves()
            .into_iter()
            .map(|index| RootMove {
                index,
                score: static_move(&mut search, index),
                searched: !restricted || search.game.board.is_near_stone(index),
            })
            .collect();
        let statics: Vec<i32> = root.iter().map(|m| m.score).collect();
        let mut depth_done = 1u32;
        let judge = Judge { restricted, empties };

        let first_depth = if empties <= SEARCH_TO_THE_END_EMPTIES {
            empties as u32
        } else {
            2
        };
        for depth in first_depth..=empties as u32 {
            if judge.finished(&root, depth_done) || limits.exhausted(search.nodes) {
                break;
            }
            match deepen(&mut search, &root, depth, restricted) {
                Some(fresh) => {
                    for (slot, score) in fresh {
                        root[slot].score = score;
                    }
                    if restricted {
                        rank_unsearched_below(&mut root, &statics);
                    }
                    depth_done = depth;
                    if let Some(report) = progress.as_deref_mut() {
                        let more = depth < empties as u32 && !judge.finished(&root, depth_done);
                        if more {
                            // The memo's line: no search, so nothing changes.
                            report(&summarise(position, &mut search, &root, &judge, depth_done, true));
                        }
                    }
                }
                None => break,
            }
        }
        summarise(position, &mut search, &root, &judge, depth_done, restricted)
    }
}

/// The analysis from the root moves' scores after `depth_done` plies.
/// `memo_line`: follow only the memo's moves for the principal variation
/// (always so on big boards).
fn summarise(
    position: &Position,
    search: &mut Search,
    root: &[RootMove],
    judge: &Judge,
    depth_done: u32,
    memo_line: bool,
) -> Analysis {
    let best = choose(root);
    let moves: Vec<MoveAnalysis> = root
        .iter()
        .map(|m| {
            let verdict = judge.verdict(m.score, depth_done);
            MoveAnalysis {
                index: m.index,
                outcome: verdict.map(|v| v.0),
                plies_to_end: verdict.map(|v| v.1),
                score: m.score,
            }
        })
        .collect();
    let chosen = moves[best].clone();
    let solved =
        chosen.outcome.is_some() && (chosen.outcome == Some(Outcome::Win) || moves.iter().all(|m| m.outcome.is_some()));
    // A proved result may be longer than the depth searched (the horizon
    // sees double threats), and the line should reach the end.
    let pv_length = depth_done.max(chosen.plies_to_end.unwrap_or(0));
    let principal_variation = principal_variation(search, chosen.index, pv_length, memo_line);
    Analysis {
        player: position.to_move(),
        best_move: chosen.index,
        outcome: if solved { chosen.outcome } else { None },
        plies_to_end: if solved { chosen.plies_to_end } else { None },
        score: chosen.score,
        solved,
        depth: depth_done,
        nodes: search.nodes,
        moves,
        principal_variation,
    }
}

/// One more iteration over the root moves worth searching, best first.
/// None if the limits ran out before it completed.
fn deepen(search: &mut Search, root: &[RootMove], depth: u32, restricted: bool) -> Option<Vec<(usize, i32)>> {
    let mut order: Vec<usize> = (0..root.len()).filter(|&i| root[i].searched).collect();
    order.sort_by(|&a, &b| root[b].score.cmp(&root[a].score).then(a.cmp(&b)));
    let mut fresh = Vec::with_capacity(order.len());
    let mut best = -INFINITY;
    for slot in order {
        // Small boards need every move's exact value. Big boards only need
        // to know whether a move reaches the best so far (ties included).
        let alpha = if restricted && best > -INFINITY {
            best - 1
        } else {
            -INFINITY
        };
        let score = root_move(search, root[slot].index, depth, alpha);
        if search.stopped {
            return None;
        }
        best = best.max(score);
        fresh.push((slot, score));
    }
    Some(fresh)
}

/// Unsearched moves (far from every stone) keep their one-ply estimate but
/// rank below every searched move, unless the estimate is a proved result.
fn rank_unsearched_below(root: &mut [RootMove], statics: &[i32]) {
    let lowest = root.iter().filter(|m| m.searched).map(|m| m.score).min().unwrap_or(0);
    for (m, &estimate) in root.iter_mut().zip(statics) {
        if !m.searched && !is_mate(estimate) {
            // Not proved lost, so never below a proved loss.
            m.score = estimate.min(lowest - 1).max(-MATE_THRESHOLD + 1);
        }
    }
}

/// The highest score, lowest index among equals.
fn choose(root: &[RootMove]) -> usize {
    let mut best = 0;
    for (i, m) in root.iter().enumerate() {
        if m.score > root[best].score {
            best = i;
        }
    }
    best
}

/// Decides which scores are proved.
struct Judge {
    restricted: bool,
    empties: usize,
}

impl Judge {
    /// The proved outcome and length of a root move's score, if any.
    fn verdict(&self, score: i32, depth_done: u32) -> Option<(Outcome, u32)> {
        let plies = plies_of_mate(score);
        // Short results are exact even where the search skips cells: a win
        // in 1 or a loss in 2 is seen directly, so a win found in 3 or a
        // loss found in 4 cannot hide a faster one.
        let certain_anywhere = plies <= 4;
        if is_mate(score) && (certain_anywhere || !self.restricted) {
            let outcome = if score > 0 { Outcome::Win } else { Outcome::Loss };
            return Some((outcome, plies));
        }
        let searched_to_the_end = !self.restricted && depth_done as usize >= self.empties;
        (searched_to_the_end && score == 0).then_some((Outcome::Draw, self.empties as u32))
    }

    /// Nothing more to learn: every move proved, or a proved win found on
    /// a board where proving the other moves would cost too much.
    fn finished(&self, root: &[RootMove], depth_done: u32) -> bool {
        let best = &root[choose(root)];
        let best_proved_win = best.score > 0 && self.verdict(best.score, depth_done).is_some();
        let all_proved = root.iter().all(|m| self.verdict(m.score, depth_done).is_some());
        all_proved || (best_proved_win && self.empties > PROVE_EVERY_MOVE_EMPTIES)
    }
}

/// The chosen move, then the best replies, at most `depth` moves in all.
/// Boards searched over every empty cell pick each reply as the root does
/// (a search of every move, cheap with the memo warm, so the line is
/// optimal and follows the tie rule); big boards, and any board once the
/// limits have run out, follow the memo's moves. Stops where nothing is
/// known.
fn principal_variation(search: &mut Search, first: usize, depth: u32, restricted: bool) -> Vec<usize> {
    let mut line = vec![first];
    let mut over = search.game.board.play(first) || search.game.board.is_full();
    while !over && (line.len() as u32) < depth {
        let remaining = depth - line.len() as u32;
        let searched = if restricted || search.stopped {
            None
        } else {
            searched_reply(search, remaining)
        };
        let next = searched.or_else(|| remembered_reply(search));
        match next {
            Some(cell) if search.game.board.is_empty_cell(cell) => {
                line.push(cell);
                over = search.game.board.play(cell) || search.game.board.is_full();
            }
            _ => break,
        }
    }
    for &cell in line.iter().rev() {
        search.game.board.undo(cell);
    }
    line
}

/// The best move by a search of every move to `depth`, lowest index among
/// equals; None if the limits ran out.
fn searched_reply(search: &mut Search, depth: u32) -> Option<usize> {
    let mut best: Option<(i32, usize)> = None;
    for cell in 0..search.game.board.geo.cells {
        if search.game.board.is_empty_cell(cell) {
            let score = root_move(search, cell, depth, -INFINITY);
            if search.stopped {
                return None;
            }
            if best.is_none_or(|(top, _)| score > top) {
                best = Some((score, cell));
            }
        }
    }
    best.map(|(_, cell)| cell)
}

/// A winning move if there is one, else the memo's move, else the forced
/// block.
fn remembered_reply(search: &mut Search) -> Option<usize> {
    let me = search.game.board.to_move;
    let mut cells = Vec::new();
    search.game.board.winning_cells(me, &mut cells);
    if let Some(&win) = cells.first() {
        return Some(win as usize);
    }
    search.game.stored_move().or_else(|| {
        search.game.board.winning_cells(1 - me, &mut cells);
        cells.first().map(|&c| c as usize)
    })
}
