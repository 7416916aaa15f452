//! Solving Ishitori (subtraction games) for heaps of any size up to 2^64-1.
//!
//! The value of one heap of size n (win/loss for the mover, or its
//! Sprague-Grundy value) depends only on the values at n - t for t in the
//! take set. From n = max(take) on, the last max(take) values therefore
//! determine all later ones: the sequence is a walk through finitely many
//! windows, so it is eventually periodic. We compute values until a window
//! repeats (Brent's cycle finding on windows, compared by a rolling hash and
//! then exactly), which gives the period; the smallest preperiod follows by
//! scanning back. Any n is then answered in O(1) from the stored
//! preperiod + one period.
//!
//! - One heap: the win/loss sequence of the chosen convention.
//! - Several heaps, normal play: Grundy values (same machinery) and nim-sum.
//! - Several heaps, misère play: heaps too small for any move never change,
//!   so they are dropped; one heap left is the one-heap case; otherwise an
//!   exact table over all positions when their count is within the
//!   configured bound, else an error naming the bound.
//!
//! Moves are always considered smallest take first, then lowest heap index:
//! the first winning move is chosen, and when every move loses (or the
//! deadline passed before the answer was proven) the smallest legal take is.

use std::mem::size_of;
use std::sync::Arc;
use std::time::Duration;

use super::{Game, IshitoriError, Move, Outcome, TakeSet};
use crate::solve::limits::SearchLimits;
use crate::solve::memo::BoundedMemo;
use crate::solve::solvers::{GameSolver, MemoSizes};

/// How often (in sequence terms or table positions) the limits are checked.
const CHECK_EVERY: u64 = 1024;
/// Sequences up to this many stored values go to the cache for short
/// sequences; longer ones get a cache of their own (half the bytes), so
/// that a few huge periods cannot push out thousands of ordinary ones.
const SHORT_SEQUENCE_LEN: usize = 1 << 16;

/// The solver's bounds. Memory: period detection holds at most
/// `max_sequence_terms` bytes while it runs; the caches hold at most
/// `cache_bytes` of sequences, each counted by what it really holds (its
/// values and the residues its rule lists); a misère table holds
/// `max_misere_positions` bytes while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverConfig {
    /// Period detection gives up (error [`IshitoriError::PeriodNotFound`])
    /// after computing this many values of one sequence. Each value costs at
    /// most 64 steps (one per take amount).
    pub max_sequence_terms: u64,
    /// Most positions an exact misère table over several heaps may have.
    pub max_misere_positions: u64,
    /// Bytes the cached sequences may hold together: half for those of
    /// at most 65,536 stored values, half for the longer ones.
    pub cache_bytes: usize,
}

impl SolverConfig {
    /// `--sequence-cache-mib`'s default.
    pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;
}

impl Default for SolverConfig {
    fn default() -> Self {
        Self {
            // Enough for any take set whose preperiod + period stays below
            // about 2.5 million (Brent may walk up to ~3x that before it sees
            // the repeat); a take amount of 1,000,000 alone has period 2,000,000.
            max_sequence_terms: 1 << 23,
            max_misere_positions: 1 << 20,
            cache_bytes: Self::DEFAULT_CACHE_BYTES,
        }
    }
}

/// Which sequence of one-heap values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SequenceKind {
    /// 1 when the mover wins a lone heap of size n under normal play, else 0.
    NormalWinLoss,
    /// The same under misère play.
    MisereWinLoss,
    /// The Sprague-Grundy value of a heap of size n under normal play.
    Grundy,
}

impl SequenceKind {
    pub fn win_loss(misere: bool) -> Self {
        if misere {
            Self::MisereWinLoss
        } else {
            Self::NormalWinLoss
        }
    }
}

/// An eventually periodic sequence of one-heap values (0 always means the
/// mover loses a lone heap of that size).
#[derive(Debug, PartialEq, Eq)]
pub struct PeriodicSequence {
    /// Exactly `preperiod + period` values.
    values: Vec<u8>,
    preperiod: u64,
    period: u64,
    zero_residues: Arc<[u64]>,
    zeros_before_preperiod: Arc<[u64]>,
}

