//! GET /pig/policy (Pig's decision and review are served through the
//! registry, src/games/pig/served.rs).

use axum::extract::State;
use axum::response::Response;

use super::extract::ApiQuery;
use super::games::review_body as json_body;
use super::state::AppState;
use crate::core::problem::Problem;
use crate::games::pig::api::{policy_body, RulesParams};

pub async fn policy(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<RulesParams>,
) -> Result<Response, Problem> {
    let rules = params.validate(&state)?;
    if let Some(body) = state.pig_policies.get(&rules) {
        return Ok(json_body(body));
    }
    let body = policy_body(&state, rules).await?;
    state.pig_policies.offer(rules, &body);
    Ok(json_body(body))
}
