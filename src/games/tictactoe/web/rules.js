// Tic-tac-toe (m,n,k) rules for the analysis board: a position is the
// match state's shape, {board: row strings}; X moves first, so the counts
// say who is to move.

import { countMarks, lineWinner, setCell } from "./lines.js";

// The server's default k: the longer side on boards up to 5x5, else 5.
const kOf = (options, board) => options.k ?? (Math.max(board.length, board[0].length) <= 5 ? Math.max(board.length, board[0].length) : 5);
const toMove = (board) => (countMarks(board, "X") > countMarks(board, "O") ? "O" : "X");
const cellName = (r, c) => `r${r + 1}c${c + 1}`;

const rules = {
  players: ["X", "O"],
  names: { X: "X", O: "O" },
  setupHelp: 'rows of X, O and "." separated by "/", e.g. X../.O./..X',
  start: (options) => ({ board: Array.from({ length: options.rows ?? 3 }, () => ".".repeat(options.cols ?? 3)) }),
  toMove: (state) => toMove(state.board),
  legal(state, options) {
    if (rules.result(state, options)) return [];
    const moves = [];
    state.board.forEach((row, r) => [...row].forEach((mark, c) => mark === "." && moves.push({ row: r, col: c })));
    return moves;
  },
  apply: (state, mv) => ({ board: setCell(state.board, mv.row, mv.col, toMove(state.board)) }),
  result(state, options) {
    const winner = lineWinner(state.board, kOf(options, state.board));
    if (winner) return { winner };
    return state.board.every((row) => !row.includes(".")) ? { winner: "draw" } : null;
  },
  notation: (mv) => cellName(mv.row, mv.col),
  // The match drawing's view: the first player is "you" (the fixed side).
  asMatchState: (state) => ({ board: state.board, human_plays: "X" }),
  // Set-up: the board as row strings over X, O and ".", separated by "/".
  format: (state) => state.board.join("/"),
  parse(text) {
    const board = text.trim().split(/[\/\s]+/).filter(Boolean).map((r) => r.toUpperCase());
    if (!board.length || board.some((r) => r.length !== board[0].length || /[^XO.]/.test(r))) {
      throw new Error('rows of X, O and "." of one length, separated by "/" (e.g. X../.O./...)');
    }
    return { board };
  },
  optionsFor: (state, options) => ({ ...options, rows: state.board.length, cols: state.board[0].length }),
};
export default rules;
