//! Shogi as Fairy-Stockfish is asked about it, in USI (Fairy-Stockfish's
//! UCI mode writes shogi moves in its own coordinates): the engine's
//! settings from the server's, and a game's position as the engine's question
//! (every move the engine names checked against kibitz's rules).

use super::rules::{Color, ShogiState};
use super::settings::ShogiSettings;
use crate::config::Config;
use crate::engines::analysis::EnginePosition;
use crate::engines::score::EvalScore;
use crate::engines::{Dialect, EngineConfig};

/// The engine settings of this server's configuration.
pub fn engine_config(config: &Config) -> EngineConfig {
    let settings = config.games.of::<ShogiSettings>();
    EngineConfig {
        path: settings.shogi_engine_path.clone(),
        count: settings.shogi_engine_count,
        queue_wait: std::time::Duration::from_millis(config.search_queue_ms),
        slice: std::time::Duration::from_millis(config.search_slice_ms),
        ..EngineConfig::fairy_stockfish("shogi", Dialect::Usi)
    }
}

/// A side's name in the API.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}

impl EnginePosition for ShogiState {
    fn key(&self) -> String {
        // The moves matter beside the position: repetitions end the game
        // and the engine avoids them.
        self.usi_position()
    }

    fn engine_position(&self) -> String {
        self.usi_position()
    }

    fn legal_move_count(&self) -> usize {
        self.position().legal_moves().len()
    }

    fn player(&self) -> &'static str {
        side_name(self.side_to_move())
    }

    fn legal_line(&self, pv: &[String]) -> Vec<String> {
        let mut position = self.position().clone();
        let mut line = Vec::new();
        for text in pv {
            let Ok(mv) = position.parse_move(text) else {
                break;
            };
            line.push(mv.notation());
            position = position.after(mv);
        }
        line
    }

    fn readable_line(&self, moves: &[String]) -> Vec<String> {
        super::western::western_line(self.position(), moves)
    }

    fn final_score(&self) -> Option<EvalScore> {
        let end = self.end()?;
        Some(match end.winner {
            None => EvalScore::Cp(0),
            Some(winner) if winner == self.side_to_move() => EvalScore::Mate(1),
            Some(_) => EvalScore::Mate(-1),
        })
    }
}
