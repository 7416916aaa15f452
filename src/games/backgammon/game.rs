//! Backgammon as a match plays it, through the [`Game`] trait: the
//! opening roll, cube decisions, the dice, checker plays, and game after
//! game of a match to N points (the Crawford rule included), or one
//! money game.
//!
//! Every decision is a move of its own: to double or to roll, to take or
//! to pass, and the checker play, which is named by the position it
//! leads to (the contract counts plays as distinct resulting positions),
//! so a move stays a small `Copy` value. The dice are chance moves.

use serde::{Deserialize, Serialize};

use super::board::{Board, Dice, Side};
use super::plays::legal_plays;
use super::rules::{Cube, CubeOwner, GameResult, MatchState, MAX_CUBE};
use crate::core::game::{Game, GameOutcome, Seat, Turn};

/// One decision or roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BackgammonMove {
    /// The dice. The opening roll's first die is the first player's, the
    /// second the other's; later rolls are high die first.
    Roll(u8, u8),
    /// Roll rather than double.
    RollOn,
    Double,
    Take,
    Pass,
    /// A checker play: the board it leads to, from the mover's view.
    Play(Board),
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Each player throws one die; the higher plays both.
    Opening,
    /// The player on roll may double, or roll.
    CubeOrRoll,
    /// The player on roll's dice are thrown.
    Rolling,
    /// The player on roll plays these dice.
    Moving(Dice),
    /// The doubled player takes or passes.
    Responding,
    /// The match (or the money game) is over.
    Over,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    Single,
    Gammon,
    Backgammon,
    /// A double was passed.
    Passed,
}

/// The last finished game: who won, how many points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    pub winner: Seat,
    pub points: u32,
    pub how: GameEnd,
}

/// A match in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackgammonState {
    /// From the first player's (seat 0's) view.
    board: Board,
    /// Who acts now: the player on roll, or the doubled player.
    turn: Seat,
    phase: Phase,
    cube: u32,
    /// None: centred.
    cube_owner: Option<Seat>,
    /// Points won so far, by seat.
    score: [u32; 2],
    /// Points to win the match; 0: one money game.
    length: u32,
    /// This game is the Crawford game: nobody may double.
    crawford: bool,
    /// The Crawford game has been played (post-Crawford games double).
    crawford_played: bool,
    /// Games finished so far.
    games: u32,
    last: Option<Finished>,
}

impl BackgammonState {
    /// A new match to `length` points (0: a money game), before the
    /// opening roll.
    pub fn new(length: u32) -> BackgammonState {
        BackgammonState {
            board: Board::start(),
            turn: 0,
            phase: Phase::Opening,
            cube: 1,
            cube_owner: None,
            score: [0, 0],
            length,
            crawford: false,
            crawford_played: false,
            games: 0,
            last: None,
        }
    }

    /// The board from `seat`'s view.
    pub fn board_of(&self, seat: Seat) -> Board {
        if seat == 0 {
            self.board
        } else {
            self.board.flipped()
        }
    }

    fn set_board_of(&mut self, seat: Seat, board: Board) {
        self.board = if seat == 0 { board } else { board.flipped() };
    }

