//! Chess rules checked against what kibitz did not write: perft counts of
//! the standard test positions against their published numbers (the Chess
//! Programming Wiki's "Perft Results"), both through cozy-chess directly and
//! through kibitz's own `Game` implementation (move list, UCI round trip,
//! play); then FEN errors that name the field, illegal moves that name
//! their index, and every way a game ends.

use cozy_chess::Board;
use kibitz::games::chess::{ChessMove, ChessState, EndReason, FenField, RulesError};
use kibitz::games::game::{Game, GameOutcome, Turn};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const CPW3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const CPW4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const CPW5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const CPW6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// (FEN, published counts from depth 1).
const PERFT: [(&str, &[u64]); 6] = [
    (START, &[20, 400, 8_902, 197_281, 4_865_609]),
    (KIWIPETE, &[48, 2_039, 97_862, 4_085_603]),
    (CPW3, &[14, 191, 2_812, 43_238, 674_624]),
    (CPW4, &[6, 264, 9_467, 422_333]),
    (CPW5, &[44, 1_486, 62_379, 2_103_487]),
    (CPW6, &[46, 2_079, 89_890, 3_894_594]),
];

/// Perft through cozy-chess alone: its move generator and make-move, the
/// leaves counted in bulk.
fn cozy_perft(board: &Board, depth: u32) -> u64 {
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

#[test]
fn cozy_chess_perft_matches_the_published_counts() {
    for (fen, counts) in PERFT {
        let board = Board::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(cozy_perft(&board, depth), *expected, "{fen} depth {depth}");
        }
    }
}

/// Perft through kibitz's `Game` implementation: its move list, each move
/// through its UCI form and `play`.
fn game_perft(state: &ChessState, depth: u32) -> u64 {
    let moves = state.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.play(mv);
            game_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn kibitz_game_perft_matches_the_published_counts() {
    // The same depths as cozy-chess's: the leaves are counted, not played,
    // so the deepest counts cost about 0.2 million plays each.
    for (fen, counts) in PERFT {
        let state = ChessState::from_fen_and_moves(Some(fen), &[] as &[&str]).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(game_perft(&state, depth), *expected, "{fen} depth {depth}");
        }
    }
}

fn fen_error(fen: &str) -> (FenField, String) {
    match ChessState::from_fen_and_moves(Some(fen), &[] as &[&str]) {
        Err(RulesError::BadFen { field, detail }) => (field, detail),
        other => panic!("{fen}: expected a FEN error, got {other:?}"),
    }
}

#[test]
fn a_bad_fen_names_the_field_that_is_wrong() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            FenField::PiecePlacement,
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenField::PiecePlacement,
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenField::PiecePlacement,
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", FenField::PiecePlacement),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            FenField::SideToMove,
        ),
        // White to move with Black's king in check.
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FenField::SideToMove),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            FenField::Castling,
        ),
        // Castling rights without the rook on h1.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            FenField::Castling,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1",
            FenField::EnPassant,
        ),
        // An en passant square with no pawn that could have made it.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            FenField::EnPassant,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
            FenField::HalfmoveClock,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            FenField::FullmoveNumber,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            FenField::Whole,
        ),
        ("", FenField::Whole),
    ];
    for (fen, field) in cases {
        let (got, detail) = fen_error(fen);
        assert_eq!(got, field, "{fen:?}: {detail}");
        let message = RulesError::BadFen { field: got, detail }.to_string();
        assert!(message.starts_with("fen: "), "{message}");
        assert!(message.contains(field.as_str()), "{message}");
    }
    let long = "8/".repeat(200);
    assert_eq!(fen_error(&long).0, FenField::Whole);
}

