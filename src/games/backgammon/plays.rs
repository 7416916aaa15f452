//! The legal plays for a roll, as distinct resulting positions.
//!
//! The rules: a checker on the bar enters first (on point 25 - die, any
//! point not held by two or more of the opponent's checkers); a checker
//! moves down by the die to a point not held by the opponent, hitting a
//! lone opposing checker (a blot) onto the opponent's bar; once all the
//! mover's checkers are in the home board (1..=6) one may be borne off
//! with the exact die, or with a larger die from the highest occupied
//! point. Both dice must be played when possible; when only one can be,
//! the larger if it can; a double is played four times, or as often as
//! possible. Plays that end in the same position are one play.

use std::collections::HashSet;
use std::fmt;

use super::board::{Board, Dice, Side};

/// The bar as a step's `from`, in gnubg's numbering.
pub const BAR: u8 = 25;
/// Borne off, as a step's `to`.
pub const OFF: u8 = 0;

/// One checker moved by one die, in the mover's numbering: `from` 1..=24
/// or [`BAR`], `to` 1..=24 or [`OFF`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    /// It sent a blot of the opponent's to the bar.
    pub hit: bool,
}

/// A play: its steps in the order they are made (an entry before the
/// checker moves on, a checker's moves one die at a time) and the
/// position it leads to, still seen from the side that moved (its
/// [`Board::flipped`] is the next turn's board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub steps: Vec<Step>,
    pub result: Board,
}

impl Play {
    /// No checker moves: the roll could not be played.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// gnubg's style, `24/18 13/11*`, `bar/22`, `6/off(2)`: steps in order,
/// a repeated step counted once with its number.
impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: u8| match p {
            BAR => "bar".to_string(),
            OFF => "off".to_string(),
            p => p.to_string(),
        };
        let mut first = true;
        let mut i = 0;
        while i < self.steps.len() {
            let step = self.steps[i];
            let repeats = self.steps[i..].iter().take_while(|&&s| s == step).count();
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(
                f,
                "{}/{}{}",
                name(step.from),
                name(step.to),
                if step.hit { "*" } else { "" }
            )?;
            if repeats > 1 {
                write!(f, "({repeats})")?;
            }
            i += repeats;
        }
        Ok(())
    }
}

/// Moves one of the mover's checkers from `from` (1..=24 or [`BAR`]) by
/// `die` (1..=6), if the rules allow it; None for anything else.
pub fn single_step(board: &Board, from: u8, die: u8) -> Option<(Board, Step)> {
    if !(1..=6).contains(&die) {
        return None;
    }
    let on_bar = board.bar(Side::Me) > 0;
    if from == BAR {
        if !on_bar {
            return None;
        }
        let to = 25 - die;
        if board.point(usize::from(to)) < -1 {
            return None;
        }
        let mut next = *board;
        next.take_from_bar();
        let hit = next.put_mine(usize::from(to));
        return Some((next, Step { from, to, hit }));
    }
    if on_bar || !(1..=24).contains(&from) || board.point(usize::from(from)) <= 0 {
        return None;
    }
    let mut next = *board;
    next.take_mine(usize::from(from));
    if from > die {
        let to = from - die;
        if board.point(usize::from(to)) < -1 {
            return None;
        }
        let hit = next.put_mine(usize::from(to));
        return Some((next, Step { from, to, hit }));
    }
    // Bearing off: everything home, and a larger die only from the
    // highest occupied point.
    let all_home = (7..=24).all(|p| board.point(p) <= 0);
    let highest = from == die || (usize::from(from) + 1..=6).all(|p| board.point(p) <= 0);
    if !(all_home && highest) {
        return None;
    }
    next.bear_off_one();
    Some((
        next,
        Step {
            from,
            to: OFF,
            hit: false,
        },
    ))
}

