//! Kalah matches. South moves first: the person plays South unless the AI
//! goes first. Options `{houses, seeds, capture}` (6, 4, "standard");
//! state `{"board": {south, north, south_store, north_store}, "to_move",
//! "human_plays"}`; move `{"house": h}` (1..m in the mover's sowing
//! order). A move that ends in the mover's store is followed by the same
//! player's; the AI plays all of its moves in a row at its turn.

use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::api::{CaptureRule, KalahSolver, Side};
use super::rules::{KalahState, Played, Player, Rules};
use super::solve::evaluation;
use crate::arena::games::{ArenaGame, Player as ArenaPlayer};
use crate::arena::players::Chooser;
use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget, Scores};
use crate::matches::turns::{Candidate, Choice, NoPosition, TurnGame};
use crate::solve::solvers::Solvers;

pub(crate) struct KalahMatch;

/// Kalah's options, as matches, reviews and the catalog read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub houses: Option<i64>,
    pub seeds: Option<i64>,
    pub capture: Option<CaptureRule>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            houses: Some(6),
            seeds: Some(4),
            capture: Some(CaptureRule::Standard),
        }
    }
}

impl Options {
    pub fn rules(&self) -> Result<Rules, String> {
        let read = |value: Option<i64>, default: u32, name: &str| {
            let value = value.unwrap_or(i64::from(default));
            u32::try_from(value)
                .ok()
                .filter(|v| (1..=8).contains(v))
                .ok_or_else(|| format!("{name} = {value}; expected an integer from 1 to 8"))
        };
        let houses = read(self.houses, 6, "houses")?;
        let seeds = read(self.seeds, 4, "seeds")?;
        Rules::new(houses, seeds, self.capture.unwrap_or_default().into())
    }
}

/// A move as clients send it and the history shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseMove {
    pub house: u8,
}

fn side_name(player: Player) -> Side {
    player.into()
}

fn player_of(seat: Seat) -> Player {
    if seat == 0 {
        Player::South
    } else {
        Player::North
    }
}

/// The board as the API shows it.
pub fn board_json(position: &KalahState) -> Value {
    let board = position.to_board();
    json!({
        "south": board.south,
        "north": board.north,
        "south_store": board.south_store,
        "north_store": board.north_store,
    })
}

/// Each legal house's value on the levels' scale (1 a sure win, 0 a sure
/// loss): a logistic of its margin.
fn candidates(analysis: &super::solve::Analysis) -> Vec<Candidate<u8>> {
    analysis
        .houses
        .iter()
        .map(|h| Candidate {
            mv: h.house,
            value: evaluation(h.value, false, None).win_chance,
        })
        .collect()
}

impl TurnGame for KalahMatch {
    const ID: &'static str = "kalah";
    type Game = KalahState;
    type Options = Options;
    /// The options checked and filled in (a stored record is read back
    /// through [`Options::rules`] again).
    type Rules = Options;
    type Move = HouseMove;
    type Position = NoPosition;
    /// Seeds in store: the result carries the final scores.
    const KEEPS_SCORE: bool = true;
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 5_000_000,
    };

    fn rules(options: Options, _solvers: &Solvers) -> Result<Options, String> {
        let rules = options.rules()?;
        Ok(Options {
            houses: Some(rules.houses() as i64),
            seeds: Some(i64::from(rules.seeds())),
            capture: Some(rules.capture().into()),
        })
    }

    fn options(options: &Options) -> Options {
        options.clone()
    }

    fn opening(options: &Options) -> Result<KalahState, MatchError> {
        Ok(options.rules().map_err(MatchError::Corrupt)?.start())
    }

    fn state_json(game: &KalahState, human: Seat) -> Value {
        json!({
            "board": board_json(game),
            "to_move": (!game.is_over()).then(|| side_name(game.to_move())),
            "human_plays": side_name(player_of(human)),
        })
    }

    fn game_move(game: &KalahState, mv: &HouseMove) -> Result<u8, MatchError> {
        let mut after = *game;
        after.play(mv.house).map_err(MatchError::IllegalMove)?;
        Ok(mv.house)
    }

    fn api_move(_game: &KalahState, house: u8) -> HouseMove {
        HouseMove { house }
    }

    /// One move: after an extra move the match asks the AI again, so that
    /// each move is its own history entry.
    fn ai_turn(game: &KalahState, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Result<Vec<u8>, MatchError> {
        let solver = ctx.solvers.of::<KalahSolver>();
        let analysis = solver.analyze(game, &ctx.limits.search_for::<KalahMatch>());
        let best = analysis
            .best
            .ok_or_else(|| MatchError::Internal("no house to play in a game not over".to_string()))?;
        let choice = Choice {
            best,
            candidates: candidates(&analysis),
        };
        Ok(vec![choice.pick(ai, rng)])
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("no_move")];

    fn end_reason(_game: &KalahState, _outcome: GameOutcome) -> EndReason {
        EndReason::named("no_move")
    }

    fn scores(game: &KalahState, human: Seat) -> Option<Scores> {
        let board = game.to_board();
        let (south, north) = (i64::from(board.south_store), i64::from(board.north_store));
        Some(if human == 0 {
            Scores {
                human: south,
                ai: north,
            }
        } else {
            Scores {
                human: north,
                ai: south,
            }
        })
    }
}

impl ArenaGame for KalahMatch {
    const OWN_NAMES: &'static [&'static str] = &["greedy"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "greedy").then_some(Strategy::Greedy)
    }

    fn own_player(strategy: Strategy, _: &Options, _: &AiContext) -> Result<Option<ArenaPlayer<Self>>, ArenaError> {
        Ok((strategy == Strategy::Greedy).then(|| Box::new(Greedy) as ArenaPlayer<Self>))
    }
}

/// One move ahead: the house that earns another move, else the one that
/// puts the most seeds in the store (a capture), else the first.
pub struct Greedy;

impl Greedy {
    fn gain(position: &KalahState, house: u8) -> (bool, i32) {
        let before = position.south_margin();
        let mover = position.to_move();
        let mut after = *position;
        match after.play(house) {
            Ok(played) => {
                let gained = after.south_margin() - before;
                let gained = if mover == Player::South { gained } else { -gained };
                (played == Played::Again, gained)
            }
            Err(_) => (false, i32::MIN),
        }
    }
}

impl Chooser<KalahState> for Greedy {
    fn choose(&mut self, game: &KalahState, _: &mut dyn RngCore) -> Result<Vec<u8>, ArenaError> {
        // max_by_key keeps the last of equals: reversed, the lowest house.
        let house = game
            .legal_houses()
            .into_iter()
            .rev()
            .max_by_key(|&h| Greedy::gain(game, h))
            .ok_or_else(|| ArenaError::Internal("greedy: no legal house".to_string()))?;
        Ok(vec![house])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::game::seat;
    use crate::games::kalah::rules::Capture;

    #[test]
    fn options_default_to_kalah_6_4_standard_and_refuse_out_of_range() {
        let rules = Options::default().rules().unwrap();
        assert_eq!(
            (rules.houses(), rules.seeds(), rules.capture()),
            (6, 4, Capture::Standard)
        );
        let bad = Options {
            houses: Some(9),
            ..Options::default()
        };
        assert!(bad.rules().unwrap_err().contains("houses"));
        let bad = Options {
            seeds: Some(0),
            ..Options::default()
        };
        assert!(bad.rules().unwrap_err().contains("seeds"));
    }

    #[test]
    fn a_seat_is_the_side_that_moves_first_or_second() {
        assert_eq!(seat(Player::South), 0);
        assert_eq!(player_of(1), Player::North);
    }
}
