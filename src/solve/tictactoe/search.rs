//! Negamax with alpha-beta over a [`SearchBoard`], sharing a memo of
//! bounded results with every other search.
//!
//! What a node's value means: the best score for the mover found by this
//! procedure at the given remaining depth. Wins and losses are only ever
//! reported when they are certain:
//! - a node searched over every empty cell (full width), or a node where the
//!   mover must block (every other move loses at once), takes the maximum
//!   over its children, so a loss there is a real loss;
//! - a node on a big board, searched only near the stones, also counts an
//!   unseen move worth `-HEURISTIC_CAP` ("probably bad, not proved"), so it
//!   can report a win it found but never a loss;
//! - horizon nodes return an estimate, except for the two facts that need no
//!   search: the mover can win at once, or the opponent has two winning
//!   cells and the mover none.
//!
//! Likewise a node whose opponent can no longer complete any line is worth
//! at least a draw, and one whose mover cannot is worth at most a draw.

use crate::solve::limits::SearchLimits;
use crate::solve::memo::BoundedMemo;

use super::board::{BoardKey, SearchBoard, HEURISTIC_CAP, INFINITY, MATE_THRESHOLD, WIN};

/// Check the clock and the node budget this often: a node on a 19x19 board
/// costs about 10 microseconds, so the deadline is overrun by about 3 ms.
const CHECK_EVERY: u64 = 256;
/// Restricted nodes search at most this many candidates, plus every move
/// that makes a threat (those decide tactics and must not be cut).
const BEAM: usize = 12;
const NO_MOVE: u16 = u16::MAX;
/// Nodes with less remaining depth than this skip the memo.
const MEMO_MIN_DEPTH: u32 = 3;
/// Marks a threat-making move while sorting (cells are below 361).
const THREAT_FLAG: u16 = 1 << 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least the stored score.
    Lower,
    /// The value is at most the stored score.
    Upper,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemoKey {
    pub rows: u8,
    pub cols: u8,
    pub k: u8,
    pub board: BoardKey,
}

/// A searched position: its score relative to the node (a win in p plies
/// from the node is `WIN - p`), how it bounds the value, the remaining depth
/// searched, and the best move found in canonical coordinates.
#[derive(Clone, Copy, Debug)]
pub struct MemoEntry {
    pub score: i32,
    pub depth: u16,
    pub bound: Bound,
    pub best: u16,
}

pub type Memo = BoundedMemo<MemoKey, MemoEntry>;

pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_THRESHOLD
}

/// Root-relative score to node-relative, for storing.
fn to_memo(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= MATE_THRESHOLD {
        score + ply
    } else if score <= -MATE_THRESHOLD {
        score - ply
    } else {
        score
    }
}

fn from_memo(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= MATE_THRESHOLD {
        score - ply
    } else if score <= -MATE_THRESHOLD {
        score + ply
    } else {
        score
    }
}

/// A stored result answers a search to `depth` if it was searched at least
/// as deep, or if it is a proved win or loss (those hold at any depth).
fn answers(entry: &MemoEntry, depth: u32) -> bool {
    let proved_win = entry.score >= MATE_THRESHOLD && entry.bound != Bound::Upper;
    let proved_loss = entry.score <= -MATE_THRESHOLD && entry.bound != Bound::Lower;
    entry.depth as u32 >= depth || proved_win || proved_loss
}

fn win_in(plies: u32) -> i32 {
    WIN - plies as i32
}

fn loss_in(plies: u32) -> i32 {
    -win_in(plies)
}

pub struct Search<'a> {
    pub board: SearchBoard<'a>,
    memo: &'a Memo,
    limits: &'a SearchLimits,
    pub nodes: u64,
    pub stopped: bool,
    /// Move lists reused per ply, to avoid allocating at every node.
    buffers: Vec<Vec<(i32, u16)>>,
    cells_scratch: Vec<u16>,
}

