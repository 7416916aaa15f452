//! Shogi as the service offers it: its catalog entry, `POST
//! /shogi/move`, the engine pool made from the settings. Its matches and
//! arena players are `super::matches`.

use std::sync::Arc;

use super::api::{self, ShogiAnalyzer};
use super::engine::engine_config;
use super::matches::{Options, UsiMove};
use crate::arena::strategy::names;
use crate::catalog::{default_of, other, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::engines::analysis::EngineAnalysis;
use crate::engines::request::PositionRequest;
use crate::review::{ReviewError, Step};
use crate::serve::{endpoints, json_body, memo_gauges, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

pub struct ShogiGame;

impl ServedGame for ShogiGame {
    const ID: &'static str = "shogi";
    const ANALYSIS_PATH: &'static str = "/shogi/move";
    // No board drawing yet: the playground leaves the game out.
    const DRAWING: &'static str = "";
    type Request = PositionRequest;
    type Response = EngineAnalysis;

    fn body(response: EngineAnalysis) -> Result<bytes::Bytes, Problem> {
        json_body(&response)
    }

    fn catalog(config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Shogi",
            summary: "Japanese chess, with drops. Positions as SFEN and/or USI moves; evaluations by Fairy-Stockfish.",
            players: 2,
            chance: false,
            solved_by: "Fairy-Stockfish's evaluation within max_ms (or depth); solved: true only for a mate it proved",
            endpoints: endpoints::<Self>(),
            options: vec![other(
                "sfen",
                "string",
                default_of::<Options>("sfen"),
                "The start position in SFEN; the person plays the side to move there unless the AI goes first.",
            )],
            strategies: names::<super::matches::ShogiMatch>(),
            available: engine_config(config).resolve().is_ok(),
        }
    }

    async fn analyse(
        services: &Services,
        request: PositionRequest,
        shared: Option<SharedDeadline>,
        lines: Option<Lines>,
    ) -> Result<EngineAnalysis, Problem> {
        api::analyse(services, request, shared, lines).await
    }

    /// The analyzer on the configured engine, made before the first
    /// request so that matches and the arena use the same pool.
    fn prepare(config: &Config, solvers: &Solvers) {
        solvers.provide(Arc::new(ShogiAnalyzer::new(config)));
    }

    fn record_metrics(services: &Services) {
        let analyzer = api::analyzer(&services.solvers);
        memo_gauges(Self::ID, "answer_cache", &analyzer.0.cache_stats());
        metrics::gauge!("kibitz_engine_processes", "game" => Self::ID).set(analyzer.0.pool().live_pids().len() as f64);
    }

    const REVIEW_PATH: Option<&'static str> = None;
    const RECORD_SIDES: [&'static str; 2] = ["sente", "gote"];
    type ReviewOptions = Options;
    type RecordMove = UsiMove;
    type ReviewMove = UsiMove;

    fn record_steps(moves: Vec<UsiMove>) -> Result<Vec<Step<UsiMove>>, ReviewError> {
        Ok(Step::numbered(moves))
    }

    async fn review(
        _services: &Services,
        _options: Options,
        _steps: Vec<Step<UsiMove>>,
        _names: [&'static str; 2],
        _max_ms: Option<u64>,
    ) -> ReviewResult {
        Ok(Err(ReviewError::Unavailable(
            "shogi reviews are not served yet".to_string(),
        )))
    }
}
