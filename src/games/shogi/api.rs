//! `POST /shogi/move` (and shogi's `/analyze` positions and streams):
//! the request read by kibitz's rules, the answer from Fairy-Stockfish on
//! the engine pool (see [`crate::engines::variant`]).

use std::sync::Arc;

use super::engine::engine_config;
use super::rules::{RulesError, ShogiState};
use super::settings::ShogiSettings;
use crate::config::Config;
use crate::engines::variant::{self, EngineVariant, VariantAnalyzer};
use crate::engines::{Dialect, EngineConfig};
use crate::solve::solvers::Solvers;

/// Shogi as the engine pool's shared glue knows it.
pub struct Shogi;

impl EngineVariant for Shogi {
    const ID: &'static str = "shogi";
    type State = ShogiState;

    fn engine_config(config: &Config) -> EngineConfig {
        engine_config(config)
    }

    fn default_engine_config() -> EngineConfig {
        EngineConfig::fairy_stockfish(Self::ID, Dialect::Usi)
    }

    fn cache_entries(config: &Config) -> usize {
        config.games.of::<ShogiSettings>().shogi_cache_entries
    }

    fn read(position: Option<&str>, moves: &[String]) -> Result<ShogiState, String> {
        ShogiState::from_sfen_and_moves(position, moves).map_err(|e| match e {
            // The SFEN is the request's `position`.
            RulesError::BadSfen(e) => format!("position: {e}"),
            other => other.to_string(),
        })
    }

    fn finished(game: &ShogiState) -> Option<String> {
        game.end().map(|end| RulesError::GameOver(end.reason).to_string())
    }
}

/// Shogi's engine pool and answers.
pub type ShogiAnalyzer = VariantAnalyzer<Shogi>;

pub fn analyzer(solvers: &Solvers) -> Arc<ShogiAnalyzer> {
    variant::analyzer::<Shogi>(solvers)
}
