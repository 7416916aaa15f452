//! A backgammon position seen from the side to move, its validation and
//! its pip counts.
//!
//! The 24 points are numbered from the mover's side: point 1 is the
//! mover's ace point, the mover's home board is 1..=6 and the opponent's
//! 19..=24. A point holds the mover's checkers (positive) or the
//! opponent's (negative), never both. The mover's checkers travel from 24
//! toward 1 and are borne off past 1; the opponent's travel the other way.
//! One numbering for both sides keeps every rule written once: the
//! opponent's move is the mover's after [`Board::flipped`].

use std::fmt;

/// Checkers per side.
pub const CHECKERS: u8 = 15;

/// One of the two players, named from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The side to move.
    Me,
    Opponent,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Me => Side::Opponent,
            Side::Opponent => Side::Me,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::Me => 0,
            Side::Opponent => 1,
        }
    }
}

/// Why a position, dice, cube or match is not acceptable: `field` names
/// the request's field as the contract spells it (`board.points[3]`,
/// `dice[1]`, `cube.value`), so that a 422 can point at it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct RulesError {
    pub field: String,
    pub message: String,
}

impl RulesError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> RulesError {
        RulesError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A position from the side to move: who is on roll is part of the view,
/// not of the data.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Board {
    /// `points[p - 1]` is point `p`: + the mover's checkers, - the
    /// opponent's.
    points: [i8; 24],
    /// Checkers on the bar, indexed by [`Side`].
    bar: [u8; 2],
    /// Checkers borne off, indexed by [`Side`].
    off: [u8; 2],
}

