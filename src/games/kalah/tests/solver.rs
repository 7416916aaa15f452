//! The solver held to a brute-force minimax written from the rules text
//! alone: its own board (one array round the table, stores included), its
//! own sowing, no ordering, no pruning, no bounds; only whole positions
//! (stores included) met twice are looked up.

use std::collections::HashMap;
use std::time::Duration;

use kibitz::games::kalah::endgame;
use kibitz::games::kalah::rules::{Capture, KalahState, Layout, Played, Player, Rules};
use kibitz::games::kalah::solve::analyze;
use kibitz::solve::limits::SearchLimits;
use kibitz::solve::table::SharedTable;

/// Pits counter-clockwise: south's houses 0..m, south's store m, north's
/// houses m+1..=2m, north's store 2m+1. `south[i]` faces `north[m-1-i]`,
/// i.e. pit i faces pit 2m - i.
#[derive(Clone, Debug, PartialEq)]
struct Plain {
    m: usize,
    pits: Vec<u32>,
    south_to_move: bool,
    empty_capture: bool,
}

impl Plain {
    fn from_layout(layout: &Layout, empty_capture: bool) -> Plain {
        let m = layout.south.len();
        let mut pits = layout.south.clone();
        pits.push(layout.south_store);
        pits.extend(&layout.north);
        pits.push(layout.north_store);
        Plain {
            m,
            pits,
            south_to_move: layout.to_move == Player::South,
            empty_capture,
        }
    }

    fn own_range(&self, south: bool) -> std::ops::Range<usize> {
        if south {
            0..self.m
        } else {
            self.m + 1..2 * self.m + 1
        }
    }

    fn store(&self, south: bool) -> usize {
        if south {
            self.m
        } else {
            2 * self.m + 1
        }
    }

    /// Houses the mover may sow, as 1-based numbers in its sowing order.
    fn moves(&self) -> Vec<u8> {
        let range = self.own_range(self.south_to_move);
        let start = range.start;
        range
            .filter(|&p| self.pits[p] > 0)
            .map(|p| (p - start + 1) as u8)
            .collect()
    }

    fn side_empty(&self, south: bool) -> bool {
        self.own_range(south).all(|p| self.pits[p] == 0)
    }

    /// Plays, returning true when the game is over.
    fn play(&mut self, house: u8) -> bool {
        let mover = self.south_to_move;
        let mut pit = self.own_range(mover).start + usize::from(house) - 1;
        let mut hand = std::mem::take(&mut self.pits[pit]);
        let total = self.pits.len();
        while hand > 0 {
            pit = (pit + 1) % total;
            if pit == self.store(!mover) {
                continue;
            }
            self.pits[pit] += 1;
            hand -= 1;
        }
        if self.own_range(mover).contains(&pit) && self.pits[pit] == 1 {
            let facing = 2 * self.m - pit;
            if self.pits[facing] > 0 || self.empty_capture {
                let taken = self.pits[facing] + 1;
                self.pits[facing] = 0;
                self.pits[pit] = 0;
                let store = self.store(mover);
                self.pits[store] += taken;
            }
        }
        if self.side_empty(true) || self.side_empty(false) {
            for south in [true, false] {
                let swept: u32 = self.own_range(south).map(|p| std::mem::take(&mut self.pits[p])).sum();
                let store = self.store(south);
                self.pits[store] += swept;
            }
            return true;
        }
        if pit != self.store(mover) {
            self.south_to_move = !mover;
        }
        false
    }

    fn south_margin(&self) -> i32 {
        self.pits[self.m] as i32 - self.pits[2 * self.m + 1] as i32
    }

    /// South's final margin with best play: minimax over the whole tree,
    /// remembering whole positions (stores included) met before.
    fn minimax(&self, seen: &mut HashMap<(Vec<u32>, bool), i32>) -> i32 {
        let key = (self.pits.clone(), self.south_to_move);
        if let Some(&value) = seen.get(&key) {
            return value;
        }
        let scores = self.moves().into_iter().map(|house| {
            let mut next = self.clone();
            if next.play(house) {
                next.south_margin()
            } else {
                next.minimax(seen)
            }
        });
        let scores: Vec<i32> = scores.collect();
        let value = if self.south_to_move {
            scores.into_iter().max().unwrap_or(i32::MIN)
        } else {
            scores.into_iter().min().unwrap_or(i32::MAX)
        };
        seen.insert(key, value);
        value
    }

    /// Each legal house's final margin for the mover.
    fn house_values(&self) -> Vec<(u8, i32)> {
        let sign = if self.south_to_move { 1 } else { -1 };
        let mut seen = HashMap::new();
        self.moves()
            .into_iter()
            .map(|house| {
                let mut next = self.clone();
                let margin = if next.play(house) {
                    next.south_margin()
                } else {
                    next.minimax(&mut seen)
                };
                (house, sign * margin)
            })
            .collect()
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn limits() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(600))
}

