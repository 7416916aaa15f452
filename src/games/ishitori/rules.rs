//! The rules of the game: positions, moves, the end of the game.
use std::sync::Arc;

use serde::Deserialize;

use crate::core::game::{self, GameOutcome, Seat, Turn};

/// Most distinct amounts a take set may list.
pub const MAX_TAKE_AMOUNTS: usize = 64;
/// Largest amount a single move may take.
pub const MAX_TAKE_AMOUNT: u64 = 1_000_000;
/// Most heaps a position may have.
pub const MAX_HEAPS: usize = 64;
/// The seed paper's take set.
pub const DEFAULT_TAKE: [u64; 3] = [1, 2, 3];
/// The seed paper's convention: whoever takes the last stone loses.
pub const DEFAULT_MISERE: bool = true;
/// The heap a new match starts from when the client gives none (API.md, matches).
pub const DEFAULT_MATCH_REMAINING: u64 = 21;

/// How much of a rejected heap text is quoted back, so a megabyte of digits
/// does not come back in the error message.
const QUOTED_TEXT_LIMIT: usize = 40;

/// Everything that can go wrong with an Ishitori request. Each message says in
/// plain words which field is wrong and what was expected; all of them are
/// client errors (HTTP 422).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IshitoriError {
    #[error("`take` must list at least one amount")]
    EmptyTakeSet,
    #[error("`take` lists {count} amounts; at most {max} are allowed")]
    TooManyTakeAmounts { count: usize, max: usize },
    #[error("`take` amounts must be positive whole numbers; 0 was given")]
    ZeroTakeAmount,
    #[error("`take` amount {amount} is too large; each amount must be at most {max}")]
    TakeAmountTooLarge { amount: u64, max: u64 },
    #[error("`take` lists the amount {amount} more than once; amounts must be distinct")]
    DuplicateTakeAmount { amount: u64 },
    #[error("give either `remaining` or `heaps`, not both")]
    RemainingAndHeaps,
    #[error("give the position as `remaining` (one heap) or `heaps` (a list of heaps)")]
    NoPosition,
    #[error("`heaps` must list at least one heap")]
    NoHeaps,
    #[error("`heaps` lists {count} heaps; at most {max} are allowed")]
    TooManyHeaps { count: usize, max: usize },
    #[error("heap size \"{text}\" is not a whole number written with decimal digits only")]
    HeapNotANumber { text: String },
    #[error("heap size {text} is too large; heap sizes go up to 18446744073709551615 (2^64-1)")]
    HeapTooLarge { text: String },
    #[error("the game is over: no heap holds {smallest_take} or more stones, so there is no legal move")]
    GameOver { smallest_take: u64 },
    #[error("there is no heap {heap}; the position has {heaps} heap(s), numbered from 0")]
    NoSuchHeap { heap: usize, heaps: usize },
    #[error("taking {take} is not allowed; the take set is {allowed:?}")]
    TakeNotInSet { take: u64, allowed: Vec<u64> },
    #[error("cannot take {take} from heap {heap}, which holds only {size}")]
    TakeMoreThanHeap { take: u64, heap: usize, size: u64 },
    #[error(
        "the winning rule of this take set was not found within the first {max_terms} heap \
         sizes (its period and preperiod are too long for this server); try a smaller take set"
    )]
    PeriodNotFound { max_terms: u64 },
    #[error(
        "several heaps under misère play are solved by exhaustive search over at most {limit} \
         positions (the product of heap size + 1 over the heaps that still allow a move); this \
         position has more; use smaller heaps, one heap, or `misere: false`"
    )]
    MisereSearchTooLarge { limit: u64 },
}

/// Parses a heap size written as a decimal string (the API accepts strings so
/// that sizes up to 2^64-1 survive JSON clients that use doubles).
pub fn parse_heap(text: &str) -> Result<u64, IshitoriError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(IshitoriError::HeapNotANumber { text: quoted(text) });
    }
    // Only digits remain, so the one way parsing can fail is overflow.
    text.parse::<u64>()
        .map_err(|_| IshitoriError::HeapTooLarge { text: quoted(text) })
}

/// What a heap size must be, wherever one is read.
pub const HEAP_SIZE_EXPECTED: &str =
    "must be a whole number from 0 to 18446744073709551615 (2^64-1), written as an integer or a decimal string";

