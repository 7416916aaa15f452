//! Backgammon's rules in kibitz: the board and its checks, GNU
//! Backgammon's Position ID, the legal plays (against a move generator
//! written here and against gnubg's own list), the end of a game, the
//! cube and the match score.
//!
//! The gnubg test runs `gnubg` (PATH or /usr/games, see
//! support/gnubg.rs). Without it the test fails, unless
//! KIBITZ_TEST_GNUBG=skip says the run chose to skip it.

use std::collections::{BTreeSet, HashSet};

use kibitz::games::backgammon::{
    find_play, legal_plays, may_double, Board, Cube, CubeOwner, Dice, GameResult, MatchState, Play, Side, BAR, OFF,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::gnubg_support;

// ---------------------------------------------------------------------
// Boards written by hand.

/// A board from the mover's point counts (`(point, count)`, negative for
/// the opponent) and the bars; the rest of each side is borne off.
fn board(points: &[(usize, i64)], bar_me: i64, bar_opponent: i64) -> Board {
    let mut all = [0i64; 24];
    for &(p, n) in points {
        all[p - 1] = n;
    }
    let mine: i64 = all.iter().filter(|&&n| n > 0).sum::<i64>() + bar_me;
    let theirs: i64 = -all.iter().filter(|&&n| n < 0).sum::<i64>() + bar_opponent;
    Board::from_parts(&all, bar_me, bar_opponent, 15 - mine, 15 - theirs).expect("a legal test board")
}

fn dice(a: i64, b: i64) -> Dice {
    Dice::new(a, b).expect("dice 1..6")
}

fn notations(plays: &[Play]) -> BTreeSet<String> {
    plays.iter().map(|p| p.to_string()).collect()
}

// ---------------------------------------------------------------------
// The board and the Position ID.

#[test]
fn start_position_and_its_id() {
    let start = Board::start();
    // The start's Position ID, as GNU Backgammon's manual gives it.
    assert_eq!(start.position_id(), "4HPwATDgc/ABMA");
    assert_eq!(Board::from_position_id("4HPwATDgc/ABMA"), Ok(start));
    assert_eq!(start.pips(Side::Me), 167);
    assert_eq!(start.pips(Side::Opponent), 167);
    assert_eq!(start.flipped(), start);
    assert!(!start.is_race());
    assert!(board(&[(6, 2), (24, -1), (7, -1)], 0, 0).is_race());
    assert!(!board(&[(6, 2), (24, -1), (5, -1)], 0, 0).is_race());
    assert!(!board(&[(6, 2), (24, -1)], 0, 1).is_race());
}

#[test]
fn position_ids_from_gnubg() {
    // Each ID below was printed by gnubg 1.07.001 (/usr/games/gnubg, its
    // Python: gnubg.positionid(board)) for the board written beside it,
    // gnubg's (side not on roll, side on roll) own-side counts translated
    // to the mover's numbering.
    let cases = [
        // gnubg: not on roll 15 on its 6 point; on roll 1 on the bar and
        // 14 on its 24 point.
        ("4P8PAAAAAID/Xw", board(&[(24, 14), (19, -15)], 1, 0)),
        // gnubg: not on roll its 1 point 1, its 6 point 2; on roll its 1
        // point 2, 2 point 3, 3 point 1 (the rest borne off).
        (
            "wQAAsAsAAAAAAA",
            board(&[(1, 2), (2, 3), (3, 1), (24, -1), (19, -2)], 0, 0),
        ),
        // gnubg: not on roll 24 point 2, 13 point 5, 6 point 3, 8 point 2,
        // bar 1; on roll 8 point 3, 6 point 4, 13 point 2, bar 2.
        (
            "4Aw+ABZ4DgaAAQ",
            board(&[(8, 3), (6, 4), (13, 2), (1, -2), (12, -5), (19, -3), (17, -2)], 2, 1),
        ),
    ];
    for (id, expected) in cases {
        assert_eq!(expected.position_id(), id);
        assert_eq!(Board::from_position_id(id), Ok(expected), "{id}");
    }
}

#[test]
fn position_ids_round_trip_on_random_boards() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..2000 {
        let b = random_board(&mut rng);
        let id = b.position_id();
        assert_eq!(id.len(), 14);
        assert_eq!(Board::from_position_id(&id), Ok(b), "{id}");
        assert_eq!(b.flipped().flipped(), b);
        assert_eq!(b.flipped().pips(Side::Me), b.pips(Side::Opponent));
    }
}

