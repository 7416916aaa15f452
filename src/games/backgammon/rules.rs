//! The rules of backgammon as plain data: the position and the plays
//! (beside this file, re-exported here), the end of a game and what it is
//! worth, the doubling cube and the score of a match.

pub use super::board::{Board, Dice, RulesError, Side, CHECKERS};
pub use super::plays::{find_play, legal_plays, single_step, Play, Step, BAR, OFF};
pub use super::position_id::POSITION_ID_LEN;

/// How a finished game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The loser had borne off at least one checker.
    Single,
    /// The loser had borne off none.
    Gammon,
    /// The loser had borne off none and still had a checker on the bar or
    /// in the winner's home board.
    Backgammon,
}

impl GameResult {
    /// Points won, times the cube's value.
    pub fn points(self) -> u32 {
        match self {
            GameResult::Single => 1,
            GameResult::Gammon => 2,
            GameResult::Backgammon => 3,
        }
    }
}

impl Board {
    /// Who has won and how, once a side has borne off all 15 checkers;
    /// None while the game goes on.
    pub fn result(&self) -> Option<(Side, GameResult)> {
        let winner = [Side::Me, Side::Opponent]
            .into_iter()
            .find(|&s| self.off(s) == CHECKERS)?;
        let loser = winner.other();
        if self.off(loser) > 0 {
            return Some((winner, GameResult::Single));
        }
        // The winner's home board in the mover's numbering.
        let home = match winner {
            Side::Me => 1..=6,
            Side::Opponent => 19..=24,
        };
        let stuck = self.bar(loser) > 0 || home.into_iter().any(|p| self.count(loser, p) > 0);
        Some((
            winner,
            if stuck {
                GameResult::Backgammon
            } else {
                GameResult::Gammon
            },
        ))
    }
}

/// Who may turn the cube next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeOwner {
    /// The side to move owns it (it was doubled and took).
    Me,
    Opponent,
    /// Nobody has doubled yet: either side may.
    Centre,
}

/// The doubling cube: its value (1 in the centre, 2, 4, ... once turned)
/// and its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    pub value: u32,
    pub owner: CubeOwner,
}

/// Highest cube value accepted (2^12: no real game gets near it, and the
/// points it multiplies stay small).
pub const MAX_CUBE: u32 = 4096;

impl Cube {
    /// A cube from the request's fields: a power of two up to
    /// [`MAX_CUBE`], 1 exactly when centred.
    pub fn new(value: i64, owner: CubeOwner) -> Result<Cube, RulesError> {
        if !(1..=i64::from(MAX_CUBE)).contains(&value) || value.count_ones() != 1 {
            return Err(RulesError::new(
                "cube.value",
                format!("{value} is not a power of two from 1 to {MAX_CUBE}"),
            ));
        }
        match (value, owner) {
            (1, CubeOwner::Centre) => {}
            (1, _) => return Err(RulesError::new("cube.owner", "a cube of 1 has not been turned: centre")),
            (_, CubeOwner::Centre) => {
                return Err(RulesError::new(
                    "cube.owner",
                    "a turned cube is owned by the side that took",
                ))
            }
            _ => {}
        }
        Ok(Cube {
            value: value as u32,
            owner,
        })
    }

    /// The cube of a new game.
    pub fn centred() -> Cube {
        Cube {
            value: 1,
            owner: CubeOwner::Centre,
        }
    }

    /// The same cube seen from the other side.
    pub fn flipped(self) -> Cube {
        let owner = match self.owner {
            CubeOwner::Me => CubeOwner::Opponent,
            CubeOwner::Opponent => CubeOwner::Me,
            CubeOwner::Centre => CubeOwner::Centre,
        };
        Cube { owner, ..self }
    }
}

/// The score of a match to `length` points, from the side to move.
/// `crawford` says that this game is the Crawford game (the first game
/// after a side reached `length - 1`), in which nobody may double; a game
/// after it at such a score is post-Crawford, where doubling is allowed
/// again. A money game has no `MatchState` (an `Option` that is None).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchState {
    pub length: u32,
    pub score_me: u32,
    pub score_opponent: u32,
    pub crawford: bool,
}

/// Longest match accepted (gnubg's match equity tables go to 64).
pub const MAX_MATCH_LENGTH: u32 = 64;

impl MatchState {
    /// A match score from the request's fields; errors name the field.
    pub fn new(length: i64, score_me: i64, score_opponent: i64, crawford: bool) -> Result<MatchState, RulesError> {
        if !(1..=i64::from(MAX_MATCH_LENGTH)).contains(&length) {
            return Err(RulesError::new(
                "match.length",
                format!("{length} is not 1 to {MAX_MATCH_LENGTH}"),
            ));
        }
        for (field, score) in [("match.score.me", score_me), ("match.score.opponent", score_opponent)] {
            if !(0..length).contains(&score) {
                return Err(RulesError::new(
                    field,
                    format!("{score}: a score is 0 to the length less one ({})", length - 1),
                ));
            }
        }
        let at_match_point = [score_me, score_opponent].map(|s| s == length - 1);
        // The Crawford game is the one right after the first side reached
        // match point: exactly one side is there.
        if crawford && at_match_point[0] == at_match_point[1] {
            return Err(RulesError::new(
                "match.crawford",
                "the Crawford game needs exactly one side at one point from the match",
            ));
        }
        Ok(MatchState {
            length: length as u32,
            score_me: score_me as u32,
            score_opponent: score_opponent as u32,
            crawford,
        })
    }

    /// The same score from the other side.
    pub fn flipped(self) -> MatchState {
        MatchState {
            score_me: self.score_opponent,
            score_opponent: self.score_me,
            ..self
        }
    }
}

/// Whether the side to move may double (before rolling): it owns the
/// cube or the cube is centred, the cube is below [`MAX_CUBE`], and in a
/// match this is not the Crawford game. (Doubling a cube that is dead
/// for the doubler is legal; whether it is wise is the evaluator's
/// business.)
pub fn may_double(cube: Cube, match_state: Option<&MatchState>) -> bool {
    let owns = matches!(cube.owner, CubeOwner::Me | CubeOwner::Centre);
    let crawford = match_state.is_some_and(|m| m.crawford);
    owns && cube.value < MAX_CUBE && !crawford
}
