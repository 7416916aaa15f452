//! POST /nine-square/move.

use serde::{Deserialize, Serialize};

use super::solve::{best_placements, best_placements_reporting, evaluation, SearchResult};
use super::strategies::greedy_placements;
use super::{Coord, Position, PositionError, Score};
use crate::core::evaluation::Evaluation;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::run::{run_search, SearchBudget, SharedDeadline};

impl From<PositionError> for Problem {
    fn from(e: PositionError) -> Self {
        Problem::unprocessable(e.to_string())
    }
}

/// Stateless answers are repeatable for the same budget in nodes; a fixed
/// seed keeps the search's own randomness out of the way.
const STATELESS_SEED: u64 = 0x6b69_6269_747a;

#[derive(Deserialize)]
pub struct MoveRequest {
    board: Vec<String>,
    player: String,
    dice: i64,
    max_ms: Option<u64>,
    strategy: Option<String>,
}

#[derive(Serialize)]
pub struct Placement {
    row: usize,
    col: usize,
}

#[derive(Serialize)]
pub struct ScoreBody {
    #[serde(rename = "X")]
    x: u32,
    #[serde(rename = "O")]
    o: u32,
}

#[derive(Serialize)]
pub struct MoveResponse {
    placements: Vec<Placement>,
    score: ScoreBody,
    expected_margin: f64,
    solved: bool,
    nodes: u64,
    strategy: &'static str,
    evaluation: Evaluation,
}

/// The seed paper's greedy AI: its margin is what the board shows after its
/// marks, with nothing expected of the future.
fn greedy(position: &Position) -> Result<SearchResult, Problem> {
    let placements = greedy_placements(position);
    let cells: Vec<(i64, i64)> = placements.iter().map(|c| (c.row() as i64, c.col() as i64)).collect();
    let after = position.apply(&cells).map_err(|e| Problem::internal(&e))?;
    let margin = after.score().margin_for(position.player());
    Ok(SearchResult {
        placements,
        expected_margin: f64::from(margin),
        solved: false,
        nodes: 0,
    })
}

/// The answer to a request, for the route and for a batch (whose `shared`
/// deadline the search keeps to); the search's intermediate answers go to
/// `lines` when there are any.
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<MoveResponse, Problem> {
    let position = Position::parse(&request.board, &request.player, request.dice)?;
    let score = position.board().score();
    let (strategy, result) = match request.strategy.as_deref().unwrap_or("best") {
        "best" => {
            let searched = position.clone();
            let result = run_search(
                &services.config,
                &services.search_pool,
                "nine_square",
                SearchBudget::own(request.max_ms).within(shared),
                move |limits| match &lines {
                    Some(lines) => best_placements_reporting(
                        &searched,
                        limits,
                        STATELESS_SEED,
                        Some(&mut |r: &SearchResult| lines.send(&response(r, score, "best"))),
                    ),
                    None => best_placements(&searched, limits, STATELESS_SEED),
                },
            )
            .await?;
            ("best", result)
        }
        "greedy" => ("greedy", greedy(&position)?),
        other => {
            return Err(Problem::unprocessable(format!(
                "strategy must be \"best\" or \"greedy\" (got \"{other}\")"
            )))
        }
    };
    Ok(response(&result, score, strategy))
}

/// The response for a search's result on a board that scores `score`.
fn response(result: &SearchResult, score: Score, strategy: &'static str) -> MoveResponse {
    MoveResponse {
        placements: result
            .placements
            .iter()
            .map(|c: &Coord| Placement {
                row: c.row(),
                col: c.col(),
            })
            .collect(),
        score: ScoreBody { x: score.x, o: score.o },
        expected_margin: result.expected_margin,
        solved: result.solved,
        nodes: result.nodes,
        strategy,
        evaluation: evaluation(result.expected_margin),
    }
}
