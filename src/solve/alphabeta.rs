//! Depth-limited negamax with alpha-beta, written once for every game whose
//! search stops at a horizon (tic-tac-toe on m,n,k boards, Number Square):
//! a memo whose entries carry their bound, the depth they were searched to
//! and their best move; optional principal variation search; a principal
//! variation table; the node count checked against [`SearchLimits`] so that
//! no search runs past its budget or outlives its cancellation.
//!
//! The game supplies what is its own through [`Horizon`]: its moves in the
//! order worth trying, what a move is worth, verdicts that need no search,
//! the estimate at the horizon, and where its entries are remembered (keyed
//! by its own canonical form and symmetries). The root (iterative deepening,
//! which moves to value, when the answer is proved) stays with each game's
//! solver, which calls [`AlphaBeta::negamax`] and [`AlphaBeta::search_move`].
//!
//! Values are the mover's, higher is better, and a move's value is its
//! reward minus the opponent's value of what follows. A [`Score`] also says
//! whether it is exact to the end of the game (no horizon estimate went
//! into it), which is how a search knows it has solved a position.

use super::limits::SearchLimits;
pub use super::table::Bound;

/// Check the limits once every this many nodes (a power of two).
const CHECK_EVERY: u64 = 256;

/// A value no game reaches, for windows that are open on one side.
pub const INFINITY: i64 = 1 << 60;

/// A searched value and whether it holds to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub value: i64,
    pub complete: bool,
}

impl Score {
    pub fn exact(value: i64) -> Score {
        Score { value, complete: true }
    }

    pub fn estimate(value: i64) -> Score {
        Score { value, complete: false }
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// It ended the game; the mover's value of the move.
    Ends(i64),
    /// The game goes on; what the move itself earned the mover.
    Continues(i64),
}

/// What a node knows before it searches.
pub enum Opening<N> {
    /// Its value, with no search needed.
    Settled(Score),
    /// Search it: `node` is what the game needs to hand out its moves, and
    /// no move has to do better than `floor` (a value the mover is known to
    /// reach anyway; [`-INFINITY`](INFINITY) when none is).
    Search { node: N, floor: i64 },
}

/// A remembered search result, relative to its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remembered<M> {
    pub value: i64,
    pub bound: Bound,
    /// Plies searched below the node; when recalled, [`TO_THE_END`] for a
    /// result that holds at any depth.
    pub depth: u32,
    pub best: Option<M>,
}

/// The depth of a result that no deeper search can change.
pub const TO_THE_END: u32 = u32::MAX;

impl<M> Remembered<M> {
    /// The value this entry settles a node searched to `depth` with window
    /// (`alpha`, `beta`) at, if it does.
    pub fn settles(&self, depth: u32, alpha: i64, beta: i64) -> Option<Score> {
        if self.depth < depth {
            return None;
        }
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.value >= beta,
            Bound::Upper => self.value <= alpha,
        };
        settles.then_some(Score {
            value: self.value,
            complete: self.depth == TO_THE_END,
        })
    }
}

/// A game position searched with make and unmake, and the rules of its
/// search. Implementors hold the position and whatever tables the search
/// keeps of its own.
pub trait Horizon {
    type Move: Copy + Eq;
    /// Where a position's entry is remembered (computed once per node).
    type Key;
    /// A node's move order in progress.
    type Node;

    /// Search every move after the first with a null window first, and
    /// fully only when it proves better (principal variation search).
    const NULL_WINDOW_SIBLINGS: bool;

    /// Keep the best line below every node (see [`AlphaBeta::line`]); a
    /// game that reads its line from the memo saves the copying.
    const KEEPS_LINES: bool;

    /// The position's value at the horizon (depth 0).
    fn horizon(&mut self, ply: u32) -> Score;

    /// The depth worth searching when `depth` is asked for (no more than
    /// the plies the game can still last, say).
    fn clamp_depth(&self, depth: u32) -> u32 {
        depth
    }

    /// Verdicts that need no search, or how to search the node.
    fn open(&mut self, depth: u32, ply: u32, alpha: i64, beta: i64) -> Opening<Self::Node>;

