//! Does level 10 (the AI's best move within its move budget) ever give away
//! value in 7x6 Connect Four? Self-play from every opening of two stones
//! (one of each mirror pair): each AI move is checked against the exact
//! scores of every column (the solver with no limit, the book included).
//!
//! cargo run --release --example connect_four_perfect_play [-- openings]
//!
//! Prints a line per game and totals: AI moves, moves whose analysis was
//! exact within the budget, and moves that lost value (a win turned into a
//! draw or a loss, or a draw into a loss; a slower win is no loss).

use std::time::{Duration, Instant};

use kibitz::core::game::Game;
use kibitz::games::connect_four::solve::{verdict, ConnectFourSolver};
use kibitz::games::connect_four::{ConnectFourState, Shape};
use kibitz::matches::MatchLimits;
use kibitz::registry::MATCH_GAMES;
use kibitz::solve::limits::SearchLimits;

fn main() {
    let wanted: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    let ai = ConnectFourSolver::new(1 << 22).with_helpers(1);
    let reference = ConnectFourSolver::new(1 << 22);
    let budget = MatchLimits::default();
    let openings: Vec<String> = (1..=7)
        .flat_map(|a| (1..=7).map(move |b| format!("{a}{b}")))
        // One of each mirror pair: "ab" and "(8-a)(8-b)".
        .filter(|m| {
            let mirror: String = m.chars().map(|c| char::from(b'8' - (c as u8 - b'0'))).collect();
            *m <= mirror
        })
        .take(wanted)
        .collect();
    let (mut moves_total, mut exact_total, mut lost_total) = (0, 0, 0);
    let started = Instant::now();
    let connect_four = MATCH_GAMES.find("connect-four").expect("a registered game");
    for opening in &openings {
        let mut game = ConnectFourState::from_moves(Shape::default(), opening).expect("an opening");
        let mut line = opening.clone();
        let (mut moves, mut exact, mut lost) = (0, 0, 0);
        while game.result().is_none() {
            let analysis = ai.analyze(&game, &budget.search(connect_four));
            let column = analysis.best;
            moves += 1;
            if analysis.solved {
                exact += 1;
            } else {
                let truth = reference.analyze(&game, &SearchLimits::within(Duration::from_secs(24 * 3600)));
                let best = truth.score;
                let chosen = truth.columns[column as usize].score.unwrap_or(i32::MIN);
                let (best_outcome, _) = truth.verdict(best);
                let (chosen_outcome, _) = verdict(truth.cells, truth.stones, chosen);
                if best_outcome != chosen_outcome {
                    lost += 1;
                    println!(
                        "  {line}: played {} ({chosen_outcome:?}) where {best_outcome:?} was there",
                        column + 1
                    );
                }
            }
            game.play(column);
            line.push(char::from(b'1' + column as u8));
        }
        println!("{opening}: {line} ({moves} AI moves, {exact} exact within the budget, {lost} lost value)");
        moves_total += moves;
        exact_total += exact;
        lost_total += lost;
    }
    println!(
        "{} openings, {moves_total} AI moves: {exact_total} exact within the budget, {lost_total} lost value ({:.0} s)",
        openings.len(),
        started.elapsed().as_secs_f64()
    );
}