#[test]
fn a_fen_may_leave_off_the_later_fields() {
    let state = ChessState::from_fen_and_moves(Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"), &[] as &[&str]);
    assert_eq!(
        state.map(|s| s.fen()).ok().as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
    );
}

fn illegal(moves: &[&str]) -> (usize, String) {
    match ChessState::from_fen_and_moves(None, moves) {
        Err(e @ RulesError::IllegalMove { index, .. }) => (index, e.to_string()),
        other => panic!("{moves:?}: expected an illegal move, got {other:?}"),
    }
}

#[test]
fn an_illegal_move_names_its_index() {
    let (index, message) = illegal(&["e2e4", "e7e5", "e1e3"]);
    assert_eq!(index, 2);
    assert!(message.starts_with("moves[2] (\"e1e3\")"), "{message}");
    assert!(message.contains("not legal with white to move"), "{message}");
    assert_eq!(illegal(&["e2e5"]).0, 0);
    let (index, message) = illegal(&["e2e4", "Nf6"]);
    assert_eq!(index, 1);
    assert!(message.contains("UCI notation"), "{message}");
    let (index, message) = illegal(&["a2a4", "b7b5", "a4b5", "h7h6", "b5b6", "h6h5", "b6c7", "h5h4", "c7d8"]);
    assert_eq!(index, 8);
    assert!(message.contains("promotion letter"), "{message}");
    // A move after the end of the game.
    let (index, message) = illegal(&["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"]);
    assert_eq!(index, 4);
    assert!(message.contains("checkmate"), "{message}");
}

fn play(fen: Option<&str>, moves: &[&str]) -> ChessState {
    ChessState::from_fen_and_moves(fen, moves).unwrap_or_else(|e| panic!("{moves:?}: {e}"))
}

#[test]
fn moves_come_with_san_and_check() {
    let mut state = play(None, &["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"]);
    let mate = ChessMove::parse("h5f7").unwrap_or_else(|| panic!("h5f7 is UCI"));
    assert_eq!(state.san(mate).as_deref(), Some("Qxf7#"));
    let played = state.try_play(mate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played.san, "Qxf7#");
    assert!(state.is_check());
    assert_eq!(state.end(), Some(EndReason::Checkmate));
    // Castling is written king-two-squares in UCI, O-O in SAN.
    let castled = play(None, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    let castle = ChessMove::parse("e1g1").unwrap_or_else(|| panic!("UCI"));
    assert_eq!(castled.san(castle).as_deref(), Some("O-O"));
}

#[test]
fn the_game_ends_by_checkmate_with_a_winner() {
    let state = play(None, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(state.end(), Some(EndReason::Checkmate));
    assert_eq!(state.turn(), Turn::Over);
    assert_eq!(state.result(), Some(GameOutcome::Won(1)));
    assert!(state.legal_moves().is_empty());
}

#[test]
fn the_game_ends_by_stalemate() {
    let state = play(Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &[]);
    assert_eq!(state.end(), Some(EndReason::Stalemate));
    assert_eq!(state.result(), Some(GameOutcome::Draw));
}

#[test]
fn the_game_ends_by_insufficient_material_after_the_last_capture() {
    let state = play(Some("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1"), &["e1d2"]);
    assert_eq!(state.end(), Some(EndReason::InsufficientMaterial));
    assert_eq!(state.result(), Some(GameOutcome::Draw));
}

#[test]
fn the_game_ends_by_the_fifty_move_rule_unless_the_last_move_mates() {
    let state = play(Some("8/8/8/4k3/8/8/R7/4K3 w - - 99 80"), &["a2a3"]);
    assert_eq!(state.end(), Some(EndReason::FiftyMoves));
    let mated = play(Some("7k/R7/6K1/8/8/8/8/8 w - - 99 80"), &["a7a8"]);
    assert_eq!(mated.end(), Some(EndReason::Checkmate));
    assert_eq!(mated.result(), Some(GameOutcome::Won(0)));
    // A capture resets the count.
    let reset = play(Some("8/8/8/4k3/8/8/R6p/4K3 w - - 99 80"), &["a2h2"]);
    assert_eq!(reset.end(), None);
}

#[test]
fn the_game_ends_by_threefold_repetition() {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let twice = play(None, &cycle);
    assert_eq!(twice.repetitions(), 2);
    assert_eq!(twice.end(), None);
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let thrice = play(None, &moves);
    assert_eq!(thrice.repetitions(), 3);
    assert_eq!(thrice.end(), Some(EndReason::ThreefoldRepetition));
    assert_eq!(thrice.result(), Some(GameOutcome::Draw));
}

#[test]
fn seats_follow_the_side_that_moved_first() {
    let black_first = play(Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"), &[]);
    assert_eq!(black_first.turn(), Turn::Player(0));
    assert_eq!(black_first.player(), "black");
    let white_first = play(None, &["e2e4"]);
    assert_eq!(white_first.turn(), Turn::Player(1));
}

#[test]
fn end_reasons_serialise_as_the_contract_names_them() {
    let names: Vec<String> = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::InsufficientMaterial,
        EndReason::FiftyMoves,
        EndReason::ThreefoldRepetition,
    ]
    .iter()
    .map(|r| serde_json::to_string(r).unwrap_or_default())
    .collect();
    assert_eq!(
        names,
        [
            "\"checkmate\"",
            "\"stalemate\"",
            "\"insufficient_material\"",
            "\"fifty_moves\"",
            "\"threefold_repetition\""
        ]
    );
}

#[test]
fn castling_given_as_king_takes_rook_is_recorded_in_standard_uci() {
    // Stockfish, not in Chess960 mode, stops reading `position ... moves`
    // at `e1h1`, so the move is kept in the form the engine is sent.
    let mut state = play(None, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    let played = state.play_uci("e1h1").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((played.uci.as_str(), played.san.as_str()), ("e1g1", "O-O"));
    assert!(state.uci_position().ends_with("g8f6 e1g1"), "{}", state.uci_position());
    assert_eq!(
        state.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
}

#[test]
fn castling_rights_need_the_king_on_the_e_file() {
    // Chess960 would allow this; standard chess does not.
    let (field, _) = fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1");
    assert_eq!(field, FenField::Castling);
}

#[test]
fn clocks_beyond_what_the_move_generator_stores_are_kept() {
    // cozy-chess caps the halfmove clock at 100 and the move number at
    // 65535; the FEN and the fifty-move rule use the real counts.
    let state = play(Some("8/8/8/4k3/8/8/R7/4K3 b - - 99 70000"), &["e5e4"]);
    assert_eq!(state.fen(), "8/8/8/8/4k3/8/R7/4K3 w - - 100 70001");
    assert_eq!(state.end(), Some(EndReason::FiftyMoves));
    let over = play(Some("8/8/8/4k3/8/8/R7/4K3 b - - 150 1"), &[]);
    assert_eq!(over.fen(), "8/8/8/4k3/8/8/R7/4K3 b - - 150 1");
    assert_eq!(over.end(), Some(EndReason::FiftyMoves));
}

#[test]
fn repetition_counts_an_en_passant_square_only_when_a_capture_is_legal() {
    let cycle = ["e8d8", "e1d1", "d8e8", "d1e1"];
    let twice: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    // No black pawn can take on e3: the start is the same position as
    // after each cycle, so two cycles make three occurrences.
    let unusable = play(Some("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"), &twice);
    assert_eq!(unusable.end(), Some(EndReason::ThreefoldRepetition));
    // d4xe3 is legal at the start only, so it is a different position.
    let usable = play(Some("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), &twice);
    assert_eq!(usable.repetitions(), 2);
    assert_eq!(usable.end(), None);
    assert_eq!(
        play(Some("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), &[]).fen(),
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"
    );
    assert_eq!(
        play(Some("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"), &[]).fen(),
        "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"
    );
}
