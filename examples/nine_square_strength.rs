//! Nine Square strength: `best` (per-turn time budget) against the seed
//! paper's `greedy`, seats alternating, dice seeded (both seat orders of a
//! pair see the same dice).
//!
//! `cargo run --release --example nine_square_strength -- [games=200] [ms=100]`

use std::time::Duration;

use kibitz::arena::summary::wilson;
use kibitz::games::nine_square::Player;
use kibitz::strategies::nine_square::{play_game, Strategy};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let games = args.first().copied().unwrap_or(200);
    let ms = args.get(1).copied().unwrap_or(100);
    let best = Strategy::Best {
        per_move: Duration::from_millis(ms),
        max_nodes: None,
    };
    let greedy = Strategy::Greedy;
    let (mut wins, mut draws, mut losses, mut margin) = (0u64, 0u64, 0u64, 0i64);
    for g in 0..games {
        let best_is_x = g % 2 == 0;
        let (x, o) = if best_is_x { (&best, &greedy) } else { (&greedy, &best) };
        let played = play_game(x, o, g / 2);
        let seat = if best_is_x { Player::X } else { Player::O };
        let m = played.score.margin_for(seat);
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
