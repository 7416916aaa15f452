//! Number Square search: negamax over the future score margin (the mover's
//! points minus the opponent's over the rest of the game) with alpha-beta,
//! a shared transposition table, iterative deepening under the request's
//! limits, and a greedy evaluation at the horizon.
//!
//! Positions are keyed by a Zobrist-style fingerprint of the untaken tiles'
//! (index, value) pairs plus the taken set itself. Taking a tile only flips
//! its term, so a position reached through any move order, or sent again in a
//! later request of the same game, finds the same memo entry.

use super::{game_end, Board, Geometry, Tile, TileBits, Wide, MAX_TILES};
use crate::core::evaluation::Evaluation;
use crate::core::outcome::Outcome;
use crate::hash::mix;
use crate::review::margin_points;
use crate::solve::alphabeta::{AlphaBeta, Bound, Horizon, Opening, Remembered, Score, Step, INFINITY, TO_THE_END};
use crate::solve::limits::SearchLimits;
use crate::solve::memo::{BoundedMemo, MemoStats};
use crate::solve::solvers::{GameSolver, MemoSizes};
use crate::solve::Progress;

/// Entries kept by [`NumberSquareSolver::default`] (some 20 MB at most;
/// only positions searched 5 plies or deeper are shared).
pub const DEFAULT_MEMO_CAPACITY: usize = 1 << 18;

/// Memo depth meaning "searched to the end of the game on every line".
const COMPLETE: u8 = u8::MAX;
/// Nodes this close to the horizon are cheaper to search than to look up.
const MEMO_MIN_DEPTH: u32 = 2;
/// Only positions searched at least this deep go to the shared memo: its
/// locks and hashing cost more than small subtrees, which the search's own
/// table keeps.
const SHARED_MIN_DEPTH: u32 = 5;
/// The most slots in one search's own table (16 bytes each: 32 MiB).
const LOCAL_TABLE_SLOTS: usize = 1 << 21;
/// How many moves are tried before the rest (memo move, killer).
const FIRST_MOVES: usize = 2;
/// A move index that is no move.
const NO_MOVE: u8 = u8::MAX;

/// One searcher per server: holds the transposition table shared by all
/// requests.
pub struct NumberSquareSolver {
    memo: BoundedMemo<PositionKey, MemoEntry>,
}

/// A lead of this many times the largest tile left is nearly a sure win:
/// the scale on which a margin becomes a win chance (answers, reviews and
/// the levels read it). Late in a game of small tiles a few points decide.
pub const SCALE_TILES: f64 = 2.0;

/// The scale of [`margin_points`] on `board`.
pub fn margin_scale(board: &Board) -> f64 {
    SCALE_TILES * board.largest_value().max(1) as f64
}

