//! Ishitori reviews. Options as for a match (`remaining` or `heaps`,
//! `take`, `misere`); moves `{take, heap}` (`heap` defaults to 0), the first
//! player ("a") first.
//!
//! Values are outcomes with the plies to the end under perfect play (the
//! winner hurries, the loser delays), from one table over every position
//! reachable from the start: each heap at most its starting size, so at most
//! the product of (heap + 1) over the heaps positions, computed in one pass
//! in increasing order (a move always leads to a smaller index). When that
//! product is beyond [`TABLE_POSITIONS`] (big heaps) the outcome comes from
//! the periodic solver instead (exact for any heap) and `plies_to_end` is
//! null; the best moves are then every move that keeps the outcome.

use serde_json::{json, Value};

use super::matches::{Options, TakeMove};
use super::solve::SubtractionSolver;
use super::{self as rules, Game, IshitoriState, Move};
use crate::core::outcome::Outcome;
use crate::review::driver::{self, MoveValue, Valuation, Valuer};
use crate::review::{outcome_value, Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// The most positions the plies table may have (4 MiB of u32).
pub const TABLE_POSITIONS: u64 = 1 << 20;
/// Positions between two looks at the clock.
const CHECK_EVERY: usize = 4096;

/// The move of a record's `{take, heap}`, if it is legal in `game`.
fn read(game: &IshitoriState, mv: &TakeMove) -> Result<Move, String> {
    mv.legal_in(game.position())
}

fn replay(
    options: &Options,
    steps: &[Step<TakeMove>],
    names: [&str; 2],
) -> Result<(Game, Vec<driver::Decision<IshitoriState>>), ReviewError> {
    let first = options.game().map_err(ReviewError::Options)?;
    let decisions = driver::replay(IshitoriState::new(first.clone(), 0), steps, names, read)?;
    Ok((first, decisions))
}

/// Checks the options and the record against the rules, without solving.
pub fn validate(options: &Options, steps: &[Step<TakeMove>], names: [&str; 2]) -> Result<(), ReviewError> {
    replay(options, steps, names).map(|_| ())
}

/// Win or loss for the mover, and plies to the end, of every position whose
/// heaps are at most the start's (heaps too small for any move kept fixed).
struct Table {
    /// Per heap: the stride of its size in the index (0 for a fixed heap).
    strides: Vec<u64>,
    /// `plies << 1 | win`.
    values: Vec<u32>,
}

impl Table {
    fn build(start: &Game, limits: &SearchLimits) -> Option<Table> {
        let smallest = start.take_set().smallest();
        let sizes = start.heap_sizes();
        let mut strides = Vec::with_capacity(sizes.len());
        let mut positions: u64 = 1;
        for &h in sizes {
            if h >= smallest {
                strides.push(positions);
                positions = positions.checked_mul(h.checked_add(1)?)?;
                if positions > TABLE_POSITIONS {
                    return None;
                }
            } else {
                strides.push(0);
            }
        }
        let take = start.take_set().amounts();
        let misere = start.is_misere();
        let mut values = vec![0u32; positions as usize];
        // The live heaps' sizes at the current index (an odometer).
        let mut current = vec![0u64; sizes.len()];
        for index in 0..positions as usize {
            if index % CHECK_EVERY == CHECK_EVERY - 1 && limits.exhausted(0) {
                return None;
            }
            let mut fastest_win: Option<u32> = None;
            let mut slowest_loss: Option<u32> = None;
            for (heap, &size) in current.iter().enumerate() {
                let stride = strides[heap];
                if stride == 0 {
                    continue;
                }
                for &t in take.iter().take_while(|&&t| t <= size) {
                    let child = values[index - (t * stride) as usize];
                    let plies = (child >> 1) + 1;
                    if child & 1 == 0 {
                        fastest_win = Some(fastest_win.map_or(plies, |p| p.min(plies)));
                    } else {
                        slowest_loss = Some(slowest_loss.map_or(plies, |p| p.max(plies)));
                    }
                }
            }
            values[index] = match (fastest_win, slowest_loss) {
                (Some(p), _) => p << 1 | 1,
                (None, Some(p)) => p << 1,
                // No move: the game is over.
                (None, None) => u32::from(misere),
            };
            // Next index: the first live heap that can grow does, the ones
            // before it go back to 0.
            for (heap, size) in current.iter_mut().enumerate() {
                if strides[heap] == 0 {
                    continue;
                }
                if *size < sizes[heap] {
                    *size += 1;
                    break;
                }
                *size = 0;
            }
        }
        Some(Table { strides, values })
    }

    /// (win, plies) for the mover of `game` (whose heaps fit the table).
    fn get(&self, game: &Game) -> Option<(bool, u32)> {
        let index: u64 = game
            .heap_sizes()
            .iter()
            .zip(&self.strides)
            .map(|(&h, &s)| h.saturating_mul(s))
            .fold(0u64, u64::saturating_add);
        let v = *self.values.get(usize::try_from(index).ok()?)?;
        Some((v & 1 == 1, v >> 1))
    }
}

/// A move's value for the mover: outcome and plies when known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TakeValue {
    outcome: Option<Outcome>,
    plies: Option<u32>,
}