impl PeriodicSequence {
    /// The bytes it holds on the heap (what a cache of it counts).
    fn heap_bytes(&self) -> usize {
        let residues = self.zero_residues.len() + self.zeros_before_preperiod.len();
        // Each `Arc<[u64]>` adds its two counts.
        self.values.capacity() + residues * size_of::<u64>() + 4 * size_of::<usize>()
    }

    /// The value at heap size `n`, for any n, in O(1).
    pub fn value(&self, n: u64) -> u8 {
        let stored = self.preperiod + self.period;
        let index = if n < stored {
            n
        } else {
            self.preperiod + (n - self.preperiod) % self.period
        };
        usize::try_from(index)
            .ok()
            .and_then(|i| self.values.get(i))
            .copied()
            .unwrap_or(0)
    }

    pub fn preperiod(&self) -> u64 {
        self.preperiod
    }

    pub fn period(&self) -> u64 {
        self.period
    }

    fn rule(&self) -> HeapRule {
        HeapRule {
            preperiod: self.preperiod,
            period: self.period,
            losing_residues: Arc::clone(&self.zero_residues),
            losing_before_preperiod: Arc::clone(&self.zeros_before_preperiod),
        }
    }
}

/// Why one heap is won or lost: a heap of n stones with n >= `preperiod` is
/// lost for the mover exactly when n mod `period` is in `losing_residues`;
/// below the preperiod, exactly when n is in `losing_before_preperiod`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapRule {
    pub preperiod: u64,
    pub period: u64,
    /// Ascending.
    pub losing_residues: Arc<[u64]>,
    /// Ascending, all below `preperiod`.
    pub losing_before_preperiod: Arc<[u64]>,
}

/// Several heaps under normal play: the position is lost for the mover
/// exactly when the nim-sum (XOR) of the heaps' Grundy values is 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimExplanation {
    /// One per heap, in the request's order.
    pub grundy_values: Vec<u8>,
    pub nim_sum: u8,
    /// The one-heap Grundy sequence is periodic from this heap size on...
    pub grundy_preperiod: u64,
    /// ...with this period.
    pub grundy_period: u64,
}

/// What explains the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Explanation {
    /// One heap (or, under misère play, the only heap that still allows a
    /// move): the rule of that heap.
    OneHeap { heap: usize, rule: HeapRule },
    /// Several heaps under normal play.
    Nim(NimExplanation),
    /// Several heaps under misère play, solved by an exact table.
    MisereTable { positions: u64 },
    /// The limits ran out before the rule was found. The outcome is still
    /// exact when the heaps were small enough to be covered by what was
    /// computed; otherwise it is unknown and the smallest take was chosen.
    Unfinished,
}

/// The solver's answer for the player to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// How many stones to take...
    pub take: u64,
    /// ...from which heap (0 for one heap).
    pub heap: usize,
    /// The size of that heap after the move.
    pub remaining_after: u64,
    /// Win or loss for the player to move under perfect play; `None` when
    /// the limits ran out before it was proven (then the move is the
    /// smallest legal take).
    pub outcome: Option<Outcome>,
    pub explanation: Explanation,
    /// Sequence values or table positions computed by this call (0 when
    /// everything came from the cache).
    pub nodes: u64,
}

impl MoveAnalysis {
    pub fn chosen_move(&self) -> Move {
        Move {
            heap: self.heap,
            take: self.take,
        }
    }

    /// True when the outcome is proven.
    pub fn solved(&self) -> bool {
        self.outcome.is_some()
    }
}

type CacheKey = (Arc<[u64]>, SequenceKind);
type CacheEntry = Result<Arc<PeriodicSequence>, IshitoriError>;

/// What a cached sequence holds on the heap: its take set (shared with
/// the request that asked, but kept alive by the key) and its values.
fn entry_heap_bytes(key: &CacheKey, entry: &CacheEntry) -> usize {
    let take = key.0.len() * size_of::<u64>() + 2 * size_of::<usize>();
    let sequence = match entry {
        Ok(sequence) => size_of::<PeriodicSequence>() + 2 * size_of::<usize>() + sequence.heap_bytes(),
        Err(_) => 0,
    };
    take + sequence
}

