//! Number Square reviews. Options `{size, board}` as a match stores them
//! (the dealt board, every tile's value); moves `{row, col}`, the first
//! player first.
//!
//! Every position is searched by the shared solver (the one
//! `/number-square/move` and the AI use), so a value is the solver's: the
//! future margin (the mover's points minus the opponent's from here on),
//! proved when the search reached the end of the game on every line. The
//! points map the mover's final margin (the lead so far plus that future
//! margin) by [`margin_points`] with a scale of twice the largest tile
//! still on the board: a lead of two big tiles is nearly a sure win, and
//! late in a game of small tiles a few points decide it.

use serde_json::{json, Value};

use super::matches::{Options, TileMove};
use super::solve::{margin_scale, Analysis, MoveBound, NumberSquareSolver};
use super::{Board, Tile};
use crate::core::game::Seat;
use crate::core::outcome::Outcome;
use crate::review::{
    analyze_latest_first, check_seat, first_player_value, judge, margin_points, Entry, Extras, Review, ReviewError,
    Step,
};
use crate::solve::limits::SearchLimits;

/// A position of the record: the board before the move, the mover's seat
/// and lead so far, and the tile taken.
#[derive(Clone, Debug)]
struct Position {
    board: Board,
    seat: Seat,
    lead: i64,
    tile: Tile,
    points: i64,
}

/// The dealt board. A match created before the deal was stored has only
/// its size: its taken tiles' values are lost, so it cannot be replayed.
pub fn start(options: &Options) -> Result<Board, ReviewError> {
    let rows = options.board.as_ref().ok_or_else(|| {
        ReviewError::Unavailable(
            "this Number Square match's deal was not recorded (it was created before the options kept \
             the dealt board), so its moves cannot be replayed; matches created since are reviewed"
                .to_string(),
        )
    })?;
    Board::from_rows(rows).map_err(|e| ReviewError::Options(format!("board: {e}")))
}

fn replay(options: &Options, steps: &[Step<TileMove>], names: [&str; 2]) -> Result<Vec<Position>, ReviewError> {
    let mut board = start(options)?;
    let mut scores = [0i64; 2];
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        // The players take turns: the first player takes every other tile.
        let seat = i % 2;
        check_seat(i, step.seat, seat, names)?;
        let tile = step.mv.tile().map_err(|e| ReviewError::at(i, e))?;
        let played = board.play(tile).map_err(|e| ReviewError::at(i, e.to_string()))?;
        out.push(Position {
            board,
            seat,
            lead: scores[seat] - scores[1 - seat],
            tile,
            points: played.points,
        });
        scores[seat] += played.points;
        board = played.board;
    }
    Ok(out)
}

/// A move's value: the future margin, whether it is proved, and whether
/// it is only an upper bound (the search proved the move no better).
#[derive(Clone, Copy, Debug)]
struct Margin {
    margin: i64,
    proved: bool,
    at_most: bool,
}

struct Scale {
    lead: i64,
    tiles: f64,
}

impl Scale {
    fn points(&self, v: Margin) -> f64 {
        margin_points((self.lead + v.margin) as f64, self.tiles)
    }

    fn json(&self, v: Margin) -> Value {
        let final_margin = self.lead + v.margin;
        let outcome = match final_margin.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        };
        let mut value = json!({
            "outcome": v.proved.then_some(outcome.name()),
            "value": v.margin,
            "final_margin": final_margin,
            "points": self.points(v),
        });
        if let (true, Value::Object(map)) = (v.at_most, &mut value) {
            map.insert("bound".to_string(), Value::from("at_most"));
        }
        value
    }
}

/// The move played: its value in the position's analysis when that is
/// exact there, else the value of the position it led to (`next`, the
/// opponent's analysis) seen from the mover, else the analysis' bound.
fn played_value(position: &Position, analysis: &Analysis, next: Option<&Analysis>) -> Margin {
    let listed = analysis.moves.iter().find(|m| m.tile == position.tile);
    match (listed, next) {
        (Some(m), _) if m.bound == MoveBound::Exact => Margin {
            margin: m.value,
            proved: analysis.solved,
            at_most: false,
        },
        (_, Some(next)) => Margin {
            margin: position.points - next.value,
            proved: next.solved,
            at_most: false,
        },
        (Some(m), None) => Margin {
            margin: m.value,
            proved: false,
            at_most: true,
        },
        // A move that ends the game is always listed exact; this keeps the
        // function total.
        (None, None) => Margin {
            margin: position.points,
            proved: false,
            at_most: false,
        },
    }
}