impl Board {
    /// The opening position, the same for both sides.
    pub fn start() -> Board {
        let mut points = [0i8; 24];
        for (point, count) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            points[point - 1] = count;
            points[24 - point] = -count;
        }
        Board {
            points,
            bar: [0, 0],
            off: [0, 0],
        }
    }

    /// A board from the contract's JSON fields (`points` from point 1 to
    /// 24, + the mover's, - the opponent's; `bar` and `off` per side).
    /// Numbers arrive as they were sent, so that an out-of-range value is
    /// named instead of being cut to fit. Each side must have 15 checkers
    /// counting its bar and its borne-off ones.
    pub fn from_parts(
        points: &[i64],
        bar_me: i64,
        bar_opponent: i64,
        off_me: i64,
        off_opponent: i64,
    ) -> Result<Board, RulesError> {
        if points.len() != 24 {
            return Err(RulesError::new(
                "board.points",
                format!("must list 24 points, not {}", points.len()),
            ));
        }
        let mut board = Board {
            points: [0; 24],
            bar: [0, 0],
            off: [0, 0],
        };
        let max = i64::from(CHECKERS);
        for (i, &count) in points.iter().enumerate() {
            if !(-max..=max).contains(&count) {
                return Err(RulesError::new(
                    format!("board.points[{i}]"),
                    format!("{count} checkers: a point holds -15 to 15"),
                ));
            }
            board.points[i] = count as i8;
        }
        let counts = [
            ("board.bar.me", bar_me),
            ("board.bar.opponent", bar_opponent),
            ("board.off.me", off_me),
            ("board.off.opponent", off_opponent),
        ];
        for (field, count) in counts {
            if !(0..=max).contains(&count) {
                return Err(RulesError::new(field, format!("{count} checkers: must be 0 to 15")));
            }
        }
        board.bar = [bar_me as u8, bar_opponent as u8];
        board.off = [off_me as u8, off_opponent as u8];
        board.check_totals()?;
        Ok(board)
    }

    /// The checks every constructor shares: 15 checkers a side.
    pub(crate) fn check_totals(&self) -> Result<(), RulesError> {
        for (side, name) in [(Side::Me, "me"), (Side::Opponent, "opponent")] {
            let total = self.checkers_total(side);
            if total != u32::from(CHECKERS) {
                return Err(RulesError::new(
                    "board",
                    format!("{name} has {total} checkers counting the bar and those borne off, not 15"),
                ));
            }
        }
        Ok(())
    }

    /// A board from raw parts the caller has already checked (the move
    /// generator and the Position ID decoder).
    pub(crate) fn from_raw(points: [i8; 24], bar: [u8; 2], off: [u8; 2]) -> Board {
        Board { points, bar, off }
    }

    fn checkers_total(&self, side: Side) -> u32 {
        let on_points: u32 = (1..=24).map(|p| u32::from(self.count(side, p))).sum();
        on_points + u32::from(self.bar(side)) + u32::from(self.off(side))
    }

    /// Point `p` (1..=24): + the mover's checkers, - the opponent's.
    pub fn point(&self, p: usize) -> i8 {
        self.points[p - 1]
    }

    /// All 24 points, point 1 first.
    pub fn points(&self) -> [i8; 24] {
        self.points
    }

    /// How many of `side`'s checkers stand on point `p` (1..=24, the
    /// mover's numbering).
    pub fn count(&self, side: Side, p: usize) -> u8 {
        let n = self.points[p - 1];
        match side {
            Side::Me => n.max(0) as u8,
            Side::Opponent => (-n).max(0) as u8,
        }
    }

    pub fn bar(&self, side: Side) -> u8 {
        self.bar[side.index()]
    }

    pub fn off(&self, side: Side) -> u8 {
        self.off[side.index()]
    }

    /// The same position seen by the opponent (whose turn comes next).
    pub fn flipped(&self) -> Board {
        let mut points = [0i8; 24];
        for (i, point) in points.iter_mut().enumerate() {
            *point = -self.points[23 - i];
        }
        Board {
            points,
            bar: [self.bar[1], self.bar[0]],
            off: [self.off[1], self.off[0]],
        }
    }

    /// Pips `side` needs to bear everything off: each checker's distance
    /// past its ace point, 25 for one on the bar.
    pub fn pips(&self, side: Side) -> u32 {
        let on_points: u32 = (1..=24)
            .map(|p| {
                let distance = match side {
                    Side::Me => p,
                    Side::Opponent => 25 - p,
                };
                u32::from(self.count(side, p)) * distance as u32
            })
            .sum();
        on_points + 25 * u32::from(self.bar(side))
    }

    /// Whether no checker of one side can ever meet one of the other's:
    /// the game is a pure race.
    pub fn is_race(&self) -> bool {
        if self.bar != [0, 0] {
            return false;
        }
        // The mover's checkers move down, the opponent's up: contact is
        // over once the mover's highest checker is below the opponent's
        // lowest.
        let my_highest = (1..=24).rev().find(|&p| self.points[p - 1] > 0).unwrap_or(0);
        let their_lowest = (1..=24).find(|&p| self.points[p - 1] < 0).unwrap_or(25);
        my_highest < their_lowest
    }

    // Moves for the generator in `plays`: unchecked, the caller knows the
    // move is legal.

    pub(crate) fn take_mine(&mut self, p: usize) {
        self.points[p - 1] -= 1;
    }

    pub(crate) fn take_from_bar(&mut self) {
        self.bar[0] -= 1;
    }

    pub(crate) fn bear_off_one(&mut self) {
        self.off[0] += 1;
    }

    /// Puts a mover's checker on `p`; returns whether it hit a blot (sent
    /// to the opponent's bar).
    pub(crate) fn put_mine(&mut self, p: usize) -> bool {
        let hit = self.points[p - 1] == -1;
        if hit {
            self.points[p - 1] = 0;
            self.bar[1] += 1;
        }
        self.points[p - 1] += 1;
        hit
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {{ points: {:?}, bar: {:?}, off: {:?} }}",
            self.points, self.bar, self.off
        )
    }
}

/// A roll of two dice, each 1..=6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Dice(u8, u8);

impl Dice {
    /// Dice from the request's numbers, named `dice[0]` and `dice[1]`.
    pub fn new(first: i64, second: i64) -> Result<Dice, RulesError> {
        for (i, die) in [first, second].into_iter().enumerate() {
            if !(1..=6).contains(&die) {
                return Err(RulesError::new(format!("dice[{i}]"), format!("{die} is not 1 to 6")));
            }
        }
        Ok(Dice(first as u8, second as u8))
    }

    /// The two dice as rolled.
    pub fn values(self) -> [u8; 2] {
        [self.0, self.1]
    }

    pub fn high(self) -> u8 {
        self.0.max(self.1)
    }

    pub fn low(self) -> u8 {
        self.0.min(self.1)
    }

    pub fn is_double(self) -> bool {
        self.0 == self.1
    }

    /// The 21 distinct rolls with their probabilities (1/36 a double,
    /// 2/36 the others).
    pub fn all() -> impl Iterator<Item = (Dice, f64)> {
        (1..=6u8).flat_map(|high| {
            (1..=high).map(move |low| {
                let weight = if high == low { 1.0 } else { 2.0 };
                (Dice(high, low), weight / 36.0)
            })
        })
    }
}
