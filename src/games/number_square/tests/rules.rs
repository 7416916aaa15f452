//! Number Square rules: validation, the edge cases of exposure and of the
//! crossing path, and random playouts on every size checked against a naive
//! grid implementation of the rules written here.

use kibitz::games::number_square::{Board, BoardError, GameEnd, MoveError, Tile};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

type Rows = Vec<Vec<Option<i64>>>;

fn rows(values: &[&[i64]]) -> Rows {
    values
        .iter()
        .map(|row| row.iter().map(|&v| Some(v)).collect())
        .collect()
}

/// `#` is a taken tile, a digit its value.
fn sketch(lines: &[&str]) -> Rows {
    lines
        .iter()
        .map(|line| line.chars().map(|c| c.to_digit(10).map(|d| d as i64)).collect())
        .collect()
}

fn board(lines: &[&str]) -> Board {
    match Board::from_rows(&sketch(lines)) {
        Ok(board) => board,
        Err(error) => panic!("test board rejected: {error}"),
    }
}

// ---------------------------------------------------------------- validation

#[test]
fn rejects_boards_smaller_than_two_or_larger_than_twelve() {
    for size in [0, 1, 13, 20] {
        let square: Rows = vec![vec![Some(1); size]; size];
        assert_eq!(Board::from_rows(&square), Err(BoardError::BadSize { rows: size }));
    }
    for size in [2, 7, 11, 12] {
        let square: Rows = vec![vec![Some(1); size]; size];
        assert!(Board::from_rows(&square).is_ok(), "size {size}");
    }
}

#[test]
fn rejects_a_ragged_row_and_names_it() {
    let mut ragged = rows(&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]]);
    ragged[1].pop();
    let error = Board::from_rows(&ragged).unwrap_err();
    assert_eq!(
        error,
        BoardError::RaggedRow {
            row: 1,
            len: 2,
            expected: 3
        }
    );
    assert!(error.to_string().contains("row 1 has 2 tiles, expected 3"));
}

#[test]
fn rejects_values_beyond_a_million_either_way_but_accepts_the_limits() {
    let edge = rows(&[&[1_000_000, -1_000_000], &[0, 5]]);
    assert!(Board::from_rows(&edge).is_ok());
    for value in [1_000_001, -1_000_001, i64::MAX, i64::MIN] {
        let wild = rows(&[&[1, 2], &[3, value]]);
        let error = Board::from_rows(&wild).unwrap_err();
        assert_eq!(error, BoardError::ValueOutOfRange { row: 1, col: 1, value });
        assert!(error.to_string().contains("board[1][1]"), "{error}");
    }
}

#[test]
fn rejects_a_board_with_every_tile_taken() {
    let taken: Rows = vec![vec![None; 3]; 3];
    assert_eq!(Board::from_rows(&taken), Err(BoardError::GameOver(GameEnd::AllTaken)));
}

#[test]
fn rejects_a_board_whose_taken_tiles_join_top_to_bottom() {
    let rows = sketch(&["1#11", "1#11", "##11", "#111"]);
    assert_eq!(
        Board::from_rows(&rows),
        Err(BoardError::GameOver(GameEnd::TopToBottomPath))
    );
}

#[test]
fn rejects_a_board_whose_taken_tiles_join_left_to_right_along_a_winding_path() {
    let rows = sketch(&["11111", "###11", "11#11", "11###", "11111"]);
    let error = Board::from_rows(&rows).unwrap_err();
    assert_eq!(error, BoardError::GameOver(GameEnd::LeftToRightPath));
    assert!(error.to_string().contains("left column to the right column"));
}

#[test]
fn a_full_top_row_joins_the_left_column_to_the_right_column() {
    let rows = sketch(&["###", "111", "111"]);
    assert_eq!(
        Board::from_rows(&rows),
        Err(BoardError::GameOver(GameEnd::LeftToRightPath))
    );
}

#[test]
fn accepts_taken_tiles_that_touch_only_diagonally_across_the_board() {
    // Each half touches two sides, but no 4-connected path crosses.
    let board = board(&["##1", "#1#", "1##"]);
    assert!(!board.is_over());
    assert_eq!(
        board.legal_moves(),
        vec![Tile::new(0, 2), Tile::new(1, 1), Tile::new(2, 0)]
    );
}

#[test]
fn rows_round_trip_through_a_board() {
    let original = sketch(&["1#3", "456", "789"]);
    assert_eq!(Board::from_rows(&original).unwrap().rows(), original);
}

#[test]
fn a_shuffled_board_holds_one_to_size_squared() {
    let mut rng = StdRng::seed_from_u64(7);
    let board = Board::shuffled(8, &mut rng).unwrap();
    let mut values: Vec<i64> = board.rows().into_iter().flatten().flatten().collect();
    values.sort_unstable();
    assert_eq!(values, (1..=64).collect::<Vec<i64>>());
    assert!(Board::shuffled(13, &mut rng).is_err());
}