#[test]
fn bad_position_ids_are_named() {
    for id in ["4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "4HPwATDgc/AB-A"] {
        let error = Board::from_position_id(id).expect_err(id);
        assert_eq!(error.field, "position", "{id}");
    }
    // All 80 bits set: far more than 15 checkers.
    assert!(Board::from_position_id("//////////////").is_err());
    // Key bit 23 (the side not on roll: one checker on its 24 point) and
    // bit 26 (the side on roll: one on its 1 point): the same point, the
    // mover's 1. Bytes 00 00 80 04 00.., in base64 by hand (Python's
    // base64 module agrees).
    let error = Board::from_position_id("AACABAAAAAAAAA").expect_err("both sides on a point");
    assert!(error.message.contains("both sides have checkers on point 1"), "{error}");
}

#[test]
fn board_checks_name_the_field() {
    let mut points = Board::start().points().map(i64::from);
    assert_eq!(Board::from_parts(&points, 0, 0, 0, 0), Ok(Board::start()));
    let error = Board::from_parts(&points[..23], 0, 0, 0, 0).unwrap_err();
    assert_eq!(error.field, "board.points");
    points[3] = 16;
    assert_eq!(
        Board::from_parts(&points, 0, 0, 0, 0).unwrap_err().field,
        "board.points[3]"
    );
    points[3] = 0;
    assert_eq!(
        Board::from_parts(&points, -1, 0, 0, 0).unwrap_err().field,
        "board.bar.me"
    );
    assert_eq!(
        Board::from_parts(&points, 0, 0, 0, 16).unwrap_err().field,
        "board.off.opponent"
    );
    // 16 checkers for the mover.
    let error = Board::from_parts(&points, 1, 0, 0, 0).unwrap_err();
    assert_eq!(error.field, "board");
    assert!(error.message.contains("me has 16"), "{error}");
    assert_eq!(Dice::new(0, 3).unwrap_err().field, "dice[0]");
    assert_eq!(Dice::new(3, 7).unwrap_err().field, "dice[1]");
}

// ---------------------------------------------------------------------
// The tricky rules, one by one.

#[test]
fn opening_rolls_have_the_known_plays() {
    let plays = legal_plays(&Board::start(), dice(3, 1));
    // 16 distinct plays for an opening 3-1, gnubg's count too.
    assert_eq!(plays.len(), 16);
    assert!(notations(&plays).contains("8/5 6/5"));
    assert_eq!(legal_plays(&Board::start(), dice(6, 6)).len(), 11);
    assert_eq!(legal_plays(&Board::start(), dice(1, 1)).len(), 42);
}

#[test]
fn both_dice_must_be_played_when_they_can() {
    // One checker on 10, the opponent holding 4: the 6 first (10/4) is
    // blocked, the 1 first (10/9) then the 6 (9/3) plays both dice, so
    // 10/9 alone is not a legal play.
    let b = board(&[(10, 1), (4, -2), (24, -13)], 0, 0);
    let plays = legal_plays(&b, dice(6, 1));
    assert_eq!(notations(&plays), BTreeSet::from(["10/9 9/3".to_string()]));
}

#[test]
fn the_larger_die_when_only_one_can_be_played() {
    // Checkers on 9 and 20 rolling 6-5, the opponent holding 15, 14,
    // 11, 10 and 7: 20/14 and 20/15 are blocked; 9/3 or 9/4 can be
    // played, but then the other die has nothing (no bearing off while
    // 20 is out). Only one die: the 6.
    let b = board(
        &[(9, 1), (20, 1), (15, -2), (14, -2), (11, -2), (10, -2), (7, -2)],
        0,
        0,
    );
    let plays = legal_plays(&b, dice(6, 5));
    assert_eq!(notations(&plays), BTreeSet::from(["9/3".to_string()]));
}

