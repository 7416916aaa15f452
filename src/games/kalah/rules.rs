//! The rules of Kalah(m, n): two rows of `m` houses (1..=8) holding `n`
//! seeds each at the start (1..=8), one store per player.
//!
//! A move takes every seed of one of the mover's non-empty houses and sows
//! them one by one counter-clockwise into the following houses and the
//! mover's own store, skipping the opponent's store (a house sown from
//! gets seeds again on every full lap). A last seed in the mover's store
//! gives the mover another move. A last seed in a house of the mover's
//! own side that was empty captures it with the opposite house's seeds
//! into the mover's store: only when the opposite house is not empty
//! ([`Capture::Standard`]), or always ([`Capture::Empty`], the rule of
//! Irving, Donkers and Uiterwijk's solution). The game ends as soon as
//! either side's houses are all empty after a move; each player then adds
//! the seeds left on their side to their store. More seeds in store wins.
//!
//! The search sees a position from the side to move ([`Houses`]: the
//! mover's houses, then the opponent's), so that one table entry serves
//! both players. [`KalahState`] adds the stores and whose turn it is, and
//! converts from and to the absolute south/north board of the API.

use std::fmt;

pub const MAX_HOUSES: usize = 8;
pub const MAX_START_SEEDS: u8 = 8;
/// Most seeds a position may hold, houses and stores together: every
/// count then fits a byte and sowing never carries into the next house.
pub const MAX_SEEDS: u32 = 255;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Capture {
    /// A capture needs seeds in the opposite house.
    #[default]
    Standard,
    /// The capturing seed goes to the store even opposite an empty house.
    Empty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    houses: u8,
    seeds: u8,
    capture: Capture,
}

impl Default for Rules {
    /// Kalah(6, 4), standard capture.
    fn default() -> Rules {
        Rules {
            houses: 6,
            seeds: 4,
            capture: Capture::Standard,
        }
    }
}

impl Rules {
    pub fn new(houses: u32, seeds: u32, capture: Capture) -> Result<Rules, String> {
        if !(1..=MAX_HOUSES as u32).contains(&houses) {
            return Err(format!("houses must be 1 to {MAX_HOUSES}, not {houses}"));
        }
        if !(1..=u32::from(MAX_START_SEEDS)).contains(&seeds) {
            return Err(format!("seeds must be 1 to {MAX_START_SEEDS}, not {seeds}"));
        }
        Ok(Rules {
            houses: houses as u8,
            seeds: seeds as u8,
            capture,
        })
    }

    /// Houses per side.
    pub fn houses(&self) -> usize {
        usize::from(self.houses)
    }

    /// Seeds per house at the start.
    pub fn seeds(&self) -> u32 {
        u32::from(self.seeds)
    }

    pub fn capture(&self) -> Capture {
        self.capture
    }

    pub fn start(&self) -> KalahState {
        let side: u64 = (0..self.houses()).map(|i| u64::from(self.seeds) << (8 * i)).sum();
        KalahState {
            rules: *self,
            houses: Houses::from_sides(side, side),
            stores: [0, 0],
            mover: Player::South,
        }
    }

    /// How this board's houses are sown.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        &GEOMETRIES[self.houses()]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    South,
    North,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }
}

/// Both sides' houses seen from the player to move: byte `i` (0..8) is
/// the mover's house `i` in sowing order, byte `8 + i` the opponent's.
/// Bytes past the board's width stay 0. The mover's house `i` faces the
/// opponent's house `m - 1 - i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Houses(u128);

impl fmt::Debug for Houses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |half: u64| (0..8).map(|i| (half >> (8 * i)) as u8).collect::<Vec<_>>();
        write!(f, "Houses({:?} / {:?})", side(self.mine()), side(self.theirs()))
    }
}

/// Sum of the bytes of `x`, given that it is below 256.
#[inline(always)]
fn byte_sum(x: u64) -> u32 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

impl Houses {
    #[inline(always)]
    pub fn from_sides(mine: u64, theirs: u64) -> Houses {
        Houses(u128::from(mine) | u128::from(theirs) << 64)
    }

    /// The mover's houses, a byte each.
    #[inline(always)]
    pub fn mine(self) -> u64 {
        self.0 as u64
    }

    #[inline(always)]
    pub fn theirs(self) -> u64 {
        (self.0 >> 64) as u64
    }

    /// Seeds in byte `index` (0..16, see [`Houses`]).
    #[inline(always)]
    pub fn count(self, index: usize) -> u32 {
        (self.0 >> (8 * index)) as u8 as u32
    }

