//! Chess as the engine pool is asked about it: a game's position as the
//! engine's question (every move Stockfish names checked against kibitz's
//! rules). Its answer's shape is [`super::ChessAnalysis`].

use super::rules::{ChessState, EndReason};
use crate::engines::analysis::EnginePosition;
use crate::engines::score::EvalScore;

impl EnginePosition for ChessState {
    fn key(&self) -> String {
        // The position, as lichess's cloud evaluations key it: the same
        // position reached another way is the same question.
        self.fen()
    }

    fn engine_position(&self) -> String {
        self.uci_position()
    }

    fn legal_move_count(&self) -> usize {
        ChessState::legal_move_count(self)
    }

    fn player(&self) -> &'static str {
        ChessState::player(self)
    }

    fn legal_line(&self, pv: &[String]) -> Vec<String> {
        self.line(pv).0
    }

    fn readable_line(&self, moves: &[String]) -> Vec<String> {
        self.line(moves).1
    }

    fn final_score(&self) -> Option<EvalScore> {
        Some(match self.end()? {
            EndReason::Checkmate => EvalScore::Mate(-1),
            _ => EvalScore::Cp(0),
        })
    }
}