/// The mover's final margin (the lead so far plus the future margin) on the
/// one evaluation scale: its sign when proved, else [`margin_points`] on
/// the board's scale.
pub fn evaluation(final_margin: i64, proved: bool, board: &Board) -> Evaluation {
    if proved {
        Evaluation::proved(Outcome::of_margin(final_margin as f64), None)
    } else {
        Evaluation::chance(margin_points(final_margin as f64, margin_scale(board)), false)
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub best_move: Tile,
    /// The mover's points minus the opponent's over the rest of the game,
    /// under the best play found.
    pub value: i64,
    /// True only when every line was searched to the end of the game, so that
    /// `best_move` and `value` are exact (and `moves` too, where their bound
    /// says `Exact`).
    pub solved: bool,
    /// The depth (plies) of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// Every available tile with its value (as `value`, for that first
    /// move): `best_move` first, then by value (exact before bounds, ties in
    /// row-major order). The best move's value is exact; the others are
    /// exact when the analysis is solved and there was time left to search
    /// them, else upper bounds (see [`MoveBound`]).
    pub moves: Vec<MoveValue>,
    /// The expected line of play, starting with `best_move`.
    pub principal_variation: Vec<Tile>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub tile: Tile,
    pub value: i64,
    pub bound: MoveBound,
}

/// What a move's `value` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBound {
    /// The move's value under the same search as the analysis' `value`
    /// (exact to the end of the game when `solved`).
    Exact,
    /// The search only proved this move no better than `value`, which is
    /// enough to know it is not the best; its exact value may be lower.
    AtMost,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct PositionKey {
    fingerprint: u64,
    taken: Wide,
}

#[derive(Clone, Copy, Debug)]
struct MemoEntry {
    value: i64,
    bound: Bound,
    /// Plies searched below this position, or [`COMPLETE`].
    depth: u8,
    best_move: u8,
}

#[derive(Clone, Debug)]
struct RootMove {
    index: u8,
    value: i64,
    bound: MoveBound,
    complete: bool,
    line: Vec<u8>,
}

/// Best first: by value, an exact value before a bound equal to it; a
/// stable sort keeps the previous order among equals.
fn sort_root_moves(moves: &mut [RootMove]) {
    moves.sort_by_key(|m| (std::cmp::Reverse(m.value), m.bound != MoveBound::Exact));
}

impl Default for NumberSquareSolver {
    fn default() -> Self {
        Self::new(DEFAULT_MEMO_CAPACITY)
    }
}

impl GameSolver for NumberSquareSolver {
    fn build(sizes: &MemoSizes) -> Self {
        NumberSquareSolver::new(sizes.positions)
    }
}

impl NumberSquareSolver {
    /// A solver whose memo holds at most `memo_capacity` positions.
    pub fn new(memo_capacity: usize) -> Self {
        Self {
            memo: BoundedMemo::new(memo_capacity.max(2)),
        }
    }

    pub fn memo_stats(&self) -> MemoStats {
        self.memo.stats()
    }

    /// The best move for the player to move, or `None` if the game is over.
    /// Always completes at least a one-ply search, then deepens until the
    /// game is solved or `limits` are exhausted.
    pub fn analyze(&self, board: &Board, limits: &SearchLimits) -> Option<Analysis> {
        self.analyze_reporting(board, limits, None)
    }

    /// [`NumberSquareSolver::analyze`], reporting the analysis after each
    /// completed depth that does not solve the game (a report's principal
    /// variation is the iteration's own line, not lengthened from the memo).
    pub fn analyze_reporting(
        &self,
        board: &Board,
        limits: &SearchLimits,
        progress: Progress<'_, Analysis>,
    ) -> Option<Analysis> {
        if board.is_over() {
            return None;
        }
        let tiles = board.size() * board.size();
        if tiles <= u64::CAPACITY {
            self.analyze_with::<u64>(board, limits, progress)
        } else if tiles <= u128::CAPACITY {
            self.analyze_with::<u128>(board, limits, progress)
        } else {
            self.analyze_with::<Wide>(board, limits, progress)
        }
    }

    fn analyze_with<B: TileBits>(
        &self,
        board: &Board,
        limits: &SearchLimits,
        mut progress: Progress<'_, Analysis>,
    ) -> Option<Analysis> {
        let mut search = AlphaBeta::new(Tiles::<B>::new(board, &self.memo, limits), limits);
        let remaining = board.remaining_count() as u32;

        let mut order = search.game.root_moves_by_tile_value();
        let mut finished: Option<(u32, Vec<RootMove>)> = None;
        for depth in 1..=remaining {
            // The first iteration is tiny (one ply) and always finishes, so
            // there is always a move to return.
            search.may_stop = depth > 1;
            if search.may_stop && limits.exhausted(search.nodes) {
                break;
            }
            let Some(moves) = root_iteration(&mut search, depth, &order) else {
                break;
            };
            order = moves.iter().map(|m| m.index).collect();
            let solved = moves.iter().all(|m| m.complete);
            if let (Some(report), false, Some(best)) = (progress.as_deref_mut(), solved, moves.first()) {
                report(&Analysis {
                    best_move: board.tile_of(best.index as usize),
                    value: best.value,
                    solved,
                    depth,
                    nodes: search.nodes,
                    moves: listed_moves(board, &moves),
                    principal_variation: best.line.iter().map(|&index| board.tile_of(index as usize)).collect(),
                });
            }
            finished = Some((depth, moves));
            if solved {
                break;
            }
        }
        let (depth, mut moves) = finished?;
        let solved = moves.iter().all(|m| m.complete);
        if solved {
            search.may_stop = true;
            exact_values(&mut search, &mut moves);
        }
        let best = moves.first()?.clone();
        let root = search.game.position_key();
        let found = Remembered {
            value: best.value,
            bound: Bound::Exact,
            depth,
            best: Some(best.index),
        };
        search.game.remember(root, found, solved, 0, None);
        let line = search.game.extend_line(best.line.clone());
        Some(Analysis {
            best_move: board.tile_of(best.index as usize),
            value: best.value,
            solved,
            depth,
            nodes: search.nodes,
            moves: listed_moves(board, &moves),
            principal_variation: line.iter().map(|&index| board.tile_of(index as usize)).collect(),
        })
    }
}

/// Searches every root move: the first with a full window, the others with
/// a null window that only proves them no better than the best so far (a
/// proof much cheaper than their exact value), searching one properly when
/// it turns out better. `None` if the limits ran out.
fn root_iteration<B: TileBits>(search: &mut AlphaBeta<Tiles<B>>, depth: u32, order: &[u8]) -> Option<Vec<RootMove>> {
    let mut results = Vec::with_capacity(order.len());
    let mut best: Option<i64> = None;
    for &index in order {
        let found = root_move(search, index, depth, best)?;
        if found.bound == MoveBound::Exact {
            best = Some(best.map_or(found.value, |b| b.max(found.value)));
        }
        results.push(found);
    }
    sort_root_moves(&mut results);
    Some(results)
}

/// One root move's value, exact unless `better_than` is given and the move
/// proves no better than it (then the value is an upper bound).
fn root_move<B: TileBits>(
    search: &mut AlphaBeta<Tiles<B>>,
    index: u8,
    depth: u32,
    better_than: Option<i64>,
) -> Option<RootMove> {
    if search.game.ends_game(index) {
        return Some(RootMove {
            index,
            value: search.game.values[index as usize],
            bound: MoveBound::Exact,
            complete: true,
            line: vec![index],
        });
    }
    let mut bound = MoveBound::Exact;
    let mut score = match better_than {
        Some(best) => {
            bound = MoveBound::AtMost;
            search.search_move(index, depth, 0, best, best + 1)
        }
        None => search.search_move(index, depth, 0, -INFINITY, INFINITY),
    };
    if bound == MoveBound::AtMost && better_than.is_some_and(|best| score.value > best) {
        bound = MoveBound::Exact;
        score = search.search_move(index, depth, 0, -INFINITY, INFINITY);
    }
    if search.stopped {
        return None;
    }
    let mut line = vec![index];
    line.extend_from_slice(search.line(1));
    Some(RootMove {
        index,
        value: score.value,
        bound,
        complete: score.complete,
        line,
    })
}

/// Replaces the upper bounds of a solved root by exact values, searching
/// each such move to the end of the game, for as long as the limits allow
/// (a move left unfinished keeps its bound).
fn exact_values<B: TileBits>(search: &mut AlphaBeta<Tiles<B>>, moves: &mut [RootMove]) {
    let depth = search.game.untaken();
    for found in moves.iter_mut() {
        if found.bound == MoveBound::Exact {
            continue;
        }
        match root_move(search, found.index, depth, None) {
            Some(exact) if exact.complete => *found = exact,
            _ => break,
        }
    }
    sort_root_moves(moves);
}

/// A Number Square position under search, taken and given back tile by
/// tile, with the search's own table and the server's shared memo.
struct Tiles<'a, B> {
    geometry: Geometry<B>,
    values: [i64; MAX_TILES],
    zobrist: [u64; MAX_TILES],
    /// The tiles untaken at the root, most valuable first (ties: lowest
    /// index first), so that walking it in order sorts any subset.
    by_value: Vec<u8>,
    memo: &'a BoundedMemo<PositionKey, MemoEntry>,
    local: LocalTable,
    taken: B,
    /// The untaken tiles' (index, value) terms folded together.
    fingerprint: u64,
    /// Per ply, the last move that caused a cutoff there.
    killers: Vec<u8>,
}

