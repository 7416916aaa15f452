//! Plays a series: N games between A and B, seats alternating (A moves
//! first in games 1, 3, 5, ...), game g's dice and random choices drawn
//! from a stream derived from the seed and g alone. Number Square deals one
//! board per pair of games, so both seat orders play the same board.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use crate::games::game::{Game, GameOutcome as Ending, Turn as GameTurn};
use crate::games::nine_square::{Game as NineSquareGame, Player as NineSquarePlayer, Turn, DIE_FACES};
use crate::games::number_square::{Board as NumberSquareBoard, Tile};
use crate::matches::levels::MAX_LEVEL;
use crate::matches::players::TurnGame;
use crate::matches::players::{self, ConnectFourMatch, IshitoriMatch, NumberSquareOpening, Opening, TicTacToeMatch};
use crate::matches::{AiContext, AiSpec, GameKind, MatchLimits};
use crate::solve::connect_four::ConnectFourSolver;
use crate::solve::ishitori::SubtractionSolver;
use crate::solve::limits::SearchLimits;
use crate::solve::number_square::NumberSquareSolver;
use crate::solve::tictactoe::TicTacToeSolver;
use crate::strategies::nine_square::{greedy_placements, random_placements};
use crate::strategies::number_square::{lookahead2, random as random_tile};
use crate::tables::cache::PigTables;

use super::pig::{play as play_pig, PigPolicy};
use super::pig_exact::{evaluate, ExactPig};
use super::strategy::Strategy;
use super::summary::{GameOutcome, Tally};
use super::{ArenaError, ExactReport, Report, Side};

/// Positions each run's own searchers remember (lazily allocated).
const MEMO_CAPACITY: usize = 1 << 18;
/// Salts that keep the per-game streams apart.
const GAME_SALT: u64 = 0x6761_6d65;
const BOARD_SALT: u64 = 0x0062_6f61_7264;

/// How far the searching players may go per move. The node budgets make a
/// run repeatable; `per_move` (when set) is a wall-clock cap on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub per_move: Option<Duration>,
    pub tictactoe_nodes: u64,
    pub number_square_nodes: u64,
    pub nine_square_nodes: u64,
    pub connect_four_nodes: u64,
    /// The largest Pig goal accepted in the options.
    pub pig_max_goal: u32,
}

impl Default for Budget {
    fn default() -> Self {
        let matches = MatchLimits::default();
        Budget {
            per_move: None,
            tictactoe_nodes: matches.tictactoe_nodes,
            // Tens of milliseconds a move on the seed's 8x8 boards.
            number_square_nodes: 200_000,
            nine_square_nodes: matches.nine_square_nodes,
            // Tens of milliseconds a move; exact from the middle game on.
            connect_four_nodes: 300_000,
            pig_max_goal: matches.pig_max_goal,
        }
    }
}

/// A run as asked for: the names as given.
#[derive(Clone, Copy, Debug)]
pub struct ArenaSpec<'a> {
    pub game: &'a str,
    pub a: &'a str,
    pub b: &'a str,
    /// As for matches (absent: every default).
    pub options: Option<&'a Value>,
}

/// A validated run, ready to play.
pub struct Arena {
    game: GameKind,
    opening: Opening,
    a: Strategy,
    b: Strategy,
    budget: Budget,
    pig_tables: Arc<PigTables>,
    tictactoe: TicTacToeSolver,
    ishitori: SubtractionSolver,
    number_square: NumberSquareSolver,
    connect_four: ConnectFourSolver,
}

