//! The answers of `POST /backgammon/move` and `POST /backgammon/cube`
//! (and backgammon's `/analyze` positions): kibitz's exact table where it
//! covers the position, GNU Backgammon on the bounded pool otherwise.

use std::sync::Arc;
use std::time::Duration;

use super::api::{read_dice, read_situation, CubeAnswer, MoveAnswer, PositionRequest};
use super::bearoff::exact_plays;
use super::board::RulesError;
use super::gnubg::{GnubgError, GnubgPool, Strength};
use super::plays::legal_plays;
use super::rules::may_double;
use super::settings::BackgammonSettings;
use crate::config::Config;
use crate::core::problem::Problem;
use crate::engines::analysis::AnalysisError;
use crate::engines::request::budget_ms;
use crate::serve::Services;
use crate::solve::limits::SearchLimits;
use crate::solve::run::SharedDeadline;
use crate::solve::solvers::Solvers;

/// Backgammon's gnubg pool: one per server, made before it answers
/// (`BackgammonGame::prepare`); a set of solvers without it (a unit
/// test's) gets one on the default settings.
pub struct BackgammonEngine(pub GnubgPool);

impl BackgammonEngine {
    pub fn new(config: &Config) -> Self {
        BackgammonEngine(GnubgPool::new(config.games.of::<BackgammonSettings>().gnubg()))
    }
}

pub fn engine(solvers: &Solvers) -> Arc<BackgammonEngine> {
    solvers.of_with(|| BackgammonEngine(GnubgPool::new(BackgammonSettings::default().gnubg())))
}

/// A request the rules refuse: 422, naming the field.
fn refused(error: RulesError) -> Problem {
    Problem::unprocessable(error.to_string())
}

/// gnubg's errors as the chess engines' are: the question's fault 422,
/// the engine's 503 (with the install hint when there is none).
fn engine_problem(error: GnubgError) -> Problem {
    match error {
        GnubgError::Invalid(detail) => Problem::unprocessable(detail),
        GnubgError::Engine(e) => AnalysisError::Engine(e).into(),
    }
}

/// The time a question may take: the request's budget within a batch's,
/// counted once gnubg is up (the first question starts the pool's
/// processes first, as the chess engines' does: a start-up is not the
/// question's time, and would cost it a ply).
async fn limits(
    services: &Services,
    max_ms: Option<u64>,
    shared: Option<&SharedDeadline>,
) -> Result<SearchLimits, Problem> {
    let pool = &engine(&services.solvers).0;
    if pool.is_available() && pool.processes().spawned() == 0 {
        pool.warm_up().await.map_err(engine_problem)?;
    }
    let budget = budget_ms(&services.config, max_ms, shared)?;
    Ok(SearchLimits::within(Duration::from_millis(budget)))
}

/// Every legal play of the roll ranked, the best first.
pub async fn best_play(
    services: &Services,
    request: PositionRequest,
    shared: Option<SharedDeadline>,
) -> Result<MoveAnswer, Problem> {
    let situation = read_situation(&request).map_err(refused)?;
    let dice = read_dice(&request).map_err(refused)?;
    let board = situation.board;
    if let Some(answer) = exact_plays(&board, dice).and_then(|plays| MoveAnswer::exact(&board, dice, plays)) {
        return Ok(answer);
    }
    let limits = limits(services, request.max_ms, shared.as_ref()).await?;
    let legal = legal_plays(&board, dice);
    let analysis = engine(&services.solvers)
        .0
        .moves(&situation.for_gnubg(), dice.values(), &Strength::default(), &limits)
        .await
        .map_err(engine_problem)?;
    MoveAnswer::from_gnubg(&board, dice, &legal, analysis).map_err(|e| Problem::internal(&e))
}

/// The cube decision of the side to move, before it rolls.
pub async fn cube_decision(
    services: &Services,
    request: PositionRequest,
    shared: Option<SharedDeadline>,
) -> Result<CubeAnswer, Problem> {
    let situation = read_situation(&request).map_err(refused)?;
    if request.dice.is_some() {
        return Err(refused(RulesError::new(
            "dice",
            "a cube decision is made before rolling: send no dice",
        )));
    }
    let limits = limits(services, request.max_ms, shared.as_ref()).await?;
    let decision = engine(&services.solvers)
        .0
        .cube(&situation.for_gnubg(), &Strength::default(), &limits)
        .await
        .map_err(engine_problem)?;
    let allowed = may_double(situation.cube, situation.match_state.as_ref());
    Ok(CubeAnswer::of(&situation.board, decision, allowed))
}
