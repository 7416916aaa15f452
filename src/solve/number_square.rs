//! Number Square search: negamax over the future score margin (the mover's
//! points minus the opponent's over the rest of the game) with alpha-beta,
//! a shared transposition table, iterative deepening under the request's
//! limits, and a greedy evaluation at the horizon.
//!
//! Positions are keyed by a Zobrist-style fingerprint of the untaken tiles'
//! (index, value) pairs plus the taken set itself. Taking a tile only flips
//! its term, so a position reached through any move order, or sent again in a
//! later request of the same game, finds the same memo entry.

use crate::games::number_square::{game_end, Board, Geometry, Tile, TileBits, Wide, MAX_TILES};
use crate::solve::limits::SearchLimits;
use crate::solve::memo::{BoundedMemo, MemoStats};
use crate::solve::Progress;

/// Entries kept by [`NumberSquareSolver::default`] (some 20 MB at most;
/// only positions searched 5 plies or deeper are shared).
pub const DEFAULT_MEMO_CAPACITY: usize = 1 << 18;

/// A margin no game can reach: 144 tiles of 10^6 make 1.44 * 10^8.
const INFINITY: i64 = 1 << 60;
/// Memo depth meaning "searched to the end of the game on every line".
const TO_THE_END: u8 = u8::MAX;
/// Nodes this close to the horizon are cheaper to search than to look up.
const MEMO_MIN_DEPTH: u32 = 2;
/// Only positions searched at least this deep go to the shared memo: its
/// locks and hashing cost more than small subtrees, which the search's own
/// table keeps.
const SHARED_MIN_DEPTH: u32 = 5;
/// The most slots in one search's own table (16 bytes each: 32 MiB).
const LOCAL_TABLE_SLOTS: usize = 1 << 21;
/// Check the limits once every this many nodes (a power of two).
const LIMIT_CHECK_INTERVAL: u64 = 1024;
/// How many moves are tried before the rest (memo move, killer).
const FIRST_MOVES: usize = 2;
/// A move index that is no move.
const NO_MOVE: u8 = u8::MAX;

/// One searcher per server: holds the transposition table shared by all
/// requests.
pub struct NumberSquareSolver {
    memo: BoundedMemo<PositionKey, MemoEntry>,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least `value`.
    Lower,
    /// The true value is at most `value`.
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct MemoEntry {
    value: i64,
    bound: Bound,
    /// Plies searched below this position, or [`TO_THE_END`].
    depth: u8,
    best_move: u8,
}

/// A search result: its value and whether no horizon estimate went into it.
#[derive(Clone, Copy, Debug)]
struct Score {
    value: i64,
    complete: bool,
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
    pub fn analyse(&self, board: &Board, limits: &SearchLimits) -> Option<Analysis> {
        self.analyse_reporting(board, limits, None)
    }

    /// [`NumberSquareSolver::analyse`], reporting the analysis after each
    /// completed depth that does not solve the game (a report's principal
    /// variation is the iteration's own line, not lengthened from the memo).
    pub fn analyse_reporting(
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
            self.analyse_with::<u64>(board, limits, progress)
        } else if tiles <= u128::CAPACITY {
            self.analyse_with::<u128>(board, limits, progress)
        } else {
            self.analyse_with::<Wide>(board, limits, progress)
        }
    }

