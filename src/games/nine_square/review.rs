//! Nine Square reviews. A decision is one turn: the roll the dice gave,
//! then the mover's placements (`{"placements": [{row, col}, ...]}`), X
//! first.
//!
//! Each turn is set beside the chance-aware search's own choice for that
//! roll ([`best_placements`]): both are valued by the mover's expected
//! final margin with the opponent to roll next ([`value_after`] for the
//! turn played), so the two are measured alike. Values are exact in the
//! endgame (expectimax over every roll, at most
//! [`EXACT_MAX_EMPTY`](crate::games::nine_square::solve::EXACT_MAX_EMPTY) empty
//! cells) and Monte Carlo estimates before it. The points map the expected
//! final margin by [`margin_points`] with [`MARGIN_SCALE`].

use serde_json::{json, Value};

use super::solve::{best_placements, value_after, Valuation, MARGIN_SCALE};
use super::{Board, Coord, Player, Position};
use crate::core::game::Seat;
use crate::review::{
    check_seat, first_player_value, judge, margin_points, Budget, Entry, Extras, Review, ReviewError, Step,
};
use crate::solve::limits::SearchLimits;

/// Reviews are repeatable for the same budget in nodes: the searches'
/// own randomness comes from this seed.
const REVIEW_SEED: u64 = 0x7265_7669_6577;

/// One turn of a record: the roll and the placements made with it.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Turn {
    pub dice: i64,
    pub placements: Vec<(i64, i64)>,
}

struct Replayed {
    position: Position,
    after: Board,
    seat: Seat,
    /// The placements, checked.
    cells: Vec<Coord>,
}

fn player_of(seat: Seat) -> Player {
    if seat == 0 {
        Player::X
    } else {
        Player::O
    }
}

/// Replays the record from the empty grid, turns alternating, X first.
fn replay(steps: &[Step<Turn>], names: [&str; 2]) -> Result<Vec<Replayed>, ReviewError> {
    let mut board = Board::new();
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let seat = i % 2;
        check_seat(i, step.seat, seat, names)?;
        let dice = u8::try_from(step.mv.dice).unwrap_or(0);
        let position = Position::new(board, player_of(seat), dice).map_err(|e| ReviewError::at(i, e.to_string()))?;
        let after = position
            .apply(&step.mv.placements)
            .map_err(|e| ReviewError::at(i, e.to_string()))?;
        let cells = step
            .mv
            .placements
            .iter()
            .filter_map(|&(r, c)| Coord::new(usize::try_from(r).ok()?, usize::try_from(c).ok()?))
            .collect();
        out.push(Replayed {
            position,
            after,
            seat,
            cells,
        });
        board = after;
    }
    Ok(out)
}

fn placements_json(cells: &[Coord]) -> Value {
    let list: Vec<Value> = cells.iter().map(|c| json!({"row": c.row(), "col": c.col()})).collect();
    json!({ "placements": list })
}

fn value_json(v: &Valuation) -> Value {
    json!({
        "expected_margin": v.expected_margin,
        "points": margin_points(v.expected_margin, MARGIN_SCALE),
    })
}

/// True when the two turns mark the same cells (in any order).
fn same_cells(a: &[Coord], b: &[Coord]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a == b
}

/// One turn: the search's choice and its value, and the value of the turn
/// played (the search's own when it is the same cells).
fn review_turn(turn: &Replayed, ply: u64, names: [&str; 2], budget: &mut Budget) -> Entry {
    let best = best_placements(&turn.position, &budget.next(), REVIEW_SEED);
    let best_value = Valuation {
        expected_margin: best.expected_margin,
        solved: best.solved,
        nodes: best.nodes,
    };
    let played = &turn.cells;
    let limits = budget.next();
    let mine = if same_cells(played, &best.placements) {
        best_value
    } else {
        value_after(&turn.after, turn.position.player(), &limits, REVIEW_SEED)
    };
    // The turn played may prove (or seem) better than the search's choice:
    // then it is the best known.
    let played_is_best = mine.expected_margin >= best_value.expected_margin;
    let before = if played_is_best { mine } else { best_value };
    let mut best_moves = vec![placements_json(&best.placements)];
    if played_is_best && !same_cells(played, &best.placements) {
        best_moves.push(placements_json(played));
    }
    let points = |v: &Valuation| margin_points(v.expected_margin, MARGIN_SCALE);
    let loss = (points(&before) - points(&mine)).max(0.0);
    Entry {
        ply,
        actor: names[turn.seat].to_string(),
        mv: placements_json(played),
        best_moves,
        value_before: value_json(&before),
        value_played: value_json(&mine),
        loss,
        judgment: judge(loss, played_is_best),
        exact: best_value.solved && mine.solved,
        value: first_player_value(turn.seat, points(&mine)),
        extras: Extras::new(),
    }
}

