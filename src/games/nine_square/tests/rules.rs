//! Nine Square rules: scoring, the incremental score against a from-scratch
//! count, validation and the turn model.

use kibitz::games::nine_square::{
    Board, Coord, MoveError, NineSquareState, Player, Position, PositionError, Score, Turn,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Scores a grid of row strings from scratch, line by line, without the
/// crate's line tables: every 3-cell row, column and diagonal of each box
/// (1 point) and every 9-cell row, column and diagonal of the grid (3).
fn reference_score(rows: &[String]) -> Score {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let mut lines: Vec<(Vec<(usize, usize)>, u32)> = Vec::new();
    for top in [0, 3, 6] {
        for left in [0, 3, 6] {
            for i in 0..3 {
                lines.push(((0..3).map(|j| (top + i, left + j)).collect(), 1));
                lines.push(((0..3).map(|j| (top + j, left + i)).collect(), 1));
            }
            lines.push(((0..3).map(|i| (top + i, left + i)).collect(), 1));
            lines.push(((0..3).map(|i| (top + i, left + 2 - i)).collect(), 1));
        }
    }
    for i in 0..9 {
        lines.push(((0..9).map(|j| (i, j)).collect(), 3));
        lines.push(((0..9).map(|j| (j, i)).collect(), 3));
    }
    lines.push(((0..9).map(|i| (i, i)).collect(), 3));
    lines.push(((0..9).map(|i| (i, 8 - i)).collect(), 3));

    let mut score = Score::default();
    for (cells, points) in lines {
        if cells.iter().all(|&(r, c)| grid[r][c] == 'X') {
            score.x += points;
        }
        if cells.iter().all(|&(r, c)| grid[r][c] == 'O') {
            score.o += points;
        }
    }
    score
}

fn position(rows: &[&str]) -> Position {
    Position::parse(rows, "X", 1).expect("a valid test grid")
}

fn score_of(rows: &[&str]) -> Score {
    position(rows).board().score()
}

const EMPTY_ROW: &str = ".........";

#[test]
fn a_line_of_three_in_a_box_is_one_point() {
    let rows = [
        "XXX......",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
    ];
    assert_eq!(score_of(&rows), Score { x: 1, o: 0 });
}

#[test]
fn three_in_a_row_across_two_boxes_scores_nothing() {
    let rows = [
        ".XXX.....",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
    ];
    assert_eq!(score_of(&rows), Score::default());
}

#[test]
fn box_columns_and_diagonals_score_too() {
    // Column in the centre box and the anti-diagonal of the bottom-right box.
    let rows = [
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        "....O....",
        "....O....",
        "....O...O",
        ".......O.",
        "......O..",
        EMPTY_ROW,
    ];
    // (5,8),(6,7),(7,6) crosses boxes; the anti-diagonal of box 8 is
    // (6,8),(7,7),(8,6), which is empty, so only the column counts.
    assert_eq!(score_of(&rows), Score { x: 0, o: 1 });
    let rows = [
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        "....O....",
        "....O....",
        "....O....",
        "........O",
        ".......O.",
        "......O..",
    ];
    assert_eq!(score_of(&rows), Score { x: 0, o: 2 });
}

#[test]
fn a_full_box_is_eight_points() {
    let rows = [
        "...XXX...",
        "...XXX...",
        "...XXX...",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
    ];
    assert_eq!(score_of(&rows), Score { x: 8, o: 0 });
}

#[test]
fn a_line_of_nine_adds_three_bonus_points() {
    // A grid row: three box rows (3) plus the bonus (3).
    let mut rows = [EMPTY_ROW; 9];
    rows[4] = "OOOOOOOOO";
    assert_eq!(score_of(&rows), Score { x: 0, o: 6 });
    // The main diagonal: three box diagonals plus the bonus.
    let diagonal: Vec<String> = (0..9)
        .map(|i| (0..9).map(|j| if i == j { 'X' } else { '.' }).collect())
        .collect();
    let position = Position::parse(&diagonal, "O", 2).expect("valid");
    assert_eq!(position.board().score(), Score { x: 6, o: 0 });
    // A column of nine broken by one opposing mark: only the two intact
    // box columns score.
    let column: Vec<String> = (0..9)
        .map(|i| {
            let mark = if i == 4 { 'O' } else { 'X' };
            format!("{mark}........")
        })
        .collect();
    let position = Position::parse(&column, "O", 2).expect("valid");
    assert_eq!(position.board().score(), Score { x: 2, o: 0 });
}

#[test]
fn both_players_score_at_once() {
    let rows = [
        "XXXOOO...",
        "XXXOOO...",
        "XXXOOO...",
        "XOX......",
        ".X.......",
        "..X......",
        "XXXXXXXXX",
        ".........",
        "OOO......",
    ];
    // X: top-left box 8; box 3 (rows 3-5, cols 0-2): diagonal (3,0),(4,1),
    // (5,2) is 1; row 6 of nine: 3 box rows + 3 bonus = 6. O: box 1 full 8,
    // box 6 row (8,0..3) 1.
    assert_eq!(score_of(&rows), Score { x: 8 + 1 + 6, o: 8 + 1 });
    let owned: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    assert_eq!(score_of(&rows), reference_score(&owned));
}

#[test]
fn incremental_score_matches_a_full_recount_over_random_playouts() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..60 {
        let mut board = Board::new();
        let mut cells: Vec<Coord> = board.empty_cells().collect();
        cells.shuffle(&mut rng);
        let mut placed = Vec::new();
        for &at in &cells {
            // Long runs of one player make the full boxes and lines of nine
            // that alternating play would almost never produce.
            let player = if rng.gen_bool(0.7) { Player::X } else { Player::O };
            board.place(at, player).expect("the cell is empty");
            placed.push(at);
            assert_eq!(board.score(), reference_score(&board.rows()));
        }
        assert!(board.is_full());
        while let Some(at) = placed.pop() {
            board.unplace(at).expect("the cell holds a mark");
            assert_eq!(board.score(), reference_score(&board.rows()));
        }
        assert_eq!(board, Board::new());
    }
}

