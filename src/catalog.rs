//! The game catalog (`GET /games`): every game kibitz serves, its options
//! with their types, defaults and bounds, its arena strategies, where it is
//! served and how exact its answers are. A frontend reads it to build its
//! game list and option forms. The tests hold each entry to the code that
//! serves it: defaults to what a new match fills in, strategies to what the
//! arena parses, option names to what the endpoints accept.

use serde::Serialize;
use serde_json::Value;

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

/// The default of the option `name`: its value in the game's options
/// type's default, so that the catalog shows what a match fills in.
pub fn default_of<O: serde::Serialize + Default>(name: &str) -> Value {
    serde_json::to_value(O::default())
        .ok()
        .and_then(|options| options.get(name).cloned())
        .unwrap_or(Value::Null)
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

pub const MATCHES: Option<&str> = Some("/matches");
pub const BATCH: &str = "/analyze";
