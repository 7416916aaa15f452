//! Chess as the service offers it: its catalog entry, `POST /chess/move`,
//! `GET /chess/cloud-eval`, `POST /chess/review`, the engine pool made
//! from the settings and its processes started with the server. Its
//! matches and arena players are `super::matches`.

use std::sync::Arc;
use std::time::Duration;

use super::api::{self, CloudEvalQuery, MoveRequest};
use super::matches::Options;
use super::record::{self, RECORD_SIDES};
use super::rules::ChessMove;
use super::search::{ChessAnalyzer, ChessError};
use crate::arena::strategy::names;
use crate::catalog::{default_of, other, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::engines::EnginePool;
use crate::review::{Review, Step};
use crate::serve::{
    endpoints, json_body, memo_gauges, KeptBody, QueryEndpoint, QueryRoutes, ReviewResult, ServedGame, Services,
    Written,
};
use crate::solve::limits::SearchLimits;
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

pub struct ChessGame;

/// Kept from the request's time limit for what a review does besides its
/// searches (engine start-up, the answer).
const REVIEW_MARGIN_MS: u64 = 1000;

impl ServedGame for ChessGame {
    const ID: &'static str = "chess";
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    /// The finished body: repeated questions are answered from bodies
    /// kept written out (see [`api::BodyCache`]).
    type Response = Written;

    fn catalog(config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Chess",
            summary: "Standard chess. Positions as FEN and/or UCI moves from the start; evaluations by Stockfish.",
            players: 2,
            chance: false,
            solved_by: "Stockfish's evaluation within max_ms (or depth); solved: true only for a mate it proved",
            endpoints: endpoints::<Self>(),
            options: vec![other(
                "fen",
                "string",
                default_of::<Options>("fen"),
                "The start position in FEN; the person plays the side to move there unless the AI goes first.",
            )],
            strategies: names::<super::matches::ChessMatch>(),
            available: api::engine_config(config).resolve().is_ok(),
        }
    }

    async fn analyze(
        services: &Services,
        request: MoveRequest,
        shared: Option<SharedDeadline>,
        lines: Option<Lines>,
    ) -> Result<Written, Problem> {
        api::analyze(services, request, shared, lines).await.map(Written)
    }

    /// The analyzer on the configured engine, made before the first
    /// request so that matches and the arena (which see only the solvers)
    /// use the same pool as `/chess/move`.
    fn prepare(config: &Config, solvers: &Solvers) {
        solvers.provide(Arc::new(ChessAnalyzer::new(
            EnginePool::new(api::engine_config(config)),
            config.games.of::<super::settings::ChessSettings>().cache_entries,
        )));
    }

    fn record_metrics(services: &Services) {
        let analyzer = api::analyzer(services);
        memo_gauges(Self::ID, "answer_cache", &analyzer.cache_stats());
        memo_gauges(Self::ID, "answer_bodies", &api::body_cache(services).stats());
        metrics::gauge!("kibitz_engine_processes", "game" => Self::ID).set(analyzer.pool().live_pids().len() as f64);
    }

    fn start(services: &Services) {
        if !services
            .config
            .games
            .of::<super::settings::ChessSettings>()
            .engine_warm_up
        {
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
        routes.add::<LichessCloudEvalEndpoint>();
    }

    const RECORD_REVIEW: bool = true;
    const RECORD_SIDES: [&'static str; 2] = RECORD_SIDES;
    type ReviewOptions = Options;
    type RecordMove = ChessMove;
    type ReviewMove = ChessMove;

    /// Every position searched by the engine pool, as many at once as it
    /// has processes, within `max_ms` (defaulted and capped as any
    /// search's) but never under 50 ms a position: less is no search (see
    /// [`record::review_ms`]; a record too long for the request's time
    /// limit is a 422).
    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<ChessMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let replayed = match record::replay(&options, &steps, names) {
            Ok(replayed) => replayed,
            Err(e) => return Ok(Err(e)),
        };
        if steps.is_empty() {
            // Nothing to evaluate: no engine needed.
            return Ok(Ok(Review::new(Self::ID, replayed.names(names), Vec::new())));
        }
        let analyzer = api::analyzer(services);
        let config = &services.config;
        // What the request's own time limit leaves, less a second for the
        // engines' start-up and the answer.
        let longest = config.request_timeout_in_ms().saturating_sub(REVIEW_MARGIN_MS);
        let budget = config.search_budget_ms(max_ms);
        let ms = match record::review_ms(budget, replayed.positions(), analyzer.pool().size(), longest) {
            Ok(ms) => ms,
            Err(e) => return Ok(Err(e)),
        };
        // Every process up before the clock starts (Stockfish's start-up
        // is not the review's time, and a cold process would miss its
        // slice).
        analyzer.pool().warm_up().await.map_err(ChessError::from)?;
        let limits = SearchLimits::within(Duration::from_millis(ms));
        let plies: Vec<u64> = steps.iter().map(|s| s.ply).collect();
        Ok(Ok(replayed.review(&analyzer, &plies, names, &limits).await?))
    }
}

/// lichess's `GET /api/cloud-eval`, answered by the engine pool.
struct CloudEvalEndpoint;

/// lichess's own path and parameters (`fen`, `multiPv`, `variant`): a
/// client written for lichess (berserk, chariot, lichess's own apps) points
/// at kibitz by its base URL alone.
struct LichessCloudEvalEndpoint;

impl QueryEndpoint for LichessCloudEvalEndpoint {
    const PATH: &'static str = "/api/cloud-eval";
    type Query = CloudEvalQuery;

    async fn answer(services: &Services, query: CloudEvalQuery) -> Result<KeptBody, Problem> {
        CloudEvalEndpoint::answer(services, query).await
    }
}

impl QueryEndpoint for CloudEvalEndpoint {
    const PATH: &'static str = "/chess/cloud-eval";
    type Query = CloudEvalQuery;

    async fn answer(services: &Services, query: CloudEvalQuery) -> Result<KeptBody, Problem> {
        json_body(&api::cloud_eval(services, query).await?).map(KeptBody::from)
    }
}
