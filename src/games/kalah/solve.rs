//! Kalah solved exactly, house by house, in final margins (the mover's
//! store minus the opponent's at the end of the game, both playing best).
//!
//! The search values a position by its *future* margin: what the mover
//! will still gain minus what the opponent will. That depends on the
//! houses alone, not on the stores, so one table entry serves every
//! position with the same houses, whatever the stores and whoever moves
//! (positions are seen from the mover, see [`Houses`]). The future margin
//! lies within ±(seeds left in the houses) and has their parity (the two
//! gains add up to them).
//!
//! The exact search is negamax with fail-soft alpha-beta driven by
//! null-window probes (MTD(f) from a guess, bisection once the guess has
//! failed a few times), with the shared table holding bounds and the move
//! that proved them. Moves are ordered: the table's move, then moves that
//! end in the store (the mover moves again: the child's value is added,
//! not negated), then captures, then the rest from the store outwards.
//!
//! [`analyze`] gives every legal house its final margin: exact where the
//! limits allowed, else the estimate of a depth-limited search (store
//! difference at the horizon) with `solved: false`.

use super::endgame::{self, EndgameTable};
use super::rules::{Capture, Geometry, Houses, KalahState, Next, Played, Player};
use crate::core::evaluation::Evaluation;
use crate::solve::limits::SearchLimits;
use crate::solve::table::{Bound, Entry, SharedTable, NO_MOVE};

/// Check the clock and the node budget this often.
const CHECK_EVERY: u64 = 2048;

/// The share of the budget the exact search may take before the rest goes
/// to a depth-limited estimate of the houses it did not prove.
const EXACT_SHARE: (u32, u32) = (3, 4);

/// Nodes of the first, shallow estimate: guesses for the exact search's
/// probes and its order of houses (a few milliseconds).
const GUESS_NODES: u64 = 100_000;

/// MTD(f) probes at its latest guess this many times, then halves the
/// interval left (a guess far from the value creeps towards it by small
/// steps).
const MTD_STEPS: u32 = 3;

/// Key bits: bit 63 marks the estimate's entries, which the exact search
/// must never read; bits 60..63 hold the width less one and bit 59 the
/// capture rule, so boards of different rules never share entries; the
/// rest is the position's rank among the seed distributions of its width.
const ESTIMATE_KEY: u64 = 1 << 63;
const RANK_BITS: u32 = 59;

/// Table "depth" of an exact entry: the seeds left in the houses (what
/// the subtree's size grows with), raised so that positions worth a
/// probe of the big table reach it (the table keeps entries of depth
/// below 20 in a small cache-sized table).
const DEPTH_BIAS: u32 = 8;

const MAX_WIDTH: usize = 16;