    fn analyse_with<B: TileBits>(
        &self,
        board: &Board,
        limits: &SearchLimits,
        mut progress: Progress<'_, Analysis>,
    ) -> Option<Analysis> {
        let mut search = Search::<B>::new(board, &self.memo, limits);
        let root = B::from_wide(board.taken_bits());
        let fingerprint = search.fingerprint(root);
        let remaining = board.remaining_count() as u32;

        let mut order = search.root_moves_by_tile_value(root);
        let mut finished: Option<(u32, Vec<RootMove>)> = None;
        for depth in 1..=remaining {
            // The first iteration is tiny (one ply) and always finishes, so
            // there is always a move to return.
            search.may_abort = depth > 1;
            if search.may_abort && limits.exhausted(search.nodes) {
                break;
            }
            let Some(moves) = search.root_iteration(root, fingerprint, depth, &order) else {
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
            search.may_abort = true;
            search.exact_values(root, fingerprint, &mut moves);
        }
        let best = moves.first()?.clone();
        search.store(
            root,
            fingerprint,
            Score {
                value: best.value,
                complete: solved,
            },
            Bound::Exact,
            depth,
            best.index,
        );
        let line = search.extend_line(root, fingerprint, best.line.clone());
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

/// One request's search state.
struct Search<'a, B> {
    geometry: Geometry<B>,
    size_salt: u64,
    values: [i64; MAX_TILES],
    zobrist: [u64; MAX_TILES],
    /// The tiles untaken at the root, most valuable first (ties: lowest
    /// index first), so that walking it in order sorts any subset.
    by_value: Vec<u8>,
    memo: &'a BoundedMemo<PositionKey, MemoEntry>,
    local: LocalTable,
    limits: &'a SearchLimits,
    nodes: u64,
    may_abort: bool,
    aborted: bool,
    /// Triangular principal-variation table: row `ply` holds the best line
    /// found from that ply, `line_lengths[ply]` long.
    lines: Vec<[u8; MAX_TILES]>,
    line_lengths: Vec<usize>,
    /// Per ply, the last move that caused a cutoff there.
    killers: Vec<u8>,
}

impl<'a, B: TileBits> Search<'a, B> {
    fn new(board: &Board, memo: &'a BoundedMemo<PositionKey, MemoEntry>, limits: &'a SearchLimits) -> Self {
        let mut values = [0; MAX_TILES];
        let mut zobrist = [0; MAX_TILES];
        for (index, &value) in board.values().iter().enumerate().take(MAX_TILES) {
            values[index] = value;
            zobrist[index] = mix(mix(index as u64) ^ value as u64);
        }
        let geometry = Geometry::<B>::new(board.size());
        let mut by_value: Vec<u8> = geometry
            .full
            .and_not(B::from_wide(board.taken_bits()))
            .indices()
            .map(|index| index as u8)
            .collect();
        by_value.sort_by_key(|&index| std::cmp::Reverse(values[index as usize]));
        Self {
            geometry,
            by_value,
            size_salt: mix(0x5157_4152_4500 + board.size() as u64),
            values,
            zobrist,
            memo,
            local: LocalTable::with_room_for(expected_positions(board, limits)),
            limits,
            nodes: 0,
            may_abort: false,
            aborted: false,
            lines: vec![[NO_MOVE; MAX_TILES]; MAX_TILES + 1],
            line_lengths: vec![0; MAX_TILES + 1],
            killers: vec![NO_MOVE; MAX_TILES + 1],
        }
    }

    fn fingerprint(&self, taken: B) -> u64 {
        self.geometry
            .full
            .and_not(taken)
            .indices()
            .fold(self.size_salt, |hash, index| hash ^ self.zobrist[index])
    }

    fn root_moves_by_tile_value(&self, taken: B) -> Vec<u8> {
        let legal = self.geometry.legal(taken);
        self.by_value
            .iter()
            .copied()
            .filter(|&index| legal.contains(index as usize))
            .collect()
    }

    /// Searches every root move: the first with a full window, the others
    /// with a null window that only proves them no better than the best so
    /// far (a proof much cheaper than their exact value), searching one
    /// properly when it turns out better. `None` if the limits ran out.
    fn root_iteration(&mut self, root: B, fingerprint: u64, depth: u32, order: &[u8]) -> Option<Vec<RootMove>> {
        let mut results = Vec::with_capacity(order.len());
        let mut best: Option<i64> = None;
        for &index in order {
            let found = self.root_move(root, fingerprint, index, depth, best)?;
            if found.bound == MoveBound::Exact {
                best = Some(best.map_or(found.value, |b| b.max(found.value)));
            }
            results.push(found);
        }
        sort_root_moves(&mut results);
        Some(results)
    }

    /// One root move's value, exact unless `better_than` is given and the
    /// move proves no better than it (then the value is an upper bound).
    fn root_move(
        &mut self,
        root: B,
        fingerprint: u64,
        index: u8,
        depth: u32,
        better_than: Option<i64>,
    ) -> Option<RootMove> {
        let tile = index as usize;
        let child = root.or(B::single(tile));
        let points = self.values[tile];
        if self.geometry.move_ends_game(child, tile) {
            return Some(RootMove {
                index,
                value: points,
                bound: MoveBound::Exact,
                complete: true,
                line: vec![index],
            });
        }
        let child_fingerprint = fingerprint ^ self.zobrist[tile];
        let mut bound = MoveBound::Exact;
        let mut reply = match better_than {
            Some(best) => {
                bound = MoveBound::AtMost;
                self.negamax(child, child_fingerprint, depth - 1, points - best - 1, points - best, 1)
            }
            None => self.negamax(child, child_fingerprint, depth - 1, -INFINITY, INFINITY, 1),
        };
        if bound == MoveBound::AtMost && better_than.is_some_and(|best| points - reply.value > best) {
            bound = MoveBound::Exact;
            reply = self.negamax(child, child_fingerprint, depth - 1, -INFINITY, INFINITY, 1);
        }
        if self.aborted {
            return None;
        }
        let mut line = vec![index];
        line.extend_from_slice(&self.lines[1][..self.line_lengths[1]]);
        Some(RootMove {
            index,
            value: points - reply.value,
            bound,
            complete: reply.complete,
            line,
        })
    }

    /// Replaces the upper bounds of a solved root by exact values, searching
    /// each such move to the end of the game, for as long as the limits
    /// allow (a move left unfinished keeps its bound).
    fn exact_values(&mut self, root: B, fingerprint: u64, moves: &mut [RootMove]) {
        let depth = self.geometry.full.and_not(root).count();
        for found in moves.iter_mut() {
            if found.bound == MoveBound::Exact {
                continue;
            }
            match self.root_move(root, fingerprint, found.index, depth, None) {
                Some(exact) if exact.complete => *found = exact,
                _ => break,
            }
        }
        sort_root_moves(moves);
    }

    /// The value of a position still in play for the player to move, within
    /// the window (`alpha`, `beta`), fail-soft.
    fn negamax(&mut self, taken: B, fingerprint: u64, depth: u32, mut alpha: i64, beta: i64, ply: usize) -> Score {
        self.nodes += 1;
        self.line_lengths[ply] = 0;
        if self.may_abort && self.nodes & (LIMIT_CHECK_INTERVAL - 1) == 0 && self.limits.exhausted(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return Score {
                value: 0,
                complete: false,
            };
        }
        if depth == 0 {
            return Score {
                value: self.horizon_estimate(taken),
                complete: false,
            };
        }

        let mut remembered_move = NO_MOVE;
        if depth >= MEMO_MIN_DEPTH {
            if let Some(entry) = self.lookup(taken, fingerprint, depth) {
                remembered_move = entry.best_move;
                if let Some(score) = usable(&entry, depth, alpha, beta) {
                    return score;
                }
            }
        }

        let legal = self.geometry.legal(taken);
        let first = self.first_moves(legal, remembered_move, ply);
        let mut unsearched = legal.count();
        let alpha_at_entry = alpha;
        let mut best = Score {
            value: -INFINITY,
            complete: true,
        };
        let mut best_move = NO_MOVE;
        // The remembered best move and the killers first, then the others
        // by tile value.
        let mut slot = 0;
        while unsearched > 0 {
            let Some(index) = self.next_candidate(&mut slot, legal, &first) else {
                break;
            };
            unsearched -= 1;
            let score = if best_move == NO_MOVE {
                self.search_move(taken, fingerprint, index, depth, alpha, beta, ply)
            } else {
                // Principal variation search: prove this move no better
                // than the best so far with a null window, and search it
                // properly only if that fails.
                let probe = self.search_move(taken, fingerprint, index, depth, alpha, alpha + 1, ply);
                if !self.aborted && probe.value > alpha && probe.value < beta {
                    self.search_move(taken, fingerprint, index, depth, alpha, beta, ply)
                } else {
                    probe
                }
            };
            if self.aborted {
                return best;
            }
            best.complete &= score.complete;
            if score.value > best.value {
                best.value = score.value;
                best_move = index;
                if score.value > alpha {
                    alpha = score.value;
                    self.record_line(ply, index);
                }
            }
            if alpha >= beta {
                self.remember_killer(ply, index);
                break;
            }
        }

        let bound = if best.value <= alpha_at_entry {
            Bound::Upper
        } else if best.value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if depth >= MEMO_MIN_DEPTH {
            self.store(taken, fingerprint, best, bound, depth, best_move);
        }
        best
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

    /// The move to search in position `slot` of the order: `first` (up to
    /// [`NO_MOVE`]), then the other legal tiles by falling value. Advances
    /// `slot`.
    fn next_candidate(&self, slot: &mut usize, legal: B, first: &[u8; FIRST_MOVES]) -> Option<u8> {
        if let Some(&index) = first.get(*slot) {
            *slot += 1;
            if index != NO_MOVE {
                return Some(index);
            }
            *slot = FIRST_MOVES;
        }
        while let Some(&index) = self.by_value.get(*slot - FIRST_MOVES) {
            *slot += 1;
            if legal.contains(index as usize) && !first.contains(&index) {
                return Some(index);
            }
        }
        None
    }

    fn remember_killer(&mut self, ply: usize, index: u8) {
        self.killers[ply] = index;
    }

    /// The mover's value of taking `index` from `taken`: its points minus
    /// the opponent's value of what follows (nothing, if it ends the game).
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        taken: B,
        fingerprint: u64,
        index: u8,
        depth: u32,
        alpha: i64,
        beta: i64,
        ply: usize,
    ) -> Score {
        let tile = index as usize;
        let child = taken.or(B::single(tile));
        let points = self.values[tile];
        if self.geometry.move_ends_game(child, tile) {
            self.line_lengths[ply + 1] = 0;
            return Score {
                value: points,
                complete: true,
            };
        }
        let reply = self.negamax(
            child,
            fingerprint ^ self.zobrist[tile],
            depth - 1,
            points - beta,
            points - alpha,
            ply + 1,
        );
        Score {
            value: points - reply.value,
            complete: reply.complete,
        }
    }

    /// A guess at the rest of the game: the players share out the exposed
    /// tiles greedily, best first, the mover first (ignoring what taking
    /// them would expose). Sharing out all of them, rather than a fixed
    /// few, keeps the guess from handing one side an extra big tile at odd
    /// depths: the last tile shared is the smallest.
    fn horizon_estimate(&self, taken: B) -> i64 {
        let legal = self.geometry.legal(taken);
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

    fn record_line(&mut self, ply: usize, index: u8) {
        let child_length = self.line_lengths[ply + 1];
        let (upper, lower) = self.lines.split_at_mut(ply + 1);
        let line = &mut upper[ply];
        line[0] = index;
        line[1..=child_length].copy_from_slice(&lower[0][..child_length]);
        self.line_lengths[ply] = child_length + 1;
    }

    fn key(&self, taken: B, fingerprint: u64) -> PositionKey {
        PositionKey {
            fingerprint,
            taken: taken.to_wide(),
        }
    }

    fn store(&mut self, taken: B, fingerprint: u64, score: Score, bound: Bound, depth: u32, best_move: u8) {
        let entry = MemoEntry {
            value: score.value,
            bound,
            depth: if score.complete {
                TO_THE_END
            } else {
                depth.min(TO_THE_END as u32 - 1) as u8
            },
            best_move,
        };
        self.local.insert(self.local_hash(taken, fingerprint), entry);
        if depth >= SHARED_MIN_DEPTH {
            self.memo.insert(self.key(taken, fingerprint), entry);
        }
    }

    /// The search's own table first, then (for deep enough nodes) the
    /// shared memo, whose hits are copied into the own table.
    fn lookup(&mut self, taken: B, fingerprint: u64, depth: u32) -> Option<MemoEntry> {
        let hash = self.local_hash(taken, fingerprint);
        if let Some(entry) = self.local.get(hash) {
            return Some(entry);
        }
        if depth < SHARED_MIN_DEPTH {
            return None;
        }
        let entry = self.memo.get(&self.key(taken, fingerprint))?;
        self.local.insert(hash, entry);
        Some(entry)
    }

    /// The fingerprint (of the untaken tiles' values) folded with the taken
    /// set itself: one 64-bit name for the position.
    fn local_hash(&self, taken: B, fingerprint: u64) -> u64 {
        let Wide([low, middle, high]) = taken.to_wide();
        mix(fingerprint ^ mix(low ^ mix(middle ^ mix(high))))
    }

    /// Lengthens a line cut short by memo hits, following the memo's best
    /// moves while they are legal and the game goes on.
    fn extend_line(&mut self, root: B, fingerprint: u64, mut line: Vec<u8>) -> Vec<u8> {
        let mut taken = root;
        let mut fingerprint = fingerprint;
        for &index in &line {
            taken = taken.or(B::single(index as usize));
            fingerprint ^= self.zobrist[index as usize];
        }
        while game_end(&self.geometry, taken).is_none() {
            let Some(entry) = self.lookup(taken, fingerprint, u32::MAX) else {
                break;
            };
            let index = entry.best_move as usize;
            if entry.best_move == NO_MOVE || !self.geometry.legal(taken).contains(index) {
                break;
            }
            line.push(entry.best_move);
            taken = taken.or(B::single(index));
            fingerprint ^= self.zobrist[index];
        }
        line
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

/// The memo entry's answer for this node, if it is deep enough and settles
/// the window.
fn usable(entry: &MemoEntry, depth: u32, alpha: i64, beta: i64) -> Option<Score> {
    if (entry.depth as u32) < depth {
        return None;
    }
    let score = Score {
        value: entry.value,
        complete: entry.depth == TO_THE_END,
    };
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => entry.value >= beta,
        Bound::Upper => entry.value <= alpha,
    };
    settles.then_some(score)
}

/// SplitMix64's finaliser: spreads an integer over 64 well-mixed bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
