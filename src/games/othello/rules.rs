//! The game state: both colours' discs, the size, and who is to move; the
//! rules as a [`Game`].

use super::bits::{flips, legal_moves, Squares};
use super::geometry::{Geometry, Size};
use super::square::{OthelloMove, Square};
use crate::games::game::{Game, GameOutcome, Seat, Turn};

/// Black ("X") is seat 0 and moves first; white ("O") is seat 1.
pub const BLACK: Seat = 0;
pub const WHITE: Seat = 1;

pub fn symbol(seat: Seat) -> char {
    if seat == BLACK {
        'X'
    } else {
        'O'
    }
}

/// A position. Built by [`Othello::new`] (the start) or by
/// [`super::parse::parse_position`]; every constructor keeps discs on the
/// board's squares and never on both colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloState {
    size: Size,
    discs: [u64; 2],
    to_move: Seat,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("{0} is not on the {1}x{1} board")]
    OffBoard(Square, u32),
    #[error("{0} is not empty")]
    Occupied(Square),
    #[error("{0} turns no disc")]
    NoFlip(Square),
    #[error("the player to move has a legal move and cannot pass")]
    PassNotAllowed,
    #[error("the game is over")]
    GameOver,
}

impl OthelloState {
    /// The standard start: the centre diagonals, white on the top-left to
    /// bottom-right one; black to move.
    pub fn new(size: Size) -> OthelloState {
        let h = size.side() / 2;
        let at = |row: u32, col: u32| 1u64 << (row * 8 + col);
        OthelloState {
            size,
            discs: [at(h, h - 1) | at(h - 1, h), at(h - 1, h - 1) | at(h, h)],
            to_move: BLACK,
        }
    }

    /// Discs as words in the layout of [`super::geometry`]; None when they
    /// overlap or leave the board.
    pub fn from_discs(size: Size, black: u64, white: u64, to_move: Seat) -> Option<OthelloState> {
        let mask = size.geometry().mask;
        (black & white == 0 && (black | white) & !mask == 0 && to_move <= 1).then_some(OthelloState {
            size,
            discs: [black, white],
            to_move,
        })
    }

    pub fn size(&self) -> Size {
        self.size
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.size.geometry()
    }

    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    pub fn discs(&self, seat: Seat) -> u64 {
        self.discs[seat]
    }

    /// The mover's discs and the opponent's: what the search works on.
    pub fn mover_and_opponent(&self) -> (u64, u64) {
        (self.discs[self.to_move], self.discs[1 - self.to_move])
    }

    pub fn empty(&self) -> u64 {
        self.geometry().mask & !(self.discs[0] | self.discs[1])
    }

    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The mover's legal squares as a word.
    pub fn move_bits(&self) -> u64 {
        let (p, o) = self.mover_and_opponent();
        legal_moves(p, o, self.empty())
    }

    pub fn legal_squares(&self) -> Vec<Square> {
        Squares(self.move_bits()).filter_map(Square::from_index).collect()
    }

    /// True when the mover has no square but the opponent has one.
    pub fn must_pass(&self) -> bool {
        let (p, o) = self.mover_and_opponent();
        let empty = self.empty();
        legal_moves(p, o, empty) == 0 && legal_moves(o, p, empty) != 0
    }

    /// Neither side can move.
    pub fn is_over(&self) -> bool {
        let (p, o) = self.mover_and_opponent();
        let empty = self.empty();
        legal_moves(p, o, empty) == 0 && legal_moves(o, p, empty) == 0
    }

    /// The discs `square` would turn for the mover.
    pub fn flips(&self, square: Square) -> u64 {
        let (p, o) = self.mover_and_opponent();
        if self.empty() & square.bit() == 0 {
            return 0;
        }
        flips(p, o, square.index())
    }

