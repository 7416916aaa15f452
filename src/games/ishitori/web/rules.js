// Ishitori rules for the analysis board: a position is {remaining} (one
// heap; the board's set-up takes a number of stones); a move is {take}.
// Normal play: whoever cannot move loses; misère: whoever takes the last
// stone loses.

const OTHER = { first: "second", second: "first" };
const state = (n, toMove) => ({ remaining: n, remaining_decimal: String(n), to_move: toMove });

const rules = {
  players: ["first", "second"],
  names: { first: "First player", second: "Second player" },
  setupHelp: "the number of stones, e.g. 22",
  start: (options) => state(options.remaining ?? 21, "first"),
  toMove: (s) => s.to_move,
  legal: (s, options) => (options.take ?? [1, 2, 3]).filter((t) => t <= s.remaining).map((take) => ({ take, heap: 0 })),
  apply: (s, mv) => state(s.remaining - mv.take, OTHER[s.to_move]),
  // The side to move at the end: misère, the one who took the last stone
  // lost; normal play, the one who cannot move loses.
  result(s, options) {
    if (rules.legal(s, options).length) return null;
    const moverLoses = !(options.misere ?? true) || s.remaining > 0;
    return { winner: moverLoses ? OTHER[s.to_move] : s.to_move };
  },
  notation: (mv) => `−${mv.take}`,
  asMatchState: (s) => s,
  format: (s) => String(s.remaining),
  parse(text) {
    const n = Number(text.trim());
    if (!Number.isSafeInteger(n) || n < 0) throw new Error("a number of stones, e.g. 22");
    return state(n, "first");
  },
  // Whether the first player loses against best play (one heap small enough
  // to work out here): the page then lets the AI start a match.
  firstPlayerLoses(options) {
    const n = options.remaining ?? 21;
    if (options.heaps || !Number.isSafeInteger(n) || n > 100000) return false;
    const take = options.take ?? [1, 2, 3];
    const lost = [];
    for (let i = 0; i <= n; i++) {
      const moves = take.filter((t) => t <= i);
      lost[i] = moves.length === 0 ? !((options.misere ?? true) && i === 0) : moves.every((t) => !lost[i - t]);
    }
    return lost[n];
  },
  optionsFor: (s, options) => ({ ...options, remaining: s.remaining }),
};
export default rules;
