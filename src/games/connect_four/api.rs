//! `POST /connect-four/move`: the request and answer shapes, and the answer
//! to one position.

use serde::{Deserialize, Serialize};

use super::solve::{Analysis, ConnectFourSolver};
use super::{symbol, ConnectFourError, ConnectFourState, Shape};
use crate::core::evaluation::Evaluation;
use crate::core::outcome::Outcome;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::run::{run_search_cheap_first, Attempt, SearchBudget, SharedDeadline};

impl From<ConnectFourError> for Problem {
    fn from(e: ConnectFourError) -> Self {
        Problem::unprocessable(e.to_string())
    }
}

#[derive(Deserialize)]
pub struct MoveRequest {
    moves: Option<String>,
    board: Option<Vec<String>>,
    cols: Option<i64>,
    rows: Option<i64>,
    k: Option<i64>,
    max_ms: Option<u64>,
}

#[derive(Serialize)]
pub struct Column {
    column: u32,
}

#[derive(Serialize)]
pub struct ColumnResponse {
    column: u32,
    playable: bool,
    score: Option<i32>,
    outcome: Option<&'static str>,
    plies_to_end: Option<u32>,
    solved: Option<bool>,
    /// None for a full column.
    evaluation: Option<Evaluation>,
}

#[derive(Serialize)]
pub struct MoveResponse {
    player: char,
    #[serde(rename = "move")]
    chosen: Column,
    score: i32,
    outcome: Option<&'static str>,
    plies_to_end: Option<u32>,
    solved: bool,
    depth: u32,
    nodes: u64,
    cols: u32,
    rows: u32,
    k: u32,
    moves: Vec<ColumnResponse>,
    principal_variation: Vec<Column>,
    evaluation: Evaluation,
}

/// The position a request describes: `moves` on a grid of `cols` x `rows`,
/// or `board` with its own size (a `cols` or `rows` sent with it must
/// agree). A finished game is refused.
fn position(request: &MoveRequest) -> Result<ConnectFourState, Problem> {
    let game = match (&request.moves, &request.board) {
        (Some(moves), None) => ConnectFourState::from_moves(Shape::new(request.cols, request.rows, request.k)?, moves)?,
        (None, Some(rows)) => {
            let game = ConnectFourState::from_rows(rows, request.k)?;
            let shape = game.shape();
            for (field, sent, actual) in [("cols", request.cols, shape.cols), ("rows", request.rows, shape.rows)] {
                if sent.is_some_and(|n| n != i64::from(actual)) {
                    return Err(Problem::unprocessable(format!(
                        "{field} is {} but the board has {actual}; send the size with moves, or only the board",
                        sent.unwrap_or_default()
                    )));
                }
            }
            game
        }
        (Some(_), Some(_)) => {
            return Err(Problem::unprocessable(
                "send either moves or board, not both",
            ))
        }
        (None, None) => {
            return Err(Problem::unprocessable(
                "send the position as moves (a column string such as \"4453\"; \"\" for the empty grid) or as board (row strings)",
            ))
        }
    };
    game.ensure_not_over()?;
    Ok(game)
}

fn response(game: &ConnectFourState, analysis: &Analysis) -> MoveResponse {
    let shape = game.shape();
    let known = |evaluation: &Evaluation| (evaluation.outcome.map(|o| o.name()), evaluation.plies_to_end);
    // A win at once is proved whatever the other columns hold: the
    // position's outcome is known even while they are not.
    let wins_at_once = analysis
        .columns
        .iter()
        .any(|c| c.column == analysis.best && c.solved && analysis.verdict(analysis.score) == (Outcome::Win, 1));
    let evaluation = analysis.evaluation(analysis.score, analysis.solved || wins_at_once);
    let (outcome, plies_to_end) = known(&evaluation);
    MoveResponse {
        player: symbol(analysis.player),
        chosen: Column {
            column: analysis.best + 1,
        },
        score: analysis.score,
        outcome,
        plies_to_end,
        solved: analysis.solved,
        depth: analysis.depth,
        nodes: analysis.nodes,
        cols: shape.cols,
        rows: shape.rows,
        k: shape.k,
        moves: analysis
            .columns
            .iter()
            .map(|c| {
                let evaluation = c.score.map(|s| analysis.evaluation(s, c.solved));
                let (outcome, plies_to_end) = evaluation.as_ref().map_or((None, None), known);
                ColumnResponse {
                    column: c.column + 1,
                    playable: c.score.is_some(),
                    score: c.score,
                    outcome,
                    plies_to_end,
                    solved: c.score.map(|_| c.solved),
                    evaluation,
                }
            })
            .collect(),
        principal_variation: analysis
            .principal_variation
            .iter()
            .map(|&c| Column { column: c + 1 })
            .collect(),
        evaluation,
    }
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
    let game = position(&request)?;
    let solver = services.solvers.of::<ConnectFourSolver>();
    let searched = game.clone();
    let analysis = run_search_cheap_first(
        &services.config,
        &services.search_pool,
        "connect_four",
        SearchBudget::own(request.max_ms).within(shared),
        // A quick answer whose columns are exact may still have its line
        // of play cut short: it is final only when the line is whole.
        Analysis::is_complete,
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
    Ok(response(&game, &analysis))
}

/// `GET /solve?pos=4453`'s query, as connect4.gamesolver.org's frontends
/// send it: the columns played (1-7) from the empty 7x6 grid.
#[derive(Deserialize)]
pub struct SolveQuery {
    #[serde(default)]
    pos: String,
}

/// connect4.gamesolver.org's answer: `score[c]` is the mover's exact score
/// for playing column c + 1 (its solver's convention, which kibitz's
/// scores share), 100 for a full column.
#[derive(Serialize)]
pub struct SolveAnswer {
    pos: String,
    score: Vec<i32>,
}

/// The score gamesolver.org writes for a column that cannot be played.
pub const FULL_COLUMN: i32 = 100;

/// The answer to `GET /solve`: every column exact, searched within the
/// server's cap on `max_ms` (gamesolver.org's scores are always exact; an
/// answer this server cannot prove in time is a 503, not a guess).
pub async fn solve_columns(services: &Services, query: SolveQuery) -> Result<SolveAnswer, Problem> {
    let request = MoveRequest {
        moves: Some(query.pos.clone()),
        board: None,
        cols: None,
        rows: None,
        k: None,
        max_ms: Some(services.config.max_ms_cap),
    };
    let answer = analyze(services, request, None, None).await?;
    if !answer.solved {
        return Err(Problem::unavailable(
            format!(
                "position {:?} was not solved within the server's cap of {} ms",
                query.pos, services.config.max_ms_cap
            ),
            1,
        ));
    }
    let score = answer.moves.iter().map(|c| c.score.unwrap_or(FULL_COLUMN)).collect();
    Ok(SolveAnswer { pos: query.pos, score })
}