    /// Plays a move after checking it.
    pub fn try_play(&mut self, mv: OthelloMove) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            OthelloMove::Pass => {
                if self.move_bits() != 0 {
                    return Err(IllegalMove::PassNotAllowed);
                }
                self.to_move = 1 - self.to_move;
            }
            OthelloMove::Play(square) => {
                if self.geometry().mask & square.bit() == 0 {
                    return Err(IllegalMove::OffBoard(square, self.size.side()));
                }
                if self.empty() & square.bit() == 0 {
                    return Err(IllegalMove::Occupied(square));
                }
                let turned = self.flips(square);
                if turned == 0 {
                    return Err(IllegalMove::NoFlip(square));
                }
                self.place(square, turned);
            }
        }
        Ok(())
    }

    /// Hands the turn over without a move: for a player who has none
    /// (the caller checks).
    pub(crate) fn pass_turn(&mut self) {
        self.to_move = 1 - self.to_move;
    }

    fn place(&mut self, square: Square, turned: u64) {
        let mover = self.to_move;
        self.discs[mover] |= turned | square.bit();
        self.discs[1 - mover] &= !turned;
        self.to_move = 1 - mover;
    }

    /// Disc difference for `seat` with the empty squares given to the
    /// winner (FFO convention): the score of a finished game.
    pub fn final_score(&self, seat: Seat) -> i32 {
        final_score(self.geometry(), self.discs[seat], self.discs[1 - seat])
    }

    /// Row strings, top row first, over 'X', 'O' and '.'.
    pub fn rows(&self) -> Vec<String> {
        let side = self.size.side();
        (0..side)
            .map(|row| {
                (0..side)
                    .map(|col| {
                        let b = 1u64 << (row * 8 + col);
                        if self.discs[BLACK] & b != 0 {
                            'X'
                        } else if self.discs[WHITE] & b != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// The final disc difference for `p`, the empty squares going to the
/// winner.
#[inline]
pub fn final_score(geo: &Geometry, p: u64, o: u64) -> i32 {
    let mine = p.count_ones() as i32;
    let theirs = o.count_ones() as i32;
    let difference = mine - theirs;
    let empties = geo.squares - mine - theirs;
    match difference.signum() {
        1 => difference + empties,
        -1 => difference - empties,
        _ => 0,
    }
}

impl Game for OthelloState {
    type Move = OthelloMove;

    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    /// The squares in index order (a1, b1, ... h8), or a lone pass.
    fn legal_moves(&self) -> Vec<OthelloMove> {
        if self.is_over() {
            return Vec::new();
        }
        let squares = self.legal_squares();
        if squares.is_empty() {
            vec![OthelloMove::Pass]
        } else {
            squares.into_iter().map(OthelloMove::Play).collect()
        }
    }

    fn play(&mut self, mv: OthelloMove) {
        let played = self.try_play(mv);
        debug_assert!(played.is_ok(), "{mv} is not legal here: {played:?}");
    }

    fn result(&self) -> Option<GameOutcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.final_score(BLACK).signum() {
            1 => GameOutcome::Won(BLACK),
            -1 => GameOutcome::Won(WHITE),
            _ => GameOutcome::Draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_positions_are_the_standard_diagonals() {
        assert_eq!(OthelloState::new(Size::Eight).rows()[3..5], ["...OX...", "...XO..."]);
        assert_eq!(OthelloState::new(Size::Six).rows()[2..4], ["..OX..", "..XO.."]);
        assert_eq!(OthelloState::new(Size::Four).rows(), ["....", ".OX.", ".XO.", "...."]);
        let squares: Vec<String> = OthelloState::new(Size::Eight)
            .legal_squares()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(squares, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn a_move_turns_the_discs_it_flanks_and_passes_the_turn() {
        let mut game = OthelloState::new(Size::Eight);
        game.play(OthelloMove::Play(Square::parse("d3").unwrap()));
        assert_eq!(game.rows()[2..5], ["...X....", "...XX...", "...XO..."]);
        assert_eq!(game.to_move(), WHITE);
        assert_eq!(
            game.clone().try_play(OthelloMove::Play(Square::parse("a1").unwrap())),
            Err(IllegalMove::NoFlip(Square::parse("a1").unwrap()))
        );
        assert_eq!(
            game.clone().try_play(OthelloMove::Pass),
            Err(IllegalMove::PassNotAllowed)
        );
    }

    #[test]
    fn squares_off_a_small_board_are_refused() {
        let mut game = OthelloState::new(Size::Four);
        let e1 = Square::parse("e1").unwrap();
        assert_eq!(game.try_play(OthelloMove::Play(e1)), Err(IllegalMove::OffBoard(e1, 4)));
    }
}
