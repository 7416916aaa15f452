//! Two-player Pig with one die: the rules, as both variants define them.
//!
//! A turn: roll; a 1 ends the turn, banking nothing ("standard") or exactly
//! one point ("progressive", where every turn scores, so the game cannot
//! cycle); any other face adds to the turn total; holding banks the turn
//! total (at least 1 in the progressive variant). First to `goal` wins.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub const MIN_DIE_SIDES: u32 = 2;
pub const MAX_DIE_SIDES: u32 = 12;
pub const MIN_GOAL: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The parameters of one game of Pig, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PigRules {
    goal: u32,
    die_sides: u32,
    variant: Variant,
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
pub struct PigState {
    pub my_score: u32,
    pub opponent_score: u32,
    pub turn_total: u32,
}

impl PigState {
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
        let err = PigState::new(&r, 10, 100, 0).unwrap_err();
        assert!(err.to_string().contains("opponent_score"), "{err}");
        assert!(PigState::new(&r, -1, 0, 0)
            .unwrap_err()
            .to_string()
            .contains("my_score"));
        assert!(PigState::new(&r, 99, 99, 106).is_ok());
        assert!(PigState::new(&r, 99, 99, 107).is_err());
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
}
