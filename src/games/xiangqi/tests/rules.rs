//! Xiangqi rules checked against what kibitz did not write: perft from the
//! start against the published counts and from middle-game positions
//! against Fairy-Stockfish 11.1's own `go perft` (Debian's
//! `fairy-stockfish`, `setoption name UCI_Variant value xiangqi`,
//! `position fen ...`); then each move rule on a small position with its
//! exact move set, the ends of the game, notation and FEN round trips, and
//! garbage refused without a panic.

use std::collections::BTreeSet;

use kibitz::games::game::{Game, GameOutcome, Turn};
use kibitz::games::xiangqi::rules::{
    perft, EndReason, FenField, Move, Position, RulesError, Side, XiangqiState, START_FEN,
};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn move_set(fen: &str) -> BTreeSet<String> {
    position(fen).legal_moves().iter().map(|m| m.to_string()).collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// The moves of the piece on `from` only.
fn moves_from(fen: &str, from: &str) -> BTreeSet<String> {
    move_set(fen)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    // Published xiangqi perft counts (the Chess Programming Wiki's and
    // Fairy-Stockfish's): 44 / 1,920 / 79,666 / 3,290,240.
    let start = position(START_FEN);
    for (depth, expected) in [(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)] {
        assert_eq!(perft(&start, depth), expected, "depth {depth}");
    }
}

/// Middle-game and special positions, each count from Fairy-Stockfish 11.1
/// `go perft N` on the same FEN.
const MIDDLE_GAMES: [(&str, &str, &[u64]); 8] = [
    (
        "after h3e3 h10g8 h1g3 i10h10 i1h1 b8b4 b1c3 b10c8 c4c5 h8i8: cannons on both sides' ranks",
        "r1bakabr1/9/2n3n1c/p1p1p1p1p/9/2P6/Pc2P1P1P/1CN1C1N2/9/R1BAKABR1 w - - 10 6",
        &[36, 1_464, 54_725],
    ),
    (
        "black in check from a cannon, red's general out of its corner",
        "1nbakabnr/9/r3c4/2p1C4/6p1P/p1P6/P2cP1PC1/B4K3/3N5/R2A1ABNR b - - 0 19",
        &[10, 417, 16_024, 667_939],
    ),
    (
        "red in check from a chariot, crossed soldiers, horses near both generals",
        "r2a2b2/4k4/4bR3/p1n5n/2p4C1/P1P2pP2/3R4P/2ccK4/C3A1r2/1N1A5 w - - 13 47",
        &[2, 64, 3_407, 105_830],
    ),
    (
        "flying-general pin: a red horse alone between the generals",
        "4k4/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1",
        &[3, 7, 55, 124],
    ),
    (
        "flying-general pins on a crowded file, cannon screens",
        "3akab2/9/4b4/9/2p1c4/9/4N4/4C4/4A4/3AK4 w - - 0 1",
        &[19, 232, 3_716, 58_928],
    ),
    (
        "a cannon with screens both ways and captures behind them",
        "3k5/4r4/9/9/4p4/9/9/4C1N1r/9/5K3 w - - 0 1",
        &[20, 484, 8_659, 232_116],
    ),
    (
        "a soldier pinned against its general by a chariot",
        "4ka3/4a4/9/9/4r4/4P4/9/9/4A4/3AK4 w - - 0 1",
        &[5, 64, 302, 4_826],
    ),
    (
        "black to move, elephants and advisors at home, soldiers across",
        "2bak4/4a4/2n1b4/p3p3p/2p3p2/9/P1P3P1P/4B3C/3RA4/2BAK4 b - - 0 1",
        &[15, 428, 6_453, 187_112],
    ),
];

#[test]
fn perft_from_middle_games_matches_fairy_stockfish() {
    for (what, fen, counts) in MIDDLE_GAMES {
        let start = position(fen);
        for (i, expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&start, depth), *expected, "{what}: {fen} depth {depth}");
        }
    }
}

