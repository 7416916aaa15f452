//! The review of a game of moves, written once over [`Game`]: the record
//! replayed with the rules (the first illegal move refused by its index),
//! one [`SearchLimits`] shared out over the positions, and every decision
//! judged against the best move the game's solver knows.
//!
//! A game supplies only what is its own: how a record's move is read (and,
//! in its own words, why it is not legal), and through [`Valuer`] how its
//! solver values every legal move of a position, in points, whether those
//! values are proved, and how moves and values are shown.
//!
//! Games whose decisions hold chance events (Pig's rolls, Nine Square's
//! dice) or whose moves are valued across positions (Number Square) keep
//! their own reviews.

use serde_json::Value;

use super::{check_seat, first_player_value, judge, Budget, Entry, Extras, Review, ReviewError, Step};
use crate::core::game::{Game, Seat, Turn};
use crate::solve::limits::SearchLimits;

/// One decision of a replayed record.
#[derive(Clone, Debug)]
pub(crate) struct Decision<G: Game> {
    /// The position the move was made in.
    pub position: G,
    pub played: G::Move,
    pub seat: Seat,
    /// The record's ply (or move number).
    pub ply: u64,
}

/// Replays `steps` from `start`. `read` turns a record's move into a move
/// of the position, or says in the game's own words why it is not a legal
/// one; whatever it lets through is still held to
/// [`Game::legal_moves`], so that only legal moves reach [`Game::play`].
pub(crate) fn replay<G: Game, R>(
    start: G,
    steps: &[Step<R>],
    names: [&str; 2],
    read: impl Fn(&G, &R) -> Result<G::Move, String>,
) -> Result<Vec<Decision<G>>, ReviewError> {
    let mut game = start;
    let mut decisions = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let mv = read(&game, &step.mv).map_err(|message| ReviewError::at(i, message))?;
        let seat = match game.turn() {
            Turn::Player(seat) => seat,
            Turn::Over => return Err(ReviewError::at(i, "the game is already over")),
            Turn::Chance => return Err(ReviewError::at(i, "the rules wait for a chance event here")),
        };
        if !game.legal_moves().contains(&mv) {
            return Err(ReviewError::at(i, format!("{mv:?} is not a legal move here")));
        }
        check_seat(i, step.seat, seat, names)?;
        decisions.push(Decision {
            position: game.clone(),
            played: mv,
            seat,
            ply: step.ply,
        });
        game.play(mv);
    }
    Ok(decisions)
}

/// A move's value for its mover, in the game's own measure.
pub(crate) trait MoveValue {
    type Rank: Ord + Copy;

    /// The greatest rank is the best; equal ranks are equally good moves.
    fn rank(&self) -> Self::Rank;

    /// The mover's points (see the module [`super`]).
    fn points(&self) -> f64;

    /// As `value_before` and `value_played` show it.
    fn shown(&self) -> Value;
}

/// What the solver says of one position's moves.
pub(crate) enum Valuation<M, V> {
    /// Every legal move valued, in the game's order (the first of the
    /// best gives `value_before`); `proved` when every value is.
    Moves { moves: Vec<(M, V)>, proved: bool },
    /// No time was left for the position: only the move played is valued,
    /// the best is `unknown`, and nothing is claimed (no best moves, no
    /// loss, not exact).
    OnlyPlayed { played: V, unknown: V },
}

impl<M, V> Valuation<M, V> {
    fn proved(&self) -> bool {
        match self {
            Valuation::Moves { proved, .. } => *proved,
            Valuation::OnlyPlayed { .. } => false,
        }
    }
}

/// How a game's solver values the moves of its positions.
pub(crate) trait Valuer<G: Game> {
    type Value: MoveValue;

    /// Values every legal move of `position` within `limits` (`played`,
    /// the move the record made there, for a game that values only it
    /// when out of time).
    fn value(
        &self,
        position: &G,
        played: G::Move,
        limits: &SearchLimits,
    ) -> Result<Valuation<G::Move, Self::Value>, ReviewError>;

