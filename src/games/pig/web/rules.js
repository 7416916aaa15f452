// Pig rules for the analysis board: a position is {scores: {first, second},
// turn_total, to_move, last_roll}; a move is {action: "hold"} or
// {action: "roll", roll: face}. The board rolls the die when the person
// rolls (`complete`), and the face is kept in the move, so a line replays
// (and a link restores) exactly.

const OTHER = { first: "second", second: "first" };

// What a turn banks: the standard rules lose the turn total on a 1; the
// progressive variant banks exactly 1 then, and at least 1 on a hold.
const progressive = (options) => options.variant === "progressive";

function endTurn(s, banked, options, lastRoll) {
  const scores = { ...s.scores, [s.to_move]: s.scores[s.to_move] + banked };
  const won = scores[s.to_move] >= (options.goal ?? 100);
  return { scores, turn_total: 0, to_move: won ? s.to_move : OTHER[s.to_move], last_roll: lastRoll };
}

const rules = {
  players: ["first", "second"],
  names: { first: "First player", second: "Second player" },
  setupHelp: "first player's score, second's, the turn total, who decides: e.g. 40 55 12 first",
  // Its review takes another record (rolls and actors a/b): not offered here.
  reviewable: false,
  start: () => ({ scores: { first: 0, second: 0 }, turn_total: 0, to_move: "first", last_roll: null }),
  toMove: (s) => s.to_move,
  complete(move, s, options) {
    if (move.action !== "roll" || move.roll != null) return move;
    return { action: "roll", roll: 1 + Math.floor(Math.random() * (options.die_sides ?? 6)) };
  },
  legal: (s, options) => (rules.result(s, options) ? [] : [{ action: "roll" }, { action: "hold" }]),
  apply(s, mv, options) {
    if (mv.action === "hold") return endTurn(s, progressive(options) ? Math.max(1, s.turn_total) : s.turn_total, options, s.last_roll);
    if (mv.action !== "roll" || !Number.isInteger(mv.roll)) throw new Error("a roll needs its face");
    if (mv.roll <= 1) return endTurn(s, progressive(options) ? 1 : 0, options, mv.roll);
    return { ...s, turn_total: s.turn_total + mv.roll, last_roll: mv.roll };
  },
  result(s, options) {
    const goal = options.goal ?? 100;
    const winner = rules.players.find((p) => s.scores[p] >= goal);
    return winner ? { winner, scores: s.scores } : null;
  },
  notation: (mv) => (mv.action === "hold" ? "hold" : `roll ${mv.roll}`),
  // The drawing's "you" is the side to decide (its analysis asks for the mover's chances).
  asMatchState: (s) => ({ scores: { human: s.scores[s.to_move], ai: s.scores[OTHER[s.to_move]] }, turn_total: s.turn_total, last_roll: s.last_roll }),
  format: (s) => `${s.scores.first} ${s.scores.second} ${s.turn_total} ${s.to_move}`,
  parse(text) {
    const [first, second, turn, mover = "first"] = text.trim().split(/[\s,]+/);
    const nums = [first, second, turn].map(Number);
    if (nums.some((n) => !Number.isInteger(n) || n < 0) || !OTHER[mover.toLowerCase()]) {
      throw new Error("three whole numbers (the scores, the turn total) and first or second, e.g. 40 55 12 first");
    }
    return { scores: { first: nums[0], second: nums[1] }, turn_total: nums[2], to_move: mover.toLowerCase(), last_roll: null };
  },
  optionsFor: (s, options) => options,
};
export default rules;
