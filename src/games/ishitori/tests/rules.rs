//! Ishitori's rules: validation of loose input, moves, and the end of the game.

use kibitz::games::ishitori::{
    parse_heap, Game, Heaps, IshitoriError, Move, Outcome, Setup, TakeSet, MAX_HEAPS, MAX_TAKE_AMOUNT, MAX_TAKE_AMOUNTS,
};

fn setup_with_take(take: Vec<u64>) -> Setup {
    Setup {
        remaining: Some(10),
        take: Some(take),
        ..Setup::default()
    }
}

#[test]
fn defaults_are_the_seed_game() {
    let game = Game::try_from(Setup {
        remaining: Some(21),
        ..Setup::default()
    })
    .unwrap();
    assert_eq!(game.take_set().amounts(), &[1, 2, 3]);
    assert!(game.is_misere());
    assert_eq!(game.heaps(), &Heaps::One(21));
}

#[test]
fn take_sets_are_sorted_and_must_be_distinct_positive_and_bounded() {
    assert_eq!(TakeSet::new(&[5, 1, 3]).unwrap().amounts(), &[1, 3, 5]);
    let cases = [
        (vec![], IshitoriError::EmptyTakeSet),
        (vec![1, 0], IshitoriError::ZeroTakeAmount),
        (vec![2, 4, 2], IshitoriError::DuplicateTakeAmount { amount: 2 }),
        (
            vec![MAX_TAKE_AMOUNT + 1],
            IshitoriError::TakeAmountTooLarge {
                amount: MAX_TAKE_AMOUNT + 1,
                max: MAX_TAKE_AMOUNT,
            },
        ),
        (
            (1..=MAX_TAKE_AMOUNTS as u64 + 1).collect(),
            IshitoriError::TooManyTakeAmounts {
                count: MAX_TAKE_AMOUNTS + 1,
                max: MAX_TAKE_AMOUNTS,
            },
        ),
    ];
    for (take, expected) in cases {
        let error = Game::try_from(setup_with_take(take.clone())).unwrap_err();
        assert_eq!(error, expected, "take {take:?}");
        assert!(error.to_string().contains("`take`"), "{error}");
    }
    assert!(TakeSet::new(&[MAX_TAKE_AMOUNT]).is_ok());
    assert!(TakeSet::new(&(1..=MAX_TAKE_AMOUNTS as u64).collect::<Vec<_>>()).is_ok());
}

#[test]
fn the_position_is_remaining_or_heaps_never_both_or_neither() {
    let both = Setup {
        remaining: Some(3),
        heaps: Some(vec![3]),
        ..Setup::default()
    };
    assert_eq!(Game::try_from(both), Err(IshitoriError::RemainingAndHeaps));
    assert_eq!(Game::try_from(Setup::default()), Err(IshitoriError::NoPosition));
    let empty = Setup {
        heaps: Some(vec![]),
        ..Setup::default()
    };
    assert_eq!(Game::try_from(empty), Err(IshitoriError::NoHeaps));
    let too_many = Setup {
        heaps: Some(vec![1; MAX_HEAPS + 1]),
        ..Setup::default()
    };
    assert_eq!(
        Game::try_from(too_many),
        Err(IshitoriError::TooManyHeaps {
            count: MAX_HEAPS + 1,
            max: MAX_HEAPS
        })
    );
    let most = Setup {
        heaps: Some(vec![u64::MAX; MAX_HEAPS]),
        ..Setup::default()
    };
    assert!(Game::try_from(most).is_ok());
}

#[test]
fn heap_strings_up_to_two_to_the_64_minus_one_are_accepted() {
    assert_eq!(parse_heap("18446744073709551615"), Ok(u64::MAX));
    assert_eq!(parse_heap("0"), Ok(0));
    assert_eq!(parse_heap("007"), Ok(7));
    let too_large = parse_heap("18446744073709551616").unwrap_err();
    assert!(matches!(too_large, IshitoriError::HeapTooLarge { .. }));
    assert!(too_large.to_string().contains("2^64-1"), "{too_large}");
    for bad in ["", "-1", "+1", " 5", "1e3", "1.0", "0x10", "٣"] {
        assert!(
            matches!(parse_heap(bad), Err(IshitoriError::HeapNotANumber { .. })),
            "{bad:?}"
        );
    }
    let long = "9".repeat(10_000);
    let message = parse_heap(&long).unwrap_err().to_string();
    assert!(message.len() < 200, "the message quotes only the start: {message}");
}

