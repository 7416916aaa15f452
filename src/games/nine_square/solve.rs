//! Strategy `best` for Nine Square: a search that plans around the dice.
//!
//! Near the end of the game (few empty cells) the position is solved exactly
//! by the generic expectimax ([`crate::solve::expectimax`]): the mover picks
//! the best set of cells for the roll, every later roll is averaged over its
//! six faces. Otherwise it runs Monte Carlo
//! tree search over single placements: a decision node is one placement by
//! the player whose turn it is, a chance node is the next player's roll.
//! Children are opened best-first by a line-counting heuristic (progressive
//! widening), and leaves are valued by playing the game out with a fast
//! policy that completes its own lines, blocks the opponent's and otherwise
//! builds where it has the most open lines. The turn's placements are chosen
//! one at a time, each with its share of the budget, keeping the subtree.
//!
//! Everything random comes from one `StdRng` seeded by the caller, so a
//! search limited by nodes (not by time) is repeatable.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{
    cells_of, line_len, lines_through, Board, Coord, NineSquareMove, NineSquareState, Player, Position, Turn,
    BOX_LINES, CELLS, DIE_FACES, GRID_LINE_POINTS,
};
use crate::core::evaluation::Evaluation;
use crate::core::game::{self, GameOutcome, Turn as GameTurn};
use crate::review::margin_points;
use crate::solve::expectimax::{ExactSearch, Expectimax};
use crate::solve::limits::SearchLimits;
use crate::solve::Progress;

/// The win chance's scale in points of margin: twice a line of nine's
/// bonus. A lead of two lines of nine is worth 0.88 of the game; a box line
/// (1 point) given away at an even position is a mistake, a line of nine
/// (3 points) a blunder (answers, reviews and the levels read it).
pub const MARGIN_SCALE: f64 = 2.0 * GRID_LINE_POINTS as f64;

/// An expected final margin on the one evaluation scale. Never exact: the
/// search maximises the margin expected over the dice, not the chance to
/// win, so even a proved expectation only estimates that chance.
pub fn evaluation(expected_margin: f64) -> Evaluation {
    Evaluation::chance(margin_points(expected_margin, MARGIN_SCALE), false)
}

/// The search's answer for one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Exactly `position.placements_due()` distinct empty cells, in the order
    /// the search chose them.
    pub placements: Vec<Coord>,
    /// The mover's expected final margin (own points minus the opponent's)
    /// after these placements, under the search's model of both players.
    pub expected_margin: f64,
    /// True when the placements and the margin are exact (the endgame was
    /// solved by expectimax over every roll).
    pub solved: bool,
    /// Positions visited (tree nodes, playout placements, endgame nodes).
    pub nodes: u64,
}

/// Endgames with at most this many empty cells are solved exactly. The
/// exact search visits about 2 * 4^empty positions: ~0.5 M at 9.
pub const EXACT_MAX_EMPTY: usize = 9;

/// The tree stops growing beyond this many nodes (memory bound for long
/// budgets); the search then keeps refining the statistics it has.
const MAX_TREE_NODES: usize = 200_000;

/// Exploration weight, in points of margin.
const EXPLORATION: f64 = 4.0;

/// Progressive widening: a decision node visited n times may have
/// `WIDEN_BASE + WIDEN_RATE * sqrt(n)` children.
const WIDEN_BASE: f64 = 1.0;
const WIDEN_RATE: f64 = 0.5;

/// Random cells a playout compares when it has nothing urgent to do.
const PLAYOUT_SAMPLES: usize = 16;

/// Chooses the placements for `position`'s turn. `seed` makes the search
/// repeatable when `limits` stops it by node count.
pub fn best_placements(position: &Position, limits: &SearchLimits, seed: u64) -> SearchResult {
    best_placements_reporting(position, limits, seed, None)
}

/// What a given turn is worth: see [`value_after`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valuation {
    /// The mover's expected final margin, the opponent rolling next, under
    /// the search's model of both players (the same measure as
    /// [`SearchResult::expected_margin`]).
    pub expected_margin: f64,
    /// True when the margin is exact (expectimax over every roll).
    pub solved: bool,
    pub nodes: u64,
}