#[test]
fn the_smaller_die_when_the_larger_cannot_be_played() {
    // 6 blocked everywhere, 5 playable once.
    let b = board(
        &[
            (9, 1),
            (20, 1),
            (15, -2),
            (14, -2),
            (11, -2),
            (10, -2),
            (3, -2),
            (4, -2),
        ],
        0,
        0,
    );
    // 9/3 blocked, 9/4 blocked; 20/14 blocked, 20/15 blocked. No play.
    assert!(legal_plays(&b, dice(6, 5))[0].is_empty());
    let b = board(
        &[(9, 1), (20, 1), (15, -2), (14, -2), (11, -2), (10, -2), (3, -2)],
        0,
        0,
    );
    // 9/4 only, then the 6 from 4 cannot bear off (20 is not home).
    let plays = legal_plays(&b, dice(6, 5));
    assert_eq!(notations(&plays), BTreeSet::from(["9/4".to_string()]));
}

#[test]
fn the_bar_enters_first_and_a_closed_board_means_no_play() {
    // On the bar, opponent's home board closed (mover's 19..24).
    let closed = board(
        &[(13, 14), (19, -2), (20, -2), (21, -2), (22, -2), (23, -2), (24, -2)],
        1,
        0,
    );
    for (d, _) in Dice::all() {
        let plays = legal_plays(&closed, d);
        assert_eq!(plays.len(), 1, "{d:?}");
        assert!(plays[0].is_empty());
        assert_eq!(plays[0].result, closed);
    }
    // One entry point open (22 = 25 - 3): 3-1 enters with the 3 (the 1
    // would enter on 24, held), then the 1 plays 13/12 (22/21 is held).
    let open = board(&[(13, 14), (19, -2), (20, -2), (21, -2), (23, -2), (24, -2)], 1, 0);
    let plays = legal_plays(&open, dice(3, 1));
    assert!(plays.iter().all(|p| p.steps[0].from == BAR && p.steps[0].to == 22));
    assert_eq!(notations(&plays), BTreeSet::from(["bar/22 13/12".into()]));
    // Two on the bar and one entry point: the 3 enters one, nothing else
    // moves.
    let two = board(&[(13, 13), (19, -2), (20, -2), (21, -2), (23, -2), (24, -2)], 2, 0);
    assert_eq!(
        notations(&legal_plays(&two, dice(3, 1))),
        BTreeSet::from(["bar/22".into()])
    );
}

#[test]
fn bearing_off_with_a_larger_die_only_from_the_highest_point() {
    // Checkers on 4 and 2: a 6 bears off from 4 (the highest), not from 2.
    let b = board(&[(4, 1), (2, 1), (24, -15)], 0, 0);
    let plays = legal_plays(&b, dice(6, 5));
    // 6 then 5: 4/off, then the 5 from 2 (now the highest) off.
    assert_eq!(notations(&plays), BTreeSet::from(["4/off 2/off".to_string()]));
    // A checker outside the home board: nothing bears off before it is
    // in. 6-1: 7/1 then 2/1 or 1/off; 7/6 then 6/off reaches the same
    // position as 7/1 1/off, so it is the same play.
    let b = board(&[(7, 1), (2, 1), (24, -13)], 0, 0);
    let plays = legal_plays(&b, dice(6, 1));
    assert_eq!(
        notations(&plays),
        BTreeSet::from(["7/1 2/1".into(), "7/1 1/off".into()])
    );
    // A larger die with a checker above: it must move inside.
    let b = board(&[(5, 1), (3, 1), (24, -13)], 0, 0);
    let plays = legal_plays(&b, dice(4, 4));
    // 5/1, then 4s: 3/off (highest now 3), 1/off.
    assert_eq!(notations(&plays), BTreeSet::from(["5/1 3/off 1/off".to_string()]));
}

#[test]
fn doubles_play_four_times_or_as_often_as_they_can() {
    let b = board(&[(24, 2), (13, 13), (6, -2), (1, -13)], 0, 0);
    // 6-6: 24/18 is open; 13/7, 7/1 blocked (1 is held). Every play has
    // four steps.
    let plays = legal_plays(&b, dice(6, 6));
    assert!(plays.iter().all(|p| p.steps.len() == 4));
    // 5-5 with checkers on 20 and 13, the opponent holding 10, 8 and 5:
    // 20/15 once, then 15/10 and 13/8 are blocked.
    let b = board(&[(20, 1), (13, 14), (10, -2), (8, -2), (3, -2), (5, -9)], 0, 0);
    let plays = legal_plays(&b, dice(5, 5));
    assert_eq!(notations(&plays), BTreeSet::from(["20/15".to_string()]));
}

