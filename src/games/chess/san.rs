//! Standard Algebraic Notation for moves on a `cozy_chess::Board`.
//!
//! cozy-chess generates and plays moves but writes none in SAN, which the
//! API shows beside every UCI move, so it is written here: piece letter,
//! the origin's file and/or rank when another legal move of the same piece
//! type reaches the same square, `x` for captures (en passant too), `=Q`
//! for promotions, `O-O`/`O-O-O`, then `+` or `#`.
//!
//! Moves are in cozy-chess's encoding, where castling is the king taking
//! its own rook (`e1h1`); `rules` converts to and from standard UCI.

use cozy_chess::{Board, Move, Piece};

/// Whether a move (legal on `board`) is castling: in cozy-chess's encoding
/// the king moves onto one of its own rooks.
pub fn is_castle(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King) && board.colors(board.side_to_move()).has(mv.to)
}

/// Whether the side to move has a legal move.
pub fn has_legal_move(board: &Board) -> bool {
    // The listener stops at the first (non-empty) set of moves and
    // generate_moves says whether it was stopped.
    board.generate_moves(|_| true)
}

/// The SAN of `mv` with its check or mate suffix; None if the move is not
/// legal on `board` (so a bad move can never reach `play_unchecked`).
pub fn san(board: &Board, mv: Move) -> Option<String> {
    if !board.is_legal(mv) {
        return None;
    }
    let mut text = san_without_suffix(board, mv)?;
    let mut after = board.clone();
    after.play_unchecked(mv);
    if !after.checkers().is_empty() {
        text.push(if has_legal_move(&after) { '+' } else { '#' });
    }
    Some(text)
}

fn san_without_suffix(board: &Board, mv: Move) -> Option<String> {
    let piece = board.piece_on(mv.from)?;
    if is_castle(board, mv) {
        let short = mv.to.file() > mv.from.file();
        return Some(if short { "O-O" } else { "O-O-O" }.to_string());
    }
    let mut text = String::with_capacity(8);
    // A pawn moving to another file always captures: en passant lands on
    // an empty square but is still a capture.
    let capture = board.piece_on(mv.to).is_some() || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
    if piece == Piece::Pawn {
        if capture {
            text.push(char::from(mv.from.file()));
        }
    } else {
        text.push(char::from(piece).to_ascii_uppercase());
        push_disambiguation(&mut text, board, piece, mv);
    }
    if capture {
        text.push('x');
    }
    text.push_str(&mv.to.to_string());
    if let Some(promotion) = mv.promotion {
        text.push('=');
        text.push(char::from(promotion).to_ascii_uppercase());
    }
    Some(text)
}

