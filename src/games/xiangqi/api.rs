//! `POST /xiangqi/move` (and xiangqi's `/analyze` positions and streams):
//! the request read by kibitz's rules, the answer from Fairy-Stockfish on
//! the engine pool (see [`crate::engines::request`]).

use std::sync::Arc;

use super::engine::engine_config;
use super::rules::{RulesError, XiangqiState};
use super::settings::XiangqiSettings;
use crate::core::problem::Problem;
use crate::engines::analysis::{AnalysisError, EngineAnalysis, EngineAnalyzer};
use crate::engines::request::{self, PositionRequest};
use crate::engines::{Dialect, EngineConfig, EnginePool};
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

/// Xiangqi's engine pool and answers: one per server, made before it
/// answers (`XiangqiGame::prepare`); a set of solvers without it (a unit
/// test's) gets one on the default settings.
pub struct XiangqiAnalyzer(pub EngineAnalyzer);

impl XiangqiAnalyzer {
    pub fn new(config: &crate::config::Config) -> Self {
        XiangqiAnalyzer(EngineAnalyzer::new(
            EnginePool::new(engine_config(config)),
            config.games.of::<XiangqiSettings>().xiangqi_cache_entries,
        ))
    }
}

pub fn analyzer(solvers: &Solvers) -> Arc<XiangqiAnalyzer> {
    solvers.of_with(|| {
        XiangqiAnalyzer(EngineAnalyzer::new(
            EnginePool::new(EngineConfig::fairy_stockfish("xiangqi", Dialect::Uci)),
            0,
        ))
    })
}

/// The game a request describes, or what is wrong with it (a finished
/// game included: there is no move to find).
pub fn read_game(request: &PositionRequest) -> Result<XiangqiState, AnalysisError> {
    let game = XiangqiState::from_fen_and_moves(request.position.as_deref(), &request.moves)
        .map_err(|e| AnalysisError::Rules(rules_detail(&e)))?;
    match game.end() {
        Some(end) => Err(AnalysisError::Rules(RulesError::GameOver(end.reason).to_string())),
        None => Ok(game),
    }
}

/// A rules error in the request's words (the FEN is its `position`).
fn rules_detail(error: &RulesError) -> String {
    match error {
        RulesError::BadFen(e) => format!("position: {e}"),
        other => other.to_string(),
    }
}

/// The answer to one request.
pub async fn analyse(
    services: &Services,
    request: PositionRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<EngineAnalysis, Problem> {
    let game = read_game(&request)?;
    let analyzer = analyzer(&services.solvers);
    request::answer(&services.config, &analyzer.0, &game, &request, shared, lines).await
}