    /// The player who acts now (meaningless once over).
    pub fn seat_to_act(&self) -> Seat {
        self.turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn score(&self) -> [u32; 2] {
        self.score
    }

    pub fn length(&self) -> u32 {
        self.length
    }

    pub fn games(&self) -> u32 {
        self.games
    }

    pub fn last_game(&self) -> Option<Finished> {
        self.last
    }

    pub fn is_crawford(&self) -> bool {
        self.crawford
    }

    /// The player on roll: the doubler while a double is answered.
    pub fn seat_on_roll(&self) -> Seat {
        match self.phase {
            Phase::Responding => 1 - self.turn,
            _ => self.turn,
        }
    }

    /// The cube from `seat`'s view.
    pub fn cube_of(&self, seat: Seat) -> Cube {
        let owner = match self.cube_owner {
            None => CubeOwner::Centre,
            Some(s) if s == seat => CubeOwner::Me,
            Some(_) => CubeOwner::Opponent,
        };
        Cube {
            value: self.cube,
            owner,
        }
    }

    /// The match score from `seat`'s view; None in a money game.
    pub fn match_state_of(&self, seat: Seat) -> Option<MatchState> {
        (self.length > 0).then(|| MatchState {
            length: self.length,
            score_me: self.score[seat],
            score_opponent: self.score[1 - seat],
            crawford: self.crawford,
        })
    }

    /// Whether `seat` may double now, were it on roll.
    fn may_double(&self, seat: Seat) -> bool {
        self.cube_owner.is_none_or(|owner| owner == seat) && self.cube < MAX_CUBE && !self.crawford
    }

    /// The next player's turn begins: a cube decision where they may
    /// double, else straight to the dice.
    fn pass_turn(&mut self) {
        self.turn = 1 - self.turn;
        self.phase = if self.may_double(self.turn) {
            Phase::CubeOrRoll
        } else {
            Phase::Rolling
        };
    }

    /// A game is over: its points counted, then the match over or the
    /// next game at its opening roll.
    fn finish_game(&mut self, winner: Seat, how: GameEnd) {
        let points = self.cube
            * match how {
                GameEnd::Single | GameEnd::Passed => 1,
                GameEnd::Gammon => GameResult::Gammon.points(),
                GameEnd::Backgammon => GameResult::Backgammon.points(),
            };
        self.score[winner] += points;
        self.games += 1;
        self.last = Some(Finished { winner, points, how });
        self.turn = winner;
        if self.length == 0 || self.score[winner] >= self.length {
            self.phase = Phase::Over;
            return;
        }
        if self.crawford {
            self.crawford = false;
            self.crawford_played = true;
        } else if !self.crawford_played && self.score[winner] == self.length - 1 {
            self.crawford = true;
        }
        self.board = Board::start();
        self.cube = 1;
        self.cube_owner = None;
        self.phase = Phase::Opening;
    }

    fn play_checkers(&mut self, result: Board) {
        let mover = self.turn;
        self.set_board_of(mover, result);
        match result.result() {
            Some((Side::Me, how)) => {
                let how = match how {
                    GameResult::Single => GameEnd::Single,
                    GameResult::Gammon => GameEnd::Gammon,
                    GameResult::Backgammon => GameEnd::Backgammon,
                };
                self.finish_game(mover, how);
            }
            _ => self.pass_turn(),
        }
    }

    /// A stored state read back: its numbers within the rules.
    pub fn check(&self) -> Result<(), String> {
        use super::api::BoardJson;
        let b = BoardJson::of(&self.board);
        Board::from_parts(&b.points, b.bar.me, b.bar.opponent, b.off.me, b.off.opponent).map_err(|e| e.to_string())?;
        let seats_ok = self.turn < 2 && self.cube_owner.is_none_or(|s| s < 2);
        let cube_ok =
            self.cube.is_power_of_two() && self.cube <= MAX_CUBE && (self.cube == 1) == self.cube_owner.is_none();
        let dice_ok = match self.phase {
            Phase::Moving(d) => d.values().iter().all(|v| (1..=6).contains(v)),
            _ => true,
        };
        if seats_ok && cube_ok && dice_ok {
            Ok(())
        } else {
            Err("a backgammon state out of the rules".to_string())
        }
    }
}

impl Game for BackgammonState {
    type Move = BackgammonMove;

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Opening | Phase::Rolling => Turn::Chance,
            Phase::Over => Turn::Over,
            Phase::CubeOrRoll | Phase::Moving(_) | Phase::Responding => Turn::Player(self.turn),
        }
    }

    fn legal_moves(&self) -> Vec<BackgammonMove> {
        match self.phase {
            Phase::CubeOrRoll => vec![BackgammonMove::RollOn, BackgammonMove::Double],
            Phase::Responding => vec![BackgammonMove::Take, BackgammonMove::Pass],
            Phase::Moving(dice) => legal_plays(&self.board_of(self.turn), dice)
                .into_iter()
                .map(|play| BackgammonMove::Play(play.result))
                .collect(),
            Phase::Opening | Phase::Rolling | Phase::Over => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(BackgammonMove, f64)> {
        match self.phase {
            Phase::Opening => (1..=6u8)
                .flat_map(|a| {
                    (1..=6u8)
                        .filter(move |&b| b != a)
                        .map(move |b| (BackgammonMove::Roll(a, b), 1.0 / 30.0))
                })
                .collect(),
            Phase::Rolling => Dice::all()
                .map(|(dice, p)| (BackgammonMove::Roll(dice.high(), dice.low()), p))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn play(&mut self, mv: BackgammonMove) {
        match (self.phase, mv) {
            (Phase::Opening, BackgammonMove::Roll(first, second)) => {
                self.turn = if first > second { 0 } else { 1 };
                if let Ok(dice) = Dice::new(i64::from(first), i64::from(second)) {
                    self.phase = Phase::Moving(dice);
                }
            }
            (Phase::Rolling, BackgammonMove::Roll(high, low)) => {
                if let Ok(dice) = Dice::new(i64::from(high), i64::from(low)) {
                    self.phase = Phase::Moving(dice);
                }
            }
            (Phase::CubeOrRoll, BackgammonMove::RollOn) => self.phase = Phase::Rolling,
            (Phase::CubeOrRoll, BackgammonMove::Double) => {
                self.turn = 1 - self.turn;
                self.phase = Phase::Responding;
            }
            (Phase::Responding, BackgammonMove::Take) => {
                self.cube *= 2;
                self.cube_owner = Some(self.turn);
                self.turn = 1 - self.turn;
                self.phase = Phase::Rolling;
            }
            (Phase::Responding, BackgammonMove::Pass) => self.finish_game(1 - self.turn, GameEnd::Passed),
            (Phase::Moving(_), BackgammonMove::Play(result)) => self.play_checkers(result),
            // Not a legal move: the trait's callers offer only legal ones.
            _ => debug_assert!(false, "{mv:?} in {:?}", self.phase),
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        match self.phase {
            Phase::Over => Some(GameOutcome::Won(self.last.map_or(self.turn, |l| l.winner))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A money game after its opening roll.
    fn opening(first: u8, second: u8) -> BackgammonState {
        let mut game = BackgammonState::new(0);
        game.play(BackgammonMove::Roll(first, second));
        game
    }

    #[test]
    fn the_higher_opening_die_moves_first_with_both_dice() {
        let game = opening(3, 1);
        assert_eq!(game.turn(), Turn::Player(0));
        assert_eq!(game.legal_moves().len(), 16, "the opening 3-1's distinct plays");
        let game = opening(1, 3);
        assert_eq!(game.turn(), Turn::Player(1));
        assert_eq!(opening(6, 5).chance_outcomes().len(), 0);
        let total: f64 = BackgammonState::new(0).chance_outcomes().iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!(BackgammonState::new(0)
            .chance_outcomes()
            .iter()
            .all(|(mv, _)| !matches!(mv, BackgammonMove::Roll(a, b) if a == b)));
    }

    /// The first player plays its first legal play; the second is then to
    /// decide on the cube.
    fn to_second_players_cube(length: u32) -> BackgammonState {
        let mut game = BackgammonState::new(length);
        game.play(BackgammonMove::Roll(3, 1));
        let play = game.legal_moves()[0];
        game.play(play);
        game
    }

    #[test]
    fn a_passed_double_wins_the_cube_before_it_and_ends_a_money_game() {
        let mut game = to_second_players_cube(0);
        assert_eq!(game.turn(), Turn::Player(1));
        assert_eq!(game.legal_moves(), vec![BackgammonMove::RollOn, BackgammonMove::Double]);
        game.play(BackgammonMove::Double);
        assert_eq!(game.turn(), Turn::Player(0), "the doubled side answers");
        game.play(BackgammonMove::Pass);
        assert_eq!(game.result(), Some(GameOutcome::Won(1)));
        assert_eq!(game.score(), [0, 1]);
        assert_eq!(game.last_game().map(|g| g.how), Some(GameEnd::Passed));
    }

    #[test]
    fn a_taken_double_gives_the_cube_to_the_taker_and_the_doubler_rolls() {
        let mut game = to_second_players_cube(0);
        game.play(BackgammonMove::Double);
        game.play(BackgammonMove::Take);
        assert_eq!(game.turn(), Turn::Chance);
        assert_eq!(
            game.cube_of(0),
            Cube {
                value: 2,
                owner: CubeOwner::Me
            }
        );
        assert_eq!(game.cube_of(1).owner, CubeOwner::Opponent);
        game.play(BackgammonMove::Roll(6, 5));
        assert_eq!(game.turn(), Turn::Player(1));
        let play = game.legal_moves()[0];
        game.play(play);
        // The taker owns the cube: it may redouble.
        assert_eq!(game.phase(), Phase::CubeOrRoll);
        assert_eq!(game.turn(), Turn::Player(0));
        // The doubler does not own the cube: it may not redouble.
        assert!(!game.may_double(1));
    }

    #[test]
    fn the_crawford_game_has_no_cube_and_the_match_ends_at_its_length() {
        // A match to 3: the first player takes a double, redoubles, and
        // the pass gives it 2 points: match point.
        let mut game = to_second_players_cube(3);
        game.play(BackgammonMove::Double);
        game.play(BackgammonMove::Take);
        game.play(BackgammonMove::Roll(2, 1));
        let play = game.legal_moves()[0];
        game.play(play);
        game.play(BackgammonMove::Double);
        game.play(BackgammonMove::Pass);
        assert_eq!(game.score(), [2, 0], "the redouble passed: 2 points");
        assert_eq!(game.result(), None);
        assert!(game.is_crawford());
        assert_eq!(game.phase(), Phase::Opening);
        // In the Crawford game nobody is offered the cube.
        game.play(BackgammonMove::Roll(3, 1));
        let play = game.legal_moves()[0];
        game.play(play);
        assert_eq!(game.phase(), Phase::Rolling, "no cube decision in the Crawford game");
        // The Crawford game over (the trailer won it), the next game is
        // post-Crawford.
        game.finish_game(1, GameEnd::Single);
        assert!(!game.is_crawford());
        assert_eq!(game.score(), [2, 1]);
        game.play(BackgammonMove::Roll(3, 1));
        let play = game.legal_moves()[0];
        game.play(play);
        assert_eq!(game.phase(), Phase::CubeOrRoll, "post-Crawford doubling is allowed");
        game.finish_game(0, GameEnd::Gammon);
        assert_eq!(game.score(), [4, 1], "a gammon at a 1-cube: 2 points");
        assert_eq!(game.result(), Some(GameOutcome::Won(0)));
    }
}