    /// A move in the game's record format.
    fn show(&self, position: &G, mv: G::Move) -> Value;
}

/// Values every decision within `limits`, each position an even share of
/// what is left, and judges it. The last position goes first: late
/// positions are quick to solve and leave in the solver's memo what the
/// early (costly) ones then reuse, and the time they do not use goes to
/// those. None when `give_up_inexact` and a position is not proved (the
/// cheap first try of a request).
pub(crate) fn review<G: Game, V: Valuer<G>>(
    game: &'static str,
    decisions: &[Decision<G>],
    names: [&str; 2],
    valuer: &V,
    limits: &SearchLimits,
    give_up_inexact: bool,
) -> Result<Option<Review>, ReviewError> {
    let mut budget = Budget::new(limits, decisions.len());
    let mut entries = Vec::with_capacity(decisions.len());
    for decision in decisions.iter().rev() {
        let valuation = valuer.value(&decision.position, decision.played, &budget.next())?;
        if give_up_inexact && !valuation.proved() {
            return Ok(None);
        }
        entries.push(entry(valuer, decision, valuation, names)?);
    }
    entries.reverse();
    Ok(Some(Review::new(game, names, entries)))
}

/// One decision judged: the played move's points against the best's.
fn entry<G: Game, V: Valuer<G>>(
    valuer: &V,
    decision: &Decision<G>,
    valuation: Valuation<G::Move, V::Value>,
    names: [&str; 2],
) -> Result<Entry, ReviewError> {
    let show = |mv: G::Move| valuer.show(&decision.position, mv);
    let (moves, proved) = match valuation {
        Valuation::OnlyPlayed { played, unknown } => {
            return Ok(judged(
                decision,
                show(decision.played),
                Vec::new(),
                &unknown,
                &played,
                None,
                names,
            ));
        }
        Valuation::Moves { moves, proved } => (moves, proved),
    };
    let top = moves.iter().map(|(_, v)| v.rank()).max();
    let best = moves.iter().find(|(_, v)| Some(v.rank()) == top);
    let mine = moves.iter().find(|(mv, _)| *mv == decision.played);
    let (Some((_, best)), Some((_, mine))) = (best, mine) else {
        // The valuers value every legal move, and replay let only legal
        // moves through.
        return Err(ReviewError::Unavailable(format!(
            "the solver gave no value for the move played ({:?})",
            decision.played
        )));
    };
    let best_moves = moves
        .iter()
        .filter(|(_, v)| Some(v.rank()) == top)
        .map(|&(mv, _)| show(mv))
        .collect();
    let verdict = Verdict {
        among_best: Some(mine.rank()) == top,
        exact: proved,
    };
    Ok(judged(
        decision,
        show(decision.played),
        best_moves,
        best,
        mine,
        Some(verdict),
        names,
    ))
}

/// What a decision's entry claims, when the position was valued.
struct Verdict {
    among_best: bool,
    exact: bool,
}

