//! Ishitori as the service offers it: its catalog entry, its analysis
//! endpoint and its reviews.

use std::sync::Arc;

use super::api::{self, MoveRequest, MoveResponse};
use super::matches::{Options, TakeMove};
use super::review as take_review;
use super::solve::SubtractionSolver;
use crate::arena::strategy::names;
use crate::catalog::{default_of, integer, other, GameEntry};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::review::{Step, AB};
use crate::serve::{endpoints, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::{run_search, SearchBudget, SharedDeadline};

pub struct IshitoriGame;

impl ServedGame for IshitoriGame {
    const ID: &'static str = "ishitori";
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    type Response = MoveResponse;

    fn catalog(_config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Ishitori (subtraction games)",
            summary: "Take an allowed number of stones from a heap in turn; with misere the last taker loses.",
            players: 2,
            chance: false,
            solved_by: "exact: the periodic win/loss rule of the take set, any heap up to 2^64-1",
            endpoints: endpoints::<Self>(),
            options: vec![
                integer(
                    "remaining",
                    default_of::<Options>("remaining"),
                    (1, u64::MAX),
                    "One heap's size (or give heaps); a decimal string is accepted too.",
                ),
                other(
                    "heaps",
                    "array",
                    default_of::<Options>("heaps"),
                    "Several heap sizes instead of remaining.",
                ),
                other(
                    "take",
                    "array",
                    default_of::<Options>("take"),
                    "The amounts a move may take (distinct positive integers).",
                ),
                other(
                    "misere",
                    "boolean",
                    default_of::<Options>("misere"),
                    "true: whoever takes the last stone loses.",
                ),
            ],
            strategies: names::<super::matches::IshitoriMatch>(),
            available: true,
        }
    }

    /// Answered at once (a rule, not a search): nothing to stream.
    async fn analyze(
        services: &Services,
        request: MoveRequest,
        shared: Option<SharedDeadline>,
        _lines: Option<Lines>,
    ) -> Result<MoveResponse, Problem> {
        api::analyze(services, request, shared).await
    }

    const RECORD_REVIEW: bool = true;
    const RECORD_SIDES: [&'static str; 2] = AB;
    type ReviewOptions = Options;
    type RecordMove = TakeMove;
    type ReviewMove = TakeMove;

    async fn review(
        services: &Services,
        options: Options,
        steps: Vec<Step<TakeMove>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        // Cheap to check first: an illegal record never waits for a worker.
        if let Err(e) = take_review::validate(&options, &steps, names) {
            return Ok(Err(e));
        }
        let solver: Arc<SubtractionSolver> = services.solvers.of();
        run_search(
            &services.config,
            &services.search_pool,
            "review",
            SearchBudget::own(max_ms),
            move |limits| take_review::review(&solver, &options, &steps, names, limits),
        )
        .await
    }
}
