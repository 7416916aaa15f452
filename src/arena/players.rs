//! Players: anything that chooses moves in a [`Game`], and the one loop
//! that plays a game between two of them.
//!
//! Every arena player is a [`Chooser`]: the match AI at a level, a uniform
//! random player, and each game's own (the seed papers' AIs, Pig's
//! policies; see [`super::games`]). Which players a game has, by name, is
//! [`super::strategy`]'s business.

use rand::seq::SliceRandom;
use rand::RngCore;

use crate::core::game::{Game, Turn};
use crate::matches::players::check_in_a_row;

use super::ArenaError;

/// A player that chooses its moves in games of `G`.
pub trait Chooser<G: Game> {
    /// The moves this player plays in a row at its turn in `game` (most
    /// games: one; a player may also play one at a time, as the loop asks
    /// again while the turn is still its own). `rng` is its only source of
    /// randomness, so a seeded series is repeatable.
    fn choose(&mut self, game: &G, rng: &mut dyn RngCore) -> Result<Vec<G::Move>, ArenaError>;
}

/// Uniform among the legal moves, one at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformRandom;

impl<G: Game> Chooser<G> for UniformRandom {
    fn choose(&mut self, game: &G, rng: &mut dyn RngCore) -> Result<Vec<G::Move>, ArenaError> {
        game.legal_moves()
            .choose(rng)
            .map(|&mv| vec![mv])
            .ok_or_else(|| ArenaError::Internal("random: no legal move in a game in progress".to_string()))
    }
}

/// A function of the position as a player (tests pit solvers this way):
/// the moves it plays in a row (an `Option` for one move or none).
pub struct FromFn<F>(pub F);

impl<G: Game, F, M> Chooser<G> for FromFn<F>
where
    F: FnMut(&G) -> M,
    M: IntoIterator<Item = G::Move>,
{
    fn choose(&mut self, game: &G, _rng: &mut dyn RngCore) -> Result<Vec<G::Move>, ArenaError> {
        Ok((self.0)(game).into_iter().collect())
    }
}

/// The dice: the outcome of a chance turn; None for a game without dice.
pub type Dice<'a, G> = &'a dyn Fn(&G, &mut dyn RngCore) -> Option<<G as Game>::Move>;

/// What a game needs besides its players: the dice, and a check before
/// every move (the run's deadline).
pub struct Referee<'a, G: Game> {
    pub roll: Dice<'a, G>,
    pub check: &'a dyn Fn() -> Result<(), ArenaError>,
}

impl<G: Game> Referee<'_, G> {
    /// The game's dice (if it has any) as its chance outcomes say, and no
    /// deadline.
    pub fn untimed() -> Referee<'static, G> {
        Referee {
            roll: &by_chance::<G>,
            check: &|| Ok(()),
        }
    }
}

/// A chance outcome drawn with the probabilities the game gives them.
pub fn by_chance<G: Game>(game: &G, rng: &mut dyn RngCore) -> Option<G::Move> {
    game.chance_outcomes()
        .choose_weighted(rng, |&(_, p)| p)
        .ok()
        .map(|&(mv, _)| mv)
}

/// Plays `game` to its end, seat 0's player first: each player's moves
/// checked against the rules as they are played, the dice rolled by the
/// referee, every random draw from `rng`.
pub fn play_out<G: Game>(
    game: &mut G,
    seats: [&mut dyn Chooser<G>; 2],
    rng: &mut dyn RngCore,
    referee: &Referee<G>,
) -> Result<(), ArenaError> {
    let [first, second] = seats;
    loop {
        (referee.check)()?;
        let moves = match game.turn() {
            Turn::Over => return Ok(()),
            Turn::Chance => {
                let outcome = (referee.roll)(game, rng)
                    .ok_or_else(|| ArenaError::Internal("a chance turn without dice".to_string()))?;
                vec![outcome]
            }
            Turn::Player(seat) => {
                let player: &mut dyn Chooser<G> = match seat {
                    0 => &mut *first,
                    1 => &mut *second,
                    _ => return Err(ArenaError::Internal(format!("seat {seat} in a two-player game"))),
                };
                let moves = player.choose(game, rng)?;
                check_in_a_row(game, &moves)
                    .map_err(|e| ArenaError::Internal(format!("the player in seat {seat} {e}")))?;
                moves
            }
        };
        for mv in moves {
            game.play(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::core::game::{GameOutcome, Seat};

    /// A heap; each turn takes 1 or 2, and whoever takes the last wins:
    /// a game small enough to follow by hand.
    #[derive(Clone)]
    struct Countdown {
        heap: u8,
        mover: Seat,
    }

    impl Game for Countdown {
        type Move = u8;

        fn turn(&self) -> Turn {
            if self.heap == 0 {
                Turn::Over
            } else {
                Turn::Player(self.mover)
            }
        }

        fn legal_moves(&self) -> Vec<u8> {
            (1..=2).filter(|&take| take <= self.heap).collect()
        }

        fn play(&mut self, take: u8) {
            debug_assert!(self.legal_moves().contains(&take));
            self.heap -= take;
            self.mover = 1 - self.mover;
        }

        fn result(&self) -> Option<GameOutcome> {
            (self.heap == 0).then_some(GameOutcome::Won(1 - self.mover))
        }
    }

    fn countdown(heap: u8) -> Countdown {
        Countdown { heap, mover: 0 }
    }

    #[test]
    fn each_player_is_asked_only_at_its_own_turns_until_the_end() {
        for seed in 0..20 {
            let mut game = countdown(5 + seed as u8);
            let asked = [Cell::new(0), Cell::new(0)];
            let mut first = FromFn(|g: &Countdown| {
                assert_eq!(g.turn(), Turn::Player(0));
                asked[0].set(asked[0].get() + 1);
                g.legal_moves().first().copied()
            });
            let mut second = FromFn(|g: &Countdown| {
                assert_eq!(g.turn(), Turn::Player(1));
                asked[1].set(asked[1].get() + 1);
                g.legal_moves().last().copied()
            });
            let mut rng = StdRng::seed_from_u64(seed);
            play_out(&mut game, [&mut first, &mut second], &mut rng, &Referee::untimed()).unwrap();
            assert_eq!(game.turn(), Turn::Over);
            // Seat 0 moved first and the turns alternated.
            let (a, b) = (asked[0].get(), asked[1].get());
            assert!(a == b || a == b + 1, "{a} and {b} moves");
            assert!(a >= 1);
        }
    }

    #[test]
    fn an_illegal_or_missing_choice_is_refused_and_names_the_seat() {
        let mut game = countdown(6);
        let mut nowhere = FromFn(|_: &Countdown| Some(7));
        let mut rng = StdRng::seed_from_u64(0);
        let err = play_out(
            &mut game,
            [&mut nowhere, &mut UniformRandom],
            &mut rng,
            &Referee::untimed(),
        )
        .unwrap_err();
        assert!(
            matches!(&err, ArenaError::Internal(m) if m.contains("seat 0") && m.contains("illegal")),
            "{err}"
        );
        let mut silent = FromFn(|_: &Countdown| None);
        let err = play_out(
            &mut game,
            [&mut UniformRandom, &mut silent],
            &mut rng,
            &Referee::untimed(),
        )
        .unwrap_err();
        assert!(
            matches!(&err, ArenaError::Internal(m) if m.contains("seat 1") && m.contains("no move")),
            "{err}"
        );
    }
}
