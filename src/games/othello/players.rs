//! The simple players and the level hook.
//!
//! `greedy` takes the move that turns the most discs. Levels 1..10 scale
//! the search (deeper midgame, earlier exact endgame as the level rises)
//! and give each move a value on the scale of [`crate::matches::levels`],
//! where 1.0 separates a sure win from a sure loss, for its softmax.

use super::rules::OthelloState;
use super::solve::{evaluation, Analysis, Settings};
use super::square::{OthelloMove, Square};

/// The square that turns the most discs, the lowest square among equals;
/// a pass when the player has no square.
pub fn greedy_move(game: &OthelloState) -> OthelloMove {
    let mut best: Option<(u32, Square)> = None;
    for square in game.legal_squares() {
        let turned = game.flips(square).count_ones();
        if best.is_none_or(|(most, _)| turned > most) {
            best = Some((turned, square));
        }
    }
    best.map_or(OthelloMove::Pass, |(_, square)| OthelloMove::Play(square))
}

/// The search a level may do: level 1 looks one ply ahead and solves only
/// the last few empties; each level adds a ply and two empties; level 10
/// is full strength.
pub fn level_settings(level: u8) -> Settings {
    if level >= 10 {
        return Settings::default();
    }
    let level = u32::from(level.max(1));
    Settings {
        max_depth: level,
        exact_empties: 2 + 2 * level,
        every_move_exact: true,
    }
}

/// Each legal move's value for the level softmax: a logistic of its score,
/// 0.5 for an even game, near 1 for a clear win. Square order, like
/// [`Analysis::moves`].
pub fn level_value(analysis: &Analysis) -> Vec<(OthelloMove, f64)> {
    analysis
        .moves
        .iter()
        .map(|m| {
            let value = evaluation(m.score, false, None).win_chance;
            (OthelloMove::Play(m.square), value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::parse::parse_position;

    #[test]
    fn greedy_takes_the_most_discs_and_the_lowest_square_among_equals() {
        let start = OthelloState::new(crate::games::othello::Size::Eight);
        // Every opening move turns one disc: d3 is the lowest.
        assert_eq!(greedy_move(&start), OthelloMove::Play(Square::parse("d3").unwrap()));
        let rows = ["XOO.", "....", "OO..", "X..."];
        let game = parse_position(None, &rows, Some("X")).unwrap();
        // d1 turns b1 and c1; a2 and c2 turn one disc each.
        assert_eq!(greedy_move(&game), OthelloMove::Play(Square::parse("d1").unwrap()));
    }
}
