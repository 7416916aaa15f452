//! Kalah as the service offers it: its catalog entry, its analysis
//! endpoint and its reviews.

use std::sync::Arc;

use super::api::{self, KalahSolver, MoveRequest, MoveResponse};
use super::matches::{HouseMove, KalahMatch, Options};
use super::review as house_review;
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, other, GameEntry, GameOption};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::run::run_review;
use crate::review::Step;
use crate::serve::{endpoints, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;

pub struct KalahGame;

impl ServedGame for KalahGame {
    const ID: &'static str = "kalah";
    /// The transposition table, and the endgame tables' share.
    const TABLES: usize = 2;
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    type Response = MoveResponse;

    fn catalog(_config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Kalah (mancala)",
            summary: "Sow the seeds of one of your houses counter-clockwise; a last seed in your store moves again, one in your own empty house captures the house opposite. When a side is empty the game ends; most seeds in store wins. South moves first.",
            players: 2,
            chance: false,
            solved_by: "exact within max_ms (final store margin, every house), else the search's estimate marked solved: false",
            endpoints: endpoints::<Self>(),
            options: vec![
                integer("houses", default_of::<Options>("houses"), (1, 8), "Houses a side."),
                integer("seeds", default_of::<Options>("seeds"), (1, 8), "Seeds in each house at the start."),
                GameOption {
                    allowed: Some(vec!["standard", "empty"]),
                    ..other(
                        "capture",
                        "string",
                        default_of::<Options>("capture"),
                        "empty: a last seed in an own empty house always goes to the store, opposite seeds or not.",
                    )
                },
            ],
            strategies: names::<KalahMatch>(),
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

    const RECORD_REVIEW: bool = true;
    const RECORD_SIDES: [&'static str; 2] = ["south", "north"];
    type ReviewOptions = Options;
    type RecordMove = HouseMove;
    type ReviewMove = HouseMove;

    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<HouseMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let solver: Arc<KalahSolver> = services.solvers.of();
        run_review(&services.config, &services.search_pool, max_ms, move |limits, quick| {
            house_review::review(&solver, &options, &steps, names, limits, quick)
        })
        .await
    }
}