/// A heap size as a client writes it: an integer, or a decimal string
/// (JavaScript clients cannot write integers above 2^53 exactly). Any
/// number or string is accepted here, so that [`HeapSize::value`] refuses
/// the ones that are no heap size with the rules' one message (an
/// out-of-range value, not a body of the wrong shape).
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum HeapSize {
    Whole(u64),
    Negative(i64),
    Fraction(f64),
    Text(String),
    Other(serde_json::Value),
}

impl HeapSize {
    /// The size; `field` names it in the error.
    pub fn value(&self, field: &str) -> Result<u64, HeapSizeError> {
        let got = match self {
            HeapSize::Whole(n) => return Ok(*n),
            HeapSize::Text(text) => match parse_heap(text) {
                Ok(n) => return Ok(n),
                Err(_) => format!("{:?}", quoted(text)),
            },
            HeapSize::Negative(n) => n.to_string(),
            HeapSize::Fraction(x) => x.to_string(),
            HeapSize::Other(value) => match value {
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Null => "null".to_string(),
                serde_json::Value::Array(_) => "an array".to_string(),
                _ => "an object".to_string(),
            },
        };
        Err(HeapSizeError {
            field: field.to_string(),
            got,
        })
    }
}

/// A heap size that is none: "`field` must be ... (got ...)".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} {}", self.expected())]
pub struct HeapSizeError {
    pub field: String,
    got: String,
}

impl HeapSizeError {
    /// The message after the field's name.
    pub fn expected(&self) -> String {
        format!("{HEAP_SIZE_EXPECTED} (got {})", self.got)
    }
}

fn quoted(text: &str) -> String {
    if text.chars().count() <= QUOTED_TEXT_LIMIT {
        text.to_owned()
    } else {
        let head: String = text.chars().take(QUOTED_TEXT_LIMIT).collect();
        format!("{head}…")
    }
}

/// Win or loss for the player to move, under perfect play by both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
}

/// A validated take set: distinct positive amounts, sorted ascending.
/// Cheap to clone (shared).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<u64>", into = "Vec<u64>")]
pub struct TakeSet(Arc<[u64]>);

/// A stored take set, checked again as [`TakeSet::new`] checks it.
impl TryFrom<Vec<u64>> for TakeSet {
    type Error = IshitoriError;

    fn try_from(amounts: Vec<u64>) -> Result<TakeSet, IshitoriError> {
        TakeSet::new(&amounts)
    }
}

impl From<TakeSet> for Vec<u64> {
    fn from(take: TakeSet) -> Vec<u64> {
        take.amounts().to_vec()
    }
}

impl TakeSet {
    pub fn new(amounts: &[u64]) -> Result<Self, IshitoriError> {
        if amounts.is_empty() {
            return Err(IshitoriError::EmptyTakeSet);
        }
        if amounts.len() > MAX_TAKE_AMOUNTS {
            return Err(IshitoriError::TooManyTakeAmounts {
                count: amounts.len(),
                max: MAX_TAKE_AMOUNTS,
            });
        }
        let mut sorted = amounts.to_vec();
        sorted.sort_unstable();
        for (index, &amount) in sorted.iter().enumerate() {
            if amount == 0 {
                return Err(IshitoriError::ZeroTakeAmount);
            }
            if amount > MAX_TAKE_AMOUNT {
                return Err(IshitoriError::TakeAmountTooLarge {
                    amount,
                    max: MAX_TAKE_AMOUNT,
                });
            }
            if index > 0 && sorted[index - 1] == amount {
                return Err(IshitoriError::DuplicateTakeAmount { amount });
            }
        }
        Ok(Self(sorted.into()))
    }

    /// The amounts, ascending.
    pub fn amounts(&self) -> &[u64] {
        &self.0
    }

    /// The same amounts as a shared slice (used as a cache key).
    pub fn shared(&self) -> Arc<[u64]> {
        Arc::clone(&self.0)
    }

    pub fn smallest(&self) -> u64 {
        // Never empty by construction; 1 is a harmless fallback.
        self.0.first().copied().unwrap_or(1)
    }

    pub fn largest(&self) -> u64 {
        self.0.last().copied().unwrap_or(1)
    }

