//! The rules: parsing, validation and moves, checked against an
//! independent enumeration of every 3x3 game.

use std::collections::HashSet;

use kibitz::core::game::{Game, GameOutcome, Turn};
use kibitz::games::tictactoe::{AfterMove, GameResult, Player, Position, TicTacToeError, TicTacToeState};

const LINES_3X3: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// 0 empty, 1 X, 2 O.
fn winner(board: &[u8; 9]) -> Option<u8> {
    LINES_3X3
        .iter()
        .find(|l| board[l[0]] != 0 && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]])
        .map(|l| board[l[0]])
}

/// Every board reachable by legal play from the empty board, and which of
/// them are over.
fn reachable_3x3() -> (HashSet<[u8; 9]>, HashSet<[u8; 9]>) {
    fn visit(board: &mut [u8; 9], to_move: u8, seen: &mut HashSet<[u8; 9]>, over: &mut HashSet<[u8; 9]>) {
        if !seen.insert(*board) {
            return;
        }
        if winner(board).is_some() || board.iter().all(|&c| c != 0) {
            over.insert(*board);
            return;
        }
        for i in 0..9 {
            if board[i] == 0 {
                board[i] = to_move;
                visit(board, 3 - to_move, seen, over);
                board[i] = 0;
            }
        }
    }
    let (mut seen, mut over) = (HashSet::new(), HashSet::new());
    visit(&mut [0; 9], 1, &mut seen, &mut over);
    (seen, over)
}

fn rows_of(board: &[u8; 9]) -> Vec<String> {
    board
        .chunks(3)
        .map(|r| r.iter().map(|&c| [".", "X", "O"][c as usize]).collect())
        .collect()
}

#[test]
fn there_are_5478_reachable_3x3_boards() {
    let (seen, _) = reachable_3x3();
    assert_eq!(seen.len(), 5478);
}

#[test]
fn every_3x3_board_parses_exactly_when_it_is_reachable_and_not_over() {
    let (reachable, over) = reachable_3x3();
    let mut accepted = 0;
    for code in 0..3u32.pow(9) {
        let mut board = [0u8; 9];
        let mut rest = code;
        for cell in board.iter_mut() {
            *cell = (rest % 3) as u8;
            rest /= 3;
        }
        let parsed = Position::parse(&rows_of(&board), None);
        let playable = reachable.contains(&board) && !over.contains(&board);
        match &parsed {
            Ok(position) => {
                accepted += 1;
                assert!(
                    playable,
                    "accepted an impossible or finished board {:?}",
                    rows_of(&board)
                );
                assert_eq!(position.to_rows(), rows_of(&board));
                let xs = board.iter().filter(|&&c| c == 1).count();
                let os = board.iter().filter(|&&c| c == 2).count();
                let expected = if xs == os { Player::X } else { Player::O };
                assert_eq!(position.to_move(), expected);
            }
            Err(TicTacToeError::GameOver { .. }) => {
                assert!(over.contains(&board), "called {:?} over", rows_of(&board));
            }
            Err(e) => assert!(
                !reachable.contains(&board),
                "rejected a reachable board {:?}: {e}",
                rows_of(&board)
            ),
        }
    }
    assert_eq!(accepted, 5478 - over_count());
}

fn over_count() -> usize {
    reachable_3x3().1.len()
}

#[test]
fn default_k_is_the_longer_side_up_to_5x5_and_5_beyond() {
    let k_of = |rows: usize, cols: usize| Position::new_game(rows, cols, None).map(|p| p.k());
    assert_eq!(k_of(3, 3), Ok(3));
    assert_eq!(k_of(4, 4), Ok(4));
    assert_eq!(k_of(3, 5), Ok(5));
    assert_eq!(k_of(1, 1), Ok(1));
    assert_eq!(k_of(6, 6), Ok(5));
    assert_eq!(k_of(19, 19), Ok(5));
    assert_eq!(k_of(2, 19), Ok(5));
    let parsed = Position::parse(&["....", "....", "...."], None).map(|p| p.k());
    assert_eq!(parsed, Ok(4));
}