/// Perft through the `Game` implementation: each move through its
/// notation, parsed back against the position, and played by the state.
fn game_perft(state: &XiangqiState, depth: u32) -> u64 {
    let moves = state.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let notation = mv.to_string();
            assert_eq!(state.position().parse_move(&notation), Ok(mv), "{notation}");
            let mut child = state.clone();
            child.play(mv);
            game_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn game_perft_through_notation_matches() {
    assert_eq!(game_perft(&XiangqiState::default(), 3), 79_666);
}

#[test]
fn notation_ranks_run_from_1_to_10_as_fairy_stockfish_prints_them() {
    let start = position(START_FEN);
    let moves: BTreeSet<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
    // Fairy-Stockfish 11.1 `go perft 1` from the start lists these.
    for listed in ["b3b10", "h3e3", "h1g3", "a1a3", "e1e2", "c4c5"] {
        assert!(moves.contains(listed), "{listed}");
    }
    let mv = Move::parse("b3b10").expect("b3b10");
    assert_eq!((mv.from.file(), mv.from.rank(), mv.to.rank()), (1, 2, 9));
    for bad in [
        "b2b0", "a0a1", "j1j2", "a11a1", "a1", "a1b2c", "A1A2", "a01a2", "", "é1a2", "a1a2+",
    ] {
        assert!(Move::parse(bad).is_err(), "{bad:?} should not parse");
    }
    // A move that goes nowhere is well formed (the API answers 422, not 400)
    // and the rules refuse it.
    let standing_still = Move::parse("a1a1").expect("well formed");
    assert!(!Position::default().legal_moves().contains(&standing_still));
    assert!(Position::default().parse_move("a1a1").is_err());
}

#[test]
fn a_cannon_moves_to_empty_points_and_captures_over_exactly_one_screen() {
    // Red cannon e3: up past e4 e5 to its screen on e6, then the black
    // chariot on e9 is taken; left to a3; right over its own horse on g3 to
    // take the chariot on i3 (h3 beyond the screen is not a move).
    let fen = "3k5/4r4/9/9/4p4/9/9/4C1N1r/9/5K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "e3"),
        set(&["e3e4", "e3e5", "e3e9", "e3e2", "e3e1", "e3d3", "e3c3", "e3b3", "e3a3", "e3f3", "e3i3"])
    );
}

#[test]
fn a_horse_is_blocked_by_a_piece_on_its_leg() {
    // The chariot on e6 blocks the horse's moves to d7 and f7.
    let fen = "5k3/9/9/9/4R4/4N4/9/9/9/3K5 w - - 0 1";
    assert_eq!(
        moves_from(fen, "e5"),
        set(&["e5c6", "e5c4", "e5g6", "e5g4", "e5d3", "e5f3"])
    );
}

#[test]
fn an_elephant_stays_home_and_is_blocked_on_its_eye() {
    // From g5 it cannot cross to e7 or i7, and h4 blocks i3.
    let fen = "4k4/9/9/9/9/6B2/7R1/9/9/3K5 w - - 0 1";
    assert_eq!(moves_from(fen, "g5"), set(&["g5e3"]));
}

#[test]
fn soldiers_move_sideways_only_across_the_river() {
    let fen = "3k5/9/9/9/4P4/9/P8/9/9/5K3 w - - 0 1";
    assert_eq!(moves_from(fen, "e6"), set(&["e6e7", "e6d6", "e6f6"]));
    assert_eq!(moves_from(fen, "a4"), set(&["a4a5"]));
}

#[test]
fn the_general_and_advisors_stay_in_the_palace() {
    let fen = "5k3/9/9/9/9/9/9/3K1A3/9/9 w - - 0 1";
    assert_eq!(move_set(fen), set(&["d3d2", "d3e3", "f3e2"]));
}

