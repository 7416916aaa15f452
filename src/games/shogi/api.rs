//! `POST /shogi/move` (and shogi's `/analyze` positions and streams):
//! the request read by kibitz's rules, the answer from Fairy-Stockfish on
//! the engine pool (see [`crate::engines::request`]).

use std::sync::Arc;

use super::engine::engine_config;
use super::rules::{RulesError, ShogiState};
use super::settings::ShogiSettings;
use crate::core::problem::Problem;
use crate::engines::analysis::{AnalysisError, EngineAnalysis, EngineAnalyzer};
use crate::engines::request::{self, PositionRequest};
use crate::engines::{Dialect, EngineConfig, EnginePool};
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

/// Shogi's engine pool and answers: one per server, made before it
/// answers (`ShogiGame::prepare`); a set of solvers without it (a unit
/// test's) gets one on the default settings.
pub struct ShogiAnalyzer(pub EngineAnalyzer);

impl ShogiAnalyzer {
    pub fn new(config: &crate::config::Config) -> Self {
        ShogiAnalyzer(EngineAnalyzer::new(
            EnginePool::new(engine_config(config)),
            config.games.of::<ShogiSettings>().shogi_cache_entries,
        ))
    }
}

pub fn analyzer(solvers: &Solvers) -> Arc<ShogiAnalyzer> {
    solvers.of_with(|| {
        ShogiAnalyzer(EngineAnalyzer::new(
            EnginePool::new(EngineConfig::fairy_stockfish("shogi", Dialect::Usi)),
            0,
        ))
    })
}

/// The game a request describes, or what is wrong with it (a finished
/// game included: there is no move to find).
pub fn read_game(request: &PositionRequest) -> Result<ShogiState, AnalysisError> {
    let game = ShogiState::from_sfen_and_moves(request.position.as_deref(), &request.moves)
        .map_err(|e| AnalysisError::Rules(rules_detail(&e)))?;
    match game.end() {
        Some(end) => Err(AnalysisError::Rules(RulesError::GameOver(end.reason).to_string())),
        None => Ok(game),
    }
}

/// A rules error in the request's words (the SFEN is its `position`).
fn rules_detail(error: &RulesError) -> String {
    match error {
        RulesError::BadSfen(e) => format!("position: {e}"),
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
