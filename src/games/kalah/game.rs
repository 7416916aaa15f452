//! Kalah's rules as the generic layers see them: South is seat 0 and
//! moves first; a move is a house, 1..m in the mover's sowing order; a
//! move that ends in the mover's store is followed by the same seat's.

use crate::core::game::{Game, GameOutcome, Turn};

use super::rules::{KalahState, Player};

/// The seat of a side (South first).
pub fn seat(player: Player) -> usize {
    match player {
        Player::South => 0,
        Player::North => 1,
    }
}

impl Game for KalahState {
    type Move = u8;

    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Player(seat(self.to_move()))
        }
    }

    fn legal_moves(&self) -> Vec<u8> {
        if self.is_over() {
            Vec::new()
        } else {
            self.legal_houses()
        }
    }

    /// Plays a legal house (the trait's promise: callers check legality
    /// first; an illegal one changes nothing).
    fn play(&mut self, house: u8) {
        let _ = KalahState::play(self, house);
    }

    fn result(&self) -> Option<GameOutcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.south_margin().signum() {
            1 => GameOutcome::Won(0),
            -1 => GameOutcome::Won(1),
            _ => GameOutcome::Draw,
        })
    }
}
