// Nine Square rules for the analysis board: a position is {board: 9 row
// strings over X, O and ".", to_move "X" | "O", dice: the face the mover
// rolled, or null before the roll}. A turn is two moves, as a match's
// history has them: the roll ({roll: face}, thrown by the board itself)
// and the placements ({placements: [{row, col}, ...]}, exactly
// min(dice, empty cells)). X moves first.

const SIDE = 9;
const BOX_LINE_POINTS = 1;
const GRID_LINE_POINTS = 3;
const FACES = 6;

// Every scoring line as its cells and its worth: the 8 lines of each 3 x 3
// box, then the grid's 9 rows, 9 columns and 2 diagonals.
const LINES = (() => {
  const lines = [];
  for (let box = 0; box < 9; box++) {
    const top = Math.floor(box / 3) * 3;
    const left = (box % 3) * 3;
    const cells = (f) => [0, 1, 2].map(f);
    for (let i = 0; i < 3; i++) {
      lines.push({ points: BOX_LINE_POINTS, cells: cells((j) => [top + i, left + j]) });
      lines.push({ points: BOX_LINE_POINTS, cells: cells((j) => [top + j, left + i]) });
    }
    lines.push({ points: BOX_LINE_POINTS, cells: cells((j) => [top + j, left + j]) });
    lines.push({ points: BOX_LINE_POINTS, cells: cells((j) => [top + j, left + 2 - j]) });
  }
  const all = (f) => Array.from({ length: SIDE }, (_, j) => f(j));
  for (let i = 0; i < SIDE; i++) {
    lines.push({ points: GRID_LINE_POINTS, cells: all((j) => [i, j]) });
    lines.push({ points: GRID_LINE_POINTS, cells: all((j) => [j, i]) });
  }
  lines.push({ points: GRID_LINE_POINTS, cells: all((j) => [j, j]) });
  lines.push({ points: GRID_LINE_POINTS, cells: all((j) => [j, SIDE - 1 - j]) });
  return lines;
})();

const other = (mark) => (mark === "X" ? "O" : "X");
const emptyCount = (board) => board.join("").split(".").length - 1;
const cellName = (row, col) => `r${row + 1}c${col + 1}`;

export function score(board) {
  const total = { X: 0, O: 0 };
  for (const { points, cells } of LINES) {
    const first = board[cells[0][0]][cells[0][1]];
    if (first !== "." && cells.every(([r, c]) => board[r][c] === first)) total[first] += points;
  }
  return total;
}

function place(board, cells, mark) {
  const rows = board.map((row) => [...row]);
  for (const { row, col } of cells) rows[row][col] = mark;
  return rows.map((row) => row.join(""));
}

function checkPlacements(state, placements) {
  if (state.dice === null) throw new Error("the die is not rolled yet");
  const need = Math.min(state.dice, emptyCount(state.board));
  if (!Array.isArray(placements) || placements.length !== need) throw new Error(`place exactly ${need} mark${need === 1 ? "" : "s"}`);
  const seen = new Set();
  for (const { row, col } of placements) {
    if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || row >= SIDE || col < 0 || col >= SIDE) throw new Error("a cell is off the 9 x 9 grid");
    if (state.board[row][col] !== ".") throw new Error(`${cellName(row, col)} is taken`);
    if (seen.has(`${row},${col}`)) throw new Error(`${cellName(row, col)} is picked twice`);
    seen.add(`${row},${col}`);
  }
}

const rules = {
  players: ["X", "O"],
  names: { X: "X", O: "O" },
  setupHelp: '9 rows of X, O and "." separated by "/", then who places and their roll: e.g. X......../........./… O 4',
  // Nine Square has no stateless review (GET /matches/{id}/review only).
  reviewable: false,
  start: () => ({ board: Array.from({ length: SIDE }, () => ".".repeat(SIDE)), to_move: "X", dice: null }),
  toMove: (state) => state.to_move,
  // The roll comes first; then the empty cells, one mark each (a turn's
  // placements are several of them, as in a match's legal_moves).
  legal(state) {
    if (rules.result(state)) return [];
    if (state.dice === null) return [{ roll: null }];
    const cells = [];
    state.board.forEach((row, r) => [...row].forEach((mark, c) => mark === "." && cells.push({ row: r, col: c })));
    return cells;
  },
  // The board throws the die itself: a roll's face is kept in the move, so
  // a line replays (and a link restores) exactly.
  complete(move) {
    if (!("roll" in move) || move.roll != null) return move;
    return { roll: 1 + Math.floor(Math.random() * FACES) };
  },
  apply(state, mv) {
    if (rules.result(state)) throw new Error("the grid is full");
    if ("roll" in mv) {
      if (state.dice !== null) throw new Error("the die is already rolled");
      if (!Number.isInteger(mv.roll) || mv.roll < 1 || mv.roll > FACES) throw new Error("a roll is a face from 1 to 6");
      return { ...state, dice: mv.roll };
    }
    checkPlacements(state, mv.placements);
    return { board: place(state.board, mv.placements, state.to_move), to_move: other(state.to_move), dice: null };
  },
  result(state) {
    if (emptyCount(state.board) > 0) return null;
    const scores = score(state.board);
    return { winner: scores.X === scores.O ? "draw" : scores.X > scores.O ? "X" : "O", scores };
  },
  notation: (mv) => ("roll" in mv ? `rolls ${mv.roll}` : mv.placements.map((p) => cellName(p.row, p.col)).join(" ")),
  // The drawing's "you" is the side to place.
  asMatchState: (state) => ({ board: state.board, human_plays: state.to_move, dice: state.dice, score: score(state.board) }),
  format: (state) => `${state.board.join("/")} ${state.to_move}${state.dice === null ? "" : ` ${state.dice}`}`,
  parse(text) {
    const [rows = "", mover = "X", dice] = text.trim().split(/\s+/);
    const board = rows.split("/").map((r) => r.toUpperCase());
    if (board.length !== SIDE || board.some((r) => r.length !== SIDE || /[^XO.]/.test(r))) {
      throw new Error('9 rows of 9 X, O or ".", separated by "/"');
    }
    if (!/^[XO]$/i.test(mover)) throw new Error("who places: X or O");
    const face = dice === undefined ? null : Number(dice);
    if (face !== null && !(Number.isInteger(face) && face >= 1 && face <= FACES)) throw new Error("the roll is a face from 1 to 6");
    return { board, to_move: mover.toUpperCase(), dice: face };
  },
  optionsFor: (state, options) => options,
};
export default rules;
