//! The exact two-sided bear-off table against a brute force written here
//! (its own move generator for home-board checkers, plain recursion with
//! a memo over positions of up to 3 checkers a side) and against facts
//! worked out by hand; and near GNU Backgammon's estimate from its
//! one-sided database (support/gnubg.rs: without gnubg that test fails
//! unless KIBITZ_TEST_GNUBG=skip).

use std::collections::HashMap;
use std::time::Instant;

use kibitz::games::backgammon::bearoff::{exact_plays, exact_race, table, MAX_CHECKERS};
use kibitz::games::backgammon::{legal_plays, Board, Dice, Side};

use super::gnubg_support;

/// A side's home board: `h[i]` checkers on its point `i + 1`.
type Home = [u8; 6];

/// The board with the mover's `mine` and the opponent's `theirs` (each
/// on its own points 1..=6), the rest borne off.
fn board(mine: Home, theirs: Home) -> Board {
    let mut points = [0i64; 24];
    for i in 0..6 {
        points[i] = i64::from(mine[i]);
        points[23 - i] = -i64::from(theirs[i]);
    }
    let off = |h: Home| 15 - h.iter().map(|&c| i64::from(c)).sum::<i64>();
    Board::from_parts(&points, 0, 0, off(mine), off(theirs)).expect("a bear-off board")
}

/// Every home with at most `n` checkers.
fn homes(n: u8) -> Vec<Home> {
    let mut all = Vec::new();
    let mut h = [0u8; 6];
    loop {
        if h.iter().sum::<u8>() <= n {
            all.push(h);
        }
        let mut i = 0;
        loop {
            if i == 6 {
                return all;
            }
            h[i] += 1;
            if h[i] <= n {
                break;
            }
            h[i] = 0;
            i += 1;
        }
    }
}

/// The test's own bear-off moves: one checker from point `p` (1..=6) by
/// `die`: down, off with the exact die, or off with a larger die when
/// nothing stands above it.
fn step(h: Home, p: usize, die: usize) -> Option<Home> {
    if h[p - 1] == 0 {
        return None;
    }
    let mut next = h;
    next[p - 1] -= 1;
    if p > die {
        next[p - 1 - die] += 1;
        return Some(next);
    }
    let above_empty = (p + 1..=6).all(|q| h[q - 1] == 0);
    (p == die || above_empty).then_some(next)
}

/// The positions a roll can lead to (as many dice as possible; in a
/// bear-off every die can always be played, so that is every die until
/// the checkers run out).
fn reachable(h: Home, dice: &[usize], out: &mut Vec<Home>) {
    let mut moved = false;
    if let Some((&die, rest)) = dice.split_first() {
        for p in 1..=6 {
            if let Some(next) = step(h, p, die) {
                moved = true;
                reachable(next, rest, out);
            }
        }
    }
    if !moved {
        out.push(h);
    }
}

fn empty(h: Home) -> bool {
    h.iter().all(|&c| c == 0)
}

/// P(the side on roll wins), by recursion over the 36 ordered rolls.
fn brute(mine: Home, theirs: Home, memo: &mut HashMap<(Home, Home), f64>) -> f64 {
    if let Some(&p) = memo.get(&(mine, theirs)) {
        return p;
    }
    let mut total = 0.0;
    for a in 1..=6 {
        for b in 1..=6 {
            let dice = if a == b { vec![a; 4] } else { vec![a, b] };
            let mut after = Vec::new();
            reachable(mine, &dice, &mut after);
            if a != b {
                reachable(mine, &[b, a], &mut after);
            }
            let best = after
                .into_iter()
                .map(|next| {
                    if empty(next) {
                        1.0
                    } else {
                        1.0 - brute(theirs, next, memo)
                    }
                })
                .fold(0.0, f64::max);
            total += best / 36.0;
        }
    }
    memo.insert((mine, theirs), total);
    total
}

#[test]
fn the_table_equals_a_brute_force_up_to_three_checkers() {
    let started = Instant::now();
    let table = table();
    eprintln!(
        "bear-off table: {} bytes, built in {:?} (this test profile)",
        table.memory_bytes(),
        started.elapsed()
    );
    assert_eq!(table.memory_bytes(), 924 * 924 * 8);
    assert_eq!(MAX_CHECKERS, 6);
    let small: Vec<Home> = homes(3).into_iter().filter(|&h| !empty(h)).collect();
    assert_eq!(small.len(), 83);
    let mut memo = HashMap::new();
    for &mine in &small {
        for &theirs in &small {
            let exact = exact_race(&board(mine, theirs)).expect("in the table");
            let expected = brute(mine, theirs, &mut memo);
            assert!(
                (exact.win - expected).abs() < 1e-12,
                "{mine:?} vs {theirs:?}: {} != {expected}",
                exact.win
            );
            assert_eq!(exact.equity, 2.0 * exact.win - 1.0);
            assert_eq!((exact.win_gammon, exact.lose_gammon), (0.0, 0.0));
        }
    }
}