impl<'a> Search<'a> {
    pub fn new(board: SearchBoard<'a>, memo: &'a Memo, limits: &'a SearchLimits) -> Search<'a> {
        Search {
            board,
            memo,
            limits,
            nodes: 0,
            stopped: false,
            buffers: Vec::new(),
            cells_scratch: Vec::new(),
        }
    }

    pub fn memo_key(&self) -> (MemoKey, usize) {
        let geo = self.board.geo;
        let (board, symmetry) = self.board.canonical();
        let key = MemoKey {
            rows: geo.rows as u8,
            cols: geo.cols as u8,
            k: geo.k as u8,
            board,
        };
        (key, symmetry)
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.limits.exhausted(self.nodes) {
            self.stopped = true;
        }
    }

    /// Score of the root move `cell` searched to `depth` plies in all
    /// (including the move itself), from the root mover's point of view.
    /// Fails low (returns an upper bound <= `alpha`) when it cannot beat
    /// `alpha`; pass `-INFINITY` for an exact value.
    pub fn root_move(&mut self, cell: usize, depth: u32, alpha: i32) -> i32 {
        self.count_node();
        let won = self.board.play(cell);
        let score = if won {
            win_in(1)
        } else if self.board.is_full() {
            0
        } else {
            -self.negamax(depth.saturating_sub(1), 1, -INFINITY, -alpha)
        };
        self.board.undo(cell);
        score
    }

    /// The verdicts that need no search, shared by inner and horizon nodes:
    /// the mover wins at once; nobody can win any more; the window already
    /// excludes a value capped at a draw; or the opponent has two winning
    /// cells. Also returns whether the mover must block, and where.
    fn quick_verdict(&mut self, ply: u32, alpha: i32, beta: i32) -> Result<Option<u16>, i32> {
        let me = self.board.to_move;
        let them = 1 - me;
        if self.board.has_threat(me) {
            return Err(win_in(ply + 1));
        }
        let i_can_win = self.board.can_still_win(me);
        let they_can_win = self.board.can_still_win(them);
        // Nobody can win: a draw. Only one side can: the value is capped
        // at a draw on that side, which may already settle the window.
        let capped_above = !i_can_win && (!they_can_win || alpha >= 0);
        let capped_below = !they_can_win && beta <= 0;
        if capped_above || capped_below {
            return Err(0);
        }
        if !self.board.has_threat(them) {
            return Ok(None);
        }
        let mut blocks = std::mem::take(&mut self.cells_scratch);
        self.board.winning_cells(them, &mut blocks);
        let verdict = match blocks.as_slice() {
            [] => Ok(None),
            [cell] => Ok(Some(*cell)),
            // Block one, the opponent completes another.
            _ => Err(loss_in(ply + 2)),
        };
        self.cells_scratch = blocks;
        verdict
    }

    /// A node at the search horizon: a certain verdict, else the estimate.
    fn horizon(&mut self, ply: u32) -> i32 {
        match self.quick_verdict(ply, -INFINITY, INFINITY) {
            Err(score) => score,
            Ok(_) => self.board.heuristic(),
        }
    }

    /// Estimate of root move `cell` from a one-ply look, never interrupted
    /// (the answer of last resort when the limits allow nothing more).
    pub fn static_move(&mut self, cell: usize) -> i32 {
        self.nodes += 1;
        let won = self.board.play(cell);
        let score = if won {
            win_in(1)
        } else if self.board.is_full() {
            0
        } else {
            -self.horizon(1)
        };
        self.board.undo(cell);
        score
    }

    fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let depth = depth.min(self.board.empties() as u32);
        if depth == 0 {
            return self.horizon(ply);
        }
        let single_block = match self.quick_verdict(ply, alpha, beta) {
            Err(score) => return score,
            Ok(block) => block,
        };
        let forced = single_block.is_some();
        let they_can_win = self.board.can_still_win(1 - self.board.to_move);
        let empties = self.board.empties();
        // Near the horizon a search is cheaper than a memo round trip.
        let memo_slot = (depth >= MEMO_MIN_DEPTH).then(|| self.memo_key());
        let stored = memo_slot.as_ref().and_then(|(key, _)| self.memo.get(key));
        let symmetry = memo_slot.as_ref().map_or(0, |slot| slot.1);
        let mut memo_move = None;
        if let Some(entry) = stored {
            if answers(&entry, depth) {
                let score = from_memo(entry.score, ply);
                let settled = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if settled {
                    return score;
                }
            }
            if entry.best != NO_MOVE {
                memo_move = Some(self.board.geo.inverses[symmetry][entry.best as usize]);
            }
        }

        let alpha_in = alpha;
        let restricted = !forced && self.board.geo.restricts(empties);
        // Values no move has to beat: see the module notes.
        let mut best = -INFINITY;
        if restricted {
            best = -HEURISTIC_CAP;
        }
        if !they_can_win {
            best = best.max(0);
        }
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);

