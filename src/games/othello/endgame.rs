//! The exact endgame: the final disc difference under perfect play, the
//! empties going to the winner.
//!
//! A fail-soft alpha-beta (principal variation search: the first move with
//! the full window, the others with a null window and a re-search when one
//! beats it), in layers by the number of empty squares, as strong solvers
//! do it (Edax's endgame.c was the guide; nothing is copied):
//!
//! - 1 and 2 empties: written out, no move generation at all;
//! - 3 to [`TABLE_MIN_EMPTIES`] - 1: the empties tried in parity order
//!   (odd quadrants first), no table, a stability bound from 5 empties;
//! - from [`TABLE_MIN_EMPTIES`]: the shared transposition table, the
//!   stability bound, and moves sorted fastest-first (fewest replies for
//!   the opponent, corners counted double), the table's move first;
//! - from 10 empties, enhanced transposition cut-offs (a child the table
//!   already proves good enough ends the node unsearched);
//! - from 12 empties, moves sorted by a shallow midgame search of the
//!   position each leads to (one ply deeper every two empties), with the
//!   fastest-first key as a tie-breaker: the first move is then nearly
//!   always the best, and on FFO #40-#44 the solver visits less than half
//!   of the nodes Edax (with its evaluation zeroed) does.
//!
//! Nodes are counted at every position visited; the limits are checked
//! every [`CHECK_EVERY`] nodes at the table layer, whose subtrees are
//! small, so a search stops within a fraction of a millisecond of its
//! deadline. A stopped search returns garbage that no caller reads: every
//! caller checks [`Endgame::aborted`] and nothing is stored after it.

use super::bits::{flips, legal_moves, Squares};
use super::geometry::Geometry;
use super::midgame::Midgame;
use super::rules::final_score;
use super::stability::stable_discs;
use crate::solve::limits::SearchLimits;
use crate::solve::table::{Bound, Entry, SharedTable, NO_MOVE};

/// From this many empties on, positions go through the table and their
/// moves are sorted; below, both cost more than they save.
pub const TABLE_MIN_EMPTIES: u32 = 7;
/// From this many empties on, the table is probed for every child before
/// searching any (enhanced transposition cut-off).
const ETC_MIN_EMPTIES: u32 = 10;
/// From this many empties on, moves are sorted by a shallow midgame search
/// of the position they lead to, plus the fastest-first key with this
/// weight (tuned on FFO #40-#42: with 12 and 8, 0.64 of the nodes of the
/// fastest-first order alone; 10 or 14, or a weight of 4 or 16, did worse).
const SEARCH_SORT_MIN_EMPTIES: u32 = 12;
const SORT_MOBILITY_WEIGHT: i32 = 8;
/// Positions with fewer empties than this skip the stability bound.
const STABILITY_MIN_EMPTIES: u32 = 5;
const CHECK_EVERY: u64 = 1 << 12;
/// Added to the empties to make an entry's depth in the shared table,
/// which keeps entries below its depth 20 in a small cache-sized table:
/// with this bias, positions from 20 - bias empties on go to the large
/// one.
const TABLE_DEPTH_BIAS: u32 = 9;
/// Table entries written by the exact search carry this in their key, so
/// that the midgame search's estimates never answer for them.
const EXACT_SALT: u64 = 0x5EED_0F0E_4D6A_6E35;

/// The table key of a position (mover's discs, opponent's, board size).
#[inline]
pub fn position_key(p: u64, o: u64, side: u32, salt: u64) -> u64 {
    #[inline(always)]
    fn mix(mut x: u64) -> u64 {
        x ^= x >> 33;
        x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        x ^= x >> 33;
        x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        x ^ (x >> 33)
    }
    mix(p ^ mix(o ^ salt ^ u64::from(side))).max(1)
}

/// One exact search: the table, the limits, and what it has counted.
pub struct Endgame<'a> {
    geo: &'static Geometry,
    table: &'a SharedTable,
    limits: &'a SearchLimits,
    pub nodes: u64,
    next_check: u64,
    aborted: bool,
    sort_nodes: Option<u64>,
}

/// A move candidate while sorting: its ordering key (lower first), square
/// and flips.
#[derive(Clone, Copy, Default)]
struct Candidate {
    key: i32,
    square: u32,
    flipped: u64,
}