    /// The node's memo key, if a node searched to `depth` is worth
    /// remembering.
    fn key(&self, depth: u32) -> Option<Self::Key>;

    fn recall(&mut self, key: &Self::Key, depth: u32, ply: u32) -> Option<Remembered<Self::Move>>;

    /// Remembers a result searched to `found.depth`; `complete` when it
    /// holds to the end of the game; `before` is what the memo held when
    /// the node was entered.
    fn remember(
        &mut self,
        key: Self::Key,
        found: Remembered<Self::Move>,
        complete: bool,
        ply: u32,
        before: Option<Remembered<Self::Move>>,
    );

    /// The next move to try, best guess first; `remembered` is the memo's
    /// best move for the node, if any. None when all are tried.
    fn next_move(&mut self, node: &mut Self::Node, ply: u32, remembered: Option<Self::Move>) -> Option<Self::Move>;

    /// The node is done with its moves (buffers go back).
    fn close(&mut self, _node: Self::Node, _ply: u32) {}

    fn play(&mut self, mv: Self::Move, ply: u32) -> Step;

    fn undo(&mut self, mv: Self::Move);

    /// `mv` refuted the node at `ply` (a killer-move heuristic keeps it).
    fn refuted_by(&mut self, _mv: Self::Move, _ply: u32) {}
}

/// One search: the game, the node count and the limits, and the best line
/// found below each ply.
pub struct AlphaBeta<'a, G: Horizon> {
    pub game: G,
    limits: &'a SearchLimits,
    pub nodes: u64,
    /// The limits ran out: every value since is meaningless.
    pub stopped: bool,
    /// False while the first, tiny iteration runs, which always finishes.
    pub may_stop: bool,
    /// Row `ply`: the best line from that ply, `line_lengths[ply]` long.
    lines: Vec<Vec<G::Move>>,
}

impl<'a, G: Horizon> AlphaBeta<'a, G> {
    pub fn new(game: G, limits: &'a SearchLimits) -> AlphaBeta<'a, G> {
        AlphaBeta {
            game,
            limits,
            nodes: 0,
            stopped: false,
            may_stop: true,
            lines: Vec::new(),
        }
    }

    /// Counts a node and stops the search once the limits run out.
    pub fn count_node(&mut self) {
        self.nodes += 1;
        if self.may_stop && self.nodes.is_multiple_of(CHECK_EVERY) && self.limits.exhausted(self.nodes) {
            self.stopped = true;
        }
    }

    /// The best line found from `ply` in the last search that reached it
    /// (empty unless the game [keeps lines](Horizon::KEEPS_LINES)).
    pub fn line(&self, ply: u32) -> &[G::Move] {
        self.lines.get(ply as usize).map_or(&[], |line| line.as_slice())
    }

    /// The mover's value of `mv` searched to `depth` plies in all (the move
    /// included), within (`alpha`, `beta`).
    pub fn search_move(&mut self, mv: G::Move, depth: u32, ply: u32, alpha: i64, beta: i64) -> Score {
        let score = match self.game.play(mv, ply) {
            Step::Ends(value) => {
                self.clear_line(ply + 1);
                Score::exact(value)
            }
            Step::Continues(reward) => {
                let reply = self.negamax(depth.saturating_sub(1), ply + 1, reward - beta, reward - alpha);
                Score {
                    value: reward - reply.value,
                    complete: reply.complete,
                }
            }
        };
        self.game.undo(mv);
        score
    }

    /// The value of the position for the player to move, searched `depth`
    /// plies deep, within (`alpha`, `beta`): fail-soft, so a value outside
    /// the window bounds the true one on that side.
    pub fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i64, beta: i64) -> Score {
        self.count_node();
        self.clear_line(ply);
        if self.stopped {
            return Score::estimate(0);
        }
        let depth = self.game.clamp_depth(depth);
        if depth == 0 {
            return self.game.horizon(ply);
        }
        let (mut node, floor) = match self.game.open(depth, ply, alpha, beta) {
            Opening::Settled(score) => return score,
            Opening::Search { node, floor } => (node, floor),
        };
        let key = self.game.key(depth);
        let before = key.as_ref().and_then(|key| self.game.recall(key, depth, ply));
        if let Some(score) = before.and_then(|entry| entry.settles(depth, alpha, beta)) {
            self.game.close(node, ply);
            return score;
        }
        let remembered = before.and_then(|entry| entry.best);

        let alpha_in = alpha;
        let mut best = Score::estimate(floor);
        if floor >= beta {
            self.game.close(node, ply);
            return best;
        }
        best.complete = floor == -INFINITY;
        alpha = alpha.max(floor);
        let mut best_move = None;
        while let Some(mv) = self.game.next_move(&mut node, ply, remembered) {
            let score = if G::NULL_WINDOW_SIBLINGS && best_move.is_some() {
                let probe = self.search_move(mv, depth, ply, alpha, alpha + 1);
                if !self.stopped && probe.value > alpha && probe.value < beta {
                    self.search_move(mv, depth, ply, alpha, beta)
                } else {
                    probe
                }
            } else {
                self.search_move(mv, depth, ply, alpha, beta)
            };
            if self.stopped {
                break;
            }
            best.complete &= score.complete;
            if score.value > best.value {
                best.value = score.value;
                best_move = Some(mv);
                if score.value > alpha {
                    alpha = score.value;
                    self.record_line(ply, mv);
                }
            }
            if alpha >= beta {
                self.game.refuted_by(mv, ply);
                break;
            }
        }
        self.game.close(node, ply);
        if self.stopped {
            return Score::estimate(0);
        }

        if let Some(key) = key {
            let bound = if best.value <= alpha_in {
                Bound::Upper
            } else if best.value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let found = Remembered {
                value: best.value,
                bound,
                depth,
                best: best_move,
            };
            self.game.remember(key, found, best.complete, ply, before);
        }
        best
    }

