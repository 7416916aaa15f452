//! POST /pig/decision and GET /pig/policy.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery, JsonResponse};
use super::state::AppState;
use crate::games::pig::{Action, PigRules, PigState, Variant};
use crate::solve::pig::ActionRange;

fn default_goal() -> i64 {
    100
}
fn default_die_sides() -> i64 {
    6
}
fn default_variant() -> String {
    "standard".into()
}

#[derive(Deserialize)]
pub struct RulesParams {
    #[serde(default = "default_goal")]
    goal: i64,
    #[serde(default = "default_die_sides")]
    die_sides: i64,
    #[serde(default = "default_variant")]
    variant: String,
}

impl RulesParams {
    fn validate(&self, state: &AppState) -> Result<PigRules, ApiError> {
        let variant: Variant = self.variant.parse()?;
        Ok(PigRules::new(
            self.goal,
            self.die_sides,
            variant,
            state.config.pig_max_goal,
        )?)
    }
}

#[derive(Deserialize)]
pub struct DecisionRequest {
    my_score: i64,
    opponent_score: i64,
    turn_total: i64,
    // Options, not serde defaults: an explicit null means "the default" too.
    goal: Option<i64>,
    die_sides: Option<i64>,
    variant: Option<String>,
}

#[derive(Serialize)]
pub struct DecisionResponse {
    action: &'static str,
    win_probability: f64,
    roll_win_probability: f64,
    hold_win_probability: f64,
    hold_at: Option<u32>,
    my_score: u32,
    opponent_score: u32,
    turn_total: u32,
    goal: u32,
    die_sides: u32,
    variant: &'static str,
}

pub async fn decision(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<DecisionRequest>,
) -> Result<JsonResponse<DecisionResponse>, ApiError> {
    decide(&state, request).await.map(JsonResponse)
}

/// The answer to a decision request, for the route and for a batch.
pub async fn decide(state: &AppState, request: DecisionRequest) -> Result<DecisionResponse, ApiError> {
    let rules = RulesParams {
        goal: request.goal.unwrap_or_else(default_goal),
        die_sides: request.die_sides.unwrap_or_else(default_die_sides),
        variant: request.variant.unwrap_or_else(default_variant),
    }
    .validate(state)?;
    let position = PigState::new(&rules, request.my_score, request.opponent_score, request.turn_total)?;
    let table = state.solvers.pig_tables.get(rules).await?;
    let d = table.decide(&position);
    Ok(DecisionResponse {
        action: d.action.as_str(),
        win_probability: d.win_probability,
        roll_win_probability: d.roll_win_probability,
        hold_win_probability: d.hold_win_probability,
        hold_at: d.hold_at,
        my_score: position.my_score,
        opponent_score: position.opponent_score,
        turn_total: position.turn_total,
        goal: rules.goal(),
        die_sides: rules.die_sides(),
        variant: rules.variant().as_str(),
    })
}

#[derive(Serialize)]
pub struct PolicyCell {
    roll: Vec<[u32; 2]>,
    hold: Vec<[u32; 2]>,
}

#[derive(Serialize)]
pub struct PolicyResponse {
    goal: u32,
    die_sides: u32,
    variant: &'static str,
    /// `policy[my_score][opponent_score]`: inclusive turn-total ranges.
    policy: Vec<Vec<PolicyCell>>,
}

fn cell(ranges: &[ActionRange]) -> PolicyCell {
    let pick = |action| {
        ranges
            .iter()
            .filter(|r| r.action == action)
            .map(|r| [r.from, r.to])
            .collect()
    };
    PolicyCell {
        roll: pick(Action::Roll),
        hold: pick(Action::Hold),
    }
}

pub async fn policy(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<RulesParams>,
) -> Result<Json<PolicyResponse>, ApiError> {
    let rules = params.validate(&state)?;
    let table = state.solvers.pig_tables.get(rules).await?;
    let policy = tokio::task::spawn_blocking(move || {
        let goal = table.rules().goal();
        (0..goal)
            .map(|i| (0..goal).map(|j| cell(&table.policy_ranges(i, j))).collect())
            .collect()
    })
    .await
    .map_err(|e| ApiError::internal(&e))?;
    Ok(Json(PolicyResponse {
        goal: rules.goal(),
        die_sides: rules.die_sides(),
        variant: rules.variant().as_str(),
        policy,
    }))
}