#[test]
fn hits_send_the_blot_to_the_bar_and_show_a_star() {
    let b = board(&[(13, 15), (11, -1), (24, -14)], 0, 0);
    let plays = legal_plays(&b, dice(2, 1));
    let hit = plays
        .iter()
        .find(|p| p.to_string() == "13/11* 11/10")
        .expect("13/11*/10");
    assert_eq!(hit.result.bar(Side::Opponent), 1);
    assert_eq!(hit.result.point(11), 0);
    assert_eq!(hit.result.point(10), 1);
    let play = find_play(&b, dice(2, 1), &[(13, 11), (11, 10)]).expect("legal");
    assert_eq!(play.result, hit.result);
    assert!(find_play(&b, dice(2, 1), &[(13, 10)]).is_some(), "13/10 as one move");
    assert!(find_play(&b, dice(2, 1), &[(13, 9)]).is_none());
    assert!(find_play(&b, dice(2, 1), &[(12, 10)]).is_none());
    assert!(find_play(&b, dice(2, 1), &[(13, OFF)]).is_none());
}

// ---------------------------------------------------------------------
// The end of a game, the cube, the match.

#[test]
fn single_gammon_and_backgammon() {
    let over = |points: &[(usize, i64)], bar_opponent: i64, off_opponent: i64| {
        let mut all = [0i64; 24];
        for &(p, n) in points {
            all[p - 1] = n;
        }
        Board::from_parts(&all, 0, bar_opponent, 15, off_opponent).expect("board")
    };
    assert_eq!(over(&[(20, -14)], 0, 1).result(), Some((Side::Me, GameResult::Single)));
    assert_eq!(over(&[(20, -15)], 0, 0).result(), Some((Side::Me, GameResult::Gammon)));
    assert_eq!(
        over(&[(20, -14), (3, -1)], 0, 0).result(),
        Some((Side::Me, GameResult::Backgammon))
    );
    assert_eq!(
        over(&[(20, -14)], 1, 0).result(),
        Some((Side::Me, GameResult::Backgammon))
    );
    assert_eq!(
        over(&[(20, -15)], 0, 0).flipped().result(),
        Some((Side::Opponent, GameResult::Gammon))
    );
    assert_eq!(Board::start().result(), None);
    assert_eq!(GameResult::Backgammon.points(), 3);
}

#[test]
fn the_cube_and_the_crawford_rule() {
    let centre = Cube::centred();
    assert!(may_double(centre, None));
    assert!(may_double(Cube::new(2, CubeOwner::Me).unwrap(), None));
    assert!(!may_double(Cube::new(2, CubeOwner::Opponent).unwrap(), None));
    assert_eq!(Cube::new(3, CubeOwner::Me).unwrap_err().field, "cube.value");
    assert_eq!(Cube::new(1, CubeOwner::Me).unwrap_err().field, "cube.owner");
    assert_eq!(Cube::new(2, CubeOwner::Centre).unwrap_err().field, "cube.owner");
    assert_eq!(
        Cube::new(4, CubeOwner::Me).unwrap().flipped().owner,
        CubeOwner::Opponent
    );

    let crawford = MatchState::new(5, 4, 2, true).unwrap();
    assert!(!may_double(centre, Some(&crawford)));
    assert!(!may_double(centre, Some(&crawford.flipped())));
    let post = MatchState::new(5, 4, 2, false).unwrap();
    assert!(may_double(centre, Some(&post)));
    assert_eq!(MatchState::new(5, 5, 0, false).unwrap_err().field, "match.score.me");
    assert_eq!(MatchState::new(0, 0, 0, false).unwrap_err().field, "match.length");
    assert_eq!(MatchState::new(5, 1, 2, true).unwrap_err().field, "match.crawford");
    assert_eq!(MatchState::new(5, 4, 4, true).unwrap_err().field, "match.crawford");
}

// ---------------------------------------------------------------------
// Random positions against a move generator written here.

/// Where a random side's checkers go: points in this region (the
/// mover's numbering), up to `most_off` borne off and `most_on_bar` on
/// the bar, placed `stack` at a time (2 makes points, which block).
struct Layout {
    region: std::ops::RangeInclusive<usize>,
    most_off: u32,
    most_on_bar: u32,
    stack: i64,
}

fn layout(region: std::ops::RangeInclusive<usize>, most_off: u32, most_on_bar: u32, stack: i64) -> Layout {
    Layout {
        region,
        most_off,
        most_on_bar,
        stack,
    }
}