    pub fn contains(&self, amount: u64) -> bool {
        self.0.binary_search(&amount).is_ok()
    }
}

impl Default for TakeSet {
    fn default() -> Self {
        Self(DEFAULT_TAKE.as_slice().into())
    }
}

/// The position: `remaining` (one heap) or `heaps` (several, in the order the
/// client gave them; a move names a heap by its index).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Heaps {
    One(u64),
    Several(Vec<u64>),
}

/// One move: take `take` stones from heap number `heap` (0 for one heap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Move {
    pub heap: usize,
    pub take: u64,
}

/// The loose request as the HTTP layer has parsed it (heap strings already
/// turned into numbers with [`parse_heap`]); `None` means "not given".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    pub remaining: Option<u64>,
    pub heaps: Option<Vec<u64>>,
    pub take: Option<Vec<u64>>,
    pub misere: Option<bool>,
}

/// A valid Ishitori position with its rules. It may be finished (no legal
/// move); the move endpoint rejects that with [`IshitoriError::GameOver`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    take: TakeSet,
    misere: bool,
    heaps: Heaps,
}

impl TryFrom<Setup> for Game {
    type Error = IshitoriError;

    fn try_from(setup: Setup) -> Result<Self, Self::Error> {
        let take = match setup.take {
            Some(amounts) => TakeSet::new(&amounts)?,
            None => TakeSet::default(),
        };
        let heaps = match (setup.remaining, setup.heaps) {
            (Some(_), Some(_)) => return Err(IshitoriError::RemainingAndHeaps),
            (None, None) => return Err(IshitoriError::NoPosition),
            (Some(n), None) => Heaps::One(n),
            (None, Some(list)) => Heaps::Several(list),
        };
        Game::new(take, setup.misere.unwrap_or(DEFAULT_MISERE), heaps)
    }
}

impl Game {
    pub fn new(take: TakeSet, misere: bool, heaps: Heaps) -> Result<Self, IshitoriError> {
        if let Heaps::Several(list) = &heaps {
            if list.is_empty() {
                return Err(IshitoriError::NoHeaps);
            }
            if list.len() > MAX_HEAPS {
                return Err(IshitoriError::TooManyHeaps {
                    count: list.len(),
                    max: MAX_HEAPS,
                });
            }
        }
        Ok(Self { take, misere, heaps })
    }

    /// One heap of `remaining` stones (always valid).
    pub fn one_heap(take: TakeSet, misere: bool, remaining: u64) -> Self {
        Self {
            take,
            misere,
            heaps: Heaps::One(remaining),
        }
    }

    pub fn take_set(&self) -> &TakeSet {
        &self.take
    }

    pub fn is_misere(&self) -> bool {
        self.misere
    }

    pub fn heaps(&self) -> &Heaps {
        &self.heaps
    }

    /// The heap sizes, one for `remaining`.
    pub fn heap_sizes(&self) -> &[u64] {
        match &self.heaps {
            Heaps::One(n) => std::slice::from_ref(n),
            Heaps::Several(list) => list,
        }
    }

    /// Every legal move, smallest take first, then lowest heap index (the
    /// order in which the solver prefers moves).
    pub fn legal_moves(&self) -> Vec<Move> {
        let sizes = self.heap_sizes();
        let mut moves = Vec::new();
        for &take in self.take.amounts() {
            for (heap, &size) in sizes.iter().enumerate() {
                if take <= size {
                    moves.push(Move { heap, take });
                }
            }
        }
        moves
    }

    /// True when no heap holds enough stones for even the smallest take.
    pub fn is_over(&self) -> bool {
        let smallest = self.take.smallest();
        self.heap_sizes().iter().all(|&size| size < smallest)
    }

    /// [`IshitoriError::GameOver`] when the game is over, else `Ok`.
    pub fn ensure_not_over(&self) -> Result<(), IshitoriError> {
        if self.is_over() {
            Err(IshitoriError::GameOver {
                smallest_take: self.take.smallest(),
            })
        } else {
            Ok(())
        }
    }