    fn clear_line(&mut self, ply: u32) {
        if !G::KEEPS_LINES {
            return;
        }
        let ply = ply as usize;
        if self.lines.len() <= ply {
            self.lines.resize_with(ply + 1, Vec::new);
        }
        self.lines[ply].clear();
    }

    /// The line at `ply` becomes `mv` followed by the line below it.
    fn record_line(&mut self, ply: u32, mv: G::Move) {
        if !G::KEEPS_LINES {
            return;
        }
        let ply = ply as usize;
        let (upper, lower) = self.lines.split_at_mut(ply + 1);
        let line = &mut upper[ply];
        line.clear();
        line.push(mv);
        if let Some(below) = lower.first() {
            line.extend_from_slice(below);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Coins in a row; a player takes the first or the last and scores it.
    /// `PVS` picks the sibling search under test.
    struct Coins<const PVS: bool> {
        coins: Vec<i64>,
        first: usize,
        last: usize,
        /// None: nothing is remembered, so every line runs to the end.
        memo: Option<HashMap<(usize, usize), Remembered<bool>>>,
    }

    impl<const PVS: bool> Coins<PVS> {
        fn new(coins: &[i64], remembering: bool) -> Self {
            Coins {
                coins: coins.to_vec(),
                first: 0,
                last: coins.len(),
                memo: remembering.then(HashMap::new),
            }
        }
    }

    impl<const PVS: bool> Horizon for Coins<PVS> {
        /// true: the last coin.
        type Move = bool;
        type Key = (usize, usize);
        type Node = u8;

        const NULL_WINDOW_SIBLINGS: bool = PVS;
        const KEEPS_LINES: bool = true;

        fn horizon(&mut self, _ply: u32) -> Score {
            Score::estimate(0)
        }

        fn open(&mut self, _depth: u32, _ply: u32, _alpha: i64, _beta: i64) -> Opening<u8> {
            Opening::Search {
                node: 0,
                floor: -INFINITY,
            }
        }

        fn key(&self, _depth: u32) -> Option<(usize, usize)> {
            self.memo.is_some().then_some((self.first, self.last))
        }

        fn recall(&mut self, key: &(usize, usize), _depth: u32, _ply: u32) -> Option<Remembered<bool>> {
            self.memo.as_ref()?.get(key).copied()
        }

        fn remember(
            &mut self,
            key: (usize, usize),
            mut found: Remembered<bool>,
            complete: bool,
            _ply: u32,
            _before: Option<Remembered<bool>>,
        ) {
            if complete {
                found.depth = TO_THE_END;
            }
            if let Some(memo) = self.memo.as_mut() {
                memo.insert(key, found);
            }
        }

        fn next_move(&mut self, tried: &mut u8, _ply: u32, remembered: Option<bool>) -> Option<bool> {
            let order = match remembered {
                Some(true) => [true, false],
                _ => [false, true],
            };
            let next = order.get(usize::from(*tried)).copied();
            *tried += 1;
            // One coin left: both ends are the same move.
            next.filter(|_| *tried == 1 || self.last - self.first > 1)
        }

        fn play(&mut self, last: bool, _ply: u32) -> Step {
            let coin = if last {
                self.last -= 1;
                self.coins[self.last]
            } else {
                self.first += 1;
                self.coins[self.first - 1]
            };
            if self.first == self.last {
                Step::Ends(coin)
            } else {
                Step::Continues(coin)
            }
        }

        fn undo(&mut self, last: bool) {
            if last {
                self.last += 1;
            } else {
                self.first -= 1;
            }
        }
    }

    fn brute_force(coins: &[i64]) -> i64 {
        match coins {
            [] => 0,
            [only] => *only,
            [head, rest @ ..] => {
                let (init, tail) = coins.split_at(coins.len() - 1);
                (head - brute_force(rest)).max(tail[0] - brute_force(init))
            }
        }
    }

    fn solve<const PVS: bool>(
        coins: &[i64],
        remembering: bool,
        depth: u32,
        limits: &SearchLimits,
    ) -> (Score, Vec<bool>) {
        let mut search = AlphaBeta::new(Coins::<PVS>::new(coins, remembering), limits);
        let score = search.negamax(depth, 0, -INFINITY, INFINITY);
        (score, search.line(0).to_vec())
    }

    /// The value of playing `line` to the end (each move's coin to its
    /// mover, as the first player's margin).
    fn margin_along(coins: &[i64], line: &[bool]) -> i64 {
        let (mut first, mut last, mut sign, mut margin) = (0, coins.len(), 1, 0);
        for &from_end in line {
            let coin = if from_end {
                last -= 1;
                coins[last]
            } else {
                first += 1;
                coins[first - 1]
            };
            margin += sign * coin;
            sign = -sign;
        }
        margin
    }

    #[test]
    fn full_depth_searches_equal_a_brute_force_and_are_complete() {
        let mut rng = StdRng::seed_from_u64(7);
        let limits = SearchLimits::within(Duration::from_secs(60));
        for _ in 0..300 {
            let length = rng.gen_range(2..=11);
            let coins: Vec<i64> = (0..length).map(|_| rng.gen_range(-20..=20)).collect();
            let exact = brute_force(&coins);
            for remembering in [true, false] {
                let searches = [
                    solve::<true>(&coins, remembering, 20, &limits),
                    solve::<false>(&coins, remembering, 20, &limits),
                ];
                for (score, line) in searches {
                    assert_eq!(score, Score::exact(exact), "{coins:?}");
                    // A memo hit cuts the line short; without a memo it is whole.
                    if !remembering {
                        assert_eq!(line.len(), length, "{coins:?}: the line reaches the end");
                        assert_eq!(
                            margin_along(&coins, &line),
                            exact,
                            "{coins:?}: the line earns the value"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_search_short_of_the_end_is_not_complete() {
        let coins = [3, -1, 4, 1, -5, 9, 2, 6];
        let limits = SearchLimits::within(Duration::from_secs(60));
        let (score, _) = solve::<true>(&coins, true, 3, &limits);
        assert!(!score.complete);
    }

    #[test]
    fn a_spent_node_budget_stops_the_search() {
        let coins: Vec<i64> = (0..24).map(|i| (i * 7919) % 31 - 15).collect();
        let limits = SearchLimits::within(Duration::from_secs(60)).with_max_nodes(1_000);
        let mut search = AlphaBeta::new(Coins::<true>::new(&coins, true), &limits);
        search.negamax(24, 0, -INFINITY, INFINITY);
        assert!(search.stopped);
        assert!(search.nodes < 1_000 + CHECK_EVERY);
    }
}