/// A node's moves in order: the memo's move and the killer first, then the
/// other legal tiles by falling value (found as they are needed: a cutoff
/// often comes at the first).
struct TileOrder<B> {
    legal: B,
    unsearched: u32,
    first: Option<[u8; FIRST_MOVES]>,
    slot: usize,
}

impl<'a, B: TileBits> Tiles<'a, B> {
    fn new(board: &Board, memo: &'a BoundedMemo<PositionKey, MemoEntry>, limits: &SearchLimits) -> Self {
        let mut values = [0; MAX_TILES];
        let mut zobrist = [0; MAX_TILES];
        for (index, &value) in board.values().iter().enumerate().take(MAX_TILES) {
            values[index] = value;
            zobrist[index] = mix(mix(index as u64) ^ value as u64);
        }
        let geometry = Geometry::<B>::new(board.size());
        let taken = B::from_wide(board.taken_bits());
        let mut by_value: Vec<u8> = geometry
            .full
            .and_not(taken)
            .indices()
            .map(|index| index as u8)
            .collect();
        by_value.sort_by_key(|&index| std::cmp::Reverse(values[index as usize]));
        let size_salt = mix(0x5157_4152_4500 + board.size() as u64);
        let fingerprint = by_value
            .iter()
            .fold(size_salt, |hash, &index| hash ^ zobrist[index as usize]);
        Self {
            geometry,
            by_value,
            values,
            zobrist,
            memo,
            local: LocalTable::with_room_for(expected_positions(board, limits)),
            taken,
            fingerprint,
            killers: vec![NO_MOVE; MAX_TILES + 1],
        }
    }