// ---------------------------------------------------------------- exposure

#[test]
fn at_the_start_only_the_edge_may_be_taken() {
    let board = board(&["1111", "1111", "1111", "1111"]);
    let legal = board.legal_moves();
    assert_eq!(legal.len(), 12);
    assert!(!legal.contains(&Tile::new(1, 1)));
    assert_eq!(
        board.play(Tile::new(2, 2)),
        Err(MoveError::NotExposed { row: 2, col: 2 })
    );
}

#[test]
fn a_taken_neighbour_exposes_an_inner_tile() {
    let start = board(&["1111", "1111", "1111", "1111"]);
    let after = start.play(Tile::new(0, 1)).unwrap().board;
    assert!(after.is_legal(Tile::new(1, 1)));
    assert!(!after.is_legal(Tile::new(1, 2)));
    let deeper = after.play(Tile::new(1, 1)).unwrap().board;
    assert!(deeper.is_legal(Tile::new(2, 1)));
    assert!(deeper.is_legal(Tile::new(1, 2)));
}

#[test]
fn diagonal_contact_does_not_expose() {
    let start = board(&["1111", "1111", "1111", "1111"]);
    let after = start.play(Tile::new(0, 0)).unwrap().board;
    assert_eq!(
        after.play(Tile::new(1, 1)),
        Err(MoveError::NotExposed { row: 1, col: 1 })
    );
    assert_eq!(after.legal_moves().len(), 11);
}

#[test]
fn play_scores_the_tile_and_removes_it() {
    let start = board(&["123", "456", "789"]);
    let played = start.play(Tile::new(0, 2)).unwrap();
    assert_eq!(played.points, 3);
    assert!(played.board.is_taken(Tile::new(0, 2)));
    assert_eq!(played.board.value_at(Tile::new(0, 2)), None);
    assert_eq!(
        played.board.play(Tile::new(0, 2)),
        Err(MoveError::AlreadyTaken { row: 0, col: 2 })
    );
    assert_eq!(
        played.board.play(Tile::new(3, 0)),
        Err(MoveError::OffBoard {
            row: 3,
            col: 0,
            size: 3
        })
    );
}

// ---------------------------------------------------------------- the end

#[test]
fn taking_the_tile_that_completes_a_crossing_path_ends_the_game() {
    let start = board(&["1#1", "1#1", "111"]);
    assert!(!start.is_over());
    let ended = start.play(Tile::new(2, 1)).unwrap().board;
    assert_eq!(ended.end(), Some(GameEnd::TopToBottomPath));
    assert!(ended.legal_moves().is_empty());
    assert_eq!(
        ended.play(Tile::new(0, 0)),
        Err(MoveError::GameOver(GameEnd::TopToBottomPath))
    );
}

#[test]
fn a_tile_that_joins_two_partial_paths_ends_the_game() {
    // Neither piece crosses alone; the middle tile joins them.
    let start = board(&["1#111", "1#111", "11111", "111#1", "111#1"]);
    assert!(!start.is_over());
    assert!(!start.is_legal(Tile::new(2, 2)), "only diagonal to (1,1)");
    let one = start.play(Tile::new(2, 1)).unwrap().board;
    let two = one.play(Tile::new(2, 2)).unwrap().board;
    assert!(!two.is_over(), "(2,2) does not yet touch (3,3)");
    let ended = two.play(Tile::new(2, 3)).unwrap().board;
    assert_eq!(ended.end(), Some(GameEnd::TopToBottomPath));
}

#[test]
fn on_a_two_by_two_board_two_adjacent_tiles_end_the_game() {
    let start = board(&["12", "34"]);
    let one = start.play(Tile::new(0, 0)).unwrap().board;
    assert!(!one.is_over());
    assert_eq!(
        one.play(Tile::new(0, 1)).unwrap().board.end(),
        Some(GameEnd::LeftToRightPath)
    );
    assert_eq!(
        one.play(Tile::new(1, 0)).unwrap().board.end(),
        Some(GameEnd::TopToBottomPath)
    );
    let diagonal = one.play(Tile::new(1, 1)).unwrap().board;
    assert!(!diagonal.is_over());
}

// ---------------------------------------------------------------- naive rules

/// The rules straight from the contract, on a grid, for cross-checking.
struct Naive {
    size: usize,
    taken: Vec<Vec<bool>>,
}

