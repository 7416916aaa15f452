//! Nine Square strength: `best` (per-turn time budget) against the seed
//! paper's `greedy`, seats alternating, dice seeded (both seat orders of a
//! pair see the same dice: neither player draws from the game's stream).
//!
//! `cargo run --release --example nine_square_strength -- [games=200] [ms=100]`

use std::time::Duration;

use kibitz::arena::players::{play_out, Chooser, FromFn, Referee};
use kibitz::arena::summary::wilson;
use kibitz::games::nine_square::solve::best_placements;
use kibitz::games::nine_square::Greedy;
use kibitz::games::nine_square::{NineSquareMove, NineSquareState, Player};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// One game from an empty grid, X first, the dice drawn from `seed`.
fn play(x: &mut dyn Chooser<NineSquareState>, o: &mut dyn Chooser<NineSquareState>, seed: u64) -> NineSquareState {
    let mut game = NineSquareState::new();
    let mut rng = StdRng::seed_from_u64(seed);
    play_out(&mut game, [x, o], &mut rng, &Referee::untimed()).expect("a legal game");
    game
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let games = args.first().copied().unwrap_or(200);
    let ms = args.get(1).copied().unwrap_or(100);
    // The search's own seed: the position's, so it draws nothing from the dice.
    let mut best = FromFn(|game: &NineSquareState| {
        let position = game.position(game.rolled()).expect("a placement is due");
        let seed = u64::from(game.rolled()) + game.board().empty_cells().count() as u64;
        let limits = SearchLimits::within(Duration::from_millis(ms));
        best_placements(&position, &limits, seed)
            .placements
            .into_iter()
            .map(NineSquareMove::Place)
    });
    let (mut wins, mut draws, mut losses, mut margin) = (0u64, 0u64, 0u64, 0i64);
    for g in 0..games {
        let best_is_x = g % 2 == 0;
        let played = if best_is_x {
            play(&mut best, &mut Greedy, g / 2)
        } else {
            play(&mut Greedy, &mut best, g / 2)
        };
        let seat = if best_is_x { Player::X } else { Player::O };
        let m = played.board().score().margin_for(seat);
        margin += i64::from(m);
        match m.signum() {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    let n = games as f64;
    let share = (wins as f64 + draws as f64 / 2.0) / n;
    let [lo, hi] = wilson(share, n);
    println!(
        "best@{ms}ms vs greedy: {games} games, {wins} wins, {draws} draws, {losses} losses; \
         points share {share:.3} (95% CI {lo:.3}..{hi:.3}); mean margin {:+.2}",
        margin as f64 / n
    );
}
