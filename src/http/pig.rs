//! POST /pig/decision and GET /pig/policy.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery, JsonBytes};
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
        rules(self.goal, self.die_sides, &self.variant, state)
    }
}

/// The variant is read before the numbers, so a request wrong in both is
/// told about the variant.
fn rules(goal: i64, die_sides: i64, variant: &str, state: &AppState) -> Result<PigRules, ApiError> {
    let variant: Variant = variant.parse()?;
    Ok(PigRules::new(goal, die_sides, variant, state.config.pig_max_goal)?)
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
) -> Result<JsonBytes, ApiError> {
    let answer = decide(&state, request).await?;
    Ok(JsonBytes(answer.to_json()))
}

impl DecisionResponse {
    /// The JSON serde_json writes for this answer (a test compares them
    /// byte for byte), written straight into one buffer: the route's hot
    /// path skips the generic serializer's key escaping. The numbers are
    /// formatted first so that the buffer is allocated at its exact length:
    /// a `Vec` whose length is its capacity becomes the response's `Bytes`
    /// without a second allocation. The win probability is one of the two
    /// action values, so its digits are usually copied, not formatted again.
    fn to_json(&self) -> Vec<u8> {
        let mut roll_buffer = ryu::Buffer::new();
        let mut hold_buffer = ryu::Buffer::new();
        let mut win_buffer = ryu::Buffer::new();
        let roll = probability(&mut roll_buffer, self.roll_win_probability);
        let hold = probability(&mut hold_buffer, self.hold_win_probability);
        let win = match self.win_probability.to_bits() {
            bits if bits == self.roll_win_probability.to_bits() => roll,
            bits if bits == self.hold_win_probability.to_bits() => hold,
            _ => probability(&mut win_buffer, self.win_probability),
        };
        let mut hold_at_buffer = itoa::Buffer::new();
        let hold_at = match self.hold_at {
            Some(at) => hold_at_buffer.format(at).as_bytes(),
            None => b"null",
        };
        let mut counts = [itoa::Buffer::new(); 5];
        let [my_score, opponent_score, turn_total, goal, die_sides] = &mut counts;
        // Both names are fixed ASCII words: nothing to escape.
        let pieces: [&[u8]; 23] = [
            b"{\"action\":\"",
            self.action.as_bytes(),
            b"\",\"win_probability\":",
            win,
            b",\"roll_win_probability\":",
            roll,
            b",\"hold_win_probability\":",
            hold,
            b",\"hold_at\":",
            hold_at,
            b",\"my_score\":",
            my_score.format(self.my_score).as_bytes(),
            b",\"opponent_score\":",
            opponent_score.format(self.opponent_score).as_bytes(),
            b",\"turn_total\":",
            turn_total.format(self.turn_total).as_bytes(),
            b",\"goal\":",
            goal.format(self.goal).as_bytes(),
            b",\"die_sides\":",
            die_sides.format(self.die_sides).as_bytes(),
            b",\"variant\":\"",
            self.variant.as_bytes(),
            b"\"}",
        ];
        let mut out = Vec::with_capacity(pieces.iter().map(|p| p.len()).sum());
        for piece in pieces {
            out.extend_from_slice(piece);
        }
        out
    }
}

/// serde_json's way with a float: its shortest digits, or `null` when it
/// is not finite.
fn probability(buffer: &mut ryu::Buffer, value: f64) -> &[u8] {
    if value.is_finite() {
        buffer.format_finite(value).as_bytes()
    } else {
        b"null"
    }
}

/// The answer to a decision request, for the route and for a batch.
pub async fn decide(state: &AppState, request: DecisionRequest) -> Result<DecisionResponse, ApiError> {
    // The default variant borrowed, not a `String` made per request.
    let rules = rules(
        request.goal.unwrap_or_else(default_goal),
        request.die_sides.unwrap_or_else(default_die_sides),
        request.variant.as_deref().unwrap_or(Variant::Standard.as_str()),
        state,
    )?;
    let position = PigState::new(&rules, request.my_score, request.opponent_score, request.turn_total)?;
    // A default table is read in place, without the cache's lock or an
    // `Arc` to count up and down.
    let fetched;
    let table = match state.solvers.pig_tables.loaded_pinned(&rules) {
        Some(table) => table,
        None => {
            fetched = state.solvers.pig_tables.get(rules).await?;
            &fetched
        }
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::pig::solve;

    /// The hand-written answer is exactly serde_json's, for every state of
    /// small tables of both variants and for odd values (a missing
    /// `hold_at`, extremes of the probabilities).
    #[test]
    fn the_written_answer_is_serde_jsons_byte_for_byte() {
        let mut answers = Vec::new();
        for variant in [Variant::Standard, Variant::Progressive] {
            let rules = PigRules::new(20, 6, variant, 200).unwrap();
            let table = solve(&rules);
            for i in 0..20 {
                for j in 0..20 {
                    for k in 0..(20 - i) {
                        let position = PigState::new(&rules, i64::from(i), i64::from(j), i64::from(k)).unwrap();
                        let d = table.decide(&position);
                        answers.push(DecisionResponse {
                            action: d.action.as_str(),
                            win_probability: d.win_probability,
                            roll_win_probability: d.roll_win_probability,
                            hold_win_probability: d.hold_win_probability,
                            hold_at: d.hold_at,
                            my_score: i,
                            opponent_score: j,
                            turn_total: k,
                            goal: rules.goal(),
                            die_sides: rules.die_sides(),
                            variant: rules.variant().as_str(),
                        });
                    }
                }
            }
        }
        // The win probability equal to neither action value, to the roll
        // value and to the hold value; non-finite values too.
        let cases = [
            (0.0, 0.1 + 0.2, 1.0 / 3.0, None),
            (1.0, 0.1 + 0.2, 1.0 / 3.0, Some(u32::MAX)),
            (1e-300, 0.1 + 0.2, 1.0 / 3.0, Some(0)),
            (f64::NAN, 0.1 + 0.2, 1.0 / 3.0, None),
            (0.1 + 0.2, 0.1 + 0.2, 1.0 / 3.0, Some(3)),
            (1.0 / 3.0, 0.1 + 0.2, 1.0 / 3.0, Some(4)),
            (f64::INFINITY, f64::INFINITY, f64::NAN, None),
            (-0.0, 0.0, -0.0, None),
        ];
        for (win, roll, hold, hold_at) in cases {
            answers.push(DecisionResponse {
                action: "roll",
                win_probability: win,
                roll_win_probability: roll,
                hold_win_probability: hold,
                hold_at,
                my_score: 0,
                opponent_score: u32::MAX,
                turn_total: 7,
                goal: 1000,
                die_sides: 2,
                variant: "progressive",
            });
        }
        for answer in &answers {
            let expected = serde_json::to_vec(answer).unwrap();
            assert_eq!(
                String::from_utf8(answer.to_json()).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
        assert!(answers.len() > 400);
    }
}