/// A random position in one of a few families, so that entering, hitting,
/// bearing off with contact, pure bear-offs and blocked dice (where only
/// one die, or none, can be played) all come up.
fn random_board(rng: &mut impl Rng) -> Board {
    let (mine, theirs) = match rng.gen_range(0..6) {
        0 => (layout(1..=24, 3, 2, 1), layout(1..=24, 3, 2, 1)),
        1 => (layout(1..=6, 14, 0, 1), layout(1..=24, 10, 1, 1)),
        2 => (layout(1..=9, 10, 1, 1), layout(1..=12, 8, 1, 1)),
        3 => (layout(13..=18, 0, 3, 1), layout(19..=24, 2, 0, 2)),
        4 => (layout(1..=6, 14, 0, 1), layout(19..=24, 14, 0, 1)),
        // A few checkers against a wall of points.
        _ => (layout(4..=24, 14, 1, 1), layout(1..=18, 1, 0, 2)),
    };
    let mut points = [0i64; 24];
    let mut sides = [(0i64, 0i64); 2];
    for (s, layout) in [mine, theirs].iter().enumerate() {
        let sign = if s == 0 { 1 } else { -1 };
        let off = rng.gen_range(0..=layout.most_off) as i64;
        let bar = (rng.gen_range(0..=layout.most_on_bar) as i64).min(15 - off);
        let mut left = 15 - off - bar;
        let mut extra_off = 0;
        while left > 0 {
            let n = layout.stack.min(left);
            let free: Vec<usize> = layout.region.clone().filter(|&p| points[p - 1] * sign >= 0).collect();
            if free.is_empty() {
                extra_off += n;
            } else {
                let p = free[rng.gen_range(0..free.len())];
                points[p - 1] += sign * n;
            }
            left -= n;
        }
        sides[s] = (bar, off + extra_off);
    }
    // A side with everything off would be a finished game: draw again.
    let board = Board::from_parts(&points, sides[0].0, sides[1].0, sides[0].1, sides[1].1).expect("random board");
    if board.off(Side::Me) == 15 || board.off(Side::Opponent) == 15 {
        return random_board(rng);
    }
    board
}

/// The test's own position: `mine[0]` borne off, `mine[1..=24]` the
/// points, `mine[25]` the bar; `theirs[p]` the opponent's checkers on
/// the mover's point p, `theirs[25]` their bar, `theirs[0]` their off.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Plain {
    mine: [i64; 26],
    theirs: [i64; 26],
}

impl Plain {
    fn of(b: &Board) -> Plain {
        let mut plain = Plain {
            mine: [0; 26],
            theirs: [0; 26],
        };
        for p in 1..=24 {
            let n = i64::from(b.point(p));
            plain.mine[p] = n.max(0);
            plain.theirs[p] = (-n).max(0);
        }
        plain.mine[25] = i64::from(b.bar(Side::Me));
        plain.mine[0] = i64::from(b.off(Side::Me));
        plain.theirs[25] = i64::from(b.bar(Side::Opponent));
        plain.theirs[0] = i64::from(b.off(Side::Opponent));
        plain
    }

    fn board(&self) -> Board {
        let points: Vec<i64> = (1..=24).map(|p| self.mine[p] - self.theirs[p]).collect();
        Board::from_parts(&points, self.mine[25], self.theirs[25], self.mine[0], self.theirs[0]).expect("plain")
    }

    /// One checker from `from` (25 the bar) by `die`, if legal.
    fn step(&self, from: usize, die: usize) -> Option<Plain> {
        if self.mine[from] == 0 || (self.mine[25] > 0 && from != 25) {
            return None;
        }
        let mut next = *self;
        next.mine[from] -= 1;
        if from > die {
            let to = from - die;
            if self.theirs[to] >= 2 {
                return None;
            }
            if self.theirs[to] == 1 {
                next.theirs[to] = 0;
                next.theirs[25] += 1;
            }
            next.mine[to] += 1;
            return Some(next);
        }
        let everything_home = (7..=25).all(|p| self.mine[p] == 0);
        let exact = from == die;
        let nothing_above = (from + 1..=6).all(|p| self.mine[p] == 0);
        if everything_home && (exact || nothing_above) {
            next.mine[0] += 1;
            Some(next)
        } else {
            None
        }
    }
}