        let moves = match single_block {
            Some(cell) => vec![(0, cell)],
            None => self.ordered_moves(ply as usize, memo_move, restricted),
        };
        let mut best_move = NO_MOVE;
        for &(_, cell) in &moves {
            let cell = cell as usize;
            let won = self.board.play(cell);
            let score = if won {
                win_in(ply + 1)
            } else if self.board.is_full() {
                0
            } else {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha)
            };
            self.board.undo(cell);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = cell as u16;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.return_buffer(ply as usize, moves);
        if self.stopped {
            return 0;
        }

        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let keep_old = stored.is_some_and(|old| old.bound == Bound::Exact && old.depth as u32 > depth);
        if let (false, Some((key, _))) = (keep_old, memo_slot) {
            let best_canonical = if best_move == NO_MOVE {
                NO_MOVE
            } else {
                self.board.geo.symmetries[symmetry][best_move as usize]
            };
            let entry = MemoEntry {
                score: to_memo(best, ply),
                depth: depth as u16,
                bound,
                best: best_canonical,
            };
            self.memo.insert(key, entry);
        }
        best
    }

    /// The moves to try, best first: the memo's move, then by priority.
    /// Restricted nodes keep only cells near stones, at most `BEAM` of them
    /// plus every threat-making move.
    fn ordered_moves(&mut self, ply: usize, memo_move: Option<u16>, restricted: bool) -> Vec<(i32, u16)> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let mut cells = std::mem::take(&mut self.cells_scratch);
        if restricted {
            self.board.near_cells(&mut cells);
        } else {
            cells.clear();
            cells.extend((0..self.board.geo.cells as u16).filter(|&c| self.board.is_empty_cell(c as usize)));
        }
        // Threat-making moves survive the beam; a flag bit in the cell
        // carries that through the sort.
        for &cell in &cells {
            let (priority, threat) = self.board.move_priority(cell as usize);
            let priority = if Some(cell) == memo_move { i32::MAX } else { priority };
            moves.push((priority, cell | if threat { THREAT_FLAG } else { 0 }));
        }
        self.cells_scratch = cells;
        // Highest priority first; equal priorities by lowest index.
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then((a.1 & !THREAT_FLAG).cmp(&(b.1 & !THREAT_FLAG))));
        if restricted && moves.len() > BEAM {
            let mut kept = 0;
            moves.retain(|&(_, cell)| {
                kept += 1;
                kept <= BEAM || cell & THREAT_FLAG != 0
            });
        }
        for m in moves.iter_mut() {
            m.1 &= !THREAT_FLAG;
        }
        moves
    }

    fn return_buffer(&mut self, ply: usize, moves: Vec<(i32, u16)>) {
        if let Some(slot) = self.buffers.get_mut(ply) {
            *slot = moves;
        }
    }

    /// The memo's best move for the current position, in real coordinates.
    pub fn stored_move(&self) -> Option<usize> {
        let (key, symmetry) = self.memo_key();
        let entry = self.memo.get(&key)?;
        (entry.best != NO_MOVE).then(|| self.board.geo.inverses[symmetry][entry.best as usize] as usize)
    }
}

pub fn plies_of_mate(score: i32) -> u32 {
    (WIN - score.abs()) as u32
}
