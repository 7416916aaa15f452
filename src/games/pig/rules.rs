//! The rules of the game: positions, moves, the end of the game.
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::core::game::{self, GameOutcome, Seat, Turn};

pub const MIN_DIE_SIDES: u32 = 2;
pub const MAX_DIE_SIDES: u32 = 12;
pub const MIN_GOAL: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    Standard,
    Progressive,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Progressive];

    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Progressive => "progressive",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Variant {
    type Err = PigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "standard" => Ok(Variant::Standard),
            "progressive" => Ok(Variant::Progressive),
            other => Err(PigError::UnknownVariant(other.to_string())),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Roll,
    Hold,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Roll => "roll",
            Action::Hold => "hold",
        }
    }
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PigError {
    #[error("goal must be between {MIN_GOAL} and {max} (got {got})")]
    GoalOutOfRange { got: i64, max: u32 },
    #[error("die_sides must be between {MIN_DIE_SIDES} and {MAX_DIE_SIDES} (got {0})")]
    DieSidesOutOfRange(i64),
    #[error("variant must be \"standard\" or \"progressive\" (got \"{0}\")")]
    UnknownVariant(String),
    #[error("{field} must be an integer >= 0 (got {got})")]
    Negative { field: &'static str, got: i64 },
    #[error("the game is already over: {field} is {score}, which reaches the goal of {goal}")]
    GameOver { field: &'static str, score: u64, goal: u32 },
    #[error("turn_total {turn_total} is larger than any turn can reach before the goal ({max})")]
    TurnTotalTooLarge { turn_total: u64, max: u64 },
}

/// Pig's options, as `/pig/decision`, `/pig/policy`, matches, reviews and
/// the catalog read them; absent ones are the standard game.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub goal: Option<i64>,
    pub die_sides: Option<i64>,
    pub variant: Option<String>,
}

const DEFAULT_GOAL: i64 = 100;
const DEFAULT_DIE_SIDES: i64 = 6;

impl Default for Options {
    fn default() -> Self {
        Options {
            goal: Some(DEFAULT_GOAL),
            die_sides: Some(DEFAULT_DIE_SIDES),
            variant: Some(Variant::Standard.as_str().to_string()),
        }
    }
}

impl Options {
    /// The rules of these options (goals up to `max_goal`).
    pub fn rules(&self, max_goal: u32) -> Result<PigRules, PigError> {
        rules_of(self.goal, self.die_sides, self.variant.as_deref(), max_goal)
    }

    pub fn of(rules: &PigRules) -> Options {
        Options {
            goal: Some(i64::from(rules.goal())),
            die_sides: Some(i64::from(rules.die_sides())),
            variant: Some(rules.variant().as_str().to_string()),
        }
    }
}

/// The rules of options given field by field (absent: the default). The
/// variant is read before the numbers, so a request wrong in both is told
/// about the variant.
pub fn rules_of(
    goal: Option<i64>,
    die_sides: Option<i64>,
    variant: Option<&str>,
    max_goal: u32,
) -> Result<PigRules, PigError> {
    let variant: Variant = variant.unwrap_or(Variant::Standard.as_str()).parse()?;
    PigRules::new(
        goal.unwrap_or(DEFAULT_GOAL),
        die_sides.unwrap_or(DEFAULT_DIE_SIDES),
        variant,
        max_goal,
    )
}

/// The parameters of one game of Pig, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "StoredRules")]
pub struct PigRules {
    goal: u32,
    die_sides: u32,
    variant: Variant,
}

/// Rules read back from storage, checked again against the game's own
/// bounds (the server's goal bound held when they were first made).
#[derive(serde::Deserialize)]
struct StoredRules {
    goal: u32,
    die_sides: u32,
    variant: Variant,
}

impl TryFrom<StoredRules> for PigRules {
    type Error = PigError;

    fn try_from(stored: StoredRules) -> Result<PigRules, PigError> {
        PigRules::new(stored.goal.into(), stored.die_sides.into(), stored.variant, u32::MAX)
    }
}

impl PigRules {
    /// `max_goal` is the server's configured bound (tables grow as goal^3).
    pub fn new(goal: i64, die_sides: i64, variant: Variant, max_goal: u32) -> Result<Self, PigError> {
        let goal = u32::try_from(goal)
            .ok()
            .filter(|g| (MIN_GOAL..=max_goal).contains(g))
            .ok_or(PigError::GoalOutOfRange {
                got: goal,
                max: max_goal,
            })?;
        let die_sides = u32::try_from(die_sides)
            .ok()
            .filter(|d| (MIN_DIE_SIDES..=MAX_DIE_SIDES).contains(d))
            .ok_or(PigError::DieSidesOutOfRange(die_sides))?;
        Ok(Self {
            goal,
            die_sides,
            variant,
        })
    }

    pub fn goal(&self) -> u32 {
        self.goal
    }

    pub fn die_sides(&self) -> u32 {
        self.die_sides
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// What a turn banks when it ends by holding with `turn_total`.
    pub fn banked_on_hold(&self, turn_total: u32) -> u32 {
        match self.variant {
            Variant::Standard => turn_total,
            Variant::Progressive => turn_total.max(1),
        }
    }

    /// What a turn banks when a 1 is rolled.
    pub fn banked_on_one(&self) -> u32 {
        match self.variant {
            Variant::Standard => 0,
            Variant::Progressive => 1,
        }
    }
}

/// A position with the player to move first: it cannot be a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PigPosition {
    pub my_score: u32,
    pub opponent_score: u32,
    pub turn_total: u32,
}

impl PigPosition {
    pub fn new(rules: &PigRules, my_score: i64, opponent_score: i64, turn_total: i64) -> Result<Self, PigError> {
        let my = non_negative("my_score", my_score)?;
        let opponent = non_negative("opponent_score", opponent_score)?;
        let turn = non_negative("turn_total", turn_total)?;
        let goal = rules.goal();
        for (field, score) in [("my_score", my), ("opponent_score", opponent)] {
            if score >= u64::from(goal) {
                return Err(PigError::GameOver { field, score, goal });
            }
        }
        // Beyond goal + die_sides no turn total can arise; anything at or past
        // the goal behaves the same (hold and win), so clamp rather than refuse
        // only when it is reachable.
        let reachable = u64::from(goal) + u64::from(rules.die_sides());
        if turn > reachable {
            return Err(PigError::TurnTotalTooLarge {
                turn_total: turn,
                max: reachable,
            });
        }
        Ok(Self {
            my_score: my as u32,
            opponent_score: opponent as u32,
            turn_total: turn as u32,
        })
    }

    /// True when holding now reaches the goal.
    pub fn can_win_by_holding(&self, rules: &PigRules) -> bool {
        self.my_score + rules.banked_on_hold(self.turn_total) >= rules.goal()
    }
}

fn non_negative(field: &'static str, value: i64) -> Result<u64, PigError> {
    u64::try_from(value).map_err(|_| PigError::Negative { field, got: value })
}

/// What happens to a turn when a die shows `face`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollOutcome {
    /// The turn goes on with this turn total.
    Continue { turn_total: u32 },
    /// A 1: the turn ends and this much is banked.
    TurnOver { banked: u32 },
}

