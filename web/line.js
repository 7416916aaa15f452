// The analysis board's line: a start position, the moves played from it and
// a cursor (how many of them are on the board). Going back keeps the moves
// after the cursor (redo); playing a move there replaces them, as on
// lichess's and gamesolver.org's boards. Positions are replayed with the
// game's rules module, so any move can be looked at again.

export function newLine(rules, options, start = rules.start(options)) {
  return { rules, options, start, moves: [], cursor: 0 };
}

// The position after the first `n` moves (default: at the cursor).
export function positionAt(line, n = line.cursor) {
  let state = line.start;
  for (const mv of line.moves.slice(0, n)) state = line.rules.apply(state, mv, line.options);
  return state;
}

// A move nobody chooses plays itself: a side with no move but a pass
// passes (Othello), and a die due (Nine Square's turn) is thrown, as in
// matches. A replay (`chance` false) leaves the dice to the moves it is
// given, which carry their faces.
function withForcedMoves(line, chance) {
  for (;;) {
    const position = positionAt(line);
    const legal = line.rules.legal(position, line.options);
    const forced = legal.length === 1 && (legal[0].pass || (chance && legal[0].roll === null)) ? legal[0] : null;
    if (!forced) return line;
    line.moves.push(line.rules.complete ? line.rules.complete(forced, position, line.options) : forced);
    line.cursor += 1;
  }
}

// Plays `move` at the cursor: throws (the rules' message) when it is
// illegal. A move that needs chance (Pig's roll) gets its die's face first.
export function play(line, played, { chance = true } = {}) {
  const before = positionAt(line);
  const move = line.rules.complete ? line.rules.complete(played, before, line.options) : played;
  line.rules.apply(before, move, line.options);
  line.moves = line.moves.slice(0, line.cursor);
  line.moves.push(move);
  line.cursor += 1;
  return withForcedMoves(line, chance);
}

// Plays a whole list from the start (a set-up move string, a match's
// history, a link's moves), then whatever plays itself after them.
export function playAll(line, moves) {
  for (const mv of moves) play(line, mv, { chance: false });
  return withForcedMoves(line, true);
}

export function goTo(line, n) {
  line.cursor = Math.max(0, Math.min(line.moves.length, n));
  return line;
}
