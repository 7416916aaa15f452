//! The exact two-sided bear-off table: every position in which each
//! side's checkers still on the board are all in its own home board
//! (points 1..=6), at most [`MAX_CHECKERS`] of them, none on the bar. No
//! checker can meet another again, so each side's plays are its own
//! business and the table holds, for every pair of one-sided positions,
//! the exact chance that the side on roll wins under best play by both.
//!
//! The coverage is gnubg's two-sided database's: up to 6 checkers on 6
//! points, C(12, 6) = 924 one-sided positions, 924² = 853,776 pairs, one
//! `f64` each: 6,830,208 bytes kept (the one-sided plays it is built from
//! are dropped after). It is built on first use ([`table`]), in about
//! 0.3 s in the tests' profile (opt-level 1), in order of the pips both
//! sides have left, since every play takes pips off.
//!
//! Gammons: a side with at most 6 checkers on the board has borne off at
//! least 9, so neither side can lose a gammon or a backgammon here; those
//! chances are exactly 0, the cubeless money equity is `2 win - 1`, and
//! the best play for the money equity is the one that wins most often.

use std::sync::OnceLock;

use super::board::{Board, Dice, Side, CHECKERS};
use super::plays::{legal_plays, Play};

/// Most checkers a side may have on the board for the table to cover it.
pub const MAX_CHECKERS: usize = 6;
const POINTS: usize = 6;
/// One-sided positions: C(POINTS + MAX_CHECKERS, POINTS).
pub const SIDE_POSITIONS: usize = 924;
/// The 21 distinct rolls.
const ROLLS: usize = 21;

/// A side's home board: `counts[i]` checkers on its point `i + 1`.
type Home = [u8; POINTS];

/// The exact chances of the side to move, cubeless; a result of this
/// table (every gammon and backgammon is 0, see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactRace {
    pub win: f64,
    pub win_gammon: f64,
    pub win_backgammon: f64,
    pub lose_gammon: f64,
    pub lose_backgammon: f64,
    /// Cubeless money equity: `2 win - 1` here.
    pub equity: f64,
}

impl ExactRace {
    fn from_win(win: f64) -> ExactRace {
        // The table's sums of 36ths can stray past 0 or 1 by a rounding.
        let win = win.clamp(0.0, 1.0);
        ExactRace {
            win,
            win_gammon: 0.0,
            win_backgammon: 0.0,
            lose_gammon: 0.0,
            lose_backgammon: 0.0,
            equity: 2.0 * win - 1.0,
        }
    }
}

/// A legal play and the exact chances of the side that made it, after it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactPlay {
    pub play: Play,
    pub race: ExactRace,
}

/// Sequences of `points` counts with a sum of at most `checkers`:
/// C(points + checkers, points).
fn ways(points: usize, checkers: usize) -> usize {
    (1..=points).fold(1, |acc, k| acc * (checkers + k) / k)
}

/// The index of a one-sided position (at most [`MAX_CHECKERS`]) in
/// 0..[`SIDE_POSITIONS`], the empty home being 0: the combinatorial
/// number of its counts, point 1 first.
fn rank(home: &Home) -> usize {
    let mut left = MAX_CHECKERS;
    let mut index = 0;
    for (i, &count) in home.iter().enumerate() {
        let count = usize::from(count);
        for v in 0..count {
            index += ways(POINTS - 1 - i, left - v);
        }
        left -= count;
    }
    index
}

/// The mover's home board, if everything the mover has left is there
/// (nothing on the bar or above point 6) and fits the table.
fn home_of(board: &Board, side: Side) -> Option<Home> {
    if board.bar(side) > 0 {
        return None;
    }
    let mut home = [0u8; POINTS];
    for p in 1..=24 {
        // The side's own point number.
        let own = match side {
            Side::Me => p,
            Side::Opponent => 25 - p,
        };
        let count = board.count(side, p);
        if count > 0 {
            if own > POINTS {
                return None;
            }
            home[own - 1] = count;
        }
    }
    let total: usize = home.iter().map(|&c| usize::from(c)).sum();
    (total <= MAX_CHECKERS).then_some(home)
}

/// A board with only the mover's home checkers (the rest borne off) and
/// the opponent's all borne off: enough for the mover's plays.
fn board_of(home: &Home) -> Board {
    let mut points = [0i8; 24];
    for (i, &count) in home.iter().enumerate() {
        points[i] = count as i8;
    }
    let on: u8 = home.iter().sum();
    Board::from_raw(points, [0, 0], [CHECKERS - on, CHECKERS])
}

/// The table: `win[mover * SIDE_POSITIONS + opponent]`, the chance that
/// the side on roll wins.
pub struct BearoffTable {
    win: Vec<f64>,
}

impl BearoffTable {
    /// Bytes the table holds.
    pub fn memory_bytes(&self) -> usize {
        self.win.len() * std::mem::size_of::<f64>()
    }

    fn win(&self, mover: usize, opponent: usize) -> f64 {
        self.win[mover * SIDE_POSITIONS + opponent]
    }

