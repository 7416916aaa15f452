//! Nine Square as the service offers it: its catalog entry, its analysis
//! endpoint and its matches' reviews (it has no stateless review).

use serde::Deserialize;
use serde_json::Value;

use super::api::{self, MoveRequest, MoveResponse};
use super::matches::NoOptions;
use super::review::{self as turn_review, Turn};
use crate::arena::strategy::names;
use crate::catalog::GameEntry;
use crate::config::Config;
use crate::core::problem::Problem;
use crate::matches::Actor;
use crate::review::history::{corrupt, parse, seat_of};
use crate::review::{Step, XO};
use crate::serve::{endpoints, ReviewResult, ServedGame, Services};
use crate::solve::lines::Lines;
use crate::solve::run::{run_search, SearchBudget, SharedDeadline};
use crate::store::StoredMatch;

pub struct NineSquareGame;

impl ServedGame for NineSquareGame {
    const ID: &'static str = "nine-square";
    const DRAWING: &'static str = include_str!("web/drawing.js");
    const RULES_SCRIPT: Option<&'static str> = Some(include_str!("web/rules.js"));
    const STYLE: &'static str = include_str!("web/style.css");
    type Request = MoveRequest;
    type Response = MoveResponse;

    fn catalog(_config: &Config) -> GameEntry {
        GameEntry {
            id: Self::ID,
            name: "Nine Square",
            summary: "Roll a die and place that many marks on a 9x9 grid of nine boxes; lines of three in a box and of nine across score.",
            players: 2,
            chance: true,
            solved_by: "estimate: a dice-aware search with chance nodes, exact in the endgame",
            endpoints: endpoints::<Self>(),
            options: vec![],
            strategies: names::<super::matches::NineSquareMatch>(),
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

    const RECORD_REVIEW: bool = false;
    const RECORD_SIDES: [&'static str; 2] = XO;
    type ReviewOptions = NoOptions;
    type RecordMove = Turn;
    type ReviewMove = Turn;

    fn stored_steps(stored: &StoredMatch, names: [&'static str; 2]) -> Result<Vec<Step<Turn>>, Problem> {
        stored_steps(stored, names)
    }

    /// Never proved but at the very end: no quick first try, the whole
    /// budget on the search pool.
    async fn review(
        services: &Services,
        _options: NoOptions,
        steps: Vec<Step<Turn>>,
        names: [&'static str; 2],
        max_ms: Option<u64>,
    ) -> ReviewResult {
        run_search(
            &services.config,
            &services.search_pool,
            "review",
            SearchBudget::own(max_ms),
            move |limits| turn_review::review(&steps, names, limits),
        )
        .await
    }
}

/// Nine Square's turns: each move with the roll of the dice entry before it.
pub fn stored_steps(stored: &StoredMatch, names: [&str; 2]) -> Result<Vec<Step<Turn>>, Problem> {
    #[derive(Deserialize)]
    struct Cell {
        row: i64,
        col: i64,
    }
    #[derive(Deserialize)]
    struct Placements {
        placements: Vec<Cell>,
    }
    let mut steps = Vec::new();
    let mut rolled: Option<u32> = None;
    for event in &stored.history {
        let entry = &event.entry;
        if entry.actor == Actor::Dice {
            rolled = Some(entry.roll.ok_or_else(|| corrupt("a dice entry without its roll"))?);
            continue;
        }
        let dice = rolled.take().ok_or_else(|| corrupt("a turn without its roll"))?;
        let mv: Placements = parse(entry.mv.as_ref().unwrap_or(&Value::Null), "move")?;
        steps.push(Step {
            ply: entry.ply,
            seat: Some(seat_of(entry.actor, names)?),
            mv: Turn {
                dice: i64::from(dice),
                placements: mv.placements.into_iter().map(|c| (c.row, c.col)).collect(),
            },
        });
    }
    Ok(steps)
}
