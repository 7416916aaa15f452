//! The HTTP shapes of `POST /backgammon/move` and `POST /backgammon/cube`:
//! the request read into kibitz's rules (a Position ID or the contract's
//! board JSON, the dice, the cube, the match score) and the answers built
//! from GNU Backgammon's evaluations or from kibitz's exact bear-off
//! table.

use serde::{Deserialize, Serialize, Serializer};

use super::bearoff::ExactPlay;
use super::board::{Board, Dice, RulesError};
use super::gnubg::{self, CheckerMove, CubeAction, CubeEquities, CubeResponse, Probabilities};
use super::plays::{Play, Step, BAR, OFF};
use super::rules::{Cube, CubeOwner, MatchState};
use crate::core::evaluation::Evaluation;

/// The position and the game around it, as both endpoints read them.
#[derive(Deserialize, Clone, Debug, Default)]
pub struct PositionRequest {
    /// GNU Backgammon's Position ID, the side to move's checkers as the
    /// side on roll.
    pub position: Option<String>,
    /// The contract's board, from the side to move's view.
    pub board: Option<BoardJson>,
    /// `/backgammon/move` only: the roll to play.
    pub dice: Option<Vec<i64>>,
    pub cube: Option<CubeJson>,
    /// Absent: a money game.
    #[serde(rename = "match")]
    pub match_score: Option<MatchJson>,
    /// Money games: gammons count only once the cube was turned.
    pub jacoby: Option<bool>,
    /// Money games: a doubled side may redouble at once, keeping the cube.
    pub beavers: Option<bool>,
    pub max_ms: Option<u64>,
}

/// `{"points": [24], "bar": {me, opponent}, "off": {me, opponent}}`.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq, Eq)]
pub struct BoardJson {
    pub points: Vec<i64>,
    pub bar: Sides,
    pub off: Sides,
}

#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    pub me: i64,
    pub opponent: i64,
}

impl BoardJson {
    /// The contract's JSON of a board.
    pub fn of(board: &Board) -> BoardJson {
        use super::board::Side;
        BoardJson {
            points: board.points().iter().map(|&p| i64::from(p)).collect(),
            bar: Sides {
                me: i64::from(board.bar(Side::Me)),
                opponent: i64::from(board.bar(Side::Opponent)),
            },
            off: Sides {
                me: i64::from(board.off(Side::Me)),
                opponent: i64::from(board.off(Side::Opponent)),
            },
        }
    }
}

#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OwnerJson {
    Me,
    Opponent,
    Centre,
}

#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeJson {
    pub value: i64,
    pub owner: OwnerJson,
}

#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchJson {
    pub length: i64,
    pub score: Sides,
    #[serde(default)]
    pub crawford: bool,
}

/// A request read and checked by the rules.
#[derive(Clone, Debug)]
pub struct Situation {
    pub board: Board,
    pub cube: Cube,
    pub match_state: Option<MatchState>,
    pub jacoby: bool,
    pub beavers: bool,
}

impl Situation {
    /// The same situation as gnubg's bridge is asked it.
    pub fn for_gnubg(&self) -> gnubg::Situation {
        let owner = match self.cube.owner {
            CubeOwner::Me => gnubg::CubeOwner::Me,
            CubeOwner::Opponent => gnubg::CubeOwner::Opponent,
            CubeOwner::Centre => gnubg::CubeOwner::Centre,
        };
        gnubg::Situation {
            position: self.board.position_id(),
            cube: gnubg::Cube {
                value: self.cube.value,
                owner,
            },
            match_state: self.match_state.map(|m| gnubg::MatchState {
                length: m.length,
                score_me: m.score_me,
                score_opponent: m.score_opponent,
                crawford: m.crawford,
            }),
            jacoby: self.jacoby,
            beavers: self.beavers,
        }
    }
}

/// The situation a request describes, or the first thing wrong with it
/// (naming the field). A finished game has no move and no cube decision.
pub fn read_situation(request: &PositionRequest) -> Result<Situation, RulesError> {
    let board = match (&request.position, &request.board) {
        (Some(id), None) => Board::from_position_id(id)?,
        (None, Some(b)) => Board::from_parts(&b.points, b.bar.me, b.bar.opponent, b.off.me, b.off.opponent)?,
        (Some(_), Some(_)) => return Err(RulesError::new("position", "give the position or the board, not both")),
        (None, None) => return Err(RulesError::new("position", "give the position (an ID) or the board")),
    };
    if let Some((_, result)) = board.result() {
        return Err(RulesError::new(
            "board",
            format!("the game is over ({result:?}): there is nothing to decide"),
        ));
    }
    let cube = match request.cube {
        None => Cube::centred(),
        Some(c) => Cube::new(
            c.value,
            match c.owner {
                OwnerJson::Me => CubeOwner::Me,
                OwnerJson::Opponent => CubeOwner::Opponent,
                OwnerJson::Centre => CubeOwner::Centre,
            },
        )?,
    };
    let match_state = request
        .match_score
        .map(|m| MatchState::new(m.length, m.score.me, m.score.opponent, m.crawford))
        .transpose()?;
    let money_rule = |field: &str, on: Option<bool>| match (on, match_state) {
        (Some(true), Some(_)) => Err(RulesError::new(field, "applies to money games only (no match)")),
        _ => Ok(on.unwrap_or(false)),
    };
    Ok(Situation {
        jacoby: money_rule("jacoby", request.jacoby)?,
        beavers: money_rule("beavers", request.beavers)?,
        board,
        cube,
        match_state,
    })
}