    fn root_moves_by_tile_value(&self) -> Vec<u8> {
        let legal = self.geometry.legal(self.taken);
        self.by_value
            .iter()
            .copied()
            .filter(|&index| legal.contains(index as usize))
            .collect()
    }

    fn untaken(&self) -> u32 {
        self.geometry.full.and_not(self.taken).count()
    }

    fn ends_game(&self, index: u8) -> bool {
        let tile = index as usize;
        self.geometry.move_ends_game(self.taken.or(B::single(tile)), tile)
    }

    /// The moves to try before the rest: the memo's best move, then this
    /// ply's killer (the last move that refuted a sibling), each if legal,
    /// once. (A second killer searched more nodes in endgames.)
    fn first_moves(&self, legal: B, remembered: u8, ply: usize) -> [u8; FIRST_MOVES] {
        let mut first = [NO_MOVE; FIRST_MOVES];
        let mut count = 0;
        for candidate in [remembered, self.killers[ply]] {
            if candidate != NO_MOVE && legal.contains(candidate as usize) && !first[..count].contains(&candidate) {
                first[count] = candidate;
                count += 1;
            }
        }
        first
    }

    /// The fingerprint folded with the taken set itself: one 64-bit name
    /// for the position.
    fn position_key(&self) -> u64 {
        let Wide([low, middle, high]) = self.taken.to_wide();
        mix(self.fingerprint ^ mix(low ^ mix(middle ^ mix(high))))
    }

    fn shared_key(&self) -> PositionKey {
        PositionKey {
            fingerprint: self.fingerprint,
            taken: self.taken.to_wide(),
        }
    }

    /// A guess at the rest of the game: the players share out the exposed
    /// tiles greedily, best first, the mover first (ignoring what taking
    /// them would expose). Sharing out all of them, rather than a fixed
    /// few, keeps the guess from handing one side an extra big tile at odd
    /// depths: the last tile shared is the smallest.
    fn horizon_estimate(&self) -> i64 {
        let legal = self.geometry.legal(self.taken);
        let mut unseen = legal.count();
        let mut estimate = 0;
        let mut movers_turn = true;
        for &index in &self.by_value {
            if unseen == 0 {
                break;
            }
            if legal.contains(index as usize) {
                let value = self.values[index as usize];
                estimate += if movers_turn { value } else { -value };
                movers_turn = !movers_turn;
                unseen -= 1;
            }
        }
        estimate
    }

