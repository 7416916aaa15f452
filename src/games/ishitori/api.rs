//! `POST /ishitori/move`: the request and answer shapes, and the answer to
//! one position.

use serde::{Deserialize, Serialize};

use super::solve::{Explanation, HeapRule, MoveAnalysis, SubtractionSolver};
use super::{Game, HeapSize, HeapSizeError, IshitoriError, Outcome, Setup};
use crate::core::evaluation::Evaluation;
use crate::core::outcome;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::run::{run_search_cheap_first, SearchBudget, SharedDeadline};

impl From<IshitoriError> for Problem {
    fn from(e: IshitoriError) -> Self {
        Problem::unprocessable(e.to_string())
    }
}

/// Most losing residues listed in a response; the count is always given.
const MAX_LISTED_RESIDUES: usize = 10_000;

#[derive(Deserialize)]
pub struct MoveRequest {
    remaining: Option<HeapSize>,
    heaps: Option<Vec<HeapSize>>,
    take: Option<Vec<i64>>,
    misere: Option<bool>,
    max_ms: Option<u64>,
}

#[derive(Serialize)]
pub struct RuleBody {
    preperiod: u64,
    period: u64,
    losing_residues: Vec<u64>,
    losing_residue_count: usize,
    losing_before_preperiod: Vec<u64>,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExplanationBody {
    OneHeap {
        heap: usize,
        rule: RuleBody,
    },
    Nim {
        grundy_values: Vec<u8>,
        nim_sum: u8,
        grundy_preperiod: u64,
        grundy_period: u64,
    },
    MisereTable {
        positions: u64,
    },
    Unfinished,
}

#[derive(Serialize)]
pub struct MoveResponse {
    take: u64,
    heap: usize,
    remaining_after: u64,
    /// The same as a decimal string: a JavaScript number loses heaps above 2^53.
    remaining_after_decimal: String,
    outcome: Option<&'static str>,
    solved: bool,
    period: Option<u64>,
    preperiod: Option<u64>,
    losing_residues: Option<Vec<u64>>,
    explanation: ExplanationBody,
    nodes: u64,
    evaluation: Evaluation,
}

fn rule_body(rule: &HeapRule) -> RuleBody {
    RuleBody {
        preperiod: rule.preperiod,
        period: rule.period,
        losing_residues: rule.losing_residues.iter().take(MAX_LISTED_RESIDUES).copied().collect(),
        losing_residue_count: rule.losing_residues.len(),
        losing_before_preperiod: rule
            .losing_before_preperiod
            .iter()
            .take(MAX_LISTED_RESIDUES)
            .copied()
            .collect(),
    }
}

fn setup(request: &MoveRequest) -> Result<Setup, Problem> {
    let take = match &request.take {
        None => None,
        Some(amounts) => Some(
            amounts
                .iter()
                .map(|&t| {
                    u64::try_from(t).map_err(|_| {
                        Problem::unprocessable(format!("take amounts must be positive integers (got {t})"))
                    })
                })
                .collect::<Result<Vec<u64>, Problem>>()?,
        ),
    };
    let unprocessable = |e: HeapSizeError| Problem::unprocessable(e.to_string());
    let remaining = request
        .remaining
        .as_ref()
        .map(|r| r.value("remaining"))
        .transpose()
        .map_err(unprocessable)?;
    let heaps = match &request.heaps {
        None => None,
        Some(hs) => Some(
            hs.iter()
                .enumerate()
                .map(|(i, h)| h.value(&format!("heaps[{i}]")))
                .collect::<Result<Vec<u64>, HeapSizeError>>()
                .map_err(unprocessable)?,
        ),
    };
    Ok(Setup {
        remaining,
        heaps,
        take,
        misere: request.misere,
    })
}

/// The answer to a request, for the route and for a batch (whose `shared`
/// deadline the search keeps to).
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
) -> Result<MoveResponse, Problem> {
    let game = Game::try_from(setup(&request)?)?;
    let solver = services.solvers.of::<SubtractionSolver>();
    // A rule already known answers at once; anything else is a search,
    // admitted to the pool like every other.
    let analysis = match solver.known_move(&game) {
        Some(known) => known,
        None => {
            run_search_cheap_first(
                &services.config,
                &services.search_pool,
                "ishitori",
                SearchBudget::own(request.max_ms).within(shared),
                |r: &Result<MoveAnalysis, IshitoriError>| r.as_ref().map_or(true, |a| a.solved()),
                move |limits, _| solver.best_move(&game, limits),
            )
            .await??
        }
    };
    let (period, preperiod, residues, explanation) = match &analysis.explanation {
        Explanation::OneHeap { heap, rule } => {
            let body = rule_body(rule);
            (
                Some(rule.period),
                Some(rule.preperiod),
                Some(body.losing_residues.clone()),
                ExplanationBody::OneHeap {
                    heap: *heap,
                    rule: body,
                },
            )
        }
        Explanation::Nim(n) => (
            None,
            None,
            None,
            ExplanationBody::Nim {
                grundy_values: n.grundy_values.clone(),
                nim_sum: n.nim_sum,
                grundy_preperiod: n.grundy_preperiod,
                grundy_period: n.grundy_period,
            },
        ),
        Explanation::MisereTable { positions } => {
            (None, None, None, ExplanationBody::MisereTable { positions: *positions })
        }
        Explanation::Unfinished => (None, None, None, ExplanationBody::Unfinished),
    };
    // Unsolved, the search knows nothing of either side's chances.
    let evaluation = match analysis.outcome {
        Some(Outcome::Win) => Evaluation::proved(outcome::Outcome::Win, None),
        Some(Outcome::Loss) => Evaluation::proved(outcome::Outcome::Loss, None),
        None => Evaluation::chance(0.5, false),
    };
    Ok(MoveResponse {
        take: analysis.take,
        heap: analysis.heap,
        remaining_after: analysis.remaining_after,
        remaining_after_decimal: analysis.remaining_after.to_string(),
        outcome: evaluation.outcome.map(|o| o.name()),
        solved: analysis.solved(),
        period,
        preperiod,
        losing_residues: residues,
        explanation,
        nodes: analysis.nodes,
        evaluation,
    })
}