impl Naive {
    fn legal(&self) -> Vec<Tile> {
        let mut legal = Vec::new();
        for row in 0..self.size {
            for col in 0..self.size {
                if self.taken[row][col] {
                    continue;
                }
                let edge = row == 0 || col == 0 || row + 1 == self.size || col + 1 == self.size;
                let exposed = self.neighbours(row, col).iter().any(|&(r, c)| self.taken[r][c]);
                if edge || exposed {
                    legal.push(Tile::new(row, col));
                }
            }
        }
        legal
    }

    fn neighbours(&self, row: usize, col: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if row > 0 {
            out.push((row - 1, col));
        }
        if col > 0 {
            out.push((row, col - 1));
        }
        if row + 1 < self.size {
            out.push((row + 1, col));
        }
        if col + 1 < self.size {
            out.push((row, col + 1));
        }
        out
    }

    /// Depth-first search from each start tile through taken tiles.
    fn reaches(&self, starts: Vec<(usize, usize)>, goal: impl Fn(usize, usize) -> bool) -> bool {
        let mut seen = vec![vec![false; self.size]; self.size];
        let mut stack: Vec<(usize, usize)> = starts.into_iter().filter(|&(r, c)| self.taken[r][c]).collect();
        while let Some((r, c)) = stack.pop() {
            if seen[r][c] {
                continue;
            }
            seen[r][c] = true;
            if goal(r, c) {
                return true;
            }
            for (nr, nc) in self.neighbours(r, c) {
                if self.taken[nr][nc] && !seen[nr][nc] {
                    stack.push((nr, nc));
                }
            }
        }
        false
    }

    fn over(&self) -> bool {
        let n = self.size;
        let all = self.taken.iter().flatten().all(|&t| t);
        let top_bottom = self.reaches((0..n).map(|c| (0, c)).collect(), |r, _| r + 1 == n);
        let left_right = self.reaches((0..n).map(|r| (r, 0)).collect(), |_, c| c + 1 == n);
        all || top_bottom || left_right
    }
}

#[test]
fn random_playouts_on_every_size_agree_with_the_naive_rules() {
    let mut rng = StdRng::seed_from_u64(2016);
    for game in 0..330 {
        let size = 2 + game % 11;
        let mut board = Board::shuffled(size, &mut rng).unwrap();
        let mut naive = Naive {
            size,
            taken: vec![vec![false; size]; size],
        };
        let mut total = 0;
        loop {
            assert_eq!(board.is_over(), naive.over(), "size {size}");
            if board.is_over() {
                break;
            }
            let legal = board.legal_moves();
            assert_eq!(legal, naive.legal(), "size {size}");
            let tile = legal[rng.gen_range(0..legal.len())];
            let value = board.value_at(tile).unwrap();
            let played = board.play(tile).unwrap();
            assert_eq!(played.points, value);
            total += value;
            naive.taken[tile.row][tile.col] = true;
            board = played.board;
            // The board as rows parses back unless the game just ended.
            let reparsed = Board::from_rows(&board.rows());
            assert_eq!(reparsed.is_ok(), !board.is_over());
        }
        let taken_values: i64 =
            (1..=(size * size) as i64).sum::<i64>() - board.rows().into_iter().flatten().flatten().sum::<i64>();
        assert_eq!(taken_values, total);
    }
}

/// Through the `Game` trait: seats alternate, each seat's score is the sum
/// of the tiles it took (kept here by hand), and the result names the seat
/// with more points, over random games on several sizes and both first
/// seats.
#[test]
fn the_game_trait_alternates_seats_and_names_the_higher_scorer() {
    use kibitz::core::game::{Game as _, GameOutcome, Turn};
    use kibitz::games::number_square::NumberSquareState;

    let mut rng = StdRng::seed_from_u64(44);
    for game_no in 0..200 {
        let size = 2 + game_no % 5;
        let first = game_no % 2;
        let board = Board::shuffled(size, &mut rng).unwrap();
        let mut game = NumberSquareState::new(board, [0, 0], first);
        let mut expected_seat = first;
        let mut taken_by = [0i64; 2];
        while let Turn::Player(seat) = game.turn() {
            assert_eq!(seat, expected_seat);
            assert!(game.result().is_none());
            let legal = game.legal_moves();
            let tile = legal[rng.gen_range(0..legal.len())];
            taken_by[seat] += game.board().value_at(tile).unwrap();
            game.play(tile);
            expected_seat = 1 - seat;
        }
        assert!(game.board().is_over());
        assert!(game.legal_moves().is_empty());
        assert_eq!([game.score(0), game.score(1)], taken_by);
        let expected = match taken_by[0].cmp(&taken_by[1]) {
            std::cmp::Ordering::Greater => GameOutcome::Won(0),
            std::cmp::Ordering::Less => GameOutcome::Won(1),
            std::cmp::Ordering::Equal => GameOutcome::Draw,
        };
        assert_eq!(game.result(), Some(expected), "size {size}");
    }
}
