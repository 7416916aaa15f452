//! Chess as the service offers it: its catalog entry, `POST /chess/move`,
//! `GET /chess/cloud-eval` and the engine processes started with the
//! server. Not yet a match game, and its reviews are not served yet (the
//! registry lists it without a `GameKind`).

use bytes::Bytes;
use serde::de::IgnoredAny;

use super::api::{self, CloudEvalQuery, MoveRequest};
use crate::catalog::{Endpoints, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::{ReviewError, Step};
use crate::serve::{endpoints, json_body, memo_gauges, QueryEndpoint, QueryRoutes, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::memo::MemoStats;
use crate::solve::run::SharedDeadline;

pub struct ChessGame;

/// Not served yet: a chess record has nowhere to come from (no matches,
/// no review endpoint).
const NO_REVIEWS: &str = "chess games are not reviewed over HTTP yet";

impl ServedGame for ChessGame {
    const ID: &'static str = "chess";
    const ANALYSIS_PATH: &'static str = "/chess/move";
    // The playground draws match games only; chess is not one yet.
    const DRAWING: &'static str =
        "// No chessboard in the playground yet: chess is not a match game.\nexport default null;\n";
    type Request = MoveRequest;
    /// The finished body: repeated questions are answered from bodies
    /// kept written out (see [`api::BodyCache`]).
    type Response = Bytes;

    fn body(response: Bytes) -> Result<Bytes, Problem> {
        Ok(response)
    }

    fn catalog(config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Chess",
            summary: "Standard chess. Positions as FEN and/or UCI moves from the start; evaluations by Stockfish.",
            players: 2,
            chance: false,
            solved_by: "Stockfish's evaluation within max_ms (or depth); solved: true only for a mate it proved",
            endpoints: Endpoints {
                matches: None,
                ..endpoints::<Self>()
            },
            options: Vec::new(),
            strategies: Vec::new(),
            available: api::engine_config(config).resolve().is_ok(),
        }
    }

    async fn analyse(
        services: &Services,
        request: MoveRequest,
        shared: Option<SharedDeadline>,
        lines: Option<Lines>,
    ) -> Result<Bytes, Problem> {
        api::analyse(services, request, shared, lines).await
    }

    fn record_metrics(services: &Services) {
        let analyzer = api::analyzer(services);
        let (hits, misses) = analyzer.cache().stats();
        let stats = MemoStats {
            entries: analyzer.cache().len(),
            capacity: services.config.games.chess.cache_entries,
            hits,
            misses,
        };
        memo_gauges(Self::ID, "answer_cache", &stats);
        memo_gauges(Self::ID, "answer_bodies", &api::body_cache(services).stats());
        metrics::gauge!("kibitz_engine_processes", "game" => Self::ID).set(analyzer.pool().live_pids().len() as f64);
    }

    fn start(services: &Services) {
        if !services.config.games.chess.engine_warm_up {
            return;
        }
        let analyzer = api::analyzer(services);
        if !analyzer.is_available() {
            return;
        }
        tokio::spawn(async move {
            match analyzer.pool().warm_up().await {
                Ok(count) => tracing::info!(count, "chess engine processes started"),
                Err(error) => tracing::warn!(%error, "the chess engine processes did not start"),
            }
        });
    }

    fn query_routes(routes: &mut impl QueryRoutes) {
        routes.add::<CloudEvalEndpoint>();
    }

    const REVIEW_PATH: Option<&'static str> = None;
    const RECORD_SIDES: [&'static str; 2] = ["white", "black"];
    type ReviewOptions = IgnoredAny;
    type RecordMove = String;
    type ReviewMove = String;

    fn record_steps(_moves: Vec<String>) -> Result<Vec<Step<String>>, ReviewError> {
        Err(ReviewError::Unavailable(NO_REVIEWS.to_string()))
    }

    async fn review(
        _services: &Services,
        _options: IgnoredAny,
        _steps: Vec<Step<String>>,
        _names: [&'static str; 2],
        _max_ms: Option<u64>,
    ) -> ReviewResult {
        Ok(Err(ReviewError::Unavailable(NO_REVIEWS.to_string())))
    }
}

/// lichess's `GET /api/cloud-eval`, answered by the engine pool.
struct CloudEvalEndpoint;

impl QueryEndpoint for CloudEvalEndpoint {
    const PATH: &'static str = "/chess/cloud-eval";
    type Query = CloudEvalQuery;

    async fn answer(services: &Services, query: CloudEvalQuery) -> Result<Bytes, Problem> {
        json_body(&api::cloud_eval(services, query).await?)
    }
}