    /// The mover's chance after playing to `mover` (the opponent `opponent`
    /// then on roll).
    fn after_play(&self, mover: usize, opponent: usize) -> f64 {
        if mover == 0 {
            1.0
        } else {
            1.0 - self.win(opponent, mover)
        }
    }

    fn build() -> BearoffTable {
        // Every one-sided position, by rank, and its pips.
        let mut homes = vec![[0u8; POINTS]; SIDE_POSITIONS];
        let mut pips = vec![0usize; SIDE_POSITIONS];
        let mut home = [0u8; POINTS];
        loop {
            let index = rank(&home);
            homes[index] = home;
            pips[index] = home.iter().enumerate().map(|(i, &c)| (i + 1) * usize::from(c)).sum();
            if !next_home(&mut home) {
                break;
            }
        }
        // The one-sided positions each roll can reach, found by the same
        // move generator as every other play.
        let rolls: Vec<(Dice, f64)> = Dice::all().collect();
        let mut starts = Vec::with_capacity(SIDE_POSITIONS * ROLLS + 1);
        let mut successors: Vec<u16> = Vec::new();
        for home in &homes {
            let board = board_of(home);
            for &(dice, _) in &rolls {
                starts.push(successors.len());
                for play in legal_plays(&board, dice) {
                    let next = home_of(&play.result, Side::Me).map_or(0, |h| rank(&h));
                    successors.push(next as u16);
                }
            }
        }
        starts.push(successors.len());

        let max_pips = POINTS * MAX_CHECKERS;
        let mut by_pips: Vec<Vec<usize>> = vec![Vec::new(); max_pips + 1];
        for (index, &p) in pips.iter().enumerate() {
            by_pips[p].push(index);
        }
        let mut table = BearoffTable {
            win: vec![0.0; SIDE_POSITIONS * SIDE_POSITIONS],
        };
        // Every play takes pips off the mover, so a pair's value needs
        // only pairs with fewer pips in all: fill by the sum of pips.
        for total in 0..=2 * max_pips {
            for mover_pips in total.saturating_sub(max_pips)..=total.min(max_pips) {
                for &mover in &by_pips[mover_pips] {
                    for &opponent in &by_pips[total - mover_pips] {
                        let value = match (mover, opponent) {
                            // The mover has already won / lost (never on
                            // roll; kept for completeness).
                            (0, _) => 1.0,
                            (_, 0) => 0.0,
                            _ => (0..ROLLS)
                                .map(|r| {
                                    let slot = mover * ROLLS + r;
                                    let best = successors[starts[slot]..starts[slot + 1]]
                                        .iter()
                                        .map(|&next| table.after_play(usize::from(next), opponent))
                                        .fold(0.0, f64::max);
                                    rolls[r].1 * best
                                })
                                .sum(),
                        };
                        table.win[mover * SIDE_POSITIONS + opponent] = value;
                    }
                }
            }
        }
        table
    }
}

/// The next one-sided position in a fixed order (counts as digits, point
/// 1 fastest, sums above [`MAX_CHECKERS`] skipped); false after the last.
fn next_home(home: &mut Home) -> bool {
    for i in 0..POINTS {
        home[i] += 1;
        if home.iter().map(|&c| usize::from(c)).sum::<usize>() <= MAX_CHECKERS {
            return true;
        }
        home[i] = 0;
    }
    false
}

static TABLE: OnceLock<BearoffTable> = OnceLock::new();

/// The table, built on the first call.
pub fn table() -> &'static BearoffTable {
    TABLE.get_or_init(BearoffTable::build)
}

/// Both sides' table indexes, when the table covers the board and the
/// game is not over.
fn indexes(board: &Board) -> Option<(usize, usize)> {
    let mine = rank(&home_of(board, Side::Me)?);
    let theirs = rank(&home_of(board, Side::Opponent)?);
    (mine != 0 && theirs != 0).then_some((mine, theirs))
}

/// The exact chances of the side to move, before it rolls; None when the
/// table does not cover the position.
pub fn exact_race(board: &Board) -> Option<ExactRace> {
    let (mine, theirs) = indexes(board)?;
    Some(ExactRace::from_win(table().win(mine, theirs)))
}

/// Every legal play of `dice` with the mover's exact chances after it,
/// best first (ties in the order of [`legal_plays`]); None when the table
/// does not cover the position.
pub fn exact_plays(board: &Board, dice: Dice) -> Option<Vec<ExactPlay>> {
    let (_, theirs) = indexes(board)?;
    let table = table();
    let mut plays: Vec<ExactPlay> = legal_plays(board, dice)
        .into_iter()
        .map(|play| {
            // A play keeps the mover inside the table: checkers only go
            // down or off.
            let mine = home_of(&play.result, Side::Me).map_or(0, |h| rank(&h));
            ExactPlay {
                race: ExactRace::from_win(table.after_play(mine, theirs)),
                play,
            }
        })
        .collect();
    plays.sort_by(|a, b| b.race.equity.total_cmp(&a.race.equity));
    Some(plays)
}
