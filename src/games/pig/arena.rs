//! Pig players as policies: each gives the probability of rolling in every
//! state. The same policy drives a sampled game (the arena's runner) and the exact
//! evaluation ([`super::arena_exact`]), so the two can only disagree through
//! the game loop or the evaluation, which is what the tests compare.
//!
//! Two rules hold for every player, so that each game ends and the chain
//! of states stays finite: a player who can win by holding holds, and in
//! standard Pig a deterministic player never holds with turn total 0 (that
//! would pass the turn; it is never better than rolling).

use std::sync::Arc;

use rand::Rng;

use super::tables::shared_tables;
use crate::games::pig::solve::PigTable;
use crate::games::pig::{Action, PigRules, Variant};
use crate::matches::levels::{probabilities, MAX_LEVEL};

use rand::RngCore;

use super::arena_exact::evaluate;
use super::matches::{level_values, PigMatch};
use super::{PigMove, PigState};
use crate::arena::games::{ArenaGame, Player};
use crate::arena::players::Chooser;
use crate::arena::strategy::{number, Strategy};
use crate::arena::{ArenaError, ExactChances};
use crate::core::game::Game;
use crate::matches::AiContext;

/// "Keep pace and end race": from this score on (either player's), roll
/// until holding wins.
const KPER_END_RACE: u32 = 71;
/// ... otherwise hold at 21 + round((opponent - mine) / 8).
const KPER_BASE: f64 = 21.0;
const KPER_PACE: f64 = 8.0;

#[derive(Clone, Debug)]
enum Kind {
    /// The table's optimal action.
    Optimal,
    /// The match AI's softmax over the table's action values.
    Level(u8),
    HoldAt(u32),
    Kper,
    Random,
}

#[derive(Clone, Debug)]
pub struct PigPolicy {
    kind: Kind,
    rules: PigRules,
    table: Arc<PigTable>,
}

impl PigPolicy {
    /// `table` is the optimal table for `rules` (the optimal and level players read it).
    pub fn new(strategy: Strategy, table: Arc<PigTable>) -> Result<PigPolicy, ArenaError> {
        let kind = match strategy {
            Strategy::Best => Kind::Optimal,
            Strategy::Level(level) if level >= MAX_LEVEL => Kind::Optimal,
            Strategy::Level(level) => Kind::Level(level),
            Strategy::HoldAt(n) => Kind::HoldAt(n),
            Strategy::Kper => Kind::Kper,
            Strategy::Random => Kind::Random,
            other => return Err(ArenaError::Internal(format!("{other} is not a Pig strategy"))),
        };
        Ok(PigPolicy {
            kind,
            rules: *table.rules(),
            table,
        })
    }

    pub fn rules(&self) -> &PigRules {
        &self.rules
    }

    /// True when holding with turn total `k` reaches the goal.
    pub fn holding_wins(&self, i: u32, k: u32) -> bool {
        i + self.rules.banked_on_hold(k) >= self.rules.goal()
    }

    /// The probability of rolling with score `i`, the opponent's `j` and
    /// turn total `k`.
    pub fn roll_probability(&self, i: u32, j: u32, k: u32) -> f64 {
        if self.holding_wins(i, k) {
            return 0.0;
        }
        let passing = k == 0 && self.rules.variant() == Variant::Standard;
        let rolls_below = |threshold: f64| if passing || f64::from(k) < threshold { 1.0 } else { 0.0 };
        match self.kind {
            Kind::Optimal => {
                let roll = passing || self.table.action(i, j, k) == Action::Roll;
                if roll {
                    1.0
                } else {
                    0.0
                }
            }
            Kind::Level(level) => probabilities(&level_values(&self.table, i, j, k), level)[0],
            Kind::HoldAt(n) => rolls_below(f64::from(n)),
            Kind::Kper => {
                if i >= KPER_END_RACE || j >= KPER_END_RACE {
                    1.0
                } else {
                    let pace = ((f64::from(j) - f64::from(i)) / KPER_PACE).round();
                    rolls_below(KPER_BASE + pace)
                }
            }
            Kind::Random => 0.5,
        }
    }

    pub(crate) fn rolls<R: Rng + ?Sized>(&self, i: u32, j: u32, k: u32, rng: &mut R) -> bool {
        let p = self.roll_probability(i, j, k);
        // Certain choices leave the random stream alone.
        if p >= 1.0 {
            true
        } else if p <= 0.0 {
            false
        } else {
            rng.gen::<f64>() < p
        }
    }
}

