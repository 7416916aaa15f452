//! Exact negamax with alpha-beta over any two-player zero-sum game that can
//! say a little about its positions ([`Solvable`]), sharing a
//! [`SharedTable`] with every other search.
//!
//! [`Negamax::solve`] finds a position's exact value by null-window
//! searches that halve the interval of possible values each time (the
//! standard solvers' approach: a null window cuts far more than a full one,
//! and the table carries what each pass learned into the next). The value
//! scale is the game's: higher is better for the player to move, and the
//! negation of a child's value is the parent's value of that move.
//!
//! Every search stops when its [`SearchLimits`] run out; a stopped search
//! answers None, never a guess.

use super::limits::SearchLimits;
use super::table::{Bound, Entry, SharedTable, NO_MOVE};

/// Check the clock and the node budget this often.
const CHECK_EVERY: u64 = 1024;

/// What a position says about itself before any search.
pub enum Settled<P> {
    /// Its value is known (the game is decided or over).
    Value(i32),
    /// Its value lies in `lower..=upper`; `pending` is what
    /// [`Solvable::children`] needs to list the moves (computed once).
    Open { lower: i32, upper: i32, pending: P },
}

/// The hooks the search needs; the rules of the game stay in its own type.
pub trait Solvable: Copy {
    type Pending: Copy;

    /// The key the table stores this position under: symmetric positions
    /// may share it, different positions must not (or only with the odds of
    /// a 64-bit hash).
    fn key(&self) -> u64;

    fn settle(&self) -> Settled<Self::Pending>;

    /// How much search the position's value costs, roughly (plies left to
    /// the end): the table keeps costly entries over cheap ones.
    fn work(&self) -> u8;

    /// The positions after every move worth searching, best guess first.
    /// Moves left out must be no better than the best one listed.
    fn children(&self, pending: Self::Pending, out: &mut Vec<Self>);
}

pub struct Negamax<'a, G> {
    table: &'a SharedTable,
    limits: &'a SearchLimits,
    pub nodes: u64,
    pub stopped: bool,
    /// One move list per ply, reused.
    lists: Vec<Vec<G>>,
}

impl<'a, G: Solvable> Negamax<'a, G> {
    pub fn new(table: &'a SharedTable, limits: &'a SearchLimits) -> Negamax<'a, G> {
        Negamax {
            table,
            limits,
            nodes: 0,
            stopped: false,
            lists: Vec::new(),
        }
    }

    /// The exact value of `position`, or None if the limits ran out.
    pub fn solve(&mut self, position: G) -> Option<i32> {
        let (mut min, mut max) = match position.settle() {
            Settled::Value(v) => return Some(v),
            Settled::Open { lower, upper, .. } => (lower, upper),
        };
        while min < max {
            // Probe nearer zero first: most positions are close games, and
            // a probe at the middle of a wide interval proves little.
            let mut probe = min + (max - min) / 2;
            if probe <= 0 && min / 2 < probe {
                probe = min / 2;
            } else if probe >= 0 && max / 2 > probe {
                probe = max / 2;
            }
            let found = self.search(position, probe, probe + 1, 0);
            if self.stopped {
                return None;
            }
            if found <= probe {
                max = found;
            } else {
                min = found;
            }
        }
        Some(min)
    }

    /// True if the value of `position` is at most `bound` (None if the
    /// limits ran out): one null-window search.
    pub fn at_most(&mut self, position: G, bound: i32) -> Option<bool> {
        let found = self.search(position, bound, bound + 1, 0);
        (!self.stopped).then_some(found <= bound)
    }

    /// Fail-hard alpha-beta: the value if it lies strictly inside
    /// (alpha, beta), else a bound on the side it fell.
    fn search(&mut self, position: G, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.limits.exhausted(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return alpha;
        }
        let (lower, mut upper, pending) = match position.settle() {
            Settled::Value(v) => return v,
            Settled::Open { lower, upper, pending } => (lower, upper, pending),
        };
        if alpha < lower {
            alpha = lower;
            if alpha >= beta {
                return alpha;
            }
        }
        let key = position.key();
        let mut remembered = NO_MOVE;
        if let Some(entry) = self.table.get(key, position.work()) {
            remembered = entry.best;
            let value = i32::from(entry.value);
            match entry.bound {
                Bound::Exact => return value,
                Bound::Lower if value > alpha => {
                    alpha = value;
                    if alpha >= beta {
                        return alpha;
                    }
                }
                Bound::Upper if value < upper => upper = value,
                _ => {}
            }
        }
        if beta > upper {
            beta = upper;
            if alpha >= beta {
                return beta;
            }
        }

        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.lists[ply]);
        children.clear();
        position.children(pending, &mut children);
        // The move that refuted this position last time (in an earlier
        // null-window pass, most often) goes first.
        let first = usize::from(remembered);
        if first < children.len() {
            children[..=first].rotate_right(1);
        }
        let mut result = None;
        for (i, &child) in children.iter().enumerate() {
            let score = -self.search(child, -beta, -alpha, ply + 1);
            if self.stopped {
                result = Some(alpha);
                break;
            }
            if score >= beta {
                // Undo the rotation to name the move by its listed place.
                let listed = match i {
                    0 if first < children.len() => first,
                    i if i <= first && first < children.len() => i - 1,
                    i => i,
                };
                self.store(key, score, Bound::Lower, position.work(), listed as u8);
                result = Some(score);
                break;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.lists[ply] = children;
        match result {
            Some(score) => score,
            None => {
                self.store(key, alpha, Bound::Upper, position.work(), NO_MOVE);
                alpha
            }
        }
    }

    fn store(&self, key: u64, value: i32, bound: Bound, depth: u8, best: u8) {
        if let Ok(value) = i16::try_from(value) {
            self.table.put(
                key,
                Entry {
                    value,
                    bound,
                    depth,
                    best,
                },
            );
        }
    }
}
