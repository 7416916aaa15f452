//! `POST /tictactoe/move`: the request and answer shapes, and the answer to
//! one position.
//!
//! A position the solver has proved completely always gets the same answer,
//! so its finished response body is kept (bounded, see [`AnswerCache`]) and
//! served again without validating, searching or serialising: a warm
//! request costs little more than reading and parsing its body.

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::solve::{Analysis, Outcome, TicTacToeSolver};
use super::{Position, TicTacToeError};
use crate::core::evaluation::Evaluation;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::memo::{BoundedMemo, MemoStats};
use crate::solve::run::{run_search_cheap_first, Attempt, SearchBudget, SharedDeadline};
use crate::solve::solvers::{GameSolver, MemoSizes};

impl From<TicTacToeError> for Problem {
    fn from(e: TicTacToeError) -> Self {
        Problem::unprocessable(e.to_string())
    }
}

/// Bodies larger than this (boards of more than about 100 cells) are not
/// kept, so that the cache's memory stays below capacity x this.
pub const MAX_CACHED_BODY_BYTES: usize = 8 * 1024;

/// Finished response bodies of positions whose every move is proved: such
/// an answer does not depend on the budget or on what the memo held. (Its
/// `depth` and `nodes` are those of the search that first found it.)
pub struct AnswerCache {
    /// None when the configured capacity is 0.
    bodies: Option<BoundedMemo<AnswerKey, Bytes>>,
}

/// Everything a fully proved answer depends on: the board's rows and `k`
/// exactly as the request sent them (not `max_ms`). Only requests that were
/// answered are stored, so a hit needs no validation; a board written two
/// ways simply takes two entries.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct AnswerKey {
    board: Vec<String>,
    k: Option<i64>,
}

impl GameSolver for AnswerCache {
    fn build(sizes: &MemoSizes) -> Self {
        AnswerCache::new(sizes.answers)
    }
}

impl AnswerCache {
    /// Holds at most `capacity` answers (none when 0).
    pub fn new(capacity: usize) -> AnswerCache {
        AnswerCache {
            bodies: (capacity > 0).then(|| BoundedMemo::new(capacity.max(2))),
        }
    }

    pub fn get(&self, key: &AnswerKey) -> Option<Bytes> {
        self.bodies.as_ref()?.get(key)
    }

    /// Keeps `body` if `analysis` proved every move and the body is small.
    pub fn offer(&self, key: AnswerKey, analysis: &Analysis, body: &Bytes) {
        let complete = analysis.solved && analysis.moves.iter().all(|m| m.outcome.is_some());
        if let Some(bodies) = &self.bodies {
            if complete && body.len() <= MAX_CACHED_BODY_BYTES {
                bodies.insert(key, body.clone());
            }
        }
    }

    pub fn stats(&self) -> MemoStats {
        self.bodies.as_ref().map(BoundedMemo::stats).unwrap_or_default()
    }
}

/// A JSON body as `Json` would send it.
#[derive(Deserialize)]
pub struct MoveRequest {
    board: Vec<String>,
    k: Option<i64>,
    max_ms: Option<u64>,
}

#[derive(Serialize)]
pub struct Cell {
    row: usize,
    col: usize,
    index: usize,
}

#[derive(Serialize)]
pub struct MoveValue {
    row: usize,
    col: usize,
    index: usize,
    outcome: Option<&'static str>,
    plies_to_end: Option<u32>,
    score: i32,
    evaluation: Evaluation,
}

#[derive(Serialize)]
pub struct MoveResponse {
    player: String,
    #[serde(rename = "move")]
    chosen: Cell,
    outcome: Option<&'static str>,
    plies_to_end: Option<u32>,
    score: i32,
    solved: bool,
    depth: u32,
    nodes: u64,
    rows: usize,
    cols: usize,
    k: usize,
    moves: Vec<MoveValue>,
    principal_variation: Vec<Cell>,
    evaluation: Evaluation,
}

fn response(position: &Position, analysis: &Analysis) -> MoveResponse {
    let cols = position.cols();
    let cell = |index: usize| Cell {
        row: index / cols,
        col: index % cols,
        index,
    };
    MoveResponse {
        player: analysis.player.to_string(),
        chosen: cell(analysis.best_move),
        outcome: analysis.outcome.map(Outcome::name),
        plies_to_end: analysis.plies_to_end,
        score: analysis.score,
        solved: analysis.solved,
        depth: analysis.depth,
        nodes: analysis.nodes,
        rows: position.rows(),
        cols,
        k: position.k(),
        moves: analysis
            .moves
            .iter()
            .map(|m| MoveValue {
                row: m.index / cols,
                col: m.index % cols,
                index: m.index,
                outcome: m.outcome.map(Outcome::name),
                plies_to_end: m.plies_to_end,
                score: m.score,
                evaluation: m.evaluation(),
            })
            .collect(),
        principal_variation: analysis.principal_variation.iter().map(|&i| cell(i)).collect(),
        evaluation: analysis.evaluation(),
    }
}

/// The finished response body for a request, for the route and for a batch
/// (whose `shared` deadline the search keeps to); the search's
/// intermediate answers go to `lines` when there are any.
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<Bytes, Problem> {
    let key = AnswerKey {
        board: request.board,
        k: request.k,
    };
    let answers = services.solvers.of::<AnswerCache>();
    if let Some(body) = answers.get(&key) {
        return Ok(body);
    }
    let k = Position::win_length(key.k)?;
    let position = Position::parse(&key.board, k)?;
    let solver = services.solvers.of::<TicTacToeSolver>();
    let searched = position.clone();
    let analysis = run_search_cheap_first(
        &services.config,
        &services.search_pool,
        "tictactoe",
        SearchBudget::own(request.max_ms).within(shared),
        |a: &Analysis| a.solved,
        move |limits, attempt| match (&lines, attempt) {
            (Some(lines), Attempt::Pool) => solver.analyze_reporting(
                &searched,
                limits,
                Some(&mut |a: &Analysis| lines.send(&response(&searched, a))),
            ),
            _ => solver.analyze(&searched, limits),
        },
    )
    .await?;
    let body = Bytes::from(serde_json::to_vec(&response(&position, &analysis)).map_err(|e| Problem::internal(&e))?);
    answers.offer(key, &analysis, &body);
    Ok(body)
}
