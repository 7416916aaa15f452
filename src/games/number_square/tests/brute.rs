//! An independent Number Square reference for the tests: exhaustive
//! negamax over the future margin on a plain grid, straight from the rules
//! (edge or next to a taken tile; a crossing path or a full board ends the
//! game), memoised by the set of tiles left, no pruning. Shared by the
//! solver, match and API tests.
#![allow(dead_code)] // each test crate uses its own part of it

use std::collections::HashMap;

use kibitz::games::number_square::Tile;

/// Rows of tile values, `None` for a tile already taken.
pub type Grid = Vec<Vec<Option<i64>>>;

/// The best future margin for the player to move (0 if the game is over).
pub fn brute_margin(grid: &Grid) -> i64 {
    let mut reference = Reference::new(grid);
    let root = reference.all_open();
    if reference.over(root) {
        0
    } else {
        reference.value(root)
    }
}

/// Exhaustive negamax over the future margin, straight from the rules.
pub struct Reference {
    size: usize,
    values: Vec<Vec<i64>>,
    /// The tiles untaken at the root; a position is the subset still untaken.
    open: Vec<(usize, usize)>,
    /// Each tile's position in `open`, `None` if taken at the root.
    bit_of: Vec<Vec<Option<usize>>>,
    memo: HashMap<u64, i64>,
    ended: HashMap<u64, bool>,
}

impl Reference {
    pub fn new(grid: &Grid) -> Self {
        let size = grid.len();
        let values = grid
            .iter()
            .map(|row| row.iter().map(|v| v.unwrap_or(0)).collect())
            .collect();
        let open: Vec<(usize, usize)> = (0..size)
            .flat_map(|r| (0..size).map(move |c| (r, c)))
            .filter(|&(r, c)| grid[r][c].is_some())
            .collect();
        assert!(open.len() <= 64, "reference handles at most 64 open tiles");
        let mut bit_of = vec![vec![None; size]; size];
        for (i, &(r, c)) in open.iter().enumerate() {
            bit_of[r][c] = Some(i);
        }
        Self {
            size,
            values,
            open,
            bit_of,
            memo: HashMap::new(),
            ended: HashMap::new(),
        }
    }

    pub fn all_open(&self) -> u64 {
        if self.open.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.open.len()) - 1
        }
    }

    fn taken(&self, open: u64, r: usize, c: usize) -> bool {
        match self.bit_of[r][c] {
            Some(i) => open & (1 << i) == 0,
            None => true,
        }
    }

    fn neighbours(&self, r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
        let n = self.size as isize;
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .map(move |(dr, dc)| (r as isize + dr, c as isize + dc))
            .filter(move |&(r, c)| r >= 0 && c >= 0 && r < n && c < n)
            .map(|(r, c)| (r as usize, c as usize))
    }

    fn legal(&self, open: u64) -> Vec<usize> {
        let n = self.size;
        (0..self.open.len())
            .filter(|&i| open & (1 << i) != 0)
            .filter(|&i| {
                let (r, c) = self.open[i];
                r == 0
                    || c == 0
                    || r + 1 == n
                    || c + 1 == n
                    || self.neighbours(r, c).any(|(nr, nc)| self.taken(open, nr, nc))
            })
            .collect()
    }

    /// Depth-first search through taken tiles from `starts` to `goal`.
    fn path(
        &self,
        open: u64,
        starts: impl Iterator<Item = (usize, usize)>,
        goal: impl Fn(usize, usize) -> bool,
    ) -> bool {
        let n = self.size;
        let mut seen = [false; 144];
        let mut stack: Vec<(usize, usize)> = starts.filter(|&(r, c)| self.taken(open, r, c)).collect();
        while let Some((r, c)) = stack.pop() {
            if std::mem::replace(&mut seen[r * n + c], true) {
                continue;
            }
            if goal(r, c) {
                return true;
            }
            stack.extend(self.neighbours(r, c).filter(|&(nr, nc)| self.taken(open, nr, nc)));
        }
        false
    }

    pub fn over(&mut self, open: u64) -> bool {
        if let Some(&over) = self.ended.get(&open) {
            return over;
        }
        let n = self.size;
        let over = open == 0
            || self.path(open, (0..n).map(|c| (0, c)), |r, _| r + 1 == n)
            || self.path(open, (0..n).map(|r| (r, 0)), |_, c| c + 1 == n);
        self.ended.insert(open, over);
        over
    }

    /// The mover's best future margin from `open` (game in play).
    pub fn value(&mut self, open: u64) -> i64 {
        if let Some(&v) = self.memo.get(&open) {
            return v;
        }
        let best = self
            .legal(open)
            .into_iter()
            .map(|i| self.move_value(open, i))
            .max()
            .expect("a game in play has a legal move");
        self.memo.insert(open, best);
        best
    }

    /// The future margin of taking open tile `i`, then best play.
    fn move_value(&mut self, open: u64, i: usize) -> i64 {
        let (r, c) = self.open[i];
        let child = open & !(1 << i);
        let rest = if self.over(child) { 0 } else { self.value(child) };
        self.values[r][c] - rest
    }

    /// Every legal tile with its value, from the root.
    pub fn root_moves(&mut self) -> Vec<(Tile, i64)> {
        let root = self.all_open();
        self.legal(root)
            .into_iter()
            .map(|i| {
                let (r, c) = self.open[i];
                (Tile::new(r, c), self.move_value(root, i))
            })
            .collect()
    }
}