/// Adds the origin's file, else its rank, else both, when another piece of
/// the same type can legally move to the same square (a pinned one cannot,
/// so it does not count).
fn push_disambiguation(text: &mut String, board: &Board, piece: Piece, mv: Move) {
    let ours = board.colored_pieces(board.side_to_move(), piece);
    let mut rivals = Vec::new();
    board.generate_moves_for(ours, |moves| {
        if moves.from != mv.from && moves.to.has(mv.to) {
            rivals.push(moves.from);
        }
        false
    });
    if rivals.is_empty() {
        return;
    }
    let file_shared = rivals.iter().any(|sq| sq.file() == mv.from.file());
    let rank_shared = rivals.iter().any(|sq| sq.rank() == mv.from.rank());
    if !file_shared {
        text.push(char::from(mv.from.file()));
    } else if !rank_shared {
        text.push(char::from(mv.from.rank()));
    } else {
        text.push_str(&mv.from.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// SAN of a move given in cozy-chess's own encoding (castling as king
    /// takes rook).
    fn san_of(fen: &str, uci: &str) -> String {
        let mv: Move = uci.parse().unwrap_or_else(|e| panic!("{uci}: {e:?}"));
        san(&board(fen), mv).unwrap_or_else(|| panic!("{fen}: {uci} is not legal"))
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn plain_moves() {
        assert_eq!(san_of(START, "e2e4"), "e4");
        assert_eq!(san_of(START, "g1f3"), "Nf3");
        assert_eq!(san_of(START, "b1c3"), "Nc3");
    }

    #[test]
    fn kiwipete() {
        let cases = [
            ("e1h1", "O-O"),
            ("e1a1", "O-O-O"),
            ("e5f7", "Nxf7"),
            ("e5d7", "Nxd7"),
            ("e5g6", "Nxg6"),
            ("d5e6", "dxe6"),
            ("d5d6", "d6"),
            ("g2h3", "gxh3"),
            ("f3h3", "Qxh3"),
            ("f3f6", "Qxf6"),
            ("e2a6", "Bxa6"),
            ("d2h6", "Bh6"),
            ("c3b5", "Nb5"),
            ("a1b1", "Rb1"),
            ("h1f1", "Rf1"),
            ("g2g4", "g4"),
        ];
        for (uci, expected) in cases {
            assert_eq!(san_of(KIWIPETE, uci), expected, "{uci}");
        }
        // Black's side of it: long castling and a bishop capture.
        let black = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        assert_eq!(san_of(black, "e8a8"), "O-O-O");
        assert_eq!(san_of(black, "e8h8"), "O-O");
        assert_eq!(san_of(black, "a6e2"), "Bxe2");
        assert_eq!(san_of(black, "h3g2"), "hxg2");
        assert_eq!(san_of(black, "b4c3"), "bxc3");
    }

    #[test]
    fn file_and_rank_disambiguation() {
        // Knights on b1 and f1 both reach d2: the file tells them apart.
        let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(san_of(knights, "b1d2"), "Nbd2");
        assert_eq!(san_of(knights, "f1d2"), "Nfd2");
        assert_eq!(san_of(knights, "b1c3"), "Nc3");
        // Knights on g1 and g5 (one file) both reach f3: the rank.
        let same_file = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
        assert_eq!(san_of(same_file, "g1f3"), "N1f3");
        assert_eq!(san_of(same_file, "g5f3"), "N5f3");
        // Rooks on a1 and h1 to d1; rooks on a1 and a5 to a3.
        let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(san_of(rooks, "a1d1"), "Rad1");
        assert_eq!(san_of(rooks, "h1d1"), "Rhd1");
        // With the king between them only one rook reaches d1.
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1d1"), "Rd1");
        assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3"), "R5a3");
        // Three queens: another on the file and another on the rank.
        let queens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        assert_eq!(san_of(queens, "a1b2"), "Qa1b2");
        // A capture keeps its disambiguation before the x.
        assert_eq!(san_of("4k3/8/8/8/8/8/3p4/1N2KN2 w - - 0 1", "b1d2"), "Nbxd2");
    }

    #[test]
    fn a_pinned_piece_does_not_call_for_disambiguation() {
        // The f1 knight is pinned by the h1 rook: only b1 can reach d2.
        assert_eq!(san_of("4k3/8/8/8/8/8/8/1N2KN1r w - - 0 1", "b1d2"), "Nd2");
    }

    #[test]
    fn en_passant_is_a_capture() {
        assert_eq!(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(san_of("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "e4d3"), "exd3");
    }

    #[test]
    fn promotions_with_capture_check_and_mate() {
        let capture = "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(san_of(capture, "c7d8q"), "cxd8=Q+");
        assert_eq!(san_of(capture, "c7d8n"), "cxd8=N");
        assert_eq!(san_of(capture, "c7c8q"), "c8=Q");
        let mate = "k7/2P5/1K6/8/8/8/8/8 w - - 0 1";
        assert_eq!(san_of(mate, "c7c8q"), "c8=Q#");
        assert_eq!(san_of(mate, "c7c8r"), "c8=R#");
        assert_eq!(san_of(mate, "c7c8n"), "c8=N");
        assert_eq!(san_of(mate, "c7c8b"), "c8=B");
    }

    #[test]
    fn castling_can_check() {
        assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1"), "O-O+");
        assert_eq!(san_of("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1a1"), "O-O-O+");
    }

    #[test]
    fn scholars_mate() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        assert_eq!(san_of(fen, "h5f7"), "Qxf7#");
    }

    #[test]
    fn an_illegal_move_has_no_san() {
        let mv: Move = "e2e5".parse().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(san(&board(START), mv), None);
    }
}
