//! The seed paper's `lookahead2`, and whole games through the arena's loop.

use std::time::Duration;

use std::cell::RefCell;

use kibitz::arena::players::{play_out, Chooser, FromFn, Referee};
use kibitz::games::number_square::solve::NumberSquareSolver;
use kibitz::games::number_square::strategies::{deal, lookahead2, lookahead2_scores};
use kibitz::games::number_square::Lookahead2;
use kibitz::games::number_square::{Board, GameEnd, NumberSquareState, Tile};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// `start` played out, `first` moving first (their random choices drawn
/// from `seed`): the finished game.
fn play(
    start: &Board,
    first: &mut dyn Chooser<NumberSquareState>,
    second: &mut dyn Chooser<NumberSquareState>,
    seed: u64,
) -> NumberSquareState {
    let mut game = NumberSquareState::new(start.clone(), [0, 0], 0);
    let mut rng = StdRng::seed_from_u64(seed);
    play_out(&mut game, [first, second], &mut rng, &Referee::untimed()).expect("a legal game");
    game
}

/// The first seat's points minus the second's.
fn margin(game: &NumberSquareState) -> i64 {
    game.score(0) - game.score(1)
}

fn board(values: &[&[i64]]) -> Board {
    let rows: Vec<Vec<Option<i64>>> = values
        .iter()
        .map(|row| row.iter().map(|&v| Some(v)).collect())
        .collect();
    Board::from_rows(&rows).unwrap()
}

/// The paper's formula, spelled out with plain loops over `Board`'s public
/// rules: value - max over replies (reply - max tile left for us).
fn paper_score(board: &Board, tile: Tile) -> i64 {
    let played = board.play(tile).unwrap();
    let mut best_reply: Option<i64> = None;
    for reply in played.board.legal_moves() {
        let after = played.board.play(reply).unwrap();
        let mut ours = 0;
        for ours_tile in after.board.legal_moves() {
            ours = ours.max(after.board.value_at(ours_tile).unwrap());
        }
        let worth = after.points - if after.board.is_over() { 0 } else { ours };
        best_reply = Some(best_reply.map_or(worth, |b: i64| b.max(worth)));
    }
    played.points - best_reply.unwrap_or(0)
}

#[test]
fn lookahead2_scores_every_legal_tile_by_the_papers_formula() {
    let mut rng = StdRng::seed_from_u64(2);
    for game in 0..40 {
        let mut board = Board::shuffled(3 + game % 5, &mut rng).unwrap();
        for _ in 0..rng.gen_range(0..6) {
            let tile = *board.legal_moves().choose(&mut rng).unwrap();
            let next = board.play(tile).unwrap().board;
            if next.is_over() {
                break;
            }
            board = next;
        }
        let scores = lookahead2_scores(&board);
        let tiles: Vec<Tile> = scores.iter().map(|&(t, _)| t).collect();
        assert_eq!(tiles, board.legal_moves());
        for (tile, score) in scores {
            assert_eq!(score, paper_score(&board, tile), "{tile:?} on {:?}", board.rows());
        }
        let best = scores_max(&board);
        assert_eq!(lookahead2(&board), Some(best));
    }
}

fn scores_max(board: &Board) -> Tile {
    let scores = lookahead2_scores(board);
    let top = scores.iter().map(|&(_, s)| s).max().unwrap();
    scores.iter().find(|&&(_, s)| s == top).unwrap().0
}

#[test]
fn lookahead2_avoids_a_big_tile_that_opens_a_bigger_one() {
    // The 8 and the 7 are the biggest edge tiles, but taking either
    // exposes the 50 in the centre to the opponent.
    let start = board(&[&[1, 8, 1], &[7, 50, 1], &[1, 1, 1]]);
    let choice = lookahead2(&start).unwrap();
    assert_ne!(choice, Tile::new(0, 1));
    assert_ne!(choice, Tile::new(1, 0));
}

#[test]
fn lookahead2_takes_a_game_ending_tile_at_its_real_margin() {
    // 2x2 after (0,0): any tile adjacent to it ends the game, so its worth
    // is just its value; the diagonal 4 lets the opponent end it with 9.
    let start = board(&[&[0, 9], &[3, 4]]);
    let after = start.play(Tile::new(0, 0)).unwrap().board;
    let scores = lookahead2_scores(&after);
    assert_eq!(
        scores,
        vec![(Tile::new(0, 1), 9), (Tile::new(1, 0), 3), (Tile::new(1, 1), 4 - 9),]
    );
    assert_eq!(lookahead2(&after), Some(Tile::new(0, 1)));
}

