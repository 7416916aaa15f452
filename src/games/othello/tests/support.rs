//! A plain Othello board for the tests: a grid of cells, moves found by
//! walking from each square in the eight directions. Slow and obvious, and
//! independent of the engine's bitboards.

#![allow(dead_code)]

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reference {
    pub side: usize,
    /// 0 empty, 1 black (X), 2 white (O); row by row from the top.
    pub cells: Vec<u8>,
    /// 0 black, 1 white.
    pub to_move: usize,
}

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl Reference {
    pub fn start(side: usize) -> Reference {
        let mut cells = vec![0; side * side];
        let h = side / 2;
        cells[(h - 1) * side + h - 1] = 2;
        cells[h * side + h] = 2;
        cells[(h - 1) * side + h] = 1;
        cells[h * side + h - 1] = 1;
        Reference {
            side,
            cells,
            to_move: 0,
        }
    }

    pub fn from_rows(rows: &[String], to_move: usize) -> Reference {
        let side = rows.len();
        let cells = rows
            .iter()
            .flat_map(|r| {
                r.chars().map(|c| match c {
                    'X' => 1,
                    'O' => 2,
                    _ => 0,
                })
            })
            .collect();
        Reference { side, cells, to_move }
    }

    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.side)
            .map(|row| row.iter().map(|&c| ['.', 'X', 'O'][c as usize]).collect())
            .collect()
    }

    fn flips(&self, row: usize, col: usize) -> Vec<usize> {
        let me = self.to_move as u8 + 1;
        let them = 3 - me;
        let n = self.side as i32;
        let mut turned = Vec::new();
        if self.cells[row * self.side + col] != 0 {
            return turned;
        }
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            let mut run = Vec::new();
            while r >= 0 && r < n && c >= 0 && c < n && self.cells[(r * n + c) as usize] == them {
                run.push((r * n + c) as usize);
                r += dr;
                c += dc;
            }
            if !run.is_empty() && r >= 0 && r < n && c >= 0 && c < n && self.cells[(r * n + c) as usize] == me {
                turned.extend(run);
            }
        }
        turned
    }

    /// (row, col) of every legal square, row by row.
    pub fn legal_moves(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for row in 0..self.side {
            for col in 0..self.side {
                if !self.flips(row, col).is_empty() {
                    moves.push((row, col));
                }
            }
        }
        moves
    }

    pub fn play(&self, row: usize, col: usize) -> Reference {
        let mut next = self.clone();
        let me = self.to_move as u8 + 1;
        for i in self.flips(row, col) {
            next.cells[i] = me;
        }
        next.cells[row * self.side + col] = me;
        next.to_move = 1 - self.to_move;
        next
    }

    pub fn passed(&self) -> Reference {
        let mut next = self.clone();
        next.to_move = 1 - self.to_move;
        next
    }

    /// Black's and white's discs.
    pub fn counts(&self) -> (i32, i32) {
        let black = self.cells.iter().filter(|&&c| c == 1).count() as i32;
        let white = self.cells.iter().filter(|&&c| c == 2).count() as i32;
        (black, white)
    }

    /// The final score for the player to move: disc difference, empties to
    /// the winner.
    pub fn final_score(&self) -> i32 {
        let (black, white) = self.counts();
        let empties = (self.side * self.side) as i32 - black - white;
        let difference = if self.to_move == 0 {
            black - white
        } else {
            white - black
        };
        difference + difference.signum() * empties
    }

    /// Exact value for the player to move by plain negamax over every move
    /// (alpha-beta, no ordering, no table), passes and the end included.
    pub fn value(&self, alpha: i32, beta: i32) -> i32 {
        let moves = self.legal_moves();
        if moves.is_empty() {
            let passed = self.passed();
            if passed.legal_moves().is_empty() {
                return self.final_score();
            }
            return -passed.value(-beta, -alpha);
        }
        let mut alpha = alpha;
        let mut best = i32::MIN;
        for (row, col) in moves {
            let v = -self.play(row, col).value(-beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
