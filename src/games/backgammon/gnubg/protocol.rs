//! The bridge's line protocol: the requests kibitz writes (one JSON object
//! a line) and the answers it reads back, as plain Rust data.
//!
//! Every number and name here is what `bridge.py` writes; the answer types
//! are read with serde and anything else on the line (a missing field, a
//! wrong id) is a protocol error that costs the process its life.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// `from` of a checker entering from the bar, in the mover's numbering.
pub const BAR: u8 = 25;
/// `to` of a checker borne off.
pub const OFF: u8 = 0;

/// Who holds the doubling cube, from the side on roll's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeOwner {
    Me,
    Opponent,
    #[default]
    Centre,
}

/// The doubling cube: its value (1, 2, 4, ...) and owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cube {
    pub value: u32,
    pub owner: CubeOwner,
}

impl Default for Cube {
    fn default() -> Self {
        Cube {
            value: 1,
            owner: CubeOwner::Centre,
        }
    }
}

/// Match play: a match to `length` points, the score from the side on
/// roll's point of view, and whether this is the Crawford game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchState {
    pub length: u32,
    pub score_me: u32,
    pub score_opponent: u32,
    pub crawford: bool,
}

/// A position and the game around it, as every request carries it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Situation {
    /// GNU Backgammon's Position ID, the side on roll being the one that
    /// moves (or decides on the cube).
    pub position: String,
    pub cube: Cube,
    /// None: a money game.
    pub match_state: Option<MatchState>,
    /// Money games only: gammons count only once the cube was turned.
    pub jacoby: bool,
    /// Money games only: a doubled side may redouble at once, keeping the
    /// cube (a "beaver").
    pub beavers: bool,
}

/// How hard gnubg looks: its evaluation depth and noise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Strength {
    /// Plies (0..=3); None: the most the time budget allows
    /// ([`plies_for_budget`]). A request for more than the budget allows
    /// gets the budget's.
    pub plies: Option<u8>,
    /// gnubg's evaluation noise (0: none; its "beginner" is 0.06),
    /// deterministic: the same position gets the same noise.
    pub noise: f64,
}

/// The deepest evaluation a request may ask for.
pub const MAX_PLIES: u8 = 3;

/// The evaluation depth a time budget affords, from the timings measured
/// on this project's machine (the table in the module's docs): a `move`
/// takes about 10 ms at 0- and 1-ply, 0.05 to 0.4 s at 2-ply and 0.5 to
/// 1.6 s at 3-ply for the opening, more for a double in a middle game.
/// Each step is taken only with a wide margin, since a process that
/// overruns its deadline by more than the pool's grace is killed.
pub fn plies_for_budget(budget: Duration) -> u8 {
    match budget.as_millis() {
        0..=99 => 0,
        100..=899 => 1,
        // From 0.9 s, so that the default second (less the wait for a
        // process) gets gnubg's own default, 2-ply.
        900..=7999 => 2,
        _ => 3,
    }
}

/// One request as the bridge reads it.
pub(crate) fn request(id: u64, op: &str, situation: &Situation, plies: u8, noise: f64, dice: Option<[u8; 2]>) -> Value {
    let owner = match situation.cube.owner {
        CubeOwner::Me => "me",
        CubeOwner::Opponent => "opponent",
        CubeOwner::Centre => "centre",
    };
    let mut request = json!({
        "id": id,
        "op": op,
        "position": situation.position,
        "cube": {"value": situation.cube.value, "owner": owner},
        "rules": {"jacoby": situation.jacoby, "beavers": situation.beavers},
        "plies": plies,
        "noise": noise,
    });
    if let Some(m) = &situation.match_state {
        request["match"] = json!({
            "length": m.length,
            "score": {"me": m.score_me, "opponent": m.score_opponent},
            "crawford": m.crawford,
        });
    }
    if let Some(dice) = dice {
        request["dice"] = json!(dice);
    }
    request
}

/// Chances of the side named (win, and the gammons and backgammons each
/// way; the gammon figures include the backgammons, as gnubg gives them).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Probabilities {
    pub win: f64,
    pub win_gammon: f64,
    pub win_backgammon: f64,
    pub lose_gammon: f64,
    pub lose_backgammon: f64,
}

/// One checker's move in the mover's numbering: points 1..24, [`BAR`] as
/// `from`, [`OFF`] as `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u8; 2]", into = "[u8; 2]")]
pub struct CheckerMove {
    pub from: u8,
    pub to: u8,
}

impl From<[u8; 2]> for CheckerMove {
    fn from([from, to]: [u8; 2]) -> Self {
        CheckerMove { from, to }
    }
}

impl From<CheckerMove> for [u8; 2] {
    fn from(m: CheckerMove) -> Self {
        [m.from, m.to]
    }
}

/// What gnubg's classifier calls the position (which evaluator it used):
/// the bear-off classes are its databases (the two-sided one exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionClass {
    Over,
    Hypergammon,
    BearoffTwoSided,
    BearoffOneSided,
    Race,
    Crashed,
    Contact,
    #[serde(other)]
    Unknown,
}