/// One per server (`Send + Sync`): caches each (take set, sequence kind)'s
/// periodic sequence, including failures to find one, so repeated requests
/// cost O(1).
pub struct SubtractionSolver {
    config: SolverConfig,
    short_sequences: BoundedMemo<CacheKey, CacheEntry>,
    long_sequences: BoundedMemo<CacheKey, CacheEntry>,
}

/// One-heap values as far as they are known.
enum Values {
    Periodic(Arc<PeriodicSequence>),
    /// The deadline passed before the period was found: the values of heap
    /// sizes 0..len only.
    Prefix(Vec<u8>),
}

impl Values {
    fn get(&self, n: u64) -> Option<u8> {
        match self {
            Values::Periodic(sequence) => Some(sequence.value(n)),
            Values::Prefix(prefix) => usize::try_from(n).ok().and_then(|i| prefix.get(i)).copied(),
        }
    }
}

impl Default for SubtractionSolver {
    fn default() -> Self {
        Self::new(SolverConfig::default())
    }
}

impl GameSolver for SubtractionSolver {
    fn build(sizes: &MemoSizes) -> Self {
        SubtractionSolver::new(SolverConfig {
            cache_bytes: sizes.sequence_bytes,
            ..SolverConfig::default()
        })
    }
}

impl SubtractionSolver {
    pub fn new(config: SolverConfig) -> Self {
        Self {
            config,
            short_sequences: BoundedMemo::by_bytes(config.cache_bytes / 2, entry_heap_bytes),
            long_sequences: BoundedMemo::by_bytes(config.cache_bytes / 2, entry_heap_bytes),
        }
    }

    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The best move for the player to move, with the rule that explains it.
    /// Errors: [`IshitoriError::GameOver`] when no move is legal,
    /// [`IshitoriError::PeriodNotFound`] and
    /// [`IshitoriError::MisereSearchTooLarge`] when the position is beyond
    /// this server's bounds. When `limits` run out first, the answer is the
    /// smallest legal take with `outcome: None` (unless it was already proven).
    pub fn best_move(&self, game: &Game, limits: &SearchLimits) -> Result<MoveAnalysis, IshitoriError> {
        game.ensure_not_over()?;
        let take = game.take_set();
        let sizes = game.heap_sizes();
        let mut nodes = 0;
        let misere = game.is_misere();
        let analysis = match sizes {
            [n] => self.one_heap(take, misere, 0, *n, limits, &mut nodes)?,
            _ if misere => self.misere_heaps(take, sizes, limits, &mut nodes)?,
            _ => self.nim(take, sizes, limits, &mut nodes)?,
        };
        Ok(MoveAnalysis { nodes, ..analysis })
    }

    /// The answer when the rule it needs is already known (one heap, or
    /// several under normal play, with the take set's sequence in the
    /// memo): a few look-ups and no search, so it may run anywhere, the
    /// async threads included. None when it would take any work.
    pub fn known_move(&self, game: &Game) -> Option<MoveAnalysis> {
        let sizes = game.heap_sizes();
        let kind = match sizes {
            [_] => SequenceKind::win_loss(game.is_misere()),
            _ if game.is_misere() => return None,
            _ => SequenceKind::Grundy,
        };
        let key = (game.take_set().shared(), kind);
        let cached = self.short_sequences.get(&key).or_else(|| self.long_sequences.get(&key));
        if !matches!(cached, Some(Ok(_))) {
            return None;
        }
        let nothing = SearchLimits::within(Duration::ZERO).with_max_nodes(0);
        self.best_move(game, &nothing).ok().filter(MoveAnalysis::solved)
    }

