//! The search's own board: flat cells plus per-line stone counts kept up to
//! date move by move, so that "can I win now?", "must I block?" and the
//! heuristic evaluation cost O(1) instead of a scan of every line.

use crate::games::tictactoe::{lines, Player, Position};

/// Scores are from the mover's point of view. A win in `p` plies from the
/// search root scores `WIN - p`, a loss `-(WIN - p)`: faster wins and slower
/// losses score higher.
pub const WIN: i32 = 1_000_000;
/// Scores at or beyond this magnitude are wins or losses, never estimates
/// (a game lasts at most 361 plies).
pub const MATE_THRESHOLD: i32 = WIN - 1_000;
/// Heuristic estimates stay strictly inside this magnitude.
pub const HEURISTIC_CAP: i32 = WIN / 2;
/// Larger than every score.
pub const INFINITY: i32 = WIN + 1;
// Estimates, proved results (at most 361 plies long) and the window's
// infinity never overlap.
const _: () = assert!(HEURISTIC_CAP < MATE_THRESHOLD && WIN - 361 > MATE_THRESHOLD);

/// Board shapes below this many empty cells are searched over every empty
/// cell; above, only near existing stones (see `candidates`).
pub const FULL_WIDTH_EMPTIES: usize = 25;
/// Candidate cells lie within this many rows and columns of a stone.
const NEAR_RADIUS: isize = 2;

pub const EMPTY: u8 = 0;

/// Tables that depend only on (rows, cols, k).
pub struct Geometry {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    pub cells: usize,
    /// Cell indices of every line, `k` per line.
    line_cells: Vec<u16>,
    /// The lines through each cell.
    lines_of_cell: Vec<Vec<u32>>,
    /// `symmetries[s][cell]` is where symmetry `s` sends `cell`; the first
    /// is the identity. 8 on a square board, 4 on a rectangle.
    pub symmetries: Vec<Vec<u16>>,
    pub inverses: Vec<Vec<u16>>,
    /// Worth of an unblocked line holding `n` of one player's stones.
    weights: Vec<i32>,
    /// Cells nearer the centre sort first among otherwise equal moves.
    centrality: Vec<i32>,
}

impl Geometry {
    pub fn new(rows: usize, cols: usize, k: usize) -> Geometry {
        let cells = rows * cols;
        let found = lines(rows, cols, k);
        let mut line_cells = Vec::with_capacity(found.len() * k);
        let mut lines_of_cell = vec![Vec::new(); cells];
        for (id, line) in found.iter().enumerate() {
            for cell in line.cells() {
                line_cells.push(cell as u16);
                lines_of_cell[cell].push(id as u32);
            }
        }
        let symmetries = symmetries(rows, cols);
        let inverses = symmetries.iter().map(|perm| invert(perm)).collect();
        Geometry {
            rows,
            cols,
            k,
            cells,
            line_cells,
            lines_of_cell,
            symmetries,
            inverses,
            weights: weights(k),
            centrality: centrality(rows, cols),
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_cells.len() / self.k.max(1)
    }

    fn cells_of_line(&self, line: usize) -> &[u16] {
        &self.line_cells[line * self.k..(line + 1) * self.k]
    }

    /// True on boards too big to search every empty cell at every node.
    pub fn restricts(&self, empties: usize) -> bool {
        empties > FULL_WIDTH_EMPTIES
    }
}

/// Each extra stone in an open line is worth 8 times more, capped so that
/// sums over hundreds of lines stay far from overflow. Completing a line is
/// worth more than anything, which move ordering relies on.
fn weights(k: usize) -> Vec<i32> {
    let mut weights = vec![0i32; k + 1];
    let mut worth = 1i32;
    for weight in weights.iter_mut().take(k).skip(1) {
        *weight = worth;
        worth = (worth * 8).min(1 << 16);
    }
    weights[k] = 1 << 20;
    weights
}

fn centrality(rows: usize, cols: usize) -> Vec<i32> {
    let mut out = Vec::with_capacity(rows * cols);
    for row in 0..rows as i32 {
        for col in 0..cols as i32 {
            // Twice the distance, so that both halves of an even side tie.
            let dr = (2 * row - (rows as i32 - 1)).abs();
            let dc = (2 * col - (cols as i32 - 1)).abs();
            out.push(-(dr + dc));
        }
    }
    out
}

/// The board's symmetries as cell permutations: the identity, the mirror
/// images and (on a square) the rotations and diagonal reflections.
fn symmetries(rows: usize, cols: usize) -> Vec<Vec<u16>> {
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    let rectangle: [Map; 4] = [
        |r, c, _, _| (r, c),
        |r, c, _, n| (r, n - 1 - c),
        |r, c, m, _| (m - 1 - r, c),
        |r, c, m, n| (m - 1 - r, n - 1 - c),
    ];
    let square_only: [Map; 4] = [
        |r, c, _, _| (c, r),
        |r, c, m, _| (c, m - 1 - r),
        |r, c, _, n| (n - 1 - c, r),
        |r, c, m, n| (n - 1 - c, m - 1 - r),
    ];
    let mut maps: Vec<Map> = rectangle.to_vec();
    if rows == cols {
        maps.extend_from_slice(&square_only);
    }
    maps.iter()
        .map(|map| {
            let mut perm = Vec::with_capacity(rows * cols);
            for r in 0..rows {
                for c in 0..cols {
                    let (r2, c2) = map(r, c, rows, cols);
                    // Square-only maps swap rows and columns; rows == cols there.
                    perm.push((r2 * cols + c2) as u16);
                }
            }
            perm
        })
        .collect()
}

fn invert(perm: &[u16]) -> Vec<u16> {
    let mut inverse = vec![0u16; perm.len()];
    for (from, &to) in perm.iter().enumerate() {
        inverse[to as usize] = from as u16;
    }
    inverse
}

/// The exact board for the memo, after the symmetry that makes it smallest.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardKey {
    /// Up to 64 cells: X's cells in the low 64 bits, O's in the high ones.
    Packed(u128),
    /// Larger boards: X's bitset then O's, 6 words each.
    Wide(Box<[u64; 12]>),
}