    /// Seeds in all houses.
    #[inline(always)]
    pub fn seeds(self) -> u32 {
        byte_sum(self.mine()) + byte_sum(self.theirs())
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The same houses seen from the opponent.
    #[inline(always)]
    pub fn flipped(self) -> Houses {
        Houses(self.0.rotate_left(64))
    }

    /// The mover sows house `house` (0-based, not empty). The returned
    /// houses are seen from whoever moves next; when the game ends they
    /// are empty, swept into the stores.
    #[inline(always)]
    pub fn sow(self, geo: &Geometry, capture: Capture, house: usize) -> Sown {
        let seeds = self.count(house);
        let laps = seeds / geo.lap;
        let run = &geo.runs[house][(seeds % geo.lap) as usize];
        let mut board = self.0 - (u128::from(seeds) << (8 * house)) + u128::from(laps) * geo.all + run.houses;
        let mut mine = laps + u32::from(run.store);
        let last = usize::from(run.last);
        if last < geo.houses && (board >> (8 * last)) as u8 == 1 {
            let facing = 8 * (8 + geo.houses - 1 - last);
            let taken = (board >> facing) as u8;
            if taken > 0 || capture == Capture::Empty {
                mine += 1 + u32::from(taken);
                board &= !(0xFF << (8 * last) | 0xFF << facing);
            }
        }
        let after = Houses(board);
        if after.mine() == 0 || after.theirs() == 0 {
            return Sown {
                houses: Houses(0),
                mine: mine + byte_sum(after.mine()),
                theirs: byte_sum(after.theirs()),
                next: Next::Over,
            };
        }
        let (houses, next) = if last == geo.houses {
            (after, Next::Again)
        } else {
            (after.flipped(), Next::Opponent)
        };
        Sown {
            houses,
            mine,
            theirs: 0,
            next,
        }
    }
}

/// Who moves after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The last seed fell in the mover's store: the mover again.
    Again,
    Opponent,
    /// A side is empty: the seeds left went to their owners' stores.
    Over,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    /// Seen from the next mover (see [`Houses::sow`]).
    pub houses: Houses,
    /// Seeds that went to the mover's store (sowing, capture, final sweep).
    pub mine: u32,
    /// Seeds that went to the opponent's store (the final sweep only).
    pub theirs: u32,
    pub next: Next,
}

impl Sown {
    /// The mover's gain minus the opponent's.
    #[inline(always)]
    pub fn margin(&self) -> i32 {
        self.mine as i32 - self.theirs as i32
    }
}

/// Fewer seeds than a lap, sown from one house.
#[derive(Clone, Copy)]
struct Run {
    /// One in each house's byte that gets a seed.
    houses: u128,
    /// 1 if the run passes the mover's store.
    store: u8,
    /// Where the last seed falls: a house of the mover's (0..m), the
    /// store (m), or the opponent's side (above m).
    last: u8,
}

/// How one width of board is sown.
pub struct Geometry {
    houses: usize,
    /// Seeds in a full lap: every house and the mover's store.
    lap: u32,
    /// One in every house's byte.
    all: u128,
    /// By house sown from and seeds in the partial lap.
    runs: [[Run; 2 * MAX_HOUSES + 1]; MAX_HOUSES],
}

impl Geometry {
    pub fn houses(&self) -> usize {
        self.houses
    }
}

/// Index m: the geometry of m houses a side (index 0 unused).
static GEOMETRIES: [Geometry; MAX_HOUSES + 1] = {
    let mut all = [const { geometry(1) }; MAX_HOUSES + 1];
    let mut m = 2;
    while m <= MAX_HOUSES {
        all[m] = geometry(m);
        m += 1;
    }
    all
};

/// The ring a seed travels, position `p` of `2m + 1`: the mover's house
/// `p` below m, the store at m, the opponent's house `p - m - 1` above.
const fn geometry(m: usize) -> Geometry {
    let lap = 2 * m + 1;
    let mut all = 0u128;
    let mut i = 0;
    while i < m {
        all |= 1 << (8 * i) | 1 << (8 * (8 + i));
        i += 1;
    }
    let empty = Run {
        houses: 0,
        store: 0,
        last: 0,
    };
    let mut runs = [[empty; 2 * MAX_HOUSES + 1]; MAX_HOUSES];
    let mut house = 0;
    while house < m {
        let mut rem = 0;
        while rem < lap {
            let mut run = Run {
                houses: 0,
                store: 0,
                last: ((house + rem) % lap) as u8,
            };
            let mut step = 1;
            while step <= rem {
                let p = (house + step) % lap;
                if p < m {
                    run.houses += 1 << (8 * p);
                } else if p == m {
                    run.store = 1;
                } else {
                    run.houses += 1 << (8 * (8 + p - m - 1));
                }
                step += 1;
            }
            runs[house][rem] = run;
            rem += 1;
        }
        house += 1;
    }
    Geometry {
        houses: m,
        lap: lap as u32,
        all,
        runs,
    }
}

/// The board as the API gives it: each side's houses in its own sowing
/// order (`south[i]` faces `north[m - 1 - i]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub south: Vec<u32>,
    pub north: Vec<u32>,
    pub south_store: u32,
    pub north_store: u32,
    pub to_move: Player,
}