    /// The one-heap rule of a take set under the given convention (what
    /// [`Explanation::OneHeap`] reports), or `None` when `limits` ran out
    /// before it was found.
    pub fn heap_rule(
        &self,
        take: &TakeSet,
        misere: bool,
        limits: &SearchLimits,
    ) -> Result<Option<HeapRule>, IshitoriError> {
        let mut nodes = 0;
        Ok(
            match self.sequence(take, SequenceKind::win_loss(misere), limits, &mut nodes)? {
                Values::Periodic(sequence) => Some(sequence.rule()),
                Values::Prefix(_) => None,
            },
        )
    }

    fn one_heap(
        &self,
        take: &TakeSet,
        misere: bool,
        heap: usize,
        n: u64,
        limits: &SearchLimits,
        nodes: &mut u64,
    ) -> Result<MoveAnalysis, IshitoriError> {
        let values = self.sequence(take, SequenceKind::win_loss(misere), limits, nodes)?;
        // Every n - t is below n, so if n is known all the children are too.
        let outcome = values.get(n).map(outcome_of);
        let winning = take
            .amounts()
            .iter()
            .copied()
            .take_while(|&t| t <= n)
            .find(|&t| values.get(n - t) == Some(0));
        let chosen = match (outcome, winning) {
            (Some(Outcome::Win), Some(t)) => t,
            _ => take.smallest(),
        };
        let explanation = match &values {
            Values::Periodic(sequence) => Explanation::OneHeap {
                heap,
                rule: sequence.rule(),
            },
            Values::Prefix(_) => Explanation::Unfinished,
        };
        Ok(MoveAnalysis {
            take: chosen,
            heap,
            remaining_after: n - chosen,
            outcome,
            explanation,
            nodes: 0,
        })
    }

    fn nim(
        &self,
        take: &TakeSet,
        sizes: &[u64],
        limits: &SearchLimits,
        nodes: &mut u64,
    ) -> Result<MoveAnalysis, IshitoriError> {
        let values = self.sequence(take, SequenceKind::Grundy, limits, nodes)?;
        let grundy: Option<Vec<u8>> = sizes.iter().map(|&h| values.get(h)).collect();
        let (Values::Periodic(sequence), Some(grundy)) = (&values, grundy) else {
            return Ok(unproven_move(take, sizes));
        };
        let nim_sum = grundy.iter().fold(0, |acc, g| acc ^ g);
        let winning = (nim_sum != 0)
            .then(|| {
                moves_in_preference_order(take, sizes).find(|mv| {
                    let (h, g) = (sizes[mv.heap], grundy[mv.heap]);
                    sequence.value(h - mv.take) == g ^ nim_sum
                })
            })
            .flatten();
        let chosen = winning.unwrap_or_else(|| first_legal_move(take, sizes));
        Ok(MoveAnalysis {
            take: chosen.take,
            heap: chosen.heap,
            remaining_after: sizes[chosen.heap] - chosen.take,
            outcome: Some(if nim_sum != 0 { Outcome::Win } else { Outcome::Loss }),
            explanation: Explanation::Nim(NimExplanation {
                grundy_values: grundy,
                nim_sum,
                grundy_preperiod: sequence.preperiod(),
                grundy_period: sequence.period(),
            }),
            nodes: 0,
        })
    }