/// The request's roll, required by `/backgammon/move`.
pub fn read_dice(request: &PositionRequest) -> Result<Dice, RulesError> {
    match request.dice.as_deref() {
        Some(&[first, second]) => Dice::new(first, second),
        Some(other) => Err(RulesError::new("dice", format!("two dice, not {}", other.len()))),
        None => Err(RulesError::new("dice", "the roll to play is required, e.g. [3, 1]")),
    }
}

/// A point as the contract names it: 1..24, `"bar"` or `"off"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointName(pub u8);

impl Serialize for PointName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            BAR => serializer.serialize_str("bar"),
            OFF => serializer.serialize_str("off"),
            p => serializer.serialize_u8(p),
        }
    }
}

/// One checker moved by one die, in the mover's numbering.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepJson {
    pub from: PointName,
    pub to: PointName,
}

impl From<Step> for StepJson {
    fn from(step: Step) -> Self {
        StepJson {
            from: PointName(step.from),
            to: PointName(step.to),
        }
    }
}

impl From<CheckerMove> for StepJson {
    fn from(step: CheckerMove) -> Self {
        StepJson {
            from: PointName(step.from),
            to: PointName(step.to),
        }
    }
}

/// Cubeless and cubeful equity, normalized to the cube (+1: a single
/// game won), and the match-winning chance in match play.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct Equity {
    pub cubeless: f64,
    /// None in an exact answer: the table is cubeless.
    pub cubeful: Option<f64>,
    pub match_winning_chance: Option<f64>,
}

/// One legal play, ranked.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct RankedPlay {
    pub play: Vec<StepJson>,
    /// GNU Backgammon's notation, `8/5 6/5`, `bar/22*`, `6/off(2)`.
    pub notation: String,
    /// The Position ID after the play, with the opponent on roll.
    pub position_after: String,
    /// Cubeful where gnubg evaluated it, the exact cubeless equity in an
    /// exact answer.
    pub equity: f64,
    /// The best play's equity less this one's, never negative.
    pub equity_loss: f64,
    pub probabilities: Probabilities,
    /// gnubg's depth for this play; None in an exact answer.
    pub plies: Option<u8>,
    pub evaluation: Evaluation,
}

/// `POST /backgammon/move`'s answer.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct MoveAnswer {
    /// The position asked about, as a Position ID.
    pub position: String,
    pub dice: [u8; 2],
    /// The best play (empty when the roll cannot be played).
    pub play: Vec<StepJson>,
    pub notation: String,
    /// Every legal play, best first.
    pub moves: Vec<RankedPlay>,
    /// The mover's chances after the best play.
    pub probabilities: Probabilities,
    pub equity: Equity,
    /// True when the exact bear-off table answered.
    pub solved: bool,
    /// gnubg's depth for the best plays; None when solved.
    pub plies: Option<u8>,
    pub evaluation: Evaluation,
}

impl MoveAnswer {
    /// The answer from the exact table: every play's exact cubeless
    /// chances (no gammon is possible in the positions it covers).
    pub fn exact(board: &Board, dice: Dice, plays: Vec<ExactPlay>) -> Option<MoveAnswer> {
        let best = plays.first()?.race.equity;
        let moves: Vec<RankedPlay> = plays
            .into_iter()
            .map(|p| RankedPlay {
                notation: p.play.to_string(),
                position_after: p.play.result.flipped().position_id(),
                play: p.play.steps.iter().copied().map(StepJson::from).collect(),
                equity: p.race.equity,
                equity_loss: (best - p.race.equity).max(0.0),
                probabilities: Probabilities {
                    win: p.race.win,
                    win_gammon: p.race.win_gammon,
                    win_backgammon: p.race.win_backgammon,
                    lose_gammon: p.race.lose_gammon,
                    lose_backgammon: p.race.lose_backgammon,
                },
                plies: None,
                evaluation: Evaluation::chance(p.race.win, true),
            })
            .collect();
        let first = moves.first()?.clone();
        Some(MoveAnswer {
            position: board.position_id(),
            dice: dice.values(),
            play: first.play,
            notation: first.notation,
            probabilities: first.probabilities,
            equity: Equity {
                cubeless: first.equity,
                cubeful: None,
                match_winning_chance: None,
            },
            solved: true,
            plies: None,
            evaluation: first.evaluation,
            moves,
        })
    }

