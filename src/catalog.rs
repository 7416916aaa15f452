//! The game catalog (`GET /games`): every game kibitz serves, its options
//! with their types, defaults and bounds, its arena strategies, where it is
//! served and how exact its answers are. A frontend reads it to build its
//! game list and option forms. The tests hold each entry to the code that
//! serves it: defaults to what a new match fills in, strategies to what the
//! arena parses, option names to what the endpoints accept.

use serde::Serialize;
use serde_json::{json, Value};

use crate::arena::strategy::names;
use crate::games::connect_four;
use crate::games::number_square::{MAX_SIZE, MIN_SIZE};
use crate::games::pig::{MAX_DIE_SIDES, MIN_DIE_SIDES, MIN_GOAL};
use crate::games::tictactoe::MAX_SIDE;
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

fn integer(name: &'static str, default: Value, range: (u64, u64), description: &'static str) -> GameOption {
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

fn other(name: &'static str, kind: &'static str, default: Value, description: &'static str) -> GameOption {
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

const MATCHES: Option<&str> = Some("/matches");
const BATCH: &str = "/analyze";

/// Every game, in the order a menu would show them. `pig_max_goal` is the
/// server's configured bound.
pub fn catalog(pig_max_goal: u32) -> Vec<GameEntry> {
    let side = (1, MAX_SIDE as u64);
    vec![
        GameEntry {
            id: "pig",
            name: "Pig",
            summary: "Roll a die to build a turn total, hold to bank it; a 1 loses the turn's points. First to the goal wins.",
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
                integer("goal", json!(100), (u64::from(MIN_GOAL), u64::from(pig_max_goal)), "Points to win."),
                integer("die_sides", json!(6), (u64::from(MIN_DIE_SIDES), u64::from(MAX_DIE_SIDES)), "Faces of the die."),
                GameOption {
                    allowed: Some(vec!["standard", "progressive"]),
                    ..other("variant", "string", json!("standard"), "progressive: a 1 banks exactly 1 point.")
                },
            ],
            strategies: names(GameKind::Pig),
        },
        GameEntry {
            id: "tictactoe",
            name: "Tic-tac-toe (m,n,k)",
            summary: "Place X and O in turn; k in a row (across, down or diagonally) wins. X moves first.",
            players: 2,
            chance: false,
            solved_by: "exact on 3x3 and 4x4; exact within max_ms on small boards, else the best found with proved results marked",
            endpoints: Endpoints {
                batch: BATCH,
                analysis: "/tictactoe/move",
                matches: MATCHES,
                review: Some("/tictactoe/review"),
            },
            options: vec![
                integer("rows", json!(3), side, "Rows of the board."),
                integer("cols", json!(3), side, "Columns of the board."),
                integer("k", Value::Null, side, "In a row to win; default the longer side up to 5x5, else 5."),
            ],
            strategies: names(GameKind::Tictactoe),
        },
        GameEntry {
            id: "ishitori",
            name: "Ishitori (subtraction games)",
            summary: "Take an allowed number of stones from a heap in turn; with misere the last taker loses.",
            players: 2,
            chance: false,
            solved_by: "exact: the periodic win/loss rule of the take set, any heap up to 2^64-1",
            endpoints: Endpoints {
                batch: BATCH,
                analysis: "/ishitori/move",
                matches: MATCHES,
                review: Some("/ishitori/review"),
            },
            options: vec![
                integer("remaining", json!(21), (0, u64::MAX), "One heap's size (or give heaps); a decimal string is accepted too."),
                other("heaps", "array", Value::Null, "Several heap sizes instead of remaining."),
                other("take", "array", json!([1, 2, 3]), "The amounts a move may take (distinct positive integers)."),
                other("misere", "boolean", json!(true), "true: whoever takes the last stone loses."),
            ],
            strategies: names(GameKind::Ishitori),
        },
        GameEntry {
            id: "number-square",
            name: "Number Square (Persegi Bilangan)",
            summary: "Take numbered tiles from the edge inwards; a path of taken tiles across the board ends the game. Higher total wins.",
            players: 2,
            chance: false,
            solved_by: "exact within max_ms (from the first move on 4x4), else the best found at the depth reached",
            endpoints: Endpoints {
                batch: BATCH,
                analysis: "/number-square/move",
                matches: MATCHES,
                review: None,
            },
            options: vec![
                integer("size", json!(8), (MIN_SIZE as u64, MAX_SIZE as u64), "Side of the board dealt 1..size^2 shuffled."),
                other("board", "array", Value::Null, "A given N x N board of integers instead of a dealt one."),
            ],
            strategies: names(GameKind::NumberSquare),
        },
        GameEntry {
            id: "nine-square",
            name: "Nine Square",
            summary: "Roll a die and place that many marks on a 9x9 grid of nine boxes; lines of three in a box and of nine across score.",
            players: 2,
            chance: true,
            solved_by: "estimate: a dice-aware search with chance nodes, exact in the endgame",
            endpoints: Endpoints {
                batch: BATCH,
                analysis: "/nine-square/move",
                matches: MATCHES,
                review: None,
            },
            options: vec![],
            strategies: names(GameKind::NineSquare),
        },
        GameEntry {
            id: "connect-four",
            name: "Connect Four",
            summary: "Drop stones into columns in turn; k in a line (across, down or diagonally) wins. X moves first.",
            players: 2,
            chance: false,
            solved_by: "exact within max_ms (7x6 positions of 15+ stones within the default second), else estimates marked solved: false",
            endpoints: Endpoints {
                batch: BATCH,
                analysis: "/connect-four/move",
                matches: MATCHES,
                review: Some("/connect-four/review"),
            },
            options: vec![
                integer(
                    "cols",
                    json!(connect_four::DEFAULT_COLS),
                    (u64::from(connect_four::MIN_SIDE), u64::from(connect_four::MAX_SIDE)),
                    "Columns of the grid.",
                ),
                integer(
                    "rows",
                    json!(connect_four::DEFAULT_ROWS),
                    (u64::from(connect_four::MIN_SIDE), u64::from(connect_four::MAX_SIDE)),
                    "Rows of the grid.",
                ),
                integer(
                    "k",
                    json!(connect_four::DEFAULT_K),
                    (u64::from(connect_four::MIN_K), u64::from(connect_four::MAX_SIDE)),
                    "In a line to win, at most the grid's longer side.",
                ),
            ],
            strategies: names(GameKind::ConnectFour),
        },
    ]
}