#[test]
fn known_values() {
    // One checker each on the 1 point, the mover on roll: any roll bears
    // it off.
    let race = exact_race(&board([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])).expect("covered");
    // (1 up to rounding: the table adds the 21 rolls' weights.)
    assert!((race.win - 1.0).abs() < 1e-15, "{}", race.win);
    assert!((race.equity - 1.0).abs() < 1e-15);

    // The mover's one checker on the 6 point against one on the 1 point:
    // the mover wins only by bearing off now (the opponent surely does
    // next). Rolls that do, of 36: any 6 (11); 5-1, 5-2, 5-3, 5-4, 4-2,
    // 4-3 either way (12: the pips reach 6 and the second die bears off
    // from the point the first reached); 2-2, 3-3, 4-4, 5-5 (4; 1-1 goes
    // only 4 pips). 27 / 36 = 3/4.
    let race = exact_race(&board([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0])).expect("covered");
    assert!((race.win - 0.75).abs() < 1e-15, "{}", race.win);
    assert!((race.equity - 0.5).abs() < 1e-15);

    // Seen from the opponent (the 1-point checker on roll): a sure win.
    let race = exact_race(&board([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1])).expect("covered");
    assert!((race.win - 1.0).abs() < 1e-15, "{}", race.win);
}

#[test]
fn outside_the_table_is_none() {
    assert!(exact_race(&Board::start()).is_none());
    // Seven checkers for the mover: past the table.
    assert!(exact_race(&board([2, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 0])).is_none());
    // A checker on the 7 point.
    let mut points = [0i64; 24];
    points[6] = 1;
    points[23] = -1;
    let b = Board::from_parts(&points, 0, 0, 14, 14).expect("board");
    assert!(exact_race(&b).is_none());
    assert!(exact_plays(&b, Dice::new(3, 1).expect("dice")).is_none());
}

#[test]
fn plays_are_ranked_by_their_exact_chances() {
    // Six checkers against six, every roll: the first play is the best,
    // each play's chance is 1 - the opponent's on roll after it, and the
    // position's value is the average over the rolls of the best plays.
    let mine = [0, 2, 0, 1, 1, 2];
    let theirs = [1, 1, 1, 1, 1, 1];
    let b = board(mine, theirs);
    let before = exact_race(&b).expect("covered").win;
    let mut average = 0.0;
    for (dice, weight) in Dice::all() {
        let plays = exact_plays(&b, dice).expect("covered");
        assert_eq!(plays.len(), legal_plays(&b, dice).len());
        for pair in plays.windows(2) {
            assert!(pair[0].race.equity >= pair[1].race.equity);
        }
        for ranked in &plays {
            let after = ranked.play.result;
            let expected = if after.off(Side::Me) == 15 {
                1.0
            } else {
                1.0 - exact_race(&after.flipped()).expect("covered").win
            };
            assert!((ranked.race.win - expected).abs() < 1e-15);
        }
        average += weight * plays[0].race.win;
    }
    assert!((average - before).abs() < 1e-12, "{average} vs {before}");
}

#[test]
fn close_to_gnubgs_one_sided_estimate() {
    let Some(gnubg) = gnubg_support::gnubg() else { return };
    // Every 997th pair of homes with 1 to 6 checkers a side: 855 pairs.
    let all: Vec<Home> = homes(6).into_iter().filter(|&h| !empty(h)).collect();
    let pairs: Vec<(Home, Home)> = (0..all.len() * all.len())
        .step_by(997)
        .map(|i| (all[i / all.len()], all[i % all.len()]))
        .collect();
    let ids: Vec<String> = pairs.iter().map(|&(m, t)| board(m, t).position_id()).collect();
    let answers = gnubg_support::run_script(&gnubg, "backgammon_gnubg_bearoff.py", &ids, "EVAL ");
    let mut worst = 0.0f64;
    for ((&(mine, theirs), id), answer) in pairs.iter().zip(&ids).zip(&answers) {
        let fields: Vec<&str> = answer.split_whitespace().collect();
        assert_eq!(fields[1], id.as_str());
        let theirs_win: f64 = fields[2].parse().expect("a probability");
        let exact = exact_race(&board(mine, theirs)).expect("covered").win;
        worst = worst.max((exact - theirs_win).abs());
        // gnubg's estimate (from each side's distribution of rolls to
        // bear off, stored in 16 bits) came within 5.0e-5 of the exact
        // value on these 855 pairs; a wrong table would be far off.
        assert!(
            (exact - theirs_win).abs() < 1e-3,
            "{id}: exact {exact}, gnubg {theirs_win}"
        );
    }
    eprintln!("{} positions, largest difference from gnubg {worst:.6}", pairs.len());
}