    /// The answer from gnubg's ranking, each play checked against kibitz's
    /// own list (`legal`): gnubg is trusted for values, never for
    /// legality. Err names the disagreement.
    pub fn from_gnubg(
        board: &Board,
        dice: Dice,
        legal: &[Play],
        analysis: gnubg::MoveAnalysis,
    ) -> Result<MoveAnswer, String> {
        check_same_plays(legal, &analysis.plays)?;
        // gnubg's first is its choice: the best of the deepest evaluated.
        let first = analysis
            .plays
            .first()
            .ok_or_else(|| "GNU Backgammon ranked no play".to_string())?;
        let best = first.equity;
        let equity = Equity {
            cubeless: first.cubeless_equity,
            cubeful: Some(first.equity),
            match_winning_chance: first.mwc,
        };
        let moves: Vec<RankedPlay> = analysis
            .plays
            .into_iter()
            .map(|p| RankedPlay {
                play: p.steps.iter().copied().map(StepJson::from).collect(),
                notation: p.text,
                position_after: p.position_after,
                equity: p.equity,
                equity_loss: (best - p.equity).max(0.0),
                evaluation: Evaluation::chance(p.probabilities.win, false),
                probabilities: p.probabilities,
                plies: Some(p.plies),
            })
            .collect();
        let chosen = moves
            .first()
            .ok_or_else(|| "GNU Backgammon ranked no play".to_string())?
            .clone();
        Ok(MoveAnswer {
            position: board.position_id(),
            dice: dice.values(),
            play: chosen.play,
            notation: chosen.notation,
            probabilities: chosen.probabilities,
            equity,
            solved: false,
            plies: Some(analysis.plies),
            evaluation: chosen.evaluation,
            moves,
        })
    }
}

/// Both lists hold the same plays, told apart by the position each leads
/// to (the way the contract counts plays).
fn check_same_plays(legal: &[Play], ranked: &[gnubg::Play]) -> Result<(), String> {
    use std::collections::HashSet;
    let ours: HashSet<String> = legal.iter().map(|p| p.result.flipped().position_id()).collect();
    let theirs: HashSet<&str> = ranked.iter().map(|p| p.position_after.as_str()).collect();
    if ours.len() != theirs.len() || ranked.len() != theirs.len() {
        return Err(format!(
            "GNU Backgammon ranked {} plays ({} distinct), the rules list {}",
            ranked.len(),
            theirs.len(),
            ours.len()
        ));
    }
    match theirs.iter().find(|id| !ours.contains(**id)) {
        Some(id) => Err(format!("GNU Backgammon ranked a play the rules do not allow (to {id})")),
        None => Ok(()),
    }
}

/// `POST /backgammon/cube`'s answer.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CubeAnswer {
    pub position: String,
    pub action: CubeAction,
    pub too_good: bool,
    /// The opponent's right answer to a double; None when the side on
    /// roll may not double.
    pub response: Option<CubeResponse>,
    /// False when the side on roll may not double (the opponent owns the
    /// cube, the Crawford game).
    pub available: bool,
    /// GNU Backgammon's words, e.g. "Double, take".
    pub text: String,
    pub equities: CubeEquities,
    /// The side on roll's chances before rolling.
    pub probabilities: Probabilities,
    pub equity: Equity,
    pub plies: u8,
    pub evaluation: Evaluation,
}

impl CubeAnswer {
    /// gnubg's decision, where kibitz's rules let the side to move double
    /// (`allowed`, [`super::rules::may_double`]); else no double, no
    /// response (gnubg 1.07 still offers a double in the Crawford game).
    pub fn of(board: &Board, decision: gnubg::CubeDecision, allowed: bool) -> CubeAnswer {
        let available = allowed && decision.available;
        CubeAnswer {
            position: board.position_id(),
            action: if available {
                decision.action
            } else {
                CubeAction::NoDouble
            },
            too_good: available && decision.too_good,
            response: decision.response.filter(|_| available),
            available,
            text: if available {
                decision.text
            } else {
                "No double (the cube is not available)".to_string()
            },
            equities: decision.equities,
            probabilities: decision.probabilities,
            equity: Equity {
                cubeless: decision.cubeless_equity,
                cubeful: Some(decision.equity),
                match_winning_chance: decision.mwc,
            },
            plies: decision.plies,
            evaluation: Evaluation::chance(decision.probabilities.win, false),
        }
    }
}