pub fn roll_outcome(rules: &PigRules, turn_total: u32, face: u32) -> RollOutcome {
    if face <= 1 {
        RollOutcome::TurnOver {
            banked: rules.banked_on_one(),
        }
    } else {
        RollOutcome::Continue {
            turn_total: turn_total + face,
        }
    }
}

/// Far beyond any real turn (a player may roll on past a winning hold);
/// keeps the arithmetic clear of overflow.
pub const MAX_TURN_TOTAL: u32 = 1_000_000_000;

/// A decision or a die's face, as the [`game::Game`] trait plays them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PigMove {
    Roll,
    Hold,
    /// The face the rolled die shows (a chance outcome).
    Face(u32),
}

/// A game of Pig through the [`game::Game`] trait: both scores, the turn
/// total of the seat to move, and whether its die is in the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PigState {
    rules: PigRules,
    scores: [u32; 2],
    turn_total: u32,
    to_move: Seat,
    rolling: bool,
    last_roll: Option<u32>,
}

impl PigState {
    /// A new game; seat 0 moves first.
    pub fn new(rules: PigRules) -> Self {
        Self::resume(rules, [0, 0], 0, 0, None)
    }

    /// A game in progress: `to_move` decides with `turn_total` this turn.
    pub fn resume(rules: PigRules, scores: [u32; 2], turn_total: u32, to_move: Seat, last_roll: Option<u32>) -> Self {
        Self {
            rules,
            scores,
            turn_total,
            to_move,
            rolling: false,
            last_roll,
        }
    }

    pub fn rules(&self) -> &PigRules {
        &self.rules
    }

    pub fn score(&self, seat: Seat) -> u32 {
        self.scores[seat & 1]
    }

    /// The seat deciding now (or whose die is in the air).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The turn total of the seat to move (0 between turns and at the end).
    pub fn turn_total(&self) -> u32 {
        self.turn_total
    }

    /// The last face any die showed.
    pub fn last_roll(&self) -> Option<u32> {
        self.last_roll
    }

    fn winner(&self) -> Option<Seat> {
        (0..2).find(|&seat| self.scores[seat] >= self.rules.goal())
    }

    fn end_turn(&mut self, banked: u32) {
        let seat = self.to_move & 1;
        self.scores[seat] = self.scores[seat].saturating_add(banked);
        self.turn_total = 0;
        if self.winner().is_none() {
            self.to_move = 1 - seat;
        }
    }
}

impl game::Game for PigState {
    type Move = PigMove;