/// `BINOMIAL[n][k]` = C(n, k), saturating, for every n a rank needs.
static BINOMIAL: [[u64; MAX_WIDTH + 1]; 272] = {
    let mut table = [[0u64; MAX_WIDTH + 1]; 272];
    let mut n = 0;
    while n < 272 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_WIDTH && n > 0 {
            table[n][k] = table[n - 1][k - 1].saturating_add(table[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    table
};

/// One legal house's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseValue {
    /// 1..=m in the mover's sowing order.
    pub house: u8,
    /// The final margin (mover's store minus opponent's) after best play:
    /// exact when `solved`, else an estimate.
    pub value: i32,
    pub solved: bool,
}

/// One move of a principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub house: u8,
    pub player: Player,
}

/// Seed margins this far apart are about a likely win from a likely loss:
/// the scale on which an estimate becomes a win chance (answers, reviews
/// and the levels read it).
pub const SEEDS_PER_UNIT: f64 = 3.0;

/// A final margin for the mover on the one evaluation scale.
pub fn evaluation(value: i32, solved: bool, plies_to_end: Option<u32>) -> Evaluation {
    Evaluation::of_margin(f64::from(value), solved, plies_to_end, SEEDS_PER_UNIT)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub player: Player,
    /// The chosen house; None once the game is over.
    pub best: Option<u8>,
    /// Its final margin for `player` (the game's, once it is over).
    pub value: i32,
    /// Every legal house's value is exact.
    pub solved: bool,
    /// Every legal house, in order.
    pub houses: Vec<HouseValue>,
    /// From the chosen move to the end of the game when solved (a player
    /// who moves again appears twice in a row), else the chosen move.
    pub principal_variation: Vec<Step>,
    /// Plies of the estimate (0 when every house was solved at once).
    pub depth: u32,
    pub nodes: u64,
}

/// Every legal house's final margin within `limits`, and the best house.
pub fn analyze(position: &KalahState, table: &SharedTable, limits: &SearchLimits) -> Analysis {
    analyze_reporting(position, table, limits, None)
}

/// As [`analyze`], telling `report` each step on the way: the first
/// guesses, then each house proved but the last (the answer follows).
pub fn analyze_reporting(
    position: &KalahState,
    table: &SharedTable,
    limits: &SearchLimits,
    mut report: Option<&mut dyn FnMut(&Analysis)>,
) -> Analysis {
    if position.is_over() {
        return Analysis {
            player: position.to_move(),
            best: None,
            value: position.margin(),
            solved: true,
            houses: Vec::new(),
            principal_variation: Vec::new(),
            depth: 0,
            nodes: 0,
        };
    }
    let mut work = HouseWork::guess(position, table, limits);
    work.report(&mut report);
    work.solve_in_order(table, limits, &mut report);
    work.deepen_unsolved(table, limits);
    let analysis = work.finish(table, limits);
    let rules = position.rules();
    endgame::searched(rules.geometry(), rules.capture(), analysis.nodes);
    analysis
}

/// One analysis under way: each legal house's value so far.
struct HouseWork<'p> {
    position: &'p KalahState,
    /// The legal houses, 0-based, in order.
    moves: Vec<usize>,
    /// The first, cheap estimate of each house's future margin.
    guesses: Vec<i32>,
    values: Vec<HouseValue>,
    depth: u32,
    nodes: u64,
}

