//! The m,n,k board under the generic alpha-beta ([`AlphaBeta`]): its move
//! order, its verdicts that need no search, its horizon estimate and its
//! memo entries, keyed by the board's canonical image.
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

use crate::solve::alphabeta::{AlphaBeta, Bound, Horizon, Opening, Remembered, Score, Step, TO_THE_END};
use crate::solve::memo::BoundedMemo;

use super::board::{BoardKey, SearchBoard, HEURISTIC_CAP, INFINITY, MATE_THRESHOLD, WIN};

/// Restricted nodes search at most this many candidates, plus every move
/// that makes a threat (those decide tactics and must not be cut).
const BEAM: usize = 12;
const NO_MOVE: u16 = u16::MAX;
/// Nodes with less remaining depth than this skip the memo.
const MEMO_MIN_DEPTH: u32 = 3;
/// Marks a threat-making move while sorting (cells are below 361).
const THREAT_FLAG: u16 = 1 << 14;

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

/// One search of a tic-tac-toe position.
pub type Search<'a> = AlphaBeta<'a, Cells<'a>>;

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

/// A proved win or loss holds at any depth.
fn proved(entry: &MemoEntry) -> bool {
    let proved_win = entry.score >= MATE_THRESHOLD && entry.bound != Bound::Upper;
    let proved_loss = entry.score <= -MATE_THRESHOLD && entry.bound != Bound::Lower;
    proved_win || proved_loss
}

fn win_in(plies: u32) -> i32 {
    WIN - plies as i32
}

fn loss_in(plies: u32) -> i32 {
    -win_in(plies)
}

/// Scores stay within `INFINITY`, which fits an `i32`.
fn narrow(value: i64) -> i32 {
    value.clamp(-i64::from(INFINITY), i64::from(INFINITY)) as i32
}

/// The board under search and where its results are remembered.
pub struct Cells<'a> {
    pub board: SearchBoard<'a>,
    memo: &'a Memo,
    /// Move lists reused per ply, to avoid allocating at every node.
    buffers: Vec<Vec<(i32, u16)>>,
    cells_scratch: Vec<u16>,
}

/// How a node hands out its moves: the one forced block, or every
/// candidate ordered when the first is asked for.
pub struct CellOrder {
    block: Option<u16>,
    restricted: bool,
    moves: Option<Vec<(i32, u16)>>,
    next: usize,
}

