//! Each game's mapping of its own score onto the one evaluation scale, as
//! README's "One evaluation scale" writes it down: 0.5 at an even score,
//! monotone in the score, 1 / 0.5 / 0 when exact, within 0..1 everywhere.

use kibitz::core::evaluation::{lichess_win_chance, Evaluation};
use kibitz::core::outcome::Outcome;
use kibitz::games::{chess, connect_four, kalah, nine_square, number_square, othello, tictactoe};

/// The estimates of `scores` (ascending) rise strictly, pass 0.5 at 0 and
/// stay inside 0..1; the exact values are the outcome's points.
fn holds_the_scale(
    name: &str,
    scores: &[f64],
    estimate: impl Fn(f64) -> Evaluation,
    exact: impl Fn(f64) -> Evaluation,
) {
    let chances: Vec<f64> = scores.iter().map(|&s| estimate(s).win_chance).collect();
    for (pair, s) in chances.windows(2).zip(scores) {
        assert!(pair[0] < pair[1], "{name}: not rising after score {s}: {chances:?}");
    }
    assert!(chances.iter().all(|c| (0.0..=1.0).contains(c)), "{name}: {chances:?}");
    assert_eq!(estimate(0.0).win_chance, 0.5, "{name}");
    for &s in scores {
        let e = estimate(s);
        assert!(!e.exact && e.outcome.is_none(), "{name}: an estimate names no outcome");
        let x = exact(s);
        let expected = sign(s);
        assert!(x.exact, "{name}");
        assert_eq!(
            (x.outcome, x.win_chance),
            (Some(expected), expected.points()),
            "{name}: {s}"
        );
    }
}

/// The outcome a final score of `s` means, written here on its own.
fn sign(s: f64) -> Outcome {
    if s > 0.0 {
        Outcome::Win
    } else if s < 0.0 {
        Outcome::Loss
    } else {
        Outcome::Draw
    }
}

fn integers(range: std::ops::RangeInclusive<i32>) -> Vec<f64> {
    range.map(f64::from).collect()
}

#[test]
fn kalah_maps_its_seed_margin() {
    holds_the_scale(
        "kalah",
        &integers(-48..=48),
        |s| kalah::solve::evaluation(s as i32, false, None),
        |s| kalah::solve::evaluation(s as i32, true, None),
    );
}

#[test]
fn othello_maps_its_disc_difference() {
    holds_the_scale(
        "othello",
        &integers(-64..=64),
        |s| othello::solve::evaluation(s as i32, false, None),
        |s| othello::solve::evaluation(s as i32, true, Some(3)),
    );
    assert_eq!(othello::solve::evaluation(2, true, Some(3)).plies_to_end, Some(3));
}

#[test]
fn tictactoe_maps_its_heuristic_and_keeps_proved_outcomes() {
    let scores: Vec<f64> = (-10..=10).map(|i| f64::from(i) * 50_000.0).collect();
    holds_the_scale(
        "tictactoe",
        &scores,
        |s| tictactoe::solve::evaluation(None, None, s as i32),
        |s| tictactoe::solve::evaluation(Some(sign(s)), Some(5), s as i32),
    );
    // The largest estimate stays short of a proved win.
    assert!(tictactoe::solve::evaluation(None, None, 500_000).win_chance < 0.75);
}

#[test]
fn connect_four_maps_its_solver_score() {
    let scale = connect_four::solve::SCORE_PER_UNIT;
    holds_the_scale(
        "connect-four",
        &integers(-21..=21),
        |s| Evaluation::estimate(s, scale),
        |s| Evaluation::of_margin(s, true, None, scale),
    );
}

#[test]
fn number_square_maps_its_final_margin_on_the_tiles_scale() {
    let board = number_square::Board::from_rows(&[vec![Some(3), Some(9)], vec![Some(1), Some(7)]]).unwrap();
    holds_the_scale(
        "number-square",
        &integers(-40..=40),
        |s| number_square::solve::evaluation(s as i64, false, &board),
        |s| number_square::solve::evaluation(s as i64, true, &board),
    );
}

#[test]
fn nine_square_estimates_from_its_expected_margin_and_is_never_exact() {
    let margins: Vec<f64> = (-40..=40).map(|m| f64::from(m) * 0.5).collect();
    let chances: Vec<f64> = margins
        .iter()
        .map(|&m| nine_square::solve::evaluation(m).win_chance)
        .collect();
    assert!(chances.windows(2).all(|w| w[0] < w[1]), "{chances:?}");
    assert_eq!(nine_square::solve::evaluation(0.0).win_chance, 0.5);
    assert!(margins.iter().all(|&m| !nine_square::solve::evaluation(m).exact));
}

#[test]
fn chess_uses_lichess_win_percent_and_proved_mates_are_certain() {
    use chess::analysis::EvalScore;
    for cp in (-1500..=1500).step_by(25) {
        let e = EvalScore::Cp(cp).evaluation();
        let percent = chess::accuracy::win_percent_cp(cp);
        assert!((e.win_chance * 100.0 - percent).abs() < 1e-9, "{cp}");
        assert!(!e.exact);
    }
    // lila's WinPercent: 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1),
    // computed here on its own.
    let lila = |cp: f64| (50.0 + 50.0 * (2.0 / (1.0 + (-0.00368208 * cp).exp()) - 1.0)) / 100.0;
    for cp in [-1000.0, -300.0, -35.0, 0.0, 35.0, 300.0, 1000.0] {
        assert!((lichess_win_chance(cp) - lila(cp)).abs() < 1e-12, "{cp}");
    }
    let mate = EvalScore::Mate(3).evaluation();
    assert_eq!((mate.win_chance, mate.exact, mate.plies_to_end), (1.0, true, Some(5)));
    let mated = EvalScore::Mate(-2).evaluation();
    assert_eq!(
        (mated.win_chance, mated.outcome, mated.plies_to_end),
        (0.0, Some(Outcome::Loss), Some(4))
    );
}
