//! Othello's rules through the `Game` trait: perft counts from the 8x8
//! start against the published ones, and random games on every size
//! checked move by move against a square-by-square reference board
//! written here.

use super::support as othello_support;

use kibitz::games::game::{Game, GameOutcome, Turn};
use kibitz::games::othello::{OthelloMove, OthelloState, Size, BLACK, WHITE};
use othello_support::Reference;

/// Leaves `depth` plies from `game`: a forced pass is one move, a finished
/// game a leaf (the usual convention; no pass or end happens before ply 9
/// from the start, so the counts below do not depend on it).
fn perft(game: &OthelloState, depth: u32) -> u64 {
    if depth == 0 || game.turn() == Turn::Over {
        return 1;
    }
    game.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = *game;
            next.play(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_from_the_8x8_start_matches_the_published_counts() {
    // Published Othello perft (e.g. Aart Bik's and Edax's perft tables).
    let expected = [4u64, 12, 56, 244, 1_396, 8_200, 55_092, 390_216];
    let start = OthelloState::new(Size::Eight);
    for (depth, &count) in (1..).zip(&expected) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
}

/// A small xorshift: repeatable random games without a seed dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn random_games_on_every_size_follow_the_reference_rules() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for size in Size::ALL {
        let side = size.side() as usize;
        for _ in 0..200 {
            let mut game = OthelloState::new(size);
            let mut reference = Reference::start(side);
            let mut passes = 0;
            loop {
                assert_eq!(game.rows(), reference.rows());
                let expected_moves = reference.legal_moves();
                match game.turn() {
                    Turn::Over => {
                        assert!(expected_moves.is_empty() && reference.passed().legal_moves().is_empty());
                        let (black, white) = reference.counts();
                        let outcome = game.result();
                        let expected = match black.cmp(&white) {
                            std::cmp::Ordering::Greater => GameOutcome::Won(BLACK),
                            std::cmp::Ordering::Less => GameOutcome::Won(WHITE),
                            std::cmp::Ordering::Equal => GameOutcome::Draw,
                        };
                        assert_eq!(outcome, Some(expected));
                        let empties = (side * side) as i32 - black - white;
                        let difference = black - white;
                        let with_empties = difference + difference.signum() * empties;
                        assert_eq!(game.final_score(BLACK), with_empties);
                        assert_eq!(game.final_score(WHITE), -with_empties);
                        break;
                    }
                    Turn::Player(seat) => {
                        assert_eq!(seat, reference.to_move);
                        assert_eq!(game.result(), None);
                        let moves = game.legal_moves();
                        if expected_moves.is_empty() {
                            assert_eq!(moves, vec![OthelloMove::Pass]);
                            passes += 1;
                            game.play(OthelloMove::Pass);
                            reference = reference.passed();
                            continue;
                        }
                        let squares: Vec<(usize, usize)> = moves
                            .iter()
                            .map(|mv| match mv {
                                OthelloMove::Play(sq) => (sq.row() as usize, sq.col() as usize),
                                OthelloMove::Pass => panic!("a pass offered with squares to play"),
                            })
                            .collect();
                        assert_eq!(squares, expected_moves);
                        let pick = rng.below(moves.len());
                        // Moves survive a trip through their JSON form.
                        let json = serde_json::to_string(&moves[pick]).unwrap();
                        let mv: OthelloMove = serde_json::from_str(&json).unwrap();
                        game.play(mv);
                        reference = reference.play(squares[pick].0, squares[pick].1);
                    }
                    Turn::Chance => panic!("Othello has no chance events"),
                }
            }
            let _ = passes;
        }
    }
}