/// `seed` and `index` mixed into one stream seed (SplitMix64's finaliser).
fn stream(seed: u64, index: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn ai(level: u8) -> AiSpec {
    AiSpec {
        strategy: "best".to_string(),
        level,
    }
}

fn broken(what: impl std::fmt::Display) -> ArenaError {
    ArenaError::Internal(what.to_string())
}

/// +1 when the first player won, -1 when the second did, 0 for a draw.
fn sign_of_first(first_won: Option<bool>) -> i64 {
    match first_won {
        Some(true) => 1,
        Some(false) => -1,
        None => 0,
    }
}

impl Arena {
    pub fn new(spec: ArenaSpec, pig_tables: Arc<PigTables>, budget: Budget) -> Result<Arena, ArenaError> {
        let game: GameKind = spec.game.parse()?;
        let a = Strategy::parse(game, "a", spec.a)?;
        let b = Strategy::parse(game, "b", spec.b)?;
        let mut arena = Arena {
            game,
            opening: Opening::NineSquare,
            a,
            b,
            budget,
            pig_tables,
            tictactoe: TicTacToeSolver::new(MEMO_CAPACITY),
            ishitori: SubtractionSolver::default(),
            number_square: NumberSquareSolver::new(MEMO_CAPACITY),
            connect_four: ConnectFourSolver::new(MEMO_CAPACITY),
        };
        let limits = SearchLimits::within(Duration::from_secs(1));
        arena.opening = players::opening(game, spec.options, &arena.context(&limits))?;
        Ok(arena)
    }

    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The match AI's context for one move, its time capped by `per_move`
    /// and by what is left of the run's `limits`.
    fn context<'s>(&'s self, limits: &SearchLimits) -> AiContext<'s> {
        let time = self.move_time(limits);
        AiContext {
            pig_tables: &self.pig_tables,
            tictactoe: &self.tictactoe,
            ishitori: &self.ishitori,
            number_square: &self.number_square,
            connect_four: &self.connect_four,
            limits: MatchLimits {
                pig_max_goal: self.budget.pig_max_goal,
                tictactoe_time: time,
                tictactoe_nodes: self.budget.tictactoe_nodes,
                ishitori_time: time,
                nine_square_time: time,
                nine_square_nodes: self.budget.nine_square_nodes,
                number_square_time: time,
                number_square_nodes: self.budget.number_square_nodes,
                connect_four_time: time,
                connect_four_nodes: self.budget.connect_four_nodes,
            },
        }
    }

    /// One move's time: `per_move`, within what is left of the run.
    fn move_time(&self, limits: &SearchLimits) -> Duration {
        let left = limits.deadline().saturating_duration_since(Instant::now());
        self.budget.per_move.map_or(left, |cap| cap.min(left))
    }

    fn pig_policies(&self) -> Result<[PigPolicy; 2], ArenaError> {
        let Opening::Pig(rules) = &self.opening else {
            return Err(ArenaError::ExactNotPig(self.game.as_str()));
        };
        let table = self.pig_tables.get_blocking(*rules);
        Ok([
            PigPolicy::new(self.a, Arc::clone(&table))?,
            PigPolicy::new(self.b, table)?,
        ])
    }

    /// Pig only: A's exact chances by policy evaluation.
    pub fn exact(&self) -> Result<ExactPig, ArenaError> {
        let [a, b] = self.pig_policies()?;
        Ok(evaluate(&a, &b))
    }

    /// Plays `games` games. `limits` bound the whole run (its deadline and
    /// cancellation are checked before every move); `progress` hears the
    /// number of games finished after each one.
    pub fn run(
        &self,
        games: u64,
        seed: u64,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Tally, ArenaError> {
        let pig = match self.game {
            GameKind::Pig => Some(self.pig_policies()?),
            _ => None,
        };
        let mut tally = Tally::default();
        for g in 0..games {
            let a_first = g % 2 == 0;
            let (first, second) = if a_first { (self.a, self.b) } else { (self.b, self.a) };
            let mut rng = StdRng::seed_from_u64(stream(seed, g, GAME_SALT));
            let check = || {
                if limits.exhausted(0) {
                    Err(ArenaError::OutOfTime { played: g, games })
                } else {
                    Ok(())
                }
            };
            check()?;
            let first_margin = match (&self.opening, &pig) {
                (Opening::Pig(_), Some([a, b])) => {
                    let (p1, p2) = if a_first { (a, b) } else { (b, a) };
                    let [s1, s2] = play_pig(p1, p2, &mut rng)?;
                    i64::from(s1) - i64::from(s2)
                }
                (Opening::Pig(_), None) => return Err(broken("Pig policies missing")),
                (Opening::TicTacToe(start), _) => {
                    self.turn_game::<TicTacToeMatch>(start, [first, second], &mut rng, limits, &check)?
                }
                (Opening::Ishitori(start), _) => {
                    self.turn_game::<IshitoriMatch>(start, [first, second], &mut rng, limits, &check)?
                }
                (Opening::NumberSquare(opening), _) => {
                    let board = match opening {
                        NumberSquareOpening::Board(board) => board.clone(),
                        NumberSquareOpening::Dealt(size) => {
                            let mut deal = StdRng::seed_from_u64(stream(seed, g / 2, BOARD_SALT));
                            NumberSquareBoard::shuffled(*size, &mut deal).map_err(broken)?
                        }
                    };
                    self.number_square_game(board, [first, second], &mut rng, limits, &check)?
                }
                (Opening::NineSquare, _) => self.nine_square_game([first, second], &mut rng, limits, &check)?,
                (Opening::ConnectFour(start), _) => {
                    self.turn_game::<ConnectFourMatch>(start, [first, second], &mut rng, limits, &check)?
                }
            };
            tally.add(GameOutcome {
                a_moved_first: a_first,
                margin: if a_first { first_margin } else { -first_margin },
            });
            progress(g + 1);
        }
        Ok(tally)
    }

    /// A game of two players without dice, through the `Game` trait; the
    /// first seat's margin (+1 a win, -1 a loss, 0 a draw).
    fn turn_game<T: TurnGame>(
        &self,
        start: &T::Game,
        players: [Strategy; 2],
        rng: &mut StdRng,
        limits: &SearchLimits,
        check: &dyn Fn() -> Result<(), ArenaError>,
    ) -> Result<i64, ArenaError> {
        let mut game = start.clone();
        loop {
            check()?;
            let GameTurn::Player(seat) = game.turn() else { break };
            let strategy = players
                .get(seat)
                .ok_or_else(|| broken(format!("{}: seat {seat} in a two-player game", self.game)))?;
            let mv = match strategy.ai_level() {
                Some(level) => players::turn_move::<T>(&game, &ai(level), &self.context(limits), rng)?,
                None => *game
                    .legal_moves()
                    .choose(rng)
                    .ok_or_else(|| broken(format!("{}: no legal move in a game in progress", self.game)))?,
            };
            game.play(mv);
        }
        match game.result() {
            Some(Ending::Won(seat)) => Ok(sign_of_first(Some(seat == 0))),
            Some(Ending::Draw) => Ok(0),
            None => Err(broken(format!(
                "{}: a game with dice reached the arena's turn loop",
                self.game
            ))),
        }
    }

    fn number_square_tile(
        &self,
        board: &NumberSquareBoard,
        strategy: Strategy,
        rng: &mut StdRng,
        limits: &SearchLimits,
    ) -> Option<Tile> {
        let level = match strategy {
            Strategy::Lookahead2 => return lookahead2(board),
            Strategy::Random => return random_tile(board, rng),
            other => other.ai_level().unwrap_or(MAX_LEVEL),
        };
        // The match AI itself, under the arena's node budget.
        players::number_square_tile(board, &ai(level), &self.context(limits), rng).ok()
    }

    fn number_square_game(
        &self,
        start: NumberSquareBoard,
        players: [Strategy; 2],
        rng: &mut StdRng,
        limits: &SearchLimits,
        check: &dyn Fn() -> Result<(), ArenaError>,
    ) -> Result<i64, ArenaError> {
        let mut board = start;
        let mut scores = [0i64; 2];
        let mut mover = 0;
        while !board.is_over() {
            check()?;
            let tile = self
                .number_square_tile(&board, players[mover], rng, limits)
                .ok_or_else(|| broken("number square: no move chosen in a game in progress"))?;
            let played = board.play(tile).map_err(broken)?;
            scores[mover] += played.points;
            board = played.board;
            mover = 1 - mover;
        }
        Ok(scores[0] - scores[1])
    }

    fn nine_square_game(
        &self,
        players: [Strategy; 2],
        rng: &mut StdRng,
        limits: &SearchLimits,
        check: &dyn Fn() -> Result<(), ArenaError>,
    ) -> Result<i64, ArenaError> {
        let mut game = NineSquareGame::new();
        while let Turn::Roll(player) = game.turn() {
            check()?;
            let die = rng.gen_range(1..=DIE_FACES);
            game.roll(die).map_err(broken)?;
            let position = game
                .position(die)
                .ok_or_else(|| broken("nine square: no position after a roll"))?;
            let strategy = players[usize::from(player != NineSquarePlayer::X)];
            let placements = match strategy {
                Strategy::Greedy => greedy_placements(&position),
                Strategy::Random => random_placements(&position, rng),
                other => {
                    let level = other.ai_level().unwrap_or(MAX_LEVEL);
                    players::nine_square_placements(&position, &ai(level), &self.context(limits), rng)
                }
            };
            for at in placements {
                game.place(at).map_err(broken)?;
            }
            if matches!(game.turn(), Turn::Place { .. }) {
                return Err(broken(format!("nine square: {strategy} placed too few marks")));
            }
        }
        Ok(i64::from(game.board().score().margin_for(NineSquarePlayer::X)))
    }

    /// The report of a run (and of the exact evaluation, when there is one).
    pub fn report(&self, seed: u64, tally: &Tally, exact: Option<ExactPig>) -> Report {
        let scores = matches!(self.game, GameKind::Pig | GameKind::NumberSquare | GameKind::NineSquare);
        Report {
            game: self.game.as_str(),
            games: tally.games(),
            seed,
            a: Side {
                strategy: self.a.name(self.game),
                record: tally.a.clone(),
            },
            b: Side {
                strategy: self.b.name(self.game),
                record: tally.b.clone(),
            },
            a_share: tally.a_share(),
            a_share_ci95: tally.a_share_ci95(),
            mean_margin: tally.mean_margin().filter(|_| scores),
            seats: tally.seats.clone(),
            exact: exact.map(|e| ExactReport {
                a_first: e.a_first,
                a_second: e.a_second,
                a_share: e.a_share(),
            }),
        }
    }
}