/// One legal play with gnubg's evaluation of it, from the mover's view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Play {
    /// gnubg's notation, e.g. `24/18 13/11*`, `8/5(2) 6/3(2)`, `bar/22`;
    /// empty for the empty play (no legal move).
    #[serde(rename = "move")]
    pub text: String,
    /// The checker moves, one per die used.
    #[serde(rename = "play")]
    pub steps: Vec<CheckerMove>,
    /// The Position ID after the play, with the opponent on roll (as gnubg
    /// shows it once the move is made).
    #[serde(rename = "position")]
    pub position_after: String,
    /// The depth this play was evaluated at: gnubg's move filter takes
    /// only the best few on to the deeper plies.
    pub plies: u8,
    /// Cubeful equity, normalized to the cube's value (+1: a single game
    /// won); in match play gnubg's normalized match equity (EMG).
    pub equity: f64,
    pub cubeless_equity: f64,
    /// Match play: the mover's match-winning chance after the play.
    pub mwc: Option<f64>,
    pub probabilities: Probabilities,
}

/// Every legal play for a roll, ranked as gnubg ranks them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    pub class: PositionClass,
    /// Best first: the plays evaluated at the deepest ply, by equity, then
    /// those gnubg's move filter left shallower, by equity. Never empty:
    /// without a legal move, the one empty play.
    pub plays: Vec<Play>,
    /// The depth asked of gnubg (the best plays' depth).
    #[serde(default)]
    pub plies: u8,
    /// gnubg's own time for the answer.
    pub elapsed_ms: f64,
}

/// The side on roll's cube action before rolling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeAction {
    NoDouble,
    Double,
    Redouble,
}

/// The opponent's right answer to a double.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeResponse {
    Take,
    Pass,
    Beaver,
}

/// The equity of each cube choice, for the side on roll, normalized to
/// the current cube (a pass is +1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CubeEquities {
    pub no_double: f64,
    pub double_take: f64,
    pub double_pass: f64,
}

/// gnubg's cube decision for the side on roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CubeDecision {
    pub class: PositionClass,
    pub action: CubeAction,
    /// No double because the position is too good: playing on for a
    /// gammon is worth more than the opponent's pass.
    pub too_good: bool,
    /// None when the side on roll may not double (the opponent owns the
    /// cube, the Crawford game).
    pub response: Option<CubeResponse>,
    /// Doubling and not are worth the same (gnubg's "optional double").
    pub optional: bool,
    /// False when the side on roll may not double.
    pub available: bool,
    /// gnubg's words, e.g. "Double, pass".
    pub text: String,
    pub equities: CubeEquities,
    /// The equity under the right action.
    pub equity: f64,
    pub mwc: Option<f64>,
    pub cubeless_equity: f64,
    /// The side on roll's chances before rolling.
    pub probabilities: Probabilities,
    #[serde(default)]
    pub plies: u8,
    pub elapsed_ms: f64,
}

/// A position's value for the side on roll, before rolling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    pub class: PositionClass,
    /// Cubeful, under the right cube action.
    pub equity: f64,
    /// Cubeful, if the side on roll does not double.
    pub no_double_equity: f64,
    pub mwc: Option<f64>,
    pub cubeless_equity: f64,
    pub probabilities: Probabilities,
    #[serde(default)]
    pub plies: u8,
    pub elapsed_ms: f64,
}

/// An answer line: the result, or the bridge's reason for none.
#[derive(Debug, Deserialize)]
pub(crate) struct Answer {
    pub id: Option<u64>,
    pub ok: Option<Value>,
    pub error: Option<String>,
    pub message: Option<String>,
}

/// The bridge's greeting once gnubg is ready.
#[derive(Debug, Deserialize)]
pub(crate) struct Ready {
    pub ready: bool,
    pub protocol: u32,
}

/// The protocol version this kibitz speaks (bridge.py's `PROTOCOL`).
pub(crate) const PROTOCOL: u32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_buys_plies_in_steps() {
        assert_eq!(plies_for_budget(Duration::from_millis(20)), 0);
        assert_eq!(plies_for_budget(Duration::from_millis(500)), 1);
        assert_eq!(plies_for_budget(Duration::from_millis(990)), 2);
        assert_eq!(plies_for_budget(Duration::from_secs(2)), 2);
        assert_eq!(plies_for_budget(Duration::from_secs(30)), 3);
    }

    #[test]
    fn a_request_carries_the_match_only_in_match_play() {
        let mut situation = Situation {
            position: "4HPwATDgc/ABMA".into(),
            ..Situation::default()
        };
        let money = request(1, "move", &situation, 2, 0.0, Some([3, 1]));
        assert!(money.get("match").is_none());
        assert_eq!(money["dice"], json!([3, 1]));
        assert_eq!(money["cube"]["owner"], "centre");
        situation.match_state = Some(MatchState {
            length: 7,
            score_me: 2,
            score_opponent: 6,
            crawford: true,
        });
        let r = request(2, "cube", &situation, 0, 0.0, None);
        assert_eq!(r["match"]["score"]["opponent"], 6);
        assert!(r.get("dice").is_none());
    }

    #[test]
    fn a_play_reads_the_bridge_shape() {
        let line = r#"{"move":"bar/22 13/11*","play":[[25,22],[13,11]],"position":"4HPwATDgc/ABMA","plies":2,
            "equity":0.1,"cubeless_equity":0.05,"mwc":null,"probabilities":{"win":0.5,"win_gammon":0.1,
            "win_backgammon":0.0,"lose_gammon":0.1,"lose_backgammon":0.0}}"#;
        let play: Play = serde_json::from_str(line).unwrap();
        assert_eq!(play.steps[0], CheckerMove { from: BAR, to: 22 });
        assert_eq!(play.text, "bar/22 13/11*");
    }
}
