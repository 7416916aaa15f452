//! Number Square as the service offers it: its catalog entry, its analysis
//! endpoint and its matches' reviews (it has no stateless review).

use std::sync::Arc;

use super::api::{self, MoveRequest, MoveResponse};
use super::matches::{Options, TileMove};
use super::review as tile_review;
use super::solve::NumberSquareSolver;
use super::{MAX_SIZE, MIN_SIZE};
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, other, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::run::run_review;
use crate::review::{Step, AB};
use crate::serve::{endpoints, memo_gauges, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;

pub struct NumberSquareGame;

impl ServedGame for NumberSquareGame {
    const ID: &'static str = "number-square";
    const MEMOS: usize = 1;
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    type Response = MoveResponse;

    fn catalog(_config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Number Square (Persegi Bilangan)",
            summary: "Take numbered tiles from the edge inwards; a path of taken tiles across the board ends the game. Higher total wins.",
            players: 2,
            chance: false,
            solved_by: "exact within max_ms (from the first move on 4x4), else the best found at the depth reached",
            endpoints: endpoints::<Self>(),
            options: vec![
                integer(
                    "size",
                    default_of::<Options>("size"), (MIN_SIZE as u64, MAX_SIZE as u64), "Side of the board dealt 1..size^2 shuffled."),
                other("board", "array", default_of::<Options>("board"), "A given N x N board of integers instead of a dealt one."),
            ],
            strategies: names::<super::matches::NumberSquareMatch>(),
            available: true,
        }
    }

    async fn analyze(
        services: &Services,
        request: MoveRequest,
        shared: Option<SharedDeadline>,
        lines: Option<Lines>,
    ) -> Result<MoveResponse, Problem> {
        api::analyze(services, request, shared, lines).await
    }

    fn record_metrics(services: &Services) {
        memo_gauges(
            "number_square",
            "memo",
            &services.solvers.of::<NumberSquareSolver>().memo_stats(),
        );
    }

    const RECORD_REVIEW: bool = false;
    const RECORD_SIDES: [&'static str; 2] = AB;
    type ReviewOptions = Options;
    type RecordMove = TileMove;
    type ReviewMove = TileMove;

    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<TileMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        // Cheap to check first: a match whose deal was not recorded never
        // waits for a worker.
        if let Err(e) = tile_review::start(&options) {
            return Ok(Err(e));
        }
        let solver: Arc<NumberSquareSolver> = services.solvers.of();
        run_review(&services.config, &services.search_pool, max_ms, move |limits, quick| {
            tile_review::review(&solver, &options, &steps, names, limits, quick)
        })
        .await
    }
}