/// A position of a game in progress or over, with its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahState {
    rules: Rules,
    /// Seen from `mover`.
    houses: Houses,
    /// The mover's store, then the opponent's.
    stores: [u8; 2],
    mover: Player,
}

/// What [`Position::play`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The same player moves again.
    Again,
    /// The other player moves.
    Opponent,
    /// The game is over (seeds swept into the stores).
    Over,
}

impl KalahState {
    /// A position from the API's board, checked: both rows `m` long, at
    /// most [`MAX_SEEDS`] seeds in all, and a game not over (both sides
    /// have seeds: a move that empties a side ends the game at once).
    pub fn from_board(rules: Rules, board: &Layout) -> Result<KalahState, String> {
        let m = rules.houses();
        for (name, row) in [("south", &board.south), ("north", &board.north)] {
            if row.len() != m {
                return Err(format!("{name} has {} houses, the rules {m}", row.len()));
            }
        }
        let total = board
            .south
            .iter()
            .chain(&board.north)
            .chain([&board.south_store, &board.north_store])
            .try_fold(0u32, |sum, &n| sum.checked_add(n))
            .filter(|&sum| sum <= MAX_SEEDS);
        if total.is_none() {
            return Err(format!("more than {MAX_SEEDS} seeds on the board"));
        }
        // Every count is at most MAX_SEEDS: it fits its byte.
        let pack = |row: &[u32]| {
            row.iter()
                .enumerate()
                .map(|(i, &n)| u64::from(n) << (8 * i))
                .sum::<u64>()
        };
        let (south, north) = (pack(&board.south), pack(&board.north));
        if south == 0 || north == 0 {
            let empty = if south == 0 { "south" } else { "north" };
            return Err(format!("the game is over: {empty} has no seeds in its houses"));
        }
        let (houses, stores) = match board.to_move {
            Player::South => (Houses::from_sides(south, north), [board.south_store, board.north_store]),
            Player::North => (Houses::from_sides(north, south), [board.north_store, board.south_store]),
        };
        Ok(KalahState {
            rules,
            houses,
            stores: stores.map(|s| s as u8),
            mover: board.to_move,
        })
    }

    /// The API's board (after the end of the game, the player who made the
    /// last move is `to_move`).
    pub fn to_board(&self) -> Layout {
        let m = self.rules.houses();
        let row = |half: u64| (0..m).map(|i| u32::from((half >> (8 * i)) as u8)).collect::<Vec<_>>();
        let (mine, theirs) = (row(self.houses.mine()), row(self.houses.theirs()));
        let [own, other] = self.stores.map(u32::from);
        match self.mover {
            Player::South => Layout {
                south: mine,
                north: theirs,
                south_store: own,
                north_store: other,
                to_move: Player::South,
            },
            Player::North => Layout {
                south: theirs,
                north: mine,
                south_store: other,
                north_store: own,
                to_move: Player::North,
            },
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The houses seen from the player to move.
    pub fn houses(&self) -> Houses {
        self.houses
    }

    pub fn to_move(&self) -> Player {
        self.mover
    }

    pub fn is_over(&self) -> bool {
        self.houses.is_empty()
    }

    /// The mover's store minus the opponent's: the final margin once the
    /// game is over.
    pub fn margin(&self) -> i32 {
        i32::from(self.stores[0]) - i32::from(self.stores[1])
    }

    /// South's store minus north's.
    pub fn south_margin(&self) -> i32 {
        match self.mover {
            Player::South => self.margin(),
            Player::North => -self.margin(),
        }
    }

    /// The houses (1..=m, in the mover's sowing order) the mover may play.
    pub fn legal_houses(&self) -> Vec<u8> {
        (0..self.rules.houses())
            .filter(|&i| self.houses.count(i) > 0)
            .map(|i| i as u8 + 1)
            .collect()
    }

    /// Plays `house` (1..=m in the mover's sowing order).
    pub fn play(&mut self, house: u8) -> Result<Played, String> {
        let m = self.rules.houses();
        let index = usize::from(house).wrapping_sub(1);
        if index >= m {
            return Err(format!("house {house} is not 1 to {m}"));
        }
        if self.houses.count(index) == 0 {
            return Err(format!("house {house} is empty"));
        }
        Ok(self.play_index(index))
    }

    /// Plays the mover's house `index` (0-based, not empty).
    pub(crate) fn play_index(&mut self, index: usize) -> Played {
        let sown = self.houses.sow(self.rules.geometry(), self.rules.capture, index);
        // The total is at most MAX_SEEDS, so the stores stay in their bytes.
        self.stores[0] += sown.mine as u8;
        self.stores[1] += sown.theirs as u8;
        self.houses = sown.houses;
        match sown.next {
            Next::Again => Played::Again,
            Next::Over => Played::Over,
            Next::Opponent => {
                self.stores.swap(0, 1);
                self.mover = self.mover.other();
                Played::Opponent
            }
        }
    }
}
