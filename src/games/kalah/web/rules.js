// Kalah rules for the analysis board (the contract's "Kalah (mancala)"): a
// position is {board: {south, north, south_store, north_store}, to_move};
// a move is {house}, 1..m in the mover's sowing order.

const OTHER = { south: "north", north: "south" };
const sum = (houses) => houses.reduce((a, b) => a + b, 0);

function sow(state, house, capture) {
  const me = state.to_move;
  const them = OTHER[me];
  const b = { south: [...state.board.south], north: [...state.board.north], south_store: state.board.south_store, north_store: state.board.north_store };
  const m = b[me].length;
  let seeds = b[me][house - 1];
  if (!seeds) throw new Error(`house ${house} is empty`);
  b[me][house - 1] = 0;
  // The ring the mover sows along: own houses, own store, their houses (their store skipped).
  const ring = [...Array(m).keys()].map((i) => [me, i]).concat([[`${me}_store`]], [...Array(m).keys()].map((i) => [them, i]));
  let at = house - 1;
  let last = null;
  while (seeds > 0) {
    at = (at + 1) % ring.length;
    last = ring[at];
    if (last.length === 1) b[last[0]] += 1;
    else b[last[0]][last[1]] += 1;
    seeds -= 1;
  }
  let again = last.length === 1;
  if (!again && last[0] === me && b[me][last[1]] === 1) {
    const opposite = m - 1 - last[1];
    if (b[them][opposite] > 0 || capture === "empty") {
      b[`${me}_store`] += 1 + b[them][opposite];
      b[me][last[1]] = 0;
      b[them][opposite] = 0;
    }
  }
  // One side empty ends the game: each side keeps what is left on it.
  if (sum(b.south) === 0 || sum(b.north) === 0) {
    b.south_store += sum(b.south);
    b.north_store += sum(b.north);
    b.south = b.south.map(() => 0);
    b.north = b.north.map(() => 0);
    return { board: b, to_move: null };
  }
  return { board: b, to_move: again ? me : them };
}

const rules = {
  players: ["south", "north"],
  names: { south: "South", north: "North" },
  setupHelp: "south houses | south store | north houses | north store | who moves",
  start(options) {
    const houses = Array(options.houses ?? 6).fill(options.seeds ?? 4);
    return { board: { south: [...houses], north: [...houses], south_store: 0, north_store: 0 }, to_move: "south" };
  },
  toMove: (state) => state.to_move,
  legal: (state) => (state.to_move ? state.board[state.to_move].flatMap((n, i) => (n ? [{ house: i + 1 }] : [])) : []),
  apply: (state, mv, options) => sow(state, mv.house, options.capture),
  result(state) {
    if (state.to_move) return null;
    const { south_store: s, north_store: n } = state.board;
    return { winner: s > n ? "south" : n > s ? "north" : "draw", scores: { south: s, north: n } };
  },
  notation: (mv, before) => `${before.to_move === "south" ? "S" : "N"}${mv.house}`,
  // Kalah's drawing lets only `human_plays` sow: here that is whoever moves.
  asMatchState: (state) => ({ board: state.board, to_move: state.to_move, human_plays: state.to_move ?? "south" }),
  // Set-up: south's houses, south's store, north's houses, north's store, who moves:
  // "4 4 4 4 4 4 | 0 | 4 4 4 4 4 4 | 0 | south".
  format: (s) => `${s.board.south.join(" ")} | ${s.board.south_store} | ${s.board.north.join(" ")} | ${s.board.north_store} | ${s.to_move ?? "south"}`,
  parse(text) {
    const parts = text.split("|").map((p) => p.trim());
    const nums = (p) => p.split(/[\s,]+/).filter(Boolean).map(Number);
    const [south, [southStore], north, [northStore]] = parts.slice(0, 4).map(nums);
    const mover = (parts[4] || "south").toLowerCase();
    const ok = south?.length && north?.length === south.length && [...south, ...north, southStore, northStore].every((n) => Number.isInteger(n) && n >= 0);
    if (!ok || !OTHER[mover]) throw new Error('"south houses | south store | north houses | north store | south or north", e.g. 4 4 4 4 4 4 | 0 | 4 4 4 4 4 4 | 0 | south');
    return { board: { south, north, south_store: southStore, north_store: northStore }, to_move: mover };
  },
  optionsFor: (state, options) => ({ ...options, houses: state.board.south.length }),
};
export default rules;