#[test]
fn shapes_and_characters_are_validated() {
    let none: [&str; 0] = [];
    assert_eq!(Position::parse(&none, None), Err(TicTacToeError::RowCount { rows: 0 }));
    let tall = vec!["."; 20];
    assert_eq!(Position::parse(&tall, None), Err(TicTacToeError::RowCount { rows: 20 }));
    let wide = ".".repeat(20);
    assert_eq!(
        Position::parse(&[wide.as_str()], None),
        Err(TicTacToeError::ColumnCount { cols: 20 })
    );
    assert_eq!(
        Position::parse(&["", ""], None),
        Err(TicTacToeError::ColumnCount { cols: 0 })
    );
    assert_eq!(
        Position::parse(&["...", "..", "..."], None),
        Err(TicTacToeError::RaggedRows {
            row: 1,
            len: 2,
            expected: 3
        })
    );
    assert_eq!(
        Position::parse(&["...", ".x.", "..."], None),
        Err(TicTacToeError::BadCharacter {
            row: 1,
            col: 1,
            found: 'x'
        })
    );
    assert_eq!(
        Position::parse(&["..é", "...", "..."], None),
        Err(TicTacToeError::BadCharacter {
            row: 0,
            col: 2,
            found: 'é'
        })
    );
    assert_eq!(
        Position::parse(&["...", "...", "..."], Some(4)),
        Err(TicTacToeError::KOutOfRange { k: 4, max: 3 })
    );
    assert_eq!(
        Position::parse(&["...", "...", "..."], Some(0)),
        Err(TicTacToeError::KOutOfRange { k: 0, max: 3 })
    );
    assert!(
        Position::parse(&["....."; 3], Some(5)).is_ok(),
        "k up to the longer side"
    );
}

#[test]
fn impossible_and_finished_boards_are_rejected_with_their_reason() {
    let parse = |rows: &[&str], k| Position::parse(rows, k);
    assert_eq!(
        parse(&["XX.", "...", "..."], None),
        Err(TicTacToeError::BadCounts { x: 2, o: 0 })
    );
    assert_eq!(
        parse(&["O..", "...", "..."], None),
        Err(TicTacToeError::BadCounts { x: 0, o: 1 })
    );
    assert_eq!(
        parse(&["XXX", "OOO", "X.."], None),
        Err(TicTacToeError::BothPlayersHaveLines { k: 3 })
    );
    // X completed the row, then O moved anyway.
    assert_eq!(
        parse(&["XXX", "OO.", "O.."], None),
        Err(TicTacToeError::LineAfterGameOver {
            player: Player::X,
            k: 3
        })
    );
    assert_eq!(
        parse(&["XXX..", ".....", "XXX..", "OOO.O", "O.O.."], Some(3)),
        Err(TicTacToeError::BothPlayersHaveLines { k: 3 })
    );
    // Two separate X rows and X moved last: no single move made both.
    assert_eq!(
        parse(&["XXX..", "O.O.O", "XXX..", "O.O..", "....."], Some(3)),
        Err(TicTacToeError::LineAfterGameOver {
            player: Player::X,
            k: 3
        })
    );
    // Two lines through one last stone are fine: the game is simply over.
    assert_eq!(
        parse(&["XXX", "XOO", "XOO"], None),
        Err(TicTacToeError::GameOver {
            result: GameResult::Won(Player::X),
            k: 3
        })
    );
    assert_eq!(
        parse(&["XOX", "XOO", "OXX"], None),
        Err(TicTacToeError::GameOver {
            result: GameResult::Draw,
            k: 3
        })
    );
    // With k = 1 any stone is a line: only the empty board is playable.
    assert!(parse(&["..", ".."], Some(1)).is_ok());
    assert_eq!(
        parse(&["X.", ".."], Some(1)),
        Err(TicTacToeError::GameOver {
            result: GameResult::Won(Player::X),
            k: 1
        })
    );
}

#[test]
fn error_messages_name_the_problem() {
    let message = |rows: &[&str]| Position::parse(rows, None).unwrap_err().to_string();
    assert!(message(&["...", ".x.", "..."]).contains("board[1]"));
    assert!(message(&["XX.", "...", "..."]).contains("2 X and 0 O"));
    assert!(message(&["XXX", "OO.", "..."]).contains("already over: X has 3 in a row"));
    assert!(message(&["XOX", "XOO", "OXX"]).contains("full"));
}