#[test]
fn a_full_grid_of_one_player_scores_every_line() {
    let rows = vec!["XXXXXXXXX".to_string(); 9];
    let board = reference_score(&rows);
    // 72 box lines + 20 lines of nine x 3.
    assert_eq!(board, Score { x: 72 + 60, o: 0 });
    let mut b = Board::new();
    for r in 0..9 {
        for c in 0..9 {
            b.place(Coord::new(r, c).expect("on the grid"), Player::X)
                .expect("empty");
        }
    }
    assert_eq!(b.score(), board);
}

#[test]
fn rows_round_trip_through_parse() {
    let rows: Vec<String> = [
        "X.O......",
        ".........",
        "OOO......",
        "....X....",
        ".........",
        ".........",
        ".........",
        ".........",
        "........X",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let position = Position::parse(&rows, "O", 6).expect("valid");
    assert_eq!(position.board().rows(), rows);
    assert_eq!(position.player(), Player::O);
    assert_eq!(position.dice(), 6);
    assert_eq!(position.placements_due(), 6);
}

#[test]
fn validation_names_the_field_that_is_wrong() {
    let good: Vec<String> = vec![EMPTY_ROW.to_string(); 9];
    assert_eq!(
        Position::parse(&good[..8], "X", 3),
        Err(PositionError::WrongRowCount { found: 8 })
    );
    let mut short = good.clone();
    short[2] = "........".into();
    assert_eq!(
        Position::parse(&short, "X", 3),
        Err(PositionError::WrongRowLength { row: 2, found: 8 })
    );
    let mut bad = good.clone();
    bad[5] = "...x.....".into();
    let err = Position::parse(&bad, "X", 3).unwrap_err();
    assert_eq!(
        err,
        PositionError::BadCharacter {
            row: 5,
            col: 3,
            found: 'x'
        }
    );
    assert!(err.to_string().contains("row 5, column 3"), "{err}");
    // Multi-byte characters count as one character each.
    let mut wide = good.clone();
    wide[0] = "é........".into();
    assert!(matches!(
        Position::parse(&wide, "X", 3),
        Err(PositionError::BadCharacter { row: 0, col: 0, .. })
    ));
    assert_eq!(
        Position::parse(&good, "x", 3),
        Err(PositionError::UnknownPlayer { found: "x".into() })
    );
    for dice in [0, 7, -1, i64::MAX, i64::MIN, 256 + 3] {
        let err = Position::parse(&good, "X", dice).unwrap_err();
        assert_eq!(err, PositionError::DiceOutOfRange { found: dice });
        assert!(err.to_string().starts_with("dice:"), "{err}");
    }
    let full: Vec<String> = (0..9)
        .map(|i| if i % 2 == 0 { "XOXOXOXOX" } else { "OXOXOXOXO" }.to_string())
        .collect();
    assert_eq!(Position::parse(&full, "X", 3), Err(PositionError::GridFull));
}

#[test]
fn mark_counts_are_not_checked() {
    // O has many more marks than X and it is O's turn: allowed.
    let rows = [
        "OOOOOOOOO",
        "OOOOOOOO.",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
    ];
    assert!(Position::parse(&rows, "O", 1).is_ok());
}

#[test]
fn near_the_end_a_turn_places_only_the_empty_cells() {
    let mut rows: Vec<String> = vec!["XOXOXOXOX".to_string(); 9];
    rows[8] = "XOXOXO...".into();
    let position = Position::parse(&rows, "X", 6).expect("valid");
    assert_eq!(position.placements_due(), 3);
}

#[test]
fn applying_a_turn_checks_count_bounds_and_repeats() {
    let mut rows = vec![EMPTY_ROW.to_string(); 9];
    rows[0] = "X........".into();
    let position = Position::parse(&rows, "O", 2).expect("valid");
    assert_eq!(
        position.apply(&[(1, 1)]),
        Err(MoveError::WrongCount { expected: 2, found: 1 })
    );
    assert_eq!(
        position.apply(&[(1, 1), (9, 0)]),
        Err(MoveError::OffGrid { row: 9, col: 0 })
    );
    assert_eq!(
        position.apply(&[(-1, 1), (2, 2)]),
        Err(MoveError::OffGrid { row: -1, col: 1 })
    );
    assert_eq!(
        position.apply(&[(0, 0), (2, 2)]),
        Err(MoveError::Occupied { row: 0, col: 0 })
    );
    assert_eq!(
        position.apply(&[(2, 2), (2, 2)]),
        Err(MoveError::Repeated { row: 2, col: 2 })
    );
    let board = position.apply(&[(1, 1), (2, 2)]).expect("legal");
    assert_eq!(board.get(Coord::new(2, 2).expect("on grid")), Some(Player::O));
    assert_eq!(board.empty_count(), 81 - 3);
}

#[test]
fn the_turn_model_is_a_roll_then_that_many_placements() {
    let mut game = NineSquareState::new();
    assert_eq!(game.turn(), Turn::Roll(Player::X));
    assert_eq!(
        game.place(Coord::new(0, 0).expect("on grid")),
        Err(MoveError::NotPlacing)
    );
    assert_eq!(game.roll(0), Err(MoveError::BadRoll { found: 0 }));
    game.roll(2).expect("X rolls");
    assert_eq!(game.roll(3), Err(MoveError::NotRolling));
    assert_eq!(
        game.turn(),
        Turn::Place {
            player: Player::X,
            left: 2
        }
    );
    game.place(Coord::new(0, 0).expect("on grid")).expect("empty");
    assert_eq!(
        game.place(Coord::new(0, 0).expect("on grid")),
        Err(MoveError::Occupied { row: 0, col: 0 })
    );
    game.place(Coord::new(0, 1).expect("on grid")).expect("empty");
    assert_eq!(game.turn(), Turn::Roll(Player::O));

    // Play the rest with random rolls: the game ends exactly when the grid
    // is full, and no turn places more than the empty cells.
    let mut rng = StdRng::seed_from_u64(3);
    while let Turn::Roll(_) = game.turn() {
        let empty = game.board().empty_count();
        let die = rng.gen_range(1..=6);
        game.roll(die).expect("a roll is due");
        let Turn::Place { left, .. } = game.turn() else {
            panic!("placements follow a roll");
        };
        assert_eq!(usize::from(left), usize::from(die).min(empty));
        while let Turn::Place { .. } = game.turn() {
            let at = game.board().empty_cells().next().expect("not full");
            game.place(at).expect("empty");
        }
    }
    assert!(game.board().is_full());
    assert!(game.is_over());
}

#[test]
fn coordinates_off_the_grid_do_not_exist() {
    assert!(Coord::new(9, 0).is_none());
    assert!(Coord::new(0, 9).is_none());
    let at = Coord::new(8, 8).expect("corner");
    assert_eq!(at.index(), 80);
}

/// Through the `Game` trait: a chance turn (six faces, 1/6 each), then the
/// roller's seat places min(face, empty) marks, one move each, then the
/// other seat rolls; the game ends with a full grid and the result names
/// the seat with more points.
#[test]
fn the_game_trait_rolls_then_places_that_many_marks() {
    use kibitz::core::game::{Game as Rules, GameOutcome, Turn as GameTurn};
    use kibitz::games::nine_square::NineSquareMove;
    use rand::{Rng, SeedableRng};

    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for _ in 0..20 {
        let mut game = NineSquareState::new();
        let mut roller = 0;
        while Rules::turn(&game) != GameTurn::Over {
            assert_eq!(Rules::turn(&game), GameTurn::Chance);
            let outcomes = game.chance_outcomes();
            assert_eq!(outcomes.len(), 6);
            assert!((outcomes.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-12);
            let (roll, _) = outcomes[rng.gen_range(0..6)];
            let NineSquareMove::Roll(face) = roll else {
                panic!("{roll:?} is not a roll")
            };
            let empty_before = game.board().empty_count();
            Rules::play(&mut game, roll);
            assert_eq!(game.rolled(), face);
            let due = usize::from(face).min(empty_before);
            for _ in 0..due {
                assert_eq!(Rules::turn(&game), GameTurn::Player(roller));
                let legal = game.legal_moves();
                assert_eq!(legal.len(), game.board().empty_count());
                Rules::play(&mut game, legal[rng.gen_range(0..legal.len())]);
            }
            assert_eq!(game.board().empty_count(), empty_before - due);
            roller = 1 - roller;
        }
        assert!(game.board().is_full());
        let score = game.board().score();
        let expected = match score.x.cmp(&score.o) {
            std::cmp::Ordering::Greater => GameOutcome::Won(0),
            std::cmp::Ordering::Less => GameOutcome::Won(1),
            std::cmp::Ordering::Equal => GameOutcome::Draw,
        };
        assert_eq!(game.result(), Some(expected));
    }
}