    /// Lengthens a line cut short by memo hits, following the memo's best
    /// moves while they are legal and the game goes on.
    fn extend_line(&mut self, mut line: Vec<u8>) -> Vec<u8> {
        let (taken, fingerprint) = (self.taken, self.fingerprint);
        for &index in &line {
            self.take(index);
        }
        while game_end(&self.geometry, self.taken).is_none() {
            let best = self
                .recall(&self.position_key(), u32::MAX, 0)
                .and_then(|entry| entry.best)
                .filter(|&index| self.geometry.legal(self.taken).contains(index as usize));
            let Some(index) = best else {
                break;
            };
            line.push(index);
            self.take(index);
        }
        (self.taken, self.fingerprint) = (taken, fingerprint);
        line
    }

    fn take(&mut self, index: u8) {
        self.taken = self.taken.or(B::single(index as usize));
        self.fingerprint ^= self.zobrist[index as usize];
    }
}

impl<B: TileBits> Horizon for Tiles<'_, B> {
    type Move = u8;
    type Key = u64;
    type Node = TileOrder<B>;

    const NULL_WINDOW_SIBLINGS: bool = true;
    const KEEPS_LINES: bool = true;

    fn horizon(&mut self, _ply: u32) -> Score {
        Score::estimate(self.horizon_estimate())
    }

    fn open(&mut self, _depth: u32, _ply: u32, _alpha: i64, _beta: i64) -> Opening<TileOrder<B>> {
        let node = TileOrder {
            legal: B::empty(),
            unsearched: 0,
            first: None,
            slot: 0,
        };
        Opening::Search { node, floor: -INFINITY }
    }

    fn key(&self, depth: u32) -> Option<u64> {
        (depth >= MEMO_MIN_DEPTH).then(|| self.position_key())
    }

    /// The search's own table first, then (for deep enough nodes) the
    /// shared memo, whose hits are copied into the own table.
    fn recall(&mut self, key: &u64, depth: u32, _ply: u32) -> Option<Remembered<u8>> {
        let entry = match self.local.get(*key) {
            Some(entry) => entry,
            None if depth >= SHARED_MIN_DEPTH => {
                let entry = self.memo.get(&self.shared_key())?;
                self.local.insert(*key, entry);
                entry
            }
            None => return None,
        };
        Some(Remembered {
            value: entry.value,
            bound: entry.bound,
            depth: if entry.depth == COMPLETE {
                TO_THE_END
            } else {
                u32::from(entry.depth)
            },
            best: (entry.best_move != NO_MOVE).then_some(entry.best_move),
        })
    }

    fn remember(
        &mut self,
        key: u64,
        found: Remembered<u8>,
        complete: bool,
        _ply: u32,
        _before: Option<Remembered<u8>>,
    ) {
        let entry = MemoEntry {
            value: found.value,
            bound: found.bound,
            depth: if complete {
                COMPLETE
            } else {
                found.depth.min(u32::from(COMPLETE) - 1) as u8
            },
            best_move: found.best.unwrap_or(NO_MOVE),
        };
        self.local.insert(key, entry);
        if found.depth >= SHARED_MIN_DEPTH {
            self.memo.insert(self.shared_key(), entry);
        }
    }

    fn next_move(&mut self, order: &mut TileOrder<B>, ply: u32, remembered: Option<u8>) -> Option<u8> {
        let first = match order.first {
            Some(first) => first,
            None => {
                order.legal = self.geometry.legal(self.taken);
                order.unsearched = order.legal.count();
                let first = self.first_moves(order.legal, remembered.unwrap_or(NO_MOVE), ply as usize);
                order.first = Some(first);
                first
            }
        };
        if order.unsearched == 0 {
            return None;
        }
        if let Some(&index) = first.get(order.slot) {
            order.slot += 1;
            if index != NO_MOVE {
                order.unsearched -= 1;
                return Some(index);
            }
            order.slot = FIRST_MOVES;
        }
        while let Some(&index) = self.by_value.get(order.slot - FIRST_MOVES) {
            order.slot += 1;
            if order.legal.contains(index as usize) && !first.contains(&index) {
                order.unsearched -= 1;
                return Some(index);
            }
        }
        None
    }

    fn play(&mut self, index: u8, _ply: u32) -> Step {
        self.take(index);
        let points = self.values[index as usize];
        if self.geometry.move_ends_game(self.taken, index as usize) {
            Step::Ends(points)
        } else {
            Step::Continues(points)
        }
    }

    fn undo(&mut self, index: u8) {
        self.taken = self.taken.and_not(B::single(index as usize));
        self.fingerprint ^= self.zobrist[index as usize];
    }

    fn refuted_by(&mut self, index: u8, ply: u32) {
        self.killers[ply as usize] = index;
    }
}

