//! Plays a series: N games between A and B, seats alternating (A moves
//! first in games 1, 3, 5, ...), game g's dice and random choices drawn
//! from a stream derived from the seed and g alone. Number Square deals one
//! board per pair of games, so both seat orders play the same board.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use serde_json::Value;

use crate::core::game::{Game, GameOutcome as Ending};
use crate::matches::players::{ai_moves, read_rules};
use crate::matches::{AiContext, AiSpec, MatchLimits, MoveBudget};
use crate::solve::limits::SearchLimits;
use crate::solve::solvers::{MemoSizes, Solvers};

use super::games::ArenaGame;
use super::kind::{ArenaGames, ArenaKind};
use super::players::{play_out, Chooser, Referee, UniformRandom};
use super::strategy::Strategy;
use super::summary::{ExactChances, GameOutcome, Tally};
use super::{ArenaError, ExactReport, Report, Side};

/// Positions each run's own searchers remember (lazily allocated).
const MEMO_CAPACITY: usize = 1 << 18;
/// Ishitori's sequences each run keeps: a run asks about one take set, so
/// a quarter of the server's default is plenty.
const SEQUENCE_BYTES: usize = MemoSizes::DEFAULT_SEQUENCE_BYTES / 4;
/// Salts that keep the per-game streams apart.
const GAME_SALT: u64 = 0x6761_6d65;
const BOARD_SALT: u64 = 0x0062_6f61_7264;

/// How far the searching players may go per move. Each game's node cap
/// (its [`ArenaGame::ARENA_NODES`]) makes a run repeatable; `per_move` (when
/// set) is a wall-clock cap on top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub per_move: Option<Duration>,
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
    game: ArenaKind,
    /// As the request gave them (checked in [`Arena::new`]).
    options: Option<Value>,
    a: Strategy,
    b: Strategy,
    budget: Budget,
    solvers: Solvers,
}

/// The match AI at a level, one move at a time with the run's budget (so
/// `level:N` is the very player a match's AI is at level N).
struct MatchAi<'a, T> {
    arena: &'a Arena,
    limits: &'a SearchLimits,
    spec: AiSpec,
    game: PhantomData<T>,
}

impl<T: ArenaGame> Chooser<T::Game> for MatchAi<'_, T> {
    fn choose(&mut self, game: &T::Game, rng: &mut dyn RngCore) -> Result<Vec<<T::Game as Game>::Move>, ArenaError> {
        Ok(ai_moves::<T>(game, &self.spec, &self.arena.context(self.limits), rng)?)
    }
}