/// Validates the whole record, then reviews it within `limits`, two
/// searches a turn (the search's choice, the turn played).
pub fn review(steps: &[Step<Turn>], names: [&str; 2], limits: &SearchLimits) -> Result<Review, ReviewError> {
    let turns = replay(steps, names)?;
    let mut budget = Budget::new(limits, 2 * turns.len());
    // Last turn first: the endgame is solved exactly in far less than its
    // share, and the time it leaves goes to the early turns' estimates.
    let mut entries: Vec<Entry> = turns
        .iter()
        .zip(steps)
        .rev()
        .map(|(turn, step)| review_turn(turn, step.ply, names, &mut budget))
        .collect();
    entries.reverse();
    Ok(Review::new("nine-square", names, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{Judgment, AB};
    use std::time::{Duration, Instant};

    fn turn(dice: i64, placements: &[(i64, i64)]) -> Turn {
        Turn {
            dice,
            placements: placements.to_vec(),
        }
    }

    /// A whole game: each turn fills the next cells in row-major order.
    fn row_major_game(rolls: &[i64]) -> Vec<Step<Turn>> {
        let mut next = 0i64;
        let mut turns = Vec::new();
        let mut rolls = rolls.iter().cycle();
        while next < 81 {
            let dice = *rolls.next().unwrap();
            let due = dice.min(81 - next);
            let cells: Vec<(i64, i64)> = (next..next + due).map(|c| (c / 9, c % 9)).collect();
            next += due;
            turns.push(turn(dice, &cells));
        }
        Step::numbered(turns)
    }

    #[test]
    fn a_whole_game_is_reviewed_within_its_budget_and_honest_about_exactness() {
        let steps = row_major_game(&[3, 5, 2, 6, 1, 4]);
        let started = Instant::now();
        let limits = SearchLimits::within(Duration::from_millis(400));
        let r = review(&steps, AB, &limits).unwrap();
        assert!(
            started.elapsed() < Duration::from_millis(900),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(r.moves.len(), steps.len());
        assert!(!r.exact, "the opening cannot be proved");
        // The last turn places the last cells: nothing to choose, exact.
        let last = r.moves.last().unwrap();
        assert!(last.exact && last.judgment == Judgment::Best, "{last:?}");
        for e in &r.moves {
            assert!(e.loss >= 0.0);
            assert_eq!(e.judgment, judge(e.loss, e.judgment == Judgment::Best), "{e:?}");
        }
    }

    #[test]
    fn illegal_turns_are_named() {
        let limits = SearchLimits::within(Duration::from_millis(50));
        let short = Step::numbered(vec![turn(3, &[(0, 0), (0, 1)])]);
        let e = review(&short, AB, &limits).unwrap_err();
        assert!(e.to_string().starts_with("moves[0] (move 1):"), "{e}");
        let taken = Step::numbered(vec![turn(1, &[(4, 4)]), turn(1, &[(4, 4)])]);
        let e = review(&taken, AB, &limits).unwrap_err();
        assert!(e.to_string().starts_with("moves[1] (move 2):"), "{e}");
        let bad_die = Step::numbered(vec![turn(7, &[(0, 0)])]);
        assert!(review(&bad_die, AB, &limits).is_err());
    }
}
