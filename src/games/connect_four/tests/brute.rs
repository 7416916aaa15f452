//! An independent Connect Four reference for the tests: a plain minimax
//! over a grid of cells (no bitboards, no table, no pruning), with the
//! standard solvers' score convention. Shared by the solver, match and
//! arena tests.

use std::collections::HashMap;

/// A grid of cells: 0 empty, 1 first player, 2 second.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    pub cols: usize,
    pub rows: usize,
    pub k: usize,
    pub cells: Vec<u8>,
    pub stones: usize,
}

impl Grid {
    pub fn new(cols: usize, rows: usize, k: usize) -> Grid {
        Grid {
            cols,
            rows,
            k,
            cells: vec![0; cols * rows],
            stones: 0,
        }
    }

    pub fn height(&self, col: usize) -> usize {
        (0..self.rows)
            .take_while(|&r| self.cells[r * self.cols + col] != 0)
            .count()
    }

    /// Drops a stone; true if it makes a line of k.
    pub fn drop(&mut self, col: usize) -> bool {
        let row = self.height(col);
        let me = (self.stones % 2) as u8 + 1;
        self.cells[row * self.cols + col] = me;
        self.stones += 1;
        let at = |r: i64, c: i64| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.cells[r as usize * self.cols + c as usize] == me
        };
        [(0i64, 1i64), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let run = |sign: i64| {
                (1..)
                    .take_while(|&i| at(row as i64 + sign * i * dr, col as i64 + sign * i * dc))
                    .count()
            };
            1 + run(1) + run(-1) >= self.k
        })
    }

    pub fn full(&self) -> bool {
        self.stones == self.cols * self.rows
    }
}

/// The standard score by exhaustive minimax: a win with the stone played
/// when `s` stones are down scores (cells + 1 - s) / 2.
pub fn brute_score(grid: &Grid, memo: &mut HashMap<Grid, i32>) -> i32 {
    if let Some(&v) = memo.get(grid) {
        return v;
    }
    let cells = (grid.cols * grid.rows) as i32;
    let mut best = i32::MIN;
    for col in 0..grid.cols {
        if grid.height(col) == grid.rows {
            continue;
        }
        let mut child = grid.clone();
        let score = if child.drop(col) {
            (cells + 1 - grid.stones as i32) / 2
        } else if child.full() {
            0
        } else {
            -brute_score(&child, memo)
        };
        best = best.max(score);
    }
    memo.insert(grid.clone(), best);
    best
}