    fn misere_heaps(
        &self,
        take: &TakeSet,
        sizes: &[u64],
        limits: &SearchLimits,
        nodes: &mut u64,
    ) -> Result<MoveAnalysis, IshitoriError> {
        // A heap smaller than every take never changes and never ends the
        // game sooner or later, so it plays no part.
        let live: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] >= take.smallest()).collect();
        if let [only] = live.as_slice() {
            return self.one_heap(take, true, *only, sizes[*only], limits, nodes);
        }
        let table = MisereTable::new(take, sizes, &live, self.config.max_misere_positions)?;
        match table.solve(limits, nodes) {
            Some(wins) => Ok(table.best_move(&wins)),
            None => Ok(unproven_move(take, sizes)),
        }
    }

    /// The cached sequence, or a freshly computed one (then cached).
    fn sequence(
        &self,
        take: &TakeSet,
        kind: SequenceKind,
        limits: &SearchLimits,
        nodes: &mut u64,
    ) -> Result<Values, IshitoriError> {
        let key = (take.shared(), kind);
        if let Some(entry) = self.short_sequences.get(&key).or_else(|| self.long_sequences.get(&key)) {
            return entry.map(Values::Periodic);
        }
        match find_period(take.amounts(), kind, self.config.max_sequence_terms, limits, nodes) {
            Ok(Detection::Periodic(sequence)) => {
                let sequence = Arc::new(sequence);
                let cache = if sequence.values.len() <= SHORT_SEQUENCE_LEN {
                    &self.short_sequences
                } else {
                    &self.long_sequences
                };
                cache.insert(key, Ok(Arc::clone(&sequence)));
                Ok(Values::Periodic(sequence))
            }
            // Not cached: a later request with more time may finish it.
            Ok(Detection::OutOfTime(prefix)) => Ok(Values::Prefix(prefix)),
            Err(error) => {
                self.short_sequences.insert(key, Err(error.clone()));
                Err(error)
            }
        }
    }
}

fn outcome_of(value: u8) -> Outcome {
    if value == 0 {
        Outcome::Loss
    } else {
        Outcome::Win
    }
}

/// Legal moves, smallest take first, then lowest heap index.
fn moves_in_preference_order<'a>(take: &'a TakeSet, sizes: &'a [u64]) -> impl Iterator<Item = Move> + 'a {
    take.amounts().iter().flat_map(move |&t| {
        sizes
            .iter()
            .enumerate()
            .filter(move |&(_, &h)| t <= h)
            .map(move |(heap, _)| Move { heap, take: t })
    })
}

/// The smallest legal take (on the lowest heap that allows it). The caller
/// has checked that the game is not over.
fn first_legal_move(take: &TakeSet, sizes: &[u64]) -> Move {
    moves_in_preference_order(take, sizes)
        .next()
        .unwrap_or(Move { heap: 0, take: 0 })
}

/// The answer when the limits ran out before anything was proven.
fn unproven_move(take: &TakeSet, sizes: &[u64]) -> MoveAnalysis {
    let chosen = first_legal_move(take, sizes);
    let size = sizes.get(chosen.heap).copied().unwrap_or(0);
    MoveAnalysis {
        take: chosen.take,
        heap: chosen.heap,
        remaining_after: size.saturating_sub(chosen.take),
        outcome: None,
        explanation: Explanation::Unfinished,
        nodes: 0,
    }
}

// ---------------------------------------------------------------------------
// Period detection
// ---------------------------------------------------------------------------

enum Detection {
    Periodic(PeriodicSequence),
    OutOfTime(Vec<u8>),
}

/// The value of heap size `values.len()` given all smaller ones.
fn next_value(values: &[u8], take: &[usize], kind: SequenceKind) -> u8 {
    let n = values.len();
    let children = take.iter().take_while(|&&t| t <= n).map(|&t| values[n - t]);
    match kind {
        SequenceKind::Grundy => {
            // Grundy values are at most the number of take amounts (<= 64).
            let seen = children.fold(0u128, |seen, g| seen | 1u128 << g.min(127));
            (!seen).trailing_zeros() as u8
        }
        SequenceKind::NormalWinLoss | SequenceKind::MisereWinLoss => {
            let mut has_move = false;
            for child in children {
                has_move = true;
                if child == 0 {
                    return 1;
                }
            }
            // No move at all: under misère play the opponent moved last and lost.
            u8::from(!has_move && kind == SequenceKind::MisereWinLoss)
        }
    }
}

/// Polynomial hash of a window of values, modulo the Mersenne prime 2^61-1
/// (not 2^64, which Thue-Morse-like sequences defeat).
struct WindowHash {
    /// BASE^(window - 1): the weight of the value leaving the window.
    top_weight: u64,
}

const HASH_MODULUS: u64 = (1 << 61) - 1;
const HASH_BASE: u64 = 0x1d8e_4e27_c47d_124f % HASH_MODULUS;

