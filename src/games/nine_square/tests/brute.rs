//! An independent Nine Square score for the tests: every scoring line
//! written out and checked over a plain array of cells, no counters. Shared
//! by the search and review tests.

/// Score from scratch over a plain array of cells (0 empty, 1 X, 2 O).
pub fn brute_score(cells: &[u8]) -> (i32, i32) {
    let mut lines: Vec<(Vec<usize>, i32)> = Vec::new();
    for b in 0..9 {
        let (top, left) = ((b / 3) * 3, (b % 3) * 3);
        let at = |r: usize, c: usize| (top + r) * 9 + left + c;
        for i in 0..3 {
            lines.push(((0..3).map(|j| at(i, j)).collect(), 1));
            lines.push(((0..3).map(|j| at(j, i)).collect(), 1));
        }
        lines.push(((0..3).map(|i| at(i, i)).collect(), 1));
        lines.push(((0..3).map(|i| at(i, 2 - i)).collect(), 1));
    }
    for i in 0..9 {
        lines.push(((0..9).map(|j| i * 9 + j).collect(), 3));
        lines.push(((0..9).map(|j| j * 9 + i).collect(), 3));
    }
    lines.push(((0..9).map(|i| i * 9 + i).collect(), 3));
    lines.push(((0..9).map(|i| i * 9 + 8 - i).collect(), 3));
    let mut score = (0, 0);
    for (line, points) in lines {
        if line.iter().all(|&c| cells[c] == 1) {
            score.0 += points;
        }
        if line.iter().all(|&c| cells[c] == 2) {
            score.1 += points;
        }
    }
    score
}
