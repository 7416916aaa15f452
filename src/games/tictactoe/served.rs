//! Tic-tac-toe as the service offers it: its catalog entry, its analysis
//! endpoint and its reviews.

use std::sync::Arc;

use super::api::{self, AnswerCache, MoveRequest};
use super::matches::{CellMove, Options};
use super::review as cell_review;
use super::solve::TicTacToeSolver;
use super::MAX_SIDE;
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::run::run_review;
use crate::review::{Step, XO};
use crate::serve::{endpoints, ReviewResult, ServedGame, Services, Written};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;

pub struct TicTacToeGame;

impl ServedGame for TicTacToeGame {
    const ID: &'static str = "tictactoe";
    const MEMOS: usize = 1;
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    /// The finished body: proved answers are kept as bodies (see
    /// [`AnswerCache`]).
    type Response = Written;

    fn catalog(_config: &Config) -> GameEntry {
        let side = (1, MAX_SIDE as u64);
        GameEntry {
            id: Self::ID,
            name: "Tic-tac-toe (m,n,k)",
            summary: "Place X and O in turn; k in a row (across, down or diagonally) wins. X moves first.",
            players: 2,
            chance: false,
            solved_by: "exact on 3x3 and 4x4; exact within max_ms on small boards, else the best found with proved results marked",
            endpoints: endpoints::<Self>(),
            options: vec![
                integer("rows", default_of::<Options>("rows"), side, "Rows of the board."),
                integer("cols", default_of::<Options>("cols"), side, "Columns of the board."),
                integer(
                    "k",
                    default_of::<Options>("k"),
                    side,
                    "In a row to win; default the longer side up to 5x5, else 5.",
                ),
            ],
            strategies: names::<super::matches::TicTacToeMatch>(),
            available: true,
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

    fn record_metrics(services: &Services) {
        let memo = services.solvers.of::<TicTacToeSolver>().memo_stats();
        crate::serve::memo_gauges(Self::ID, "memo", &memo);
        let answers = services.solvers.of::<AnswerCache>().stats();
        crate::serve::memo_gauges(Self::ID, "answer_cache", &answers);
    }

    const RECORD_REVIEW: bool = true;
    const RECORD_SIDES: [&'static str; 2] = XO;
    type ReviewOptions = Options;
    type RecordMove = CellMove;
    type ReviewMove = CellMove;

    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<CellMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let solver: Arc<TicTacToeSolver> = services.solvers.of();
        run_review(&services.config, &services.search_pool, max_ms, move |limits, quick| {
            cell_review::review(&solver, &options, &steps, names, limits, quick)
        })
        .await
    }
}