/// Every Pig player, `level:N` and `random` included, is a policy over the
/// exact table: the same policy the exact evaluation reads.
impl ArenaGame for PigMatch {
    const BEST_NAME: &'static str = "optimal";
    const OWN_NAMES: &'static [&'static str] = &["hold_at:N (N >= 1)", "kper"];
    const EXACT: bool = true;

    fn own_strategy(name: &str) -> Option<Strategy> {
        match name.split_once(':') {
            // hold_at:0 would pass every turn and never finish a game.
            Some(("hold_at", n)) => number(n).filter(|&n| n >= 1).map(Strategy::HoldAt),
            Some(_) => None,
            None => (name == "kper").then_some(Strategy::Kper),
        }
    }

    fn own_player(strategy: Strategy, rules: &PigRules, ctx: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        let table = shared_tables(ctx.solvers).get_blocking(*rules);
        Ok(Some(Box::new(PigPolicy::new(strategy, table)?)))
    }

    /// By policy evaluation over the exact table.
    fn exact(a: Strategy, b: Strategy, rules: &PigRules, ctx: &AiContext) -> Option<Result<ExactChances, ArenaError>> {
        let table = shared_tables(ctx.solvers).get_blocking(*rules);
        let policies = PigPolicy::new(a, Arc::clone(&table)).and_then(|a| Ok((a, PigPolicy::new(b, table)?)));
        Some(policies.map(|(a, b)| evaluate(&a, &b)))
    }
}

/// A policy plays by its probability of rolling here.
impl Chooser<PigState> for PigPolicy {
    fn choose(&mut self, game: &PigState, rng: &mut dyn RngCore) -> Result<Vec<PigMove>, ArenaError> {
        let mover = game.to_move();
        let rolls = self.rolls(game.score(mover), game.score(1 - mover), game.turn_total(), rng);
        let mv = if rolls && game.legal_moves().contains(&PigMove::Roll) {
            PigMove::Roll
        } else {
            PigMove::Hold
        };
        Ok(vec![mv])
    }
}

/// The arena's players and referee with real dice: Pig's.
#[cfg(test)]
mod dice_tests {
    use std::cell::Cell;

    use rand::rngs::StdRng;
    use rand::{RngCore, SeedableRng};

    use crate::arena::players::{by_chance, play_out, FromFn, Referee, UniformRandom};
    use crate::arena::ArenaError;
    use crate::core::game::{Game, GameOutcome};
    use crate::games::pig::{PigMove, PigRules, PigState, Variant};

    #[test]
    fn dice_by_chance_follow_the_games_probabilities() {
        let rules = PigRules::new(10, 4, Variant::Standard, 200).unwrap();
        let mut game = PigState::new(rules);
        assert_eq!(by_chance(&game, &mut StdRng::seed_from_u64(0)), None);
        game.play(PigMove::Roll);
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = [0u32; 5];
        for _ in 0..4000 {
            match by_chance(&game, &mut rng) {
                Some(PigMove::Face(face)) => seen[face as usize] += 1,
                other => panic!("not a face: {other:?}"),
            }
        }
        // Each of four faces about 1000 times (5 sigma is about 137).
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&n| (860..=1140).contains(&n)), "{seen:?}");
    }

    #[test]
    fn the_referee_rolls_the_dice_and_can_stop_the_game() {
        // Goal 4 with a die that always shows 2: seat 0 rolls twice and holds.
        let rules = PigRules::new(4, 6, Variant::Standard, 200).unwrap();
        let mut roll_until_four = FromFn(|g: &PigState| {
            Some(if g.turn_total() < 4 {
                PigMove::Roll
            } else {
                PigMove::Hold
            })
        });
        let rolls = Cell::new(0);
        let two = |_: &PigState, _: &mut dyn RngCore| {
            rolls.set(rolls.get() + 1);
            Some(PigMove::Face(2))
        };
        let referee = Referee {
            roll: &two,
            check: &|| Ok(()),
        };
        let mut game = PigState::new(rules);
        let mut rng = StdRng::seed_from_u64(0);
        play_out(
            &mut game,
            [&mut roll_until_four, &mut UniformRandom],
            &mut rng,
            &referee,
        )
        .unwrap();
        assert_eq!((game.result(), rolls.get()), (Some(GameOutcome::Won(0)), 2));

        let stopped = Referee {
            roll: &two,
            check: &|| Err(ArenaError::OutOfTime { played: 0, games: 1 }),
        };
        let mut game = PigState::new(rules);
        let err = play_out(&mut game, [&mut UniformRandom, &mut UniformRandom], &mut rng, &stopped).unwrap_err();
        assert_eq!(err, ArenaError::OutOfTime { played: 0, games: 1 });
        assert_eq!(game, PigState::new(rules));
    }
}
