//! Exact expectimax, written once for every two-player game with dice:
//! the first seat maximises, the second minimises, a chance node is worth
//! its outcomes' values weighted by their probabilities, and a finished
//! game is worth what [`Expectimax::final_value`] says. Values are always
//! the first seat's (seat 0), so no sign flips between plies.
//!
//! The game supplies what is its own through [`Expectimax`]: which nodes
//! are worth remembering and under what key, the final value, and (if it
//! can) a smaller set of moves or outcomes that reaches the same positions
//! (the marks of one turn as a set rather than in every order, dice faces
//! that lead to the same position as one outcome). The memo lives for one
//! search and is capped; the node count is checked against
//! [`SearchLimits`], so no search runs past its budget or outlives its
//! cancellation. An interrupted search answers None, never a wrong value.

use std::collections::HashMap;
use std::hash::Hash;

use crate::core::game::{Game, Seat, Turn};

use super::limits::SearchLimits;

/// Check the clock and the cancellation once every this many nodes (a
/// power of two); the node budget is checked at every node.
const CHECK_EVERY: u64 = 1024;

/// The most values one search remembers, unless told otherwise. Once the
/// memo is full the search goes on without adding to it: slower, never
/// wrong.
pub const DEFAULT_MEMO_ENTRIES: usize = 1 << 20;

/// A game searched to the end by [`ExactSearch`].
pub trait Expectimax: Game {
    /// Where a node's value is remembered.
    type Key: Eq + Hash;

    /// The node's memo key; None for nodes not worth remembering (a game
    /// whose transpositions all meet at chance nodes keys only those).
    fn memo_key(&self) -> Option<Self::Key>;

    /// The first seat's value of the finished game (its margin, say, or
    /// 1, 0 and -1).
    fn final_value(&self) -> f64;

    /// The moves to search, in the order ties are broken (the first best
    /// wins), appended to `out`. A game may leave out moves that reach the
    /// same positions as others. The default is [`Game::legal_moves`].
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        out.extend(self.legal_moves());
    }

    /// The chance outcomes to search with their probabilities, appended to
    /// `out`. A game may merge outcomes that lead to the same position
    /// (adding their probabilities). The default is
    /// [`Game::chance_outcomes`].
    fn search_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        out.extend(self.chance_outcomes());
    }
}

/// The best line of the seat to move and what it is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct BestLine<M> {
    /// The first seat's expected value after the line.
    pub value: f64,
    /// The mover's moves until the turn passes (to chance, the other seat
    /// or the end of the game): a turn of several placements is one line.
    pub moves: Vec<M>,
}

/// One exact search: its memo, its node count and its limits.
pub struct ExactSearch<'a, G: Expectimax> {
    limits: &'a SearchLimits,
    memo: HashMap<G::Key, f64>,
    memo_capacity: usize,
    nodes: u64,
    aborted: bool,
    /// Move and outcome lists by ply, kept to reuse their allocations.
    moves: Vec<Vec<G::Move>>,
    outcomes: Vec<Vec<(G::Move, f64)>>,
}