    /// The result for the player to move once the game is over: under misère
    /// play the opponent made the last move and lost; under normal play the
    /// player to move cannot move and loses. `None` while moves remain.
    pub fn final_outcome_for_mover(&self) -> Option<Outcome> {
        if !self.is_over() {
            None
        } else if self.misere {
            Some(Outcome::Win)
        } else {
            Some(Outcome::Loss)
        }
    }

    /// The position after `mv`, or why `mv` is illegal.
    pub fn apply(&self, mv: Move) -> Result<Game, IshitoriError> {
        self.ensure_not_over()?;
        let sizes = self.heap_sizes();
        let size = *sizes.get(mv.heap).ok_or(IshitoriError::NoSuchHeap {
            heap: mv.heap,
            heaps: sizes.len(),
        })?;
        if !self.take.contains(mv.take) {
            return Err(IshitoriError::TakeNotInSet {
                take: mv.take,
                allowed: self.take.amounts().to_vec(),
            });
        }
        if mv.take > size {
            return Err(IshitoriError::TakeMoreThanHeap {
                take: mv.take,
                heap: mv.heap,
                size,
            });
        }
        let heaps = match &self.heaps {
            Heaps::One(n) => Heaps::One(n - mv.take),
            Heaps::Several(list) => {
                let mut list = list.clone();
                if let Some(slot) = list.get_mut(mv.heap) {
                    *slot = size - mv.take;
                }
                Heaps::Several(list)
            }
        };
        Ok(Self {
            take: self.take.clone(),
            misere: self.misere,
            heaps,
        })
    }
}

/// A game of Ishitori through the [`game::Game`] trait: the position and
/// whose seat is to move (the rules themselves do not care who moves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IshitoriState {
    position: Game,
    mover: Seat,
}

impl IshitoriState {
    /// `position` with `mover` to move.
    pub fn new(position: Game, mover: Seat) -> Self {
        Self { position, mover }
    }

    pub fn position(&self) -> &Game {
        &self.position
    }

    /// The seat to move (while the game goes on).
    pub fn mover(&self) -> Seat {
        self.mover
    }
}

impl game::Game for IshitoriState {
    type Move = Move;

    fn turn(&self) -> Turn {
        if self.position.is_over() {
            Turn::Over
        } else {
            Turn::Player(self.mover)
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves()
    }

    fn play(&mut self, mv: Move) {
        // Not a legal move: the trait's callers offer only legal ones (a
        // debug build says so; a release build leaves the game as it was).
        match self.position.apply(mv) {
            Ok(next) => {
                self.position = next;
                self.mover = 1 - self.mover;
            }
            Err(e) => debug_assert!(false, "an illegal move was played: {mv:?}: {e}"),
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        let mover_wins = self.position.final_outcome_for_mover()? == Outcome::Win;
        Some(GameOutcome::Won(if mover_wins { self.mover } else { 1 - self.mover }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<u64, HeapSizeError> {
        let size: HeapSize = serde_json::from_str(json).map_err(|e| HeapSizeError {
            field: "not read".to_string(),
            got: e.to_string(),
        })?;
        size.value("heaps[1]")
    }

    #[test]
    fn a_heap_size_is_an_integer_or_a_decimal_string_up_to_2_to_the_64_minus_1() {
        assert_eq!(read("0"), Ok(0));
        assert_eq!(read("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(read("\"18446744073709551615\""), Ok(u64::MAX));
        assert_eq!(read("\"007\""), Ok(7));
    }

    #[test]
    fn every_other_number_or_string_gets_the_one_message() {
        for (json, got) in [
            ("-1", "-1"),
            ("2.5", "2.5"),
            ("18446744073709551616", "18446744073709552000"),
            ("\"18446744073709551616\"", "\"18446744073709551616\""),
            ("\"12x\"", "\"12x\""),
            ("\"\"", "\"\""),
        ] {
            let e = read(json).unwrap_err();
            assert_eq!(e.field, "heaps[1]", "{json}");
            assert_eq!(
                e.to_string(),
                format!("heaps[1] {HEAP_SIZE_EXPECTED} (got {got})"),
                "{json}"
            );
            assert_eq!(e.to_string(), format!("heaps[1] {}", e.expected()));
        }
        // A megabyte of digits is not quoted back whole.
        let long = format!("\"{}\"", "9".repeat(10_000));
        assert!(read(&long).unwrap_err().to_string().len() < 200);
    }
}
