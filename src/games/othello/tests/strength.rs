//! The engine against the simple players, at a small node budget per move
//! (so the result does not depend on the machine): it must win every game
//! against greedy and against random, on 6x6 and 8x8, playing both
//! colours from a few random openings. The arena measures the real
//! strength at 100 ms a move.

use std::time::Duration;

use kibitz::games::game::{Game, Seat, Turn};
use kibitz::games::othello::{greedy_move, OthelloEngine, OthelloMove, OthelloState, Size};
use kibitz::solve::limits::SearchLimits;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Opponent {
    Greedy,
    Random,
}

impl Opponent {
    fn name(self) -> &'static str {
        match self {
            Opponent::Greedy => "greedy",
            Opponent::Random => "random",
        }
    }
}

/// The engine's final disc difference (empties to the winner) in one game.
fn play(size: Size, engine_seat: Seat, opponent: Opponent, rng: &mut Rng) -> i32 {
    let engine = OthelloEngine::new(1 << 18);
    let mut game = OthelloState::new(size);
    // Two random moves each to start, so that the games differ.
    for _ in 0..4 {
        let moves = game.legal_moves();
        game.play(moves[rng.below(moves.len())]);
    }
    while let Turn::Player(seat) = game.turn() {
        let mv = if seat == engine_seat {
            let limits = SearchLimits::within(Duration::from_secs(30)).with_max_nodes(40_000);
            engine.analyze(&game, &limits).best
        } else {
            match opponent {
                Opponent::Greedy => greedy_move(&game),
                Opponent::Random => {
                    let moves = game.legal_moves();
                    moves[rng.below(moves.len())]
                }
            }
        };
        assert!(game.legal_moves().contains(&mv) || (mv == OthelloMove::Pass && game.must_pass()));
        game.play(mv);
    }
    game.final_score(engine_seat)
}

fn wins(size: Size, opponent: Opponent, games: usize) -> usize {
    let mut rng = Rng(0xABCD_EF01_2345_6789 ^ size.side() as u64);
    let scores: Vec<i32> = (0..games).map(|i| play(size, i % 2, opponent, &mut rng)).collect();
    println!(
        "{0}x{0} against {1}: the engine's scores {scores:?}",
        size.side(),
        opponent.name()
    );
    scores.iter().filter(|&&score| score > 0).count()
}

#[test]
fn the_engine_beats_greedy_and_random_on_6x6() {
    assert!(wins(Size::Six, Opponent::Greedy, 8) == 8);
    assert!(wins(Size::Six, Opponent::Random, 8) == 8);
}

#[test]
fn the_engine_beats_greedy_and_random_on_8x8() {
    assert!(wins(Size::Eight, Opponent::Greedy, 6) == 6);
    assert!(wins(Size::Eight, Opponent::Random, 6) == 6);
}