/// All ways down: (position, dice used in order).
fn walk(plain: Plain, dice: &[usize], used: &mut Vec<usize>, out: &mut Vec<(Plain, Vec<usize>)>) {
    let mut any = false;
    if let Some((&die, rest)) = dice.split_first() {
        for from in 1..=25 {
            if let Some(next) = plain.step(from, die) {
                any = true;
                used.push(die);
                walk(next, rest, used, out);
                used.pop();
            }
        }
    }
    if !any {
        out.push((plain, used.clone()));
    }
}

/// The test's legal positions after a roll.
fn reference_plays(b: &Board, d: Dice) -> HashSet<Board> {
    let [x, y] = d.values().map(usize::from);
    let orders = if x == y {
        vec![vec![x; 4]]
    } else {
        vec![vec![x, y], vec![y, x]]
    };
    let mut out = Vec::new();
    for order in orders {
        walk(Plain::of(b), &order, &mut Vec::new(), &mut out);
    }
    let most = out.iter().map(|(_, used)| used.len()).max().unwrap_or(0);
    out.retain(|(_, used)| used.len() == most);
    if most == 1 && x != y {
        let high = x.max(y);
        if out.iter().any(|(_, used)| used[0] == high) {
            out.retain(|(_, used)| used[0] == high);
        }
    }
    out.iter().map(|(p, _)| p.board()).collect()
}

#[test]
fn legal_plays_match_a_simple_generator_on_random_positions() {
    let mut rng = StdRng::seed_from_u64(2024);
    let mut plays_seen = 0;
    for _ in 0..600 {
        let b = random_board(&mut rng);
        for (d, _) in Dice::all() {
            let plays = legal_plays(&b, d);
            let ours: HashSet<Board> = plays.iter().map(|p| p.result).collect();
            assert_eq!(ours.len(), plays.len(), "{b:?} {d:?}: a position listed twice");
            assert_eq!(ours, reference_plays(&b, d), "{} {d:?}", b.position_id());
            // A play's steps, replayed, lead to its position (the first and
            // the last play: each replay lists the plays again).
            for play in [&plays[0], &plays[plays.len() - 1]] {
                let steps: Vec<(u8, u8)> = play.steps.iter().map(|s| (s.from, s.to)).collect();
                assert_eq!(find_play(&b, d, &steps).map(|p| p.result), Some(play.result), "{play}");
            }
            plays_seen += plays.len();
        }
    }
    assert!(plays_seen > 50_000, "{plays_seen} plays compared");
}

// ---------------------------------------------------------------------
// Against GNU Backgammon.

#[test]
fn legal_plays_match_gnubg_on_random_positions() {
    let Some(gnubg) = gnubg_support::gnubg() else { return };
    let mut rng = StdRng::seed_from_u64(44);
    let mut cases = Vec::new();
    for i in 0..400 {
        let b = random_board(&mut rng);
        // Every roll for some positions, three random rolls for the rest.
        let rolls: Vec<Dice> = if i % 20 == 0 {
            Dice::all().map(|(d, _)| d).collect()
        } else {
            (0..3)
                .map(|_| dice(rng.gen_range(1..=6), rng.gen_range(1..=6)))
                .collect()
        };
        for d in rolls {
            cases.push((b, d));
        }
    }
    let input: Vec<String> = cases
        .iter()
        .map(|(b, d)| format!("{} {} {}", b.position_id(), d.values()[0], d.values()[1]))
        .collect();
    let answers = gnubg_support::run_script(&gnubg, "backgammon_gnubg_plays.py", &input, "PLAYS ");
    let mut total = 0;
    for ((b, d), answer) in cases.iter().zip(answers) {
        let (head, ids) = answer.split_once(':').expect("PLAYS line");
        let [x, y] = d.values();
        assert_eq!(head, format!("PLAYS {} {x} {y}", b.position_id()));
        let theirs: BTreeSet<String> = ids.split_whitespace().map(str::to_string).collect();
        let plays = legal_plays(b, *d);
        // gnubg lists nothing where kibitz answers the one empty play.
        let ours: BTreeSet<String> = if plays.len() == 1 && plays[0].is_empty() {
            BTreeSet::new()
        } else {
            plays.iter().map(|p| p.result.position_id()).collect()
        };
        assert_eq!(ours, theirs, "{} rolling {x}-{y}", b.position_id());
        total += theirs.len();
    }
    eprintln!(
        "{} positions and rolls, {total} plays, the same as gnubg's",
        cases.len()
    );
}
