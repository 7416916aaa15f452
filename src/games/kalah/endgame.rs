//! Kalah's endgame tables: for one board (its houses a side and its
//! capture rule), the exact future margin of every position with at most
//! `seeds` seeds left in the houses, so that the exact search stops where
//! few seeds are left instead of playing the ending out again and again.
//! The value depends on the houses alone (what the stores hold is added
//! by the caller), so one table serves every starting seed count.
//!
//! A table is indexed by the position's rank among the distributions of
//! at most its seeds ([`super::solve::rank`]): C(seeds + 2m, 2m) entries
//! of one byte. Its seeds are as many as half the budget allows (both
//! capture rules of a board fit), e.g. 16 on six houses in 29 MiB.
//!
//! A table is built once its board's searches have visited twice as many
//! nodes as it has entries (filling an entry costs about two search
//! nodes: its sowings, and lookups scattered over the table), on a thread
//! of its own, so no request waits for it; searches use it from their
//! next start. On Kalah(5,4) and (6,3) it cuts the search's nodes 7-11
//! times (BENCHMARKS.md). The
//! book builder and the benchmarks build theirs first ([`build_now`]).
//! Built bytes never pass the budget ([`set_budget`]: the Kalah solver's
//! second table share, `--table-entries` × 16 bytes).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::rules::{Capture, Geometry, Houses, Next, MAX_HOUSES, MAX_START_SEEDS};
use super::solve::{distributions, rank};

/// A value not yet known while building (no margin reaches it).
const UNKNOWN: i8 = i8::MIN;
/// The most seeds a table covers: values are bytes.
const MAX_TABLE_SEEDS: u32 = 120;
/// The budget before the server sets one: `--table-entries`' default
/// share.
const DEFAULT_BUDGET_BYTES: usize = 64 << 20;
/// The building thread's stack: the recursion follows a game to its end
/// (at most a few thousand moves on the biggest tables).
const BUILD_STACK_BYTES: usize = 64 << 20;

/// One board's exact endgame values.
pub struct EndgameTable {
    seeds: u32,
    values: Vec<i8>,
}

impl EndgameTable {
    /// The most seeds a position it answers may have left in the houses.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The exact future margin (for the mover) of the position of `rank`
    /// with at most [`EndgameTable::seeds`] seeds; None for another rank.
    #[inline(always)]
    pub fn value(&self, rank: u64) -> Option<i32> {
        usize::try_from(rank)
            .ok()
            .and_then(|i| self.values.get(i))
            .map(|&v| i32::from(v))
    }

    /// Every position of `geo`'s board with at most `seeds` seeds (at
    /// most [`MAX_TABLE_SEEDS`]), by retrograde recursion: a move never
    /// adds seeds to the houses, and one that adds none to a store moves
    /// every sown seed further along its own side, so no position
    /// recurs and each is solved from positions already in the table.
    pub fn build(geo: &'static Geometry, capture: Capture, seeds: u32) -> EndgameTable {
        let seeds = seeds.min(MAX_TABLE_SEEDS);
        let width = 2 * geo.houses();
        let entries = usize::try_from(distributions(width, seeds)).unwrap_or(usize::MAX);
        let mut builder = Builder {
            geo,
            capture,
            values: vec![UNKNOWN; entries],
        };
        builder.every_position(0, seeds, Houses::default());
        EndgameTable {
            seeds,
            values: builder.values,
        }
    }
}

struct Builder {
    geo: &'static Geometry,
    capture: Capture,
    values: Vec<i8>,
}

impl Builder {
    /// Fills the value of every distribution of at most `left` more seeds
    /// over the houses from `slot` on (slots 0..m the mover's, m..2m the
    /// opponent's), `houses` holding the ones placed.
    fn every_position(&mut self, slot: usize, left: u32, houses: Houses) {
        let m = self.geo.houses();
        if slot == 2 * m {
            self.value(houses);
            return;
        }
        let byte = if slot < m { slot } else { 8 + slot - m };
        for count in 0..=left {
            let placed = Houses::from_sides(
                houses.mine() | side_byte(byte, count, 0),
                houses.theirs() | side_byte(byte, count, 8),
            );
            self.every_position(slot + 1, left - count, placed);
        }
    }

