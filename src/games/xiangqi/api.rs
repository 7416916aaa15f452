//! `POST /xiangqi/move` (and xiangqi's `/analyze` positions and streams):
//! the request read by kibitz's rules, the answer from Fairy-Stockfish on
//! the engine pool (see [`crate::engines::variant`]).

use std::sync::Arc;

use super::engine::engine_config;
use super::rules::{RulesError, XiangqiState};
use super::settings::XiangqiSettings;
use crate::config::Config;
use crate::engines::variant::{self, EngineVariant, VariantAnalyzer};
use crate::engines::{Dialect, EngineConfig};
use crate::solve::solvers::Solvers;

/// Xiangqi as the engine pool's shared glue knows it.
pub struct Xiangqi;

impl EngineVariant for Xiangqi {
    const ID: &'static str = "xiangqi";
    type State = XiangqiState;

    fn engine_config(config: &Config) -> EngineConfig {
        engine_config(config)
    }

    fn default_engine_config() -> EngineConfig {
        EngineConfig::fairy_stockfish(Self::ID, Dialect::Uci)
    }

    fn cache_entries(config: &Config) -> usize {
        config.games.of::<XiangqiSettings>().xiangqi_cache_entries
    }

    fn read(position: Option<&str>, moves: &[String]) -> Result<XiangqiState, String> {
        XiangqiState::from_fen_and_moves(position, moves).map_err(|e| match e {
            // The FEN is the request's `position`.
            RulesError::BadFen(e) => format!("position: {e}"),
            other => other.to_string(),
        })
    }

    fn finished(game: &XiangqiState) -> Option<String> {
        game.end().map(|end| RulesError::GameOver(end.reason).to_string())
    }
}

/// Xiangqi's engine pool and answers.
pub type XiangqiAnalyzer = VariantAnalyzer<Xiangqi>;

pub fn analyzer(solvers: &Solvers) -> Arc<XiangqiAnalyzer> {
    variant::analyzer::<Xiangqi>(solvers)
}