impl<'a> Endgame<'a> {
    pub fn new(geo: &'static Geometry, table: &'a SharedTable, limits: &'a SearchLimits) -> Endgame<'a> {
        Endgame {
            geo,
            table,
            limits,
            nodes: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            sort_nodes: None,
        }
    }

    /// The limits ran out (or the search was cancelled): every value since
    /// is meaningless.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The value of `p` to move against `o` within (`alpha`, `beta`),
    /// fail-soft: below alpha an upper bound, above beta a lower bound.
    pub fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empty = self.geo.mask & !(p | o);
        let odd = self.geo.odd_quadrants(empty);
        self.dispatch(p, o, alpha, beta, empty, odd, false)
    }

    /// The exact value, or None when the limits ran out.
    pub fn exact(&mut self, p: u64, o: u64) -> Option<i32> {
        let bound = self.geo.squares;
        let value = self.search(p, o, -bound, bound);
        (!self.aborted).then_some(value)
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn dispatch(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64, odd: u64, passed: bool) -> i32 {
        match empty.count_ones() {
            0 => {
                self.nodes += 1;
                final_score(self.geo, p, o)
            }
            1 => self.last_one(p, o, empty.trailing_zeros()),
            2 => self.last_two(p, o, alpha, beta, empty, passed),
            n if n < TABLE_MIN_EMPTIES => self.shallow(p, o, alpha, beta, empty, odd, passed),
            _ => self.deep(p, o, alpha, beta, empty, odd, passed),
        }
    }

    /// One empty square left: whoever can play it does, and the board is
    /// then full (or it stays empty and goes to the winner).
    #[inline]
    fn last_one(&mut self, p: u64, o: u64, square: u32) -> i32 {
        self.nodes += 1;
        let total = self.geo.squares;
        let turned = flips(p, o, square);
        if turned != 0 {
            return 2 * ((p | turned).count_ones() as i32 + 1) - total;
        }
        let turned = flips(o, p, square);
        if turned != 0 {
            // The opponent plays it; the board is then full.
            return 2 * (p & !turned).count_ones() as i32 - total;
        }
        let difference = 2 * p.count_ones() as i32 - (total - 1);
        difference + difference.signum()
    }

    #[inline]
    fn last_two(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64, passed: bool) -> i32 {
        self.nodes += 1;
        let first = empty.trailing_zeros();
        let second = 63 - empty.leading_zeros();
        let mut best = i32::MIN;
        for (square, last) in [(first, second), (second, first)] {
            let turned = flips(p, o, square);
            if turned != 0 {
                let value = -self.last_one(o & !turned, p | turned | (1 << square), last);
                if value > best {
                    best = value;
                    if value >= beta {
                        return value;
                    }
                }
            }
        }
        if best != i32::MIN {
            return best;
        }
        if passed {
            return final_score(self.geo, p, o);
        }
        -self.last_two(o, p, -beta, -alpha, empty, true)
    }

    /// Few empties: each one tried in turn, odd quadrants first (`odd`:
    /// the quadrants with an odd number of empties, kept up to date move
    /// by move).
    #[allow(clippy::too_many_arguments)]
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empty: u64, odd: u64, passed: bool) -> i32 {
        self.nodes += 1;
        let n = empty.count_ones();
        if n >= STABILITY_MIN_EMPTIES {
            if let Some(cut) = self.stability_cut(p, o, alpha, n) {
                return cut;
            }
        }
        let mut best = i32::MIN;
        for squares in [empty & odd, empty & !odd] {
            for square in Squares(squares) {
                let turned = flips(p, o, square);
                if turned == 0 {
                    continue;
                }
                let bit = 1u64 << square;
                let child_odd = odd ^ self.geo.quadrant_of[square as usize];
                let value = -self.dispatch(
                    o & !turned,
                    p | turned | bit,
                    -beta,
                    -alpha,
                    empty & !bit,
                    child_odd,
                    false,
                );
                if value > best {
                    best = value;
                    if value >= beta {
                        return value;
                    }
                    alpha = alpha.max(value);
                }
            }
        }
        if best != i32::MIN {
            return best;
        }
        if passed {
            return final_score(self.geo, p, o);
        }
        -self.dispatch(o, p, -beta, -alpha, empty, odd, true)
    }