/// Per-line tallies that the search keeps incrementally.
#[derive(Clone, Copy, Default)]
struct Tally {
    material: [i32; 2],
    threats: [i32; 2],
    open: [i32; 2],
}

pub struct SearchBoard<'g> {
    pub geo: &'g Geometry,
    /// EMPTY, or 1 + player slot.
    cells: Vec<u8>,
    /// Stones of each player in each line.
    counts: Vec<[u8; 2]>,
    tally: Tally,
    /// Stones within NEAR_RADIUS of each cell (only kept on big boards).
    near: Vec<u16>,
    track_near: bool,
    /// Stones in the order they were placed.
    stones: Vec<u16>,
    pub to_move: usize,
}

pub fn slot(player: Player) -> usize {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

impl<'g> SearchBoard<'g> {
    pub fn new(geo: &'g Geometry, position: &Position) -> SearchBoard<'g> {
        let mut board = SearchBoard {
            geo,
            cells: vec![EMPTY; geo.cells],
            counts: vec![[0, 0]; geo.line_count()],
            tally: Tally::default(),
            near: vec![0; geo.cells],
            track_near: geo.restricts(geo.cells),
            stones: Vec::with_capacity(geo.cells),
            to_move: 0,
        };
        for _ in 0..geo.line_count() {
            board.count_line([0, 0], 1);
        }
        // Replay X and O stones alternately; the order does not matter for
        // the tallies, only that each stone is counted once.
        for (cell, holder) in position.board().cells().iter().enumerate() {
            if let Some(player) = holder {
                board.place_for(cell, slot(*player));
            }
        }
        board.to_move = slot(position.to_move());
        board
    }

    fn count_line(&mut self, counts: [u8; 2], sign: i32) {
        let k = self.geo.k;
        for player in 0..2 {
            let other = 1 - player;
            if counts[other] == 0 {
                let own = counts[player] as usize;
                self.tally.material[player] += sign * self.geo.weights[own.min(k)];
                self.tally.open[player] += sign;
                if own + 1 == k {
                    self.tally.threats[player] += sign;
                }
            }
        }
    }

    /// Puts a stone of `player` on `cell`; true if it completes a line.
    fn place_for(&mut self, cell: usize, player: usize) -> bool {
        let mut won = false;
        for &line in &self.geo.lines_of_cell[cell] {
            let line = line as usize;
            let before = self.counts[line];
            let mut after = before;
            after[player] += 1;
            self.count_line(before, -1);
            self.count_line(after, 1);
            self.counts[line] = after;
            won |= after[player] as usize == self.geo.k;
        }
        self.cells[cell] = 1 + player as u8;
        self.stones.push(cell as u16);
        if self.track_near {
            self.touch_near(cell, 1);
        }
        won
    }

    fn touch_near(&mut self, cell: usize, delta: i16) {
        let (rows, cols) = (self.geo.rows as isize, self.geo.cols as isize);
        let (row, col) = ((cell / self.geo.cols) as isize, (cell % self.geo.cols) as isize);
        for r in (row - NEAR_RADIUS).max(0)..=(row + NEAR_RADIUS).min(rows - 1) {
            for c in (col - NEAR_RADIUS).max(0)..=(col + NEAR_RADIUS).min(cols - 1) {
                let i = (r * cols + c) as usize;
                self.near[i] = self.near[i].wrapping_add_signed(delta);
            }
        }
    }

    /// The player to move takes `cell`; true if that wins.
    pub fn play(&mut self, cell: usize) -> bool {
        let player = self.to_move;
        let won = self.place_for(cell, player);
        self.to_move = 1 - player;
        won
    }

    /// Takes back the last move, which was on `cell`.
    pub fn undo(&mut self, cell: usize) {
        let player = 1 - self.to_move;
        for &line in &self.geo.lines_of_cell[cell] {
            let line = line as usize;
            let before = self.counts[line];
            let mut after = before;
            after[player] -= 1;
            self.count_line(before, -1);
            self.count_line(after, 1);
            self.counts[line] = after;
        }
        self.cells[cell] = EMPTY;
        self.stones.pop();
        if self.track_near {
            self.touch_near(cell, -1);
        }
        self.to_move = player;
    }

    pub fn is_empty_cell(&self, cell: usize) -> bool {
        self.cells[cell] == EMPTY
    }

    pub fn empties(&self) -> usize {
        self.geo.cells - self.stones.len()
    }

    pub fn is_full(&self) -> bool {
        self.stones.len() == self.geo.cells
    }

    /// True if `player` can complete a line with one stone.
    pub fn has_threat(&self, player: usize) -> bool {
        self.tally.threats[player] > 0
    }

    /// True if `player` still has a line free of the opponent's stones.
    pub fn can_still_win(&self, player: usize) -> bool {
        self.tally.open[player] > 0
    }

    /// The distinct cells where `player` would complete a line, ascending.
    pub fn winning_cells(&self, player: usize, out: &mut Vec<u16>) {
        out.clear();
        if !self.has_threat(player) {
            return;
        }
        let k = self.geo.k as u8;
        for (line, counts) in self.counts.iter().enumerate() {
            if counts[player] + 1 == k && counts[1 - player] == 0 {
                let gap = self
                    .geo
                    .cells_of_line(line)
                    .iter()
                    .find(|&&c| self.cells[c as usize] == EMPTY);
                if let Some(&gap) = gap {
                    if !out.contains(&gap) {
                        out.push(gap);
                    }
                }
            }
        }
        out.sort_unstable();
    }

    /// Estimate for the player to move: open lines weighted by how full
    /// they are, the mover's counting half again since the mover acts first.
    pub fn heuristic(&self) -> i32 {
        let me = self.to_move;
        let mine = self.tally.material[me] as i64;
        let theirs = self.tally.material[1 - me] as i64;
        let estimate = mine + mine / 2 - theirs;
        estimate.clamp(-(HEURISTIC_CAP as i64 - 1), HEURISTIC_CAP as i64 - 1) as i32
    }

    /// How promising `cell` is for the mover: what it adds to the mover's
    /// open lines plus what it takes from the opponent's, then centrality.
    /// Also whether it would give the mover a line one short of k (a
    /// threat), in the same pass since this runs for every candidate.
    pub fn move_priority(&self, cell: usize) -> (i32, bool) {
        let me = self.to_move;
        let them = 1 - me;
        let weights = &self.geo.weights;
        let mut gain = 0i32;
        let mut threat = false;
        for &line in &self.geo.lines_of_cell[cell] {
            let counts = self.counts[line as usize];
            let own = counts[me] as usize;
            if counts[them] == 0 {
                gain = gain.saturating_add(weights[own + 1] - weights[own]);
                threat |= own + 2 == self.geo.k;
            }
            if own == 0 {
                gain = gain.saturating_add(weights[counts[them] as usize]);
            }
        }
        let priority = gain.saturating_mul(64).saturating_add(self.geo.centrality[cell]);
        (priority, threat)
    }

    /// Empty cells near a stone (the centre cell on an empty board).
    pub fn near_cells(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.stones.is_empty() {
            let centre = (self.geo.rows / 2) * self.geo.cols + self.geo.cols / 2;
            out.push(centre as u16);
            return;
        }
        for cell in 0..self.geo.cells {
            if self.cells[cell] == EMPTY && self.near[cell] > 0 {
                out.push(cell as u16);
            }
        }
    }

    pub fn is_near_stone(&self, cell: usize) -> bool {
        if self.stones.is_empty() {
            let centre = (self.geo.rows / 2) * self.geo.cols + self.geo.cols / 2;
            return cell == centre;
        }
        self.near[cell] > 0
    }

    /// The board under its smallest symmetric image, and which symmetry
    /// produced it (to map stored moves back).
    pub fn canonical(&self) -> (BoardKey, usize) {
        if self.geo.cells <= 64 {
            self.canonical_packed()
        } else {
            self.canonical_wide()
        }
    }

    fn canonical_packed(&self) -> (BoardKey, usize) {
        let mut best = (u128::MAX, 0);
        for (s, perm) in self.geo.symmetries.iter().enumerate() {
            let mut bits = 0u128;
            for &stone in &self.stones {
                let shift = perm[stone as usize] as u32 + 64 * (self.cells[stone as usize] as u32 - 1);
                bits |= 1u128 << shift;
            }
            if bits < best.0 {
                best = (bits, s);
            }
        }
        (BoardKey::Packed(best.0), best.1)
    }

    fn canonical_wide(&self) -> (BoardKey, usize) {
        // 2 bitsets of up to 361 bits: 6 words each.
        const WORDS: usize = 6;
        let mut best = ([u64::MAX; 2 * WORDS], 0);
        for (s, perm) in self.geo.symmetries.iter().enumerate() {
            let mut bits = [0u64; 2 * WORDS];
            for &stone in &self.stones {
                let at = perm[stone as usize] as usize + WORDS * 64 * (self.cells[stone as usize] as usize - 1);
                bits[at / 64] |= 1u64 << (at % 64);
            }
            if bits < best.0 {
                best = (bits, s);
            }
        }
        (BoardKey::Wide(Box::new(best.0)), best.1)
    }
}
