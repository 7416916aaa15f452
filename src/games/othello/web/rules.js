// Othello rules for the analysis board: a position is {board: row strings
// over X (black), O (white) and ".", to_move}; a move is {square: "d3"}
// (a1 top-left) or {pass: true}, which the board plays by itself.

import { countMarks, otherMark } from "./lines.js";

const LETTERS = "abcdefgh";
const DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const squareName = (r, c) => `${LETTERS[c]}${r + 1}`;

// The discs a move at (r, c) turns over for `mark` (none: illegal).
function flips(board, r, c, mark) {
  if (board[r][c] !== ".") return [];
  const n = board.length;
  const turned = [];
  for (const [dr, dc] of DIRECTIONS) {
    const run = [];
    let y = r + dr;
    let x = c + dc;
    while (y >= 0 && y < n && x >= 0 && x < n && board[y][x] === otherMark(mark)) {
      run.push([y, x]);
      y += dr;
      x += dc;
    }
    if (run.length && y >= 0 && y < n && x >= 0 && x < n && board[y][x] === mark) turned.push(...run);
  }
  return turned;
}

function squares(board, mark) {
  const found = [];
  for (let r = 0; r < board.length; r++) for (let c = 0; c < board.length; c++) if (flips(board, r, c, mark).length) found.push({ square: squareName(r, c) });
  return found;
}

function startBoard(size) {
  const board = Array.from({ length: size }, () => Array(size).fill("."));
  const m = size / 2;
  board[m - 1][m - 1] = board[m][m] = "O";
  board[m - 1][m] = board[m][m - 1] = "X";
  return board.map((row) => row.join(""));
}

const rules = {
  players: ["X", "O"],
  names: { X: "Black", O: "White" },
  setupHelp: 'rows of X (black), O (white), "." separated by "/", then who moves (X or O)',
  start: (options) => ({ board: startBoard(options.size ?? 8), to_move: "X" }),
  toMove: (state) => state.to_move,
  legal(state) {
    const mine = squares(state.board, state.to_move);
    if (mine.length) return mine;
    return squares(state.board, otherMark(state.to_move)).length ? [{ pass: true }] : [];
  },
  apply(state, mv) {
    const next = otherMark(state.to_move);
    if (mv.pass) return { board: state.board, to_move: next };
    const c = LETTERS.indexOf(mv.square[0]);
    const r = Number(mv.square.slice(1)) - 1;
    const turned = flips(state.board, r, c, state.to_move);
    if (!turned.length) throw new Error(`${mv.square} turns no disc`);
    const board = state.board.map((row) => [...row]);
    for (const [y, x] of [[r, c], ...turned]) board[y][x] = state.to_move;
    return { board: board.map((row) => row.join("")), to_move: next };
  },
  result(state) {
    if (rules.legal(state).length) return null;
    const x = countMarks(state.board, "X");
    const o = countMarks(state.board, "O");
    return { winner: x > o ? "X" : o > x ? "O" : "draw", scores: { X: x, O: o } };
  },
  notation: (mv) => (mv.pass ? "pass" : mv.square),
  asMatchState: (state) => ({ board: state.board, to_move: state.to_move, human_plays: "X" }),
  // Set-up: the rows top first, "/" between them, then who moves: "...XO.../... X".
  format: (state) => `${state.board.join("/")} ${state.to_move}`,
  parse(text) {
    const [rows, mover = "X"] = text.trim().split(/\s+/);
    const board = (rows ?? "").split("/").map((r) => r.toUpperCase());
    if (![4, 6, 8].includes(board.length) || board.some((r) => r.length !== board.length || /[^XO.]/.test(r)) || !/^[XO]$/i.test(mover)) {
      throw new Error('4, 6 or 8 rows of X, O and "." separated by "/", then X or O to move');
    }
    return { board, to_move: mover.toUpperCase() };
  },
  optionsFor: (state, options) => ({ ...options, size: state.board.length }),
};
export default rules;