/// Where the mover has checkers to move: the bar, then the points from
/// 24 down.
fn sources(board: &Board) -> impl Iterator<Item = u8> + '_ {
    std::iter::once(BAR).chain((1..=24u8).rev()).filter(move |&p| match p {
        BAR => board.bar(Side::Me) > 0,
        p => board.point(usize::from(p)) > 0,
    })
}

/// A play being built: its steps, the dice it used (to apply the
/// larger-die rule) and where it stands.
struct Partial {
    steps: Vec<Step>,
    dice: Vec<u8>,
    board: Board,
}

/// Every way to play `dice` in this order, one die after the other, as
/// far as the dice go; each prefix that cannot go on is a finished play.
/// `seen` cuts orders of the same moves that meet in one position with
/// the same dice left.
fn extend(partial: &mut Partial, rest: &[u8], seen: &mut HashSet<(Board, usize)>, out: &mut Vec<Partial>) {
    let mut moved = false;
    if let Some((&die, later)) = rest.split_first() {
        let here = partial.board;
        for from in sources(&here) {
            let Some((next, step)) = single_step(&here, from, die) else {
                continue;
            };
            moved = true;
            if !seen.insert((next, later.len())) {
                continue;
            }
            partial.board = next;
            partial.steps.push(step);
            partial.dice.push(die);
            extend(partial, later, seen, out);
            partial.dice.pop();
            partial.steps.pop();
            partial.board = here;
        }
    }
    if !moved {
        out.push(Partial {
            steps: partial.steps.clone(),
            dice: partial.dice.clone(),
            board: partial.board,
        });
    }
}

/// Every legal play of `dice`, one per resulting position, in a fixed
/// order (the first way each position was found). When no checker can
/// move the one play is the empty play (the board unchanged).
pub fn legal_plays(board: &Board, dice: Dice) -> Vec<Play> {
    let orders: Vec<Vec<u8>> = if dice.is_double() {
        vec![vec![dice.high(); 4]]
    } else {
        vec![vec![dice.high(), dice.low()], vec![dice.low(), dice.high()]]
    };
    let mut found = Vec::new();
    for order in &orders {
        // Each order keeps its own cut: the same position with the other
        // die left is another state.
        let mut seen = HashSet::new();
        let mut partial = Partial {
            steps: Vec::new(),
            dice: Vec::new(),
            board: *board,
        };
        extend(&mut partial, order, &mut seen, &mut found);
    }
    let most = found.iter().map(|p| p.steps.len()).max().unwrap_or(0);
    found.retain(|p| p.steps.len() == most);
    // Only one die playable (and not a double): the larger one if it can
    // be played.
    if most == 1 && !dice.is_double() && found.iter().any(|p| p.dice[0] == dice.high()) {
        found.retain(|p| p.dice[0] == dice.high());
    }
    let mut positions = HashSet::new();
    found
        .into_iter()
        .filter(|p| positions.insert(p.board))
        .map(|p| Play {
            steps: p.steps,
            result: p.board,
        })
        .collect()
}

/// The legal play a person meant by `steps` (each `from` → `to` moving
/// one of the mover's checkers, a die or several at once, hitting a lone
/// opposing checker where it lands), matched by the position it reaches;
/// None when the steps do not make a legal play of `dice`.
pub fn find_play(board: &Board, dice: Dice, steps: &[(u8, u8)]) -> Option<Play> {
    let mut after = *board;
    for &(from, to) in steps {
        match from {
            BAR if after.bar(Side::Me) > 0 => after.take_from_bar(),
            1..=24 if after.point(usize::from(from)) > 0 => after.take_mine(usize::from(from)),
            _ => return None,
        }
        match to {
            OFF => after.bear_off_one(),
            1..=24 if to < from && after.point(usize::from(to)) >= -1 => {
                after.put_mine(usize::from(to));
            }
            _ => return None,
        }
    }
    legal_plays(board, dice).into_iter().find(|play| play.result == after)
}
