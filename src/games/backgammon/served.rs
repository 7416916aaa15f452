//! Backgammon as the service offers it: its catalog entry, `POST
//! /backgammon/move` and `POST /backgammon/cube`, the gnubg pool made
//! from the settings.

use std::sync::Arc;

use super::answer::{self, BackgammonEngine};
use super::api::{CubeAnswer, MoveAnswer, PositionRequest};
use crate::catalog::{Endpoints, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::{ReviewError, Step};
use crate::serve::{endpoints, PostEndpoint, QueryRoutes, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

pub struct BackgammonGame;

impl ServedGame for BackgammonGame {
    const ID: &'static str = "backgammon";
    const ANALYSIS_PATH: &'static str = "/backgammon/move";
    const DRAWING: &'static str = include_str!("../../../web/backgammon.js");
    // One answer per question: gnubg has no deepening to report.
    const STREAMS: bool = false;
    type Request = PositionRequest;
    type Response = MoveAnswer;

    fn catalog(config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Backgammon",
            summary: "Backgammon with the doubling cube, money game or match play. Positions as GNU Backgammon's Position ID or a board of 24 points; plays and cube decisions by GNU Backgammon.",
            players: 2,
            chance: true,
            solved_by: "kibitz's exact bear-off table (up to 6 checkers a side in the home boards: solved: true); GNU Backgammon's neural networks elsewhere, at the depth max_ms affords",
            endpoints: Endpoints {
                matches: None,
                ..endpoints::<Self>()
            },
            options: Vec::new(),
            strategies: Vec::new(),
            available: BackgammonEngine::new(config).0.is_available(),
        }
    }

    async fn analyse(
        services: &Services,
        request: PositionRequest,
        shared: Option<SharedDeadline>,
        _lines: Option<Lines>,
    ) -> Result<MoveAnswer, Problem> {
        answer::best_play(services, request, shared).await
    }

    fn query_routes(routes: &mut impl QueryRoutes) {
        routes.post::<CubeEndpoint>();
    }

    /// The pool on the configured gnubg, made before the first request.
    fn prepare(config: &Config, solvers: &Solvers) {
        solvers.provide(Arc::new(BackgammonEngine::new(config)));
    }

    fn record_metrics(services: &Services) {
        let engine = answer::engine(&services.solvers);
        metrics::gauge!("kibitz_engine_processes", "game" => Self::ID)
            .set(engine.0.processes().live_pids().len() as f64);
    }

    const REVIEW_PATH: Option<&'static str> = None;
    const RECORD_SIDES: [&'static str; 2] = ["first", "second"];
    type ReviewOptions = serde_json::Value;
    type RecordMove = serde_json::Value;
    type ReviewMove = serde_json::Value;

    /// Backgammon is not played as a match yet, so there is no record to
    /// review.
    async fn review(
        _services: &Services,
        _options: serde_json::Value,
        _steps: Vec<Step<serde_json::Value>>,
        _names: [&'static str; 2],
        _max_ms: Option<u64>,
    ) -> ReviewResult {
        Ok(Err(ReviewError::Unavailable(
            "backgammon is not played as a match yet: there is no record to review".to_string(),
        )))
    }
}

/// `POST /backgammon/cube`.
pub struct CubeEndpoint;

impl PostEndpoint for CubeEndpoint {
    const PATH: &'static str = "/backgammon/cube";
    type Request = PositionRequest;
    type Response = CubeAnswer;

    async fn answer(services: &Services, request: PositionRequest) -> Result<CubeAnswer, Problem> {
        answer::cube_decision(services, request, None).await
    }
}
