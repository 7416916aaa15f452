//! Connect Four's rules through the `Game` interface: random games keep
//! the invariants, and the two ways of writing a position agree.

use kibitz::core::game::{Game, GameOutcome, Turn};
use kibitz::games::connect_four::{ConnectFourError, ConnectFourState, Shape};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn shapes() -> Vec<Shape> {
    let mut shapes = vec![Shape::default()];
    for (cols, rows, k) in [(4, 4, 3), (9, 9, 4), (5, 8, 5), (9, 4, 4), (8, 7, 4)] {
        shapes.push(Shape::new(Some(cols), Some(rows), Some(k)).expect("valid"));
    }
    shapes
}

#[test]
fn random_games_keep_the_invariants_and_agree_with_their_column_strings() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut finished = [0usize; 3];
    for shape in shapes() {
        for _ in 0..200 {
            let mut game = ConnectFourState::new(shape);
            let mut moves = String::new();
            while let Turn::Player(seat) = game.turn() {
                assert_eq!(seat, game.seat_to_move());
                let legal = game.legal_moves();
                assert!(!legal.is_empty());
                assert!(legal.iter().all(|&c| c < shape.cols));
                let col = legal[rng.gen_range(0..legal.len())];
                game.play(col);
                moves.push(char::from_digit(col + 1, 10).expect("a digit"));
                // The board written as rows is the same position.
                let rows = ConnectFourState::from_rows(&game.rows(), Some(i64::from(shape.k))).expect("rows parse");
                assert_eq!(rows, game, "{moves}");
                assert_eq!(rows.result(), game.result(), "{moves}");
            }
            assert_eq!(game.turn(), Turn::Over);
            assert!(game.legal_moves().is_empty());
            let replayed = ConnectFourState::from_moves(shape, &moves).expect("the game replays");
            assert_eq!(replayed.result(), game.result());
            assert!(replayed.ensure_not_over().is_err());
            match game.result() {
                Some(GameOutcome::Won(0)) => finished[0] += 1,
                Some(GameOutcome::Won(_)) => finished[1] += 1,
                Some(GameOutcome::Draw) => {
                    assert_eq!(game.stones(), shape.area());
                    finished[2] += 1
                }
                None => unreachable!("the loop ends at the end"),
            }
        }
    }
    // Random play produces wins for both sides (and, on 9x9 with k = 4
    // or 5x8 with k = 5, some draws).
    assert!(finished.iter().all(|&n| n > 0), "{finished:?}");
}

#[test]
fn a_stone_after_the_winning_one_is_named() {
    let err = ConnectFourState::from_moves(Shape::default(), "12121213").expect_err("refused");
    assert_eq!(
        err,
        ConnectFourError::MoveAfterWin {
            index: 7,
            column: 3,
            winner: 'X'
        }
    );
}

#[test]
fn request_columns_are_checked() {
    let game = ConnectFourState::from_moves(Shape::default(), "444444").expect("legal");
    assert!(game.check_column(4).is_err(), "full");
    assert!(game.check_column(0).is_err());
    assert!(game.check_column(8).is_err());
    assert_eq!(game.check_column(1), Ok(0));
}