/// `seed` and `index` mixed into one stream seed (SplitMix64's finaliser).
fn stream(seed: u64, index: u64, salt: u64) -> u64 {
    crate::hash::finalise(seed ^ salt ^ index.wrapping_mul(crate::hash::GOLDEN_GAMMA))
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

impl Arena {
    pub fn new(games: ArenaGames, spec: ArenaSpec, shared: &Solvers, budget: Budget) -> Result<Arena, ArenaError> {
        let game = games.find(spec.game)?;
        let a = Strategy::parse(game, "a", spec.a)?;
        let b = Strategy::parse(game, "b", spec.b)?;
        let arena = Arena {
            game,
            options: spec.options.cloned(),
            a,
            b,
            budget,
            // Memos of its own; the tables games prepared are the server's.
            solvers: shared.with_sizes(MemoSizes {
                positions: MEMO_CAPACITY,
                sequence_bytes: SEQUENCE_BYTES,
                table_entries: MEMO_CAPACITY,
                answers: 0,
                search_helpers: 0,
            }),
        };
        let limits = SearchLimits::within(Duration::from_secs(1));
        game.play().check_options(spec.options, &arena.context(&limits))?;
        Ok(arena)
    }

    pub fn game(&self) -> ArenaKind {
        self.game
    }

    /// The match AI's context for one move, its time capped by `per_move`
    /// and by what is left of the run's `limits`.
    fn context<'s>(&'s self, limits: &SearchLimits) -> AiContext<'s> {
        let time = self.move_time(limits);
        AiContext {
            solvers: &self.solvers,
            limits: MatchLimits::default().with_budget(
                self.game.kind(),
                MoveBudget {
                    time,
                    nodes: self.game.play().arena_nodes(),
                },
            ),
        }
    }

    /// One move's time: `per_move`, within what is left of the run.
    fn move_time(&self, limits: &SearchLimits) -> Duration {
        let left = limits.deadline().saturating_duration_since(Instant::now());
        self.budget.per_move.map_or(left, |cap| cap.min(left))
    }

    /// Whether [`Arena::exact`] can evaluate this game.
    pub fn has_exact(&self) -> bool {
        self.game.play().has_exact()
    }

    /// A's chances computed exactly, for the games that can (Pig, by
    /// policy evaluation).
    pub fn exact(&self) -> Result<ExactChances, ArenaError> {
        self.game.play().exact(self)
    }

    pub(crate) fn exact_as<T: ArenaGame>(&self) -> Result<ExactChances, ArenaError> {
        let limits = SearchLimits::within(Duration::from_secs(1));
        let ctx = self.context(&limits);
        let options = read_rules::<T>(self.options.as_ref(), ctx.solvers)?;
        T::exact(self.a, self.b, &options, &ctx).unwrap_or(Err(ArenaError::NoExactEvaluation(self.game.as_str())))
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
        self.game.play().run(self, games, seed, limits, progress)
    }

    pub(crate) fn run_as<T: ArenaGame>(
        &self,
        games: u64,
        seed: u64,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Tally, ArenaError> {
        let options = read_rules::<T>(self.options.as_ref(), self.context(limits).solvers)?;
        let mut a = self.player::<T>(self.a, &options, limits)?;
        let mut b = self.player::<T>(self.b, &options, limits)?;
        let mut tally = Tally::default();
        for g in 0..games {
            let a_first = g % 2 == 0;
            let seats: [&mut dyn Chooser<T::Game>; 2] = if a_first {
                [&mut *a, &mut *b]
            } else {
                [&mut *b, &mut *a]
            };
            let mut rng = StdRng::seed_from_u64(stream(seed, g, GAME_SALT));
            // What the options leave to chance (a Number Square board) is
            // dealt once per pair of games, so both seat orders play it.
            let mut deal = StdRng::seed_from_u64(stream(seed, g / 2, BOARD_SALT));
            let check = || {
                if limits.exhausted(0) {
                    Err(ArenaError::OutOfTime { played: g, games })
                } else {
                    Ok(())
                }
            };
            check()?;
            let options = T::settle(options.clone(), &mut deal)?;
            let mut game = T::new_game(&options, &self.context(limits))?;
            let roll = |game: &T::Game, rng: &mut dyn RngCore| T::roll(game, rng).map(|(outcome, _)| outcome);
            let referee = Referee {
                roll: &roll,
                check: &check,
            };
            play_out(&mut game, seats, &mut rng, &referee).map_err(|e| match e {
                ArenaError::Internal(what) => broken(format!("{}: {what}", self.game)),
                other => other,
            })?;
            let first_margin = self.first_margin::<T>(&game)?;
            tally.add(GameOutcome {
                a_moved_first: a_first,
                margin: if a_first { first_margin } else { -first_margin },
            });
            progress(g + 1);
        }
        Ok(tally)
    }

    /// The player `strategy` names: the game's own, else the match AI at
    /// its level, else uniformly random.
    fn player<'s, T: ArenaGame + 's>(
        &'s self,
        strategy: Strategy,
        options: &T::Rules,
        limits: &'s SearchLimits,
    ) -> Result<Box<dyn Chooser<T::Game> + 's>, ArenaError> {
        if let Some(own) = T::own_player(strategy, options, &self.context(limits))? {
            return Ok(own);
        }
        Ok(match strategy.ai_level() {
            Some(level) => Box::new(MatchAi::<T> {
                arena: self,
                limits,
                spec: ai(level),
                game: PhantomData,
            }),
            None => Box::new(UniformRandom),
        })
    }

    /// The first seat's margin in a finished game: points where the game
    /// keeps score, else +1 a win, -1 a loss, 0 a draw.
    fn first_margin<T: ArenaGame>(&self, game: &T::Game) -> Result<i64, ArenaError> {
        if let Some(scores) = T::scores(game, 0) {
            return Ok(scores.human - scores.ai);
        }
        match game.result() {
            Some(Ending::Won(0)) => Ok(1),
            Some(Ending::Won(_)) => Ok(-1),
            Some(Ending::Draw) => Ok(0),
            None => Err(broken(format!("{}: the game stopped before its end", self.game))),
        }
    }

    /// The report of a run (and of the exact evaluation, when there is one).
    pub fn report(&self, seed: u64, tally: &Tally, exact: Option<ExactChances>) -> Report {
        let scores = self.game.play().keeps_score();
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