#[test]
fn a_game_alternates_movers_and_adds_up_the_scores() {
    let mut rng = StdRng::seed_from_u64(11);
    for size in 2..=9 {
        let start = Board::shuffled(size, &mut rng).unwrap();
        // Both players through one recorder: the tiles taken, in order, and
        // whether lookahead2 (seat 0) chose each.
        let taken = RefCell::new(Vec::new());
        let mut first = FromFn(|g: &NumberSquareState| {
            let tile = lookahead2(g.board());
            taken.borrow_mut().extend(tile.map(|t| (t, true)));
            tile
        });
        let mut coin = StdRng::seed_from_u64(size as u64);
        let mut second = FromFn(|g: &NumberSquareState| {
            let tile = g.board().legal_moves().choose(&mut coin).copied();
            taken.borrow_mut().extend(tile.map(|t| (t, false)));
            tile
        });
        let game = play(&start, &mut first, &mut second, 0);
        let mut board = start.clone();
        let mut scores = [0, 0];
        for (ply, &(tile, by_lookahead2)) in taken.borrow().iter().enumerate() {
            assert_eq!(by_lookahead2, ply % 2 == 0, "ply {ply}");
            let played = board.play(tile).unwrap();
            scores[ply % 2] += played.points;
            board = played.board;
        }
        assert_eq!([game.score(0), game.score(1)], scores);
        assert_eq!(game.board(), &board);
        assert!(board.end().is_some());
    }
}

#[test]
fn exact_search_never_scores_worse_than_lookahead2_on_4x4() {
    // Optimal play guarantees the mover at least the game value against
    // anyone; check it on whole games, both seats.
    let solver = NumberSquareSolver::new(1 << 16);
    let mut rng = StdRng::seed_from_u64(16);
    let best = |g: &NumberSquareState| {
        let limits = SearchLimits::within(Duration::from_secs(30));
        solver.analyze(g.board(), &limits).map(|a| a.best_move)
    };
    for _ in 0..10 {
        let start = Board::shuffled(4, &mut rng).unwrap();
        let value = solver
            .analyze(&start, &SearchLimits::within(Duration::from_secs(30)))
            .unwrap()
            .value;
        let first = margin(&play(&start, &mut FromFn(best), &mut Lookahead2, 0));
        assert!(first >= value, "{first} < {value}");
        let second = margin(&play(&start, &mut Lookahead2, &mut FromFn(best), 0));
        assert!(-second >= -value, "{second} > {value}");
    }
}

#[test]
fn games_end_with_a_crossing_or_a_full_board() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut crossings = 0;
    for _ in 0..30 {
        let start = Board::shuffled(6, &mut rng).unwrap();
        // Two random players that count the tiles taken.
        let moves = std::cell::Cell::new(0);
        let random = |seed: u64| {
            let mut own = StdRng::seed_from_u64(seed);
            let moves = &moves;
            FromFn(move |g: &NumberSquareState| {
                moves.set(moves.get() + 1);
                g.board().legal_moves().choose(&mut own).copied()
            })
        };
        let game = play(&start, &mut random(rng.gen()), &mut random(rng.gen()), 0);
        let end = game.board().end().unwrap();
        crossings += usize::from(end != GameEnd::AllTaken);
        assert!(moves.get() < 36 || end == GameEnd::AllTaken);
    }
    assert!(crossings > 0);
}

#[test]
fn the_first_player_wins_every_4x4_board_under_perfect_play() {
    // Why no strategy takes 90% of the points over both seats: even perfect
    // play loses from the second seat, and lookahead2 wins from the first.
    let solver = NumberSquareSolver::new(1 << 16);
    let exact = |g: &NumberSquareState| {
        let limits = SearchLimits::within(Duration::from_secs(30));
        solver.analyze(g.board(), &limits).map(|a| a.best_move)
    };
    let mut lookahead2_first_wins = 0;
    for seed in 0..20 {
        let start = deal(4, 1000 + seed).unwrap();
        let analysis = solver
            .analyze(&start, &SearchLimits::within(Duration::from_secs(30)))
            .unwrap();
        assert!(analysis.solved);
        assert!(analysis.value > 0, "seed {seed}: value {}", analysis.value);
        let game = play(&start, &mut Lookahead2, &mut FromFn(exact), 0);
        lookahead2_first_wins += usize::from(margin(&game) > 0);
    }
    assert!(lookahead2_first_wins >= 18, "{lookahead2_first_wins}");
}