fn judged<G: Game, V: MoveValue>(
    decision: &Decision<G>,
    mv: Value,
    best_moves: Vec<Value>,
    before: &V,
    mine: &V,
    verdict: Option<Verdict>,
    names: [&str; 2],
) -> Entry {
    let loss = match verdict {
        Some(_) => (before.points() - mine.points()).max(0.0),
        None => 0.0,
    };
    Entry {
        ply: decision.ply,
        actor: names[decision.seat].to_string(),
        mv,
        best_moves,
        value_before: before.shown(),
        value_played: mine.shown(),
        loss,
        judgment: judge(loss, verdict.as_ref().is_some_and(|v| v.among_best)),
        exact: verdict.is_some_and(|v| v.exact),
        value: first_player_value(decision.seat, mine.points()),
        extras: Extras::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::time::Duration;

    use serde_json::json;

    use super::*;
    use crate::core::game::GameOutcome;
    use crate::review::{move_accuracy, Judgment, AB};

    /// A tiny game: a row of coins, each player in turn takes the one at
    /// either end; the larger total wins.
    #[derive(Clone, Debug)]
    struct Coins {
        row: Vec<i64>,
        scores: [i64; 2],
        mover: Seat,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    enum End {
        Left,
        Right,
    }

    impl Coins {
        fn new(row: &[i64]) -> Coins {
            Coins {
                row: row.to_vec(),
                scores: [0, 0],
                mover: 0,
            }
        }
    }

    impl Game for Coins {
        type Move = End;

        fn turn(&self) -> Turn {
            if self.row.is_empty() {
                Turn::Over
            } else {
                Turn::Player(self.mover)
            }
        }

        fn legal_moves(&self) -> Vec<End> {
            match self.row.len() {
                0 => Vec::new(),
                1 => vec![End::Left],
                _ => vec![End::Left, End::Right],
            }
        }

        fn play(&mut self, mv: End) {
            let coin = match mv {
                End::Left => self.row.remove(0),
                End::Right => self.row.pop().unwrap_or(0),
            };
            self.scores[self.mover] += coin;
            self.mover = 1 - self.mover;
        }

        fn result(&self) -> Option<GameOutcome> {
            if !self.row.is_empty() {
                return None;
            }
            Some(match self.scores[0].cmp(&self.scores[1]) {
                std::cmp::Ordering::Greater => GameOutcome::Won(0),
                std::cmp::Ordering::Less => GameOutcome::Won(1),
                std::cmp::Ordering::Equal => GameOutcome::Draw,
            })
        }
    }

    /// The coins still in the row after best play by both, for the mover
    /// minus for the opponent (brute force over every line).
    fn best_margin(row: &[i64]) -> i64 {
        match row {
            [] => 0,
            [only] => *only,
            [first, .., last] => {
                let left = first - best_margin(&row[1..]);
                let right = last - best_margin(&row[..row.len() - 1]);
                left.max(right)
            }
        }
    }

    fn final_margin(game: &Coins, mv: End) -> i64 {
        let mut after = game.clone();
        after.play(mv);
        let lead = after.scores[game.mover] - after.scores[1 - game.mover];
        lead - best_margin(&after.row)
    }

    fn outcome_points(margin: i64) -> f64 {
        match margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }

    struct Margin(i64);

    impl MoveValue for Margin {
        type Rank = i64;

        fn rank(&self) -> i64 {
            self.0
        }

        fn points(&self) -> f64 {
            outcome_points(self.0)
        }

        fn shown(&self) -> Value {
            json!({ "final_margin": self.0 })
        }
    }

    /// Values by brute force; remembers the limits each call got, and
    /// calls the positions with more than `prove_above` coins unproved.
    struct BruteForce {
        calls: RefCell<Vec<(usize, SearchLimits)>>,
        prove_above: usize,
    }

    impl BruteForce {
        fn new() -> BruteForce {
            BruteForce {
                calls: RefCell::new(Vec::new()),
                prove_above: usize::MAX,
            }
        }
    }

    impl Valuer<Coins> for BruteForce {
        type Value = Margin;

        fn value(
            &self,
            position: &Coins,
            _played: End,
            limits: &SearchLimits,
        ) -> Result<Valuation<End, Margin>, ReviewError> {
            self.calls.borrow_mut().push((position.row.len(), limits.clone()));
            let moves = position
                .legal_moves()
                .into_iter()
                .map(|mv| (mv, Margin(final_margin(position, mv))))
                .collect();
            Ok(Valuation::Moves {
                moves,
                proved: position.row.len() <= self.prove_above,
            })
        }

        fn show(&self, _position: &Coins, mv: End) -> Value {
            json!(format!("{mv:?}"))
        }
    }

    /// Record moves: "L", "R", anything else refused by the game's reader.
    fn read(_game: &Coins, text: &&str) -> Result<End, String> {
        match *text {
            "L" => Ok(End::Left),
            "R" => Ok(End::Right),
            other => Err(format!("{other:?} is neither end")),
        }
    }

    const ROW: [i64; 7] = [3, 1, 4, 1, 5, 9, 2];

    fn run(
        record: &[&'static str],
        valuer: &BruteForce,
        limits: &SearchLimits,
        give_up: bool,
    ) -> Result<Option<Review>, ReviewError> {
        let steps = Step::numbered(record.to_vec());
        let decisions = replay(Coins::new(&ROW), &steps, AB, read)?;
        review("coins", &decisions, AB, valuer, limits, give_up)
    }

    fn whole() -> SearchLimits {
        SearchLimits::within(Duration::from_secs(1000))
    }

    #[test]
    fn every_decision_is_judged_as_brute_force_says() {
        let record = ["R", "L", "L", "R", "R", "L", "L"];
        let review = run(&record, &BruteForce::new(), &whole(), false).unwrap().unwrap();
        assert_eq!(review.moves.len(), record.len());
        assert!(review.exact);
        // The same game, replayed and valued here by hand.
        let mut game = Coins::new(&ROW);
        let mut accuracy = [Vec::new(), Vec::new()];
        for (i, (entry, text)) in review.moves.iter().zip(record).enumerate() {
            let played = read(&game, &text).unwrap();
            let options: Vec<(End, i64)> = game
                .legal_moves()
                .into_iter()
                .map(|mv| (mv, final_margin(&game, mv)))
                .collect();
            let best = options.iter().map(|o| o.1).max().unwrap();
            let mine = options.iter().find(|o| o.0 == played).unwrap().1;
            let loss = outcome_points(best) - outcome_points(mine);
            let best_moves: Vec<Value> = options
                .iter()
                .filter(|o| o.1 == best)
                .map(|o| json!(format!("{:?}", o.0)))
                .collect();
            assert_eq!(entry.ply, i as u64 + 1);
            assert_eq!(entry.actor, AB[game.mover]);
            assert_eq!(entry.mv, json!(format!("{played:?}")));
            assert_eq!(entry.best_moves, best_moves, "decision {i}");
            assert_eq!(entry.value_before, json!({ "final_margin": best }), "decision {i}");
            assert_eq!(entry.value_played, json!({ "final_margin": mine }), "decision {i}");
            assert_eq!(entry.loss, loss, "decision {i}");
            assert_eq!(entry.judgment, judge(loss, mine == best), "decision {i}");
            let first_points = if game.mover == 0 {
                outcome_points(mine)
            } else {
                1.0 - outcome_points(mine)
            };
            assert_eq!(entry.value, 2.0 * first_points - 1.0, "decision {i}");
            accuracy[game.mover].push(move_accuracy(loss));
            game.play(played);
        }
        // The record holds a blunder and best moves, so the test can fail.
        assert!(review.moves.iter().any(|e| e.judgment == Judgment::Blunder));
        assert!(review.moves.iter().any(|e| e.judgment == Judgment::Best));
        for (seat, (name, summary)) in review.players.0.iter().enumerate() {
            assert_eq!(name, AB[seat]);
            let mean = accuracy[seat].iter().sum::<f64>() / accuracy[seat].len() as f64;
            assert_eq!(summary.accuracy, Some((mean * 10.0).round() / 10.0));
        }
    }

    #[test]
    fn the_first_illegal_move_is_named_by_its_index() {
        let limits = whole();
        let valuer = BruteForce::new();
        // The game's reader refuses it, in its own words.
        let e = run(&["L", "R", "up"], &valuer, &limits, false).unwrap_err();
        assert_eq!(e.to_string(), "moves[2] (move 3): \"up\" is neither end");
        // The reader lets it through; the rules do not.
        let one_left = ["L", "L", "L", "L", "L", "L"];
        let e = run(&[&one_left[..], &["R"]].concat(), &valuer, &limits, false).unwrap_err();
        assert_eq!(e.to_string(), "moves[6] (move 7): Right is not a legal move here");
        let e = run(&["L"; 8], &valuer, &limits, false).unwrap_err();
        assert_eq!(e.to_string(), "moves[7] (move 8): the game is already over");
        // Nothing was valued: the record is checked before any search.
        assert!(valuer.calls.borrow().is_empty());
    }

    #[test]
    fn the_record_s_side_is_checked_against_the_rules() {
        let mut steps = Step::numbered(vec!["L", "R"]);
        steps[1].seat = Some(0);
        let e = replay(Coins::new(&ROW), &steps, AB, read).unwrap_err();
        assert_eq!(
            e,
            ReviewError::at(1, "the record gives this move to \"a\", but it is \"b\"'s turn")
        );
    }

    #[test]
    fn the_budget_is_shared_last_position_first() {
        let record = ["L", "R", "L", "R"];
        let limits = whole().with_max_nodes(1234);
        let valuer = BruteForce::new();
        run(&record, &valuer, &limits, false).unwrap().unwrap();
        let calls = valuer.calls.borrow();
        let sizes: Vec<usize> = calls.iter().map(|c| c.0).collect();
        assert_eq!(sizes, [4, 5, 6, 7], "the last position first");
        for (k, (_, slice)) in calls.iter().enumerate() {
            // An even share of what is left: 1/4, then 1/3, 1/2, all.
            let left = (record.len() - k) as u32;
            assert!(
                slice.remaining() <= Duration::from_secs(1000) / left,
                "{k}: {:?}",
                slice.remaining()
            );
            assert_eq!(slice.max_nodes(), 1234);
        }
        assert_eq!(
            calls[3].1.deadline(),
            limits.deadline(),
            "the last one gets all that is left"
        );
    }

    #[test]
    fn a_quick_try_gives_up_at_the_first_unproved_position() {
        let record = ["L", "R", "L", "R"];
        // Proved only with five coins or fewer: the two late positions.
        let valuer = BruteForce {
            prove_above: 5,
            ..BruteForce::new()
        };
        assert!(run(&record, &valuer, &whole(), true).unwrap().is_none());
        assert_eq!(valuer.calls.borrow().len(), 3, "stopped at the first unproved one");
        let full = run(&record, &valuer, &whole(), false).unwrap().unwrap();
        let exact: Vec<bool> = full.moves.iter().map(|e| e.exact).collect();
        assert_eq!(exact, [false, false, true, true]);
        assert!(!full.exact);
    }

    /// Values only the move played, as a game out of time does.
    struct OutOfTime;

    impl Valuer<Coins> for OutOfTime {
        type Value = Margin;

        fn value(
            &self,
            position: &Coins,
            played: End,
            _: &SearchLimits,
        ) -> Result<Valuation<End, Margin>, ReviewError> {
            Ok(Valuation::OnlyPlayed {
                played: Margin(final_margin(position, played)),
                unknown: Margin(0),
            })
        }

        fn show(&self, _position: &Coins, mv: End) -> Value {
            json!(format!("{mv:?}"))
        }
    }

    #[test]
    fn a_position_valued_out_of_time_claims_nothing() {
        let steps = Step::numbered(vec!["R", "L"]);
        let decisions = replay(Coins::new(&ROW), &steps, AB, read).unwrap();
        let reviewed = review("coins", &decisions, AB, &OutOfTime, &whole(), false)
            .unwrap()
            .unwrap();
        for (entry, decision) in reviewed.moves.iter().zip(&decisions) {
            let played = final_margin(&decision.position, decision.played);
            assert_eq!(entry.value_played, json!({ "final_margin": played }));
            assert_eq!(entry.value_before, json!({ "final_margin": 0 }));
            assert!(entry.best_moves.is_empty());
            assert_eq!((entry.loss, entry.judgment, entry.exact), (0.0, Judgment::Good, false));
        }
        // Even the quick try's proved-only rule sees it as unproved.
        assert!(review("coins", &decisions, AB, &OutOfTime, &whole(), true)
            .unwrap()
            .is_none());
    }
}
