//! Backgammon as the service offers it: its catalog entry, `POST
//! /backgammon/move` and `POST /backgammon/cube`, the gnubg pool made
//! from the settings.

use std::sync::Arc;

use super::answer::{self, BackgammonEngine};
use super::api::{CubeAnswer, MoveAnswer, PositionRequest};
use super::matches::{BackgammonMatch, Options};
use super::review::{self, HistoryStep};
use super::rules::MAX_MATCH_LENGTH;
use crate::arena::strategy::names;
use crate::catalog::{default_of, other, GameEntry, GameOption};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::history::{corrupt, parse, seat_of};
use crate::review::Step;
use crate::serve::{endpoints, PostEndpoint, QueryRoutes, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;
use crate::store::StoredMatch;

pub struct BackgammonGame;

impl ServedGame for BackgammonGame {
    const ID: &'static str = "backgammon";
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
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
            endpoints: endpoints::<Self>(),
            options: vec![GameOption {
                minimum: Some(0),
                maximum: Some(u64::from(MAX_MATCH_LENGTH)),
                ..other(
                    "match_length",
                    "integer",
                    default_of::<Options>("match_length"),
                    "Points to win the match; 0 plays one money game.",
                )
            }],
            strategies: names::<BackgammonMatch>(),
            available: BackgammonEngine::new(config).0.is_available(),
        }
    }

    async fn analyze(
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

    const RECORD_REVIEW: bool = false;
    const RECORD_SIDES: [&'static str; 2] = ["first", "second"];
    type ReviewOptions = Options;
    type RecordMove = HistoryStep;
    type ReviewMove = HistoryStep;

    /// The history as it was played: the dice and every decision.
    fn stored_steps(stored: &StoredMatch, names: [&'static str; 2]) -> Result<Vec<Step<HistoryStep>>, Problem> {
        stored
            .history
            .iter()
            .map(|event| {
                let entry = &event.entry;
                let (seat, mv) = match (&entry.mv, entry.roll) {
                    (None, Some(face)) => (None, HistoryStep::Roll(face)),
                    (Some(mv), _) => (
                        Some(seat_of(entry.actor, names)?),
                        HistoryStep::Decision(parse(mv, "move")?),
                    ),
                    (None, None) => return Err(corrupt("an entry with neither a move nor a roll")),
                };
                Ok(Step {
                    ply: entry.ply,
                    seat,
                    mv,
                })
            })
            .collect()
    }

    /// Every decision judged by gnubg within `max_ms` (defaulted and
    /// capped as any search's), as [`super::review`] says.
    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<HistoryStep>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let budget = services.config.search_budget_ms(max_ms);
        Ok(review::review(&services.solvers, options.match_length, &steps, names, budget).await)
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
