// k in a row on a board of row strings: the rule tic-tac-toe (m,n,k) and
// Connect Four share. Returns the mark that has a line, or null.
export function lineWinner(board, k) {
  const rows = board.length;
  const cols = board[0].length;
  const at = (r, c) => (r >= 0 && r < rows && c >= 0 && c < cols ? board[r][c] : ".");
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const mark = board[r][c];
      if (mark === ".") continue;
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        let n = 1;
        while (n < k && at(r + n * dr, c + n * dc) === mark) n++;
        if (n === k) return mark;
      }
    }
  }
  return null;
}

export const otherMark = (mark) => (mark === "X" ? "O" : "X");

export const countMarks = (board, mark) => board.join("").split(mark).length - 1;

// Row strings are immutable: a copy with one cell changed.
export function setCell(board, r, c, mark) {
  return board.map((row, i) => (i === r ? row.slice(0, c) + mark + row.slice(c + 1) : row));
}
