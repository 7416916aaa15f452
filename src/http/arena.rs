//! POST /arena: small series between named strategies, bounded by the
//! server's config (longer runs belong to `kibitz arena`).

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

use super::extract::ApiJson;
use super::state::AppState;
use crate::arena::{Arena, ArenaError, ArenaSpec, Budget, Report};
use crate::core::problem::Problem;
use crate::matches::{read, MatchError};
use crate::solve::run::{run_search, SearchBudget};

#[derive(Deserialize)]
pub struct ArenaRequest {
    game: String,
    a: String,
    b: String,
    // Options, not serde defaults: an explicit null means the default too.
    games: Option<u64>,
    seed: Option<u64>,
    max_ms: Option<u64>,
    #[serde(default, deserialize_with = "read::optional_unique_keys")]
    options: Option<Value>,
    exact: Option<bool>,
}

/// A domain error as the API shows it; `total_ms` is the run's time bound.
fn arena_error(error: ArenaError, total_ms: u64) -> Problem {
    match error {
        ArenaError::OutOfTime { .. } => Problem::unprocessable(format!(
            "{error}: this server gives a request's games at most arena_max_total_ms = {total_ms} ms \
             (KIBITZ_ARENA_MAX_TOTAL_MS); ask for fewer games, or run `kibitz arena` for long runs"
        )),
        ArenaError::Setup(e @ MatchError::Unavailable { .. }) => e.into(),
        e if e.is_client_error() => Problem::unprocessable(e.to_string()),
        e => Problem::internal(&e),
    }
}

pub async fn run(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ArenaRequest>,
) -> Result<Json<Report>, Problem> {
    let config = &state.config;
    let exact = request.exact.unwrap_or(false);
    let max_games = config.arena_max_games;
    let games = match request.games {
        Some(0) | None if !exact => {
            return Err(Problem::unprocessable(format!(
                "games must be an integer from 1 to {max_games} (or 0 with exact: true, for a game evaluated exactly)"
            )))
        }
        games => games.unwrap_or(0),
    };
    if games > max_games {
        return Err(Problem::unprocessable(format!(
            "games is {games}, more than this server's arena_max_games = {max_games} \
             (KIBITZ_ARENA_MAX_GAMES); run `kibitz arena` for long runs"
        )));
    }
    // Like every search, the run is also held to max_ms_cap.
    let total_ms = config.arena_max_total_ms.min(config.max_ms_cap);
    let budget = Budget {
        per_move: request
            .max_ms
            .map(|ms| std::time::Duration::from_millis(ms.min(total_ms))),
    };
    let spec = ArenaSpec {
        game: &request.game,
        a: &request.a,
        b: &request.b,
        options: request.options.as_ref(),
    };
    let arena =
        Arena::new(crate::registry::ARENA_GAMES, spec, &state.solvers, budget).map_err(|e| arena_error(e, total_ms))?;
    if exact && !arena.has_exact() {
        return Err(arena_error(
            ArenaError::NoExactEvaluation(arena.game().as_str()),
            total_ms,
        ));
    }
    let seed = request.seed.unwrap_or(0);
    let report = run_search(
        &state.config,
        &state.search_pool,
        "arena",
        SearchBudget::own(Some(total_ms)),
        move |limits| {
            let exact = if exact { Some(arena.exact()?) } else { None };
            let tally = arena.run(games, seed, limits, &mut |_| {})?;
            Ok::<Report, ArenaError>(arena.report(seed, &tally, exact))
        },
    )
    .await?;
    report.map(Json).map_err(|e| arena_error(e, total_ms))
}