/// The value of a turn already played: `board` is the grid after `mover`'s
/// placements, and the opponent rolls next. Exact when at most
/// [`EXACT_MAX_EMPTY`] cells are left and the limits allow; otherwise the
/// tree search from that roll on, so that a given turn and the search's own
/// choice ([`best_placements`]) are valued alike. A review sets the two side
/// by side.
pub fn value_after(board: &Board, mover: Player, limits: &SearchLimits, seed: u64) -> Valuation {
    if board.is_full() {
        return Valuation {
            expected_margin: f64::from(board.score().margin_for(mover)),
            solved: true,
            nodes: 0,
        };
    }
    let mut nodes = 0;
    if board.empty_count() <= EXACT_MAX_EMPTY {
        let cells = EndgameCells::new(board);
        let state = EndgameState::new(NineSquareState::before_roll(*board, mover.opponent()), &cells);
        let mut search = ExactSearch::new(limits);
        let value_x = search.value(&state);
        nodes = search.nodes();
        if let Some(value_x) = value_x {
            return Valuation {
                expected_margin: signed(value_x, mover),
                solved: true,
                nodes,
            };
        }
    }
    Mcts::after_turn(board, mover, seed).estimate(limits, nodes)
}

/// How often the sampling search reports how it stands.
pub const REPORT_EVERY: Duration = Duration::from_millis(250);

/// [`best_placements`], reporting the sampling search's current choice
/// every [`REPORT_EVERY`]: the placements already decided, then the most
/// visited cells after them as far as the tree reaches (so a report may
/// hold fewer placements than the turn is due). The exact endgame, which
/// takes well under a second, is not reported on. The reports do not
/// change the search.
pub fn best_placements_reporting(
    position: &Position,
    limits: &SearchLimits,
    seed: u64,
    progress: Progress<'_, SearchResult>,
) -> SearchResult {
    let mut nodes = 0;
    if position.board().empty_count() <= EXACT_MAX_EMPTY {
        if let Some(result) = solve_endgame(position, limits, &mut nodes) {
            return result;
        }
    }
    Mcts::new(position, seed).run(limits, nodes, progress)
}

// ---------------------------------------------------------------------------
// Heuristic

// The heuristic is the seed's greedy by line with blocking added: a cell is
// worth 1 for every line through it still free of the opponent's marks, a
// lot for completing a line (the point is certain) and almost as much for
// blocking a line the opponent would complete. Tuning showed that playouts
// in which both sides play like this (territory: build where the lines are
// still open) value positions much better than playouts that reward
// clustering or spoiling, and that the search does the planning best itself.
const OPEN_LINE: i32 = 1;
const COMPLETE_BOX: i32 = 100;
const BLOCK_BOX: i32 = 80;
/// A line of nine's last cell also completes (or blocks) a box line, so
/// these add to the box weights.
const COMPLETE_GRID: i32 = 300;
const BLOCK_GRID: i32 = 240;

/// How good it is for `player` to mark the empty `cell`.
#[inline]
fn cell_priority(board: &Board, cell: usize, player: Player) -> i32 {
    let p = player.seat();
    let q = 1 - p;
    let mut score = 0;
    for &line in lines_through(cell) {
        let line = usize::from(line);
        let own = board.count(p, line);
        let opp = board.count(q, line);
        let last = line_len(line) - 1;
        let is_box = line < BOX_LINES;
        score += if opp == 0 {
            match (own == last, is_box) {
                (true, true) => COMPLETE_BOX,
                (true, false) => COMPLETE_GRID,
                (false, _) => OPEN_LINE,
            }
        } else if own == 0 && opp == last {
            if is_box {
                BLOCK_BOX
            } else {
                BLOCK_GRID
            }
        } else {
            0
        };
    }
    score
}

/// The empty cell of a box line with exactly one empty cell.
#[inline]
fn last_empty_cell(board: &Board, line: usize) -> Option<usize> {
    cells_of(line)
        .iter()
        .map(|&c| usize::from(c))
        .find(|&c| board.mark_at(c) == 0)
}

// ---------------------------------------------------------------------------
// Playouts

/// A board being played out, with its empty cells kept in a list so a random
/// empty cell costs O(1).
struct Playout {
    board: Board,
    empties: [u8; CELLS],
    slot: [u8; CELLS],
    len: usize,
}