impl<'p> HouseWork<'p> {
    /// Guesses first, cheaply.
    fn guess(position: &'p KalahState, table: &SharedTable, limits: &SearchLimits) -> HouseWork<'p> {
        let houses = position.houses();
        let moves: Vec<usize> = (0..position.rules().houses())
            .filter(|&i| houses.count(i) > 0)
            .collect();
        let mut guessing = Search::new(position, table, limits.quick(GUESS_NODES));
        let (guesses, depth) = guessing.estimate_houses(houses, &moves);
        let values = moves
            .iter()
            .zip(&guesses)
            .map(|(&i, &guess)| HouseValue {
                house: i as u8 + 1,
                value: position.margin() + guess,
                solved: false,
            })
            .collect();
        HouseWork {
            position,
            moves,
            guesses,
            values,
            depth,
            nodes: guessing.nodes,
        }
    }

    /// The exact search within its share of the budget, the most promising
    /// houses first, each reported as it is proved.
    fn solve_in_order(
        &mut self,
        table: &SharedTable,
        limits: &SearchLimits,
        report: &mut Option<&mut dyn FnMut(&Analysis)>,
    ) {
        let (num, den) = EXACT_SHARE;
        let exact_limits = limits
            .slice(limits.remaining() * num / den)
            .quick(limits.max_nodes() / u64::from(den) * u64::from(num));
        let mut exact = Search::new(self.position, table, exact_limits);
        exact.nodes = self.nodes;
        let mut order: Vec<usize> = (0..self.moves.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(self.guesses[k]));
        for &k in &order {
            let Some(future) = exact.solve_move(self.position.houses(), self.moves[k], Some(self.guesses[k])) else {
                break;
            };
            self.values[k].value = self.position.margin() + future;
            self.values[k].solved = true;
            self.nodes = exact.nodes;
            // The last house proved is the answer itself, once its line to
            // the end is walked: a line claiming an end it has not shown
            // would mislead.
            if self.values.iter().any(|v| !v.solved) {
                self.report(report);
            }
        }
        self.nodes = exact.nodes;
    }

    /// What the exact search left open: the deepest estimate the rest of
    /// the budget allows.
    fn deepen_unsolved(&mut self, table: &SharedTable, limits: &SearchLimits) {
        if self.values.iter().all(|v| v.solved) {
            self.depth = 0;
            return;
        }
        let mut estimating = Search::new(self.position, table, limits.clone());
        estimating.nodes = self.nodes;
        let (estimates, reached) = estimating.estimate_houses(self.position.houses(), &self.moves);
        self.nodes = estimating.nodes;
        if reached > self.depth {
            self.depth = reached;
            for (value, estimate) in self.values.iter_mut().zip(estimates) {
                if !value.solved {
                    value.value = self.position.margin() + estimate;
                }
            }
        }
    }

    /// The first of the best houses (houses are in order): its house and
    /// value.
    fn chosen(&self) -> (u8, i32) {
        self.values
            .iter()
            .fold(None, |best: Option<&HouseValue>, v| match best {
                Some(b) if b.value >= v.value => best,
                _ => Some(v),
            })
            .map_or((0, self.position.margin()), |v| (v.house, v.value))
    }

    /// The analysis as it stands, its line the chosen move alone.
    fn snapshot(&self) -> Analysis {
        let (house, value) = self.chosen();
        let player = self.position.to_move();
        Analysis {
            player,
            best: Some(house),
            value,
            solved: self.values.iter().all(|v| v.solved),
            houses: self.values.clone(),
            principal_variation: vec![Step { house, player }],
            depth: self.depth,
            nodes: self.nodes,
        }
    }

    fn report(&self, report: &mut Option<&mut dyn FnMut(&Analysis)>) {
        if let Some(report) = report {
            report(&self.snapshot());
        }
    }

    /// The answer, with the line of play to the end of the game when every
    /// house is proved (searched under limits of its own: the values are
    /// proved whatever it finds).
    fn finish(self, table: &SharedTable, limits: &SearchLimits) -> Analysis {
        let mut analysis = self.snapshot();
        if analysis.solved {
            let mut walk = Search::new(self.position, table, limits.clone());
            walk.nodes = analysis.nodes;
            analysis.principal_variation =
                walk.principal_variation(self.position, analysis.best.unwrap_or(0), analysis.value);
            analysis.nodes = walk.nodes;
        }
        analysis
    }
}

/// The exact final margin of `position` (mover's view), or None if the
/// limits ran out.
pub fn solve_position(position: &KalahState, table: &SharedTable, limits: &SearchLimits) -> Option<(i32, u64)> {
    let mut search = Search::new(position, table, limits.clone());
    let future = search.solve(position.houses(), None);
    let rules = position.rules();
    endgame::searched(rules.geometry(), rules.capture(), search.nodes);
    Some((position.margin() + future?, search.nodes))
}

/// The rank of `houses` (m a side) among all distributions of at most
/// its seeds over the houses (combinatorial number system: the running
/// totals, each plus its index, are a strictly increasing sequence, ranked
/// by summing binomials). Below [`distributions`]`(2m, seeds)`.
#[inline(always)]
pub(super) fn rank(m: usize, houses: Houses) -> u64 {
    let mut rank = 0;
    let mut running = 0;
    for (j, index) in (0..m).chain(8..8 + m).enumerate() {
        running += houses.count(index) as usize;
        rank += BINOMIAL[running + j][j + 1];
    }
    rank
}

/// How many distributions of at most `seeds` seeds over `width` houses
/// there are: C(seeds + width, width) (saturating).
pub(super) fn distributions(width: usize, seeds: u32) -> u64 {
    BINOMIAL
        .get(seeds as usize + width)
        .and_then(|row| row.get(width))
        .copied()
        .unwrap_or(u64::MAX)
}

/// A move of a node being searched.
#[derive(Clone, Copy, Default)]
struct Child {
    houses: Houses,
    /// The mover's gain minus the opponent's on the move itself.
    margin: i32,
    again: bool,
    over: bool,
    house: u8,
    /// Move ordering, higher first.
    weight: i32,
}

struct Search<'a> {
    geo: &'static Geometry,
    capture: Capture,
    /// Width and capture rule, in the key's high bits.
    salt: u64,
    /// Positions with more seeds than this have no exact key: the exact
    /// search does not use the table for them (their rank would not fit
    /// the key's bits; a digest could collide and prove a wrong value).
    /// Up to Kalah(6,6) every position fits; on the widest boards only
    /// the first moves of the biggest games do not.
    exact_seeds: u32,
    /// The board's endgame table, when built: positions with at most its
    /// seeds are answered from it.
    endgame: Option<&'static EndgameTable>,
    table: &'a SharedTable,
    limits: SearchLimits,
    nodes: u64,
    stopped: bool,
}