/// One search's own transposition table: direct-mapped, always replacing,
/// no locks, two words a slot (a 64-bit position hash, then the entry
/// packed), allocated zeroed so that untouched pages cost nothing.
struct LocalTable {
    slots: Vec<[u64; 2]>,
    mask: usize,
}

impl LocalTable {
    /// Room for about `positions` entries, within [`LOCAL_TABLE_SLOTS`].
    fn with_room_for(positions: u64) -> Self {
        let slots = positions.clamp(1 << 10, LOCAL_TABLE_SLOTS as u64).next_power_of_two() as usize;
        Self {
            slots: vec![[0; 2]; slots],
            mask: slots - 1,
        }
    }

    fn get(&self, hash: u64) -> Option<MemoEntry> {
        let [stored, packed] = *self.slots.get((hash >> 20) as usize & self.mask)?;
        if stored == hash {
            unpack(packed)
        } else {
            None
        }
    }

    fn insert(&mut self, hash: u64, entry: MemoEntry) {
        let Some(packed) = pack(&entry) else {
            return;
        };
        if let Some(slot) = self.slots.get_mut((hash >> 20) as usize & self.mask) {
            *slot = [hash, packed];
        }
    }
}

const PACKED_IN_USE: u64 = 1 << 56;

/// value (32 bits) | depth << 32 | bound << 40 | best move << 48 | in use.
/// `None` for a value beyond 32 bits (not a real margin).
fn pack(entry: &MemoEntry) -> Option<u64> {
    let value = i32::try_from(entry.value).ok()? as u32 as u64;
    let bound = match entry.bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    Some(value | (entry.depth as u64) << 32 | bound << 40 | (entry.best_move as u64) << 48 | PACKED_IN_USE)
}

fn unpack(packed: u64) -> Option<MemoEntry> {
    if packed & PACKED_IN_USE == 0 {
        return None;
    }
    let bound = match (packed >> 40) & 0xff {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    Some(MemoEntry {
        value: packed as u32 as i32 as i64,
        bound,
        depth: (packed >> 32) as u8,
        best_move: (packed >> 48) as u8,
    })
}

/// The root moves for the analysis: the chosen move first, then by value,
/// exact before bounds, ties in row-major order.
fn listed_moves(board: &Board, moves: &[RootMove]) -> Vec<MoveValue> {
    let mut listed: Vec<MoveValue> = moves
        .iter()
        .map(|m| MoveValue {
            tile: board.tile_of(m.index as usize),
            value: m.value,
            bound: m.bound,
        })
        .collect();
    if let Some((_, others)) = listed.split_first_mut() {
        others.sort_by_key(|m| (std::cmp::Reverse(m.value), m.bound != MoveBound::Exact, m.tile));
    }
    listed
}

/// About how many positions a search within `limits` stores, which sizes
/// its own table: a few million nodes a second, at most every subset of the
/// untaken tiles.
fn expected_positions(board: &Board, limits: &SearchLimits) -> u64 {
    const POSITIONS_PER_SECOND: u64 = 4_000_000;
    let time_left = limits.deadline().saturating_duration_since(std::time::Instant::now());
    let by_time = (time_left.as_millis() as u64).saturating_mul(POSITIONS_PER_SECOND / 1000);
    let by_board = 1u64.checked_shl(board.remaining_count() as u32).unwrap_or(u64::MAX);
    by_time.min(limits.max_nodes()).min(by_board)
}