impl Playout {
    fn new(board: &Board) -> Playout {
        let mut playout = Playout {
            board: *board,
            empties: [0; CELLS],
            slot: [0; CELLS],
            len: 0,
        };
        for cell in 0..CELLS {
            if board.mark_at(cell) == 0 {
                playout.empties[playout.len] = cell as u8;
                playout.slot[cell] = playout.len as u8;
                playout.len += 1;
            }
        }
        playout
    }

    fn place(&mut self, cell: usize, player: Player) {
        self.board.place_index(cell, player);
        let slot = usize::from(self.slot[cell]);
        self.len -= 1;
        let moved = self.empties[self.len];
        self.empties[slot] = moved;
        self.slot[usize::from(moved)] = slot as u8;
    }

    /// Plays to the end from `turn`; returns the final margin for X and
    /// adds the placements made to `nodes`.
    fn run(&mut self, turn: Turn, rng: &mut StdRng, nodes: &mut u64) -> i32 {
        let (mut player, mut left) = match turn {
            Turn::Over => return self.board.margin_x(),
            Turn::Place { player, left } => (player, left),
            Turn::Roll(player) => (player, roll(rng)),
        };
        loop {
            let due = usize::from(left).min(self.len);
            for _ in 0..due {
                let cell = self.pick(player, rng);
                self.place(cell, player);
            }
            *nodes += due as u64;
            if self.len == 0 {
                return self.board.margin_x();
            }
            player = player.opponent();
            left = roll(rng);
        }
    }

    /// The playout policy: complete an own box line, else block one of the
    /// opponent's, else the best of a few random empty cells.
    fn pick(&self, player: Player, rng: &mut StdRng) -> usize {
        if let Some(cell) = self.urgent_cell(player) {
            return cell;
        }
        let mut best = usize::from(self.empties[rng.gen_range(0..self.len)]);
        let mut best_score = cell_priority(&self.board, best, player);
        for _ in 1..PLAYOUT_SAMPLES.min(self.len) {
            let cell = usize::from(self.empties[rng.gen_range(0..self.len)]);
            let score = cell_priority(&self.board, cell, player);
            if score > best_score {
                best = cell;
                best_score = score;
            }
        }
        best
    }

    fn urgent_cell(&self, player: Player) -> Option<usize> {
        let p = player.seat();
        let q = 1 - p;
        let mut block = None;
        for line in 0..BOX_LINES {
            let own = self.board.count(p, line);
            let opp = self.board.count(q, line);
            if own == 2 && opp == 0 {
                return last_empty_cell(&self.board, line);
            }
            if opp == 2 && own == 0 && block.is_none() {
                block = Some(line);
            }
        }
        block.and_then(|line| last_empty_cell(&self.board, line))
    }
}

fn roll(rng: &mut StdRng) -> u8 {
    rng.gen_range(1..=DIE_FACES)
}

// ---------------------------------------------------------------------------
// Monte Carlo tree search

type NodeId = u32;

enum NodeKind {
    /// `player` places one mark; `left` marks (this one included) remain in
    /// the turn. `candidates` (empty cells, best first) are computed on the
    /// second visit; `children` follow their order.
    Decision {
        player: Player,
        left: u8,
        candidates: Vec<u8>,
        children: Vec<(u8, NodeId)>,
    },
    /// `roller` rolls; child i follows a roll of i + 1.
    Chance {
        roller: Player,
        children: [Option<NodeId>; DIE_FACES as usize],
    },
    Terminal,
}

struct Node {
    visits: u32,
    /// Sum of the final margins for X seen through this node.
    margin_sum: f64,
    kind: NodeKind,
}

impl Node {
    fn new(kind: NodeKind) -> Node {
        Node {
            visits: 0,
            margin_sum: 0.0,
            kind,
        }
    }

    fn mean_for(&self, player: Player) -> f64 {
        let mean_x = self.margin_sum / f64::from(self.visits.max(1));
        match player {
            Player::X => mean_x,
            Player::O => -mean_x,
        }
    }
}

struct Mcts {
    root_board: Board,
    player: Player,
    due: usize,
    nodes: Vec<Node>,
    /// The current descent's nodes (kept to reuse its allocation).
    path: Vec<NodeId>,
    rng: StdRng,
}

