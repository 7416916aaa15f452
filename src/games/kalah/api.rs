//! `POST /kalah/move`: the request and answer shapes, and the answer to
//! one position.

use serde::{Deserialize, Serialize};

use super::rules::{Capture, KalahState, Layout, Player, Rules};
use super::solve::{analyze_reporting, evaluation, Analysis};
use crate::core::evaluation::Evaluation;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::limits::SearchLimits;
use crate::solve::lines::Lines;
use crate::solve::run::{run_search_cheap_first, Attempt, SearchBudget, SharedDeadline};
use crate::solve::solvers::{GameSolver, MemoSizes};
use crate::solve::table::SharedTable;

/// Kalah's searches and the transposition table they share.
pub struct KalahSolver {
    table: SharedTable,
}

impl GameSolver for KalahSolver {
    fn build(sizes: &MemoSizes) -> Self {
        // The second table share holds the endgame tables.
        super::endgame::set_budget(
            sizes
                .table_entries
                .saturating_mul(crate::config::budget::TABLE_ENTRY_BYTES),
        );
        KalahSolver {
            table: SharedTable::new(sizes.table_entries),
        }
    }
}

impl KalahSolver {
    /// Every legal house's value within `limits`: from the compiled book
    /// where it holds the position, else searched.
    pub fn analyze(&self, position: &KalahState, limits: &SearchLimits) -> Analysis {
        self.analyze_reporting(position, limits, None)
    }

    /// As [`KalahSolver::analyze`], telling `report` each step of a search
    /// (a book answer has none).
    pub fn analyze_reporting(
        &self,
        position: &KalahState,
        limits: &SearchLimits,
        report: Option<&mut dyn FnMut(&Analysis)>,
    ) -> Analysis {
        super::book::lookup(position).unwrap_or_else(|| analyze_reporting(position, &self.table, limits, report))
    }
}

/// The board as a client sends it: each side's houses in its own sowing
/// order (`south[i]` faces `north[m - 1 - i]`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub south: Vec<u32>,
    pub north: Vec<u32>,
    pub south_store: u32,
    pub north_store: u32,
}

/// The request; other fields are ignored, as every game's are (a batch's
/// positions carry their `game`).
#[derive(Deserialize)]
pub struct MoveRequest {
    board: Board,
    to_move: Side,
    #[serde(default)]
    capture: CaptureRule,
    max_ms: Option<u64>,
}

/// A side, as the API names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    South,
    North,
}

impl From<Side> for Player {
    fn from(side: Side) -> Player {
        match side {
            Side::South => Player::South,
            Side::North => Player::North,
        }
    }
}

impl From<Player> for Side {
    fn from(player: Player) -> Side {
        match player {
            Player::South => Side::South,
            Player::North => Side::North,
        }
    }
}

/// The capture rule, as the API names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureRule {
    /// A last seed in an own empty house captures only when the opposite
    /// house has seeds.
    #[default]
    Standard,
    /// It always captures (Irving, Donkers and Uiterwijk's rule).
    Empty,
}

impl From<CaptureRule> for Capture {
    fn from(rule: CaptureRule) -> Capture {
        match rule {
            CaptureRule::Standard => Capture::Standard,
            CaptureRule::Empty => Capture::Empty,
        }
    }
}

impl From<Capture> for CaptureRule {
    fn from(rule: Capture) -> CaptureRule {
        match rule {
            Capture::Standard => CaptureRule::Standard,
            Capture::Empty => CaptureRule::Empty,
        }
    }
}

#[derive(Clone, Copy, Serialize)]
pub struct HouseMove {
    house: u8,
}

#[derive(Serialize)]
pub struct HouseScore {
    house: u8,
    score: i32,
    solved: bool,
    evaluation: Evaluation,
}

#[derive(Serialize)]
pub struct PlyStep {
    house: u8,
    player: Side,
}

#[derive(Serialize)]
pub struct MoveResponse {
    player: Side,
    #[serde(rename = "move")]
    chosen: HouseMove,
    score: i32,
    outcome: Option<&'static str>,
    solved: bool,
    depth: u32,
    nodes: u64,
    moves: Vec<HouseScore>,
    principal_variation: Vec<PlyStep>,
    evaluation: Evaluation,
}

/// The position of `board` with `to_move` to play: its rules from the
/// board's width, its seeds per house at the start taken as the board's
/// average (only the opening book reads it), `capture` as asked.
pub fn position_of(board: &Board, to_move: Side, capture: CaptureRule) -> Result<KalahState, String> {
    let houses = u32::try_from(board.south.len()).unwrap_or(u32::MAX);
    if board.south.len() != board.north.len() {
        return Err(format!(
            "board.south has {} houses and board.north {}; both rows need the same number (1 to 8)",
            board.south.len(),
            board.north.len()
        ));
    }
    let on_board: u64 = board
        .south
        .iter()
        .chain(&board.north)
        .chain([&board.south_store, &board.north_store])
        .map(|&n| u64::from(n))
        .sum();
    let per_house = (on_board / u64::from(2 * houses.max(1))).clamp(1, 8) as u32;
    let rules = Rules::new(houses, per_house, capture.into()).map_err(|e| format!("board: {e}"))?;
    let layout = Layout {
        south: board.south.clone(),
        north: board.north.clone(),
        south_store: board.south_store,
        north_store: board.north_store,
        to_move: to_move.into(),
    };
    KalahState::from_board(rules, &layout).map_err(|e| format!("board: {e}"))
}

pub fn response(analysis: &Analysis) -> MoveResponse {
    // A solved line runs to the end of the game, one step a ply.
    let plies_to_end = u32::try_from(analysis.principal_variation.len()).ok();
    let overall = evaluation(
        analysis.value,
        analysis.solved,
        plies_to_end.filter(|_| analysis.solved),
    );
    MoveResponse {
        player: analysis.player.into(),
        chosen: HouseMove {
            house: analysis.best.unwrap_or(0),
        },
        score: analysis.value,
        outcome: overall.outcome.map(|o| o.name()),
        solved: analysis.solved,
        depth: analysis.depth,
        nodes: analysis.nodes,
        moves: analysis
            .houses
            .iter()
            .map(|h| HouseScore {
                house: h.house,
                score: h.value,
                solved: h.solved,
                evaluation: evaluation(h.value, h.solved, None),
            })
            .collect(),
        principal_variation: analysis
            .principal_variation
            .iter()
            .map(|s| PlyStep {
                house: s.house,
                player: s.player.into(),
            })
            .collect(),
        evaluation: overall,
    }
}

/// The answer to a request, for the route and for a batch (whose `shared`
/// deadline the search keeps to); each step of the search goes to `lines`
/// when the client streams.
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<MoveResponse, Problem> {
    let position = position_of(&request.board, request.to_move, request.capture).map_err(Problem::unprocessable)?;
    let solver = services.solvers.of::<KalahSolver>();
    let analysis = run_search_cheap_first(
        &services.config,
        &services.search_pool,
        "kalah",
        SearchBudget::own(request.max_ms).within(shared),
        |a: &Analysis| a.solved,
        move |limits, attempt| match (&lines, attempt) {
            (Some(lines), Attempt::Pool) => {
                solver.analyze_reporting(&position, limits, Some(&mut |a: &Analysis| lines.send(&response(a))))
            }
            _ => solver.analyze(&position, limits),
        },
    )
    .await?;
    Ok(response(&analysis))
}