impl<'a, G: Expectimax> ExactSearch<'a, G> {
    pub fn new(limits: &'a SearchLimits) -> Self {
        Self {
            limits,
            memo: HashMap::new(),
            memo_capacity: DEFAULT_MEMO_ENTRIES,
            nodes: 0,
            aborted: false,
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// Remember at most `entries` values.
    pub fn with_memo_capacity(mut self, entries: usize) -> Self {
        self.memo_capacity = entries;
        self
    }

    /// Count `nodes` already spent by the caller against the limits.
    pub fn with_nodes_spent(mut self, nodes: u64) -> Self {
        self.nodes = nodes;
        self
    }

    /// Nodes visited so far (with those counted in by
    /// [`with_nodes_spent`](Self::with_nodes_spent)).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Values remembered so far.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The first seat's expected value of `state`; None when the limits
    /// ran out first.
    pub fn value(&mut self, state: &G) -> Option<f64> {
        let value = self.eval(state, 0);
        (!self.aborted).then_some(value)
    }

    /// The best line of the seat to move and its value; None when no
    /// player is to move, no move is offered, or the limits ran out first.
    pub fn best_line(&mut self, state: &G) -> Option<BestLine<G::Move>> {
        let Turn::Player(seat) = state.turn() else {
            return None;
        };
        let best = self.best_line_of(state, seat, 0);
        if self.aborted {
            return None;
        }
        best
    }

    /// False once the limits have run out.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limits.max_nodes()
            || (self.nodes & (CHECK_EVERY - 1) == 0 && self.limits.exhausted(self.nodes))
        {
            self.aborted = true;
        }
        !self.aborted
    }

    /// Like [`eval`](Self::eval) at a node where `seat` moves, but keeping
    /// the moves that reach the best value until the turn passes.
    fn best_line_of(&mut self, state: &G, seat: Seat, ply: usize) -> Option<BestLine<G::Move>> {
        if !self.tick() {
            return None;
        }
        let mut moves = Vec::new();
        state.search_moves(&mut moves);
        let mut best: Option<BestLine<G::Move>> = None;
        for mv in moves {
            let mut child = state.clone();
            child.play(mv);
            let found = if child.turn() == Turn::Player(seat) {
                self.best_line_of(&child, seat, ply + 1).map(|mut line| {
                    line.moves.insert(0, mv);
                    line
                })
            } else {
                let value = self.eval(&child, ply + 1);
                Some(BestLine { value, moves: vec![mv] })
            };
            if self.aborted {
                return None;
            }
            if let Some(line) = found {
                if best.as_ref().is_none_or(|b| better_for(seat, line.value, b.value)) {
                    best = Some(line);
                }
            }
        }
        best
    }

    /// The first seat's expected value of `state` (meaningless once
    /// `aborted` is set).
    fn eval(&mut self, state: &G, ply: usize) -> f64 {
        if !self.tick() {
            return 0.0;
        }
        let seat = match state.turn() {
            Turn::Over => return state.final_value(),
            Turn::Chance => None,
            Turn::Player(seat) => Some(seat),
        };
        let key = state.memo_key();
        if let Some(value) = key.as_ref().and_then(|key| self.memo.get(key)) {
            return *value;
        }
        let value = match seat {
            None => self.eval_chance(state, ply),
            Some(seat) => self.eval_player(state, seat, ply),
        };
        if self.aborted {
            return 0.0;
        }
        if let Some(key) = key {
            if self.memo.len() < self.memo_capacity {
                self.memo.insert(key, value);
            }
        }
        value
    }

    fn eval_chance(&mut self, state: &G, ply: usize) -> f64 {
        if self.outcomes.len() <= ply {
            self.outcomes.resize_with(ply + 1, Vec::new);
        }
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        outcomes.clear();
        state.search_outcomes(&mut outcomes);
        let mut total = 0.0;
        for &(mv, probability) in &outcomes {
            let mut child = state.clone();
            child.play(mv);
            total += probability * self.eval(&child, ply + 1);
            if self.aborted {
                break;
            }
        }
        self.outcomes[ply] = outcomes;
        total
    }

    /// A node with no move offered is a dead end: worth the worst to its
    /// mover, so that a line through it is never chosen.
    fn eval_player(&mut self, state: &G, seat: Seat, ply: usize) -> f64 {
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        state.search_moves(&mut moves);
        let mut best = worst_for(seat);
        for &mv in &moves {
            let mut child = state.clone();
            child.play(mv);
            let value = self.eval(&child, ply + 1);
            if self.aborted {
                break;
            }
            if better_for(seat, value, best) {
                best = value;
            }
        }
        self.moves[ply] = moves;
        best
    }
}

/// True when `value` is strictly better than `than` for `seat`.
fn better_for(seat: Seat, value: f64, than: f64) -> bool {
    if seat == 0 {
        value > than
    } else {
        value < than
    }
}

fn worst_for(seat: Seat) -> f64 {
    if seat == 0 {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::core::game::GameOutcome;

    /// A small dice race to test against: a pile of `left` counters; the
    /// seat to move rolls a loaded three-sided die (1, 2 and 3 with
    /// probabilities 1/2, 1/3 and 1/6), then takes either one counter or
    /// as many as it rolled, scoring what it takes; the other seat rolls
    /// next. The game ends when the pile is empty; the value is the first
    /// seat's score minus the second's.
    #[derive(Clone, Debug)]
    struct Race {
        left: u32,
        /// Scores of the two seats.
        scores: [i32; 2],
        /// The seat whose roll or move it is.
        seat: Seat,
        /// The face rolled, while the mover chooses.
        rolled: Option<u32>,
        /// Moves the search offered: how many times [`Game::play`] ran.
        plays: std::rc::Rc<std::cell::Cell<u64>>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    enum RaceMove {
        Roll(u32),
        Take(u32),
    }

    const FACES: [(u32, f64); 3] = [(1, 0.5), (2, 1.0 / 3.0), (3, 1.0 / 6.0)];

    impl Race {
        fn new(left: u32) -> Race {
            Race {
                left,
                scores: [0, 0],
                seat: 0,
                rolled: None,
                plays: Default::default(),
            }
        }
    }

    impl Game for Race {
        type Move = RaceMove;

        fn turn(&self) -> Turn {
            match (self.left, self.rolled) {
                (0, _) => Turn::Over,
                (_, None) => Turn::Chance,
                (_, Some(_)) => Turn::Player(self.seat),
            }
        }

        fn legal_moves(&self) -> Vec<RaceMove> {
            match self.rolled {
                Some(r) if self.left > 0 => {
                    let mut moves = vec![RaceMove::Take(1)];
                    if r.min(self.left) > 1 {
                        moves.push(RaceMove::Take(r.min(self.left)));
                    }
                    moves
                }
                _ => Vec::new(),
            }
        }

        fn chance_outcomes(&self) -> Vec<(RaceMove, f64)> {
            match (self.left, self.rolled) {
                (1.., None) => FACES.iter().map(|&(r, p)| (RaceMove::Roll(r), p)).collect(),
                _ => Vec::new(),
            }
        }

        fn play(&mut self, mv: RaceMove) {
            self.plays.set(self.plays.get() + 1);
            match mv {
                RaceMove::Roll(r) => self.rolled = Some(r),
                RaceMove::Take(n) => {
                    self.left -= n;
                    self.scores[self.seat] += n as i32;
                    self.rolled = None;
                    self.seat = 1 - self.seat;
                }
            }
        }

        fn result(&self) -> Option<GameOutcome> {
            (self.left == 0).then(|| match self.scores[0].cmp(&self.scores[1]) {
                std::cmp::Ordering::Greater => GameOutcome::Won(0),
                std::cmp::Ordering::Less => GameOutcome::Won(1),
                std::cmp::Ordering::Equal => GameOutcome::Draw,
            })
        }
    }

    impl Expectimax for Race {
        /// Only the pile, the margin so far and the seat to roll matter.
        type Key = (u32, i32, Seat);

        fn memo_key(&self) -> Option<Self::Key> {
            self.rolled
                .is_none()
                .then_some((self.left, self.scores[0] - self.scores[1], self.seat))
        }

        fn final_value(&self) -> f64 {
            f64::from(self.scores[0] - self.scores[1])
        }
    }

    /// Plain expectimax from the definition, no memo: the first seat's
    /// expected final margin.
    fn brute(state: &Race) -> f64 {
        match state.turn() {
            Turn::Over => f64::from(state.scores[0] - state.scores[1]),
            Turn::Chance => state
                .chance_outcomes()
                .into_iter()
                .map(|(mv, p)| {
                    let mut child = state.clone();
                    child.play(mv);
                    p * brute(&child)
                })
                .sum(),
            Turn::Player(seat) => {
                let values = state.legal_moves().into_iter().map(|mv| {
                    let mut child = state.clone();
                    child.play(mv);
                    brute(&child)
                });
                if seat == 0 {
                    values.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    values.fold(f64::INFINITY, f64::min)
                }
            }
        }
    }

    fn unlimited() -> SearchLimits {
        SearchLimits::within(Duration::from_secs(600))
    }

    #[test]
    fn values_are_the_brute_forces() {
        let limits = unlimited();
        for left in 0..=14 {
            let race = Race::new(left);
            let got = ExactSearch::new(&limits).value(&race);
            let expected = brute(&race);
            let got = got.unwrap_or(f64::NAN);
            assert!((got - expected).abs() < 1e-12, "pile {left}: {got} vs {expected}");
        }
    }

    #[test]
    fn the_best_line_is_worth_its_value_and_no_move_is_worth_more() {
        let limits = unlimited();
        for left in 1..=12 {
            for face in [2, 3] {
                for seat in [0, 1] {
                    let mut race = Race::new(left);
                    race.seat = seat;
                    race.play(RaceMove::Roll(face));
                    let Some(line) = ExactSearch::new(&limits).best_line(&race) else {
                        panic!("pile {left}: no line");
                    };
                    assert_eq!(line.moves.len(), 1, "one move passes the turn");
                    let mut after = race.clone();
                    after.play(line.moves[0]);
                    assert!((line.value - brute(&after)).abs() < 1e-12);
                    for mv in race.legal_moves() {
                        let mut other = race.clone();
                        other.play(mv);
                        let value = brute(&other);
                        let no_better = if seat == 0 {
                            value <= line.value + 1e-12
                        } else {
                            value >= line.value - 1e-12
                        };
                        assert!(no_better, "pile {left} face {face} seat {seat}: {mv:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_memo_saves_work_and_respects_its_capacity() {
        let limits = unlimited();
        let race = Race::new(16);
        let mut remembering = ExactSearch::new(&limits);
        let remembered = remembering.value(&race);
        let mut forgetting = ExactSearch::new(&limits).with_memo_capacity(0);
        let forgotten = forgetting.value(&race);
        assert_eq!(remembered, forgotten);
        assert_eq!(forgetting.memo_len(), 0);
        assert!(remembering.memo_len() > 0);
        assert!(remembering.nodes() * 10 < forgetting.nodes());
        let mut capped = ExactSearch::new(&limits).with_memo_capacity(5);
        assert_eq!(capped.value(&race), remembered);
        assert_eq!(capped.memo_len(), 5);
    }

    #[test]
    fn the_node_budget_is_respected_and_an_interrupted_search_answers_none() {
        let race = Race::new(16);
        let full = ExactSearch::new(&unlimited()).with_memo_capacity(0).value(&race);
        assert!(full.is_some());
        race.plays.set(0);
        for budget in [1, 10, 1_000, 5_000] {
            let limits = unlimited().with_max_nodes(budget);
            let mut search = ExactSearch::new(&limits).with_memo_capacity(0);
            assert_eq!(search.value(&race), None, "budget {budget}");
            assert_eq!(search.nodes(), budget);
            // Every node but the root is a move played: none after the last.
            assert_eq!(race.plays.get(), budget - 1);
            race.plays.set(0);
        }
        let limits = unlimited().with_max_nodes(100);
        let mut search = ExactSearch::new(&limits).with_nodes_spent(99);
        let mut rolled = race.clone();
        rolled.play(RaceMove::Roll(3));
        assert_eq!(search.best_line(&rolled), None);
    }

    #[test]
    fn a_cancelled_search_stops() {
        let limits = unlimited();
        limits.cancel_handle().store(true, std::sync::atomic::Ordering::Relaxed);
        let mut search = ExactSearch::new(&limits).with_memo_capacity(0);
        assert_eq!(search.value(&Race::new(40)), None);
        assert_eq!(search.nodes(), CHECK_EVERY);
    }

    #[test]
    fn merged_outcomes_keep_the_value() {
        /// The race with faces 2 and 3 merged where the pile is 2 (both
        /// allow the same takes).
        #[derive(Clone)]
        struct Merged(Race);
        impl Game for Merged {
            type Move = RaceMove;
            fn turn(&self) -> Turn {
                self.0.turn()
            }
            fn legal_moves(&self) -> Vec<RaceMove> {
                self.0.legal_moves()
            }
            fn chance_outcomes(&self) -> Vec<(RaceMove, f64)> {
                self.0.chance_outcomes()
            }
            fn play(&mut self, mv: RaceMove) {
                self.0.play(mv)
            }
            fn result(&self) -> Option<GameOutcome> {
                self.0.result()
            }
        }
        impl Expectimax for Merged {
            type Key = (u32, i32, Seat);
            fn memo_key(&self) -> Option<Self::Key> {
                self.0.memo_key()
            }
            fn final_value(&self) -> f64 {
                self.0.final_value()
            }
            fn search_outcomes(&self, out: &mut Vec<(RaceMove, f64)>) {
                if self.0.left == 2 {
                    out.extend([(RaceMove::Roll(1), 0.5), (RaceMove::Roll(2), 0.5)]);
                } else {
                    out.extend(self.0.chance_outcomes());
                }
            }
        }
        let limits = unlimited();
        for left in 0..=12 {
            let merged = ExactSearch::new(&limits).value(&Merged(Race::new(left)));
            let plain = brute(&Race::new(left));
            assert!((merged.unwrap_or(f64::NAN) - plain).abs() < 1e-12, "pile {left}");
        }
    }
}