#[test]
fn the_game_is_over_when_no_heap_allows_the_smallest_take() {
    let take = TakeSet::new(&[3, 5]).unwrap();
    let over = Game::new(take.clone(), true, Heaps::Several(vec![2, 0, 1])).unwrap();
    assert!(over.is_over());
    assert!(over.legal_moves().is_empty());
    assert_eq!(
        over.ensure_not_over(),
        Err(IshitoriError::GameOver { smallest_take: 3 })
    );
    // Misère: the opponent took last and lost; normal: the mover cannot move.
    assert_eq!(over.final_outcome_for_mover(), Some(Outcome::Win));
    let normal = Game::one_heap(take.clone(), false, 2);
    assert_eq!(normal.final_outcome_for_mover(), Some(Outcome::Loss));
    let playing = Game::one_heap(take, true, 3);
    assert!(!playing.is_over());
    assert_eq!(playing.final_outcome_for_mover(), None);
}

#[test]
fn moves_are_listed_smallest_take_first_and_applied_to_their_heap() {
    let game = Game::new(TakeSet::new(&[2, 1]).unwrap(), false, Heaps::Several(vec![1, 4])).unwrap();
    let moves = game.legal_moves();
    let expected = [(0, 1), (1, 1), (1, 2)].map(|(heap, take)| Move { heap, take });
    assert_eq!(moves, expected);
    let after = game.apply(Move { heap: 1, take: 2 }).unwrap();
    assert_eq!(after.heap_sizes(), &[1, 2]);
    assert_eq!(after.take_set(), game.take_set());
}

#[test]
fn illegal_moves_are_refused_with_the_reason() {
    let game = Game::one_heap(TakeSet::new(&[2, 5]).unwrap(), true, 4);
    assert_eq!(
        game.apply(Move { heap: 1, take: 2 }),
        Err(IshitoriError::NoSuchHeap { heap: 1, heaps: 1 })
    );
    assert_eq!(
        game.apply(Move { heap: 0, take: 3 }),
        Err(IshitoriError::TakeNotInSet {
            take: 3,
            allowed: vec![2, 5]
        })
    );
    assert_eq!(
        game.apply(Move { heap: 0, take: 5 }),
        Err(IshitoriError::TakeMoreThanHeap {
            take: 5,
            heap: 0,
            size: 4
        })
    );
    let finished = Game::one_heap(TakeSet::new(&[2, 5]).unwrap(), true, 1);
    assert!(matches!(
        finished.apply(Move { heap: 0, take: 2 }),
        Err(IshitoriError::GameOver { .. })
    ));
}

#[test]
fn random_playouts_keep_the_stone_count_and_end() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200 {
        let heaps: Vec<u64> = (0..rng.gen_range(1..5)).map(|_| rng.gen_range(0..40)).collect();
        let mut game = Game::new(TakeSet::new(&[1, 4, 6]).unwrap(), rng.gen(), Heaps::Several(heaps)).unwrap();
        let mut stones: u64 = game.heap_sizes().iter().sum();
        while !game.is_over() {
            let moves = game.legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            game = game.apply(mv).unwrap();
            let now: u64 = game.heap_sizes().iter().sum();
            assert_eq!(now + mv.take, stones);
            stones = now;
        }
        assert!(game.heap_sizes().iter().all(|&h| h < 1));
    }
}

/// Through the `Game` trait: turns alternate seats, and the winner is the
/// one the rules name from who moved last (misère: the last mover loses;
/// normal play: the last mover wins), over many random games.
#[test]
fn the_game_trait_alternates_seats_and_names_the_rules_winner() {
    use kibitz::core::game::{Game as _, GameOutcome, Turn};
    use kibitz::games::ishitori::IshitoriState;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for (heaps, misere) in [
        (Heaps::One(21), true),
        (Heaps::Several(vec![4, 7, 2]), false),
        (Heaps::Several(vec![3, 5]), true),
    ] {
        for first in [0, 1] {
            for _ in 0..50 {
                let start = Game::new(TakeSet::new(&[1, 2, 3]).unwrap(), misere, heaps.clone()).unwrap();
                let mut game = IshitoriState::new(start, first);
                let mut last_mover = None;
                let mut expected_seat = first;
                while let Turn::Player(seat) = game.turn() {
                    assert_eq!(seat, expected_seat);
                    let mv = *game.legal_moves().choose(&mut rng).unwrap();
                    assert!(game.result().is_none());
                    game.play(mv);
                    last_mover = Some(seat);
                    expected_seat = 1 - seat;
                }
                assert!(game.legal_moves().is_empty());
                let last = last_mover.expect("the start is not over");
                let winner = if misere { 1 - last } else { last };
                assert_eq!(
                    game.result(),
                    Some(GameOutcome::Won(winner)),
                    "{heaps:?} misere {misere}"
                );
            }
        }
    }
}
