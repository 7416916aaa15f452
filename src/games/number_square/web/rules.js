// Number Square rules for the analysis board: a position is {board: rows of
// numbers, null for a taken tile; scores: {first, second}; to_move}. A tile
// may be taken on the edge or next to a taken one; the most points win.

const OTHER = { first: "second", second: "first" };

function reachable(board, r, c) {
  const n = board.length;
  if (board[r][c] === null) return false;
  if (r === 0 || c === 0 || r === n - 1 || c === n - 1) return true;
  return [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]].some(([y, x]) => board[y][x] === null);
}

// The server deals 1..size² shuffled; the page deals the same way.
function deal(size) {
  const values = Array.from({ length: size * size }, (_, i) => i + 1);
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return Array.from({ length: size }, (_, r) => values.slice(r * size, (r + 1) * size));
}

const rules = {
  players: ["first", "second"],
  names: { first: "First player", second: "Second player" },
  setupHelp: 'rows of numbers separated by "/", x for a taken tile',
  // The drawing shows taken tiles' values from the options' deal.
  matchOptions: (start, options) => ({ ...options, board: start.board.map((row) => [...row]) }),
  start: (options) => ({ board: options.board ?? deal(options.size ?? 8), scores: { first: 0, second: 0 }, to_move: "first" }),
  toMove: (s) => s.to_move,
  legal: (s) => s.board.flatMap((row, r) => row.flatMap((_, c) => (reachable(s.board, r, c) ? [{ row: r, col: c }] : []))),
  apply(s, mv) {
    if (!reachable(s.board, mv.row, mv.col)) throw new Error("that tile cannot be taken");
    const value = s.board[mv.row][mv.col];
    const board = s.board.map((row, r) => row.map((v, c) => (r === mv.row && c === mv.col ? null : v)));
    return { board, scores: { ...s.scores, [s.to_move]: s.scores[s.to_move] + value }, to_move: OTHER[s.to_move] };
  },
  result(s) {
    if (rules.legal(s).length) return null;
    const { first, second } = s.scores;
    return { winner: first > second ? "first" : second > first ? "second" : "draw", scores: s.scores };
  },
  notation: (mv, before) => `r${mv.row + 1}c${mv.col + 1}=${before.board[mv.row][mv.col]}`,
  // The drawing's "you" is the side to move (its analysis asks for the mover's margin).
  asMatchState: (s) => ({ board: s.board, scores: { human: s.scores[s.to_move], ai: s.scores[OTHER[s.to_move]] } }),
  // Set-up: the rows, numbers separated by spaces, rows by "/"; "x" for a taken tile.
  format: (s) => s.board.map((row) => row.map((v) => (v === null ? "x" : v)).join(" ")).join(" / "),
  parse(text) {
    const board = text.split("/").map((row) => row.trim().split(/[\s,]+/).filter(Boolean).map((v) => (v.toLowerCase() === "x" ? null : Number(v))));
    if (!board.length || board.some((row) => row.length !== board.length || row.some((v) => v !== null && !Number.isInteger(v)))) {
      throw new Error('a square of numbers, rows separated by "/", "x" for a taken tile');
    }
    return { board, scores: { first: 0, second: 0 }, to_move: "first" };
  },
  optionsFor: (s, options) => ({ ...options, size: s.board.length }),
};
export default rules;