impl Mcts {
    fn new(position: &Position, seed: u64) -> Mcts {
        let due = position.placements_due();
        let root = Node::new(NodeKind::Decision {
            player: position.player(),
            left: due as u8,
            candidates: Vec::new(),
            children: Vec::new(),
        });
        Mcts {
            root_board: *position.board(),
            player: position.player(),
            due,
            nodes: vec![root],
            path: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// A tree whose root is the opponent's roll after `mover`'s turn on
    /// `board` (not full): for valuing that turn.
    fn after_turn(board: &Board, mover: Player, seed: u64) -> Mcts {
        let root = Node::new(NodeKind::Chance {
            roller: mover.opponent(),
            children: [None; DIE_FACES as usize],
        });
        Mcts {
            root_board: *board,
            player: mover,
            due: 0,
            nodes: vec![root],
            path: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Grows the tree until the limits run out; the root's mean margin for
    /// the mover (the board's margin if there was no time for a descent).
    fn estimate(mut self, limits: &SearchLimits, mut nodes: u64) -> Valuation {
        let board = self.root_board;
        while !limits.exhausted(nodes) {
            nodes += self.iterate(0, &board);
        }
        let root = &self.nodes[0];
        let expected_margin = if root.visits > 0 {
            root.mean_for(self.player)
        } else {
            f64::from(board.score().margin_for(self.player))
        };
        Valuation {
            expected_margin,
            solved: false,
            nodes,
        }
    }

    fn run(mut self, limits: &SearchLimits, mut nodes: u64, mut progress: Progress<'_, SearchResult>) -> SearchResult {
        let mut root: NodeId = 0;
        let mut board = self.root_board;
        let mut placements = Vec::with_capacity(self.due);
        let mut next_report = Instant::now() + REPORT_EVERY;
        for step in 0..self.due {
            let steps_left = (self.due - step) as u64;
            let node_target = nodes + limits.max_nodes().saturating_sub(nodes) / steps_left;
            let now = Instant::now();
            let time_target = now + limits.deadline().saturating_duration_since(now) / steps_left as u32;
            while nodes < node_target && Instant::now() < time_target && !limits.exhausted(nodes) {
                nodes += self.iterate(root, &board);
                if let Some(report) = progress.as_deref_mut() {
                    if Instant::now() >= next_report {
                        report(&self.provisional(root, &placements, nodes));
                        next_report = Instant::now() + REPORT_EVERY;
                    }
                }
            }
            let (cell, child) = self.choose(root, &board);
            board.place_index(cell, self.player);
            placements.push(Coord::from_index(cell));
            root = match child {
                Some(child) => child,
                None => {
                    let kind = self.kind_after_placement(&board, self.player, (self.due - step) as u8);
                    self.push(kind)
                }
            };
        }
        let expected_margin = if self.nodes[root as usize].visits > 0 {
            self.nodes[root as usize].mean_for(self.player)
        } else {
            f64::from(board.score().margin_for(self.player))
        };
        SearchResult {
            placements,
            expected_margin,
            solved: false,
            nodes,
        }
    }

    /// How the search stands: `placements` decided so far, then from
    /// `root` the most visited cells while the tree has them.
    fn provisional(&self, root: NodeId, placements: &[Coord], nodes: u64) -> SearchResult {
        let mut placements = placements.to_vec();
        let mut id = root;
        while placements.len() < self.due {
            let NodeKind::Decision { children, .. } = &self.nodes[id as usize].kind else {
                break;
            };
            let Some(&(cell, child)) = children
                .iter()
                .max_by_key(|&&(_, child)| self.nodes[child as usize].visits)
            else {
                break;
            };
            placements.push(Coord::from_index(usize::from(cell)));
            id = child;
        }
        let node = &self.nodes[id as usize];
        let node = if node.visits > 0 {
            node
        } else {
            &self.nodes[root as usize]
        };
        SearchResult {
            placements,
            expected_margin: node.mean_for(self.player),
            solved: false,
            nodes,
        }
    }

    /// The most visited child of a decision node, or the heuristic's first
    /// choice when the budget allowed no visit.
    fn choose(&mut self, id: NodeId, board: &Board) -> (usize, Option<NodeId>) {
        self.ensure_candidates(id, board);
        let NodeKind::Decision {
            candidates, children, ..
        } = &self.nodes[id as usize].kind
        else {
            unreachable!("the search only commits placements at decision nodes")
        };
        let best = children
            .iter()
            .max_by_key(|&&(_, child)| self.nodes[child as usize].visits);
        match (best, candidates.first()) {
            (Some(&(cell, child)), _) => (usize::from(cell), Some(child)),
            (None, Some(&cell)) => (usize::from(cell), None),
            // Decision nodes always have an empty cell; this only keeps the
            // function total.
            (None, None) => (first_empty(board), None),
        }
    }

    fn push(&mut self, kind: NodeKind) -> NodeId {
        self.nodes.push(Node::new(kind));
        (self.nodes.len() - 1) as NodeId
    }

    /// The node after `player` marked a cell with `left` placements to make
    /// (that one included) on `board` (already marked).
    fn kind_after_placement(&self, board: &Board, player: Player, left: u8) -> NodeKind {
        if board.is_full() {
            NodeKind::Terminal
        } else if left > 1 {
            NodeKind::Decision {
                player,
                left: left - 1,
                candidates: Vec::new(),
                children: Vec::new(),
            }
        } else {
            NodeKind::Chance {
                roller: player.opponent(),
                children: [None; DIE_FACES as usize],
            }
        }
    }

    fn ensure_candidates(&mut self, id: NodeId, board: &Board) {
        if let NodeKind::Decision { player, candidates, .. } = &mut self.nodes[id as usize].kind {
            if candidates.is_empty() {
                *candidates = ordered_candidates(board, *player);
            }
        }
    }

    /// One descent, playout and backup; returns the nodes it visited.
    fn iterate(&mut self, root: NodeId, root_board: &Board) -> u64 {
        let mut board = *root_board;
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(root);
        let mut id = root;
        let mut nodes = 0u64;
        let margin = loop {
            nodes += 1;
            if self.nodes[id as usize].visits == 0 && id != root {
                break self.play_out(id, &board, &mut nodes);
            }
            match self.step(id, &mut board) {
                Descent::Child(next) => {
                    id = next;
                    path.push(id);
                }
                Descent::PlayOut => break self.play_out(id, &board, &mut nodes),
                Descent::End => break board.margin_x(),
            }
        };
        for &id in &path {
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.margin_sum += f64::from(margin);
        }
        self.path = path;
        nodes
    }

    fn play_out(&mut self, id: NodeId, board: &Board, nodes: &mut u64) -> i32 {
        let turn = self.turn_at(id, board);
        Playout::new(board).run(turn, &mut self.rng, nodes)
    }

    fn turn_at(&self, id: NodeId, board: &Board) -> Turn {
        match &self.nodes[id as usize].kind {
            NodeKind::Decision { player, left, .. } => Turn::Place {
                player: *player,
                left: *left,
            },
            NodeKind::Chance { roller, .. } => Turn::Roll(*roller),
            NodeKind::Terminal => {
                debug_assert!(board.is_full());
                Turn::Over
            }
        }
    }

    /// Moves from `id` to a child, applying its placement to `board`.
    fn step(&mut self, id: NodeId, board: &mut Board) -> Descent {
        match self.nodes[id as usize].kind {
            NodeKind::Terminal => Descent::End,
            NodeKind::Chance { .. } => self.step_chance(id, board),
            NodeKind::Decision { .. } => self.step_decision(id, board),
        }
    }

    fn step_chance(&mut self, id: NodeId, board: &Board) -> Descent {
        let NodeKind::Chance { roller, children } = &self.nodes[id as usize].kind else {
            return Descent::PlayOut;
        };
        let roller = *roller;
        // Stratified rolls: the face seen least so far, so every face gets
        // its sixth of the visits without sampling noise.
        let face = (0..DIE_FACES as usize)
            .min_by_key(|&f| children[f].map_or(0, |c| self.nodes[c as usize].visits))
            .unwrap_or(0);
        if let Some(child) = children[face] {
            return Descent::Child(child);
        }
        if self.nodes.len() >= MAX_TREE_NODES {
            return Descent::PlayOut;
        }
        let left = (face as u8 + 1).min(board.empty_count() as u8);
        let child = self.push(NodeKind::Decision {
            player: roller,
            left,
            candidates: Vec::new(),
            children: Vec::new(),
        });
        if let NodeKind::Chance { children, .. } = &mut self.nodes[id as usize].kind {
            children[face] = Some(child);
        }
        Descent::Child(child)
    }

    fn step_decision(&mut self, id: NodeId, board: &mut Board) -> Descent {
        self.ensure_candidates(id, board);
        let visits = self.nodes[id as usize].visits;
        let NodeKind::Decision {
            player,
            left,
            candidates,
            children,
        } = &self.nodes[id as usize].kind
        else {
            return Descent::PlayOut;
        };
        let (player, left) = (*player, *left);
        let allowed = (WIDEN_BASE + WIDEN_RATE * f64::from(visits).sqrt()) as usize;
        let can_grow = self.nodes.len() < MAX_TREE_NODES;
        if children.len() < allowed.min(candidates.len()) && can_grow {
            let cell = usize::from(candidates[children.len()]);
            board.place_index(cell, player);
            let kind = self.kind_after_placement(board, player, left);
            let child = self.push(kind);
            if let NodeKind::Decision { children, .. } = &mut self.nodes[id as usize].kind {
                children.push((cell as u8, child));
            }
            return Descent::Child(child);
        }
        if children.is_empty() {
            // Only when the tree is full.
            return Descent::PlayOut;
        }
        let log_visits = f64::from(visits.max(1)).ln();
        let mut best = children[0];
        let mut best_ucb = f64::NEG_INFINITY;
        for &(cell, child) in children {
            let node = &self.nodes[child as usize];
            let ucb = node.mean_for(player) + EXPLORATION * (log_visits / f64::from(node.visits.max(1))).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = (cell, child);
            }
        }
        board.place_index(usize::from(best.0), player);
        Descent::Child(best.1)
    }
}

/// Where a descent goes from a node.
enum Descent {
    /// On to this child (its placement, if any, is on the board).
    Child(NodeId),
    /// Value the node by a playout: a new node, or the tree is full.
    PlayOut,
    /// The grid is full.
    End,
}

fn first_empty(board: &Board) -> usize {
    (0..CELLS).find(|&c| board.mark_at(c) == 0).unwrap_or(0)
}

/// The empty cells, best first by the heuristic (ties by index).
fn ordered_candidates(board: &Board, player: Player) -> Vec<u8> {
    let mut scored: Vec<(i32, u8)> = (0..CELLS)
        .filter(|&c| board.mark_at(c) == 0)
        .map(|c| (cell_priority(board, c, player), c as u8))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, c)| c).collect()
}

// ---------------------------------------------------------------------------
// Exact endgame

/// Expectimax over the last few empty cells. None when the limits ran out
/// before it finished (`nodes` still counts the work).
fn solve_endgame(position: &Position, limits: &SearchLimits, nodes: &mut u64) -> Option<SearchResult> {
    let cells = EndgameCells::new(position.board());
    let state = EndgameState::new(NineSquareState::from_position(position), &cells);
    let mut search = ExactSearch::new(limits).with_nodes_spent(*nodes);
    let line = search.best_line(&state);
    *nodes = search.nodes();
    let line = line?;
    let placements = line
        .moves
        .into_iter()
        .filter_map(|mv| match mv {
            NineSquareMove::Place(at) => Some(at),
            NineSquareMove::Roll(_) => None,
        })
        .collect();
    Some(SearchResult {
        placements,
        expected_margin: signed(line.value, position.player()),
        solved: true,
        nodes: *nodes,
    })
}

fn signed(value_x: f64, player: Player) -> f64 {
    match player {
        Player::X => value_x,
        Player::O => -value_x,
    }
}

/// The cells empty at the endgame's root, in index order: every later
/// position differs from the root only there.
struct EndgameCells {
    cells: Vec<u8>,
    /// Each root cell's place in `cells`.
    slot: [u8; CELLS],
}

impl EndgameCells {
    fn new(board: &Board) -> EndgameCells {
        let cells: Vec<u8> = board.empty_cells().map(|c| c.index() as u8).collect();
        let mut slot = [0; CELLS];
        for (i, &cell) in cells.iter().enumerate() {
            slot[usize::from(cell)] = i as u8;
        }
        EndgameCells { cells, slot }
    }
}

/// The endgame as the generic expectimax sees it: the game itself, and
/// where the turn's next mark may go. A turn's marks are a set, so the
/// search places them in the order of the root's empty cells only (a turn
/// of k marks on e cells is C(e, k) lines rather than e!/(e-k)!), and rolls
/// that fill the grid are one outcome.
#[derive(Clone)]
struct EndgameState<'a> {
    game: NineSquareState,
    cells: &'a EndgameCells,
    /// The turn's next mark goes on `cells.cells[next..]`.
    next: u8,
}

