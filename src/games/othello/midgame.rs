//! The midgame search: a depth-limited principal variation search over
//! [`super::eval::evaluate`], with the shared table (its own key salt) and
//! fastest-first move ordering, driven by iterative deepening from
//! [`super::analyze`]. Values are in hundredths of a disc; a finished game
//! inside the horizon scores its exact disc difference times 100.

use super::bits::{flips, legal_moves, neighbours, Squares};
use super::endgame::position_key;
use super::eval::{evaluate, DISC};
use super::geometry::Geometry;
use super::rules::final_score;
use crate::solve::limits::SearchLimits;
use crate::solve::table::{Bound, Entry, SharedTable, NO_MOVE};

const CHECK_EVERY: u64 = 1 << 11;
const MIDGAME_SALT: u64 = 0x3141_5926_5358_9793;
/// Below this depth, moves are ordered by a cheap static rule rather than
/// by counting replies.
const SORT_MIN_DEPTH: u32 = 2;

pub struct Midgame<'a> {
    geo: &'static Geometry,
    table: &'a SharedTable,
    limits: &'a SearchLimits,
    pub nodes: u64,
    next_check: u64,
    aborted: bool,
}

impl<'a> Midgame<'a> {
    pub fn new(geo: &'static Geometry, table: &'a SharedTable, limits: &'a SearchLimits) -> Midgame<'a> {
        Midgame {
            geo,
            table,
            limits,
            nodes: 0,
            next_check: CHECK_EVERY,
            aborted: false,
        }
    }

    /// The move the table holds for this position, if any.
    pub fn table_move(&self, p: u64, o: u64) -> Option<u32> {
        let key = position_key(p, o, self.geo.size.side(), MIDGAME_SALT);
        self.table
            .get(key, 0)
            .map(|entry| u32::from(entry.best))
            .filter(|&sq| sq < 64)
    }

    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn check_limits(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.limits.exhausted(self.nodes) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The moves of `p`, in the order to search them: the hinted square,
    /// then fewest replies (corners double), then the smallest frontier.
    pub fn ordered_moves(&self, p: u64, o: u64, hint: u32, depth: u32) -> Vec<(u32, u64)> {
        let empty = self.geo.mask & !(p | o);
        let mut moves: Vec<(i32, u32, u64)> = Squares(legal_moves(p, o, empty))
            .map(|square| {
                let bit = 1u64 << square;
                let turned = flips(p, o, square);
                let key = if square == hint {
                    i32::MIN
                } else if depth < SORT_MIN_DEPTH {
                    // Corners first, squares next to an empty corner last.
                    if bit & self.geo.corners != 0 {
                        -1
                    } else if self.geo.x_squares.iter().any(|&(c, x)| x == bit && c & empty != 0) {
                        1
                    } else {
                        0
                    }
                } else {
                    let (mine, theirs) = (p | turned | bit, o & !turned);
                    let replies = legal_moves(theirs, mine, empty & !bit);
                    let frontier = (neighbours(mine) & empty & !bit).count_ones() as i32;
                    ((replies.count_ones() + (replies & self.geo.corners).count_ones()) as i32) * 16 + frontier
                };
                (key, square, turned)
            })
            .collect();
        moves.sort_by_key(|&(key, square, _)| (key, square));
        moves.into_iter().map(|(_, square, turned)| (square, turned)).collect()
    }

    /// The value of `p` to move, `depth` plies deep (passes are free),
    /// fail-soft within (`alpha`, `beta`).
    pub fn search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.negamax(p, o, depth, alpha, beta, false)
    }

    fn negamax(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        if self.check_limits() {
            return 0;
        }
        let empty = self.geo.mask & !(p | o);
        let any_move = legal_moves(p, o, empty) != 0;
        if !any_move {
            if passed {
                return final_score(self.geo, p, o) * DISC;
            }
            return -self.negamax(o, p, depth, -beta, -alpha, true);
        }
        if depth == 0 {
            return evaluate(self.geo, p, o);
        }
        let key = position_key(p, o, self.geo.size.side(), MIDGAME_SALT);
        let mut hint = u32::from(NO_MOVE);
        let (mut low, mut high) = (alpha, beta);
        if let Some(entry) = self.table.get(key, depth as u8) {
            if u32::from(entry.depth) >= depth {
                let value = i32::from(entry.value);
                match entry.bound {
                    Bound::Exact => return value,
                    Bound::Lower if value >= high => return value,
                    Bound::Upper if value <= low => return value,
                    Bound::Lower => low = low.max(value),
                    Bound::Upper => high = high.min(value),
                }
            }
            hint = u32::from(entry.best);
        }
        let mut best = i32::MIN;
        let mut best_square = u32::from(NO_MOVE);
        let mut alpha_now = low;
        for (i, (square, turned)) in self.ordered_moves(p, o, hint, depth).into_iter().enumerate() {
            let bit = 1u64 << square;
            let (child_p, child_o) = (o & !turned, p | turned | bit);
            let value = if i == 0 {
                -self.negamax(child_p, child_o, depth - 1, -high, -alpha_now, false)
            } else {
                let probe = -self.negamax(child_p, child_o, depth - 1, -alpha_now - 1, -alpha_now, false);
                if probe > alpha_now && probe < high {
                    -self.negamax(child_p, child_o, depth - 1, -high, -probe, false)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_square = square;
                if value >= high {
                    break;
                }
                alpha_now = alpha_now.max(value);
            }
        }
        let bound = if best <= low {
            Bound::Upper
        } else if best >= high {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.put(
            key,
            Entry {
                value: best.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                bound,
                depth: depth.min(255) as u8,
                best: best_square as u8,
            },
        );
        best
    }
}