    fn turn(&self) -> Turn {
        if self.winner().is_some() {
            Turn::Over
        } else if self.rolling {
            Turn::Chance
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn legal_moves(&self) -> Vec<PigMove> {
        match self.turn() {
            Turn::Player(_) if self.turn_total < MAX_TURN_TOTAL - MAX_DIE_SIDES => vec![PigMove::Roll, PigMove::Hold],
            Turn::Player(_) => vec![PigMove::Hold],
            Turn::Chance | Turn::Over => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(PigMove, f64)> {
        if self.turn() != Turn::Chance {
            return Vec::new();
        }
        let sides = self.rules.die_sides();
        (1..=sides)
            .map(|face| (PigMove::Face(face), 1.0 / f64::from(sides)))
            .collect()
    }

    fn play(&mut self, mv: PigMove) {
        match (self.turn(), mv) {
            (Turn::Player(_), PigMove::Roll) => self.rolling = true,
            (Turn::Player(_), PigMove::Hold) => self.end_turn(self.rules.banked_on_hold(self.turn_total)),
            (Turn::Chance, PigMove::Face(face)) => {
                self.rolling = false;
                self.last_roll = Some(face);
                match roll_outcome(&self.rules, self.turn_total, face) {
                    RollOutcome::Continue { turn_total } => self.turn_total = turn_total,
                    RollOutcome::TurnOver { banked } => self.end_turn(banked),
                }
            }
            // Not a legal move: the trait's callers offer only legal ones (a
            // debug build says so; a release build leaves the game as it was).
            (turn, mv) => debug_assert!(false, "an illegal move was played: {mv:?} at {turn:?}"),
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        self.winner().map(GameOutcome::Won)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(goal: i64, sides: i64, variant: Variant) -> PigRules {
        PigRules::new(goal, sides, variant, 200).unwrap()
    }

    #[test]
    fn rules_refuse_out_of_range_parameters() {
        assert!(matches!(
            PigRules::new(0, 6, Variant::Standard, 200),
            Err(PigError::GoalOutOfRange { .. })
        ));
        assert!(matches!(
            PigRules::new(201, 6, Variant::Standard, 200),
            Err(PigError::GoalOutOfRange { .. })
        ));
        assert!(matches!(
            PigRules::new(100, 1, Variant::Standard, 200),
            Err(PigError::DieSidesOutOfRange(1))
        ));
        assert!(matches!(
            PigRules::new(100, 13, Variant::Standard, 200),
            Err(PigError::DieSidesOutOfRange(13))
        ));
        assert!("nope".parse::<Variant>().is_err());
    }

    #[test]
    fn a_score_at_the_goal_is_a_finished_game() {
        let r = rules(100, 6, Variant::Standard);
        let err = PigPosition::new(&r, 10, 100, 0).unwrap_err();
        assert!(err.to_string().contains("opponent_score"), "{err}");
        assert!(PigPosition::new(&r, -1, 0, 0)
            .unwrap_err()
            .to_string()
            .contains("my_score"));
        assert!(PigPosition::new(&r, 99, 99, 106).is_ok());
        assert!(PigPosition::new(&r, 99, 99, 107).is_err());
    }

    #[test]
    fn progressive_turns_always_bank_at_least_one() {
        let p = rules(10, 6, Variant::Progressive);
        let s = rules(10, 6, Variant::Standard);
        assert_eq!(p.banked_on_hold(0), 1);
        assert_eq!(s.banked_on_hold(0), 0);
        assert_eq!(roll_outcome(&p, 7, 1), RollOutcome::TurnOver { banked: 1 });
        assert_eq!(roll_outcome(&s, 7, 1), RollOutcome::TurnOver { banked: 0 });
        assert_eq!(roll_outcome(&s, 7, 5), RollOutcome::Continue { turn_total: 12 });
    }
    /// Random games through the `Game` trait against a plain simulation of
    /// the rules written here: the same scores, turn totals and winner.
    #[test]
    fn the_game_trait_plays_the_rules() {
        use crate::core::game::Game as _;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for variant in [Variant::Standard, Variant::Progressive] {
            for _ in 0..200 {
                let r = rules(30, 4, variant);
                let mut game = PigState::new(r);
                let (mut scores, mut total, mut mover) = ([0u32; 2], 0u32, 0usize);
                let one_banks = u32::from(variant == Variant::Progressive);
                let winner = loop {
                    if let Some(w) = (0..2).find(|&s| scores[s] >= 30) {
                        break w;
                    }
                    assert_eq!(game.turn(), Turn::Player(mover));
                    assert_eq!(
                        (game.score(0), game.score(1), game.turn_total()),
                        (scores[0], scores[1], total)
                    );
                    if rng.gen_bool(0.7) {
                        game.play(PigMove::Roll);
                        assert_eq!(game.turn(), Turn::Chance);
                        assert_eq!(game.chance_outcomes().len(), 4);
                        let face = rng.gen_range(1..=4);
                        game.play(PigMove::Face(face));
                        if face == 1 {
                            scores[mover] += one_banks;
                            total = 0;
                        } else {
                            total += face;
                            continue;
                        }
                    } else {
                        game.play(PigMove::Hold);
                        scores[mover] += if variant == Variant::Progressive {
                            total.max(1)
                        } else {
                            total
                        };
                        total = 0;
                    }
                    if scores[mover] < 30 {
                        mover = 1 - mover;
                    }
                };
                assert_eq!(game.turn(), Turn::Over);
                assert_eq!(game.result(), Some(GameOutcome::Won(winner)));
                assert!(game.legal_moves().is_empty());
            }
        }
    }
}
