//! Connect Four as the service offers it: its catalog entry, its analysis
//! endpoint and its reviews.

use std::sync::Arc;

use super::api::{self, MoveRequest, MoveResponse, SolveQuery};
use super::matches::{ColumnMove, Options};
use super::review as column_review;
use super::solve::ConnectFourSolver;
use super::{MAX_SIDE, MIN_K, MIN_SIDE};
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::run::run_review;
use crate::review::{Step, XO};
use crate::serve::{endpoints, json_body, KeptBody, QueryEndpoint, QueryRoutes, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;

pub struct ConnectFourGame;

impl ServedGame for ConnectFourGame {
    const ID: &'static str = "connect-four";
    const TABLES: usize = 1;
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    type Response = MoveResponse;

    fn query_routes(routes: &mut impl QueryRoutes) {
        routes.add::<GamesolverEndpoint>();
    }

    fn catalog(_config: &Config) -> GameEntry {
        let side = (u64::from(MIN_SIDE), u64::from(MAX_SIDE));
        GameEntry {
            id: Self::ID,
            name: "Connect Four",
            summary: "Drop stones into columns in turn; k in a line (across, down or diagonally) wins. X moves first.",
            players: 2,
            chance: false,
            solved_by: "exact within max_ms (7x6: every column up to 9 stones at once from the opening books, 10 stones on within the default second on a current 2-core server, where the hardest positions of 10 and 11 stones take up to about a second, so that 1-2% of them miss it on a machine 2-3 times slower; every empty board up to width + height 13), else estimates marked solved: false",
            endpoints: endpoints::<Self>(),
            options: vec![
                integer("cols", default_of::<Options>("cols"), side, "Columns of the grid."),
                integer("rows", default_of::<Options>("rows"), side, "Rows of the grid."),
                integer(
                    "k",
                    default_of::<Options>("k"),
                    (u64::from(MIN_K), u64::from(MAX_SIDE)),
                    "In a line to win, at most the grid's longer side.",
                ),
            ],
            strategies: names::<super::matches::ConnectFourMatch>(),
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
    type RecordMove = ColumnMove;
    type ReviewMove = ColumnMove;

    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<ColumnMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        let solver: Arc<ConnectFourSolver> = services.solvers.of();
        run_review(&services.config, &services.search_pool, max_ms, move |limits, quick| {
            column_review::review(&solver, &options, &steps, names, limits, quick)
        })
        .await
    }
}

/// `GET /solve?pos=`: connect4.gamesolver.org's API, so that a frontend
/// written for it switches to kibitz by its base URL alone.
struct GamesolverEndpoint;

impl QueryEndpoint for GamesolverEndpoint {
    const PATH: &'static str = "/solve";
    type Query = SolveQuery;

    async fn answer(services: &Services, query: SolveQuery) -> Result<KeptBody, Problem> {
        json_body(&api::solve_columns(services, query).await?).map(KeptBody::from)
    }
}
