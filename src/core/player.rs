//! The two marks of the games played with X and O (tic-tac-toe, Nine
//! Square): X takes seat 0 and moves first.

use std::fmt;

use super::game::Seat;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    X,
    O,
}

impl Player {
    /// X moves first: seat 0. Also the index into per-player tables.
    pub fn seat(self) -> Seat {
        match self {
            Player::X => 0,
            Player::O => 1,
        }
    }

    pub fn of_seat(seat: Seat) -> Player {
        if seat == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}