fn check(position: &KalahState, table: &SharedTable) {
    let plain = Plain::from_layout(&position.to_board(), position.rules().capture() == Capture::Empty);
    let expected = plain.house_values();
    let analysis = analyze(position, table, &limits());
    assert!(analysis.solved, "{position:?}");
    let found: Vec<(u8, i32)> = analysis.houses.iter().map(|h| (h.house, h.value)).collect();
    assert_eq!(found, expected, "{position:?}");
    let best = expected.iter().map(|&(_, v)| v).max();
    assert_eq!(Some(analysis.value), best);
    // The principal variation is legal, ends the game, and scores the value.
    let mut line = *position;
    let mut end = None;
    for step in &analysis.principal_variation {
        assert_eq!(step.player, line.to_move(), "{position:?}");
        assert!(end.is_none(), "moves after the end: {position:?}");
        if line.play(step.house) == Ok(Played::Over) {
            end = Some(line.south_margin());
        }
    }
    let sign = if position.to_move() == Player::South { 1 } else { -1 };
    assert_eq!(
        end.map(|e| sign * e),
        best,
        "{position:?}: {:?}",
        analysis.principal_variation
    );
}

#[test]
fn every_house_of_small_boards_matches_brute_force() {
    let table = SharedTable::new(1 << 16);
    for capture in [Capture::Standard, Capture::Empty] {
        for m in 1..=3 {
            for n in 1..=3 {
                let rules = Rules::new(m, n, capture).unwrap();
                check(&rules.start(), &table);
            }
        }
    }
}

/// The position `plies` random moves into a game (fewer if it ends).
fn played_into(rules: Rules, plies: usize, rng: &mut Rng) -> KalahState {
    let mut position = rules.start();
    for _ in 0..plies {
        let moves = position.legal_houses();
        if moves.is_empty() {
            break;
        }
        let _ = position.play(moves[rng.below(moves.len())]);
    }
    position
}

/// Positions a few random moves into games of Kalah(4,3) and Kalah(3,4).
#[test]
fn every_house_of_random_positions_matches_brute_force() {
    let table = SharedTable::new(1 << 18);
    let mut rng = Rng(7);
    for capture in [Capture::Standard, Capture::Empty] {
        for (m, n, plies) in [(4, 3, 6), (3, 4, 4), (4, 2, 2)] {
            let rules = Rules::new(m, n, capture).unwrap();
            for _ in 0..20 {
                let position = played_into(rules, plies + rng.below(plies), &mut rng);
                if !position.is_over() {
                    check(&position, &table);
                }
            }
        }
    }
}

/// The same positions with the endgame tables built: the search answers
/// positions with few seeds from them and must still match the brute
/// force, every house (the table's own entries are checked one by one in
/// its unit tests).
#[test]
fn every_house_matches_brute_force_with_the_endgame_tables() {
    // Half of 1 MiB a table: 15 seeds on four houses (490,314 entries).
    endgame::set_budget(1 << 20);
    let table = SharedTable::new(1 << 18);
    let mut rng = Rng(11);
    for capture in [Capture::Standard, Capture::Empty] {
        let rules = Rules::new(4, 3, capture).unwrap();
        let built = endgame::build_now(rules.geometry(), capture).map(|t| t.seeds());
        assert_eq!(built, Some(15), "{capture:?}");
        for _ in 0..20 {
            let position = played_into(rules, 6 + rng.below(6), &mut rng);
            if !position.is_over() {
                check(&position, &table);
            }
        }
    }
}

/// Random games: the rules' board after every move equals the plain one.
#[test]
fn the_rules_play_as_the_plain_board_does() {
    let mut rng = Rng(11);
    for game in 0..3000 {
        let capture = if game % 2 == 0 {
            Capture::Standard
        } else {
            Capture::Empty
        };
        let rules = Rules::new(1 + rng.below(8) as u32, 1 + rng.below(8) as u32, capture).unwrap();
        let mut position = rules.start();
        let mut plain = Plain::from_layout(&position.to_board(), capture == Capture::Empty);
        loop {
            let moves = position.legal_houses();
            assert_eq!(moves, plain.moves());
            let house = moves[rng.below(moves.len())];
            let over = plain.play(house);
            let played = position.play(house).unwrap();
            assert_eq!(over, played == Played::Over);
            let mut board = position.to_board();
            if over {
                // Whose turn it is means nothing once the game is over.
                board.to_move = if plain.south_to_move {
                    Player::South
                } else {
                    Player::North
                };
            }
            assert_eq!(Plain::from_layout(&board, capture == Capture::Empty), plain);
            if over {
                break;
            }
        }
    }
}

/// A position with more seeds than a lap: laps, and a capture in the house
/// sown from.
#[test]
fn a_full_lap_ends_in_the_emptied_house_and_captures() {
    let rules = Rules::new(2, 1, Capture::Standard).unwrap();
    let layout = Layout {
        south: vec![5, 1],
        north: vec![1, 2],
        south_store: 0,
        north_store: 0,
        to_move: Player::South,
    };
    let mut position = KalahState::from_board(rules, &layout).unwrap();
    // 5 seeds from south house 1: south 2, store, north 1, north 2, south 1.
    assert_eq!(position.play(1), Ok(Played::Opponent));
    let board = position.to_board();
    assert_eq!(
        (board.south, board.north, board.south_store),
        (vec![0, 2], vec![2, 0], 5)
    );
}