#[test]
fn generals_may_not_face_each_other_on_an_open_file() {
    // d1 to e1 would face the black general on e10.
    assert_eq!(move_set("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), set(&["d1d2"]));
    // The horse between them is pinned: only the general moves.
    assert_eq!(
        move_set("4k4/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1"),
        set(&["e1d1", "e1f1", "e1e2"])
    );
    // A position where the generals already face each other is refused.
    let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").expect_err("facing generals");
    assert_eq!(err.field, FenField::PiecePlacement);
}

#[test]
fn checkmate_ends_the_game_for_the_side_in_check() {
    // The chariot checks on the d-file; e10 would face the red general.
    let state =
        XiangqiState::from_fen_and_moves(Some("3k5/9/9/9/9/3R5/9/9/9/4K4 b - - 0 1"), &[] as &[&str]).expect("legal");
    assert!(state.is_check());
    let end = state.end().expect("over");
    assert_eq!((end.reason, end.winner), (EndReason::Checkmate, Some(Side::Red)));
    assert_eq!(state.turn(), Turn::Over);
    assert_eq!(state.result(), Some(GameOutcome::Won(0)));
    assert!(state.legal_moves().is_empty());
}

#[test]
fn stalemate_is_a_loss_for_the_side_that_cannot_move() {
    // d9 is covered by the chariot on a9, e10 faces the red general.
    let state =
        XiangqiState::from_fen_and_moves(Some("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"), &[] as &[&str]).expect("legal");
    assert!(!state.is_check());
    let end = state.end().expect("over");
    assert_eq!((end.reason, end.winner), (EndReason::Stalemate, Some(Side::Red)));
    assert_eq!(state.result(), Some(GameOutcome::Won(0)));
}

#[test]
fn a_third_occurrence_is_a_draw() {
    let shuffle = ["h1g3", "h10g8", "g3h1", "g8h10"];
    let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let state = XiangqiState::from_fen_and_moves(None, &twice[..7]).expect("legal");
    assert_eq!(state.end(), None);
    let state = XiangqiState::from_fen_and_moves(None, &twice).expect("legal");
    let end = state.end().expect("the start occurs the third time");
    assert_eq!((end.reason, end.winner), (EndReason::Repetition, None));
    assert_eq!(state.result(), Some(GameOutcome::Draw));
    // A capture since the first occurrences would have reset the count;
    // a ninth move is refused.
    let mut state = state;
    assert!(state.play_notation("h1g3").unwrap_err().contains("over"));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Red's chariot checks from i10 and i9 while black's general steps
    // between d10 and d9: the start recurs the third time after 8 plies,
    // red having checked on every one of its moves.
    let fen = "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let cycle = ["i9i10", "d10d9", "i10i9", "d9d10"];
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let state = XiangqiState::from_fen_and_moves(Some(fen), &moves).expect("legal");
    let end = state.end().expect("over");
    assert_eq!((end.reason, end.winner), (EndReason::PerpetualCheck, Some(Side::Black)));
    assert_eq!(state.result(), Some(GameOutcome::Won(1)));
}

#[test]
fn a_hundred_plies_without_a_capture_draw() {
    let state =
        XiangqiState::from_fen_and_moves(Some(&START_FEN.replace("- - 0 1", "- - 99 50")), &["h1g3"]).expect("legal");
    let end = state.end().expect("over");
    assert_eq!((end.reason, end.winner), (EndReason::MoveLimit, None));
}

#[test]
fn fen_round_trips_and_moves_update_it() {
    for (_, fen, _) in MIDDLE_GAMES {
        assert_eq!(position(fen).fen(), fen);
    }
    let state = XiangqiState::from_fen_and_moves(None, &["h3e3", "h10g8"]).expect("legal");
    assert_eq!(
        state.fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(state.start_fen(), START_FEN);
    assert_eq!(state.uci_position(), format!("fen {START_FEN} moves h3e3 h10g8"));
    // Short FENs take the defaults; E and H are read as elephant and horse.
    assert_eq!(
        position("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR").fen(),
        START_FEN
    );
}

#[test]
fn fen_errors_name_the_field() {
    let cases: [(&str, FenField); 12] = [
        ("", FenField::Whole),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",
            FenField::PiecePlacement,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            FenField::PiecePlacement,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            FenField::PiecePlacement,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAQABNR w",
            FenField::PiecePlacement,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            FenField::PiecePlacement,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            FenField::SideToMove,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
            FenField::Unused,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            FenField::HalfmoveClock,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            FenField::FullmoveNumber,
        ),
        // An elephant across the river, a soldier behind its start.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w",
            FenField::PiecePlacement,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5CP/9/RNBAKABNR w",
            FenField::PiecePlacement,
        ),
    ];
    for (fen, field) in cases {
        let err = Position::from_fen(fen).expect_err(fen);
        assert_eq!(err.field, field, "{fen}: {err}");
        assert!(err.to_string().starts_with("fen: "), "{err}");
    }
}

#[test]
fn illegal_moves_name_their_index() {
    let err = XiangqiState::from_fen_and_moves(None, &["h3e3", "h10g8", "e3e8", "a1a2"]).expect_err("illegal");
    // e3e8: the cannon's screen is e4 and the first piece after it, on
    // e7, stops it.
    match err {
        RulesError::IllegalMove { index, notation, .. } => assert_eq!((index, notation.as_str()), (2, "e3e8")),
        other => panic!("{other}"),
    }
    let err = XiangqiState::from_fen_and_moves(None, &["h10g8"]).expect_err("black's piece");
    assert!(err.to_string().contains("black's"), "{err}");
    let err = XiangqiState::from_fen_and_moves(None, &["zz"]).expect_err("garbage");
    assert!(err.to_string().starts_with("moves[0]"), "{err}");
}

#[test]
fn garbage_is_refused_without_a_panic() {
    let mut garbage: Vec<String> = [
        "",
        " ",
        "/",
        "//////////",
        "9/9/9/9/9/9/9/9/9/9",
        "99/9/9/9/9/9/9/9/9/9 w",
        "k",
        "\u{0}",
        "🀄",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999 1",
        "4k4/9/9/9/9/9/9/9/9/3K5/ w",
        "4k4/9/9/9/9/9/9/9/9/3K5/9 w",
        "40k4/9/9/9/9/9/9/9/9/3K5 w",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Every truncation of the start FEN, and a few thousand pseudo-random
    // strings over its alphabet.
    for end in 0..START_FEN.len() {
        garbage.push(START_FEN[..end].to_string());
    }
    let alphabet: Vec<char> = "rnbakcpRNBAKCP0123456789/ -wbé".chars().collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..3_000 {
        let len = (seed % 100) as usize;
        let mut text = String::new();
        for _ in 0..len {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            text.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
        }
        garbage.push(text);
    }
    for text in &garbage {
        if let Ok(parsed) = Position::from_fen(text) {
            // Whatever parses is a legal position that writes itself back.
            assert_eq!(position(&parsed.fen()).fen(), parsed.fen(), "{text:?}");
        }
        let _ = Move::parse(text);
        let _ = XiangqiState::from_fen_and_moves(None, &[text.as_str()]);
    }
}

#[test]
fn wxf_names_moves_as_players_write_them() {
    use kibitz::games::xiangqi::wxf::wxf_line;
    let start = Position::default();
    // The central cannon, the horse's reply, a chariot up its file: files
    // count from each mover's right (red's h file is its 2, black's h its 8).
    let moves: Vec<String> = ["h3e3", "h10g8", "i1i2", "g7g6"].map(String::from).to_vec();
    assert_eq!(wxf_line(&start, &moves), ["C2.5", "H8+7", "R1+1", "P7+1"]);
    // Two chariots on one file: "+" the front one, "-" the rear one.
    let tandem = Position::from_fen("3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1").expect("legal");
    assert_eq!(wxf_line(&tandem, &["a4b4".to_string()]), ["R+.8"]);
    assert_eq!(wxf_line(&tandem, &["a2a3".to_string()]), ["R-+1"]);
    // A line stops at the first move that is not legal.
    assert_eq!(wxf_line(&start, &["h3e3".to_string(), "a1a1".to_string()]), ["C2.5"]);
}