fn entry(position: &Position, analysis: &Analysis, next: Option<&Analysis>, ply: u64, actor: &str) -> Entry {
    let scale = Scale {
        lead: position.lead,
        tiles: margin_scale(&position.board),
    };
    let cell = |t: Tile| json!({"row": t.row, "col": t.col});
    let best = Margin {
        margin: analysis.value,
        proved: analysis.solved,
        at_most: false,
    };
    let mine = played_value(position, analysis, next);
    let loss = (scale.points(best) - scale.points(mine)).max(0.0);
    let all_exact = analysis.moves.iter().all(|m| m.bound == MoveBound::Exact);
    Entry {
        ply,
        actor: actor.to_string(),
        mv: cell(position.tile),
        best_moves: analysis
            .moves
            .iter()
            .filter(|m| m.bound == MoveBound::Exact && m.value == analysis.value)
            .map(|m| cell(m.tile))
            .collect(),
        value_before: scale.json(best),
        value_played: scale.json(mine),
        loss,
        judgment: judge(loss, !mine.at_most && mine.margin >= analysis.value),
        // Every move's value proved: then best_moves is complete too.
        exact: analysis.solved && all_exact && mine.proved,
        value: first_player_value(position.seat, scale.points(mine)),
        extras: Extras::new(),
    }
}

/// Validates the whole record, then reviews it within `limits` (see
/// `tictactoe::review` for `give_up_inexact`).
pub fn review(
    solver: &NumberSquareSolver,
    options: &Options,
    steps: &[Step<TileMove>],
    names: [&str; 2],
    limits: &SearchLimits,
    give_up_inexact: bool,
) -> Result<Option<Review>, ReviewError> {
    let positions = replay(options, steps, names)?;
    let analyzed = analyze_latest_first(
        &positions,
        limits,
        give_up_inexact,
        |position, limits| solver.analyze(&position.board, limits),
        |analysis| {
            analysis
                .as_ref()
                .is_some_and(|a| a.solved && a.moves.iter().all(|m| m.bound == MoveBound::Exact))
        },
    );
    let Some(analyses) = analyzed else {
        return Ok(None);
    };
    let mut entries = Vec::with_capacity(positions.len());
    for (i, (position, step)) in positions.iter().zip(steps).enumerate() {
        // Replay checked every move legal, so the game was on before each.
        let Some(analysis) = &analyses[i] else {
            continue;
        };
        let next = analyses.get(i + 1).and_then(Option::as_ref);
        entries.push(entry(position, analysis, next, step.ply, names[position.seat]));
    }
    Ok(Some(Review::new("number-square", names, entries)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::AB;
    use std::time::Duration;

    const ONE_TO_NINE: [[i64; 3]; 3] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];

    /// Reviews `moves` (row, col) on a 3x3 board (None: no deal recorded).
    fn run(rows: Option<[[i64; 3]; 3]>, moves: &[(i64, i64)]) -> Result<Option<Review>, ReviewError> {
        let options = Options {
            size: Some(3),
            board: rows.map(|rows| rows.iter().map(|r| r.iter().map(|&v| Some(v)).collect()).collect()),
        };
        let steps = Step::numbered(moves.iter().map(|&(row, col)| TileMove { row, col }).collect());
        let solver = NumberSquareSolver::new(1 << 10);
        review(
            &solver,
            &options,
            &steps,
            AB,
            &SearchLimits::within(Duration::from_secs(5)),
            false,
        )
    }

    #[test]
    fn a_match_without_its_deal_is_unavailable_not_broken() {
        let e = run(None, &[(0, 0)]).unwrap_err();
        assert!(matches!(e, ReviewError::Unavailable(_)), "{e:?}");
        assert!(e.to_string().contains("deal was not recorded"), "{e}");
    }

    #[test]
    fn illegal_moves_are_named() {
        let centre_first = run(Some(ONE_TO_NINE), &[(1, 1)]).unwrap_err();
        assert!(
            centre_first.to_string().starts_with("moves[0] (move 1):"),
            "{centre_first}"
        );
        let twice = run(Some(ONE_TO_NINE), &[(0, 0), (0, 0)]).unwrap_err();
        assert!(twice.to_string().starts_with("moves[1] (move 2):"), "{twice}");
        let negative = run(Some(ONE_TO_NINE), &[(-1, 0)]).unwrap_err();
        assert!(negative.to_string().contains("off the board"), "{negative}");
    }

    #[test]
    fn the_lead_so_far_counts_in_the_points() {
        let r = run(Some(ONE_TO_NINE), &[(2, 2), (0, 0)]).unwrap().unwrap();
        // a took the 9: b is 9 behind at its turn, the 8 the largest tile.
        let before = &r.moves[1].value_before;
        let margin = before["value"].as_i64().unwrap();
        assert_eq!(before["final_margin"].as_i64().unwrap(), margin - 9);
        let expected = margin_points((margin - 9) as f64, super::super::solve::SCALE_TILES * 8.0);
        assert!((before["points"].as_f64().unwrap() - expected).abs() < 1e-15);
        assert!(r.exact);
    }
}