impl<'a> EndgameState<'a> {
    fn new(game: NineSquareState, cells: &'a EndgameCells) -> EndgameState<'a> {
        EndgameState { game, cells, next: 0 }
    }
}

impl game::Game for EndgameState<'_> {
    type Move = NineSquareMove;

    fn turn(&self) -> GameTurn {
        game::Game::turn(&self.game)
    }

    fn legal_moves(&self) -> Vec<NineSquareMove> {
        game::Game::legal_moves(&self.game)
    }

    fn chance_outcomes(&self) -> Vec<(NineSquareMove, f64)> {
        game::Game::chance_outcomes(&self.game)
    }

    fn play(&mut self, mv: NineSquareMove) {
        game::Game::play(&mut self.game, mv);
        self.next = match (mv, self.game.turn()) {
            (NineSquareMove::Place(at), Turn::Place { .. }) => self.cells.slot[at.index()] + 1,
            _ => 0,
        };
    }

    fn result(&self) -> Option<GameOutcome> {
        game::Game::result(&self.game)
    }
}

/// The memo key below holds 2 * 3^empty values in 32 bits.
const _: () = assert!(EXACT_MAX_EMPTY <= 19);

impl Expectimax for EndgameState<'_> {
    /// The marks on the root's empty cells and the roller, in base 3: at
    /// most 2 * 3^9 keys for [`EXACT_MAX_EMPTY`] cells.
    type Key = u32;

    /// Turns meet again only between turns, so only the rolls are kept.
    fn memo_key(&self) -> Option<u32> {
        let Turn::Roll(roller) = self.game.turn() else {
            return None;
        };
        let board = self.game.board();
        Some(self.cells.cells.iter().fold(roller.seat() as u32, |key, &c| {
            key * 3 + u32::from(board.mark_at(usize::from(c)))
        }))
    }

    fn final_value(&self) -> f64 {
        f64::from(self.game.board().margin_x())
    }

    /// The empty cells after the turn's last mark that still leave room
    /// for the rest of the turn.
    fn search_moves(&self, out: &mut Vec<NineSquareMove>) {
        let Turn::Place { left, .. } = self.game.turn() else {
            return;
        };
        let board = self.game.board();
        let rest = &self.cells.cells[usize::from(self.next)..];
        let is_empty = |c: &&u8| board.mark_at(usize::from(**c)) == 0;
        let mut after = rest.iter().filter(is_empty).count();
        for &cell in rest.iter().filter(is_empty) {
            after -= 1;
            if after + 1 < usize::from(left) {
                break;
            }
            out.push(NineSquareMove::Place(Coord::from_index(usize::from(cell))));
        }
    }

    /// Every face of at least the empty cells fills the grid: one outcome.
    fn search_outcomes(&self, out: &mut Vec<(NineSquareMove, f64)>) {
        if !matches!(self.game.turn(), Turn::Roll(_)) {
            return;
        }
        let empty = self.game.board().empty_count();
        let per_face = 1.0 / f64::from(DIE_FACES);
        for face in 1..=DIE_FACES {
            if usize::from(face) < empty {
                out.push((NineSquareMove::Roll(face), per_face));
            } else {
                out.push((NineSquareMove::Roll(face), per_face * f64::from(DIE_FACES - face + 1)));
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain expectimax, no memo: X's expected final margin with `roller`
    /// about to roll.
    fn brute_before_roll(board: &Board, roller: Player) -> f64 {
        if board.is_full() {
            return f64::from(board.margin_x());
        }
        let empties: Vec<usize> = (0..CELLS).filter(|&c| board.mark_at(c) == 0).collect();
        let total: f64 = (1..=usize::from(DIE_FACES))
            .map(|face| brute_best_set(board, roller, &empties, face.min(empties.len()), 0))
            .sum();
        total / f64::from(DIE_FACES)
    }

    /// X's value when `player` marks the best `due` of `empties[from..]`.
    fn brute_best_set(board: &Board, player: Player, empties: &[usize], due: usize, from: usize) -> f64 {
        if due == 0 {
            return brute_before_roll(board, player.opponent());
        }
        let values = (from..empties.len()).map(|i| {
            let mut next = *board;
            next.place_index(empties[i], player);
            brute_best_set(&next, player, empties, due - 1, i + 1)
        });
        match player {
            Player::X => values.fold(f64::NEG_INFINITY, f64::max),
            Player::O => values.fold(f64::INFINITY, f64::min),
        }
    }

    /// A grid filled at random but for `empty` cells.
    fn nearly_full(seed: u64, empty: usize) -> Board {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut board = Board::new();
        let mut player = Player::X;
        while board.empty_count() > empty {
            let cell = rng.gen_range(0..CELLS);
            if board.mark_at(cell) == 0 {
                board.place_index(cell, player);
                player = player.opponent();
            }
        }
        board
    }

    #[test]
    fn a_played_turn_is_valued_as_a_brute_force_expectimax_does() {
        let limits = SearchLimits::within(Duration::from_secs(60));
        for seed in 0..6 {
            let board = nearly_full(seed, 5);
            for mover in [Player::X, Player::O] {
                let got = value_after(&board, mover, &limits, 1);
                let expected = signed(brute_before_roll(&board, mover.opponent()), mover);
                assert!(got.solved, "seed {seed}");
                assert!(
                    (got.expected_margin - expected).abs() < 1e-9,
                    "seed {seed}, {mover:?}: {} vs {expected}",
                    got.expected_margin
                );
            }
        }
        let full = nearly_full(7, 0);
        let got = value_after(&full, Player::O, &limits, 1);
        assert_eq!(got.expected_margin, f64::from(full.score().margin_for(Player::O)));
        assert!(got.solved);
    }

    #[test]
    fn the_searchs_own_choice_is_worth_what_it_says_and_no_other_turn_more() {
        let limits = SearchLimits::within(Duration::from_secs(60));
        let board = nearly_full(11, 6);
        let position = Position::new(board, Player::O, 3).unwrap();
        let best = best_placements(&position, &limits, 1);
        assert!(best.solved);
        let mut after = board;
        for &cell in &best.placements {
            after.place(cell, Player::O).unwrap();
        }
        let own = value_after(&after, Player::O, &limits, 1);
        assert!((own.expected_margin - best.expected_margin).abs() < 1e-9);
        // Every other set of three is worth no more.
        let empties: Vec<usize> = (0..CELLS).filter(|&c| board.mark_at(c) == 0).collect();
        for a in 0..empties.len() {
            for b in a + 1..empties.len() {
                for c in b + 1..empties.len() {
                    let mut other = board;
                    for &cell in &[empties[a], empties[b], empties[c]] {
                        other.place_index(cell, Player::O);
                    }
                    let value = value_after(&other, Player::O, &limits, 1);
                    assert!(value.expected_margin <= best.expected_margin + 1e-9);
                }
            }
        }
    }

    #[test]
    fn the_endgame_finds_the_brute_forces_best_turn() {
        let limits = SearchLimits::within(Duration::from_secs(60));
        for seed in 0..12u64 {
            let empty = 5 + (seed as usize % 4);
            let board = nearly_full(100 + seed, empty);
            let player = if seed % 2 == 0 { Player::X } else { Player::O };
            for dice in 1..=DIE_FACES {
                let position = Position::new(board, player, dice).unwrap();
                let best = best_placements(&position, &limits, 1);
                assert!(best.solved);
                let empties: Vec<usize> = (0..CELLS).filter(|&c| board.mark_at(c) == 0).collect();
                let due = position.placements_due();
                let expected = signed(brute_best_set(&board, player, &empties, due, 0), player);
                assert!(
                    (best.expected_margin - expected).abs() < 1e-9,
                    "seed {seed}, dice {dice}: {} vs {expected}",
                    best.expected_margin
                );
            }
        }
    }

    #[test]
    fn an_early_turn_gets_an_estimate_within_its_limits() {
        let board = nearly_full(3, 40);
        let started = Instant::now();
        let limits = SearchLimits::within(Duration::from_millis(50));
        let got = value_after(&board, Player::X, &limits, 1);
        assert!(!got.solved);
        assert!(got.nodes > 0);
        assert!(got.expected_margin.is_finite());
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{:?}",
            started.elapsed()
        );
        // Repeatable when the nodes, not the clock, end it.
        let by_nodes = SearchLimits::within(Duration::from_secs(60)).with_max_nodes(20_000);
        assert_eq!(
            value_after(&board, Player::X, &by_nodes, 9),
            value_after(&board, Player::X, &by_nodes, 9)
        );
    }
}
