// Connect Four rules for the analysis board: a position is {board: row
// strings, top row first}; a move is {column}, 1-based; X moves first. The
// set-up format is the solvers' move string ("4453").

import { countMarks, lineWinner, setCell } from "./lines.js";

const toMove = (board) => (countMarks(board, "X") > countMarks(board, "O") ? "O" : "X");

function drop(board, column) {
  for (let r = board.length - 1; r >= 0; r--) if (board[r][column - 1] === ".") return setCell(board, r, column - 1, toMove(board));
  throw new Error(`column ${column} is full`);
}

const rules = {
  players: ["X", "O"],
  names: { X: "Yellow (X)", O: "Red (O)" },
  setupHelp: "the columns played, 1-based, as the solvers write them: e.g. 4453",
  start: (options) => ({ board: Array.from({ length: options.rows ?? 6 }, () => ".".repeat(options.cols ?? 7)) }),
  toMove: (state) => toMove(state.board),
  legal(state, options) {
    if (rules.result(state, options)) return [];
    return [...state.board[0]].flatMap((mark, c) => (mark === "." ? [{ column: c + 1 }] : []));
  },
  apply: (state, mv) => ({ board: drop(state.board, mv.column) }),
  result(state, options) {
    const winner = lineWinner(state.board, options.k ?? 4);
    if (winner) return { winner };
    return state.board[0].includes(".") ? null : { winner: "draw" };
  },
  notation: (mv) => `${mv.column}`,
  asMatchState: (state) => ({ board: state.board, human_plays: "X" }),
  // Set-up: the solvers' move string ("4453"), kept as moves in the move
  // list rather than as a start position, so the history stays navigable.
  parseMoves(text) {
    const digits = text.trim();
    if (!/^[1-9]*$/.test(digits)) throw new Error('the columns played, 1-based, e.g. "4453"');
    return [...digits].map((d) => ({ column: Number(d) }));
  },
  formatMoves: (moves) => moves.map((mv) => mv.column).join(""),
};
export default rules;