#[test]
fn moves_alternate_and_end_the_game_at_a_line_or_a_full_board() {
    let start = Position::parse(&["XX.", "OO.", "..."], None).unwrap();
    assert_eq!(start.to_move(), Player::X);
    assert_eq!(start.legal_moves(), vec![2, 5, 6, 7, 8]);
    match start.play(2).unwrap() {
        AfterMove::Over(end) => {
            assert_eq!(end.result(), GameResult::Won(Player::X));
            assert_eq!(end.board().to_rows(), vec!["XXX", "OO.", "..."]);
        }
        other => panic!("expected a win, got {other:?}"),
    }
    match start.play(8).unwrap() {
        AfterMove::Continues(next) => {
            assert_eq!(next.to_move(), Player::O);
            assert_eq!(next.to_rows(), vec!["XX.", "OO.", "..X"]);
        }
        other => panic!("expected the game to go on, got {other:?}"),
    }
    assert_eq!(
        start.play(0),
        Err(TicTacToeError::CellTaken {
            index: 0,
            row: 0,
            col: 0
        })
    );
    assert_eq!(start.play(9), Err(TicTacToeError::MoveOutOfRange { index: 9, last: 8 }));
    assert!(matches!(start.play_at(3, 0), Err(TicTacToeError::OffBoard { .. })));
    let last = Position::parse(&["XOX", "XOO", "OX."], None).unwrap();
    match last.play(8).unwrap() {
        AfterMove::Over(end) => assert_eq!(end.result(), GameResult::Draw),
        other => panic!("expected a draw, got {other:?}"),
    }
}

#[test]
fn long_lines_count_on_big_boards() {
    let mut position = Position::new_game(19, 19, None).unwrap();
    // X plays a diagonal from (3,3), O plays far away on row 0.
    for step in 0..5 {
        let x = (3 + step) * 19 + (3 + step);
        match position.play(x).unwrap() {
            AfterMove::Over(end) => {
                assert_eq!(step, 4);
                assert_eq!(end.result(), GameResult::Won(Player::X));
                return;
            }
            AfterMove::Continues(next) => position = next,
        }
        match position.play(step * 2).unwrap() {
            AfterMove::Continues(next) => position = next,
            AfterMove::Over(_) => panic!("O cannot have won"),
        }
    }
    panic!("five on a diagonal should have won");
}

/// Every 3x3 game, move by move, through the `Game` trait and through
/// [`Position::play`]: the same turns, legal moves, boards and results.
#[test]
fn the_game_trait_view_agrees_with_the_positions_on_every_3x3_game() {
    fn walk(game: &TicTacToeState, position: &Position, games: &mut usize) {
        assert_eq!(game.turn(), Turn::Player(position.to_move().seat()));
        assert_eq!(game.legal_moves(), position.legal_moves());
        for index in position.legal_moves() {
            let mut next = game.clone();
            next.play(index);
            match position.play(index).unwrap() {
                AfterMove::Continues(after) => {
                    assert_eq!(next.board(), after.board());
                    walk(&next, &after, games);
                }
                AfterMove::Over(end) => {
                    *games += 1;
                    assert_eq!(next.turn(), Turn::Over);
                    assert!(next.legal_moves().is_empty());
                    assert_eq!(next.board(), end.board());
                    let expected = match end.result() {
                        GameResult::Won(p) => GameOutcome::Won(p.seat()),
                        GameResult::Draw => GameOutcome::Draw,
                    };
                    assert_eq!(next.result(), Some(expected));
                }
            }
        }
    }
    let start = Position::new_game(3, 3, None).unwrap();
    let mut games = 0;
    walk(&TicTacToeState::from(start.clone()), &start, &mut games);
    // The number of distinct 3x3 games (move orders), a published figure.
    assert_eq!(games, 255_168);
}

#[test]
fn k_as_a_client_sends_it_is_a_positive_integer_or_a_named_error() {
    assert_eq!(Position::win_length(None), Ok(None));
    assert_eq!(Position::win_length(Some(4)), Ok(Some(4)));
    let negative = Position::win_length(Some(-2));
    assert_eq!(negative, Err(TicTacToeError::KNotPositive { k: -2 }));
    assert_eq!(
        negative.unwrap_err().to_string(),
        "k must be a positive integer (got -2)"
    );
}