    /// The opponent's stable discs cap the mover's score; when the cap is
    /// no better than alpha, the position fails low without a search.
    #[inline]
    fn stability_cut(&self, p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
        // Few discs are stable while many squares are empty: only a high
        // alpha can be reached by the cap (Edax uses a table in this spirit).
        // Edax's table is about twice the empties on 8x8; smaller boards
        // scale it by their area.
        let threshold = 2 * empties as i32 * self.geo.squares / 64;
        if alpha < threshold {
            return None;
        }
        let cap = self.geo.squares - 2 * stable_discs(self.geo, o, p).count_ones() as i32;
        (cap <= alpha).then_some(cap)
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

    /// Many empties: table, stability, sorted moves, principal variation
    /// search.
    #[allow(clippy::too_many_arguments)]
    fn deep(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64, odd: u64, passed: bool) -> i32 {
        self.nodes += 1;
        if self.check_limits() {
            return 0;
        }
        let n = empty.count_ones();
        if let Some(cut) = self.stability_cut(p, o, alpha, n) {
            return cut;
        }
        let key = position_key(p, o, self.geo.size.side(), EXACT_SALT);
        let depth = (n + TABLE_DEPTH_BIAS) as u8;
        let mut hint = NO_MOVE;
        let (mut low, mut high) = (alpha, beta);
        if let Some(entry) = self.table.get(key, depth) {
            if entry.depth == depth {
                let value = i32::from(entry.value);
                match entry.bound {
                    Bound::Exact => return value,
                    Bound::Lower if value >= high => return value,
                    Bound::Upper if value <= low => return value,
                    Bound::Lower => low = low.max(value),
                    Bound::Upper => high = high.min(value),
                }
            }
            hint = entry.best;
        }
        let moves = legal_moves(p, o, empty);
        if moves == 0 {
            if passed {
                return final_score(self.geo, p, o);
            }
            return -self.dispatch(o, p, -high, -low, empty, odd, true);
        }
        let mut candidates = [Candidate::default(); 64];
        let count = self.order(p, o, moves, u32::from(hint), &mut candidates);
        if let Some(extra) = self.sort_nodes.take() {
            self.nodes += extra;
        }
        if n >= ETC_MIN_EMPTIES {
            if let Some((value, square)) = self.transposition_cut(p, o, high, depth - 1, &candidates[..count]) {
                self.table.put(
                    key,
                    Entry {
                        value: value as i16,
                        bound: Bound::Lower,
                        depth,
                        best: square as u8,
                    },
                );
                return value;
            }
        }
        let (value, best_square) = self.principal_variation(p, o, low, high, empty, odd, &mut candidates[..count]);
        if !self.aborted {
            let bound = if value <= low {
                Bound::Upper
            } else if value >= high {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.put(
                key,
                Entry {
                    value: value as i16,
                    bound,
                    depth,
                    best: best_square as u8,
                },
            );
        }
        value
    }

    /// Enhanced transposition cut-off: a move whose resulting position the
    /// table already proves at least `beta` for us ends the search before
    /// any child is searched.
    fn transposition_cut(
        &self,
        p: u64,
        o: u64,
        beta: i32,
        child_depth: u8,
        candidates: &[Candidate],
    ) -> Option<(i32, u32)> {
        let side = self.geo.size.side();
        for candidate in candidates {
            let bit = 1u64 << candidate.square;
            let child_key = position_key(o & !candidate.flipped, p | candidate.flipped | bit, side, EXACT_SALT);
            if let Some(entry) = self.table.get(child_key, child_depth) {
                let value = -i32::from(entry.value);
                if entry.bound != Bound::Lower && value >= beta {
                    return Some((value, candidate.square));
                }
            }
        }
        None
    }

    /// Fills `out` with the moves and their ordering keys (lowest first:
    /// the hinted square, then by a shallow midgame search from
    /// [`SEARCH_SORT_MIN_EMPTIES`] on, else fastest-first); returns how
    /// many.
    fn order(&mut self, p: u64, o: u64, moves: u64, hint: u32, out: &mut [Candidate; 64]) -> usize {
        let mut count = 0;
        let empty = self.geo.mask & !(p | o);
        let n = empty.count_ones();
        // Two more empties, one more ply of sorting search.
        let sort_depth = (n >= SEARCH_SORT_MIN_EMPTIES).then(|| (n - SEARCH_SORT_MIN_EMPTIES) / 2);
        let mut midgame = sort_depth.map(|_| Midgame::new(self.geo, self.table, self.limits));
        for square in Squares(moves) {
            let bit = 1u64 << square;
            let turned = flips(p, o, square);
            let key = if square == hint {
                i32::MIN
            } else {
                let (mine, theirs) = (p | turned | bit, o & !turned);
                let replies = legal_moves(theirs, mine, empty & !bit);
                // Fewest replies first; a reply in a corner counts double;
                // a move that leaves our discs stable-looking (few empty
                // neighbours) is preferred among equals.
                let frontier = (super::bits::neighbours(mine) & empty & !bit).count_ones() as i32;
                let fastest =
                    ((replies.count_ones() + (replies & self.geo.corners).count_ones()) as i32) * 16 + frontier;
                match (&mut midgame, sort_depth) {
                    (Some(search), Some(depth)) => {
                        let infinity = self.geo.squares * super::eval::DISC + 1;
                        search.search(theirs, mine, depth, -infinity, infinity) + fastest * SORT_MOBILITY_WEIGHT
                    }
                    _ => fastest,
                }
            };
            out[count] = Candidate {
                key,
                square,
                flipped: turned,
            };
            count += 1;
        }
        if let Some(search) = midgame {
            self.sort_nodes = Some(search.nodes);
        }
        count
    }

    /// Searches the candidates, best key first, as a principal variation
    /// search; returns the value and the square that achieved it.
    #[allow(clippy::too_many_arguments)]
    fn principal_variation(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empty: u64,
        odd: u64,
        candidates: &mut [Candidate],
    ) -> (i32, u32) {
        let mut best = i32::MIN;
        let mut best_square = u32::from(NO_MOVE);
        for i in 0..candidates.len() {
            // Selection sort one step at a time: a cut-off early saves
            // sorting the rest.
            let mut pick = i;
            for j in i + 1..candidates.len() {
                if candidates[j].key < candidates[pick].key {
                    pick = j;
                }
            }
            candidates.swap(i, pick);
            let Candidate { square, flipped, .. } = candidates[i];
            let bit = 1u64 << square;
            let (child_p, child_o, child_empty) = (o & !flipped, p | flipped | bit, empty & !bit);
            let odd = odd ^ self.geo.quadrant_of[square as usize];
            let value = if i == 0 || beta - alpha == 1 {
                -self.dispatch(child_p, child_o, -beta, -alpha, child_empty, odd, false)
            } else {
                let probe = -self.dispatch(child_p, child_o, -alpha - 1, -alpha, child_empty, odd, false);
                if probe > alpha && probe < beta {
                    -self.dispatch(child_p, child_o, -beta, -probe, child_empty, odd, false)
                } else {
                    probe
                }
            };
            if self.aborted {
                return (0, best_square);
            }
            if value > best {
                best = value;
                best_square = square;
                if value >= beta {
                    break;
                }
                alpha = alpha.max(value);
            }
        }
        (best, best_square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::geometry::Size;
    use std::time::Duration;

    /// Plain negamax over every move: the reference.
    fn brute_force(geo: &'static Geometry, p: u64, o: u64, passed: bool) -> i32 {
        let empty = geo.mask & !(p | o);
        let moves = legal_moves(p, o, empty);
        if moves == 0 {
            return if passed {
                final_score(geo, p, o)
            } else {
                -brute_force(geo, o, p, true)
            };
        }
        Squares(moves)
            .map(|square| {
                let turned = flips(p, o, square);
                -brute_force(geo, o & !turned, p | turned | (1 << square), false)
            })
            .max()
            .unwrap_or(i32::MIN)
    }

    #[test]
    fn exact_values_match_a_brute_force_on_random_6x6_endings() {
        let geo = Size::Six.geometry();
        let table = SharedTable::new(1 << 16);
        let limits = SearchLimits::within(Duration::from_secs(60));
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        while checked < 40 {
            // A random game from the start down to 8..=10 empties.
            let mut game = crate::games::othello::rules::OthelloState::new(Size::Six);
            let stop = 8 + (state % 3) as u32;
            while game.empties() > stop && !game.is_over() {
                let moves = game.legal_squares();
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if moves.is_empty() {
                    crate::games::game::Game::play(&mut game, crate::games::othello::OthelloMove::Pass);
                } else {
                    let pick = moves[(state % moves.len() as u64) as usize];
                    crate::games::game::Game::play(&mut game, crate::games::othello::OthelloMove::Play(pick));
                }
            }
            if game.is_over() {
                continue;
            }
            let (p, o) = game.mover_and_opponent();
            let mut endgame = Endgame::new(geo, &table, &limits);
            let expected = brute_force(geo, p, o, false);
            assert_eq!(endgame.exact(p, o), Some(expected), "{:?}", game.rows());
            // Null windows around the value say which side it is on.
            assert!(endgame.search(p, o, expected - 1, expected) >= expected);
            assert!(endgame.search(p, o, expected, expected + 1) <= expected);
            checked += 1;
        }
    }
}
