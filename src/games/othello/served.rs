//! Othello as the service offers it: its catalog entry, its analysis
//! endpoint and its reviews.

use std::sync::Arc;

use super::api::{self, MoveRequest, MoveResponse};
use super::matches::Options;
use super::review as square_review;
use super::solve::OthelloEngine;
use super::square::OthelloMove;
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::run::run_review;
use crate::review::{Step, XO};
use crate::serve::{endpoints, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;

pub struct OthelloGame;

impl ServedGame for OthelloGame {
    const ID: &'static str = "othello";
    const TABLES: usize = 1;
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    type Response = MoveResponse;

    fn catalog(_config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Othello (Reversi)",
            summary: "Place a disc to flank the opponent's in a line and turn them; a side with no such move passes. Most discs at the end wins. X (black) moves first.",
            players: 2,
            chance: false,
            solved_by: "exact in the endgame within max_ms (final disc difference, empties to the winner), else a midgame search's estimate marked solved: false",
            endpoints: endpoints::<Self>(),
            options: vec![integer("size", default_of::<Options>("size"), (4, 8), "Side of the board: 4, 6 or 8.")],
            strategies: names::<super::matches::OthelloMatch>(),
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
    const RECORD_SIDES: [&'static str; 2] = XO;
    type ReviewOptions = Options;
    type RecordMove = OthelloMove;
    type ReviewMove = OthelloMove;

    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<OthelloMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let engine: Arc<OthelloEngine> = services.solvers.of();
        run_review(&services.config, &services.search_pool, max_ms, move |limits, quick| {
            square_review::review(&engine, &options, &steps, names, limits, quick)
        })
        .await
    }
}