fn mul_mod(a: u64, b: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(HASH_MODULUS)) as u64
}

fn symbol(value: u8) -> u64 {
    u64::from(value) + 1
}

impl WindowHash {
    fn new(window: usize) -> Self {
        let mut top_weight = 1;
        for _ in 1..window {
            top_weight = mul_mod(top_weight, HASH_BASE);
        }
        Self { top_weight }
    }

    fn of(&self, window: &[u8]) -> u64 {
        window
            .iter()
            .fold(0, |h, &v| (mul_mod(h, HASH_BASE) + symbol(v)) % HASH_MODULUS)
    }

    /// Slides the window one step: `leaving` drops out at the old end,
    /// `entering` comes in at the new end.
    fn roll(&self, hash: u64, leaving: u8, entering: u8) -> u64 {
        let without = (hash + HASH_MODULUS - mul_mod(symbol(leaving), self.top_weight)) % HASH_MODULUS;
        (mul_mod(without, HASH_BASE) + symbol(entering)) % HASH_MODULUS
    }
}

/// The state at heap size j >= k (k = largest take) is the window of values
/// at j-k..j: it alone determines the value at j. Brent's algorithm walks
/// these states until one repeats; the distance is the smallest period.
fn find_period(
    take: &[u64],
    kind: SequenceKind,
    max_terms: u64,
    limits: &SearchLimits,
    nodes: &mut u64,
) -> Result<Detection, IshitoriError> {
    let steps: Vec<usize> = take.iter().map(|&t| t as usize).collect();
    let k = steps.last().copied().unwrap_or(1);
    let too_long = IshitoriError::PeriodNotFound { max_terms };
    // Work charged against `max_terms`: values computed, plus window
    // comparisons that found a hash collision (each costs k).
    let mut spent: u64 = 0;
    let mut values: Vec<u8> = Vec::new();
    let mut extend = |values: &mut Vec<u8>, spent: &mut u64| -> Result<bool, IshitoriError> {
        values.push(next_value(values, &steps, kind));
        *spent += 1;
        *nodes += 1;
        if *spent > max_terms {
            return Err(too_long.clone());
        }
        Ok((*nodes).is_multiple_of(CHECK_EVERY) && limits.exhausted(*nodes))
    };
    while values.len() <= k {
        if extend(&mut values, &mut spent)? {
            return Ok(Detection::OutOfTime(values));
        }
    }
    let hasher = WindowHash::new(k);
    let mut tortoise = k;
    let mut tortoise_hash = hasher.of(&values[..k]);
    let mut hare = k + 1;
    let mut hare_hash = hasher.roll(tortoise_hash, values[0], values[k]);
    let (mut power, mut lambda) = (1usize, 1usize);
    loop {
        if hare_hash == tortoise_hash {
            if values[tortoise - k..tortoise] == values[hare - k..hare] {
                break;
            }
            spent += k as u64;
        }
        if power == lambda {
            tortoise = hare;
            tortoise_hash = hare_hash;
            power *= 2;
            lambda = 0;
        }
        if extend(&mut values, &mut spent)? {
            return Ok(Detection::OutOfTime(values));
        }
        hare_hash = hasher.roll(hare_hash, values[hare - k], values[hare]);
        hare += 1;
        lambda += 1;
    }
    Ok(Detection::Periodic(periodic_from(values, tortoise - k, lambda)))
}

/// `values` repeats with `period` from `periodic_from` on; finds the smallest
/// such start and keeps one period after it.
fn periodic_from(mut values: Vec<u8>, periodic_from: usize, period: usize) -> PeriodicSequence {
    let mut preperiod = periodic_from;
    while preperiod > 0 && values[preperiod - 1] == values[preperiod - 1 + period] {
        preperiod -= 1;
    }
    values.truncate(preperiod + period);
    // Brent's walk went up to three times further: what it grew is given
    // back, or the cache would keep it.
    values.shrink_to_fit();
    let mut zero_residues: Vec<u64> = (preperiod..preperiod + period)
        .filter(|&i| values[i] == 0)
        .map(|i| (i % period) as u64)
        .collect();
    zero_residues.sort_unstable();
    let zeros_before_preperiod: Vec<u64> = (0..preperiod).filter(|&i| values[i] == 0).map(|i| i as u64).collect();
    PeriodicSequence {
        values,
        preperiod: preperiod as u64,
        period: period as u64,
        zero_residues: zero_residues.into(),
        zeros_before_preperiod: zeros_before_preperiod.into(),
    }
}