    /// The mover's exact future margin from `houses`.
    fn value(&mut self, houses: Houses) -> i32 {
        let index = rank(self.geo.houses(), houses) as usize;
        let known = self.values[index];
        if known != UNKNOWN {
            return i32::from(known);
        }
        let mut best = None;
        let mut mine = houses.mine();
        while mine != 0 {
            let house = (mine.trailing_zeros() / 8) as usize;
            mine &= !(0xFF << (8 * house));
            let sown = houses.sow(self.geo, self.capture, house);
            let margin = sown.margin();
            let value = match sown.next {
                Next::Over => margin,
                Next::Again => margin + self.value(sown.houses),
                Next::Opponent => margin - self.value(sown.houses),
            };
            best = Some(best.map_or(value, |b: i32| b.max(value)));
        }
        // No move: a side is empty, which no search reaches (the game
        // ended); the sweep's margin keeps the entry meaningful.
        let value = best.unwrap_or_else(|| -(houses.seeds() as i32));
        self.values[index] = value as i8;
        value
    }
}

/// `count` in byte `byte` of one side's word, where the side's bytes
/// start at `first` (0 for the mover's, 8 for the opponent's).
fn side_byte(byte: usize, count: u32, first: usize) -> u64 {
    if (first..first + 8).contains(&byte) {
        u64::from(count) << (8 * (byte - first))
    } else {
        0
    }
}

/// One board's table, its build, and the search it has seen.
struct Board {
    table: OnceLock<EndgameTable>,
    started: AtomicBool,
    nodes: AtomicU64,
}

impl Board {
    const fn new() -> Board {
        Board {
            table: OnceLock::new(),
            started: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

static BOARDS: [[Board; 2]; MAX_HOUSES + 1] = [const { [const { Board::new() }; 2] }; MAX_HOUSES + 1];
static BUDGET_BYTES: AtomicUsize = AtomicUsize::new(DEFAULT_BUDGET_BYTES);
static USED_BYTES: AtomicUsize = AtomicUsize::new(0);

fn board(geo: &Geometry, capture: Capture) -> &'static Board {
    &BOARDS[geo.houses().min(MAX_HOUSES)][usize::from(capture == Capture::Empty)]
}

/// The bytes the tables may take together (set once at start-up).
pub fn set_budget(bytes: usize) {
    BUDGET_BYTES.store(bytes, Ordering::Relaxed);
}

/// The board's table, once built.
#[inline]
pub fn table(geo: &Geometry, capture: Capture) -> Option<&'static EndgameTable> {
    board(geo, capture).table.get()
}

/// The seeds of the table a board would get: as many as half the budget
/// holds, and no more than a game of the board can have (0: none).
fn planned_seeds(geo: &Geometry, budget: usize) -> u32 {
    let width = 2 * geo.houses();
    let half = (budget / 2) as u64;
    let most = (2 * geo.houses() as u32 * u32::from(MAX_START_SEEDS)).min(MAX_TABLE_SEEDS);
    (1..=most)
        .take_while(|&s| distributions(width, s) <= half)
        .last()
        .unwrap_or(0)
}

/// Reserves the table's bytes within the budget; false when it does not
/// fit beside the tables already there.
fn reserve(bytes: usize) -> bool {
    let budget = BUDGET_BYTES.load(Ordering::Relaxed);
    USED_BYTES
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
            used.checked_add(bytes).filter(|&total| total <= budget)
        })
        .is_ok()
}

/// Claims the board's build: its seeds, once per board and within the
/// budget.
fn claim(geo: &Geometry, capture: Capture) -> Option<u32> {
    let board = board(geo, capture);
    let seeds = planned_seeds(geo, BUDGET_BYTES.load(Ordering::Relaxed));
    if seeds == 0 || board.started.swap(true, Ordering::AcqRel) {
        return None;
    }
    let bytes = usize::try_from(distributions(2 * geo.houses(), seeds)).unwrap_or(usize::MAX);
    reserve(bytes).then_some(seeds)
}