impl<'a> Search<'a> {
    fn new(position: &KalahState, table: &'a SharedTable, limits: SearchLimits) -> Search<'a> {
        let rules = position.rules();
        let width = 2 * rules.houses();
        let exact_seeds = (0..=(BINOMIAL.len() - 1 - width) as u32)
            .take_while(|&t| BINOMIAL[t as usize + width][width] < 1 << RANK_BITS)
            .last()
            .unwrap_or(0);
        Search {
            geo: rules.geometry(),
            capture: rules.capture(),
            salt: (rules.houses() as u64 - 1) << 60 | u64::from(rules.capture() == Capture::Empty) << RANK_BITS,
            exact_seeds,
            endgame: endgame::table(rules.geometry(), rules.capture()),
            table,
            limits,
            nodes: 0,
            stopped: false,
        }
    }

    #[inline(always)]
    fn rank(&self, houses: Houses) -> u64 {
        rank(self.geo.houses(), houses)
    }

    /// The exact future margin from the endgame table, where it holds
    /// the position.
    #[inline(always)]
    fn endgame_value(&self, houses: Houses, seeds: u32) -> Option<i32> {
        let table = self.endgame?;
        if seeds > table.seeds() {
            return None;
        }
        table.value(self.rank(houses))
    }

    #[inline(always)]
    fn exact_key(&self, houses: Houses, seeds: u32) -> Option<u64> {
        (seeds <= self.exact_seeds).then(|| self.salt | self.rank(houses))
    }

    /// The estimate's key: exact where it can be, else a digest (a
    /// collision there only misleads an estimate).
    #[inline(always)]
    fn estimate_key(&self, houses: Houses, seeds: u32) -> u64 {
        let id = if seeds <= self.exact_seeds {
            self.rank(houses)
        } else {
            let h =
                houses.mine().wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ houses.theirs().wrapping_mul(0xD6E8_FEB8_6659_FD93);
            (h ^ h >> 29) & ((1 << RANK_BITS) - 1)
        };
        ESTIMATE_KEY | self.salt | id
    }

    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.limits.exhausted(self.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The legal moves of `houses`, unordered; their number.
    #[inline(always)]
    fn children(&self, houses: Houses, children: &mut [Child; 8]) -> usize {
        let mut n = 0;
        let mut mine = houses.mine();
        while mine != 0 {
            let house = (mine.trailing_zeros() / 8) as usize;
            mine &= !(0xFF << (8 * house));
            let sown = houses.sow(self.geo, self.capture, house);
            let again = sown.next == Next::Again;
            let margin = sown.margin();
            children[n] = Child {
                houses: sown.houses,
                margin,
                again,
                over: sown.next == Next::Over,
                house: house as u8,
                // Another move first (the nearest the store first: playing
                // it leaves the others' counts as they are), then the
                // biggest gain, then from the store outwards.
                weight: if again {
                    1000 + house as i32
                } else {
                    16 * margin + house as i32
                },
            };
            n += 1;
        }
        n
    }

    /// The exact future margin of `houses`, or None if the limits ran
    /// out. Probes at `guess` first.
    fn solve(&mut self, houses: Houses, guess: Option<i32>) -> Option<i32> {
        let seeds = houses.seeds() as i32;
        let (mut min, mut max) = (-seeds, seeds);
        let mut aim = guess.unwrap_or(0).clamp(min, max);
        let mut steps = 0;
        while min < max {
            aim = if steps < MTD_STEPS {
                aim.clamp(min, max)
            } else {
                min + (max - min) / 2
            };
            steps += 1;
            // Is the value at least `beta`?
            let beta = if aim <= min { min + 1 } else { aim };
            let found = self.negamax(houses, beta - 1, beta);
            if self.stopped {
                return None;
            }
            if found < beta {
                max = round_down(found, seeds);
            } else {
                min = round_up(found, seeds);
            }
            aim = found;
        }
        Some(min)
    }

    /// The exact future margin of playing `house` (0-based) from `houses`,
    /// or None if the limits ran out; `guess` of that value probed first.
    fn solve_move(&mut self, houses: Houses, house: usize, guess: Option<i32>) -> Option<i32> {
        let sown = houses.sow(self.geo, self.capture, house);
        let margin = sown.margin();
        match sown.next {
            Next::Over => Some(margin),
            Next::Again => Some(margin + self.solve(sown.houses, guess.map(|g| g - margin))?),
            Next::Opponent => Some(margin - self.solve(sown.houses, guess.map(|g| margin - g))?),
        }
    }

    /// Fail-soft alpha-beta on the future margin: a result at most
    /// `alpha` bounds the value from above, one at least `beta` from
    /// below, one in between is exact. Meaningless once `stopped`.
    fn negamax(&mut self, houses: Houses, mut alpha: i32, mut beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        let known = self.probe(houses);
        if let Some(value) = known.exact {
            return value;
        }
        // Also where the window lies beyond the seeds left: the search
        // below assumes a window within the bounds.
        if known.lower >= beta {
            return known.lower;
        }
        if known.upper <= alpha {
            return known.upper;
        }
        alpha = alpha.max(known.lower);
        beta = beta.min(known.upper);
        let floor = alpha;

        let mut children = [Child::default(); 8];
        let n = self.children(houses, &mut children);
        let order = search_order(&mut children[..n], known.remembered);
        let mut best = i32::MIN;
        let mut best_house = NO_MOVE;
        for &i in &order[..n] {
            let child = children[i];
            let value = if child.over {
                child.margin
            } else if child.again {
                child.margin + self.negamax(child.houses, alpha - child.margin, beta - child.margin)
            } else {
                child.margin - self.negamax(child.houses, child.margin - beta, child.margin - alpha)
            };
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_house = child.house;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (value, bound) = proved(best, &known, beta, floor, houses.seeds() as i32);
        #[cfg(test)]
        tests::check_bound(self, houses, value, bound);
        if let Some(key) = known.key {
            self.table.put(
                key,
                Entry {
                    value: value as i16,
                    bound,
                    depth: known.depth,
                    best: if bound == Bound::Upper { NO_MOVE } else { best_house },
                },
            );
        }
        value
    }

    /// What is known of `houses` before searching it: the bounds the seeds
    /// left allow, narrowed by the table, and the move it remembers.
    #[inline(always)]
    fn probe(&self, houses: Houses) -> Known {
        let seeds = houses.seeds();
        let depth = (seeds + DEPTH_BIAS).min(255) as u8;
        let endgame = self.endgame_value(houses, seeds);
        // An endgame answer is final: no key (the rank) is needed.
        let key = if endgame.is_some() {
            None
        } else {
            self.exact_key(houses, seeds)
        };
        let mut known = Known {
            key,
            depth,
            lower: -(seeds as i32),
            upper: seeds as i32,
            remembered: NO_MOVE,
            exact: endgame,
        };
        if endgame.is_some() {
            return known;
        }
        if let Some(entry) = key.and_then(|key| self.table.get(key, depth)) {
            let value = i32::from(entry.value);
            match entry.bound {
                Bound::Exact => known.exact = Some(value),
                Bound::Lower => {
                    known.lower = value;
                    known.remembered = entry.best;
                }
                Bound::Upper => known.upper = value,
            }
        }
        known
    }

    /// Each move's estimated future margin by iterative deepening, as far
    /// as the limits go, and the depth reached. Stops early once a deeper
    /// search visits no more nodes than the last: the whole game fits
    /// within the horizon.
    fn estimate_houses(&mut self, houses: Houses, moves: &[usize]) -> (Vec<i32>, u32) {
        let mut values = vec![0; moves.len()];
        let mut reached = 0;
        let mut last_nodes = u64::MAX;
        for depth in 1..=u32::from(u8::MAX) {
            let before = self.nodes;
            let mut found = Vec::with_capacity(moves.len());
            for &house in moves {
                let sown = houses.sow(self.geo, self.capture, house);
                let margin = sown.margin();
                let limit = -(houses.seeds() as i32) - 1;
                let value = match sown.next {
                    Next::Over => margin,
                    Next::Again => margin + self.estimate(sown.houses, depth, limit, -limit),
                    Next::Opponent => margin - self.estimate(sown.houses, depth - 1, limit, -limit),
                };
                if self.stopped {
                    return (values, reached);
                }
                found.push(value);
            }
            values = found;
            reached = depth;
            let spent = self.nodes - before;
            if spent == last_nodes {
                break;
            }
            last_nodes = spent;
        }
        (values, reached)
    }

    /// Depth-limited fail-soft alpha-beta: the future margin up to the
    /// horizon (`depth` plies of the opponent's turns; a move again does
    /// not count), 0 beyond (the store difference as it stands).
    fn estimate(&mut self, houses: Houses, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        let seeds = houses.seeds();
        if let Some(value) = self.endgame_value(houses, seeds) {
            return value;
        }
        if depth == 0 {
            return 0;
        }
        let key = self.estimate_key(houses, seeds);
        let stored_depth = depth.min(255) as u8;
        let mut remembered = NO_MOVE;
        if let Some(entry) = self.table.get(key, stored_depth) {
            let value = i32::from(entry.value);
            if entry.depth >= stored_depth {
                match entry.bound {
                    Bound::Exact => return value,
                    Bound::Lower if value >= beta => return value,
                    Bound::Upper if value <= alpha => return value,
                    _ => {}
                }
            }
            remembered = entry.best;
        }
        let floor = alpha;
        let mut children = [Child::default(); 8];
        let n = self.children(houses, &mut children);
        if let Some(k) = children[..n].iter().position(|c| c.house == remembered) {
            children.swap(0, k);
        }
        children[1..n.max(1)].sort_unstable_by_key(|c| std::cmp::Reverse(c.weight));
        let mut best = i32::MIN;
        let mut best_house = NO_MOVE;
        for child in &children[..n] {
            let value = if child.over {
                child.margin
            } else if child.again {
                child.margin + self.estimate(child.houses, depth, alpha - child.margin, beta - child.margin)
            } else {
                child.margin - self.estimate(child.houses, depth - 1, child.margin - beta, child.margin - alpha)
            };
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_house = child.house;
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > floor {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.put(
            key,
            Entry {
                value: best as i16,
                bound,
                depth: stored_depth,
                best: best_house,
            },
        );
        best
    }

    /// The moves of best play from `position`, starting with `house`
    /// (1-based) whose final margin is `value`, to the end of the game or
    /// as far as the limits go.
    fn principal_variation(&mut self, position: &KalahState, house: u8, value: i32) -> Vec<Step> {
        let mut line = Vec::new();
        let mut at = *position;
        let (mut house, mut value) = (usize::from(house).saturating_sub(1), value);
        loop {
            let mover = at.to_move();
            line.push(Step {
                house: house as u8 + 1,
                player: mover,
            });
            if at.play_index(house) == Played::Over {
                return line;
            }
            // The value for the player now to move.
            if at.to_move() != mover {
                value = -value;
            }
            let future = value - at.margin();
            let houses = at.houses();
            let mut next = None;
            let mut children = [Child::default(); 8];
            let n = self.children(houses, &mut children);
            for child in &children[..n] {
                // No move does better than the position's value: the first
                // that does as well is best play.
                if self.at_least(child, future) {
                    next = Some(usize::from(child.house));
                    break;
                }
                if self.stopped {
                    return line;
                }
            }
            match next {
                Some(h) => house = h,
                None => return line,
            }
        }
    }

    /// The move's future margin is at least `target`.
    fn at_least(&mut self, child: &Child, target: i32) -> bool {
        let need = target - child.margin;
        if child.over {
            need <= 0
        } else if child.again {
            self.negamax(child.houses, need - 1, need) >= need && !self.stopped
        } else {
            // -v >= need, i.e. v <= -need.
            self.negamax(child.houses, -need, -need + 1) <= -need && !self.stopped
        }
    }
}

/// The largest value of `seeds`' parity at most `v`.
#[inline(always)]
fn round_down(v: i32, seeds: i32) -> i32 {
    v - (v - seeds).rem_euclid(2)
}

/// The smallest value of `seeds`' parity at least `v`.
#[inline(always)]
fn round_up(v: i32, seeds: i32) -> i32 {
    v + (v - seeds).rem_euclid(2)
}

/// What the table and the seeds left say of a position before its search.
struct Known {
    key: Option<u64>,
    depth: u8,
    lower: i32,
    upper: i32,
    remembered: u8,
    /// The table's exact value: nothing to search.
    exact: Option<i32>,
}

/// The children in the order to search them: the remembered move first,
/// then by weight (extra moves and captures), highest first.
#[inline(always)]
fn search_order(children: &mut [Child], remembered: u8) -> [usize; 8] {
    let mut order = [0usize; 8];
    for i in 0..children.len() {
        let weight = if children[i].house == remembered {
            i32::MAX
        } else {
            children[i].weight
        };
        children[i].weight = weight;
        let mut j = i;
        while j > 0 && children[order[j - 1]].weight < weight {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = i;
    }
    order
}

/// The search's `best` within the window (`floor`, `beta`) as a value and
/// the bound it is: `known`'s bounds were proved before the search, and a
/// true value has the parity of `seeds`.
#[inline(always)]
fn proved(best: i32, known: &Known, beta: i32, floor: i32, seeds: i32) -> (i32, Bound) {
    if best >= known.upper {
        (known.upper, Bound::Exact)
    } else if best >= beta {
        (round_up(best, seeds), Bound::Lower)
    } else if best <= known.lower {
        (known.lower, Bound::Exact)
    } else if best > floor {
        (best, Bound::Exact)
    } else {
        (round_down(best, seeds), Bound::Upper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::rules::Rules;
    use std::time::Duration;

    /// Positions with at most this many seeds are checked.
    const TRUTH_SEEDS: u32 = 10;

    /// The future margin by minimax over the whole tree.
    fn truth(search: &Search<'_>, houses: Houses) -> i32 {
        let mut children = [Child::default(); 8];
        let n = search.children(houses, &mut children);
        children[..n]
            .iter()
            .map(|c| {
                if c.over {
                    c.margin
                } else if c.again {
                    c.margin + truth(search, c.houses)
                } else {
                    c.margin - truth(search, c.houses)
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// Every bound the exact search stores for a small position (the unit
    /// tests' searches only), held to a plain minimax of the position.
    pub(super) fn check_bound(search: &Search<'_>, houses: Houses, value: i32, bound: Bound) {
        if houses.seeds() > TRUTH_SEEDS {
            return;
        }
        let t = truth(search, houses);
        let ok = match bound {
            Bound::Exact => t == value,
            Bound::Lower => t >= value,
            Bound::Upper => t <= value,
        };
        assert!(ok, "{houses:?}: {value} {bound:?}, truth {t}");
    }

    /// The bounds stored while analysing positions of Kalah(4,3) (with one
    /// table for both capture rules) are all right.
    #[test]
    fn stored_bounds_are_right() {
        let table = SharedTable::new(1 << 18);
        let limits = SearchLimits::within(Duration::from_secs(60));
        let mut seed = 7u64;
        for capture in [Capture::Standard, Capture::Empty] {
            let rules = Rules::new(4, 3, capture).unwrap();
            for _ in 0..30 {
                let mut p = rules.start();
                for _ in 0..8 {
                    let moves = p.legal_houses();
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let _ = p.play(moves[(seed >> 33) as usize % moves.len()]);
                }
                if !p.is_over() {
                    analyze(&p, &table, &limits);
                }
            }
        }
    }
}