const UNKNOWN: TakeValue = TakeValue {
    outcome: None,
    plies: None,
};

impl MoveValue for TakeValue {
    /// Better for the mover: a better outcome, then a faster win or a
    /// slower loss. Unknown ranks as a draw would.
    type Rank = (i64, i64);

    fn rank(&self) -> (i64, i64) {
        let plies = i64::from(self.plies.unwrap_or(0));
        match self.outcome {
            Some(Outcome::Win) => (2, -plies),
            Some(Outcome::Loss) => (0, plies),
            _ => (1, 0),
        }
    }

    fn points(&self) -> f64 {
        self.outcome.map_or(0.5, Outcome::points)
    }

    fn shown(&self) -> Value {
        outcome_value(self.outcome, self.plies, self.points(), None)
    }
}

fn flip(outcome: rules::Outcome) -> Outcome {
    match outcome {
        rules::Outcome::Win => Outcome::Loss,
        rules::Outcome::Loss => Outcome::Win,
    }
}

/// The value of making the move that leads to `child`.
fn move_value(
    child: &Game,
    table: Option<&Table>,
    solver: &SubtractionSolver,
    limits: &SearchLimits,
) -> Result<TakeValue, ReviewError> {
    if let Some((win, plies)) = table.and_then(|t| t.get(child)) {
        return Ok(TakeValue {
            outcome: Some(if win { Outcome::Loss } else { Outcome::Win }),
            plies: Some(plies + 1),
        });
    }
    if let Some(end) = child.final_outcome_for_mover() {
        return Ok(TakeValue {
            outcome: Some(flip(end)),
            plies: Some(1),
        });
    }
    if limits.exhausted(0) {
        return Ok(TakeValue {
            outcome: None,
            plies: None,
        });
    }
    let analysis = solver
        .best_move(child, limits)
        .map_err(|e| ReviewError::Unavailable(e.to_string()))?;
    Ok(TakeValue {
        outcome: analysis.outcome.map(flip),
        plies: None,
    })
}

/// Values moves from the table when there is one, else with the periodic
/// solver.
struct TakeValuer<'a> {
    solver: &'a SubtractionSolver,
    table: Option<Table>,
}

impl Valuer<IshitoriState> for TakeValuer<'_> {
    type Value = TakeValue;

    fn value(
        &self,
        game: &IshitoriState,
        played: Move,
        limits: &SearchLimits,
    ) -> Result<Valuation<Move, TakeValue>, ReviewError> {
        let game = game.position();
        let value = |mv: Move| -> Result<TakeValue, ReviewError> {
            let child = game.apply(mv).map_err(|e| ReviewError::Unavailable(e.to_string()))?;
            move_value(&child, self.table.as_ref(), self.solver, limits)
        };
        // Out of time with no table: only the move played is looked at (its
        // value unknown unless it ends the game), and nothing is claimed.
        if self.table.is_none() && limits.exhausted(0) {
            return Ok(Valuation::OnlyPlayed {
                played: value(played)?,
                unknown: UNKNOWN,
            });
        }
        let moves = game
            .legal_moves()
            .into_iter()
            .map(|mv| Ok((mv, value(mv)?)))
            .collect::<Result<Vec<(Move, TakeValue)>, ReviewError>>()?;
        let proved = moves.iter().all(|(_, v)| v.outcome.is_some());
        Ok(Valuation::Moves { moves, proved })
    }

    fn show(&self, _game: &IshitoriState, mv: Move) -> Value {
        json!({"take": mv.take, "heap": mv.heap})
    }
}

/// Validates the whole record, then reviews it within `limits`.
pub fn review(
    solver: &SubtractionSolver,
    options: &Options,
    steps: &[Step<TakeMove>],
    names: [&str; 2],
    limits: &SearchLimits,
) -> Result<Review, ReviewError> {
    let (first, decisions) = replay(options, steps, names)?;
    let table = Table::build(&first, limits);
    let misere_heaps = first.is_misere()
        && first
            .heap_sizes()
            .iter()
            .filter(|&&h| h >= first.take_set().smallest())
            .count()
            > 1;
    if table.is_none() && misere_heaps && !decisions.is_empty() {
        return Err(ReviewError::Unavailable(format!(
            "reviews of several heaps under misère play need a table of every position (at most {TABLE_POSITIONS}); \
             these heaps have more, or the budget ran out: use smaller heaps, one heap, or misere: false"
        )));
    }
    let valuer = TakeValuer { solver, table };
    driver::review("ishitori", &decisions, names, &valuer, limits, false)?
        // Only a quick try gives up.
        .ok_or_else(|| ReviewError::Unavailable("the review did not finish".to_string()))
}