/// A search of the board visited `nodes`: once they add up to twice the
/// entries the table would have, its build starts in the background.
pub fn searched(geo: &'static Geometry, capture: Capture, nodes: u64) {
    let board = board(geo, capture);
    if board.started.load(Ordering::Relaxed) {
        return;
    }
    let seen = board.nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
    let entries = distributions(
        2 * geo.houses(),
        planned_seeds(geo, BUDGET_BYTES.load(Ordering::Relaxed)),
    );
    if seen <= entries.saturating_mul(2) {
        return;
    }
    let Some(seeds) = claim(geo, capture) else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("kalah-endgame".into())
        .stack_size(BUILD_STACK_BYTES)
        .spawn(move || {
            let started = std::time::Instant::now();
            let built = EndgameTable::build(geo, capture, seeds);
            tracing::info!(
                houses = geo.houses(),
                ?capture,
                seeds,
                entries = built.values.len(),
                secs = started.elapsed().as_secs_f64(),
                "Kalah endgame table built"
            );
            let _ = board.table.set(built);
        });
    if let Err(error) = spawned {
        tracing::warn!(%error, "the Kalah endgame table's thread did not start");
    }
}

/// The board's table, built here and now if it is not yet (and fits the
/// budget): for the book builder and the benchmarks, whose searches are
/// long from the start.
pub fn build_now(geo: &'static Geometry, capture: Capture) -> Option<&'static EndgameTable> {
    if let Some(seeds) = claim(geo, capture) {
        let built = std::thread::Builder::new()
            .stack_size(BUILD_STACK_BYTES)
            .spawn(move || EndgameTable::build(geo, capture, seeds))
            .ok()
            .and_then(|thread| thread.join().ok());
        if let Some(built) = built {
            let _ = board(geo, capture).table.set(built);
        }
    }
    table(geo, capture)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::rules::Rules;
    use std::collections::HashMap;

    /// The future margin by plain minimax over the rules' sowing, memoised.
    fn brute(geo: &Geometry, capture: Capture, houses: Houses, memo: &mut HashMap<Houses, i32>) -> i32 {
        if let Some(&v) = memo.get(&houses) {
            return v;
        }
        let mut best = i32::MIN;
        for house in 0..geo.houses() {
            if houses.count(house) == 0 {
                continue;
            }
            let sown = houses.sow(geo, capture, house);
            let v = match sown.next {
                Next::Over => sown.margin(),
                Next::Again => sown.margin() + brute(geo, capture, sown.houses, memo),
                Next::Opponent => sown.margin() - brute(geo, capture, sown.houses, memo),
            };
            best = best.max(v);
        }
        memo.insert(houses, best);
        best
    }

    /// Every distribution of at most `seeds` over `m` houses a side, both
    /// sides holding some (the positions a search meets).
    fn positions(m: usize, seeds: u32) -> Vec<Houses> {
        let mut all = vec![(Houses::default(), 0usize, seeds)];
        let mut done = Vec::new();
        while let Some((houses, slot, left)) = all.pop() {
            if slot == 2 * m {
                if houses.mine() != 0 && houses.theirs() != 0 {
                    done.push(houses);
                }
                continue;
            }
            let byte = if slot < m { slot } else { 8 + slot - m };
            for count in 0..=left {
                let placed = Houses::from_sides(
                    houses.mine() | side_byte(byte, count, 0),
                    houses.theirs() | side_byte(byte, count, 8),
                );
                all.push((placed, slot + 1, left - count));
            }
        }
        done
    }

    #[test]
    fn every_entry_of_small_tables_is_the_brute_forces_value() {
        for (m, seeds) in [(1usize, 12), (2, 12), (3, 10), (4, 7)] {
            for capture in [Capture::Standard, Capture::Empty] {
                let Ok(rules) = Rules::new(m as u32, 1, capture) else {
                    panic!("a board of {m} houses");
                };
                let geo = rules.geometry();
                let table = EndgameTable::build(geo, capture, seeds);
                let mut memo = HashMap::new();
                let all = positions(m, seeds);
                assert!(all.len() > 10, "{m} houses: {} positions", all.len());
                for houses in all {
                    let want = brute(geo, capture, houses, &mut memo);
                    assert_eq!(
                        table.value(rank(m, houses)),
                        Some(want),
                        "{m} houses, {capture:?}, {houses:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_tables_seeds_fit_half_the_budget() {
        let Ok(rules) = Rules::new(6, 4, Capture::Standard) else {
            panic!("Kalah(6,4)");
        };
        // The default budget: 16 seeds on six houses (C(28, 12) bytes).
        assert_eq!(planned_seeds(rules.geometry(), DEFAULT_BUDGET_BYTES), 16);
        assert!(distributions(12, 16) <= (DEFAULT_BUDGET_BYTES / 2) as u64);
        assert!(distributions(12, 17) > (DEFAULT_BUDGET_BYTES / 2) as u64);
    }
}