impl<'a> Cells<'a> {
    pub fn new(board: SearchBoard<'a>, memo: &'a Memo) -> Cells<'a> {
        Cells {
            board,
            memo,
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
    fn horizon_score(&mut self, ply: u32) -> i32 {
        match self.quick_verdict(ply, -INFINITY, INFINITY) {
            Err(score) => score,
            Ok(_) => self.board.heuristic(),
        }
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

    /// The memo's best move for the current position, in real coordinates.
    pub fn stored_move(&self) -> Option<usize> {
        let (key, symmetry) = self.memo_key();
        let entry = self.memo.get(&key)?;
        (entry.best != NO_MOVE).then(|| self.board.geo.inverses[symmetry][entry.best as usize] as usize)
    }
}

impl Horizon for Cells<'_> {
    type Move = u16;
    type Key = (MemoKey, usize);
    type Node = CellOrder;

    const NULL_WINDOW_SIBLINGS: bool = false;
    const KEEPS_LINES: bool = false;

    fn horizon(&mut self, ply: u32) -> Score {
        Score::estimate(i64::from(self.horizon_score(ply)))
    }

    fn clamp_depth(&self, depth: u32) -> u32 {
        depth.min(self.board.empties() as u32)
    }

    fn open(&mut self, _depth: u32, ply: u32, alpha: i64, beta: i64) -> Opening<CellOrder> {
        let block = match self.quick_verdict(ply, narrow(alpha), narrow(beta)) {
            Err(score) => return Opening::Settled(Score::estimate(i64::from(score))),
            Ok(block) => block,
        };
        let they_can_win = self.board.can_still_win(1 - self.board.to_move);
        let restricted = block.is_none() && self.board.geo.restricts(self.board.empties());
        // Values no move has to beat: see the module notes.
        let mut floor = -INFINITY;
        if restricted {
            floor = -HEURISTIC_CAP;
        }
        if !they_can_win {
            floor = floor.max(0);
        }
        let node = CellOrder {
            block,
            restricted,
            moves: None,
            next: 0,
        };
        Opening::Search {
            node,
            floor: i64::from(floor),
        }
    }

    fn key(&self, depth: u32) -> Option<(MemoKey, usize)> {
        // Near the horizon a search is cheaper than a memo round trip.
        (depth >= MEMO_MIN_DEPTH).then(|| self.memo_key())
    }

    fn recall(&mut self, (key, symmetry): &(MemoKey, usize), _depth: u32, ply: u32) -> Option<Remembered<u16>> {
        let entry = self.memo.get(key)?;
        Some(Remembered {
            value: i64::from(from_memo(entry.score, ply)),
            bound: entry.bound,
            depth: if proved(&entry) {
                TO_THE_END
            } else {
                u32::from(entry.depth)
            },
            best: (entry.best != NO_MOVE).then(|| self.board.geo.inverses[*symmetry][entry.best as usize]),
        })
    }

    fn remember(
        &mut self,
        (key, symmetry): (MemoKey, usize),
        found: Remembered<u16>,
        _complete: bool,
        ply: u32,
        before: Option<Remembered<u16>>,
    ) {
        if before.is_some_and(|old| old.bound == Bound::Exact && old.depth > found.depth) {
            return;
        }
        let entry = MemoEntry {
            score: to_memo(narrow(found.value), ply),
            depth: found.depth as u16,
            bound: found.bound,
            best: found
                .best
                .map_or(NO_MOVE, |cell| self.board.geo.symmetries[symmetry][cell as usize]),
        };
        self.memo.insert(key, entry);
    }

    fn next_move(&mut self, order: &mut CellOrder, ply: u32, remembered: Option<u16>) -> Option<u16> {
        if order.moves.is_none() {
            let moves = match order.block {
                Some(cell) => vec![(0, cell)],
                None => self.ordered_moves(ply as usize, remembered, order.restricted),
            };
            order.moves = Some(moves);
        }
        let cell = order.moves.as_ref()?.get(order.next)?.1;
        order.next += 1;
        Some(cell)
    }

    fn close(&mut self, order: CellOrder, ply: u32) {
        if let (Some(moves), Some(slot)) = (order.moves, self.buffers.get_mut(ply as usize)) {
            *slot = moves;
        }
    }

    fn play(&mut self, cell: u16, ply: u32) -> Step {
        if self.board.play(cell as usize) {
            Step::Ends(i64::from(win_in(ply + 1)))
        } else if self.board.is_full() {
            Step::Ends(0)
        } else {
            Step::Continues(0)
        }
    }

    fn undo(&mut self, cell: u16) {
        self.board.undo(cell as usize);
    }
}

/// Score of the root move `cell` searched to `depth` plies in all
/// (including the move itself), from the root mover's point of view.
/// Fails low (returns an upper bound <= `alpha`) when it cannot beat
/// `alpha`; pass `-INFINITY` for an exact value.
pub fn root_move(search: &mut Search, cell: usize, depth: u32, alpha: i32) -> i32 {
    search.count_node();
    narrow(
        search
            .search_move(cell as u16, depth, 0, i64::from(alpha), i64::from(INFINITY))
            .value,
    )
}

/// Estimate of root move `cell` from a one-ply look, never interrupted
/// (the answer of last resort when the limits allow nothing more).
pub fn static_move(search: &mut Search, cell: usize) -> i32 {
    search.nodes += 1;
    let cells = &mut search.game;
    let won = cells.board.play(cell);
    let score = if won {
        win_in(1)
    } else if cells.board.is_full() {
        0
    } else {
        -cells.horizon_score(1)
    };
    cells.board.undo(cell);
    score
}

pub fn plies_of_mate(score: i32) -> u32 {
    (WIN - score.abs()) as u32
}
