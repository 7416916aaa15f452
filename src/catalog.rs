//! The game catalog (`GET /games`): every game kibitz serves, its options
//! with their types, defaults and bounds, its arena strategies, where it is
//! served and how exact its answers are. A frontend reads it to build its
//! game list and option forms. The tests hold each entry to the code that
//! serves it: defaults to what a new match fills in, strategies to what the
//! arena parses, option names to what the endpoints accept.

use serde::Serialize;
use serde_json::{json, Value};

use crate::arena::strategy::names;
use crate::games::pig::{MAX_DIE_SIDES, MIN_DIE_SIDES, MIN_GOAL};
use crate::matches::GameKind;

#[derive(Clone, Debug, Serialize)]
pub struct GameEntry {
    /// The name `/matches` and `/arena` use.
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub players: u8,
    /// Whether dice decide part of the game.
    pub chance: bool,
    pub solved_by: &'static str,
    pub endpoints: Endpoints,
    pub options: Vec<GameOption>,
    /// Arena strategy names (`N` stands for a number).
    pub strategies: Vec<&'static str>,
    /// False when what the game needs is missing on this server (chess
    /// without its engine): its requests then answer 503 saying why.
    pub available: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Endpoints {
    /// The stateless analysis endpoint.
    pub analysis: &'static str,
    /// `/matches` when the game can be played as a match, else null.
    pub matches: Option<&'static str>,
    /// The stateless review endpoint, when there is one (every game's
    /// matches are reviewed at `/matches/{id}/review`, these or not).
    pub review: Option<&'static str>,
    /// `/analyze`: many positions of any games in one request, each named
    /// by its `id` as `game`.
    pub batch: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameOption {
    pub name: &'static str,
    /// "integer", "string", "boolean" or "array".
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Null when the default depends on other options (said in `description`).
    pub default: Value,
    pub minimum: Option<u64>,
    pub maximum: Option<u64>,
    /// The only values accepted, where there is such a list.
    pub allowed: Option<Vec<&'static str>>,
    pub description: &'static str,
}

pub fn integer(name: &'static str, default: Value, range: (u64, u64), description: &'static str) -> GameOption {
    GameOption {
        name,
        kind: "integer",
        default,
        minimum: Some(range.0),
        maximum: Some(range.1),
        allowed: None,
        description,
    }
}

pub fn other(name: &'static str, kind: &'static str, default: Value, description: &'static str) -> GameOption {
    GameOption {
        name,
        kind,
        default,
        minimum: None,
        maximum: None,
        allowed: None,
        description,
    }
}

/// The games whose entries are still written here (the registry's follow
/// them in the menu).
pub const LEGACY_IDS: [&str; 1] = ["pig"];

pub const MATCHES: Option<&str> = Some("/matches");
pub const BATCH: &str = "/analyze";

/// Every game, in the order a menu would show them. `pig_max_goal` is the
/// server's configured bound.
pub fn catalog(pig_max_goal: u32) -> Vec<GameEntry> {
    vec![GameEntry {
        id: "pig",
        name: "Pig",
        summary:
            "Roll a die to build a turn total, hold to bank it; a 1 loses the turn's points. First to the goal wins.",
        players: 2,
        chance: true,
        solved_by: "exact: win probabilities from a table solved (or loaded) at start-up",
        endpoints: Endpoints {
            batch: BATCH,
            analysis: "/pig/decision",
            matches: MATCHES,
            review: Some("/pig/review"),
        },
        options: vec![
            integer(
                "goal",
                json!(100),
                (u64::from(MIN_GOAL), u64::from(pig_max_goal)),
                "Points to win.",
            ),
            integer(
                "die_sides",
                json!(6),
                (u64::from(MIN_DIE_SIDES), u64::from(MAX_DIE_SIDES)),
                "Faces of the die.",
            ),
            GameOption {
                allowed: Some(vec!["standard", "progressive"]),
                ..other(
                    "variant",
                    "string",
                    json!("standard"),
                    "progressive: a 1 banks exactly 1 point.",
                )
            },
        ],
        strategies: names(GameKind::Pig),
        available: true,
    }]
}