// ---------------------------------------------------------------------------
// Several heaps under misère play
// ---------------------------------------------------------------------------

/// Every position reachable in the box 0..=h for each live heap, indexed in
/// mixed radix (heap i's digit weighs `strides[i]`). A move lowers one digit,
/// so it always leads to a smaller index: one pass upwards solves the table.
struct MisereTable<'a> {
    take: &'a TakeSet,
    sizes: &'a [u64],
    /// Indices into `sizes` of the heaps that allow a move.
    live: &'a [usize],
    strides: Vec<usize>,
    positions: usize,
}

impl<'a> MisereTable<'a> {
    fn new(take: &'a TakeSet, sizes: &'a [u64], live: &'a [usize], limit: u64) -> Result<Self, IshitoriError> {
        let too_large = IshitoriError::MisereSearchTooLarge { limit };
        let mut strides = Vec::with_capacity(live.len());
        let mut positions: u64 = 1;
        for &i in live {
            strides.push(positions);
            positions = sizes[i]
                .checked_add(1)
                .and_then(|radix| positions.checked_mul(radix))
                .filter(|&p| p <= limit)
                .ok_or_else(|| too_large.clone())?;
        }
        let to_usize = |x: u64| usize::try_from(x).map_err(|_| too_large.clone());
        Ok(Self {
            take,
            sizes,
            live,
            strides: strides.into_iter().map(to_usize).collect::<Result<_, _>>()?,
            positions: to_usize(positions)?,
        })
    }

    /// `wins[index]` for every position, or `None` when the limits ran out.
    fn solve(&self, limits: &SearchLimits, nodes: &mut u64) -> Option<Vec<bool>> {
        let mut wins = vec![false; self.positions];
        let mut digits = vec![0u64; self.live.len()];
        for index in 0..self.positions {
            wins[index] = self.mover_wins(index, &digits, &wins);
            *nodes += 1;
            if (*nodes).is_multiple_of(CHECK_EVERY) && limits.exhausted(*nodes) {
                return None;
            }
            self.increment(&mut digits);
        }
        Some(wins)
    }

    fn mover_wins(&self, index: usize, digits: &[u64], wins: &[bool]) -> bool {
        let mut has_move = false;
        for (slot, &digit) in digits.iter().enumerate() {
            for &t in self.take.amounts().iter().take_while(|&&t| t <= digit) {
                has_move = true;
                if !wins[index - t as usize * self.strides[slot]] {
                    return true;
                }
            }
        }
        // No move: the opponent made the last move and lost.
        !has_move
    }

    fn increment(&self, digits: &mut [u64]) {
        for (slot, digit) in digits.iter_mut().enumerate() {
            if *digit < self.sizes[self.live[slot]] {
                *digit += 1;
                return;
            }
            *digit = 0;
        }
    }

    fn best_move(&self, wins: &[bool]) -> MoveAnalysis {
        let root = self.positions - 1;
        let winning = moves_in_preference_order(self.take, self.sizes).find(|mv| {
            self.live
                .iter()
                .position(|&i| i == mv.heap)
                .is_some_and(|slot| !wins[root - mv.take as usize * self.strides[slot]])
        });
        let chosen = winning.unwrap_or_else(|| first_legal_move(self.take, self.sizes));
        MoveAnalysis {
            take: chosen.take,
            heap: chosen.heap,
            remaining_after: self.sizes[chosen.heap] - chosen.take,
            outcome: Some(outcome_of(u8::from(wins[root]))),
            explanation: Explanation::MisereTable {
                positions: self.positions as u64,
            },
            nodes: 0,
        }
    }
}
